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
/// bits  6-11  to square; for castling the king's destination (g1, c1, g8, c8; in Chess960
///             it may be the from square: the king already stands there)
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

// ---------------------------------------------------------------------------------------------
// The engine's types (issue 10): limits, the info passed to the callback, the result.
// ---------------------------------------------------------------------------------------------

/// Capacity of a principal variation in `ChessSearchInfo` and `ChessSearchResult` (the
/// deepest ply the search reaches).
pub const CHESS_MAX_PV: usize = 128;

/// The score of mate: `scoreCp` of a mate in `n` plies is `CHESS_MATE_SCORE - n` (the side to
/// move mates) or `-(CHESS_MATE_SCORE - n)` (it is mated), so that scores compare in the right
/// order; a root that is checkmated already scores `-CHESS_MATE_SCORE`.
pub const CHESS_MATE_SCORE: i32 = 32000;

/// Most moves `ChessSearchLimits.searchMoves` may hold.
pub const CHESS_MAX_SEARCH_MOVES: u32 = 256;

/// Whether a reported score is exact or a bound (`ChessSearchInfo.bound`).
#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ChessScoreBound {
    /// The score is exact.
    CHESS_BOUND_EXACT = 0,
    /// The true score is at least this (the line failed high in an aspiration window).
    CHESS_BOUND_LOWER = 1,
    /// The true score is at most this (the line failed low).
    CHESS_BOUND_UPPER = 2,
}

/// What a UCI `info` line carries, passed to `ChessSearchLimits.onInfo` after every completed
/// iteration (one call per line with MultiPV), and with a bound when an iteration's score falls
/// outside its aspiration window after the first 3 seconds. The struct lives in the library's
/// memory for the duration of the call only: copy what you keep.
///
/// Extensibility: `size` is `sizeof(ChessSearchInfo)` of the library that made the call (the
/// struct has no padding). Later versions only append fields, so a field added after this
/// version may be read only when `size` covers it
/// (`info->size >= offsetof(ChessSearchInfo, field) + sizeof info->field`).
#[repr(C)]
#[derive(Clone, Debug)]
pub struct ChessSearchInfo {
    /// `sizeof(ChessSearchInfo)` of the library that wrote it.
    pub size: u32,
    /// Iteration depth in plies.
    pub depth: u32,
    /// Deepest ply reached (selective depth).
    pub seldepth: u32,
    /// Line number, from 1 (MultiPV).
    pub multipv: u32,
    /// Score of the line for the side to move: centipawns, or for a mate
    /// `±(CHESS_MATE_SCORE - plies)` (then `mateIn` is not 0).
    pub scoreCp: i32,
    /// Moves to mate: > 0 the side to move mates, < 0 it is mated, 0 no mate found.
    pub mateIn: i32,
    /// Exact score, or a bound.
    pub bound: ChessScoreBound,
    /// Permille of the hash table used by this search.
    pub hashfull: u32,
    /// Nodes searched by all threads.
    pub nodes: u64,
    /// Nodes per second.
    pub nps: u64,
    /// Milliseconds since the search started.
    pub timeMs: u64,
    /// Number of valid moves in `pv`.
    pub pvLength: u32,
    /// The line, `pv[0]` to `pv[pvLength - 1]` (the rest zero).
    pub pv: [ChessMove; CHESS_MAX_PV],
    /// Zero (keeps the struct free of padding, so `size` ends at the last field).
    pub reserved: u32,
}

/// The callback of `ChessSearchLimits.onInfo`: `info` is valid during the call only;
/// `userData` is `ChessSearchLimits.userData`. It runs on the thread that called
/// `chess_search`, which waits for it: keep it short. It may call `chess_engineStop` (and any
/// function on other engines or positions); other calls on the searching engine get
/// `CHESS_ERR_ENGINE_BUSY`. It must return normally (no `longjmp` out of it).
pub type ChessInfoCallback =
    Option<unsafe extern "C" fn(info: *const ChessSearchInfo, userData: *mut core::ffi::c_void)>;

/// Number of reserved bytes at the end of `ChessSearchLimits` (64-bit targets: 256 bytes in
/// all).
pub const CHESS_SEARCH_LIMITS_RESERVED: usize = 162;

/// What a search may use, for `chess_search`. Always start from `chess_searchLimitsInit`,
/// which sets every field to "no limit" (a search that runs until `chess_engineStop`, or to
/// depth 127), then set the limits you want. Caller-owned; read only during the call.
///
/// Extensibility: the struct never changes size. `size` must be `sizeof(ChessSearchLimits)`
/// (as `chess_searchLimitsInit` writes it), and every byte of `reserved` must be zero: a struct
/// that fails either check (never initialised, or from another layout) is refused with
/// `CHESS_ERR_INVALID_LIMITS`. Fields added later are taken from `reserved`, and their zero
/// value means "as before", so code written against this version behaves the same with later
/// libraries; setting a newer field against an older library is refused (its bytes are
/// reserved there), never silently ignored.
#[repr(C)]
#[derive(Clone, Debug)]
pub struct ChessSearchLimits {
    /// `sizeof(ChessSearchLimits)`, set by `chess_searchLimitsInit`.
    pub size: u32,
    /// Maximum depth in plies (0 = none; at most 127 is searched; negative is refused).
    pub depth: i32,
    /// Maximum nodes (0 = none).
    pub nodes: u64,
    /// Time for this move in ms (-1 = not given; other negative values are refused).
    pub movetimeMs: i64,
    /// White's clock in ms (-1 = not given; other negative values: the clock has run out, the
    /// engine answers at once).
    pub wtimeMs: i64,
    /// Black's clock in ms (as `wtimeMs`).
    pub btimeMs: i64,
    /// White's increment in ms (-1 = not given; other negative values are refused).
    pub wincMs: i64,
    /// Black's increment in ms (as `wincMs`).
    pub bincMs: i64,
    /// Moves to the next time control (0 = none: sudden death).
    pub movestogo: u32,
    /// Stop once a mate in at most this many moves is found (0 = none).
    pub mate: u32,
    /// Restrict the root to these moves: an array of `searchMovesCount` moves owned by the
    /// caller, read during the call (NULL when the count is 0). Every entry must be a legal
    /// move of the position (else `CHESS_ERR_ILLEGAL_MOVE`); repeats are harmless.
    pub searchMoves: *const ChessMove,
    /// Called after every completed iteration (see `ChessSearchInfo`); NULL for none.
    pub onInfo: ChessInfoCallback,
    /// Passed to `onInfo` as it is.
    pub userData: *mut core::ffi::c_void,
    /// Number of moves in `searchMoves` (0 = every legal move; at most
    /// `CHESS_MAX_SEARCH_MOVES`).
    pub searchMovesCount: u32,
    /// Search until `chess_engineStop` (or depth 127), whatever the clocks say.
    pub infinite: bool,
    /// Pondering: the time limits start counting at `chess_enginePonderHit`; until then the
    /// search runs as if infinite.
    pub ponder: bool,
    /// Zero (see the extensibility rule above).
    pub reserved: [u8; CHESS_SEARCH_LIMITS_RESERVED],
}

