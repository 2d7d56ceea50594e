//! Texel tuner for the evaluation weights.
//!
//! ```text
//! cargo run --release --features lab --example tune -- DATA [EPOCHS] [--write]
//! ```
//! DATA holds `FEN;RESULT` lines (RESULT 1.0, 0.5 or 0.0 for White), as `lab/datagen.rs`
//! writes them. Every position is traced once ([`chesscore::lab::eval::trace`]: the count of each
//! feature, the phase and the endgame scale); since the evaluation is linear in its weights
//! for each phase, it is then recomputed from the trace for any weights. The tuner first fits
//! the scaling constant K of `sigmoid(K * eval / 400)` to the current weights, then minimises
//! the mean squared error between results and predictions over all weights at once with Adam
//! (full batch, EPOCHS steps, default 3000), starting from the weights in use; weights of
//! features seen in fewer than 0.2% of the positions stay as they are, and an L2 term pulls
//! the others toward their starting values. With `--write`
//! it writes the result to `src/eval/weights.rs`.

use chesscore::lab::eval::features::{describe, NUM_FEATURES};
use chesscore::lab::eval::{trace, MAX_PHASE, SCALE_NORMAL, WEIGHTS};
use chesscore::Position;
use std::fmt::Write as _;

/// Strength of the L2 pull toward the starting weights (per centipawn squared).
const L2: f64 = 2e-9;

struct Sample {
    /// (feature, count) pairs with non-zero count.
    feats: Vec<(u16, i16)>,
    /// Middlegame factor phase/24 and endgame factor (24-phase)/24 * scale/64.
    mg_f: f64,
    eg_f: f64,
    result: f64,
}

