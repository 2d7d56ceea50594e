"""The Dice Chess engine through the package: a legal move for the roll, a three-dice turn that
plays, a king capture found as a win in 1, an even start, advice for every roll, the info
callback, stop from another thread, refusals, and the doubling cube's advice."""

import threading
import time
from fractions import Fraction

import pytest

from chesscore import (
    DICE_WIN_VALUE,
    ChessError,
    CubeOwner,
    DiceGame,
    DiceRules,
    DiceState,
    Engine,
    Roll,
    Status,
    dice_cube_advice,
    dice_equity,
    dice_evaluate,
    dice_search,
    dice_search_all_rolls,
)


@pytest.fixture
def engine():
    with Engine(Hash=4) as e:
        yield e


def test_two_dice_move_is_legal_and_game_untouched(engine):
    game = DiceGame(DiceRules.TWO_DICE)
    game.roll(Roll.of(1, 2))
    fen = game.fen()
    infos = []
    r = dice_search(engine, game, depth=2, on_info=infos.append)
    assert r.best_move in game.legal_moves()
    assert r.turn == [r.best_move] and r.depth == 2 and r.nodes > 0
    assert [i.depth for i in infos] == [1, 2]
    assert -10000 <= r.value <= 10000 and r.win_in == 0
    assert game.fen() == fen


def test_three_dice_turn_plays(engine):
    game = DiceGame(DiceRules.THREE_DICE)
    game.roll(Roll.of(1, 1, 2))
    r = dice_search(engine, game, depth=1)
    assert len(r.turn) == 3
    for m in r.turn:
        assert m in game.legal_moves()
        game.push(m)
    assert game.status().state == DiceState.AWAITING_ROLL


def test_king_capture_is_a_win_in_one(engine):
    game = DiceGame(DiceRules.ONE_DIE, "4k3/8/8/8/4Q3/8/8/4K3 w - - 0 1")
    game.roll(Roll.of(5))
    r = dice_search(engine, game, depth=3)
    assert (r.value, r.win_in, r.expected_score) == (DICE_WIN_VALUE, 1, 1.0)
    game.push(r.best_move)
    assert game.status().state == DiceState.WON


def test_evaluate_and_all_rolls(engine):
    game = DiceGame(DiceRules.TWO_DICE)
    assert 0.4 < dice_evaluate(engine, game, depth=1) < 0.6
    advice = dice_search_all_rolls(engine, game, depth=1)
    assert [(r, w) for r, w, _ in advice] == game.outcomes()
    assert sum(w for _, w, _ in advice) == Fraction(1)
    for roll, _, res in advice:
        game.roll(roll)
        moves = game.legal_moves()
        assert res.best_move in moves if moves else res.best_move is None  # None: the pass
        game.pop()


def test_equity(engine):
    for rules in DiceRules:
        game = DiceGame(rules)
        engine.new_game()
        q = dice_equity(engine, game, depth=1)
        assert abs(q.win + q.draw + q.loss - 1) < 1e-12
        assert all(0 <= x <= 1 for x in (q.win, q.draw, q.loss))
        assert q.expected_score == q.win + q.draw / 2
        assert q.depth == 1 and q.win_in == 0 and -10000 < q.value < 10000
        # chess_diceEvaluate reads the same search's value linearly.
        engine.new_game()
        assert dice_evaluate(engine, game, depth=1) == (q.value + 10000) / 20000
    game = DiceGame(DiceRules.ONE_DIE, "4k3/8/8/8/4Q3/8/8/4K3 w - - 0 1")
    game.roll(Roll.of(5))
    with pytest.raises(ChessError) as e:
        dice_equity(engine, game, depth=1)
    assert e.value.status == Status.ERR_DICE_NOT_AWAITING_ROLL
    game.push(dice_search(engine, game, depth=1).best_move)
    q = dice_equity(engine, game, depth=1)
    assert (q.win, q.draw, q.loss, q.expected_score, q.depth) == (1, 0, 0, 1, 0)


