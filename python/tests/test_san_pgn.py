"""SAN and PGN against python-chess directly: SAN of every legal move of random positions,
read back strictly and tolerantly; PGN files read to python-chess's games, written PGN read by
python-chess to the same games, and equal to python-chess's own export for games without
comments."""

import io
import random

import chess
import chess.pgn
import pytest

from chesscore import Board, ChessError, Move, PgnError, PgnGame, PgnReader, Status
from conftest import ROOT

PGN_DIR = ROOT / "testdata" / "pgn"


def _ours(board: Board, move: chess.Move) -> Move:
    return board.parse_uci(move.uci())


def test_san_of_random_positions_equals_python_chess(fens):
    rng = random.Random(14)
    starts = [chess.STARTING_FEN] + [f for f in fens if chess.Board(f).is_valid()]
    positions = 0
    for game in range(60):
        ref = chess.Board(starts[game % len(starts)])
        board = Board(ref.fen())
        for _ in range(rng.randrange(10, 120)):
            legal = list(ref.legal_moves)
            if not legal:
                break
            for m in legal:
                ours = _ours(board, m)
                san = ref.san(m)
                assert board.san(ours) == san, (ref.fen(), m.uci())
                assert board.parse_san(san, strict=True) == ours
                assert board.parse_san(m.uci()) == ours
            positions += 1
            sharp = [m for m in legal if ref.is_capture(m) or m.promotion or ref.gives_check(m)]
            m = rng.choice(sharp if sharp and rng.random() < 0.5 else legal)
            board.push(_ours(board, m))
            ref.push(m)
    assert positions > 2000


def test_san_errors():
    board = Board()
    for text, status in [("Nf9", Status.ERR_SAN_SYNTAX), ("Nf4", Status.ERR_SAN_ILLEGAL),
                         ("e5", Status.ERR_SAN_ILLEGAL)]:
        with pytest.raises(ChessError) as e:
            board.parse_san(text)
        assert e.value.status == status
    with pytest.raises(ChessError) as e:
        board.parse_san("e4+", strict=True)
    assert e.value.status == Status.ERR_SAN_SYNTAX
    assert board.parse_san("e4+") == board.parse_uci("e2e4")
    board = Board("4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1")
    with pytest.raises(ChessError) as e:
        board.parse_san("Nd2")
    assert e.value.status == Status.ERR_SAN_AMBIGUOUS
    assert board.push_san("Nbd2") == board.move_stack[-1]
    with pytest.raises(ChessError) as e:
        board.san(Board().parse_uci("e2e4"))
    assert e.value.status == Status.ERR_ILLEGAL_MOVE


def _python_chess_games(path):
    # python-chess reads one tag per line: split the odd file's two-tag line for it.
    with open(path, newline="") as f:
        text = f.read().replace('"] [Site', '"]\n[Site')
    handle = io.StringIO(text)
    games = []
    while (game := chess.pgn.read_game(handle)) is not None:
        games.append(game)
    return games


def _norm(comment: str) -> str:
    return " ".join(comment.split())


def _escaped(value: str) -> str:
    """A tag value as PGN escapes it: python-chess 1.11 keeps the escapes in the values it
    reads (``\\"`` stays two characters), where chesscore decodes them."""
    return value.replace("\\", "\\\\").replace('"', '\\"')


@pytest.mark.parametrize("name", ["annotated.pgn", "odd-format.pgn"])
def test_pgn_files_read_as_python_chess_reads_them(name):
    path = PGN_DIR / name
    ours = list(PgnReader(path.read_bytes()))
    ref = _python_chess_games(path)
    assert len(ours) == len(ref)
    for game, pc in zip(ours, ref):
        nodes = list(pc.mainline())
        assert [m.uci() for m in game.moves] == [n.move.uci() for n in nodes]
        assert game.end_board().fen() == pc.end().board().fen()
        assert game.start_board().fen() == pc.board().fen()
        for i, node in enumerate(nodes):
            assert sorted(game.nags(i)) == sorted(node.nags)
            if ";" not in path.read_text():
                assert game.comments[i] == _norm(node.comment)
        if name == "annotated.pgn":
            assert game.comment == _norm(pc.comment)
            assert {k: _escaped(v) for k, v in game.tags.items()} == dict(pc.headers)


@pytest.mark.parametrize("name", ["annotated.pgn", "odd-format.pgn"])
def test_written_pgn_reads_back_in_python_chess(name):
    for game in PgnReader((PGN_DIR / name).read_bytes()):
        text = game.pgn()
        assert all(len(line) <= 79 for line in text.splitlines())
        pc = chess.pgn.read_game(io.StringIO(text))
        assert not pc.errors
        assert [m.uci() for m in game.moves] == [m.uci() for m in pc.mainline_moves()]
        assert [_norm(n.comment) for n in pc.mainline()] == game.comments
        assert _norm(pc.comment) == game.comment
        for key, value in game.tags.items():
            if key != "Result":
                assert pc.headers[key] == _escaped(value)
        assert pc.headers["Result"] == game.result
        # Without comments, the text is python-chess's own export, byte for byte.
        if not any(game.comments) and not game.comment:
            exported = pc.accept(chess.pgn.StringExporter(headers=True, variations=False))
            assert text.strip() == exported.strip()
        again = PgnGame.from_pgn(text)
        assert again.moves == game.moves and again.pgn() == text


