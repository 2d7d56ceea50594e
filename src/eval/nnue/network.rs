//! The network file (docs/nnue.md, "The network"): reading, checking, holding the weights.
//!
//! [`Network::from_bytes`] reads a version 1 or 2 `.nnue` file and refuses, with a [`NetError`]
//! naming the reason, every file the format page says a loader must refuse. The weights are
//! allocated once, here, on the heap; inference reads them and never allocates.

use super::{FEATURES, MAX_HIDDEN, QA, QB, SCALE};
use crate::position::Position;
use crate::types::{Color, Piece, PieceType, Square};
use std::sync::{Arc, OnceLock};

/// The file's first four bytes.
pub const MAGIC: [u8; 4] = *b"CCNN";
/// The first file version: one output (no output buckets).
pub const VERSION: u32 = 1;
/// The second file version: the output layer in buckets chosen by the number of pieces
/// ([`output_bucket`]); a version 1 file is a version 2 one with one bucket.
pub const VERSION_BUCKETS: u32 = 2;
/// The most output buckets a version 2 file may have.
pub const MAX_BUCKETS: usize = 16;
/// The only activation: the squared clipped ReLU.
pub const ACTIVATION_SCRELU: u32 = 1;
/// The header: magic, version, hidden size, activation (version 2: and the bucket count).
const HEADER: usize = 16;
/// Version 2's header.
const HEADER_BUCKETS: usize = 20;
/// The most pieces a position holds (the accumulator bound's term count).
const MAX_PIECES: usize = 32;
/// The largest absolute output weight (`v * w` then fits `i16`).
pub const MAX_OUTPUT_WEIGHT: i16 = 127;

/// Why a network file was refused.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum NetError {
    /// The file could not be read (`Network::from_file`).
    Io(std::io::ErrorKind),
    /// The file's size is not the one its header implies (`expected` 16 or more for a file
    /// shorter than the header).
    Size {
        /// The size the header implies (or the header's size).
        expected: usize,
        /// The file's size.
        got: usize,
    },
    /// The first four bytes are not `CCNN`.
    Magic,
    /// A version other than 1 and 2.
    Version(u32),
    /// A version 2 file's bucket count outside 1..=16.
    Buckets(u32),
    /// A hidden size that is not a multiple of 16 in 16..=1024.
    HiddenSize(u32),
    /// An activation other than 1 (SCReLU).
    Activation(u32),
    /// The stored FNV-1a checksum differs from the bytes'.
    Checksum {
        /// The stored value.
        stored: u32,
        /// The value of the bytes before it.
        computed: u32,
    },
    /// An output weight outside `-127..=127`.
    OutputWeight {
        /// Its index in the output weights (0..2N, or 0..2NB with B buckets).
        index: usize,
        /// Its value.
        value: i16,
    },
    /// `<embedded>` was asked for and no network is embedded in this build.
    NoEmbeddedNet,
    /// A hidden neuron whose worst-case accumulator leaves `i16`.
    AccumulatorOverflow {
        /// The neuron.
        neuron: usize,
        /// `|bias| + the 32 largest |W[f][neuron]|`.
        bound: i64,
    },
}

impl core::fmt::Display for NetError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match *self {
            NetError::Io(kind) => write!(f, "cannot read the file: {kind}"),
            NetError::Size { expected, got } => {
                write!(f, "wrong size: {got} bytes, expected {expected}")
            }
            NetError::Magic => f.write_str("wrong magic: not a chesscore network (CCNN)"),
            NetError::Version(v) => write!(
                f,
                "unsupported version {v} (expected {VERSION} or {VERSION_BUCKETS})"
            ),
            NetError::Buckets(b) => {
                write!(f, "bad output bucket count {b} (1 to {MAX_BUCKETS})")
            }
            NetError::HiddenSize(n) => write!(
                f,
                "bad hidden size {n} (a multiple of 16 from 16 to {MAX_HIDDEN})"
            ),
            NetError::Activation(a) => {
                write!(f, "unknown activation {a} (1 = SCReLU is the only one)")
            }
            NetError::Checksum { stored, computed } => write!(
                f,
                "bad checksum: stored {stored:#010x}, computed {computed:#010x}"
            ),
            NetError::OutputWeight { index, value } => write!(
                f,
                "output weight {index} is {value}, outside -{MAX_OUTPUT_WEIGHT}..={MAX_OUTPUT_WEIGHT}"
            ),
            NetError::NoEmbeddedNet => f.write_str("no network is embedded in this build"),
            NetError::AccumulatorOverflow { neuron, bound } => write!(
                f,
                "accumulator overflow bound: neuron {neuron} can reach {bound}, outside i16"
            ),
        }
    }
}

