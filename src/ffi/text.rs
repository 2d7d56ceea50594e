//! Text out of the library: FEN, UCI moves, pictures of boards and bitboards, versions. Every
//! text goes into a caller buffer with a terminating NUL, or nothing is written.

use super::guard::{check, ffi_guard, try_ptr};
use super::{
    ChessMove, ChessPosition, ChessStatus, CHESS_BITBOARD_TEXT_SIZE, CHESS_FEN_MAX,
    CHESS_POSITION_TEXT_SIZE,
};
use crate::bitboard::Bitboard;
use crate::moves::Move;
use crate::position::Position;
use core::ffi::c_char;

/// A `fmt::Write` into a fixed stack buffer (no heap); fails when full.
pub(crate) struct StackText<const N: usize> {
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

/// Writes what `write` produces, and a NUL, into the caller's `buf[0..len]`; nothing on
/// error (`CHESS_ERR_BUFFER_TOO_SMALL`; `CHESS_ERR_INTERNAL` if the text outgrew `N`, a bug).
///
/// # Safety
/// `buf` is NULL or valid for writes of `len` bytes.
pub(crate) unsafe fn write_text<const N: usize>(
    buf: *mut c_char,
    len: usize,
    write: impl FnOnce(&mut StackText<N>) -> core::fmt::Result,
) -> ChessStatus {
    let mut text = StackText::<N>::new();
    if write(&mut text).is_err() {
        return ChessStatus::CHESS_ERR_INTERNAL;
    }
    let bytes = &text.buf[..text.len];
    let out = try_ptr!(text_buffer(buf, len, bytes.len() + 1));
    // SAFETY: `out` holds at least `bytes.len() + 1` bytes (checked by `text_buffer`) and lies
    // in the caller's memory, apart from `bytes`. One `memcpy`, so that AddressSanitizer in a
    // C program sees the whole write even though this library is not instrumented.
    unsafe {
        core::ptr::copy_nonoverlapping(bytes.as_ptr(), out.as_mut_ptr() as *mut u8, bytes.len())
    };
    out[bytes.len()].write(0);
    ChessStatus::CHESS_OK
}

/// The body of the texts of a position: [`write_text`] of what `write` makes of `*pos`.
///
/// # Safety
/// `pos` is NULL or points to a `ChessPosition`; `buf` is NULL or valid for `len` bytes.
pub(crate) unsafe fn position_text<const N: usize>(
    pos: *const ChessPosition,
    buf: *mut c_char,
    len: usize,
    write: fn(&Position, &mut StackText<N>) -> core::fmt::Result,
) -> ChessStatus {
    ffi_guard!({
        let pos = try_ptr!(read_position(pos));
        // SAFETY: the caller's contract for `buf`.
        unsafe { write_text::<N>(buf, len, |t| write(pos, t)) }
    })
}

// ---------------------------------------------------------------------------------------------
// Frozen API (issue 2): these signatures never change.
// ---------------------------------------------------------------------------------------------

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
    // SAFETY: forwarded caller contract.
    unsafe { position_text::<CHESS_FEN_MAX>(pos, buf, len, Position::write_fen) }
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
        let pos = try_ptr!(read_position(pos));
        let text = try_ptr!(c_str(uci));
        let out = try_ptr!(out::<ChessMove, ChessMove>(out));
        out.write(check!(pos.parse_uci_move(text)).raw());
        ChessStatus::CHESS_OK
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
        let uci = core::str::from_utf8(&text[..n]).unwrap_or("");
        // SAFETY: the caller's contract for `buf`.
        unsafe { write_text::<5>(buf, len, |t| core::fmt::Write::write_str(t, uci)) }
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

// ---------------------------------------------------------------------------------------------
// Additions (not frozen by issue 2, but equally stable once released).
// ---------------------------------------------------------------------------------------------

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
        // SAFETY: the caller's contract for `buf`.
        unsafe { write_text::<CHESS_BITBOARD_TEXT_SIZE>(buf, len, |t| Bitboard(bb).write_grid(t)) }
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
    // SAFETY: forwarded caller contract.
    unsafe { position_text::<CHESS_POSITION_TEXT_SIZE>(pos, buf, len, Position::write_pretty) }
}

/// Prints the picture of `chess_positionToText` to standard output.
///
/// # Safety
/// `pos` is NULL or points to a `ChessPosition`.
#[no_mangle]
pub unsafe extern "C" fn chess_printPosition(pos: *const ChessPosition) -> ChessStatus {
    ffi_guard!({
        use std::io::Write as _;
        let pos = try_ptr!(read_position(pos));
        let mut out = std::io::stdout().lock();
        // A closed stdout is not an error of the position: ignored, as in chess_printBitboard.
        let _ = write!(out, "{pos}");
        let _ = out.flush();
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
