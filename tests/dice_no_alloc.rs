//! Dice Chess: rolls, generation (the three-dice maximum rule included), make/unmake,
//! outcomes and status allocate nothing, counted by a global allocator.

use chesscore::dice::{player::Rng, DiceGame, Phase, Rules};
use chesscore::{Move, MoveList};
#[path = "common/counting_alloc.rs"]
mod counting_alloc;
use counting_alloc::allocations_during;

#[test]
fn dice_hot_paths_do_not_allocate() {
    assert!(allocations_during(|| drop(std::hint::black_box(vec![1u8; 16]))) >= 1);
    for rules in Rules::ALL {
        let mut g = DiceGame::new(rules);
        let mut rng = Rng(99 + rules as u64);
        let mut list = MoveList::new();
        let mut turns = 0;
        let n = allocations_during(|| {
            while !g.status().is_over() && turns < 300 {
                let o = g.outcomes();
                let mut x = rng.below(o.denominator() as u64) as u32;
                let mut roll = o.as_slice()[0].roll;
                for oc in o.as_slice() {
                    if x < oc.weight {
                        roll = oc.roll;
                        break;
                    }
                    x -= oc.weight;
                }
                g.set_roll(roll).unwrap();
                while g.phase() == Phase::AwaitingMove {
                    g.generate_moves(&mut list);
                    // Every move made and unmade, then one kept.
                    for &m in list.iter() {
                        let u = g.make_move_unchecked(m);
                        g.unmake_move_unchecked(m, &u);
                    }
                    let m = if list.is_empty() {
                        Move::NONE
                    } else {
                        list.as_slice()[rng.below(list.len() as u64) as usize]
                    };
                    g.make_move_unchecked(m);
                }
                turns += 1;
            }
        });
        assert_eq!(n, 0, "{rules}: {n} allocations in {turns} turns");
        assert!(turns > 5, "{rules}");
    }
}
