//! The C ABI: `extern "C"` functions with the prefix `chess_`, a thin skin over the safe core.
//!
//! Conventions, the same for every export:
//! * every export runs inside [`ffi_guard!`], so no panic crosses the boundary (a caught panic
//!   is `CHESS_ERR_INTERNAL`);
//! * fallible functions return a [`ChessStatus`] and write their outputs only on success;
//!   on error every object is left as it was;
//! * a NULL pointer argument is `CHESS_ERR_NULL_ARGUMENT` (getters return 0, false or -1 and
//!   say so in their docs);
//! * a position argument must have been initialised by `chess_setFromFEN` or
//!   `chess_setStartPosition`; one that is plainly not (zeroed, garbage) is
//!   `CHESS_ERR_INVALID_POSITION`.
//!
//! The frozen signatures (issue 2) never change; new functions are added beside them.

#![deny(unsafe_op_in_unsafe_fn)]
#![allow(non_snake_case)]

mod types;

pub use types::*;

use crate::bitboard::Bitboard;
use crate::movegen::{GenType, Legality};
use crate::moves::{MicroMove, Move, MoveList, MAX_MOVES};
use crate::perft::PerftMode;
use crate::position::{FenError, GameStatus, MoveError, Position, Undo};
use crate::types::{Color, PieceType, Square};
use core::ffi::{c_char, CStr};

/// Runs an export body, turning a panic into a fallback value (`CHESS_ERR_INTERNAL` by
/// default) so that no unwinding crosses into C.
macro_rules! ffi_guard {
    ($body:block) => {
        ffi_guard!(ChessStatus::CHESS_ERR_INTERNAL, $body)
    };
    ($fallback:expr, $body:block) => {
        match ::std::panic::catch_unwind(::std::panic::AssertUnwindSafe(|| $body)) {
            Ok(v) => v,
            Err(_) => $fallback,
        }
    };
}

/// Unwraps a `Result<T, ChessStatus>` inside an export, returning the status on error.
macro_rules! check {
    ($e:expr) => {
        match $e {
            Ok(v) => v,
            Err(status) => return status,
        }
    };
}

/// Borrows `*p` as an initialised position.
///
/// # Safety
/// `p` is NULL or points to a `ChessPosition` valid for reads for `'a` and not written
/// meanwhile.
unsafe fn pos_ref<'a>(p: *const ChessPosition) -> Result<&'a Position, ChessStatus> {
    // SAFETY: `ChessPosition` is at least as large and as aligned as `Position` (asserted in
    // types.rs), and every bit pattern is a valid `Position` (integers and arrays of
    // integer newtypes only). Non-NULL validity is the caller's contract.
    let pos =
        unsafe { (p as *const Position).as_ref() }.ok_or(ChessStatus::CHESS_ERR_NULL_ARGUMENT)?;
    if pos.is_plausible() {
        Ok(pos)
    } else {
        Err(ChessStatus::CHESS_ERR_INVALID_POSITION)
    }
}

/// Borrows `*p` mutably as an initialised position.
///
/// # Safety
/// `p` is NULL or points to a `ChessPosition` valid for reads and writes for `'a`, with no
/// other access meanwhile.
unsafe fn pos_mut<'a>(p: *mut ChessPosition) -> Result<&'a mut Position, ChessStatus> {
    // SAFETY: as in `pos_ref`, plus exclusive access by the caller's contract.
    let pos =
        unsafe { (p as *mut Position).as_mut() }.ok_or(ChessStatus::CHESS_ERR_NULL_ARGUMENT)?;
    if pos.is_plausible() {
        Ok(pos)
    } else {
        Err(ChessStatus::CHESS_ERR_INVALID_POSITION)
    }
}

/// Borrows `*p` mutably as a plain output slot of type `T`.
///
/// # Safety
/// `p` is NULL or points to storage valid for reads and writes of `U` for `'a`, where `U` has
/// the size and alignment of `T` or larger and every bit pattern is a valid `T`.
unsafe fn out_mut<'a, T, U>(p: *mut U) -> Result<&'a mut T, ChessStatus> {
    // SAFETY: the caller's contract above.
    unsafe { (p as *mut T).as_mut() }.ok_or(ChessStatus::CHESS_ERR_NULL_ARGUMENT)
}

/// Borrows `*p` as a plain input of type `T`.
///
/// # Safety
/// As [`out_mut`], for reads.
unsafe fn in_ref<'a, T, U>(p: *const U) -> Result<&'a T, ChessStatus> {
    // SAFETY: the caller's contract above.
    unsafe { (p as *const T).as_ref() }.ok_or(ChessStatus::CHESS_ERR_NULL_ARGUMENT)
}

/// Reads a NUL-terminated string as UTF-8.
///
/// # Safety
/// `p` is NULL or points to a NUL-terminated string valid for reads.
unsafe fn c_str<'a>(p: *const c_char) -> Result<&'a str, ChessStatus> {
    if p.is_null() {
        return Err(ChessStatus::CHESS_ERR_NULL_ARGUMENT);
    }
    // SAFETY: non-NULL and NUL-terminated by the caller's contract.
    let s = unsafe { CStr::from_ptr(p) };
    s.to_str()
        .map_err(|_| ChessStatus::CHESS_ERR_INVALID_ARGUMENT)
}

/// A `fmt::Write` into a fixed stack buffer (no heap); fails when full.
struct StackText<const N: usize> {
    buf: [u8; N],
    len: usize,
}

impl<const N: usize> StackText<N> {
    fn new() -> Self {
        StackText {
            buf: [0; N],
            len: 0,
        }
    }
    fn as_bytes(&self) -> &[u8] {
        &self.buf[..self.len]
    }
}

impl<const N: usize> core::fmt::Write for StackText<N> {
    fn write_str(&mut self, s: &str) -> core::fmt::Result {
        let end = self.len + s.len();
        if end > N {
            return Err(core::fmt::Error);
        }
        self.buf[self.len..end].copy_from_slice(s.as_bytes());
        self.len = end;
        Ok(())
    }
}

