//! A global allocator that counts each thread's allocations, for the tests that prove hot
//! paths allocate nothing (`tests/no_alloc.rs`, `tests/dice_no_alloc.rs` include this file;
//! each test binary gets its own allocator).

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicUsize, Ordering};

struct Counting;

thread_local! {
    /// Allocations made by this thread (tests run on several threads at once). Const
    /// initialisation: reading it never allocates.
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
}

/// Allocations made by every thread (for code that runs on threads of its own; meaningful
/// only in a test binary with one test, since the harness runs tests side by side).
static ALL_THREADS: AtomicUsize = AtomicUsize::new(0);

fn count_one() {
    ALL_THREADS.fetch_add(1, Ordering::Relaxed);
    // `try_with`: during thread teardown the slot may be gone; such allocations are not ours.
    let _ = ALLOCATIONS.try_with(|c| c.set(c.get() + 1));
}

// SAFETY: forwards to the system allocator unchanged; only counts calls.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count_one();
        // SAFETY: same contract as the caller's.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: same contract as the caller's.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count_one();
        // SAFETY: same contract as the caller's.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// The allocations this thread makes while `f` runs.
#[allow(dead_code)]
pub fn allocations_during(f: impl FnOnce()) -> usize {
    let before = ALLOCATIONS.with(Cell::get);
    f();
    ALLOCATIONS.with(Cell::get) - before
}

/// The allocations every thread makes while `f` runs (see [`ALL_THREADS`]).
#[allow(dead_code)]
pub fn allocations_on_all_threads_during(f: impl FnOnce()) -> usize {
    let before = ALL_THREADS.load(Ordering::SeqCst);
    f();
    ALL_THREADS.load(Ordering::SeqCst) - before
}
