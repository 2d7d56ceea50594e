//! The Dice Chess engine's C skin (issue 12): the best move or three-dice turn for a rolled
//! game, the expected score before the roll, the win, draw and loss chances before the roll
//! (issue 30), and the advice for every roll at once, over
//! [`crate::dice::search::DiceEngine`] held by the same `ChessEngine` handle as the chess
//! search (same busy state, stop, `Hash` and `Threads` options, limits struct and info
//! callback; see `src/ffi/engine.rs`).
//!
//! `Threads` above 1 runs the Dice Chess search on that many threads (Lazy SMP, see
//! `src/dice/search/smp.rs`): the calling thread's result, `nodes` summed over the
//! threads; the engine's table is in its fast mode, so results may then differ from run to
//! run. With 1 (the default) the search is single-threaded and repeatable.
//!
//! Limits: `depth` (turns), `nodes`, `movetimeMs`, the side to move's clock, increment and
//! `movestogo` (the time manager, `DiceLimits::on_clock`: a soft and a hard limit from the
//! clock, the rules and the material left, docs/dice-search.md "The clock"), `infinite` (or no limit:
//! until `chess_engineStop`, or depth 64). `searchMoves`, `ponder` and `mate` get
//! `CHESS_ERR_DICE_UNSUPPORTED_LIMITS`. The info callback gets a `ChessSearchInfo` after
//! every completed iteration: `depth` in turns, `scoreCp` the value (see
//! `ChessDiceSearchResult`), `mateIn` the turns to a proven win (negative: loss) or 0, `pv`
//! the best turn.

use super::engine::{pv_array, read_limits, CLimits, ChessEngine, RawLimits, STOP};
use super::guard::{ffi_guard, try_ptr};
use super::{
    ChessDiceGame, ChessDiceRoll, ChessMove, ChessScoreBound, ChessSearchInfo, ChessSearchLimits,
    ChessStatus,
};
use crate::dice::search::{
    expected_score, finished_equity, win_in, DiceClock, DiceEngine, DiceEquity, DiceInfo,
    DiceLimits, DiceSearchError, DiceSearchResult, RollAdvice,
};
use crate::dice::{DiceGame, DiceStatus};
use crate::search::Limits;
use crate::types::Color;
use core::mem::size_of;
use std::sync::atomic::Ordering;

/// Number of reserved bytes at the end of `ChessDiceSearchResult` (256 bytes in all).
pub const CHESS_DICE_SEARCH_RESULT_RESERVED: usize = 200;

/// The outcome of `chess_diceSearch` (and of each roll in `ChessDiceRollAdvice`), written
/// whole on success only; caller-owned, may be uninitialised before the call.
///
/// Values are for the side to move: `value` in `-10000..=10000` is a heuristic value (an
/// expected score of `(value + 10000) / 20000`, also given as `expectedScore`); a proven win
/// in `n` turns, this one counted, is `CHESS_DICE_WIN_VALUE - (n - 1)` (`winIn` = n; a king
/// capture now: n = 1), a proven loss the negative;
/// values between 10000 and the win band are near-certain wins (a chance node mixing a
/// proven win with heuristic values).
///
/// Extensibility: as `ChessSearchResult`: the size never changes, `size` is
/// `sizeof(ChessDiceSearchResult)`, later fields come from `reserved` (zeros here).
#[repr(C)]
#[derive(Copy, Clone, Debug)]
pub struct ChessDiceSearchResult {
    /// `sizeof(ChessDiceSearchResult)`.
    pub size: u32,
    /// The move to play now; 0 = the pass (no move for the roll).
    pub bestMove: ChessMove,
    /// Micro-moves in `turn` (three dice: up to 3; one and two dice: 1, or 0 for the pass).
    pub turnLength: u16,
    /// The best turn in order (`turn[0] == bestMove`), zeros past `turnLength`.
    pub turn: [ChessMove; 4],
    /// The value (see above).
    pub value: i32,
    /// Turns to a proven win (> 0) or loss (< 0), this one counted; 0 when none is proven.
    pub winIn: i32,
    /// The expected score in `[0, 1]` for the side to move (proven wins 1, losses 0).
    pub expectedScore: f64,
    /// Depth in turns of the last completed iteration.
    pub depth: u32,
    /// Permille of the table in use.
    pub hashfull: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// Milliseconds taken.
    pub timeMs: u64,
    /// Zero.
    pub reserved: [u8; CHESS_DICE_SEARCH_RESULT_RESERVED],
}

