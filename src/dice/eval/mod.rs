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

//!
//! # The terms
//! The value is `EVAL_MAX * tanh(sum / (2 WEIGHT_SCALE))` (the expected score
//! `sigmoid(sum / WEIGHT_SCALE)` put on the value scale), `sum` a weighted sum of integer
//! counts seen from the side to move (`features` lists them): tempo, material, the chess
//! evaluation of the position (`crate::eval`: its tuned piece-square tables, mobility and pawn
//! structure enter as one term; in a rule set with a learned net, `learned`, the net's value
//! instead, at its own weight), and the dice-aware terms: the exact chance that our roll (or
//! the dice we hold) lets us take the enemy king, king danger as the chance that their next
//! roll lets them take ours (two dice: the chance of a pass in check times their chance to
//! take), attacks on both king zones, the best capture expected over our roll and over
//! theirs, the movable piece types and the chance of a pass, passed pawns by rank and their
//! chance to promote (a free path, `p^squares` with `p` the chance of a pawn move a turn), and
//! piece diversity. Three dice count two-step king captures (a piece one move from attacking
//! the king and two dice of its type) but not those a second piece prepares: a lower bound
//! holding about 90% of the exact chance in random games (the unit tests check it against
//! every roll played out). One weight set per rule set (`weights::WEIGHTS`).
//! The counts are what `chesscore::lab::dice_eval::trace` (feature `lab`) gives; the value is always
//! `value_of_sum(dot(weights, counts))`. About 1 microsecond an evaluation (release,
//! `cargo run --release --features lab --example dice_eval_match -- bench`).
//!
//! # Tuning (the recipe; the tools are in `lab/`, built with the `lab` feature)
//! ```text
//! cargo run --release --features lab --example dice_datagen -- two-dice.txt two-dice 20000 2 1 greedy,heuristic,eval
//! cargo run --release --features lab --example dice_tune -- two-dice.txt two-dice 1500 --out two-dice.w
//! cargo run --release --features lab --example dice_eval_match -- two-dice eval:two-dice.w eval 1000
//! cargo run --release --features lab --example dice_tune -- two-dice.txt two-dice 1500 --write   # if it gained
//! ```
//! The weights in the repository: two and three dice are the hand weights with the chess
//! term set to 65; one die was rebuilt from engine self-play with
//! ```text
//! cargo run --release --features lab --example dice_datagen -- one-die.txt one-die 2000 2 7 engine:d2,engine:d1 0.02
//! cargo run --release --features lab --example dice_tune -- one-die.txt one-die 800 --freeze chess --write
//! ```
//! `dice_datagen` plays self-play games with outcome labels, `dice_tune` fits the weights to
//! the outcomes (Texel's method, the logistic scale folded into the weights, L2-regularised
//! toward the weights in use, rare features frozen) and `dice_eval_match` plays the new
//! weights against the old (one ply each, game pairs sharing their dice). A change is kept
//! only when such a match shows it gains. With the engine:
//! `dice_eval_match -- one-die engine:d2:new.w engine:d2 500` (depth 2 each, or `engine:tMS`
//! for a time per move; the candidate weights reach the search through
//! `with_weights_override`).
//!
//! # What was tried (November 2026; W/D/L and Elo with 95% bars in the commit messages)
//! * Hand weights first (material, king capture 6 logits for a sure capture, expected
//!   captures, passed pawns by rank): one ply against greedy 83.6% (two dice), 71.2% (one
//!   die), 79.8% (three dice), 600 games each.
//! * Each dice term removed at one ply, 2000 games each (two / one / three dice): king
//!   capture chances -122 / -224 / -203 Elo, expected captures -112 / -28 / -82, movable
//!   types and pass chance -26 / +17 / -19, passed pawns -5 / +1 / -11, diversity -1 / +5 /
//!   -11: all kept (one die's mobility gain is within noise after tuning).
//! * The chess evaluation at 0.3 pawn per 100 cp: +37 / +53 / +21 at one ply, +58 (two
//!   dice) and +34 (one die) with the engine at depth 2: kept. At 0.6 and 1.0: no better.
//! * Texel fits of every weight on data from greedy, heuristic and one-ply players (20,000
//!   games a rule set, 150,000 to 520,000 positions; held-out error 0.222 -> 0.196, 0.277 ->
//!   0.208, 0.251 -> 0.211): one ply -23 / 0 / -59 Elo: rejected; a quarter or half of the
//!   step: within noise: rejected.
//! * Texel fits on engine self-play (depth 1 and 2, 2% random moves, 2000 / 2000 / 6000
//!   games): all weights free, -12 / 0 / -17 Elo with the engine: rejected; the scale alone
//!   (calibration: the hand weights are two to seven times too confident; held-out error
//!   0.219 -> 0.209 two dice) -4 / 0 Elo: rejected; all weights but the chess term's: one
//!   die +97 and +92 Elo with the engine at depth 2 (two seeds, 1000 games each): kept;
//!   two dice -13, three dice -34 (one ply): rejected; only the dice terms (material and
//!   chess frozen): two dice -27 (engine, depth 2), three dice -11 (one ply) and +5 (engine,
//!   depth 1): rejected.
//! * The chess term from a learned net (`learned`, docs/results/dice-search.md "The learned
//!   evaluation", November 27): one die +108 Elo at depth 2 and +42 at 10 ms a move (1000
//!   games each): kept; two dice -4 to -42 at every weight: rejected; three dice +15 at
//!   depth 1 from 107,256 positions: not kept. The embedded chess net as the term: +5 / +16
//!   / +18 at equal depth, three dice +11 at 20 ms: not kept.

