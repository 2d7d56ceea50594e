#!/usr/bin/env python3
"""Regenerates testdata/chess960.epd: Chess960 perft counts from two independent programs.

Each line is `FEN ;D1 n ;D2 n ...` (X-FEN castling fields, as python-chess writes them).

- The 960 start positions, in the standard numbering (line n is position n), from
  python-chess's `chess.Board.from_chess960_pos`, with depths 1 to 4; every 40th also depth 5.
- Middlegame positions with odd castling setups: a few hand-made ones (king castling to the
  square it stands on, king and rook swapping squares, a rook that screens its own king's
  destination, rook on the far side of the king's path) and positions reached by seeded
  random games from random start positions while castling rights remain, depths 1 to 4.

The counts come from Stockfish (`UCI_Chess960`, `go perft N`; python-chess's Python perft is
too slow for 960 x depth 4 on this machine). python-chess computes depths 1 to 3 itself for
the middlegame positions, depths 1 and 2 for the start positions, and every count it computes
must equal Stockfish's: two implementations agree on each line.

Usage: python3 tools/chess960/make_perft.py [STOCKFISH] > testdata/chess960.epd
(STOCKFISH defaults to /usr/games/stockfish). Needs python-chess. Takes a few minutes.
"""

import random
import subprocess
import sys

import chess

HANDMADE = [
    # King on g1 castles king-side without moving (from == to); rook h1 -> f1.
    "4k3/8/8/8/8/8/8/6KR w K - 0 1",
    # King and rook swap squares: king f1 -> g1, rook g1 -> f1.
    "4k3/8/8/8/8/8/8/5KR1 w K - 0 1",
    # King b1 -> c1, rook a1 -> d1.
    "4k3/8/8/8/8/8/8/RK6 w Q - 0 1",
    # King stays on c1, rook b1 -> d1.
    "4k3/8/8/8/8/8/8/1RK5 w Q - 0 1",
    # Rook stays on d1, king e1 -> c1.
    "4k3/8/8/8/8/8/8/3RK3 w Q - 0 1",
    # The castling rook on b1 screens c1 from the rook on a1: O-O-O is illegal.
    "4k3/8/8/8/8/8/8/rR1K3R w KQ - 0 1",
    # The same with a queen, and Black to move with the mirror image.
    "Qr1k3r/8/8/8/8/8/8/4K3 b kq - 0 1",
    "4k3/8/8/8/8/8/8/qR1K3R w KQ - 0 1",
    # Both sides, rooks inside, kings on b and g files.
    "1rk2r2/pppppppp/8/8/8/8/PPPPPPPP/1RK2R2 w KQkq - 0 1",
    "r5kr/8/8/8/8/8/8/RK5R w KQkq - 0 1",
    "rk5r/8/8/8/8/8/8/R5KR w KQkq - 0 1",
    # Two rooks on one side: X-FEN names the inner one by its file.
    "4k3/8/8/8/8/8/8/4KRRR w F - 0 1",
    "4k3/8/8/8/8/8/8/RR2K3 w B - 0 1",
    # Castling through an attacked square, and into one.
    "4k3/8/8/8/8/8/5r2/1K4R1 w K - 0 1",
    "4k3/8/8/8/8/8/6r1/1K5R w K - 0 1",
    # Known Chess960 middlegame positions.
    "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
    "2nnrbkr/p1qppppp/8/1ppb4/6PP/3PP3/PPP2P2/BQNNRBKR w HEhe - 1 9",
    "b1q1rrkb/pppppppp/3nn3/8/P7/1PPP4/4PPPP/BQNNRKRB w GE - 1 9",
    "qbbnnrkr/2pp2pp/p7/1p2pp2/8/P3PP2/1PPP1KPP/QBBNNR1R w hf - 0 9",
    "1nbbnrkr/p1p1ppp1/3p4/1p3P1p/3Pq2P/8/PPP1P1P1/QNBBNRKR w HFhf - 0 9",
]


class Stockfish:
    def __init__(self, path):
        self.p = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  text=True, bufsize=1)
        self.send("uci")
        self.wait("uciok")
        self.send("setoption name UCI_Chess960 value true")
        self.send("setoption name Threads value 1")
        self.send("isready")
        self.wait("readyok")

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def wait(self, prefix):
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise RuntimeError("stockfish ended")
            if line.startswith(prefix):
                return line

    def perft(self, fen, depth):
        self.send("position fen " + fen)
        self.send("go perft %d" % depth)
        return int(self.wait("Nodes searched").split(":")[1])


def py_perft(board, depth):
    if depth == 1:
        return board.legal_moves.count()
    n = 0
    for m in board.legal_moves:
        board.push(m)
        n += py_perft(board, depth - 1)
        board.pop()
    return n


def line(sf, board, max_depth, py_depth):
    fen = board.fen()
    counts = []
    for d in range(1, max_depth + 1):
        n = sf.perft(fen, d)
        if d <= py_depth:
            mine = py_perft(board, d)
            if mine != n:
                raise SystemExit("disagreement on %s depth %d: %d vs %d" % (fen, d, mine, n))
        counts.append(n)
    return fen + "".join(" ;D%d %d" % (d + 1, n) for d, n in enumerate(counts))


def random_positions(count, seed):
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        board = chess.Board.from_chess960_pos(rng.randrange(960))
        for _ in range(rng.randrange(6, 30)):
            moves = list(board.legal_moves)
            if not moves or not board.castling_rights:
                break
            # Prefer moves that clear the back rank, so that castling becomes possible.
            board.push(rng.choice(moves))
        if board.castling_rights and not board.is_game_over():
            out.append(board.copy(stack=False))
    return out


def main():
    sf = Stockfish(sys.argv[1] if len(sys.argv) > 1 else "/usr/games/stockfish")
    for n in range(960):
        board = chess.Board.from_chess960_pos(n)
        print(line(sf, board, 5 if n % 40 == 0 else 4, 2), flush=True)
    for fen in HANDMADE:
        board = chess.Board(fen, chess960=True)
        assert board.is_valid(), fen
        print(line(sf, board, 4, 3), flush=True)
    for board in random_positions(60, 960):
        print(line(sf, board, 4, 3), flush=True)


if __name__ == "__main__":
    main()