/// Number of reserved bytes at the end of `ChessSearchResult` (512 bytes in all).
pub const CHESS_SEARCH_RESULT_RESERVED: usize = 212;

/// The outcome of `chess_search`, written whole (every byte) on success only. Caller-owned;
/// it may be uninitialised before the call.
///
/// A position without a legal move: `bestMove` 0, `pvLength` 0, `mateIn` 0, and `scoreCp`
/// `-CHESS_MATE_SCORE` when the side to move is checkmated, 0 when it is stalemated.
///
/// Extensibility: the struct never changes size. `size` is `sizeof(ChessSearchResult)`;
/// fields added later are taken from `reserved`, which this version writes as zeros, so such
/// a field reads 0 ("not reported") from an older library.
#[repr(C)]
#[derive(Clone, Debug)]
pub struct ChessSearchResult {
    /// `sizeof(ChessSearchResult)`.
    pub size: u32,
    /// The best move (0 when the position has no legal move).
    pub bestMove: ChessMove,
    /// The expected reply (the principal variation's second move), 0 when unknown.
    pub ponderMove: ChessMove,
    /// The score for the side to move: centipawns, or for a mate `±(CHESS_MATE_SCORE -
    /// plies)` (then `mateIn` is not 0, except for a root already checkmated, which scores
    /// `-CHESS_MATE_SCORE` with `bestMove` 0).
    pub scoreCp: i32,
    /// Moves to mate: > 0 the side to move mates in that many moves, < 0 it is mated in that
    /// many, 0 no mate found (and for a root without legal moves).
    pub mateIn: i32,
    /// Depth of the last completed iteration (0 when none completed or no legal move).
    pub depth: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// Nodes searched by all threads.
    pub nodes: u64,
    /// Milliseconds the search took.
    pub timeMs: u64,
    /// Number of valid moves in `pv`.
    pub pvLength: u32,
    /// The principal variation, `pv[0]` (= `bestMove`) to `pv[pvLength - 1]` (the rest zero).
    pub pv: [ChessMove; CHESS_MAX_PV],
    /// Zero (see the extensibility rule above).
    pub reserved: [u8; CHESS_SEARCH_RESULT_RESERVED],
}

// The layouts the header documents, on 64-bit targets (pointers move the limits' tail
// elsewhere): no implicit padding, and the fixed sizes the extensibility rules promise.
#[cfg(target_pointer_width = "64")]
const _: () = {
    use core::mem::{offset_of, size_of};
    assert!(offset_of!(ChessSearchLimits, searchMoves) == 64);
    assert!(offset_of!(ChessSearchLimits, searchMovesCount) == 88);
    assert!(offset_of!(ChessSearchLimits, reserved) == 94);
    assert!(size_of::<ChessSearchLimits>() == 256);
    assert!(offset_of!(ChessSearchResult, pv) == 44);
    assert!(offset_of!(ChessSearchResult, reserved) == 300);
    assert!(size_of::<ChessSearchResult>() == 512);
    assert!(offset_of!(ChessSearchInfo, pv) == 60);
    assert!(offset_of!(ChessSearchInfo, reserved) == 316);
    assert!(size_of::<ChessSearchInfo>() == 320);
};

// The same on 32-bit targets (wasm32: `wasm/index.mjs` writes the limits at these offsets):
// 4-byte pointers move the tail up by 12 bytes, and the size rounds up to 248.
#[cfg(target_pointer_width = "32")]
const _: () = {
    use core::mem::{offset_of, size_of};
    assert!(offset_of!(ChessSearchLimits, nodes) == 8);
    assert!(offset_of!(ChessSearchLimits, movetimeMs) == 16);
    assert!(offset_of!(ChessSearchLimits, searchMoves) == 64);
    assert!(offset_of!(ChessSearchLimits, onInfo) == 68);
    assert!(offset_of!(ChessSearchLimits, searchMovesCount) == 76);
    assert!(offset_of!(ChessSearchLimits, infinite) == 80);
    assert!(offset_of!(ChessSearchLimits, reserved) == 82);
    assert!(size_of::<ChessSearchLimits>() == 248);
    assert!(offset_of!(ChessSearchResult, pv) == 44);
    assert!(offset_of!(ChessSearchResult, reserved) == 300);
    assert!(size_of::<ChessSearchResult>() == 512);
};
