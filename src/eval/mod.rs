//! Static evaluation: a hand-written, tapered evaluation whose weights are tuned by the Texel
//! method (`lab/tune.rs`; its hooks are behind the `lab` feature, in `chesscore::lab::eval`).
//!
//! The search sees only [`Evaluator::evaluate`]: centipawns from the side to move's point of
//! view. A trained network can replace or join the hand-written terms behind that one call.
//!
//! Terms (each a weight from `weights::WEIGHTS` times a count, see `features`): material,
//! piece-square tables, mobility (squares not attacked by enemy pawns), passed pawns (by rank,
//! king distances, blocked), isolated, doubled, backward and connected pawns, bishop pair,
//! rooks on open and half-open files, king shelter, a king-attack table over the attack units
//! on the king zone, threats (pawn on piece, minor on major, rook on queen, hanging pieces) and
//! tempo. Middlegame and endgame values are blended by the remaining material (phase 24 = all
//! pieces); the endgame half is scaled down in drawish material (opposite bishops, no pawns
//! and little extra material). Pawn-only terms are cached by pawn hash.

// Crate-visible so that `crate::lab` can re-export them (feature `lab`).
pub(crate) mod features;
#[cfg(feature = "lab")]
pub(crate) mod initial;
pub mod nnue;
pub(crate) mod score;
#[cfg(feature = "lab")]
pub(crate) mod trace;
pub(crate) mod weights;

use crate::attacks;
use crate::bitboard::Bitboard;
use crate::position::Position;
use crate::types::{Color, PieceType, Square};
use features::*;
use score::{MAX_PHASE, S, SCALE_NORMAL};

/// Phase weights of knight, bishop, rook, queen; 24 with all pieces on the board.
const PHASE_WEIGHT: [i32; 7] = [0, 0, 1, 1, 2, 4, 0];
/// King-attack units per attacked king-zone square, by attacker type.
const ATTACK_UNITS: [u32; 7] = [0, 0, 2, 2, 3, 5, 0];

/// Receives each term's count (white's minus black's) as the evaluation adds it: the engine's
/// [`NoTrace`] records nothing, the tuner's `FeatureTrace` (feature `lab`) everything.
pub(crate) trait Trace {
    /// Whether anything is recorded (the evaluation skips the cache when so).
    const ON: bool;
    /// Adds `count` to feature `index`.
    fn add(&mut self, index: usize, count: i32);
}

/// The trace that records nothing (the engine's).
pub(crate) struct NoTrace;

impl Trace for NoTrace {
    const ON: bool = false;
    #[inline(always)]
    fn add(&mut self, _index: usize, _count: i32) {}
}

#[derive(Copy, Clone, Default)]
struct PawnEntry {
    key: u64,
    score: S,
    passed: [u64; 2],
}

const PAWN_TABLE_SIZE: usize = 1 << 14;

/// Evaluates positions; owns a pawn-structure cache (one per search thread).
pub struct Evaluator {
    pawns: Box<[PawnEntry]>,
}

impl Default for Evaluator {
    fn default() -> Self {
        Self::new()
    }
}

impl core::fmt::Debug for Evaluator {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("Evaluator")
    }
}

impl Evaluator {
    /// A new evaluator with an empty cache.
    ///
    /// # Panics
    /// When the cache's 384 KiB cannot be allocated ([`Evaluator::try_new`] reports it).
    pub fn new() -> Evaluator {
        Self::try_new().expect("out of memory for the pawn cache")
    }

    /// A new evaluator, or `None` when the memory for its cache cannot be had.
    pub fn try_new() -> Option<Evaluator> {
        let mut pawns = Vec::new();
        pawns.try_reserve_exact(PAWN_TABLE_SIZE).ok()?;
        pawns.resize(PAWN_TABLE_SIZE, PawnEntry::default());
        Some(Evaluator {
            pawns: pawns.into_boxed_slice(),
        })
    }

    /// Empties the pawn cache.
    pub fn clear(&mut self) {
        self.pawns.fill(PawnEntry::default());
    }

    /// The static evaluation in centipawns from the side to move's point of view.
    ///
    /// ```
    /// use chesscore::{eval::Evaluator, Position};
    /// let mut ev = Evaluator::new();
    /// // White is a queen up: good for White to move, bad for Black to move.
    /// let w = Position::from_fen("4k3/8/8/8/8/8/8/3QK3 w - - 0 1").unwrap();
    /// let b = Position::from_fen("4k3/8/8/8/8/8/8/3QK3 b - - 0 1").unwrap();
    /// assert!(ev.evaluate(&w) > 500 && ev.evaluate(&b) < -500);
    /// ```
    pub fn evaluate(&mut self, pos: &Position) -> i32 {
        let (v, _, _) = evaluate_with(pos, &weights::WEIGHTS, &mut NoTrace, Some(&mut self.pawns));
        v
    }
}

