//! A heuristic baseline player: the one-ply greedy player ([`crate::dice::GreedyPlayer`])
//! with king exposure and king attack terms, like the published three-dice bots (which
//! score about 55-61% against greedy). Usable under every rule set.
//!
//! After each candidate move (a three-dice micro-move judged alone, as greedy does) the
//! score for the mover is, in centipawns:
//! * material, ours minus theirs; a king capture wins outright;
//! * king exposure: 5000 times the chance that the opponent's next roll lets it take our king
//!   (three dice: with two-step captures, as the evaluation's features count them), and 20 per attack of an
//!   enemy piece on our king and its neighbour squares;
//! * king attack: in the middle of a three-dice turn, a die left that takes the king is as
//!   good as the capture; otherwise 1000 times our chance to take their king on our next
//!   roll, and 15 per attack of ours on their king zone;
//! * ties broken at random.

use super::super::game::DiceGame;
use super::super::player::{choose_one_ply, Player, Rng};
use super::super::rules::Rules;
use super::super::status::DiceStatus;
use super::features::{king_capture_chance, RollTable};
use crate::attacks;
use crate::moves::Move;
use crate::position::Position;
use crate::types::{Color, PieceType};

const VALUES: [i32; 7] = [0, 100, 300, 300, 500, 900, 0];

/// The heuristic player (see the module docs).
#[derive(Clone, Debug)]
pub struct HeuristicPlayer {
    rng: Rng,
    table: RollTable,
    rules: Rules,
}

impl HeuristicPlayer {
    /// A heuristic player for games of `rules`, breaking ties with `rng`.
    pub fn new(rules: Rules, rng: Rng) -> HeuristicPlayer {
        HeuristicPlayer {
            rng,
            table: RollTable::new(rules),
            rules,
        }
    }

    /// The score of `game` (after the mover's candidate move) for `us`, in centipawns.
    pub fn score(&self, game: &DiceGame, us: Color) -> f64 {
        if let DiceStatus::Won { winner, .. } = game.status() {
            return if winner == us { 1e6 } else { -1e6 };
        }
        let pos = game.position();
        let them = us.flip();
        let mut s = (material(pos, us) - material(pos, them)) as f64;
        let rules = self.rules;
        if game.side_to_move() == us {
            // The turn goes on with the dice left.
            let now = king_capture_chance(pos, us, &self.table, rules, Some(game.dice()));
            if now > 0.0 {
                return 5e5;
            }
        }
        s -= 5000.0 * king_capture_chance(pos, them, &self.table, rules, None);
        s += 1000.0 * king_capture_chance(pos, us, &self.table, rules, None);
        s -= 20.0 * zone_attacks(pos, us) as f64;
        s += 15.0 * zone_attacks(pos, them) as f64;
        s
    }
}

/// Attacks of the enemies of `c` on `c`'s king and its neighbour squares.
fn zone_attacks(pos: &Position, c: Color) -> u32 {
    let k = pos.king_square(c);
    let enemy = pos.color_pieces(c.flip());
    attacks::king_attacks(k)
        .with(k)
        .iter()
        .map(|sq| (pos.attackers_to(sq) & enemy).count())
        .sum()
}

fn material(pos: &Position, c: Color) -> i32 {
    (1..=5u8)
        .map(|t| {
            let kind = PieceType::new(t).unwrap_or(PieceType::NONE);
            VALUES[t as usize] * pos.pieces(c, kind).count() as i32
        })
        .sum()
}

impl Player for HeuristicPlayer {
    fn choose(&mut self, game: &DiceGame, moves: &[Move]) -> Move {
        let mut rng = self.rng;
        let m = choose_one_ply(game, moves, &mut rng, |g, us| self.score(g, us));
        self.rng = rng;
        m
    }
}
