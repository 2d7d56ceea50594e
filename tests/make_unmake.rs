//! Make/unmake properties over random games (proptest): unmake restores everything, the
//! incremental hashes equal a recomputation, FEN round-trips, transpositions hash equal.

mod common;

use chesscore::{Move, MoveError, Position};
use proptest::prelude::*;

fn fens() -> Vec<String> {
    common::suite_fens()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn unmake_restores_position_and_hashes(fen_index in 0usize..146, choices in prop::collection::vec(any::<u16>(), 1..80)) {
        let fens = fens();
        let fen = &fens[fen_index % fens.len()];
        let mut pos = Position::from_fen(fen).unwrap();
        let mut stack = Vec::new();
        for c in choices {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let m = moves[c as usize % moves.len()];
            let before = pos.clone();
            let undo = pos.make_move_unchecked(m);
            prop_assert!(pos.validate().is_ok(), "{:?}", pos.validate());
            // Round trip through FEN gives the same position and hashes.
            let reparsed = Position::from_fen(&pos.to_fen()).unwrap();
            prop_assert_eq!(reparsed.hash(), pos.hash());
            prop_assert_eq!(reparsed.pawn_hash(), pos.pawn_hash());
            prop_assert_eq!(reparsed.material_hash(), pos.material_hash());
            prop_assert_eq!(reparsed.to_fen(), pos.to_fen());
            stack.push((m, undo, before));
        }
        while let Some((m, undo, before)) = stack.pop() {
            pos.unmake_move_unchecked(m, &undo);
            prop_assert!(pos == before);
            prop_assert_eq!(pos.hash(), before.hash());
            prop_assert_eq!(pos.ply_count(), before.ply_count());
        }
        prop_assert_eq!(pos.to_fen(), fen.clone());
    }

    #[test]
    fn null_moves_round_trip(fen_index in 0usize..146) {
        let fens = fens();
        let mut pos = Position::from_fen(&fens[fen_index % fens.len()]).unwrap();
        let before = pos.clone();
        match pos.try_make_null_move() {
            Ok(undo) => {
                prop_assert!(pos.hash() != before.hash());
                prop_assert!(pos.side_to_move() != before.side_to_move());
                pos.unmake_null_move_unchecked(&undo);
                prop_assert!(pos == before);
            }
            Err(e) => {
                prop_assert_eq!(e, MoveError::Illegal);
                prop_assert!(before.in_check());
                prop_assert!(pos == before);
            }
        }
    }
}

#[test]
fn transpositions_hash_equal() {
    let play = |moves: &[&str]| {
        let mut pos = Position::startpos();
        for m in moves {
            let mv = pos.parse_uci_move(m).unwrap();
            pos.make_move_unchecked(mv);
        }
        pos
    };
    let a = play(&["g1f3", "g8f6", "b1c3", "b8c6"]);
    let b = play(&["b1c3", "b8c6", "g1f3", "g8f6"]);
    assert_eq!(a.hash(), b.hash());
    assert_eq!(a.to_fen(), b.to_fen());
    // En passant: after e2e4 the e3 square is written in FEN but no black pawn can capture,
    // so the hash equals the one without an en passant square.
    let c = play(&["e2e4"]);
    let d =
        Position::from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1").unwrap();
    assert_eq!(
        c.to_fen(),
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"
    );
    assert_eq!(c.hash(), d.hash());
}

#[test]
fn checked_make_refuses_and_leaves_position() {
    let mut pos = Position::startpos();
    let before = pos.clone();
    assert_eq!(
        pos.try_make_move(Move::from_raw(0)),
        Err(MoveError::Illegal)
    );
    assert_eq!(
        pos.try_make_move(Move::new(chesscore::Square::E2, chesscore::Square::E5, 0)),
        Err(MoveError::Illegal)
    );
    assert!(pos == before && pos.ply_count() == 0);
    let m = pos.parse_uci_move("e2e4").unwrap();
    let undo = pos.try_make_move(m).unwrap();
    // A wrong move for the record, and a record of another move, are refused.
    let wrong = Move::new(
        chesscore::Square::D2,
        chesscore::Square::D4,
        Move::DOUBLE_PUSH,
    );
    let after = pos.clone();
    assert_eq!(pos.try_unmake_move(wrong, &undo), Err(MoveError::BadUndo));
    assert_eq!(
        pos.try_unmake_move(m, &chesscore::Undo::default()),
        Err(MoveError::BadUndo)
    );
    assert!(pos == after);
    pos.try_unmake_move(m, &undo).unwrap();
    assert!(pos == before);
}

#[test]
fn history_capacity_is_enforced_by_checked_make() {
    let mut pos = Position::startpos();
    let shuffle = ["g1f3", "g8f6", "f3g1", "f6g8"];
    let mut made = 0;
    loop {
        let m = pos.parse_uci_move(shuffle[made % 4]).unwrap();
        match pos.try_make_move(m) {
            Ok(_) => made += 1,
            Err(e) => {
                assert_eq!(e, MoveError::HistoryFull);
                break;
            }
        }
    }
    assert_eq!(made, chesscore::position::HISTORY_CAPACITY);
    // Compacting keeps only what a repetition can reach (nothing: the halfmove clock counts
    // every ply here, so everything is kept up to the clock), and makes room again.
    pos.compact_history();
    assert!(pos.ply_count() as usize <= chesscore::position::HISTORY_CAPACITY);
    assert!(pos.is_repetition(i32::MAX));
}