use super::game::DiceGame;
use super::rules::Rules;
use crate::eval::nnue::{CachedAccumulator, Network};
use crate::eval::Evaluator;
use std::sync::Arc;

// Crate-visible so that `crate::lab` can re-export them (feature `lab`).
pub(crate) mod features;
pub mod heuristic;
pub mod learned;
pub(crate) mod linear;
#[cfg(test)]
mod reference;
pub mod wdl;
pub(crate) mod weights;

use features::{Counts, NUM_FEATURES};
use linear::{dot, value_of_sum, Weights};

/// The bound of heuristic values: `EVAL_MAX` is an expected score of 1, `-EVAL_MAX` of 0.
pub const EVAL_MAX: i32 = 10_000;

/// The expected score (0..=1) a value stands for.
pub fn expected_score(value: i32) -> f64 {
    (value + EVAL_MAX) as f64 / (2 * EVAL_MAX) as f64
}

/// The evaluator. One per search thread; holds the chess evaluator's pawn cache, the learned
/// net's accumulators of the last position evaluated and the rule set's outcome table, all
/// made in [`DiceEvaluator::new`].
#[derive(Debug)]
pub struct DiceEvaluator {
    rules: Rules,
    weights: Weights,
    table: features::RollTable,
    chess: Evaluator,
    /// The chess term's network (the rule set's learned net, `learned`), else `chess`.
    chess_net: Option<Arc<Network>>,
    /// `chess_net`'s accumulators, brought from one evaluated position to the next by the
    /// pieces that moved (`CachedAccumulator`).
    chess_acc: CachedAccumulator,
}

impl Clone for DiceEvaluator {
    /// A copy with its own (empty) chess pawn cache and accumulators.
    fn clone(&self) -> DiceEvaluator {
        DiceEvaluator {
            rules: self.rules,
            weights: self.weights,
            table: self.table,
            chess: Evaluator::new(),
            chess_net: self.chess_net.clone(),
            chess_acc: CachedAccumulator::new(),
        }
    }
}

/// The chess term's source for a new evaluator of `rules`: a lab override
/// (`linear::with_chess_net`), else the rule set's learned net, if it has one.
fn chess_net_for(rules: Rules) -> Option<Arc<Network>> {
    linear::chess_net().unwrap_or_else(|| learned::embedded(rules))
}

impl DiceEvaluator {
    /// An evaluator for games of `rules`, with the tuned weights of that rule set (or, for the
    /// tuners, the weights of a `with_weights_override` running on this thread for `rules`).
    pub fn new(rules: Rules) -> DiceEvaluator {
        let net = chess_net_for(rules);
        let w = linear::overridden(rules).unwrap_or_else(|| {
            let mut w = weights::WEIGHTS[rules as usize];
            if net.is_some() {
                w[features::CHESS] = learned::WEIGHT[rules as usize];
            }
            w
        });
        DiceEvaluator::with_net(rules, w, net)
    }

    /// An evaluator for games of `rules` with other weights (the tuner's candidates), its
    /// chess term from the rule set's default source.
    #[cfg(feature = "lab")]
    pub(crate) fn with_weights(rules: Rules, weights: Weights) -> DiceEvaluator {
        DiceEvaluator::with_net(rules, weights, chess_net_for(rules))
    }

    fn with_net(rules: Rules, weights: Weights, chess_net: Option<Arc<Network>>) -> DiceEvaluator {
        DiceEvaluator {
            rules,
            weights,
            table: features::RollTable::new(rules),
            chess: Evaluator::new(),
            chess_net,
            chess_acc: CachedAccumulator::new(),
        }
    }

