//! Status codes: the `ChessStatus` enum, the conversions from the core's errors, and
//! `chess_statusMessage`. Each message is written once: the core's errors carry their own
//! (NUL-terminated) text, the codes of the C layer alone have theirs here.

#![allow(non_camel_case_types)]

use crate::eval::nnue::NetError;
use crate::position::{FenError, MoveError, NotationError, SanError};
use crate::search::OptionError;
use core::ffi::{c_char, CStr};

/// Result of every fallible function. The numbers are stable: new codes are only ever added.
/// `chess_statusMessage` turns a code into an English sentence.
#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ChessStatus {
    /// Success.
    CHESS_OK = 0,
    /// A required pointer argument was NULL.
    CHESS_ERR_NULL_ARGUMENT = 1,
    /// The output buffer is too small; nothing was written.
    CHESS_ERR_BUFFER_TOO_SMALL = 2,
    /// The move is not legal in the position (or not a move at all).
    CHESS_ERR_ILLEGAL_MOVE = 3,
    /// The position's history is full (1024 moves since setup): compact it
    /// (`chess_compactHistory`) or set the position again.
    CHESS_ERR_HISTORY_FULL = 4,
    /// An argument is out of range or malformed (text, square, generator class, ...).
    CHESS_ERR_INVALID_ARGUMENT = 5,
    /// The ChessPosition was never initialised, or its bytes were overwritten: it is not a
    /// position the library wrote (or one reachable in a game).
    CHESS_ERR_INVALID_POSITION = 6,
    /// The move and undo record passed to unmake are not those of the last move made.
    CHESS_ERR_BAD_UNDO = 7,
    /// An internal error (a bug): the library caught it at the boundary.
    CHESS_ERR_INTERNAL = 8,
    /// FEN: not 6 (or 4) fields separated by single spaces.
    CHESS_ERR_FEN_FIELD_COUNT = 100,
    /// FEN: text after the sixth field.
    CHESS_ERR_FEN_TRAILING_TEXT = 101,
    /// FEN: malformed piece placement.
    CHESS_ERR_FEN_BOARD = 102,
    /// FEN: side to move is not `w` or `b`.
    CHESS_ERR_FEN_SIDE_TO_MOVE = 103,
    /// FEN: castling field is not `-` or a subset of `KQkq` in order.
    CHESS_ERR_FEN_CASTLING = 104,
    /// FEN: en passant field is not `-` or a square.
    CHESS_ERR_FEN_EN_PASSANT = 105,
    /// FEN: halfmove clock not a number in 0..65535.
    CHESS_ERR_FEN_HALFMOVE_CLOCK = 106,
    /// FEN: fullmove number not a number in 1..65535.
    CHESS_ERR_FEN_FULLMOVE_NUMBER = 107,
    /// FEN: not exactly one king per side.
    CHESS_ERR_FEN_KING_COUNT = 108,
    /// FEN: a pawn on rank 1 or 8.
    CHESS_ERR_FEN_PAWN_ON_BACK_RANK = 109,
    /// FEN: more pieces than a game can produce (over 16 a side, over 8 pawns, promotions).
    CHESS_ERR_FEN_TOO_MANY_PIECES = 110,
    /// FEN: castling rights contradicted by king and rook placement.
    CHESS_ERR_FEN_CASTLING_RIGHTS = 111,
    /// FEN: en passant square on the wrong rank for the side to move.
    CHESS_ERR_FEN_EN_PASSANT_RANK = 112,
    /// FEN: en passant square without the pawn that just made the double step.
    CHESS_ERR_FEN_EN_PASSANT_PAWN = 113,
    /// FEN: the side not to move is in check.
    CHESS_ERR_FEN_OPPONENT_IN_CHECK = 114,
    /// FEN: the side to move is in a check no single move can give (more than two checkers,
    /// two that one move cannot uncover, or a check not given by the double push that set the
    /// en passant square).
    CHESS_ERR_FEN_IMPOSSIBLE_CHECK = 115,
    /// Engine: the engine is busy with a search (one call at a time per engine; only
    /// `chess_engineStop` and `chess_enginePonderHit` may be called during a search).
    CHESS_ERR_ENGINE_BUSY = 200,
    /// Engine: the search limits are malformed (wrong `size` or non-zero `reserved`, as when
    /// the struct was never set by `chess_searchLimitsInit`; a negative depth or time; too many
    /// search moves, or NULL `searchMoves` with a count; a bool that is neither 0 nor 1).
    CHESS_ERR_INVALID_LIMITS = 201,
    /// Engine: no option has this name.
    CHESS_ERR_UNKNOWN_OPTION = 202,
    /// Engine: the value is not valid for the option (not a number, out of range, not
    /// `true`/`false`).
    CHESS_ERR_BAD_OPTION_VALUE = 203,
    /// Engine: the memory could not be had (a larger `Hash`, more `Threads`); the engine is
    /// unchanged.
    CHESS_ERR_OUT_OF_MEMORY = 204,
    /// Engine: `EvalFile` names a file that cannot be read; the engine keeps its evaluation.
    CHESS_ERR_EVAL_FILE_UNREADABLE = 205,
    /// Engine: `EvalFile` names a file that is not a valid chesscore network (size, magic,
    /// version, checksum or weights refused: docs/nnue.md); the engine keeps its evaluation.
    CHESS_ERR_EVAL_FILE_INVALID = 206,
    /// Dice: the ChessDiceGame was never initialised, or its bytes were overwritten.
    CHESS_ERR_DICE_INVALID_GAME = 300,
    /// Dice: the rule set is not a `ChessDiceRules` value.
    CHESS_ERR_DICE_INVALID_RULES = 301,
    /// Dice: the game is not awaiting a roll (a move is awaited, or the game is over).
    CHESS_ERR_DICE_NOT_AWAITING_ROLL = 302,
    /// Dice: the game is not awaiting a move (roll the dice first, or the game is over).
    CHESS_ERR_DICE_NOT_AWAITING_MOVE = 303,
    /// Dice: a roll the rules cannot produce here (number of dice, faces not 1..6 sorted with
    /// unused faces 0, one die: a type that cannot move).
    CHESS_ERR_DICE_INVALID_ROLL = 304,
    /// Dice FEN: en passant targets malformed, out of order, or without the pawn that just
    /// double-pushed in front of an empty target.
    CHESS_ERR_DICE_FEN_EN_PASSANT = 305,
    /// Dice FEN: the dice field is not `-` or sorted piece letters (either case), as many as
    /// the rule set allows.
    CHESS_ERR_DICE_FEN_DICE = 306,
    /// Dice FEN: both kings are in check (two dice).
    CHESS_ERR_DICE_FEN_BOTH_IN_CHECK = 307,
    /// The Dice Chess search takes depth, nodes, time (move time or clocks), infinite, a
    /// stop and the info callback; `searchMoves`, `ponder` and `mate` are refused.
    CHESS_ERR_DICE_UNSUPPORTED_LIMITS = 310,
    /// SAN: the text is not move notation (strict mode: not the standard SAN of the move).
    CHESS_ERR_SAN_SYNTAX = 400,
    /// SAN: no legal move matches.
    CHESS_ERR_SAN_ILLEGAL = 401,
    /// SAN: more than one legal move matches.
    CHESS_ERR_SAN_AMBIGUOUS = 402,
    /// PGN reader: no more games (not an error of the input).
    CHESS_ERR_PGN_END_OF_INPUT = 403,
    /// PGN: a tag is not `[Name "value"]`.
    CHESS_ERR_PGN_TAG = 404,
    /// PGN: the `[FEN]` tag is not a valid FEN.
    CHESS_ERR_PGN_FEN = 405,
    /// PGN: the `[Variant]` tag names a variant other than standard chess or Chess960.
    CHESS_ERR_PGN_VARIANT = 406,
    /// PGN: movetext that is no move, move number, NAG, comment or result.
    CHESS_ERR_PGN_TOKEN = 407,
    /// PGN: a comment or variation is not closed.
    CHESS_ERR_PGN_UNTERMINATED = 408,
    /// PGN: a `)` without its `(`.
    CHESS_ERR_PGN_PARENTHESIS = 409,
    /// PGN: the text holds no game.
    CHESS_ERR_PGN_NO_GAME = 410,
    /// PGN: the game has no tag of this name.
    CHESS_ERR_PGN_NO_SUCH_TAG = 411,
}