#[test]
fn checked_unmake_refuses_every_other_move_value() {
    // Values that restore the same board (another flag, another promotion piece, the castling
    // rook's square) must still be refused: only the move that was made may be taken back.
    for (fen, uci) in [
        (chesscore::START_FEN, "e2e4"),
        ("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "e1g1"),
        ("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", "e8c8"),
        ("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b7b8q"),
        (
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "e2a6",
        ),
        ("8/8/1k6/2b5/2pP4/8/5K2/8 b - d3 0 1", "c4d3"),
    ] {
        let mut pos = Position::from_fen(fen).unwrap();
        let m = pos.parse_uci_move(uci).unwrap();
        let undo = pos.try_make_move(m).unwrap();
        let after = pos.clone();
        for raw in 0..=u16::MAX {
            if raw == m.raw() {
                continue;
            }
            assert_eq!(
                pos.try_unmake_move(Move::from_raw(raw), &undo),
                Err(MoveError::BadUndo),
                "{raw:#06x} after {uci}"
            );
        }
        assert!(pos == after);
        pos.try_unmake_move(m, &undo).unwrap();
        assert_eq!(pos.to_fen(), fen);
    }
}

#[test]
fn checked_null_unmake_needs_a_null_move() {
    let mut pos = Position::startpos();
    let m = pos.parse_uci_move("g1f3").unwrap();
    let undo = pos.try_make_move(m).unwrap();
    let after = pos.clone();
    // The last move was not a null move: its record does not take back a null move.
    assert_eq!(pos.try_unmake_null_move(&undo), Err(MoveError::BadUndo));
    assert!(pos == after);
    let null = pos.try_make_null_move().unwrap();
    assert_eq!(pos.try_unmake_null_move(&undo), Err(MoveError::BadUndo));
    pos.try_unmake_null_move(&null).unwrap();
    assert!(pos == after);
}

#[test]
fn en_passant_square_is_kept_and_flagged_only_when_capturable() {
    use chesscore::Square;
    let e3 = Square::parse("e3");
    // After 1. e4 no black pawn can take: the square is kept (as FEN writes it), but it is not
    // capturable and stays out of the hash.
    let mut pos = Position::startpos();
    pos.make_move_unchecked(pos.parse_uci_move("e2e4").unwrap());
    assert_eq!(pos.en_passant(), e3);
    assert_eq!(pos.capturable_en_passant(), None);
    let without = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
    assert_eq!(pos.hash(), Position::from_fen(without).unwrap().hash());
    // With a black pawn on d4 it is capturable, after the move and after FEN alike, and hashed.
    let mut pos =
        Position::from_fen("rnbqkbnr/ppp1pppp/8/8/3p4/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1").unwrap();
    pos.make_move_unchecked(pos.parse_uci_move("e2e4").unwrap());
    assert_eq!(pos.capturable_en_passant(), e3);
    let fen = pos.to_fen();
    assert_eq!(
        fen,
        "rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"
    );
    assert_eq!(
        Position::from_fen(&fen).unwrap().capturable_en_passant(),
        e3
    );
    let without = "rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
    assert_ne!(pos.hash(), Position::from_fen(without).unwrap().hash());
    // The next move clears it, whatever it is.
    pos.make_move_unchecked(pos.parse_uci_move("g8f6").unwrap());
    assert_eq!(
        (pos.en_passant(), pos.capturable_en_passant()),
        (None, None)
    );
}

#[test]
fn clocks_follow_moves_and_history_maintenance() {
    // The fullmove number is derived from the plies made; it must survive null moves,
    // clearing and compacting the history, and unmaking.
    let fen = "4k3/8/8/8/8/8/4P3/4K2R b K - 65534 41";
    let mut pos = Position::from_fen(fen).unwrap();
    assert_eq!((pos.halfmove_clock(), pos.fullmove_number()), (65534, 41));
    let m = pos.parse_uci_move("e8d8").unwrap();
    let undo = pos.make_move_unchecked(m);
    assert_eq!((pos.halfmove_clock(), pos.fullmove_number()), (65535, 42));
    // The clock stops at 65535 (and FEN writes what it reads back).
    let m2 = pos.parse_uci_move("h1h2").unwrap();
    let undo2 = pos.make_move_unchecked(m2);
    assert_eq!((pos.halfmove_clock(), pos.fullmove_number()), (65535, 42));
    assert!(pos.to_fen().ends_with(" 65535 42"));
    assert!(Position::from_fen(&pos.to_fen()).is_ok());
    pos.unmake_move_unchecked(m2, &undo2);
    pos.unmake_move_unchecked(m, &undo);
    assert_eq!(pos.to_fen(), fen);

    let mut pos = Position::startpos();
    for (uci, number) in [("e2e4", 1), ("e7e5", 2), ("g1f3", 2)] {
        pos.make_move_unchecked(pos.parse_uci_move(uci).unwrap());
        assert_eq!(pos.fullmove_number(), number);
    }
    assert_eq!(pos.fullmove_number(), 2);
    let null = pos.make_null_move_unchecked(); // Black passes: the move number counts on.
    assert_eq!(pos.fullmove_number(), 3);
    pos.unmake_null_move_unchecked(&null);
    assert_eq!(pos.fullmove_number(), 2);
    pos.compact_history(); // keeps 1 entry (the clock is 1 after g1f3)
    assert_eq!(pos.ply_count(), 1);
    assert_eq!(pos.fullmove_number(), 2);
    pos.make_move_unchecked(pos.parse_uci_move("b8c6").unwrap());
    assert_eq!(pos.fullmove_number(), 3);
    pos.clear_history();
    assert_eq!((pos.ply_count(), pos.fullmove_number()), (0, 3));
    assert_eq!(
        pos.to_fen(),
        "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"
    );
}