fn predict(s: &Sample, w: &[[f64; 2]]) -> f64 {
    let (mut mg, mut eg) = (0.0, 0.0);
    for &(i, c) in &s.feats {
        mg += w[i as usize][0] * c as f64;
        eg += w[i as usize][1] * c as f64;
    }
    mg * s.mg_f + eg * s.eg_f
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

fn error(data: &[Sample], w: &[[f64; 2]], k: f64) -> f64 {
    data.iter()
        .map(|s| {
            let p = sigmoid(k * predict(s, w) / 400.0);
            (s.result - p) * (s.result - p)
        })
        .sum::<f64>()
        / data.len() as f64
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let path = args.get(1).expect("usage: tune DATA [EPOCHS] [--write]");
    let epochs: usize = args
        .get(2)
        .filter(|a| !a.starts_with("--"))
        .map_or(3000, |s| s.parse().expect("EPOCHS"));
    let write = args.iter().any(|a| a == "--write");

    let text = std::fs::read_to_string(path).expect("cannot read DATA");
    let mut data = Vec::new();
    let mut mismatches = 0;
    let w0: Vec<[f64; 2]> = WEIGHTS
        .iter()
        .map(|s| [s.mg() as f64, s.eg() as f64])
        .collect();
    for line in text.lines() {
        let Some((fen, res)) = line.rsplit_once(';') else {
            continue;
        };
        let Ok(pos) = Position::from_fen(fen) else {
            continue;
        };
        let Ok(result) = res.trim().parse::<f64>() else {
            continue;
        };
        let (t, white_eval) = trace(&pos);
        let feats: Vec<(u16, i16)> = t
            .counts
            .iter()
            .enumerate()
            .filter(|(_, &c)| c != 0)
            .map(|(i, &c)| (i as u16, c as i16))
            .collect();
        let s = Sample {
            feats,
            mg_f: t.phase as f64 / MAX_PHASE as f64,
            eg_f: (MAX_PHASE - t.phase) as f64 / MAX_PHASE as f64 * t.eg_scale as f64
                / SCALE_NORMAL as f64,
            result,
        };
        // The trace must reproduce the evaluation (up to the engine's integer rounding).
        if (predict(&s, &w0) - white_eval as f64).abs() > 3.0 {
            mismatches += 1;
        }
        data.push(s);
    }
    println!("{} positions, {} trace mismatches", data.len(), mismatches);
    assert!(
        mismatches * 100 <= data.len(),
        "the trace does not reproduce the evaluation"
    );

    // Fit K.
    let mut k = 1.0;
    let mut best = error(&data, &w0, k);
    for step in [0.5, 0.1, 0.02] {
        loop {
            let mut improved = false;
            for cand in [k - step, k + step] {
                let e = error(&data, &w0, cand);
                if cand > 0.0 && e < best {
                    best = e;
                    k = cand;
                    improved = true;
                }
            }
            if !improved {
                break;
            }
        }
    }
    println!("K = {k:.3}, error with the current weights {best:.6}");

    // Weights of features seen in fewer than 0.2% of the positions keep their starting
    // values: too few samples to fit them without fitting noise.
    let mut seen = vec![0usize; NUM_FEATURES];
    for s in &data {
        for &(i, _) in &s.feats {
            seen[i as usize] += 1;
        }
    }
    let min_seen = data.len() / 500;
    let frozen: Vec<bool> = seen.iter().map(|&n| n < min_seen.max(1)).collect();
    println!(
        "{} of {} weights frozen (feature seen in fewer than {} positions)",
        frozen.iter().filter(|&&f| f).count(),
        NUM_FEATURES,
        min_seen
    );

    // Adam over all other weights.
    let mut w = w0.clone();
    let mut m = vec![[0.0f64; 2]; NUM_FEATURES];
    let mut v = vec![[0.0f64; 2]; NUM_FEATURES];
    let (b1, b2, lr, eps) = (0.9, 0.999, 2.0, 1e-8);
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    for epoch in 1..=epochs {
        let chunk = data.len().div_ceil(threads);
        let grads: Vec<Vec<[f64; 2]>> = std::thread::scope(|sc| {
            let handles: Vec<_> = data
                .chunks(chunk)
                .map(|part| {
                    let w = &w;
                    sc.spawn(move || {
                        let mut g = vec![[0.0f64; 2]; NUM_FEATURES];
                        for s in part {
                            let p = sigmoid(k * predict(s, w) / 400.0);
                            // d/dw of (r - p)^2 = -2 (r - p) p (1 - p) k/400 * dE/dw
                            let d = -2.0 * (s.result - p) * p * (1.0 - p) * k / 400.0;
                            for &(i, c) in &s.feats {
                                g[i as usize][0] += d * c as f64 * s.mg_f;
                                g[i as usize][1] += d * c as f64 * s.eg_f;
                            }
                        }
                        g
                    })
                })
                .collect();
            handles.into_iter().map(|h| h.join().unwrap()).collect()
        });
        let n = data.len() as f64;
        for i in (0..NUM_FEATURES).filter(|&i| !frozen[i]) {
            for ph in 0..2 {
                // L2 pull toward the starting weights, so that rare or collinear features
                // (a middlegame and endgame half seen only in one phase) stay sensible.
                let g: f64 = grads.iter().map(|gr| gr[i][ph]).sum::<f64>() / n
                    + 2.0 * L2 * (w[i][ph] - w0[i][ph]);
                m[i][ph] = b1 * m[i][ph] + (1.0 - b1) * g;
                v[i][ph] = b2 * v[i][ph] + (1.0 - b2) * g * g;
                let mh = m[i][ph] / (1.0 - b1.powi(epoch as i32));
                let vh = v[i][ph] / (1.0 - b2.powi(epoch as i32));
                w[i][ph] -= lr * mh / (vh.sqrt() + eps);
            }
        }
        if epoch % 250 == 0 || epoch == epochs {
            println!("epoch {epoch}: error {:.6}", error(&data, &w, k));
        }
    }

    // Report the largest changes.
    let mut changes: Vec<(f64, usize)> = (0..NUM_FEATURES)
        .map(|i| ((w[i][0] - w0[i][0]).abs() + (w[i][1] - w0[i][1]).abs(), i))
        .collect();
    changes.sort_by(|a, b| b.0.partial_cmp(&a.0).unwrap());
    for &(_, i) in changes.iter().take(12) {
        let (block, off) = describe(i);
        println!(
            "  {block}[{off}]: ({:.0}, {:.0}) -> ({:.0}, {:.0})",
            w0[i][0], w0[i][1], w[i][0], w[i][1]
        );
    }

    if write {
        let mut out = String::new();
        out.push_str(
            "//! The evaluation weights in use, written by the Texel tuner (`lab/tune.rs`;\n\
             //! docs/engine.md, \"Tuning the evaluation\", gives the commands that rebuild them).\n\n\
             use super::features::NUM_FEATURES;\nuse super::score::S;\n\n\
             /// The weights, indexed by the constants of the module `features`.\n\
             #[rustfmt::skip]\npub static WEIGHTS: [S; NUM_FEATURES] = [\n",
        );
        let mut last_block = "";
        for (i, wi) in w.iter().enumerate() {
            let (block, off) = describe(i);
            if block != last_block {
                writeln!(out, "    // {block}").unwrap();
                last_block = block;
            }
            let _ = off;
            writeln!(
                out,
                "    S::new({}, {}),",
                wi[0].round() as i32,
                wi[1].round() as i32
            )
            .unwrap();
        }
        out.push_str("];\n");
        std::fs::write("src/eval/weights.rs", out).expect("cannot write src/eval/weights.rs");
        println!("wrote src/eval/weights.rs");
    }
}
