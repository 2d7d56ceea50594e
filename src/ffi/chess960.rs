//! Chess960 (`position::chess960`), move events (`position::events`) and why a move is
//! illegal (`position::illegal`) for C: marshalling only.

#![allow(non_camel_case_types)]

use super::guard::{check, ffi_guard, read_position, try_ptr};
use super::position::{set_from_text, write_position};
use super::text::{position_text, write_text};
use super::{ChessMove, ChessPosition, ChessStatus, CHESS_FEN_MAX};
use crate::moves::Move;
use crate::position::events::{MoveEventKind, MAX_MOVE_EVENTS};
use crate::position::illegal::IllegalReason;
use crate::position::Position;
use crate::types::{PieceType, Square};
use core::ffi::c_char;

/// The most events one move gives: an array of this many `ChessMoveEvent`s always suffices.
pub const CHESS_MOVE_EVENTS_MAX: usize = 4;
const _: () = assert!(CHESS_MOVE_EVENTS_MAX == MAX_MOVE_EVENTS);

/// Move event kind: the moving piece goes `from` → `to` (in a castle the king; in Chess960
/// it may stay, `from == to`).
pub const CHESS_EVENT_MOVE: u8 = 1;
const _: () = assert!(CHESS_EVENT_MOVE == MoveEventKind::Move as u8);
/// Move event kind: the captured piece leaves the board from `from` (`== to`; en passant: the
/// captured pawn's own square).
pub const CHESS_EVENT_CAPTURE: u8 = 2;
const _: () = assert!(CHESS_EVENT_CAPTURE == MoveEventKind::Capture as u8);
/// Move event kind: the castling rook goes `from` → `to`.
pub const CHESS_EVENT_CASTLE_ROOK: u8 = 3;
const _: () = assert!(CHESS_EVENT_CASTLE_ROOK == MoveEventKind::CastleRook as u8);
/// Move event kind: the pawn on `to` becomes `piece`.
pub const CHESS_EVENT_PROMOTE: u8 = 4;
const _: () = assert!(CHESS_EVENT_PROMOTE == MoveEventKind::Promote as u8);

/// One thing a move does on the board (see `chess_moveEvents`).
#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct ChessMoveEvent {
    /// `CHESS_EVENT_MOVE`, `CHESS_EVENT_CAPTURE`, `CHESS_EVENT_CASTLE_ROOK` or
    /// `CHESS_EVENT_PROMOTE`.
    pub kind: u8,
    /// The piece (`color << 3 | type`; for a promotion the new piece).
    pub piece: u8,
    /// Its square before the event (0..63).
    pub from: u8,
    /// Its square after the event (0..63).
    pub to: u8,
}

/// Why a move is illegal, or that it is legal (`chess_checkMove`). The numbers never change;
/// `chess_illegalReasonMessage` gives a sentence for each.
#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ChessIllegalReason {
    /// The move is legal.
    CHESS_MOVE_LEGAL = 0,
    /// No piece stands on the origin square.
    CHESS_ILLEGAL_NO_PIECE = 1,
    /// The piece on the origin belongs to the side not to move.
    CHESS_ILLEGAL_NOT_YOUR_PIECE = 2,
    /// The piece does not move that way (or origin equals target).
    CHESS_ILLEGAL_WRONG_GEOMETRY = 3,
    /// A piece stands in the way (the square names the first one).
    CHESS_ILLEGAL_PATH_BLOCKED = 4,
    /// An own piece stands on the target.
    CHESS_ILLEGAL_OWN_PIECE_ON_TARGET = 5,
    /// A pawn cannot move straight ahead onto an occupied square.
    CHESS_ILLEGAL_PAWN_FORWARD_BLOCKED = 6,
    /// A pawn moves diagonally only to capture.
    CHESS_ILLEGAL_PAWN_CAPTURE_NOTHING = 7,
    /// En passant only right after the double step of the pawn beside.
    CHESS_ILLEGAL_EN_PASSANT_NOT_AVAILABLE = 8,
    /// A pawn reaching the last rank must name its promotion piece.
    CHESS_ILLEGAL_PROMOTION_MISSING = 9,
    /// Promotion given for a move that is none, or to a pawn or king.
    CHESS_ILLEGAL_PROMOTION_NOT_ALLOWED = 10,
    /// The castling right on that side is gone.
    CHESS_ILLEGAL_CASTLING_NO_RIGHT = 11,
    /// Castling out of check (the square names a checker).
    CHESS_ILLEGAL_CASTLING_OUT_OF_CHECK = 12,
    /// Castling across an attacked square (the square names an attacker).
    CHESS_ILLEGAL_CASTLING_THROUGH_CHECK = 13,
    /// The move leaves the own king in check (the square names a checking piece).
    CHESS_ILLEGAL_KING_LEFT_IN_CHECK = 14,
}