impl std::error::Error for NetError {}

/// FNV-1a, 32 bits.
pub fn fnv1a32(bytes: &[u8]) -> u32 {
    let mut h: u32 = 0x811c_9dc5;
    for &b in bytes {
        h ^= b as u32;
        h = h.wrapping_mul(0x0100_0193);
    }
    h
}

/// The size of a version 1 file with hidden size `n`.
pub const fn file_size(n: usize) -> usize {
    HEADER + 2 * (FEATURES * n + n + 2 * n) + 4 + 4
}

/// The size of a version 2 file with hidden size `n` and `buckets` output buckets.
pub const fn file_size_buckets(n: usize, buckets: usize) -> usize {
    HEADER_BUCKETS + 2 * (FEATURES * n + n + 2 * n * buckets) + 4 * buckets + 4
}

/// The output bucket of a position with `pieces` pieces on the board (kings included) in a
/// net of `buckets` buckets: `(pieces - 2) * buckets / 31`, with `pieces` taken into 2..=32,
/// so that 2 to 32 pieces fall into `buckets` bands of about equal width (with 8: 2-5
/// pieces bucket 0, 6-9 bucket 1, ..., 26-29 bucket 6, 30-32 bucket 7).
#[inline(always)]
pub const fn output_bucket(pieces: u32, buckets: usize) -> usize {
    let p = if pieces < 2 {
        2
    } else if pieces > 32 {
        32
    } else {
        pieces
    };
    (p as usize - 2) * buckets / 31
}

/// A loaded, checked network: `(768 -> N) x 2 -> 1`, SCReLU, quantised (docs/nnue.md),
/// with one output layer or one per bucket of piece counts ([`output_bucket`]).
/// Read-only once loaded; share it across threads behind an `Arc`.
pub struct Network {
    hidden: usize,
    buckets: usize,
    /// `W[f][0..N]`, feature-major.
    feature_weights: Box<[i16]>,
    bias: Box<[i16]>,
    /// Per bucket: side to move's `N`, then the other side's `N`.
    output_weights: Box<[i16]>,
    /// One per bucket.
    output_bias: Box<[i32]>,
    checksum: u32,
}

impl core::fmt::Debug for Network {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Network")
            .field("hidden", &self.hidden)
            .field("buckets", &self.buckets)
            .field("checksum", &format_args!("{:#010x}", self.checksum))
            .finish()
    }
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}

fn i16s(b: &[u8]) -> Box<[i16]> {
    b.chunks_exact(2)
        .map(|c| i16::from_le_bytes([c[0], c[1]]))
        .collect()
}

/// The embedded network's bytes: round 10's net with 8 output buckets (docs/results/nnue.md;
/// its recipe and training log beside it in nets/), the engine's default evaluation since it
/// won its matches against round 9's (which beat round 8's, which beat round 7's, which beat
/// round 6's, which beat round 4's, which beat round 3's, which beat round 2's, which beat the
/// hand-written one).
const EMBEDDED: Option<&[u8]> = Some(include_bytes!("../../../nets/chesscore-r10-256b8.nnue"));