#[inline(always)]
fn add<T: Trace>(acc: &mut S, t: &mut T, w: &[S; NUM_FEATURES], index: usize, count: i32) {
    *acc += w[index] * count;
    if T::ON {
        t.add(index, count);
    }
}

#[inline(always)]
fn sign(c: Color) -> i32 {
    if c == Color::WHITE {
        1
    } else {
        -1
    }
}

#[inline(always)]
fn pawn_attacks_bb(c: Color, pawns: u64) -> u64 {
    let not_a = !Bitboard::FILE_A.0;
    let not_h = !Bitboard::FILE_H.0;
    if c == Color::WHITE {
        ((pawns & not_a) << 7) | ((pawns & not_h) << 9)
    } else {
        ((pawns & not_a) >> 9) | ((pawns & not_h) >> 7)
    }
}

/// Squares in front of each pawn on its file, all the way (fill), for color `c`.
#[inline(always)]
fn front_fill(c: Color, b: u64) -> u64 {
    let mut x = b;
    if c == Color::WHITE {
        x |= x << 8;
        x |= x << 16;
        x |= x << 32;
        x << 8
    } else {
        x |= x >> 8;
        x |= x >> 16;
        x |= x >> 32;
        x >> 8
    }
}

#[inline(always)]
fn adjacent_files(b: u64) -> u64 {
    ((b & !Bitboard::FILE_A.0) >> 1) | ((b & !Bitboard::FILE_H.0) << 1)
}

#[inline(always)]
fn file_fill(b: u64) -> u64 {
    front_fill(Color::WHITE, b) | front_fill(Color::BLACK, b) | b
}

fn distance(a: Square, b: Square) -> i32 {
    let df = (a.file() as i32 - b.file() as i32).abs();
    let dr = (a.rank() as i32 - b.rank() as i32).abs();
    df.max(dr)
}

/// Pawn-only terms for both colors (white minus black) and each side's passed pawns.
fn pawn_terms<T: Trace>(pos: &Position, w: &[S; NUM_FEATURES], t: &mut T) -> (S, [u64; 2]) {
    let mut acc = S::ZERO;
    let mut passed = [0u64; 2];
    for c in [Color::WHITE, Color::BLACK] {
        let s = sign(c);
        let ours = pos.pieces(c, PieceType::PAWN).0;
        let theirs = pos.pieces(c.flip(), PieceType::PAWN).0;
        let their_attacks = pawn_attacks_bb(c.flip(), theirs);
        let our_attacks = pawn_attacks_bb(c, ours);
        for sq in Bitboard(ours) {
            let b = sq.bb().0;
            let rank = sq.relative(c).rank() as usize;
            let front = front_fill(c, b);
            let span = front | adjacent_files(front);
            if theirs & span == 0 && ours & front == 0 {
                passed[c.index()] |= b;
                add(&mut acc, t, w, PASSED + rank, s);
            }
            let neighbours = adjacent_files(file_fill(b));
            if ours & neighbours == 0 {
                add(&mut acc, t, w, ISOLATED, s);
            }
            if ours & front != 0 {
                add(&mut acc, t, w, DOUBLED, s);
            }
            let beside = adjacent_files(b);
            if our_attacks & b != 0 || ours & beside != 0 {
                add(&mut acc, t, w, CONNECTED + rank, s);
            } else if ours & neighbours != 0 {
                // Backward: no friendly pawn beside or behind on the neighbouring files, and
                // the stop square is attacked by an enemy pawn.
                let behind = front_fill(c.flip(), beside) | beside;
                let stop = if c == Color::WHITE { b << 8 } else { b >> 8 };
                if ours & behind & neighbours == 0 && their_attacks & stop != 0 {
                    add(&mut acc, t, w, BACKWARD, s);
                }
            }
        }
    }
    (acc, passed)
}

