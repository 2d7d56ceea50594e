//! The chess search on several threads allocates nothing while it searches, on any thread:
//! the helper threads are started by the `Threads` option, not by a search, and are parked
//! between searches. Counted on every thread by the global allocator (this binary holds one
//! test, so nothing else runs meanwhile).

use chesscore::search::{Engine, Limits};
use chesscore::Position;
#[path = "common/counting_alloc.rs"]
mod counting_alloc;
use counting_alloc::allocations_on_all_threads_during;

#[test]
fn a_search_on_two_threads_does_not_allocate() {
    let n = allocations_on_all_threads_during(|| {
        std::thread::spawn(|| drop(std::hint::black_box(vec![1u8; 16])))
            .join()
            .unwrap()
    });
    assert!(n >= 2, "the counter sees other threads: {n}");
    let mut engine = Engine::new();
    engine.set_option("Threads", "2").unwrap();
    let pos =
        Position::from_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
            .unwrap();
    let limits = Limits {
        depth: 7,
        ..Limits::default()
    };
    let mut infos = 0;
    let mut nodes = 0;
    let n = allocations_on_all_threads_during(|| {
        for _ in 0..3 {
            let r = engine.search(&pos, &limits, &mut |_| infos += 1);
            nodes += r.nodes;
            engine.new_game();
        }
    });
    assert_eq!(
        n, 0,
        "3 searches of {nodes} nodes on 2 threads allocated {n} times"
    );
    assert!(infos >= 21 && nodes > 3000, "{infos} infos, {nodes} nodes");
}
