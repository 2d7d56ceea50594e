//! Perft for Dice Chess: every roll at every turn, every move (for three dice every sequence
//! of micro-moves) of each roll, to a number of turns. It counts leaves two ways: the number
//! of (roll, turn) paths, and their expected number, each path weighted by the chances of its
//! rolls (an exact fraction). A finished game is a leaf.

use super::game::{DiceGame, Phase};
use super::status::DiceStatus;
use crate::moves::{Move, MoveList};

/// The two counts of [`DiceGame::perft`].
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct DicePerft {
    /// Leaves: (roll, move) paths of `depth` turns (fewer where the game ended).
    pub nodes: u64,
    /// The expected number of leaves, `weighted_num / weighted_den`, in lowest terms.
    pub weighted_num: u128,
    /// See `weighted_num`.
    pub weighted_den: u128,
}

fn gcd(mut a: u128, mut b: u128) -> u128 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// `a/b + c/d` in lowest terms.
fn add(a: (u128, u128), c: (u128, u128)) -> (u128, u128) {
    let den = a.1 / gcd(a.1, c.1) * c.1;
    let num = a.0 * (den / a.1) + c.0 * (den / c.1);
    let g = gcd(num, den).max(1);
    (num / g, den / g)
}

impl DiceGame {
    /// Perft over `depth` turns from a game awaiting a roll (or a move: the rest of the
    /// current turn counts as the first).
    pub fn perft(&self, depth: u32) -> DicePerft {
        let mut g = self.clone();
        let (nodes, w) = perft_rec(&mut g, depth);
        DicePerft {
            nodes,
            weighted_num: w.0,
            weighted_den: w.1,
        }
    }
}

fn perft_rec(g: &mut DiceGame, depth: u32) -> (u64, (u128, u128)) {
    if g.phase() == Phase::AwaitingMove {
        return turn_rec(g, depth);
    }
    if depth == 0 || g.status() != DiceStatus::AwaitingRoll {
        return (1, (1, 1));
    }
    let outcomes = g.outcomes();
    let den = outcomes.denominator() as u128;
    let mut nodes = 0;
    let mut w = (0u128, 1u128);
    for o in outcomes.as_slice() {
        let saved = g.h;
        if g.set_roll(o.roll).is_err() {
            continue;
        }
        let (n, cw) = turn_rec(g, depth);
        g.h = saved;
        nodes += n;
        w = add(w, (cw.0 * o.weight as u128, cw.1 * den));
    }
    (nodes, w)
}

/// The moves of the turn in progress (every micro-move sequence), then the next turns.
fn turn_rec(g: &mut DiceGame, depth: u32) -> (u64, (u128, u128)) {
    let mut list = MoveList::new();
    g.generate_moves_in_place(&mut list);
    let mut nodes = 0;
    let mut w = (0u128, 1u128);
    let pass = [Move::NONE];
    let moves = if list.is_empty() {
        &pass[..]
    } else {
        list.as_slice()
    };
    for &m in moves {
        let u = g.make_move_unchecked(m);
        let (n, cw) = if g.phase() == Phase::AwaitingMove {
            turn_rec(g, depth)
        } else {
            perft_rec(g, depth.saturating_sub(1))
        };
        g.unmake_move_unchecked(m, &u);
        nodes += n;
        w = add(w, cw);
    }
    (nodes, w)
}
