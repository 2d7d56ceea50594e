//! Perft: counts the leaf nodes of the legal move tree, the standard correctness test and
//! speed benchmark of a move generator.
//!
//! * bulk counting ([`PerftMode::Bulk`]): at depth 1 the legal moves are counted, not made
//!   (the counter adds whole target sets by popcount); the moves above are made without the
//!   hashes and the history, which perft never reads (the position is exact again after each
//!   unmake);
//! * full ([`PerftMode::Full`]): every leaf move is made and unmade, exercising make/unmake;
//! * divide: the count under each root move, printed one `e2e4: 600000` line each.

#[cfg(target_arch = "x86_64")]
use crate::attacks::Pext;
use crate::attacks::{Backend, Sliders};
use crate::movegen::{generate, Black, MoveCounter, Side, White, ALL_PIECE_TYPES};
use crate::moves::{Move, MoveList, MAX_MOVES};
use crate::position::{Position, Undo};
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

/// The two recursions, written once and compiled twice: portable, and with the instructions a
/// [`Pext`] token proves (hardware popcount and bit scans in every inlined generator).
macro_rules! perft_recursions {
    ($(#[$attr:meta])* $bulk:ident, $full:ident) => {
        $(#[$attr])*
        fn $bulk<S: Sliders, C: Side, const X: bool>(pos: &mut Position, s: S, depth: u32) -> u64 {
            if depth <= 1 {
                if depth == 0 {
                    return 1;
                }
                let mut c = MoveCounter(0);
                generate::<S, C, true, GEN_ALL, X, _>(pos, s, ALL_PIECE_TYPES, &mut c);
                return c.0;
            }
            let mut list = MoveList::new();
            generate::<S, C, true, GEN_ALL, X, _>(pos, s, ALL_PIECE_TYPES, &mut list);
            let mut nodes = 0;
            if depth == 2 {
                // The level above the leaves: the count inlined, no call per move.
                let saved = pos.node_state();
                for &m in list.iter() {
                    let cap = pos.make_move_in_node::<false>(m, C::COLOR);
                    let mut c = MoveCounter(0);
                    generate::<S, C::Other, true, GEN_ALL, X, _>(pos, s, ALL_PIECE_TYPES, &mut c);
                    nodes += c.0;
                    pos.unmake_move_in_node::<false>(m, cap, &saved, C::COLOR);
                }
                return nodes;
            }
            let saved = pos.node_state();
            for &m in list.iter() {
                let cap = pos.make_move_in_node::<false>(m, C::COLOR);
                nodes += $bulk::<S, C::Other, X>(pos, s, depth - 1);
                pos.unmake_move_in_node::<false>(m, cap, &saved, C::COLOR);
            }
            nodes
        }

        $(#[$attr])*
        fn $full<S: Sliders, C: Side, const X: bool>(pos: &mut Position, s: S, depth: u32) -> u64 {
            if depth == 0 {
                return 1;
            }
            let mut list = MoveList::new();
            generate::<S, C, true, GEN_ALL, X, _>(pos, s, ALL_PIECE_TYPES, &mut list);
            let mut nodes = 0;
            if depth == 1 {
                // The leaves: made and unmade, counted without a call for depth 0.
                let saved = pos.node_state();
                for &m in list.iter() {
                    let cap = pos.make_move_in_node::<true>(m, C::COLOR);
                    nodes += 1;
                    pos.unmake_move_in_node::<true>(m, cap, &saved, C::COLOR);
                }
                return nodes;
            }
            let saved = pos.node_state();
            for &m in list.iter() {
                let cap = pos.make_move_in_node::<true>(m, C::COLOR);
                nodes += $full::<S, C::Other, X>(pos, s, depth - 1);
                pos.unmake_move_in_node::<true>(m, cap, &saved, C::COLOR);
            }
            nodes
        }
    };
}

perft_recursions!(bulk, full);
#[cfg(target_arch = "x86_64")]
perft_recursions!(
    #[target_feature(enable = "bmi1,bmi2,popcnt,lzcnt")]
    bulk_bmi2,
    full_bmi2
);

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "bmi1,bmi2,popcnt,lzcnt")]
fn perft_bmi2(pos: &mut Position, s: Pext, depth: u32, mode: PerftMode) -> u64 {
    match (pos.side_to_move() == Color::WHITE, mode, pos.is_chess960()) {
        (true, PerftMode::Bulk, false) => bulk_bmi2::<Pext, White, false>(pos, s, depth),
        (false, PerftMode::Bulk, false) => bulk_bmi2::<Pext, Black, false>(pos, s, depth),
        (true, PerftMode::Full, false) => full_bmi2::<Pext, White, false>(pos, s, depth),
        (false, PerftMode::Full, false) => full_bmi2::<Pext, Black, false>(pos, s, depth),
        (true, PerftMode::Bulk, true) => bulk_bmi2::<Pext, White, true>(pos, s, depth),
        (false, PerftMode::Bulk, true) => bulk_bmi2::<Pext, Black, true>(pos, s, depth),
        (true, PerftMode::Full, true) => full_bmi2::<Pext, White, true>(pos, s, depth),
        (false, PerftMode::Full, true) => full_bmi2::<Pext, Black, true>(pos, s, depth),
    }
}

/// Perft on the back end `backend`, through the fastest code the CPU allows for it.
pub fn perft_on(pos: &mut Position, backend: Backend, depth: u32, mode: PerftMode) -> u64 {
    match backend {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: a `Pext` token exists only when the CPU has BMI1, BMI2, POPCNT and LZCNT,
        // the features `perft_bmi2` is compiled for.
        Backend::Pext(p) => unsafe { perft_bmi2(pos, p, depth, mode) },
        #[cfg(not(target_arch = "x86_64"))]
        Backend::Pext(p) => perft_with(pos, p, depth, mode),
        Backend::Magic(m) => perft_with(pos, m, depth, mode),
    }
}

/// Perft on a given back end in portable code (no CPU-specific instructions beyond the
/// back end's own); [`perft_on`] is the fast entry.
pub fn perft_with<S: Sliders>(pos: &mut Position, s: S, depth: u32, mode: PerftMode) -> u64 {
    match (pos.side_to_move() == Color::WHITE, mode, pos.is_chess960()) {
        (true, PerftMode::Bulk, false) => bulk::<S, White, false>(pos, s, depth),
        (false, PerftMode::Bulk, false) => bulk::<S, Black, false>(pos, s, depth),
        (true, PerftMode::Full, false) => full::<S, White, false>(pos, s, depth),
        (false, PerftMode::Full, false) => full::<S, Black, false>(pos, s, depth),
        (true, PerftMode::Bulk, true) => bulk::<S, White, true>(pos, s, depth),
        (false, PerftMode::Bulk, true) => bulk::<S, Black, true>(pos, s, depth),
        (true, PerftMode::Full, true) => full::<S, White, true>(pos, s, depth),
        (false, PerftMode::Full, true) => full::<S, Black, true>(pos, s, depth),
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
        perft_on(self, Backend::detect(), depth, PerftMode::Bulk)
    }

    /// Perft that makes every leaf move.
    pub fn perft_full(&mut self, depth: u32) -> u64 {
        perft_on(self, Backend::detect(), depth, PerftMode::Full)
    }

    /// Perft in `mode`.
    pub fn perft_mode(&mut self, depth: u32, mode: PerftMode) -> u64 {
        perft_on(self, Backend::detect(), depth, mode)
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
            let undo = self.make_move_unchecked(m);
            counts[i] = self.perft_mode(depth - 1, mode);
            self.unmake_move_unchecked(m, &undo);
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

/// A unit of parallel work: the moves from the root to a subtree.
#[derive(Clone, Copy)]
struct Task {
    path: [Move; 3],
    len: u8,
    /// Legal moves at the subtree's root: the size estimate tasks are ordered by.
    estimate: u64,
}

fn collect_tasks(pos: &mut Position, plies: usize, task: &mut Task, out: &mut Vec<Task>) {
    let moves = pos.legal_moves();
    if task.len as usize == plies || moves.is_empty() {
        task.estimate = moves.len() as u64;
        out.push(*task);
        return;
    }
    for &m in moves.iter() {
        let undo = pos.make_move_unchecked(m);
        task.path[task.len as usize] = m;
        task.len += 1;
        collect_tasks(pos, plies, task, out);
        task.len -= 1;
        pos.unmake_move_unchecked(m, &undo);
    }
}

/// Parallel perft: the tree is split two plies below the root (three from depth 6 on, for
/// finer balance), the tasks are ordered largest first by their number of legal moves, and
/// `threads` workers (the calling thread and `threads - 1` started ones; fewer where threads
/// cannot be started), each with its own copy of the position, take tasks from a shared counter
/// until none are left. Depths below 3 run on the calling thread. Spawning the workers and
/// listing the tasks allocate; the search itself does not.
pub fn perft_parallel(pos: &Position, depth: u32, mode: PerftMode, threads: usize) -> u64 {
    use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
    let threads = threads.max(1);
    if threads == 1 || depth < 3 {
        return pos.clone().perft_mode(depth, mode);
    }
    let plies = if depth >= 6 { 3 } else { 2 };
    let mut tasks = Vec::new();
    let mut task = Task {
        path: [Move::NONE; 3],
        len: 0,
        estimate: 0,
    };
    collect_tasks(&mut pos.clone(), plies, &mut task, &mut tasks);
    tasks.sort_by_key(|t| std::cmp::Reverse(t.estimate));
    let next = AtomicUsize::new(0);
    let total = AtomicU64::new(0);
    let backend = Backend::detect();
    let work = || {
        let mut local = pos.clone();
        let mut undos = [Undo::default(); 3];
        let mut sum = 0;
        loop {
            let i = next.fetch_add(1, Ordering::Relaxed);
            let Some(t) = tasks.get(i) else { break };
            let path = &t.path[..t.len as usize];
            for (undo, &m) in undos.iter_mut().zip(path) {
                *undo = local.make_move_unchecked(m);
            }
            sum += perft_on(&mut local, backend, depth - t.len as u32, mode);
            for (undo, &m) in undos.iter().zip(path).rev() {
                local.unmake_move_unchecked(m, undo);
            }
        }
        total.fetch_add(sum, Ordering::Relaxed);
    };
    // The calling thread is one of the workers. A thread that cannot be started (a target
    // without threads such as wasm32-wasip1, or no resources left) leaves its share to the
    // others: the same count, later.
    std::thread::scope(|scope| {
        for _ in 1..threads.min(tasks.len()) {
            if std::thread::Builder::new()
                .spawn_scoped(scope, work)
                .is_err()
            {
                break;
            }
        }
        work();
    });
    total.into_inner()
}

impl Position {
    /// Perft on `threads` threads ([`perft_parallel`]).
    pub fn perft_parallel(&self, depth: u32, mode: PerftMode, threads: usize) -> u64 {
        perft_parallel(self, depth, mode, threads)
    }
}
