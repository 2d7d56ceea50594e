//! The engine: alpha-beta search behind one handle.
//!
//! [`Engine`] owns the transposition table and one set of per-thread tables for each search
//! thread (allocated when the engine is created or resized by an option, never during a
//! search). [`Engine::search`] runs iterative deepening with aspiration windows and a
//! principal variation search (`thread.rs`) on the `Threads` option's threads (Lazy SMP: all
//! threads search the same root and share the table; the calling thread is the main one), and
//! returns a [`SearchResult`]. The helper threads are a pool (`crate::pool`) started when
//! `Threads` is set and parked between searches; one that cannot be started makes the option
//! fail and leaves the engine as it was. [`StopHandle`] stops a search from any thread.
//!
//! The modules inside are the engine's own, not part of the library's API: `tt.rs`
//! (transposition table), `picker.rs` (staged move ordering), `see.rs` (static exchange),
//! `history.rs` (ordering statistics), `time.rs` (time management), `params.rs` (the
//! tunables), `thread.rs` (the search proper), `strength.rs` (play at a chosen strength:
//! `UCI_LimitStrength`, `UCI_Elo`).

pub(crate) mod history;
mod params;
pub(crate) mod picker;
pub(crate) mod see;
pub(crate) mod strength;
pub(crate) mod thread;
pub(crate) mod time;
pub(crate) mod tt;

use crate::eval::nnue::{NetError, Network};
use crate::eval::Evaluator;
use crate::moves::{Move, MoveList};
use crate::pool::Pool;
use crate::position::Position;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use thread::ThreadData;
use tt::TranspositionTable;

/// Deepest ply the search reaches (also the principal variation's capacity).
pub const MAX_PLY: usize = 128;
/// The score of mate at the root; mate in `n` plies scores `MATE - n`.
pub const MATE: i32 = 32000;
/// Scores beyond this (in absolute value) are mate scores.
pub const MATE_BOUND: i32 = MATE - MAX_PLY as i32;
/// Larger than any score.
pub const INFINITE: i32 = 32001;

/// What a search may use. `Default` is "no limit" everywhere (an infinite search).
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Maximum depth in plies (0 = none).
    pub depth: u32,
    /// Maximum nodes (0 = none).
    pub nodes: u64,
    /// Time for this move in ms.
    pub movetime_ms: Option<u64>,
    /// White's clock in ms (may be negative when a GUI reports an overstepped clock).
    pub wtime_ms: Option<i64>,
    /// Black's clock in ms.
    pub btime_ms: Option<i64>,
    /// White's increment in ms.
    pub winc_ms: Option<i64>,
    /// Black's increment in ms.
    pub binc_ms: Option<i64>,
    /// Moves to the next time control (0 = sudden death).
    pub movestogo: u32,
    /// Search until stopped.
    pub infinite: bool,
    /// Pondering: time limits start counting at [`StopHandle::ponderhit`]; until then the
    /// search runs as if infinite.
    pub ponder: bool,
    /// Stop once a mate in at most this many moves is found (0 = none).
    pub mate: u32,
    /// Restrict the root to these moves (empty = all legal moves; illegal ones are ignored).
    pub search_moves: MoveList,
}

/// A score as UCI reports it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centipawns for the side to move.
    Cp(i32),
    /// Mate in this many moves (negative: the side to move is mated; 0: it is mated now).
    Mate(i32),
}

impl Score {
    /// The UCI form of an internal score.
    pub fn from_internal(v: i32) -> Score {
        if v >= MATE_BOUND {
            Score::Mate((MATE - v + 1) / 2)
        } else if v <= -MATE_BOUND {
            Score::Mate(-(MATE + v) / 2)
        } else {
            Score::Cp(v)
        }
    }
}

/// Whether a reported score is exact or a bound (from an aspiration window that failed).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ScoreBound {
    /// The score is exact.
    Exact,
    /// The true score is at least this.
    Lower,
    /// The true score is at most this.
    Upper,
}

/// What a UCI `info` line carries, passed to the search's callback.
#[derive(Clone, Debug)]
pub struct SearchInfo<'a> {
    /// Iteration depth.
    pub depth: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// Line number, from 1 (MultiPV).
    pub multipv: u32,
    /// Score of the line.
    pub score: Score,
    /// The internal score (centipawns, or ±(MATE - plies)).
    pub score_internal: i32,
    /// Exact, or a bound.
    pub bound: ScoreBound,
    /// Nodes searched by all threads.
    pub nodes: u64,
    /// Nodes per second.
    pub nps: u64,
    /// Milliseconds since the search started.
    pub time_ms: u64,
    /// Permille of the hash table used by this search.
    pub hashfull: u32,
    /// The principal variation.
    pub pv: &'a [Move],
}

