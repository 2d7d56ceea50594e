"""Positions, moves and errors: :class:`Board`, :class:`Move`, :class:`ChessError`."""

from __future__ import annotations

import ctypes
import enum
from dataclasses import dataclass
from typing import Dict, Iterator, List, Optional, Tuple, Union

from . import _fast, _ffi
from ._ffi import lib

STARTING_FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

#: Square names in the library's order: a1 = 0, b1 = 1, ..., h8 = 63.
SQUARE_NAMES = [f + r for r in "12345678" for f in "abcdefgh"]

#: Piece types as the C ABI numbers them.
PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING = 1, 2, 3, 4, 5, 6
PIECE_SYMBOLS = " pnbrqk"

WHITE, BLACK = 0, 1


class ChessError(Exception):
    """A call into chesscore failed: ``status`` is the ``ChessStatus`` code (an ``int``, see
    :class:`Status`), ``message`` the library's sentence for it (``chess_statusMessage``)."""

    def __init__(self, status: int, context: str = "") -> None:
        self.status = int(status)
        self.message = message(status)
        self.context = context
        text = f"{self.message} (status {self.status})"
        super().__init__(f"{context}: {text}" if context else text)


class Status(enum.IntEnum):
    """The ``ChessStatus`` codes (``include/chesscore.h`` documents each)."""

    OK = 0
    ERR_NULL_ARGUMENT = 1
    ERR_BUFFER_TOO_SMALL = 2
    ERR_ILLEGAL_MOVE = 3
    ERR_HISTORY_FULL = 4
    ERR_INVALID_ARGUMENT = 5
    ERR_INVALID_POSITION = 6
    ERR_BAD_UNDO = 7
    ERR_INTERNAL = 8
    ERR_FEN_FIELD_COUNT = 100
    ERR_FEN_TRAILING_TEXT = 101
    ERR_FEN_BOARD = 102
    ERR_FEN_SIDE_TO_MOVE = 103
    ERR_FEN_CASTLING = 104
    ERR_FEN_EN_PASSANT = 105
    ERR_FEN_HALFMOVE_CLOCK = 106
    ERR_FEN_FULLMOVE_NUMBER = 107
    ERR_FEN_KING_COUNT = 108
    ERR_FEN_PAWN_ON_BACK_RANK = 109
    ERR_FEN_TOO_MANY_PIECES = 110
    ERR_FEN_CASTLING_RIGHTS = 111
    ERR_FEN_EN_PASSANT_RANK = 112
    ERR_FEN_EN_PASSANT_PAWN = 113
    ERR_FEN_OPPONENT_IN_CHECK = 114
    ERR_FEN_IMPOSSIBLE_CHECK = 115
    ERR_ENGINE_BUSY = 200
    ERR_INVALID_LIMITS = 201
    ERR_UNKNOWN_OPTION = 202
    ERR_BAD_OPTION_VALUE = 203
    ERR_OUT_OF_MEMORY = 204
    ERR_EVAL_FILE_UNREADABLE = 205
    ERR_EVAL_FILE_INVALID = 206
    ERR_DICE_INVALID_GAME = 300
    ERR_DICE_INVALID_RULES = 301
    ERR_DICE_NOT_AWAITING_ROLL = 302
    ERR_DICE_NOT_AWAITING_MOVE = 303
    ERR_DICE_INVALID_ROLL = 304
    ERR_DICE_FEN_EN_PASSANT = 305
    ERR_DICE_FEN_DICE = 306
    ERR_DICE_FEN_BOTH_IN_CHECK = 307
    ERR_DICE_UNSUPPORTED_LIMITS = 310
    # SAN and PGN (issue 14)
    ERR_SAN_SYNTAX = 400
    ERR_SAN_ILLEGAL = 401
    ERR_SAN_AMBIGUOUS = 402
    ERR_PGN_END_OF_INPUT = 403
    ERR_PGN_TAG = 404
    ERR_PGN_FEN = 405
    ERR_PGN_VARIANT = 406
    ERR_PGN_TOKEN = 407
    ERR_PGN_UNTERMINATED = 408
    ERR_PGN_PARENTHESIS = 409
    ERR_PGN_NO_GAME = 410
    ERR_PGN_NO_SUCH_TAG = 411


