#!/usr/bin/env python3
"""Writes a set of balanced opening positions for engine matches.

Each opening is one of the lines of BASE_OPENINGS (the match runner's openings.txt: one line
of UCI moves each, `name | moves # comment`) followed by 4 random legal plies, kept only when Stockfish (depth 12) scores it
within +-60 centipawns. Seeded, so the same command writes the same file:

    tools/strength/make_openings.py OUT.epd COUNT SEED BASE_OPENINGS
"""
import random
import sys

import chess
import chess.engine

if len(sys.argv) != 5:
    sys.exit("usage: tools/strength/make_openings.py OUT.epd COUNT SEED BASE_OPENINGS")
out, count, seed, base = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
rng = random.Random(seed)
lines = [l.split("|")[-1].split("#")[0].strip() for l in open(base)]
lines = [l for l in lines if l]
sf = chess.engine.SimpleEngine.popen_uci("/usr/games/stockfish")
seen = set()
result = []
while len(result) < count:
    board = chess.Board()
    for mv in rng.choice(lines).split():
        board.push_uci(mv)
    ok = True
    for _ in range(4):
        moves = list(board.legal_moves)
        if not moves:
            ok = False
            break
        board.push(rng.choice(moves))
    if not ok or board.is_game_over():
        continue
    fen = board.fen()
    if fen in seen:
        continue
    info = sf.analyse(board, chess.engine.Limit(depth=12))
    cp = info["score"].white().score()
    if cp is None or abs(cp) > 60:
        continue
    seen.add(fen)
    result.append(fen)
sf.quit()
with open(out, "w") as f:
    for fen in result:
        f.write(fen + "\n")
print(f"wrote {len(result)} openings to {out}")
