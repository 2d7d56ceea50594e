//! The evaluation weights in use: until the tuner writes tuned ones here, the hand-set
//! starting weights.

use super::features::NUM_FEATURES;
use super::score::S;

/// The weights, indexed by the constants of [`super::features`].
pub static WEIGHTS: [S; NUM_FEATURES] = super::initial::initial();
