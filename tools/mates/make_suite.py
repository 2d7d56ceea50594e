#!/usr/bin/env python3
"""Writes testdata/mates.epd: positions with a forced mate in 2 to 4 for the side to move,
each with the depth at which Stockfish first reports that mate and the set of first moves
that Stockfish confirms mate in that many moves. tests/mates.rs searches each position at
Stockfish's depth + 2 and checks chesscore's score and move against them.

Sources of positions (all scanned with Stockfish for a short forced mate):
  issue29     the two positions of issue 29 (chesscore's "tactical hole");
  pgn-real    every position of the real games in testdata/pgn/real;
  sf-skill    Stockfish self-play at a low Skill Level (0 to 5) with short move times, from
              the balanced openings of tools/strength/openings-400.epd (weak play blunders
              into mates: sacrifices, quiet moves, both colours);
  random-mix  games from the same openings where each move is, by a seeded coin, a random
              legal move or Stockfish's move at Skill Level 10 (wilder material balances,
              promotions).

Needs Stockfish (`apt-get install stockfish`, the suite was made with 15.1) and python-chess.
The test suite itself does not: it reads the committed file.

Usage: tools/mates/make_suite.py [--stockfish PATH] [--games N] [--seed S] [--out FILE]
       tools/mates/make_suite.py --recheck [--out FILE]   (recompute an existing suite's lines)
"""
import argparse
import os
import random
import sys

import chess
import chess.engine
import chess.pgn

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))

ISSUE29 = [
    "6k1/pp3p2/2p2np1/2P1pbqp/P3P3/2N2nP1/2Pr1P2/1RQ1RB1K b - - 0 1",
    "8/2r2pk1/3p2p1/3Pb3/2P1P2K/6r1/1R2B3/1R6 b - - 0 1",
]

# A first move scored this high (centipawns) without a mate is searched again, deeper.
DEEP_CP = 500
DEEP_CP_NODES = 1_500_000

# How many positions of each mate length the suite keeps (at most), and the deepest
# Stockfish depth kept (the test searches 2 deeper; deeper mates make a slow test).
PER_LENGTH = {2: 26, 3: 26, 4: 26}
MAX_SF_DEPTH = 14


def scan_mate(engine, board, nodes):
    """Mate length for the side to move (2..4) by a quick search, else None."""
    info = engine.analyse(board, chess.engine.Limit(nodes=nodes))
    score = info["score"].relative
    if score.is_mate() and 2 <= score.mate() <= 4:
        return score.mate()
    return None


def first_mate_depth(engine, board, n, full_depth=24):
    """The first depth at which Stockfish (a new game: fresh hash and histories, one thread)
    reports mate in `n`, or None
    when a search to `full_depth` settles on another length (a shorter mate can show up only
    deeper than the first one reported: the caller rescans)."""
    engine.configure({"Clear Hash": None})
    first = None
    last = None
    with engine.analysis(board, chess.engine.Limit(depth=full_depth), game=object()) as an:
        for info in an:
            if "score" not in info or "depth" not in info:
                continue
            s = info["score"].relative
            last = s.mate() if s.is_mate() else None
            if last == n and first is None:
                first = info["depth"]
            elif last is not None and 0 < last < n:
                return None
    return first if last == n else None


def true_mate_length(engine, board, full_depth=24):
    """The mate length (moves, side to move mating) Stockfish settles on at `full_depth`."""
    engine.configure({"Clear Hash": None})
    s = engine.analyse(board, chess.engine.Limit(depth=full_depth), game=object())["score"].relative
    return s.mate() if s.is_mate() and s.mate() > 0 else None


def mating_moves(engine, board, n, depth):
    """Every first move after which Stockfish reports mate in `n` (searched alone with `go
    mate n`, to at least `depth` and 2n + 12 plies unless 500,000 nodes come first: a mate
    can need more depth than the first one the search of all moves found). A move that this
    search reports as a longer mate is searched again to depth 30 with 5,000,000 nodes: some
    mates in n show as mates in n + 1 until about then (8/K3n3/8/8/6k1/3q2p1/8/8 b, d3b1: mate
    in 5 at depth 20, in 4 at depth 30). So is a move that it scores at DEEP_CP or more
    without a mate, with DEEP_CP_NODES: 3k4/1R6/6K1/3B1p2/5P2/8/8/8 w, g6f7 is +14 pawns at
    depth 20 and mate in 4 at depth 24 (288,231 nodes)."""
    out = []
    for m in board.legal_moves:
        engine.configure({"Clear Hash": None})
        limit = chess.engine.Limit(depth=max(depth, 2 * n + 12), mate=n, nodes=500_000)
        info = engine.analyse(board, limit, root_moves=[m], game=object())
        s = info["score"].relative
        longer = s.is_mate() and s.mate() > n
        if longer or (not s.is_mate() and s.score() >= DEEP_CP):
            engine.configure({"Clear Hash": None})
            nodes = 5_000_000 if longer else DEEP_CP_NODES
            deep = chess.engine.Limit(depth=max(depth, 30), mate=n, nodes=nodes)
            s = engine.analyse(board, deep, root_moves=[m], game=object())["score"].relative
        if s.is_mate() and s.mate() == n:
            out.append(m.uci())
    return out


