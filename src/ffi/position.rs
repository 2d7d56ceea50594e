//! Setting up positions, and reading them: getters, check, repetition, game status, and the
//! explicit validation and history compaction.

use super::guard::{check, ffi_guard, read_position, try_ptr};
use super::{ChessGameStatus, ChessPosition, ChessStatus};
use crate::position::{FenError, GameStatus, Position};
use crate::types::{Color, PieceType, Square};
use core::ffi::c_char;
use core::mem::size_of;

/// Writes `pos` into caller storage that may be uninitialised: every byte of the
/// `ChessPosition`, the tail past the position zeroed.
///
/// # Safety
/// `p` is non-NULL and valid for writes of a `ChessPosition`.
pub(crate) unsafe fn write_position(p: *mut ChessPosition, pos: &Position) {
    let dst = p as *mut u8;
    // SAFETY: `p` is valid for `size_of::<ChessPosition>()` bytes, which is at least
    // `size_of::<Position>()` (asserted in types.rs); `pos` lives in this library's memory, so
    // the two do not overlap; a position has no implicit padding, so every byte copied is
    // initialised.
    unsafe {
        core::ptr::copy_nonoverlapping(
            pos as *const Position as *const u8,
            dst,
            size_of::<Position>(),
        );
        core::ptr::write_bytes(
            dst.add(size_of::<Position>()),
            0,
            size_of::<ChessPosition>() - size_of::<Position>(),
        );
    }
}

/// The body of every FEN setter (`chess_setFromFEN`, `chess_setFromFENLenient`,
/// `chess_setFromFEN960`): the NULL checks, the text, `parse`, and `*pos` written whole only
/// on success.
///
/// # Safety
/// `pos` is NULL or valid for writes of a `ChessPosition`; `fen` is NULL or a NUL-terminated
/// string.
pub(super) unsafe fn set_from_text(
    pos: *mut ChessPosition,
    fen: *const c_char,
    parse: fn(&str) -> Result<Position, FenError>,
) -> ChessStatus {
    if pos.is_null() {
        return ChessStatus::CHESS_ERR_NULL_ARGUMENT;
    }
    let text = try_ptr!(c_str(fen));
    let parsed = check!(parse(text));
    // SAFETY: `pos` is non-NULL and valid for writes by the caller's contract.
    unsafe { write_position(pos, &parsed) };
    ChessStatus::CHESS_OK
}

// ---------------------------------------------------------------------------------------------
// Frozen API (issue 2): these signatures never change.
// ---------------------------------------------------------------------------------------------

/// Sets `*pos` from a FEN string (strict: 6 fields, or 4 with clocks 0 and 1). `*pos` may be
/// uninitialised; every one of its bytes is written. On error `*pos` is left exactly as it was
/// and the status names the defect (`CHESS_ERR_FEN_*`; `CHESS_ERR_INVALID_ARGUMENT` for text
/// that is not UTF-8).
///
/// # Safety
/// `pos` is NULL or valid for writes of a `ChessPosition`; `fen` is NULL or a NUL-terminated
/// string.
#[no_mangle]
pub unsafe extern "C" fn chess_setFromFEN(
    pos: *mut ChessPosition,
    fen: *const c_char,
) -> ChessStatus {
    // SAFETY: forwarded caller contract.
    ffi_guard!({ unsafe { set_from_text(pos, fen, Position::from_fen) } })
}

/// True when the current position occurred twice before (three times in all), looking back
/// only to the last capture or pawn move and at most `plyLimit` plies. False for NULL.
///
/// # Safety
/// `pos` is NULL or points to a `ChessPosition`.
#[no_mangle]
pub unsafe extern "C" fn chess_isRepetition(pos: *const ChessPosition, plyLimit: i32) -> bool {
    // SAFETY: forwarded caller contract.
    ffi_guard!(false, {
        unsafe { getter(pos, false, |p| p.is_repetition(plyLimit)) }
    })
}

// ---------------------------------------------------------------------------------------------
// Additions (not frozen by issue 2, but equally stable once released).
// ---------------------------------------------------------------------------------------------

/// Sets `*pos` from FEN text read leniently, as python-chess's `chess.Board(fen)` reads it
/// (see `Position::from_fen_lenient`): fields separated by any white space, missing trailing
/// fields defaulted, a fullmove number of 0 read as 1, castling rights without their king or
/// rook and en passant squares no capture can use dropped. Positions no game can reach (kings,
/// back-rank pawns, material, checks) are still refused. `*pos` may be uninitialised; every
/// one of its bytes is written. On error `*pos` is left exactly as it was and the status names
/// the defect (`CHESS_ERR_FEN_*`; `CHESS_ERR_INVALID_ARGUMENT` for text that is not UTF-8).
///
/// # Safety
/// `pos` is NULL or valid for writes of a `ChessPosition`; `fen` is NULL or a NUL-terminated
/// string.
#[no_mangle]
pub unsafe extern "C" fn chess_setFromFENLenient(
    pos: *mut ChessPosition,
    fen: *const c_char,
) -> ChessStatus {
    // SAFETY: forwarded caller contract.
    ffi_guard!({ unsafe { set_from_text(pos, fen, Position::from_fen_lenient) } })
}