/// Copies `text` and a terminating NUL into `buf[0..len]`, or fails leaving it untouched.
///
/// # Safety
/// `buf` is NULL or valid for writes of `len` bytes.
unsafe fn write_c_text(text: &[u8], buf: *mut c_char, len: usize) -> ChessStatus {
    if buf.is_null() {
        return ChessStatus::CHESS_ERR_NULL_ARGUMENT;
    }
    if len < text.len() + 1 {
        return ChessStatus::CHESS_ERR_BUFFER_TOO_SMALL;
    }
    // SAFETY: `buf` is valid for `len >= text.len() + 1` bytes by the caller's contract, and
    // cannot overlap `text`, which lives in this library's memory.
    let out = unsafe { core::slice::from_raw_parts_mut(buf as *mut u8, len) };
    out[..text.len()].copy_from_slice(text);
    out[text.len()] = 0;
    ChessStatus::CHESS_OK
}

fn fen_status(e: FenError) -> ChessStatus {
    use ChessStatus::*;
    match e {
        FenError::FieldCount => CHESS_ERR_FEN_FIELD_COUNT,
        FenError::TrailingText => CHESS_ERR_FEN_TRAILING_TEXT,
        FenError::Board => CHESS_ERR_FEN_BOARD,
        FenError::SideToMove => CHESS_ERR_FEN_SIDE_TO_MOVE,
        FenError::Castling => CHESS_ERR_FEN_CASTLING,
        FenError::EnPassant => CHESS_ERR_FEN_EN_PASSANT,
        FenError::HalfmoveClock => CHESS_ERR_FEN_HALFMOVE_CLOCK,
        FenError::FullmoveNumber => CHESS_ERR_FEN_FULLMOVE_NUMBER,
        FenError::KingCount => CHESS_ERR_FEN_KING_COUNT,
        FenError::PawnOnBackRank => CHESS_ERR_FEN_PAWN_ON_BACK_RANK,
        FenError::TooManyPieces => CHESS_ERR_FEN_TOO_MANY_PIECES,
        FenError::CastlingRights => CHESS_ERR_FEN_CASTLING_RIGHTS,
        FenError::EnPassantRank => CHESS_ERR_FEN_EN_PASSANT_RANK,
        FenError::EnPassantPawn => CHESS_ERR_FEN_EN_PASSANT_PAWN,
        FenError::OpponentInCheck => CHESS_ERR_FEN_OPPONENT_IN_CHECK,
    }
}

fn move_status(e: MoveError) -> ChessStatus {
    match e {
        MoveError::Illegal => ChessStatus::CHESS_ERR_ILLEGAL_MOVE,
        MoveError::HistoryFull => ChessStatus::CHESS_ERR_HISTORY_FULL,
        MoveError::BadUndo => ChessStatus::CHESS_ERR_BAD_UNDO,
    }
}

/// Writes `pos` into caller storage that may be uninitialised.
///
/// # Safety
/// `p` is non-NULL and valid for writes of a `ChessPosition`.
unsafe fn write_position(p: *mut ChessPosition, pos: Position) {
    // SAFETY: size and alignment asserted in types.rs; `write` does not read the old bytes.
    unsafe { (p as *mut Position).write(pos) };
}

// ---------------------------------------------------------------------------------------------
// Frozen API (issue 2): these signatures never change.
// ---------------------------------------------------------------------------------------------

/// Sets `*pos` from a FEN string (strict: 6 fields, or 4 with clocks 0 and 1). `*pos` may be
/// uninitialised. On error `*pos` is left exactly as it was and the status names the defect
/// (`CHESS_ERR_FEN_*`; `CHESS_ERR_INVALID_ARGUMENT` for text that is not UTF-8).
///
/// # Safety
/// `pos` is NULL or valid for writes of a `ChessPosition`; `fen` is NULL or a NUL-terminated
/// string.
#[no_mangle]
pub unsafe extern "C" fn chess_setFromFEN(
    pos: *mut ChessPosition,
    fen: *const c_char,
) -> ChessStatus {
    ffi_guard!({
        if pos.is_null() {
            return ChessStatus::CHESS_ERR_NULL_ARGUMENT;
        }
        // SAFETY: the caller's contract for `fen`.
        let text = check!(unsafe { c_str(fen) });
        let parsed = check!(Position::from_fen(text).map_err(fen_status));
        // SAFETY: `pos` is non-NULL and valid for writes by the caller's contract.
        unsafe { write_position(pos, parsed) };
        ChessStatus::CHESS_OK
    })
}

/// Writes the FEN of `*pos` with a terminating NUL into `buf[0..len]`
/// (`CHESS_FEN_MAX` bytes always suffice); `CHESS_ERR_BUFFER_TOO_SMALL` writes nothing.
///
/// # Safety
/// `pos` is NULL or points to a `ChessPosition`; `buf` is NULL or valid for `len` bytes.
#[no_mangle]
pub unsafe extern "C" fn chess_toFEN(
    pos: *const ChessPosition,
    buf: *mut c_char,
    len: usize,
) -> ChessStatus {
    ffi_guard!({
        // SAFETY: the caller's contract for `pos`.
        let pos = check!(unsafe { pos_ref(pos) });
        let mut text = StackText::<CHESS_FEN_MAX>::new();
        if pos.write_fen(&mut text).is_err() {
            return ChessStatus::CHESS_ERR_INTERNAL;
        }
        // SAFETY: the caller's contract for `buf`.
        unsafe { write_c_text(text.as_bytes(), buf, len) }
    })
}

