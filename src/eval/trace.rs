//! The tuner's view of the evaluation (feature `lab`, re-exported as `chesscore::lab::eval`):
//! the count of every feature in a position, so that `lab/tune.rs` can fit all weights at once.

use super::features::NUM_FEATURES;
use super::score::SCALE_NORMAL;
use super::{evaluate_with, weights, Trace};
use crate::position::Position;
use crate::types::Color;

/// The counts of every feature in one position, for the tuner.
#[derive(Clone, Debug, Default)]
pub struct FeatureTrace {
    /// Dense counts, white's minus black's, indexed like the weights.
    pub counts: Vec<i32>,
    /// The phase (0 = bare kings and pawns, [`MAX_PHASE`](super::score::MAX_PHASE) = all pieces).
    pub phase: i32,
    /// The endgame scale (of [`SCALE_NORMAL`]).
    pub eg_scale: i32,
}

impl Trace for FeatureTrace {
    const ON: bool = true;
    fn add(&mut self, index: usize, count: i32) {
        self.counts[index] += count;
    }
}

/// The trace of `pos` (counts of every feature, phase and endgame scale) and its evaluation
/// from White's point of view, for the tuner.
pub fn trace(pos: &Position) -> (FeatureTrace, i32) {
    let mut t = FeatureTrace {
        counts: vec![0; NUM_FEATURES],
        phase: 0,
        eg_scale: SCALE_NORMAL,
    };
    let (v, phase, scale) = evaluate_with(pos, &weights::WEIGHTS, &mut t, None);
    t.phase = phase;
    t.eg_scale = scale;
    let white = if pos.side_to_move() == Color::WHITE {
        v
    } else {
        -v
    };
    (t, white)
}
