//! Move-ordering statistics kept by each search thread: killers live in the search stack;
//! here are the butterfly history (by side, from, to), the capture history (by piece, target,
//! captured type), continuation histories (by the piece and target of the move one and two
//! plies back, and this move's piece and target) and counter-moves (the reply that refuted
//! the previous move, by its piece and target). All fixed-size, allocated with the thread.

use crate::moves::Move;

/// History values stay within ±`HISTORY_MAX` (the "gravity" update saturates there).
pub const HISTORY_MAX: i32 = 16384;

/// One continuation table: `[piece][to]` of the current move.
pub type ContTable = [[i16; 64]; 16];

/// The thread's statistics.
pub struct History {
    /// `[side][from][to]`.
    pub butterfly: [[[i16; 64]; 64]; 2],
    /// `[piece][to][captured type]`.
    pub capture: [[[i16; 8]; 64]; 16],
    /// `[previous piece][previous to]` -> table for this move.
    pub continuation: [[ContTable; 64]; 16],
    /// [previous piece][previous to] -> the move that refuted it.
    pub counter: [[Move; 64]; 16],
}

/// The gravity update: moves `entry` toward `bonus`'s sign, saturating at ±HISTORY_MAX.
#[inline(always)]
pub fn update(entry: &mut i16, bonus: i32) {
    let b = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
    let e = *entry as i32;
    *entry = (e + b - e * b.abs() / HISTORY_MAX) as i16;
}

/// The bonus for a move that caused a cutoff at `depth`.
#[inline(always)]
pub fn bonus(depth: i32) -> i32 {
    (depth * 150 - 100).clamp(0, 1600)
}

impl History {
    /// A boxed, zeroed table set (about 2.3 MB), allocated without a stack copy, or `None`
    /// when the memory cannot be had.
    pub fn try_new_boxed() -> Option<Box<History>> {
        let layout = std::alloc::Layout::new::<History>();
        // SAFETY: the layout has a non-zero size; `alloc_zeroed` returns a zeroed block with
        // that layout (or null, handled); every field of `History` is an array of integers or
        // `Move` (a `u16` newtype), for which all-zero bytes are a valid value; `Box::from_raw`
        // takes the block over with the same layout from the global allocator.
        unsafe {
            let p = std::alloc::alloc_zeroed(layout) as *mut History;
            if p.is_null() {
                return None;
            }
            Some(Box::from_raw(p))
        }
    }

    /// Zeroes everything.
    pub fn clear(&mut self) {
        // SAFETY: see `new_boxed`: all-zero bytes are a valid `History`.
        unsafe { core::ptr::write_bytes(self as *mut History, 0, 1) };
    }
}
