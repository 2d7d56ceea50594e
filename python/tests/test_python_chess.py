"""chesscore against python-chess, move for move, on thousands of positions from random games
(seeded) and the perft suites: legal moves, pseudo-legal moves and legality, FEN after every
move, side to move, clocks, castling rights, check, mate and stalemate, and hashes that agree
with python-chess's transposition key."""

import random

import pytest

import chesscore

chess = pytest.importorskip("chess")

CASTLING_BITS = [(1, chess.BB_H1), (2, chess.BB_A1), (4, chess.BB_H8), (8, chess.BB_A8)]


def compare(ours: chesscore.Board, ref: "chess.Board", keys: dict) -> None:
    fen = ref.fen(en_passant="fen")
    assert ours.fen() == fen
    legal = sorted(m.uci() for m in ours.legal_moves())
    assert legal == sorted(m.uci() for m in ref.legal_moves), fen
    assert ours.turn == (0 if ref.turn == chess.WHITE else 1)
    assert ours.halfmove_clock == ref.halfmove_clock
    assert ours.fullmove_number == ref.fullmove_number
    rights = sum(bit for bit, rook in CASTLING_BITS if ref.castling_rights & rook)
    assert ours.castling_rights == rights, fen
    assert ours.is_check() == ref.is_check()
    status = ours.status()
    assert (status == chesscore.GameStatus.CHECKMATE) == ref.is_checkmate()
    assert (status == chesscore.GameStatus.STALEMATE) == ref.is_stalemate()
    # Pseudo-legal: a superset of the legal moves (castling through check included); each is
    # legal exactly when python-chess lists it; the others (castling aside) are python-chess's.
    legal_set = set(legal)
    pseudo = ours.pseudo_legal_moves()
    assert legal_set <= {m.uci() for m in pseudo}
    for m in pseudo:
        assert ours.is_legal(m) == (m.uci() in legal_set), (fen, m)
    ref_pseudo = {m.uci() for m in ref.pseudo_legal_moves if not ref.is_castling(m)
                  and not ref.is_en_passant(m)}
    ours_pseudo = {m.uci() for m in pseudo if not m.is_castling and not m.is_en_passant}
    assert ours_pseudo == ref_pseudo, fen
    # Equal positions (python-chess's transposition key) hash equal, different ones differ.
    key = ref._transposition_key()
    h = ours.hash()
    assert keys.setdefault(h, key) == key, fen


def test_random_games_move_for_move():
    rng = random.Random(13)
    keys: dict = {}
    positions = 0
    for _ in range(60):
        ours, ref = chesscore.Board(), chess.Board()
        for _ply in range(rng.randint(20, 120)):
            compare(ours, ref, keys)
            positions += 1
            moves = ours.legal_moves()
            if not moves:
                break
            move = rng.choice(moves)
            ours.push(move)
            ref.push_uci(move.uci())
        # Back to the start with pop, comparing again on the way.
        while ref.move_stack:
            ref.pop()
            ours.pop()
        assert ours.fen() == ref.fen(en_passant="fen")
    assert positions >= 3000


def test_suite_positions_and_their_children(fens):
    keys: dict = {}
    for fen in fens:
        ours, ref = chesscore.Board(fen), chess.Board(fen)
        compare(ours, ref, keys)
        for move in ours.legal_moves():
            ours.push(move)
            ref.push_uci(move.uci())
            compare(ours, ref, keys)
            ours.pop()
            ref.pop()
