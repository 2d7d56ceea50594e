//! The learned evaluation's data and trainer (lab/nnue_data.rs, lab/nnue_model.rs), checked
//! against docs/nnue.md without the inference: records round-trip, feature indices, the
//! float model's gradient against finite differences, the written net's integer output (i64,
//! straight from the spec) against the float model, and a training run that learns a known
//! target.

#[path = "../lab/nnue_data.rs"]
mod nnue_data;
#[path = "../lab/nnue_model.rs"]
mod nnue_model;

use chesscore::{Color, Position, Square};
use nnue_data::*;

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

/// Positions of random games (random legal moves from the start position).
fn random_positions(seed: u64, games: usize, plies: usize) -> Vec<Position> {
    let mut rng = Rng(seed);
    let mut out = Vec::new();
    for _ in 0..games {
        let mut pos = Position::startpos();
        for _ in 0..plies {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let m = moves.as_slice()[(rng.next() % moves.len() as u64) as usize];
            if pos.try_make_move(m).is_err() {
                break;
            }
            out.push(Position::from_fen(&pos.to_fen()).unwrap());
        }
    }
    out
}

#[test]
fn records_round_trip_positions() {
    let positions = random_positions(0x1234_5678, 40, 120);
    assert!(positions.len() > 2000);
    for (i, pos) in positions.iter().enumerate() {
        let score = (i as i32 * 37) % 4001 - 2000;
        let result = (i % 3) as u8;
        let r = encode(pos, score, result);
        assert!(is_valid(&r), "{}", pos.to_fen());
        assert_eq!(nnue_data::score(&r) as i32, score);
        assert_eq!(nnue_data::result(&r), result);
        assert_eq!(side_to_move(&r), pos.side_to_move().to_u8());
        let mut ps = NO_PIECES;
        let n = pieces(&r, &mut ps);
        let mut board = [None; 64];
        for p in &ps[..n] {
            board[p.square as usize] = Some((p.colour, p.kind));
        }
        for (s, got) in board.iter().enumerate() {
            let piece = pos.piece_on(Square::from_index(s as u8));
            let want = if piece.is_none() {
                None
            } else {
                // PNBRQK in FEN letters, 0..5 in the record.
                let kind = "pnbrqk".find(piece.kind().to_char()).unwrap() as u8;
                Some((piece.color().to_u8(), kind))
            };
            assert_eq!(*got, want, "square {s} of {}", pos.to_fen());
        }
    }
    // Scores beyond i16 are clamped.
    let r = encode(&Position::startpos(), 40_000, DRAW);
    assert_eq!(nnue_data::score(&r), i16::MAX);
}

/// The record of the start position, byte for byte from docs/nnue.md's table.
#[test]
fn start_position_record_bytes() {
    let r = encode(&Position::startpos(), -5, WHITE_WON);
    assert_eq!(&r[0..8], &0xFFFF_0000_0000_FFFFu64.to_le_bytes());
    // a1..h1: R N B Q K B N R = 3 1 2 4 5 2 1 3; a2..h2: pawns 0; a7..h7: black pawns 8;
    // a8..h8: 11 9 10 12 13 10 9 11. Two nibbles a byte, the first low.
    let want: [u8; 16] = [
        0x13, 0x42, 0x25, 0x31, 0, 0, 0, 0, 0x88, 0x88, 0x88, 0x88, 0x9B, 0xCA, 0xAD, 0xB9,
    ];
    assert_eq!(&r[8..24], &want);
    assert_eq!(&r[24..26], &(-5i16).to_le_bytes());
    assert_eq!(&r[26..32], &[2, 0, 0, 0, 0, 0]);
}

/// The colour-flipped FEN (ranks mirrored, colours swapped, the other side to move).
fn mirror_fen(fen: &str) -> String {
    let f: Vec<&str> = fen.split(' ').collect();
    let board: Vec<String> = f[0]
        .split('/')
        .rev()
        .map(|r| {
            r.chars()
                .map(|c| {
                    if c.is_ascii_uppercase() {
                        c.to_ascii_lowercase()
                    } else {
                        c.to_ascii_uppercase()
                    }
                })
                .collect()
        })
        .collect();
    let stm = if f[1] == "w" { "b" } else { "w" };
    format!("{} {stm} - - 0 1", board.join("/"))
}

