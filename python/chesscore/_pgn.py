"""PGN games through the C ABI: :class:`PgnGame` (one game: tags, moves with comments and NAGs,
result, start and end positions) and :class:`PgnReader` (the games of a PGN database, one at a
time; a malformed game is recorded in :attr:`PgnReader.errors` with its line and skipped).

Null moves (``--``, ``Z0``, ``0000``, ``@@@@`` in PGN) are ``Move(0)`` in :attr:`PgnGame.moves`,
as :meth:`Board.push_null` keeps them in ``Board.move_stack`` (``Move(0).uci()`` raises: write
``0000`` for it), and are written as ``--``. A null move while in check is an error at that
token. A game that goes wrong in its movetext keeps what came before the error: its
:class:`PgnError` has the partial game in :attr:`PgnError.game`, and ``PgnReader(data,
partial=True)`` yields it in its place, with :attr:`PgnGame.error` set.

>>> import chesscore
>>> game = chesscore.PgnGame.from_pgn('[White "Morphy"]\\n\\n1. e4 e5 2. Nf3 {develops} d6 $2 *')
>>> game.tags["White"], len(game.moves), game.comments[2], game.nags(3)
('Morphy', 4, 'develops', [2])
>>> game.end_board().fen()
'rnbqkbnr/ppp2ppp/3p4/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 0 3'
>>> print(game.pgn().splitlines()[-2])
1. e4 e5 2. Nf3 {develops} 2... d6 $2 *
"""

from __future__ import annotations

import ctypes
from typing import Dict, Iterator, List, Optional, Union

from . import _ffi
from ._board import Board, ChessError, Move, _move, _text, check
from ._ffi import lib

_SIZE_MAX = ctypes.c_size_t(-1).value



def _board_from(pos: _ffi.Position) -> Board:
    board = Board()
    ctypes.memmove(ctypes.byref(board._pos), ctypes.byref(pos), ctypes.sizeof(pos))
    board._clear_stack()
    return board


class PgnError(ChessError):
    """A malformed game in a PGN database: ``status`` says what (``ERR_PGN_*`` or
    ``ERR_SAN_*`` for a move), ``line`` where (1-based), and ``game`` what was read of it before
    the error (tags, starting position, the moves before the bad token, result from the result
    token or ``Result`` tag) when the error is in the movetext, else None."""

    def __init__(self, status: int, line: int, game: Optional["PgnGame"] = None) -> None:
        super().__init__(status, f"PGN line {line}")
        self.line = line
        self.game = game