    /// Whether the chess term comes from a learned net (`learned`) rather than the
    /// hand-written chess evaluation.
    pub fn is_learned(&self) -> bool {
        self.chess_net.is_some()
    }

    /// The rule set this evaluator is for.
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// The weights in use.
    #[cfg(any(test, feature = "lab"))]
    pub(crate) fn weights(&self) -> &Weights {
        &self.weights
    }

    /// The static value of `game` (not over) for its side to move, in
    /// `-EVAL_MAX..=EVAL_MAX`: the weighted sum of the feature counts through the logistic
    /// curve.
    pub fn evaluate(&mut self, game: &DiceGame) -> i32 {
        let mut counts = [0; NUM_FEATURES];
        self.trace(game, &mut counts)
    }

    /// The static value of `game` (as [`DiceEvaluator::evaluate`]) and its *quiet* value:
    /// the same without the side to move's expected capture gain
    /// (its feature counted 0). The quiet value is the stand-pat value
    /// of the search's quiescence, which searches those captures roll by roll instead.
    pub fn evaluate_with_quiet(&mut self, game: &DiceGame) -> (i32, i32) {
        let mut counts = [0; NUM_FEATURES];
        let full = self.trace(game, &mut counts);
        counts[features::OUR_CAPTURE_GAIN] = 0;
        (full, value_of_sum(dot(&self.weights, &counts)))
    }

    /// [`DiceEvaluator::evaluate`], writing the feature counts it used into `counts`: the
    /// value is always `value_of_sum(dot(weights, counts))`.
    pub(crate) fn trace(&mut self, game: &DiceGame, counts: &mut Counts) -> i32 {
        let chess = match &self.chess_net {
            Some(net) => self.chess_acc.evaluate(net, game.position()),
            None => self.chess.evaluate(game.position()),
        };
        features::counts(game, &self.table, chess, counts);
        value_of_sum(dot(&self.weights, counts))
    }
}

#[cfg(test)]
mod tests {
    use super::features::{ONE, OUR_CAPTURE_GAIN, OUR_KING_CAPTURE};
    use super::linear::{to_value, WEIGHT_SCALE};
    use super::*;
    use crate::dice::game::Phase;
    use crate::dice::player::{sample_roll, Rng};
    use crate::moves::{Move, MoveList};

    #[test]
    fn value_scale_is_bounded_and_symmetric() {
        assert_eq!(to_value(0.0), 0);
        assert_eq!(to_value(1e9), EVAL_MAX);
        assert_eq!(to_value(-1e9), -EVAL_MAX);
        assert_eq!(to_value(300.0), -to_value(-300.0));
        assert!(to_value(100.0) < to_value(200.0));
        assert_eq!(value_of_sum(0), 0);
        assert_eq!(value_of_sum(i64::MAX / 2), EVAL_MAX);
        assert_eq!(value_of_sum(-(i64::MAX / 2)), -EVAL_MAX);
        // A logit of 1 is an expected score of sigmoid(1) = 0.731.
        let v = value_of_sum(WEIGHT_SCALE as i64);
        assert!((expected_score(v) - 0.731_058_6).abs() < 1e-4, "{v}");
    }

    /// Positions awaiting their roll from seeded random games, some of them with the roll
    /// made (and, for three dice, part of the turn played).
    /// A rule set with a learned net takes its chess term from the net (clamped like the
    /// hand-written one) at the learned weight; `with_chess_net(None)` gives the hand-written
    /// term at the tuned weight; and the two evaluations differ.
    #[test]
    fn the_learned_term_stands_in_for_the_chess_term() {
        for rules in Rules::ALL {
            let Some(net) = learned::embedded(rules) else {
                continue;
            };
            let mut ev = DiceEvaluator::new(rules);
            let mut hand = linear::with_chess_net(None, || DiceEvaluator::new(rules));
            assert!(ev.is_learned() && !hand.is_learned());
            assert_eq!(ev.weights[features::CHESS], learned::WEIGHT[rules as usize]);
            assert_eq!(
                hand.weights[features::CHESS],
                weights::WEIGHTS[rules as usize][features::CHESS]
            );
            let mut chess = Evaluator::new();
            let mut differ = 0;
            let ps = positions(rules, 20);
            for g in &ps {
                let (mut a, mut b) = ([0; NUM_FEATURES], [0; NUM_FEATURES]);
                let v = ev.trace(g, &mut a);
                let h = hand.trace(g, &mut b);
                assert_eq!(
                    a[features::CHESS],
                    net.evaluate(g.position()).clamp(-1500, 1500)
                );
                assert_eq!(
                    b[features::CHESS],
                    chess.evaluate(g.position()).clamp(-1500, 1500)
                );
                // Every other count is the same.
                a[features::CHESS] = 0;
                b[features::CHESS] = 0;
                assert_eq!(a, b);
                differ += usize::from(v != h);
            }
            assert!(
                differ > ps.len() / 2,
                "{differ} of {} values differ",
                ps.len()
            );
        }
    }

