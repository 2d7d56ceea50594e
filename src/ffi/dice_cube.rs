//! The doubling cube's advice in the C skin (issue 30 item 3): double or not, take or pass,
//! from the chances `chess_diceEquity` gives (or the caller's own), over
//! [`crate::dice::cube::advise`]. The model, the thresholds and the reasoning are in the
//! Rust module's docs and docs/dice.md, "The doubling cube". A pure function: no engine, no
//! search.

use super::guard::{ffi_guard, try_ptr};
use super::{ChessDiceEquity, ChessStatus, CHESS_DICE_EQUITY_RESERVED};
use crate::dice::cube::{self, Cube, CubeOwner};
use crate::dice::eval::wdl::Wdl;
use core::mem::size_of;

/// `cubeOwner` of `chess_diceCubeAdvice`: the cube is in the middle, either side may double
/// (the start of a game).
pub const CHESS_DICE_CUBE_CENTERED: u32 = 0;
/// `cubeOwner`: the side to move owns the cube (it took the last double) and may double.
pub const CHESS_DICE_CUBE_MOVER: u32 = 1;
/// `cubeOwner`: the other side owns the cube; the side to move may not double.
pub const CHESS_DICE_CUBE_OPPONENT: u32 = 2;

/// Number of reserved bytes at the end of `ChessDiceCubeAdvice` (64 bytes in all).
pub const CHESS_DICE_CUBE_ADVICE_RESERVED: usize = 32;

/// The outcome of `chess_diceCubeAdvice`, written whole on success only; caller-owned, may be
/// uninitialised before the call. Equities are for the side to move, in units of the current
/// stake (the cube's value), cubeful (the cube's later use counted, Janowski's model at the
/// library's cube efficiency).
///
/// Extensibility: as `ChessSearchResult`: the size never changes, `size` is
/// `sizeof(ChessDiceCubeAdvice)`, later fields come from `reserved` (zeros here).
#[repr(C)]
#[derive(Copy, Clone, Debug)]
pub struct ChessDiceCubeAdvice {
    /// `sizeof(ChessDiceCubeAdvice)`.
    pub size: u32,
    /// 1: the side to move should double now; 0: it should not, or may not (the other side
    /// owns the cube).
    pub shouldDouble: u8,
    /// 1: the other side should take a double (whether or not one is advised); 0: pass.
    pub shouldTake: u8,
    /// Zero.
    pub reserved0: [u8; 2],
    /// The side to move's equity if it does not double.
    pub noDouble: f64,
    /// The side to move's equity after it doubles and the other side takes (the stake
    /// doubled, the taker owning the cube). After a pass it is +1.
    pub doubleTake: f64,
    /// The taker's take point: the least expected score (`win + draw / 2`, the taker's)
    /// with which taking is right.
    pub takePoint: f64,
    /// Zero.
    pub reserved: [u8; CHESS_DICE_CUBE_ADVICE_RESERVED],
}

const _: () = assert!(size_of::<ChessDiceCubeAdvice>() == 64);
const _: () = assert!(core::mem::offset_of!(ChessDiceCubeAdvice, shouldDouble) == 4);
const _: () = assert!(core::mem::offset_of!(ChessDiceCubeAdvice, noDouble) == 8);
const _: () = assert!(core::mem::offset_of!(ChessDiceCubeAdvice, takePoint) == 24);
const _: () = assert!(core::mem::offset_of!(ChessDiceCubeAdvice, reserved) == 32);

/// The doubling cube's advice for the side to move of a game before its roll, from its win,
/// draw and loss chances `*equity` (as `chess_diceEquity` writes them) and who owns the cube
/// (`CHESS_DICE_CUBE_CENTERED`, `_MOVER` or `_OPPONENT`), into `*out`.
///
/// `*equity` is read for `size` (must be `sizeof(ChessDiceEquity)`), `reserved` (must be
/// zeros) and `win`, `draw` and `loss` (each finite and in `[0, 1]`, summing to 1 within
/// 1e-5); its other fields are ignored, so a caller with chances from elsewhere fills those
/// four and zeroes the rest.
///
/// Errors, with nothing written: `CHESS_ERR_NULL_ARGUMENT`, `CHESS_ERR_INVALID_ARGUMENT`
/// (an owner outside the three, a wrong `size`, non-zero `reserved`, chances out of range
/// or not summing to 1).
///
/// # Safety
/// `equity` is NULL or points to a `ChessDiceEquity`; `out` is NULL or valid for writes of a
/// `ChessDiceCubeAdvice`.
#[no_mangle]
pub unsafe extern "C" fn chess_diceCubeAdvice(
    equity: *const ChessDiceEquity,
    cubeOwner: u32,
    out: *mut ChessDiceCubeAdvice,
) -> ChessStatus {
    ffi_guard!({
        // SAFETY (each `try_ptr!`): the caller's contract; every bit pattern of the equity's
        // fields (integers, floats, bytes) is valid.
        let e = try_ptr!(input::<ChessDiceEquity, ChessDiceEquity>(equity));
        let out = try_ptr!(out::<ChessDiceCubeAdvice, ChessDiceCubeAdvice>(out));
        let owner = match cubeOwner {
            CHESS_DICE_CUBE_CENTERED => CubeOwner::Centered,
            CHESS_DICE_CUBE_MOVER => CubeOwner::Mover,
            CHESS_DICE_CUBE_OPPONENT => CubeOwner::Opponent,
            _ => return ChessStatus::CHESS_ERR_INVALID_ARGUMENT,
        };
        if e.size as usize != size_of::<ChessDiceEquity>()
            || e.reserved != [0; CHESS_DICE_EQUITY_RESERVED]
        {
            return ChessStatus::CHESS_ERR_INVALID_ARGUMENT;
        }
        let Some(wdl) = Wdl::checked(e.win, e.draw, e.loss) else {
            return ChessStatus::CHESS_ERR_INVALID_ARGUMENT;
        };
        let a = cube::advise(&wdl, Cube { value: 1, owner });
        out.write(ChessDiceCubeAdvice {
            size: size_of::<ChessDiceCubeAdvice>() as u32,
            shouldDouble: u8::from(a.double),
            shouldTake: u8::from(a.take),
            reserved0: [0; 2],
            noDouble: a.no_double,
            doubleTake: a.double_take,
            takePoint: cube::take_point(cube::CUBE_EFFICIENCY),
            reserved: [0; CHESS_DICE_CUBE_ADVICE_RESERVED],
        });
        ChessStatus::CHESS_OK
    })
}