/// A `ChessStatus` as received from C, where any int may arrive: read as an integer so an
/// out-of-range value is an ordinary input, not undefined behaviour. Shown as `ChessStatus`
/// in the header.
pub type ChessStatusCode = core::ffi::c_int;

/// Maps each core error to its status code, both ways, from one list.
macro_rules! error_codes {
    ($error:ident, $from_status:ident: $($variant:ident => $status:ident),* $(,)?) => {
        impl From<$error> for ChessStatus {
            fn from(e: $error) -> ChessStatus {
                match e {
                    $($error::$variant => ChessStatus::$status,)*
                }
            }
        }

        fn $from_status(s: ChessStatus) -> Option<$error> {
            match s {
                $(ChessStatus::$status => Some($error::$variant),)*
                _ => None,
            }
        }
    };
}

error_codes!(FenError, fen_error:
    FieldCount => CHESS_ERR_FEN_FIELD_COUNT,
    TrailingText => CHESS_ERR_FEN_TRAILING_TEXT,
    Board => CHESS_ERR_FEN_BOARD,
    SideToMove => CHESS_ERR_FEN_SIDE_TO_MOVE,
    Castling => CHESS_ERR_FEN_CASTLING,
    EnPassant => CHESS_ERR_FEN_EN_PASSANT,
    HalfmoveClock => CHESS_ERR_FEN_HALFMOVE_CLOCK,
    FullmoveNumber => CHESS_ERR_FEN_FULLMOVE_NUMBER,
    KingCount => CHESS_ERR_FEN_KING_COUNT,
    PawnOnBackRank => CHESS_ERR_FEN_PAWN_ON_BACK_RANK,
    TooManyPieces => CHESS_ERR_FEN_TOO_MANY_PIECES,
    CastlingRights => CHESS_ERR_FEN_CASTLING_RIGHTS,
    EnPassantRank => CHESS_ERR_FEN_EN_PASSANT_RANK,
    EnPassantPawn => CHESS_ERR_FEN_EN_PASSANT_PAWN,
    OpponentInCheck => CHESS_ERR_FEN_OPPONENT_IN_CHECK,
    ImpossibleCheck => CHESS_ERR_FEN_IMPOSSIBLE_CHECK,
);

