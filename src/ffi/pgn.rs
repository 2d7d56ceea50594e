//! SAN and PGN through C: a move to SAN text and back ([`crate::position::san`]), and PGN
//! games ([`crate::pgn`]) as two opaque handles.
//!
//! Design: a `ChessPgnGame` handle holds one game (tags, starting position, moves with their
//! comments and NAGs, result); it is filled by a `ChessPgnReader` (one game per
//! `chess_pgnReaderNext`) or built by the caller (`chess_pgnGameNew`, `chess_pgnGameSetTag`,
//! `chess_pgnGamePushMove`, ...), and written back with `chess_pgnGameWrite`. One game type for
//! reading and writing means one set of getters, and a read game can be changed and written.
//! The reader copies the caller's buffer when it is made, so the caller may free its buffer at
//! once; it reads lazily, one game per call. Strings go out into caller buffers with a NUL
//! (`CHESS_ERR_BUFFER_TOO_SMALL` writes nothing); `chess_pgnGameWrite` also says the size it
//! needs, so a caller can size its buffer in two calls.
//!
//! Null moves (`--`, `Z0`, `0000`, `@@@@` in PGN) are the move value `CHESS_PGN_NULL_MOVE`
//! (0, never a move) in a game: `chess_pgnGameMoves` gives it, `chess_pgnGamePushMove` and
//! `chess_pgnGamePushSan` ("--") take it, `chess_pgnGameWrite` writes `--`. A malformed game
//! keeps its status from `chess_pgnReaderNext` (the game handle untouched, as before); what was
//! read of it up to the error is there for `chess_pgnReaderPartialGame` until the next call.

use super::guard::{check, ffi_guard, try_ptr};
use super::position::write_position;
use super::{ChessMove, ChessPosition, ChessStatus};
use crate::moves::Move;
use crate::pgn::{Game, PgnErrorKind, PgnReader};
use crate::position::{SanError, SanMode};
use core::ffi::c_char;

/// A buffer of this size always holds a SAN written by `chess_moveToSan` (7 characters and the
/// NUL).
pub const CHESS_SAN_MAX: usize = 8;
const _: () = assert!(CHESS_SAN_MAX == crate::position::SAN_MAX + 1);
/// `chess_moveFromSan` mode: exactly the standard SAN `chess_moveToSan` writes.
pub const CHESS_SAN_STRICT: u32 = 0;
/// `chess_moveFromSan` mode: also missing or extra `+`/`#`, annotations `!?`, `0-0`, lower-case
/// piece letters, long algebraic (`e2e4`, `Ng1-f3`), `e8Q`.
pub const CHESS_SAN_TOLERANT: u32 = 1;

/// A PGN game: tags, starting position, main line with comments and NAGs, result. Opaque;
/// made by `chess_pgnGameNew`, freed by `chess_pgnGameFree`. Not shared between threads
/// without a lock.
pub struct ChessPgnGame {
    game: Game,
}

/// A reader over a PGN database in memory. Opaque; made by `chess_pgnReaderNew`, freed by
/// `chess_pgnReaderFree`.
pub struct ChessPgnReader {
    reader: PgnReader<std::io::Cursor<Vec<u8>>>,
    /// The partial game of the malformed game the last `chess_pgnReaderNext` reported, and the
    /// line where its text starts.
    partial: Option<(Box<Game>, usize)>,
}

/// The move value of a null move (the turn passes; `--`, `Z0`, `0000` or `@@@@` in PGN) in a
/// PGN game: what `chess_pgnGameMoves` gives for one and `chess_pgnGamePushMove` takes. It is
/// 0, which is never a move (as `chess_moveToUci` refuses it, write it as `0000` yourself).
pub const CHESS_PGN_NULL_MOVE: ChessMove = 0;
const _: () = assert!(CHESS_PGN_NULL_MOVE == Move::NONE.raw());

impl From<SanError> for ChessStatus {
    fn from(e: SanError) -> ChessStatus {
        match e {
            SanError::Syntax => ChessStatus::CHESS_ERR_SAN_SYNTAX,
            SanError::Illegal => ChessStatus::CHESS_ERR_SAN_ILLEGAL,
            SanError::Ambiguous => ChessStatus::CHESS_ERR_SAN_AMBIGUOUS,
        }
    }
}

