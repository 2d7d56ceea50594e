//! Texel-style tuner of the Dice Chess evaluation weights (`src/dice/eval/weights.rs`).
//!
//! ```text
//! cargo run --release --features lab --example dice_tune -- DATA RULES [EPOCHS] [--out FILE] [--write] [--scale-only]
//!     [--freeze NAME,NAME..]
//! ```
//! DATA holds `FEN;RESULT` lines (RESULT White's score), as `lab/dice_datagen.rs` writes
//! them, all of rule set RULES. Every game is traced once ([`chesscore::lab::dice_eval::trace`]: the
//! count of each feature, seen from the side to move); the evaluation is linear in the
//! weights up to the logistic curve, so the prediction of any weights is
//! `sigmoid(dot(weights, counts) / WEIGHT_SCALE)`, the expected score of the side to move.
//! The logistic curve's scale constant is folded into the weights (no separate K). The tuner
//! holds out every tenth position, minimises the mean squared error between the side to
//! move's results and the predictions on the rest with Adam (full batch, EPOCHS steps,
//! default 2000) from the weights in use, with an L2 pull toward them; weights of features
//! that are non-zero in fewer than 0.5% of the positions stay as they are. It prints the
//! training and held-out errors before and after. `--out FILE` writes the new weights, one
//! a line, for `dice_eval_match eval:FILE`; `--write` puts them into
//! `src/dice/eval/weights.rs` (the other rule sets' weights unchanged). `--freeze` keeps the named features' weights. `--scale-only` fits
//! one factor for all weights instead (the logistic scale alone: calibration, no change of
//! the order of positions).

use chesscore::dice::eval::DiceEvaluator;
use chesscore::dice::{DiceGame, Rules};
use chesscore::lab::dice_eval::features::NAMES;
use chesscore::lab::dice_eval::{trace, Weights, NUM_FEATURES, WEIGHTS, WEIGHT_SCALE};
use chesscore::Color;
use std::fmt::Write as _;

/// Strength of the L2 pull toward the starting weights (per weight unit squared, with the
/// weights in units of WEIGHT_SCALE / 1000).
const L2: f64 = 1e-9;

struct Sample {
    feats: Vec<(u8, i32)>,
    result: f64,
}

fn predict(s: &Sample, w: &[f64]) -> f64 {
    let mut x = 0.0;
    for &(i, c) in &s.feats {
        x += w[i as usize] * c as f64;
    }
    1.0 / (1.0 + (-x).exp())
}

