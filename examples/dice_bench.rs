//! Dice Chess generation benchmark: positions from seeded random games for each rule set,
//! then `generate_moves` for every roll of each position, timed. For three dice this is the
//! maximum rule's look-ahead, the cost an expectimax search pays per chance outcome.
//!
//! `cargo run --release --example dice_bench [GAMES]`

use chesscore::dice::{player::Rng, DiceGame, Phase, Rules};
use chesscore::{Move, MoveList};
use std::time::Instant;

fn main() {
    let games: u32 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(20);
    for rules in Rules::ALL {
        // Positions awaiting a roll, from seeded random games.
        let mut positions = Vec::new();
        let mut rng = Rng(2024 + rules as u64);
        for _ in 0..games {
            let mut g = DiceGame::new(rules);
            let mut turns = 0;
            while !g.status().is_over() && turns < 200 {
                positions.push(g.clone());
                let o = g.outcomes();
                let mut x = rng.below(o.denominator() as u64) as u32;
                let mut roll = o.as_slice()[0].roll;
                for oc in o.as_slice() {
                    if x < oc.weight {
                        roll = oc.roll;
                        break;
                    }
                    x -= oc.weight;
                }
                g.set_roll(roll).unwrap();
                while g.phase() == Phase::AwaitingMove {
                    let list = g.moves();
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
        let mut list = MoveList::new();
        let mut calls = 0u64;
        let mut moves = 0u64;
        let mut worst = 0f64;
        let start = Instant::now();
        for g in &positions {
            for o in g.outcomes().as_slice() {
                let mut h = g.clone();
                h.set_roll(o.roll).unwrap();
                let t = Instant::now();
                h.generate_moves(&mut list);
                worst = worst.max(t.elapsed().as_secs_f64());
                calls += 1;
                moves += list.len() as u64;
            }
        }
        let secs = start.elapsed().as_secs_f64();
        println!(
            "{rules}: {} positions, {calls} rolls generated, {moves} moves, {:.2} us per roll \
             (clone and set_roll included), worst {:.1} us",
            positions.len(),
            secs * 1e6 / calls as f64,
            worst * 1e6
        );
    }
}