impl ChessIllegalReason {
    fn from_core(r: IllegalReason) -> ChessIllegalReason {
        use ChessIllegalReason::*;
        match r {
            IllegalReason::Legal => CHESS_MOVE_LEGAL,
            IllegalReason::NoPiece => CHESS_ILLEGAL_NO_PIECE,
            IllegalReason::NotYourPiece => CHESS_ILLEGAL_NOT_YOUR_PIECE,
            IllegalReason::WrongGeometry => CHESS_ILLEGAL_WRONG_GEOMETRY,
            IllegalReason::PathBlocked => CHESS_ILLEGAL_PATH_BLOCKED,
            IllegalReason::OwnPieceOnTarget => CHESS_ILLEGAL_OWN_PIECE_ON_TARGET,
            IllegalReason::PawnForwardBlocked => CHESS_ILLEGAL_PAWN_FORWARD_BLOCKED,
            IllegalReason::PawnCaptureNothing => CHESS_ILLEGAL_PAWN_CAPTURE_NOTHING,
            IllegalReason::EnPassantNotAvailable => CHESS_ILLEGAL_EN_PASSANT_NOT_AVAILABLE,
            IllegalReason::PromotionMissing => CHESS_ILLEGAL_PROMOTION_MISSING,
            IllegalReason::PromotionNotAllowed => CHESS_ILLEGAL_PROMOTION_NOT_ALLOWED,
            IllegalReason::CastlingNoRight => CHESS_ILLEGAL_CASTLING_NO_RIGHT,
            IllegalReason::CastlingOutOfCheck => CHESS_ILLEGAL_CASTLING_OUT_OF_CHECK,
            IllegalReason::CastlingThroughCheck => CHESS_ILLEGAL_CASTLING_THROUGH_CHECK,
            IllegalReason::KingLeftInCheck => CHESS_ILLEGAL_KING_LEFT_IN_CHECK,
        }
    }
}

/// Sets `*pos` from a Chess960 FEN (X-FEN or Shredder-FEN castling field: `KQkq` for the
/// outermost rooks, or the rooks' file letters `A`-`H`/`a`-`h`); the position is in Chess960
/// mode (`chess_toFEN` writes X-FEN, castling in UCI is the king taking its rook). Otherwise
/// as strict as `chess_setFromFEN`; on error `*pos` is left as it was.
///
/// # Safety
/// `pos` is NULL or valid for writes of a `ChessPosition`; `fen` is NULL or a NUL-terminated
/// string.
#[no_mangle]
pub unsafe extern "C" fn chess_setFromFEN960(
    pos: *mut ChessPosition,
    fen: *const c_char,
) -> ChessStatus {
    // SAFETY: forwarded caller contract.
    ffi_guard!({ unsafe { set_from_text(pos, fen, Position::from_fen_960) } })
}

/// Sets `*pos` to Chess960 starting position `number` (0..959, the standard numbering; 518 is
/// the standard start), in Chess960 mode. `CHESS_ERR_INVALID_ARGUMENT` for a number past 959.
///
/// # Safety
/// `pos` is NULL or valid for writes of a `ChessPosition`.
#[no_mangle]
pub unsafe extern "C" fn chess_setChess960Start(
    pos: *mut ChessPosition,
    number: u32,
) -> ChessStatus {
    ffi_guard!({
        if pos.is_null() {
            return ChessStatus::CHESS_ERR_NULL_ARGUMENT;
        }
        let Some(start) = u16::try_from(number)
            .ok()
            .and_then(Position::chess960_start)
        else {
            return ChessStatus::CHESS_ERR_INVALID_ARGUMENT;
        };
        // SAFETY: `pos` is non-NULL and valid for writes by the caller's contract.
        unsafe { write_position(pos, &start) };
        ChessStatus::CHESS_OK
    })
}

