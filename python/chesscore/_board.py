"""Positions, moves and errors: :class:`Board`, :class:`Move`, :class:`ChessError`."""

from __future__ import annotations

import ctypes
import enum
from dataclasses import dataclass
from typing import Dict, Iterator, List, Optional, Tuple, Union

from . import _ffi
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


@dataclass(frozen=True)
class Move:
    """A move: its 16-bit value as the C ABI encodes it (from square in bits 0-5, to square in
    6-11, flags in 12-15). Get moves from a :class:`Board` (``legal_moves()``,
    ``parse_uci()``); ``str(move)`` is its UCI text."""

    raw: int

    def __post_init__(self) -> None:
        _int_in(self.raw, 0, 0xFFFF, "move")

    @property
    def from_square(self) -> int:
        return self.raw & 63

    @property
    def to_square(self) -> int:
        return (self.raw >> 6) & 63

    @property
    def flags(self) -> int:
        return self.raw >> 12

    @property
    def is_capture(self) -> bool:
        return bool(self.raw & 0x4000)

    @property
    def is_en_passant(self) -> bool:
        return self.flags == 5

    @property
    def is_castling(self) -> bool:
        return self.flags in (2, 3)

    @property
    def promotion(self) -> Optional[int]:
        """The piece type promoted to (``KNIGHT`` .. ``QUEEN``), else None."""
        return (self.flags & 3) + KNIGHT if self.raw & 0x8000 else None

    def uci(self) -> str:
        """UCI text: ``e2e4``, ``e7e8q``, castling as the king's move ``e1g1``."""
        buf = ctypes.create_string_buffer(6)
        check(lib.chess_moveToUci(self.raw, buf, 6), f"move {self.raw:#06x}")
        return buf.value.decode()

    def __str__(self) -> str:
        return self.uci()

    def __repr__(self) -> str:
        try:
            return f"Move({self.uci()!r})"
        except ChessError:
            return f"Move(raw={self.raw:#06x})"


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


