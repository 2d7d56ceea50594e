//! The Dice Chess search allocates nothing while it searches (every node type, every rule
//! set, every configuration), counted by a global allocator: its table is allocated when
//! the engine is made.

use chesscore::dice::search::{DiceEngine, DiceLimits};
use chesscore::dice::{player::sample_roll, player::Rng, DiceGame, Rules};
#[path = "common/counting_alloc.rs"]
mod counting_alloc;
use counting_alloc::allocations_during;
#[path = "../lab/dice_configs.rs"]
mod dice_configs;

#[test]
fn dice_search_does_not_allocate() {
    assert!(allocations_during(|| drop(std::hint::black_box(vec![1u8; 16]))) >= 1);
    for rules in Rules::ALL {
        let mut rng = Rng(5 + rules as u64);
        let mut g = DiceGame::new(rules);
        let roll = sample_roll(&g, &mut rng).unwrap();
        g.set_roll(roll).unwrap();
        let depth = if rules == Rules::ThreeDice { 1 } else { 2 };
        for (name, config) in dice_configs::NAMED {
            let mut e = DiceEngine::new(4);
            e.set_config(config);
            // A first search makes the rule set's evaluator (which may allocate its tables).
            e.search(&g, &DiceLimits::depth(1), &mut |_| {}).unwrap();
            let mut nodes = 0;
            let n = allocations_during(|| {
                let r = e
                    .search(&g, &DiceLimits::depth(depth), &mut |_| {})
                    .unwrap();
                nodes += r.nodes;
                let mut before = DiceGame::new(rules);
                before.set_roll(roll).unwrap();
                before.clear_roll().unwrap();
                let v = e
                    .evaluate(&before, &DiceLimits::depth(depth), &mut |_| {})
                    .unwrap();
                nodes += v.nodes;
            });
            assert_eq!(n, 0, "{rules} {name}: {n} allocations in {nodes} nodes");
            assert!(nodes > 100, "{rules} {name}");
        }
    }
}
