//! Dice Chess rules (src/dice): hand-worked positions for each rule set, exact chances as
//! fractions, dice FEN round trips, and the generator and perft counts against `Reference`,
//! an independent slow implementation written here from the rules text: the core's full
//! legal or pseudo-legal list filtered by type, king captures and en passant targets found by
//! brute force, and for three dice every sequence of micro-moves enumerated without pruning.

use chesscore::dice::*;
use chesscore::{Color, Move, MoveList, PieceType, Position, Square};
use std::collections::BTreeSet;

fn sq(s: &str) -> Square {
    Square::parse(s).unwrap()
}

fn mv(game: &DiceGame, uci: &str) -> Move {
    // King captures are not core moves: look the text up among the dice moves.
    let list = game.moves();
    for &m in list.iter() {
        if m.to_string() == uci {
            return m;
        }
    }
    panic!("{uci} not among {:?} in {}", uci_set(&list), game.to_fen());
}

fn uci_set(list: &MoveList) -> BTreeSet<String> {
    list.iter().map(|m| m.to_string()).collect()
}

fn roll(faces: &[u8]) -> Roll {
    Roll::from_faces(faces).unwrap()
}

fn game(rules: Rules, fen: &str) -> DiceGame {
    DiceGame::from_fen(rules, fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn rolled(rules: Rules, fen: &str, faces: &[u8]) -> DiceGame {
    let mut g = game(rules, fen);
    g.set_roll(roll(faces)).unwrap();
    g
}

fn moves_of(rules: Rules, fen: &str, faces: &[u8]) -> BTreeSet<String> {
    uci_set(&rolled(rules, fen, faces).moves())
}

fn set(v: &[&str]) -> BTreeSet<String> {
    v.iter().map(|s| s.to_string()).collect()
}

// ------------------------------------------------------------------------------------------
// Two dice
// ------------------------------------------------------------------------------------------

#[test]
fn two_dice_moves_of_either_type_and_any_on_doubles() {
    let start = chesscore::START_FEN;
    // Pawn (16 moves) or knight (4).
    assert_eq!(moves_of(Rules::TwoDice, start, &[1, 2]).len(), 20);
    // Bishop and queen: nothing can move in the start position: the turn passes.
    let mut g = rolled(Rules::TwoDice, start, &[3, 5]);
    assert!(g.moves().is_empty());
    g.make_move(Move::NONE).unwrap();
    assert_eq!(g.side_to_move(), Color::BLACK);
    // Doubles of bishops: any legal move.
    assert_eq!(moves_of(Rules::TwoDice, start, &[3, 3]).len(), 20);
}

#[test]
fn two_dice_check_answers_pass_and_king_capture() {
    // White king e1 checked by the rook e8; White has a knight that can block on e2... no:
    // the knight on c3 can interpose on e2 and the king can step aside.
    let fen = "4r2k/8/8/8/8/2N5/8/4K3 w - - 0 1";
    // A knight alone: only the block Ne2 (and Ne4) answers the check.
    assert_eq!(
        moves_of(Rules::TwoDice, fen, &[2, 3]),
        set(&["c3e2", "c3e4"])
    );
    // A king: only king moves off the e-file.
    assert_eq!(
        moves_of(Rules::TwoDice, fen, &[4, 6]),
        set(&["e1d1", "e1d2", "e1f1", "e1f2"])
    );
    // A pawn and a bishop: no answer, the pass is the only move; a move is refused.
    let mut g = rolled(Rules::TwoDice, fen, &[1, 3]);
    assert!(g.moves().is_empty());
    assert_eq!(
        g.make_move(Move::new(sq("e1"), sq("d1"), Move::QUIET)),
        Err(DiceError::IllegalMove)
    );
    g.make_move(Move::NONE).unwrap();
    // Black to move, White's king in check: the rook captures it on a rook roll.
    assert_eq!(g.to_fen(), "4r2k/8/8/8/8/2N5/8/4K3 b - - 1 1 -");
    g.set_roll(roll(&[2, 4])).unwrap();
    let m = mv(&g, "e8e1");
    g.make_move(m).unwrap();
    assert_eq!(
        g.status(),
        DiceStatus::Won {
            winner: Color::BLACK,
            reason: WinReason::KingCapture
        }
    );
    assert!(g.outcomes().as_slice().is_empty());
    assert_eq!(g.set_roll(roll(&[1, 2])), Err(DiceError::NotAwaitingRoll));
    // Without a rook or doubles the king cannot be taken.
    let mut g = game(Rules::TwoDice, "4r2k/8/8/8/8/2N5/8/4K3 b - - 1 1");
    g.set_roll(roll(&[1, 2])).unwrap();
    assert!(!uci_set(&g.moves()).contains("e8e1"));
    g.set_roll(roll(&[1, 1])).unwrap_err();
}

#[test]
fn two_dice_castling_and_en_passant_by_roll() {
    let fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
    for (faces, castles) in [
        (&[4u8, 1][..], true),
        (&[6, 2], true),
        (&[2, 2], true),
        (&[1, 3], false),
    ] {
        let m = moves_of(Rules::TwoDice, fen, faces);
        assert_eq!(
            m.contains("e1g1") && m.contains("e1c1"),
            castles,
            "{faces:?}"
        );
    }
    // En passant on a pawn die or doubles only, and lost after a pass.
    let fen = "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2";
    assert!(moves_of(Rules::TwoDice, fen, &[1, 6]).contains("e5d6"));
    assert!(moves_of(Rules::TwoDice, fen, &[5, 5]).contains("e5d6"));
    assert!(!moves_of(Rules::TwoDice, fen, &[2, 6]).contains("e5d6"));
    let mut g = rolled(Rules::TwoDice, "4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1", &[1, 2]);
    g.make_move(mv(&g, "d7d5")).unwrap();
    g.set_roll(roll(&[2, 3])).unwrap();
    assert!(g.moves().is_empty());
    g.make_move(Move::NONE).unwrap();
    g.set_roll(roll(&[4, 5])).unwrap(); // no black rook or queen: Black passes too
    assert!(g.moves().is_empty());
    g.make_move(Move::NONE).unwrap();
    g.set_roll(roll(&[1, 1])).unwrap();
    assert!(!uci_set(&g.moves()).contains("e5d6"));
}

#[test]
fn two_dice_promotion_mate_stalemate_and_draws() {
    let fen = "4k3/P7/8/8/8/8/8/4K3 w - - 0 1";
    let m = moves_of(Rules::TwoDice, fen, &[1, 6]);
    for p in ["a7a8q", "a7a8r", "a7a8b", "a7a8n"] {
        assert!(m.contains(p));
    }
    assert!(!moves_of(Rules::TwoDice, fen, &[2, 5]).contains("a7a8q"));
    // Checkmate judged before the roll.
    let g = game(Rules::TwoDice, "R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1");
    assert_eq!(
        g.status(),
        DiceStatus::Won {
            winner: Color::WHITE,
            reason: WinReason::Checkmate
        }
    );
    assert!(g.outcomes().as_slice().is_empty());
    let g = game(Rules::TwoDice, "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
    assert_eq!(g.status(), DiceStatus::Drawn(DrawReason::Stalemate));
    let g = game(Rules::TwoDice, "7k/8/6K1/8/8/8/8/8 b - - 0 1");
    assert_eq!(g.status(), DiceStatus::Drawn(DrawReason::DeadPosition));
    // A lone knight is not dead: it can check and, on a roll without an answer, capture.
    let g = game(Rules::TwoDice, "7k/8/6K1/8/8/8/8/N7 b - - 0 1");
    assert_eq!(g.status(), DiceStatus::AwaitingRoll);
    let g = game(Rules::TwoDice, "7k/8/6K1/8/8/8/8/N7 b - - 100 80");
    assert_eq!(g.status(), DiceStatus::Drawn(DrawReason::FiftyMoves));
    // Passes count for the fifty-move rule.
    let mut g = rolled(Rules::TwoDice, "7k/8/6K1/8/8/8/8/N7 b - - 99 80", &[1, 2]);
    g.make_move(Move::NONE).unwrap();
    assert_eq!(g.status(), DiceStatus::Drawn(DrawReason::FiftyMoves));
}

#[test]
fn side_not_to_move_in_check_is_a_position_after_a_pass() {
    // Strict FEN refuses it; the dice FEN takes it for every rule set.
    let fen = "4k3/8/8/8/8/8/4r3/4K3 b - - 0 1";
    assert!(Position::from_fen(fen).is_err());
    for r in Rules::ALL {
        assert_eq!(game(r, fen).to_fen(), format!("{fen} -"));
    }
    // Two dice: both kings in check is impossible.
    assert_eq!(
        DiceGame::from_fen(Rules::TwoDice, "R3k3/8/8/8/8/8/4r3/4K3 b - - 0 1").err(),
        Some(DiceFenError::BothInCheck)
    );
    assert!(DiceGame::from_fen(Rules::OneDie, "R3k3/8/8/8/8/8/4r3/4K3 b - - 0 1").is_ok());
}

// ------------------------------------------------------------------------------------------
// One die
// ------------------------------------------------------------------------------------------

#[test]
fn one_die_movable_types_promotion_castling_king_capture() {
    // Start: only pawns and knights can move: the die shows 1 or 2, each 1/2.
    let g = game(Rules::OneDie, chesscore::START_FEN);
    assert_eq!(g.movable_types(), 0b110);
    let o = g.outcomes();
    assert_eq!(o.denominator(), 2);
    assert_eq!(
        o.as_slice()
            .iter()
            .map(|o| (o.roll.faces[0], o.weight))
            .collect::<Vec<_>>(),
        [(1, 1), (2, 1)]
    );
    let mut g2 = g.clone();
    assert_eq!(g2.set_roll(roll(&[3])), Err(DiceError::InvalidRoll));
    // Promotion: a 1 to any piece, 2..5 to the rolled type, never on a 6.
    let fen = "1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1";
    assert_eq!(
        moves_of(Rules::OneDie, fen, &[1]),
        set(&["a7a8q", "a7a8r", "a7a8b", "a7a8n", "a7b8q", "a7b8r", "a7b8b", "a7b8n"])
    );
    assert_eq!(moves_of(Rules::OneDie, fen, &[2]), set(&["a7a8n", "a7b8n"]));
    assert_eq!(moves_of(Rules::OneDie, fen, &[5]), set(&["a7a8q", "a7b8q"]));
    let six = moves_of(Rules::OneDie, fen, &[6]);
    assert!(six.iter().all(|m| m.starts_with("e1")));
    // The pawn makes knight..queen movable: six types.
    assert_eq!(game(Rules::OneDie, fen).movable_types(), 0b0111_1110);
    // Castling on a king or rook roll, through attacked squares too; the king may move into
    // attack.
    let fen = "4k3/8/8/8/8/8/5r2/R3K2R w KQ - 0 1";
    let k = moves_of(Rules::OneDie, fen, &[6]);
    assert!(k.contains("e1g1") && k.contains("e1c1") && k.contains("e1f2"));
    assert!(k.contains("e1f1") && k.contains("e1d2"));
    let r = moves_of(Rules::OneDie, fen, &[4]);
    assert!(r.contains("e1g1") && r.contains("e1c1") && r.contains("h1h8"));
    // King capture wins.
    let mut g = rolled(Rules::OneDie, "4k2R/8/8/8/8/8/8/4K3 w - - 0 1", &[4]);
    g.make_move(mv(&g, "h8e8")).unwrap();
    assert_eq!(
        g.status(),
        DiceStatus::Won {
            winner: Color::WHITE,
            reason: WinReason::KingCapture
        }
    );
    // A promoting pawn captures the king on a queen roll.
    assert!(moves_of(Rules::OneDie, "1k6/P7/8/8/8/8/8/4K3 w - - 0 1", &[5]).contains("a7b8"));
}

#[test]
fn one_die_en_passant_that_exposes_the_king_is_allowed() {
    // Legal chess forbids exd6 here (the rook on a5 would see the king on h5); no check in
    // this rule set, so the capture is a pawn move like any other.
    let fen = "4k3/8/8/r2pP2K/8/8/8/8 w - d6 0 2";
    assert!(moves_of(Rules::OneDie, fen, &[1]).contains("e5d6"));
    assert!(!moves_of(Rules::TwoDice, fen, &[1, 1]).contains("e5d6"));
}

// ------------------------------------------------------------------------------------------
// Three dice
// ------------------------------------------------------------------------------------------

#[test]
fn three_dice_maximum_rule_forbids_moves_that_waste_a_die() {
    // The rook a1 is boxed in by the knight b1 and the pawn a2, which cannot push (a3 is
    // taken) but can capture on b3. Pawn and rook dice: only axb3 lets the rook die play
    // (two dice); the h-pawn's pushes use one, so the maximum rule forbids them.
    let fen = "4k3/8/8/8/8/pp6/P6P/RN2K3 w - - 0 1 PR";
    assert_eq!(
        uci_set(&game(Rules::ThreeDice, fen).moves()),
        set(&["a2b3"])
    );
    // With a king die too: axb3, the rook and the king use all three; a king move first
    // keeps that possible; an h-pawn push does not.
    let fen = "4k3/8/8/8/8/pp6/P6P/RN2K3 w - - 0 1";
    assert_eq!(
        moves_of(Rules::ThreeDice, fen, &[1, 4, 6]),
        set(&["a2b3", "e1d1", "e1d2", "e1e2", "e1f1", "e1f2"])
    );
}

#[test]
fn three_dice_maximum_rule_blocked_rook_freed_by_a_pawn() {
    // Rook a1 boxed in by the a2 pawn and the b1 knight... the rook can move only once the
    // pawn has moved. Dice: pawn, rook, rook. Using all three needs a2-a3/a4 first, then the
    // rook twice; a pawn move to a4 first also works. The king has no die.
    let fen = "4k3/8/8/8/8/8/P7/RN2K3 w - - 0 1";
    let g = rolled(Rules::ThreeDice, fen, &[1, 4, 4]);
    // Every pawn move frees the rook: both are legal; nothing else exists.
    assert_eq!(uci_set(&g.moves()), set(&["a2a3", "a2a4"]));
    // Pawn, pawn, rook: the pawn a2-a3 then a3-a4 then the rook, or a2-a4 then the rook and
    // ... a2-a4 leaves one pawn die: a4-a5. Every first pawn move reaches three.
    let g = rolled(Rules::ThreeDice, fen, &[1, 1, 4]);
    assert_eq!(uci_set(&g.moves()), set(&["a2a3", "a2a4"]));
    // Knight die with the knight able to move: b1 moves, but the rook's moves need the pawn.
    let g = rolled(Rules::ThreeDice, fen, &[2, 4, 4]);
    // Without a pawn die the rook is freed only by the knight (b1 empties the first rank):
    // knight, then rook twice: every knight move is legal; the rook cannot move first.
    let m = uci_set(&g.moves());
    assert_eq!(m, set(&["b1a3", "b1c3", "b1d2"]));
}

#[test]
fn three_dice_promotion_to_a_knight_uses_a_knight_die() {
    // Dice pawn, knight, knight and no knight on the board: only the promotion to a knight
    // lets the knight dice play (three dice used; any other promotion uses one).
    let fen = "7k/P7/8/8/8/8/8/K7 w - - 0 1";
    let mut g = rolled(Rules::ThreeDice, fen, &[1, 2, 2]);
    assert_eq!(uci_set(&g.moves()), set(&["a7a8n"]));
    g.make_move(mv(&g, "a7a8n")).unwrap();
    assert_eq!(g.side_to_move(), Color::WHITE);
    assert_eq!(g.dice(), roll(&[2, 2]));
    assert_eq!(g.to_fen(), "N6k/8/8/8/8/8/8/K7 w - - 0 1 NN");
    assert_eq!(uci_set(&g.moves()), set(&["a8b6", "a8c7"]));
    g.make_move(mv(&g, "a8b6")).unwrap();
    g.make_move(mv(&g, "b6d7")).unwrap();
    assert_eq!(g.side_to_move(), Color::BLACK);
    assert_eq!(g.phase(), Phase::AwaitingRoll);
    assert_eq!(g.to_fen(), "7k/3N4/8/8/8/8/8/K7 b - - 0 1 -");
    // Pawn, knight, king: promoting to a knight, the knight and the king use all three (in
    // either order with the king); promoting to anything else leaves the knight die unused.
    let g = rolled(Rules::ThreeDice, fen, &[1, 2, 6]);
    assert_eq!(uci_set(&g.moves()), set(&["a7a8n", "a1a2", "a1b1", "a1b2"]));
}

#[test]
fn three_dice_castling_spends_two_dice_and_ignores_attacks() {
    let fen = "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1";
    // King + rook + pawn (no pawn on the board): castling uses two dice, the most possible
    // (a king move and a rook move also use two): all of them are legal.
    let m = moves_of(Rules::ThreeDice, fen, &[1, 4, 6]);
    assert!(m.contains("e1g1") && m.contains("e1c1"));
    let mut g = rolled(Rules::ThreeDice, fen, &[1, 4, 6]);
    g.make_move(mv(&g, "e1g1")).unwrap();
    assert_eq!(g.phase(), Phase::AwaitingRoll); // the pawn die cannot be used
                                                // Without a rook die, no castling.
    assert!(!moves_of(Rules::ThreeDice, fen, &[6, 6, 6]).contains("e1g1"));
    // Through an attacked square (f1, by the rook f2): allowed on both sides, no check in
    // this rule set. Rook, king, king: castling spends the rook and a king die, and the king
    // moves again from g1 (h1, g2, h2 or takes on f2), so every die is used.
    let fen = "4k3/8/8/8/8/8/5r2/R3K2R w KQ - 0 1";
    let m = moves_of(Rules::ThreeDice, fen, &[4, 6, 6]);
    assert!(m.contains("e1g1") && m.contains("e1c1"));
    let mut g = rolled(Rules::ThreeDice, fen, &[4, 6, 6]);
    g.make_move(mv(&g, "e1g1")).unwrap();
    assert_eq!(g.to_fen(), "4k3/8/8/8/8/8/5r2/R4RK1 w - - 0 1 K");
    assert_eq!(uci_set(&g.moves()), set(&["g1f2", "g1g2", "g1h1", "g1h2"]));
}

/// Three dice has no check, so castling ignores attacks (as in the seeds' engine: the king
/// castles out of, through and onto attacked squares): it needs only the right, empty squares
/// between king and rook, and a rook and a king die. Worked by hand: in each position below
/// with the dice rook and king left, both rooks and the king have moves, so every
/// micro-move (castling too) uses both dice and the maximum rule forbids none.
#[test]
fn three_dice_castling_out_of_through_and_onto_attacked_squares() {
    let castles = |fen: &str| -> BTreeSet<String> {
        let m = uci_set(&game(Rules::ThreeDice, fen).moves());
        m.into_iter()
            .filter(|u| ["e1g1", "e1c1", "e8g8", "e8c8"].contains(&u.as_str()))
            .collect()
    };
    let both = set(&["e1g1", "e1c1"]);
    // Out of attack: the rook e5 attacks e1 (and none of d1, c1, f1, g1).
    assert_eq!(castles("4k3/8/8/4r3/8/8/8/R3K2R w KQ - 0 1 RK"), both);
    // Black too, out of the rook e5's attack on e8, with lower-case dice.
    assert_eq!(
        castles("r3k2r/8/8/4R3/8/8/8/4K3 b kq - 0 1 rk"),
        set(&["e8g8", "e8c8"])
    );
    // Through: the rooks d2 and f2 attack d1 and f1 (and none of e1, c1, g1).
    assert_eq!(castles("4k3/8/8/8/8/8/3r1r2/R3K2R w KQ - 0 1 RK"), both);
    // Onto: the rooks c2 and g2 attack c1 and g1 (and none of e1, d1, f1).
    assert_eq!(castles("4k3/8/8/8/8/8/2r3r1/R3K2R w KQ - 0 1 RK"), both);
    // The example: the bishop g3 attacks e1. The whole list: the king's five steps
    // (f2 is attacked too), castling, the rook's two rank moves and seven file moves.
    let fen = "4k3/8/8/8/8/6b1/8/4K2R w K - 0 1 RK";
    let mut g = game(Rules::ThreeDice, fen);
    assert_eq!(
        uci_set(&g.moves()),
        set(&[
            "e1d1", "e1d2", "e1e2", "e1f1", "e1f2", "e1g1", "h1g1", "h1f1", "h1h2", "h1h3", "h1h4",
            "h1h5", "h1h6", "h1h7", "h1h8"
        ])
    );
    // Castling spends both dice: the turn ends (the clock counts the turn).
    g.make_move(mv(&g, "e1g1")).unwrap();
    assert_eq!(g.phase(), Phase::AwaitingRoll);
    assert_eq!(g.to_fen(), "4k3/8/8/8/8/6b1/8/5RK1 b - - 1 1 -");
    // Two dice keeps the classical conditions: none of these castles there.
    for fen in [
        "4k3/8/8/4r3/8/8/8/R3K2R w KQ - 0 1",
        "4k3/8/8/8/8/8/3r1r2/R3K2R w KQ - 0 1",
        "4k3/8/8/8/8/8/2r3r1/R3K2R w KQ - 0 1",
    ] {
        let m = moves_of(Rules::TwoDice, fen, &[4, 6]);
        assert!(!m.contains("e1g1") && !m.contains("e1c1"), "{fen}");
    }
    // Still refused, attacks or not: a piece between king and rook (the knight b1 blocks the
    // long castle though the king does not cross b1), no rook die, no king die, no right.
    assert_eq!(castles("4k3/8/8/4r3/8/8/8/RN2K1NR w KQ - 0 1 RK"), set(&[]));
    assert_eq!(
        castles("4k3/8/8/4r3/8/8/8/RN2K2R w KQ - 0 1 RK"),
        set(&["e1g1"])
    );
    assert_eq!(castles("4k3/8/8/4r3/8/8/8/R3K2R w KQ - 0 1 KK"), set(&[]));
    assert_eq!(castles("4k3/8/8/4r3/8/8/8/R3K2R w KQ - 0 1 RR"), set(&[]));
    assert_eq!(castles("4k3/8/8/4r3/8/8/8/R3K2R w - - 0 1 RK"), set(&[]));
    assert_eq!(
        castles("4k3/8/8/8/8/8/3r1r2/R3K2R w Q - 0 1 PRK"),
        set(&["e1c1"])
    );
}

#[test]
fn three_dice_several_en_passant_targets() {
    // White pushes b2-b4 and d2-d4 in one turn; Black's pawns on a4, c4 and e4 can take on
    // both targets during Black's next turn, one pawn die each.
    let fen = "4k3/8/8/8/p1p1p3/8/1P1P4/4K3 w - - 0 1";
    let mut g = rolled(Rules::ThreeDice, fen, &[1, 1, 6]);
    g.make_move(mv(&g, "b2b4")).unwrap();
    assert_eq!(g.to_fen(), "4k3/8/8/8/pPp1p3/8/3P4/4K3 w - b3 0 1 PK");
    g.make_move(mv(&g, "d2d4")).unwrap();
    g.make_move(mv(&g, "e1f1")).unwrap();
    assert_eq!(g.to_fen(), "4k3/8/8/8/pPpPp3/8/8/5K2 b - b3d3 0 1 -");
    let back = game(Rules::ThreeDice, &g.to_fen());
    assert_eq!(back.to_fen(), g.to_fen());
    assert_eq!(back.en_passant_targets(), sq("b3").bb() | sq("d3").bb());
    g.set_roll(roll(&[1, 1, 1])).unwrap();
    let m = uci_set(&g.moves());
    for c in ["a4b3", "c4b3", "c4d3", "e4d3"] {
        assert!(m.contains(c), "{c} in {m:?}");
    }
    g.make_move(mv(&g, "a4b3")).unwrap();
    let m = uci_set(&g.moves());
    assert!(m.contains("c4d3") && m.contains("e4d3") && !m.contains("c4b3"));
}

#[test]
fn three_dice_en_passant_target_lapses_once_occupied() {
    // Black may take b4 en passant on b3. The rook steps onto b3 and off again: the target
    // has lapsed for good; only the plain push is left for the pawn die.
    let mut g = rolled(
        Rules::ThreeDice,
        "4k3/8/8/8/pP6/8/8/1r2K3 b - b3 0 1",
        &[1, 4, 4],
    );
    assert!(uci_set(&g.moves()).contains("a4b3"));
    g.make_move(mv(&g, "b1b3")).unwrap();
    assert!(g.en_passant_targets().is_empty());
    g.make_move(mv(&g, "b3b2")).unwrap();
    assert_eq!(uci_set(&g.moves()), set(&["a4a3"]));
}

#[test]
fn three_dice_king_capture_always_legal_and_ends_the_game() {
    // Dice rook, pawn, pawn: the rook can take the king at once although using all three
    // dice (pawn moves) would be possible otherwise.
    let fen = "4k3/8/8/8/8/8/PP6/4K2R w - - 0 1";
    let fen = fen.replace("4K2R", "K6R").replace("4k3", "7k");
    let mut g = rolled(Rules::ThreeDice, &fen, &[1, 1, 4]);
    let m = mv(&g, "h1h8");
    let before = g.clone();
    let u = g.make_move(m).unwrap();
    assert_eq!(
        g.status(),
        DiceStatus::Won {
            winner: Color::WHITE,
            reason: WinReason::KingCapture
        }
    );
    g.unmake_move(m, &u).unwrap();
    assert_eq!(g, before);

    // A double push, then the king capture: the won game's FEN reads back (the en passant
    // target the push left lapses with the game).
    let mut g = rolled(Rules::ThreeDice, &fen, &[1, 1, 4]);
    let push = mv(&g, "a2a4");
    g.make_move(push).unwrap();
    let take = mv(&g, "h1h8");
    g.make_move(take).unwrap();
    let text = g.to_fen();
    let back = DiceGame::from_fen(Rules::ThreeDice, &text).unwrap();
    assert_eq!(back.to_fen(), text);
}

#[test]
fn three_dice_no_usable_die_passes() {
    let fen = "7k/8/8/8/8/8/8/K7 w - - 0 1";
    let mut g = rolled(Rules::ThreeDice, fen, &[1, 2, 5]);
    assert!(g.moves().is_empty());
    g.make_move(Move::NONE).unwrap();
    assert_eq!(g.to_fen(), "7k/8/8/8/8/8/8/K7 b - - 1 1 -");
}

// ------------------------------------------------------------------------------------------
// Exact chances
// ------------------------------------------------------------------------------------------

/// The chance (numerator over the outcomes' denominator) that the roll lets `pred` hold.
fn chance(g: &DiceGame, pred: impl Fn(&DiceGame) -> bool) -> (u32, u32) {
    let o = g.outcomes();
    let mut num = 0;
    for oc in o.as_slice() {
        let mut h = g.clone();
        h.set_roll(oc.roll).unwrap();
        if pred(&h) {
            num += oc.weight;
        }
    }
    (num, o.denominator())
}

#[test]
fn game_keys_tell_dice_states_apart() {
    let a = game(Rules::ThreeDice, "4k3/8/8/8/pPpPp3/8/8/5K2 b - b3d3 0 1 -");
    let b = game(Rules::ThreeDice, "4k3/8/8/8/pPpPp3/8/8/5K2 b - b3 0 1 -");
    let c = game(
        Rules::ThreeDice,
        "4k3/8/8/8/pPpPp3/8/8/5K2 b - b3d3 0 1 ppk",
    );
    let d = game(
        Rules::ThreeDice,
        "4k3/8/8/8/pPpPp3/8/8/5K2 b - b3d3 0 1 ppq",
    );
    let e = game(Rules::OneDie, "4k3/8/8/8/pPpPp3/8/8/5K2 b - - 0 1 -");
    let keys: BTreeSet<u64> = [&a, &b, &c, &d, &e].iter().map(|g| g.hash()).collect();
    assert_eq!(keys.len(), 5);
    // The clocks are not in the key.
    let f = game(Rules::ThreeDice, "4k3/8/8/8/pPpPp3/8/8/5K2 b - b3d3 7 30 -");
    assert_eq!(f.hash(), a.hash());
}

#[test]
fn exact_chances() {
    // Two dice, one type (the king) able to answer a check: 11/36 with a king die, plus the
    // five other doubles: 16/36.
    let g = game(Rules::TwoDice, "4k3/8/8/8/8/8/8/r3K3 w - - 0 1");
    assert_eq!(chance(&g, |h| !h.moves().is_empty()), (16, 36));
    // Three dice, king capture by one type (rook): 1 - (5/6)^3 = 91/216.
    let can_take = |h: &DiceGame| {
        let k = h.position().king_square(h.side_to_move().flip());
        h.moves().iter().any(|m| m.to() == k)
    };
    let g = game(Rules::ThreeDice, "4k3/8/8/8/8/8/8/K3R3 w - - 0 1");
    assert_eq!(chance(&g, can_take), (91, 216));
    // Two types (rook, bishop): 1 - (4/6)^3 = 152/216.
    let g = game(Rules::ThreeDice, "4k3/8/8/8/B7/8/8/K3R3 w - - 0 1");
    assert_eq!(chance(&g, can_take), (152, 216));
    // Three types (rook, bishop, knight): 1 - (3/6)^3 = 189/216.
    let g = game(Rules::ThreeDice, "4k3/8/3N4/8/B7/8/8/K3R3 w - - 0 1");
    assert_eq!(chance(&g, can_take), (189, 216));
    // The greedy player's king-capture chance: the same numbers, for the side whose king
    // stands attacked.
    use chesscore::dice::player::king_capture_chance;
    let fen = "4k3/8/8/8/8/8/8/K3R3 b - - 0 1";
    let c = king_capture_chance(&game(Rules::ThreeDice, fen), Color::BLACK);
    assert!((c - 91.0 / 216.0).abs() < 1e-12, "{c}");
    let c = king_capture_chance(&game(Rules::TwoDice, fen), Color::BLACK);
    assert!((c - 16.0 / 36.0).abs() < 1e-12, "{c}");
    assert_eq!(
        king_capture_chance(&game(Rules::TwoDice, fen), Color::WHITE),
        0.0
    );
    // Every rule set's weights sum exactly to the denominator.
    for r in Rules::ALL {
        let o = game(r, chesscore::START_FEN).outcomes();
        let sum: u32 = o.as_slice().iter().map(|o| o.weight).sum();
        assert_eq!(sum, o.denominator(), "{r}");
        let n = o.as_slice().len();
        assert_eq!(n, [21, 2, 56][r as usize]);
    }
}

// ------------------------------------------------------------------------------------------
// Dice FEN
// ------------------------------------------------------------------------------------------

#[test]
fn dice_fen_round_trips_and_rejections() {
    for (r, fen) in [
        (
            Rules::TwoDice,
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1 -",
        ),
        (
            Rules::TwoDice,
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 PN",
        ),
        (
            Rules::OneDie,
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 N",
        ),
        (Rules::OneDie, "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2 P"),
        (
            Rules::ThreeDice,
            "4k3/8/8/8/pPpPp3/8/8/5K2 b - b3d3 3 7 ppk",
        ),
        (Rules::ThreeDice, "4k3/8/8/8/pPp1p3/8/3P4/4K3 w - b3 0 1 PK"),
    ] {
        assert_eq!(game(r, fen).to_fen(), fen);
    }
    // Six fields: before the roll.
    assert_eq!(
        game(Rules::TwoDice, chesscore::START_FEN).to_fen(),
        format!("{} -", chesscore::START_FEN)
    );
    use DiceFenError::*;
    for (r, fen, e) in [
        // (Not bare kings: two dice refuses any dice on that dead position.)
        (Rules::TwoDice, "4k3/4p3/8/8/8/8/4P3/4K3 w - - 0 1 NP", Dice),
        (Rules::TwoDice, "4k3/4p3/8/8/8/8/4P3/4K3 w - - 0 1 P", Dice),
        (Rules::OneDie, "4k3/8/8/8/8/8/8/4K3 w - - 0 1 Q", Dice),
        (Rules::ThreeDice, "4k3/8/8/8/8/8/8/4K3 w - - 0 1 PPPP", Dice),
        (
            Rules::ThreeDice,
            "4k3/8/8/8/8/8/8/4K3 w - c6 0 1",
            EnPassant,
        ),
        (
            Rules::ThreeDice,
            "4k3/8/8/8/pPpPp3/8/8/5K2 b - d3b3 0 1",
            EnPassant,
        ),
        (
            Rules::ThreeDice,
            "4k3/8/8/8/pPp1p3/8/3P4/4K3 w - b3 0 1 PPK",
            EnPassant,
        ),
        (
            Rules::TwoDice,
            "4k3/8/8/8/8/8/8/4K3 w - - 0 1 - x",
            Fen(chesscore::FenError::TrailingText),
        ),
    ] {
        assert_eq!(DiceGame::from_fen(r, fen).err(), Some(e), "{fen}");
    }
}

/// The dice field reads in either case, letter by letter (the seeds' engine writes upper
/// case for both sides), and is written in the mover's case: White upper, Black lower.
#[test]
fn dice_fen_letters_in_either_case() {
    for (r, fen, written) in [
        // Black to move with upper-case dice, as the seeds' engine writes them.
        (
            Rules::ThreeDice,
            "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1 BKK",
            "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1 bkk",
        ),
        (
            Rules::TwoDice,
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1 PN",
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1 pn",
        ),
        (
            Rules::OneDie,
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1 N",
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1 n",
        ),
        // The position the refusals below use, with a good dice field.
        (
            Rules::ThreeDice,
            "4k3/4p3/8/8/8/8/4P3/4K3 b - - 0 1 PPK",
            "4k3/4p3/8/8/8/8/4P3/4K3 b - - 0 1 ppk",
        ),
        (
            Rules::OneDie,
            "4k3/4p3/8/8/8/8/4P3/4K3 b - - 0 1 K",
            "4k3/4p3/8/8/8/8/4P3/4K3 b - - 0 1 k",
        ),
        // White to move with lower-case dice.
        (
            Rules::TwoDice,
            "4k3/4p3/8/8/8/8/4P3/4K3 w - - 0 1 pn",
            "4k3/4p3/8/8/8/8/4P3/4K3 w - - 0 1 PN",
        ),
        (
            Rules::ThreeDice,
            "4k3/8/8/8/8/8/8/R3K3 w Q - 0 1 rk",
            "4k3/8/8/8/8/8/8/R3K3 w Q - 0 1 RK",
        ),
        // Mixed case, either side.
        (
            Rules::ThreeDice,
            "4k3/8/8/8/8/8/8/R3K3 w Q - 0 1 PrK",
            "4k3/8/8/8/8/8/8/R3K3 w Q - 0 1 PRK",
        ),
        (
            Rules::ThreeDice,
            "r3k3/8/8/8/8/8/8/4K3 b q - 0 1 pRk",
            "r3k3/8/8/8/8/8/8/4K3 b q - 0 1 prk",
        ),
    ] {
        let g = game(r, fen);
        assert_eq!(g.to_fen(), written, "{fen}");
        // The same game as from the written case: dice, phase and moves.
        let w = game(r, written);
        assert_eq!(g.dice(), w.dice(), "{fen}");
        assert_eq!(g.phase(), Phase::AwaitingMove, "{fen}");
        assert_eq!(uci_set(&g.moves()), uci_set(&w.moves()), "{fen}");
    }
    // The dice themselves: bishop, king, king; rook and king.
    let g = game(Rules::ThreeDice, "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1 BKK");
    assert_eq!(g.dice(), roll(&[3, 6, 6]));
    let g = game(Rules::ThreeDice, "4k3/8/8/8/8/8/8/R3K3 w Q - 0 1 rk");
    assert_eq!(g.dice(), roll(&[4, 6]));
    assert!(g.moves().iter().any(|m| m.to_string() == "e1c1"));
    // Still refused: letters that are not piece letters (either case), unsorted letters,
    // counts the rule set cannot roll, a one-die type that cannot move.
    use DiceFenError::Dice;
    for (r, fen) in [
        (Rules::ThreeDice, "4k3/4p3/8/8/8/8/4P3/4K3 b - - 0 1 X"),
        (Rules::ThreeDice, "4k3/4p3/8/8/8/8/4P3/4K3 b - - 0 1 PXK"),
        (Rules::ThreeDice, "4k3/4p3/8/8/8/8/4P3/4K3 w - - 0 1 pxk"),
        (Rules::ThreeDice, "4k3/4p3/8/8/8/8/4P3/4K3 w - - 0 1 P1"),
        (Rules::ThreeDice, "4k3/4p3/8/8/8/8/4P3/4K3 w - - 0 1 \u{d1}"),
        (Rules::ThreeDice, "4k3/4p3/8/8/8/8/4P3/4K3 b - - 0 1 KP"),
        (Rules::ThreeDice, "4k3/4p3/8/8/8/8/4P3/4K3 b - - 0 1 kP"),
        (Rules::ThreeDice, "4k3/4p3/8/8/8/8/4P3/4K3 b - - 0 1 PPPP"),
        (Rules::ThreeDice, "4k3/4p3/8/8/8/8/4P3/4K3 w - - 0 1 pppp"),
        (Rules::TwoDice, "4k3/4p3/8/8/8/8/4P3/4K3 b - - 0 1 P"),
        (Rules::TwoDice, "4k3/4p3/8/8/8/8/4P3/4K3 w - - 0 1 ppn"),
        (Rules::OneDie, "4k3/4p3/8/8/8/8/4P3/4K3 b - - 0 1 PN"),
        (Rules::OneDie, "4k3/4p3/8/8/8/8/4P3/4K3 b - - 0 1 Q"),
    ] {
        assert_eq!(DiceGame::from_fen(r, fen).err(), Some(Dice), "{fen}");
    }
}

// ------------------------------------------------------------------------------------------
// The reference: an independent, slow implementation of the three rule sets
// ------------------------------------------------------------------------------------------

#[derive(Clone)]
struct Reference {
    rules: Rules,
    pos: Position,
    /// En passant targets of the side to move (rule sets without check).
    ep: Vec<Square>,
    /// Targets left for the opponent by this turn's pushes (three dice).
    ep_next: Vec<Square>,
    dice: Vec<u8>,
    over: bool,
}

fn kind_of(pos: &Position, s: Square) -> u8 {
    pos.piece_on(s).kind().to_u8()
}

impl Reference {
    /// From the game's position and its dice FEN's en passant and dice fields (parsed here).
    fn from_game(g: &DiceGame) -> Reference {
        let fen = g.to_fen();
        let f: Vec<&str> = fen.split(' ').collect();
        let mut ep = Vec::new();
        let mut ep_next = Vec::new();
        let us = g.side_to_move();
        if g.rules() != Rules::TwoDice && f[3] != "-" {
            for i in (0..f[3].len()).step_by(2) {
                let s = sq(&f[3][i..i + 2]);
                let theirs = if us == Color::WHITE { 5 } else { 2 };
                if s.rank() == theirs {
                    ep.push(s);
                } else {
                    ep_next.push(s);
                }
            }
        }
        let dice = if f[6] == "-" {
            vec![]
        } else {
            f[6].chars()
                .map(|c| {
                    PieceType::from_char(c.to_ascii_lowercase())
                        .unwrap()
                        .to_u8()
                })
                .collect()
        };
        Reference {
            rules: g.rules(),
            pos: g.position().clone(),
            ep,
            ep_next,
            dice,
            over: false,
        }
    }

    fn king_captures(&self, allowed: impl Fn(Square, u8) -> bool) -> Vec<Move> {
        let us = self.pos.side_to_move();
        let k = self.pos.king_square(us.flip());
        let mut v = Vec::new();
        for s in Square::all() {
            let pc = self.pos.piece_on(s);
            if !pc.is_none()
                && pc.color() == us
                && self.pos.attackers_to(k).has(s)
                && allowed(s, pc.kind().to_u8())
            {
                v.push(Move::new(s, k, Move::CAPTURE));
            }
        }
        v
    }

    fn ep_moves(&self) -> Vec<Move> {
        let us = self.pos.side_to_move();
        let mut v = Vec::new();
        for &t in &self.ep {
            let pushed = Square::from_index(t.to_u8() ^ 8);
            let pc = self.pos.piece_on(pushed);
            if pc.is_none()
                || pc.color() == us
                || pc.kind() != PieceType::PAWN
                || !self.pos.piece_on(t).is_none()
            {
                continue;
            }
            for df in [-1i8, 1] {
                let f = pushed.file() as i8 + df;
                if !(0..8).contains(&f) {
                    continue;
                }
                let from = Square::from_coords(f as u8, pushed.rank());
                let p = self.pos.piece_on(from);
                if !p.is_none() && p.color() == us && p.kind() == PieceType::PAWN {
                    v.push(Move::new(from, t, Move::EN_PASSANT));
                }
            }
        }
        v
    }

    /// Three dice: the micro-moves for the dice `d` before the maximum rule.
    fn candidates(&self, d: &[u8]) -> Vec<Move> {
        let has = |t: u8| d.contains(&t);
        let mut v: Vec<Move> = self
            .pos
            .pseudo_legal_moves()
            .iter()
            .copied()
            .filter(|&m| {
                if m.is_en_passant() {
                    return false;
                }
                if m.is_castle() {
                    // A rook and a king die, the right and an empty path (the pseudo-legal
                    // list's castles); no check, so attacked squares do not matter.
                    return has(4) && has(6);
                }
                has(kind_of(&self.pos, m.from()))
            })
            .collect();
        if has(1) {
            v.extend(self.ep_moves());
        }
        v.extend(self.king_captures(|_, t| has(t)));
        v
    }

    fn spend(&self, d: &[u8], m: Move) -> Vec<u8> {
        let mut d = d.to_vec();
        let types: Vec<u8> = if m.is_castle() {
            vec![6, 4]
        } else {
            vec![kind_of(&self.pos, m.from())]
        };
        for t in types {
            let i = d.iter().position(|&x| x == t).unwrap();
            d.remove(i);
        }
        d
    }

    fn is_king_capture(&self, m: Move) -> bool {
        m.is_capture() && m.to() == self.pos.king_square(self.pos.side_to_move().flip())
    }

    /// Applies a micro-move on the board (not a king capture), keeping the side to move; en
    /// passant targets whose pawn is gone or whose square is occupied lapse for good.
    fn micro(&self, m: Move) -> Reference {
        let mut r = self.clone();
        r.pos.make_move_unchecked(m);
        r.pos.make_null_move_unchecked();
        let us = r.pos.side_to_move();
        let live = |pos: &Position, t: Square, pusher: Color| {
            let p = pos.piece_on(Square::from_index(t.to_u8() ^ 8));
            !p.is_none()
                && p.color() == pusher
                && p.kind() == PieceType::PAWN
                && pos.piece_on(t).is_none()
        };
        let pos = r.pos.clone();
        r.ep.retain(|&t| live(&pos, t, us.flip()));
        r.ep_next.retain(|&t| live(&pos, t, us));
        r
    }

    /// Every sequence: the most dice usable, the king capture counting every die. No pruning.
    fn max_dice(&self, d: &[u8]) -> usize {
        let mut best = 0;
        for m in self.candidates(d) {
            let v = if self.is_king_capture(m) {
                d.len()
            } else {
                let rest = self.spend(d, m);
                d.len() - rest.len() + self.micro(m).max_dice(&rest)
            };
            best = best.max(v);
        }
        best
    }

    fn moves(&self) -> Vec<Move> {
        let d = &self.dice;
        match self.rules {
            Rules::TwoDice => {
                let doubles = d[0] == d[1];
                let ok = |t: u8| doubles || d.contains(&t);
                let mut v: Vec<Move> = self
                    .pos
                    .legal_moves()
                    .iter()
                    .copied()
                    .filter(|&m| {
                        if m.is_castle() {
                            ok(4) || ok(6)
                        } else {
                            ok(kind_of(&self.pos, m.from()))
                        }
                    })
                    .collect();
                v.extend(self.king_captures(|_, t| ok(t)));
                v
            }
            Rules::OneDie => {
                let f = d[0];
                let us = self.pos.side_to_move();
                let seventh = if us == Color::WHITE { 6 } else { 1 };
                let mut v: Vec<Move> = self
                    .pos
                    .pseudo_legal_moves()
                    .iter()
                    .copied()
                    .filter(|&m| {
                        if m.is_en_passant() {
                            return false;
                        }
                        if m.is_castle() {
                            return f == 4 || f == 6;
                        }
                        if m.is_promotion() {
                            return f == 1 || f == m.promotion().to_u8();
                        }
                        kind_of(&self.pos, m.from()) == f
                    })
                    .collect();
                if f == 1 {
                    v.extend(self.ep_moves());
                }
                v.extend(self.king_captures(|s, t| {
                    t == f || (t == 1 && (2..=5).contains(&f) && s.rank() == seventh)
                }));
                v
            }
            Rules::ThreeDice => {
                let max = self.max_dice(d);
                self.candidates(d)
                    .into_iter()
                    .filter(|&m| {
                        let v = if self.is_king_capture(m) {
                            d.len()
                        } else {
                            let rest = self.spend(d, m);
                            d.len() - rest.len() + self.micro(m).max_dice(&rest)
                        };
                        v == max
                    })
                    .collect()
            }
        }
    }

    /// The movable types for one die.
    fn one_die_faces(&self) -> Vec<u8> {
        (1..=6)
            .filter(|&f| {
                let mut r = self.clone();
                r.dice = vec![f];
                !r.moves().is_empty()
            })
            .collect()
    }

    /// Rolls: (faces, weight, denominator).
    fn rolls(&self) -> (Vec<(Vec<u8>, u128)>, u128) {
        match self.rules {
            Rules::OneDie => {
                let f = self.one_die_faces();
                let n = f.len() as u128;
                (f.into_iter().map(|x| (vec![x], 1)).collect(), n)
            }
            Rules::TwoDice => {
                // Every ordered pair, merged into sorted multisets.
                let mut m = std::collections::BTreeMap::new();
                for a in 1..=6u8 {
                    for b in 1..=6u8 {
                        let mut k = vec![a, b];
                        k.sort();
                        *m.entry(k).or_insert(0u128) += 1;
                    }
                }
                (m.into_iter().collect(), 36)
            }
            Rules::ThreeDice => {
                let mut m = std::collections::BTreeMap::new();
                for a in 1..=6u8 {
                    for b in 1..=6u8 {
                        for c in 1..=6u8 {
                            let mut k = vec![a, b, c];
                            k.sort();
                            *m.entry(k).or_insert(0u128) += 1;
                        }
                    }
                }
                (m.into_iter().collect(), 216)
            }
        }
    }

    /// Game over before the roll (king captured, mate, stalemate, dead, fifty moves).
    fn terminal(&self) -> bool {
        if self.over {
            return true;
        }
        match self.rules {
            Rules::TwoDice => {
                let any = !self.pos.legal_moves().is_empty()
                    || !self.king_captures(|_, _| true).is_empty();
                let bare = self.pos.occupied().count() == 2;
                !any || bare
            }
            Rules::OneDie => self.one_die_faces().is_empty(),
            Rules::ThreeDice => false,
        }
    }

    /// (nodes, weighted) over `depth` turns; the fifty-move rule is out of reach of these
    /// depths (the test positions have small clocks).
    fn perft(&self, depth: u32) -> (u64, f64) {
        if depth == 0 || self.terminal() {
            return (1, 1.0);
        }
        let (rolls, den) = self.rolls();
        let mut nodes = 0;
        let mut w = 0.0;
        for (faces, weight) in rolls {
            let mut r = self.clone();
            r.dice = faces;
            let (n, cw) = r.turn(depth);
            nodes += n;
            w += cw * weight as f64 / den as f64;
        }
        (nodes, w)
    }

    /// The rest of a turn (dice set), then the next turns.
    fn turn(&self, depth: u32) -> (u64, f64) {
        let moves = self.moves();
        if moves.is_empty() {
            let mut r = self.clone();
            r.pos.make_null_move_unchecked();
            r.ep = std::mem::take(&mut r.ep_next);
            r.dice.clear();
            return r.perft(depth - 1);
        }
        let mut nodes = 0;
        let mut w = 0.0;
        for m in moves {
            let (n, cw) = if self.is_king_capture(m) {
                (1, 1.0)
            } else if self.rules == Rules::ThreeDice {
                let rest = self.spend(&self.dice, m);
                let mut r = self.micro(m);
                r.dice = rest;
                if m.is_double_push() {
                    r.ep_next
                        .push(Square::from_index((m.from().to_u8() + m.to().to_u8()) / 2));
                }
                if !r.dice.is_empty() && !r.moves().is_empty() {
                    r.turn(depth)
                } else {
                    // End the turn: take back the null move that kept the side.
                    let mut e = self.clone();
                    e.pos.make_move_unchecked(m);
                    // A target counts only if, when the turn ends, its pawn stands in front
                    // of the empty target square.
                    let us = self.pos.side_to_move();
                    e.ep = r
                        .ep_next
                        .iter()
                        .copied()
                        .filter(|&t| {
                            let p = e.pos.piece_on(Square::from_index(t.to_u8() ^ 8));
                            !p.is_none()
                                && p.color() == us
                                && p.kind() == PieceType::PAWN
                                && e.pos.piece_on(t).is_none()
                        })
                        .collect();
                    e.ep_next.clear();
                    e.dice.clear();
                    e.perft(depth - 1)
                }
            } else {
                let mut r = self.clone();
                r.pos.make_move_unchecked(m);
                r.ep = if self.rules == Rules::OneDie && m.is_double_push() {
                    vec![Square::from_index((m.from().to_u8() + m.to().to_u8()) / 2)]
                } else {
                    vec![]
                };
                r.dice.clear();
                r.perft(depth - 1)
            };
            nodes += n;
            w += cw;
        }
        (nodes, w)
    }
}

/// Plays seeded random games and calls `check` on every state awaiting a move.
fn random_states(rules: Rules, games: u32, mut check: impl FnMut(&DiceGame)) {
    let mut rng = player::Rng(0x5eed ^ rules as u64);
    for _ in 0..games {
        let mut g = DiceGame::new(rules);
        let mut plies = 0;
        while !g.status().is_over() && plies < 160 {
            let o = g.outcomes();
            let mut x = rng.below(o.denominator() as u64) as u32;
            let mut r = o.as_slice()[0].roll;
            for oc in o.as_slice() {
                if x < oc.weight {
                    r = oc.roll;
                    break;
                }
                x -= oc.weight;
            }
            g.set_roll(r).unwrap();
            while g.phase() == Phase::AwaitingMove {
                check(&g);
                let list = g.moves();
                let m = if list.is_empty() {
                    Move::NONE
                } else {
                    list.as_slice()[rng.below(list.len() as u64) as usize]
                };
                let before = g.clone();
                let u = g.make_move(m).unwrap();
                // The checked unmake takes the move back exactly.
                let mut back = g.clone();
                back.unmake_move(m, &u).unwrap_or_else(|e| {
                    panic!("{e}: {} after {m} from {}", g.to_fen(), before.to_fen())
                });
                assert_eq!(back.to_fen(), before.to_fen());
                // The key follows the state: back to the same key, and set from the FEN too.
                assert_eq!(back.hash(), before.hash());
                if g.winner().is_none() {
                    // (A captured king is not in the FEN: the board still shows it.)
                    assert_eq!(game(rules, &g.to_fen()).hash(), g.hash(), "{}", g.to_fen());
                }
                plies += 1;
            }
        }
    }
}

fn sorted(v: impl IntoIterator<Item = Move>) -> Vec<u16> {
    let mut v: Vec<u16> = v.into_iter().map(Move::raw).collect();
    v.sort();
    v
}

#[test]
fn generation_equals_the_reference_two_dice_and_one_die() {
    for rules in [Rules::TwoDice, Rules::OneDie] {
        let mut n = 0;
        random_states(rules, 40, |g| {
            let r = Reference::from_game(g);
            assert_eq!(
                sorted(g.moves().iter().copied()),
                sorted(r.moves()),
                "{rules} {}",
                g.to_fen()
            );
            n += 1;
        });
        assert!(n > 2000, "{rules}: {n} states");
    }
}

#[test]
fn generation_equals_the_reference_three_dice() {
    let mut n = 0;
    random_states(Rules::ThreeDice, 32, |g| {
        let r = Reference::from_game(g);
        assert_eq!(
            sorted(g.moves().iter().copied()),
            sorted(r.moves()),
            "{}",
            g.to_fen()
        );
        n += 1;
    });
    assert!(n > 2000, "{n} states");
}

fn perft_case(rules: Rules, fen: &str, depth: u32) -> DicePerft {
    let g = game(rules, fen);
    let p = g.perft(depth);
    let (nodes, w) = Reference::from_game(&g).perft(depth);
    assert_eq!(p.nodes, nodes, "{rules} {fen} depth {depth}");
    let exact = p.weighted_num as f64 / p.weighted_den as f64;
    assert!(
        (exact - w).abs() <= 1e-9 * w,
        "{rules} {fen}: {exact} vs {w}"
    );
    p
}

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

#[test]
fn perft_two_dice_against_the_reference() {
    // Depth 1 from the start, worked by hand: doubles 6 x 20 moves; {1,2} 20; {1,x} 16 for
    // the four x in 3..6; {2,x} 4 for each; the six pairs in 3..6 pass (1 leaf each):
    // 120 + 20 + 64 + 16 + 6 = 226 leaves, expected (120 + 2 (20 + 64 + 16 + 6)) / 36 = 83/9.
    let p = perft_case(Rules::TwoDice, chesscore::START_FEN, 1);
    assert_eq!((p.nodes, p.weighted_num, p.weighted_den), (226, 83, 9));
    // The counts below are the reference's too (perft_case checks each against it).
    let p = perft_case(Rules::TwoDice, chesscore::START_FEN, 2);
    assert_eq!(
        (p.nodes, p.weighted_num, p.weighted_den),
        (51_076, 6_889, 81)
    );
    let p = perft_case(Rules::TwoDice, KIWIPETE, 1);
    assert_eq!((p.nodes, p.weighted_num, p.weighted_den), (536, 196, 9));
    let p = perft_case(Rules::TwoDice, "4r2k/8/8/8/8/2N5/8/4K3 w - - 0 1", 2);
    assert_eq!(
        (p.nodes, p.weighted_num, p.weighted_den),
        (12_620, 1_745, 81)
    );
}

#[test]
fn perft_one_die_against_the_reference() {
    // Depth 1 from the start: a pawn die (16 moves) or a knight die (4), 1/2 each.
    let p = perft_case(Rules::OneDie, chesscore::START_FEN, 1);
    assert_eq!((p.nodes, p.weighted_num, p.weighted_den), (20, 10, 1));
    let p = perft_case(Rules::OneDie, chesscore::START_FEN, 3);
    assert_eq!(
        (p.nodes, p.weighted_num, p.weighted_den),
        (8_902, 19_957, 30)
    );
    let p = perft_case(Rules::OneDie, KIWIPETE, 2);
    assert_eq!((p.nodes, p.weighted_num, p.weighted_den), (2_235, 745, 12));
}

#[test]
fn perft_three_dice_against_the_reference() {
    let p = perft_case(Rules::ThreeDice, chesscore::START_FEN, 1);
    assert_eq!(
        (p.nodes, p.weighted_num, p.weighted_den),
        (11_245, 14_929, 108)
    );
    // Castling by two dice, two pawns that can double-push past the black b4 pawn.
    let p = perft_case(Rules::ThreeDice, "4k3/8/8/8/1p6/8/P1P5/R3K3 w Q - 0 1", 2);
    assert_eq!(
        (p.nodes, p.weighted_num, p.weighted_den),
        (2_575_224, 25_826_197, 46_656)
    );
    // Castling out of attack (the bishop g3 attacks e1). The rule without check adds 20
    // leaves to the 5,023 the classical conditions gave, worked by hand: castling is first or
    // never (a king or rook move loses the right) and ends the turn on a rook, a king and a
    // pawn, knight, bishop or queen (1 leaf, 4 rolls of weight 6), is followed by the rook
    // f1's 12 moves on rook, rook, king (weight 3), by the king g1's 4 (f2, g2, h1, h2) on
    // rook, king, king (weight 3), and takes nothing from other sequences (every maximum is
    // unchanged): 4 + 12 + 4 = 20 leaves, (24 + 36 + 12) / 216 = 1/3 more expected leaves.
    let p = perft_case(Rules::ThreeDice, "4k3/8/8/8/8/6b1/8/4K2R w K - 0 1", 1);
    assert_eq!(
        (p.nodes, p.weighted_num, p.weighted_den),
        (5_043, 4_567, 72)
    );
    // Castling through attack on both sides (the rooks d2 and f2 attack d1 and f1).
    let p = perft_case(Rules::ThreeDice, "4k3/8/8/8/8/8/3r1r2/R3K2R w KQ - 0 1", 1);
    assert_eq!(
        (p.nodes, p.weighted_num, p.weighted_den),
        (19_257, 1_587, 8)
    );
}

#[test]
fn selfplay_pgn_reads_back_and_greedy_beats_random() {
    use chesscore::dice::pgn::{selfplay, verify_pgn};
    for rules in Rules::ALL {
        let mut greedy_points = 0.0;
        let mut pgn = String::new();
        let games = 20;
        for seed in 0..games {
            // Greedy plays White in even games, Black in odd ones.
            let (w, b) = if seed % 2 == 0 {
                (PlayerKind::Greedy, PlayerKind::Random)
            } else {
                (PlayerKind::Random, PlayerKind::Greedy)
            };
            let rec = selfplay(rules, seed, w, b, 1000);
            // The same seed replays the same game.
            let again = selfplay(rules, seed, w, b, 1000);
            assert_eq!(rec.to_pgn(1), again.to_pgn(1));
            greedy_points += match rec.end {
                DiceStatus::Won { winner, .. } => {
                    f64::from(u8::from((winner == Color::WHITE) == (seed % 2 == 0)))
                }
                _ => 0.5,
            };
            pgn.push_str(&rec.to_pgn(seed as u32 + 1));
        }
        let verified = verify_pgn(&pgn).unwrap();
        assert_eq!(verified.len(), games as usize);
        println!("{rules}: greedy scores {greedy_points} of {games} against random");
        assert!(
            greedy_points >= 0.7 * games as f64,
            "{rules}: {greedy_points}"
        );
    }
}

/// Every byte of a game's fields after the history corrupted, one at a time: every C call
/// answers with a status, never by a caught panic (`CHESS_ERR_INTERNAL`), and the game passed
/// to a refused call is left as it was. The searches make every move of every roll, so a
/// corrupted table that make trusts shows there (in debug builds, as a broken invariant): a
/// flipped bit in a castling rights mask once let a rook leave its corner with its right kept
/// (found by the `dice` fuzz target; the searches on the castling position below are its
/// regression test).
#[test]
fn corrupted_games_never_panic_through_the_c_abi() {
    use chesscore::ffi::*;
    use std::mem::MaybeUninit;
    let fens = [
        (0, "4r2k/8/8/8/8/2N5/8/4K3 w - - 0 1 PB"),
        (1, "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2 P"),
        (2, "4k3/8/8/8/pPp1p3/8/3P4/4K3 w - b3 0 1 PK"),
        (2, "4k3/8/8/8/pPpPp3/8/8/5K2 b - b3d3 0 1 -"),
        (0, "r3k2r/p6p/8/8/8/8/8/R3K2R w KQkq - 0 1 -"),
        (2, "r3k2r/p6p/8/8/8/8/8/R3K2R w KQkq - 0 1 -"),
    ];
    let engine = chess_engineNew();
    assert!(!engine.is_null());
    let mut limits = MaybeUninit::<ChessSearchLimits>::uninit();
    // SAFETY: a valid pointer; every byte is written.
    let mut limits = unsafe {
        chess_searchLimitsInit(limits.as_mut_ptr());
        limits.assume_init()
    };
    limits.depth = 1;
    limits.nodes = 400;
    for (rules, fen) in fens {
        let mut game = MaybeUninit::<ChessDiceGame>::uninit();
        let cfen = std::ffi::CString::new(fen).unwrap();
        // SAFETY: valid pointers for the calls' contracts throughout.
        unsafe {
            assert_eq!(
                chess_diceSetFromFEN(game.as_mut_ptr(), rules, cfen.as_ptr()),
                ChessStatus::CHESS_OK
            );
            let good = game.assume_init_read();
            let bytes = std::mem::size_of::<ChessDiceGame>();
            let start = chesscore::position::POSITION_FIELDS_OFFSET;
            let castling = fen.contains("KQkq");
            for i in start..bytes {
                let flips: &[u8] = if castling {
                    &[0x01, 0x02, 0x04, 0x08, 0x10, 0x20, 0x40, 0x80, 0xff]
                } else {
                    &[0x01, 0x80, 0xff]
                };
                for &flip in flips {
                    let mut g = std::ptr::read(&good);
                    *(&mut g as *mut ChessDiceGame as *mut u8).add(i) ^= flip;
                    if castling {
                        let before = g_bytes(&g);
                        let mut advice = [MaybeUninit::<ChessDiceRollAdvice>::uninit(); 56];
                        let mut count = 0u32;
                        let r = chess_diceSearchAllRolls(
                            engine,
                            &g,
                            &limits,
                            advice.as_mut_ptr().cast(),
                            56,
                            &mut count,
                        );
                        assert_ne!(
                            r,
                            ChessStatus::CHESS_ERR_INTERNAL,
                            "{fen}: byte {i} ^ {flip}"
                        );
                        let mut rolled = std::ptr::read(&g);
                        let roll = ChessDiceRoll {
                            count: if rules == 2 { 3 } else { 2 },
                            faces: [4, 6, 4],
                        };
                        if chess_diceSetRoll(&mut rolled, roll) == ChessStatus::CHESS_OK {
                            let mut res = MaybeUninit::<ChessDiceSearchResult>::uninit();
                            let r = chess_diceSearch(engine, &rolled, &limits, res.as_mut_ptr());
                            assert_ne!(r, ChessStatus::CHESS_ERR_INTERNAL, "{fen}: byte {i}");
                        }
                        assert_eq!(g_bytes(&g), before, "{fen}: a search changed the game");
                    }
                    let mut list = ChessMoveList::new();
                    let mut st = MaybeUninit::<ChessDiceStatus>::uninit();
                    let mut outc = [ChessDiceOutcome::default(); 56];
                    let (mut n, mut d) = (0u32, 0u32);
                    let mut buf = [0 as core::ffi::c_char; 128];
                    let mut undo = MaybeUninit::<ChessDiceUndo>::uninit();
                    let results = [
                        chess_diceStatus(&g, st.as_mut_ptr()),
                        chess_diceOutcomes(&g, outc.as_mut_ptr(), 56, &mut n, &mut d),
                        chess_diceGenerateMoves(&g, &mut list),
                        chess_diceGetFEN(&g, buf.as_mut_ptr(), 128),
                    ];
                    for r in results {
                        assert_ne!(
                            r,
                            ChessStatus::CHESS_ERR_INTERNAL,
                            "{fen}: byte {i} ^ {flip}"
                        );
                    }
                    let m = if results[2] == ChessStatus::CHESS_OK && !list.is_empty() {
                        list.as_slice()[0]
                    } else {
                        0
                    };
                    let r = chess_diceMakeMove(&mut g, m, undo.as_mut_ptr());
                    assert_ne!(r, ChessStatus::CHESS_ERR_INTERNAL, "{fen}: make, byte {i}");
                    if r == ChessStatus::CHESS_OK {
                        let r = chess_diceUnmakeMove(&mut g, m, undo.as_ptr());
                        assert_ne!(
                            r,
                            ChessStatus::CHESS_ERR_INTERNAL,
                            "{fen}: unmake, byte {i}"
                        );
                    }
                    let r = chess_diceSetRoll(
                        &mut g,
                        ChessDiceRoll {
                            count: 1,
                            faces: [1, 0, 0],
                        },
                    );
                    assert_ne!(r, ChessStatus::CHESS_ERR_INTERNAL, "{fen}: roll, byte {i}");
                }
            }
        }
    }
    // SAFETY: from chess_engineNew, not used after.
    unsafe { chess_engineFree(engine) };
}

/// The bytes of a C game.
fn g_bytes(g: &chesscore::ffi::ChessDiceGame) -> Vec<u8> {
    // SAFETY: a game from `chess_diceSetFromFEN` (every byte written), read as bytes.
    unsafe {
        std::slice::from_raw_parts(
            g as *const _ as *const u8,
            std::mem::size_of::<chesscore::ffi::ChessDiceGame>(),
        )
    }
    .to_vec()
}

/// `Outcomes::sample` draws three dice's rolls at the dice's probabilities: over 4,000
/// samples of 16 rolls every one of the 56 rolls is drawn, as often as its number of
/// orderings (6 for three different faces, 3 with a pair, 1 for a triple, worked out here
/// from the faces) over 216 says, within a chi-square bound (55 degrees of freedom: mean 55,
/// standard deviation 10.5; the bound is 4 of them above). Each sample's weights count its
/// draws, and the same seed gives the same sample.
#[test]
fn sampled_rolls_follow_the_dice() {
    let all = Outcomes::fixed(Rules::ThreeDice);
    let mut drawn: std::collections::BTreeMap<Vec<u8>, u64> = Default::default();
    let samples = 4000u64;
    for seed in 0..samples {
        let s = all.sample(16, seed).unwrap();
        assert_eq!(s.denominator(), 16);
        assert_eq!(s.as_slice().iter().map(|o| o.weight).sum::<u32>(), 16);
        assert_eq!(all.sample(16, seed), Some(s));
        for o in s.as_slice() {
            *drawn.entry(o.roll.dice().to_vec()).or_default() += o.weight as u64;
        }
    }
    assert_eq!(drawn.len(), 56);
    let total = (samples * 16) as f64;
    let mut chi2 = 0.0;
    for (faces, &n) in &drawn {
        assert_eq!(faces.len(), 3);
        let distinct = faces.iter().collect::<BTreeSet<_>>().len();
        let orderings = [0.0, 1.0, 3.0, 6.0][distinct];
        let want = total * orderings / 216.0;
        chi2 += (n as f64 - want).powi(2) / want;
    }
    assert!(
        chi2 < 97.0,
        "chi-square {chi2:.1} over 55 degrees of freedom"
    );
    assert!(all.sample(0, 1).is_none());
    assert_ne!(all.sample(16, 1), all.sample(16, 2));
}