/// Writes every pseudo-legal move of `*pos` into `*out` (the king may be left in check;
/// castling out of or through check included: check each with `chess_isLegalMove` or make it
/// and test). `out->count` is set.
///
/// # Safety
/// `pos` is NULL or points to a `ChessPosition`; `out` is NULL or valid for writes.
#[no_mangle]
pub unsafe extern "C" fn chess_generatePseudoLegalMoves(
    pos: *const ChessPosition,
    out: *mut ChessMoveList,
) -> ChessStatus {
    // SAFETY: forwarded caller contract.
    unsafe { chess_generateMoves(pos, false, CHESS_GEN_ALL, CHESS_ALL_PIECE_TYPES, out) }
}

/// Writes every legal move of `*pos` into `*out`, promotions ordered queen, rook, bishop,
/// knight. `out->count` is set.
///
/// # Safety
/// `pos` is NULL or points to a `ChessPosition`; `out` is NULL or valid for writes.
#[no_mangle]
pub unsafe extern "C" fn chess_generateLegalMoves(
    pos: *const ChessPosition,
    out: *mut ChessMoveList,
) -> ChessStatus {
    // SAFETY: forwarded caller contract.
    unsafe { chess_generateMoves(pos, true, CHESS_GEN_ALL, CHESS_ALL_PIECE_TYPES, out) }
}

