//! The engine's C skin: `ChessEngine` handles over [`crate::search::Engine`], search limits
//! in, results and info out.
//!
//! One call at a time per engine. A handle holds a state word (`BUSY`, `STOP`): every call
//! that uses the engine (search, options, new game, evaluation) first claims it with one
//! compare-and-swap and gets `CHESS_ERR_ENGINE_BUSY` when another call holds it, so a second
//! caller never waits and never crashes. The claim also clears `STOP`, so a stop requested
//! before a search began does not stop it. `chess_engineStop` takes no lock: it sets `STOP`
//! and the search's own stop flag, and returns. The search clears its flag when it starts, so
//! a stop that lands between the claim and the start would be lost: the info callback wrapper
//! sees `STOP` at the first completed iteration and stops again. `chess_engineFree` stops and
//! claims the engine (retrying every millisecond) before it drops it, so it waits for a
//! running search.
//!
//! The handle also holds the Dice Chess engine ([`crate::dice::search::DiceEngine`], used by
//! `src/ffi/dice_search.rs`) under the same claim: its table starts at 1 MiB and takes the
//! `Hash` size on the first Dice Chess call after a change, and its helper threads (one
//! thread at first) follow the `Threads` option the same way: started at the first Dice
//! Chess call after a change, then kept asleep between searches until the option changes or
//! the handle is freed (at the call, never during the search); `chess_engineStop` stops
//! either search, new game and `Clear Hash` clear both tables.
//!
//! The engine itself sits in a `Mutex` for safe interior access; the claim makes it
//! uncontended (a poisoned lock, after a caught panic, is taken over: the engine's tables hold
//! no invariant a panic can break that the search relies on for memory safety).

use super::guard::{ffi_guard, try_ptr};
use super::{
    ChessMove, ChessPosition, ChessScoreBound, ChessSearchInfo, ChessSearchLimits,
    ChessSearchResult, ChessStatus, CHESS_MATE_SCORE, CHESS_MAX_PV, CHESS_MAX_SEARCH_MOVES,
    CHESS_SEARCH_LIMITS_RESERVED, CHESS_SEARCH_RESULT_RESERVED,
};
use crate::dice::search::{DiceEngine, DiceStopHandle};
use crate::moves::{Move, MoveList};
use crate::position::Position;
use crate::search::{
    Engine, Limits, Score, ScoreBound, SearchInfo, SearchResult, StopHandle, MATE,
};
use core::ffi::{c_char, c_void};
use core::mem::{offset_of, size_of};
use std::sync::atomic::{AtomicU32, AtomicUsize, Ordering};
use std::sync::{Mutex, MutexGuard, PoisonError};

const _: () = assert!(MATE == CHESS_MATE_SCORE);
// A handle is shared between the searching thread and those that stop or free it.
const _: fn() = || {
    fn shared_across_threads<T: Send + Sync>() {}
    shared_across_threads::<ChessEngine>();
};
const _: () = assert!(crate::search::MAX_PLY == CHESS_MAX_PV);

/// A call holds the engine.
const BUSY: u32 = 1;
/// `chess_engineStop` was called while a call held the engine.
pub(super) const STOP: u32 = 2;

/// A chess engine: hash table, search threads' tables and options. Opaque; made by
/// `chess_engineNew`, freed by `chess_engineFree`. Any number of engines may live side by side
/// and search at the same time, each on its own thread; one engine runs one call at a time
/// (see `CHESS_ERR_ENGINE_BUSY`). A handle is not tied to the thread that made it.
pub struct ChessEngine {
    pub(super) state: AtomicU32,
    /// The thread mark ([`thread_mark`]) of the call holding the engine, 0 when none.
    owner: AtomicUsize,
    stop: StopHandle,
    engine: Mutex<Engine>,
    pub(super) dice_stop: DiceStopHandle,
    dice: Mutex<DiceEngine>,
}

thread_local! {
    static MARK: u8 = const { 0 };
}

/// A number unique among the live threads (the address of a thread-local).
fn thread_mark() -> usize {
    MARK.with(|m| m as *const u8 as usize)
}

/// The engine, claimed for one call; dropping it releases the claim.
pub(super) struct Claim<'a> {
    handle: &'a ChessEngine,
    engine: Option<MutexGuard<'a, Engine>>,
}

