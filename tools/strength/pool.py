#!/usr/bin/env python3
"""Pools the results of several match.py runs of the same pairing.

    python3 tools/strength/pool.py run1.txt run2.txt ...

Reads each run's final summary (the last "W/D/L = w/d/l" line and the last "pair counts
LL/LD/DD+WL/WD/WW = [..]" line that match.py prints) and prints the pooled W/D/L, score,
pair counts, the pentanomial Elo with its 95% interval (the same formulas as match.py: the
variance of the pair means, the normal approximation) and the LOS from wins and losses.
A run given alone reproduces its own pentanomial line.
"""
import math
import re
import sys

WDL = re.compile(r"W/D/L = (\d+)/(\d+)/(\d+)")
PAIRS = re.compile(r"pair counts LL/LD/DD\+WL/WD/WW = \[(\d+), (\d+), (\d+), (\d+), (\d+)\]")


def elo(s):
    if s <= 0:
        return -math.inf
    if s >= 1:
        return math.inf
    return -400.0 * math.log10(1.0 / s - 1.0)


def read(path):
    text = open(path, encoding="utf-8", errors="replace").read()
    wdl = WDL.findall(text)
    pairs = PAIRS.findall(text)
    if not wdl or not pairs:
        raise SystemExit(f"{path}: no final W/D/L and pair counts (did the run finish?)")
    return [int(x) for x in wdl[-1]], [int(x) for x in pairs[-1]]


def pool(runs):
    """runs: [(w, d, l), [ll, ld, dd_wl, wd, ww]] per run -> a summary dict."""
    w = sum(r[0][0] for r in runs)
    d = sum(r[0][1] for r in runs)
    l = sum(r[0][2] for r in runs)
    counts = [sum(r[1][i] for r in runs) for i in range(5)]
    n = sum(counts)
    values = [0.0, 0.25, 0.5, 0.75, 1.0]  # a pair's mean score for A
    s = sum(c * v for c, v in zip(counts, values)) / n
    var = sum(c * (v - s) ** 2 for c, v in zip(counts, values)) / n
    se = math.sqrt(var / n)
    z = 1.959964
    lo, hi = elo(s - z * se), elo(s + z * se)
    los = 0.5 * (1 + math.erf((w - l) / math.sqrt(2 * (w + l)))) if w + l else 0.5
    return {"w": w, "d": d, "l": l, "counts": counts, "pairs": n, "score": s,
            "elo": elo(s), "lo": lo, "hi": hi, "los": los}


def main(paths):
    if not paths:
        raise SystemExit(__doc__)
    p = pool([read(x) for x in paths])
    games = p["w"] + p["d"] + p["l"]
    print(f"{len(paths)} run(s), {games} games: W/D/L = {p['w']}/{p['d']}/{p['l']}, "
          f"score {100 * p['score']:.1f}%")
    print(f"pair counts LL/LD/DD+WL/WD/WW = {p['counts']} ({p['pairs']} pairs)")
    print(f"Elo(A-B) = {p['elo']:+.1f} +/- {(p['hi'] - p['lo']) / 2:.1f} (95%; interval "
          f"[{p['lo']:+.1f}, {p['hi']:+.1f}]) [pentanomial]; LOS {100 * p['los']:.1f}%")


if __name__ == "__main__":
    main(sys.argv[1:])
