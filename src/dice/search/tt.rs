//! The Dice Chess transposition table: one 16-byte entry per slot, two slots a bucket,
//! allocated once (creation or resize), never during a search, and shared by the search
//! threads without locks.
//!
//! Keys keep pre-roll, post-roll and mid-turn nodes apart: [`DiceGame::hash`] mixes in the
//! phase and the dice still to play, so a chance node (awaiting the roll), a decision node
//! (the roll known) and a three-dice node in the middle of a turn (fewer dice left) never
//! share an entry. Near the fifty-move limit the halfmove clock is mixed in as well (the
//! draw depends on it), see [`node_key`].
//!
//! An entry holds the value with its bound, the remaining depth, the distance from the root
//! in turns (`ply`, for the exact mode, see [`super::TableMode::Exact`]) and, for
//! decision nodes, the best move.
//!
//! # Sharing between threads
//! The threads of one search (see [`super::DiceEngine::set_threads`]) probe and store the
//! same table at once, with no lock. A slot is two 64-bit words written one after the other:
//! `key ^ data` and `data`, where `data` packs value, move, depth and meta (the "lockless
//! hashing" of Hyatt and Mann, as in the chess table, `crate::search::tt`). A reader
//! recovers the key as the xor of the two words, so a slot torn by two threads writing at
//! once decodes to a key that is (but for a chance of about 2^-64) no node's, and reads as a
//! miss: never another node's value or move. A value that does get through that way would
//! still lie on the value scale, and a move is only used to order the moves generated at the
//! node. With one thread nothing is torn and the table behaves exactly as a plain array.
//!
//! [`DiceGame::hash`]: crate::dice::DiceGame::hash

use crate::dice::DiceGame;
use crate::moves::Move;
use std::sync::atomic::{AtomicU64, Ordering};

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

/// One slot of the table as two words written and read without locks: `key ^ data` and
/// `data` (the decoded [`Entry`] packed into 64 bits).
#[derive(Default)]
struct Slot {
    key_xor: AtomicU64,
    data: AtomicU64,
}

const _: () = assert!(core::mem::size_of::<Slot>() == 16);

// SAFETY: atomic integers, valid at zero (the empty entry: bound none), no drop.
unsafe impl crate::large_pages::Zeroable for Slot {}

impl Slot {
    /// The entry in the slot (its key recovered from the two words: a torn slot decodes to
    /// a key no node has, so it is never found).
    #[inline]
    fn load(&self) -> Entry {
        let data = self.data.load(Ordering::Relaxed);
        let key = self.key_xor.load(Ordering::Relaxed) ^ data;
        Entry {
            key,
            value: data as u32 as i32,
            mv: (data >> 32) as u16,
            depth: (data >> 48) as u8,
            meta: (data >> 56) as u8,
        }
    }

    #[inline]
    fn save(&self, e: &Entry) {
        let data = u64::from(e.value as u32)
            | u64::from(e.mv) << 32
            | u64::from(e.depth) << 48
            | u64::from(e.meta) << 56;
        self.key_xor.store(e.key ^ data, Ordering::Relaxed);
        self.data.store(data, Ordering::Relaxed);
    }
}

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

/// The table (shared by the search threads: every method takes `&self`).
pub struct DiceTable {
    slots: crate::large_pages::LargeTable<Slot>,
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
        let want = (mib.max(1) << 20) / core::mem::size_of::<Slot>();
        let mut n = 1024usize;
        while n * 2 <= want {
            n *= 2;
        }
        Some(DiceTable {
            slots: crate::large_pages::LargeTable::try_new(n)?,
            mask: n - 2,
        })
    }

    /// Size in MiB (rounded down).
    pub fn size_mib(&self) -> usize {
        (self.slots.len() * core::mem::size_of::<Slot>()) >> 20
    }

    /// Empties every slot (between searches: a search running meanwhile would see some
    /// slots emptied).
    pub fn clear(&self) {
        for s in self.slots.iter() {
            s.save(&Entry::EMPTY);
        }
    }

    /// The entry of `key`, if stored.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let i = key as usize & self.mask;
        self.slots[i..i + 2]
            .iter()
            .map(Slot::load)
            .find(|e| e.key == key && e.bound() != Bound::None)
    }

    /// Stores a node: in the slot that holds the key, else over the shallower of the two.
    #[inline]
    pub fn store(&self, key: u64, value: i32, bound: Bound, depth: u32, ply: u32, mv: Move) {
        let i = key as usize & self.mask;
        let (a, b) = (self.slots[i].load(), self.slots[i + 1].load());
        let (j, old) = if a.key == key || a.bound() == Bound::None {
            (i, a)
        } else if b.key == key || b.bound() == Bound::None || b.depth < a.depth {
            (i + 1, b)
        } else {
            (i, a)
        };
        // Keep the move of the same node when the new entry has none.
        let mv = if mv == Move::NONE && old.key == key {
            old.mv
        } else {
            mv.raw()
        };
        self.slots[j].save(&Entry {
            key,
            value,
            mv,
            depth: depth.min(255) as u8,
            meta: bound as u8 | (ply.min(63) as u8) << 2,
        });
    }

    /// Permille of slots in use (a sample of the first thousand).
    pub fn hashfull(&self) -> u32 {
        let n = self.slots.len().min(1000);
        self.slots[..n]
            .iter()
            .filter(|s| s.load().bound() != Bound::None)
            .count() as u32
            * 1000
            / n as u32
    }
}
