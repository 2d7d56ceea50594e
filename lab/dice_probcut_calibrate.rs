//! How well the static value predicts a searched one, for forward pruning at chance nodes
//! (ChanceProbCut, tried and rejected: docs/results/dice-search.md "ChanceProbCut"): at
//! pre-roll positions of seeded greedy/random games (every third turn from the fifth), the
//! static evaluation against the exact value of the chance node searched to depth D
//! ([`SearchConfig::ALL_EXACT`]): the least-squares line `search = slope * static + b`
//! with its residual spread, and the distribution of `search - static`. Positions with a
//! value at `EVAL_MAX` or beyond (a win in the band, or a saturated evaluation) are left out.
//!
//! ```text
//! cargo run --release --features lab --example dice_probcut_calibrate -- RULES DEPTH POSITIONS
//! cargo run --release --features lab --example dice_probcut_calibrate -- three-dice 1 150
//! ```
#[path = "dice_common/mod.rs"]
mod common;

use chesscore::dice::eval::{DiceEvaluator, EVAL_MAX};
use chesscore::dice::player::{sample_roll, GreedyPlayer, RandomPlayer, Rng};
use chesscore::dice::search::{DiceEngine, DiceLimits, SearchConfig};
use chesscore::dice::{DiceGame, Rules};

fn main() {
    let a: Vec<String> = std::env::args().collect();
    if a.len() != 4 {
        eprintln!("usage: dice_probcut_calibrate RULES DEPTH POSITIONS");
        std::process::exit(2);
    }
    let rules = Rules::ALL
        .into_iter()
        .find(|r| r.name() == a[1])
        .expect("rules");
    let depth: u32 = a[2].parse().unwrap();
    let want: usize = a[3].parse().unwrap();
    let mut eval = DiceEvaluator::new(rules);
    let mut engine = DiceEngine::new(64);
    engine.set_config(SearchConfig::ALL_EXACT);
    let mut rng = Rng(77 + rules as u64);
    // (static, searched) values.
    let mut pairs: Vec<(f64, f64)> = Vec::new();
    while pairs.len() < want {
        let mut g = DiceGame::new(rules);
        let mut greedy = GreedyPlayer(Rng(rng.next_u64()));
        let mut random = RandomPlayer(Rng(rng.next_u64()));
        let mut turn = 0;
        while let Some(roll) = sample_roll(&g, &mut rng) {
            if turn >= 4 && rng.below(3) == 0 && pairs.len() < want {
                let s = eval.evaluate(&g);
                engine.new_game();
                let r = engine
                    .evaluate(&g, &DiceLimits::depth(depth), &mut |_| {})
                    .unwrap();
                if r.value.abs() < EVAL_MAX && s.abs() < EVAL_MAX {
                    pairs.push((s as f64, r.value as f64));
                }
            }
            g.set_roll(roll).unwrap();
            common::play_mixed_turn(&mut g, &mut rng, &mut greedy, &mut random);
            turn += 1;
        }
    }
    let diffs: Vec<f64> = pairs.iter().map(|p| p.1 - p.0).collect();
    let n = diffs.len() as f64;
    let (mx, my) = (
        pairs.iter().map(|p| p.0).sum::<f64>() / n,
        pairs.iter().map(|p| p.1).sum::<f64>() / n,
    );
    let sxy: f64 = pairs.iter().map(|p| (p.0 - mx) * (p.1 - my)).sum();
    let sxx: f64 = pairs.iter().map(|p| (p.0 - mx) * (p.0 - mx)).sum();
    let slope = sxy / sxx;
    let icpt = my - slope * mx;
    let rsd = (pairs
        .iter()
        .map(|p| (p.1 - icpt - slope * p.0).powi(2))
        .sum::<f64>()
        / n)
        .sqrt();
    println!("fit: search = {slope:.3} * static + {icpt:.0}, residual sd {rsd:.0}");
    let mean = diffs.iter().sum::<f64>() / n;
    let sd = (diffs.iter().map(|d| (d - mean) * (d - mean)).sum::<f64>() / n).sqrt();
    let mut abs: Vec<f64> = diffs.iter().map(|d| d.abs()).collect();
    abs.sort_by(|x, y| x.partial_cmp(y).unwrap());
    let p = |q: f64| abs[((n - 1.0) * q) as usize];
    println!(
        "{} depth {}: n {} mean {:.0} sd {:.0} |diff| p50 {:.0} p90 {:.0} p95 {:.0} p99 {:.0} max {:.0}",
        rules.name(), depth, n, mean, sd, p(0.5), p(0.9), p(0.95), p(0.99), abs[abs.len() - 1]
    );
}
