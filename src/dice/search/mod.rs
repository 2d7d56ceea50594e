//! The Dice Chess engine: expectimax with Star1 and Star2 pruning, a transposition table and
//! iterative deepening, behind one handle ([`DiceEngine`]).
//!
//! Module map: `expectimax` (the searcher, the value arithmetic and why it is exact),
//! `chance` (chance nodes: outcome bounds, Star2's probes, Star1's phase), `decision`
//! (decision nodes: one node, its strategy chosen from the configuration: all moves, sleep
//! sets, a seeded move, per-type sharing), `config` ([`SearchConfig`]), `quiescence`,
//! `sleep` (three-dice sleep sets), `tt` (the table and its keys, shared by the threads
//! without locks), `evalcache` (each thread's static values by game key), `smp` (Lazy SMP:
//! the helper threads), `order` (move and outcome ordering), [`player`] (the engine and
//! plain expectimax as [`crate::dice::Player`]s). Matches between players (the arena) live with
//! `chesscore dice match`, in the binary.
//!
//! # Design
//! [`DiceEngine`] owns its table (allocated when the engine is made or resized with
//! [`DiceEngine::set_hash_mib`], never during a search), its evaluator with a 1 MiB cache of
//! static values per search thread ([`SearchConfig::eval_cache`]), a stop flag
//! ([`DiceStopHandle`]) and its helper threads ([`DiceEngine::set_threads`]: started when the
//! count is set, asleep between searches). A search allocates nothing, on any thread
//! (tests/dice_search_no_alloc.rs and tests/dice_smp_no_alloc.rs count). The C ABI keeps one
//! `DiceEngine` beside the chess engine in each `ChessEngine` handle, made on the first Dice
//! Chess call, taking the handle's `Hash` and `Threads` options, so the handle's busy state,
//! stop and options serve both.
//!
//! # Threads
//! With `n > 1` threads the search is Lazy SMP (`smp.rs`): the calling thread (the main
//! one, whose result is returned) and `n - 1` helpers search the same root and share the
//! table; helpers start one turn deeper (odd ones), rotate their root moves and (with
//! [`SearchConfig::split_outcomes`]) take every chance node's outcomes from another starting
//! point, so they fill the table with what the main thread needs next. The stop flag, the time limit and
//! the node limit (every thread's nodes together) stop every thread; `nodes` is every
//! thread's. Every thread searches with the configuration as set, the table's mode
//! included: in the fast mode results may differ from run to run (which entries another
//! thread stored first decides what is reused); the exact mode stays exact (an entry is
//! reused only at the same remaining depth and distance from the root, where a subtree's
//! value is the same whichever thread stored it), so values and moves are those of the
//! single-threaded search and only node counts vary. A configuration without the table
//! ignores the helpers. With one thread (the
//! default) the search is exactly the single-threaded one: same values, moves and node
//! counts (tests/dice_smp.rs checks it after thread counts have changed).
//!
//! Depth counts turns (a three-dice turn of up to three micro-moves is one ply); chance
//! nodes cost no depth. [`SearchConfig`] switches each technique on or off: the tests prove
//! that every switch set returns the value of plain expectimax at a fixed depth, the
//! benchmark measures what each saves, and the `expectimax` player is [`SearchConfig::PLAIN`].
//!
//! # Values
//! Values are for the side to move on the evaluator's scale: heuristic values in
//! `-EVAL_MAX..=EVAL_MAX` (an expected score `(v + EVAL_MAX) / (2 EVAL_MAX)`), a win `n`
//! turns from the root `WIN - n`, a loss `-(WIN - n)`. Values in the band
//! `WIN - MAX_PLY..=WIN` read as "win in `n` turns" ([`win_in`]); a chance node that mixes a
//! proven win with heuristic values averages them, so values between `EVAL_MAX` and the band
//! are near-certain wins without a distance.
//!
//! # Decisions
//! * Sharing: the six two-dice doubles allow the same moves, so with
//!   [`SearchConfig::share_doubles`] they are one outcome of weight 6; beyond that, the position
//!   after a move does not depend on the roll that allowed it, and three-dice micro-move
//!   orders that reach the same position coincide, so the table (keyed by position, phase
//!   and dice left) shares those subtrees between outcomes. Below the root turn, with
//!   [`SearchConfig::sleep_sets`], a three-dice turn plays each set of commuting
//!   micro-moves in one order only (`sleep.rs`): the table cannot merge the nodes before a
//!   turn's last micro-move (they have different dice left), and the sleep sets leave the
//!   repeated orders out; half the three-dice nodes at depth 2. In two dice, with
//!   [`SearchConfig::share_types`], a chance node searches each piece type's moves once and
//!   shares the result among the outcomes that allow the type (see `expectimax`).
//! * The static-value cache ([`SearchConfig::eval_cache`]): the table shares nodes, but a
//!   three-dice leaf is reached from several nodes (after micro-moves `a` then `b` one die
//!   is left, after `a` then `c` another), so each thread keeps the evaluator's values by
//!   game key: 66% of the three-dice leaves are answered there. It changes no node, value
//!   or move; it is in every named configuration, plain expectimax's too, as a faster
//!   evaluation is (the baseline of the matches gets it as well).
//! * Exact node savers beside Star1/Star2, each a switch kept in [`SearchConfig::ALL`] because
//!   the benchmark shows fewer nodes at the same values (docs/dice-search.md has the
//!   numbers): [`SearchConfig::bounds`], [`Pruning::Star2`]'s leaf probes,
//!   [`MoveOrder::Eval`], and Star2's probe order.
//! * The table's exact mode ([`TableMode::Exact`]) reuses an entry only at the same
//!   remaining depth and distance from the root, so the value is that of the search without
//!   the table; the default (fast) mode reuses deeper entries too, which changes values
//!   (for the better, usually) and is what the players use.
//! * Iterative deepening: an iteration is not started after the soft limit, half the move
//!   time unless the time manager (`time`, [`DiceLimits::on_clock`]) sets it (each
//!   one costs about ten times the last); a stopped iteration keeps the best of its root
//!   moves searched completely (the previous best is searched first, so one that beats it
//!   is better at the deeper depth), and never compares a move whose search was cut short.
//!   Only a king capture (or mate) at the root ends the deepening before a limit: a value
//!   in the win band lower down may be an average of a proven win and heuristic values,
//!   which a deeper search can change.
//! * Lazy SMP rather than root splitting: it needs no work queue, keeps the single-thread
//!   code path unchanged, and in expectimax the shared table is what saves work (helpers
//!   searching other root moves, other outcomes and deeper iterations store the subtrees
//!   the main thread reaches next). The exact mode holds on several threads too, which
//!   was root splitting's one advantage.
//! * Quiescence (`quiescence`, [`Leaves::Quiescence`]) at depth-0 chance nodes: captures
//!   weighted by the chance of rolling them; on in [`SearchConfig::ALL`] for two dice only,
//!   where a match showed it gains (docs/dice-search.md has the numbers).

