"""Chess960, move events and why a move is illegal (issue 14), as :class:`Board` methods.

Kept in its own module: the methods are attached to :class:`Board` below.

>>> from chesscore import Board
>>> board = Board.chess960_start(0)
>>> board.fen()
'bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1'
>>> board = Board.from_fen960("4k3/8/8/8/8/8/8/5KR1 w G - 0 1")
>>> move = board.parse_uci("f1g1")  # castling: the king takes its own rook
>>> [(e.kind, e.piece.symbol(), e.from_square, e.to_square) for e in board.move_events(move)]
[('move', 'K', 5, 6), ('castle_rook', 'R', 6, 5)]
>>> Board().check_move("e2", "e5").reason
<IllegalReason.WRONG_GEOMETRY: 3>
"""

from __future__ import annotations

import ctypes
import enum
from dataclasses import dataclass
from typing import List, Optional, Union

from . import _ffi
from ._board import Board, ChessError, Move, Piece, _move, _text, check, parse_square
from ._ffi import lib


class IllegalReason(enum.IntEnum):
    """The ``ChessIllegalReason`` codes: the first rule a move breaks, or ``LEGAL``."""

    LEGAL = 0
    NO_PIECE = 1
    NOT_YOUR_PIECE = 2
    WRONG_GEOMETRY = 3
    PATH_BLOCKED = 4
    OWN_PIECE_ON_TARGET = 5
    PAWN_FORWARD_BLOCKED = 6
    PAWN_CAPTURE_NOTHING = 7
    EN_PASSANT_NOT_AVAILABLE = 8
    PROMOTION_MISSING = 9
    PROMOTION_NOT_ALLOWED = 10
    CASTLING_NO_RIGHT = 11
    CASTLING_OUT_OF_CHECK = 12
    CASTLING_THROUGH_CHECK = 13
    KING_LEFT_IN_CHECK = 14

    @property
    def message(self) -> str:
        """The library's sentence for the reason (``chess_illegalReasonMessage``)."""
        return lib.chess_illegalReasonMessage(int(self)).decode()


@dataclass(frozen=True)
class MoveCheck:
    """What :meth:`Board.check_move` found: the ``reason``, the square it names (the checking
    or attacking piece, the first blocker) or None, and the ``message``."""

    reason: IllegalReason
    square: Optional[int]

    @property
    def legal(self) -> bool:
        return self.reason == IllegalReason.LEGAL

    @property
    def message(self) -> str:
        return self.reason.message


_EVENT_KINDS = {1: "move", 2: "capture", 3: "castle_rook", 4: "promote"}


@dataclass(frozen=True)
class MoveEvent:
    """One thing a move does on the board: ``kind`` ``"move"`` (the moving piece; the king in
    a castle), ``"capture"`` (the captured piece leaves ``from_square``, its real square for en
    passant), ``"castle_rook"`` or ``"promote"`` (the pawn on ``to_square`` becomes ``piece``).
    The events of one move happen together (in Chess960 king and rook may swap squares)."""

    kind: str
    piece: Piece
    from_square: int
    to_square: int


def _square(value: Union[int, str], name: str) -> int:
    if isinstance(value, str):
        return parse_square(value)
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < 64:
        raise ValueError(f"{name} must be a square 0..63 or a name like 'e4', not {value!r}")
    return value


def _from_fen960(cls, fen: str) -> Board:
    """A board in Chess960 mode from a FEN with an X-FEN or Shredder-FEN castling field."""
    board = cls()
    board.set_fen960(fen)
    return board


def _chess960_start(cls, number: int) -> Board:
    """Chess960 starting position ``number`` (0..959; 518 is the standard start)."""
    board = cls()
    check(lib.chess_setChess960Start(ctypes.byref(board._pos), int(number)),
          f"Chess960 position {number!r}")
    return board


