//! The learned evaluation's inference (issue 29; the formats are docs/nnue.md's, the
//! design is its "Inference" section).
//!
//! - `network.rs`: the file, its checks ([`Network::from_bytes`], [`NetError`]) and the
//!   weights; a full-refresh evaluation ([`Network::evaluate`]).
//! - `accumulator.rs`: the search's per-ply accumulators, updated lazily from each move's
//!   feature changes.
//! - `cached.rs`: an accumulator that follows one position to the next by the difference of
//!   their pieces, for callers without a make/unmake stack (the Dice Chess evaluation).
//! - `simd.rs`: the vector loops (AVX2 detected at run time, NEON, wasm simd128, scalar),
//!   each giving exactly the scalar integer.
//!
//! The network is read-only once loaded and is shared across search threads behind an `Arc`
//! (`Engine::set_network`).

pub(crate) mod accumulator;
mod cached;
mod network;
pub(crate) mod simd;

pub use cached::CachedAccumulator;
pub use network::{
    feature_index, file_size, file_size_buckets, fnv1a32, output_bucket, NetError, Network,
    ACTIVATION_SCRELU, MAGIC, MAX_BUCKETS, MAX_OUTPUT_WEIGHT, VERSION, VERSION_BUCKETS,
};

/// Input features: 2 colours x 6 kinds x 64 squares.
pub const FEATURES: usize = 768;
/// The largest hidden size a file may have.
pub const MAX_HIDDEN: usize = 1024;
/// The accumulator's quantisation (feature weights and biases are `round(x * QA)`).
pub const QA: i32 = 255;
/// The output weights' quantisation.
pub const QB: i32 = 64;
/// Centipawns per unit of the float model's output.
pub const SCALE: i32 = 400;

/// Random networks for the unit tests, written in the file format and loaded through the
/// loader (deterministic: a seeded generator).
#[cfg(test)]
pub(crate) mod testnet {
    use super::*;

    /// SplitMix64.
    pub(crate) struct Rng(u64);

    impl Rng {
        pub(crate) fn new(seed: u64) -> Rng {
            Rng(seed)
        }
        pub(crate) fn next(&mut self) -> u64 {
            self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut z = self.0;
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^ (z >> 31)
        }
        /// Uniform in `0..n`.
        pub(crate) fn below(&mut self, n: u64) -> u64 {
            self.next() % n
        }
        /// Uniform in `lo..=hi`.
        pub(crate) fn range(&mut self, lo: i64, hi: i64) -> i64 {
            lo + self.below((hi - lo + 1) as u64) as i64
        }
    }

    /// The bytes of a random net: feature weights in `-fw..=fw`, biases in `-fw..=fw`,
    /// output weights in `-ow..=ow` (`33 * fw` must fit `i16`).
    pub(crate) fn random_net_bytes(seed: u64, n: usize, fw: i64, ow: i64) -> Vec<u8> {
        let mut rng = Rng::new(seed);
        let mut b = Vec::new();
        b.extend_from_slice(&MAGIC);
        for v in [VERSION, n as u32, ACTIVATION_SCRELU] {
            b.extend_from_slice(&v.to_le_bytes());
        }
        for _ in 0..(FEATURES * n + n) {
            b.extend_from_slice(&(rng.range(-fw, fw) as i16).to_le_bytes());
        }
        for _ in 0..2 * n {
            b.extend_from_slice(&(rng.range(-ow, ow) as i16).to_le_bytes());
        }
        b.extend_from_slice(&(rng.range(-50_000, 50_000) as i32).to_le_bytes());
        let sum = fnv1a32(&b);
        b.extend_from_slice(&sum.to_le_bytes());
        b
    }

    pub(crate) fn random_net(seed: u64, n: usize, fw: i64, ow: i64) -> Network {
        Network::from_bytes(&random_net_bytes(seed, n, fw, ow)).unwrap()
    }
}
