"""The C ABI of chesscore through ctypes: the library, its structs and every signature.

Private: use the classes of :mod:`chesscore`. The library is looked up in this order: the file
named by the environment variable ``CHESSCORE_LIBRARY``; a copy bundled in this package (``pip
install ./python`` builds one); the system's loader (``libchesscore.so.0`` installed by ``cmake
--install`` in a directory the loader searches).
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import sys
from pathlib import Path

ABI_MAJOR = 0

c_bool = ctypes.c_bool
u8, u16, u32, u64 = ctypes.c_uint8, ctypes.c_uint16, ctypes.c_uint32, ctypes.c_uint64
i32, i64 = ctypes.c_int32, ctypes.c_int64
c_int = ctypes.c_int  # enums (ChessStatus, ChessGameStatus, ...) are C ints
c_char_p, c_void_p, size_t = ctypes.c_char_p, ctypes.c_void_p, ctypes.c_size_t

POSITION_WORDS = 1152
UNDO_WORDS = 6
DICE_GAME_WORDS = 1160
DICE_UNDO_WORDS = 20
MAX_PV = 128
FEN_MAX = 128
POSITION_TEXT_SIZE = 163
DICE_FEN_MAX = 128
DICE_MAX_OUTCOMES = 56
DICE_ROLL_TEXT_SIZE = 16
SAN_MAX = 8  # SAN and PGN (issue 14)


class Position(ctypes.Structure):
    _fields_ = [("opaque", u64 * POSITION_WORDS)]


class Undo(ctypes.Structure):
    _fields_ = [("opaque", u64 * UNDO_WORDS)]


class MoveList(ctypes.Structure):
    _fields_ = [("moves", u16 * 256), ("count", u32)]


class SearchInfo(ctypes.Structure):
    _fields_ = [
        ("size", u32), ("depth", u32), ("seldepth", u32), ("multipv", u32),
        ("scoreCp", i32), ("mateIn", i32), ("bound", c_int), ("hashfull", u32),
        ("nodes", u64), ("nps", u64), ("timeMs", u64),
        ("pvLength", u32), ("pv", u16 * MAX_PV), ("reserved", u32),
    ]


InfoCallback = ctypes.CFUNCTYPE(None, ctypes.POINTER(SearchInfo), c_void_p)


class SearchLimits(ctypes.Structure):
    _fields_ = [
        ("size", u32), ("depth", i32), ("nodes", u64), ("movetimeMs", i64),
        ("wtimeMs", i64), ("btimeMs", i64), ("wincMs", i64), ("bincMs", i64),
        ("movestogo", u32), ("mate", u32), ("searchMoves", ctypes.POINTER(u16)),
        ("onInfo", InfoCallback), ("userData", c_void_p), ("searchMovesCount", u32),
        ("infinite", c_bool), ("ponder", c_bool), ("reserved", u8 * 162),
    ]


class SearchResult(ctypes.Structure):
    _fields_ = [
        ("size", u32), ("bestMove", u16), ("ponderMove", u16), ("scoreCp", i32),
        ("mateIn", i32), ("depth", u32), ("seldepth", u32), ("nodes", u64), ("timeMs", u64),
        ("pvLength", u32), ("pv", u16 * MAX_PV), ("reserved", u8 * 212),
    ]


class DiceGame(ctypes.Structure):
    _fields_ = [("opaque", u64 * DICE_GAME_WORDS)]


class DiceUndo(ctypes.Structure):
    _fields_ = [("opaque", u64 * DICE_UNDO_WORDS)]


class DiceRoll(ctypes.Structure):
    _fields_ = [("count", u8), ("faces", u8 * 3)]


class DiceOutcome(ctypes.Structure):
    _fields_ = [("roll", DiceRoll), ("weight", u32)]


class DiceStatus(ctypes.Structure):
    _fields_ = [("state", c_int), ("winner", u8), ("reason", u8), ("reserved", u8 * 2)]


class DiceSearchResult(ctypes.Structure):
    _fields_ = [
        ("size", u32), ("bestMove", u16), ("turnLength", u16), ("turn", u16 * 4),
        ("value", i32), ("winIn", i32), ("expectedScore", ctypes.c_double), ("depth", u32),
        ("hashfull", u32), ("nodes", u64), ("timeMs", u64), ("reserved", u8 * 200),
    ]


class DiceEquity(ctypes.Structure):
    _fields_ = [
        ("size", u32), ("value", i32), ("win", ctypes.c_double), ("draw", ctypes.c_double),
        ("loss", ctypes.c_double), ("expectedScore", ctypes.c_double), ("depth", u32),
        ("winIn", i32), ("nodes", u64), ("timeMs", u64), ("reserved", u8 * 64),
    ]


class DiceCubeAdvice(ctypes.Structure):
    _fields_ = [
        ("size", u32), ("shouldDouble", u8), ("shouldTake", u8), ("reserved0", u8 * 2),
        ("noDouble", ctypes.c_double), ("doubleTake", ctypes.c_double),
        ("takePoint", ctypes.c_double), ("reserved", u8 * 32),
    ]


class DiceRollAdvice(ctypes.Structure):
    _fields_ = [("roll", DiceRoll), ("weight", u32), ("result", DiceSearchResult)]


# The sizes the header pins (64-bit targets).
_SIZES = {
    Position: 9216, Undo: 48, MoveList: 516, SearchInfo: 320, DiceGame: 9280, DiceUndo: 160,
    DiceRoll: 4, DiceOutcome: 8, DiceStatus: 8, DiceSearchResult: 256, DiceRollAdvice: 264,
    DiceEquity: 128, DiceCubeAdvice: 64,
}
if ctypes.sizeof(c_void_p) == 8:
    _SIZES.update({SearchLimits: 256, SearchResult: 512})
for _t, _n in _SIZES.items():
    assert ctypes.sizeof(_t) == _n, (_t.__name__, ctypes.sizeof(_t), _n)

P = ctypes.POINTER
_SIGNATURES = {
    # name: (restype, argtypes)
    "chess_version": (c_char_p, []),
    "chess_versionNumber": (u32, []),
    "chess_sliderBackend": (c_char_p, []),
    "chess_statusMessage": (c_char_p, [c_int]),
    "chess_setFromFEN": (c_int, [P(Position), c_char_p]),
    "chess_setFromFENLenient": (c_int, [P(Position), c_char_p]),
    "chess_setStartPosition": (c_int, [P(Position)]),
    "chess_toFEN": (c_int, [P(Position), ctypes.c_char_p, size_t]),
    "chess_validatePosition": (c_int, [P(Position)]),
    "chess_generateLegalMoves": (c_int, [P(Position), P(MoveList)]),
    "chess_generatePseudoLegalMoves": (c_int, [P(Position), P(MoveList)]),
    "chess_generateMoves": (c_int, [P(Position), c_bool, u32, u8, P(MoveList)]),
    "chess_makeMove": (c_int, [P(Position), u16, P(Undo)]),
    "chess_unmakeMove": (c_int, [P(Position), u16, P(Undo)]),
    "chess_makeNullMove": (c_int, [P(Position), P(Undo)]),
    "chess_unmakeNullMove": (c_int, [P(Position), P(Undo)]),
    "chess_isLegalMove": (c_bool, [P(Position), u16]),
    "chess_moveFromUci": (c_int, [P(Position), c_char_p, P(u16)]),
    "chess_moveToUci": (c_int, [u16, ctypes.c_char_p, size_t]),
    "chess_perft": (c_int, [P(Position), u32, P(u64)]),
    "chess_perftFull": (c_int, [P(Position), u32, P(u64)]),
    "chess_perftParallel": (c_int, [P(Position), u32, u32, c_bool, P(u64)]),
    "chess_perftDivide": (c_int, [P(Position), u32, P(MoveList), P(u64), size_t, P(u64)]),
    "chess_isRepetition": (c_bool, [P(Position), i32]),
    "chess_compactHistory": (c_int, [P(Position)]),
    "chess_isInCheck": (c_bool, [P(Position)]),
    "chess_gameStatus": (c_int, [P(Position), P(c_int)]),
    "chess_hash": (u64, [P(Position)]),
    "chess_pawnHash": (u64, [P(Position)]),
    "chess_materialHash": (u64, [P(Position)]),
    "chess_sideToMove": (i32, [P(Position)]),
    "chess_pieceOn": (u8, [P(Position), u32]),
    "chess_pieces": (u64, [P(Position), u32, u32]),
    "chess_castlingRights": (u8, [P(Position)]),
    "chess_enPassantSquare": (i32, [P(Position)]),
    "chess_halfmoveClock": (u32, [P(Position)]),
    "chess_fullmoveNumber": (u32, [P(Position)]),
    "chess_checkers": (u64, [P(Position)]),
    "chess_positionToText": (c_int, [P(Position), ctypes.c_char_p, size_t]),
    "chess_engineNew": (c_void_p, []),
    "chess_engineFree": (None, [c_void_p]),
    "chess_engineSetOption": (c_int, [c_void_p, c_char_p, c_char_p]),
    "chess_engineNewGame": (c_int, [c_void_p]),
    "chess_engineStop": (None, [c_void_p]),
    "chess_enginePonderHit": (None, [c_void_p]),
    "chess_searchLimitsInit": (None, [P(SearchLimits)]),
    "chess_search": (c_int, [c_void_p, P(Position), P(SearchLimits), P(SearchResult)]),
    "chess_evaluate": (c_int, [c_void_p, P(Position), P(i32)]),
    "chess_diceSetFromFEN": (c_int, [P(DiceGame), c_int, c_char_p]),
    "chess_diceSetStart": (c_int, [P(DiceGame), c_int]),
    "chess_diceGetFEN": (c_int, [P(DiceGame), ctypes.c_char_p, size_t]),
    "chess_diceGetRules": (c_int, [P(DiceGame), P(c_int)]),
    "chess_diceOutcomes": (c_int, [P(DiceGame), P(DiceOutcome), u32, P(u32), P(u32)]),
    "chess_diceSetRoll": (c_int, [P(DiceGame), DiceRoll]),
    "chess_diceClearRoll": (c_int, [P(DiceGame)]),
    "chess_diceGenerateMoves": (c_int, [P(DiceGame), P(MoveList)]),
    "chess_diceMakeMove": (c_int, [P(DiceGame), u16, P(DiceUndo)]),
    "chess_diceUnmakeMove": (c_int, [P(DiceGame), u16, P(DiceUndo)]),
    "chess_diceStatus": (c_int, [P(DiceGame), P(DiceStatus)]),
    "chess_diceRollFromFaces": (c_int, [P(u8), u32, P(DiceRoll)]),
    "chess_diceRollToText": (c_int, [DiceRoll, ctypes.c_char_p, size_t]),
    "chess_diceGetDice": (c_int, [P(DiceGame), P(DiceRoll)]),
    "chess_diceTurnMoves": (c_int, [P(DiceGame), P(u16), P(u32)]),
    "chess_diceGetPosition": (c_int, [P(DiceGame), P(Position)]),
    # ---- SAN and PGN (issue 14) ----------------------------------------------------------------
    "chess_moveToSan": (c_int, [P(Position), u16, ctypes.c_char_p, size_t]),
    "chess_moveFromSan": (c_int, [P(Position), c_char_p, u32, P(u16)]),
    "chess_pgnGameNew": (c_int, [P(c_void_p)]),
    "chess_pgnGameFree": (None, [c_void_p]),
    "chess_pgnGameReset": (c_int, [c_void_p, P(Position)]),
    "chess_pgnGameRead": (c_int, [c_void_p, c_char_p]),
    "chess_pgnGamePushMove": (c_int, [c_void_p, u16]),
    "chess_pgnGamePushSan": (c_int, [c_void_p, c_char_p, P(u16)]),
    "chess_pgnGameSetTag": (c_int, [c_void_p, c_char_p, c_char_p]),
    "chess_pgnGameTag": (c_int, [c_void_p, c_char_p, ctypes.c_char_p, size_t]),
    "chess_pgnGameTagCount": (c_int, [c_void_p, P(size_t)]),
    "chess_pgnGameTagAt": (c_int, [c_void_p, size_t, ctypes.c_char_p, size_t, ctypes.c_char_p,
                                   size_t]),
    "chess_pgnGameMoveCount": (c_int, [c_void_p, P(size_t)]),
    "chess_pgnGameMoves": (c_int, [c_void_p, P(u16), size_t]),
    "chess_pgnGameComment": (c_int, [c_void_p, size_t, ctypes.c_char_p, size_t]),
    "chess_pgnGameNags": (c_int, [c_void_p, size_t, P(u8), size_t, P(size_t)]),
    "chess_pgnGameStartPosition": (c_int, [c_void_p, P(Position)]),
    "chess_pgnGameEndPosition": (c_int, [c_void_p, P(Position)]),
    "chess_pgnGameResult": (c_int, [c_void_p, ctypes.c_char_p, size_t]),
    "chess_pgnGameSetResult": (c_int, [c_void_p, c_char_p]),
    "chess_pgnGameWrite": (c_int, [c_void_p, ctypes.c_char_p, size_t, P(size_t)]),
    "chess_pgnReaderNew": (c_int, [ctypes.c_char_p, size_t, P(c_void_p)]),
    "chess_pgnReaderFree": (None, [c_void_p]),
    "chess_pgnReaderNext": (c_int, [c_void_p, c_void_p, P(size_t)]),
    "chess_pgnReaderPartialGame": (c_int, [c_void_p, c_void_p, P(size_t)]),
    # ---- end of SAN and PGN --------------------------------------------------------------------
    "chess_diceSearch": (c_int, [c_void_p, P(DiceGame), P(SearchLimits), P(DiceSearchResult)]),
    "chess_diceEvaluate": (c_int, [c_void_p, P(DiceGame), P(SearchLimits), P(ctypes.c_double)]),
    "chess_diceEquity": (c_int, [c_void_p, P(DiceGame), P(SearchLimits), P(DiceEquity)]),
    "chess_diceCubeAdvice": (c_int, [P(DiceEquity), u32, P(DiceCubeAdvice)]),
    "chess_diceSearchAllRolls": (
        c_int, [c_void_p, P(DiceGame), P(SearchLimits), P(DiceRollAdvice), u32, P(u32)]
    ),
}

# ---- Chess960, move events, why a move is illegal (issue 14) ---------------------------------

MOVE_EVENTS_MAX = 4


class MoveEvent(ctypes.Structure):
    _fields_ = [("kind", u8), ("piece", u8), ("from_", u8), ("to", u8)]


_SIZES_CHESS960 = {MoveEvent: 4}
for _t, _n in _SIZES_CHESS960.items():
    assert ctypes.sizeof(_t) == _n, (_t.__name__, ctypes.sizeof(_t), _n)

_SIGNATURES.update({
    "chess_setFromFEN960": (c_int, [P(Position), c_char_p]),
    "chess_setChess960Start": (c_int, [P(Position), u32]),
    "chess_setChess960": (c_int, [P(Position), c_bool]),
    "chess_isChess960": (c_bool, [P(Position)]),
    "chess_toShredderFEN": (c_int, [P(Position), ctypes.c_char_p, size_t]),
    "chess_moveToUciInPosition": (c_int, [P(Position), u16, ctypes.c_char_p, size_t]),
    "chess_moveEvents": (c_int, [P(Position), u16, P(MoveEvent), size_t, P(size_t)]),
    "chess_checkMove": (c_int, [P(Position), u8, u8, u8, P(c_int), P(u8)]),
    "chess_illegalReasonMessage": (c_char_p, [c_int]),
})

# ---- end of issue 14 block -------------------------------------------------------------------


def _candidates() -> list[str]:
    env = os.environ.get("CHESSCORE_LIBRARY")
    if env:
        return [env]
    here = Path(__file__).resolve().parent
    names = {"win32": ["chesscore.dll"], "darwin": ["libchesscore.dylib"]}.get(
        sys.platform, ["libchesscore.so"]
    )
    found = [str(here / n) for n in names if (here / n).is_file()]
    if sys.platform.startswith("linux"):
        found.append(f"libchesscore.so.{ABI_MAJOR}")
    system = ctypes.util.find_library("chesscore")
    if system:
        found.append(system)
    return found


def _load() -> ctypes.CDLL:
    errors = []
    for path in _candidates():
        try:
            lib = ctypes.CDLL(path)
        except OSError as e:
            errors.append(f"{path}: {e}")
            continue
        for name, (res, args) in _SIGNATURES.items():
            fn = getattr(lib, name)
            fn.restype = res
            fn.argtypes = args
        major = lib.chess_versionNumber() // 10000
        if major != ABI_MAJOR:
            errors.append(f"{path}: version {lib.chess_version().decode()}, need {ABI_MAJOR}.x")
            continue
        lib.path = path  # type: ignore[attr-defined]
        return lib
    raise ImportError(
        "chesscore: the shared library was not found (set CHESSCORE_LIBRARY to its path, "
        "install it with cmake --install, or pip install ./python from a checkout): "
        + "; ".join(errors or ["no candidate"])
    )


lib = _load()
