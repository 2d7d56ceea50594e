//! The float model of docs/nnue.md, its gradient, AdamW, quantisation to the `.nnue` file and
//! the float checkpoint. Shared by `lab/nnue_train.rs` and `tests/nnue_trainer.rs` (each
//! includes this file with `#[path]`, next to `nnue_data.rs` as `crate::nnue_data`).
//!
//! Parameters live in one flat `f32` vector: feature weights `W[f][i]` at `f * N + i`
//! (768 N), accumulator bias (N), output weights (B x 2 N: per output bucket, side to move's
//! then the other's), output biases (B). B = 1 is the version 1 file; more buckets write
//! version 2, the bucket of a position being chosen by its number of pieces as
//! `output_bucket` says (the library's formula).
#![allow(dead_code)]

use crate::nnue_data::{features, result, score, side_to_move, Record};

pub const QA: i64 = 255;
pub const QB: i64 = 64;
pub const SCALE: f32 = 400.0;
pub const INPUTS: usize = 768;

/// Bound on feature weights and accumulator biases. The loader wants `|bias| + the 32 largest
/// `|W|` of a neuron` within `i16`; with every quantised value at most 960 in size, 34 terms
/// (the bias, 32 pieces, and one more for an incremental update that adds before it removes)
/// stay within 34 * 960 = 32640 <= 32767.
pub const W_CLIP: f32 = 960.0 / QA as f32;
/// Bound on output weights: `round(127 / 64 * QB) = 127`, the loader's limit.
pub const O_CLIP: f32 = 127.0 / QB as f32;

/// The output bucket of a position with `pieces` pieces in a net of `buckets` buckets
/// (docs/nnue.md; the same formula as the library's `output_bucket`).
#[inline]
pub fn output_bucket(pieces: usize, buckets: usize) -> usize {
    (pieces.clamp(2, 32) - 2) * buckets / 31
}

#[inline]
pub fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// The float network.
#[derive(Clone, Debug, PartialEq)]
pub struct Net {
    pub n: usize,
    /// Output buckets (1: the version 1 file).
    pub b: usize,
    pub p: Vec<f32>,
}

impl Net {
    pub fn len(n: usize, b: usize) -> usize {
        INPUTS * n + n + 2 * n * b + b
    }
    pub fn b_off(&self) -> usize {
        INPUTS * self.n
    }
    pub fn o_off(&self) -> usize {
        INPUTS * self.n + self.n
    }
    pub fn ob_off(&self) -> usize {
        INPUTS * self.n + self.n + 2 * self.n * self.b
    }

    /// A random start with one output: see [`Net::random_buckets`].
    pub fn random(n: usize, seed: u64) -> Net {
        Net::random_buckets(n, 1, seed)
    }

    /// A random start: feature weights uniform in ±0.1 (about 30 of them add up to an
    /// accumulator of spread 0.3), biases 0.1, output weights uniform in ±1/sqrt(2N) (each
    /// bucket's drawn apart), output biases 0.
    pub fn random_buckets(n: usize, b: usize, seed: u64) -> Net {
        let mut rng = Rng::new(seed);
        let mut net = Net {
            n,
            b,
            p: vec![0.0; Net::len(n, b)],
        };
        let (b, o, ob) = (net.b_off(), net.o_off(), net.ob_off());
        for x in &mut net.p[..b] {
            *x = rng.uniform() * 0.1;
        }
        for x in &mut net.p[b..o] {
            *x = 0.1;
        }
        let r = 1.0 / (2.0 * n as f32).sqrt();
        for x in &mut net.p[o..ob] {
            *x = rng.uniform() * r;
        }
        net.clip();
        net
    }

    /// The float model with every parameter rounded as the file stores it: what the integer
    /// output computes, up to its two truncations.
    pub fn dequantised(&self) -> Net {
        let (o, ob) = (self.o_off(), self.ob_off());
        let mut net = self.clone();
        let qa = QA as f32;
        let qb = QB as f32;
        for x in &mut net.p[..o] {
            *x = (*x * qa).round() / qa;
        }
        for x in &mut net.p[o..ob] {
            *x = (*x * qb).round() / qb;
        }
        for x in &mut net.p[ob..] {
            *x = (*x * qa * qb).round() / (qa * qb);
        }
        net
    }