mod chance;
mod config;
mod decision;
mod evalcache;
mod expectimax;
mod order;
pub mod player;
mod quiescence;
mod sleep;
mod smp;
mod time;
mod tt;

use crate::dice::eval::wdl::{self, Wdl};
use crate::dice::eval::{DiceEvaluator, EVAL_MAX};
use crate::dice::game::DiceGame;
pub use crate::dice::player::DiceClock;
use crate::dice::roll::{Outcomes, Roll};
use crate::dice::rules::Rules;
use crate::dice::status::DiceStatus;
use crate::dice::Phase;
use crate::moves::Move;
pub use config::{Leaves, MoveOrder, Pruning, RuleSets, Sampling, SearchConfig, TableMode};
use evalcache::EvalCache;
pub use expectimax::TurnLine;
use expectimax::{OutcomeList, Searcher, NEG_INF, POS_INF};
pub use quiescence::QS_DEPTH;
use smp::{HelperSlot, Helpers, RootKind};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Instant;
pub use time::{MAX_SHARE_PERCENT, MOVE_OVERHEAD_MS, RESERVE_MS, SOFT_PERCENT, TURNS_LEFT};
use tt::DiceTable;

/// The value of a king capture (or a two-dice mate) at the root; `n` turns later `WIN - n`.
pub const WIN: i32 = EVAL_MAX + 256;
/// Deepest search in turns (also the width of the "win in n" band).
pub const MAX_PLY: u32 = 64;

/// The turns to a proven win (positive) or loss (negative) a value stands for, counting the
/// turn being played (a king capture now: 1), if it lies in the band.
pub fn win_in(value: i32) -> Option<i32> {
    if value >= WIN - MAX_PLY as i32 {
        Some(WIN - value + 1)
    } else if value <= -(WIN - MAX_PLY as i32) {
        Some(-(WIN + value + 1))
    } else {
        None
    }
}