#[test]
fn features_follow_the_spec() {
    // Hand-computed from docs/nnue.md: White's pawn on e2 (12) is feature 12 for White and
    // 384 + 0 + (12 ^ 56) = 436 for Black; Black's king on e8 (60) is 384 + 320 + 60 = 764 for
    // White and 0 + 320 + 4 = 324 for Black.
    let pawn = RecPiece {
        square: 12,
        colour: 0,
        kind: 0,
    };
    let king = RecPiece {
        square: 60,
        colour: 1,
        kind: 5,
    };
    assert_eq!((feature(0, pawn), feature(1, pawn)), (12, 436));
    assert_eq!((feature(0, king), feature(1, king)), (764, 324));
    // A position and its colour-flipped mirror have the same features, perspective for
    // perspective.
    for pos in random_positions(99, 10, 80) {
        let m = Position::from_fen(&mirror_fen(&pos.to_fen())).unwrap();
        assert_ne!(m.side_to_move(), pos.side_to_move());
        let (mut u1, mut t1, mut u2, mut t2) = ([0u16; 32], [0u16; 32], [0u16; 32], [0u16; 32]);
        let n1 = features(&encode(&pos, 0, 1), &mut u1, &mut t1);
        let n2 = features(&encode(&m, 0, 1), &mut u2, &mut t2);
        assert_eq!(n1, n2);
        let sorted = |a: &[u16]| {
            let mut v = a.to_vec();
            v.sort_unstable();
            v
        };
        assert_eq!(sorted(&u1[..n1]), sorted(&u2[..n2]));
        assert_eq!(sorted(&t1[..n1]), sorted(&t2[..n2]));
        assert!(u1[..n1].iter().all(|&f| f < 768));
    }
    let _ = Color::WHITE;
}

/// Records of random positions with varied scores and results.
fn random_records(seed: u64, count: usize) -> Vec<Record> {
    let mut rng = Rng(seed | 1);
    random_positions(seed, count / 60 + 1, 60)
        .iter()
        .take(count)
        .map(|p| {
            let score = (rng.next() % 1601) as i32 - 800;
            encode(p, score, (rng.next() % 3) as u8)
        })
        .collect()
}

/// The loss of docs/nnue.md's float model in f64, written from the spec: `params` in the
/// flat layout of lab/nnue_model.rs, with `b` output buckets.
fn reference_loss(
    n: usize,
    b: usize,
    params: &[f64],
    records: &[Record],
    lambda: f64,
    k: f64,
) -> f64 {
    let (w, rest) = params.split_at(768 * n);
    let (bias, rest) = rest.split_at(n);
    let (outs, obs) = rest.split_at(2 * n * b);
    assert_eq!(obs.len(), b);
    let sigmoid = |x: f64| 1.0 / (1.0 + (-x).exp());
    let mut total = 0.0;
    for r in records {
        let mut ps = NO_PIECES;
        let cnt = pieces(r, &mut ps);
        let stm = side_to_move(r);
        // Bucket (pieces - 2) * b / 31 (docs/nnue.md).
        let bucket = (cnt.clamp(2, 32) - 2) * b / 31;
        let out = &outs[2 * n * bucket..2 * n * (bucket + 1)];
        let mut y = obs[bucket];
        for (side, p) in [stm, stm ^ 1].into_iter().enumerate() {
            for i in 0..n {
                let mut acc = bias[i];
                for piece in &ps[..cnt] {
                    let own = if piece.colour == p { 0 } else { 384 };
                    let sq = if p == 0 {
                        piece.square
                    } else {
                        piece.square ^ 56
                    } as usize;
                    acc += w[(own + 64 * piece.kind as usize + sq) * n + i];
                }
                let a = acc.clamp(0.0, 1.0);
                y += a * a * out[side * n + i];
            }
        }
        let white = stm == 0;
        let s = nnue_data::score(r) as f64 * if white { 1.0 } else { -1.0 };
        let wdl = nnue_data::result(r) as f64 / 2.0;
        let wdl = if white { wdl } else { 1.0 - wdl };
        let t = lambda * sigmoid(s / k) + (1.0 - lambda) * wdl;
        let p = sigmoid(y * 400.0 / k);
        total += (p - t) * (p - t);
    }
    total / records.len() as f64
}

#[test]
fn gradient_matches_finite_differences() {
    check_gradient(1);
}

#[test]
fn gradient_matches_finite_differences_with_output_buckets() {
    check_gradient(4);
}

