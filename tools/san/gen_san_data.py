#!/usr/bin/env python3
"""Writes testdata/san/random-games.txt: python-chess's SAN of every legal move of the
positions of random games, the expected values of tests/san.rs (python-chess is not needed by
`cargo test`; run this again to regenerate, the output is deterministic for a given
python-chess version).

Games start from the standard position and from the FENs of testdata/*.epd; moves are drawn
at random, with captures, promotions and checks preferred half of the time so that the games
reach endings, promotions and mates. Format, one line per position:

    fen <FEN>                          a game starts here
    <uci played> <san> <san> ...       the SAN of each legal move, in the order of the moves'
                                       UCI texts sorted as strings; then the move played
                                       (`-` at the end of a game)

Usage: python3 tools/san/gen_san_data.py [positions]   (default 24000)
"""

import random
import sys
from pathlib import Path

import chess

ROOT = Path(__file__).resolve().parents[2]


def start_fens():
    fens = [chess.STARTING_FEN]
    for name in ("standard.epd", "edge.epd"):
        for line in (ROOT / "testdata" / name).read_text().splitlines():
            fen = line.split(";")[0].strip()
            if fen:
                board = chess.Board(fen)
                if board.is_valid() and not board.is_game_over():
                    fens.append(fen)
    return fens


def pick(rng, board):
    moves = list(board.legal_moves)
    if rng.random() < 0.5:
        sharp = [m for m in moves
                 if board.is_capture(m) or m.promotion or board.gives_check(m)]
        if sharp:
            return rng.choice(sharp)
    return rng.choice(moves)


def main():
    target = int(sys.argv[1]) if len(sys.argv) > 1 else 24000
    rng = random.Random(20261123)
    fens = start_fens()
    out = []
    positions = 0
    game = 0
    while positions < target:
        fen = chess.STARTING_FEN if game % 3 == 0 else rng.choice(fens)
        game += 1
        board = chess.Board(fen)
        out.append("fen " + board.fen())
        for _ply in range(rng.randrange(20, 160)):
            moves = sorted(board.legal_moves, key=lambda m: m.uci())
            sans = [board.san(m) for m in moves]
            positions += 1
            if not moves or board.is_insufficient_material() or positions >= target:
                out.append("- " + " ".join(sans))
                break
            m = pick(rng, board)
            out.append(m.uci() + " " + " ".join(sans))
            board.push(m)
        else:
            moves = sorted(board.legal_moves, key=lambda m: m.uci())
            out.append("- " + " ".join(board.san(m) for m in moves))
            positions += 1
    path = ROOT / "testdata" / "san" / "random-games.txt"
    path.write_text("\n".join(out) + "\n")
    print(f"{positions} positions in {game} games -> {path} ({path.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