class Board:
    """A chess position with its game history, in the library's own 9216-byte struct.

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

    __slots__ = ("_pos", "_stack")

    def __init__(self, fen: Optional[str] = STARTING_FEN, *, strict: bool = False) -> None:
        """Sets up ``fen``; the starting position when ``fen`` is omitted or None.

        FEN is read as python-chess's ``chess.Board(fen)`` reads it
        (``chess_setFromFENLenient``): runs of white space, missing trailing fields, a
        fullmove number of 0, and castling rights or an en passant square that contradict the
        board (dropped). With ``strict=True`` it is read by the strict reader
        (``chess_setFromFEN``: six fields, or four with clocks 0 and 1, single spaces, every
        field consistent). Positions no game can reach are refused either way. Raises
        :class:`ChessError` with the ``CHESS_ERR_FEN_*`` status naming the defect."""
        self._pos = _ffi.Position()
        self._stack: List[Tuple[Move, _ffi.Undo]] = []
        if fen is None:
            check(lib.chess_setStartPosition(ctypes.byref(self._pos)))
        else:
            self.set_fen(fen, strict=strict)

    @classmethod
    def from_fen(cls, fen: str, *, strict: bool = False) -> "Board":
        return cls(fen, strict=strict)

    def set_fen(self, fen: str, *, strict: bool = False) -> None:
        """Replaces the position (and forgets the move stack), reading ``fen`` as
        :class:`Board` does (``strict=True``: the strict reader). On error nothing changes."""
        read = lib.chess_setFromFEN if strict else lib.chess_setFromFENLenient
        check(read(ctypes.byref(self._pos), _text(fen, "fen")), f"FEN {fen!r}")
        self._stack = []

    def fen(self) -> str:
        buf = ctypes.create_string_buffer(_ffi.FEN_MAX)
        check(lib.chess_toFEN(ctypes.byref(self._pos), buf, _ffi.FEN_MAX))
        return buf.value.decode()

    def copy(self) -> "Board":
        """An independent copy, move stack included."""
        other = Board.__new__(Board)
        other._pos = _ffi.Position()
        ctypes.memmove(ctypes.byref(other._pos), ctypes.byref(self._pos), ctypes.sizeof(self._pos))
        other._stack = []
        for move, undo in self._stack:
            u = _ffi.Undo()
            ctypes.memmove(ctypes.byref(u), ctypes.byref(undo), ctypes.sizeof(u))
            other._stack.append((move, u))
        return other

    # ---- moves -------------------------------------------------------------------------------

    def legal_moves(self) -> List[Move]:
        """Every legal move (promotions queen, rook, bishop, knight)."""
        ml = _ffi.MoveList()
        check(lib.chess_generateLegalMoves(ctypes.byref(self._pos), ctypes.byref(ml)))
        return _moves(ml)

    def pseudo_legal_moves(self) -> List[Move]:
        """Every pseudo-legal move: the king may be left in check (see :meth:`is_legal`)."""
        ml = _ffi.MoveList()
        check(lib.chess_generatePseudoLegalMoves(ctypes.byref(self._pos), ctypes.byref(ml)))
        return _moves(ml)

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
        ml = _ffi.MoveList()
        check(lib.chess_generateMoves(ctypes.byref(self._pos), bool(legal), _GEN_CLASSES[kind],
                                      mask or 126, ctypes.byref(ml)))
        return _moves(ml)

    def parse_uci(self, uci: str) -> Move:
        """The legal move that UCI text names here (ChessError: malformed or illegal)."""
        out = _ffi.u16()
        check(lib.chess_moveFromUci(ctypes.byref(self._pos), _text(uci, "uci"), ctypes.byref(out)),
              f"move {uci!r}")
        return Move(out.value)

    def is_legal(self, move: Move) -> bool:
        return bool(lib.chess_isLegalMove(ctypes.byref(self._pos), _move(move).raw))

    def push(self, move: Union[Move, str]) -> Move:
        """Makes a move (a :class:`Move` or UCI text), checked: an illegal one raises
        :class:`ChessError` (``ERR_ILLEGAL_MOVE``) and changes nothing."""
        m = self.parse_uci(move) if isinstance(move, str) else _move(move)
        undo = _ffi.Undo()
        check(lib.chess_makeMove(ctypes.byref(self._pos), m.raw, ctypes.byref(undo)), f"{m!r}")
        self._stack.append((m, undo))
        return m

    def push_uci(self, uci: str) -> Move:
        return self.push(self.parse_uci(uci))

    def push_null(self) -> None:
        """Passes the turn (not in check)."""
        undo = _ffi.Undo()
        check(lib.chess_makeNullMove(ctypes.byref(self._pos), ctypes.byref(undo)), "null move")
        self._stack.append((Move(0), undo))

    def pop(self) -> Move:
        """Takes back the last move pushed (IndexError when there is none); returns it."""
        if not self._stack:
            raise IndexError("pop from a board without moves")
        move, undo = self._stack[-1]
        if move.raw == 0:
            check(lib.chess_unmakeNullMove(ctypes.byref(self._pos), ctypes.byref(undo)))
        else:
            check(lib.chess_unmakeMove(ctypes.byref(self._pos), move.raw, ctypes.byref(undo)))
        self._stack.pop()
        return move

    @property
    def move_stack(self) -> List[Move]:
        """The moves pushed since the FEN was set (``Move(0)`` for a null move)."""
        return [m for m, _ in self._stack]

    # ---- perft -------------------------------------------------------------------------------

    def perft(self, depth: int, *, full: bool = False, threads: Optional[int] = None) -> int:
        """Leaf nodes of the legal move tree ``depth`` plies deep (bulk counting; ``full``
        makes and unmakes every move; ``threads``: parallel, 0 = every core)."""
        depth = _int_in(depth, 0, 64, "depth")
        nodes = _ffi.u64()
        if threads is not None:
            threads = _int_in(threads, 0, 256, "threads")
            st = lib.chess_perftParallel(ctypes.byref(self._pos), depth, threads, bool(full),
                                         ctypes.byref(nodes))
        elif full:
            st = lib.chess_perftFull(ctypes.byref(self._pos), depth, ctypes.byref(nodes))
        else:
            st = lib.chess_perft(ctypes.byref(self._pos), depth, ctypes.byref(nodes))
        check(st, "perft")
        return nodes.value

    def perft_divide(self, depth: int) -> Dict[str, int]:
        """The perft count below each legal move, by UCI text."""
        depth = _int_in(depth, 0, 64, "depth")
        ml = _ffi.MoveList()
        counts = (_ffi.u64 * 256)()
        total = _ffi.u64()
        check(lib.chess_perftDivide(ctypes.byref(self._pos), depth, ctypes.byref(ml), counts, 256,
                                    ctypes.byref(total)), "perft divide")
        return {m.uci(): counts[i] for i, m in enumerate(_moves(ml))}

    # ---- state -------------------------------------------------------------------------------

    @property
    def turn(self) -> int:
        """``WHITE`` (0) or ``BLACK`` (1)."""
        return int(lib.chess_sideToMove(ctypes.byref(self._pos)))

    def piece_at(self, square: int) -> Optional[Piece]:
        v = lib.chess_pieceOn(ctypes.byref(self._pos), _int_in(square, 0, 63, "square"))
        return Piece(v >> 3, v & 7) if v else None

    def pieces(self, color: int, piece_type: int = 0) -> int:
        """Bitboard (a1 = bit 0) of ``color``'s pieces of ``piece_type`` (0: every type)."""
        return int(lib.chess_pieces(ctypes.byref(self._pos), _int_in(color, 0, 1, "color"),
                                    _int_in(piece_type, 0, KING, "piece type")))

    @property
    def castling_rights(self) -> int:
        """4 bits: 1 White king side, 2 White queen side, 4 Black king side, 8 queen side."""
        return int(lib.chess_castlingRights(ctypes.byref(self._pos)))

    @property
    def ep_square(self) -> Optional[int]:
        sq = lib.chess_enPassantSquare(ctypes.byref(self._pos))
        return None if sq < 0 else int(sq)

    @property
    def halfmove_clock(self) -> int:
        return int(lib.chess_halfmoveClock(ctypes.byref(self._pos)))

    @property
    def fullmove_number(self) -> int:
        return int(lib.chess_fullmoveNumber(ctypes.byref(self._pos)))

    def is_check(self) -> bool:
        return bool(lib.chess_isInCheck(ctypes.byref(self._pos)))

    def checkers(self) -> int:
        """Bitboard of the pieces giving check."""
        return int(lib.chess_checkers(ctypes.byref(self._pos)))

    def status(self) -> GameStatus:
        """Checkmate and stalemate first, then the 50-move rule, threefold repetition and
        insufficient material."""
        out = ctypes.c_int()
        check(lib.chess_gameStatus(ctypes.byref(self._pos), ctypes.byref(out)))
        return GameStatus(out.value)

    def is_checkmate(self) -> bool:
        return self.status() == GameStatus.CHECKMATE

    def is_game_over(self) -> bool:
        return self.status() != GameStatus.ONGOING

    def is_repetition(self, ply_limit: int = 2**31 - 1) -> bool:
        """True at the third occurrence of the position."""
        return bool(lib.chess_isRepetition(ctypes.byref(self._pos),
                                           _int_in(ply_limit, 0, 2**31 - 1, "ply_limit")))

    def hash(self) -> int:
        """Zobrist hash (equal positions hash equal; the same on every run and machine)."""
        return int(lib.chess_hash(ctypes.byref(self._pos)))

    def pawn_hash(self) -> int:
        return int(lib.chess_pawnHash(ctypes.byref(self._pos)))

    def material_hash(self) -> int:
        return int(lib.chess_materialHash(ctypes.byref(self._pos)))

    def compact_history(self) -> None:
        """Keeps only the history a repetition can still reach, so a game can go on past the
        1024 moves the history holds; the moves before can no longer be popped."""
        check(lib.chess_compactHistory(ctypes.byref(self._pos)))
        self._stack = []

    # ---- SAN (issue 14) -----------------------------------------------------------------------

    def san(self, move: Move) -> str:
        """The standard SAN of a legal move (``Nbd2``, ``exd8=Q+``, ``O-O-O#``); ChessError
        ``ERR_ILLEGAL_MOVE`` for a move not legal here."""
        buf = ctypes.create_string_buffer(_ffi.SAN_MAX)
        check(lib.chess_moveToSan(ctypes.byref(self._pos), _move(move).raw, buf, _ffi.SAN_MAX),
              f"{move!r}")
        return buf.value.decode()

    def parse_san(self, san: str, *, strict: bool = False) -> Move:
        """The legal move SAN text names. Tolerant by default (missing or extra ``+``/``#``,
        ``!?``, ``0-0``, lower-case piece letters, long algebraic ``e2e4``/``Ng1-f3``, ``e8Q``);
        ``strict=True`` takes only the standard SAN :meth:`san` writes. ChessError
        ``ERR_SAN_SYNTAX``, ``ERR_SAN_ILLEGAL`` or ``ERR_SAN_AMBIGUOUS``."""
        out = _ffi.u16()
        check(lib.chess_moveFromSan(ctypes.byref(self._pos), _text(san, "san"), 0 if strict else 1,
                                    ctypes.byref(out)), f"SAN {san!r}")
        return Move(out.value)

    def push_san(self, san: str) -> Move:
        """Makes the move SAN text names (tolerant reading) and returns it."""
        return self.push(self.parse_san(san))

    # ---- end of SAN ----------------------------------------------------------------------------

    def __iter__(self) -> Iterator[Move]:
        return iter(self.legal_moves())

    def __str__(self) -> str:
        buf = ctypes.create_string_buffer(_ffi.POSITION_TEXT_SIZE)
        check(lib.chess_positionToText(ctypes.byref(self._pos), buf, _ffi.POSITION_TEXT_SIZE))
        return buf.value.decode()

    def __repr__(self) -> str:
        return f"Board({self.fen()!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Board) and self.fen() == other.fen()

    __hash__ = None  # type: ignore[assignment]  # mutable


def _move(move: object) -> Move:
    if not isinstance(move, Move):
        raise TypeError(f"expected a Move, not {type(move).__name__}")
    return move


def version() -> str:
    """The library's version (``chess_version``)."""
    return lib.chess_version().decode()


def library_path() -> str:
    """The shared library this package loaded."""
    return str(lib.path)