/// The outcome of a search.
#[derive(Clone, Debug)]
pub struct SearchResult {
    /// The best move (`None` when the position has no legal move).
    pub best_move: Option<Move>,
    /// The expected reply (the principal variation's second move), if known.
    pub ponder_move: Option<Move>,
    /// The score for the side to move.
    pub score: Score,
    /// The internal score (centipawns, or ±(MATE - plies)).
    pub score_internal: i32,
    /// Depth of the last completed iteration.
    pub depth: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// Nodes searched by all threads.
    pub nodes: u64,
    /// Milliseconds the search took.
    pub time_ms: u64,
    /// The principal variation (first `pv_len` moves).
    pub pv: [Move; MAX_PLY],
    /// Length of the principal variation.
    pub pv_len: usize,
}

impl SearchResult {
    /// The principal variation.
    pub fn pv(&self) -> &[Move] {
        &self.pv[..self.pv_len]
    }
}

/// Shared flags of a running search.
#[derive(Debug, Default)]
pub(crate) struct Signals {
    pub(crate) stop: AtomicBool,
    pub(crate) ponderhit: AtomicBool,
}

/// Stops or converts a running search from any thread. Cheap to clone.
#[derive(Clone, Debug)]
pub struct StopHandle(Arc<Signals>);

impl StopHandle {
    /// Asks the running search (if any) to stop; it returns its result within milliseconds.
    /// Returns at once.
    pub fn stop(&self) {
        self.0.stop.store(true, Ordering::SeqCst);
    }

    /// The predicted move was played: a pondering search starts counting its time limits.
    pub fn ponderhit(&self) {
        self.0.ponderhit.store(true, Ordering::SeqCst);
    }
}

/// An option's kind, default and range, for UCI's `option` lines.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum OptionKind {
    /// An integer.
    Spin {
        /// Default value.
        default: i64,
        /// Minimum.
        min: i64,
        /// Maximum.
        max: i64,
    },
    /// A boolean.
    Check {
        /// Default value.
        default: bool,
    },
    /// An action without a value.
    Button,
}

/// The options [`Engine::set_option`] accepts (names compare without regard to case).
pub const OPTIONS: [(&str, OptionKind); 8] = [
    (
        "Hash",
        OptionKind::Spin {
            default: 16,
            min: 1,
            max: 65536,
        },
    ),
    (
        "Threads",
        OptionKind::Spin {
            default: 1,
            min: 1,
            max: 256,
        },
    ),
    ("Clear Hash", OptionKind::Button),
    ("Ponder", OptionKind::Check { default: false }),
    (
        "Move Overhead",
        OptionKind::Spin {
            default: 10,
            min: 0,
            max: 5000,
        },
    ),
    (
        "MultiPV",
        OptionKind::Spin {
            default: 1,
            min: 1,
            max: 256,
        },
    ),
    ("UCI_LimitStrength", OptionKind::Check { default: false }),
    (
        "UCI_Elo",
        OptionKind::Spin {
            default: strength::ELO_DEFAULT,
            min: strength::ELO_MIN,
            max: strength::ELO_MAX,
        },
    ),
];

/// The `EvalFile` value that selects the hand-written evaluation.
pub const EVAL_FILE_HAND: &str = "<hand>";
/// The `EvalFile` value that selects the network embedded in the library (the default).
pub const EVAL_FILE_EMBEDDED: &str = "<embedded>";

/// Why [`Engine::set_option`] refused.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum OptionError {
    /// No option has this name.
    UnknownName,
    /// The value is not valid for the option (not a number, out of range, not true/false).
    BadValue,
    /// The memory for the new size could not be had (the old table stays).
    OutOfMemory,
    /// `EvalFile`: the network could not be had (the file is unreadable or refused, or no
    /// network is embedded); the engine keeps the evaluation it had.
    EvalFile(NetError),
}

impl OptionError {
    /// A short description.
    pub fn message(self) -> &'static str {
        match self {
            OptionError::UnknownName => "unknown option name",
            OptionError::BadValue => "bad option value",
            OptionError::OutOfMemory => "out of memory",
            OptionError::EvalFile(NetError::Io(_)) => "the network file cannot be read",
            OptionError::EvalFile(NetError::NoEmbeddedNet) => "no network is embedded",
            OptionError::EvalFile(_) => "the file is not a valid chesscore network",
        }
    }
}

