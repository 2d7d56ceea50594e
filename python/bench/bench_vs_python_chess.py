#!/usr/bin/env python3
"""chesscore against python-chess, operation by operation, in the same run.

Positions come from random games played with a seeded generator (the same positions for both
libraries). Each operation is timed over every position, ``--reps`` times per library; the
table shows the medians (per position, or per file for PGN and per tree for perft) and the
ratio python-chess / chesscore. Every operation's results are compared between the two
libraries before anything is timed (move counts, SAN text, FEN, perft counts, PGN moves).

Usage (from the repository, with the package built or installed, python-chess installed):

    python3 python/bench/bench_vs_python_chess.py [--positions 2000] [--reps 5] [--seed 1]
                                                  [--markdown]
"""

from __future__ import annotations

import argparse
import glob
import io
import logging
import os
import platform
import random
import statistics
import sys
import time
from typing import Callable, List, Tuple

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.dirname(HERE))  # python/: the package in the checkout, when built

import chess  # noqa: E402
import chess.pgn  # noqa: E402

import chesscore  # noqa: E402

PERFT = [  # (FEN, depth): python-chess needs seconds for each
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 3),
    ("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 3),
    ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 4),
    ("r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", 3),
]


def random_games(n_positions: int, seed: int) -> Tuple[List[str], List[str]]:
    """FENs of ``n_positions`` positions from seeded random games (python-chess plays them),
    and those games as PGN text."""
    rng = random.Random(seed)
    fens: List[str] = []
    games: List[str] = []
    while len(fens) < n_positions:
        board = chess.Board()
        game = chess.pgn.Game()
        node = game
        while not board.is_game_over() and board.ply() < 200 and len(fens) < n_positions:
            fens.append(board.fen())
            move = rng.choice(list(board.legal_moves))
            node = node.add_variation(move)
            board.push(move)
        game.headers["Result"] = board.result(claim_draw=False)
        games.append(str(game))
    return fens, games


def random_pgn_games(count: int, seed: int) -> List[str]:
    """``count`` whole random games (at most 200 plies each) as PGN text."""
    rng = random.Random(seed + 1_000_003)
    games = []
    for _ in range(count):
        board = chess.Board()
        game = chess.pgn.Game()
        node = game
        while not board.is_game_over() and board.ply() < 200:
            move = rng.choice(list(board.legal_moves))
            node = node.add_variation(move)
            board.push(move)
        game.headers["Result"] = board.result(claim_draw=False)
        games.append(str(game))
    return games


def timed(fn: Callable[[], object], reps: int) -> float:
    times = []
    for _ in range(reps):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


# ---- the operations, one function per library ------------------------------------------------


def pc_perft(board: chess.Board, depth: int) -> int:
    """The usual perft over python-chess's public API (it has none built in)."""
    if depth == 1:
        return board.legal_moves.count()
    n = 0
    for m in board.legal_moves:
        board.push(m)
        n += pc_perft(board, depth - 1)
        board.pop()
    return n


def cc_perft_python(board: chesscore.Board, depth: int) -> int:
    """The same recursion over chesscore's Python API (not its built-in perft)."""
    if depth == 1:
        return board.legal_move_count()
    n = 0
    for m in board.legal_moves():
        board.push(m)
        n += cc_perft_python(board, depth - 1)
        board.pop()
    return n


def pc_read_pgn(text: str) -> List[List[str]]:
    out = []
    f = io.StringIO(text)
    while True:
        game = chess.pgn.read_game(f)
        if game is None:
            return out
        out.append([m.uci() for m in game.mainline_moves()])


