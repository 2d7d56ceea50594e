//! The transposition table, shared by all search threads without locks.
//!
//! An entry is two 64-bit words: `key ^ data` and `data`. A reader loads both and accepts the
//! entry only when `word0 ^ word1` equals its key, so an entry torn by two threads writing at
//! once reads as a miss, never as another position's data (the "lockless hashing" of Hyatt and
//! Mann). Entries sit in clusters of four (one 64-byte cache line); a store replaces the entry
//! of the same position, else the least valuable one by depth minus age.
//!
//! `data` layout (low to high bits):
//!
//! | bits  | field                                              |
//! |-------|----------------------------------------------------|
//! | 0-15  | move (raw 16-bit [`Move`], 0 = none)               |
//! | 16-31 | score (i16, mate scores relative to the node)      |
//! | 32-47 | static evaluation (i16)                            |
//! | 48-55 | depth (u8)                                         |
//! | 56-57 | bound ([`Bound`])                                  |
//! | 58-63 | age (the search generation, mod 64)                |

use crate::moves::Move;
use std::sync::atomic::{AtomicU64, Ordering};

/// What a stored score says about the true value.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Bound {
    /// No entry.
    None = 0,
    /// The true value is at most the score (fail low).
    Upper = 1,
    /// The true value is at least the score (fail high).
    Lower = 2,
    /// The score is exact.
    Exact = 3,
}

/// A table hit, decoded.
#[derive(Copy, Clone, Debug)]
pub struct TtHit {
    /// The stored move (may be none).
    pub mv: Move,
    /// The stored score (mate scores relative to the node: see `score_from_tt`).
    pub score: i32,
    /// The stored static evaluation.
    pub eval: i32,
    /// The depth searched.
    pub depth: i32,
    /// The bound.
    pub bound: Bound,
}

#[derive(Default)]
#[repr(C)]
struct Entry {
    key_xor: AtomicU64,
    data: AtomicU64,
}

#[repr(C, align(64))]
#[derive(Default)]
struct Cluster {
    entries: [Entry; 4],
}

// SAFETY: atomic integers, valid at zero (the empty entry), no drop.
unsafe impl crate::large_pages::Zeroable for Cluster {}

/// The shared table.
pub struct TranspositionTable {
    clusters: crate::large_pages::LargeTable<Cluster>,
    age: u8,
}

impl core::fmt::Debug for TranspositionTable {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "TranspositionTable({} clusters)", self.clusters.len())
    }
}

/// Bytes per cluster.
const CLUSTER_BYTES: usize = core::mem::size_of::<Cluster>();
const _: () = assert!(CLUSTER_BYTES == 64);

impl TranspositionTable {
    /// A table of `mib` MiB (at least one cluster), or `None` when the memory cannot be had.
    pub fn try_new(mib: usize) -> Option<TranspositionTable> {
        let n = (mib.saturating_mul(1 << 20) / CLUSTER_BYTES).max(1);
        Some(TranspositionTable {
            clusters: crate::large_pages::LargeTable::try_new(n)?,
            age: 0,
        })
    }

    /// Size in MiB.
    pub fn size_mib(&self) -> usize {
        (self.clusters.len() * CLUSTER_BYTES) >> 20
    }

    /// Forgets every entry.
    pub fn clear(&mut self) {
        for c in self.clusters.iter_mut() {
            *c = Cluster::default();
        }
        self.age = 0;
    }

    /// Starts a new search generation (entries of older ones are replaced first).
    pub fn new_search(&mut self) {
        self.age = (self.age + 1) & 63;
    }

    #[inline(always)]
    fn cluster(&self, key: u64) -> &Cluster {
        let i = ((key as u128 * self.clusters.len() as u128) >> 64) as usize;
        &self.clusters[i]
    }

    /// Hints the CPU to fetch the cluster of `key`.
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            let p = self.cluster(key) as *const Cluster as *const i8;
            // SAFETY: prefetching is a hint with no memory effect; `p` points into the table.
            unsafe { core::arch::x86_64::_mm_prefetch(p, core::arch::x86_64::_MM_HINT_T0) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// Looks `key` up.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<TtHit> {
        for e in &self.cluster(key).entries {
            let data = e.data.load(Ordering::Relaxed);
            if e.key_xor.load(Ordering::Relaxed) ^ data == key && data != 0 {
                return Some(decode(data));
            }
        }
        None
    }

