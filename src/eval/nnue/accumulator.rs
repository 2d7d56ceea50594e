//! The search's accumulators: one entry per ply, each holding both perspectives'
//! accumulators, updated lazily.
//!
//! Making a move at ply `p` records only the move's feature changes in entry `p + 1` and
//! marks it not computed ([`AccStack::push_move`]; a null move records no change). Unmaking
//! needs nothing: the search goes back to entry `p`, which is as it was. When the search
//! evaluates at ply `p` ([`AccStack::evaluate`]), the entries from the last computed one up
//! to `p` are computed, each from the one before it and its changes in one fused pass
//! (`simd::fused`), so a node that is never evaluated (most interior nodes: the hash table or
//! a cutoff answers first) costs no vector work. Entry 0 is filled from scratch at the root
//! ([`AccStack::refresh`]). The stack is allocated with the thread's tables, for the largest
//! hidden size, and never during a search.

use super::network::features;
use super::simd::fused;
use super::{Network, MAX_HIDDEN};
use crate::moves::Move;
use crate::position::Position;
use crate::types::{Piece, PieceType};

/// A move's feature changes, both perspectives' indices: `[White's, Black's]`.
#[derive(Copy, Clone, Default)]
struct Delta {
    add: [[u16; 2]; 2],
    sub: [[u16; 2]; 2],
    n_add: u8,
    n_sub: u8,
}

impl Delta {
    #[inline(always)]
    fn add(&mut self, pc: Piece, sq: crate::types::Square) {
        let [w, b] = features(pc, sq);
        self.add[self.n_add as usize] = [w as u16, b as u16];
        self.n_add += 1;
    }

    #[inline(always)]
    fn sub(&mut self, pc: Piece, sq: crate::types::Square) {
        let [w, b] = features(pc, sq);
        self.sub[self.n_sub as usize] = [w as u16, b as u16];
        self.n_sub += 1;
    }
}

/// One ply: both perspectives' accumulators (`acc[c]` for colour `c`), and how to get them
/// from the ply before.
#[repr(C, align(64))]
struct Entry {
    acc: [[i16; MAX_HIDDEN]; 2],
    delta: Delta,
    computed: bool,
}

/// The per-ply accumulator stack of one search thread.
pub(crate) struct AccStack {
    entries: Box<[Entry]>,
}

impl AccStack {
    /// A stack of `plies` entries, or `None` when the memory cannot be had.
    pub(crate) fn try_new(plies: usize) -> Option<AccStack> {
        let mut v: Vec<Entry> = Vec::new();
        v.try_reserve_exact(plies).ok()?;
        v.resize_with(plies, || Entry {
            acc: [[0; MAX_HIDDEN]; 2],
            delta: Delta::default(),
            computed: false,
        });
        Some(AccStack {
            entries: v.into_boxed_slice(),
        })
    }

    /// Entry `ply` from scratch for `pos`.
    pub(crate) fn refresh(&mut self, ply: usize, net: &Network, pos: &Position) {
        let e = &mut self.entries[ply];
        net.refresh(pos, &mut e.acc);
        e.computed = true;
    }

    /// Records in entry `ply` the changes of `m`, about to be made in `pos` (which is still
    /// the position before it): the mover leaves its square, a captured piece (en passant
    /// included) leaves its own, the mover or its promotion arrives; a castle moves king and
    /// rook, wherever they stand (Chess960: either may stay where it is, whose change then
    /// cancels).
    #[inline(always)]
    pub(crate) fn push_move(&mut self, ply: usize, pos: &Position, m: Move) {
        let us = pos.side_to_move();
        let (from, to) = (m.from(), m.to());
        let pc = pos.piece_on(from);
        let mut d = Delta::default();
        if m.is_castle() {
            let (king_to, rook_from, rook_to) =
                pos.castle_squares(us, m.flag() == Move::KING_CASTLE);
            let rook = Piece::new(us, PieceType::ROOK);
            d.sub(pc, from);
            d.sub(rook, rook_from);
            d.add(pc, king_to);
            d.add(rook, rook_to);
        } else {
            d.sub(pc, from);
            if m.is_capture() {
                let cap_sq = if m.is_en_passant() {
                    crate::types::Square::from_index(to.to_u8() ^ 8)
                } else {
                    to
                };
                d.sub(pos.piece_on(cap_sq), cap_sq);
            }
            let arrives = if m.is_promotion() {
                Piece::new(us, m.promotion())
            } else {
                pc
            };
            d.add(arrives, to);
        }
        let e = &mut self.entries[ply];
        e.delta = d;
        e.computed = false;
    }

    /// Records in entry `ply` a null move: the same pieces as the ply before.
    #[inline(always)]
    pub(crate) fn push_null(&mut self, ply: usize) {
        let e = &mut self.entries[ply];
        e.delta = Delta::default();
        e.computed = false;
    }

