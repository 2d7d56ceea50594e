//! Dice Chess evaluation: the static value of a game awaiting its roll, on the bounded value
//! scale the expectimax search averages over chance nodes.
//!
//! # The value scale
//! A value is an expected score for the side to move, linear in it (so averaging over a
//! chance node's outcomes averages expected scores): `v` in `-EVAL_MAX..=EVAL_MAX` stands for
//! the expected score `(v + EVAL_MAX) / (2 * EVAL_MAX)` (0 = an even game, `EVAL_MAX` = a sure
//! win). The search puts proven wins and losses just outside this band.
//!
//! The contract every version of the evaluator keeps (the search relies on it):
//! * [`DiceEvaluator::evaluate`] takes a game that is not over, in any phase (normally
//!   awaiting its roll), and returns a value in `-EVAL_MAX..=EVAL_MAX` for the side to move;
//! * it does not allocate (tables are made in [`DiceEvaluator::new`]);
//! * it is deterministic: the same game gives the same value.

use super::game::DiceGame;
use super::rules::Rules;
use crate::types::{Color, PieceType};

/// The bound of heuristic values: `EVAL_MAX` is an expected score of 1, `-EVAL_MAX` of 0.
pub const EVAL_MAX: i32 = 10_000;

/// Material values in centipawns by piece type (index 1 = pawn .. 5 = queen).
const VALUES: [i32; 7] = [0, 100, 300, 300, 500, 900, 0];

/// The evaluator. One per search thread; may hold caches allocated in [`DiceEvaluator::new`].
#[derive(Clone, Debug)]
pub struct DiceEvaluator {
    rules: Rules,
}

impl DiceEvaluator {
    /// An evaluator for games of `rules`.
    pub fn new(rules: Rules) -> DiceEvaluator {
        DiceEvaluator { rules }
    }

    /// The rule set this evaluator is for.
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// The static value of `game` (not over) for its side to move, in
    /// `-EVAL_MAX..=EVAL_MAX`. First version: material only, through a logistic curve.
    pub fn evaluate(&mut self, game: &DiceGame) -> i32 {
        let us = game.side_to_move();
        let cp = material(game, us) - material(game, us.flip());
        to_value(cp as f32)
    }
}

/// A centipawn score mapped onto the value scale by a logistic curve (400 cp: about 0.8).
pub fn to_value(cp: f32) -> i32 {
    let p = 1.0 / (1.0 + (-cp / 300.0).exp());
    (((2.0 * p - 1.0) * EVAL_MAX as f32).round() as i32).clamp(-EVAL_MAX, EVAL_MAX)
}

fn material(game: &DiceGame, c: Color) -> i32 {
    (1..=5u8)
        .map(|t| {
            let kind = PieceType::new(t).unwrap_or(PieceType::NONE);
            VALUES[t as usize] * game.position().pieces(c, kind).count() as i32
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn value_scale_is_bounded_and_symmetric() {
        assert_eq!(to_value(0.0), 0);
        assert_eq!(to_value(1e9), EVAL_MAX);
        assert_eq!(to_value(-1e9), -EVAL_MAX);
        assert_eq!(to_value(300.0), -to_value(-300.0));
        assert!(to_value(100.0) < to_value(200.0));
    }

    #[test]
    fn start_position_is_even() {
        let game = DiceGame::new(Rules::TwoDice);
        assert_eq!(DiceEvaluator::new(Rules::TwoDice).evaluate(&game), 0);
    }
}