/// The evaluation with weights `w`: (side-to-move value, phase, endgame scale). With a pawn
/// table, pawn-only terms come from it (never when tracing).
fn evaluate_with<T: Trace>(
    pos: &Position,
    w: &[S; NUM_FEATURES],
    t: &mut T,
    pawn_table: Option<&mut Box<[PawnEntry]>>,
) -> (i32, i32, i32) {
    let mut acc = S::ZERO;
    let occ = pos.occupied();

    // Pawn structure (cached).
    let (pawn_score, passed) = match pawn_table {
        Some(table) if !T::ON => {
            let key = pos.pawn_hash();
            let e = &mut table[(key as usize) & (PAWN_TABLE_SIZE - 1)];
            if e.key != key {
                let (s, p) = pawn_terms(pos, w, t);
                *e = PawnEntry {
                    key,
                    score: s,
                    passed: p,
                };
            }
            (e.score, e.passed)
        }
        _ => pawn_terms(pos, w, t),
    };
    acc += pawn_score;

    let mut phase = 0;
    let mut attacked = [0u64; 2];
    let mut attacked_by_pawn = [0u64; 2];
    let mut minor_attacks = [0u64; 2];
    let mut rook_attacks = [0u64; 2];
    let mut king_units = [0u32; 2];
    for c in [Color::WHITE, Color::BLACK] {
        attacked_by_pawn[c.index()] = pawn_attacks_bb(c, pos.pieces(c, PieceType::PAWN).0);
        let k = pos.king_square(c);
        attacked[c.index()] = attacked_by_pawn[c.index()] | attacks::king_attacks(k).0;
    }

    for c in [Color::WHITE, Color::BLACK] {
        let s = sign(c);
        let them = c.flip();
        let own = pos.color_pieces(c).0;
        let our_pawns = pos.pieces(c, PieceType::PAWN).0;
        let their_pawns = pos.pieces(them, PieceType::PAWN).0;
        let mobility_area = !(own & (our_pawns | pos.pieces(c, PieceType::KING).0))
            & !attacked_by_pawn[them.index()];
        let their_king = pos.king_square(them);
        let mut zone = attacks::king_attacks(their_king).0 | their_king.bb().0;
        zone |= if them == Color::WHITE {
            zone << 8
        } else {
            zone >> 8
        };
        let mut units = 0u32;

        for kind in PieceType::ALL {
            let pieces = pos.pieces(c, kind);
            let ki = kind.index() - 1;
            let n = pieces.count() as i32;
            if kind != PieceType::KING {
                add(&mut acc, t, w, PIECE_VALUE + ki, s * n);
            }
            phase += PHASE_WEIGHT[kind.index()] * n;
            for sq in pieces {
                add(&mut acc, t, w, PST + ki * 64 + sq.relative(c).index(), s);
                let att = match kind {
                    PieceType::KNIGHT => attacks::knight_attacks(sq).0,
                    PieceType::BISHOP => attacks::bishop_attacks(sq, occ).0,
                    PieceType::ROOK => attacks::rook_attacks(sq, occ).0,
                    PieceType::QUEEN => attacks::queen_attacks(sq, occ).0,
                    _ => continue,
                };
                attacked[c.index()] |= att;
                let mob = (att & mobility_area).count_ones() as usize;
                let base = match kind {
                    PieceType::KNIGHT => {
                        minor_attacks[c.index()] |= att;
                        MOBILITY_KNIGHT
                    }
                    PieceType::BISHOP => {
                        minor_attacks[c.index()] |= att;
                        MOBILITY_BISHOP
                    }
                    PieceType::ROOK => {
                        rook_attacks[c.index()] |= att;
                        let file = Bitboard::file(sq.file()).0;
                        if file & our_pawns == 0 {
                            if file & their_pawns == 0 {
                                add(&mut acc, t, w, ROOK_OPEN, s);
                            } else {
                                add(&mut acc, t, w, ROOK_SEMI_OPEN, s);
                            }
                        }
                        MOBILITY_ROOK
                    }
                    _ => MOBILITY_QUEEN,
                };
                add(&mut acc, t, w, base + mob, s);
                units += ATTACK_UNITS[kind.index()] * (att & zone).count_ones();
            }
        }
        king_units[c.index()] = units;
        if pos.pieces(c, PieceType::BISHOP).more_than_one() {
            add(&mut acc, t, w, BISHOP_PAIR, s);
        }

        // King shelter.
        let k = pos.king_square(c);
        let files = file_fill(k.bb().0 | adjacent_files(k.bb().0));
        let (r1, r2) = if c == Color::WHITE {
            (k.bb().0 << 8, k.bb().0 << 16)
        } else {
            (k.bb().0 >> 8, k.bb().0 >> 16)
        };
        let rank1 = file_fill(r1) & files & Bitboard::rank(((r1.trailing_zeros() / 8) & 7) as u8).0;
        let rank2 = file_fill(r2) & files & Bitboard::rank(((r2.trailing_zeros() / 8) & 7) as u8).0;
        if r1 != 0 {
            add(
                &mut acc,
                t,
                w,
                KING_SHIELD,
                s * (our_pawns & rank1).count_ones() as i32,
            );
        }
        if r2 != 0 {
            add(
                &mut acc,
                t,
                w,
                KING_SHIELD + 1,
                s * (our_pawns & rank2).count_ones() as i32,
            );
        }

        // Passed pawns: king distances and blockers.
        for sq in Bitboard(passed[c.index()]) {
            let rank = sq.relative(c).rank() as usize;
            let stop = if c == Color::WHITE {
                sq.offset(8)
            } else {
                sq.offset(-8)
            };
            if let Some(stop) = stop {
                add(
                    &mut acc,
                    t,
                    w,
                    PASSED_OWN_KING + rank,
                    s * distance(k, stop),
                );
                add(
                    &mut acc,
                    t,
                    w,
                    PASSED_THEIR_KING + rank,
                    s * distance(their_king, stop),
                );
                if occ.has(stop) {
                    add(&mut acc, t, w, PASSED_BLOCKED + rank, s);
                }
            }
        }
    }

    for c in [Color::WHITE, Color::BLACK] {
        let s = sign(c);
        let them = c.flip();
        let i = c.index();
        // King attack on the enemy king: one-hot over the clamped units.
        let u = (king_units[i] as usize).min(KING_ATTACK_SIZE - 1);
        add(&mut acc, t, w, KING_ATTACK + u, -s);
        let their_pieces = pos.color_pieces(them).0
            & !pos.pieces(them, PieceType::PAWN).0
            & !pos.pieces(them, PieceType::KING).0;
        let their_majors =
            pos.pieces(them, PieceType::ROOK).0 | pos.pieces(them, PieceType::QUEEN).0;
        let their_queens = pos.pieces(them, PieceType::QUEEN).0;
        add(
            &mut acc,
            t,
            w,
            THREAT_BY_PAWN,
            s * (attacked_by_pawn[i] & their_pieces).count_ones() as i32,
        );
        add(
            &mut acc,
            t,
            w,
            THREAT_BY_MINOR,
            s * (minor_attacks[i] & their_majors).count_ones() as i32,
        );
        add(
            &mut acc,
            t,
            w,
            THREAT_BY_ROOK,
            s * (rook_attacks[i] & their_queens).count_ones() as i32,
        );
        let hanging = their_pieces & attacked[i] & !attacked[them.index()];
        add(&mut acc, t, w, HANGING, s * hanging.count_ones() as i32);
    }
    // The king-attack one-hot above is indexed by the units *against* a king: white's units
    // attack black's king, which is good for white, hence the sign flip folded into the
    // weights (the table holds the attacked side's penalty).

    let stm = pos.side_to_move();
    add(&mut acc, t, w, TEMPO, sign(stm));

    let phase = phase.min(MAX_PHASE);
    let scale = eg_scale(pos, acc.eg());
    let v = (acc.mg() * phase + acc.eg() * scale / SCALE_NORMAL * (MAX_PHASE - phase)) / MAX_PHASE;
    (v * sign(stm), phase, scale)
}

