//! Lazy SMP for the Dice Chess engine: the helper threads of [`super::DiceEngine`].
//!
//! With `n` threads ([`super::DiceEngine::set_threads`]) the engine keeps `n - 1` helper
//! threads, started when the count is set and parked between searches (a search starts none:
//! it wakes them). They are a [`Crew`] of the pool that the chess engine's helpers run on too
//! (`crate::pool`): the crew owns one [`HelperSlot`] per helper, [`Crew::start`] runs
//! [`HelperSlot::run`] on each, and [`Crew::wait`] waits for them. The crew's start/wait pair,
//! rather than the pool's scoped run, fits the engine's flow: `start_helpers`, then the
//! search on the calling thread in the engine's own code, then `finish_helpers` (stop, wait).
//! Each helper owns a [`Searcher`] of its
//! own (evaluator, counters, root lines) and a copy of the root game, and shares the
//! engine's table (`Arc<DiceTable>`, lock-free: see `tt`), its stop flag and a node
//! counter with the calling thread, which is the main thread: its result is the search's.
//!
//! A search hands each helper the root (a decision node for `search`, the chance node
//! before the roll for `evaluate` and `search_all_rolls`), wakes them all, searches on the
//! calling thread, then raises the stop flag and waits for every helper to go back to
//! sleep; the result's node count is every thread's. Helpers run their own iterative
//! deepening and are diversified so that they fill the table with work the main thread has
//! not done yet: odd helpers start one turn deeper (depth offset), helper `i` rotates its
//! root move list by `i` (so it starts on another root move), and with
//! [`SearchConfig::split_outcomes`](super::SearchConfig::split_outcomes) helper `i` of `n`
//! threads takes every chance node's outcomes from outcome `i * len / n` on (the main thread
//! from the first, heaviest): the threads then work on different outcomes of the same chance
//! node at once, and the main thread finds the helpers' outcomes in the table. On two free
//! cores that split took the time to a fixed depth from 1.2x to about 1.5x faster than one
//! thread (docs/dice-search.md "Threads"). Their values are thrown away; only their table
//! entries help the main thread.
//!
//! Nothing is allocated per search (the pool's condition variable and mutex are futex based),
//! only when the thread count, the table size or the rule set changes. A helper's panic (a
//! bug) is resumed on the calling thread once every helper is done.

use super::expectimax::{Searcher, NEG_INF, POS_INF};
use super::{TurnLine, WIN};
use crate::dice::game::DiceGame;
use crate::moves::Move;
use crate::pool::{Crew, Panic, Work};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// What a helper's root is.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum RootKind {
    /// A game with its dice rolled ([`super::DiceEngine::search`]).
    Decision,
    /// A game awaiting its roll ([`super::DiceEngine::evaluate`],
    /// [`super::DiceEngine::search_all_rolls`]).
    Chance,
}

/// One helper's work: its searcher, set up by the engine before each search, and the root.
pub(crate) struct HelperSlot {
    pub(crate) s: Searcher,
    pub(crate) game: DiceGame,
    pub(crate) kind: RootKind,
    pub(crate) max_depth: u32,
    /// 1 for the first helper, 2 for the next...
    pub(crate) id: usize,
}

impl HelperSlot {
    /// Iterative deepening from the root until the stop flag (raised by the main thread
    /// when it is done), a limit, the maximum depth or a proven result.
    fn run(&mut self) {
        let first = (1 + (self.id % 2) as u32).min(self.max_depth);
        let micro = (self.game.h.micro as usize).min(3);
        for depth in first..=self.max_depth {
            if self.s.stop.load(Ordering::Relaxed) {
                break;
            }
            let v = match self.kind {
                RootKind::Decision => {
                    self.s.root_prev_done = false;
                    let v = self.s.decision(&mut self.game, depth, 0, NEG_INF, POS_INF);
                    self.s.root_prev = self.s.lines[micro].first();
                    v
                }
                RootKind::Chance => self.s.chance(&mut self.game, depth, 0, NEG_INF, POS_INF),
            };
            if self.s.aborted || v >= WIN {
                break;
            }
        }
    }