/// The helper threads' names (`search-1`, `search-2`...).
const HELPER_NAME: &str = "search";
/// The helper threads' stack: the search recurses up to [`MAX_PLY`] plies.
const HELPER_STACK: usize = 8 << 20;

/// The engine: transposition table, search threads' tables, options.
pub struct Engine {
    pub(crate) tt: TranspositionTable,
    pub(crate) threads: Vec<Box<ThreadData>>,
    /// The helper threads (`threads.len() - 1` workers, parked between searches), started
    /// by the `Threads` option; helper `i` searches on `threads[i + 1]`.
    pub(crate) pool: Pool,
    pub(crate) signals: Arc<Signals>,
    /// Each thread's node count, published every 1024 nodes (readable by the main thread).
    pub(crate) counters: Vec<AtomicU64>,
    evaluator: Evaluator,
    /// The network that evaluates (shared read-only by the threads), or `None` for the
    /// hand-written evaluation.
    pub(crate) net: Option<Arc<Network>>,
    move_overhead_ms: u64,
    multipv: usize,
    ponder: bool,
    /// `UCI_LimitStrength`. While it is on the search evaluates with the hand-written
    /// evaluation, whatever `EvalFile` says: the `UCI_Elo` scale was calibrated with it
    /// (docs/engine.md).
    pub(crate) limit_strength: bool,
    /// `UCI_Elo`.
    elo: i64,
    /// Games started (`new_game`): part of the strength limit's seed.
    games: u64,
}

impl core::fmt::Debug for Engine {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Engine")
            .field("hash_mib", &self.tt.size_mib())
            .field("threads", &self.threads.len())
            .finish()
    }
}

impl Default for Engine {
    fn default() -> Self {
        Self::new()
    }
}

impl Engine {
    /// An engine with a 16 MiB table and one thread.
    ///
    /// # Panics
    /// When 16 MiB cannot be allocated ([`Engine::try_new`] reports it instead).
    pub fn new() -> Engine {
        Self::try_new().expect("out of memory for a 16 MiB hash table")
    }

    /// An engine with a 16 MiB table and one thread, or `None` when the memory cannot be had.
    pub fn try_new() -> Option<Engine> {
        Some(Engine {
            tt: TranspositionTable::try_new(16)?,
            threads: vec![ThreadData::try_new_boxed()?],
            pool: Pool::new(0, HELPER_NAME, HELPER_STACK).ok()?,
            signals: Arc::new(Signals::default()),
            counters: vec![AtomicU64::new(0)],
            evaluator: Evaluator::try_new()?,
            // The embedded net is the default evaluation (it won its matches against the
            // hand-written one, docs/results/nnue.md); `EvalFile <hand>` selects that one.
            net: Network::embedded(),
            move_overhead_ms: 10,
            multipv: 1,
            ponder: false,
            limit_strength: false,
            elo: strength::ELO_DEFAULT,
            games: 0,
        })
    }

    /// A handle that stops this engine's searches from another thread.
    pub fn stop_handle(&self) -> StopHandle {
        StopHandle(self.signals.clone())
    }

    /// Hash size in MiB.
    pub fn hash_mib(&self) -> usize {
        self.tt.size_mib()
    }

    /// Number of search threads.
    pub fn thread_count(&self) -> usize {
        self.threads.len()
    }

    /// Whether the `Ponder` option is on (informational: pondering is asked per search).
    pub fn ponder_enabled(&self) -> bool {
        self.ponder
    }