def recheck(engine, path):
    """Recomputes every line of an existing suite file (mate length at depth 24, first depth,
    mating moves) in place, keeping its source, side and tags; drops a line whose position no
    longer has a mate in 2 to 4."""
    lines = open(path).read().splitlines()
    out = []
    for line in lines:
        if line.startswith("#") or not line.strip():
            out.append(line)
            continue
        fields = [f.strip() for f in line.split(";")]
        fen = fields[0]
        rest = {f.split(" ", 1)[0]: f.split(" ", 1)[1] for f in fields[1:] if " " in f}
        board = chess.Board(fen)
        n = true_mate_length(engine, board)
        d = first_mate_depth(engine, board, n) if n and 2 <= n <= 4 else None
        if d is None:
            print(f"dropped (no mate in 2-4 at depth 24): {line}", file=sys.stderr, flush=True)
            continue
        moves = mating_moves(engine, board, n, d + 2)
        if f"mate {n}" != f"mate {rest['mate']}" or d != int(rest["sfdepth"]) or sorted(moves) != sorted(rest["moves"].split()):
            print(f"changed: {fen}: mate {rest['mate']} -> {n}, sfdepth {rest['sfdepth']} -> {d}, "
                  f"moves {rest['moves']} -> {' '.join(moves)}", file=sys.stderr, flush=True)
        rest["mate"], rest["sfdepth"], rest["moves"] = str(n), str(d), " ".join(moves)
        rest["tags"] = " ".join(tags_of(board, moves))
        out.append(fen + "; " + "; ".join(f"{k} {v}" for k, v in rest.items()))
    open(path, "w").write("\n".join(out) + "\n")


def openings():
    path = os.path.join(ROOT, "tools", "strength", "openings-400.epd")
    with open(path) as f:
        return [" ".join(line.split()[:4]) + " 0 1" for line in f if line.strip()]


def game_positions_sf_skill(engine, rng, games):
    ops = openings()
    for g in range(games):
        board = chess.Board(rng.choice(ops))
        skill = rng.randint(0, 5)
        engine.configure({"Skill Level": skill})
        for _ in range(160):
            if board.is_game_over():
                break
            yield ("sf-skill", g, board.copy(stack=False))
            r = engine.play(board, chess.engine.Limit(time=0.01))
            board.push(r.move)
        engine.configure({"Skill Level": 20})


def game_positions_random_mix(engine, rng, games):
    ops = openings()
    engine.configure({"Skill Level": 10})
    for g in range(games):
        board = chess.Board(rng.choice(ops))
        p_random = rng.choice([0.15, 0.3, 0.5])
        for _ in range(160):
            if board.is_game_over():
                break
            yield ("random-mix", g, board.copy(stack=False))
            if rng.random() < p_random:
                board.push(rng.choice(list(board.legal_moves)))
            else:
                board.push(engine.play(board, chess.engine.Limit(time=0.005)).move)
    engine.configure({"Skill Level": 20})


def game_positions_pgn():
    d = os.path.join(ROOT, "testdata", "pgn", "real")
    for name in sorted(os.listdir(d)):
        if not name.endswith(".pgn"):
            continue
        with open(os.path.join(d, name), encoding="utf-8", errors="replace") as f:
            g = 0
            while True:
                try:
                    game = chess.pgn.read_game(f)
                except Exception:
                    break
                if game is None:
                    break
                board = game.board()
                for m in game.mainline_moves():
                    yield ("pgn-real", (name, g), board.copy(stack=False))
                    board.push(m)
                yield ("pgn-real", (name, g), board.copy(stack=False))
                g += 1


