//! Moves: generation, make and unmake (checked, unchecked and null), legality, micro moves.

use super::guard::{check, ffi_guard, read_position, try_ptr};
use super::{
    ChessMove, ChessMoveList, ChessPosition, ChessStatus, ChessUndo, CHESS_ALL_PIECE_TYPES,
    CHESS_GEN_ALL, CHESS_GEN_CAPTURES, CHESS_GEN_QUIETS,
};
use crate::movegen::{GenType, Legality};
use crate::moves::{MicroMove, Move, MoveList};
use crate::position::{MoveError, Position, Undo, HISTORY_CAPACITY};

// ---------------------------------------------------------------------------------------------
// Frozen API (issue 2): these signatures never change.
// ---------------------------------------------------------------------------------------------

/// Writes every pseudo-legal move of `*pos` into `*out` (the king may be left in check;
/// castling out of or through check included: check each with `chess_isLegalMove` or make it
/// and test; an en passant capture only when it is legal). `out->count` is set.
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
/// `CHESS_ERR_HISTORY_FULL` after 1024 moves since setup. Every position this accepts can be
/// taken back with `chess_unmakeMove` and the record it wrote. For moves straight from
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
    // SAFETY: forwarded caller contract.
    unsafe { make_export(pos, undo, true, |p| p.try_make_move(Move::from_raw(r#move))) }
}

/// Takes back `move`, which must be the last move made on `*pos`, with the record its make
/// filled. Any move or record that does not belong to the last move is refused with
/// `CHESS_ERR_BAD_UNDO`, `*pos` untouched: the record must agree with what the position's
/// history proves (clock, en passant square and hash before the move), and the unmade position
/// must be valid, have `move` legal, and give back `*pos` when `move` is made again.
/// `chess_unmakeMoveUnchecked` skips all that.
///
/// # Safety
/// `pos` is NULL or points to a `ChessPosition`; `undo` is NULL or points to a `ChessUndo`.
#[no_mangle]
pub unsafe extern "C" fn chess_unmakeMove(
    pos: *mut ChessPosition,
    r#move: ChessMove,
    undo: *const ChessUndo,
) -> ChessStatus {
    // SAFETY: forwarded caller contract.
    unsafe {
        unmake_export(pos, undo, true, |p, u| {
            p.try_unmake_move(Move::from_raw(r#move), u)
        })
    }
}

// ---------------------------------------------------------------------------------------------
// Additions (not frozen by issue 2, but equally stable once released).
// ---------------------------------------------------------------------------------------------

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
        let pos = try_ptr!(read_position(pos));
        // Same layout as `MoveList` (asserted in types.rs).
        let out = try_ptr!(out::<MoveList, ChessMoveList>(out));
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
        pos.generate_moves(legality, gen, pieceTypes, MoveList::init_in(out));
        ChessStatus::CHESS_OK
    })
}

/// Makes `move` without checking it: for moves straight from this position's legal (or
/// pseudo-legal) generator only. Any other value leaves `*pos` in an unspecified state
/// (memory-safe, but no longer a chess position). `CHESS_ERR_HISTORY_FULL` after 1024 moves
/// since setup, as for the checked make, so that every move made can be taken back by the
/// checked unmake too (`chess_compactHistory` lets a long game go on). Debug builds of the
/// library check the position fully and refuse a move the pseudo-legal generator does not
/// produce (`CHESS_ERR_ILLEGAL_MOVE`).
///
/// # Safety
/// `pos` is NULL or points to a `ChessPosition`; `undo` is NULL or valid for writes.
#[no_mangle]
pub unsafe extern "C" fn chess_makeMoveUnchecked(
    pos: *mut ChessPosition,
    r#move: ChessMove,
    undo: *mut ChessUndo,
) -> ChessStatus {
    let m = Move::from_raw(r#move);
    // SAFETY: forwarded caller contract.
    unsafe {
        make_export(pos, undo, false, |p| {
            if cfg!(debug_assertions) && !p.pseudo_legal_moves().contains(m) {
                return Err(MoveError::Illegal);
            }
            history_room(p)?;
            Ok(p.make_move_provable(m))
        })
    }
}

/// Takes back the last move without checking that `move` and `*undo` belong to it. Debug
/// builds of the library refuse (`CHESS_ERR_BAD_UNDO`) a record that would leave the board
/// inconsistent.
///
/// # Safety
/// `pos` is NULL or points to a `ChessPosition`; `undo` is NULL or points to a `ChessUndo`.
#[no_mangle]
pub unsafe extern "C" fn chess_unmakeMoveUnchecked(
    pos: *mut ChessPosition,
    r#move: ChessMove,
    undo: *const ChessUndo,
) -> ChessStatus {
    let m = Move::from_raw(r#move);
    // SAFETY: forwarded caller contract.
    unsafe {
        unmake_export(pos, undo, false, |p, u| {
            // The debug build validates after every unmake: try it on a copy first, so that a
            // wrong record is a status, not a caught panic.
            if cfg!(debug_assertions) && !p.unmake_validates(m, u) {
                return Err(MoveError::BadUndo);
            }
            p.unmake_move_unchecked(m, u);
            Ok(())
        })
    }
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
    // SAFETY: forwarded caller contract.
    unsafe { make_export(pos, undo, true, Position::try_make_null_move) }
}

/// Takes back a null move made by `chess_makeNullMove`. A record that does not belong to the
/// last move, or a last move that was not a null move, is refused with `CHESS_ERR_BAD_UNDO`,
/// proven as in `chess_unmakeMove`.
///
/// # Safety
/// `pos` is NULL or points to a `ChessPosition`; `undo` is NULL or points to a `ChessUndo`.
#[no_mangle]
pub unsafe extern "C" fn chess_unmakeNullMove(
    pos: *mut ChessPosition,
    undo: *const ChessUndo,
) -> ChessStatus {
    // SAFETY: forwarded caller contract.
    unsafe { unmake_export(pos, undo, true, Position::try_unmake_null_move) }
}

/// True when `move` (any 16-bit value) is legal in `*pos`. False for NULL.
///
/// # Safety
/// `pos` is NULL or points to a `ChessPosition`.
#[no_mangle]
pub unsafe extern "C" fn chess_isLegalMove(pos: *const ChessPosition, r#move: ChessMove) -> bool {
    ffi_guard!(false, {
        // SAFETY: the caller's contract for `pos`.
        unsafe { read_position(pos) }.is_ok_and(|p| p.is_legal(Move::from_raw(r#move)))
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
        let pos = try_ptr!(read_position(pos));
        let out = try_ptr!(out::<ChessMove, ChessMove>(out));
        out.write(check!(pos.move_from_micro(MicroMove(micro))).raw());
        ChessStatus::CHESS_OK
    })
}

/// The micro move (origin, target, promotion type) of `move`.
#[no_mangle]
pub extern "C" fn chess_moveToMicro(r#move: ChessMove) -> u16 {
    Move::from_raw(r#move).to_micro().0
}

/// The body of the four makes: the record slot, the position (fully checked when `trusted`,
/// else as the unchecked twins take it, see `guard`), the make, and the record written only
/// on success.
///
/// # Safety
/// `pos` is NULL or points to a `ChessPosition`; `undo` is NULL or valid for writes.
unsafe fn make_export(
    pos: *mut ChessPosition,
    undo: *mut ChessUndo,
    trusted: bool,
    make: impl FnOnce(&mut Position) -> Result<Undo, MoveError>,
) -> ChessStatus {
    ffi_guard!({
        let undo = try_ptr!(out::<ChessUndo, ChessUndo>(undo));
        let pos = if trusted {
            try_ptr!(trusted_position_mut(pos))
        } else {
            try_ptr!(unchecked_position_mut(pos))
        };
        undo.write(ChessUndo::from_undo(check!(make(pos))));
        ChessStatus::CHESS_OK
    })
}

/// The body of the four unmakes, as [`make_export`].
///
/// # Safety
/// `pos` is NULL or points to a `ChessPosition`; `undo` is NULL or points to a `ChessUndo`.
unsafe fn unmake_export(
    pos: *mut ChessPosition,
    undo: *const ChessUndo,
    trusted: bool,
    unmake: impl FnOnce(&mut Position, &Undo) -> Result<(), MoveError>,
) -> ChessStatus {
    ffi_guard!({
        let undo = try_ptr!(input::<Undo, ChessUndo>(undo));
        let pos = if trusted {
            try_ptr!(trusted_position_mut(pos))
        } else {
            try_ptr!(unchecked_position_mut(pos))
        };
        check!(unmake(pos, undo));
        ChessStatus::CHESS_OK
    })
}

/// `CHESS_ERR_HISTORY_FULL` when `pos` holds as many moves as its history can.
fn history_room(pos: &Position) -> Result<(), MoveError> {
    if pos.ply_count() as usize >= HISTORY_CAPACITY {
        Err(MoveError::HistoryFull)
    } else {
        Ok(())
    }
}