/// The expected score in `[0, 1]` a value stands for (wins 1, losses 0).
pub fn expected_score(value: i32) -> f64 {
    let v = value.clamp(-EVAL_MAX, EVAL_MAX) as f64;
    (v + EVAL_MAX as f64) / (2.0 * EVAL_MAX as f64)
}

/// The chances of a win, a draw and a loss for the side to move that a value stands for
/// under `rules`: a proven win ([`win_in`] positive) is a sure win, a proven loss a sure
/// loss, any other value goes through the rule set's fitted model
/// ([`crate::dice::eval::wdl`]; values between `EVAL_MAX` and the win band read as
/// `EVAL_MAX`).
pub fn wdl_of(rules: Rules, value: i32) -> Wdl {
    match win_in(value) {
        Some(n) if n > 0 => Wdl::WIN,
        Some(_) => Wdl::LOSS,
        None => wdl::wdl(rules, value),
    }
}

/// The equity of a finished game: its result for the side to move (won, lost, drawn), with
/// the result's value ([`WIN`], `-WIN`, 0) at depth 0; `None` while the game goes on.
pub fn finished_equity(game: &DiceGame) -> Option<DiceEquity> {
    let (wdl, value) = match game.status() {
        DiceStatus::Won { winner, .. } if winner == game.side_to_move() => (Wdl::WIN, WIN),
        DiceStatus::Won { .. } => (Wdl::LOSS, -WIN),
        DiceStatus::Drawn(_) => (Wdl::DRAW, 0),
        DiceStatus::AwaitingRoll | DiceStatus::AwaitingMove => return None,
    };
    Some(DiceEquity {
        wdl,
        value,
        depth: 0,
        nodes: 0,
        time_ms: 0,
    })
}

/// Win chances before the roll, from [`DiceEngine::equity`].
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct DiceEquity {
    /// The chances of a win, a draw and a loss for the side to move (they sum to 1).
    pub wdl: Wdl,
    /// The search's value they come from (see the [module docs](self)); for a finished
    /// game its result's ([`WIN`], `-WIN`, 0 drawn).
    pub value: i32,
    /// Depth of the last completed iteration (0 for a finished game).
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// Milliseconds taken.
    pub time_ms: u64,
}

impl DiceEquity {
    /// The expected score, `win + draw / 2`.
    pub fn expected_score(&self) -> f64 {
        self.wdl.expected_score()
    }
}

/// What a Dice Chess search may use. `Default`: no limit (stopped only by
/// [`DiceStopHandle::stop`] or [`MAX_PLY`]).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct DiceLimits {
    /// Maximum depth in turns (0 = none).
    pub depth: u32,
    /// Maximum nodes (0 = none).
    pub nodes: u64,
    /// Time for this search in ms: the hard limit, checked every 1024 nodes.
    pub movetime_ms: Option<u64>,
    /// No iteration starts after this many ms (`None`: half of `movetime_ms`). Set by the
    /// time manager ([`DiceLimits::on_clock`]).
    pub soft_ms: Option<u64>,
}

impl DiceLimits {
    /// The time for one search with `clock_ms` left on the mover's clock, `inc_ms` added a
    /// turn and `movestogo` turns to the next time control (0: none): the clock over the
    /// turns to go (25 when none, at most 50) plus three quarters of the increment, never
    /// more than four fifths of the clock, at least 1 ms. Saturating: any clock is accepted.
    ///
    /// This budget knows nothing of the rules or the position; a game on a clock, the C
    /// ABI's included, uses the time manager, [`DiceLimits::on_clock`]. Kept for callers
    /// and as the baseline it was measured against (docs/results/dice-clock.md).
    ///
    /// ```
    /// use chesscore::dice::search::DiceLimits;
    /// assert_eq!(DiceLimits::clock_budget_ms(10_000, 100, 0), 475);
    /// assert_eq!(DiceLimits::clock_budget_ms(10_000, 0, 2), 5_000);
    /// assert_eq!(DiceLimits::clock_budget_ms(-5, 0, 0), 1);
    /// assert!(DiceLimits::clock_budget_ms(i64::MAX, i64::MAX, 0) > 1 << 60);
    /// ```
    pub fn clock_budget_ms(clock_ms: i64, inc_ms: i64, movestogo: u32) -> u64 {
        let t = clock_ms.max(0) as u64;
        let inc = inc_ms.max(0) as u64;
        let togo = if movestogo > 0 {
            u64::from(movestogo.min(50))
        } else {
            25
        };
        (t / togo)
            .saturating_add(inc / 4 * 3 + inc % 4 * 3 / 4)
            .min(t / 5 * 4 + t % 5 * 4 / 5)
            .max(1)
    }

