//! Win, draw and loss chances from a Dice Chess value (issue 30 item 2): a model fitted on
//! held-out self-play, one per rule set.
//!
//! A value `v` in `-EVAL_MAX..=EVAL_MAX` (the side to move's, before the roll: what
//! `DiceEngine::evaluate` returns) stands for the expected score `e = (v + EVAL_MAX) /
//! (2 EVAL_MAX)`; its logit is `x = ln(e / (1 - e)) = ln((EVAL_MAX + v) / (EVAL_MAX - v))`
//! (the value clamped to `±(EVAL_MAX - 1)`, so `|x| <= 9.9`). The model is
//!
//! ```text
//! P(win)  = sigmoid(( x - a) / s)
//! P(loss) = sigmoid((-x - a) / s)
//! P(draw) = 1 - P(win) - P(loss)
//! ```
//!
//! With `a >= 0` the two sigmoids sum to at most 1 (`sigmoid(t - c) + sigmoid(-t - c)` falls
//! as `c` grows from 0, where it is 1), so the three chances are valid; `a` makes room for
//! draws, `s` corrects the evaluation's confidence (`s > 1`: the value is too sure of
//! itself). `a = 0, s = 1` is exactly today's reading of the value (win `e`, loss `1 - e`).
//! The model is symmetric (a value and its negation swap win and loss) and monotone (the
//! win chance rises with the value, the loss chance falls). Proven wins and losses lie
//! outside `-EVAL_MAX..=EVAL_MAX` and are the search's to map (`DiceEngine::equity`: 1 or
//! 0); values above `EVAL_MAX` (near-certain wins averaged with heuristic values) are read
//! as `EVAL_MAX`.
//!
//! The constants are fitted by `lab/dice_equity_calibrate.rs` (log loss over win, draw and
//! loss on a training split of self-play games; the report on held-out games, the command
//! and the reliability diagrams are in docs/results/dice-equity.md).

use super::EVAL_MAX;
use crate::dice::rules::Rules;

/// Chances of a win, a draw and a loss for the side to move (they sum to 1).
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Wdl {
    /// Chance of a win.
    pub win: f64,
    /// Chance of a draw.
    pub draw: f64,
    /// Chance of a loss.
    pub loss: f64,
}

impl Wdl {
    /// A sure win.
    pub const WIN: Wdl = Wdl {
        win: 1.0,
        draw: 0.0,
        loss: 0.0,
    };
    /// A sure draw.
    pub const DRAW: Wdl = Wdl {
        win: 0.0,
        draw: 1.0,
        loss: 0.0,
    };
    /// A sure loss.
    pub const LOSS: Wdl = Wdl {
        win: 0.0,
        draw: 0.0,
        loss: 1.0,
    };

    /// The expected score, `win + draw / 2`.
    pub fn expected_score(&self) -> f64 {
        self.win + self.draw / 2.0
    }

    /// Chances from outside (a caller's, or a copy of an equity): each finite and in
    /// `0..=1`, their sum within [`Wdl::SUM_TOLERANCE`] of 1.
    ///
    /// # Errors
    /// `None` when a chance is NaN, infinite or outside `0..=1`, or the sum is off.
    pub fn checked(win: f64, draw: f64, loss: f64) -> Option<Wdl> {
        let ok = [win, draw, loss]
            .iter()
            .all(|c| c.is_finite() && (0.0..=1.0).contains(c))
            && (win + draw + loss - 1.0).abs() <= Wdl::SUM_TOLERANCE;
        ok.then_some(Wdl { win, draw, loss })
    }

    /// How far from 1 the chances given to [`Wdl::checked`] may sum (rounding in a caller's
    /// arithmetic, or text with six decimals).
    pub const SUM_TOLERANCE: f64 = 1e-5;
}

/// The model's two constants (see the [module docs](self)).
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct WdlModel {
    /// The draw margin on the logit scale (at least 0).
    pub a: f64,
    /// The scale (above 0): the value's logit is divided by it.
    pub s: f64,
}

/// The fitted constants, by [`Rules`] (two dice, one die, three dice), each from seed-1
/// self-play (docs/results/dice-equity.md has the held-out report and the diagrams).
pub const MODELS: [WdlModel; 3] = [
    // two dice: `cargo run --release --features lab --example dice_equity_calibrate --
    // two-dice 800 --seed 1 --players engine:d2 --depth 2` (12,596 training positions).
    WdlModel {
        a: 0.1312,
        s: 2.7512,
    },
    // one die: `dice_equity_calibrate -- one-die 1300 --seed 1 --players engine:d2
    // --depth 2` (20,750 training positions).
    WdlModel {
        a: 0.0566,
        s: 1.9190,
    },
    // three dice: `dice_equity_calibrate -- three-dice 3000 --seed 1 --players engine:d1
    // --depth 1` (16,557 training positions).
    WdlModel {
        a: 0.0835,
        s: 3.8645,
    },
];

fn sigmoid(t: f64) -> f64 {
    1.0 / (1.0 + (-t).exp())
}

impl WdlModel {
    /// The rule set's fitted model.
    pub const fn of(rules: Rules) -> WdlModel {
        MODELS[rules as usize]
    }