/// Makes `move` on `*pos` and fills `*undo`. Any 16-bit value may be passed: a move that is
/// not legal here is refused with `CHESS_ERR_ILLEGAL_MOVE` and `*pos` untouched;
/// `CHESS_ERR_HISTORY_FULL` after 1024 moves since setup. For moves straight from
/// `chess_generateLegalMoves`, `chess_makeMoveUnchecked` skips the check.
///
/// # Safety
/// `pos` is NULL or points to a `ChessPosition`; `undo` is NULL or valid for writes.
#[no_mangle]
pub unsafe extern "C" fn chess_makeMove(
    pos: *mut ChessPosition,
    r#move: ChessMove,
    undo: *mut ChessUndo,
) -> ChessStatus {
    ffi_guard!({
        // SAFETY: the caller's contract for `undo` (48 bytes, 8-aligned, plain data).
        let undo = check!(unsafe { out_mut::<Undo, ChessUndo>(undo) });
        // SAFETY: the caller's contract for `pos`.
        let pos = check!(unsafe { pos_mut(pos) });
        *undo = check!(pos
            .try_make_move(Move::from_raw(r#move))
            .map_err(move_status));
        ChessStatus::CHESS_OK
    })
}

/// Takes back `move`, which must be the last move made on `*pos`, with the record its make
/// filled. A move or record that does not belong to the last move is refused with
/// `CHESS_ERR_BAD_UNDO`, `*pos` untouched. `chess_unmakeMoveUnchecked` skips the check.
///
/// # Safety
/// `pos` is NULL or points to a `ChessPosition`; `undo` is NULL or points to a `ChessUndo`.
#[no_mangle]
pub unsafe extern "C" fn chess_unmakeMove(
    pos: *mut ChessPosition,
    r#move: ChessMove,
    undo: *const ChessUndo,
) -> ChessStatus {
    ffi_guard!({
        // SAFETY: the caller's contract for `undo`; every bit pattern is a valid `Undo`.
        let undo = check!(unsafe { in_ref::<Undo, ChessUndo>(undo) });
        // SAFETY: the caller's contract for `pos`.
        let pos = check!(unsafe { pos_mut(pos) });
        check!(pos
            .try_unmake_move(Move::from_raw(r#move), undo)
            .map_err(move_status));
        ChessStatus::CHESS_OK
    })
}

/// Counts the leaf nodes of the legal move tree `depth` plies deep (bulk counting at the last
/// ply) into `*nodes`. `*pos` is the same afterwards. Depth 0 counts 1.
///
/// # Safety
/// `pos` is NULL or points to a `ChessPosition`; `nodes` is NULL or valid for writes.
#[no_mangle]
pub unsafe extern "C" fn chess_perft(
    pos: *mut ChessPosition,
    depth: u32,
    nodes: *mut u64,
) -> ChessStatus {
    // SAFETY: forwarded caller contract.
    unsafe { perft_export(pos, depth, nodes, PerftMode::Bulk) }
}

/// Resolves UCI text (`e2e4`, `e7e8q`, castling as the king's move `e1g1`) against `*pos`
/// into the legal move it names. `CHESS_ERR_INVALID_ARGUMENT` for malformed text,
/// `CHESS_ERR_ILLEGAL_MOVE` when no legal move matches.
///
/// # Safety
/// `pos` is NULL or points to a `ChessPosition`; `uci` is NULL or a NUL-terminated string;
/// `out` is NULL or valid for writes.
#[no_mangle]
pub unsafe extern "C" fn chess_moveFromUci(
    pos: *const ChessPosition,
    uci: *const c_char,
    out: *mut ChessMove,
) -> ChessStatus {
    ffi_guard!({
        // SAFETY: the caller's contract for each pointer.
        let (pos, text, out) = unsafe {
            (
                check!(pos_ref(pos)),
                check!(c_str(uci)),
                check!(out_mut::<u16, u16>(out)),
            )
        };
        match pos.parse_uci_move(text) {
            Ok(m) => {
                *out = m.raw();
                ChessStatus::CHESS_OK
            }
            Err(crate::NotationError::Syntax) => ChessStatus::CHESS_ERR_INVALID_ARGUMENT,
            Err(crate::NotationError::Illegal) => ChessStatus::CHESS_ERR_ILLEGAL_MOVE,
        }
    })
}

/// Writes the UCI text of `move` (4 or 5 characters and a NUL: 6 bytes always suffice) into
/// `buf[0..len]`. `CHESS_ERR_INVALID_ARGUMENT` for a value that is no move (flags 6 and 7,
/// from == to).
///
/// # Safety
/// `buf` is NULL or valid for `len` bytes.
#[no_mangle]
pub unsafe extern "C" fn chess_moveToUci(
    r#move: ChessMove,
    buf: *mut c_char,
    len: usize,
) -> ChessStatus {
    ffi_guard!({
        let m = Move::from_raw(r#move);
        if !m.is_well_formed() {
            return ChessStatus::CHESS_ERR_INVALID_ARGUMENT;
        }
        let mut text = [0u8; 5];
        let n = m.write_uci(&mut text);
        // SAFETY: the caller's contract for `buf`.
        unsafe { write_c_text(&text[..n], buf, len) }
    })
}

/// True when the current position occurred twice before (three times in all), looking back
/// only to the last capture or pawn move and at most `plyLimit` plies. False for NULL.
///
/// # Safety
/// `pos` is NULL or points to a `ChessPosition`.
#[no_mangle]
pub unsafe extern "C" fn chess_isRepetition(pos: *const ChessPosition, plyLimit: i32) -> bool {
    ffi_guard!(false, {
        // SAFETY: the caller's contract for `pos`.
        match unsafe { pos_ref(pos) } {
            Ok(p) => p.is_repetition(plyLimit),
            Err(_) => false,
        }
    })
}

/// Prints `bb` to standard output as an 8x8 grid: rank 8 first, files a to h, `x` for a set
/// square and `.` for an empty one, squares separated by spaces.
#[no_mangle]
pub extern "C" fn chess_printBitboard(bb: u64) {
    ffi_guard!((), {
        use std::io::Write as _;
        let mut out = std::io::stdout().lock();
        // Output errors (closed stdout) are ignored: there is no status to report them in.
        let _ = write!(out, "{}", Bitboard(bb));
        let _ = out.flush();
    })
}

/// An English sentence for `status` (never NULL; unknown codes get a sentence saying so).
/// The string is static: do not free it.
#[no_mangle]
pub extern "C" fn chess_statusMessage(status: ChessStatusCode) -> *const c_char {
    let text: &CStr = match status {
        0 => c"success",
        1 => c"a required pointer argument was NULL",
        2 => c"the output buffer is too small",
        3 => c"the move is not legal in this position",
        4 => c"the position history is full; set the position again",
        5 => c"an argument is out of range or malformed",
        6 => c"the position was never initialised",
        7 => c"the move and undo record are not those of the last move made",
        8 => c"internal error in chesscore",
        100 => c"FEN must have 6 (or 4) fields separated by single spaces",
        101 => c"FEN has text after the sixth field",
        102 => c"FEN piece placement is malformed",
        103 => c"FEN side to move must be 'w' or 'b'",
        104 => c"FEN castling field must be '-' or a subset of 'KQkq' in order",
        105 => c"FEN en passant field must be '-' or a square",
        106 => c"FEN halfmove clock must be a number from 0 to 65535",
        107 => c"FEN fullmove number must be a number from 1 to 65535",
        108 => c"FEN must have exactly one king per side",
        109 => c"FEN has a pawn on rank 1 or 8",
        110 => c"FEN has more pieces than a game can produce",
        111 => c"FEN castling rights contradict king and rook placement",
        112 => c"FEN en passant square is on the wrong rank",
        113 => c"FEN en passant square has no pawn that just double-pushed",
        114 => c"FEN side not to move is in check",
        _ => c"unknown status code",
    };
    text.as_ptr()
}

// ---------------------------------------------------------------------------------------------
// Additions (not frozen by issue 2, but equally stable once released).
// ---------------------------------------------------------------------------------------------

/// Sets `*pos` to the standard starting position. `*pos` may be uninitialised.
///
/// # Safety
/// `pos` is NULL or valid for writes of a `ChessPosition`.
#[no_mangle]
pub unsafe extern "C" fn chess_setStartPosition(pos: *mut ChessPosition) -> ChessStatus {
    ffi_guard!({
        if pos.is_null() {
            return ChessStatus::CHESS_ERR_NULL_ARGUMENT;
        }
        // SAFETY: non-NULL and valid for writes by the caller's contract.
        unsafe { write_position(pos, Position::startpos()) };
        ChessStatus::CHESS_OK
    })
}

/// Writes the selected moves of `*pos` into `*out`: `legal` or pseudo-legal; class
/// `CHESS_GEN_ALL`, `CHESS_GEN_CAPTURES` or `CHESS_GEN_QUIETS`; only pieces whose type bit
/// (`1 << type`, pawn = 1 .. king = 6) is set in `pieceTypes` (a Dice Chess roll of `t` is
/// `1 << t`; `CHESS_ALL_PIECE_TYPES` for all). Generated directly, not filtered from a full
/// list. `CHESS_ERR_INVALID_ARGUMENT` for another class or mask bits outside 1..6.
///
/// # Safety
/// `pos` is NULL or points to a `ChessPosition`; `out` is NULL or valid for writes.
#[no_mangle]
pub unsafe extern "C" fn chess_generateMoves(
    pos: *const ChessPosition,
    legal: bool,
    genClass: u32,
    pieceTypes: u8,
    out: *mut ChessMoveList,
) -> ChessStatus {
    ffi_guard!({
        // SAFETY: the caller's contract for `pos` and `out` (same layout as `MoveList`).
        let (pos, out) = unsafe {
            (
                check!(pos_ref(pos)),
                check!(out_mut::<MoveList, ChessMoveList>(out)),
            )
        };
        let gen = match genClass {
            CHESS_GEN_ALL => GenType::All,
            CHESS_GEN_CAPTURES => GenType::Captures,
            CHESS_GEN_QUIETS => GenType::Quiets,
            _ => return ChessStatus::CHESS_ERR_INVALID_ARGUMENT,
        };
        if pieceTypes & !CHESS_ALL_PIECE_TYPES != 0 {
            return ChessStatus::CHESS_ERR_INVALID_ARGUMENT;
        }
        let legality = if legal {
            Legality::Legal
        } else {
            Legality::PseudoLegal
        };
        out.clear();
        pos.generate_moves(legality, gen, pieceTypes, out);
        ChessStatus::CHESS_OK
    })
}

/// Makes `move` without checking it: for moves straight from this position's legal (or
/// pseudo-legal) generator only. Any other value leaves `*pos` in an unspecified state
/// (memory-safe, but no longer a chess position). Never fails for history: past 1024 moves
/// repetition detection simply stops seeing earlier positions.
///
/// # Safety
/// `pos` is NULL or points to a `ChessPosition`; `undo` is NULL or valid for writes.
#[no_mangle]
pub unsafe extern "C" fn chess_makeMoveUnchecked(
    pos: *mut ChessPosition,
    r#move: ChessMove,
    undo: *mut ChessUndo,
) -> ChessStatus {
    ffi_guard!({
        // SAFETY: the caller's contract for `undo` and `pos`.
        let (undo, pos) = unsafe {
            (
                check!(out_mut::<Undo, ChessUndo>(undo)),
                check!(pos_mut(pos)),
            )
        };
        *undo = pos.make_move_unchecked(Move::from_raw(r#move));
        ChessStatus::CHESS_OK
    })
}

/// Takes back the last move without checking that `move` and `*undo` belong to it.
///
/// # Safety
/// `pos` is NULL or points to a `ChessPosition`; `undo` is NULL or points to a `ChessUndo`.
#[no_mangle]
pub unsafe extern "C" fn chess_unmakeMoveUnchecked(
    pos: *mut ChessPosition,
    r#move: ChessMove,
    undo: *const ChessUndo,
) -> ChessStatus {
    ffi_guard!({
        // SAFETY: the caller's contract for `undo` and `pos`.
        let (undo, pos) = unsafe {
            (
                check!(in_ref::<Undo, ChessUndo>(undo)),
                check!(pos_mut(pos)),
            )
        };
        pos.unmake_move_unchecked(Move::from_raw(r#move), undo);
        ChessStatus::CHESS_OK
    })
}

/// Passes the turn (null move) and fills `*undo`. `CHESS_ERR_ILLEGAL_MOVE` while in check,
/// `CHESS_ERR_HISTORY_FULL` past 1024 moves.
///
/// # Safety
/// `pos` is NULL or points to a `ChessPosition`; `undo` is NULL or valid for writes.
#[no_mangle]
pub unsafe extern "C" fn chess_makeNullMove(
    pos: *mut ChessPosition,
    undo: *mut ChessUndo,
) -> ChessStatus {
    ffi_guard!({
        // SAFETY: the caller's contract for `undo` and `pos`.
        let (undo, pos) = unsafe {
            (
                check!(out_mut::<Undo, ChessUndo>(undo)),
                check!(pos_mut(pos)),
            )
        };
        *undo = check!(pos.try_make_null_move().map_err(move_status));
        ChessStatus::CHESS_OK
    })
}

/// Takes back a null move made by `chess_makeNullMove`. A record that does not belong to the
/// last move, or a last move that was not a null move, is refused with `CHESS_ERR_BAD_UNDO`.
///
/// # Safety
/// `pos` is NULL or points to a `ChessPosition`; `undo` is NULL or points to a `ChessUndo`.
#[no_mangle]
pub unsafe extern "C" fn chess_unmakeNullMove(
    pos: *mut ChessPosition,
    undo: *const ChessUndo,
) -> ChessStatus {
    ffi_guard!({
        // SAFETY: the caller's contract for `undo` and `pos`.
        let (undo, pos) = unsafe {
            (
                check!(in_ref::<Undo, ChessUndo>(undo)),
                check!(pos_mut(pos)),
            )
        };
        check!(pos.try_unmake_null_move(undo).map_err(move_status));
        ChessStatus::CHESS_OK
    })
}

/// True when `move` (any 16-bit value) is legal in `*pos`. False for NULL.
///
/// # Safety
/// `pos` is NULL or points to a `ChessPosition`.
#[no_mangle]
pub unsafe extern "C" fn chess_isLegalMove(pos: *const ChessPosition, r#move: ChessMove) -> bool {
    ffi_guard!(false, {
        // SAFETY: the caller's contract for `pos`.
        unsafe { pos_ref(pos) }.is_ok_and(|p| p.is_legal(Move::from_raw(r#move)))
    })
}

/// True when the side to move is in check. False for NULL.
///
/// # Safety
/// `pos` is NULL or points to a `ChessPosition`.
#[no_mangle]
pub unsafe extern "C" fn chess_isInCheck(pos: *const ChessPosition) -> bool {
    ffi_guard!(false, {
        // SAFETY: the caller's contract for `pos`.
        unsafe { pos_ref(pos) }.is_ok_and(|p| p.in_check())
    })
}

/// Writes the game status of `*pos` into `*out`: checkmate and stalemate first, then the
/// 50-move rule, threefold repetition and insufficient material.
///
/// # Safety
/// `pos` is NULL or points to a `ChessPosition`; `out` is NULL or valid for writes.
#[no_mangle]
pub unsafe extern "C" fn chess_gameStatus(
    pos: *const ChessPosition,
    out: *mut ChessGameStatus,
) -> ChessStatus {
    ffi_guard!({
        // SAFETY: the caller's contract for `pos` and `out`. `out` is written, never read.
        let pos = check!(unsafe { pos_ref(pos) });
        if out.is_null() {
            return ChessStatus::CHESS_ERR_NULL_ARGUMENT;
        }
        let status = match pos.status() {
            GameStatus::Ongoing => ChessGameStatus::CHESS_ONGOING,
            GameStatus::Checkmate => ChessGameStatus::CHESS_CHECKMATE,
            GameStatus::Stalemate => ChessGameStatus::CHESS_STALEMATE,
            GameStatus::FiftyMoveRule => ChessGameStatus::CHESS_FIFTY_MOVE_RULE,
            GameStatus::ThreefoldRepetition => ChessGameStatus::CHESS_THREEFOLD_REPETITION,
            GameStatus::InsufficientMaterial => ChessGameStatus::CHESS_INSUFFICIENT_MATERIAL,
        };
        // SAFETY: non-NULL and valid for writes by the caller's contract.
        unsafe { out.write(status) };
        ChessStatus::CHESS_OK
    })
}

/// Reads one field of an initialised position, or `fallback` for NULL or an uninitialised one.
///
/// # Safety
/// `pos` is NULL or points to a `ChessPosition`.
unsafe fn getter<T>(pos: *const ChessPosition, fallback: T, f: impl FnOnce(&Position) -> T) -> T {
    // SAFETY: forwarded caller contract.
    match unsafe { pos_ref(pos) } {
        Ok(p) => f(p),
        Err(_) => fallback,
    }
}

/// Zobrist hash of the position (pieces, side to move, castling rights, en passant file when
/// a capture there is possible). The same on every run and machine. 0 for NULL.
///
/// # Safety
/// `pos` is NULL or points to a `ChessPosition`.
#[no_mangle]
pub unsafe extern "C" fn chess_hash(pos: *const ChessPosition) -> u64 {
    // SAFETY: forwarded caller contract.
    ffi_guard!(0, { unsafe { getter(pos, 0, Position::hash) } })
}

/// Zobrist hash of the pawns alone. 0 for NULL.
///
/// # Safety
/// `pos` is NULL or points to a `ChessPosition`.
#[no_mangle]
pub unsafe extern "C" fn chess_pawnHash(pos: *const ChessPosition) -> u64 {
    // SAFETY: forwarded caller contract.
    ffi_guard!(0, { unsafe { getter(pos, 0, Position::pawn_hash) } })
}

/// Hash of the material (piece counts) alone. 0 for NULL.
///
/// # Safety
/// `pos` is NULL or points to a `ChessPosition`.
#[no_mangle]
pub unsafe extern "C" fn chess_materialHash(pos: *const ChessPosition) -> u64 {
    // SAFETY: forwarded caller contract.
    ffi_guard!(0, { unsafe { getter(pos, 0, Position::material_hash) } })
}

/// Side to move: 0 White, 1 Black; -1 for NULL.
///
/// # Safety
/// `pos` is NULL or points to a `ChessPosition`.
#[no_mangle]
pub unsafe extern "C" fn chess_sideToMove(pos: *const ChessPosition) -> i32 {
    // SAFETY: forwarded caller contract.
    ffi_guard!(-1, {
        unsafe { getter(pos, -1, |p| p.side_to_move().index() as i32) }
    })
}

/// The piece on `square` (0..63): `color << 3 | type`, 0 for an empty square, a square out of
/// range or NULL.
///
/// # Safety
/// `pos` is NULL or points to a `ChessPosition`.
#[no_mangle]
pub unsafe extern "C" fn chess_pieceOn(pos: *const ChessPosition, square: u32) -> u8 {
    ffi_guard!(0, {
        let Some(sq) = u8::try_from(square).ok().and_then(Square::new) else {
            return 0;
        };
        // SAFETY: forwarded caller contract.
        unsafe { getter(pos, 0, |p| p.piece_on(sq).to_u8()) }
    })
}

/// Bitboard of `color`'s (0 White, 1 Black) pieces of `type` (1 pawn .. 6 king; 0 = every
/// type). 0 for NULL or values out of range.
///
/// # Safety
/// `pos` is NULL or points to a `ChessPosition`.
#[no_mangle]
pub unsafe extern "C" fn chess_pieces(pos: *const ChessPosition, color: u32, r#type: u32) -> u64 {
    ffi_guard!(0, {
        if color > 1 || r#type > 6 {
            return 0;
        }
        let c = Color::from_index(color as u8);
        // SAFETY: forwarded caller contract.
        unsafe {
            getter(pos, 0, |p| {
                if r#type == 0 {
                    p.color_pieces(c).0
                } else {
                    p.pieces(c, PieceType::new(r#type as u8).unwrap_or(PieceType::NONE))
                        .0
                }
            })
        }
    })
}

/// Castling rights as 4 bits: 1 White king side, 2 White queen side, 4 Black king side,
/// 8 Black queen side. 0 for NULL.
///
/// # Safety
/// `pos` is NULL or points to a `ChessPosition`.
#[no_mangle]
pub unsafe extern "C" fn chess_castlingRights(pos: *const ChessPosition) -> u8 {
    // SAFETY: forwarded caller contract.
    ffi_guard!(0, {
        unsafe { getter(pos, 0, |p| p.castling_rights().bits()) }
    })
}

/// En passant target square (0..63) after a double pawn push, -1 for none or NULL.
///
/// # Safety
/// `pos` is NULL or points to a `ChessPosition`.
#[no_mangle]
pub unsafe extern "C" fn chess_enPassantSquare(pos: *const ChessPosition) -> i32 {
    ffi_guard!(-1, {
        // SAFETY: forwarded caller contract.
        unsafe { getter(pos, -1, |p| p.en_passant().map_or(-1, |s| s.index() as i32)) }
    })
}

/// Halfmove clock (plies since the last capture or pawn move). 0 for NULL.
///
/// # Safety
/// `pos` is NULL or points to a `ChessPosition`.
#[no_mangle]
pub unsafe extern "C" fn chess_halfmoveClock(pos: *const ChessPosition) -> u32 {
    // SAFETY: forwarded caller contract.
    ffi_guard!(0, { unsafe { getter(pos, 0, Position::halfmove_clock) } })
}

/// Fullmove number. 0 for NULL.
///
/// # Safety
/// `pos` is NULL or points to a `ChessPosition`.
#[no_mangle]
pub unsafe extern "C" fn chess_fullmoveNumber(pos: *const ChessPosition) -> u32 {
    // SAFETY: forwarded caller contract.
    ffi_guard!(0, { unsafe { getter(pos, 0, Position::fullmove_number) } })
}

/// Pieces of both colors attacking `square` in `*pos`. 0 for NULL or a square out of range.
///
/// # Safety
/// `pos` is NULL or points to a `ChessPosition`.
#[no_mangle]
pub unsafe extern "C" fn chess_attackersTo(pos: *const ChessPosition, square: u32) -> u64 {
    ffi_guard!(0, {
        let Some(sq) = u8::try_from(square).ok().and_then(Square::new) else {
            return 0;
        };
        // SAFETY: forwarded caller contract.
        unsafe { getter(pos, 0, |p| p.attackers_to(sq).0) }
    })
}

/// Enemy pieces giving check to the side to move. 0 for NULL.
///
/// # Safety
/// `pos` is NULL or points to a `ChessPosition`.
#[no_mangle]
pub unsafe extern "C" fn chess_checkers(pos: *const ChessPosition) -> u64 {
    // SAFETY: forwarded caller contract.
    ffi_guard!(0, { unsafe { getter(pos, 0, |p| p.checkers().0) } })
}

fn square_or_none(square: u32) -> Option<Square> {
    u8::try_from(square).ok().and_then(Square::new)
}

/// Knight attacks from `square` (0 for a square out of range).
#[no_mangle]
pub extern "C" fn chess_knightAttacks(square: u32) -> u64 {
    square_or_none(square).map_or(0, |s| crate::attacks::knight_attacks(s).0)
}

/// King attacks from `square` (0 for a square out of range).
#[no_mangle]
pub extern "C" fn chess_kingAttacks(square: u32) -> u64 {
    square_or_none(square).map_or(0, |s| crate::attacks::king_attacks(s).0)
}

/// Squares a pawn of `color` (0 White, 1 Black) on `square` attacks (0 when out of range).
#[no_mangle]
pub extern "C" fn chess_pawnAttacks(color: u32, square: u32) -> u64 {
    if color > 1 {
        return 0;
    }
    square_or_none(square).map_or(0, |s| {
        crate::attacks::pawn_attacks(Color::from_index(color as u8), s).0
    })
}

/// Bishop attacks from `square` with blockers `occupied` (first blocker included).
#[no_mangle]
pub extern "C" fn chess_bishopAttacks(square: u32, occupied: u64) -> u64 {
    square_or_none(square).map_or(0, |s| {
        crate::attacks::bishop_attacks(s, Bitboard(occupied)).0
    })
}

/// Rook attacks from `square` with blockers `occupied` (first blocker included).
#[no_mangle]
pub extern "C" fn chess_rookAttacks(square: u32, occupied: u64) -> u64 {
    square_or_none(square).map_or(0, |s| crate::attacks::rook_attacks(s, Bitboard(occupied)).0)
}

/// Queen attacks from `square` with blockers `occupied` (first blocker included).
#[no_mangle]
pub extern "C" fn chess_queenAttacks(square: u32, occupied: u64) -> u64 {
    square_or_none(square).map_or(0, |s| {
        crate::attacks::queen_attacks(s, Bitboard(occupied)).0
    })
}

/// # Safety
/// `pos` is NULL or points to a `ChessPosition`; `nodes` is NULL or valid for writes.
unsafe fn perft_export(
    pos: *mut ChessPosition,
    depth: u32,
    nodes: *mut u64,
    mode: PerftMode,
) -> ChessStatus {
    ffi_guard!({
        // SAFETY: the caller's contract for `nodes` and `pos`.
        let (nodes, pos) = unsafe { (check!(out_mut::<u64, u64>(nodes)), check!(pos_mut(pos))) };
        *nodes = pos.perft_mode(depth, mode);
        ChessStatus::CHESS_OK
    })
}

/// Perft that makes and unmakes every move down to the leaves (no bulk counting): exercises
/// make/unmake. `*pos` is the same afterwards.
///
/// # Safety
/// `pos` is NULL or points to a `ChessPosition`; `nodes` is NULL or valid for writes.
#[no_mangle]
pub unsafe extern "C" fn chess_perftFull(
    pos: *mut ChessPosition,
    depth: u32,
    nodes: *mut u64,
) -> ChessStatus {
    // SAFETY: forwarded caller contract.
    unsafe { perft_export(pos, depth, nodes, PerftMode::Full) }
}

/// Perft on `threads` threads (0 = as many as the machine has, at most 256): the tree is
/// split two plies below the root and each worker takes tasks on its own copy of the position;
/// bulk counting unless `full`. `*pos` is only read.
///
/// # Safety
/// `pos` is NULL or points to a `ChessPosition` not written during the call; `nodes` is NULL or
/// valid for writes.
#[no_mangle]
pub unsafe extern "C" fn chess_perftParallel(
    pos: *const ChessPosition,
    depth: u32,
    threads: u32,
    full: bool,
    nodes: *mut u64,
) -> ChessStatus {
    ffi_guard!({
        // SAFETY: the caller's contract for `pos` and `nodes`.
        let (pos, nodes) = unsafe { (check!(pos_ref(pos)), check!(out_mut::<u64, u64>(nodes))) };
        let threads = match threads {
            0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
            t => t.min(256) as usize,
        };
        let mode = if full {
            PerftMode::Full
        } else {
            PerftMode::Bulk
        };
        *nodes = pos.perft_parallel(depth, mode, threads);
        ChessStatus::CHESS_OK
    })
}

/// Perft divide: `*moves` receives the legal root moves, `counts[i]` the bulk perft count of
/// depth `depth - 1` below `moves->moves[i]`, `*total` their sum. `countsLen` must be at least
/// the number of legal moves (256 always suffices), else `CHESS_ERR_BUFFER_TOO_SMALL` and
/// nothing is written. Depth 0: no moves and a total of 1.
///
/// # Safety
/// `pos` is NULL or points to a `ChessPosition`; `moves` and `total` are NULL or valid for
/// writes; `counts` is NULL or valid for `countsLen` writes.
#[no_mangle]
pub unsafe extern "C" fn chess_perftDivide(
    pos: *mut ChessPosition,
    depth: u32,
    moves: *mut ChessMoveList,
    counts: *mut u64,
    countsLen: usize,
    total: *mut u64,
) -> ChessStatus {
    ffi_guard!({
        // SAFETY: the caller's contract for each pointer.
        let (pos, moves, total) = unsafe {
            (
                check!(pos_mut(pos)),
                check!(out_mut::<MoveList, ChessMoveList>(moves)),
                check!(out_mut::<u64, u64>(total)),
            )
        };
        if counts.is_null() {
            return ChessStatus::CHESS_ERR_NULL_ARGUMENT;
        }
        if countsLen < pos.count_legal_moves() as usize {
            return ChessStatus::CHESS_ERR_BUFFER_TOO_SMALL;
        }
        let mut list = MoveList::new();
        let mut local = [0u64; MAX_MOVES];
        let sum = pos.perft_divide_into(depth, PerftMode::Bulk, &mut list, &mut local);
        // SAFETY: `counts` is valid for `countsLen >= list.len()` writes (checked above) by
        // the caller's contract.
        let out = unsafe { core::slice::from_raw_parts_mut(counts, list.len()) };
        out.copy_from_slice(&local[..list.len()]);
        *moves = list;
        *total = sum;
        ChessStatus::CHESS_OK
    })
}

/// Resolves a micro move (bits 0-5 origin, 6-11 target, 12-15 promotion piece type 2..5 or 0)
/// against `*pos` into the legal move it names.
///
/// # Safety
/// `pos` is NULL or points to a `ChessPosition`; `out` is NULL or valid for writes.
#[no_mangle]
pub unsafe extern "C" fn chess_moveFromMicro(
    pos: *const ChessPosition,
    micro: u16,
    out: *mut ChessMove,
) -> ChessStatus {
    ffi_guard!({
        // SAFETY: the caller's contract for `pos` and `out`.
        let (pos, out) = unsafe { (check!(pos_ref(pos)), check!(out_mut::<u16, u16>(out))) };
        match pos.move_from_micro(MicroMove(micro)) {
            Ok(m) => {
                *out = m.raw();
                ChessStatus::CHESS_OK
            }
            Err(crate::NotationError::Syntax) => ChessStatus::CHESS_ERR_INVALID_ARGUMENT,
            Err(crate::NotationError::Illegal) => ChessStatus::CHESS_ERR_ILLEGAL_MOVE,
        }
    })
}

/// The micro move (origin, target, promotion type) of `move`.
#[no_mangle]
pub extern "C" fn chess_moveToMicro(r#move: ChessMove) -> u16 {
    Move::from_raw(r#move).to_micro().0
}

/// Writes the grid of `chess_printBitboard` with a terminating NUL into `buf[0..len]`
/// (`CHESS_BITBOARD_TEXT_SIZE` bytes).
///
/// # Safety
/// `buf` is NULL or valid for `len` bytes.
#[no_mangle]
pub unsafe extern "C" fn chess_printBitboardToBuffer(
    bb: u64,
    buf: *mut c_char,
    len: usize,
) -> ChessStatus {
    ffi_guard!({
        let mut text = StackText::<{ CHESS_BITBOARD_TEXT_SIZE }>::new();
        if Bitboard(bb).write_grid(&mut text).is_err() {
            return ChessStatus::CHESS_ERR_INTERNAL;
        }
        // SAFETY: the caller's contract for `buf`.
        unsafe { write_c_text(text.as_bytes(), buf, len) }
    })
}

/// Writes a picture of the board (rank 8 first, `rank-digit piece ...` lines with FEN letters
/// and `.` for empty squares, then a file line) with a NUL into `buf[0..len]`
/// (`CHESS_POSITION_TEXT_SIZE` bytes).
///
/// # Safety
/// `pos` is NULL or points to a `ChessPosition`; `buf` is NULL or valid for `len` bytes.
#[no_mangle]
pub unsafe extern "C" fn chess_positionToText(
    pos: *const ChessPosition,
    buf: *mut c_char,
    len: usize,
) -> ChessStatus {
    ffi_guard!({
        // SAFETY: the caller's contract for `pos`.
        let pos = check!(unsafe { pos_ref(pos) });
        let mut text = StackText::<{ CHESS_POSITION_TEXT_SIZE }>::new();
        if pos.write_pretty(&mut text).is_err() {
            return ChessStatus::CHESS_ERR_INTERNAL;
        }
        // SAFETY: the caller's contract for `buf`.
        unsafe { write_c_text(text.as_bytes(), buf, len) }
    })
}

/// Prints the picture of `chess_positionToText` to standard output.
///
/// # Safety
/// `pos` is NULL or points to a `ChessPosition`.
#[no_mangle]
pub unsafe extern "C" fn chess_printPosition(pos: *const ChessPosition) -> ChessStatus {
    ffi_guard!({
        // SAFETY: the caller's contract for `pos`.
        let pos = check!(unsafe { pos_ref(pos) });
        print!("{pos}");
        ChessStatus::CHESS_OK
    })
}

/// The library version as text, e.g. `"0.1.0"` (static; do not free).
#[no_mangle]
pub extern "C" fn chess_version() -> *const c_char {
    const V: &str = concat!(env!("CARGO_PKG_VERSION"), "\0");
    V.as_ptr() as *const c_char
}

/// The library version as `major * 10000 + minor * 100 + patch` (compare with
/// `CHESSCORE_VERSION` from the header).
#[no_mangle]
pub extern "C" fn chess_versionNumber() -> u32 {
    let p = |s: &str| s.parse::<u32>().unwrap_or(0);
    p(env!("CARGO_PKG_VERSION_MAJOR")) * 10000
        + p(env!("CARGO_PKG_VERSION_MINOR")) * 100
        + p(env!("CARGO_PKG_VERSION_PATCH"))
}

/// The slider back end this CPU uses: `"pext"` (BMI2) or `"magic"` (static; do not free).
#[no_mangle]
pub extern "C" fn chess_sliderBackend() -> *const c_char {
    match crate::attacks::Backend::detect() {
        crate::attacks::Backend::Pext(_) => c"pext".as_ptr(),
        crate::attacks::Backend::Magic(_) => c"magic".as_ptr(),
    }
}
