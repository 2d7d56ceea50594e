"""Dice Chess (``src/ffi/dice.rs``): :class:`DiceGame`, :class:`Roll`, :class:`DiceRules`."""

from __future__ import annotations

import ctypes
import enum
from dataclasses import dataclass
from fractions import Fraction
from typing import List, Optional, Sequence, Tuple

from . import _ffi
from ._board import Board, Move, _int_in, _move, _text, check
from ._ffi import lib


class DiceRules(enum.IntEnum):
    """The rule sets (``docs/dice-rules.md``)."""

    TWO_DICE = 0  #: two dice, check and mate
    ONE_DIE = 1  #: one die showing a movable type; king capture wins
    THREE_DICE = 2  #: three dice spent by up to three micro-moves; king capture wins


class DiceState(enum.IntEnum):
    AWAITING_ROLL = 0
    AWAITING_MOVE = 1
    WON = 2
    DRAWN = 3


@dataclass(frozen=True)
class DiceStatus:
    """Where a game stands: ``winner`` (0 White, 1 Black) when won; ``reason`` is a
    ``CHESS_DICE_WIN_*`` or ``CHESS_DICE_DRAW_*`` value when the game is over, else 0."""

    state: DiceState
    winner: Optional[int]
    reason: int


@dataclass(frozen=True)
class Roll:
    """A roll: 1 to 3 faces, 1..6 (pawn .. king), sorted."""

    faces: Tuple[int, ...]

    @classmethod
    def of(cls, *faces: int) -> "Roll":
        """A roll from faces in any order (``Roll.of(2, 1)``)."""
        return cls._from_c(_roll_from_faces(faces))

    @classmethod
    def _from_c(cls, r: _ffi.DiceRoll) -> "Roll":
        return cls(tuple(r.faces[: r.count]))

    def _to_c(self) -> _ffi.DiceRoll:
        return _roll_from_faces(self.faces)

    def __str__(self) -> str:
        buf = ctypes.create_string_buffer(_ffi.DICE_ROLL_TEXT_SIZE)
        check(lib.chess_diceRollToText(self._to_c(), buf, _ffi.DICE_ROLL_TEXT_SIZE))
        return buf.value.decode()


def _roll_from_faces(faces: Sequence[int]) -> _ffi.DiceRoll:
    faces = [_int_in(f, 0, 255, "face") for f in faces]
    if not 1 <= len(faces) <= 3:
        raise ValueError("a roll has 1 to 3 dice")
    arr = (_ffi.u8 * len(faces))(*faces)
    out = _ffi.DiceRoll()
    check(lib.chess_diceRollFromFaces(arr, len(faces), ctypes.byref(out)), f"roll {faces}")
    return out


