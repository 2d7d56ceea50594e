//! Running out of memory in `Engine::set_option` leaves the engine as it was: a global
//! allocator that refuses every allocation of 1 MiB or more while this thread asks it to (the
//! engine's per-thread tables and its hash table are several MiB; nothing else is that big).
//! Before the fix, `Threads` gave its old threads away before allocating the new ones, so a
//! failed allocation left an engine with no thread, whose next search panicked.

use chesscore::search::{Engine, Limits, OptionError};
use chesscore::Position;
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

struct RefuseLarge;

thread_local! {
    /// Whether this thread's large allocations fail (const: reading it never allocates).
    static REFUSE: Cell<bool> = const { Cell::new(false) };
}

const LARGE: usize = 1 << 20;

fn refused(size: usize) -> bool {
    size >= LARGE && REFUSE.try_with(Cell::get).unwrap_or(false)
}

// SAFETY: forwards to the system allocator, or returns null (allowed: allocation failure).
unsafe impl GlobalAlloc for RefuseLarge {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if refused(layout.size()) {
            return core::ptr::null_mut();
        }
        // SAFETY: same contract as the caller's.
        unsafe { System.alloc(layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if refused(layout.size()) {
            return core::ptr::null_mut();
        }
        // SAFETY: same contract as the caller's.
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: same contract as the caller's.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if refused(new_size) {
            return core::ptr::null_mut();
        }
        // SAFETY: same contract as the caller's.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: RefuseLarge = RefuseLarge;

/// Runs `f` with this thread's large allocations refused.
fn without_large_allocations<T>(f: impl FnOnce() -> T) -> T {
    REFUSE.with(|r| r.set(true));
    let out = f();
    REFUSE.with(|r| r.set(false));
    out
}

fn searches(engine: &mut Engine) {
    let pos = Position::startpos();
    let limits = Limits {
        depth: 4,
        ..Limits::default()
    };
    let result = engine.search(&pos, &limits, &mut |_| {});
    let best = result.best_move.expect("a move from the start position");
    assert!(pos.legal_moves().contains(best), "{best:?}");
}

#[test]
fn options_leave_the_engine_as_it_was_when_memory_runs_out() {
    let mut engine = Engine::new();
    engine.set_option("Threads", "2").unwrap();
    assert_eq!(engine.thread_count(), 2);
    for n in ["3", "8", "64"] {
        assert_eq!(
            without_large_allocations(|| engine.set_option("Threads", n)),
            Err(OptionError::OutOfMemory),
            "Threads {n}"
        );
        assert_eq!(engine.thread_count(), 2, "Threads {n} changed the engine");
        searches(&mut engine);
    }
    assert_eq!(
        without_large_allocations(|| engine.set_option("Hash", "64")),
        Err(OptionError::OutOfMemory)
    );
    searches(&mut engine);
    // Fewer threads need no new tables: that works without memory, and more work with it.
    assert_eq!(
        without_large_allocations(|| engine.set_option("Threads", "1")),
        Ok(())
    );
    assert_eq!(engine.thread_count(), 1);
    searches(&mut engine);
    engine.set_option("Threads", "3").unwrap();
    assert_eq!(engine.thread_count(), 3);
    searches(&mut engine);
}