impl From<&PgnErrorKind> for ChessStatus {
    fn from(e: &PgnErrorKind) -> ChessStatus {
        match e {
            PgnErrorKind::Tag => ChessStatus::CHESS_ERR_PGN_TAG,
            PgnErrorKind::Fen(_) => ChessStatus::CHESS_ERR_PGN_FEN,
            PgnErrorKind::UnsupportedVariant => ChessStatus::CHESS_ERR_PGN_VARIANT,
            PgnErrorKind::Token(_) => ChessStatus::CHESS_ERR_PGN_TOKEN,
            PgnErrorKind::Move { error, .. } => ChessStatus::from(*error),
            PgnErrorKind::Unterminated => ChessStatus::CHESS_ERR_PGN_UNTERMINATED,
            PgnErrorKind::UnbalancedParenthesis => ChessStatus::CHESS_ERR_PGN_PARENTHESIS,
            PgnErrorKind::NoGame => ChessStatus::CHESS_ERR_PGN_NO_GAME,
            // Reading from memory cannot fail.
            PgnErrorKind::Io(_) => ChessStatus::CHESS_ERR_INTERNAL,
        }
    }
}

/// Copies `text` and a NUL into the caller's `buf[0..len]`, or nothing.
///
/// # Safety
/// `buf` is NULL or valid for writes of `len` bytes.
unsafe fn copy_text(buf: *mut c_char, len: usize, text: &str) -> ChessStatus {
    let bytes = text.as_bytes();
    let out = try_ptr!(text_buffer(buf, len, bytes.len() + 1));
    // SAFETY: `out` holds at least `bytes.len() + 1` bytes (checked by `text_buffer`) in the
    // caller's memory, apart from `bytes`. One copy, as in text.rs, for AddressSanitizer.
    unsafe {
        core::ptr::copy_nonoverlapping(bytes.as_ptr(), out.as_mut_ptr() as *mut u8, bytes.len())
    };
    out[bytes.len()].write(0);
    ChessStatus::CHESS_OK
}

/// # Safety
/// `p` is NULL or a live `ChessPgnGame` from `chess_pgnGameNew`, not used by another thread.
unsafe fn game_mut<'a>(p: *mut ChessPgnGame) -> Result<&'a mut Game, ChessStatus> {
    // SAFETY: the caller's contract.
    unsafe { p.as_mut() }
        .map(|g| &mut g.game)
        .ok_or(ChessStatus::CHESS_ERR_NULL_ARGUMENT)
}

/// # Safety
/// As [`game_mut`], for reads.
unsafe fn game_ref<'a>(p: *const ChessPgnGame) -> Result<&'a Game, ChessStatus> {
    // SAFETY: the caller's contract.
    unsafe { p.as_ref() }
        .map(|g| &g.game)
        .ok_or(ChessStatus::CHESS_ERR_NULL_ARGUMENT)
}

// ---------------------------------------------------------------------------------------------
// SAN.
// ---------------------------------------------------------------------------------------------

