//! A pool of persistent worker threads: the one threading model of both engines.
//!
//! [`Pool::new`] starts the workers (when an engine's thread count is set, never during a
//! search) and waits until each is parked on a condition variable. A run wakes them, has
//! worker `i` run a job on item `i`, and parks them again; nothing is allocated per run (the
//! job and the items travel as pointers in the pool's mutex-guarded state, and the mutexes
//! and condition variables are futex based). Dropping the pool joins its threads.
//!
//! Two shapes of run, over the same workers:
//! - [`Pool::run`], a scoped broadcast (the chess search): worker `i` gets `&mut items[i]`
//!   of the caller's slice and a shared job that may borrow the caller's stack, the calling
//!   thread runs `main` meanwhile, and `run` returns only after every worker is done. The
//!   borrows cannot outlive the call, so the job and items need no `'static`.
//! - [`Crew`], a start/wait pair over items the pool owns (the Dice Chess search, which
//!   starts its helpers, searches on the caller in code of its own, then stops and waits
//!   for them): [`Crew::start`] wakes the workers on their items (each runs
//!   [`Work::work`]) and returns at once, [`Crew::wait`] waits for them. The items live in
//!   the crew, which waits for its workers before it lets go of them (its drop included).
//!
//! A panic in a job is caught on its worker and handed to the caller once every worker is
//! done: [`Pool::run`] resumes it (a panic of `main` too, after the wait), [`Crew::wait`]
//! returns it. A thread that cannot be started is reported ([`Pool::new`] returns the error,
//! and the threads it had started are stopped and joined), so a caller that fails to make a
//! new pool keeps its old one.
//!
//! The `unsafe` is in three small places, each with its argument: the erased task's `Send`,
//! the two calls that hand out the erased pointers ([`Pool::run`], [`Crew::start`]), and the
//! functions that turn them back into references (`call_job`, `call_work`).

use std::any::Any;
use std::io;
use std::panic::{self, AssertUnwindSafe};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::thread::{Builder, JoinHandle};

/// A panic's payload, carried from a worker to the caller.
pub(crate) type Panic = Box<dyn Any + Send + 'static>;

/// One run's work with the lifetimes of what it borrows erased: worker `i < len` calls
/// `call(job, items, i)`. Made only by [`Pool::run`] and [`Crew::start`], whose callers
/// keep `job` and the items alive and untouched until the run has been waited for.
#[derive(Copy, Clone)]
struct Task {
    call: unsafe fn(job: *const (), items: *mut (), i: usize),
    job: *const (),
    items: *mut (),
    /// The workers that take part: `0..len`.
    len: usize,
}

// SAFETY: a task is pointers to a job that is `Sync` (shared by the workers) and to items that
// are `Send` (each reached by one worker only, item `i` by worker `i`); both bounds are
// required where tasks are made (`Pool::run`, `Crew::start`), so moving the pointers to the
// workers is what sending `&J` and `&mut T` would be.
unsafe impl Send for Task {}

/// Runs the job `J` on item `i` of a `[T]` (the trampoline of [`Pool::run`]).
///
/// # Safety
/// `job` points to a live `J`, `items` to a live `[T]` longer than `i`, and nothing else
/// reads or writes item `i` until this call returns.
unsafe fn call_job<T, J: Fn(usize, &mut T)>(job: *const (), items: *mut (), i: usize) {
    // SAFETY: the caller's contract: both pointers are live, `i` is in bounds and item `i` is
    // this call's alone.
    let (job, item) = unsafe { (&*job.cast::<J>(), &mut *items.cast::<T>().add(i)) };
    job(i, item);
}

/// Runs [`Work::work`] on item `i` of a `[T]` (the trampoline of [`Crew::start`]).
///
/// # Safety
/// `items` points to a live `[T]` longer than `i`, and nothing else reads or writes item `i`
/// until this call returns.
unsafe fn call_work<T: Work>(_job: *const (), items: *mut (), i: usize) {
    // SAFETY: the caller's contract: the pointer is live, `i` in bounds, item `i` ours alone.
    let item = unsafe { &mut *items.cast::<T>().add(i) };
    item.work();
}

#[derive(Default)]
struct State {
    /// Bumped by each run; a worker runs each value's task once.
    generation: u64,
    /// The current run's task (`None` between runs).
    task: Option<Task>,
    /// Workers still running the current task.
    running: usize,
    /// Workers started and parked (counted once, at start).
    started: usize,
    /// The first panic of a job in the current run.
    panic: Option<Panic>,
    /// Set by the drop: every worker returns.
    quit: bool,
}

