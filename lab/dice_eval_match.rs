//! Matches between one-ply Dice Chess players, and the evaluation's speed.
//!
//! ```text
//! cargo run --release --features lab --example dice_eval_match -- RULES A B PAIRS [THREADS] [SEED]
//! cargo run --release --features lab --example dice_eval_match -- bench [GAMES] [net|hand]
//! ```
//! A match plays PAIRS pairs of games of player A against player B under RULES
//! (`two-dice`, `one-die`, `three-dice`); the two games of a pair share their dice and
//! swap colours (a variance reducer). Players: `random`, `greedy`, `heuristic`, `eval` (one
//! ply with the evaluator's weights in use), `eval:FILE` (one ply with the weights of FILE,
//! as `dice_tune --out` writes them). It prints A's wins, draws and losses, its score and the
//! Elo difference with a 95% error bar computed from the pairs' scores.
//!
//! `bench` evaluates every position of GAMES (default 40) seeded greedy games per rule set,
//! several passes, and prints evaluations per second (the median of 5 passes); `net` takes
//! the chess term from the embedded chess net and `hand` from the hand-written chess
//! evaluation (`with_chess_net`, as the `engine:dN:net` and `engine:dN:hand` players), else
//! each rule set's default (its learned net where it has one).

#[path = "dice_common/mod.rs"]
mod common;

use chesscore::dice::eval::DiceEvaluator;
use chesscore::dice::player::Rng;
use chesscore::dice::Rules;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

fn elo(score: f64) -> f64 {
    let s = score.clamp(1e-6, 1.0 - 1e-6);
    -400.0 * (1.0 / s - 1.0).log10()
}

/// `net`: the chess term's source (`Some(None)` hand-written), else each rule set's default.
type ChessTerm = Option<Option<std::sync::Arc<chesscore::eval::nnue::Network>>>;

fn bench(games: u64, net: ChessTerm) {
    for rules in Rules::ALL {
        let mut positions = Vec::new();
        for i in 0..games {
            let mut w = common::make_player("greedy", rules, Rng(i * 2 + 1));
            let mut b = common::make_player("greedy", rules, Rng(i * 2 + 2));
            let p = common::play(
                rules,
                w.as_mut(),
                b.as_mut(),
                &mut Rng(1000 + i),
                (4, 0.5, 0.05),
                &mut Rng(77 + i),
                true,
            );
            positions.extend(p.positions);
        }
        let mut ev = match &net {
            Some(n) => {
                chesscore::lab::dice_eval::with_chess_net(n.clone(), || DiceEvaluator::new(rules))
            }
            None => DiceEvaluator::new(rules),
        };
        let mut times = Vec::new();
        let mut sum = 0i64;
        for _ in 0..5 {
            let t = Instant::now();
            for g in &positions {
                sum += i64::from(ev.evaluate(std::hint::black_box(g)));
            }
            times.push(t.elapsed().as_secs_f64());
        }
        times.sort_by(|a, b| a.partial_cmp(b).unwrap());
        let med = times[2];
        println!(
            "{rules}: {} positions, {:.0} evaluations/s ({:.0} ns each, median of 5 passes; checksum {sum})",
            positions.len(),
            positions.len() as f64 / med,
            med * 1e9 / positions.len() as f64
        );
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.get(1).map(String::as_str) == Some("bench") {
        let net = match args.get(3).map(String::as_str) {
            Some("net") => Some(Some(
                chesscore::eval::nnue::Network::embedded().expect("an embedded net"),
            )),
            Some("hand") => Some(None),
            _ => None,
        };
        bench(args.get(2).map_or(40, |s| s.parse().expect("GAMES")), net);
        return;
    }
    if args.len() < 5 {
        eprintln!(
            "usage: dice_eval_match RULES A B PAIRS [THREADS] [SEED] | bench [GAMES] [net|hand]"
        );
        std::process::exit(2);
    }
    let rules = Rules::from_name(&args[1]).expect("RULES");
    let (a, b) = (args[2].clone(), args[3].clone());
    let pairs: usize = args[4].parse().expect("PAIRS");
    let threads: usize = args.get(5).map_or(2, |s| s.parse().expect("THREADS"));
    let seed: u64 = args.get(6).map_or(1, |s| s.parse().expect("SEED"));
    let next = AtomicUsize::new(0);
    let results = Mutex::new(Vec::new());
    let start = Instant::now();
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= pairs {
                    break;
                }
                let base = seed.wrapping_mul(1_000_003).wrapping_add(i as u64 * 4);
                let mut pair = [0.0; 2];
                for (k, a_white) in [true, false].into_iter().enumerate() {
                    let mut pa = common::make_player(&a, rules, Rng(base + 1 + k as u64 * 2));
                    let mut pb = common::make_player(&b, rules, Rng(base + 2 + k as u64 * 2));
                    let mut dice = Rng(base ^ 0x5eed);
                    let (w, bl) = if a_white {
                        (pa.as_mut(), pb.as_mut())
                    } else {
                        (pb.as_mut(), pa.as_mut())
                    };
                    let p =
                        common::play(rules, w, bl, &mut dice, (0, 0.0, 0.0), &mut Rng(0), false);
                    pair[k] = if a_white {
                        p.white_score
                    } else {
                        1.0 - p.white_score
                    };
                }
                results.lock().unwrap().push(pair);
            });
        }
    });
    let r = results.into_inner().unwrap();
    let (mut w, mut d, mut l) = (0, 0, 0);
    for g in r.iter().flatten() {
        if *g > 0.75 {
            w += 1;
        } else if *g < 0.25 {
            l += 1;
        } else {
            d += 1;
        }
    }
    let n = r.len() as f64;
    let scores: Vec<f64> = r.iter().map(|p| (p[0] + p[1]) / 2.0).collect();
    let mean = scores.iter().sum::<f64>() / n;
    let var = scores.iter().map(|s| (s - mean) * (s - mean)).sum::<f64>() / (n - 1.0).max(1.0);
    let se = (var / n).sqrt();
    println!(
        "{rules}: {a} vs {b}: {} games, +{w} ={d} -{l}, score {:.1}% +- {:.1}%, Elo {:+.0} [{:+.0}, {:+.0}] (95%, pairs), {:.0} s",
        2 * r.len(),
        mean * 100.0,
        1.96 * se * 100.0,
        elo(mean),
        elo(mean - 1.96 * se),
        elo(mean + 1.96 * se),
        start.elapsed().as_secs_f64()
    );
}