fn error(data: &[Sample], w: &[f64]) -> f64 {
    data.iter()
        .map(|s| (s.result - predict(s, w)).powi(2))
        .sum::<f64>()
        / data.len().max(1) as f64
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 3 {
        eprintln!("usage: dice_tune DATA RULES [EPOCHS] [--out FILE] [--write]");
        std::process::exit(2);
    }
    let rules = Rules::from_name(&args[2]).expect("RULES");
    let epochs: usize = args
        .get(3)
        .filter(|a| !a.starts_with("--"))
        .map_or(2000, |s| s.parse().expect("EPOCHS"));
    let out = args
        .iter()
        .position(|a| a == "--out")
        .and_then(|i| args.get(i + 1));
    let write = args.iter().any(|a| a == "--write");
    let scale_only = args.iter().any(|a| a == "--scale-only");
    let keep: Vec<&str> = args
        .iter()
        .position(|a| a == "--freeze")
        .and_then(|i| args.get(i + 1))
        .map_or(Vec::new(), |s| s.split(',').collect());

    let text = std::fs::read_to_string(&args[1]).expect("cannot read DATA");
    let mut ev = DiceEvaluator::new(rules);
    let mut counts = [0; NUM_FEATURES];
    let (mut train, mut test) = (Vec::new(), Vec::new());
    for (n, line) in text.lines().enumerate() {
        let Some((fen, res)) = line.rsplit_once(';') else {
            continue;
        };
        let (Ok(game), Ok(white)) = (DiceGame::from_fen(rules, fen), res.trim().parse::<f64>())
        else {
            continue;
        };
        if game.status().is_over() {
            continue;
        }
        trace(&mut ev, &game, &mut counts);
        let result = if game.side_to_move() == Color::WHITE {
            white
        } else {
            1.0 - white
        };
        let s = Sample {
            feats: counts
                .iter()
                .enumerate()
                .filter(|(_, &c)| c != 0)
                .map(|(i, &c)| (i as u8, c))
                .collect(),
            result,
        };
        if n % 10 == 9 {
            test.push(s);
        } else {
            train.push(s);
        }
    }
    // Weights in logit units.
    let w0: Vec<f64> = WEIGHTS[rules as usize]
        .iter()
        .map(|&w| w as f64 / WEIGHT_SCALE)
        .collect();
    let mut seen = [0usize; NUM_FEATURES];
    for s in &train {
        for &(i, _) in &s.feats {
            seen[i as usize] += 1;
        }
    }
    let frozen: Vec<bool> = (0..NUM_FEATURES)
        .map(|i| seen[i] * 200 < train.len() || keep.contains(&NAMES[i]))
        .collect();
    println!(
        "{rules}: {} training and {} held-out positions; frozen: {:?}",
        train.len(),
        test.len(),
        (0..NUM_FEATURES)
            .filter(|&i| frozen[i])
            .map(|i| NAMES[i])
            .collect::<Vec<_>>()
    );
    println!(
        "before: training error {:.6}, held-out error {:.6}",
        error(&train, &w0),
        error(&test, &w0)
    );
    // Per-feature scale for Adam steps: counts differ by orders of magnitude.
    let mut scale = [0.0f64; NUM_FEATURES];
    for s in &train {
        for &(i, c) in &s.feats {
            scale[i as usize] = f64::max(scale[i as usize], (c as f64).abs());
        }
    }
    let mut w = w0.clone();
    if scale_only {
        // Only the logistic scale: every weight times one factor, by golden-section search.
        let at = |k: f64| error(&train, &w0.iter().map(|x| x * k).collect::<Vec<_>>());
        let (mut lo, mut hi) = (0.05f64, 4.0f64);
        for _ in 0..60 {
            let a = hi - (hi - lo) * 0.618;
            let b = lo + (hi - lo) * 0.618;
            if at(a) < at(b) {
                hi = b;
            } else {
                lo = a;
            }
        }
        let k = (lo + hi) / 2.0;
        println!("scale factor {k:.4}");
        w = w0.iter().map(|x| x * k).collect();
    }
    let epochs = if scale_only { 0 } else { epochs };
    let (mut m, mut v) = (vec![0.0; NUM_FEATURES], vec![0.0; NUM_FEATURES]);
    let (b1, b2, lr, eps) = (0.9, 0.999, 0.01, 1e-12);
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    for epoch in 1..=epochs {
        let chunk = train.len().div_ceil(threads).max(1);
        let grads: Vec<Vec<f64>> = std::thread::scope(|sc| {
            let hs: Vec<_> = train
                .chunks(chunk)
                .map(|part| {
                    let w = &w;
                    sc.spawn(move || {
                        let mut g = vec![0.0; NUM_FEATURES];
                        for s in part {
                            let p = predict(s, w);
                            let d = -2.0 * (s.result - p) * p * (1.0 - p);
                            for &(i, c) in &s.feats {
                                g[i as usize] += d * c as f64;
                            }
                        }
                        g
                    })
                })
                .collect();
            hs.into_iter().map(|h| h.join().unwrap()).collect()
        });
        let n = train.len() as f64;
        for i in (0..NUM_FEATURES).filter(|&i| !frozen[i]) {
            // In units where a step of 1 moves the logit of the largest count by 1.
            let sc = scale[i].max(1.0);
            let g = (grads.iter().map(|g| g[i]).sum::<f64>() / n) * sc
                + 2.0 * L2 * (w[i] - w0[i]) * sc * sc * 1e6;
            m[i] = b1 * m[i] + (1.0 - b1) * g;
            v[i] = b2 * v[i] + (1.0 - b2) * g * g;
            let mh = m[i] / (1.0 - b1.powi(epoch as i32));
            let vh = v[i] / (1.0 - b2.powi(epoch as i32));
            w[i] -= lr * mh / (vh.sqrt() + eps) / sc;
        }
        if epoch % 500 == 0 || epoch == epochs {
            println!("epoch {epoch}: training error {:.6}", error(&train, &w));
        }
    }
    let mut new: Weights = [0; NUM_FEATURES];
    for i in 0..NUM_FEATURES {
        new[i] = (w[i] * WEIGHT_SCALE).round() as i32;
    }
    let wr: Vec<f64> = new.iter().map(|&x| x as f64 / WEIGHT_SCALE).collect();
    println!(
        "after: training error {:.6}, held-out error {:.6}",
        error(&train, &wr),
        error(&test, &wr)
    );
    for i in 0..NUM_FEATURES {
        println!(
            "  {:<20} {:>8} -> {:>8}",
            NAMES[i], WEIGHTS[rules as usize][i], new[i]
        );
    }
    if let Some(path) = out {
        let mut t = String::new();
        for i in 0..NUM_FEATURES {
            writeln!(t, "{} # {}", new[i], NAMES[i]).unwrap();
        }
        std::fs::write(path, t).expect("cannot write --out");
        println!("wrote {path}");
    }
    if write {
        let mut all = WEIGHTS;
        all[rules as usize] = new;
        let mut t = String::from(
            "//! The evaluation weights, one set per rule set (indexed by `Rules as usize`: two dice, one\n\
             //! die, three dice), written by the tuner (`lab/dice_tune.rs`; the module docs of\n\
             //! [`super`] give the commands that rebuild them). Unit: see [`super::linear::WEIGHT_SCALE`].\n\n\
             use super::Weights;\n\n\
             /// The weights in use, by rule set.\n\
             #[rustfmt::skip]\n\
             pub static WEIGHTS: [Weights; 3] = [\n",
        );
        for r in Rules::ALL {
            writeln!(t, "    // {r}\n    [").unwrap();
            for i in 0..NUM_FEATURES {
                writeln!(t, "        {}, // {}", all[r as usize][i], NAMES[i]).unwrap();
            }
            t.push_str("    ],\n");
        }
        t.push_str("];\n");
        std::fs::write("src/dice/eval/weights.rs", t).expect("cannot write weights.rs");
        println!("wrote src/dice/eval/weights.rs");
    }
}