/// Writes the SAN of the legal move `move` in `*pos` (`Nbd2`, `exd8=Q+`, `O-O-O#`) with a NUL
/// into `buf[0..len]` (`CHESS_SAN_MAX` bytes always suffice). `CHESS_ERR_ILLEGAL_MOVE` when
/// the move is not legal in `*pos`.
///
/// # Safety
/// `pos` is NULL or points to a `ChessPosition`; `buf` is NULL or valid for `len` bytes.
#[no_mangle]
pub unsafe extern "C" fn chess_moveToSan(
    pos: *const ChessPosition,
    r#move: ChessMove,
    buf: *mut c_char,
    len: usize,
) -> ChessStatus {
    ffi_guard!({
        let pos = try_ptr!(read_position(pos));
        let Ok(san) = pos.to_san(Move::from_raw(r#move)) else {
            return ChessStatus::CHESS_ERR_ILLEGAL_MOVE;
        };
        // SAFETY: the caller's contract for `buf`.
        unsafe { copy_text(buf, len, san.as_str()) }
    })
}

/// Reads SAN text against `*pos` into the legal move it names. `mode` is `CHESS_SAN_STRICT`
/// or `CHESS_SAN_TOLERANT` (anything else: `CHESS_ERR_INVALID_ARGUMENT`). Errors:
/// `CHESS_ERR_SAN_SYNTAX` (not SAN; in strict mode also: not the standard SAN of its move),
/// `CHESS_ERR_SAN_ILLEGAL` (no legal move matches), `CHESS_ERR_SAN_AMBIGUOUS` (several do).
///
/// # Safety
/// `pos` is NULL or points to a `ChessPosition`; `san` is NULL or a NUL-terminated string;
/// `out` is NULL or valid for writes.
#[no_mangle]
pub unsafe extern "C" fn chess_moveFromSan(
    pos: *const ChessPosition,
    san: *const c_char,
    mode: u32,
    out: *mut ChessMove,
) -> ChessStatus {
    ffi_guard!({
        let pos = try_ptr!(read_position(pos));
        let text = try_ptr!(c_str(san));
        let out = try_ptr!(out::<ChessMove, ChessMove>(out));
        let mode = match mode {
            CHESS_SAN_STRICT => SanMode::Strict,
            CHESS_SAN_TOLERANT => SanMode::Tolerant,
            _ => return ChessStatus::CHESS_ERR_INVALID_ARGUMENT,
        };
        out.write(check!(pos.parse_san_with(text, mode)).raw());
        ChessStatus::CHESS_OK
    })
}

// ---------------------------------------------------------------------------------------------
// PGN games.
// ---------------------------------------------------------------------------------------------

/// Makes an empty game from the standard starting position (no tags, no moves, result `*`)
/// into `*out`. Free it with `chess_pgnGameFree`.
///
/// # Safety
/// `out` is NULL or valid for writes.
#[no_mangle]
pub unsafe extern "C" fn chess_pgnGameNew(out: *mut *mut ChessPgnGame) -> ChessStatus {
    ffi_guard!({
        let out = try_ptr!(out::<*mut ChessPgnGame, *mut ChessPgnGame>(out));
        out.write(Box::into_raw(Box::new(ChessPgnGame {
            game: Game::default(),
        })));
        ChessStatus::CHESS_OK
    })
}

/// Frees a game (NULL is fine).
///
/// # Safety
/// `game` is NULL or a pointer from `chess_pgnGameNew` not yet freed.
#[no_mangle]
pub unsafe extern "C" fn chess_pgnGameFree(game: *mut ChessPgnGame) {
    ffi_guard!((), {
        if !game.is_null() {
            // SAFETY: made by `Box::into_raw` in `chess_pgnGameNew`, freed once (the caller's
            // contract).
            drop(unsafe { Box::from_raw(game) });
        }
    })
}

/// Empties `*game` (tags, moves, comments; result `*`) and sets its starting position to
/// `*start` (a position with a history keeps it for repetition detection).
///
/// # Safety
/// `game` is NULL or a live game; `start` is NULL or points to a `ChessPosition`.
#[no_mangle]
pub unsafe extern "C" fn chess_pgnGameReset(
    game: *mut ChessPgnGame,
    start: *const ChessPosition,
) -> ChessStatus {
    ffi_guard!({
        let start = try_ptr!(trusted_position(start));
        // SAFETY: the caller's contract.
        let game = match unsafe { game_mut(game) } {
            Ok(g) => g,
            Err(s) => return s,
        };
        *game = Game::new(start.clone());
        ChessStatus::CHESS_OK
    })
}

/// Reads the first game of the NUL-terminated PGN `text` into `*game` (replacing it).
/// Errors, `*game` unchanged: `CHESS_ERR_PGN_NO_GAME` for text without a game (empty or
/// blank), else those of `chess_pgnReaderNext` (read it with a reader and
/// `chess_pgnReaderPartialGame` to get what comes before the error).
///
/// # Safety
/// `game` is NULL or a live game; `text` is NULL or a NUL-terminated string.
#[no_mangle]
pub unsafe extern "C" fn chess_pgnGameRead(
    game: *mut ChessPgnGame,
    text: *const c_char,
) -> ChessStatus {
    ffi_guard!({
        let text = try_ptr!(c_str(text));
        // SAFETY: the caller's contract.
        let game = match unsafe { game_mut(game) } {
            Ok(g) => g,
            Err(s) => return s,
        };
        match Game::from_pgn(text) {
            Ok(g) => {
                *game = g;
                ChessStatus::CHESS_OK
            }
            Err(e) => ChessStatus::from(&e.kind),
        }
    })
}

/// Appends the move `move`, legal in the game's current position
/// (`CHESS_ERR_ILLEGAL_MOVE` otherwise). `CHESS_PGN_NULL_MOVE` (0) appends a null move (the
/// turn passes; `CHESS_ERR_ILLEGAL_MOVE` while the side to move is in check), so that the moves
/// of `chess_pgnGameMoves` pushed one by one make the same game.
///
/// # Safety
/// `game` is NULL or a live game.
#[no_mangle]
pub unsafe extern "C" fn chess_pgnGamePushMove(
    game: *mut ChessPgnGame,
    r#move: ChessMove,
) -> ChessStatus {
    ffi_guard!({
        // SAFETY: the caller's contract.
        let game = match unsafe { game_mut(game) } {
            Ok(g) => g,
            Err(s) => return s,
        };
        check!(game.push(Move::from_raw(r#move)));
        ChessStatus::CHESS_OK
    })
}

/// Appends the move named by the SAN `san` (tolerant reading) and writes it to `*out` (which
/// may be NULL when not wanted). Errors as `chess_moveFromSan`. A null move (`--`, `Z0`, `0000`
/// or `@@@@`) is appended as `chess_pgnGamePushMove` does and written as `CHESS_PGN_NULL_MOVE`
/// (`CHESS_ERR_SAN_ILLEGAL` in check).
///
/// # Safety
/// `game` is NULL or a live game; `san` is NULL or a NUL-terminated string; `out` is NULL
/// or valid for writes.
#[no_mangle]
pub unsafe extern "C" fn chess_pgnGamePushSan(
    game: *mut ChessPgnGame,
    san: *const c_char,
    out: *mut ChessMove,
) -> ChessStatus {
    ffi_guard!({
        let text = try_ptr!(c_str(san));
        // SAFETY: the caller's contract.
        let game = match unsafe { game_mut(game) } {
            Ok(g) => g,
            Err(s) => return s,
        };
        let m = check!(game.push_san(text));
        if !out.is_null() {
            // SAFETY: non-NULL and valid for writes by the caller's contract.
            unsafe { out.write(m.raw()) };
        }
        ChessStatus::CHESS_OK
    })
}

/// Sets tag `name` to `value` (replacing its value, or appended). `CHESS_ERR_INVALID_ARGUMENT`,
/// the game unchanged, for a name that is not letters, digits and `_`, for `FEN`, `SetUp` and
/// `Variant` (the starting position decides them: use `chess_pgnGameReset`), and for a
/// `Result` that is not `1-0`, `0-1`, `1/2-1/2` or `*` (`Result` sets the result too).
///
/// # Safety
/// `game` is NULL or a live game; `name` and `value` are NULL or NUL-terminated strings.
#[no_mangle]
pub unsafe extern "C" fn chess_pgnGameSetTag(
    game: *mut ChessPgnGame,
    name: *const c_char,
    value: *const c_char,
) -> ChessStatus {
    ffi_guard!({
        let name = try_ptr!(c_str(name));
        let value = try_ptr!(c_str(value));
        // SAFETY: the caller's contract.
        let game = match unsafe { game_mut(game) } {
            Ok(g) => g,
            Err(s) => return s,
        };
        match game.set_tag(name, value) {
            Ok(()) => ChessStatus::CHESS_OK,
            Err(_) => ChessStatus::CHESS_ERR_INVALID_ARGUMENT,
        }
    })
}

/// Writes the value of tag `name` with a NUL into `buf[0..len]`; `CHESS_ERR_PGN_NO_SUCH_TAG`
/// when the game has no such tag.
///
/// # Safety
/// `game` is NULL or a live game; `name` is NULL or a NUL-terminated string; `buf` is NULL or
/// valid for `len` bytes.
#[no_mangle]
pub unsafe extern "C" fn chess_pgnGameTag(
    game: *const ChessPgnGame,
    name: *const c_char,
    buf: *mut c_char,
    len: usize,
) -> ChessStatus {
    ffi_guard!({
        let name = try_ptr!(c_str(name));
        // SAFETY: the caller's contract.
        let game = match unsafe { game_ref(game) } {
            Ok(g) => g,
            Err(s) => return s,
        };
        let Some(value) = game.tag(name) else {
            return ChessStatus::CHESS_ERR_PGN_NO_SUCH_TAG;
        };
        // SAFETY: the caller's contract for `buf`.
        unsafe { copy_text(buf, len, value) }
    })
}

/// Writes the number of tags to `*count`.
///
/// # Safety
/// `game` is NULL or a live game; `count` is NULL or valid for writes.
#[no_mangle]
pub unsafe extern "C" fn chess_pgnGameTagCount(
    game: *const ChessPgnGame,
    count: *mut usize,
) -> ChessStatus {
    ffi_guard!({
        let out = try_ptr!(out::<usize, usize>(count));
        // SAFETY: the caller's contract.
        let game = match unsafe { game_ref(game) } {
            Ok(g) => g,
            Err(s) => return s,
        };
        out.write(game.tags.len());
        ChessStatus::CHESS_OK
    })
}

/// Writes the name and value of the `index`-th tag (in the game's order) with NULs into
/// `name[0..nameLen]` and `value[0..valueLen]`; `CHESS_ERR_INVALID_ARGUMENT` for an index past
/// the last; when either buffer is too small, nothing is written.
///
/// # Safety
/// `game` is NULL or a live game; `name` and `value` are NULL or valid for `nameLen` and
/// `valueLen` bytes, and do not overlap.
#[no_mangle]
pub unsafe extern "C" fn chess_pgnGameTagAt(
    game: *const ChessPgnGame,
    index: usize,
    name: *mut c_char,
    nameLen: usize,
    value: *mut c_char,
    valueLen: usize,
) -> ChessStatus {
    ffi_guard!({
        // SAFETY: the caller's contract.
        let game = match unsafe { game_ref(game) } {
            Ok(g) => g,
            Err(s) => return s,
        };
        if name.is_null() || value.is_null() {
            return ChessStatus::CHESS_ERR_NULL_ARGUMENT;
        }
        let Some((n, v)) = game.tags.get(index) else {
            return ChessStatus::CHESS_ERR_INVALID_ARGUMENT;
        };
        // Both buffers checked before either is written.
        try_ptr!(text_buffer(name, nameLen, n.len() + 1));
        try_ptr!(text_buffer(value, valueLen, v.len() + 1));
        // SAFETY: the caller's contract for both buffers, checked above.
        unsafe {
            copy_text(name, nameLen, n);
            copy_text(value, valueLen, v)
        }
    })
}

/// Writes the number of moves of the main line to `*count`.
///
/// # Safety
/// `game` is NULL or a live game; `count` is NULL or valid for writes.
#[no_mangle]
pub unsafe extern "C" fn chess_pgnGameMoveCount(
    game: *const ChessPgnGame,
    count: *mut usize,
) -> ChessStatus {
    ffi_guard!({
        let out = try_ptr!(out::<usize, usize>(count));
        // SAFETY: the caller's contract.
        let game = match unsafe { game_ref(game) } {
            Ok(g) => g,
            Err(s) => return s,
        };
        out.write(game.moves().len());
        ChessStatus::CHESS_OK
    })
}

/// Writes the moves of the main line into `moves[0..capacity]` (`CHESS_ERR_BUFFER_TOO_SMALL`
/// when they do not fit; see `chess_pgnGameMoveCount`). A null move is `CHESS_PGN_NULL_MOVE`
/// (0): play it with `chess_makeNullMove`, not `chess_makeMove`.
///
/// # Safety
/// `game` is NULL or a live game; `moves` is NULL or valid for writes of `capacity` moves.
#[no_mangle]
pub unsafe extern "C" fn chess_pgnGameMoves(
    game: *const ChessPgnGame,
    moves: *mut ChessMove,
    capacity: usize,
) -> ChessStatus {
    ffi_guard!({
        // SAFETY: the caller's contract.
        let game = match unsafe { game_ref(game) } {
            Ok(g) => g,
            Err(s) => return s,
        };
        let out = try_ptr!(out_array(moves, capacity, game.moves().len()));
        for (slot, gm) in out.iter_mut().zip(game.moves()) {
            slot.write(gm.mv().raw());
        }
        ChessStatus::CHESS_OK
    })
}

/// Writes the comment after move `index` (0 = the first move; `SIZE_MAX`: the comment before
/// the first move) with a NUL into `buf[0..len]` (an empty string when there is none).
/// `CHESS_ERR_INVALID_ARGUMENT` for an index past the last move.
///
/// # Safety
/// `game` is NULL or a live game; `buf` is NULL or valid for `len` bytes.
#[no_mangle]
pub unsafe extern "C" fn chess_pgnGameComment(
    game: *const ChessPgnGame,
    index: usize,
    buf: *mut c_char,
    len: usize,
) -> ChessStatus {
    ffi_guard!({
        // SAFETY: the caller's contract.
        let game = match unsafe { game_ref(game) } {
            Ok(g) => g,
            Err(s) => return s,
        };
        if buf.is_null() {
            return ChessStatus::CHESS_ERR_NULL_ARGUMENT;
        }
        let text = if index == usize::MAX {
            game.comment.as_str()
        } else {
            match game.moves().get(index) {
                Some(gm) => gm.comment.as_str(),
                None => return ChessStatus::CHESS_ERR_INVALID_ARGUMENT,
            }
        };
        // SAFETY: the caller's contract for `buf`.
        unsafe { copy_text(buf, len, text) }
    })
}

/// Writes the NAGs of move `index` into `nags[0..capacity]` and their number to `*count`
/// (`CHESS_ERR_BUFFER_TOO_SMALL` when they do not fit: nothing written;
/// `CHESS_ERR_INVALID_ARGUMENT` for an index past the last move).
///
/// # Safety
/// `game` is NULL or a live game; `nags` is NULL or valid for `capacity` bytes; `count` is
/// NULL or valid for writes.
#[no_mangle]
pub unsafe extern "C" fn chess_pgnGameNags(
    game: *const ChessPgnGame,
    index: usize,
    nags: *mut u8,
    capacity: usize,
    count: *mut usize,
) -> ChessStatus {
    ffi_guard!({
        // SAFETY: the caller's contract.
        let game = match unsafe { game_ref(game) } {
            Ok(g) => g,
            Err(s) => return s,
        };
        let count = try_ptr!(out::<usize, usize>(count));
        if nags.is_null() && capacity > 0 {
            return ChessStatus::CHESS_ERR_NULL_ARGUMENT;
        }
        let Some(gm) = game.moves().get(index) else {
            return ChessStatus::CHESS_ERR_INVALID_ARGUMENT;
        };
        let out = try_ptr!(out_array(nags, capacity, gm.nags.len()));
        for (slot, &n) in out.iter_mut().zip(&gm.nags) {
            slot.write(n);
        }
        count.write(gm.nags.len());
        ChessStatus::CHESS_OK
    })
}

/// Writes the game's starting position to `*out`.
///
/// # Safety
/// `game` is NULL or a live game; `out` is NULL or valid for writes of a `ChessPosition`.
#[no_mangle]
pub unsafe extern "C" fn chess_pgnGameStartPosition(
    game: *const ChessPgnGame,
    out: *mut ChessPosition,
) -> ChessStatus {
    ffi_guard!({
        // SAFETY: the caller's contract.
        let game = match unsafe { game_ref(game) } {
            Ok(g) => g,
            Err(s) => return s,
        };
        if out.is_null() {
            return ChessStatus::CHESS_ERR_NULL_ARGUMENT;
        }
        // SAFETY: non-NULL and valid for writes by the caller's contract.
        unsafe { write_position(out, game.start_position()) };
        ChessStatus::CHESS_OK
    })
}

/// Writes the position after the game's last move to `*out` (its history holds the game's
/// moves, for repetition detection).
///
/// # Safety
/// `game` is NULL or a live game; `out` is NULL or valid for writes of a `ChessPosition`.
#[no_mangle]
pub unsafe extern "C" fn chess_pgnGameEndPosition(
    game: *const ChessPgnGame,
    out: *mut ChessPosition,
) -> ChessStatus {
    ffi_guard!({
        // SAFETY: the caller's contract.
        let game = match unsafe { game_ref(game) } {
            Ok(g) => g,
            Err(s) => return s,
        };
        if out.is_null() {
            return ChessStatus::CHESS_ERR_NULL_ARGUMENT;
        }
        // SAFETY: non-NULL and valid for writes by the caller's contract.
        unsafe { write_position(out, game.end_position()) };
        ChessStatus::CHESS_OK
    })
}

/// Writes the result (`1-0`, `0-1`, `1/2-1/2` or `*`) with a NUL into `buf[0..len]` (8 bytes
/// always suffice).
///
/// # Safety
/// `game` is NULL or a live game; `buf` is NULL or valid for `len` bytes.
#[no_mangle]
pub unsafe extern "C" fn chess_pgnGameResult(
    game: *const ChessPgnGame,
    buf: *mut c_char,
    len: usize,
) -> ChessStatus {
    ffi_guard!({
        // SAFETY: the caller's contract.
        let game = match unsafe { game_ref(game) } {
            Ok(g) => g,
            Err(s) => return s,
        };
        // SAFETY: the caller's contract for `buf`.
        unsafe { copy_text(buf, len, game.result()) }
    })
}

/// Sets the result: `1-0`, `0-1`, `1/2-1/2` or `*` (`CHESS_ERR_INVALID_ARGUMENT` otherwise),
/// and the `Result` tag with it when the game has one.
///
/// # Safety
/// `game` is NULL or a live game; `result` is NULL or a NUL-terminated string.
#[no_mangle]
pub unsafe extern "C" fn chess_pgnGameSetResult(
    game: *mut ChessPgnGame,
    result: *const c_char,
) -> ChessStatus {
    ffi_guard!({
        let result = try_ptr!(c_str(result));
        // SAFETY: the caller's contract.
        let game = match unsafe { game_mut(game) } {
            Ok(g) => g,
            Err(s) => return s,
        };
        match game.set_result(result) {
            Ok(()) => ChessStatus::CHESS_OK,
            Err(_) => ChessStatus::CHESS_ERR_INVALID_ARGUMENT,
        }
    })
}

/// Writes the game as PGN (export format: seven tag roster first, movetext in lines of at
/// most 79 characters) with a NUL into `buf[0..len]`, and the size that takes (NUL included)
/// to `*needed`. When `len` is too small: `CHESS_ERR_BUFFER_TOO_SMALL`, nothing written to
/// `buf`, but `*needed` is set (the one output written on an error, so that a caller can size
/// its buffer: call once with `len` 0, then with `*needed` bytes).
///
/// # Safety
/// `game` is NULL or a live game; `buf` is NULL or valid for `len` bytes; `needed` is NULL or
/// valid for writes.
#[no_mangle]
pub unsafe extern "C" fn chess_pgnGameWrite(
    game: *const ChessPgnGame,
    buf: *mut c_char,
    len: usize,
    needed: *mut usize,
) -> ChessStatus {
    ffi_guard!({
        // SAFETY: the caller's contract.
        let game = match unsafe { game_ref(game) } {
            Ok(g) => g,
            Err(s) => return s,
        };
        let needed = try_ptr!(out::<usize, usize>(needed));
        let text = game.to_pgn();
        if len > text.len() && buf.is_null() {
            // A buffer announced but missing: nothing written, `*needed` included.
            return ChessStatus::CHESS_ERR_NULL_ARGUMENT;
        }
        needed.write(text.len() + 1);
        if len <= text.len() {
            // Also for a NULL `buf` with `len` 0: the sizing call.
            return ChessStatus::CHESS_ERR_BUFFER_TOO_SMALL;
        }
        // SAFETY: the caller's contract for `buf`.
        unsafe { copy_text(buf, len, &text) }
    })
}

// ---------------------------------------------------------------------------------------------
// PGN reader.
// ---------------------------------------------------------------------------------------------

/// Makes a reader over the PGN database `data[0..len]` (copied: the caller may free `data`
/// at once) into `*out`. Free it with `chess_pgnReaderFree`.
///
/// # Safety
/// `data` is NULL or valid for reads of `len` bytes (NULL is allowed with `len` 0); `out` is
/// NULL or valid for writes.
#[no_mangle]
pub unsafe extern "C" fn chess_pgnReaderNew(
    data: *const c_char,
    len: usize,
    out: *mut *mut ChessPgnReader,
) -> ChessStatus {
    ffi_guard!({
        let out = try_ptr!(out::<*mut ChessPgnReader, *mut ChessPgnReader>(out));
        let bytes = if len == 0 {
            Vec::new()
        } else if data.is_null() {
            return ChessStatus::CHESS_ERR_NULL_ARGUMENT;
        } else {
            // SAFETY: non-NULL and valid for `len` bytes by the caller's contract.
            unsafe { core::slice::from_raw_parts(data.cast::<u8>(), len) }.to_vec()
        };
        out.write(Box::into_raw(Box::new(ChessPgnReader {
            reader: PgnReader::new(std::io::Cursor::new(bytes)),
            partial: None,
        })));
        ChessStatus::CHESS_OK
    })
}

/// Frees a reader (NULL is fine).
///
/// # Safety
/// `reader` is NULL or a pointer from `chess_pgnReaderNew` not yet freed.
#[no_mangle]
pub unsafe extern "C" fn chess_pgnReaderFree(reader: *mut ChessPgnReader) {
    ffi_guard!((), {
        if !reader.is_null() {
            // SAFETY: made by `Box::into_raw` in `chess_pgnReaderNew`, freed once.
            drop(unsafe { Box::from_raw(reader) });
        }
    })
}

/// Reads the next game into `*game` (replacing it). On `CHESS_OK`, `*game` is the game and
/// `*line` the line where its text starts (1-based). At the end of the input: `CHESS_ERR_PGN_END_OF_INPUT`,
/// nothing written. For a malformed game: its status (`CHESS_ERR_PGN_TAG`,
/// `CHESS_ERR_PGN_FEN`, `CHESS_ERR_PGN_VARIANT`, `CHESS_ERR_PGN_TOKEN`,
/// `CHESS_ERR_PGN_UNTERMINATED`, `CHESS_ERR_PGN_PARENTHESIS`, or for a move
/// `CHESS_ERR_SAN_SYNTAX` / `_ILLEGAL` / `_AMBIGUOUS`), `*game` unchanged, and `*line` the line
/// of the error (the one output written on an error); what was read of that game before the
/// error is then there for `chess_pgnReaderPartialGame`. The next call goes on with the next
/// game.
///
/// # Safety
/// `reader` is NULL or a live reader; `game` is NULL or a live game; `line` is NULL or valid
/// for writes.
#[no_mangle]
pub unsafe extern "C" fn chess_pgnReaderNext(
    reader: *mut ChessPgnReader,
    game: *mut ChessPgnGame,
    line: *mut usize,
) -> ChessStatus {
    ffi_guard!({
        // SAFETY: the caller's contract.
        let Some(reader) = (unsafe { reader.as_mut() }) else {
            return ChessStatus::CHESS_ERR_NULL_ARGUMENT;
        };
        // SAFETY: the caller's contract.
        let game = match unsafe { game_mut(game) } {
            Ok(g) => g,
            Err(s) => return s,
        };
        let line = try_ptr!(out::<usize, usize>(line));
        reader.partial = None;
        match reader.reader.next() {
            None => ChessStatus::CHESS_ERR_PGN_END_OF_INPUT,
            Some(Ok(g)) => {
                line.write(reader.reader.last_game_line());
                *game = g;
                ChessStatus::CHESS_OK
            }
            Some(Err(e)) => {
                line.write(e.line);
                let start = reader.reader.last_game_line();
                reader.partial = e.partial.map(|g| (g, start));
                ChessStatus::from(&e.kind)
            }
        }
    })
}

/// After `chess_pgnReaderNext` reported a malformed game, writes what was read of it before
/// the error into `*game` (replacing it): its tags, starting position, the moves before the
/// bad token with their comments and NAGs, and as result its result token when its text has
/// one, else its `Result` tag, else `*`; and to `*line` the line where the game's text starts
/// (the error's line is the one `chess_pgnReaderNext` gave). It may be called again until the
/// next `chess_pgnReaderNext`. `CHESS_ERR_PGN_NO_GAME`, nothing written, when there is no such
/// game: the last `chess_pgnReaderNext` read a game whole, reached the end of the input or was
/// not called, or its error was in the game's tags (`CHESS_ERR_PGN_TAG` before the movetext,
/// `CHESS_ERR_PGN_FEN`, `CHESS_ERR_PGN_VARIANT`).
///
/// # Safety
/// `reader` is NULL or a live reader; `game` is NULL or a live game; `line` is NULL or valid
/// for writes.
#[no_mangle]
pub unsafe extern "C" fn chess_pgnReaderPartialGame(
    reader: *const ChessPgnReader,
    game: *mut ChessPgnGame,
    line: *mut usize,
) -> ChessStatus {
    ffi_guard!({
        // SAFETY: the caller's contract.
        let Some(reader) = (unsafe { reader.as_ref() }) else {
            return ChessStatus::CHESS_ERR_NULL_ARGUMENT;
        };
        // SAFETY: the caller's contract.
        let game = match unsafe { game_mut(game) } {
            Ok(g) => g,
            Err(s) => return s,
        };
        let line = try_ptr!(out::<usize, usize>(line));
        let Some((partial, start)) = &reader.partial else {
            return ChessStatus::CHESS_ERR_PGN_NO_GAME;
        };
        line.write(*start);
        *game = Game::clone(partial);
        ChessStatus::CHESS_OK
    })
}
