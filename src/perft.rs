//! Perft: counts the leaf nodes of the legal move tree, the standard correctness test and
//! speed benchmark of a move generator.
//!
//! * bulk counting ([`PerftMode::Bulk`]): at depth 1 the legal moves are counted, not made
//!   (the counter adds whole target sets by popcount);
//! * full ([`PerftMode::Full`]): every leaf move is made and unmade, exercising make/unmake;
//! * divide: the count under each root move, printed one `e2e4: 600000` line each.

use crate::attacks::Sliders;
use crate::movegen::{generate, Black, MoveCounter, Side, White, ALL_PIECE_TYPES};
use crate::moves::{Move, MoveList, MAX_MOVES};
use crate::position::Position;
use crate::types::Color;

/// How perft reaches the leaves.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum PerftMode {
    /// Count the legal moves at depth 1 without making them.
    Bulk = 0,
    /// Make and unmake every move down to depth 0.
    Full = 1,
}

const GEN_ALL: u8 = crate::movegen::GenType::All as u8;

fn bulk<S: Sliders, C: Side>(pos: &mut Position, s: S, depth: u32) -> u64 {
    if depth <= 1 {
        if depth == 0 {
            return 1;
        }
        let mut c = MoveCounter(0);
        generate::<S, C, true, GEN_ALL, _>(pos, s, ALL_PIECE_TYPES, &mut c);
        return c.0;
    }
    let mut list = MoveList::new();
    generate::<S, C, true, GEN_ALL, _>(pos, s, ALL_PIECE_TYPES, &mut list);
    let mut nodes = 0;
    for &m in list.iter() {
        let undo = pos.make_move(m);
        nodes += bulk::<S, C::Other>(pos, s, depth - 1);
        pos.unmake_move(m, &undo);
    }
    nodes
}

fn full<S: Sliders, C: Side>(pos: &mut Position, s: S, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut list = MoveList::new();
    generate::<S, C, true, GEN_ALL, _>(pos, s, ALL_PIECE_TYPES, &mut list);
    let mut nodes = 0;
    for &m in list.iter() {
        let undo = pos.make_move(m);
        nodes += full::<S, C::Other>(pos, s, depth - 1);
        pos.unmake_move(m, &undo);
    }
    nodes
}

/// Perft on a given back end (benchmarks and back-end comparisons use this).
pub fn perft_with<S: Sliders>(pos: &mut Position, s: S, depth: u32, mode: PerftMode) -> u64 {
    match (pos.side_to_move() == Color::WHITE, mode) {
        (true, PerftMode::Bulk) => bulk::<S, White>(pos, s, depth),
        (false, PerftMode::Bulk) => bulk::<S, Black>(pos, s, depth),
        (true, PerftMode::Full) => full::<S, White>(pos, s, depth),
        (false, PerftMode::Full) => full::<S, Black>(pos, s, depth),
    }
}

impl Position {
    /// Perft with bulk counting. The position is the same afterwards.
    ///
    /// ```
    /// use chesscore::Position;
    /// assert_eq!(Position::startpos().perft(3), 8902);
    /// ```
    pub fn perft(&mut self, depth: u32) -> u64 {
        crate::with_sliders!(|s| perft_with(self, s, depth, PerftMode::Bulk))
    }

    /// Perft that makes every leaf move.
    pub fn perft_full(&mut self, depth: u32) -> u64 {
        crate::with_sliders!(|s| perft_with(self, s, depth, PerftMode::Full))
    }

    /// Perft in `mode`.
    pub fn perft_mode(&mut self, depth: u32, mode: PerftMode) -> u64 {
        crate::with_sliders!(|s| perft_with(self, s, depth, mode))
    }

    /// Divide: fills `moves` with the legal root moves and `counts[i]` with the perft count
    /// of depth `depth - 1` below `moves[i]`; returns the total. Depth 0 gives no moves and a
    /// total of 1. No allocation.
    pub fn perft_divide_into(
        &mut self,
        depth: u32,
        mode: PerftMode,
        moves: &mut MoveList,
        counts: &mut [u64; MAX_MOVES],
    ) -> u64 {
        moves.clear();
        if depth == 0 {
            return 1;
        }
        *moves = self.legal_moves();
        let mut total = 0;
        for (i, &m) in moves.iter().enumerate() {
            let undo = self.make_move(m);
            counts[i] = self.perft_mode(depth - 1, mode);
            self.unmake_move(m, &undo);
            total += counts[i];
        }
        total
    }

    /// Divide as a list of (root move, count) pairs.
    pub fn perft_divide(&mut self, depth: u32, mode: PerftMode) -> Vec<(Move, u64)> {
        let mut moves = MoveList::new();
        let mut counts = [0u64; MAX_MOVES];
        self.perft_divide_into(depth, mode, &mut moves, &mut counts);
        moves.iter().copied().zip(counts.iter().copied()).collect()
    }
}
