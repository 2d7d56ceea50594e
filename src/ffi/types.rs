//! The C types of the ABI: moves, the move list, opaque position and undo storage, game
//! status and the constants of the header. (Status codes: [`super::status`].)
//!
//! Every byte of the opaque structs is the library's: the functions that fill them write all
//! of it (a position's and a record's fields have no implicit padding, and the unused tail is
//! zeroed), and the Rust declarations use `MaybeUninit` storage, so copying a struct by value
//! is defined even when C passed memory it never initialised.

#![allow(non_camel_case_types)]

use crate::moves::MoveList;
use crate::position::{Position, Undo};
use core::mem::MaybeUninit;

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

/// A fixed list of up to 256 moves; `count` says how many of `moves` are valid (entries past
/// `count` are left as they were: possibly uninitialised).
#[repr(C)]
pub struct ChessMoveList {
    /// The moves, `moves[0]` to `moves[count - 1]`.
    moves: [MaybeUninit<ChessMove>; 256],
    /// Number of valid entries.
    count: u32,
}

impl ChessMoveList {
    /// An empty list (for Rust callers of the C functions).
    pub const fn new() -> ChessMoveList {
        ChessMoveList {
            moves: [const { MaybeUninit::uninit() }; 256],
            count: 0,
        }
    }

    /// The number of valid entries (`count`).
    pub fn len(&self) -> usize {
        self.count as usize
    }

    /// True when the list holds no move.
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// The valid moves, `moves[0..count]`. (A list can only get a count from this library's
    /// functions, which write the entries they count; from C, the caller's contract.)
    pub fn as_slice(&self) -> &[ChessMove] {
        let init = &self.moves[..(self.count as usize).min(256)];
        // SAFETY: `count` is private; only `MoveList` (same layout, asserted below) sets it,
        // after writing each entry it counts, so the first `count` entries are initialised;
        // `MaybeUninit<u16>` has the layout of `u16`.
        unsafe { &*(init as *const [MaybeUninit<ChessMove>] as *const [ChessMove]) }
    }
}

impl Default for ChessMoveList {
    fn default() -> Self {
        Self::new()
    }
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
    _opaque: [MaybeUninit<u64>; CHESS_POSITION_WORDS],
}

/// What `chess_makeMove` saves for `chess_unmakeMove`: 48 bytes of plain data, owned by the
/// caller, copyable with `memcpy`.
#[repr(C)]
pub struct ChessUndo {
    _opaque: [MaybeUninit<u64>; CHESS_UNDO_WORDS],
}

impl ChessUndo {
    /// The record's 48 bytes: `undo` followed by zeros (`Undo` has no implicit padding, so
    /// every byte is initialised).
    pub(crate) fn from_undo(undo: Undo) -> ChessUndo {
        let mut out = ChessUndo {
            _opaque: [MaybeUninit::new(0); CHESS_UNDO_WORDS],
        };
        // SAFETY: `ChessUndo` is at least as large and as aligned as `Undo` (asserted below),
        // and `write` does not read the bytes it replaces.
        unsafe { (out._opaque.as_mut_ptr() as *mut Undo).write(undo) };
        out
    }
}

// The opaque types must hold the Rust types, and the move list must match `MoveList`.
const _: () = assert!(core::mem::size_of::<Position>() <= core::mem::size_of::<ChessPosition>());
const _: () = assert!(core::mem::align_of::<Position>() <= core::mem::align_of::<ChessPosition>());
const _: () = assert!(core::mem::size_of::<Undo>() <= core::mem::size_of::<ChessUndo>());
const _: () = assert!(core::mem::align_of::<Undo>() <= core::mem::align_of::<ChessUndo>());
const _: () = assert!(core::mem::size_of::<MoveList>() == core::mem::size_of::<ChessMoveList>());
const _: () = assert!(core::mem::align_of::<MoveList>() == core::mem::align_of::<ChessMoveList>());
const _: () = assert!(core::mem::offset_of!(ChessMoveList, count) == 512);

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