    /// Keeps the weights within what quantisation and the loader accept.
    pub fn clip(&mut self) {
        let (o, ob) = (self.o_off(), self.ob_off());
        for x in &mut self.p[..o] {
            *x = x.clamp(-W_CLIP, W_CLIP);
        }
        for x in &mut self.p[o..ob] {
            *x = x.clamp(-O_CLIP, O_CLIP);
        }
    }

    /// The bucket of a position with these features (one per piece).
    #[inline]
    pub fn bucket(&self, us: &[u16]) -> usize {
        output_bucket(us.len(), self.b)
    }

    /// Fills the two accumulators of a position's features; returns the output `y` (the
    /// evaluation is `y * SCALE` centipawns for the side to move).
    #[inline(always)]
    pub fn forward(
        &self,
        us: &[u16],
        them: &[u16],
        acc_us: &mut [f32],
        acc_them: &mut [f32],
    ) -> f32 {
        let n = self.n;
        let k = self.bucket(us);
        let (w, rest) = self.p.split_at(INPUTS * n);
        let (bias, rest) = rest.split_at(n);
        let (outs, obs) = rest.split_at(2 * n * self.b);
        let (out, ob) = (&outs[2 * n * k..2 * n * (k + 1)], &obs[k..]);
        for (acc, feats) in [(&mut *acc_us, us), (&mut *acc_them, them)] {
            acc.copy_from_slice(bias);
            for &f in feats {
                let row = &w[f as usize * n..f as usize * n + n];
                for (a, x) in acc.iter_mut().zip(row) {
                    *a += x;
                }
            }
        }
        let mut y = ob[0];
        let mut s = 0.0f32;
        for (a, o) in acc_us.iter().zip(&out[..n]) {
            let v = a.clamp(0.0, 1.0);
            s += v * v * o;
        }
        for (a, o) in acc_them.iter().zip(&out[n..]) {
            let v = a.clamp(0.0, 1.0);
            s += v * v * o;
        }
        y += s;
        y
    }

    /// The evaluation of record `r` in centipawns, side to move's view.
    pub fn eval_cp(&self, r: &Record) -> f32 {
        let (mut us, mut them) = ([0u16; 32], [0u16; 32]);
        let k = features(r, &mut us, &mut them);
        let (mut a, mut b) = (vec![0.0; self.n], vec![0.0; self.n]);
        self.forward(&us[..k], &them[..k], &mut a, &mut b) * SCALE
    }
}

/// The training target of `r`, side to move's view: `lambda * sigmoid(score / k) +
/// (1 - lambda) * wdl`.
#[inline]
pub fn target(r: &Record, lambda: f32, k: f32) -> f32 {
    let white = side_to_move(r) == 0;
    let s = score(r) as f32;
    let s = if white { s } else { -s };
    let wdl = result(r) as f32 / 2.0;
    let wdl = if white { wdl } else { 1.0 - wdl };
    lambda * sigmoid(s / k) + (1.0 - lambda) * wdl
}

/// Per-thread scratch: the gradient and two accumulators' worth of buffers.
pub struct Scratch {
    pub grad: Vec<f32>,
    acc_us: Vec<f32>,
    acc_them: Vec<f32>,
    d_us: Vec<f32>,
    d_them: Vec<f32>,
}

impl Scratch {
    pub fn new(n: usize, b: usize) -> Scratch {
        Scratch {
            grad: vec![0.0; Net::len(n, b)],
            acc_us: vec![0.0; n],
            acc_them: vec![0.0; n],
            d_us: vec![0.0; n],
            d_them: vec![0.0; n],
        }
    }
}

/// Adds to `s.grad` the gradient of `scale * sum of (sigmoid(y SCALE / k) - target)^2` over
/// `records`; returns the unscaled sum of squared errors. Only the rows of active features
/// are touched in the feature weights' gradient.
///
/// On an x86-64 CPU with AVX2 the same code runs compiled for it: the row loops take 8 lanes
/// instead of SSE2's 4, and the result is the same to the bit (Rust neither reorders float
/// sums nor fuses a multiply and an add without being asked; `tests/nnue_trainer.rs` checks
/// it).
pub fn accumulate<'a>(
    net: &Net,
    records: impl Iterator<Item = &'a Record>,
    lambda: f32,
    k: f32,
    scale: f32,
    s: &mut Scratch,
) -> f64 {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU has AVX2 (detected just above), all that `accumulate_avx2` needs.
        return unsafe { accumulate_avx2(net, records, lambda, k, scale, s) };
    }
    accumulate_portable(net, records, lambda, k, scale, s)
}

