//! The boundary: the panic guard every export runs in, and the pointer checks every export
//! makes, as macros (one place for each rule, as rustls-ffi does it).
//!
//! Position arguments are checked at one of two levels ([`crate::position::validate`] has the
//! table):
//! * [`read_position`] / [`unchecked_position_mut`] for calls that only read a position and for
//!   the unchecked make and unmake: in release builds the cheap [`Position::is_plausible`],
//!   which keeps every index in range, so no call can panic or go out of bounds, though a
//!   corrupted position may give nonsense answers; in debug builds [`Position::validate`], the
//!   invariants make and unmake keep (not the rules of reachable positions: after a
//!   pseudo-legal move the mover's king may stand attacked, and the caller still reads the
//!   position and unmakes the move).
//! * [`trusted_position`] / [`trusted_position_mut`] for calls that change a position on the
//!   caller's behalf or whose result must be exact (checked make/unmake, null moves, perft):
//!   [`Position::validate_full`] once per call, so a corrupted position is refused with
//!   `CHESS_ERR_INVALID_POSITION` before anything is written.

use super::{ChessDiceGame, ChessEngine, ChessPosition, ChessStatus};
use crate::dice::DiceGame;
use crate::position::Position;
use core::ffi::{c_char, CStr};
use core::mem::MaybeUninit;
use std::cell::Cell;

thread_local! {
    /// How many guarded exports are running on this thread (a callback may nest them).
    static GUARD_DEPTH: Cell<u32> = const { Cell::new(0) };
}

/// Installs, once per process, a panic hook that stays silent for panics inside a guarded
/// export (they become `CHESS_ERR_INTERNAL`; nothing is printed on the caller's stderr) and
/// passes every other panic to the hook that was there before.
fn install_quiet_hook() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if GUARD_DEPTH.with(Cell::get) == 0 {
                previous(info);
            }
        }));
    });
}

/// Runs `body` as the body of an export: a panic becomes `fallback`, silently.
#[inline(always)]
pub(crate) fn guarded<T>(fallback: T, body: impl FnOnce() -> T) -> T {
    install_quiet_hook();
    GUARD_DEPTH.with(|d| d.set(d.get() + 1));
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(body));
    GUARD_DEPTH.with(|d| d.set(d.get().saturating_sub(1)));
    result.unwrap_or(fallback)
}

/// Runs an export body; a panic becomes the fallback value (`CHESS_ERR_INTERNAL` by
/// default), and no unwinding crosses into C.
macro_rules! ffi_guard {
    ($body:block) => {
        $crate::ffi::guard::guarded($crate::ffi::ChessStatus::CHESS_ERR_INTERNAL, || $body)
    };
    ($fallback:expr, $body:block) => {
        $crate::ffi::guard::guarded($fallback, || $body)
    };
}

/// Unwraps a `Result<T, E>` inside an export (`E` converts into `ChessStatus`), returning the
/// status on error.
macro_rules! check {
    ($e:expr) => {
        match $e {
            Ok(v) => v,
            Err(e) => return $crate::ffi::ChessStatus::from(e),
        }
    };
}

/// `try_ptr!(read_position(p))`: runs one of the pointer helpers below (all `unsafe`, each
/// relying on the export's documented contract for `p`) and returns its status on error.
macro_rules! try_ptr {
    ($helper:ident $(::<$($t:ty),+>)? ($($arg:expr),* $(,)?)) => {
        // SAFETY: the export's documented contract for the pointer, which the helper states.
        match unsafe { $crate::ffi::guard::$helper $(::<$($t),+>)? ($($arg),*) } {
            Ok(v) => v,
            Err(status) => return status,
        }
    };
}

pub(crate) use {check, ffi_guard, try_ptr};

/// Borrows `*p` as a position, checked cheaply in release builds ([`Position::is_plausible`])
/// and by [`Position::validate`] in debug builds: the invariants make and unmake keep, not the
/// rules of reachable positions, since after a pseudo-legal move the mover's king may stand
/// attacked and the caller still reads the position and unmakes the move.
///
/// # Safety
/// `p` is NULL or points to a `ChessPosition` valid for reads for `'a` and not written
/// meanwhile.
pub(crate) unsafe fn read_position<'a>(
    p: *const ChessPosition,
) -> Result<&'a Position, ChessStatus> {
    // SAFETY: forwarded contract.
    let pos = unsafe { position_bytes(p) }?;
    let ok = if cfg!(debug_assertions) {
        pos.validate().is_ok()
    } else {
        pos.is_plausible()
    };
    if ok {
        Ok(pos)
    } else {
        Err(ChessStatus::CHESS_ERR_INVALID_POSITION)
    }
}

/// Borrows `*p` as a position, fully checked.
///
/// # Safety
/// As [`read_position`].
pub(crate) unsafe fn trusted_position<'a>(
    p: *const ChessPosition,
) -> Result<&'a Position, ChessStatus> {
    // SAFETY: forwarded contract.
    let pos = unsafe { position_bytes(p) }?;
    match pos.validate_full() {
        Ok(()) => Ok(pos),
        Err(_) => Err(ChessStatus::CHESS_ERR_INVALID_POSITION),
    }
}