def tags_of(board, moves):
    tags = []
    ms = [chess.Move.from_uci(u) for u in moves]
    if all(not board.gives_check(m) and not board.is_capture(m) for m in ms):
        tags.append("quiet")
    if any(board.gives_check(m) for m in ms):
        tags.append("check")
    if any(board.is_capture(m) for m in ms):
        tags.append("capture")
    if any(m.promotion is not None and m.promotion != chess.QUEEN for m in ms):
        tags.append("underpromotion")
    elif any(m.promotion is not None for m in ms):
        tags.append("promotion")
    # A sacrifice: a first move that puts the moved piece (worth more than a pawn) where the
    # opponent attacks it and it was not a capture of something at least as valuable.
    for m in ms:
        piece = board.piece_at(m.from_square)
        victim = board.piece_at(m.to_square)
        values = {chess.PAWN: 1, chess.KNIGHT: 3, chess.BISHOP: 3, chess.ROOK: 5, chess.QUEEN: 9, chess.KING: 0}
        moved = values[m.promotion or piece.piece_type]
        won = values[victim.piece_type] if victim else 0
        after = board.copy(stack=False)
        after.push(m)
        if moved >= 3 and moved > won and after.is_attacked_by(after.turn, m.to_square):
            tags.append("sacrifice")
            break
    return tags


def write(path, seed, kept):
    with open(path, "w") as f:
        f.write("# Forced mates in 2 to 4 for the side to move, made by tools/mates/make_suite.py\n")
        f.write(f"# (Stockfish 15.1, seed {seed}). Fields, separated by ';': FEN, mate <moves>,\n")
        f.write("# sfdepth <the first depth at which Stockfish, one thread, fresh hash, reports that\n")
        f.write("# mate>, moves <every first move that Stockfish confirms mates in that many>,\n")
        f.write("# source <issue29 | pgn-real | sf-skill | random-mix>, side, tags.\n")
        for fen, n, d, moves, source, side, tags in kept:
            f.write(f"{fen}; mate {n}; sfdepth {d}; moves {' '.join(moves)}; source {source}; side {side}; tags {' '.join(tags)}\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--stockfish", default="/usr/games/stockfish")
    ap.add_argument("--games", type=int, default=40, help="games per generated source")
    ap.add_argument("--seed", type=int, default=29)
    ap.add_argument("--scan-nodes", type=int, default=30000)
    ap.add_argument("--out", default=os.path.join(ROOT, "testdata", "mates.epd"))
    ap.add_argument("--recheck", action="store_true",
                    help="recompute the lines of --out in place instead of making a new suite")
    args = ap.parse_args()
    rng = random.Random(args.seed)

    engine = chess.engine.SimpleEngine.popen_uci(args.stockfish)
    engine.configure({"Threads": 1, "Hash": 16})
    if args.recheck:
        recheck(engine, args.out)
        engine.quit()
        return
    kept = []
    seen_fens = set()
    seen_games = set()
    count = {2: 0, 3: 0, 4: 0}

    def consider(source, game, board, force=False):
        key = " ".join(board.fen().split()[:4])
        if key in seen_fens or (not force and (source, game) in seen_games):
            return
        if not force and count.get(n_guess := scan_mate(engine, board, args.scan_nodes), 99) >= PER_LENGTH.get(n_guess, 0):
            return
        n = n_guess if not force else scan_mate(engine, board, 10**6)
        if n is None:
            return
        d = first_mate_depth(engine, board, n)
        if d is None or (not force and d > MAX_SF_DEPTH):
            return
        moves = mating_moves(engine, board, n, max(d + 2, 8))
        if not moves:
            return
        seen_fens.add(key)
        seen_games.add((source, game))
        count[n] += 1
        tags = tags_of(board, moves)
        side = "white" if board.turn == chess.WHITE else "black"
        kept.append((board.fen(), n, d, moves, source, side, tags))
        write(args.out, args.seed, kept)
        print(f"{len(kept):3} {source:10} mate {n} sfdepth {d:2} {side} {','.join(tags)} {board.fen()} {' '.join(moves)}",
              file=sys.stderr, flush=True)

    for fen in ISSUE29:
        consider("issue29", fen, chess.Board(fen), force=True)
    for source, game, board in game_positions_pgn():
        consider(source, game, board)
    gens = [game_positions_sf_skill(engine, rng, args.games), game_positions_random_mix(engine, rng, args.games)]
    # Alternate the two generated sources game by game so that both fill the suite.
    while gens and any(count[n] < PER_LENGTH[n] for n in count):
        for gen in list(gens):
            last_game = None
            for source, game, board in gen:
                consider(source, game, board)
                if last_game is not None and game != last_game:
                    break
                last_game = game
            else:
                gens.remove(gen)
    engine.quit()

    write(args.out, args.seed, kept)
    print(f"wrote {len(kept)} positions to {args.out}: {count}", file=sys.stderr)


if __name__ == "__main__":
    main()
