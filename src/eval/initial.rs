//! Hand-set starting weights: round numbers and simple formulas (centralisation, pawn
//! advance, king shelter), written for this project. They are where the Texel tuner starts,
//! and what the engine uses before tuned weights exist.

use super::features::*;
use super::score::S;

const fn center_distance(sq: usize) -> i32 {
    let f = (sq % 8) as i32;
    let r = (sq / 8) as i32;
    let df = if f < 4 { 3 - f } else { f - 4 };
    let dr = if r < 4 { 3 - r } else { r - 4 };
    df + dr
}

/// The starting weights.
pub const fn initial() -> [S; NUM_FEATURES] {
    let mut w = [S::ZERO; NUM_FEATURES];
    let values = [(100, 120), (320, 300), (330, 320), (480, 520), (950, 950)];
    let mut i = 0;
    while i < 5 {
        w[PIECE_VALUE + i] = S::new(values[i].0, values[i].1);
        i += 1;
    }
    let mut sq = 0;
    while sq < 64 {
        let c = center_distance(sq);
        let rank = (sq / 8) as i32;
        // Pawns: advance, more so in the endgame; centre pawns a little in the middlegame.
        if rank > 0 && rank < 7 {
            let central = if c <= 2 { 8 } else { 0 };
            w[PST + sq] = S::new(3 * (rank - 1) + central, 8 * (rank - 1));
        }
        // Knights and bishops: centralisation.
        w[PST + 64 + sq] = S::new(24 - 8 * c, 18 - 6 * c);
        w[PST + 128 + sq] = S::new(12 - 4 * c, 12 - 4 * c);
        // Rooks: the seventh rank.
        w[PST + 192 + sq] = S::new(
            if rank == 6 { 15 } else { 0 },
            if rank == 6 { 10 } else { 0 },
        );
        // Queen: mild centralisation.
        w[PST + 256 + sq] = S::new(6 - 2 * c, 12 - 4 * c);
        // King: home corner in the middlegame, centre in the endgame.
        let home = if rank == 0 { 10 } else { -15 * rank };
        w[PST + 320 + sq] = S::new(home, 30 - 10 * c);
        sq += 1;
    }
    let mut k = 0;
    while k < 28 {
        let m = k as i32;
        if k < 9 {
            w[MOBILITY_KNIGHT + k] = S::new(6 * (m - 4), 6 * (m - 4));
        }
        if k < 14 {
            w[MOBILITY_BISHOP + k] = S::new(5 * (m - 6), 5 * (m - 6));
        }
        if k < 15 {
            w[MOBILITY_ROOK + k] = S::new(2 * (m - 7), 5 * (m - 7));
        }
        w[MOBILITY_QUEEN + k] = S::new(m - 13, 2 * (m - 13));
        k += 1;
    }
    let passed = [0, 5, 10, 20, 40, 70, 110, 0];
    let mut r = 0;
    while r < 8 {
        w[PASSED + r] = S::new(passed[r] / 2, passed[r]);
        w[PASSED_OWN_KING + r] = S::new(0, -(passed[r] / 10));
        w[PASSED_THEIR_KING + r] = S::new(0, passed[r] / 5);
        w[PASSED_BLOCKED + r] = S::new(-(passed[r] / 8), -(passed[r] / 4));
        w[CONNECTED + r] = S::new(4 + 2 * r as i32, 4 + 3 * r as i32);
        r += 1;
    }
    w[ISOLATED] = S::new(-10, -15);
    w[DOUBLED] = S::new(-10, -20);
    w[BACKWARD] = S::new(-8, -8);
    w[BISHOP_PAIR] = S::new(30, 50);
    w[ROOK_OPEN] = S::new(25, 10);
    w[ROOK_SEMI_OPEN] = S::new(12, 6);
    w[KING_SHIELD] = S::new(12, 0);
    w[KING_SHIELD + 1] = S::new(6, 0);
    let mut u = 0;
    while u < KING_ATTACK_SIZE {
        let v = (u * u) as i32;
        w[KING_ATTACK + u] = S::new(-v, -v / 8);
        u += 1;
    }
    w[THREAT_BY_PAWN] = S::new(50, 40);
    w[THREAT_BY_MINOR] = S::new(30, 30);
    w[THREAT_BY_ROOK] = S::new(30, 30);
    w[HANGING] = S::new(20, 15);
    w[TEMPO] = S::new(15, 5);
    w
}
