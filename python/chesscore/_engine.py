"""The search engine: :class:`Engine`, :class:`SearchInfo`, :class:`SearchResult`."""

from __future__ import annotations

import ctypes
import threading
from dataclasses import dataclass, field
from typing import Callable, Iterable, List, Optional, Union

from . import _ffi
from ._board import Board, ChessError, Move, Status, _int_in, _move, _text, check
from ._ffi import lib

MATE_SCORE = 32000
_I64 = 2**63 - 1


@dataclass(frozen=True)
class SearchInfo:
    """One iteration (one line with MultiPV), as a UCI ``info`` line carries it."""

    depth: int
    seldepth: int
    multipv: int
    score_cp: int
    mate_in: int
    bound: str  # "exact", "lower" or "upper"
    hashfull: int
    nodes: int
    nps: int
    time_ms: int
    pv: List[Move] = field(default_factory=list)


@dataclass(frozen=True)
class SearchResult:
    """What a search found. ``best_move`` is None when the root has no legal move (then
    ``score_cp`` is ``-MATE_SCORE`` when checkmated, 0 when stalemated). ``mate_in`` > 0: the
    side to move mates in that many moves; < 0: it is mated; 0: no mate found."""

    best_move: Optional[Move]
    ponder_move: Optional[Move]
    score_cp: int
    mate_in: int
    depth: int
    seldepth: int
    nodes: int
    time_ms: int
    pv: List[Move]


_BOUNDS = {0: "exact", 1: "lower", 2: "upper"}


def _info(c: _ffi.SearchInfo) -> SearchInfo:
    n = min(c.pvLength, _ffi.MAX_PV)
    return SearchInfo(c.depth, c.seldepth, c.multipv, c.scoreCp, c.mateIn,
                      _BOUNDS.get(c.bound, "exact"), c.hashfull, c.nodes, c.nps, c.timeMs,
                      [Move(m) for m in c.pv[:n]])