impl ChessEngine {
    /// Claims the engine, or `CHESS_ERR_ENGINE_BUSY` when another call holds it. Clears a
    /// stop requested before the claim.
    pub(super) fn claim(&self) -> Result<Claim<'_>, ChessStatus> {
        self.state
            .compare_exchange(0, BUSY, Ordering::Acquire, Ordering::Relaxed)
            .or_else(|_| {
                // A stale STOP without BUSY: claim over it.
                self.state
                    .compare_exchange(STOP, BUSY, Ordering::Acquire, Ordering::Relaxed)
            })
            .map_err(|_| ChessStatus::CHESS_ERR_ENGINE_BUSY)?;
        self.owner.store(thread_mark(), Ordering::Relaxed);
        let engine = self.engine.lock().unwrap_or_else(PoisonError::into_inner);
        Ok(Claim {
            handle: self,
            engine: Some(engine),
        })
    }

    /// Asks the running search, if any, to stop.
    fn request_stop(&self) {
        self.state.fetch_or(STOP, Ordering::SeqCst);
        self.stop.stop();
        self.dice_stop.stop();
    }
}

impl Claim<'_> {
    fn engine(&mut self) -> &mut Engine {
        self.engine
            .as_mut()
            .expect("the guard lives as long as the claim")
    }

    /// The Dice Chess engine, its table resized to the `Hash` option and its threads set to
    /// the `Threads` option first where those changed (`CHESS_ERR_OUT_OF_MEMORY` when the
    /// memory or the threads cannot be had; the old table or threads stay).
    pub(super) fn dice(&mut self) -> Result<MutexGuard<'_, DiceEngine>, ChessStatus> {
        let mib = self.engine().hash_mib();
        let threads = self.engine().thread_count();
        let mut dice = self
            .handle
            .dice
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        if dice.hash_mib() != mib && !dice.set_hash_mib(mib) {
            return Err(ChessStatus::CHESS_ERR_OUT_OF_MEMORY);
        }
        if dice.threads() != threads && !dice.set_threads(threads) {
            return Err(ChessStatus::CHESS_ERR_OUT_OF_MEMORY);
        }
        Ok(dice)
    }

    /// Clears the Dice Chess table.
    fn clear_dice(&mut self) {
        self.handle
            .dice
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .new_game();
    }
}

impl Drop for Claim<'_> {
    fn drop(&mut self) {
        // The lock first: after the state store another thread may free the handle.
        drop(self.engine.take());
        self.handle.owner.store(0, Ordering::Relaxed);
        self.handle.state.store(0, Ordering::Release);
    }
}

/// Makes an engine with the defaults: 16 MiB hash, 1 thread, MultiPV 1, Move Overhead 10 ms.
/// NULL when the memory cannot be had. Free it with `chess_engineFree`.
#[no_mangle]
pub extern "C" fn chess_engineNew() -> *mut ChessEngine {
    ffi_guard!(core::ptr::null_mut(), {
        let Some(engine) = Engine::try_new() else {
            return core::ptr::null_mut();
        };
        let Some(dice) = DiceEngine::try_new(1) else {
            return core::ptr::null_mut();
        };
        Box::into_raw(Box::new(ChessEngine {
            state: AtomicU32::new(0),
            owner: AtomicUsize::new(0),
            stop: engine.stop_handle(),
            engine: Mutex::new(engine),
            dice_stop: dice.stop_handle(),
            dice: Mutex::new(dice),
        }))
    })
}

/// Frees an engine (NULL is fine). A search running on another thread is stopped first and
/// waited for (its `chess_search` returns normally); no call may use the engine once this
/// returns. Called from the engine's own `onInfo` callback, it only stops the search and
/// frees nothing (it cannot wait for the search it runs in): free it after `chess_search`
/// returns.
///
/// # Safety
/// `engine` is NULL or a pointer from `chess_engineNew` not yet freed.
#[no_mangle]
pub unsafe extern "C" fn chess_engineFree(engine: *mut ChessEngine) {
    ffi_guard!((), {
        // SAFETY: the caller's contract.
        let Ok(handle) = (unsafe { super::guard::engine_ref(engine) }) else {
            return;
        };
        loop {
            handle.request_stop();
            match handle.claim() {
                Ok(claim) => {
                    drop(claim);
                    break;
                }
                Err(_) if handle.owner.load(Ordering::Relaxed) == thread_mark() => return,
                Err(_) => std::thread::sleep(std::time::Duration::from_millis(1)),
            }
        }
        // SAFETY: from `Box::into_raw` in `chess_engineNew`, not freed yet (the caller's
        // contract), and no call holds it any more.
        drop(unsafe { Box::from_raw(engine) });
    })
}