/// Turns Chess960 mode on or off (only text changes: FEN castling fields and castling in UCI).
/// Turning it off needs the standard castling setup for every right the position has, else
/// `CHESS_ERR_FEN_CASTLING_RIGHTS` and `*pos` is unchanged.
///
/// # Safety
/// `pos` is NULL or points to a `ChessPosition`.
#[no_mangle]
pub unsafe extern "C" fn chess_setChess960(pos: *mut ChessPosition, on: bool) -> ChessStatus {
    ffi_guard!({
        // The trusted form (the full check): the call changes the caller's position.
        let pos = try_ptr!(trusted_position_mut(pos));
        check!(pos.set_chess960(on));
        ChessStatus::CHESS_OK
    })
}

/// True when `*pos` is in Chess960 mode; false for standard mode and for NULL or invalid
/// positions.
///
/// # Safety
/// `pos` is NULL or points to a `ChessPosition`.
#[no_mangle]
pub unsafe extern "C" fn chess_isChess960(pos: *const ChessPosition) -> bool {
    ffi_guard!(false, {
        // SAFETY: the caller's contract for `pos`.
        unsafe { read_position(pos) }.is_ok_and(Position::is_chess960)
    })
}

/// Writes the FEN of `*pos` with a Shredder-FEN castling field (the rooks' file letters,
/// `HAha` for the standard setup) and a NUL into `buf[0..len]` (`CHESS_FEN_MAX` bytes
/// suffice), whatever the mode.
///
/// # Safety
/// `pos` is NULL or points to a `ChessPosition`; `buf` is NULL or valid for `len` bytes.
#[no_mangle]
pub unsafe extern "C" fn chess_toShredderFEN(
    pos: *const ChessPosition,
    buf: *mut c_char,
    len: usize,
) -> ChessStatus {
    // SAFETY: forwarded caller contract.
    unsafe { position_text::<CHESS_FEN_MAX>(pos, buf, len, Position::write_shredder_fen) }
}