/// [`accumulate`] compiled for AVX2.
///
/// # Safety
/// The CPU must have AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn accumulate_avx2<'a>(
    net: &Net,
    records: impl Iterator<Item = &'a Record>,
    lambda: f32,
    k: f32,
    scale: f32,
    s: &mut Scratch,
) -> f64 {
    accumulate_portable(net, records, lambda, k, scale, s)
}

/// [`accumulate`] for any CPU; inlined into [`accumulate_avx2`] to be compiled for AVX2 there.
#[inline(always)]
pub fn accumulate_portable<'a>(
    net: &Net,
    records: impl Iterator<Item = &'a Record>,
    lambda: f32,
    k: f32,
    scale: f32,
    s: &mut Scratch,
) -> f64 {
    let n = net.n;
    let (b_off, o_off, ob_off) = (net.b_off(), net.o_off(), net.ob_off());
    let mut loss = 0.0f64;
    let (mut us, mut them) = ([0u16; 32], [0u16; 32]);
    for r in records {
        let cnt = features(r, &mut us, &mut them);
        let y = net.forward(&us[..cnt], &them[..cnt], &mut s.acc_us, &mut s.acc_them);
        let p = sigmoid(y * SCALE / k);
        let t = target(r, lambda, k);
        loss += ((p - t) * (p - t)) as f64;
        let g = scale * 2.0 * (p - t) * p * (1.0 - p) * SCALE / k;
        let bucket = net.bucket(&us[..cnt]);
        let (o_k, ob_k) = (o_off + 2 * n * bucket, ob_off + bucket);
        let out = &net.p[o_k..o_k + 2 * n];
        s.grad[ob_k] += g;
        let (go_us, go_them) = s.grad[o_k..o_k + 2 * n].split_at_mut(n);
        for (acc, d, go, o) in [
            (&s.acc_us, &mut s.d_us, go_us, &out[..n]),
            (&s.acc_them, &mut s.d_them, go_them, &out[n..]),
        ] {
            for i in 0..n {
                let a = acc[i];
                let v = a.clamp(0.0, 1.0);
                go[i] += g * v * v;
                d[i] = if a > 0.0 && a < 1.0 {
                    2.0 * g * o[i] * v
                } else {
                    0.0
                };
            }
        }
        let gb = &mut s.grad[b_off..o_off];
        for ((x, du), dt) in gb.iter_mut().zip(&s.d_us).zip(&s.d_them) {
            *x += du + dt;
        }
        for (feats, d) in [(&us[..cnt], &s.d_us), (&them[..cnt], &s.d_them)] {
            for &f in feats {
                let row = &mut s.grad[f as usize * n..f as usize * n + n];
                for (x, di) in row.iter_mut().zip(d.iter()) {
                    *x += di;
                }
            }
        }
    }
    loss
}

/// The mean squared error over `records` (single thread).
pub fn mean_loss(net: &Net, records: &[Record], lambda: f32, k: f32) -> f64 {
    let mut s = Scratch::new(net.n, net.b);
    let (mut us, mut them) = ([0u16; 32], [0u16; 32]);
    let mut loss = 0.0f64;
    for r in records {
        let cnt = features(r, &mut us, &mut them);
        let y = net.forward(&us[..cnt], &them[..cnt], &mut s.acc_us, &mut s.acc_them);
        let d = sigmoid(y * SCALE / k) - target(r, lambda, k);
        loss += (d * d) as f64;
    }
    loss / records.len().max(1) as f64
}

/// The mean squared error over `records` on `threads` threads.
pub fn mean_loss_threads(
    net: &Net,
    records: &[Record],
    lambda: f32,
    k: f32,
    threads: usize,
) -> f64 {
    let chunk = records.len().div_ceil(threads.max(1)).max(1);
    let sum: f64 = std::thread::scope(|sc| {
        let hs: Vec<_> = records
            .chunks(chunk)
            .map(|c| sc.spawn(move || mean_loss(net, c, lambda, k) * c.len() as f64))
            .collect();
        hs.into_iter().map(|h| h.join().unwrap()).sum()
    });
    sum / records.len().max(1) as f64
}

/// Hyper-parameters of a training run.
#[derive(Clone, Debug)]
pub struct TrainConfig {
    pub threads: usize,
    pub batch: usize,
    pub lambda: f32,
    pub k: f32,
    pub beta1: f32,
    pub beta2: f32,
    pub eps: f32,
    pub weight_decay: f32,
    /// Takes gradients at the quantised weights (quantisation-aware training).
    pub quantised_forward: bool,
}