fn check_gradient(b: usize) {
    let n = 16;
    let records = random_records(7, 8);
    let mut net = nnue_model::Net::random_buckets(n, b, 3);
    let mut rng = Rng(5);
    // Larger output weights than the start's, so that every term matters; the first
    // record's bucket and its output layer.
    let (mut us, mut them) = ([0u16; 32], [0u16; 32]);
    let cnt = features(&records[0], &mut us, &mut them);
    let bucket = (cnt - 2) * b / 31;
    let o = net.o_off() + 2 * n * bucket;
    let (o_all, ob) = (net.o_off(), net.ob_off());
    for x in &mut net.p[o_all..ob] {
        *x = ((rng.next() % 2001) as f32 - 1000.0) / 1000.0;
    }
    let (lambda, k) = (0.7, 400.0);
    let grad = nnue_model::gradient(&net, &records, lambda, k);
    let base: Vec<f64> = net.p.iter().map(|&x| x as f64).collect();
    // Parameters to check: rows of the first record's active features, biases, output
    // weights and bias of its bucket, and with buckets one of another bucket's weights.
    let mut idx = Vec::new();
    for j in 0..cnt.min(6) {
        idx.push(us[j] as usize * n + j % n);
        idx.push(them[j] as usize * n + (j + 3) % n);
    }
    idx.extend([
        net.b_off(),
        net.b_off() + 5,
        o,
        o + n + 2,
        net.ob_off() + bucket,
    ]);
    if b > 1 {
        let other = (bucket + 1) % b;
        idx.extend([net.o_off() + 2 * n * other + 1, net.ob_off() + other]);
    }
    let mut checked = 0;
    for &i in &idx {
        let h = 1e-5;
        let mut p = base.clone();
        p[i] += h;
        let up = reference_loss(n, b, &p, &records, lambda as f64, k as f64);
        p[i] -= 2.0 * h;
        let down = reference_loss(n, b, &p, &records, lambda as f64, k as f64);
        let numeric = (up - down) / (2.0 * h);
        let analytic = grad[i] as f64;
        assert!(
            (numeric - analytic).abs() <= 2e-3 * numeric.abs().max(analytic.abs()) + 1e-7,
            "parameter {i}: finite difference {numeric}, gradient {analytic}"
        );
        if numeric.abs() > 1e-6 {
            checked += 1;
        }
    }
    assert!(checked >= 8, "only {checked} non-zero gradients checked");
    // The model's own loss agrees with the reference.
    let mine = nnue_model::mean_loss(&net, &records, lambda, k);
    let reference = reference_loss(n, b, &base, &records, lambda as f64, k as f64);
    assert!(
        (mine - reference).abs() < 1e-5 * reference.max(1e-3),
        "{mine} {reference}"
    );
}

/// docs/nnue.md's integer output, read straight from the file's bytes, in i64.
fn spec_eval(file: &[u8], r: &Record) -> i64 {
    let word = |i: usize| u32::from_le_bytes(file[4 * i..4 * i + 4].try_into().unwrap());
    let n = word(2) as usize;
    // Version 1: a 16-byte header and one output; version 2: the bucket count ends a 20-byte
    // header, and the output weights and biases come once per bucket.
    let (header, b) = if word(1) == 1 {
        (16, 1)
    } else {
        (20, word(4) as usize)
    };
    let i16_at =
        |k: usize| i16::from_le_bytes([file[header + 2 * k], file[header + 1 + 2 * k]]) as i64;
    let mut ps = NO_PIECES;
    let cnt = pieces(r, &mut ps);
    let bucket = (cnt.clamp(2, 32) - 2) * b / 31;
    let w = |f: usize, i: usize| i16_at(f * n + i);
    let bias = |i: usize| i16_at(768 * n + i);
    let out = |j: usize| i16_at(768 * n + n + 2 * n * bucket + j);
    let ob_at = header + 2 * (768 * n + n + 2 * n * b) + 4 * bucket;
    let out_bias = i32::from_le_bytes(file[ob_at..ob_at + 4].try_into().unwrap()) as i64;
    let us = side_to_move(r);
    let mut sum = 0i64;
    for (side, p) in [us, us ^ 1].into_iter().enumerate() {
        for i in 0..n {
            let mut acc = bias(i);
            for piece in &ps[..cnt] {
                let own = if piece.colour == p { 0 } else { 384 };
                let sq = if p == 0 {
                    piece.square
                } else {
                    piece.square ^ 56
                } as usize;
                acc += w(own + 64 * piece.kind as usize + sq, i);
            }
            assert!((i16::MIN as i64..=i16::MAX as i64).contains(&acc));
            let v = acc.clamp(0, 255);
            sum += v * (v * out(side * n + i));
        }
    }
    (sum / 255 + out_bias) * 400 / (255 * 64)
}

