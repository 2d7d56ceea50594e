//! Zobrist keys, generated at compile time from fixed seeds (SplitMix64), so every hash is the
//! same on every run and machine.
//!
//! * position hash: piece on square, side to move (XORed in when Black is to move), castling
//!   rights (one key per right, combined by XOR), en passant file (only when the side to move has
//!   a legal en passant capture, so that positions equal for play hash equal);
//! * pawn hash: the piece-square keys of pawns only;
//! * material hash: `material[piece][n]` for the n-th piece of that kind (n counted from 0),
//!   so the key depends on piece counts only.

/// A complete key set.
pub struct Keys {
    /// `psq[piece][square]`, piece = `color << 3 | type`.
    pub psq: [[u64; 64]; 16],
    /// Keys for each combination of the 4 castling bits (XOR of the single-right keys).
    pub castling: [u64; 16],
    /// En passant file a..h.
    pub ep_file: [u64; 8],
    /// XORed in when Black is to move.
    pub side: u64,
    /// `material[piece][n]`: the n-th piece (from 0) of that kind on the board.
    pub material: [[u64; 16]; 16],
}

const fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

const fn build(seed: u64) -> Keys {
    let mut s = seed;
    let mut k = Keys {
        psq: [[0; 64]; 16],
        castling: [0; 16],
        ep_file: [0; 8],
        side: 0,
        material: [[0; 16]; 16],
    };
    let mut p = 0;
    while p < 16 {
        let mut sq = 0;
        while sq < 64 {
            k.psq[p][sq] = splitmix(&mut s);
            sq += 1;
        }
        let mut n = 0;
        while n < 16 {
            k.material[p][n] = splitmix(&mut s);
            n += 1;
        }
        p += 1;
    }
    let single = [
        splitmix(&mut s),
        splitmix(&mut s),
        splitmix(&mut s),
        splitmix(&mut s),
    ];
    let mut r = 0;
    while r < 16 {
        let mut i = 0;
        while i < 4 {
            if r & (1 << i) != 0 {
                k.castling[r] ^= single[i];
            }
            i += 1;
        }
        r += 1;
    }
    let mut f = 0;
    while f < 8 {
        k.ep_file[f] = splitmix(&mut s);
        f += 1;
    }
    k.side = splitmix(&mut s);
    k
}

/// The keys of the position, pawn and material hashes.
pub static KEYS: Keys = build(0x0C0F_FEE0_C4E5_5001);

/// A second, independent key set. Debug builds keep a second 64-bit position hash with it and
/// assert after every make/unmake that both agree with a recomputation.
#[cfg(debug_assertions)]
pub static KEYS2: Keys = build(0x5EED_0FD1_CEC4_E5A7);