    /// Ready for a new search (the rest of the searcher is set by the engine).
    pub(crate) fn reset(&mut self) {
        self.s.nodes = 0;
        self.s.published = 0;
        self.s.aborted = false;
        self.s.lines = [TurnLine::default(); 4];
        self.s.root_prev = Move::NONE;
        self.s.root_prev_done = false;
    }
}

impl Work for HelperSlot {
    fn work(&mut self) {
        self.run();
    }
}

/// The helper threads (none with one thread): a [`Crew`] of the pool, one slot per helper.
pub(crate) struct Helpers {
    crew: Crew<HelperSlot>,
    /// The engine's stop flag (raised to end a search that was not finished, see
    /// [`Helpers::settle`] and the drop).
    stop: Arc<AtomicBool>,
}

impl core::fmt::Debug for Helpers {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "Helpers({})", self.crew.len())
    }
}

impl Helpers {
    /// Starts a thread for each slot, or `None` when a thread cannot be started (those
    /// started are stopped again).
    pub(crate) fn spawn(slots: Vec<HelperSlot>, stop: Arc<AtomicBool>) -> Option<Helpers> {
        let crew = Crew::new(slots, "dice-helper", 8 << 20).ok()?;
        Some(Helpers { crew, stop })
    }

    /// The helpers' slots, between searches (after [`Helpers::settle`] or
    /// [`Helpers::wait`]).
    pub(crate) fn slots(&mut self) -> &mut [HelperSlot] {
        self.crew.items()
    }

    /// How many helpers.
    pub(crate) fn len(&self) -> usize {
        self.crew.len()
    }

    /// Makes sure no helper still works on an earlier search (possible only when the main
    /// thread's search ended by a panic, before it could stop them): stops and waits for
    /// them (a panic of theirs is dropped: that search is gone), then lowers the stop flag
    /// again. Call before [`Helpers::slots`] at a search's start.
    pub(crate) fn settle(&mut self) {
        if !self.crew.is_running() {
            return;
        }
        self.stop.store(true, Ordering::SeqCst);
        drop(self.crew.wait());
        self.stop.store(false, Ordering::SeqCst);
    }

    /// Wakes every helper on the slots as set up.
    pub(crate) fn start(&mut self) {
        self.crew.start();
    }

    /// Waits until every helper is done (the caller has raised the stop flag); returns
    /// their nodes, or the first panic of a helper (a bug) for the caller to resume.
    pub(crate) fn wait(&mut self) -> Result<u64, Panic> {
        if let Some(p) = self.crew.wait() {
            return Err(p);
        }
        Ok(self.slots().iter().map(|s| s.s.nodes).sum())
    }
}

impl Drop for Helpers {
    fn drop(&mut self) {
        // A search still running (after a panic on the main thread) ends too; the crew's
        // drop then waits for it and joins the threads.
        self.stop.store(true, Ordering::SeqCst);
    }
}

#[cfg(test)]
mod tests {
    use super::super::{DiceEngine, DiceLimits, SearchConfig};
    use crate::dice::eval::linear::with_weights_override;
    use crate::dice::eval::DiceEvaluator;
    use crate::dice::player::{play_turn, sample_roll, RandomPlayer, Rng};
    use crate::dice::{DiceGame, DiceStatus, Roll, Rules};

    /// Games `4..28` turns into seeded random play, their dice rolled.
    fn rolled_positions(rules: Rules, count: usize, seed: u64) -> Vec<DiceGame> {
        let mut out = Vec::new();
        let mut rng = Rng(seed);
        while out.len() < count {
            let mut g = DiceGame::new(rules);
            let mut p = RandomPlayer(Rng(rng.next_u64()));
            for _ in 0..4 + rng.below(24) {
                if play_turn(&mut g, &mut p, &mut rng).is_none() {
                    break;
                }
            }
            if g.status() == DiceStatus::AwaitingRoll {
                g.set_roll(sample_roll(&g, &mut rng).unwrap()).unwrap();
                out.push(g);
            }
        }
        out
    }