/// Sets an option, by its UCI name and value (names compare without regard to case; both are
/// trimmed): `Hash` (MiB, 1..65536, default 16; the table is emptied when its size changes),
/// `Threads` (1..256, default 1; Lazy SMP, for the chess and the Dice Chess searches),
/// `Clear Hash` (a button: `value` is ignored, pass ""), `Ponder` (`true`/`false`,
/// informational), `Move Overhead` (ms subtracted from each move's time for transmission,
/// 0..5000, default 10), `MultiPV` (lines reported per iteration, 1..256, default 1),
/// `UCI_LimitStrength` (`true`/`false`, default false: play at the strength `UCI_Elo` asks)
/// `UCI_Elo` (1320..2600, default 1800; docs/engine.md) and `EvalFile` (the evaluation:
/// `<hand>` or "" the hand-written one, the default; `<embedded>` the network built in, if
/// any; else the path of a network file, docs/nnue.md; a change empties the hash table).
/// Errors: `CHESS_ERR_UNKNOWN_OPTION`, `CHESS_ERR_BAD_OPTION_VALUE`, `CHESS_ERR_OUT_OF_MEMORY`
/// (the old table stays), `CHESS_ERR_EVAL_FILE_UNREADABLE` and `CHESS_ERR_EVAL_FILE_INVALID`
/// (the evaluation stays), `CHESS_ERR_ENGINE_BUSY` during a search,
/// `CHESS_ERR_INVALID_ARGUMENT` for text that is not UTF-8; the engine is then unchanged.
///
/// # Safety
/// `engine` is NULL or a live engine; `name` and `value` are NULL or NUL-terminated strings.
#[no_mangle]
pub unsafe extern "C" fn chess_engineSetOption(
    engine: *mut ChessEngine,
    name: *const c_char,
    value: *const c_char,
) -> ChessStatus {
    ffi_guard!({
        // SAFETY: the caller's contract.
        let handle = try_ptr!(engine_ref(engine));
        let name = try_ptr!(c_str(name));
        let value = try_ptr!(c_str(value));
        let mut claim = match handle.claim() {
            Ok(c) => c,
            Err(s) => return s,
        };
        match claim.engine().set_option(name, value) {
            Ok(()) => {
                if name.trim().eq_ignore_ascii_case("Clear Hash") {
                    claim.clear_dice();
                }
                ChessStatus::CHESS_OK
            }
            Err(e) => ChessStatus::from(e),
        }
    })
}

/// A new game: clears the hash table and the history tables (`CHESS_ERR_ENGINE_BUSY` during a
/// search).
///
/// # Safety
/// `engine` is NULL or a live engine.
#[no_mangle]
pub unsafe extern "C" fn chess_engineNewGame(engine: *mut ChessEngine) -> ChessStatus {
    ffi_guard!({
        // SAFETY: the caller's contract.
        let handle = try_ptr!(engine_ref(engine));
        let mut claim = match handle.claim() {
            Ok(c) => c,
            Err(s) => return s,
        };
        claim.engine().new_game();
        claim.clear_dice();
        ChessStatus::CHESS_OK
    })
}

/// Asks the engine's running search to stop: `chess_search` returns its result (the best
/// move of the deepest iteration) within milliseconds. Returns at once; safe from any thread,
/// also from the search's `onInfo` callback. A stop while no search runs is ignored (it does
/// not stop the next one). NULL is fine.
///
/// # Safety
/// `engine` is NULL or a live engine.
#[no_mangle]
pub unsafe extern "C" fn chess_engineStop(engine: *mut ChessEngine) {
    ffi_guard!((), {
        // SAFETY: the caller's contract.
        if let Ok(handle) = unsafe { super::guard::engine_ref(engine) } {
            handle.request_stop();
        }
    })
}

/// The move the engine ponders on was played: a search started with `ponder` set starts
/// counting its time limits now. Returns at once; safe from any thread, also from the
/// search's `onInfo` callback. Ignored while no call holds the engine. NULL is fine.
///
/// # Safety
/// `engine` is NULL or a live engine.
#[no_mangle]
pub unsafe extern "C" fn chess_enginePonderHit(engine: *mut ChessEngine) {
    ffi_guard!((), {
        // SAFETY: the caller's contract.
        if let Ok(handle) = unsafe { super::guard::engine_ref(engine) } {
            // The search clears the flag when it ends, not when it starts: a ponderhit while
            // idle would make the next pondering search count its time from the start.
            if handle.state.load(Ordering::SeqCst) & BUSY != 0 {
                handle.stop.ponderhit();
            }
        }
    })
}

