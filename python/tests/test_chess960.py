"""Chess960 (X-FEN, Shredder-FEN, castling as king takes rook, perft against the committed
counts and against python-chess), move events and illegal-move reasons through the package."""

import pathlib

import pytest

import chesscore
from chesscore import Board, ChessError, IllegalReason, Status

ROOT = pathlib.Path(__file__).resolve().parents[2]
EPD = ROOT / "testdata" / "chess960.epd"


def chess960_lines():
    if not EPD.is_file():
        pytest.skip("testdata/ is not there (run from a checkout)")
    out = []
    for line in EPD.read_text().splitlines():
        parts = [p.strip() for p in line.split(";")]
        out.append((parts[0], {int(p.split()[0][1:]): int(p.split()[1]) for p in parts[1:]}))
    return out


def test_start_positions_fen_and_perft_match_the_committed_counts():
    lines = chess960_lines()
    for n in range(0, 960, 7):
        board = Board.chess960_start(n)
        fen, counts = lines[n]
        assert board.fen() == fen
        assert board.chess960
        assert board.perft(3) == counts[3]
    for fen, counts in lines[960:]:
        board = Board.from_fen960(fen)
        assert board.fen() == fen
        assert Board.from_fen960(board.shredder_fen()).fen() == fen
        assert board.perft(3) == counts[3], fen
    with pytest.raises(ChessError):
        Board.chess960_start(960)


def test_agrees_with_python_chess_on_castling_moves():
    chess = pytest.importorskip("chess")
    for fen, _ in chess960_lines()[::17]:
        ours = Board.from_fen960(fen)
        theirs = chess.Board(fen, chess960=True)
        assert sorted(ours.uci(m) for m in ours.legal_moves()) == sorted(
            m.uci() for m in theirs.legal_moves
        ), fen
        for m in theirs.legal_moves:
            if theirs.is_castling(m):
                b = ours.copy()
                b.push(m.uci())
                theirs.push(m)
                assert b.fen() == theirs.fen(), fen
                theirs.pop()


def test_shredder_and_x_fen_and_mode_switch():
    board = Board.from_fen960("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9")
    assert board.fen() == "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w KQkq - 2 9"
    assert board.shredder_fen().split()[2] == "HFhf"
    with pytest.raises(ChessError) as e:
        board.chess960 = False
    assert e.value.status == Status.ERR_FEN_CASTLING_RIGHTS
    std = Board("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
    assert not std.chess960
    assert std.uci("e1g1") == "e1g1"
    std.chess960 = True
    assert std.uci(std.parse_uci("e1h1")) == "e1h1"
    std.push("e1h1")
    assert std.fen() == "r3k2r/8/8/8/8/8/8/R4RK1 b kq - 1 1"
    with pytest.raises(ChessError):
        Board("4k3/8/8/8/8/8/8/4KRRR w F - 0 1", strict=True)  # the strict parser stays strict
    # The lenient one reads 'F' as python-chess does (the f1 rook), then drops the right: in
    # standard chess only the corner rooks castle.
    assert Board("4k3/8/8/8/8/8/8/4KRRR w F - 0 1").fen() == "4k3/8/8/8/8/8/8/4KRRR w - - 0 1"
    with pytest.raises(ChessError) as e:
        Board.from_fen960("4k3/8/8/8/8/8/8/4KRRR w FF - 0 1")
    assert e.value.status == Status.ERR_FEN_CASTLING


def test_move_events():
    board = Board("4k3/8/8/8/3Pp3/8/8/4K3 b - d3 0 1")
    ev = board.move_events("e4d3")
    assert [(e.kind, e.piece.symbol(), e.from_square, e.to_square) for e in ev] == [
        ("move", "p", 28, 19),
        ("capture", "P", 27, 27),
    ]
    board = Board("1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1")
    assert [e.kind for e in board.move_events("a7b8r")] == ["move", "capture", "promote"]
    assert board.move_events("a7b8r")[2].piece.symbol() == "R"
    board = Board.from_fen960("4k3/8/8/8/8/8/8/6KR w H - 0 1")
    assert [(e.kind, e.from_square, e.to_square) for e in board.move_events("g1h1")] == [
        ("move", 6, 6),
        ("castle_rook", 7, 5),
    ]
    with pytest.raises(ChessError):
        board.move_events(chesscore.Move(0))


@pytest.mark.parametrize(
    "fen, frm, to, promo, reason, square",
    [
        (chesscore.STARTING_FEN, "e2", "e4", None, IllegalReason.LEGAL, None),
        (chesscore.STARTING_FEN, "e3", "e4", None, IllegalReason.NO_PIECE, None),
        (chesscore.STARTING_FEN, "e7", "e5", None, IllegalReason.NOT_YOUR_PIECE, None),
        (chesscore.STARTING_FEN, "f1", "c4", None, IllegalReason.PATH_BLOCKED, "e2"),
        (chesscore.STARTING_FEN, "g1", "e2", None, IllegalReason.OWN_PIECE_ON_TARGET, None),
        ("4k3/8/8/3pP3/8/8/8/4K3 w - - 0 1", "e5", "d6", None,
         IllegalReason.EN_PASSANT_NOT_AVAILABLE, None),
        ("4k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7", "a8", None, IllegalReason.PROMOTION_MISSING, None),
        ("r3k2r/8/8/8/8/8/5r2/R3K2R w KQkq - 0 1", "e1", "g1", None,
         IllegalReason.CASTLING_THROUGH_CHECK, "f2"),
        ("4k3/8/8/8/1b6/8/3P4/4K3 w - - 0 1", "d2", "d3", None,
         IllegalReason.KING_LEFT_IN_CHECK, "b4"),
    ],
)
def test_check_move_reasons(fen, frm, to, promo, reason, square):
    c = Board(fen).check_move(frm, to, promo)
    assert c.reason == reason
    assert c.square == (None if square is None else chesscore.parse_square(square))
    assert c.legal == (reason == IllegalReason.LEGAL)
    assert c.message and c.message != "unknown illegal-move reason"


def test_check_move_agrees_with_legal_moves():
    board = Board("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
    legal = {(m.from_square, m.to_square, m.promotion) for m in board.legal_moves()}
    for f in range(64):
        for t in range(64):
            assert board.check_move(f, t).legal == ((f, t, None) in legal)
    with pytest.raises(ValueError):
        board.check_move(64, 0)
    assert len({r.message for r in IllegalReason}) == len(IllegalReason)
