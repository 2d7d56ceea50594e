//! The lab's hooks into the evaluations (cargo feature `lab`, off by default): what the Texel
//! tuners, the data generators and the calibration tools in `lab/` need and a user of the
//! library does not (`cargo run --release --features lab --example tune`, ...).
//!
//! Nothing here is covered by the stability promise: names, signatures and meanings change
//! with the evaluations they expose, in any release. Without the feature these items are
//! internal to the crate (docs/decisions.md, "The lab").

pub mod eval {
    //! The chess evaluation as the Texel tuner (`lab/tune.rs`) sees it: every term is a
    //! weight times a count, tapered by the phase and scaled in drawish endgames.

    pub use crate::eval::initial::initial;
    pub use crate::eval::score::{MAX_PHASE, S, SCALE_NORMAL};
    pub use crate::eval::trace::{trace, FeatureTrace};
    pub use crate::eval::weights::WEIGHTS;

    pub mod features {
        //! Where each weight lives in the weight vector ([`super::WEIGHTS`]).
        pub use crate::eval::features::*;
    }
}

pub mod dice_eval {
    //! The Dice Chess evaluation as its tuner (`lab/dice_tune.rs`), data generator and
    //! weight matches see it: a weighted sum of integer feature counts put on the value scale,
    //! one weight set per rule set.

    use crate::dice::eval::DiceEvaluator;
    use crate::dice::{DiceGame, Rules};

    pub use crate::dice::eval::linear::{
        dot, to_value, value_of_sum, with_chess_net, with_weights_override, Weights, WEIGHT_SCALE,
    };
    pub use crate::dice::eval::weights::WEIGHTS;
    pub use features::{Counts, NUM_FEATURES};

    pub mod features {
        //! The features: their indices in the weights, their names, the counts of one game.
        pub use crate::dice::eval::features::*;
    }

    /// An evaluator for games of `rules` with other weights than the tuned ones (a tuner's
    /// candidates).
    pub fn evaluator_with_weights(rules: Rules, weights: Weights) -> DiceEvaluator {
        DiceEvaluator::with_weights(rules, weights)
    }

    /// The weights `evaluator` uses.
    pub fn weights_in_use(evaluator: &DiceEvaluator) -> &Weights {
        evaluator.weights()
    }

    /// [`DiceEvaluator::evaluate`], writing the feature counts it used into `counts`: the
    /// value returned is always `value_of_sum(dot(weights, counts))`.
    pub fn trace(evaluator: &mut DiceEvaluator, game: &DiceGame, counts: &mut Counts) -> i32 {
        evaluator.trace(game, counts)
    }
}
