"""chesscore for Python: the chess engine core's C ABI through ctypes.

>>> import chesscore
>>> board = chesscore.Board("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
>>> len(board.legal_moves()), board.perft(2)
(48, 2039)
>>> board.push("e2a6")
Move('e2a6')
>>> board.status()
<GameStatus.ONGOING: 0>

Every failure of the library raises :class:`ChessError` carrying its status code and message.
"""

from ._board import (
    BISHOP,
    BLACK,
    KING,
    KNIGHT,
    PAWN,
    QUEEN,
    ROOK,
    SQUARE_NAMES,
    STARTING_FEN,
    WHITE,
    Board,
    ChessError,
    GameStatus,
    Move,
    Piece,
    Status,
    library_path,
    message,
    parse_square,
    square_name,
    version,
)
from ._dice import (
    DICE_WIN_VALUE,
    CubeAdvice,
    CubeOwner,
    DiceEquity,
    DiceGame,
    DiceRules,
    DiceSearchResult,
    DiceState,
    DiceStatus,
    Roll,
    dice_cube_advice,
    dice_equity,
    dice_evaluate,
    dice_search,
    dice_search_all_rolls,
)
from ._engine import MATE_SCORE, Engine, SearchInfo, SearchResult
from ._pgn import PgnError, PgnGame, PgnReader  # SAN and PGN (issue 14)

# ---- Chess960, move events, why a move is illegal (issue 14) ----
from ._chess960 import IllegalReason, MoveCheck, MoveEvent
# ---- end of issue 14 block ----

for _cls in (Board, ChessError, GameStatus, Piece, Status, DiceGame, DiceRules, DiceState,
             DiceStatus, Roll, Engine, SearchInfo, SearchResult, IllegalReason, MoveCheck,
             MoveEvent, PgnError, PgnGame, PgnReader, DiceSearchResult, DiceEquity,
             CubeAdvice, CubeOwner):
    _cls.__module__ = "chesscore"
del _cls

__version__ = "0.1.0"

__all__ = [
    "BISHOP", "BLACK", "KING", "KNIGHT", "PAWN", "QUEEN", "ROOK", "SQUARE_NAMES", "STARTING_FEN",
    "WHITE", "Board", "ChessError", "GameStatus", "Move", "Piece", "Status", "library_path",
    "message", "parse_square", "square_name", "version", "DiceGame", "DiceRules", "DiceState",
    "DiceStatus", "Roll", "MATE_SCORE", "Engine", "SearchInfo", "SearchResult",
    "DICE_WIN_VALUE", "DiceSearchResult", "dice_search", "dice_evaluate", "dice_search_all_rolls",
    "DiceEquity", "dice_equity", "CubeAdvice", "CubeOwner", "dice_cube_advice",
    # issue 14: Chess960, move events, why a move is illegal
    "IllegalReason", "MoveCheck", "MoveEvent",
    # SAN and PGN (issue 14)
    "PgnError", "PgnGame", "PgnReader",
]
