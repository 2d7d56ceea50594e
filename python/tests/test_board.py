"""The Board API: FEN round trips, bad input of every kind, push/pop, perft, status, hashes."""

import pytest

import chesscore
from chesscore import Board, ChessError, GameStatus, Move, Status

from conftest import suite_counts


def test_fen_round_trip(fens):
    for fen in fens:
        assert Board(fen).fen() == fen
    assert Board().fen() == chesscore.STARTING_FEN
    assert Board(None).fen() == chesscore.STARTING_FEN
    # Four fields: the clocks are 0 and 1.
    assert Board("8/8/8/8/8/8/8/K1k5 w - -").fen() == "8/8/8/8/8/8/8/K1k5 w - - 0 1"


@pytest.mark.parametrize(
    "fen, status",
    [
        ("", Status.ERR_FEN_FIELD_COUNT),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 x", Status.ERR_FEN_TRAILING_TEXT),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1", Status.ERR_FEN_BOARD),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1", Status.ERR_FEN_SIDE_TO_MOVE),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w QK - 0 1", Status.ERR_FEN_CASTLING),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e9 0 1", Status.ERR_FEN_EN_PASSANT),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 01 1", Status.ERR_FEN_HALFMOVE_CLOCK),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 0", Status.ERR_FEN_FULLMOVE_NUMBER),
        ("8/8/8/8/8/8/8/K7 w - - 0 1", Status.ERR_FEN_KING_COUNT),
        ("P3k3/8/8/8/8/8/8/4K3 w - - 0 1", Status.ERR_FEN_PAWN_ON_BACK_RANK),
        ("4k3/8/8/8/8/8/8/4K2R w Q - 0 1", Status.ERR_FEN_CASTLING_RIGHTS),
        ("4k3/8/8/8/8/8/8/R3K3 w - - 0 1 ", Status.ERR_FEN_TRAILING_TEXT),
        ("4k2R/8/8/8/8/8/8/4K3 w - - 0 1", Status.ERR_FEN_OPPONENT_IN_CHECK),
    ],
)
def test_bad_fen_raises_with_status_and_message(fen, status):
    board = Board()
    before = board.fen()
    with pytest.raises(ChessError) as info:
        board.set_fen(fen, strict=True)
    assert info.value.status == status
    assert info.value.message == chesscore.message(status)
    assert info.value.message and str(status.value) in str(info.value)
    assert board.fen() == before  # unchanged on error


def test_bad_argument_types_and_text():
    with pytest.raises(TypeError):
        Board(42)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        Board("8/8/8/8/8/8/8/K1k5 w - - 0 1\0garbage")
    with pytest.raises(ChessError) as info:
        Board("\udcff")  # not UTF-8 once encoded
    assert info.value.status == Status.ERR_INVALID_ARGUMENT
    with pytest.raises(ChessError):
        Board("x" * 100_000)
    board = Board()
    for bad in ("", "e2", "e2e9", "e2e4qq", "zz", "e1g1", "a1a1", "\0"):
        with pytest.raises((ChessError, ValueError)):
            board.parse_uci(bad)
    with pytest.raises(TypeError):
        board.push(1234)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        Move(-1)
    with pytest.raises(ValueError):
        Move(1 << 16)
    with pytest.raises(TypeError):
        board.perft("3")  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        board.perft(-1)
    with pytest.raises(ValueError):
        board.piece_at(64)
    with pytest.raises(IndexError):
        board.pop()
    assert board.fen() == chesscore.STARTING_FEN