#[test]
fn written_net_matches_the_float_model() {
    check_written_net(1);
}

#[test]
fn written_net_with_output_buckets_matches_the_float_model() {
    check_written_net(3);
}

fn check_written_net(buckets: usize) {
    let n = 32;
    let mut net = nnue_model::Net::random_buckets(n, buckets, 11);
    let mut rng = Rng(13);
    let (b, o, ob) = (net.b_off(), net.o_off(), net.ob_off());
    for x in &mut net.p[b..o] {
        *x = ((rng.next() % 1001) as f32 - 300.0) / 1000.0;
    }
    for x in &mut net.p[o..ob] {
        *x = ((rng.next() % 2001) as f32 - 1000.0) / 2000.0;
    }
    for (j, x) in net.p[ob..].iter_mut().enumerate() {
        *x = 0.0123 - 0.05 * j as f32;
    }
    net.clip();
    let file = nnue_model::to_bytes(&nnue_model::quantise(&net));
    // The layout and the checksum, from the spec.
    let header = if buckets == 1 { 16 } else { 20 };
    assert_eq!(
        file.len(),
        header + 2 * (768 * n + n + 2 * n * buckets) + 4 * buckets + 4
    );
    assert_eq!(&file[0..4], b"CCNN");
    if buckets == 1 {
        assert_eq!(&file[4..16], &[1, 0, 0, 0, 32, 0, 0, 0, 1, 0, 0, 0]);
    } else {
        assert_eq!(&file[4..16], &[2, 0, 0, 0, 32, 0, 0, 0, 1, 0, 0, 0]);
        assert_eq!(&file[16..20], &(buckets as u32).to_le_bytes());
    }
    let mut h = 0x811c_9dc5u32;
    for &x in &file[..file.len() - 4] {
        h = (h ^ x as u32).wrapping_mul(16_777_619);
    }
    assert_eq!(&file[file.len() - 4..], &h.to_le_bytes());
    // The dequantised float model gives the integer output up to its two truncations.
    let mut deq = net.clone();
    for (j, x) in deq.p.iter_mut().enumerate() {
        let at = header + 2 * j;
        let q = if j < o {
            i16::from_le_bytes([file[at], file[at + 1]]) as f32 / 255.0
        } else if j < ob {
            i16::from_le_bytes([file[at], file[at + 1]]) as f32 / 64.0
        } else {
            let at = header + 2 * ob + 4 * (j - ob);
            i32::from_le_bytes(file[at..at + 4].try_into().unwrap()) as f32 / (255.0 * 64.0)
        };
        *x = q;
    }
    let records = random_records(21, 1500);
    let (mut worst_deq, mut worst, mut total, mut spread) = (0.0f32, 0.0f32, 0.0f32, 0.0f32);
    for r in &records {
        let int = spec_eval(&file, r) as f32;
        assert_eq!(
            int as i64,
            nnue_model::eval_int(&nnue_model::from_bytes(&file).unwrap(), r)
        );
        worst_deq = worst_deq.max((int - deq.eval_cp(r)).abs());
        let d = (int - net.eval_cp(r)).abs();
        worst = worst.max(d);
        total += d;
        spread += net.eval_cp(r).abs();
    }
    let mean = total / records.len() as f32;
    assert!(worst_deq <= 1.1, "dequantised: worst {worst_deq} cp");
    // Against the float model: the rounding of the output weights to 1/64 alone moves each of
    // the 2N = 64 terms by up to a^2 / 128; with a^2 around 0.2 that is about 6 cp of spread.
    assert!(
        mean <= 8.0 && worst <= 30.0,
        "float: mean {mean} cp, worst {worst} cp"
    );
    // Not a trivial net: evaluations spread well beyond the tolerance.
    assert!(
        spread / records.len() as f32 > 50.0,
        "{}",
        spread / records.len() as f32
    );
    // The loader's checks.
    assert!(nnue_model::from_bytes(&file).is_ok());
    let mut bad = file.clone();
    bad[100] ^= 1;
    assert_eq!(nnue_model::from_bytes(&bad).unwrap_err(), "bad checksum");
}