    fn positions(rules: Rules, games: u64) -> Vec<DiceGame> {
        let mut out = Vec::new();
        let mut list = MoveList::new();
        for seed in 0..games {
            let mut rng = Rng(seed * 7919 + rules as u64);
            let mut g = DiceGame::new(rules);
            let mut turns = 0;
            while !g.status().is_over() && turns < 150 {
                out.push(g.clone());
                let Some(roll) = sample_roll(&g, &mut rng) else {
                    break;
                };
                g.set_roll(roll).unwrap();
                while g.phase() == Phase::AwaitingMove {
                    if rng.below(4) == 0 {
                        out.push(g.clone());
                    }
                    g.generate_moves(&mut list);
                    let m = if list.is_empty() {
                        Move::NONE
                    } else {
                        list.as_slice()[rng.below(list.len() as u64) as usize]
                    };
                    g.make_move_unchecked(m);
                }
                turns += 1;
            }
        }
        out
    }

    /// The fast counts (one pass over each side's pieces, the roll table's per-set
    /// weights) equal the slow reference's (`reference.rs`: an `attackers_to` per square,
    /// a pass over the table per chance) in every position of random games, every rule set,
    /// before the roll, after it and in the middle of a three-dice turn.
    #[test]
    fn counts_equal_the_slow_reference() {
        let mut compared = 0;
        for rules in Rules::ALL {
            let table = features::RollTable::new(rules);
            for game in positions(rules, 60) {
                if game.status().is_over() {
                    continue;
                }
                let chess = Evaluator::new().evaluate(game.position());
                let mut fast = [0; NUM_FEATURES];
                let mut slow = [0; NUM_FEATURES];
                features::counts(&game, &table, chess, &mut fast);
                reference::counts(&game, &table, chess, &mut slow);
                assert_eq!(fast, slow, "{rules}: {}", game.to_fen());
                compared += 1;
            }
        }
        assert!(compared > 10_000, "{compared}");
    }

    #[test]
    fn start_position_is_near_even_for_every_rule_set() {
        for rules in Rules::ALL {
            let game = DiceGame::new(rules);
            let v = DiceEvaluator::new(rules).evaluate(&game);
            assert!(v.abs() <= 2000, "{rules}: {v}");
        }
    }

    #[test]
    fn trace_reproduces_the_evaluation_and_values_stay_in_range() {
        for rules in Rules::ALL {
            let mut ev = DiceEvaluator::new(rules);
            let mut counts = [0; NUM_FEATURES];
            for g in positions(rules, 20) {
                let v = ev.evaluate(&g);
                let t = ev.trace(&g, &mut counts);
                assert_eq!(v, t);
                assert_eq!(v, value_of_sum(dot(ev.weights(), &counts)), "{g:?}");
                // The quiet value is the same sum without the mover's expected capture gain
                // (the quiescence's stand-pat value, which tests/dice_search.rs's reference
                // takes from evaluate_with_quiet).
                let (full, quiet) = ev.evaluate_with_quiet(&g);
                counts[OUR_CAPTURE_GAIN] = 0;
                assert_eq!(full, v, "{g:?}");
                assert_eq!(quiet, value_of_sum(dot(ev.weights(), &counts)), "{g:?}");
                assert!((-EVAL_MAX..=EVAL_MAX).contains(&v));
                // A clone evaluates alike (its chess pawn cache starts empty).
                assert_eq!(ev.clone().evaluate(&g), v);
            }
        }
    }