    /// Sets a UCI option: `Hash` (MiB), `Threads`, `Clear Hash`, `Ponder`, `Move Overhead`
    /// (ms), `MultiPV`, `UCI_LimitStrength`, `UCI_Elo` (out of its range: refused), and
    /// `EvalFile` ([`Engine::set_eval_file`]). Names compare without regard to case; values
    /// are trimmed.
    ///
    /// # Errors
    /// [`OptionError`] for an unknown name, a bad value, memory that cannot be had or a
    /// network that cannot be loaded; the engine is then unchanged.
    pub fn set_option(&mut self, name: &str, value: &str) -> Result<(), OptionError> {
        let name = name.trim();
        let value = value.trim();
        if name.eq_ignore_ascii_case("EvalFile") {
            return self.set_eval_file(value).map_err(OptionError::EvalFile);
        }
        let (canon, kind) = OPTIONS
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .ok_or(OptionError::UnknownName)?;
        let int = || -> Result<i64, OptionError> {
            let OptionKind::Spin { min, max, .. } = *kind else {
                return Err(OptionError::BadValue);
            };
            let v: i64 = value.parse().map_err(|_| OptionError::BadValue)?;
            if v < min || v > max {
                return Err(OptionError::BadValue);
            }
            Ok(v)
        };
        let boolean = || -> Result<bool, OptionError> {
            if value.eq_ignore_ascii_case("true") {
                Ok(true)
            } else if value.eq_ignore_ascii_case("false") {
                Ok(false)
            } else {
                Err(OptionError::BadValue)
            }
        };
        match *canon {
            "Hash" => {
                let mib = int()? as usize;
                if mib != self.tt.size_mib() {
                    self.tt = TranspositionTable::try_new(mib).ok_or(OptionError::OutOfMemory)?;
                }
            }
            "Threads" => self.set_threads(int()? as usize)?,
            "Clear Hash" => self.tt.clear(),
            "Ponder" => self.ponder = boolean()?,
            "Move Overhead" => self.move_overhead_ms = int()? as u64,
            "MultiPV" => self.multipv = int()? as usize,
            "UCI_LimitStrength" => {
                let on = boolean()?;
                if on != self.limit_strength && self.net.is_some() {
                    // The search's evaluation changes (`thread::run_search`): the stored
                    // evaluations in the table came from the other one.
                    self.tt.clear();
                }
                self.limit_strength = on;
            }
            "UCI_Elo" => self.elo = int()?,
            _ => unreachable!("every option in OPTIONS is handled"),
        }
        Ok(())
    }

    /// Sets the number of search threads: the calling thread and `n - 1` helper threads,
    /// started here and parked between searches.
    ///
    /// Everything that can fail comes first: the new threads' tables, the counters, the room
    /// for them and the new helper threads. Only then is the engine changed, so that running
    /// out of memory or failing to start a thread leaves it with the threads and tables it
    /// had ([`OptionError::OutOfMemory`]).
    fn set_threads(&mut self, n: usize) -> Result<(), OptionError> {
        let missing = n.saturating_sub(self.threads.len());
        let mut fresh = Vec::new();
        fresh
            .try_reserve_exact(missing)
            .map_err(|_| OptionError::OutOfMemory)?;
        while fresh.len() < missing {
            fresh.push(ThreadData::try_new_boxed().ok_or(OptionError::OutOfMemory)?);
        }
        let mut counters = Vec::new();
        counters
            .try_reserve_exact(n)
            .map_err(|_| OptionError::OutOfMemory)?;
        counters.resize_with(n, || AtomicU64::new(0));
        self.threads
            .try_reserve_exact(missing)
            .map_err(|_| OptionError::OutOfMemory)?;
        let pool = if n - 1 == self.pool.workers() {
            None
        } else {
            let pool = Pool::new(n - 1, HELPER_NAME, HELPER_STACK);
            Some(pool.map_err(|_| OptionError::OutOfMemory)?)
        };
        if let Some(pool) = pool {
            // The old helpers are joined here (they are parked: at once).
            self.pool = pool;
        }
        self.threads.truncate(n);
        self.threads.extend(fresh);
        self.counters = counters;
        Ok(())
    }

    /// A new game: clears the hash table and every thread's history tables.
    pub fn new_game(&mut self) {
        self.games = self.games.wrapping_add(1);
        self.tt.clear();
        for t in &mut self.threads {
            t.clear();
        }
        self.evaluator.clear();
    }

    /// The move the transposition table holds for `pos`, if any (not checked for legality:
    /// for tests and tools that check the table).
    #[doc(hidden)]
    pub fn hash_move(&self, pos: &Position) -> Option<Move> {
        self.tt
            .probe(pos.hash())
            .map(|h| h.mv)
            .filter(|&m| m != Move::NONE)
    }

    /// The static evaluation of `pos` (centipawns, side to move's view), by the network when
    /// one is set, else by the hand-written evaluation.
    pub fn evaluate(&mut self, pos: &Position) -> i32 {
        match &self.net {
            Some(net) => net.evaluate(pos),
            None => self.evaluator.evaluate(pos),
        }
    }

    /// The network that evaluates, or `None` when the hand-written evaluation does.
    pub fn network(&self) -> Option<&Arc<Network>> {
        self.net.as_ref()
    }

    /// Chooses the evaluation: a network (shared read-only by the search threads) or `None`
    /// for the hand-written one. A change clears the hash table, whose stored evaluations
    /// came from the other one.
    pub fn set_network(&mut self, net: Option<Arc<Network>>) {
        let same = match (&self.net, &net) {
            (None, None) => true,
            (Some(a), Some(b)) => Arc::ptr_eq(a, b),
            _ => false,
        };
        if !same {
            self.net = net;
            self.tt.clear();
        }
    }

