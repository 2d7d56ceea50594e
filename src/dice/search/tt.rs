//! The Dice Chess transposition table: one 16-byte entry per slot, two slots a bucket,
//! allocated once (creation or resize), never during a search.
//!
//! Keys keep pre-roll, post-roll and mid-turn nodes apart: [`DiceGame::hash`] mixes in the
//! phase and the dice still to play, so a chance node (awaiting the roll), a decision node
//! (the roll known) and a three-dice node in the middle of a turn (fewer dice left) never
//! share an entry. Near the fifty-move limit the halfmove clock is mixed in as well (the
//! draw depends on it), see [`node_key`].
//!
//! An entry holds the value with its bound, the remaining depth, the distance from the root
//! in turns (`ply`, for the exact mode, see [`super::SearchConfig::exact_tt`]) and, for
//! decision nodes, the best move.
//!
//! [`DiceGame::hash`]: crate::dice::DiceGame::hash

use crate::dice::DiceGame;
use crate::moves::Move;

/// What a stored value is.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Bound {
    /// Nothing stored.
    None = 0,
    /// The value is exact.
    Exact = 1,
    /// The true value is at least the stored one.
    Lower = 2,
    /// The true value is at most the stored one.
    Upper = 3,
}

/// One slot.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[repr(C)]
pub struct Entry {
    /// The node's key (0 in an empty slot).
    pub key: u64,
    /// The value (see [`Entry::bound`]).
    pub value: i32,
    /// The best move of a decision node (raw), 0 otherwise.
    pub mv: u16,
    /// Remaining depth in turns.
    pub depth: u8,
    /// Bound (low 2 bits) and distance from the root in turns (high 6 bits).
    pub meta: u8,
}

impl Entry {
    const EMPTY: Entry = Entry {
        key: 0,
        value: 0,
        mv: 0,
        depth: 0,
        meta: 0,
    };

    /// The bound of the stored value.
    pub fn bound(&self) -> Bound {
        match self.meta & 3 {
            1 => Bound::Exact,
            2 => Bound::Lower,
            3 => Bound::Upper,
            _ => Bound::None,
        }
    }

    /// The distance from the root (in turns) of the node that stored it (capped at 63).
    pub fn ply(&self) -> u32 {
        u32::from(self.meta >> 2)
    }

    /// The stored best move.
    pub fn best_move(&self) -> Move {
        Move::from_raw(self.mv)
    }
}

const _: () = assert!(core::mem::size_of::<Entry>() == 16);

/// The key of a search node: the game's hash, with the halfmove clock (and whether this
/// three-dice turn already resets it) once the fifty-move rule comes within reach.
#[inline]
pub fn node_key(game: &DiceGame) -> u64 {
    let k = game.hash();
    if game.h.halfmove >= 80 {
        let extra = u64::from(game.h.halfmove) << 1 | u64::from(game.h.turn_resets_clock);
        let mut z = extra.wrapping_add(0x9e37_79b9_7f4a_7c15);
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        k ^ z ^ (z >> 31)
    } else {
        k
    }
}

/// The table.
pub struct DiceTable {
    slots: Vec<Entry>,
    mask: usize,
}

impl core::fmt::Debug for DiceTable {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "DiceTable({} entries)", self.slots.len())
    }
}

impl DiceTable {
    /// A table of about `mib` MiB (a power of two number of entries, at least 1024), or
    /// `None` when the memory cannot be had.
    pub fn try_new(mib: usize) -> Option<DiceTable> {
        let want = (mib.max(1) << 20) / core::mem::size_of::<Entry>();
        let mut n = 1024usize;
        while n * 2 <= want {
            n *= 2;
        }
        let mut slots = Vec::new();
        slots.try_reserve_exact(n).ok()?;
        slots.resize(n, Entry::EMPTY);
        Some(DiceTable { slots, mask: n - 2 })
    }

    /// Size in MiB (rounded down).
    pub fn size_mib(&self) -> usize {
        (self.slots.len() * core::mem::size_of::<Entry>()) >> 20
    }

    /// Empties every slot.
    pub fn clear(&mut self) {
        self.slots.fill(Entry::EMPTY);
    }

    /// The entry of `key`, if stored.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let i = key as usize & self.mask;
        self.slots[i..i + 2]
            .iter()
            .find(|e| e.key == key && e.bound() != Bound::None)
            .copied()
    }

    /// Stores a node: in the slot that holds the key, else over the shallower of the two.
    #[inline]
    pub fn store(&mut self, key: u64, value: i32, bound: Bound, depth: u32, ply: u32, mv: Move) {
        let i = key as usize & self.mask;
        let (a, b) = (self.slots[i], self.slots[i + 1]);
        let j = if a.key == key || a.bound() == Bound::None {
            i
        } else if b.key == key || b.bound() == Bound::None || b.depth < a.depth {
            i + 1
        } else {
            i
        };
        let old = self.slots[j];
        // Keep the move of the same node when the new entry has none.
        let mv = if mv == Move::NONE && old.key == key {
            old.mv
        } else {
            mv.raw()
        };
        self.slots[j] = Entry {
            key,
            value,
            mv,
            depth: depth.min(255) as u8,
            meta: bound as u8 | (ply.min(63) as u8) << 2,
        };
    }

    /// Permille of slots in use (a sample of the first thousand).
    pub fn hashfull(&self) -> u32 {
        let n = self.slots.len().min(1000);
        self.slots[..n]
            .iter()
            .filter(|e| e.bound() != Bound::None)
            .count() as u32
            * 1000
            / n as u32
    }
}