impl Default for TrainConfig {
    fn default() -> Self {
        TrainConfig {
            threads: 1,
            batch: 16384,
            lambda: 0.7,
            k: 400.0,
            beta1: 0.9,
            beta2: 0.999,
            eps: 1e-8,
            weight_decay: 0.01,
            quantised_forward: false,
        }
    }
}

/// A net with its AdamW state and per-thread gradient buffers.
pub struct Trainer {
    pub net: Net,
    m: Vec<f32>,
    v: Vec<f32>,
    pub step: u64,
    scratch: Vec<Scratch>,
}

impl Trainer {
    pub fn new(net: Net, threads: usize) -> Trainer {
        let len = net.p.len();
        Trainer {
            scratch: (0..threads.max(1))
                .map(|_| Scratch::new(net.n, net.b))
                .collect(),
            net,
            m: vec![0.0; len],
            v: vec![0.0; len],
            step: 0,
        }
    }

    /// One AdamW step on the mini-batch `batch` (indices into `data`) at learning rate `lr`;
    /// returns the batch's summed squared error.
    pub fn step(&mut self, data: &[Record], batch: &[u32], lr: f32, cfg: &TrainConfig) -> f64 {
        let threads = self.scratch.len();
        let chunk = batch.len().div_ceil(threads).max(1);
        let scale = 1.0 / batch.len() as f32;
        // Quantisation-aware steps: the gradient is taken at the quantised weights (the
        // dequantised model the file gives) and applied to the float ones
        // (straight-through).
        let snapped;
        let net = if cfg.quantised_forward {
            snapped = self.net.dequantised();
            &snapped
        } else {
            &self.net
        };
        let loss: f64 = std::thread::scope(|sc| {
            let hs: Vec<_> = self
                .scratch
                .iter_mut()
                .zip(batch.chunks(chunk))
                .map(|(s, idx)| {
                    sc.spawn(move || {
                        s.grad.iter_mut().for_each(|g| *g = 0.0);
                        let recs = idx.iter().map(|&i| &data[i as usize]);
                        accumulate(net, recs, cfg.lambda, cfg.k, scale, s)
                    })
                })
                .collect();
            hs.into_iter().map(|h| h.join().unwrap()).sum()
        });
        let used = batch.len().div_ceil(chunk);
        let (first, rest) = self.scratch.split_at_mut(1);
        for s in &rest[..used - 1] {
            for (a, b) in first[0].grad.iter_mut().zip(&s.grad) {
                *a += b;
            }
        }
        self.step += 1;
        let t = self.step as i32;
        let c1 = 1.0 - cfg.beta1.powi(t);
        let c2 = 1.0 - cfg.beta2.powi(t);
        let g = &first[0].grad;
        for (((p, g), m), v) in self
            .net
            .p
            .iter_mut()
            .zip(g)
            .zip(&mut self.m)
            .zip(&mut self.v)
        {
            *m = cfg.beta1 * *m + (1.0 - cfg.beta1) * g;
            *v = cfg.beta2 * *v + (1.0 - cfg.beta2) * g * g;
            *p -= lr * ((*m / c1) / ((*v / c2).sqrt() + cfg.eps) + cfg.weight_decay * *p);
        }
        self.net.clip();
        loss
    }

    /// One pass over `data` in the order `order`, the learning rate of step `s` being
    /// `lr(s)`; returns the mean squared error seen.
    pub fn epoch(
        &mut self,
        data: &[Record],
        order: &[u32],
        cfg: &TrainConfig,
        lr: impl Fn(u64) -> f32,
    ) -> f64 {
        let mut loss = 0.0;
        for batch in order.chunks(cfg.batch) {
            let rate = lr(self.step);
            loss += self.step(data, batch, rate, cfg);
        }
        loss / order.len().max(1) as f64
    }
}

/// The gradient of the mean squared error over `records` (single thread, for tests).
pub fn gradient(net: &Net, records: &[Record], lambda: f32, k: f32) -> Vec<f32> {
    let mut s = Scratch::new(net.n, net.b);
    accumulate(
        net,
        records.iter(),
        lambda,
        k,
        1.0 / records.len() as f32,
        &mut s,
    );
    s.grad
}

