//! The static-value cache: one search thread's memo of the evaluator's values by game key,
//! so a position reached again is not evaluated again.
//!
//! # Why it pays
//! A three-dice turn reaches the same final position by several micro-move orders, and
//! the transposition table does not catch it: the nodes that evaluate it differ (after
//! `a` then `b` one die is left, after `a` then `c` another), only the leaf is shared. With
//! three distinct dice a leaf is evaluated by up to three last-micro-move nodes. Two dice
//! with per-type sharing search a type again under a narrower window, which meets the same
//! leaves again. Measured on the benchmark positions (`all-exact`, depth 2 / 3 / 3): the
//! cache answers 66% of the three-dice leaves, 42% of the two-dice ones and 9% in one die.
//!
//! # What it keeps exact
//! The evaluator is a pure function of what [`DiceGame::hash`] covers (the position, side
//! to move, castling rights, en passant targets, rule set, phase and dice left; the
//! halfmove clock is not evaluated), so a hit returns exactly the value the evaluator would:
//! node counts, values and moves are those of the search without the cache, only faster
//! (`tests/dice_search.rs` checks it). Keys are 64-bit hashes, as in the transposition
//! table; a key of 0 is never answered (it marks an empty slot).
//!
//! # Memory
//! [`EvalCache::SLOTS`] slots of 16 bytes (1 MiB), direct-mapped (a new value replaces the
//! slot's old one), allocated with the searcher: the engine's creation and
//! [`super::DiceEngine::set_threads`]. Nothing is allocated during a search.
//!
//! [`DiceGame::hash`]: crate::dice::DiceGame::hash

use crate::dice::eval::DiceEvaluator;
use crate::dice::DiceGame;

/// One cached evaluation: the key, the full value and the quiet value
/// ([`DiceEvaluator::evaluate_with_quiet`]).
#[derive(Copy, Clone, Debug, Default)]
struct Slot {
    key: u64,
    full: i32,
    quiet: i32,
}

/// A direct-mapped cache of [`DiceEvaluator::evaluate_with_quiet`] by game key.
#[derive(Debug)]
pub(crate) struct EvalCache {
    slots: Box<[Slot]>,
}

impl Clone for EvalCache {
    /// An empty cache of the same size (what a new search thread needs).
    fn clone(&self) -> EvalCache {
        EvalCache {
            slots: vec![Slot::default(); self.slots.len()].into_boxed_slice(),
        }
    }
}

impl EvalCache {
    /// Slots in a cache (a power of two). Two to the 14th and the 20th answered 65.4% and
    /// 66.4% of the three-dice leaves: a turn's repeats are close together.
    pub(crate) const SLOTS: usize = 1 << 16;

    /// An empty cache, or `None` when the memory cannot be had.
    pub(crate) fn try_new() -> Option<EvalCache> {
        let mut slots = Vec::new();
        slots.try_reserve_exact(Self::SLOTS).ok()?;
        slots.resize(Self::SLOTS, Slot::default());
        Some(EvalCache {
            slots: slots.into_boxed_slice(),
        })
    }

    /// Forgets every value (when the evaluator changes).
    pub(crate) fn clear(&mut self) {
        self.slots.fill(Slot::default());
    }

    #[inline]
    fn index(&self, key: u64) -> usize {
        // The length is a power of two.
        key as usize & (self.slots.len() - 1)
    }

    /// The full and quiet values of `game` ([`DiceEvaluator::evaluate_with_quiet`]), from
    /// the cache when its key is there, else from `eval` (and then kept).
    #[inline]
    pub(crate) fn values(&mut self, eval: &mut DiceEvaluator, game: &DiceGame) -> (i32, i32) {
        let key = game.hash();
        let i = self.index(key);
        let s = self.slots[i];
        if s.key == key && key != 0 {
            return (s.full, s.quiet);
        }
        let (full, quiet) = eval.evaluate_with_quiet(game);
        self.slots[i] = Slot { key, full, quiet };
        (full, quiet)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::rules::Rules;

    #[test]
    fn a_hit_needs_the_same_key() {
        let game = DiceGame::new(Rules::ThreeDice);
        let mut eval = DiceEvaluator::new(Rules::ThreeDice);
        let mut cache = EvalCache::try_new().unwrap();
        let fresh = eval.evaluate_with_quiet(&game);
        let key = game.hash();
        assert_eq!(cache.values(&mut eval, &game), fresh);
        // Planted values show whether the slot or the evaluator answered.
        let i = cache.index(key);
        cache.slots[i].full = 12_345;
        assert_eq!(cache.values(&mut eval, &game).0, 12_345);
        // Another key on the same slot misses and takes the slot over.
        cache.slots[i].key = key ^ (EvalCache::SLOTS as u64);
        assert_eq!(cache.values(&mut eval, &game), fresh);
        assert_eq!(cache.slots[i].key, key);
        // A cleared cache misses.
        cache.slots[i].full = 12_345;
        cache.clear();
        assert_eq!(cache.values(&mut eval, &game), fresh);
    }
}