    /// A fixed depth.
    pub fn depth(depth: u32) -> DiceLimits {
        DiceLimits {
            depth,
            ..DiceLimits::default()
        }
    }

    /// A fixed time in ms.
    pub fn movetime(ms: u64) -> DiceLimits {
        DiceLimits {
            movetime_ms: Some(ms),
            ..DiceLimits::default()
        }
    }
}

/// Reported after each completed iteration.
#[derive(Clone, Debug)]
pub struct DiceInfo {
    /// The iteration's depth in turns.
    pub depth: u32,
    /// The value (see the [module docs](self)).
    pub value: i32,
    /// Nodes so far.
    pub nodes: u64,
    /// Milliseconds so far.
    pub time_ms: u64,
    /// Permille of the table in use.
    pub hashfull: u32,
    /// The best turn so far (empty before the roll or for the pass).
    pub line: TurnLine,
}

/// The outcome of a search.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct DiceSearchResult {
    /// The best turn: its first move is the move to play now ([`Move::NONE`]: the pass); in
    /// three dice up to three micro-moves in order.
    pub line: TurnLine,
    /// The value for the side to move.
    pub value: i32,
    /// Depth of the last iteration that decided the result.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// Milliseconds taken.
    pub time_ms: u64,
}

impl DiceSearchResult {
    /// The move to play now ([`Move::NONE`]: the pass).
    pub fn best_move(&self) -> Move {
        self.line.first()
    }
}

/// One roll's advice from [`DiceEngine::search_all_rolls`].
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct RollAdvice {
    /// The roll.
    pub roll: Roll,
    /// Its weight (over the outcomes' denominator).
    pub weight: u32,
    /// The best turn and its value for this roll.
    pub result: DiceSearchResult,
}

/// Why a search was refused.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum DiceSearchError {
    /// [`DiceEngine::search`] needs a game awaiting a move.
    NotAwaitingMove,
    /// [`DiceEngine::evaluate`] and [`DiceEngine::search_all_rolls`] need a game awaiting
    /// its roll (and not over).
    NotAwaitingRoll,
}

impl DiceSearchError {
    /// A short description.
    pub const fn message(self) -> &'static str {
        match self {
            DiceSearchError::NotAwaitingMove => "the game is not awaiting a move",
            DiceSearchError::NotAwaitingRoll => "the game is not awaiting a roll",
        }
    }
}

/// Stops a running Dice Chess search from any thread. Cheap to clone.
#[derive(Clone, Debug)]
pub struct DiceStopHandle(Arc<AtomicBool>);

impl DiceStopHandle {
    /// Asks the running search (if any) to stop; it returns within milliseconds.
    pub fn stop(&self) {
        self.0.store(true, Ordering::SeqCst);
    }
}

/// The most search threads [`DiceEngine::set_threads`] takes (as the `Threads` option).
pub const MAX_THREADS: usize = 256;

/// The Dice Chess engine: table, evaluator, configuration, helper threads.
pub struct DiceEngine {
    /// The main thread's searcher (the calling thread's).
    s: Searcher,
    /// The techniques, as set (the searchers read them flat).
    config: SearchConfig,
    rules: Rules,
    /// The other threads (`None` with one thread).
    helpers: Option<Helpers>,
    /// Every thread's nodes during a multi-threaded search.
    shared_nodes: Arc<AtomicU64>,
    /// Nodes of the last search, every thread's.
    last_nodes: u64,
}

impl core::fmt::Debug for DiceEngine {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("DiceEngine")
            .field("hash_mib", &self.s.tt.size_mib())
            .field("config", &self.config)
            .field("threads", &self.threads())
            .finish()
    }
}

impl DiceEngine {
    /// An engine with a table of `hash_mib` MiB and [`SearchConfig::ALL`].
    ///
    /// # Panics
    /// When the memory cannot be had ([`DiceEngine::try_new`] reports it instead).
    pub fn new(hash_mib: usize) -> DiceEngine {
        Self::try_new(hash_mib).expect("out of memory for the Dice Chess table")
    }