#[derive(Default)]
struct Shared {
    state: Mutex<State>,
    /// Wakes the workers (a new task, or quit).
    go: Condvar,
    /// Wakes the caller (a worker started, or the last one finished).
    done: Condvar,
}

/// Locks, ignoring poisoning (no code panics while holding the lock; a job's panic is caught
/// outside it).
fn lock(m: &Mutex<State>) -> MutexGuard<'_, State> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

fn wait<'a>(c: &Condvar, g: MutexGuard<'a, State>) -> MutexGuard<'a, State> {
    c.wait(g).unwrap_or_else(PoisonError::into_inner)
}

#[cfg(test)]
thread_local! {
    /// Test hook: the number of spawns on this thread that succeed before one fails (then
    /// the hook is off again). `None`: no failure.
    static SPAWNS_BEFORE_FAILURE: std::cell::Cell<Option<usize>> =
        const { std::cell::Cell::new(None) };
}

/// Makes the spawn after the next `n` ones on this thread fail (tests only).
#[cfg(test)]
pub(crate) fn fail_spawn_after(n: usize) {
    SPAWNS_BEFORE_FAILURE.with(|c| c.set(Some(n)));
}

/// `Builder::spawn`, with the test hook that makes it fail.
fn spawn(builder: Builder, f: impl FnOnce() + Send + 'static) -> io::Result<JoinHandle<()>> {
    #[cfg(test)]
    {
        let fail = SPAWNS_BEFORE_FAILURE.with(|c| match c.get() {
            Some(0) => {
                c.set(None);
                true
            }
            Some(n) => {
                c.set(Some(n - 1));
                false
            }
            None => false,
        });
        if fail {
            return Err(io::Error::other("spawn failure injected by a test"));
        }
    }
    builder.spawn(f)
}

/// A worker: parks until a task or quit, runs its part of each task, reports the end.
fn worker(shared: &Shared, index: usize) {
    let mut seen = 0;
    {
        let mut st = lock(&shared.state);
        st.started += 1;
        shared.done.notify_all();
    }
    loop {
        let task = {
            let mut st = lock(&shared.state);
            while st.generation == seen && !st.quit {
                st = wait(&shared.go, st);
            }
            if st.quit {
                return;
            }
            seen = st.generation;
            st.task
        };
        let Some(task) = task.filter(|t| index < t.len) else {
            continue;
        };
        let result = panic::catch_unwind(AssertUnwindSafe(|| {
            // SAFETY: the task's maker keeps the job and the items alive and untouched until
            // `running` is back to 0 (`Pool::wait`), which this worker's decrement below
            // comes after; `index < len`, and item `index` is this worker's alone.
            unsafe { (task.call)(task.job, task.items, index) }
        }));
        let mut st = lock(&shared.state);
        if let Err(p) = result {
            st.panic.get_or_insert(p);
        }
        st.running -= 1;
        if st.running == 0 {
            shared.done.notify_all();
        }
    }
}

/// Persistent worker threads, parked between runs (see the module docs).
pub(crate) struct Pool {
    shared: Arc<Shared>,
    handles: Vec<JoinHandle<()>>,
    /// A task was dispatched and not waited for yet.
    busy: bool,
}

impl core::fmt::Debug for Pool {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "Pool({} workers)", self.handles.len())
    }
}

impl Pool {
    /// Starts `workers` threads named `name-1`, `name-2`..., each with a stack of
    /// `stack_size` bytes, and waits until every one is parked. A thread that cannot be
    /// started (or the memory for the handles) is an error; the threads already started are
    /// then stopped and joined.
    pub(crate) fn new(workers: usize, name: &str, stack_size: usize) -> io::Result<Pool> {
        let mut pool = Pool {
            shared: Arc::new(Shared::default()),
            handles: Vec::new(),
            busy: false,
        };
        pool.handles
            .try_reserve_exact(workers)
            .map_err(|_| io::Error::from(io::ErrorKind::OutOfMemory))?;
        for index in 0..workers {
            let shared = pool.shared.clone();
            let builder = Builder::new()
                .name(format!("{name}-{}", index + 1))
                .stack_size(stack_size);
            // On an error the pool's drop stops and joins the workers started so far.
            pool.handles
                .push(spawn(builder, move || worker(&shared, index))?);
        }
        // What a new thread sets up happens now, not in the first run.
        let mut st = lock(&pool.shared.state);
        while st.started < workers {
            st = wait(&pool.shared.done, st);
        }
        drop(st);
        Ok(pool)
    }

