//! Lazy SMP for the Dice Chess engine: the helper threads of [`super::DiceEngine`].
//!
//! With `n` threads ([`super::DiceEngine::set_threads`]) the engine keeps `n - 1` helper
//! threads, started when the count is set and parked on a condition variable between
//! searches (a search starts none: it wakes them). Each helper owns a [`Searcher`] of its
//! own (evaluator, counters, root lines) and a copy of the root game, and shares the
//! engine's table (`Arc<DiceTable>`, lock-free: see [`super::tt`]), its stop flag and a node
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
//! Nothing is allocated per search (the condition variables and mutexes are futex based),
//! only when the thread count, the table size or the rule set changes.

use super::expectimax::{Searcher, NEG_INF, POS_INF};
use super::{TurnLine, WIN};
use crate::dice::game::DiceGame;
use crate::moves::Move;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::thread::JoinHandle;

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

#[derive(Default)]
struct State {
    /// Bumped by each search; a helper works once per value.
    generation: u64,
    /// Helpers still working on this generation.
    running: usize,
    /// Helpers started and waiting for work.
    ready: usize,
    quit: bool,
}

#[derive(Default)]
struct Shared {
    state: Mutex<State>,
    go: Condvar,
    done: Condvar,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

/// The helper threads (none with one thread).
pub(crate) struct Helpers {
    shared: Arc<Shared>,
    /// The engine's stop flag (raised to end a search that was not finished, see
    /// [`Helpers::settle`] and the drop).
    stop: Arc<AtomicBool>,
    slots: Vec<Arc<Mutex<HelperSlot>>>,
    handles: Vec<JoinHandle<()>>,
}

impl core::fmt::Debug for Helpers {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "Helpers({})", self.slots.len())
    }
}

impl Helpers {
    /// Starts a thread for each slot, or `None` when a thread cannot be started (those
    /// started are stopped again).
    pub(crate) fn spawn(slots: Vec<HelperSlot>, stop: Arc<AtomicBool>) -> Option<Helpers> {
        let mut h = Helpers {
            shared: Arc::new(Shared::default()),
            stop,
            slots: Vec::new(),
            handles: Vec::new(),
        };
        h.slots.try_reserve_exact(slots.len()).ok()?;
        h.handles.try_reserve_exact(slots.len()).ok()?;
        for slot in slots {
            let id = slot.id;
            let slot = Arc::new(Mutex::new(slot));
            let (shared, mine) = (h.shared.clone(), slot.clone());
            let handle = std::thread::Builder::new()
                .name(format!("dice-helper-{id}"))
                .stack_size(8 << 20)
                .spawn(move || helper_loop(&shared, &mine))
                .ok()?;
            h.slots.push(slot);
            h.handles.push(handle);
        }
        // Every helper done starting (what a new thread sets up happens now, not in the
        // first search) and asleep.
        let mut st = lock(&h.shared.state);
        while st.ready < h.slots.len() {
            st = h
                .shared
                .done
                .wait(st)
                .unwrap_or_else(PoisonError::into_inner);
        }
        drop(st);
        Some(h)
    }

    /// The helpers' slots (locked by the engine only between searches: uncontended).
    pub(crate) fn slots(&self) -> impl Iterator<Item = MutexGuard<'_, HelperSlot>> {
        self.slots.iter().map(|s| lock(s))
    }

    /// How many helpers.
    pub(crate) fn len(&self) -> usize {
        self.slots.len()
    }

    /// Makes sure no helper still works on an earlier search (possible only when the main
    /// thread's search ended by a panic, before it could stop them): stops and waits for
    /// them, then lowers the stop flag again. Call before [`Helpers::slots`] at a search's
    /// start.
    pub(crate) fn settle(&self) {
        if lock(&self.shared.state).running == 0 {
            return;
        }
        self.stop.store(true, Ordering::SeqCst);
        self.wait();
        self.stop.store(false, Ordering::SeqCst);
    }

    /// Wakes every helper on the slots as set up.
    pub(crate) fn start(&self) {
        let mut st = lock(&self.shared.state);
        st.generation += 1;
        st.running = self.slots.len();
        self.shared.go.notify_all();
    }

    /// Waits until every helper is done (the caller has raised the stop flag); returns
    /// their nodes.
    pub(crate) fn wait(&self) -> u64 {
        let mut st = lock(&self.shared.state);
        while st.running > 0 {
            st = self
                .shared
                .done
                .wait(st)
                .unwrap_or_else(PoisonError::into_inner);
        }
        drop(st);
        self.slots().map(|s| s.s.nodes).sum()
    }
}

impl Drop for Helpers {
    fn drop(&mut self) {
        // (A search still running, after a panic on the main thread, ends too.)
        self.stop.store(true, Ordering::SeqCst);
        lock(&self.shared.state).quit = true;
        self.shared.go.notify_all();
        for h in self.handles.drain(..) {
            let _ = h.join();
        }
    }
}

fn helper_loop(shared: &Shared, slot: &Mutex<HelperSlot>) {
    let mut seen = 0;
    {
        let mut st = lock(&shared.state);
        st.ready += 1;
        shared.done.notify_all();
    }
    loop {
        {
            let mut st = lock(&shared.state);
            while st.generation == seen && !st.quit {
                st = shared.go.wait(st).unwrap_or_else(PoisonError::into_inner);
            }
            if st.quit {
                return;
            }
            seen = st.generation;
        }
        {
            let mut s = lock(slot);
            // A panic (a bug) must not leave the main thread waiting: it is caught here and
            // this helper simply ends its part of the search.
            let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| s.run()));
        }
        let mut st = lock(&shared.state);
        st.running -= 1;
        if st.running == 0 {
            shared.done.notify_all();
        }
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
        let helpers = e.helpers.as_ref().unwrap();
        assert_eq!(helpers.len(), 2);
        for slot in helpers.slots() {
            assert_eq!(slot.s.eval.weights(), &w, "helper {}", slot.id);
        }
    }
}
