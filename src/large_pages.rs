//! The memory of both engines' hash tables: zeroed, freed with the layout it was allocated
//! with, and on transparent huge pages where Linux has them ("large pages", as Stockfish
//! calls them).
//!
//! A hash-table probe is a cache miss to a random entry; with 4 KiB pages it is usually a TLB
//! miss as well (a 16 MiB table is 4,096 pages). On Linux (x86_64 and aarch64) a table of
//! 2 MiB or more is aligned to 2 MiB and the kernel is asked to back it with huge pages
//! (`madvise(MADV_HUGEPAGE)`, what most distributions' default `transparent_hugepage=madvise`
//! waits for) before it is zeroed, so that the zeroing faults it in as huge pages. The chess
//! search's bench gained about 8% (docs/results/performance.md). The zeroing touches every
//! page when the table is made (a table is committed at creation, as clearing it commits it
//! anyway); other targets allocate the same way without the advice.
//!
//! The global allocator is used throughout, so an allocator that refuses (tests/engine_oom.rs)
//! makes [`LargeTable::try_new`] return `None`.

use core::ptr::NonNull;
use std::alloc::Layout;

/// A huge page: the alignment of a table of at least this size on Linux.
pub(crate) const HUGE_PAGE: usize = 2 << 20;

/// Whether tables of [`HUGE_PAGE`] or more are aligned to it and advised (this target).
pub(crate) const ADVISES_HUGE_PAGES: bool = cfg!(all(
    target_os = "linux",
    any(target_arch = "x86_64", target_arch = "aarch64")
));

/// Types for which all-zero bytes are a valid value (the empty entry of a table).
///
/// # Safety
/// An implementor must be valid with every byte zero, need no drop, and be `Send` and `Sync`.
pub(crate) unsafe trait Zeroable: Send + Sync {}

/// `len` zeroed `T`s, owned, aligned to at least `T`'s alignment (to [`HUGE_PAGE`] from that
/// size on, on Linux).
pub(crate) struct LargeTable<T: Zeroable> {
    ptr: NonNull<T>,
    len: usize,
    layout: Layout,
}

// SAFETY: the table owns its block as a `Box<[T]>` would, and `T: Zeroable` is `Send`.
unsafe impl<T: Zeroable> Send for LargeTable<T> {}
// SAFETY: as above; shared access gives `&[T]` only, and `T: Zeroable` is `Sync`.
unsafe impl<T: Zeroable> Sync for LargeTable<T> {}

impl<T: Zeroable> LargeTable<T> {
    /// `len` (at least 1) zeroed values, or `None` when the allocator refuses.
    pub(crate) fn try_new(len: usize) -> Option<LargeTable<T>> {
        let size = len.max(1).checked_mul(core::mem::size_of::<T>())?;
        let huge = ADVISES_HUGE_PAGES && size >= HUGE_PAGE;
        let align = if huge {
            HUGE_PAGE
        } else {
            core::mem::align_of::<T>()
        };
        let layout = Layout::from_size_align(size, align).ok()?;
        if layout.size() == 0 {
            return None;
        }
        // SAFETY: the layout has a non-zero size (checked above).
        let p = unsafe { std::alloc::alloc(layout) } as *mut T;
        let ptr = NonNull::new(p)?;
        if huge {
            advise_huge_pages(p as *mut u8, size);
        }
        // SAFETY: `p` is valid for writes of `len.max(1)` values of `T` (just allocated with
        // their size and at least their alignment); all-zero bytes are a valid `T`
        // (`Zeroable`).
        unsafe { core::ptr::write_bytes(p, 0, len.max(1)) };
        Some(LargeTable {
            ptr,
            len: len.max(1),
            layout,
        })
    }
}

impl<T: Zeroable> core::ops::Deref for LargeTable<T> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        // SAFETY: `ptr` holds `len` initialised values owned by `self`.
        unsafe { core::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }
}

impl<T: Zeroable> core::ops::DerefMut for LargeTable<T> {
    fn deref_mut(&mut self) -> &mut [T] {
        // SAFETY: as in `deref`, and `&mut self` makes the access unique.
        unsafe { core::slice::from_raw_parts_mut(self.ptr.as_ptr(), self.len) }
    }
}

impl<T: Zeroable> Drop for LargeTable<T> {
    fn drop(&mut self) {
        // SAFETY: the block was allocated by the global allocator with `self.layout`, and
        // `T` needs no drop (`Zeroable`).
        unsafe { std::alloc::dealloc(self.ptr.as_ptr() as *mut u8, self.layout) }
    }
}

/// Asks Linux to back `len` bytes from `p` (2 MiB aligned) with transparent huge pages. A
/// hint: a kernel without them, or set to `never`, refuses or ignores it and the memory works
/// the same, so the result is not looked at.
#[cfg(all(
    target_os = "linux",
    any(target_arch = "x86_64", target_arch = "aarch64")
))]
fn advise_huge_pages(p: *mut u8, len: usize) {
    extern "C" {
        fn madvise(
            addr: *mut core::ffi::c_void,
            len: usize,
            advice: core::ffi::c_int,
        ) -> core::ffi::c_int;
    }
    /// `MADV_HUGEPAGE` (14 in Linux's asm-generic/mman-common.h, which both architectures use).
    const MADV_HUGEPAGE: core::ffi::c_int = 14;
    // SAFETY: `madvise` reads no memory of ours; `MADV_HUGEPAGE` only changes how the kernel
    // backs pages of a range this process owns (`p..p + len`, page-aligned), not their
    // contents.
    unsafe { madvise(p as *mut core::ffi::c_void, len, MADV_HUGEPAGE) };
}

#[cfg(not(all(
    target_os = "linux",
    any(target_arch = "x86_64", target_arch = "aarch64")
)))]
fn advise_huge_pages(_p: *mut u8, _len: usize) {}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicU64, Ordering};

    #[repr(C, align(64))]
    struct Line([AtomicU64; 8]);
    // SAFETY: atomics are valid at zero and need no drop.
    unsafe impl Zeroable for Line {}

    /// Sizes below, at and above a huge page: aligned as promised, zeroed, writable to the
    /// last element, and freed (the loop drops each).
    #[test]
    fn tables_are_aligned_zeroed_and_writable() {
        for len in [
            1usize,
            100,
            HUGE_PAGE / 64,
            HUGE_PAGE / 64 + 1,
            3 * HUGE_PAGE / 64,
        ] {
            let t = LargeTable::<Line>::try_new(len).unwrap();
            assert_eq!(t.len(), len);
            let addr = t.as_ptr() as usize;
            assert_eq!(addr % 64, 0, "{len}");
            if ADVISES_HUGE_PAGES && len * 64 >= HUGE_PAGE {
                assert_eq!(addr % HUGE_PAGE, 0, "{len}");
            }
            assert!(t
                .iter()
                .all(|l| l.0.iter().all(|w| w.load(Ordering::Relaxed) == 0)));
            t[len - 1].0[7].store(7, Ordering::Relaxed);
            assert_eq!(t[len - 1].0[7].load(Ordering::Relaxed), 7);
        }
    }
}