    /// The number of worker threads.
    pub(crate) fn workers(&self) -> usize {
        self.handles.len()
    }

    /// Runs `job(i, &mut items[i])` on worker `i` for every `i` below both the number of
    /// items and of workers, and `main` on the calling thread meanwhile; returns `main`'s
    /// value once every worker is done. Items beyond the workers are left alone.
    ///
    /// # Panics
    /// Resumes the panic of `main` or else the first panic of a job, always after every
    /// worker is done (so nothing borrowed by the job outlives the call).
    pub(crate) fn run<T, J, R>(&mut self, items: &mut [T], job: &J, main: impl FnOnce() -> R) -> R
    where
        T: Send,
        J: Fn(usize, &mut T) + Sync,
    {
        let task = Task {
            call: call_job::<T, J>,
            job: (job as *const J).cast(),
            items: items.as_mut_ptr().cast(),
            len: items.len().min(self.workers()),
        };
        // SAFETY: `job` and `items` are borrowed for this whole call, and the call does not
        // return or unwind before `wait` below has seen every worker finish (a panic of
        // `main` is caught and resumed after the wait; a job's is caught on its worker).
        // Meanwhile nothing else touches the items: the caller's `&mut` is lent to this call
        // and `main` cannot reach it. `T: Send` and `J: Sync` are what the workers need.
        unsafe { self.dispatch(task) };
        let main_result = panic::catch_unwind(AssertUnwindSafe(main));
        let worker_panic = self.wait();
        match (main_result, worker_panic) {
            (Err(p), _) | (Ok(_), Some(p)) => panic::resume_unwind(p),
            (Ok(r), None) => r,
        }
    }

    /// Wakes the workers on `task` (nothing to do when it has no part for them).
    ///
    /// # Safety
    /// Until [`Pool::wait`] has returned (or the pool is dropped, which waits), `task.job`
    /// and the first `task.len` items stay alive, and nothing but worker `i` touches item
    /// `i`.
    unsafe fn dispatch(&mut self, task: Task) {
        // A second task over a running one would let `wait` return early.
        assert!(!self.busy, "a pool runs one task at a time");
        if task.len == 0 {
            return;
        }
        let mut st = lock(&self.shared.state);
        st.generation += 1;
        st.task = Some(task);
        st.running = task.len;
        self.busy = true;
        self.shared.go.notify_all();
    }

    /// Waits until every worker is done with the current task (at once without one), and
    /// returns the first panic of its jobs.
    fn wait(&mut self) -> Option<Panic> {
        if !self.busy {
            return None;
        }
        let mut st = lock(&self.shared.state);
        while st.running > 0 {
            st = wait(&self.shared.done, st);
        }
        st.task = None;
        self.busy = false;
        st.panic.take()
    }
}

impl Drop for Pool {
    fn drop(&mut self) {
        // Only a crew leaves a task running, and a crew waits before its pool drops; this
        // wait makes the pool safe on its own.
        drop(self.wait());
        lock(&self.shared.state).quit = true;
        self.shared.go.notify_all();
        for h in self.handles.drain(..) {
            let _ = h.join();
        }
    }
}

/// What a [`Crew`]'s item does on its worker when the crew is started.
pub(crate) trait Work: Send {
    /// One run's work.
    fn work(&mut self);
}

/// A pool whose items it owns, one per worker, run by a start/wait pair (see the module
/// docs): for a caller whose own part of the work is not one closure.
pub(crate) struct Crew<T: Work> {
    pool: Pool,
    /// One per worker; the vector is never resized, so its block stays where the workers
    /// look for it.
    items: Vec<T>,
}

impl<T: Work> core::fmt::Debug for Crew<T> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "Crew({} workers)", self.items.len())
    }
}

impl<T: Work> Crew<T> {
    /// Starts a worker for each item (see [`Pool::new`] for the names, stacks and errors).
    pub(crate) fn new(items: Vec<T>, name: &str, stack_size: usize) -> io::Result<Crew<T>> {
        let pool = Pool::new(items.len(), name, stack_size)?;
        Ok(Crew { pool, items })
    }

    /// The number of workers (and items).
    pub(crate) fn len(&self) -> usize {
        self.items.len()
    }

    /// Whether a start was not waited for yet.
    pub(crate) fn is_running(&self) -> bool {
        self.pool.busy
    }

    /// The items, between runs.
    ///
    /// # Panics
    /// While the crew is running (wait first).
    pub(crate) fn items(&mut self) -> &mut [T] {
        assert!(!self.is_running(), "a crew's items are read after its wait");
        &mut self.items
    }

