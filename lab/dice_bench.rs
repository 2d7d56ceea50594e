//! Dice Chess generation benchmark: positions from seeded random games for each rule set,
//! then `generate_moves` for every roll of each position, timed. For three dice this is the
//! maximum rule's look-ahead, the cost an expectimax search pays per chance outcome.
//!
//! Then every three-dice roll of a few fixed middlegame positions, the maximum rule's worst
//! ground (many pieces, many candidates).
//!
//! `cargo run --release --features lab --example dice_bench [GAMES]`

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
        // Positions rolled for every outcome, generated in place (no copy of the game): the
        // way a search calls it.
        let mut rolled = Vec::new();
        for g in &positions {
            for o in g.outcomes().as_slice() {
                let mut h = g.clone();
                h.set_roll(o.roll).unwrap();
                rolled.push(h);
            }
        }
        let start = Instant::now();
        let mut worst_in_place = 0f64;
        for h in rolled.iter_mut() {
            let t = Instant::now();
            h.generate_moves_in_place(&mut list);
            worst_in_place = worst_in_place.max(t.elapsed().as_secs_f64());
        }
        let in_place = start.elapsed().as_secs_f64() / rolled.len() as f64;
        drop(rolled);
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
            "{rules}: {} positions, {calls} rolls, {moves} moves; generate_moves_in_place \
             {:.2} us per roll (worst {:.1} us); with clone and set_roll {:.2} us per roll \
             (generation worst {:.1} us)",
            positions.len(),
            in_place * 1e6,
            worst_in_place * 1e6,
            secs * 1e6 / calls as f64,
            worst * 1e6
        );
    }
    // Fixed middlegames, three dice, every roll.
    for fen in [
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "r1bq1rk1/pp2bppp/2n1pn2/2pp4/3P4/2PBPN2/PP1N1PPP/R2QK2R w KQ - 0 1",
        "4k3/pppppppp/8/8/8/8/PPPPPPPP/4K3 w - - 0 1",
    ] {
        let g0 = DiceGame::from_fen(Rules::ThreeDice, fen).unwrap();
        let mut list = MoveList::new();
        let mut total = 0f64;
        let mut worst = (0f64, String::new());
        let mut moves = 0;
        let reps = 20;
        for o in g0.outcomes().as_slice() {
            let mut h = g0.clone();
            h.set_roll(o.roll).unwrap();
            let t = Instant::now();
            for _ in 0..reps {
                h.generate_moves_in_place(&mut list);
            }
            let dt = t.elapsed().as_secs_f64() / reps as f64;
            moves += list.len();
            total += dt;
            if dt > worst.0 {
                worst = (dt, o.roll.to_string());
            }
        }
        println!(
            "three-dice {fen}: 56 rolls, {moves} first micro-moves, {:.1} us per roll on \
             average, worst {:.1} us (roll {})",
            total * 1e6 / 56.0,
            worst.0 * 1e6,
            worst.1
        );
    }
}