    /// An engine with a table of `hash_mib` MiB, or `None` when the memory cannot be had.
    pub fn try_new(hash_mib: usize) -> Option<DiceEngine> {
        let config = SearchConfig::ALL;
        let rules = Rules::TwoDice;
        Some(DiceEngine {
            s: Searcher {
                tt: Arc::new(DiceTable::try_new(hash_mib)?),
                eval: DiceEvaluator::new(rules),
                config: config.techniques(),
                fixed: fixed_outcomes(&config),
                sampled: None,
                nodes: 0,
                node_limit: 0,
                start: Instant::now(),
                hard_ms: None,
                stop: Arc::new(AtomicBool::new(false)),
                aborted: false,
                lines: [TurnLine::default(); 4],
                root_micro: usize::MAX,
                root_prev: Move::NONE,
                root_prev_done: false,
                root_best: 0,
                shared_nodes: None,
                published: 0,
                root_rotate: 0,
                outcome_split: (0, 1),
                eval_cache: EvalCache::try_new()?,
            },
            config,
            rules,
            helpers: None,
            shared_nodes: Arc::new(AtomicU64::new(0)),
            last_nodes: 0,
        })
    }

    /// Search threads (1: the calling thread alone).
    pub fn threads(&self) -> usize {
        1 + self.helpers.as_ref().map_or(0, Helpers::len)
    }

    /// Sets the number of search threads, 1 to [`MAX_THREADS`] (clamped): the calling
    /// thread and `n - 1` helper threads, started here and kept (asleep between searches)
    /// until the count changes or the engine is dropped. Returns false, keeping the old
    /// threads, when a thread cannot be started.
    ///
    /// With one thread the search is exactly the single-threaded one (same nodes, same
    /// values). With more (Lazy SMP, see `smp.rs`) every thread searches the same root
    /// and shares the table; the result is the calling thread's, `nodes` counts every
    /// thread's. Every thread uses the configuration as set: in the table's fast mode
    /// results may differ from run to run; in its exact mode ([`TableMode::Exact`])
    /// the value and turn are the single-threaded search's (only the node count varies).
    /// A configuration without the table ignores the helpers (they would share nothing)
    /// and searches on one thread.
    pub fn set_threads(&mut self, n: usize) -> bool {
        let n = n.clamp(1, MAX_THREADS);
        if n == self.threads() {
            return true;
        }
        if n == 1 {
            self.helpers = None;
            return true;
        }
        let mut slots = Vec::new();
        if slots.try_reserve_exact(n - 1).is_err() {
            return false;
        }
        for id in 1..n {
            let mut s = self.s.clone();
            s.shared_nodes = Some(self.shared_nodes.clone());
            s.root_rotate = id;
            s.outcome_split = (id, n);
            slots.push(HelperSlot {
                s,
                game: DiceGame::new(self.rules),
                kind: RootKind::Decision,
                max_depth: 1,
                id,
            });
        }
        match Helpers::spawn(slots, self.s.stop.clone()) {
            Some(h) => {
                self.helpers = Some(h);
                true
            }
            None => false,
        }
    }

    /// The techniques in use.
    pub fn config(&self) -> SearchConfig {
        self.config
    }

    /// The outcomes that every chance node below the root takes in a search from `root`
    /// under this engine's configuration: with [`Sampling::ThreeDice`] in three dice the
    /// sample drawn from the root's key (the same root, the same sample); `None` when every
    /// outcome is searched.
    pub fn sample(&self, root: &DiceGame) -> Option<Outcomes> {
        expectimax::sample_for(&self.s.config, root)
    }

    /// Chooses the techniques (see [`SearchConfig`]); the table is cleared.
    pub fn set_config(&mut self, config: SearchConfig) {
        self.config = config;
        self.s.config = config.techniques();
        self.s.fixed = fixed_outcomes(&config);
        self.s.tt.clear();
    }

    /// Whether a search uses the helper threads (some, and a configuration with the table).
    fn parallel(&self) -> bool {
        self.helpers.is_some() && self.s.config.tt
    }

    /// Table size in MiB.
    pub fn hash_mib(&self) -> usize {
        self.s.tt.size_mib()
    }

    /// Resizes the table (emptied). Returns false, keeping the old table, when the memory
    /// cannot be had.
    pub fn set_hash_mib(&mut self, mib: usize) -> bool {
        match DiceTable::try_new(mib) {
            Some(t) => {
                self.s.tt = Arc::new(t);
                self.share_table();
                true
            }
            None => false,
        }
    }

    /// Gives the helpers the main thread's table (after a resize).
    fn share_table(&mut self) {
        if let Some(h) = &mut self.helpers {
            for slot in h.slots() {
                if !Arc::ptr_eq(&slot.s.tt, &self.s.tt) {
                    slot.s.tt = self.s.tt.clone();
                }
            }
        }
    }

    /// A new game: clears the table.
    pub fn new_game(&mut self) {
        self.s.tt.clear();
    }