const _: () = assert!(size_of::<ChessDiceSearchResult>() == 256);

/// One roll's advice from `chess_diceSearchAllRolls`.
#[repr(C)]
#[derive(Copy, Clone, Debug)]
pub struct ChessDiceRollAdvice {
    /// The roll.
    pub roll: ChessDiceRoll,
    /// Its weight over the outcomes' denominator (see `chess_diceOutcomes`).
    pub weight: u32,
    /// The best move or turn for this roll and its value.
    pub result: ChessDiceSearchResult,
}

const _: () = assert!(size_of::<ChessDiceRollAdvice>() == 264);

/// Number of reserved bytes at the end of `ChessDiceEquity` (128 bytes in all).
pub const CHESS_DICE_EQUITY_RESERVED: usize = 64;

/// The outcome of `chess_diceEquity`: the chances of a win, a draw and a loss for the side to
/// move before the roll (they sum to 1), written whole on success only; caller-owned, may be
/// uninitialised before the call.
///
/// The chances come from the search's value (`value`, as in `ChessDiceSearchResult`) through
/// a model fitted per rule set on held-out self-play (docs/results/dice-equity.md): a
/// proven win is `win` 1, a proven loss `loss` 1, a finished game its result.
///
/// Extensibility: as `ChessSearchResult`: the size never changes, `size` is
/// `sizeof(ChessDiceEquity)`, later fields come from `reserved` (zeros here).
#[repr(C)]
#[derive(Copy, Clone, Debug)]
pub struct ChessDiceEquity {
    /// `sizeof(ChessDiceEquity)`.
    pub size: u32,
    /// The search's value for the side to move (a finished game: `CHESS_DICE_WIN_VALUE`,
    /// its negative, or 0 drawn).
    pub value: i32,
    /// Chance of a win for the side to move.
    pub win: f64,
    /// Chance of a draw.
    pub draw: f64,
    /// Chance of a loss.
    pub loss: f64,
    /// `win + draw / 2`.
    pub expectedScore: f64,
    /// Depth in turns of the last completed iteration (0 for a finished game).
    pub depth: u32,
    /// Turns to a proven win (> 0) or loss (< 0), this one counted; 0 when none is proven.
    pub winIn: i32,
    /// Nodes searched.
    pub nodes: u64,
    /// Milliseconds taken.
    pub timeMs: u64,
    /// Zero.
    pub reserved: [u8; CHESS_DICE_EQUITY_RESERVED],
}

const _: () = assert!(size_of::<ChessDiceEquity>() == 128);
const _: () = assert!(core::mem::offset_of!(ChessDiceEquity, win) == 8);
const _: () = assert!(core::mem::offset_of!(ChessDiceEquity, depth) == 40);
const _: () = assert!(core::mem::offset_of!(ChessDiceEquity, reserved) == 64);

fn equity_struct(e: &DiceEquity) -> ChessDiceEquity {
    ChessDiceEquity {
        size: size_of::<ChessDiceEquity>() as u32,
        value: e.value,
        win: e.wdl.win,
        draw: e.wdl.draw,
        loss: e.wdl.loss,
        expectedScore: e.expected_score(),
        depth: e.depth,
        winIn: if e.depth == 0 {
            0
        } else {
            win_in(e.value).unwrap_or(0)
        },
        nodes: e.nodes,
        timeMs: e.time_ms,
        reserved: [0; CHESS_DICE_EQUITY_RESERVED],
    }
}

/// The value of a proven win in the turn being played (`ChessDiceSearchResult.value`); one
/// `n` turns later is `CHESS_DICE_WIN_VALUE - n`.
pub const CHESS_DICE_WIN_VALUE: i32 = 10256;

