//! Random networks written in docs/nnue.md's file format, and a slow reference evaluation
//! written from that page alone (plain `i64`, from the FEN's text), for the network's tests.
#![allow(dead_code)]

/// SplitMix64.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    /// Uniform in `lo..=hi`.
    pub fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + (self.next() % (hi - lo + 1) as u64) as i64
    }
}

/// A network's parameters, as the file holds them.
#[derive(Clone)]
pub struct Params {
    pub n: usize,
    /// `w[f * n + i]`.
    pub w: Vec<i16>,
    pub bias: Vec<i16>,
    /// `buckets` x 2 n.
    pub out: Vec<i16>,
    /// One per bucket (one bucket: a version 1 file).
    pub out_bias: Vec<i32>,
}

impl Params {
    /// Random parameters: feature weights and biases in `-fw..=fw`, output weights in
    /// `-ow..=ow`, output bias in `-50000..=50000`.
    pub fn random(seed: u64, n: usize, fw: i64, ow: i64) -> Params {
        Params::random_buckets(seed, n, 1, fw, ow)
    }

    /// The same with `buckets` output layers.
    pub fn random_buckets(seed: u64, n: usize, buckets: usize, fw: i64, ow: i64) -> Params {
        let mut rng = Rng(seed);
        let mut r = |lo: i64, hi: i64| rng.range(lo, hi);
        Params {
            n,
            w: (0..768 * n).map(|_| r(-fw, fw) as i16).collect(),
            bias: (0..n).map(|_| r(-fw, fw) as i16).collect(),
            out: (0..2 * n * buckets).map(|_| r(-ow, ow) as i16).collect(),
            out_bias: (0..buckets).map(|_| r(-50_000, 50_000) as i32).collect(),
        }
    }

    /// The number of output buckets.
    pub fn buckets(&self) -> usize {
        self.out_bias.len()
    }

    /// The file's bytes (header, weights, FNV-1a 32 checksum): version 1 with one bucket,
    /// version 2 (the bucket count ends the header) with more.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut b = Vec::new();
        b.extend_from_slice(b"CCNN");
        let header: &[u32] = if self.buckets() == 1 {
            &[1, self.n as u32, 1]
        } else {
            &[2, self.n as u32, 1, self.buckets() as u32]
        };
        for v in header {
            b.extend_from_slice(&v.to_le_bytes());
        }
        for v in self.w.iter().chain(&self.bias).chain(&self.out) {
            b.extend_from_slice(&v.to_le_bytes());
        }
        for v in &self.out_bias {
            b.extend_from_slice(&v.to_le_bytes());
        }
        let sum = fnv1a(&b);
        b.extend_from_slice(&sum.to_le_bytes());
        b
    }

    /// The parameters of a version 1 file (`to_bytes`'s layout, read back; the checksum and
    /// sizes are the library loader's business and are only asserted here).
    pub fn from_bytes(b: &[u8]) -> Params {
        assert_eq!(&b[0..4], b"CCNN");
        let word = |i: usize| u32::from_le_bytes(b[4 + 4 * i..8 + 4 * i].try_into().unwrap());
        assert_eq!((word(0), word(2)), (1, 1), "version 1, one output");
        let n = word(1) as usize;
        let mut at = 16;
        let mut take = |count: usize| -> Vec<i16> {
            let v = b[at..at + 2 * count]
                .chunks_exact(2)
                .map(|c| i16::from_le_bytes([c[0], c[1]]))
                .collect();
            at += 2 * count;
            v
        };
        let (w, bias, out) = (take(768 * n), take(n), take(2 * n));
        let at = 16 + 2 * (768 * n + 3 * n);
        let out_bias = i32::from_le_bytes(b[at..at + 4].try_into().unwrap());
        assert_eq!(b.len(), at + 8, "the checksum ends the file");
        Params {
            n,
            w,
            bias,
            out,
            out_bias: vec![out_bias],
        }
    }

    /// The evaluation of `fen` (side to move's view), docs/nnue.md's formula in `i64`.
    pub fn reference_eval(&self, fen: &str) -> i64 {
        let mut fields = fen.split_whitespace();
        let board = fields.next().unwrap();
        let white_to_move = fields.next().unwrap() == "w";
        // (colour 0 White / 1 Black, kind 0..5, square a1 = 0).
        let mut pieces = Vec::new();
        for (r, row) in board.split('/').enumerate() {
            let rank = 7 - r;
            let mut file = 0;
            for ch in row.chars() {
                if let Some(d) = ch.to_digit(10) {
                    file += d as usize;
                    continue;
                }
                let kind = "pnbrqk".find(ch.to_ascii_lowercase()).unwrap();
                let colour = if ch.is_ascii_uppercase() { 0 } else { 1 };
                pieces.push((colour, kind, 8 * rank + file));
                file += 1;
            }
        }
        let n = self.n;
        let acc = |p: usize| -> Vec<i64> {
            let mut a: Vec<i64> = self.bias.iter().map(|&b| b as i64).collect();
            for &(c, k, s) in &pieces {
                let f = 384 * usize::from(c != p) + 64 * k + if p == 0 { s } else { s ^ 56 };
                for (i, ai) in a.iter_mut().enumerate() {
                    *ai += self.w[f * n + i] as i64;
                }
            }
            a
        };
        let (us, them) = if white_to_move { (0, 1) } else { (1, 0) };
        // The output layer: with B buckets, number (pieces - 2) * B / 31 (docs/nnue.md).
        let k = (pieces.len().clamp(2, 32) - 2) * self.buckets() / 31;
        let out = &self.out[2 * n * k..2 * n * (k + 1)];
        let screlu = |x: i64| {
            let v = x.clamp(0, 255);
            v * v
        };
        let mut sum = 0i64;
        for (i, a) in acc(us).into_iter().enumerate() {
            sum += screlu(a) * out[i] as i64;
        }
        for (i, a) in acc(them).into_iter().enumerate() {
            sum += screlu(a) * out[n + i] as i64;
        }
        (sum / 255 + self.out_bias[k] as i64) * 400 / (255 * 64)
    }
}

/// FNV-1a 32.
pub fn fnv1a(bytes: &[u8]) -> u32 {
    let mut h: u32 = 2_166_136_261;
    for &b in bytes {
        h = (h ^ b as u32).wrapping_mul(16_777_619);
    }
    h
}

/// A net whose every evaluation is `cp` (all weights zero, only the output bias).
pub fn constant(n: usize, cp: i64) -> Params {
    // (0 / QA + b) * 400 / 16320 == cp for b = ceil(cp * 16320 / 400) when cp >= 0.
    let b = (cp * 16320 + 399) / 400;
    Params {
        n,
        w: vec![0; 768 * n],
        bias: vec![0; n],
        out: vec![0; 2 * n],
        out_bias: vec![b as i32],
    }
}