def test_malformed_games_are_reported_and_skipped():
    reader = PgnReader((PGN_DIR / "malformed.pgn").read_bytes())
    events = [g.tags["Event"] for g in reader]
    assert events == ["good 1", "good 2"]
    assert [(e.line, e.status) for e in reader.errors] == [
        (9, Status.ERR_SAN_ILLEGAL), (12, Status.ERR_PGN_FEN), (19, Status.ERR_SAN_AMBIGUOUS),
        (23, Status.ERR_SAN_SYNTAX), (25, Status.ERR_PGN_TAG), (32, Status.ERR_PGN_UNTERMINATED),
    ]
    assert all(isinstance(e, PgnError) for e in reader.errors)
    with pytest.raises(ChessError) as e:
        PgnGame.from_pgn('[Variant "Atomic"]\n\n1. e4 *')
    assert e.value.status == Status.ERR_PGN_VARIANT


def test_build_a_game_and_write_it():
    game = PgnGame(Board("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"))
    game.set_tag("White", 'A "quoted" name')
    game.push_san("e4")
    game.push(game.end_board().parse_san("Kd7"))
    with pytest.raises(ChessError):
        game.push_san("e4")
    game.result = "1-0"
    with pytest.raises(ChessError):
        game.result = "2-0"
    pc = chess.pgn.read_game(io.StringIO(game.pgn()))
    assert pc.headers["White"] == _escaped('A "quoted" name')
    assert pc.headers["FEN"] == "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"
    assert [m.uci() for m in pc.mainline_moves()] == ["e2e4", "e8d7"]
    assert repr(game) == "<PgnGame 'A \"quoted\" name' vs '?', 2 plies, 1-0>"


# ---- Null moves and partial games (issue 26; expectations from python-chess or by hand) ------


@pytest.mark.parametrize("null", ["--", "Z0", "0000", "@@@@"])
def test_null_moves_are_move_zero_and_written_as_dashes(null):
    game = PgnGame.from_pgn(f"1. e4 {null} 2. d4 *")
    assert game.moves[1] == Move(0)
    assert game.moves[0] == Board().parse_uci("e2e4")
    text = game.pgn()
    assert "\n\n1. e4 -- 2. d4 *\n" in text
    # python-chess reads what was written to the same line, the null move included.
    pc = chess.pgn.read_game(io.StringIO(text))
    assert not pc.errors
    assert [m.uci() for m in pc.mainline_moves()] == ["e2e4", "0000", "d2d4"]
    assert game.end_board().fen() == pc.end().board().fen(en_passant="fen")
    # The moves pushed one by one (Move(0) included) make the same game.
    copy = PgnGame()
    for m in game.moves:
        copy.push(m)
    assert copy.pgn() == text


def test_push_null_and_null_san_and_check():
    game = PgnGame()
    game.push_san("e4")
    game.push_null()
    assert game.push_san("Z0") == Move(0)
    assert game.moves[1:] == [Move(0), Move(0)]
    assert game.pgn().endswith("\n\n1. e4 -- 2. -- *\n\n")
    game = PgnGame.from_pgn("1. e4 e5 2. Qh5 Nc6 3. Qxf7+ *")
    with pytest.raises(ChessError) as e:
        game.push_null()
    assert e.value.status == Status.ERR_ILLEGAL_MOVE
    with pytest.raises(ChessError) as e:
        game.push_san("--")
    assert e.value.status == Status.ERR_SAN_ILLEGAL
    assert len(game.moves) == 5


def test_malformed_games_keep_partial_games():
    data = (PGN_DIR / "malformed.pgn").read_bytes()
    reader = PgnReader(data)
    assert [g.tags["Event"] for g in reader] == ["good 1", "good 2"]
    # (line, Event and plies of the partial game): worked by hand from the file.
    partial = [(e.line, e.game and (e.game.tags["Event"], len(e.game.moves)))
               for e in reader.errors]
    assert partial == [
        (9, ("illegal move", 10)), (12, None), (19, ("ambiguous move", 0)),
        (23, ("unknown text", 3)), (25, None), (32, ("unterminated variation", 1)),
    ]
    # partial=True yields them in place, each with its error.
    games = list(PgnReader(data, partial=True))
    assert [(g.tags["Event"], g.error and g.error.status) for g in games] == [
        ("good 1", None), ("illegal move", Status.ERR_SAN_ILLEGAL),
        ("ambiguous move", Status.ERR_SAN_AMBIGUOUS), ("unknown text", Status.ERR_SAN_SYNTAX),
        ("unterminated variation", Status.ERR_PGN_UNTERMINATED), ("good 2", None),
    ]
    assert games[1].error.game is games[1]
    # The moves before the error are python-chess's (its main line stops at 6. Ke2 too).
    pc = chess.pgn.read_game(io.StringIO(data.decode()[data.decode().index('[Event "illegal'):]))
    assert pc.errors
    assert [m.uci() for m in games[1].moves] == [m.uci() for m in pc.mainline_moves()]
    assert games[2].start_board().fen() == "4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1"