    /// The `EvalFile` option: `""` or `<hand>` selects the hand-written evaluation,
    /// `<embedded>` the network built into the library (if any), anything else is the path
    /// of a network file (docs/nnue.md), read and checked here.
    ///
    /// # Errors
    /// [`NetError`] when the file cannot be read or is refused, or no network is embedded;
    /// the engine then keeps the evaluation it had.
    pub fn set_eval_file(&mut self, value: &str) -> Result<(), NetError> {
        let value = value.trim();
        let net = if value.is_empty() || value.eq_ignore_ascii_case(EVAL_FILE_HAND) {
            None
        } else if value.eq_ignore_ascii_case(EVAL_FILE_EMBEDDED) {
            Some(Network::embedded().ok_or(NetError::NoEmbeddedNet)?)
        } else {
            Some(Arc::new(Network::from_file(value)?))
        };
        self.set_network(net);
        Ok(())
    }

    /// Searches `pos` under `limits`, calling `on_info` after every completed iteration (and
    /// each MultiPV line), and returns the result. `pos` itself is not modified; its history
    /// is used for repetitions. A position without legal moves returns at once.
    pub fn search(
        &mut self,
        pos: &Position,
        limits: &Limits,
        on_info: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult {
        if self.limit_strength {
            return self.search_limited(pos, limits, on_info);
        }
        thread::run_search(
            self,
            pos,
            limits,
            on_info,
            self.move_overhead_ms,
            self.multipv,
        )
    }

    /// [`Engine::search`] at the strength `UCI_Elo` asks for (`strength.rs`): a node budget,
    /// MultiPV lines, and a seeded draw among them. Only the `MultiPV` lines the user asked
    /// for are reported.
    fn search_limited(
        &mut self,
        pos: &Position,
        limits: &Limits,
        on_info: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult {
        let budget = strength::node_limit(self.elo);
        let mut lim = limits.clone();
        lim.nodes = if lim.nodes == 0 {
            budget
        } else {
            lim.nodes.min(budget)
        };
        let shown = self.multipv as u32;
        let lines = self.multipv.max(strength::LINES);
        let mut result = thread::run_search(
            self,
            pos,
            &lim,
            &mut |info: &SearchInfo| {
                if info.multipv <= shown {
                    on_info(info);
                }
            },
            self.move_overhead_ms,
            lines,
        );
        let seed = strength::seed(pos.hash(), self.games, self.elo);
        thread::apply_strength(&self.threads[0], &mut result, self.elo, seed);
        result
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The addresses of the engine's per-thread tables.
    fn tables(e: &Engine) -> Vec<*const ThreadData> {
        e.threads
            .iter()
            .map(|t| &**t as *const ThreadData)
            .collect()
    }

    /// A helper thread that cannot be started makes `Threads` fail (out of memory) and leaves
    /// the engine as it was: the thread count, the helper threads, the very same per-thread
    /// tables and the counters. It still searches on its threads, and once threads can be
    /// started again the option works and keeps the tables it had.
    #[test]
    fn a_failed_spawn_leaves_the_engine_as_it_was() {
        let mut e = Engine::new();
        e.set_option("Threads", "2").unwrap();
        assert_eq!((e.thread_count(), e.pool.workers()), (2, 1));
        let before = tables(&e);
        // The third of the three new helpers fails to start.
        crate::pool::fail_spawn_after(2);
        assert_eq!(e.set_option("Threads", "4"), Err(OptionError::OutOfMemory));
        assert_eq!((e.thread_count(), e.pool.workers()), (2, 1));
        assert_eq!(e.counters.len(), 2);
        assert_eq!(tables(&e), before);

        let pos = Position::startpos();
        let limits = Limits {
            depth: 6,
            ..Limits::default()
        };
        let r = e.search(&pos, &limits, &mut |_| {});
        assert!(r.best_move.is_some());
        assert_eq!(r.depth, 6);
        assert!(
            e.threads.iter().all(|t| t.nodes() > 0),
            "both threads searched"
        );

        e.set_option("Threads", "4").unwrap();
        assert_eq!((e.thread_count(), e.pool.workers()), (4, 3));
        assert_eq!(e.counters.len(), 4);
        assert_eq!(tables(&e)[..2], before[..]);
        e.set_option("Threads", "1").unwrap();
        assert_eq!((e.thread_count(), e.pool.workers()), (1, 0));
    }
}
