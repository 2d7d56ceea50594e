"""Dice Chess through the package: outcomes and their chances, seeded random games to the end
under every rule set with push/pop, FEN round trips, bad rolls and moves."""

import random
from fractions import Fraction

import pytest

from chesscore import ChessError, DiceGame, DiceRules, DiceState, Move, Roll, Status


@pytest.mark.parametrize("rules", list(DiceRules))
def test_random_games(rules):
    rng = random.Random(int(rules))
    finished = 0
    for _ in range(6):
        game = DiceGame(rules)
        fens = []
        for _turn in range(400):
            status = game.status()
            if status.state in (DiceState.WON, DiceState.DRAWN):
                finished += 1
                break
            if status.state == DiceState.AWAITING_ROLL:
                outcomes = game.outcomes()
                assert sum(w for _, w in outcomes) == Fraction(1)
                roll = rng.choices([r for r, _ in outcomes], [float(w) for _, w in outcomes])[0]
                game.roll(roll)
                assert game.dice().faces == roll.faces
            else:
                fens.append(game.fen())
                moves = game.legal_moves()
                game.push(rng.choice(moves) if moves else None)
        # The FEN of a finished game shows the board as it stood (docs/dice-rules.md) and reads
        # back (a won game's en passant targets lapse with it).
        assert DiceGame(rules, game.fen()).fen() == game.fen()
        for fen in fens:
            assert DiceGame(rules, fen).fen() == fen
        # Back to the start.
        while True:
            try:
                game.pop()
            except IndexError:
                break
        assert game.fen() == DiceGame(rules).fen()
    assert finished >= 1


def test_bad_rolls_moves_and_fens():
    game = DiceGame()
    with pytest.raises(ChessError) as info:
        game.roll(Roll((1,)))  # two dice awaited
    assert info.value.status == Status.ERR_DICE_INVALID_ROLL
    with pytest.raises(ChessError):
        Roll.of(7, 1)
    with pytest.raises(ValueError):
        Roll.of()
    with pytest.raises(ChessError) as info:
        game.push(Move(0x1234))
    assert info.value.status == Status.ERR_DICE_NOT_AWAITING_MOVE
    game.roll(Roll.of(2, 1))
    assert str(game.dice()) == "1-2 (P N)"
    with pytest.raises(ChessError) as info:
        game.push(Move(0x1234))
    assert info.value.status == Status.ERR_ILLEGAL_MOVE
    with pytest.raises(ChessError) as info:
        DiceGame(DiceRules.TWO_DICE, "not a fen")
    assert info.value.status == Status.ERR_FEN_FIELD_COUNT
    with pytest.raises(ChessError) as info:
        DiceGame(7)  # type: ignore[arg-type]
    assert info.value.status == Status.ERR_DICE_INVALID_RULES
    board = game.board()
    assert len(board.legal_moves()) == 20


def test_dice_fen_letters_in_either_case():
    # Upper-case dice for Black (as other engines write them) read, and are written in the
    # mover's case; lower case for White too.
    game = DiceGame(DiceRules.THREE_DICE, "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1 BKK")
    assert game.fen() == "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1 bkk"
    assert game.dice().faces == (3, 6, 6)
    game = DiceGame(DiceRules.THREE_DICE, "4k3/8/8/8/8/8/8/R3K3 w Q - 0 1 rk")
    assert game.fen() == "4k3/8/8/8/8/8/8/R3K3 w Q - 0 1 RK"
    for fen in ("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1 RX", "4k3/8/8/8/8/8/8/R3K3 b - - 0 1 pppp"):
        with pytest.raises(ChessError) as info:
            DiceGame(DiceRules.THREE_DICE, fen)
        assert info.value.status == Status.ERR_DICE_FEN_DICE


def test_three_dice_turn_moves():
    game = DiceGame(DiceRules.THREE_DICE)
    game.roll(Roll.of(1, 1, 2))
    game.push(game.legal_moves()[0])
    assert len(game.turn_moves()) == 1
    assert game.rules == DiceRules.THREE_DICE