    /// Computes entry `ply` (and those before it that are not computed yet); `pos` is the
    /// position at `ply`, used only if no entry below is computed.
    #[inline]
    pub(crate) fn update(&mut self, net: &Network, ply: usize, pos: &Position) {
        if self.entries[ply].computed {
            return;
        }
        let Some(base) = (0..ply).rev().find(|&k| self.entries[k].computed) else {
            self.refresh(ply, net, pos);
            return;
        };
        let n = net.hidden_size();
        for k in base + 1..=ply {
            let (before, rest) = self.entries.split_at_mut(k);
            let prev = &before[k - 1];
            let cur = &mut rest[0];
            let d = cur.delta;
            for p in 0..2 {
                let dst = &mut cur.acc[p][..n];
                let src = &prev.acc[p][..n];
                let a = |i: usize| net.feature(d.add[i][p] as usize);
                let s = |i: usize| net.feature(d.sub[i][p] as usize);
                match (d.n_add, d.n_sub) {
                    (0, 0) => dst.copy_from_slice(src),
                    (1, 1) => fused(dst, src, [a(0)], [s(0)]),
                    (1, 2) => fused(dst, src, [a(0)], [s(0), s(1)]),
                    (2, 2) => fused(dst, src, [a(0), a(1)], [s(0), s(1)]),
                    _ => unreachable!("a move adds 1 or 2 features and removes 1 or 2"),
                }
            }
            cur.computed = true;
        }
    }

    /// The evaluation at `ply` (centipawns, side to move's view): computes the entry if
    /// needed, then the output.
    #[inline]
    pub(crate) fn evaluate(&mut self, net: &Network, ply: usize, pos: &Position) -> i32 {
        self.update(net, ply, pos);
        let acc = &self.entries[ply].acc;
        let us = pos.side_to_move().index();
        net.output(&acc[us], &acc[us ^ 1], pos.occupied().count())
    }

    /// Entry `ply`'s accumulators, `[White's, Black's]`, computed (tests).
    #[cfg(test)]
    pub(crate) fn accumulators(
        &mut self,
        net: &Network,
        ply: usize,
        pos: &Position,
    ) -> [&[i16]; 2] {
        self.update(net, ply, pos);
        let n = net.hidden_size();
        let acc = &self.entries[ply].acc;
        [&acc[0][..n], &acc[1][..n]]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::nnue::testnet::{random_net, Rng};

    /// A search-like walk: moves made and unmade, null moves, evaluations at random plies.
    /// Every lazily updated entry equals a full refresh of the same position, and the
    /// evaluation equals the full-refresh evaluation.
    fn walk(net: &Network, start: Position, rng: &mut Rng, steps: usize) -> [usize; 5] {
        let mut stack = AccStack::try_new(64).unwrap();
        let mut pos = start.clone();
        stack.refresh(0, net, &pos);
        let mut path: Vec<(Option<Move>, crate::position::Undo)> = Vec::new();
        // Counts of castles, en passant, promotions, captures, null moves made.
        let mut seen = [0usize; 5];
        for _ in 0..steps {
            let ply = path.len();
            let moves = pos.legal_moves();
            let back = ply > 0 && (moves.is_empty() || ply >= 60 || rng.below(10) < 3);
            if back {
                let (m, undo) = path.pop().unwrap();
                match m {
                    Some(m) => pos.unmake_move_unchecked(m, &undo),
                    None => pos.unmake_null_move_unchecked(&undo),
                }
            } else if moves.is_empty() {
                pos = start.clone();
                stack.refresh(0, net, &pos);
                continue;
            } else if !pos.in_check() && rng.below(20) == 0 {
                stack.push_null(ply + 1);
                let undo = pos.make_null_move_unchecked();
                path.push((None, undo));
                seen[4] += 1;
            } else {
                // Prefer the special moves, which are rare in random play.
                let special: Vec<Move> = moves
                    .iter()
                    .copied()
                    .filter(|m| m.is_castle() || m.is_en_passant() || m.is_promotion())
                    .collect();
                let m = if !special.is_empty() && rng.below(2) == 0 {
                    special[rng.below(special.len() as u64) as usize]
                } else {
                    moves.as_slice()[rng.below(moves.len() as u64) as usize]
                };
                seen[0] += m.is_castle() as usize;
                seen[1] += m.is_en_passant() as usize;
                seen[2] += m.is_promotion() as usize;
                seen[3] += m.is_capture() as usize;
                stack.push_move(ply + 1, &pos, m);
                let undo = pos.make_move_unchecked(m);
                path.push((Some(m), undo));
            }
            if rng.below(3) == 0 {
                let ply = path.len();
                let mut fresh = [[0i16; MAX_HIDDEN]; 2];
                net.refresh(&pos, &mut fresh);
                let n = net.hidden_size();
                let got = stack.accumulators(net, ply, &pos);
                assert_eq!(
                    got[0],
                    &fresh[0][..n],
                    "White's accumulator at {}",
                    pos.to_fen()
                );
                assert_eq!(
                    got[1],
                    &fresh[1][..n],
                    "Black's accumulator at {}",
                    pos.to_fen()
                );
                assert_eq!(stack.evaluate(net, ply, &pos), net.evaluate(&pos));
            }
        }
        seen
    }

    #[test]
    fn incremental_equals_full_refresh_along_random_walks() {
        let mut rng = Rng::new(29);
        let mut seen = [0usize; 5];
        for (i, n) in [16usize, 32, 128, 256].into_iter().enumerate() {
            let net = random_net(100 + i as u64, n, 600, 127);
            let starts = [
                Position::startpos(),
                Position::chess960_start(rng.below(960) as u16).unwrap(),
                Position::chess960_start(rng.below(960) as u16).unwrap(),
                Position::from_fen(
                    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
                )
                .unwrap(),
                Position::from_fen("n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1").unwrap(),
                Position::from_fen("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3")
                    .unwrap(),
            ];
            for s in starts {
                let c = walk(&net, s, &mut rng, 1500);
                for k in 0..5 {
                    seen[k] += c[k];
                }
            }
        }
        assert!(
            seen.iter().all(|&c| c > 10),
            "castles, e.p., promotions, captures, nulls: {seen:?}"
        );
    }
}