    /// A handle that stops this engine's searches from another thread.
    pub fn stop_handle(&self) -> DiceStopHandle {
        DiceStopHandle(self.s.stop.clone())
    }

    fn begin(&mut self, game: &DiceGame, limits: &DiceLimits) {
        if game.rules() != self.rules {
            self.rules = game.rules();
            self.s.set_evaluator(DiceEvaluator::new(self.rules));
        }
        self.s.stop.store(false, Ordering::SeqCst);
        self.s.aborted = false;
        self.s.nodes = 0;
        self.s.node_limit = limits.nodes;
        self.s.start = Instant::now();
        self.s.hard_ms = limits.movetime_ms;
        self.s.lines = [TurnLine::default(); 4];
        self.s.root_micro = usize::MAX;
        self.s.root_prev = Move::NONE;
        self.s.draw_sample(game);
    }

    /// Hands the helpers the root and wakes them, when the search is parallel
    /// ([`DiceEngine::set_threads`]): the main thread then counts nodes with them. The
    /// helpers search with the main thread's configuration, the table's mode included.
    /// Returns whether helpers were started.
    fn start_helpers(&mut self, game: &DiceGame, kind: RootKind, limits: &DiceLimits) -> bool {
        if !self.parallel() {
            return false;
        }
        self.shared_nodes.store(0, Ordering::SeqCst);
        self.s.shared_nodes = Some(self.shared_nodes.clone());
        self.s.published = 0;
        let Some(helpers) = self.helpers.as_mut() else {
            return false;
        };
        helpers.settle();
        for slot in helpers.slots() {
            slot.reset();
            if slot.s.eval.rules() != self.rules {
                slot.s.set_evaluator(self.s.eval.clone());
            }
            if !Arc::ptr_eq(&slot.s.tt, &self.s.tt) {
                slot.s.tt = self.s.tt.clone();
            }
            slot.s.config = self.s.config;
            slot.s.fixed = self.s.fixed;
            slot.s.sampled = self.s.sampled;
            slot.s.node_limit = self.s.node_limit;
            slot.s.start = self.s.start;
            slot.s.hard_ms = self.s.hard_ms;
            slot.s.root_micro = match kind {
                RootKind::Decision => (game.h.micro as usize).min(3),
                RootKind::Chance => usize::MAX,
            };
            slot.game.clone_from(game);
            slot.kind = kind;
            slot.max_depth = Self::max_depth(limits);
        }
        helpers.start();
        true
    }

    /// Stops the helpers started by [`DiceEngine::start_helpers`] (if it started any) and
    /// waits for them; returns their nodes.
    ///
    /// # Panics
    /// Resumes a helper's panic (a bug), once every helper is done.
    fn finish_helpers(&mut self, started: bool) -> u64 {
        let Some(helpers) = self.helpers.as_mut().filter(|_| started) else {
            return 0;
        };
        self.s.stop.store(true, Ordering::SeqCst);
        let nodes = helpers.wait();
        self.s.shared_nodes = None;
        nodes.unwrap_or_else(|p| std::panic::resume_unwind(p))
    }

    fn max_depth(limits: &DiceLimits) -> u32 {
        if limits.depth == 0 {
            MAX_PLY
        } else {
            limits.depth.min(MAX_PLY)
        }
    }

    /// True when the next iteration should not start: past the soft limit (half the move
    /// time when none is given).
    fn out_of_time(&self, limits: &DiceLimits) -> bool {
        let soft = limits
            .soft_ms
            .or(limits.movetime_ms.map(|ms| ms.div_ceil(2)));
        self.s.aborted || soft.is_some_and(|ms| self.elapsed_ms() >= ms)
    }

    /// The report of a completed iteration (nodes: every thread's as far as published).
    fn info(&mut self, depth: u32, value: i32, line: TurnLine) -> DiceInfo {
        DiceInfo {
            depth,
            value,
            nodes: self.s.total_nodes(),
            time_ms: self.elapsed_ms(),
            hashfull: self.s.tt.hashfull(),
            line,
        }
    }

    fn elapsed_ms(&self) -> u64 {
        self.s.start.elapsed().as_millis() as u64
    }