    /// A helper's outcome split changes the order of every chance node's outcomes, never
    /// a value: searched as helper 1 of 2 (the engine's own searcher given that role), the
    /// exact configuration returns plain expectimax's value on every position, and the
    /// different order shows in the node counts.
    #[test]
    fn split_outcomes_keeps_the_exact_value() {
        for (rules, depth) in [(Rules::TwoDice, 2), (Rules::OneDie, 3)] {
            let mut plain = DiceEngine::new(1);
            plain.set_config(SearchConfig::PLAIN);
            let mut main = DiceEngine::new(1);
            main.set_config(SearchConfig::ALL_EXACT);
            let mut helper = DiceEngine::new(1);
            helper.set_config(SearchConfig::ALL_EXACT);
            helper.s.outcome_split = (1, 2);
            let mut differ = 0;
            for g in rolled_positions(rules, 12, 31 + rules as u64) {
                let limits = DiceLimits::depth(depth);
                let want = plain.search(&g, &limits, &mut |_| {}).unwrap().value;
                main.new_game();
                helper.new_game();
                let a = main.search(&g, &limits, &mut |_| {}).unwrap();
                let b = helper.search(&g, &limits, &mut |_| {}).unwrap();
                assert_eq!((a.value, b.value), (want, want), "{rules} {g:?}");
                differ += usize::from(a.nodes != b.nodes);
            }
            assert!(differ > 0, "{rules}: the split changed no search");
        }
    }

    /// A helper thread that cannot be started makes `set_threads` fail and keeps the helpers
    /// the engine had, which still search; then the count can be set again.
    #[test]
    fn a_failed_spawn_keeps_the_old_helpers() {
        let mut e = DiceEngine::new(1);
        assert!(e.set_threads(2));
        crate::pool::fail_spawn_after(1);
        assert!(!e.set_threads(4));
        assert_eq!(e.threads(), 2);
        assert_eq!(e.helpers.as_ref().unwrap().len(), 1);
        let mut g = DiceGame::new(Rules::TwoDice);
        g.set_roll(Roll::from_faces(&[1, 2]).unwrap()).unwrap();
        // 100 ms: time for the helper to wake and search whatever the main thread does.
        let r = e
            .search(&g, &DiceLimits::movetime(100), &mut |_| {})
            .unwrap();
        assert!(r.line.len > 0);
        let helper_nodes: u64 = e
            .helpers
            .as_mut()
            .unwrap()
            .slots()
            .iter()
            .map(|s| s.s.nodes)
            .sum();
        assert!(helper_nodes > 0, "the old helper searched");
        assert!(e.set_threads(4));
        assert_eq!(e.threads(), 4);
    }

    /// An engine made inside `with_weights_override` searches with those weights on its
    /// helper threads too: they take clones of the main thread's evaluator, never make
    /// their own (which would see the tuned weights on their threads).
    #[test]
    fn helpers_evaluate_with_the_engines_weights() {
        let rules = Rules::TwoDice;
        let mut w = *DiceEvaluator::new(rules).weights();
        for (i, x) in w.iter_mut().enumerate() {
            *x += 1 + i as i32;
        }
        let mut e = with_weights_override(rules, w, || {
            let mut e = DiceEngine::new(1);
            let mut g = DiceGame::new(rules);
            g.set_roll(Roll::from_faces(&[1, 2]).unwrap()).unwrap();
            // The first search makes the engine's evaluator for the rule set.
            e.search(&g, &DiceLimits::depth(1), &mut |_| {}).unwrap();
            e
        });
        assert!(e.set_threads(3));
        let mut g = DiceGame::new(rules);
        g.set_roll(Roll::from_faces(&[3, 4]).unwrap()).unwrap();
        e.search(&g, &DiceLimits::depth(2), &mut |_| {}).unwrap();
        assert_eq!(e.s.eval.weights(), &w);
        let helpers = e.helpers.as_mut().unwrap();
        assert_eq!(helpers.len(), 2);
        for slot in helpers.slots().iter() {
            assert_eq!(slot.s.eval.weights(), &w, "helper {}", slot.id);
        }
    }
}