    /// Stores a result for `key`. Keeps the old move when the new one is none.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    pub fn store(&self, key: u64, mv: Move, score: i32, eval: i32, depth: i32, bound: Bound) {
        let cluster = self.cluster(key);
        let mut victim = &cluster.entries[0];
        let mut victim_value = i32::MAX;
        let mut old_data = 0;
        for e in &cluster.entries {
            let data = e.data.load(Ordering::Relaxed);
            let k = e.key_xor.load(Ordering::Relaxed) ^ data;
            if data == 0 || k == key {
                victim = e;
                old_data = if k == key { data } else { 0 };
                break;
            }
            let age = ((data >> 58) & 63) as u8;
            let age_gap = (self.age.wrapping_sub(age) & 63) as i32;
            let value = ((data >> 48) & 0xFF) as i32 - 8 * age_gap;
            if value < victim_value {
                victim_value = value;
                victim = e;
            }
        }
        if old_data != 0 {
            // Same position: keep a deeper exact-ish entry of this search unless this one is
            // exact or nearly as deep.
            let old_depth = ((old_data >> 48) & 0xFF) as i32;
            let old_age = ((old_data >> 58) & 63) as u8;
            if bound != Bound::Exact && old_age == self.age && depth + 3 < old_depth {
                return;
            }
        }
        let mv = if mv.raw() == 0 && old_data != 0 {
            (old_data & 0xFFFF) as u16
        } else {
            mv.raw()
        };
        let data = mv as u64
            | ((score.clamp(-32767, 32767) as i16 as u16 as u64) << 16)
            | ((eval.clamp(-32767, 32767) as i16 as u16 as u64) << 32)
            | ((depth.clamp(0, 255) as u64) << 48)
            | ((bound as u64) << 56)
            | ((self.age as u64) << 58);
        victim.key_xor.store(key ^ data, Ordering::Relaxed);
        victim.data.store(data, Ordering::Relaxed);
    }

    /// Permille of the first thousand clusters' entries written in this search generation.
    pub fn hashfull(&self) -> u32 {
        let n = self.clusters.len().min(250);
        let mut used = 0;
        for c in &self.clusters[..n] {
            for e in &c.entries {
                let d = e.data.load(Ordering::Relaxed);
                if d != 0 && ((d >> 58) & 63) as u8 == self.age {
                    used += 1;
                }
            }
        }
        (used * 1000 / (n * 4).max(1)) as u32
    }
}

fn decode(data: u64) -> TtHit {
    let bound = match (data >> 56) & 3 {
        1 => Bound::Upper,
        2 => Bound::Lower,
        3 => Bound::Exact,
        _ => Bound::None,
    };
    TtHit {
        mv: Move::from_raw(data as u16),
        score: (data >> 16) as u16 as i16 as i32,
        eval: (data >> 32) as u16 as i16 as i32,
        depth: ((data >> 48) & 0xFF) as i32,
        bound,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_and_finds_with_every_field() {
        let tt = TranspositionTable::try_new(1).unwrap();
        let m = Move::from_raw(0x1234);
        tt.store(0xDEAD_BEEF, m, -31000, 123, 17, Bound::Lower);
        let h = tt.probe(0xDEAD_BEEF).unwrap();
        assert_eq!(
            (h.mv, h.score, h.eval, h.depth, h.bound),
            (m, -31000, 123, 17, Bound::Lower)
        );
        assert!(tt.probe(0xDEAD_BEEE).is_none());
    }

    #[test]
    fn a_torn_entry_reads_as_a_miss() {
        let tt = TranspositionTable::try_new(1).unwrap();
        tt.store(42, Move::from_raw(7), 5, 5, 3, Bound::Exact);
        let c = tt.cluster(42);
        // Another writer's data word lands beside this key word.
        c.entries[0]
            .data
            .store(0x0001_0203_0405_0607, Ordering::Relaxed);
        assert!(tt.probe(42).is_none());
    }

    /// Tables below, at and above the huge-page size: cache-line aligned (2 MiB aligned from
    /// 2 MiB on Linux), empty, and every cluster, the first and the last included, stores and
    /// finds; `clear` empties them again. Keys are chosen by the cluster they map to.
    #[test]
    fn tables_of_every_size_are_aligned_empty_and_usable() {
        for mib in [1usize, 2, 3, 5] {
            let mut tt = TranspositionTable::try_new(mib).unwrap();
            let n = tt.clusters.len();
            assert_eq!(n, mib * (1 << 20) / 64);
            let addr = tt.clusters.as_ptr() as usize;
            assert_eq!(addr % 64, 0, "{mib} MiB");
            if crate::large_pages::ADVISES_HUGE_PAGES && mib >= 2 {
                assert_eq!(addr % crate::large_pages::HUGE_PAGE, 0, "{mib} MiB");
            }
            assert!(tt.clusters.iter().all(|c| c
                .entries
                .iter()
                .all(|e| e.data.load(Ordering::Relaxed) == 0)));
            // The key whose cluster index is `i` (the index is the key's high bits scaled).
            let key_of = |i: usize| (((i as u128) << 64) / n as u128 + 1) as u64 | 1;
            for i in [0, 1, n / 2, n - 1] {
                let key = key_of(i);
                assert!(core::ptr::eq(tt.cluster(key), &tt.clusters[i]), "{i}");
                tt.store(key, Move::from_raw(9), 10, 11, 5, Bound::Upper);
                assert_eq!(tt.probe(key).map(|h| h.score), Some(10), "{mib} MiB, {i}");
            }
            tt.clear();
            assert!(tt.probe(key_of(n - 1)).is_none());
        }
    }
}