class GameStatus(enum.IntEnum):
    """How a game stands (``chess_gameStatus``)."""

    ONGOING = 0
    CHECKMATE = 1
    STALEMATE = 2
    FIFTY_MOVE_RULE = 3
    THREEFOLD_REPETITION = 4
    INSUFFICIENT_MATERIAL = 5


def message(status: int) -> str:
    """The library's English sentence for a status code."""
    return lib.chess_statusMessage(_int_in(status, -(2**31), 2**31 - 1, "status")).decode()


def check(status: int, context: str = "") -> None:
    """Raises :class:`ChessError` unless ``status`` is ``CHESS_OK``."""
    if status != 0:
        raise ChessError(status, context)


def _int_in(value: object, low: int, high: int, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} must be an int, not {type(value).__name__}")
    if not low <= value <= high:
        raise ValueError(f"{name} must be in {low}..{high}, not {value}")
    return value


def _text(value: object, name: str) -> bytes:
    """UTF-8 bytes for a C string argument: a ``str`` without NUL characters."""
    if not isinstance(value, str):
        raise TypeError(f"{name} must be a str, not {type(value).__name__}")
    if "\0" in value:
        raise ValueError(f"{name} must not contain NUL characters")
    return value.encode("utf-8", "surrogatepass")


def square_name(square: int) -> str:
    """``'e4'`` for square 28."""
    return SQUARE_NAMES[_int_in(square, 0, 63, "square")]


def parse_square(name: str) -> int:
    """28 for ``'e4'``."""
    try:
        return SQUARE_NAMES.index(name)
    except ValueError:
        raise ValueError(f"not a square: {name!r}") from None


#: A move: its 16-bit value as the C ABI encodes it (from square in bits 0-5, to square in
#: 6-11, flags in 12-15); ``raw``, ``from_square``, ``to_square``, ``flags``, ``promotion``,
#: ``is_capture``, ``is_castling``, ``is_en_passant``, ``uci()``. Compiled (``chesscore._fast``):
#: immutable, hashable, equal by value; the moves a :class:`Board` returns are shared instances.
Move = _fast.Move

@dataclass(frozen=True)
class Piece:
    """A piece: ``color`` (``WHITE`` 0 / ``BLACK`` 1) and ``piece_type`` (``PAWN`` 1 ..
    ``KING`` 6)."""

    color: int
    piece_type: int

    def symbol(self) -> str:
        """The FEN letter: upper case for White."""
        s = PIECE_SYMBOLS[self.piece_type]
        return s.upper() if self.color == WHITE else s


def _moves(ml: _ffi.MoveList) -> List[Move]:
    return [Move(m) for m in ml.moves[: ml.count]]


_GEN_CLASSES = {"all": 0, "captures": 1, "quiets": 2}