/// Sets every field of `*limits` to "no limit" (depth, nodes, movestogo and mate 0; the times
/// -1; not infinite, not pondering; no search moves, no callback), `size` to
/// `sizeof(ChessSearchLimits)` and `reserved` to zeros. `*limits` may be uninitialised; every
/// byte is written. NULL is ignored.
///
/// # Safety
/// `limits` is NULL or valid for writes of a `ChessSearchLimits`.
#[no_mangle]
pub unsafe extern "C" fn chess_searchLimitsInit(limits: *mut ChessSearchLimits) {
    ffi_guard!((), {
        // SAFETY: the caller's contract.
        let Ok(out) = (unsafe { super::guard::out::<ChessSearchLimits, _>(limits) }) else {
            return;
        };
        out.write(ChessSearchLimits {
            size: size_of::<ChessSearchLimits>() as u32,
            depth: 0,
            nodes: 0,
            movetimeMs: -1,
            wtimeMs: -1,
            btimeMs: -1,
            wincMs: -1,
            bincMs: -1,
            movestogo: 0,
            mate: 0,
            searchMoves: core::ptr::null(),
            onInfo: None,
            userData: core::ptr::null_mut(),
            searchMovesCount: 0,
            infinite: false,
            ponder: false,
            reserved: [0; CHESS_SEARCH_LIMITS_RESERVED],
        });
    })
}

/// `ChessSearchLimits` as bytes read from C: its bools as `u8`, so any byte is a value here
/// (a `bool` holding 2 would be undefined behaviour in Rust); checked by [`read_limits`].
#[repr(C)]
pub(super) struct RawLimits {
    size: u32,
    depth: i32,
    nodes: u64,
    movetime_ms: i64,
    wtime_ms: i64,
    btime_ms: i64,
    winc_ms: i64,
    binc_ms: i64,
    movestogo: u32,
    mate: u32,
    search_moves: *const ChessMove,
    on_info: super::ChessInfoCallback,
    user_data: *mut c_void,
    pub(super) search_moves_count: u32,
    infinite: u8,
    ponder: u8,
    reserved: [u8; CHESS_SEARCH_LIMITS_RESERVED],
}

const _: () = {
    assert!(size_of::<RawLimits>() == size_of::<ChessSearchLimits>());
    assert!(core::mem::align_of::<RawLimits>() == core::mem::align_of::<ChessSearchLimits>());
    assert!(offset_of!(RawLimits, nodes) == offset_of!(ChessSearchLimits, nodes));
    assert!(offset_of!(RawLimits, binc_ms) == offset_of!(ChessSearchLimits, bincMs));
    assert!(offset_of!(RawLimits, mate) == offset_of!(ChessSearchLimits, mate));
    assert!(offset_of!(RawLimits, search_moves) == offset_of!(ChessSearchLimits, searchMoves));
    assert!(offset_of!(RawLimits, on_info) == offset_of!(ChessSearchLimits, onInfo));
    assert!(offset_of!(RawLimits, user_data) == offset_of!(ChessSearchLimits, userData));
    assert!(
        offset_of!(RawLimits, search_moves_count)
            == offset_of!(ChessSearchLimits, searchMovesCount)
    );
    assert!(offset_of!(RawLimits, infinite) == offset_of!(ChessSearchLimits, infinite));
    assert!(offset_of!(RawLimits, ponder) == offset_of!(ChessSearchLimits, ponder));
    assert!(offset_of!(RawLimits, reserved) == offset_of!(ChessSearchLimits, reserved));
};

/// The search's limits from the C struct, the callback and its data; the search moves are
/// checked for legality in `pos` separately ([`search_moves`]).
pub(super) struct CLimits {
    pub(super) limits: Limits,
    pub(super) on_info: super::ChessInfoCallback,
    pub(super) user_data: *mut c_void,
}