    /// The best move (or three-dice turn) for `game`, whose dice are rolled, under `limits`,
    /// calling `on_info` after every completed iteration. `game` is not modified. A game
    /// with one legal move (or only the pass) still searches, for the value.
    ///
    /// # Errors
    /// [`DiceSearchError::NotAwaitingMove`] when the game awaits no move.
    pub fn search(
        &mut self,
        game: &DiceGame,
        limits: &DiceLimits,
        on_info: &mut dyn FnMut(&DiceInfo),
    ) -> Result<DiceSearchResult, DiceSearchError> {
        if game.phase() != Phase::AwaitingMove {
            return Err(DiceSearchError::NotAwaitingMove);
        }
        self.begin(game, limits);
        let helpers = self.start_helpers(game, RootKind::Decision, limits);
        let mut r = self.search_decision(game, limits, on_info);
        r.nodes += self.finish_helpers(helpers);
        r.time_ms = self.elapsed_ms();
        self.last_nodes = r.nodes;
        Ok(r)
    }

    fn search_decision(
        &mut self,
        game: &DiceGame,
        limits: &DiceLimits,
        on_info: &mut dyn FnMut(&DiceInfo),
    ) -> DiceSearchResult {
        let mut g = game.clone();
        let micro = (g.h.micro as usize).min(3);
        let mut best = DiceSearchResult {
            line: TurnLine::default(),
            value: 0,
            depth: 0,
            nodes: 0,
            time_ms: 0,
        };
        self.s.root_micro = micro;
        for depth in 1..=Self::max_depth(limits) {
            self.s.root_prev = best.line.first();
            self.s.root_prev_done = false;
            let v = self.s.decision(&mut g, depth, 0, NEG_INF, POS_INF);
            let line = self.s.lines[micro];
            if self.s.aborted {
                // A stopped iteration: once the previous best (searched first) is done, the
                // best completely searched move is at least as good at the new depth; a
                // move whose search was cut short is never compared.
                if depth > 1 && self.s.root_prev_done {
                    best.line = line;
                    best.value = self.s.root_best;
                }
                break;
            }
            best.line = line;
            best.value = v;
            best.depth = depth;
            on_info(&self.info(depth, v, line));
            // Only a king capture (or mate) now ends the deepening early: nothing beats it.
            // A value in the win band lower down may be an average that a deeper search
            // changes, so a fixed depth is always searched to that depth.
            if v >= WIN || self.out_of_time(limits) {
                break;
            }
        }
        if best.depth == 0 {
            // Not even depth 1 finished: the first legal move (or the pass).
            let list = g.moves();
            best.line = TurnLine::default();
            if let Some(&m) = list.as_slice().first() {
                best.line.moves[0] = m;
                best.line.len = 1;
            }
        }
        best.nodes = self.s.nodes;
        best.time_ms = self.elapsed_ms();
        best
    }

    /// The value of `game` before its roll, for its side to move, under `limits` (the
    /// expectation over every roll), calling `on_info` after every completed iteration.
    /// A finished game has its result's value (win, loss, 0 for a draw) at depth 0.
    ///
    /// # Errors
    /// [`DiceSearchError::NotAwaitingRoll`] when the game is awaiting a move.
    pub fn evaluate(
        &mut self,
        game: &DiceGame,
        limits: &DiceLimits,
        on_info: &mut dyn FnMut(&DiceInfo),
    ) -> Result<DiceSearchResult, DiceSearchError> {
        if game.phase() == Phase::AwaitingMove {
            return Err(DiceSearchError::NotAwaitingRoll);
        }
        self.begin(game, limits);
        let mut g = game.clone();
        let mut best = DiceSearchResult {
            line: TurnLine::default(),
            value: 0,
            depth: 0,
            nodes: 0,
            time_ms: 0,
        };
        if game.status().is_over() {
            best.value = self.s.chance(&mut g, 0, 0, NEG_INF, POS_INF);
            self.last_nodes = self.s.nodes;
            return Ok(best);
        }
        let helpers = self.start_helpers(game, RootKind::Chance, limits);
        for depth in 1..=Self::max_depth(limits) {
            let v = self.s.chance(&mut g, depth, 0, NEG_INF, POS_INF);
            if self.s.aborted {
                break;
            }
            best.value = v;
            best.depth = depth;
            on_info(&self.info(depth, v, TurnLine::default()));
            if self.out_of_time(limits) {
                break;
            }
        }
        if best.depth == 0 {
            best.value = self.s.eval.evaluate(game).clamp(-EVAL_MAX, EVAL_MAX);
        }
        best.nodes = self.s.nodes + self.finish_helpers(helpers);
        best.time_ms = self.elapsed_ms();
        self.last_nodes = best.nodes;
        Ok(best)
    }

