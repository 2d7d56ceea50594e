"""The Engine: limits, mates, roots without moves, the info callback (a Python callable, whose
exceptions come back), stop from another thread, busy engines, options, evaluate, close."""

import threading
import time

import pytest

import chesscore
from chesscore import Board, ChessError, Engine, Status


@pytest.fixture(scope="module")
def engine():
    with Engine(Hash=8) as e:
        yield e


def test_depth_and_nodes_limits(engine):
    result = engine.search(Board(), depth=5)
    assert result.depth == 5 and result.best_move in Board().legal_moves()
    assert result.pv[0] == result.best_move
    result = engine.search(Board(), nodes=5000)
    assert result.best_move is not None and result.nodes >= 1


def test_mate_in_one_and_roots_without_moves(engine):
    result = engine.search(Board("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1"), depth=4)
    assert result.best_move.uci() == "d1d8" and result.mate_in == 1
    assert result.score_cp == chesscore.MATE_SCORE - 1
    mated = engine.search(Board("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3"))
    assert mated.best_move is None and mated.score_cp == -chesscore.MATE_SCORE
    stalemate = engine.search(Board("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"))
    assert stalemate.best_move is None and stalemate.score_cp == 0


def test_info_callback(engine):
    seen = []
    engine.search(Board(), depth=6, on_info=seen.append)
    assert [i.depth for i in seen if i.bound == "exact"][-1] == 6
    assert all(isinstance(m, chesscore.Move) for i in seen for m in i.pv)
    assert seen[-1].nodes > 0 and seen[-1].multipv == 1

    def boom(info):
        raise RuntimeError("from the callback")

    with pytest.raises(RuntimeError, match="from the callback"):
        engine.search(Board(), depth=20, on_info=boom)
    engine.search(Board(), depth=2)  # still usable


def stop_until(engine, done, delay=0.2):
    """Stops the engine from another thread, again and again: a stop that comes before the
    search starts is ignored (as the C ABI says)."""

    def run():
        while not done.wait(delay):
            engine.stop()

    thread = threading.Thread(target=run)
    thread.start()
    return thread


def test_stop_from_another_thread(engine):
    done = threading.Event()
    start = time.monotonic()
    thread = stop_until(engine, done)
    result = engine.search(Board(), infinite=True)
    elapsed = time.monotonic() - start
    done.set()
    thread.join()
    assert 0.15 < elapsed < 30 and result.best_move is not None


def test_busy_engine_and_stop_from_the_callback(engine):
    errors = []

    def on_info(info):
        if info.depth == 2:
            try:
                engine.evaluate(Board())
            except ChessError as e:
                errors.append(e.status)
            engine.stop()

    result = engine.search(Board(), infinite=True, on_info=on_info)
    assert errors == [Status.ERR_ENGINE_BUSY] and result.best_move is not None


def test_search_moves_and_bad_limits(engine):
    board = Board()
    result = engine.search(board, depth=4, search_moves=["a2a3", "h2h3"])
    assert result.best_move.uci() in ("a2a3", "h2h3")
    with pytest.raises(ChessError):
        engine.search(board, depth=2, search_moves=["e2e5"])
    with pytest.raises(ValueError):
        engine.search(board, depth=-1)
    with pytest.raises(ValueError):
        engine.search(board, movetime_ms=-5)
    with pytest.raises(TypeError):
        engine.search("startpos", depth=1)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        engine.search(board, depth=1, on_info=42)  # type: ignore[arg-type]


def test_options_and_evaluate(engine):
    engine.set_option("MultiPV", 2)
    lines = []
    engine.search(Board(), depth=3, on_info=lines.append)
    assert {i.multipv for i in lines} == {1, 2}
    engine.set_option("MultiPV", 1)
    for name, value, status in (("Nope", "1", Status.ERR_UNKNOWN_OPTION),
                                ("Hash", "lots", Status.ERR_BAD_OPTION_VALUE),
                                ("Threads", 0, Status.ERR_BAD_OPTION_VALUE)):
        with pytest.raises(ChessError) as info:
            engine.set_option(name, value)
        assert info.value.status == status
    engine.set_option("Clear Hash")
    engine.new_game()
    assert abs(engine.evaluate(Board("4k3/8/8/8/8/8/8/QQQQK3 w - - 0 1"))) > 1000


def test_eval_file_option(engine, tmp_path):
    """EvalFile through chess_engineSetOption: a missing file and a file that is not a
    network are refused with their statuses, and the evaluation stays the hand-written one."""
    board = Board("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
    embedded = engine.evaluate(board)  # the default: the network built into the library
    engine.set_option("EvalFile", "<hand>")
    hand = engine.evaluate(board)
    assert hand != embedded
    junk = tmp_path / "junk.nnue"
    junk.write_bytes(b"CCNN" + bytes(200))
    for value, status in ((str(tmp_path / "missing.nnue"), Status.ERR_EVAL_FILE_UNREADABLE),
                          (str(junk), Status.ERR_EVAL_FILE_INVALID)):
        with pytest.raises(ChessError) as info:
            engine.set_option("EvalFile", value)
        assert info.value.status == status
        assert engine.evaluate(board) == hand
    engine.set_option("EvalFile", "<embedded>")
    assert engine.evaluate(board) == embedded


def test_time_control_and_close():
    engine = Engine(Threads=2, Move_Overhead=0)
    result = engine.search(Board(), wtime_ms=300, btime_ms=300, winc_ms=0, binc_ms=0)
    assert result.best_move is not None and result.time_ms < 2000
    engine.close()
    engine.close()
    with pytest.raises(ValueError):
        engine.search(Board(), depth=1)
    with pytest.raises(ChessError):
        Engine(Hash=0)


def test_close_from_another_thread_during_a_search():
    engine = Engine()
    closer = threading.Timer(0.1, engine.close)  # close() repeats its stop until the search ends
    closer.start()
    try:
        result = engine.search(Board(), infinite=True)
        assert result.best_move is not None
    except ValueError:
        pass  # the timer closed it before the search began
    closer.join()
    with pytest.raises(ValueError):
        engine.search(Board(), depth=1)