const _: () = assert!(CHESS_DICE_WIN_VALUE == crate::dice::search::WIN);

fn result_struct(r: &DiceSearchResult, hashfull: u32) -> ChessDiceSearchResult {
    let mut turn = [0; 4];
    for (slot, m) in turn.iter_mut().zip(r.line.as_slice()) {
        *slot = m.raw();
    }
    ChessDiceSearchResult {
        size: size_of::<ChessDiceSearchResult>() as u32,
        bestMove: r.best_move().raw(),
        turnLength: r.line.len as u16,
        turn,
        value: r.value,
        winIn: win_in(r.value).unwrap_or(0),
        expectedScore: expected_score(r.value),
        depth: r.depth,
        hashfull,
        nodes: r.nodes,
        timeMs: r.time_ms,
        reserved: [0; CHESS_DICE_SEARCH_RESULT_RESERVED],
    }
}

fn info_struct(info: &DiceInfo) -> ChessSearchInfo {
    let (pv, pv_len) = pv_array(info.line.as_slice());
    let nps = (info.nodes * 1000)
        .checked_div(info.time_ms)
        .unwrap_or(info.nodes * 1000);
    ChessSearchInfo {
        size: size_of::<ChessSearchInfo>() as u32,
        depth: info.depth,
        seldepth: info.depth,
        multipv: 1,
        scoreCp: info.value,
        mateIn: win_in(info.value).unwrap_or(0),
        bound: ChessScoreBound::CHESS_BOUND_EXACT,
        hashfull: info.hashfull,
        nodes: info.nodes,
        nps,
        timeMs: info.time_ms,
        pvLength: pv_len,
        pv,
        reserved: 0,
    }
}

/// The Dice Chess limits of C limits, for `game`'s side to move.
fn dice_limits(raw: &RawLimits, game: &DiceGame) -> Result<(DiceLimits, CLimits), ChessStatus> {
    let c = read_limits(raw)?;
    let l: &Limits = &c.limits;
    if raw.search_moves_count != 0 || l.ponder || l.mate != 0 {
        return Err(ChessStatus::CHESS_ERR_DICE_UNSUPPORTED_LIMITS);
    }
    let (clock, inc) = if game.side_to_move() == Color::WHITE {
        (l.wtime_ms, l.winc_ms)
    } else {
        (l.btime_ms, l.binc_ms)
    };
    let (movetime, soft) = if l.infinite {
        (None, None)
    } else if let Some(ms) = l.movetime_ms {
        (Some(ms.max(1)), None)
    } else if let Some(t) = clock {
        let clock = DiceClock {
            time_ms: t,
            inc_ms: inc.unwrap_or(0),
            movestogo: l.movestogo,
        };
        let on_clock = DiceLimits::on_clock(game, &clock);
        (on_clock.movetime_ms, on_clock.soft_ms)
    } else {
        (None, None)
    };
    Ok((
        DiceLimits {
            depth: l.depth,
            nodes: l.nodes,
            movetime_ms: movetime,
            soft_ms: soft,
        },
        c,
    ))
}

/// The callback wrapper: re-stops a stop that landed before the search began, and calls the
/// caller's function.
fn reporter<'a>(handle: &'a ChessEngine, c: &'a CLimits) -> impl FnMut(&DiceInfo) + 'a {
    move |info: &DiceInfo| {
        if handle.state.load(Ordering::Relaxed) & STOP != 0 {
            handle.dice_stop.stop();
        }
        if let Some(callback) = c.on_info {
            let c_info = info_struct(info);
            // SAFETY: the caller's function and data, as `ChessSearchLimits` documents;
            // `c_info` lives through the call.
            unsafe { callback(&c_info, c.user_data) };
        }
    }
}