def test_every_move_value_is_refused_or_legal():
    board = Board("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
    legal = {m.raw for m in board.legal_moves()}
    fen = board.fen()
    made = 0
    for raw in range(1 << 16):
        move = Move(raw)
        assert board.is_legal(move) == (raw in legal)
        if raw in legal:
            board.push(move)
            board.pop()
            made += 1
        elif raw % 97 == 0:
            with pytest.raises(ChessError) as info:
                board.push(move)
            assert info.value.status == Status.ERR_ILLEGAL_MOVE
        assert raw % 4096 or board.fen() == fen
    assert made == 48 and board.fen() == fen


def test_moves_as_objects():
    board = Board("4k3/1P6/8/3pP3/8/8/8/R3K2R w KQ d6 0 1")
    moves = {m.uci(): m for m in board.legal_moves()}
    assert moves["e5d6"].is_en_passant and moves["e5d6"].is_capture
    assert moves["e1g1"].is_castling and moves["e1c1"].is_castling
    assert moves["b7b8q"].promotion == chesscore.QUEEN
    assert moves["b7b8n"].promotion == chesscore.KNIGHT
    assert moves["a1a2"].promotion is None
    assert str(moves["a1a2"]) == "a1a2" and repr(moves["a1a2"]) == "Move('a1a2')"
    assert moves["a1a2"].from_square == chesscore.parse_square("a1")
    assert chesscore.square_name(moves["a1a2"].to_square) == "a2"
    captures = board.generate_moves(kind="captures")
    assert {m.uci() for m in captures} == {"e5d6"}
    rook_moves = board.generate_moves(piece_types=(chesscore.ROOK,))
    assert all(board.piece_at(m.from_square).piece_type == chesscore.ROOK for m in rook_moves)
    with pytest.raises(ValueError):
        board.generate_moves(kind="checks")


def test_push_pop_restores_everything():
    board = Board()
    start = (board.fen(), board.hash(), board.pawn_hash(), board.material_hash())
    for uci in ("e2e4", "d7d5", "e4d5", "g8f6", "f1b5", "c7c6", "d5c6", "d8d2", "b1d2"):
        board.push(uci)
    assert [m.uci() for m in board.move_stack][-1] == "b1d2"
    copy = board.copy()
    while board.move_stack:
        board.pop()
    assert (board.fen(), board.hash(), board.pawn_hash(), board.material_hash()) == start
    assert copy.fen() != board.fen() and copy.move_stack[0].uci() == "e2e4"
    copy.pop()  # the copy keeps its own undo records
    board.push_null()
    assert board.turn == chesscore.BLACK
    board.pop()
    assert board.fen() == start[0]


def test_hashes_agree_across_transpositions():
    a, b = Board(), Board()
    for uci in ("g1f3", "g8f6", "b1c3"):
        a.push(uci)
    for uci in ("b1c3", "g8f6", "g1f3"):
        b.push(uci)
    assert a.hash() == b.hash() and a.fen() == b.fen()
    assert a.pawn_hash() == Board().pawn_hash()
    a.push("e7e5")
    assert a.hash() != b.hash() and a.material_hash() == b.material_hash()


def test_perft_counts():
    for fen, counts in suite_counts()[:12]:
        board = Board(fen)
        for depth, n in counts.items():
            if n <= 200_000:
                assert board.perft(depth) == n, (fen, depth)
                if n <= 20_000:
                    assert board.perft(depth, full=True) == n
                    assert sum(board.perft_divide(depth).values()) == n
    assert Board().perft(4, threads=2) == 197281
    assert Board().perft(0) == 1


def test_game_status():
    assert Board().status() == GameStatus.ONGOING
    mate = Board("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3")
    assert mate.is_checkmate() and mate.is_check() and mate.checkers()
    stalemate = Board("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1")
    assert stalemate.status() == GameStatus.STALEMATE and stalemate.legal_moves() == []
    assert Board("8/8/8/8/8/8/8/K1k5 w - - 0 1").status() == GameStatus.INSUFFICIENT_MATERIAL
    assert Board("4k3/8/8/8/8/8/8/R3K3 w - - 100 80").status() == GameStatus.FIFTY_MOVE_RULE
    board = Board()
    for _ in range(2):
        for uci in ("g1f3", "g8f6", "f3g1", "f6g8"):
            board.push(uci)
    assert board.is_repetition() and board.status() == GameStatus.THREEFOLD_REPETITION
    board.compact_history()
    assert board.status() == GameStatus.THREEFOLD_REPETITION
    with pytest.raises(IndexError):
        board.pop()


def test_pieces_and_text():
    board = Board()
    assert board.piece_at(chesscore.parse_square("e1")) == chesscore.Piece(chesscore.WHITE, chesscore.KING)
    assert board.piece_at(chesscore.parse_square("e4")) is None
    assert board.pieces(chesscore.WHITE, chesscore.PAWN) == 0xFF00
    assert board.ep_square is None and board.castling_rights == 15
    assert "r n b q k b n r" in str(board)
    assert repr(board) == f"Board({chesscore.STARTING_FEN!r})"
    assert chesscore.version() == chesscore.__version__
    assert chesscore.library_path()


def test_history_full_is_an_error_not_a_crash():
    board = Board()
    cycle = ("g1f3", "g8f6", "f3g1", "f6g8")
    with pytest.raises(ChessError) as info:
        for i in range(2000):
            board.push(cycle[i % 4])
    assert info.value.status == Status.ERR_HISTORY_FULL
    fen = board.fen()
    with pytest.raises(ChessError):
        board.push("e2e4")
    assert board.fen() == fen and len(board.move_stack) == 1024
    board.pop()
    board.push(board.legal_moves()[0])