    /// The chances for a value on the evaluation's scale, for the side to move (values
    /// beyond `±EVAL_MAX` are read as `±EVAL_MAX`).
    pub fn wdl(&self, value: i32) -> Wdl {
        let v = value.clamp(-(EVAL_MAX - 1), EVAL_MAX - 1) as f64;
        let m = EVAL_MAX as f64;
        let x = ((m + v) / (m - v)).ln();
        let win = sigmoid((x - self.a) / self.s);
        let loss = sigmoid((-x - self.a) / self.s);
        let draw = (1.0 - win - loss).max(0.0);
        // Only rounding can take the sum off 1 (a >= 0); spread it.
        let total = win + draw + loss;
        Wdl {
            win: win / total,
            draw: draw / total,
            loss: loss / total,
        }
    }
}

/// The fitted chances of `value` (see [`WdlModel::wdl`]) under `rules`.
pub fn wdl(rules: Rules, value: i32) -> Wdl {
    WdlModel::of(rules).wdl(value)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-12
    }

    /// Chances in range that sum to 1 pass, with rounding's slack; anything else is refused.
    #[test]
    fn checked_chances() {
        assert_eq!(Wdl::checked(1.0, 0.0, 0.0), Some(Wdl::WIN));
        assert!(Wdl::checked(0.333333, 0.333333, 0.333333).is_some());
        assert!(Wdl::checked(0.2, 0.3, 0.5 + 2e-5).is_none());
        for bad in [
            (f64::NAN, 0.0, 1.0),
            (f64::INFINITY, 0.0, 0.0),
            (1.2, 0.0, -0.2),
            (-0.0000001, 0.5, 0.5000001),
            (0.5, 0.5, 0.5),
        ] {
            assert_eq!(Wdl::checked(bad.0, bad.1, bad.2), None, "{bad:?}");
        }
    }

    #[test]
    fn the_constants_are_valid() {
        for m in MODELS {
            assert!(m.a >= 0.0 && m.a.is_finite(), "{m:?}");
            assert!(m.s > 0.0 && m.s.is_finite(), "{m:?}");
        }
    }

    #[test]
    fn masses_sum_to_one_and_are_monotone_in_every_rule_set() {
        let models = MODELS
            .into_iter()
            .chain([WdlModel { a: 0.7, s: 2.5 }, WdlModel { a: 0.0, s: 0.3 }]);
        for m in models {
            let mut prev = m.wdl(-EVAL_MAX - 500);
            for v in (-EVAL_MAX - 400..=EVAL_MAX + 500).step_by(100) {
                let p = m.wdl(v);
                assert!(close(p.win + p.draw + p.loss, 1.0), "{m:?} {v}: {p:?}");
                for x in [p.win, p.draw, p.loss] {
                    assert!((0.0..=1.0).contains(&x), "{m:?} {v}: {p:?}");
                }
                assert!(p.win >= prev.win && p.loss <= prev.loss, "{m:?} {v}");
                // Symmetric: the opponent's view swaps win and loss.
                let q = m.wdl(-v);
                assert!(close(p.win, q.loss) && close(p.draw, q.draw), "{m:?} {v}");
                prev = p;
            }
        }
    }

    #[test]
    fn no_margin_and_unit_scale_is_todays_expected_score() {
        // a = 0, s = 1: the win chance is the value's expected score, computed here from
        // the value scale's definition, and there are no draws.
        let m = WdlModel { a: 0.0, s: 1.0 };
        for v in [-9999, -7000, -2500, -1, 0, 1, 333, 5000, 9999] {
            let e = (v + EVAL_MAX) as f64 / (2 * EVAL_MAX) as f64;
            let p = m.wdl(v);
            assert!((p.win - e).abs() < 1e-9, "{v}: {p:?} {e}");
            assert!(p.draw.abs() < 1e-9);
            assert!((p.expected_score() - e).abs() < 1e-9);
        }
    }

    #[test]
    fn hand_computed_values() {
        // a = ln 2, s = 2 at v = 0 (x = 0): win = loss = sigmoid(-ln 2 / 2) = 1 / (1 + sqrt 2).
        let m = WdlModel {
            a: 2f64.ln(),
            s: 2.0,
        };
        let p = m.wdl(0);
        let w = 1.0 / (1.0 + 2f64.sqrt());
        assert!(close(p.win, w) && close(p.loss, w), "{p:?}");
        assert!(close(p.draw, 1.0 - 2.0 * w));
        assert!(close(p.expected_score(), 0.5));
        // v = 5000: e = 3/4, x = ln 3; a = 0, s = 2: win = sigmoid(ln 3 / 2) = sqrt3 / (1 + sqrt3).
        let m = WdlModel { a: 0.0, s: 2.0 };
        let p = m.wdl(5000);
        let r3 = 3f64.sqrt();
        assert!(close(p.win, r3 / (1.0 + r3)), "{p:?}");
        assert!(close(p.loss, 1.0 / (1.0 + r3)), "{p:?}");
    }

    #[test]
    fn sure_results() {
        assert_eq!(Wdl::WIN.expected_score(), 1.0);
        assert_eq!(Wdl::DRAW.expected_score(), 0.5);
        assert_eq!(Wdl::LOSS.expected_score(), 0.0);
    }
}
