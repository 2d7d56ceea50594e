#!/usr/bin/env python3
"""Solves an EPD test suite (such as Win At Chess) with a UCI engine: one search per position
at a fixed time, a position counts as solved when the engine's move is one of the `bm` moves
(or none of the `am` moves). The suite files are not in the repository; pass their path.

    tools/strength/epd_suite.py ENGINE SUITE.epd [--movetime MS] [--hash MB] [--threads N]
        [--option NAME=VALUE ...] [--limit N]

Prints each failed position and the total, e.g. `solved 277/300 at 1000 ms`.
Needs python-chess (pip install chess).
"""
import argparse
import sys

import chess
import chess.engine


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("engine")
    ap.add_argument("suite")
    ap.add_argument("--movetime", type=int, default=1000)
    ap.add_argument("--hash", type=int, default=16)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--option", action="append", default=[])
    ap.add_argument("--limit", type=int, default=0)
    args = ap.parse_args()

    engine = chess.engine.SimpleEngine.popen_uci(args.engine)
    options = {"Hash": args.hash, "Threads": args.threads}
    for o in args.option:
        name, _, value = o.partition("=")
        options[name] = value
    engine.configure(options)
    solved = total = 0
    with open(args.suite) as f:
        for line in f:
            line = line.strip()
            if not line:
                continue
            # Only bm, am and id are read: suites in the wild carry pv and other operations
            # that do not always parse.
            fields = line.split(" ")
            kept = [op.strip() for op in " ".join(fields[4:]).split(";")
                    if op.strip().split(" ")[0] in ("bm", "am", "id")]
            board, ops = chess.Board.from_epd(" ".join(fields[:4] + ["; ".join(kept) + ";"]))
            best = ops.get("bm", [])
            avoid = ops.get("am", [])
            result = engine.play(board, chess.engine.Limit(time=args.movetime / 1000),
                                 game=object())
            move = result.move
            ok = (move in best) if best else (move not in avoid)
            total += 1
            solved += ok
            if not ok:
                want = " ".join(board.san(m) for m in best) or "not " + " ".join(
                    board.san(m) for m in avoid)
                print(f"failed {ops.get('id', total)}: played {board.san(move)}, wanted {want}",
                      flush=True)
            if args.limit and total >= args.limit:
                break
    engine.quit()
    print(f"solved {solved}/{total} at {args.movetime} ms")


if __name__ == "__main__":
    sys.exit(main())