    /// The chances of a win, a draw and a loss for `game`'s side to move before its roll:
    /// [`DiceEngine::evaluate`]'s value under `limits` read through [`wdl_of`] (the rule
    /// set's fitted model; proven wins and losses sure). A finished game gives its result
    /// (won, lost or drawn for the side to move) without a search.
    ///
    /// # Errors
    /// [`DiceSearchError::NotAwaitingRoll`] when the game is awaiting a move.
    pub fn equity(
        &mut self,
        game: &DiceGame,
        limits: &DiceLimits,
        on_info: &mut dyn FnMut(&DiceInfo),
    ) -> Result<DiceEquity, DiceSearchError> {
        if game.status() == DiceStatus::AwaitingMove {
            return Err(DiceSearchError::NotAwaitingRoll);
        }
        if let Some(e) = finished_equity(game) {
            self.last_nodes = 0;
            return Ok(e);
        }
        let r = self.evaluate(game, limits, on_info)?;
        Ok(DiceEquity {
            wdl: wdl_of(game.rules(), r.value),
            value: r.value,
            depth: r.depth,
            nodes: r.nodes,
            time_ms: r.time_ms,
        })
    }

    /// One search before the roll: the best turn and its value for every outcome of
    /// `game`'s chance node, written into `out` (cleared first) in the rules' outcome order.
    /// Each iteration searches every outcome; an outcome keeps the result of its deepest
    /// completed search. `on_info` is called after each completed iteration with the
    /// expected value over the outcomes.
    ///
    /// # Errors
    /// [`DiceSearchError::NotAwaitingRoll`] unless the game awaits its roll and is not over.
    pub fn search_all_rolls(
        &mut self,
        game: &DiceGame,
        limits: &DiceLimits,
        out: &mut Vec<RollAdvice>,
        on_info: &mut dyn FnMut(&DiceInfo),
    ) -> Result<(), DiceSearchError> {
        if game.status() != DiceStatus::AwaitingRoll {
            return Err(DiceSearchError::NotAwaitingRoll);
        }
        out.clear();
        let outcomes: Outcomes = game.outcomes();
        let list = OutcomeList::new(&outcomes, &SearchConfig::PLAIN.techniques(), game.rules());
        self.begin(game, limits);
        let mut g = game.clone();
        for oc in list.as_slice() {
            let mut line = TurnLine::default();
            let mut rg = g.clone();
            rg.set_roll_unchecked(oc.roll);
            if let Some(&m) = rg.moves().as_slice().first() {
                line.moves[0] = m;
                line.len = 1;
            }
            out.push(RollAdvice {
                roll: oc.roll,
                weight: oc.weight,
                result: DiceSearchResult {
                    line,
                    value: 0,
                    depth: 0,
                    nodes: 0,
                    time_ms: 0,
                },
            });
        }
        let helpers = self.start_helpers(game, RootKind::Chance, limits);
        let saved = g.turn_snapshot();
        'deepen: for depth in 1..=Self::max_depth(limits) {
            let mut sum = 0i64;
            for adv in out.iter_mut() {
                g.set_roll_unchecked(adv.roll);
                self.s.lines = [TurnLine::default(); 4];
                let v = self.s.decision(&mut g, depth, 0, NEG_INF, POS_INF);
                g.restore_turn(saved);
                if self.s.aborted {
                    break 'deepen;
                }
                adv.result.line = self.s.lines[0];
                adv.result.value = v;
                adv.result.depth = depth;
                sum += adv.weight as i64 * v as i64;
            }
            let total = outcomes.denominator() as i64;
            let value = sum.div_euclid(total) as i32;
            on_info(&self.info(depth, value, TurnLine::default()));
            if self.out_of_time(limits) {
                break;
            }
        }
        let nodes = self.s.nodes + self.finish_helpers(helpers);
        let ms = self.elapsed_ms();
        self.last_nodes = nodes;
        for adv in out.iter_mut() {
            adv.result.nodes = nodes;
            adv.result.time_ms = ms;
        }
        Ok(())
    }

    /// Permille of the table in use.
    pub fn hashfull(&self) -> u32 {
        self.s.tt.hashfull()
    }

    /// Nodes of the last search (every thread's).
    pub fn nodes(&self) -> u64 {
        self.last_nodes
    }
}

fn fixed_outcomes(config: &SearchConfig) -> [OutcomeList; 3] {
    let config = &config.techniques();
    [
        OutcomeList::new(&Outcomes::fixed(Rules::TwoDice), config, Rules::TwoDice),
        OutcomeList::new(&Outcomes::one_die(0), config, Rules::OneDie),
        OutcomeList::new(&Outcomes::fixed(Rules::ThreeDice), config, Rules::ThreeDice),
    ]
}