def test_cube_advice(engine):
    # Thresholds worked out by hand from docs/dice.md's model (cube efficiency 1/2, no
    # gammons): take from 2/9 of the taker's expected score; double from 7/11 with the cube
    # centred, from 2/3 when owning it, never when the other side owns it.
    assert abs(dice_cube_advice((0.5, 0, 0.5)).take_point - 2 / 9) < 1e-12
    assert not dice_cube_advice((0.63, 0, 0.37)).should_double
    assert dice_cube_advice((0.64, 0, 0.36)).should_double
    assert dice_cube_advice((0.5, 0.28, 0.22)).should_double  # expected score 0.64
    assert not dice_cube_advice((0.66, 0, 0.34), CubeOwner.MOVER).should_double
    assert dice_cube_advice((0.67, 0, 0.33), CubeOwner.MOVER).should_double
    assert not any(dice_cube_advice((p / 10, 0, 1 - p / 10), CubeOwner.OPPONENT).should_double
                   for p in range(11))
    assert dice_cube_advice((0.77, 0, 0.23)).should_take
    assert not dice_cube_advice((0.78, 0, 0.22)).should_take
    a = dice_cube_advice((0.5, 0, 0.5))
    assert abs(a.no_double) < 1e-12 and abs(a.double_take + 0.25) < 1e-12
    # From a search: an even start, no double, a take.
    engine.new_game()
    q = dice_equity(engine, DiceGame(DiceRules.ONE_DIE), depth=1)
    a = dice_cube_advice(q, 0)
    assert not a.should_double and a.should_take
    for bad in [(1.2, 0, -0.2), (0.5, 0.5, 0.5), (float("nan"), 0, 1), (0.5, 0, 0.49)]:
        with pytest.raises(ChessError) as e:
            dice_cube_advice(bad)
        assert e.value.status == Status.ERR_INVALID_ARGUMENT
    with pytest.raises(ValueError):
        dice_cube_advice((0.5, 0, 0.5), 3)


def test_refusals(engine):
    game = DiceGame(DiceRules.TWO_DICE)
    with pytest.raises(ChessError) as e:
        dice_search(engine, game, depth=1)
    assert e.value.status == Status.ERR_DICE_NOT_AWAITING_MOVE
    game.roll(Roll.of(3, 4))
    with pytest.raises(ChessError) as e:
        dice_evaluate(engine, game, depth=1)
    assert e.value.status == Status.ERR_DICE_NOT_AWAITING_ROLL
    with pytest.raises(TypeError):
        dice_search(engine, "not a game", depth=1)  # type: ignore[arg-type]


# How long an infinite search stopped from another thread may run before the test calls it
# stuck: the first stop comes at 0.2 s, and the issue asks for 50 ms after it; the rest is
# room for a loaded machine (CI runs on two shared cores), whose scheduling no tighter wall
# clock survives. An ignored stop never returns at all.
HANG_BOUND = 5.0


def stop_until_done(engine, delay=0.2):
    """Stops `engine` from another thread every `delay` seconds until the returned event is
    set: a stop that comes before the search has claimed the engine is ignored (as the C ABI
    says), which a single timer cannot rule out on a loaded machine."""
    done = threading.Event()

    def run():
        while not done.wait(delay):
            engine.stop()

    thread = threading.Thread(target=run)
    thread.start()
    return done, thread


def search_stopped_from_another_thread(engine, game):
    done, thread = stop_until_done(engine)
    t0 = time.monotonic()
    try:
        r = dice_search(engine, game, infinite=True)
        elapsed = time.monotonic() - t0
    finally:
        done.set()
        thread.join()
    assert elapsed < HANG_BOUND, f"the stopped search ran {elapsed:.3f} s"
    return r


def test_stop_from_another_thread(engine):
    game = DiceGame(DiceRules.TWO_DICE)
    game.roll(Roll.of(2, 5))
    r = search_stopped_from_another_thread(engine, game)
    assert r.best_move in game.legal_moves() and r.depth >= 1


def test_threads_option_drives_the_dice_search():
    """``Threads`` above 1: the Dice Chess search on that many threads (Lazy SMP), a legal
    move and turn with a value on the scale, a stop that ends it, and back to one thread."""
    with Engine(Hash=4, Threads=2) as e:
        game = DiceGame(DiceRules.TWO_DICE)
        game.roll(Roll.of(1, 2))
        r = dice_search(e, game, depth=2)
        assert r.best_move in game.legal_moves() and r.depth == 2
        assert abs(r.value) <= DICE_WIN_VALUE and r.nodes > 0
        three = DiceGame(DiceRules.THREE_DICE)
        three.roll(Roll.of(1, 1, 2))
        r = dice_search(e, three, depth=1)
        assert len(r.turn) == 3
        for m in r.turn:
            assert m in three.legal_moves()
            three.push(m)
        r = search_stopped_from_another_thread(e, game)
        assert r.best_move in game.legal_moves() and r.depth >= 1
        e.set_option("Threads", 1)
        r = dice_search(e, game, depth=2)
        assert r.best_move in game.legal_moves() and r.depth == 2