class Engine:
    """An alpha-beta engine with its own hash table (``chess_engineNew``). Options use their
    UCI names (``Hash``, ``Threads``, ``MultiPV``, ``Move Overhead``, ``Ponder``, ``Clear
    Hash``, ``UCI_LimitStrength``, ``UCI_Elo``), as keyword arguments with ``_`` for spaces or through :meth:`set_option`.

    One call at a time: a second search (or option, evaluation) while one runs raises
    :class:`ChessError` with ``ERR_ENGINE_BUSY``; :meth:`stop` works from any thread and from
    the info callback. Close it (or use ``with``) to free its memory at once.

    >>> with Engine(Hash=16) as engine:
    ...     result = engine.search(Board(), depth=4)
    >>> result.best_move is not None and result.depth == 4
    True
    """

    def __init__(self, **options: Union[int, str, bool]) -> None:
        handle = lib.chess_engineNew()
        if not handle:
            raise MemoryError("chess_engineNew: no memory for the engine")
        self._handle: Optional[int] = handle
        self._busy = threading.Lock()  # held by every call except stop/ponderhit
        self._handle_lock = threading.Lock()  # guards the handle against close()
        self._searching_thread: Optional[int] = None
        self._close_requested = False
        self._closing = False
        try:
            for name, value in options.items():
                self.set_option(name.replace("_", " "), value)
        except BaseException:
            self.close()
            raise

    def _enter(self) -> int:
        if self._closing:
            raise ValueError("the engine is closed")
        if not self._busy.acquire(blocking=False):
            raise ChessError(Status.ERR_ENGINE_BUSY)
        if self._handle is None or self._closing:
            self._busy.release()
            raise ValueError("the engine is closed")
        return self._handle

    def set_option(self, name: str, value: Union[int, str, bool] = "") -> None:
        """Sets a UCI option (``set_option("Hash", 64)``; booleans as true/false)."""
        if isinstance(value, bool):
            value = "true" if value else "false"
        elif isinstance(value, int):
            value = str(value)
        h = self._enter()
        try:
            check(lib.chess_engineSetOption(h, _text(name, "name"), _text(value, "value")),
                  f"option {name!r} = {value!r}")
        finally:
            self._busy.release()

    def new_game(self) -> None:
        """Clears the hash and history tables."""
        h = self._enter()
        try:
            check(lib.chess_engineNewGame(h))
        finally:
            self._busy.release()

    def evaluate(self, board: Board) -> int:
        """The static evaluation in centipawns, from the side to move's view."""
        if not isinstance(board, Board):
            raise TypeError("expected a Board")
        out = _ffi.i32()
        h = self._enter()
        try:
            check(lib.chess_evaluate(h, ctypes.byref(board._pos), ctypes.byref(out)), "evaluate")
        finally:
            self._busy.release()
        return out.value

    def search(
        self,
        board: Board,
        *,
        depth: Optional[int] = None,
        nodes: Optional[int] = None,
        movetime_ms: Optional[int] = None,
        wtime_ms: Optional[int] = None,
        btime_ms: Optional[int] = None,
        winc_ms: Optional[int] = None,
        binc_ms: Optional[int] = None,
        movestogo: Optional[int] = None,
        mate: Optional[int] = None,
        infinite: bool = False,
        search_moves: Optional[Iterable[Union[Move, str]]] = None,
        on_info: Optional[Callable[[SearchInfo], object]] = None,
    ) -> SearchResult:
        """Searches ``board`` (not modified) until a limit, :meth:`stop`, or depth 127. No
        limit at all searches until :meth:`stop`. ``on_info`` is called with a
        :class:`SearchInfo` after every iteration, on this thread; an exception it raises stops
        the search and is raised here. ``search_moves`` restricts the root (Moves or UCI)."""
        if not isinstance(board, Board):
            raise TypeError("expected a Board")
        limits = _ffi.SearchLimits()
        lib.chess_searchLimitsInit(ctypes.byref(limits))
        if depth is not None:
            limits.depth = _int_in(depth, 0, 127, "depth")
        if nodes is not None:
            limits.nodes = _int_in(nodes, 0, 2**64 - 1, "nodes")
        for name, value in (("movetimeMs", movetime_ms), ("wtimeMs", wtime_ms),
                            ("btimeMs", btime_ms), ("wincMs", winc_ms), ("bincMs", binc_ms)):
            if value is not None:
                setattr(limits, name, _int_in(value, 0, _I64, name))
        if movestogo is not None:
            limits.movestogo = _int_in(movestogo, 0, 2**32 - 1, "movestogo")
        if mate is not None:
            limits.mate = _int_in(mate, 0, 2**32 - 1, "mate")
        limits.infinite = bool(infinite)
        keep: List[object] = []  # alive until the call returns
        if search_moves is not None:
            moves = [board.parse_uci(m) if isinstance(m, str) else _move(m) for m in search_moves]
            if len(moves) > 256:
                raise ValueError("at most 256 search moves")
            arr = (_ffi.u16 * max(1, len(moves)))(*[m.raw for m in moves])
            keep.append(arr)
            limits.searchMoves = ctypes.cast(arr, ctypes.POINTER(_ffi.u16))
            limits.searchMovesCount = len(moves)
        result = _ffi.SearchResult()
        st = self._run_search(limits, keep, on_info, lambda h: lib.chess_search(
            h, ctypes.byref(board._pos), ctypes.byref(limits), ctypes.byref(result)))
        check(st, "search")
        n = min(result.pvLength, _ffi.MAX_PV)
        return SearchResult(
            Move(result.bestMove) if result.bestMove else None,
            Move(result.ponderMove) if result.ponderMove else None,
            result.scoreCp, result.mateIn, result.depth, result.seldepth, result.nodes,
            result.timeMs, [Move(m) for m in result.pv[:n]])

    def _run_search(self, limits: _ffi.SearchLimits, keep: List[object],
                    on_info: Optional[Callable[[SearchInfo], object]],
                    call: Callable[[int], int]) -> int:
        """Runs ``call(handle)`` (a search with ``limits``) holding the engine busy, with
        ``on_info`` as the info callback: an exception it raises stops the search and is
        raised again after it. ``keep`` holds what must outlive the call. Returns the status."""
        raised: List[BaseException] = []
        if on_info is not None:
            if not callable(on_info):
                raise TypeError("on_info must be callable")

            def trampoline(info_ptr, _user):  # type: ignore[no-untyped-def]
                if raised:
                    return
                try:
                    on_info(_info(info_ptr.contents))
                except BaseException as e:  # noqa: BLE001  (re-raised after the search)
                    raised.append(e)
                    lib.chess_engineStop(self._handle)

            callback = _ffi.InfoCallback(trampoline)
            keep.append(callback)
            limits.onInfo = callback
        h = self._enter()
        self._searching_thread = threading.get_ident()
        try:
            st = call(h)
        finally:
            self._searching_thread = None
            self._busy.release()
            if self._close_requested:
                self.close()
        if raised:
            raise raised[0]
        return int(st)

    def stop(self) -> None:
        """Stops the running search (it returns its best move within milliseconds). Safe from
        any thread; ignored when no search runs."""
        with self._handle_lock:
            if self._handle is not None:
                lib.chess_engineStop(self._handle)

    def ponder_hit(self) -> None:
        with self._handle_lock:
            if self._handle is not None:
                lib.chess_enginePonderHit(self._handle)

    def close(self) -> None:
        """Stops a running search, waits for it, and frees the engine. Idempotent. Called from
        the info callback, it stops the search and frees the engine when the search returns."""
        self._closing = True
        self.stop()
        if self._searching_thread == threading.get_ident():
            self._close_requested = True
            return
        # A stop sent just before a search starts is ignored by the library: repeat it until
        # the call that holds the engine returns.
        while not self._busy.acquire(timeout=0.05):
            self.stop()
        try:
            with self._handle_lock:
                if self._handle is not None:
                    lib.chess_engineFree(self._handle)
                    self._handle = None
        finally:
            self._busy.release()

    def __enter__(self) -> "Engine":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __del__(self) -> None:
        h = getattr(self, "_handle", None)
        if h is not None:
            lib.chess_engineFree(h)
            self._handle = None
