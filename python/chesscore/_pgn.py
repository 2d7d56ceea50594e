"""PGN games through the C ABI: :class:`PgnGame` (one game: tags, moves with comments and NAGs,
result, start and end positions) and :class:`PgnReader` (the games of a PGN database, one at a
time; a malformed game is recorded in :attr:`PgnReader.errors` with its line and skipped).

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
    board = Board.__new__(Board)
    board._pos = pos
    board._stack = []
    return board


class PgnError(ChessError):
    """A malformed game in a PGN database: ``status`` says what (``ERR_PGN_*`` or
    ``ERR_SAN_*`` for a move), ``line`` where (1-based)."""

    def __init__(self, status: int, line: int) -> None:
        super().__init__(status, f"PGN line {line}")
        self.line = line


class PgnGame:
    """One game (``ChessPgnGame``): tags in order, main line, comments and NAGs, result.
    Variations are not kept (the reader skips them)."""

    __slots__ = ("_h",)

    def __init__(self, start: Optional[Board] = None) -> None:
        """An empty game from ``start`` (the standard position when None), result ``*``."""
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
        n = ctypes.c_size_t()
        check(lib.chess_pgnGameMoveCount(self._h, ctypes.byref(n)))
        arr = (_ffi.u16 * max(n.value, 1))()
        check(lib.chess_pgnGameMoves(self._h, arr, n.value))
        return [Move(arr[i]) for i in range(n.value)]

    def push(self, move: Move) -> None:
        check(lib.chess_pgnGamePushMove(self._h, _move(move).raw), f"{move!r}")

    def push_san(self, san: str) -> Move:
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
    goes. A malformed game is appended to :attr:`errors` as a :class:`PgnError` (its status and
    line) and the reader goes on with the next game.

    >>> reader = PgnReader("1. e4 e5 *\\n\\n1. e4 e4 *\\n\\n1. d4 *\\n")
    >>> [len(g.moves) for g in reader]
    [2, 1]
    >>> [(e.line, e.status) for e in reader.errors]
    [(3, 401)]
    """

    __slots__ = ("_h", "errors")

    def __init__(self, data: Union[str, bytes]) -> None:
        raw = data.encode("utf-8") if isinstance(data, str) else bytes(data)
        h = ctypes.c_void_p()
        check(lib.chess_pgnReaderNew(raw, len(raw), ctypes.byref(h)))
        self._h: Optional[ctypes.c_void_p] = h
        self.errors: List[PgnError] = []

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
            self.errors.append(PgnError(status, line.value))