class DiceGame:
    """A Dice Chess game: the position, the rule set and the dice.

    >>> game = DiceGame(DiceRules.TWO_DICE)
    >>> sum(w for _, w in game.outcomes())
    Fraction(1, 1)
    >>> game.roll(Roll.of(1, 2))          # pawn and knight
    >>> len(game.legal_moves()) > 0
    True
    """

    __slots__ = ("_game", "_stack")

    def __init__(self, rules: DiceRules = DiceRules.TWO_DICE, fen: Optional[str] = None) -> None:
        self._game = _ffi.DiceGame()
        self._stack: List[Tuple[str, Move, Optional[_ffi.DiceUndo], Optional[Roll]]] = []
        r = _int_in(int(rules), 0, 2**31 - 1, "rules")
        if fen is None:
            check(lib.chess_diceSetStart(ctypes.byref(self._game), r))
        else:
            check(lib.chess_diceSetFromFEN(ctypes.byref(self._game), r, _text(fen, "fen")),
                  f"dice FEN {fen!r}")

    def fen(self) -> str:
        buf = ctypes.create_string_buffer(_ffi.DICE_FEN_MAX)
        check(lib.chess_diceGetFEN(ctypes.byref(self._game), buf, _ffi.DICE_FEN_MAX))
        return buf.value.decode()

    @property
    def rules(self) -> DiceRules:
        out = ctypes.c_int()
        check(lib.chess_diceGetRules(ctypes.byref(self._game), ctypes.byref(out)))
        return DiceRules(out.value)

    def outcomes(self) -> List[Tuple[Roll, Fraction]]:
        """The rolls that may come, with their exact chances (empty unless a roll is
        awaited)."""
        out = (_ffi.DiceOutcome * _ffi.DICE_MAX_OUTCOMES)()
        count, den = _ffi.u32(), _ffi.u32()
        check(lib.chess_diceOutcomes(ctypes.byref(self._game), out, _ffi.DICE_MAX_OUTCOMES,
                                     ctypes.byref(count), ctypes.byref(den)))
        return [(Roll._from_c(o.roll), Fraction(o.weight, den.value)) for o in out[: count.value]]

    def roll(self, roll: Roll) -> None:
        """Sets the dice (one of :meth:`outcomes`)."""
        if not isinstance(roll, Roll):
            raise TypeError("expected a Roll")
        check(lib.chess_diceSetRoll(ctypes.byref(self._game), roll._to_c()), f"roll {roll.faces}")
        self._stack.append(("roll", Move(0), None, roll))

    def dice(self) -> Roll:
        """The dice still to play (no faces before the roll)."""
        out = _ffi.DiceRoll()
        check(lib.chess_diceGetDice(ctypes.byref(self._game), ctypes.byref(out)))
        return Roll._from_c(out)

    def legal_moves(self) -> List[Move]:
        """The moves the dice allow (empty: the turn must pass, :meth:`push` with None)."""
        ml = _ffi.MoveList()
        check(lib.chess_diceGenerateMoves(ctypes.byref(self._game), ctypes.byref(ml)))
        return [Move(m) for m in ml.moves[: ml.count]]

    def push(self, move: Optional[Move]) -> None:
        """Makes a move of :meth:`legal_moves` (None passes, when there is none)."""
        m = Move(0) if move is None else _move(move)
        undo = _ffi.DiceUndo()
        check(lib.chess_diceMakeMove(ctypes.byref(self._game), m.raw, ctypes.byref(undo)),
              f"{m!r}")
        self._stack.append(("move", m, undo, None))

    def pop(self) -> None:
        """Takes back the last roll or move."""
        if not self._stack:
            raise IndexError("pop from a game without rolls or moves")
        kind, move, undo, _ = self._stack[-1]
        if kind == "roll":
            check(lib.chess_diceClearRoll(ctypes.byref(self._game)))
        else:
            assert undo is not None
            check(lib.chess_diceUnmakeMove(ctypes.byref(self._game), move.raw, ctypes.byref(undo)))
        self._stack.pop()

    def status(self) -> DiceStatus:
        out = _ffi.DiceStatus()
        check(lib.chess_diceStatus(ctypes.byref(self._game), ctypes.byref(out)))
        state = DiceState(out.state)
        return DiceStatus(state, out.winner if state == DiceState.WON else None, out.reason)

    def turn_moves(self) -> List[Move]:
        """The micro-moves made so far in the current three-dice turn."""
        moves = (_ffi.u16 * 3)()
        count = _ffi.u32()
        check(lib.chess_diceTurnMoves(ctypes.byref(self._game), moves, ctypes.byref(count)))
        return [Move(m) for m in moves[: count.value]]

    def board(self) -> Board:
        """A copy of the position as a :class:`Board` (read it; the calls that check positions
        fully may refuse it, as Dice Chess allows what chess does not)."""
        b = Board.__new__(Board)
        b._pos = _ffi.Position()
        b._stack = []
        check(lib.chess_diceGetPosition(ctypes.byref(self._game), ctypes.byref(b._pos)))
        return b

    def __repr__(self) -> str:
        return f"DiceGame({self.rules.name}, {self.fen()!r})"