    /// The same game with the colours swapped: board mirrored rank-wise, case and side to
    /// move swapped, castling rights and en passant targets mirrored.
    fn mirror(g: &DiceGame) -> DiceGame {
        let fen = g.to_fen();
        let f: Vec<&str> = fen.split(' ').collect();
        let board: Vec<String> = f[0]
            .split('/')
            .rev()
            .map(|r| {
                r.chars()
                    .map(|c| {
                        if c.is_ascii_uppercase() {
                            c.to_ascii_lowercase()
                        } else {
                            c.to_ascii_uppercase()
                        }
                    })
                    .collect()
            })
            .collect();
        let side = if f[1] == "w" { "b" } else { "w" };
        let mut castle: Vec<char> = f[2]
            .chars()
            .map(|c| {
                if c.is_ascii_uppercase() {
                    c.to_ascii_lowercase()
                } else {
                    c.to_ascii_uppercase()
                }
            })
            .collect();
        castle.sort_by_key(|c| (c.is_ascii_lowercase(), *c != 'K' && *c != 'k'));
        let castle: String = castle.into_iter().collect();
        let ep = if f[3] == "-" {
            "-".to_string()
        } else {
            let b = f[3].as_bytes();
            let mut sq: Vec<(u8, u8)> = b.chunks(2).map(|p| (b'1' + b'8' - p[1], p[0])).collect();
            sq.sort();
            sq.iter()
                .map(|&(r, f)| format!("{}{}", f as char, r as char))
                .collect()
        };
        let dice: String = f[6]
            .chars()
            .map(|c| {
                if c.is_ascii_uppercase() {
                    c.to_ascii_lowercase()
                } else {
                    c.to_ascii_uppercase()
                }
            })
            .collect();
        let text = format!(
            "{} {side} {castle} {ep} {} {} {dice}",
            board.join("/"),
            f[4],
            f[5]
        );
        DiceGame::from_fen(g.rules(), &text).unwrap_or_else(|e| panic!("{text}: {e:?}"))
    }

    #[test]
    fn colours_swapped_give_the_same_value() {
        for rules in Rules::ALL {
            let mut ev = DiceEvaluator::new(rules);
            let (mut a, mut b) = ([0; NUM_FEATURES], [0; NUM_FEATURES]);
            for g in positions(rules, 10) {
                let m = mirror(&g);
                ev.trace(&g, &mut a);
                ev.trace(&m, &mut b);
                assert_eq!(a, b, "{g:?} / {m:?}");
            }
        }
    }

    /// Whether the side to move can take the king with `game`'s dice, by trying every
    /// sequence of micro-moves the rules allow.
    fn can_take_king(game: &mut DiceGame) -> bool {
        let mut list = MoveList::new();
        game.generate_moves(&mut list);
        let king = game.position().king_square(game.side_to_move().flip());
        for &m in list.iter() {
            if m.is_capture() && !m.is_en_passant() && m.to() == king {
                return true;
            }
        }
        let us = game.side_to_move();
        for &m in list.iter() {
            let u = game.make_move_unchecked(m);
            let found = game.phase() == Phase::AwaitingMove
                && game.side_to_move() == us
                && can_take_king(game);
            game.unmake_move_unchecked(m, &u);
            if found {
                return true;
            }
        }
        false
    }

    #[test]
    fn king_capture_chance_agrees_with_every_roll_played_out() {
        for rules in Rules::ALL {
            let mut ev = DiceEvaluator::new(rules);
            let mut counts = [0; NUM_FEATURES];
            let (mut threatened, mut exact) = (0, 0);
            let mut mass = [0i64; 2];
            let games = if rules == Rules::ThreeDice { 6 } else { 40 };
            for g in positions(rules, games) {
                if g.phase() != Phase::AwaitingRoll {
                    continue;
                }
                let o = g.outcomes();
                let mut hit = 0;
                for oc in o.as_slice() {
                    let mut h = g.clone();
                    h.set_roll(oc.roll).unwrap();
                    if can_take_king(&mut h) {
                        hit += oc.weight;
                    }
                }
                let want = (hit as f64 / o.denominator() as f64 * ONE).round() as i32;
                ev.trace(&g, &mut counts);
                let got = counts[OUR_KING_CAPTURE];
                if rules == Rules::ThreeDice {
                    // Two-step captures by one piece only (no discovered attacks, no
                    // captures prepared by another piece): a lower bound.
                    assert!(got <= want, "{g:?}: {got} > {want}");
                } else {
                    assert_eq!(got, want, "{g:?}");
                }
                if want > 0 {
                    threatened += 1;
                    exact += usize::from(got == want);
                    mass[0] += i64::from(got);
                    mass[1] += i64::from(want);
                }
            }
            assert!(threatened >= 10, "{rules}: {threatened}");
            if rules == Rules::ThreeDice {
                // Most of the chance is in direct and two-step captures.
                assert!(mass[0] * 10 >= mass[1] * 8, "{rules}: {mass:?}");
            } else {
                assert_eq!(exact, threatened, "{rules}");
            }
        }
    }
}