error_codes!(MoveError, move_error:
    Illegal => CHESS_ERR_ILLEGAL_MOVE,
    HistoryFull => CHESS_ERR_HISTORY_FULL,
    BadUndo => CHESS_ERR_BAD_UNDO,
);

impl From<NotationError> for ChessStatus {
    fn from(e: NotationError) -> ChessStatus {
        match e {
            NotationError::Syntax => ChessStatus::CHESS_ERR_INVALID_ARGUMENT,
            NotationError::Illegal => ChessStatus::CHESS_ERR_ILLEGAL_MOVE,
        }
    }
}

impl From<OptionError> for ChessStatus {
    fn from(e: OptionError) -> ChessStatus {
        match e {
            OptionError::UnknownName => ChessStatus::CHESS_ERR_UNKNOWN_OPTION,
            OptionError::BadValue => ChessStatus::CHESS_ERR_BAD_OPTION_VALUE,
            OptionError::OutOfMemory => ChessStatus::CHESS_ERR_OUT_OF_MEMORY,
            // `<embedded>` in a build without a network: the value is not valid here.
            OptionError::EvalFile(NetError::NoEmbeddedNet) => {
                ChessStatus::CHESS_ERR_BAD_OPTION_VALUE
            }
            OptionError::EvalFile(NetError::Io(_)) => ChessStatus::CHESS_ERR_EVAL_FILE_UNREADABLE,
            OptionError::EvalFile(_) => ChessStatus::CHESS_ERR_EVAL_FILE_INVALID,
        }
    }
}

