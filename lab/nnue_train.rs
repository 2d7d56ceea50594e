//! The learned evaluation's trainer: fits docs/nnue.md's float model to self-play records
//! (`lab/nnue_datagen.rs`) and writes the quantised `.nnue` file and a float checkpoint.
//!
//! ```text
//! cargo run --release --features lab --example nnue_train -- DATA... --out NET
//!     [--hidden 128] [--epochs 10] [--batch 16384] [--threads 1] [--lr 0.001]
//!     [--lr-end 0.00001] [--wd 0.01] [--lambda 0.7] [--k 400] [--val-frac 0.02]
//!     [--seed 1] [--init CHECKPOINT] [--max-positions N] [--qat-epochs 0] [--mirror 0]
//!     [--buckets 1]
//! ```
//! `--buckets B` (1 to 16) gives the net B output layers, chosen by the number of pieces
//! (docs/nnue.md, version 2 files); 1 writes a version 1 file.
//! `--mirror 1` adds each training record's file-mirrored twin (a <-> h, `mirror_files` of
//! lab/nnue_data.rs) to the training set, never to the validation set.
//! Loads every whole record of the DATA files (invalid ones are dropped), shuffles them with
//! SEED, holds out VAL_FRAC of them for validation, and trains the perspective network
//! `(768 -> HIDDEN) x 2 -> 1` (SCReLU) with AdamW on mini-batches split across THREADS threads:
//! loss = mean of `(sigmoid(eval / K) - target)^2`, target = `LAMBDA * sigmoid(score / K) +
//! (1 - LAMBDA) * wdl`, both from the side to move's view. The learning rate decays from LR to
//! LR_END on a cosine over all steps. The last QAT_EPOCHS epochs train quantisation-aware: the
//! gradient is taken at the weights rounded as the file stores them and applied to the float
//! weights (straight-through), so the written net is the one that was fitted. After each epoch it prints the training and validation
//! loss and the speed, and writes NET (docs/nnue.md's file, checked by the loader's rules
//! after writing) and NET.ckpt (the float checkpoint, `CCNF` format of lab/nnue_model.rs,
//! which `--init` reads for a warm start).

#[path = "nnue_data.rs"]
mod nnue_data;
#[path = "nnue_model.rs"]
mod nnue_model;

