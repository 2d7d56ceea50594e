//! The C types of the ABI: status codes, opaque position and undo storage, move list.

#![allow(non_camel_case_types)]

use crate::moves::MoveList;
use crate::position::{Position, Undo};

/// A move in 16 bits:
///
/// ```text
/// bits  0- 5  from square (0..63, LERF: a1 = 0, b1 = 1, ..., h8 = 63)
/// bits  6-11  to square; for castling the king's destination (g1, c1, g8, c8)
/// bits 12-15  flag: 0 quiet, 1 double pawn push, 2 king-side castle, 3 queen-side castle,
///             4 capture, 5 en passant, 8-11 promotion to knight/bishop/rook/queen,
///             12-15 capture with promotion to knight/bishop/rook/queen (6, 7 unused)
/// ```
/// Bit 14 marks a capture, bit 15 a promotion; 0 is never a legal move.
pub type ChessMove = u16;

/// A fixed list of up to 256 moves; `count` says how many of `moves` are valid.
#[repr(C)]
pub struct ChessMoveList {
    /// The moves, `moves[0]` to `moves[count - 1]`.
    pub moves: [ChessMove; 256],
    /// Number of valid entries.
    pub count: u32,
}

/// Number of 64-bit words in a `ChessPosition` (9216 bytes).
pub const CHESS_POSITION_WORDS: usize = 1152;

/// Number of 64-bit words in a `ChessUndo` (48 bytes).
pub const CHESS_UNDO_WORDS: usize = 6;

/// A chess position: 9216 bytes, 8-byte aligned, owned by the caller (stack, arrays, heap).
/// Its fields are the library's business. Initialise it with `chess_setFromFEN` or
/// `chess_setStartPosition` before any other use; copy it with `memcpy` to give another thread
/// its own. The library keeps no global mutable state (only a write-once cache of the CPU
/// feature check).
#[repr(C)]
pub struct ChessPosition {
    _opaque: [u64; CHESS_POSITION_WORDS],
}

/// What `chess_makeMove` saves for `chess_unmakeMove`: 48 bytes of plain data, owned by the
/// caller, copyable with `memcpy`.
#[repr(C)]
pub struct ChessUndo {
    _opaque: [u64; CHESS_UNDO_WORDS],
}

// The opaque types must hold the Rust types, and the move list must match `MoveList`.
const _: () = assert!(core::mem::size_of::<Position>() <= core::mem::size_of::<ChessPosition>());
const _: () = assert!(core::mem::align_of::<Position>() <= core::mem::align_of::<ChessPosition>());
const _: () = assert!(core::mem::size_of::<Undo>() <= core::mem::size_of::<ChessUndo>());
const _: () = assert!(core::mem::align_of::<Undo>() <= core::mem::align_of::<ChessUndo>());
const _: () = assert!(core::mem::size_of::<MoveList>() == core::mem::size_of::<ChessMoveList>());
const _: () = assert!(core::mem::align_of::<MoveList>() == core::mem::align_of::<ChessMoveList>());
const _: () = assert!(core::mem::offset_of!(ChessMoveList, count) == 512);

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
    /// The position's history is full (1024 moves since setup); set the position again.
    CHESS_ERR_HISTORY_FULL = 4,
    /// An argument is out of range or malformed (text, square, generator class, ...).
    CHESS_ERR_INVALID_ARGUMENT = 5,
    /// The ChessPosition was never initialised (or was overwritten).
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
}

/// A `ChessStatus` as received from C, where any int may arrive: read as an integer so an
/// out-of-range value is an ordinary input, not undefined behaviour. Shown as `ChessStatus`
/// in the header.
pub type ChessStatusCode = core::ffi::c_int;

/// How the game stands (`chess_gameStatus`).
#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ChessGameStatus {
    /// The game goes on.
    CHESS_ONGOING = 0,
    /// The side to move is checkmated.
    CHESS_CHECKMATE = 1,
    /// The side to move is stalemated.
    CHESS_STALEMATE = 2,
    /// 100 plies without capture or pawn move.
    CHESS_FIFTY_MOVE_RULE = 3,
    /// Third occurrence of the position.
    CHESS_THREEFOLD_REPETITION = 4,
    /// Neither side has mating material.
    CHESS_INSUFFICIENT_MATERIAL = 5,
}

/// Generator class for `chess_generateMoves`: every move.
pub const CHESS_GEN_ALL: u32 = 0;
/// Generator class: moves with the capture bit (captures, en passant, capture-promotions).
pub const CHESS_GEN_CAPTURES: u32 = 1;
/// Generator class: all other moves (quiet moves, double pushes, castling, quiet promotions).
pub const CHESS_GEN_QUIETS: u32 = 2;

/// Piece-type mask with every type: bit `1 << type` for pawn (1) .. king (6).
pub const CHESS_ALL_PIECE_TYPES: u8 = 0x7E;

/// Size of the text `chess_printBitboardToBuffer` writes, terminating NUL included.
pub const CHESS_BITBOARD_TEXT_SIZE: usize = 129;

/// Size of the text `chess_positionToText` writes, terminating NUL included.
pub const CHESS_POSITION_TEXT_SIZE: usize = 163;

/// A buffer of this size always holds a FEN written by `chess_toFEN`.
pub const CHESS_FEN_MAX: usize = 128;
