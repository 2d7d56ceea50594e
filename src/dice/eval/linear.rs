//! The evaluation as a linear model: one integer weight per feature count, the weighted sum
//! and its map onto the value scale, and the tuners' override of the weights. Crate-internal;
//! the `lab` feature re-exports it as `chesscore::lab::dice_eval`.

use super::features::{Counts, NUM_FEATURES};
use super::{Rules, EVAL_MAX};
use crate::eval::nnue::Network;
use std::cell::{Cell, RefCell};
use std::sync::Arc;

/// The weights' unit: a weighted sum of `WEIGHT_SCALE` is one unit of the logistic curve's
/// argument (the logit of the expected score).
pub const WEIGHT_SCALE: f64 = 65_536.0;

/// One weight per feature (see `super::features`).
pub type Weights = [i32; NUM_FEATURES];

thread_local! {
    static OVERRIDE: Cell<Option<(Rules, Weights)>> = const { Cell::new(None) };
    /// The chess term's source for evaluators made on this thread (`with_chess_net`):
    /// `None` the default, `Some(None)` the hand-written chess evaluation, `Some(Some(net))`
    /// that network.
    static CHESS_NET: RefCell<Option<Option<Arc<Network>>>> = const { RefCell::new(None) };
}

/// The chess term's source a [`with_chess_net`] running on this thread asks for, if any:
/// `Some(None)` is the hand-written chess evaluation.
pub(crate) fn chess_net() -> Option<Option<Arc<Network>>> {
    CHESS_NET.with(|n| n.borrow().clone())
}

/// Runs `f` with every [`DiceEvaluator`](super::DiceEvaluator) made on this thread meanwhile
/// taking its chess term from `net` (full refresh each call) or, for `None`, from the
/// hand-written chess evaluation, instead of its rule set's default (the learned net of
/// `super::learned` where there is one): the experiment hook of the learned evaluation
/// (`lab/dice_eval_match.rs`'s `engine:dN:net=FILE` and `engine:dN:hand` players). The
/// weights stay the rule set's unless a [`with_weights_override`] gives others; with a net
/// the chess term's weight is `super::learned::WEIGHT`'s.
#[cfg(any(test, feature = "lab"))]
pub fn with_chess_net<R>(net: Option<Arc<Network>>, f: impl FnOnce() -> R) -> R {
    struct Restore(Option<Option<Arc<Network>>>);
    impl Drop for Restore {
        fn drop(&mut self) {
            CHESS_NET.with(|n| *n.borrow_mut() = self.0.take());
        }
    }
    let _restore = Restore(CHESS_NET.with(|n| n.replace(Some(net))));
    f()
}

/// The weights a [`with_weights_override`] running on this thread gives `rules`, if any (never
/// any without the `lab` feature, outside the unit tests).
pub(crate) fn overridden(rules: Rules) -> Option<Weights> {
    OVERRIDE
        .with(Cell::get)
        .filter(|(r, _)| *r == rules)
        .map(|(_, w)| w)
}

/// Runs `f` with `weights` standing in for the tuned weights of `rules` in every
/// [`DiceEvaluator::new`](super::DiceEvaluator::new) made on this thread meanwhile: a tuning hook that gives candidate
/// weights to a search that makes its own evaluator (`lab/dice_eval_match.rs` plays the
/// engine with new weights against the engine with the weights in use this way). An
/// engine's Lazy SMP helper threads evaluate with the weights of the engine's own evaluator,
/// so an engine made inside the override searches with them on every thread.
#[cfg(any(test, feature = "lab"))]
pub fn with_weights_override<R>(rules: Rules, weights: Weights, f: impl FnOnce() -> R) -> R {
    struct Restore(Option<(Rules, Weights)>);
    impl Drop for Restore {
        fn drop(&mut self) {
            OVERRIDE.with(|o| o.set(self.0));
        }
    }
    let _restore = Restore(OVERRIDE.with(|o| o.replace(Some((rules, weights)))));
    f()
}

/// The weighted sum of the counts.
pub fn dot(weights: &Weights, counts: &Counts) -> i64 {
    weights
        .iter()
        .zip(counts)
        .map(|(&w, &c)| i64::from(w) * i64::from(c))
        .sum()
}

/// A weighted sum mapped onto the value scale: the expected score is
/// `sigmoid(sum / WEIGHT_SCALE)`, so the value is `EVAL_MAX * tanh(sum / (2 WEIGHT_SCALE))`,
/// rounded and clamped.
pub fn value_of_sum(sum: i64) -> i32 {
    let x = (sum as f64 / (2.0 * WEIGHT_SCALE)).clamp(-20.0, 20.0);
    ((x.tanh() * EVAL_MAX as f64).round() as i32).clamp(-EVAL_MAX, EVAL_MAX)
}

/// A centipawn score mapped onto the value scale by a logistic curve (400 cp: about 0.8):
/// the first version's curve, kept for callers that think in centipawns.
#[cfg(any(test, feature = "lab"))]
pub fn to_value(cp: f32) -> i32 {
    let p = 1.0 / (1.0 + (-cp / 300.0).exp());
    (((2.0 * p - 1.0) * EVAL_MAX as f32).round() as i32).clamp(-EVAL_MAX, EVAL_MAX)
}