/// Checks the shape of `raw` (`CHESS_ERR_INVALID_LIMITS`) and converts it.
pub(super) fn read_limits(raw: &RawLimits) -> Result<CLimits, ChessStatus> {
    let bad = ChessStatus::CHESS_ERR_INVALID_LIMITS;
    if raw.size as usize != size_of::<ChessSearchLimits>() || raw.reserved.iter().any(|&b| b != 0) {
        return Err(bad);
    }
    let flag = |b: u8| match b {
        0 => Ok(false),
        1 => Ok(true),
        _ => Err(bad),
    };
    // -1: not given; other negative values refused.
    let duration = |ms: i64| match ms {
        -1 => Ok(None),
        ms if ms >= 0 => Ok(Some(ms)),
        _ => Err(bad),
    };
    // -1: not given; other values are the clock (negative: it has run out).
    let clock = |ms: i64| if ms == -1 { None } else { Some(ms) };
    if raw.depth < 0
        || raw.search_moves_count > CHESS_MAX_SEARCH_MOVES
        || (raw.search_moves_count > 0 && raw.search_moves.is_null())
    {
        return Err(bad);
    }
    Ok(CLimits {
        limits: Limits {
            depth: raw.depth as u32,
            nodes: raw.nodes,
            movetime_ms: duration(raw.movetime_ms)?.map(|ms| ms as u64),
            wtime_ms: clock(raw.wtime_ms),
            btime_ms: clock(raw.btime_ms),
            winc_ms: duration(raw.winc_ms)?,
            binc_ms: duration(raw.binc_ms)?,
            movestogo: raw.movestogo,
            infinite: flag(raw.infinite)?,
            ponder: flag(raw.ponder)?,
            mate: raw.mate,
            search_moves: MoveList::new(),
        },
        on_info: raw.on_info,
        user_data: raw.user_data,
    })
}

/// The search moves of `raw` as a list, each legal in `pos` (`CHESS_ERR_ILLEGAL_MOVE`).
///
/// # Safety
/// `raw.search_moves` is valid for reads of `raw.search_moves_count` moves when the count is
/// not 0 (checked by [`read_limits`]: at most 256, and not NULL).
unsafe fn search_moves(raw: &RawLimits, pos: &Position) -> Result<MoveList, ChessStatus> {
    let mut list = MoveList::new();
    if raw.search_moves_count == 0 {
        return Ok(list);
    }
    // SAFETY: the caller's contract (non-NULL, `count` moves).
    let moves =
        unsafe { core::slice::from_raw_parts(raw.search_moves, raw.search_moves_count as usize) };
    for &m in moves {
        let m = Move::from_raw(m);
        if !pos.is_legal(m) {
            return Err(ChessStatus::CHESS_ERR_ILLEGAL_MOVE);
        }
        list.push(m);
    }
    Ok(list)
}

/// `scoreCp` and `mateIn` of a score: the internal value (centipawns, or ±(MATE - plies)) and
/// the moves to mate.
fn score_fields(score: Score, internal: i32) -> (i32, i32) {
    match score {
        Score::Cp(cp) => (cp, 0),
        Score::Mate(0) => (-CHESS_MATE_SCORE, 0),
        Score::Mate(n) => (internal, n),
    }
}

/// A principal variation as a fixed array, zero past its length.
pub(super) fn pv_array(pv: &[Move]) -> ([ChessMove; CHESS_MAX_PV], u32) {
    let mut out = [0; CHESS_MAX_PV];
    let n = pv.len().min(CHESS_MAX_PV);
    for (slot, m) in out.iter_mut().zip(&pv[..n]) {
        *slot = m.raw();
    }
    (out, n as u32)
}

fn info_struct(info: &SearchInfo) -> ChessSearchInfo {
    let (score_cp, mate_in) = score_fields(info.score, info.score_internal);
    let (pv, pv_len) = pv_array(info.pv);
    ChessSearchInfo {
        size: size_of::<ChessSearchInfo>() as u32,
        depth: info.depth,
        seldepth: info.seldepth,
        multipv: info.multipv,
        scoreCp: score_cp,
        mateIn: mate_in,
        bound: match info.bound {
            ScoreBound::Exact => ChessScoreBound::CHESS_BOUND_EXACT,
            ScoreBound::Lower => ChessScoreBound::CHESS_BOUND_LOWER,
            ScoreBound::Upper => ChessScoreBound::CHESS_BOUND_UPPER,
        },
        hashfull: info.hashfull,
        nodes: info.nodes,
        nps: info.nps,
        timeMs: info.time_ms,
        pvLength: pv_len,
        pv,
        reserved: 0,
    }
}

fn result_struct(r: &SearchResult) -> ChessSearchResult {
    let (score_cp, mate_in) = score_fields(r.score, r.score_internal);
    let (pv, pv_len) = pv_array(r.pv());
    ChessSearchResult {
        size: size_of::<ChessSearchResult>() as u32,
        bestMove: r.best_move.map_or(0, Move::raw),
        ponderMove: r.ponder_move.map_or(0, Move::raw),
        scoreCp: score_cp,
        mateIn: mate_in,
        depth: r.depth,
        seldepth: r.seldepth,
        nodes: r.nodes,
        timeMs: r.time_ms,
        pvLength: pv_len,
        pv,
        reserved: [0; CHESS_SEARCH_RESULT_RESERVED],
    }
}