/// A seeded xorshift generator.
pub struct Rng(u64);
impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    /// Uniform in [-1, 1).
    pub fn uniform(&mut self) -> f32 {
        (self.next() >> 40) as f32 / (1u64 << 23) as f32 - 1.0
    }
    pub fn shuffle(&mut self, v: &mut [u32]) {
        for i in (1..v.len()).rev() {
            let j = (self.next() % (i as u64 + 1)) as usize;
            v.swap(i, j);
        }
    }
}

/// The quantised network of docs/nnue.md.
#[derive(Clone, Debug, PartialEq)]
pub struct QNet {
    pub n: usize,
    /// Output buckets.
    pub b: usize,
    pub w: Vec<i16>,
    pub bias: Vec<i16>,
    /// `b` x 2 N.
    pub out: Vec<i16>,
    /// `b` of them.
    pub out_bias: Vec<i32>,
}

fn q16(x: f32, s: i64) -> i16 {
    let q = (x as f64 * s as f64).round();
    assert!(
        (i16::MIN as f64..=i16::MAX as f64).contains(&q),
        "weight {x} leaves i16"
    );
    q as i16
}

/// Quantises `net` as docs/nnue.md says: feature weights and biases `round(x * QA)`, output
/// weights `round(x * QB)`, output biases `round(b * QA * QB)`.
pub fn quantise(net: &Net) -> QNet {
    let (b, o, ob) = (net.b_off(), net.o_off(), net.ob_off());
    QNet {
        n: net.n,
        b: net.b,
        w: net.p[..b].iter().map(|&x| q16(x, QA)).collect(),
        bias: net.p[b..o].iter().map(|&x| q16(x, QA)).collect(),
        out: net.p[o..ob].iter().map(|&x| q16(x, QB)).collect(),
        out_bias: net.p[ob..]
            .iter()
            .map(|&x| (x as f64 * (QA * QB) as f64).round() as i32)
            .collect(),
    }
}

/// FNV-1a, 32 bits.
pub fn fnv1a32(bytes: &[u8]) -> u32 {
    let mut h = 0x811c_9dc5u32;
    for &b in bytes {
        h ^= b as u32;
        h = h.wrapping_mul(0x0100_0193);
    }
    h
}

/// The `.nnue` file of `q`: version 1 with one output bucket, else version 2 (the bucket
/// count after the header's activation, the biases after the output weights).
pub fn to_bytes(q: &QNet) -> Vec<u8> {
    let mut v = Vec::with_capacity(20 + 2 * (INPUTS * q.n + q.n + 2 * q.n * q.b) + 4 * q.b + 4);
    v.extend_from_slice(b"CCNN");
    if q.b == 1 {
        for x in [1u32, q.n as u32, 1] {
            v.extend_from_slice(&x.to_le_bytes());
        }
    } else {
        for x in [2u32, q.n as u32, 1, q.b as u32] {
            v.extend_from_slice(&x.to_le_bytes());
        }
    }
    for x in q.w.iter().chain(&q.bias).chain(&q.out) {
        v.extend_from_slice(&x.to_le_bytes());
    }
    for x in &q.out_bias {
        v.extend_from_slice(&x.to_le_bytes());
    }
    let h = fnv1a32(&v);
    v.extend_from_slice(&h.to_le_bytes());
    v
}

/// Reads a `.nnue` file (version 1 or 2) with the loader's checks of docs/nnue.md.
pub fn from_bytes(b: &[u8]) -> Result<QNet, String> {
    if b.len() < 24 {
        return Err("file too short".into());
    }
    let u32_at = |o: usize| u32::from_le_bytes(b[o..o + 4].try_into().unwrap());
    if &b[0..4] != b"CCNN" {
        return Err("bad magic".into());
    }
    let version = u32_at(4);
    if version != 1 && version != 2 {
        return Err("bad version".into());
    }
    let n = u32_at(8) as usize;
    if n % 16 != 0 || !(16..=1024).contains(&n) {
        return Err(format!("bad hidden size {n}"));
    }
    if u32_at(12) != 1 {
        return Err("bad activation".into());
    }
    let (header, buckets) = if version == 1 {
        (16, 1)
    } else {
        (20, u32_at(16) as usize)
    };
    if !(1..=16).contains(&buckets) {
        return Err(format!("bad bucket count {buckets}"));
    }
    let want = header + 2 * (INPUTS * n + n + 2 * n * buckets) + 4 * buckets + 4;
    if b.len() != want {
        return Err(format!("size {} is not {want}", b.len()));
    }
    if fnv1a32(&b[..want - 4]) != u32_at(want - 4) {
        return Err("bad checksum".into());
    }
    let biases_at = want - 4 - 4 * buckets;
    let i16s: Vec<i16> = b[header..biases_at]
        .chunks_exact(2)
        .map(|c| i16::from_le_bytes([c[0], c[1]]))
        .collect();
    let q = QNet {
        n,
        b: buckets,
        w: i16s[..INPUTS * n].to_vec(),
        bias: i16s[INPUTS * n..INPUTS * n + n].to_vec(),
        out: i16s[INPUTS * n + n..].to_vec(),
        out_bias: (0..buckets)
            .map(|k| u32_at(biases_at + 4 * k) as i32)
            .collect(),
    };
    if q.out.iter().any(|&x| !(-127..=127).contains(&x)) {
        return Err("output weight outside -127..=127".into());
    }
    for i in 0..n {
        let mut col: Vec<i64> = (0..INPUTS).map(|f| (q.w[f * n + i] as i64).abs()).collect();
        col.sort_unstable_by(|a, b| b.cmp(a));
        let worst = (q.bias[i] as i64).abs() + col[..32].iter().sum::<i64>();
        if worst > i16::MAX as i64 {
            return Err(format!("accumulator {i} can reach {worst}"));
        }
    }
    Ok(q)
}

