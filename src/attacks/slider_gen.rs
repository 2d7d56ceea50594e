//! Slider attack generation shared by `build.rs` (which builds the PEXT and magic tables into
//! `OUT_DIR`) and the crate (which builds line tables at compile time and tests the fast back
//! ends against this slow reference). Plain `u64` squares and bitboards, no crate types, so
//! that the build script can include this file with `#[path]`.

/// Rook directions as (file step, rank step).
pub const ROOK_DIRS: [(i8, i8); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
/// Bishop directions as (file step, rank step).
pub const BISHOP_DIRS: [(i8, i8); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

/// Squares attacked from `sq` along `dirs`, each ray stopping at (and including) the first
/// occupied square. Slow and obviously correct: the reference for every fast back end.
pub const fn slide(sq: u8, occ: u64, dirs: &[(i8, i8); 4]) -> u64 {
    walk(sq, occ, dirs, false)
}

/// The relevant-occupancy mask of `sq`: the empty-board rays without their last square
/// (an edge square never blocks anything behind it).
pub const fn relevant_mask(sq: u8, dirs: &[(i8, i8); 4]) -> u64 {
    walk(sq, 0, dirs, true)
}

/// True when file `f` and rank `r` are on the board.
const fn on_board(f: i8, r: i8) -> bool {
    f >= 0 && f < 8 && r >= 0 && r < 8
}

/// The rays from `sq` along `dirs`, each stopping at (and including) the first square of
/// `occ`, and without its last square on the board when `trim_edge`.
const fn walk(sq: u8, occ: u64, dirs: &[(i8, i8); 4], trim_edge: bool) -> u64 {
    let mut out = 0u64;
    let mut d = 0;
    while d < 4 {
        let (df, dr) = dirs[d];
        let mut f = (sq & 7) as i8 + df;
        let mut r = (sq >> 3) as i8 + dr;
        while on_board(f, r) && (!trim_edge || on_board(f + df, r + dr)) {
            let bit = 1u64 << (r * 8 + f);
            out |= bit;
            if occ & bit != 0 {
                break;
            }
            f += df;
            r += dr;
        }
        d += 1;
    }
    out
}

/// Software parallel bit deposit: spreads the low bits of `src` over the set bits of `mask`.
pub const fn pdep(mut src: u64, mut mask: u64) -> u64 {
    let mut out = 0u64;
    while mask != 0 {
        let low = mask & mask.wrapping_neg();
        if src & 1 != 0 {
            out |= low;
        }
        src >>= 1;
        mask &= mask - 1;
    }
    out
}

/// Software parallel bit extract: gathers the bits of `src` under `mask` into the low bits.
pub const fn pext(src: u64, mut mask: u64) -> u64 {
    let mut out = 0u64;
    let mut bit = 0;
    while mask != 0 {
        let low = mask & mask.wrapping_neg();
        if src & low != 0 {
            out |= 1 << bit;
        }
        bit += 1;
        mask &= mask - 1;
    }
    out
}