/// How much of the endgame value stands in drawish material (of [`SCALE_NORMAL`]).
fn eg_scale(pos: &Position, eg: i32) -> i32 {
    let strong = if eg > 0 { Color::WHITE } else { Color::BLACK };
    let weak = strong.flip();
    let strong_pawns = pos.pieces(strong, PieceType::PAWN).count();
    let non_pawn = |c: Color| {
        pos.pieces(c, PieceType::KNIGHT).count() * 3
            + pos.pieces(c, PieceType::BISHOP).count() * 3
            + pos.pieces(c, PieceType::ROOK).count() * 5
            + pos.pieces(c, PieceType::QUEEN).count() * 9
    };
    let (sm, wm) = (non_pawn(strong), non_pawn(weak));
    if strong_pawns == 0 && sm <= wm + 3 {
        // No pawns and at most a minor piece more: hard to win.
        return if sm < 5 { 0 } else { 16 };
    }
    let wb = pos.pieces(Color::WHITE, PieceType::BISHOP);
    let bb = pos.pieces(Color::BLACK, PieceType::BISHOP);
    if sm == 3 && wm == 3 && wb.count() == 1 && bb.count() == 1 {
        let light = Bitboard::LIGHT_SQUARES;
        if (wb & light).any() != (bb & light).any() {
            return 32;
        }
    }
    SCALE_NORMAL
}
