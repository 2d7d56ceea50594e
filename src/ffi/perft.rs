//! Perft: bulk, full, parallel and divide. Each call checks the position fully once, then
//! runs at full speed.

use super::guard::{ffi_guard, try_ptr};
use super::{ChessMoveList, ChessPosition, ChessStatus};
use crate::moves::{MoveList, MAX_MOVES};
use crate::perft::PerftMode;

/// Counts the leaf nodes of the legal move tree `depth` plies deep (bulk counting at the last
/// ply) into `*nodes`. `*pos` is the same afterwards. Depth 0 counts 1.
///
/// # Safety
/// `pos` is NULL or points to a `ChessPosition`; `nodes` is NULL or valid for writes.
#[no_mangle]
pub unsafe extern "C" fn chess_perft(
    pos: *mut ChessPosition,
    depth: u32,
    nodes: *mut u64,
) -> ChessStatus {
    // SAFETY: forwarded caller contract.
    unsafe { perft_export(pos, depth, nodes, PerftMode::Bulk) }
}

/// Perft that makes and unmakes every move down to the leaves (no bulk counting): exercises
/// make/unmake. `*pos` is the same afterwards.
///
/// # Safety
/// `pos` is NULL or points to a `ChessPosition`; `nodes` is NULL or valid for writes.
#[no_mangle]
pub unsafe extern "C" fn chess_perftFull(
    pos: *mut ChessPosition,
    depth: u32,
    nodes: *mut u64,
) -> ChessStatus {
    // SAFETY: forwarded caller contract.
    unsafe { perft_export(pos, depth, nodes, PerftMode::Full) }
}

/// # Safety
/// `pos` is NULL or points to a `ChessPosition`; `nodes` is NULL or valid for writes.
unsafe fn perft_export(
    pos: *mut ChessPosition,
    depth: u32,
    nodes: *mut u64,
    mode: PerftMode,
) -> ChessStatus {
    ffi_guard!({
        let nodes = try_ptr!(out::<u64, u64>(nodes));
        let pos = try_ptr!(trusted_position_mut(pos));
        nodes.write(pos.perft_mode(depth, mode));
        ChessStatus::CHESS_OK
    })
}

/// Perft on `threads` threads (0 = as many as the machine has, at most 256): the tree is
/// split two plies below the root and each worker takes tasks on its own copy of the position;
/// bulk counting unless `full`. `*pos` is only read.
///
/// # Safety
/// `pos` is NULL or points to a `ChessPosition` not written during the call; `nodes` is NULL or
/// valid for writes.
#[no_mangle]
pub unsafe extern "C" fn chess_perftParallel(
    pos: *const ChessPosition,
    depth: u32,
    threads: u32,
    full: bool,
    nodes: *mut u64,
) -> ChessStatus {
    ffi_guard!({
        let nodes = try_ptr!(out::<u64, u64>(nodes));
        let pos = try_ptr!(trusted_position(pos));
        let threads = match threads {
            0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
            t => t.min(256) as usize,
        };
        let mode = if full {
            PerftMode::Full
        } else {
            PerftMode::Bulk
        };
        nodes.write(pos.perft_parallel(depth, mode, threads));
        ChessStatus::CHESS_OK
    })
}

/// Perft divide: `*moves` receives the legal root moves, `counts[i]` the bulk perft count of
/// depth `depth - 1` below `moves->moves[i]`, `*total` their sum. `countsLen` must be at least
/// the number of legal moves (256 always suffices), else `CHESS_ERR_BUFFER_TOO_SMALL` and
/// nothing is written. Depth 0: no moves and a total of 1.
///
/// # Safety
/// `pos` is NULL or points to a `ChessPosition`; `moves` and `total` are NULL or valid for
/// writes; `counts` is NULL or valid for `countsLen` writes.
#[no_mangle]
pub unsafe extern "C" fn chess_perftDivide(
    pos: *mut ChessPosition,
    depth: u32,
    moves: *mut ChessMoveList,
    counts: *mut u64,
    countsLen: usize,
    total: *mut u64,
) -> ChessStatus {
    ffi_guard!({
        let moves = try_ptr!(out::<MoveList, ChessMoveList>(moves));
        let total = try_ptr!(out::<u64, u64>(total));
        let pos = try_ptr!(trusted_position_mut(pos));
        let needed = pos.count_legal_moves() as usize;
        let counts = try_ptr!(out_array(counts, countsLen, needed));
        let mut list = MoveList::new();
        let mut local = [0u64; MAX_MOVES];
        let sum = pos.perft_divide_into(depth, PerftMode::Bulk, &mut list, &mut local);
        for (slot, &n) in counts.iter_mut().zip(&local[..list.len()]) {
            slot.write(n);
        }
        moves.write(list);
        total.write(sum);
        ChessStatus::CHESS_OK
    })
}