class Board(_fast.BoardBase):
    """A chess position with its game history, in the library's own 9216-byte struct, held by
    the compiled module ``chesscore._fast`` (the hot paths run there, with no ctypes call).

    >>> board = Board()
    >>> len(board.legal_moves())
    20
    >>> board.push_uci("e2e4")
    Move('e2e4')
    >>> board.fen()
    'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1'
    >>> board.pop()
    Move('e2e4')
    >>> board.perft(3)
    8902
    >>> Board("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 1 0").fen()  # a puzzle's "1 0"
    '6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 1 1'
    >>> Board("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 1 0", strict=True)
    Traceback (most recent call last):
    ...
    chesscore.ChessError: FEN '6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 1 0': ... (status 107)
    >>> Board("not a fen")
    Traceback (most recent call last):
    ...
    chesscore.ChessError: FEN 'not a fen': ... (status 103)
    """

    __slots__ = ()

    # Compiled (``_fast.BoardBase``): ``set_fen``, ``fen``, ``copy``, ``legal_moves``,
    # ``legal_moves_raw``, ``legal_move_count``, ``pseudo_legal_moves``, ``parse_uci``,
    # ``is_legal``, ``push``, ``push_uci``, ``push_null``, ``pop``, ``move_stack``, ``perft``,
    # ``perft_divide``, ``turn``, ``pieces``, ``castling_rights``, ``ep_square``,
    # ``halfmove_clock``, ``fullmove_number``, ``is_check``, ``checkers``, ``is_checkmate``,
    # ``is_game_over``, ``is_repetition``, ``hash``, ``pawn_hash``, ``material_hash``,
    # ``compact_history``, ``san``, ``parse_san``, ``push_san``, ``str(board)``. The
    # constructor: ``Board(fen=STARTING_FEN, *, strict=False)``, FEN read as python-chess's
    # ``chess.Board(fen)`` reads it (``chess_setFromFENLenient``: runs of white space, missing
    # trailing fields, a fullmove number of 0, castling rights or an en passant square that
    # contradict the board dropped); ``strict=True``: the strict reader (``chess_setFromFEN``).
    # Positions no game can reach are refused either way, with the ``CHESS_ERR_FEN_*`` status.

    @classmethod
    def from_fen(cls, fen: str, *, strict: bool = False) -> "Board":
        return cls(fen, strict=strict)

    @property
    def _pos(self) -> _ffi.Position:
        """The position as a ctypes ``ChessPosition`` over the board's own bytes (for the
        parts of the package on ctypes; it keeps the board alive)."""
        view = _ffi.Position.from_address(self._address())
        view._owner = self  # type: ignore[attr-defined]
        return view

    def generate_moves(
        self, *, legal: bool = True, kind: str = "all", piece_types: Tuple[int, ...] = ()
    ) -> List[Move]:
        """Moves selected as ``chess_generateMoves`` does: legal or pseudo-legal; ``kind``
        ``"all"``, ``"captures"`` or ``"quiets"``; only the pieces of ``piece_types`` (all when
        empty), generated directly rather than filtered."""
        if kind not in _GEN_CLASSES:
            raise ValueError(f"kind must be one of {sorted(_GEN_CLASSES)}, not {kind!r}")
        mask = 0
        for t in piece_types:
            mask |= 1 << _int_in(t, PAWN, KING, "piece type")
        return self._generate(bool(legal), _GEN_CLASSES[kind], mask or 126)

    def piece_at(self, square: int) -> Optional[Piece]:
        v = self._piece_at(square)
        return Piece(v >> 3, v & 7) if v else None

    def status(self) -> GameStatus:
        """Checkmate and stalemate first, then the 50-move rule, threefold repetition and
        insufficient material."""
        return GameStatus(self._status())

    def __iter__(self) -> Iterator[Move]:
        return iter(self.legal_moves())

    def __repr__(self) -> str:
        return f"Board({self.fen()!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Board) and self.fen() == other.fen()

    __hash__ = None  # type: ignore[assignment]  # mutable


def _move(move: object) -> Move:
    if not isinstance(move, Move):  # the compiled class
        raise TypeError(f"expected a Move, not {type(move).__name__}")
    return move


def version() -> str:
    """The library's version (``chess_version``)."""
    return lib.chess_version().decode()


def library_path() -> str:
    """The shared library this package loaded."""
    return str(lib.path)


_fast._set_error_class(ChessError)


def _check_same_layout() -> None:
    """The compiled module and the ctypes library share position bytes: refuse a pair from
    different builds (a debug build lays a position out differently)."""
    board = Board("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
    board.push_uci("e2a6")
    pos = ctypes.byref(board._pos)
    if (ctypes.sizeof(_ffi.Position) != _fast._position_size()
            or lib.chess_validatePosition(pos) != 0 or lib.chess_hash(pos) != board.hash()):
        raise ImportError(f"chesscore: the compiled module {_fast.__file__} and the library "
                          f"{lib.path} are from different builds")


_check_same_layout()
