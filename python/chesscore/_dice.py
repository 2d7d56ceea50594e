"""Dice Chess (``src/ffi/dice.rs``): :class:`DiceGame`, :class:`Roll`, :class:`DiceRules`; the
Dice Chess engine on an :class:`Engine` (``src/ffi/dice_search.rs``): :func:`dice_search`,
:func:`dice_evaluate`, :func:`dice_equity`, :func:`dice_search_all_rolls`; the doubling cube's
advice from an equity (``src/ffi/dice_cube.rs``): :func:`dice_cube_advice`."""

from __future__ import annotations

import ctypes
import enum
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Callable, List, Optional, Sequence, Tuple, Union

from . import _ffi
from ._board import Board, Move, _int_in, _move, _text, check
from ._ffi import lib

if TYPE_CHECKING:
    from ._engine import Engine


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
        b = Board()
        check(lib.chess_diceGetPosition(ctypes.byref(self._game), ctypes.byref(b._pos)))
        b._clear_stack()
        return b

    def __repr__(self) -> str:
        return f"DiceGame({self.rules.name}, {self.fen()!r})"


# ---------------------------------------------------------------------------------------------
# The Dice Chess engine (``src/ffi/dice_search.rs``) on an :class:`Engine` handle.
# ---------------------------------------------------------------------------------------------

#: The value of a proven win in the turn being played (``DiceSearchResult.value``).
DICE_WIN_VALUE = 10256


@dataclass(frozen=True)
class DiceSearchResult:
    """A Dice Chess search's answer. ``turn`` is the best turn (one move in one and two dice,
    up to three micro-moves in three dice; empty: the pass), ``best_move`` its first move (None:
    the pass). ``value`` is for the side to move: -10000..10000 heuristic, ``DICE_WIN_VALUE -
    (n - 1)`` a proven win in ``n`` turns (``win_in`` = n; negative for losses, 0 when none is
    proven); ``expected_score`` in [0, 1]."""

    best_move: Optional[Move]
    turn: List[Move]
    value: int
    win_in: int
    expected_score: float
    depth: int
    nodes: int
    time_ms: int


def _result(c: _ffi.DiceSearchResult) -> DiceSearchResult:
    n = min(c.turnLength, 3)
    return DiceSearchResult(Move(c.bestMove) if c.bestMove else None,
                            [Move(m) for m in c.turn[:n]], c.value, c.winIn, c.expectedScore,
                            c.depth, c.nodes, c.timeMs)


def _dice_call(engine: "Engine", game: DiceGame, call, depth, nodes, movetime_ms, infinite,  # type: ignore[no-untyped-def]
               on_info) -> int:
    """Runs ``call(handle, limits)`` on the engine with the limits, the busy lock and the info
    callback of :meth:`Engine.search`; returns the status."""
    from ._engine import Engine

    if not isinstance(engine, Engine):
        raise TypeError("expected an Engine")
    if not isinstance(game, DiceGame):
        raise TypeError("expected a DiceGame")
    limits = _ffi.SearchLimits()
    lib.chess_searchLimitsInit(ctypes.byref(limits))
    if depth is not None:
        limits.depth = _int_in(depth, 0, 64, "depth")
    if nodes is not None:
        limits.nodes = _int_in(nodes, 0, 2**64 - 1, "nodes")
    if movetime_ms is not None:
        limits.movetimeMs = _int_in(movetime_ms, 0, 2**63 - 1, "movetime_ms")
    limits.infinite = bool(infinite)
    return engine._run_search(limits, [], on_info, lambda h: call(h, limits))


def dice_search(engine: "Engine", game: DiceGame, *, depth: Optional[int] = None,
                nodes: Optional[int] = None, movetime_ms: Optional[int] = None,
                infinite: bool = False,
                on_info: Optional[Callable[..., object]] = None) -> DiceSearchResult:
    """The best move (three dice: the best turn) for ``game``, whose dice are rolled
    (``chess_diceSearch``). Depth counts turns. No limit: until :meth:`Engine.stop`.

    >>> from chesscore import Engine
    >>> game = DiceGame(DiceRules.TWO_DICE)
    >>> game.roll(Roll.of(1, 2))
    >>> with Engine() as engine:
    ...     r = dice_search(engine, game, depth=2)
    >>> r.best_move in game.legal_moves() and r.depth == 2
    True
    """
    out = _ffi.DiceSearchResult()
    st = _dice_call(engine, game, lambda h, l: lib.chess_diceSearch(
        h, ctypes.byref(game._game), ctypes.byref(l), ctypes.byref(out)),
        depth, nodes, movetime_ms, infinite, on_info)
    check(st, "dice search")
    return _result(out)


def dice_evaluate(engine: "Engine", game: DiceGame, *, depth: Optional[int] = None,
                  nodes: Optional[int] = None, movetime_ms: Optional[int] = None,
                  infinite: bool = False,
                  on_info: Optional[Callable[..., object]] = None) -> float:
    """The expected score in [0, 1] of ``game`` before its roll, for the side to move
    (``chess_diceEvaluate``); a finished game gives its result."""
    out = ctypes.c_double()
    st = _dice_call(engine, game, lambda h, l: lib.chess_diceEvaluate(
        h, ctypes.byref(game._game), ctypes.byref(l), ctypes.byref(out)),
        depth, nodes, movetime_ms, infinite, on_info)
    check(st, "dice evaluate")
    return float(out.value)