/// Runs `search` on the handle's Dice Chess engine for one export: claims the handle (busy
/// otherwise), brings the engine to the handle's `Hash` and `Threads`, reports each iteration
/// to the caller's callback (and turns `chess_engineStop` into a stop), and releases the
/// claim before returning, so the caller writes its outputs with the handle free.
fn with_dice_engine<T>(
    handle: &ChessEngine,
    c: &CLimits,
    search: impl FnOnce(&mut DiceEngine, &mut dyn FnMut(&DiceInfo)) -> Result<T, DiceSearchError>,
) -> Result<(T, u32), ChessStatus> {
    let mut claim = handle.claim()?;
    let mut dice = claim.dice()?;
    let mut report = reporter(handle, c);
    let r = search(&mut dice, &mut report).map_err(search_error)?;
    Ok((r, dice.hashfull()))
}

fn search_error(e: DiceSearchError) -> ChessStatus {
    match e {
        DiceSearchError::NotAwaitingMove => ChessStatus::CHESS_ERR_DICE_NOT_AWAITING_MOVE,
        DiceSearchError::NotAwaitingRoll => ChessStatus::CHESS_ERR_DICE_NOT_AWAITING_ROLL,
    }
}

/// Searches `*game`, whose dice are rolled, and writes the best move for the roll (0 = the
/// pass) into `*result`; in three dice the best whole turn, up to three micro-moves in order
/// (in the middle of a turn: the rest of it), and its value. Blocks until a limit is reached
/// or `chess_engineStop` is called. `*game` is not modified.
///
/// Errors, with nothing written: `CHESS_ERR_NULL_ARGUMENT`, `CHESS_ERR_DICE_INVALID_GAME`,
/// `CHESS_ERR_DICE_NOT_AWAITING_MOVE` (not rolled, or over), `CHESS_ERR_INVALID_LIMITS`,
/// `CHESS_ERR_DICE_UNSUPPORTED_LIMITS`, `CHESS_ERR_ENGINE_BUSY`, `CHESS_ERR_OUT_OF_MEMORY`
/// (the `Hash` size or the `Threads` threads could not be had).
///
/// # Safety
/// `engine` is NULL or a live engine; `game` is NULL or points to a `ChessDiceGame`;
/// `limits` is NULL or points to a `ChessSearchLimits`; `result` is NULL or valid for writes
/// of a `ChessDiceSearchResult`.
#[no_mangle]
pub unsafe extern "C" fn chess_diceSearch(
    engine: *mut ChessEngine,
    game: *const ChessDiceGame,
    limits: *const ChessSearchLimits,
    result: *mut ChessDiceSearchResult,
) -> ChessStatus {
    ffi_guard!({
        // SAFETY (each `try_ptr!`): the caller's contract.
        let handle = try_ptr!(engine_ref(engine));
        let g = try_ptr!(read_game(game));
        let raw = try_ptr!(input::<RawLimits, ChessSearchLimits>(limits));
        let out = try_ptr!(out::<ChessDiceSearchResult, ChessDiceSearchResult>(result));
        let (dl, c) = match dice_limits(raw, g) {
            Ok(x) => x,
            Err(s) => return s,
        };
        if g.status() != DiceStatus::AwaitingMove {
            return ChessStatus::CHESS_ERR_DICE_NOT_AWAITING_MOVE;
        }
        // The search runs on a copy: the callback may touch the caller's game.
        let root: DiceGame = g.clone();
        let (r, hashfull) =
            match with_dice_engine(handle, &c, |dice, report| dice.search(&root, &dl, report)) {
                Ok(x) => x,
                Err(s) => return s,
            };
        out.write(result_struct(&r, hashfull));
        ChessStatus::CHESS_OK
    })
}

