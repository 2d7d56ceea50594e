//! An accumulator that remembers the board it was computed for, for callers that evaluate
//! positions one after another without a make/unmake stack to hang per-ply accumulators on
//! (the Dice Chess evaluation, `crate::dice::eval`).
//!
//! It is the idea of the Finny table (one cached accumulator per king bucket, brought to the
//! next position by the difference of the piece bitboards) with a single entry and no
//! buckets: the next position's 12 piece bitboards are compared with the ones the
//! accumulators hold, each piece that left a square is subtracted and each that arrived is
//! added. Positions a search evaluates one after another are mostly siblings or cousins (a
//! few pieces apart), so an evaluation costs a few feature rows instead of every piece's;
//! when more pieces changed than the position has, it refreshes from scratch instead. The
//! result is exactly [`Network::evaluate`]'s (wrapping `i16` arithmetic, and the final
//! values fit, docs/nnue.md), which the tests check on random games and jumps between them.
//!
//! No allocation: the accumulators live inline (`2 x MAX_HIDDEN` `i16`, 4 KiB).

use super::network::features;
use super::{Network, MAX_HIDDEN};
use crate::bitboard::Bitboard;
use crate::position::Position;
use crate::types::{Color, Piece, PieceType};

/// Both perspectives' accumulators of the last position evaluated, with that position's
/// pieces.
#[derive(Clone)]
pub struct CachedAccumulator {
    acc: [[i16; MAX_HIDDEN]; 2],
    /// The pieces the accumulators hold, by `colour * 6 + kind - 1`.
    pieces: [Bitboard; 12],
    /// The net the accumulators were computed with (its checksum and hidden size), `None`
    /// before the first evaluation.
    net: Option<(u32, usize)>,
}

impl Default for CachedAccumulator {
    fn default() -> Self {
        CachedAccumulator::new()
    }
}

impl std::fmt::Debug for CachedAccumulator {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CachedAccumulator")
            .field("net", &self.net)
            .finish_non_exhaustive()
    }
}

impl CachedAccumulator {
    /// An empty cache: the first evaluation refreshes from scratch.
    pub fn new() -> CachedAccumulator {
        CachedAccumulator {
            acc: [[0; MAX_HIDDEN]; 2],
            pieces: [Bitboard::EMPTY; 12],
            net: None,
        }
    }

    /// `net`'s evaluation of `pos` in centipawns, side to move's view: the same value as
    /// `net.evaluate(pos)`, from the accumulators of the last position evaluated through
    /// this cache brought up to date.
    pub fn evaluate(&mut self, net: &Network, pos: &Position) -> i32 {
        let n = net.hidden_size();
        let mut now = [Bitboard::EMPTY; 12];
        for (c, color) in [Color::WHITE, Color::BLACK].into_iter().enumerate() {
            for (k, kind) in PieceType::ALL.into_iter().enumerate() {
                now[c * 6 + k] = pos.pieces(color, kind);
            }
        }
        let changed: u32 = now
            .iter()
            .zip(&self.pieces)
            .map(|(a, b)| (*a ^ *b).count())
            .sum();
        let id = Some((net.checksum(), n));
        if self.net != id || changed > pos.occupied().count() {
            net.refresh(pos, &mut self.acc);
            self.net = id;
        } else {
            for (i, (a, b)) in now.iter().zip(&self.pieces).enumerate() {
                let pc = Piece::new(Color::from_index((i / 6) as u8), PieceType::ALL[i % 6]);
                for sq in *b & !*a {
                    let [fw, fb] = features(pc, sq);
                    super::simd::sub_assign(&mut self.acc[0][..n], net.feature(fw));
                    super::simd::sub_assign(&mut self.acc[1][..n], net.feature(fb));
                }
                for sq in *a & !*b {
                    let [fw, fb] = features(pc, sq);
                    super::simd::add_assign(&mut self.acc[0][..n], net.feature(fw));
                    super::simd::add_assign(&mut self.acc[1][..n], net.feature(fb));
                }
            }
        }
        self.pieces = now;
        let us = pos.side_to_move().index();
        net.output(
            &self.acc[us][..n],
            &self.acc[us ^ 1][..n],
            pos.occupied().count(),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::nnue::testnet::{random_net, Rng};

    /// Along random games, and jumping between positions of different games (far apart, so
    /// that the refresh path runs too), the cache gives the full refresh's value; a second
    /// net through the same cache is noticed and refreshed for.
    #[test]
    fn equals_the_full_refresh() {
        let mut rng = Rng::new(7);
        let nets = [random_net(11, 32, 600, 127), random_net(12, 64, 600, 127)];
        let mut cache = CachedAccumulator::new();
        let mut positions = Vec::new();
        for _game in 0..20 {
            let mut pos = Position::startpos();
            for _ply in 0..80 {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let m = moves.as_slice()[rng.below(moves.len() as u64) as usize];
                pos.make_move_unchecked(m);
                positions.push(pos.clone());
            }
        }
        let (mut refreshes, mut checked) = (0, 0);
        for i in 0..positions.len() * 2 {
            // Mostly the next position, sometimes a random one.
            let pos = if i % 5 == 4 {
                &positions[rng.below(positions.len() as u64) as usize]
            } else {
                &positions[i % positions.len()]
            };
            let net = &nets[usize::from(i % 97 == 96)];
            let before = cache.pieces;
            let v = cache.evaluate(net, pos);
            assert_eq!(v, net.evaluate(pos), "{}", pos.to_fen());
            let changed: u32 = before
                .iter()
                .zip(&cache.pieces)
                .map(|(a, b)| (*a ^ *b).count())
                .sum();
            refreshes += usize::from(changed > pos.occupied().count());
            checked += 1;
        }
        assert!(checked > 2000 && refreshes > 10, "{checked} {refreshes}");
    }
}