impl ChessStatus {
    /// Every status, in code order (the codes `chess_statusMessage` knows).
    pub const ALL: [ChessStatus; 53] = {
        use ChessStatus::*;
        [
            CHESS_OK,
            CHESS_ERR_NULL_ARGUMENT,
            CHESS_ERR_BUFFER_TOO_SMALL,
            CHESS_ERR_ILLEGAL_MOVE,
            CHESS_ERR_HISTORY_FULL,
            CHESS_ERR_INVALID_ARGUMENT,
            CHESS_ERR_INVALID_POSITION,
            CHESS_ERR_BAD_UNDO,
            CHESS_ERR_INTERNAL,
            CHESS_ERR_FEN_FIELD_COUNT,
            CHESS_ERR_FEN_TRAILING_TEXT,
            CHESS_ERR_FEN_BOARD,
            CHESS_ERR_FEN_SIDE_TO_MOVE,
            CHESS_ERR_FEN_CASTLING,
            CHESS_ERR_FEN_EN_PASSANT,
            CHESS_ERR_FEN_HALFMOVE_CLOCK,
            CHESS_ERR_FEN_FULLMOVE_NUMBER,
            CHESS_ERR_FEN_KING_COUNT,
            CHESS_ERR_FEN_PAWN_ON_BACK_RANK,
            CHESS_ERR_FEN_TOO_MANY_PIECES,
            CHESS_ERR_FEN_CASTLING_RIGHTS,
            CHESS_ERR_FEN_EN_PASSANT_RANK,
            CHESS_ERR_FEN_EN_PASSANT_PAWN,
            CHESS_ERR_FEN_OPPONENT_IN_CHECK,
            CHESS_ERR_FEN_IMPOSSIBLE_CHECK,
            CHESS_ERR_ENGINE_BUSY,
            CHESS_ERR_INVALID_LIMITS,
            CHESS_ERR_UNKNOWN_OPTION,
            CHESS_ERR_BAD_OPTION_VALUE,
            CHESS_ERR_OUT_OF_MEMORY,
            CHESS_ERR_EVAL_FILE_UNREADABLE,
            CHESS_ERR_EVAL_FILE_INVALID,
            CHESS_ERR_DICE_INVALID_GAME,
            CHESS_ERR_DICE_INVALID_RULES,
            CHESS_ERR_DICE_NOT_AWAITING_ROLL,
            CHESS_ERR_DICE_NOT_AWAITING_MOVE,
            CHESS_ERR_DICE_INVALID_ROLL,
            CHESS_ERR_DICE_FEN_EN_PASSANT,
            CHESS_ERR_DICE_FEN_DICE,
            CHESS_ERR_DICE_FEN_BOTH_IN_CHECK,
            CHESS_ERR_DICE_UNSUPPORTED_LIMITS,
            CHESS_ERR_SAN_SYNTAX,
            CHESS_ERR_SAN_ILLEGAL,
            CHESS_ERR_SAN_AMBIGUOUS,
            CHESS_ERR_PGN_END_OF_INPUT,
            CHESS_ERR_PGN_TAG,
            CHESS_ERR_PGN_FEN,
            CHESS_ERR_PGN_VARIANT,
            CHESS_ERR_PGN_TOKEN,
            CHESS_ERR_PGN_UNTERMINATED,
            CHESS_ERR_PGN_PARENTHESIS,
            CHESS_ERR_PGN_NO_GAME,
            CHESS_ERR_PGN_NO_SUCH_TAG,
        ]
    };

    /// The status with this code, if there is one.
    pub fn from_code(code: ChessStatusCode) -> Option<ChessStatus> {
        Self::ALL
            .into_iter()
            .find(|s| *s as ChessStatusCode == code)
    }