/// The expected score in `[0, 1]` of `*game` before its roll for its side to move (the
/// search's value averaged over every roll) into `*expectedScore`. A finished game gives its
/// result (1 won, 0 lost, 0.5 drawn) at once. `*game` is not modified.
///
/// Errors, with nothing written: `CHESS_ERR_NULL_ARGUMENT`, `CHESS_ERR_DICE_INVALID_GAME`,
/// `CHESS_ERR_DICE_NOT_AWAITING_ROLL` (the dice are rolled), `CHESS_ERR_INVALID_LIMITS`,
/// `CHESS_ERR_DICE_UNSUPPORTED_LIMITS`, `CHESS_ERR_ENGINE_BUSY`, `CHESS_ERR_OUT_OF_MEMORY`.
///
/// # Safety
/// `engine` is NULL or a live engine; `game` is NULL or points to a `ChessDiceGame`;
/// `limits` is NULL or points to a `ChessSearchLimits`; `expectedScore` is NULL or valid for
/// writes.
#[no_mangle]
pub unsafe extern "C" fn chess_diceEvaluate(
    engine: *mut ChessEngine,
    game: *const ChessDiceGame,
    limits: *const ChessSearchLimits,
    expectedScore: *mut f64,
) -> ChessStatus {
    ffi_guard!({
        // SAFETY (each `try_ptr!`): the caller's contract.
        let handle = try_ptr!(engine_ref(engine));
        let g = try_ptr!(read_game(game));
        let raw = try_ptr!(input::<RawLimits, ChessSearchLimits>(limits));
        let out = try_ptr!(out::<f64, f64>(expectedScore));
        let (dl, c) = match dice_limits(raw, g) {
            Ok(x) => x,
            Err(s) => return s,
        };
        let score = match g.status() {
            DiceStatus::AwaitingMove => return ChessStatus::CHESS_ERR_DICE_NOT_AWAITING_ROLL,
            DiceStatus::Won { winner, .. } => {
                Some(if winner == g.side_to_move() { 1.0 } else { 0.0 })
            }
            DiceStatus::Drawn(_) => Some(0.5),
            DiceStatus::AwaitingRoll => None,
        };
        if let Some(s) = score {
            if let Err(st) = handle.claim() {
                return st;
            }
            out.write(s);
            return ChessStatus::CHESS_OK;
        }
        let root: DiceGame = g.clone();
        let (r, _) =
            match with_dice_engine(handle, &c, |dice, report| dice.evaluate(&root, &dl, report)) {
                Ok(x) => x,
                Err(s) => return s,
            };
        out.write(expected_score(r.value));
        ChessStatus::CHESS_OK
    })
}

/// The chances of a win, a draw and a loss of `*game` before its roll for its side to move
/// (they sum to 1), with the expected score `win + draw / 2`, into `*out`: the search's value
/// under `*limits` (as `chess_diceEvaluate`'s) read through the rule set's fitted model
/// (docs/results/dice-equity.md); a proven win or loss is certain. A finished game gives its
/// result at once (depth 0, no search). `*game` is not modified.
///
/// Errors, with nothing written: `CHESS_ERR_NULL_ARGUMENT`, `CHESS_ERR_DICE_INVALID_GAME`,
/// `CHESS_ERR_DICE_NOT_AWAITING_ROLL` (the dice are rolled), `CHESS_ERR_INVALID_LIMITS`,
/// `CHESS_ERR_DICE_UNSUPPORTED_LIMITS`, `CHESS_ERR_ENGINE_BUSY`, `CHESS_ERR_OUT_OF_MEMORY`.
///
/// # Safety
/// `engine` is NULL or a live engine; `game` is NULL or points to a `ChessDiceGame`;
/// `limits` is NULL or points to a `ChessSearchLimits`; `out` is NULL or valid for writes of
/// a `ChessDiceEquity`.
#[no_mangle]
pub unsafe extern "C" fn chess_diceEquity(
    engine: *mut ChessEngine,
    game: *const ChessDiceGame,
    limits: *const ChessSearchLimits,
    out: *mut ChessDiceEquity,
) -> ChessStatus {
    ffi_guard!({
        // SAFETY (each `try_ptr!`): the caller's contract.
        let handle = try_ptr!(engine_ref(engine));
        let g = try_ptr!(read_game(game));
        let raw = try_ptr!(input::<RawLimits, ChessSearchLimits>(limits));
        let out = try_ptr!(out::<ChessDiceEquity, ChessDiceEquity>(out));
        let (dl, c) = match dice_limits(raw, g) {
            Ok(x) => x,
            Err(s) => return s,
        };
        if g.status() == DiceStatus::AwaitingMove {
            return ChessStatus::CHESS_ERR_DICE_NOT_AWAITING_ROLL;
        }
        if let Some(e) = finished_equity(g) {
            // As chess_diceEvaluate: no search, but a busy handle still refuses.
            if let Err(st) = handle.claim() {
                return st;
            }
            out.write(equity_struct(&e));
            return ChessStatus::CHESS_OK;
        }
        let root: DiceGame = g.clone();
        let (e, _) =
            match with_dice_engine(handle, &c, |dice, report| dice.equity(&root, &dl, report)) {
                Ok(x) => x,
                Err(s) => return s,
            };
        out.write(equity_struct(&e));
        ChessStatus::CHESS_OK
    })
}

