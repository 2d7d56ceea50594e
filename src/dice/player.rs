//! Built-in players for testing and as baselines: random, and one-ply greedy.

use super::game::DiceGame;
use super::status::DiceStatus;
use crate::moves::{Move, MoveList};
use crate::types::{Color, PieceType};

/// A small deterministic generator (SplitMix64): games replay exactly from their seed.
#[derive(Copy, Clone, Debug)]
pub struct Rng(pub u64);

impl Rng {
    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n > 0`).
    pub fn below(&mut self, n: u64) -> u64 {
        ((self.next_u64() as u128 * n as u128) >> 64) as u64
    }
}

/// A player: picks one of the moves the dice allow.
pub trait Player {
    /// One of `moves` (non-empty) for `game`.
    fn choose(&mut self, game: &DiceGame, moves: &[Move]) -> Move;
}

/// Picks uniformly at random.
#[derive(Clone, Debug)]
pub struct RandomPlayer(pub Rng);

impl Player for RandomPlayer {
    fn choose(&mut self, _game: &DiceGame, moves: &[Move]) -> Move {
        moves[self.0.below(moves.len() as u64) as usize]
    }
}

/// One ply greedy: the move after which the mover's material minus the opponent's is
/// largest, with a king capture worth everything and, as a penalty, the chance that the
/// opponent can capture the mover's king next turn (its king attacked by some type);
/// ties broken at random.
#[derive(Clone, Debug)]
pub struct GreedyPlayer(pub Rng);

const VALUES: [i32; 7] = [0, 100, 300, 300, 500, 900, 0];

fn material(game: &DiceGame, c: Color) -> i32 {
    (1..=6u8)
        .map(|t| {
            let kind = PieceType::new(t).unwrap_or(PieceType::NONE);
            VALUES[t as usize] * game.position().pieces(c, kind).count() as i32
        })
        .sum()
}

/// The score of `game` for `us`, in centipawns.
fn score(game: &DiceGame, us: Color) -> i32 {
    if let DiceStatus::Won { winner, .. } = game.status() {
        return if winner == us { 100_000 } else { -100_000 };
    }
    let pos = game.position();
    let mut s = material(game, us) - material(game, us.flip());
    if game.side_to_move() != us && pos.is_attacked(pos.king_square(us), us.flip()) {
        s -= 5_000;
    }
    s
}

impl Player for GreedyPlayer {
    fn choose(&mut self, game: &DiceGame, moves: &[Move]) -> Move {
        let us = game.side_to_move();
        let mut best = i32::MIN;
        let mut picks = MoveList::new();
        let mut g = game.clone();
        for &m in moves {
            let u = g.make_move_unchecked(m);
            let s = score(&g, us);
            g.unmake_move_unchecked(m, &u);
            if s > best {
                best = s;
                picks.clear();
            }
            if s == best {
                picks.push(m);
            }
        }
        picks.as_slice()[self.0.below(picks.len() as u64) as usize]
    }
}

/// The built-in players by name (`random`, `greedy`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum PlayerKind {
    /// [`RandomPlayer`].
    Random,
    /// [`GreedyPlayer`].
    Greedy,
}

impl PlayerKind {
    /// The name (`random`, `greedy`).
    pub fn name(self) -> &'static str {
        match self {
            PlayerKind::Random => "random",
            PlayerKind::Greedy => "greedy",
        }
    }

    /// The player with this name.
    pub fn from_name(s: &str) -> Option<PlayerKind> {
        match s {
            "random" => Some(PlayerKind::Random),
            "greedy" => Some(PlayerKind::Greedy),
            _ => None,
        }
    }

    /// A player of this kind drawing from `rng`.
    pub fn player(self, rng: Rng) -> Box<dyn Player> {
        match self {
            PlayerKind::Random => Box::new(RandomPlayer(rng)),
            PlayerKind::Greedy => Box::new(GreedyPlayer(rng)),
        }
    }
}

/// Rolls the dice for `game` (awaiting a roll) by the outcomes' exact weights: `None` when
/// the game awaits no roll.
pub fn sample_roll(game: &DiceGame, rng: &mut Rng) -> Option<super::Roll> {
    let o = game.outcomes();
    let mut x = rng.below(o.denominator() as u64) as u32;
    for oc in o.as_slice() {
        if x < oc.weight {
            return Some(oc.roll);
        }
        x -= oc.weight;
    }
    None
}