/// Borrows `*p` mutably as a position for the unchecked make and unmake, checked as in
/// [`read_position`].
///
/// # Safety
/// `p` is NULL or points to a `ChessPosition` valid for reads and writes for `'a`, with no
/// other access meanwhile.
pub(crate) unsafe fn unchecked_position_mut<'a>(
    p: *mut ChessPosition,
) -> Result<&'a mut Position, ChessStatus> {
    // SAFETY: forwarded contract; the shared borrow ends before the mutable one is made.
    unsafe { read_position(p) }?;
    // SAFETY: as in `position_bytes`, with exclusive access by the caller's contract.
    Ok(unsafe { &mut *(p as *mut Position) })
}

/// Borrows `*p` mutably as a position, fully checked.
///
/// # Safety
/// As [`unchecked_position_mut`].
pub(crate) unsafe fn trusted_position_mut<'a>(
    p: *mut ChessPosition,
) -> Result<&'a mut Position, ChessStatus> {
    // SAFETY: forwarded contract; the shared borrow ends before the mutable one is made.
    unsafe { trusted_position(p) }?;
    // SAFETY: as in `position_bytes`, with exclusive access by the caller's contract.
    Ok(unsafe { &mut *(p as *mut Position) })
}

/// # Safety
/// As [`read_position`].
unsafe fn position_bytes<'a>(p: *const ChessPosition) -> Result<&'a Position, ChessStatus> {
    // SAFETY: `ChessPosition` is at least as large and as aligned as `Position` (asserted in
    // types.rs), and every bit pattern is a valid `Position` (integers and arrays of integer
    // newtypes only, no padding). Non-NULL validity is the caller's contract.
    unsafe { (p as *const Position).as_ref() }.ok_or(ChessStatus::CHESS_ERR_NULL_ARGUMENT)
}

/// Borrows `*p` as a game, checked: every field in range, the position's invariants and its
/// castling setup and tables (which make trusts: a corrupted rights mask once let a search
/// make a rook move that kept its castling right; found by the `dice` fuzz target).
///
/// # Safety
/// `p` is NULL or points to a `ChessDiceGame` valid for reads for `'a`, not written meanwhile.
pub(crate) unsafe fn read_game<'a>(p: *const ChessDiceGame) -> Result<&'a DiceGame, ChessStatus> {
    // SAFETY: `ChessDiceGame` is at least as large and aligned as `DiceGame` (asserted
    // above), and every bit pattern is a valid `DiceGame` (integers and integer newtypes, no
    // padding). Non-NULL validity is the caller's contract.
    let g =
        unsafe { (p as *const DiceGame).as_ref() }.ok_or(ChessStatus::CHESS_ERR_NULL_ARGUMENT)?;
    if g.is_plausible()
        && g.position().validate().is_ok()
        && g.position().validate_castling_tables().is_ok()
    {
        Ok(g)
    } else {
        Err(ChessStatus::CHESS_ERR_DICE_INVALID_GAME)
    }
}

/// Borrows `*p` mutably as a game, checked as in [`read_game`].
///
/// # Safety
/// `p` is NULL or points to a `ChessDiceGame` valid for reads and writes for `'a`, with no
/// other access meanwhile.
pub(crate) unsafe fn game_mut<'a>(p: *mut ChessDiceGame) -> Result<&'a mut DiceGame, ChessStatus> {
    // SAFETY: forwarded contract; the shared borrow ends before the mutable one is made.
    unsafe { read_game(p) }?;
    // SAFETY: as in `read_game`, with exclusive access by the caller's contract.
    Ok(unsafe { &mut *(p as *mut DiceGame) })
}

/// Borrows `*p` as an engine handle.
///
/// # Safety
/// `p` is NULL or a pointer from `chess_engineNew` not yet freed.
pub(crate) unsafe fn engine_ref<'a>(p: *const ChessEngine) -> Result<&'a ChessEngine, ChessStatus> {
    // SAFETY: the caller's contract.
    unsafe { p.as_ref() }.ok_or(ChessStatus::CHESS_ERR_NULL_ARGUMENT)
}

/// Borrows `*p` as an output slot of type `T`, which may be uninitialised: write it with
/// `MaybeUninit::write`, never read it.
///
/// # Safety
/// `p` is NULL or valid for writes of a `U`, where `U` has the size and alignment of `T` or
/// larger, for `'a`, with no other access meanwhile.
pub(crate) unsafe fn out<'a, T, U>(p: *mut U) -> Result<&'a mut MaybeUninit<T>, ChessStatus> {
    // SAFETY: the caller's contract; `MaybeUninit<T>` may hold any bytes, initialised or not.
    unsafe { (p as *mut MaybeUninit<T>).as_mut() }.ok_or(ChessStatus::CHESS_ERR_NULL_ARGUMENT)
}