impl Network {
    /// Reads and checks a version 1 or 2 network file (docs/nnue.md, "File").
    ///
    /// # Errors
    /// [`NetError`] naming the first check that fails: size, magic, version, hidden size,
    /// activation, bucket count, checksum, an output weight's range, the accumulator's
    /// overflow bound.
    pub fn from_bytes(b: &[u8]) -> Result<Network, NetError> {
        if b.len() < HEADER {
            return Err(NetError::Size {
                expected: HEADER,
                got: b.len(),
            });
        }
        if b[0..4] != MAGIC {
            return Err(NetError::Magic);
        }
        let version = u32_at(b, 4);
        if version != VERSION && version != VERSION_BUCKETS {
            return Err(NetError::Version(version));
        }
        let hidden = u32_at(b, 8);
        if hidden % 16 != 0 || !(16..=MAX_HIDDEN as u32).contains(&hidden) {
            return Err(NetError::HiddenSize(hidden));
        }
        let activation = u32_at(b, 12);
        if activation != ACTIVATION_SCRELU {
            return Err(NetError::Activation(activation));
        }
        let n = hidden as usize;
        let (header, buckets) = if version == VERSION {
            (HEADER, 1)
        } else {
            if b.len() < HEADER_BUCKETS {
                return Err(NetError::Size {
                    expected: HEADER_BUCKETS,
                    got: b.len(),
                });
            }
            let buckets = u32_at(b, 16);
            if !(1..=MAX_BUCKETS as u32).contains(&buckets) {
                return Err(NetError::Buckets(buckets));
            }
            (HEADER_BUCKETS, buckets as usize)
        };
        let expected = if version == VERSION {
            file_size(n)
        } else {
            file_size_buckets(n, buckets)
        };
        if b.len() != expected {
            return Err(NetError::Size {
                expected,
                got: b.len(),
            });
        }
        let stored = u32_at(b, expected - 4);
        let computed = fnv1a32(&b[..expected - 4]);
        if stored != computed {
            return Err(NetError::Checksum { stored, computed });
        }
        let mut at = header;
        let mut take = |count: usize| {
            let s = &b[at..at + 2 * count];
            at += 2 * count;
            i16s(s)
        };
        let feature_weights = take(FEATURES * n);
        let bias = take(n);
        let output_weights = take(2 * n * buckets);
        let biases_at = expected - 4 - 4 * buckets;
        let output_bias: Box<[i32]> = (0..buckets)
            .map(|k| u32_at(b, biases_at + 4 * k) as i32)
            .collect();
        if let Some((index, &value)) = output_weights
            .iter()
            .enumerate()
            .find(|(_, w)| w.unsigned_abs() > MAX_OUTPUT_WEIGHT as u16)
        {
            return Err(NetError::OutputWeight { index, value });
        }
        let mut column = vec![0i64; FEATURES];
        for i in 0..n {
            for (f, c) in column.iter_mut().enumerate() {
                *c = (feature_weights[f * n + i] as i64).abs();
            }
            column.select_nth_unstable_by(MAX_PIECES - 1, |a, b| b.cmp(a));
            let bound = (bias[i] as i64).abs() + column[..MAX_PIECES].iter().sum::<i64>();
            if bound > i16::MAX as i64 {
                return Err(NetError::AccumulatorOverflow { neuron: i, bound });
            }
        }
        Ok(Network {
            hidden: n,
            buckets,
            feature_weights,
            bias,
            output_weights,
            output_bias,
            checksum: stored,
        })
    }

    /// Reads a network file from disk and checks it ([`Network::from_bytes`]).
    ///
    /// # Errors
    /// [`NetError::Io`] when the file cannot be read, else as [`Network::from_bytes`].
    pub fn from_file(path: impl AsRef<std::path::Path>) -> Result<Network, NetError> {
        let bytes = std::fs::read(path).map_err(|e| NetError::Io(e.kind()))?;
        Network::from_bytes(&bytes)
    }

