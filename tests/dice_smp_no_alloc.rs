//! The Dice Chess search on several threads allocates nothing while it searches, on any
//! thread: the helper threads are started by `DiceEngine::set_threads`, not by a search, and
//! sleep between searches. Counted on every thread by the global allocator (this binary
//! holds one test, so nothing else runs meanwhile).

use chesscore::dice::search::{DiceEngine, DiceLimits, SearchConfig};
use chesscore::dice::{player::sample_roll, player::Rng, DiceGame, Rules};
#[path = "common/counting_alloc.rs"]
mod counting_alloc;
use counting_alloc::allocations_on_all_threads_during;

#[test]
fn dice_search_on_several_threads_does_not_allocate() {
    let n = allocations_on_all_threads_during(|| {
        std::thread::spawn(|| drop(std::hint::black_box(vec![1u8; 16])))
            .join()
            .unwrap()
    });
    assert!(n >= 2, "the counter sees other threads: {n}");
    for rules in Rules::ALL {
        let mut rng = Rng(15 + rules as u64);
        let mut g = DiceGame::new(rules);
        let roll = sample_roll(&g, &mut rng).unwrap();
        g.set_roll(roll).unwrap();
        let mut before = g.clone();
        before.clear_roll().unwrap();
        let depth = match rules {
            Rules::ThreeDice => 1,
            Rules::TwoDice => 2,
            Rules::OneDie => 3,
        };
        for config in [
            SearchConfig::ALL,
            SearchConfig::ALL_EXACT,
            SearchConfig::PLAIN,
        ] {
            let mut e = DiceEngine::new(4);
            e.set_config(config);
            assert!(e.set_threads(3));
            // A first search gives every thread the rule set's evaluator (which allocates).
            e.search(&g, &DiceLimits::depth(1), &mut |_| {}).unwrap();
            let mut out = Vec::with_capacity(64);
            let mut nodes = 0;
            let n = allocations_on_all_threads_during(|| {
                for _ in 0..3 {
                    nodes += e
                        .search(&g, &DiceLimits::depth(depth), &mut |_| {})
                        .unwrap()
                        .nodes;
                    nodes += e
                        .evaluate(&before, &DiceLimits::depth(depth), &mut |_| {})
                        .unwrap()
                        .nodes;
                    e.search_all_rolls(&before, &DiceLimits::depth(1), &mut out, &mut |_| {})
                        .unwrap();
                    nodes += e.nodes();
                }
            });
            assert_eq!(n, 0, "{rules} {config:?}: {n} allocations in {nodes} nodes");
            assert!(nodes > 1000, "{rules}: {nodes}");
        }
    }
}