/// Sets `*pos` to the standard starting position. `*pos` may be uninitialised; every one of
/// its bytes is written.
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
        unsafe { write_position(pos, &Position::startpos()) };
        ChessStatus::CHESS_OK
    })
}

/// Checks `*pos` completely: `CHESS_OK` when its bytes are a position the library wrote and a
/// game can reach (board, state, hashes and setup tables consistent, and every rule
/// `chess_setFromFEN` enforces), else `CHESS_ERR_INVALID_POSITION`. The calls that change a
/// position (checked make and unmake, null moves, perft) run this check themselves; the
/// read-only calls and the unchecked twins run only a cheap one that keeps them memory-safe
/// (see docs/abi.md). Use it on bytes from a file or another process.
///
/// # Safety
/// `pos` is NULL or points to a `ChessPosition`.
#[no_mangle]
pub unsafe extern "C" fn chess_validatePosition(pos: *const ChessPosition) -> ChessStatus {
    ffi_guard!({
        try_ptr!(trusted_position(pos));
        ChessStatus::CHESS_OK
    })
}

/// Keeps only the history a repetition can still reach (the moves since the last capture or
/// pawn move), so a game driver can play on past the 1024 moves the history holds. Moves made
/// before the call can no longer be taken back with the checked `chess_unmakeMove`.
///
/// # Safety
/// `pos` is NULL or points to a `ChessPosition`.
#[no_mangle]
pub unsafe extern "C" fn chess_compactHistory(pos: *mut ChessPosition) -> ChessStatus {
    ffi_guard!({
        try_ptr!(trusted_position_mut(pos)).compact_history();
        ChessStatus::CHESS_OK
    })
}

/// True when the side to move is in check. False for NULL.
///
/// # Safety
/// `pos` is NULL or points to a `ChessPosition`.
#[no_mangle]
pub unsafe extern "C" fn chess_isInCheck(pos: *const ChessPosition) -> bool {
    // SAFETY: forwarded caller contract.
    ffi_guard!(false, { unsafe { getter(pos, false, Position::in_check) } })
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
        let pos = try_ptr!(read_position(pos));
        let out = try_ptr!(out::<ChessGameStatus, ChessGameStatus>(out));
        out.write(match pos.status() {
            GameStatus::Ongoing => ChessGameStatus::CHESS_ONGOING,
            GameStatus::Checkmate => ChessGameStatus::CHESS_CHECKMATE,
            GameStatus::Stalemate => ChessGameStatus::CHESS_STALEMATE,
            GameStatus::FiftyMoveRule => ChessGameStatus::CHESS_FIFTY_MOVE_RULE,
            GameStatus::ThreefoldRepetition => ChessGameStatus::CHESS_THREEFOLD_REPETITION,
            GameStatus::InsufficientMaterial => ChessGameStatus::CHESS_INSUFFICIENT_MATERIAL,
        });
        ChessStatus::CHESS_OK
    })
}

/// Reads one field of a position, or `fallback` for NULL or a position that fails the check.
///
/// # Safety
/// `pos` is NULL or points to a `ChessPosition`.
unsafe fn getter<T>(pos: *const ChessPosition, fallback: T, f: impl FnOnce(&Position) -> T) -> T {
    // SAFETY: forwarded caller contract.
    match unsafe { read_position(pos) } {
        Ok(p) => f(p),
        Err(_) => fallback,
    }
}

/// Zobrist hash of the position (pieces, side to move, castling rights, en passant file when
/// a legal en passant capture exists: equal positions hash equal). The same on every run and
/// machine. 0 for NULL.
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
        let Some(sq) = square_or_none(square) else {
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
        let kind = PieceType::new(r#type as u8).unwrap_or(PieceType::NONE);
        // SAFETY: forwarded caller contract.
        unsafe {
            getter(pos, 0, |p| {
                if r#type == 0 {
                    p.color_pieces(c).0
                } else {
                    p.pieces(c, kind).0
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

/// En passant target square (0..63) after a double pawn push (set after every double push, as
/// FEN writes it, whether or not a capture there is possible), -1 for none or NULL.
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
        let Some(sq) = square_or_none(square) else {
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

/// The square with index `square`, or `None` when it is out of range.
pub(crate) fn square_or_none(square: u32) -> Option<Square> {
    u8::try_from(square).ok().and_then(Square::new)
}
