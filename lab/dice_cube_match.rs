//! A match between cube strategies (issue 30 item 3): the cube by `dice::cube::advise`
//! against never doubling, the same engine playing the moves on both sides.
//!
//! ```text
//! cargo run --release --features lab --example dice_cube_match -- RULES PAIRS [--threads N] [--seed S] [--players P] [--depth D] [--x X]
//! ```
//! Plays PAIRS pairs of games of RULES on THREADS threads (default 2): in each pair the
//! advice side is White in one game and Black in the other, both games on the same dice
//! (seeded by S and the pair). Moves: both sides the same player P (a `dice_common` name,
//! default `engine:d1`). Before every roll the side to move, if the cube is centred or its
//! own, asks `DiceEngine::equity` at depth D (default 2; fresh table each game) and:
//! * the advice side doubles when `cube::advise_with(.., X)` says so (X the efficiency,
//!   default `cube::CUBE_EFFICIENCY`);
//! * the other side never doubles.
//!
//! Both sides take or pass a double by the same advice (`take`), so only the doubling
//! differs. A pass ends the game, the doubler scoring the stake; a win scores the stake, a
//! draw 0 (games end drawn after 400 turns). The cube stops at 64. Reported: the advice
//! side's points per game with a 95% interval over the pairs (each pair's two games
//! together, pairs independent), doubles, passes and the cube's mean final value.

#[path = "dice_common/mod.rs"]
mod common;

use chesscore::dice::cube::{advise_with, Cube, CubeOwner, CUBE_EFFICIENCY};
use chesscore::dice::player::{sample_roll, Rng};
use chesscore::dice::search::{DiceEngine, DiceLimits, SearchConfig};
use chesscore::dice::{DiceGame, DiceStatus, Phase, Rules};
use chesscore::{Color, MoveList};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

struct Opts {
    rules: Rules,
    pairs: usize,
    threads: usize,
    seed: u64,
    player: String,
    depth: u32,
    x: f64,
}

#[derive(Default, Clone, Copy)]
struct Tally {
    doubles: u32,
    passes: u32,
    cube: u32,
}

/// One game; the advice side plays `advice_colour`. Returns the advice side's points.
fn game(
    o: &Opts,
    pair: usize,
    advice_colour: Color,
    engine: &mut DiceEngine,
    t: &mut Tally,
) -> f64 {
    let mut rng = Rng(o.seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ (pair as u64 + 1));
    let mut white = common::make_player(&o.player, o.rules, Rng(rng.next_u64()));
    let mut black = common::make_player(&o.player, o.rules, Rng(rng.next_u64()));
    let mut dice = Rng(rng.next_u64());
    let mut g = DiceGame::new(o.rules);
    let mut list = MoveList::new();
    let mut cube = Cube::default();
    engine.new_game();
    let limits = DiceLimits::depth(o.depth);
    let mut turns = 0;
    let (winner, stake) = loop {
        match g.status() {
            DiceStatus::Won { winner, .. } => break (Some(winner), cube.value),
            DiceStatus::Drawn(_) => break (None, cube.value),
            _ => {}
        }
        if turns >= 400 {
            break (None, cube.value);
        }
        let us = g.side_to_move();
        if us == advice_colour && cube.owner != CubeOwner::Opponent && cube.value < 64 {
            let q = engine
                .equity(&g, &limits, &mut |_| {})
                .expect("awaiting a roll");
            let a = advise_with(&q.wdl, cube, o.x);
            if a.double {
                t.doubles += 1;
                if !a.take {
                    t.passes += 1;
                    break (Some(us), cube.value);
                }
                cube = Cube {
                    value: cube.value * 2,
                    // The taker owns it: the doubler's (the mover's) opponent; the flip
                    // after the turn makes it the taker's own.
                    owner: CubeOwner::Opponent,
                };
            }
        }
        let roll = sample_roll(&g, &mut dice).expect("a roll");
        g.set_roll(roll).expect("a valid roll");
        while g.phase() == Phase::AwaitingMove {
            g.generate_moves(&mut list);
            let m = if list.is_empty() {
                chesscore::Move::NONE
            } else if g.side_to_move() == Color::WHITE {
                white.choose(&g, list.as_slice())
            } else {
                black.choose(&g, list.as_slice())
            };
            g.make_move_unchecked(m);
        }
        turns += 1;
        // The turn passed: ownership is seen from the new mover.
        cube.owner = match cube.owner {
            CubeOwner::Centered => CubeOwner::Centered,
            CubeOwner::Mover => CubeOwner::Opponent,
            CubeOwner::Opponent => CubeOwner::Mover,
        };
    };
    t.cube += stake;
    match winner {
        Some(w) if w == advice_colour => stake as f64,
        Some(_) => -(stake as f64),
        None => 0.0,
    }
}

fn main() {
    let a: Vec<String> = std::env::args().collect();
    if a.len() < 3 {
        eprintln!("usage: dice_cube_match RULES PAIRS [--threads N] [--seed S] [--players P] [--depth D] [--x X]");
        std::process::exit(2);
    }
    let mut o = Opts {
        rules: Rules::from_name(&a[1]).expect("RULES"),
        pairs: a[2].parse().expect("PAIRS"),
        threads: 2,
        seed: 1,
        player: "engine:d1".into(),
        depth: 2,
        x: CUBE_EFFICIENCY,
    };
    let mut i = 3;
    while i < a.len() {
        let v = a.get(i + 1).cloned().expect("a value after the option");
        match a[i].as_str() {
            "--threads" => o.threads = v.parse().expect("N"),
            "--seed" => o.seed = v.parse().expect("S"),
            "--players" => o.player = v,
            "--depth" => o.depth = v.parse().expect("D"),
            "--x" => o.x = v.parse().expect("X"),
            x => panic!("unknown option {x}"),
        }
        i += 2;
    }
    let next = AtomicUsize::new(0);
    let results = Mutex::new(Vec::new());
    let tally = Mutex::new(Tally::default());
    std::thread::scope(|s| {
        for _ in 0..o.threads {
            s.spawn(|| {
                let mut engine = DiceEngine::new(16);
                engine.set_config(SearchConfig::ALL);
                loop {
                    let p = next.fetch_add(1, Ordering::Relaxed);
                    if p >= o.pairs {
                        break;
                    }
                    let mut t = Tally::default();
                    let w = game(&o, p, Color::WHITE, &mut engine, &mut t);
                    let b = game(&o, p, Color::BLACK, &mut engine, &mut t);
                    results.lock().unwrap().push(w + b);
                    let mut all = tally.lock().unwrap();
                    all.doubles += t.doubles;
                    all.passes += t.passes;
                    all.cube += t.cube;
                }
            });
        }
    });
    let r = results.into_inner().unwrap();
    let t = tally.into_inner().unwrap();
    let n = r.len() as f64;
    let mean = r.iter().sum::<f64>() / n;
    let var = r.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / (n - 1.0).max(1.0);
    let half = 1.96 * (var / n).sqrt();
    println!(
        "{}: {} games ({} pairs), players {}, equity depth {}, efficiency {}: advice {:+.4} ± {:.4} points a game (95%); {} doubles, {} passes, mean final cube {:.2}",
        o.rules,
        2 * r.len(),
        r.len(),
        o.player,
        o.depth,
        o.x,
        mean / 2.0,
        half / 2.0,
        t.doubles,
        t.passes,
        t.cube as f64 / (2.0 * n)
    );
}
