//! The Dice Chess evaluation and the heuristic player's scoring allocate nothing (the
//! evaluator's tables are made in `DiceEvaluator::new`), counted by a global allocator.

use chesscore::dice::eval::heuristic::HeuristicPlayer;
use chesscore::dice::eval::DiceEvaluator;
use chesscore::dice::player::{sample_roll, Rng};
use chesscore::dice::{DiceGame, Phase, Rules};
use chesscore::{Move, MoveList};
#[path = "common/counting_alloc.rs"]
mod counting_alloc;
use counting_alloc::allocations_during;

#[test]
fn dice_evaluation_does_not_allocate() {
    assert!(allocations_during(|| drop(std::hint::black_box(vec![1u8; 16]))) >= 1);
    for rules in Rules::ALL {
        let mut ev = DiceEvaluator::new(rules);
        let heuristic = HeuristicPlayer::new(rules, Rng(5));
        let mut g = DiceGame::new(rules);
        let mut rng = Rng(3 + rules as u64);
        let mut list = MoveList::new();
        let (mut turns, mut evaluated, mut sum) = (0, 0, 0i64);
        let n = allocations_during(|| {
            while !g.status().is_over() && turns < 200 {
                sum += i64::from(ev.evaluate(&g));
                let (full, quiet) = ev.evaluate_with_quiet(&g);
                sum += i64::from(full) + i64::from(quiet);
                sum += heuristic.score(&g, g.side_to_move()) as i64;
                evaluated += 1;
                let roll = sample_roll(&g, &mut rng).unwrap_or_default();
                g.set_roll(roll).unwrap();
                while g.phase() == Phase::AwaitingMove {
                    // Mid-turn and post-roll games too.
                    sum += i64::from(ev.evaluate(&g));
                    g.generate_moves(&mut list);
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
        assert_eq!(n, 0, "{rules}: {n} allocations in {evaluated} evaluations");
        assert!(evaluated > 5, "{rules}");
        std::hint::black_box(sum);
    }
}