use nnue_data::{is_valid, mirror_files, read_files};
use nnue_model::*;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: nnue_train DATA... --out NET [--hidden N] [--epochs E] [--batch B] \
                 [--threads T] [--lr X] [--lr-end X] [--wd X] [--lambda X] [--k X] \
                 [--val-frac X] [--seed S] [--init CHECKPOINT] [--max-positions N] [--qat-epochs E] \
                 [--mirror 0|1] [--buckets B]";
    let fail = |m: &str| -> ! {
        eprintln!("{m}\n{usage}");
        std::process::exit(2)
    };
    let mut data = Vec::new();
    let mut opt = std::collections::HashMap::new();
    let mut i = 0;
    while i < args.len() {
        if let Some(name) = args[i].strip_prefix("--") {
            let v = args.get(i + 1).unwrap_or_else(|| fail("missing value"));
            opt.insert(name.to_string(), v.clone());
            i += 2;
        } else {
            data.push(args[i].clone());
            i += 1;
        }
    }
    let get = |name: &str, default: &str| -> String {
        opt.get(name)
            .cloned()
            .unwrap_or_else(|| default.to_string())
    };
    let num = |name: &str, default: &str| -> f64 {
        get(name, default)
            .parse()
            .unwrap_or_else(|_| fail(&format!("bad --{name}")))
    };
    let known = [
        "out",
        "hidden",
        "epochs",
        "batch",
        "threads",
        "lr",
        "lr-end",
        "wd",
        "lambda",
        "k",
        "val-frac",
        "seed",
        "init",
        "max-positions",
        "qat-epochs",
        "mirror",
        "buckets",
    ];
    if let Some(k) = opt.keys().find(|k| !known.contains(&k.as_str())) {
        fail(&format!("unknown option --{k}"));
    }
    let out = opt
        .get("out")
        .cloned()
        .unwrap_or_else(|| fail("--out is required"));
    if data.is_empty() {
        fail("no data files");
    }
    let cfg = TrainConfig {
        threads: num("threads", "1") as usize,
        batch: num("batch", "16384") as usize,
        lambda: num("lambda", "0.7") as f32,
        k: num("k", "400") as f32,
        weight_decay: num("wd", "0.01") as f32,
        quantised_forward: false,
        ..TrainConfig::default()
    };
    let (epochs, lr0, lr1) = (
        num("epochs", "10") as u64,
        num("lr", "0.001"),
        num("lr-end", "0.00001"),
    );
    let seed = num("seed", "1") as u64;
    let qat_epochs = num("qat-epochs", "0") as u64;
    let mut cfg = cfg;

    let t0 = Instant::now();
    let mut records = read_files(&data).unwrap_or_else(|e| fail(&format!("cannot read data: {e}")));
    let read = records.len();
    records.retain(is_valid);
    let mut rng = Rng::new(seed);
    let mut order: Vec<u32> = (0..records.len() as u32).collect();
    rng.shuffle(&mut order);
    let max = num("max-positions", "0") as usize;
    if max > 0 && order.len() > max {
        order.truncate(max);
    }
    let val_n = (order.len() as f64 * num("val-frac", "0.02")) as usize;
    let val: Vec<_> = order[..val_n]
        .iter()
        .map(|&i| records[i as usize])
        .collect();
    let mut train: Vec<_> = order[val_n..]
        .iter()
        .map(|&i| records[i as usize])
        .collect();
    if num("mirror", "0") != 0.0 {
        let twins: Vec<_> = train.iter().map(mirror_files).collect();
        train.extend(twins);
    }
    drop(records);
    println!(
        "data: {read} records read from {} file(s), {} kept, {} for training, {} for validation \
         ({:.1} s)",
        data.len(),
        train.len() + val.len(),
        train.len(),
        val.len(),
        t0.elapsed().as_secs_f64()
    );

    let net = match opt.get("init") {
        Some(p) => {
            let bytes = std::fs::read(p).unwrap_or_else(|e| fail(&format!("{p}: {e}")));
            let net = from_checkpoint(&bytes).unwrap_or_else(|e| fail(&format!("{p}: {e}")));
            println!("warm start from {p} (hidden {})", net.n);
            net
        }
        None => {
            let buckets = num("buckets", "1") as usize;
            if !(1..=16).contains(&buckets) {
                fail("--buckets must be in 1..=16");
            }
            Net::random_buckets(num("hidden", "128") as usize, buckets, seed)
        }
    };
    if net.n % 16 != 0 || !(16..=1024).contains(&net.n) {
        fail("--hidden must be a multiple of 16 in 16..=1024");
    }
    println!(
        "net: hidden {}, buckets {}, epochs {epochs}, batch {}, threads {}, lr {lr0} -> {lr1} \
         (cosine), wd {}, lambda {}, k {}, seed {seed}",
        net.n, net.b, cfg.batch, cfg.threads, cfg.weight_decay, cfg.lambda, cfg.k
    );
    let mut trainer = Trainer::new(net, cfg.threads);
    let steps_per_epoch = train.len().div_ceil(cfg.batch) as u64;
    let total = (steps_per_epoch * epochs).max(1) as f64;
    let lr = |s: u64| -> f32 {
        let x = (s as f64 / total).min(1.0);
        (lr1 + 0.5 * (lr0 - lr1) * (1.0 + (std::f64::consts::PI * x).cos())) as f32
    };
    let val_loss = mean_loss_threads(&trainer.net, &val, cfg.lambda, cfg.k, cfg.threads);
    println!("epoch 0: validation {val_loss:.6}");
    let mut order: Vec<u32> = (0..train.len() as u32).collect();
    for e in 1..=epochs {
        rng.shuffle(&mut order);
        cfg.quantised_forward = e + qat_epochs > epochs;
        let start = Instant::now();
        let cpu0 = cpu_seconds().unwrap_or(f64::NAN);
        let train_loss = trainer.epoch(&train, &order, &cfg, lr);
        let secs = start.elapsed().as_secs_f64();
        let cpu = cpu_seconds().unwrap_or(f64::NAN) - cpu0;
        let val_loss = mean_loss_threads(&trainer.net, &val, cfg.lambda, cfg.k, cfg.threads);
        let deq = trainer.net.dequantised();
        let val_q = mean_loss_threads(&deq, &val, cfg.lambda, cfg.k, cfg.threads);
        println!(
            "epoch {e}{}: train {train_loss:.6} validation {val_loss:.6} (quantised {val_q:.6}) lr {:.2e}, {:.1} s \
             ({:.1} cpu s): {:.0} positions/s on {} thread(s), {:.0} positions per cpu second",
            if cfg.quantised_forward { " (QAT)" } else { "" },
            lr(trainer.step),
            secs,
            cpu,
            train.len() as f64 / secs,
            cfg.threads,
            train.len() as f64 / cpu.max(0.01)
        );
        let q = quantise(&trainer.net);
        let bytes = to_bytes(&q);
        if let Err(e) = from_bytes(&bytes) {
            eprintln!("the quantised net fails the loader's checks: {e}");
            std::process::exit(1);
        }
        std::fs::write(&out, &bytes).unwrap_or_else(|e| fail(&format!("{out}: {e}")));
        let ck = format!("{out}.ckpt");
        std::fs::write(&ck, checkpoint_bytes(&trainer.net))
            .unwrap_or_else(|e| fail(&format!("{ck}: {e}")));
    }
    // The quantised net against the float one on validation positions.
    let q = quantise(&trainer.net);
    let m = val.len().min(2000);
    let diff: f64 = val[..m]
        .iter()
        .map(|r| (eval_int(&q, r) as f64 - trainer.net.eval_cp(r) as f64).abs())
        .sum::<f64>()
        / m.max(1) as f64;
    println!(
        "wrote {out} and {out}.ckpt; quantised against float on {m} positions: mean |diff| \
         {diff:.2} cp; {:.0} s in all",
        t0.elapsed().as_secs_f64()
    );
}