#[test]
fn training_learns_material() {
    // Target: the material balance (100, 300, 300, 500, 900) in centipawns, White's view.
    let positions = random_positions(31, 80, 100);
    let records: Vec<Record> = positions
        .iter()
        .map(|p| {
            let mut m = 0i32;
            for s in 0..64u8 {
                let piece = p.piece_on(Square::from_index(s));
                if !piece.is_none() {
                    let v = [0, 100, 300, 300, 500, 900, 0][piece.kind().index()];
                    m += if piece.color() == Color::WHITE { v } else { -v };
                }
            }
            encode(p, m, DRAW)
        })
        .collect();
    let (train, val) = records.split_at(records.len() * 9 / 10);
    let cfg = nnue_model::TrainConfig {
        threads: 2,
        batch: 256,
        lambda: 1.0,
        ..Default::default()
    };
    let mut trainer = nnue_model::Trainer::new(nnue_model::Net::random(32, 1), 2);
    let start = nnue_model::mean_loss(&trainer.net, val, 1.0, 400.0);
    let mut rng = nnue_model::Rng::new(2);
    let mut order: Vec<u32> = (0..train.len() as u32).collect();
    for _ in 0..20 {
        rng.shuffle(&mut order);
        trainer.epoch(train, &order, &cfg, |_| 0.005);
    }
    let end = nnue_model::mean_loss(&trainer.net, val, 1.0, 400.0);
    assert!(end < 0.2 * start, "validation loss {start} -> {end}");
}

/// The FEN with files mirrored (a <-> h), castling rights and en passant dropped.
fn mirror_files_fen(fen: &str) -> String {
    let f: Vec<&str> = fen.split(' ').collect();
    let board: Vec<String> = f[0].split('/').map(|r| r.chars().rev().collect()).collect();
    format!("{} {} - - 0 1", board.join("/"), f[1])
}

#[test]
fn mirror_files_is_the_mirrored_positions_record() {
    let positions = random_positions(0x4d49_5252, 10, 100);
    assert!(positions.len() > 500);
    for (i, pos) in positions.iter().enumerate() {
        let (score, result) = ((i as i32 * 53) % 3001 - 1500, (i % 3) as u8);
        let mirrored = Position::from_fen(&mirror_files_fen(&pos.to_fen())).unwrap();
        let r = encode(pos, score, result);
        assert_eq!(
            mirror_files(&r),
            encode(&mirrored, score, result),
            "{}",
            pos.to_fen()
        );
        assert_eq!(mirror_files(&mirror_files(&r)), r);
    }
}

/// The trainer's gradient on a CPU with AVX2 (the path `accumulate` takes there) is the
/// portable code's to the bit, with training-sized layers and every output bucket in use:
/// the AVX2 build may change the speed of a training run, never the net it writes.
#[test]
fn gradient_is_the_same_on_every_code_path() {
    let (n, b) = (256, 8);
    let records = random_records(11, 400);
    let mut net = nnue_model::Net::random_buckets(n, b, 9);
    let mut rng = Rng(13);
    // Output weights large enough that the backward pass reaches every feature row.
    let (o_all, ob) = (net.o_off(), net.ob_off());
    for x in &mut net.p[o_all..ob] {
        *x = ((rng.next() % 2001) as f32 - 1000.0) / 1000.0;
    }
    let (lambda, k, scale) = (0.7, 400.0, 1.0 / records.len() as f32);
    let mut portable = nnue_model::Scratch::new(n, b);
    let loss_portable =
        nnue_model::accumulate_portable(&net, records.iter(), lambda, k, scale, &mut portable);
    let mut dispatched = nnue_model::Scratch::new(n, b);
    let loss_dispatched =
        nnue_model::accumulate(&net, records.iter(), lambda, k, scale, &mut dispatched);
    assert_eq!(loss_portable.to_bits(), loss_dispatched.to_bits());
    let nonzero = portable.grad.iter().filter(|g| **g != 0.0).count();
    assert!(
        nonzero > net.p.len() / 4,
        "only {nonzero} non-zero gradients"
    );
    for (i, (a, b)) in portable.grad.iter().zip(&dispatched.grad).enumerate() {
        assert_eq!(a.to_bits(), b.to_bits(), "parameter {i}: {a} against {b}");
    }
}