/// Borrows `*p` as a plain input of type `T` (every bit pattern of which is valid).
///
/// # Safety
/// `p` is NULL or points to an initialised `U` valid for reads for `'a`, where `U` has the
/// size and alignment of `T` or larger.
pub(crate) unsafe fn input<'a, T, U>(p: *const U) -> Result<&'a T, ChessStatus> {
    // SAFETY: the caller's contract.
    unsafe { (p as *const T).as_ref() }.ok_or(ChessStatus::CHESS_ERR_NULL_ARGUMENT)
}

/// Reads a NUL-terminated string as UTF-8 (`CHESS_ERR_INVALID_ARGUMENT` when it is not).
///
/// # Safety
/// `p` is NULL or points to a NUL-terminated string valid for reads for `'a`.
pub(crate) unsafe fn c_str<'a>(p: *const c_char) -> Result<&'a str, ChessStatus> {
    if p.is_null() {
        return Err(ChessStatus::CHESS_ERR_NULL_ARGUMENT);
    }
    // SAFETY: non-NULL and NUL-terminated by the caller's contract.
    let s = unsafe { CStr::from_ptr(p) };
    s.to_str()
        .map_err(|_| ChessStatus::CHESS_ERR_INVALID_ARGUMENT)
}

/// The caller's `len`-byte text buffer, checked for NULL and for room for `needed` bytes
/// (`CHESS_ERR_BUFFER_TOO_SMALL` otherwise).
///
/// # Safety
/// `buf` is NULL or valid for writes of `len` bytes for `'a`, with no other access meanwhile.
pub(crate) unsafe fn text_buffer<'a>(
    buf: *mut c_char,
    len: usize,
    needed: usize,
) -> Result<&'a mut [MaybeUninit<u8>], ChessStatus> {
    // SAFETY: forwarded contract (`c_char` and `u8` have the same layout).
    unsafe { out_array(buf.cast::<u8>(), len, needed) }
}

/// The caller's array of `len` values of `T`, checked for NULL and for room for `needed`.
///
/// # Safety
/// `p` is NULL or valid for writes of `len` values of `T` for `'a`, with no other access
/// meanwhile.
pub(crate) unsafe fn out_array<'a, T>(
    p: *mut T,
    len: usize,
    needed: usize,
) -> Result<&'a mut [MaybeUninit<T>], ChessStatus> {
    if p.is_null() {
        return Err(ChessStatus::CHESS_ERR_NULL_ARGUMENT);
    }
    if len < needed {
        return Err(ChessStatus::CHESS_ERR_BUFFER_TOO_SMALL);
    }
    // SAFETY: non-NULL and valid for `len` writes by the caller's contract.
    Ok(unsafe { core::slice::from_raw_parts_mut(p as *mut MaybeUninit<T>, len) })
}

#[cfg(test)]
mod tests {
    use super::guarded;
    use std::process::Command;

    /// Runs this test binary again as a child doing `mode`, and returns its stderr. Under an
    /// emulator (scripts/cross-aarch64: qemu-user, which cannot follow an exec) the child runs
    /// through the command in `CHESSCORE_TEST_RUNNER`, as cargo's runner ran the parent.
    fn child_stderr(test: &str, mode: &str) -> String {
        let exe = std::env::current_exe().unwrap();
        let runner = std::env::var("CHESSCORE_TEST_RUNNER").unwrap_or_default();
        let mut words = runner.split_whitespace();
        let mut command = match words.next() {
            Some(program) => {
                let mut c = Command::new(program);
                c.args(words).arg(exe);
                c
            }
            None => Command::new(exe),
        };
        let out = command
            .args([test, "--exact", "--nocapture", "--test-threads=1"])
            .env("CHESSCORE_GUARD_CHILD", mode)
            .output()
            .unwrap();
        assert!(out.status.success(), "child {mode} failed: {out:?}");
        String::from_utf8_lossy(&out.stderr).into_owned()
    }

    #[test]
    fn a_caught_panic_prints_nothing_and_others_still_print() {
        const NAME: &str =
            "ffi::guard::tests::a_caught_panic_prints_nothing_and_others_still_print";
        match std::env::var("CHESSCORE_GUARD_CHILD").as_deref() {
            Ok("inside") => {
                assert_eq!(guarded(7, || -> i32 { panic!("boom inside the guard") }), 7);
                // Nested guards (a callback calling back into the library) count too.
                assert_eq!(
                    guarded(1, || guarded(2, || -> i32 { panic!("boom nested") })),
                    2
                );
            }
            Ok("outside") => {
                // The hook is installed, and a panic of the host program's own still prints.
                assert_eq!(guarded(0, || 0), 0);
                let caught = std::panic::catch_unwind(|| panic!("boom outside the guard"));
                assert!(caught.is_err());
            }
            _ => {
                let inside = child_stderr(NAME, "inside");
                assert!(!inside.contains("boom"), "a caught panic printed: {inside}");
                let outside = child_stderr(NAME, "outside");
                assert!(outside.contains("boom outside the guard"), "{outside}");
            }
        }
    }
}