    /// An English sentence for the status (NUL-terminated, static).
    pub fn message(self) -> &'static CStr {
        if let Some(e) = fen_error(self) {
            return e.message_c();
        }
        if let Some(e) = move_error(self) {
            return e.message_c();
        }
        match self {
            ChessStatus::CHESS_OK => c"success",
            ChessStatus::CHESS_ERR_NULL_ARGUMENT => c"a required pointer argument was NULL",
            ChessStatus::CHESS_ERR_BUFFER_TOO_SMALL => c"the output buffer is too small",
            ChessStatus::CHESS_ERR_INVALID_ARGUMENT => c"an argument is out of range or malformed",
            ChessStatus::CHESS_ERR_INVALID_POSITION => {
                c"the position was never initialised or its bytes were corrupted"
            }
            ChessStatus::CHESS_ERR_INTERNAL => c"internal error in chesscore",
            ChessStatus::CHESS_ERR_ENGINE_BUSY => {
                c"the engine is busy with a search (one call at a time per engine)"
            }
            ChessStatus::CHESS_ERR_INVALID_LIMITS => {
                c"the search limits are malformed or were not set by chess_searchLimitsInit"
            }
            ChessStatus::CHESS_ERR_UNKNOWN_OPTION => c"no engine option has this name",
            ChessStatus::CHESS_ERR_BAD_OPTION_VALUE => c"the value is not valid for the option",
            ChessStatus::CHESS_ERR_OUT_OF_MEMORY => c"out of memory",
            ChessStatus::CHESS_ERR_EVAL_FILE_UNREADABLE => c"the network file cannot be read",
            ChessStatus::CHESS_ERR_EVAL_FILE_INVALID => {
                c"the file is not a valid chesscore network"
            }
            ChessStatus::CHESS_ERR_DICE_INVALID_GAME => {
                c"the dice game was never initialised or its bytes were corrupted"
            }
            ChessStatus::CHESS_ERR_DICE_INVALID_RULES => c"not a Dice Chess rule set",
            ChessStatus::CHESS_ERR_DICE_NOT_AWAITING_ROLL => {
                c"the dice game is not awaiting a roll"
            }
            ChessStatus::CHESS_ERR_DICE_NOT_AWAITING_MOVE => {
                c"the dice game is not awaiting a move"
            }
            ChessStatus::CHESS_ERR_DICE_INVALID_ROLL => c"the rules cannot produce this roll here",
            ChessStatus::CHESS_ERR_DICE_FEN_EN_PASSANT => {
                c"dice FEN en passant targets are malformed or impossible"
            }
            ChessStatus::CHESS_ERR_DICE_FEN_DICE => {
                c"dice FEN dice field is malformed or impossible"
            }
            ChessStatus::CHESS_ERR_DICE_FEN_BOTH_IN_CHECK => c"dice FEN has both kings in check",
            ChessStatus::CHESS_ERR_DICE_UNSUPPORTED_LIMITS => {
                c"the Dice Chess search does not take searchMoves, ponder or mate limits"
            }
            ChessStatus::CHESS_ERR_SAN_SYNTAX => SanError::Syntax.message_c(),
            ChessStatus::CHESS_ERR_SAN_ILLEGAL => SanError::Illegal.message_c(),
            ChessStatus::CHESS_ERR_SAN_AMBIGUOUS => SanError::Ambiguous.message_c(),
            ChessStatus::CHESS_ERR_PGN_END_OF_INPUT => c"the PGN reader has no more games",
            ChessStatus::CHESS_ERR_PGN_TAG => c"a PGN tag is malformed",
            ChessStatus::CHESS_ERR_PGN_FEN => c"the PGN FEN tag is not a valid FEN",
            ChessStatus::CHESS_ERR_PGN_VARIANT => {
                c"the PGN Variant tag names a variant other than chess or Chess960"
            }
            ChessStatus::CHESS_ERR_PGN_TOKEN => c"the PGN movetext holds unexpected text",
            ChessStatus::CHESS_ERR_PGN_UNTERMINATED => c"a PGN comment or variation is not closed",
            ChessStatus::CHESS_ERR_PGN_PARENTHESIS => c"a PGN ')' has no '('",
            ChessStatus::CHESS_ERR_PGN_NO_GAME => c"the PGN text holds no game",
            ChessStatus::CHESS_ERR_PGN_NO_SUCH_TAG => c"the PGN game has no such tag",
            // The core's errors returned above.
            _ => c"unknown status code",
        }
    }
}

/// An English sentence for `status` (never NULL; unknown codes get a sentence saying so).
/// The string is static: do not free it.
#[no_mangle]
pub extern "C" fn chess_statusMessage(status: ChessStatusCode) -> *const c_char {
    ChessStatus::from_code(status)
        .map_or(c"unknown status code", ChessStatus::message)
        .as_ptr()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_distinct_and_named_once() {
        for (i, s) in ChessStatus::ALL.iter().enumerate() {
            assert_eq!(ChessStatus::from_code(*s as ChessStatusCode), Some(*s));
            let text = s.message().to_str().unwrap();
            assert!(!text.is_empty() && text != "unknown status code", "{s:?}");
            for t in &ChessStatus::ALL[..i] {
                assert_ne!(*s as i32, *t as i32);
                assert_ne!(s.message(), t.message(), "{s:?} and {t:?} share a message");
            }
        }
        assert_eq!(ChessStatus::from_code(9), None);
        assert_eq!(ChessStatus::from_code(199), None);
        assert_eq!(ChessStatus::from_code(207), None);
        assert_eq!(ChessStatus::from_code(299), None);
        assert_eq!(ChessStatus::from_code(308), None);
        assert_eq!(ChessStatus::from_code(311), None);
        assert_eq!(ChessStatus::from_code(399), None);
        assert_eq!(ChessStatus::from_code(412), None);
        assert_eq!(ChessStatus::from_code(-1), None);
    }

    #[test]
    fn core_errors_map_back_to_themselves() {
        for s in ChessStatus::ALL {
            if let Some(e) = fen_error(s) {
                assert_eq!(ChessStatus::from(e), s);
            }
            if let Some(e) = move_error(s) {
                assert_eq!(ChessStatus::from(e), s);
            }
        }
    }
}