    /// The network embedded in the library, loaded once; `None` while none is embedded.
    pub fn embedded() -> Option<Arc<Network>> {
        static NET: OnceLock<Option<Arc<Network>>> = OnceLock::new();
        NET.get_or_init(|| {
            EMBEDDED.map(|b| Arc::new(Network::from_bytes(b).expect("the embedded net loads")))
        })
        .clone()
    }

    /// The hidden size `N`.
    pub fn hidden_size(&self) -> usize {
        self.hidden
    }

    /// The number of output buckets (1 for a version 1 file).
    pub fn buckets(&self) -> usize {
        self.buckets
    }

    /// The file's FNV-1a checksum (identifies the net).
    pub fn checksum(&self) -> u32 {
        self.checksum
    }

    /// Feature `f`'s weights, `N` of them.
    #[inline(always)]
    pub(crate) fn feature(&self, f: usize) -> &[i16] {
        &self.feature_weights[f * self.hidden..(f + 1) * self.hidden]
    }

    /// The output from both accumulators (`us` = the side to move's) of a position with
    /// `pieces` pieces, docs/nnue.md's integer formula on the fastest path this CPU has.
    #[inline]
    pub(crate) fn output(&self, us: &[i16], them: &[i16], pieces: u32) -> i32 {
        let n = self.hidden;
        let k = output_bucket(pieces, self.buckets);
        let w = &self.output_weights[2 * n * k..2 * n * (k + 1)];
        let sum = super::simd::screlu_dot(&us[..n], &w[..n])
            + super::simd::screlu_dot(&them[..n], &w[n..]);
        finish(sum, self.output_bias[k])
    }

    /// Fills both perspectives' accumulators of `pos` from scratch (`acc[c]` for colour `c`,
    /// at least `N` long each).
    pub(crate) fn refresh(&self, pos: &Position, acc: &mut [[i16; MAX_HIDDEN]; 2]) {
        let n = self.hidden;
        for a in acc.iter_mut() {
            a[..n].copy_from_slice(&self.bias);
        }
        for sq in pos.occupied() {
            let pc = pos.piece_on(sq);
            let [fw, fb] = features(pc, sq);
            super::simd::add_assign(&mut acc[0][..n], self.feature(fw));
            super::simd::add_assign(&mut acc[1][..n], self.feature(fb));
        }
    }

    /// The evaluation of `pos` in centipawns, side to move's view, from a full refresh
    /// (no allocation: the accumulators live on the stack).
    pub fn evaluate(&self, pos: &Position) -> i32 {
        let mut acc = [[0i16; MAX_HIDDEN]; 2];
        self.refresh(pos, &mut acc);
        let us = pos.side_to_move().index();
        self.output(&acc[us], &acc[us ^ 1], pos.occupied().count())
    }
}

/// The output formula's last line: `(sum / QA + out_bias) * SCALE / (QA * QB)`, in `i64`,
/// truncating.
#[inline(always)]
pub(crate) fn finish(sum: i64, output_bias: i32) -> i32 {
    ((sum / QA as i64 + output_bias as i64) * SCALE as i64 / (QA as i64 * QB as i64)) as i32
}

/// Feature index (docs/nnue.md) of a piece of colour `c`, kind `k` (0 pawn .. 5 king) on `s`
/// from perspective `p`.
#[inline(always)]
pub const fn feature_index(p: Color, c: Color, k: usize, s: Square) -> usize {
    let own = if c.index() == p.index() { 0 } else { 384 };
    let sq = if p.index() == 0 {
        s.index()
    } else {
        s.index() ^ 56
    };
    own + 64 * k + sq
}

/// Both perspectives' features of `pc` on `sq`: `[White's, Black's]`.
#[inline(always)]
pub(crate) fn features(pc: Piece, sq: Square) -> [usize; 2] {
    let k = pc.kind().index() - PieceType::PAWN.index();
    [
        feature_index(Color::WHITE, pc.color(), k, sq),
        feature_index(Color::BLACK, pc.color(), k, sq),
    ]
}