    /// Wakes every worker on its item and returns at once.
    ///
    /// # Panics
    /// While the crew is running (wait first).
    pub(crate) fn start(&mut self) {
        let task = Task {
            call: call_work::<T>,
            job: core::ptr::null(),
            items: self.items.as_mut_ptr().cast(),
            len: self.items.len(),
        };
        // SAFETY: the items are in the vector's heap block, which stays where it is until the
        // crew is dropped (the vector is never resized; moving the crew does not move the
        // block; a leaked crew never frees it), and the drop waits for the workers first.
        // Until the wait, nothing else touches them: `items` refuses while running, and the
        // crew lends no other reference. `T: Work` is `Send`.
        unsafe { self.pool.dispatch(task) };
    }

    /// Waits until every worker is done (the caller makes them end: a stop flag), and
    /// returns the first panic of their work.
    pub(crate) fn wait(&mut self) -> Option<Panic> {
        self.pool.wait()
    }
}

impl<T: Work> Drop for Crew<T> {
    fn drop(&mut self) {
        // Before the items go (the owner has made the work end).
        drop(self.pool.wait());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
    use std::time::Duration;

    const STACK: usize = 1 << 20;

    /// Every worker gets its own item, sees the caller's borrowed data, and `main` runs on
    /// the calling thread meanwhile; the pool serves several runs, with fewer items than
    /// workers too.
    #[test]
    fn jobs_see_their_items_and_borrowed_data() {
        let mut pool = Pool::new(3, "test", STACK).unwrap();
        assert_eq!(pool.workers(), 3);
        let base = [100usize, 200, 300];
        let caller = std::thread::current().id();
        for round in 0..5 {
            let mut items = [(0usize, None); 3];
            let ran = AtomicUsize::new(0);
            let job = |i: usize, item: &mut (usize, Option<std::thread::ThreadId>)| {
                *item = (base[i] + i + round, Some(std::thread::current().id()));
                ran.fetch_add(1, Ordering::SeqCst);
            };
            let r = pool.run(&mut items, &job, || {
                assert_eq!(std::thread::current().id(), caller);
                7
            });
            assert_eq!(r, 7);
            assert_eq!(ran.load(Ordering::SeqCst), 3);
            for (i, item) in items.iter().enumerate() {
                assert_eq!(item.0, base[i] + i + round);
                assert_ne!(item.1, Some(caller), "item {i} ran on the caller");
                assert!(item.1.is_some());
            }
        }
        let mut two = [0u32; 2];
        pool.run(&mut two, &|i, x: &mut u32| *x = i as u32 + 1, || ());
        assert_eq!(two, [1, 2]);
        // No workers: `main` alone.
        let mut none = Pool::new(0, "test", STACK).unwrap();
        let mut items = [0u8; 2];
        assert_eq!(none.run(&mut items, &|_, x: &mut u8| *x = 1, || 5), 5);
        assert_eq!(items, [0, 0]);
    }

    /// A job's panic reaches the caller only after every other worker has finished (the slow
    /// one's write is seen), and the pool works again afterwards. So does a panic of `main`.
    #[test]
    fn panics_propagate_after_all_workers_stop() {
        let mut pool = Pool::new(3, "test", STACK).unwrap();
        let mut items = [false; 3];
        let r = panic::catch_unwind(AssertUnwindSafe(|| {
            pool.run(
                &mut items,
                &|i, done: &mut bool| {
                    if i == 0 {
                        panic!("job 0 fails");
                    }
                    std::thread::sleep(Duration::from_millis(50 * i as u64));
                    *done = true;
                },
                || (),
            )
        }));
        let payload = r.expect_err("the job's panic comes back");
        assert_eq!(payload.downcast_ref::<&str>(), Some(&"job 0 fails"));
        assert_eq!(items, [false, true, true], "the others finished first");

        let mut items = [false; 3];
        let r = panic::catch_unwind(AssertUnwindSafe(|| {
            pool.run(
                &mut items,
                &|_, done: &mut bool| {
                    std::thread::sleep(Duration::from_millis(50));
                    *done = true;
                },
                || panic!("main fails"),
            )
        }));
        assert!(r.is_err());
        assert_eq!(items, [true; 3], "the workers finished before the unwind");

        let mut items = [0; 3];
        pool.run(&mut items, &|i, x: &mut usize| *x = i, || ());
        assert_eq!(items, [0, 1, 2]);
    }

    /// Dropping a pool joins its threads: each worker's `Arc` of the shared state is gone.
    #[test]
    fn drop_joins_the_threads() {
        let pool = Pool::new(4, "test", STACK).unwrap();
        let shared = Arc::downgrade(&pool.shared);
        assert_eq!(shared.strong_count(), 5);
        drop(pool);
        assert_eq!(shared.strong_count(), 0);
    }

    /// Threads of this process whose name starts with `prefix` (Linux: `/proc/self/task`),
    /// read until there are `want` of them or 5 s have passed. The listing lags the threads:
    /// a joined thread can stay listed for a moment after `join` returned (the kernel wakes
    /// the joiner when it clears the thread's id, before the task is gone; under qemu-user
    /// the emulator clears it earlier still), and a new thread names itself once it runs. A
    /// thread really left running, or never started, still gives the wrong count at 5 s.
    #[cfg(all(target_os = "linux", not(miri)))]
    fn threads_named(prefix: &str, want: usize) -> usize {
        let count = || {
            std::fs::read_dir("/proc/self/task")
                .unwrap()
                .filter_map(|t| std::fs::read_to_string(t.ok()?.path().join("comm")).ok())
                .filter(|name| name.starts_with(prefix))
                .count()
        };
        let start = std::time::Instant::now();
        loop {
            let n = count();
            if n == want || start.elapsed().as_secs() >= 5 {
                return n;
            }
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
    }

    /// A thread that cannot be started is an error, and the threads started before it are
    /// stopped and joined (none of them is left in the process).
    #[test]
    fn a_spawn_failure_is_reported() {
        fail_spawn_after(2);
        let err = Pool::new(4, "spawnfail", STACK).unwrap_err();
        assert_eq!(err.to_string(), "spawn failure injected by a test");
        #[cfg(all(target_os = "linux", not(miri)))]
        assert_eq!(threads_named("spawnfail-", 0), 0);
        // The hook is spent: the next pool starts.
        let pool = Pool::new(2, "spawnok", STACK).unwrap();
        assert_eq!(pool.workers(), 2);
        #[cfg(all(target_os = "linux", not(miri)))]
        assert_eq!(threads_named("spawnok-", 2), 2);
        drop(pool);
        #[cfg(all(target_os = "linux", not(miri)))]
        assert_eq!(threads_named("spawnok-", 0), 0);
        // A crew reports it the same way.
        fail_spawn_after(0);
        assert!(Crew::new(vec![Counter::default()], "test", STACK).is_err());
    }

    #[derive(Default)]
    struct Counter {
        runs: usize,
        stop: Option<Arc<AtomicBool>>,
    }

    impl Work for Counter {
        fn work(&mut self) {
            if let Some(stop) = &self.stop {
                while !stop.load(Ordering::SeqCst) {
                    std::thread::yield_now();
                }
            }
            self.runs += 1;
        }
    }

    /// A crew runs each item's work once per start, while the caller goes on; its items are
    /// readable after the wait, and dropping a running crew waits for the work first.
    #[test]
    fn a_crew_starts_and_waits() {
        let stop = Arc::new(AtomicBool::new(false));
        let items = (0..3)
            .map(|_| Counter {
                runs: 0,
                stop: Some(stop.clone()),
            })
            .collect();
        let mut crew = Crew::new(items, "test", STACK).unwrap();
        assert_eq!(crew.len(), 3);
        for round in 1..=3 {
            crew.start();
            assert!(crew.is_running());
            // The workers spin until the caller lets them go: `start` returned before.
            stop.store(true, Ordering::SeqCst);
            assert!(crew.wait().is_none());
            stop.store(false, Ordering::SeqCst);
            assert!(crew.items().iter().all(|c| c.runs == round));
        }
        crew.start();
        stop.store(true, Ordering::SeqCst);
        drop(crew);
    }

    /// A crew's panic is returned by the wait, after every worker is done.
    #[test]
    fn a_crew_returns_a_panic() {
        struct Fails(bool);
        impl Work for Fails {
            fn work(&mut self) {
                assert!(!self.0, "this item fails");
                std::thread::sleep(Duration::from_millis(30));
            }
        }
        let mut crew = Crew::new(vec![Fails(true), Fails(false)], "test", STACK).unwrap();
        crew.start();
        let p = crew.wait().expect("the panic comes back");
        assert_eq!(p.downcast_ref::<&str>(), Some(&"this item fails"));
        assert!(!crew.is_running());
        crew.items()[0].0 = false;
        crew.start();
        assert!(crew.wait().is_none());
    }
}