@dataclass(frozen=True)
class DiceEquity:
    """The chances of a win, a draw and a loss for the side to move before the roll (they sum to
    1) and the expected score ``win + draw / 2`` (``chess_diceEquity``); ``value`` is the search's
    value they come from, ``win_in`` the turns to a proven win (negative: loss; 0: none)."""

    win: float
    draw: float
    loss: float
    expected_score: float
    value: int
    win_in: int
    depth: int
    nodes: int
    time_ms: int


def dice_equity(engine: "Engine", game: DiceGame, *, depth: Optional[int] = None,
                nodes: Optional[int] = None, movetime_ms: Optional[int] = None,
                infinite: bool = False,
                on_info: Optional[Callable[..., object]] = None) -> DiceEquity:
    """Win, draw and loss chances of ``game`` before its roll, for the side to move
    (``chess_diceEquity``: the search's value through the rule set's fitted model); a finished
    game gives its result.

    >>> from chesscore import Engine
    >>> with Engine() as engine:
    ...     q = dice_equity(engine, DiceGame(DiceRules.TWO_DICE), depth=1)
    >>> abs(q.win + q.draw + q.loss - 1) < 1e-9
    True
    """
    out = _ffi.DiceEquity()
    st = _dice_call(engine, game, lambda h, l: lib.chess_diceEquity(
        h, ctypes.byref(game._game), ctypes.byref(l), ctypes.byref(out)),
        depth, nodes, movetime_ms, infinite, on_info)
    check(st, "dice equity")
    return DiceEquity(out.win, out.draw, out.loss, out.expectedScore, out.value, out.winIn,
                      out.depth, out.nodes, out.timeMs)


class CubeOwner(enum.IntEnum):
    """Who may double next (``CHESS_DICE_CUBE_*``)."""

    CENTERED = 0  #: either side (the start of a game)
    MOVER = 1  #: the side to move, which took the last double
    OPPONENT = 2  #: the other side: the side to move may not double


@dataclass(frozen=True)
class CubeAdvice:
    """The doubling cube's advice for the side to move before its roll
    (``chess_diceCubeAdvice``; the model and thresholds: ``docs/dice.md``, "The doubling
    cube"). Equities are the side to move's, in units of the current stake, counting the
    cube's later use."""

    should_double: bool  #: double now (False when it should not or may not)
    should_take: bool  #: the other side should take a double (else pass)
    no_double: float  #: equity without doubling
    double_take: float  #: equity after a double and a take (a pass gives +1)
    take_point: float  #: the least expected score with which the taker takes


def dice_cube_advice(equity: Union[DiceEquity, Tuple[float, float, float]],
                     owner: Union[CubeOwner, int] = CubeOwner.CENTERED) -> CubeAdvice:
    """Double or not, take or pass, for the side to move with the chances ``equity`` (a
    :class:`DiceEquity` from :func:`dice_equity`, or ``(win, draw, loss)`` summing to 1) and
    the cube's ``owner``. Raises :class:`ChessError` (``ERR_INVALID_ARGUMENT``) for chances out
    of range or not summing to 1, and ``ValueError`` for an unknown owner.

    >>> a = dice_cube_advice((0.7, 0.0, 0.3))
    >>> a.should_double, a.should_take
    (True, True)
    >>> dice_cube_advice((0.7, 0.0, 0.3), CubeOwner.OPPONENT).should_double
    False
    """
    win, draw, loss = ((equity.win, equity.draw, equity.loss) if isinstance(equity, DiceEquity)
                       else equity)
    q = _ffi.DiceEquity()
    q.size = ctypes.sizeof(q)
    q.win, q.draw, q.loss = float(win), float(draw), float(loss)
    out = _ffi.DiceCubeAdvice()
    check(lib.chess_diceCubeAdvice(ctypes.byref(q), int(CubeOwner(owner)), ctypes.byref(out)),
          "dice cube advice")
    return CubeAdvice(bool(out.shouldDouble), bool(out.shouldTake), out.noDouble,
                      out.doubleTake, out.takePoint)


def dice_search_all_rolls(engine: "Engine", game: DiceGame, *, depth: Optional[int] = None,
                          nodes: Optional[int] = None, movetime_ms: Optional[int] = None,
                          infinite: bool = False,
                          on_info: Optional[Callable[..., object]] = None,
                          ) -> List[Tuple[Roll, Fraction, DiceSearchResult]]:
    """For every roll ``game`` (awaiting its roll) may get: the roll, its chance and the best
    move or turn for it (``chess_diceSearchAllRolls``), in the order of :meth:`DiceGame.outcomes`."""
    out = (_ffi.DiceRollAdvice * _ffi.DICE_MAX_OUTCOMES)()
    count = _ffi.u32()
    st = _dice_call(engine, game, lambda h, l: lib.chess_diceSearchAllRolls(
        h, ctypes.byref(game._game), ctypes.byref(l), out, _ffi.DICE_MAX_OUTCOMES,
        ctypes.byref(count)), depth, nodes, movetime_ms, infinite, on_info)
    check(st, "dice search all rolls")
    den = sum(a.weight for a in out[: count.value])
    return [(Roll._from_c(a.roll), Fraction(a.weight, den), _result(a.result))
            for a in out[: count.value]]