def _set_fen960(self: Board, fen: str) -> None:
    """Replaces the position by a Chess960 FEN (X-FEN or Shredder-FEN castling), in Chess960
    mode (and forgets the move stack). On error nothing changes."""
    check(lib.chess_setFromFEN960(ctypes.byref(self._pos), _text(fen, "fen")), f"FEN {fen!r}")
    self._clear_stack()


def _get_chess960(self: Board) -> bool:
    """True in Chess960 mode: ``fen()`` writes X-FEN, castling in UCI is the king taking its
    rook (``e1h1``). Setting it to False needs the standard castling setup (ChessError)."""
    return bool(lib.chess_isChess960(ctypes.byref(self._pos)))


def _set_chess960(self: Board, on: bool) -> None:
    check(lib.chess_setChess960(ctypes.byref(self._pos), bool(on)), "Chess960 mode")


def _shredder_fen(self: Board) -> str:
    """The FEN with a Shredder-FEN castling field (rook files: ``HAha`` for the standard
    setup)."""
    buf = ctypes.create_string_buffer(_ffi.FEN_MAX)
    check(lib.chess_toShredderFEN(ctypes.byref(self._pos), buf, _ffi.FEN_MAX))
    return buf.value.decode()


def _uci(self: Board, move: Union[Move, str]) -> str:
    """UCI text of a legal move in this board's mode (castling ``e1h1`` in Chess960 mode)."""
    m = self.parse_uci(move) if isinstance(move, str) else _move(move)
    buf = ctypes.create_string_buffer(6)
    check(lib.chess_moveToUciInPosition(ctypes.byref(self._pos), m.raw, buf, 6), f"{m!r}")
    return buf.value.decode()


def _move_events(self: Board, move: Union[Move, str]) -> List[MoveEvent]:
    """The board events of a legal move, in order (ChessError for an illegal one)."""
    m = self.parse_uci(move) if isinstance(move, str) else _move(move)
    events = (_ffi.MoveEvent * _ffi.MOVE_EVENTS_MAX)()
    count = _ffi.size_t()
    check(lib.chess_moveEvents(ctypes.byref(self._pos), m.raw, events, _ffi.MOVE_EVENTS_MAX,
                               ctypes.byref(count)), f"{m!r}")
    return [
        MoveEvent(_EVENT_KINDS[e.kind], Piece(e.piece >> 3, e.piece & 7), e.from_, e.to)
        for e in events[: count.value]
    ]


def _check_move(self: Board, from_square: Union[int, str], to_square: Union[int, str],
                promotion: Optional[int] = None) -> MoveCheck:
    """Why going ``from_square`` → ``to_square`` (with ``promotion``, a piece type, or None)
    is illegal here, or that it is legal: the first rule broken. Castling is the king's move to
    g/c, in Chess960 mode onto its own rook. Cheap enough for every mouse move."""
    f = _square(from_square, "from_square")
    t = _square(to_square, "to_square")
    p = 0 if promotion is None else int(promotion)
    if not 0 <= p <= 6:
        raise ValueError(f"promotion must be a piece type 1..6 or None, not {promotion!r}")
    reason = _ffi.c_int()
    square = _ffi.u8()
    check(lib.chess_checkMove(ctypes.byref(self._pos), f, t, p, ctypes.byref(reason),
                              ctypes.byref(square)), "check_move")
    return MoveCheck(IllegalReason(reason.value), None if square.value == 64 else square.value)


Board.from_fen960 = classmethod(_from_fen960)  # type: ignore[attr-defined]
Board.chess960_start = classmethod(_chess960_start)  # type: ignore[attr-defined]
Board.set_fen960 = _set_fen960  # type: ignore[attr-defined]
Board.chess960 = property(_get_chess960, _set_chess960)  # type: ignore[attr-defined]
Board.shredder_fen = _shredder_fen  # type: ignore[attr-defined]
Board.uci = _uci  # type: ignore[attr-defined]
Board.move_events = _move_events  # type: ignore[attr-defined]
Board.check_move = _check_move  # type: ignore[attr-defined]

__all__ = ["IllegalReason", "MoveCheck", "MoveEvent", "ChessError"]
