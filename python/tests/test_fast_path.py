"""The compiled fast path (``chesscore._fast``: Board and Move) against python-chess over random
games (seeded), and against the C ABI (ctypes over libchesscore.so) on the same position bytes."""

import ctypes
import pickle
import random

import pytest

import chesscore
from chesscore import Board, ChessError, Move, Status, _ffi
from chesscore._ffi import lib

chess = pytest.importorskip("chess")


def random_game_check(seed: int, max_plies: int = 160) -> int:
    rng = random.Random(seed)
    ours, ref = Board(), chess.Board()
    fens = []
    while not ref.is_game_over() and ref.ply() < max_plies:
        fen = ref.fen(en_passant="fen")
        assert ours.fen() == fen
        moves = ours.legal_moves()
        ref_moves = list(ref.legal_moves)
        assert sorted(m.uci() for m in moves) == sorted(m.uci() for m in ref_moves), fen
        assert ours.legal_move_count() == len(moves)
        assert sorted(ours.legal_moves_raw()) == sorted(m.raw for m in moves)
        # SAN out, and SAN in (strict and tolerant) back to the same move, for every move.
        by_uci = {m.uci(): m for m in moves}
        for rm in ref_moves:
            san = ref.san(rm)
            m = by_uci[rm.uci()]
            assert ours.san(m) == san, (fen, san)
            assert ours.parse_san(san) == m
            assert ours.parse_san(san, strict=True) is m  # the shared instance
        # Push and pop of every move leaves the position as it was.
        for m in moves:
            ours.push(m)
            ours.pop()
        assert ours.fen() == fen
        fens.append(fen)
        rm = rng.choice(ref_moves)
        if rng.random() < 0.5:
            assert ours.push_san(ref.san(rm)).uci() == rm.uci()
        else:
            assert ours.push(rm.uci()).uci() == rm.uci()
        ref.push(rm)
        assert [m.uci() for m in ours.move_stack] == [m.uci() for m in ref.move_stack]
    assert ours.fen() == ref.fen(en_passant="fen")
    assert ours.is_checkmate() == ref.is_checkmate()
    copy = ours.copy()
    for fen in reversed(fens):
        ours.pop()
        assert ours.fen() == fen
    assert copy.fen() == ref.fen(en_passant="fen") and len(copy.move_stack) == len(fens)
    return len(fens)


def test_random_games_against_python_chess():
    plies = sum(random_game_check(seed) for seed in range(40))
    assert plies > 2000


def test_moves_are_shared_values():
    a, b = Board().legal_moves(), Board().legal_moves()
    assert all(x is y for x, y in zip(a, b))
    m = Board().parse_uci("e2e4")
    assert m == Move(m.raw) and m is not Move(m.raw) and hash(m) == hash(Move(m.raw))
    assert m != Move(0) and m != "e2e4" and len({m, Move(m.raw)}) == 1
    assert pickle.loads(pickle.dumps(m)) == m
    assert (m.from_square, m.to_square, m.flags, m.promotion) == (12, 28, 1, None)
    assert repr(Move(0)) == "Move(raw=0x0000)" and repr(m) == "Move('e2e4')"
    promo = Board("8/P6k/8/8/8/8/8/K7 w - - 0 1").parse_uci("a7a8n")
    assert promo.promotion == chesscore.KNIGHT and not promo.is_capture
    with pytest.raises(ChessError):
        Move(0).uci()
    with pytest.raises(TypeError):
        Move(True)  # type: ignore[arg-type]


def test_errors_leave_the_board_as_it_was():
    board = Board()
    board.push("e2e4")
    before = board.fen()
    with pytest.raises(ChessError) as info:
        board.push(Move(0x0FFF))
    assert info.value.status == Status.ERR_ILLEGAL_MOVE
    with pytest.raises(ChessError) as info:
        board.push_san("Ke3")
    assert info.value.status == Status.ERR_SAN_ILLEGAL
    with pytest.raises(ChessError) as info:
        board.set_fen("8/8/8/8/8/8/8/8 w - - 0 1")
    assert info.value.status == Status.ERR_FEN_KING_COUNT
    with pytest.raises(TypeError):
        board.san("e7e5")  # type: ignore[arg-type]
    assert board.fen() == before and len(board.move_stack) == 1
    board.pop()
    with pytest.raises(IndexError):
        board.pop()


def test_the_c_abi_sees_the_same_position():
    """The ctypes layer (libchesscore.so) and the compiled module share the position's bytes:
    what one writes, the other reads, move for move over a random game."""
    rng = random.Random(7)
    board = Board()
    for _ in range(120):
        ml = _ffi.MoveList()
        assert lib.chess_generateLegalMoves(ctypes.byref(board._pos), ctypes.byref(ml)) == 0
        moves = board.legal_moves()
        assert list(ml.moves[: ml.count]) == [m.raw for m in moves]
        if not moves:
            break
        buf = ctypes.create_string_buffer(_ffi.FEN_MAX)
        assert lib.chess_toFEN(ctypes.byref(board._pos), buf, _ffi.FEN_MAX) == 0
        assert buf.value.decode() == board.fen()
        assert lib.chess_hash(ctypes.byref(board._pos)) == board.hash()
        assert lib.chess_validatePosition(ctypes.byref(board._pos)) == 0
        m = rng.choice(moves)
        if rng.random() < 0.5:
            board.push(m)
        else:  # made through the C ABI: the compiled board reads it (its stack is cleared)
            undo = _ffi.Undo()
            assert lib.chess_makeMove(ctypes.byref(board._pos), m.raw, ctypes.byref(undo)) == 0
            board._clear_stack()
    assert chesscore.library_path().endswith(("libchesscore.so", "libchesscore.so.0"))
    assert _ffi.ctypes.sizeof(_ffi.Position) == chesscore._board._fast._position_size()