/// Writes the UCI text of `move`, a legal move of `*pos`, in the position's mode (castling as
/// `e1g1`, in Chess960 mode as the king taking its rook, `e1h1`) and a NUL into `buf[0..len]`
/// (6 bytes suffice). `CHESS_ERR_ILLEGAL_MOVE` when `move` is not legal in `*pos`.
///
/// # Safety
/// `pos` is NULL or points to a `ChessPosition`; `buf` is NULL or valid for `len` bytes.
#[no_mangle]
pub unsafe extern "C" fn chess_moveToUciInPosition(
    pos: *const ChessPosition,
    r#move: ChessMove,
    buf: *mut c_char,
    len: usize,
) -> ChessStatus {
    ffi_guard!({
        let pos = try_ptr!(read_position(pos));
        let m = Move::from_raw(r#move);
        if !pos.is_legal(m) {
            return ChessStatus::CHESS_ERR_ILLEGAL_MOVE;
        }
        let mut text = [0u8; 5];
        let n = pos.write_uci_move(m, &mut text);
        let uci = core::str::from_utf8(&text[..n]).unwrap_or("");
        // SAFETY: the caller's contract for `buf`.
        unsafe { write_text::<5>(buf, len, |t| core::fmt::Write::write_str(t, uci)) }
    })
}

/// Writes the board events of `move`, a legal move of `*pos`, in order into
/// `events[0..*count]` (room for `capacity`; `CHESS_MOVE_EVENTS_MAX` always suffices): the
/// moving piece (`CHESS_EVENT_MOVE`), the captured piece at its real square
/// (`CHESS_EVENT_CAPTURE`), the castling rook (`CHESS_EVENT_CASTLE_ROOK`), the promotion
/// (`CHESS_EVENT_PROMOTE`). The events of one move happen together: to apply them, lift every
/// `from` piece of the move, capture and rook events first, then put the move and rook pieces
/// on their `to` squares, then promote (in Chess960 king and rook may swap squares).
/// `CHESS_ERR_ILLEGAL_MOVE` for a move that is not legal, `CHESS_ERR_BUFFER_TOO_SMALL` when
/// `capacity` is short; nothing is written on error.
///
/// # Safety
/// `pos` is NULL or points to a `ChessPosition`; `events` is NULL or valid for writes of
/// `capacity` events; `count` is NULL or valid for writes.
#[no_mangle]
pub unsafe extern "C" fn chess_moveEvents(
    pos: *const ChessPosition,
    r#move: ChessMove,
    events: *mut ChessMoveEvent,
    capacity: usize,
    count: *mut usize,
) -> ChessStatus {
    ffi_guard!({
        let pos = try_ptr!(read_position(pos));
        if events.is_null() {
            return ChessStatus::CHESS_ERR_NULL_ARGUMENT;
        }
        let count = try_ptr!(out::<usize, usize>(count));
        let ev = match pos.move_events(Move::from_raw(r#move)) {
            Ok(ev) => ev,
            Err(e) => return ChessStatus::from(e),
        };
        let list = ev.as_slice();
        let slots = try_ptr!(out_array(events, capacity, list.len()));
        for (slot, e) in slots.iter_mut().zip(list) {
            slot.write(ChessMoveEvent {
                kind: e.kind as u8,
                piece: e.piece.to_u8(),
                from: e.from.to_u8(),
                to: e.to.to_u8(),
            });
        }
        count.write(list.len());
        ChessStatus::CHESS_OK
    })
}

/// Why moving `from` → `to` (squares 0..63) with promotion piece type `promotion` (0 none,
/// 2..5 knight..queen; 1 and 6 are refused as `CHESS_ILLEGAL_PROMOTION_NOT_ALLOWED`) is
/// illegal in `*pos`, or `CHESS_MOVE_LEGAL`: the first rule broken, in the order no piece, not
/// yours, castling, geometry, path, own piece on target, pawn rules, promotion, king safety.
/// `*square` gets the square the reason names (checking or attacking piece, first blocker) or
/// 64 for none. Castling is the king's move to g/c (in Chess960 mode, onto its own rook).
/// Cheap: no move generation. `CHESS_ERR_INVALID_ARGUMENT` for a square past 63 or a
/// promotion past 6; nothing is written on error.
///
/// # Safety
/// `pos` is NULL or points to a `ChessPosition`; `reason` and `square` are NULL or valid for
/// writes.
#[no_mangle]
pub unsafe extern "C" fn chess_checkMove(
    pos: *const ChessPosition,
    from: u8,
    to: u8,
    promotion: u8,
    reason: *mut ChessIllegalReason,
    square: *mut u8,
) -> ChessStatus {
    ffi_guard!({
        let pos = try_ptr!(read_position(pos));
        let reason = try_ptr!(out::<ChessIllegalReason, ChessIllegalReason>(reason));
        let square = try_ptr!(out::<u8, u8>(square));
        let (Some(from), Some(to)) = (Square::new(from), Square::new(to)) else {
            return ChessStatus::CHESS_ERR_INVALID_ARGUMENT;
        };
        let promo = match promotion {
            0 => PieceType::NONE,
            p => match PieceType::new(p) {
                Some(t) => t,
                None => return ChessStatus::CHESS_ERR_INVALID_ARGUMENT,
            },
        };
        let c = pos.check_move(from, to, promo);
        reason.write(ChessIllegalReason::from_core(c.reason));
        square.write(c.square.map_or(64, Square::to_u8));
        ChessStatus::CHESS_OK
    })
}

/// An English sentence for an illegal-move reason (`ChessIllegalReason` value; never NULL,
/// unknown values get a sentence saying so). Static: do not free it.
#[no_mangle]
pub extern "C" fn chess_illegalReasonMessage(reason: core::ffi::c_int) -> *const c_char {
    u8::try_from(reason)
        .ok()
        .and_then(|r| IllegalReason::ALL.get(r as usize))
        .map_or(c"unknown illegal-move reason", |r| r.message_c())
        .as_ptr()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn c_reasons_have_the_core_numbers() {
        for r in IllegalReason::ALL {
            assert_eq!(ChessIllegalReason::from_core(r) as u8, r as u8);
        }
    }
}