class PgnGame:
    """One game (``ChessPgnGame``): tags in order, main line, comments and NAGs, result.
    Variations are not kept (the reader skips them). ``error`` is None, or for the partial game
    of a malformed one (``PgnReader(data, partial=True)``, :attr:`PgnError.game`) its
    :class:`PgnError`."""

    __slots__ = ("_h", "error")

    def __init__(self, start: Optional[Board] = None) -> None:
        """An empty game from ``start`` (the standard position when None), result ``*``."""
        self.error: Optional[PgnError] = None
        h = ctypes.c_void_p()
        check(lib.chess_pgnGameNew(ctypes.byref(h)))
        self._h: Optional[ctypes.c_void_p] = h
        if start is not None:
            check(lib.chess_pgnGameReset(self._h, ctypes.byref(start._pos)))

    def __del__(self) -> None:
        h = getattr(self, "_h", None)
        if h:
            lib.chess_pgnGameFree(h)
            self._h = None

    @classmethod
    def from_pgn(cls, text: str) -> "PgnGame":
        """The first game of ``text``; ChessError (``ERR_PGN_*``, ``ERR_SAN_*``) when it is
        malformed."""
        game = cls()
        check(lib.chess_pgnGameRead(game._h, _text(text, "text")), "PGN")
        return game

    def _string(self, fn, *args) -> str:  # type: ignore[no-untyped-def]
        size = 256
        while True:
            buf = ctypes.create_string_buffer(size)
            status = fn(self._h, *args, buf, size)
            if status != 2:  # CHESS_ERR_BUFFER_TOO_SMALL
                check(status)
                return buf.value.decode("utf-8", "replace")
            size *= 4

    # ---- tags ----------------------------------------------------------------------------------

    @property
    def tags(self) -> Dict[str, str]:
        """The tags, in the game's order (a copy: change them with :meth:`set_tag`)."""
        n = ctypes.c_size_t()
        check(lib.chess_pgnGameTagCount(self._h, ctypes.byref(n)))
        out = {}
        for i in range(n.value):
            size = 256
            while True:
                name = ctypes.create_string_buffer(size)
                value = ctypes.create_string_buffer(size)
                status = lib.chess_pgnGameTagAt(self._h, i, name, size, value, size)
                if status != 2:
                    check(status)
                    break
                size *= 4
            out[name.value.decode("utf-8", "replace")] = value.value.decode("utf-8", "replace")
        return out

    def set_tag(self, name: str, value: str) -> None:
        check(lib.chess_pgnGameSetTag(self._h, _text(name, "name"), _text(value, "value")),
              f"tag {name!r}")

    # ---- moves ---------------------------------------------------------------------------------

    @property
    def moves(self) -> List[Move]:
        """The main line; a null move is ``Move(0)``."""
        n = ctypes.c_size_t()
        check(lib.chess_pgnGameMoveCount(self._h, ctypes.byref(n)))
        arr = (_ffi.u16 * max(n.value, 1))()
        check(lib.chess_pgnGameMoves(self._h, arr, n.value))
        return [Move(arr[i]) for i in range(n.value)]

    def push(self, move: Move) -> None:
        """Appends a legal move; ``Move(0)`` appends a null move (ChessError in check)."""
        check(lib.chess_pgnGamePushMove(self._h, _move(move).raw), f"{move!r}")

    def push_null(self) -> None:
        """Appends a null move (the turn passes; ChessError while in check), written ``--``."""
        self.push(Move(0))

    def push_san(self, san: str) -> Move:
        """Appends the move named by ``san`` (tolerant SAN; ``--``, ``Z0``, ``0000`` and ``@@@@``
        are a null move, returned as ``Move(0)``)."""
        out = _ffi.u16()
        check(lib.chess_pgnGamePushSan(self._h, _text(san, "san"), ctypes.byref(out)),
              f"SAN {san!r}")
        return Move(out.value)

    @property
    def comment(self) -> str:
        """The comment before the first move."""
        return self._string(lib.chess_pgnGameComment, _SIZE_MAX)

    @property
    def comments(self) -> List[str]:
        """The comment after each move ('' for none)."""
        return [self._string(lib.chess_pgnGameComment, i) for i in range(len(self.moves))]

    def nags(self, index: int) -> List[int]:
        """The NAGs of move ``index`` (``!`` is 1, ``?`` 2, ...)."""
        n = ctypes.c_size_t()
        arr = (_ffi.u8 * 256)()
        check(lib.chess_pgnGameNags(self._h, index, arr, 256, ctypes.byref(n)))
        return list(arr[: n.value])

    # ---- positions and result ------------------------------------------------------------------

    def start_board(self) -> Board:
        pos = _ffi.Position()
        check(lib.chess_pgnGameStartPosition(self._h, ctypes.byref(pos)))
        return _board_from(pos)

    def end_board(self) -> Board:
        """The position after the last move (its history holds the game, for repetitions)."""
        pos = _ffi.Position()
        check(lib.chess_pgnGameEndPosition(self._h, ctypes.byref(pos)))
        return _board_from(pos)

    @property
    def result(self) -> str:
        return self._string(lib.chess_pgnGameResult)

    @result.setter
    def result(self, value: str) -> None:
        check(lib.chess_pgnGameSetResult(self._h, _text(value, "result")), f"result {value!r}")

    def pgn(self) -> str:
        """The game as PGN (export format, lines of at most 79 characters)."""
        needed = ctypes.c_size_t()
        status = lib.chess_pgnGameWrite(self._h, None, 0, ctypes.byref(needed))
        if status != 2:
            check(status)
        buf = ctypes.create_string_buffer(needed.value)
        check(lib.chess_pgnGameWrite(self._h, buf, needed.value, ctypes.byref(needed)))
        return buf.value.decode("utf-8", "replace")

    def __str__(self) -> str:
        return self.pgn()

    def __repr__(self) -> str:
        tags = self.tags
        return (f"<PgnGame {tags.get('White', '?')!r} vs {tags.get('Black', '?')!r}, "
                f"{len(self.moves)} plies, {self.result}>")


class PgnReader:
    """The games of a PGN database (``str`` or ``bytes``), read one at a time as the iteration
    goes. A malformed game is appended to :attr:`errors` as a :class:`PgnError` (its status,
    line, and partial game ``game`` when the error is in the movetext) and the reader goes on
    with the next game. With ``partial=True`` the iteration also yields those partial games, in
    their place, each with its :attr:`PgnGame.error` (a game whose tags are wrong has none and
    is only in :attr:`errors`).

    >>> reader = PgnReader("1. e4 e5 *\\n\\n1. e4 e4 *\\n\\n1. d4 *\\n")
    >>> [len(g.moves) for g in reader]
    [2, 1]
    >>> [(e.line, e.status, len(e.game.moves)) for e in reader.errors]
    [(3, 401, 1)]
    >>> games = PgnReader("[Event \\"x\\"]\\n\\n1. e4 Z0 2. Kd3 *", partial=True)
    >>> [(g.tags["Event"], len(g.moves), g.error.line, g.error.status) for g in games]
    [('x', 2, 3, 401)]
    """

    __slots__ = ("_h", "errors", "_partial")

    def __init__(self, data: Union[str, bytes], partial: bool = False) -> None:
        raw = data.encode("utf-8") if isinstance(data, str) else bytes(data)
        self._partial = partial
        self.errors: List[PgnError] = []
        h = ctypes.c_void_p()
        check(lib.chess_pgnReaderNew(raw, len(raw), ctypes.byref(h)))
        self._h: Optional[ctypes.c_void_p] = h

    def __del__(self) -> None:
        h = getattr(self, "_h", None)
        if h:
            lib.chess_pgnReaderFree(h)
            self._h = None

    def __iter__(self) -> Iterator[PgnGame]:
        return self

    def __next__(self) -> PgnGame:
        while True:
            game = PgnGame()
            line = ctypes.c_size_t()
            status = lib.chess_pgnReaderNext(self._h, game._h, ctypes.byref(line))
            if status == 0:
                return game
            if status == 403:  # CHESS_ERR_PGN_END_OF_INPUT
                raise StopIteration
            error = PgnError(status, line.value)
            self.errors.append(error)
            start = ctypes.c_size_t()
            if lib.chess_pgnReaderPartialGame(self._h, game._h, ctypes.byref(start)) == 0:
                game.error = error
                error.game = game
                if self._partial:
                    return game