/// One search before the roll: for every outcome of `*game`'s roll (in the order of
/// `chess_diceOutcomes`), the roll, its weight and the best move or turn with its value,
/// into `out[0..*count]`. `capacity` must hold every outcome (`CHESS_DICE_MAX_OUTCOMES`
/// always suffice; fewer: `CHESS_ERR_BUFFER_TOO_SMALL`, nothing written). Each iteration
/// searches every roll; a stopped search keeps, for each roll, its deepest completed result
/// (`depth` 0 and the first legal move when none completed). The info callback's value is
/// the expectation over the rolls. `*game` is not modified.
///
/// Errors, with nothing written: `CHESS_ERR_NULL_ARGUMENT`, `CHESS_ERR_DICE_INVALID_GAME`,
/// `CHESS_ERR_DICE_NOT_AWAITING_ROLL` (rolled, or over), `CHESS_ERR_BUFFER_TOO_SMALL`,
/// `CHESS_ERR_INVALID_LIMITS`, `CHESS_ERR_DICE_UNSUPPORTED_LIMITS`, `CHESS_ERR_ENGINE_BUSY`,
/// `CHESS_ERR_OUT_OF_MEMORY`.
///
/// # Safety
/// `engine` is NULL or a live engine; `game` is NULL or points to a `ChessDiceGame`;
/// `limits` is NULL or points to a `ChessSearchLimits`; `out` is NULL or valid for writes of
/// `capacity` entries; `count` is NULL or valid for writes.
#[no_mangle]
pub unsafe extern "C" fn chess_diceSearchAllRolls(
    engine: *mut ChessEngine,
    game: *const ChessDiceGame,
    limits: *const ChessSearchLimits,
    out: *mut ChessDiceRollAdvice,
    capacity: u32,
    count: *mut u32,
) -> ChessStatus {
    ffi_guard!({
        // SAFETY (each `try_ptr!`): the caller's contract.
        let handle = try_ptr!(engine_ref(engine));
        let g = try_ptr!(read_game(game));
        let raw = try_ptr!(input::<RawLimits, ChessSearchLimits>(limits));
        let count = try_ptr!(out::<u32, u32>(count));
        if out.is_null() {
            return ChessStatus::CHESS_ERR_NULL_ARGUMENT;
        }
        let (dl, c) = match dice_limits(raw, g) {
            Ok(x) => x,
            Err(s) => return s,
        };
        if g.status() != DiceStatus::AwaitingRoll {
            return ChessStatus::CHESS_ERR_DICE_NOT_AWAITING_ROLL;
        }
        let n = g.outcomes().as_slice().len();
        let slots = try_ptr!(out_array(out, capacity as usize, n));
        let root: DiceGame = g.clone();
        let mut advice: Vec<RollAdvice> = Vec::new();
        if advice.try_reserve_exact(n).is_err() {
            return ChessStatus::CHESS_ERR_OUT_OF_MEMORY;
        }
        let ((), hashfull) = match with_dice_engine(handle, &c, |dice, report| {
            dice.search_all_rolls(&root, &dl, &mut advice, report)
        }) {
            Ok(x) => x,
            Err(s) => return s,
        };
        for (slot, a) in slots.iter_mut().zip(advice.iter()) {
            slot.write(ChessDiceRollAdvice {
                roll: ChessDiceRoll {
                    count: a.roll.count,
                    faces: a.roll.faces,
                },
                weight: a.weight,
                result: result_struct(&a.result, hashfull),
            });
        }
        count.write(advice.len() as u32);
        ChessStatus::CHESS_OK
    })
}