/// Searches `*pos` under `*limits` and writes the outcome into `*result`; blocks until the
/// search ends (a limit is reached, `chess_engineStop` is called, or depth 127 is done).
/// `*pos` is not modified (the search runs on a copy, and repetitions are judged against the
/// position's own history, so a game played move by move with `chess_makeMove` is handled);
/// it is checked as fully as `chess_validatePosition` does. A position without a legal move
/// returns at once (see `ChessSearchResult`).
///
/// Errors, with nothing written: `CHESS_ERR_NULL_ARGUMENT`, `CHESS_ERR_INVALID_POSITION`,
/// `CHESS_ERR_INVALID_LIMITS` (see `ChessSearchLimits`), `CHESS_ERR_ILLEGAL_MOVE` (a search
/// move that is not legal here), `CHESS_ERR_ENGINE_BUSY` (another call on this engine is
/// running; the running search goes on).
///
/// # Safety
/// `engine` is NULL or a live engine; `pos` is NULL or points to a `ChessPosition`; `limits`
/// is NULL or points to a `ChessSearchLimits` (its `searchMoves` as documented there); `result`
/// is NULL or valid for writes of a `ChessSearchResult`.
#[no_mangle]
pub unsafe extern "C" fn chess_search(
    engine: *mut ChessEngine,
    pos: *const ChessPosition,
    limits: *const ChessSearchLimits,
    result: *mut ChessSearchResult,
) -> ChessStatus {
    ffi_guard!({
        // SAFETY (each `try_ptr!`): the caller's contract.
        let handle = try_ptr!(engine_ref(engine));
        let position = try_ptr!(trusted_position(pos));
        let raw = try_ptr!(input::<RawLimits, ChessSearchLimits>(limits));
        let out = try_ptr!(out::<ChessSearchResult, ChessSearchResult>(result));
        let CLimits {
            mut limits,
            on_info,
            user_data,
        } = match read_limits(raw) {
            Ok(l) => l,
            Err(s) => return s,
        };
        // SAFETY: `read_limits` checked the count and the pointer; the array is the caller's.
        limits.search_moves = match unsafe { search_moves(raw, position) } {
            Ok(list) => list,
            Err(s) => return s,
        };
        // The search runs on a copy: the callback may touch the caller's position.
        let root = position.clone();
        let mut claim = match handle.claim() {
            Ok(c) => c,
            Err(s) => return s,
        };
        let mut report = |info: &SearchInfo| {
            // A stop requested before the search cleared its flag: stop again.
            if handle.state.load(Ordering::Relaxed) & STOP != 0 {
                handle.stop.stop();
            }
            if let Some(callback) = on_info {
                let c_info = info_struct(info);
                // SAFETY: the caller's function and data, as `ChessSearchLimits` documents;
                // `c_info` lives through the call.
                unsafe { callback(&c_info, user_data) };
            }
        };
        let r = claim.engine().search(&root, &limits, &mut report);
        drop(claim);
        out.write(result_struct(&r));
        ChessStatus::CHESS_OK
    })
}

/// The static evaluation of `*pos` in centipawns from the side to move's view, into
/// `*centipawns` (`CHESS_ERR_ENGINE_BUSY` during a search). `*pos` is checked as
/// `chess_search` checks it and not modified.
///
/// # Safety
/// `engine` is NULL or a live engine; `pos` is NULL or points to a `ChessPosition`;
/// `centipawns` is NULL or valid for writes.
#[no_mangle]
pub unsafe extern "C" fn chess_evaluate(
    engine: *mut ChessEngine,
    pos: *const ChessPosition,
    centipawns: *mut i32,
) -> ChessStatus {
    ffi_guard!({
        // SAFETY (each `try_ptr!`): the caller's contract.
        let handle = try_ptr!(engine_ref(engine));
        let position = try_ptr!(trusted_position(pos));
        let out = try_ptr!(out::<i32, i32>(centipawns));
        let mut claim = match handle.claim() {
            Ok(c) => c,
            Err(s) => return s,
        };
        out.write(claim.engine().evaluate(position));
        ChessStatus::CHESS_OK
    })
}