def cc_read_pgn(text: str) -> List[List[str]]:
    return [[m.uci() for m in g.moves] for g in chesscore.PgnReader(text)]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=2000)
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--pgn-games", type=int, default=100, help="random games in the PGN row")
    ap.add_argument("--markdown", action="store_true", help="print a Markdown table")
    args = ap.parse_args()

    logging.getLogger("chess.pgn").setLevel(logging.CRITICAL)  # the real files' bad games
    fens, _ = random_games(args.positions, args.seed)
    games = random_pgn_games(args.pgn_games, args.seed)
    pcb = [chess.Board(f) for f in fens]
    ccb = [chesscore.Board(f) for f in fens]
    pc_moves = [list(b.legal_moves) for b in pcb]
    cc_moves = [b.legal_moves() for b in ccb]
    sans = [[b.san(m) for m in ms] for b, ms in zip(pcb, pc_moves)]
    real = "\n\n".join(open(p, encoding="utf-8").read()
                       for p in sorted(glob.glob(os.path.join(ROOT, "testdata/pgn/real/*.pgn"))))
    generated = "\n\n".join(games)

    # ---- the two libraries agree before anything is timed ----
    for b, c, pm, cm, ss in zip(pcb, ccb, pc_moves, cc_moves, sans):
        assert sorted(m.uci() for m in pm) == sorted(m.uci() for m in cm), b.fen()
        assert sorted(ss) == sorted(c.san(m) for m in cm), b.fen()
        assert [c.parse_san(s).uci() for s in ss] == [m.uci() for m in pm], b.fen()
        assert c.fen() == b.fen()
    for fen, depth in PERFT:
        assert pc_perft(chess.Board(fen), depth) == chesscore.Board(fen).perft(depth) \
            == cc_perft_python(chesscore.Board(fen), depth), fen
    assert pc_read_pgn(generated) == cc_read_pgn(generated)
    n_real = len(cc_read_pgn(real))
    n_gen = len(cc_read_pgn(generated))
    plies_gen = sum(len(g) for g in cc_read_pgn(generated))

    # ---- timing ----
    def each(fn: Callable[..., object], boards: list, *extra: list) -> Callable[[], None]:
        def run() -> None:
            for args_ in zip(boards, *extra):
                fn(*args_)
        return run

    def pc_pushpop(b: chess.Board) -> None:
        for m in b.legal_moves:
            b.push(m)
            b.pop()

    def cc_pushpop(b: chesscore.Board) -> None:
        for m in b.legal_moves():
            b.push(m)
            b.pop()

    def pc_san_in(b: chess.Board, ss: List[str]) -> None:
        for s in ss:
            b.parse_san(s)

    def cc_san_in(b: chesscore.Board, ss: List[str]) -> None:
        for s in ss:
            b.parse_san(s)

    def pc_push_san(b: chess.Board, ss: List[str]) -> None:
        for s in ss:
            b.push_san(s)
            b.pop()

    def cc_push_san(b: chesscore.Board, ss: List[str]) -> None:
        for s in ss:
            b.push_san(s)
            b.pop()

    def pc_san_out(b: chess.Board, ms: list) -> None:
        for m in ms:
            b.san(m)

    def cc_san_out(b: chesscore.Board, ms: list) -> None:
        for m in ms:
            b.san(m)

    n = len(fens)
    n_moves = sum(len(m) for m in pc_moves)
    rows: List[Tuple[str, str, Callable[[], object], Callable[[], object], float]] = [
        ("Board(fen)", "position", each(chess.Board, fens), each(chesscore.Board, fens), n),
        ("legal moves (a list)", "position", each(lambda b: list(b.legal_moves), pcb),
         each(lambda b: b.legal_moves(), ccb), n),
        ("generate, push and pop each legal move", "position", each(pc_pushpop, pcb),
         each(cc_pushpop, ccb), n),
        ("SAN out: san(move), each legal move", "position", each(pc_san_out, pcb, pc_moves),
         each(cc_san_out, ccb, cc_moves), n),
        ("SAN in: parse_san(text), each legal move", "position", each(pc_san_in, pcb, sans),
         each(cc_san_in, ccb, sans), n),
        ("push_san(text) and pop, each legal move", "position", each(pc_push_san, pcb, sans),
         each(cc_push_san, ccb, sans), n),
        ("fen()", "position", each(lambda b: b.fen(), pcb), each(lambda b: b.fen(), ccb), n),
    ]
    perft_rows = []
    for fen, depth in PERFT:
        perft_rows.append((fen, depth))
    rows.append(("perft, 4 positions depth 3-4: built-in", "4 trees",
                 lambda: [pc_perft(chess.Board(f), d) for f, d in perft_rows],
                 lambda: [chesscore.Board(f).perft(d) for f, d in perft_rows], 1))
    rows.append(("perft, 4 positions depth 3-4: Python recursion", "4 trees",
                 lambda: [pc_perft(chess.Board(f), d) for f, d in perft_rows],
                 lambda: [cc_perft_python(chesscore.Board(f), d) for f, d in perft_rows], 1))
    rows.append((f"PGN read, {n_gen} random games ({plies_gen} plies)", "database",
                 lambda: pc_read_pgn(generated), lambda: cc_read_pgn(generated), 1))
    rows.append((f"PGN read, testdata/pgn/real ({n_real} games)", "database",
                 lambda: pc_read_pgn(real), lambda: cc_read_pgn(real), 1))

    results = []
    perft_pc = None
    for name, unit, pc_fn, cc_fn, per in rows:
        if name.startswith("perft") and perft_pc is not None:
            t_pc = perft_pc  # the same python-chess work: timed once
        else:
            t_pc = timed(pc_fn, args.reps if not name.startswith("perft") else max(1, args.reps // 2))
            if name.startswith("perft"):
                perft_pc = t_pc
        t_cc = timed(cc_fn, args.reps)
        results.append((name, unit, t_pc / per * 1e6, t_cc / per * 1e6, t_pc / t_cc))

    head = (f"python-chess {chess.__version__} vs chesscore {chesscore.__version__} "
            f"({'compiled' if hasattr(chesscore, '_fast') else 'ctypes'}), Python "
            f"{platform.python_version()}, {n} positions from random games (seed {args.seed}), "
            f"{n_moves} legal moves, median of {args.reps}")
    print(head)
    if args.markdown:
        print()
        print("| operation | per | python-chess (us) | chesscore (us) | ratio |")
        print("| --- | --- | ---: | ---: | ---: |")
        for name, unit, a, b, r in results:
            print(f"| {name} | {unit} | {a:,.1f} | {b:,.1f} | {r:,.1f}x |")
    else:
        print(f"{'operation':52} {'per':9} {'python-chess us':>16} {'chesscore us':>13} {'ratio':>8}")
        for name, unit, a, b, r in results:
            print(f"{name:52} {unit:9} {a:16,.1f} {b:13,.1f} {r:7,.1f}x")
    worst = min(r for *_, r in results)
    print(f"lowest ratio: {worst:.1f}x")


if __name__ == "__main__":
    main()
