//! The learned Dice Chess evaluation (src/dice/eval/learned.rs, issue 30 item 1): each
//! embedded dice net loads and its output on Dice Chess positions (kings in check, odd
//! material) equals the slow reference of the format page (tests/common/nnue_net.rs), and
//! the rule sets with a net evaluate with it.

#[path = "common/nnue_net.rs"]
mod nnue_net;

use chesscore::dice::eval::learned;
use chesscore::dice::eval::DiceEvaluator;
use chesscore::dice::player::{sample_roll, Rng};
use chesscore::dice::{DiceGame, Phase, Rules};
use chesscore::{Move, MoveList};
use nnue_net::Params;

/// The net files in nets/ (the embedded bytes' source), by rule set.
fn file(rules: Rules) -> Option<Vec<u8>> {
    let name = match rules {
        Rules::TwoDice => "two-dice",
        Rules::OneDie => "one-die",
        Rules::ThreeDice => "three-dice",
    };
    std::fs::read(format!(
        "{}/nets/dice-{name}.nnue",
        env!("CARGO_MANIFEST_DIR")
    ))
    .ok()
}

/// Positions awaiting their roll from random Dice Chess games.
fn positions(rules: Rules, games: u64) -> Vec<DiceGame> {
    let mut out = Vec::new();
    for g in 0..games {
        let mut rng = Rng(0xd1ce + g);
        let mut game = DiceGame::new(rules);
        for _ in 0..400 {
            match game.phase() {
                Phase::Over => break,
                Phase::AwaitingRoll => {
                    out.push(game.clone());
                    let roll = sample_roll(&game, &mut rng).unwrap();
                    game.set_roll(roll).unwrap();
                }
                Phase::AwaitingMove => {
                    let mut moves = MoveList::new();
                    game.generate_moves(&mut moves);
                    let m = if moves.is_empty() {
                        Move::NONE
                    } else {
                        moves.as_slice()[rng.below(moves.len() as u64) as usize]
                    };
                    game.make_move(m).unwrap();
                }
            }
        }
    }
    out
}

#[test]
fn every_embedded_dice_net_matches_its_file_and_the_reference() {
    let mut nets = 0;
    for rules in Rules::ALL {
        let embedded = learned::embedded(rules);
        let bytes = file(rules);
        assert_eq!(
            embedded.is_some(),
            bytes.is_some(),
            "{rules}: embedded iff in nets/"
        );
        assert_eq!(DiceEvaluator::new(rules).is_learned(), embedded.is_some());
        let (Some(net), Some(bytes)) = (embedded, bytes) else {
            continue;
        };
        nets += 1;
        let params = Params::from_bytes(&bytes);
        assert_eq!(net.hidden_size(), params.n);
        assert_eq!(net.checksum(), nnue_net::fnv1a(&bytes[..bytes.len() - 4]));
        let ps = positions(rules, 30);
        assert!(ps.len() > 300, "{} positions", ps.len());
        let mut distinct = std::collections::HashSet::new();
        for g in &ps {
            let fen = g.position().to_fen();
            let want = params.reference_eval(&fen);
            assert_eq!(net.evaluate(g.position()) as i64, want, "{rules}: {fen}");
            distinct.insert(want);
        }
        assert!(distinct.len() > ps.len() / 4, "{rules}: the values vary");
    }
    assert!(nets >= 1, "at least one rule set has a learned net");
}
