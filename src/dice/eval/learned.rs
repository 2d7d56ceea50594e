//! The learned term of the Dice Chess evaluation (issue 30 item 1; docs/dice.md "The learned
//! evaluation"): for each rule set that has one, a network of the chess net's shape
//! (`crate::eval::nnue`, `(768 -> N) x 2 -> 1`) trained on chesscore's own Dice Chess
//! self-play (`lab/dice_nnue_datagen.rs`, then `lab/nnue_train.rs`): the board in, the
//! side to move's pre-roll value out, on the trainer's logistic scale (400 units per unit
//! of the expected score's logit). It takes the place of the chess term (the hand-written
//! chess evaluation) among the linear terms, with its own weight; the dice terms (king
//! capture chances, expected captures, movable types, passers...) stay as they are.
//!
//! The nets live in `nets/` with their training logs and are embedded here; a rule set
//! without a net keeps the hand-written chess term.

use crate::dice::Rules;
use crate::eval::nnue::Network;
use std::sync::{Arc, OnceLock};

/// The embedded nets' bytes, by rule set (`Rules as usize`: two dice, one die, three dice).
const NETS: [Option<&[u8]>; 3] = [
    None,
    Some(include_bytes!("../../../nets/dice-one-die.nnue")),
    None,
];

/// The chess term's weight (`super::linear::WEIGHT_SCALE` units per unit of the net's
/// output) when the learned net gives it, by rule set: twice the hand-written chess term's
/// 65, chosen by matches (docs/results/dice-search.md "The learned evaluation").
pub(crate) const WEIGHT: [i32; 3] = [130, 130, 130];

/// The learned net of `rules`, loaded once; `None` for a rule set without one.
pub fn embedded(rules: Rules) -> Option<Arc<Network>> {
    static LOADED: [OnceLock<Option<Arc<Network>>>; 3] =
        [OnceLock::new(), OnceLock::new(), OnceLock::new()];
    let i = rules as usize;
    LOADED[i]
        .get_or_init(|| {
            NETS[i].map(|b| Arc::new(Network::from_bytes(b).expect("an embedded dice net loads")))
        })
        .clone()
}