/// docs/nnue.md's integer output for record `r` (side to move's view), in i64.
pub fn eval_int(q: &QNet, r: &Record) -> i64 {
    let (mut us, mut them) = ([0u16; 32], [0u16; 32]);
    let k = features(r, &mut us, &mut them);
    let n = q.n;
    let bucket = output_bucket(k, q.b);
    let out = &q.out[2 * n * bucket..2 * n * (bucket + 1)];
    let mut sum = 0i64;
    for (side, feats) in [us, them].iter().enumerate() {
        for i in 0..n {
            let mut acc = q.bias[i] as i64;
            for &f in &feats[..k] {
                acc += q.w[f as usize * n + i] as i64;
            }
            let v = acc.clamp(0, QA);
            sum += v * v * out[side * n + i] as i64;
        }
    }
    (sum / QA + q.out_bias[bucket] as i64) * SCALE as i64 / (QA * QB)
}

/// The float checkpoint (`CCNF`, version 1, hidden size, then the flat parameters as `f32`,
/// all little-endian; with more than one output bucket version 2, the bucket count after the
/// hidden size).
pub fn checkpoint_bytes(net: &Net) -> Vec<u8> {
    let mut v = Vec::with_capacity(16 + 4 * net.p.len());
    v.extend_from_slice(b"CCNF");
    let version = if net.b == 1 { 1u32 } else { 2 };
    v.extend_from_slice(&version.to_le_bytes());
    v.extend_from_slice(&(net.n as u32).to_le_bytes());
    if net.b > 1 {
        v.extend_from_slice(&(net.b as u32).to_le_bytes());
    }
    for x in &net.p {
        v.extend_from_slice(&x.to_le_bytes());
    }
    v
}

/// Reads a float checkpoint.
pub fn from_checkpoint(b: &[u8]) -> Result<Net, String> {
    let word = |i: usize| u32::from_le_bytes(b[4 * i..4 * i + 4].try_into().unwrap());
    if b.len() < 12 || &b[0..4] != b"CCNF" || !(1..=2).contains(&word(1)) {
        return Err("not a CCNF version 1 or 2 checkpoint".into());
    }
    let n = word(2) as usize;
    let (header, buckets) = if word(1) == 1 {
        (12, 1)
    } else if b.len() >= 16 && (2..=16).contains(&word(3)) {
        (16, word(3) as usize)
    } else {
        return Err("bad bucket count in the checkpoint".into());
    };
    if b.len() != header + 4 * Net::len(n, buckets) {
        return Err("checkpoint size does not match its hidden size".into());
    }
    let p = b[header..]
        .chunks_exact(4)
        .map(|c| f32::from_le_bytes(c.try_into().unwrap()))
        .collect();
    Ok(Net { n, b: buckets, p })
}

/// CPU seconds this process has used (user + system, all threads), from /proc (Linux; `None`
/// elsewhere).
pub fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    let rest = &stat[stat.rfind(')')? + 2..];
    let f: Vec<&str> = rest.split_whitespace().collect();
    // utime and stime, fields 14 and 15 of proc(5), in ticks of 1/100 s.
    let ticks = f.get(11)?.parse::<f64>().ok()? + f.get(12)?.parse::<f64>().ok()?;
    Some(ticks / 100.0)
}
