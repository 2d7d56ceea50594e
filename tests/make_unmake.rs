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
    assert_eq!(made, 1024);
    assert_eq!(chesscore::position::HISTORY_CAPACITY, 1024);
    // 1024 = 256 rounds of the 4-ply shuffle: the start position again, White to move at move
    // 1024 / 2 + 1 = 513, no capture or pawn move in 1024 plies.
    let start_again = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 1024 513";
    assert_eq!(pos.to_fen(), start_again);
    // It stood there 4 and 8 plies ago: the third occurrence is found looking back 8 plies,
    // not 7.
    assert!(pos.is_repetition(i32::MAX));
    assert!(pos.is_repetition(8));
    assert!(!pos.is_repetition(7));
    // Every entry is since the last capture or pawn move (the clock is 1024), so compacting
    // keeps all 1024 and makes no room.
    pos.compact_history();
    assert_eq!(pos.ply_count(), 1024);
    assert_eq!(pos.to_fen(), start_again);
    assert!(pos.is_repetition(8) && !pos.is_repetition(7));
    let nf3 = pos.parse_uci_move("g1f3").unwrap();
    assert_eq!(pos.try_make_move(nf3), Err(MoveError::HistoryFull));
    // The unchecked make goes on past the capacity; after a pawn move nothing before it can
    // repeat, so compacting keeps nothing and the checked make works again.
    pos.make_move_unchecked(pos.parse_uci_move("e2e4").unwrap());
    assert_eq!(pos.ply_count(), 1025);
    let after_e4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 513";
    assert_eq!(pos.to_fen(), after_e4);
    pos.compact_history();
    assert_eq!(pos.ply_count(), 0);
    assert_eq!(pos.to_fen(), after_e4);
    pos.try_make_move(pos.parse_uci_move("e7e5").unwrap())
        .unwrap();
    assert_eq!(pos.ply_count(), 1);
    assert_eq!(
        pos.to_fen(),
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 514"
    );
}

/// One step of a scripted game: a move with everything that must hold after it (all derived
/// by hand from the move sequence), or a compaction with the history length it must leave.
enum Step {
    /// UCI move, FEN after it, `ply_count` after it, whether this is a third occurrence.
    Play(&'static str, &'static str, u32, bool),
    /// Compact; the `ply_count` after it. Nothing else may change.
    Compact(u32),
}

#[test]
fn compaction_keeps_exactly_the_entries_since_the_last_capture_or_pawn_move() {
    use chesscore::GameStatus;
    use Step::{Compact, Play};
    // The knights shuffle (Nf3 Nf6 Ng1 Ng8 brings a position back after 4 plies) between pawn
    // moves and captures. The history holds one entry per move since setup or since what the
    // last compaction dropped; compacting keeps the last `halfmove clock` entries (the
    // positions since the last capture or pawn move, which are all a repetition can reach).
    // A third occurrence after a compaction needs the first occurrence, the oldest entry kept:
    // keeping one entry fewer misses it (plies 18, 19 and 30), one more shows in `ply_count`.
    let steps = [
        Play(
            "g1f3",
            "rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - 1 1",
            1,
            false,
        ),
        Play(
            "g8f6",
            "rnbqkb1r/pppppppp/5n2/8/8/5N2/PPPPPPPP/RNBQKB1R w KQkq - 2 2",
            2,
            false,
        ),
        Play(
            "f3g1",
            "rnbqkb1r/pppppppp/5n2/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 3 2",
            3,
            false,
        ),
        // Ply 4: the start position for the second time.
        Play(
            "f6g8",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 4 3",
            4,
            false,
        ),
        // Clock 4, 4 entries: nothing to drop.
        Compact(4),
        Play(
            "g1f3",
            "rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - 5 3",
            5,
            false,
        ),
        Play(
            "g8f6",
            "rnbqkb1r/pppppppp/5n2/8/8/5N2/PPPPPPPP/RNBQKB1R w KQkq - 6 4",
            6,
            false,
        ),
        Play(
            "f3g1",
            "rnbqkb1r/pppppppp/5n2/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 7 4",
            7,
            false,
        ),
        // Ply 8: the start position for the third time (plies 0, 4, 8).
        Play(
            "f6g8",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 8 5",
            8,
            true,
        ),
        Compact(8),
        // A pawn move: clock 0, so compacting drops all 9 entries.
        Play(
            "e2e4",
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 5",
            9,
            false,
        ),
        Compact(0),
        // Ply 10: position A (the e6 square is written but no pawn can take: not hashed).
        Play(
            "e7e5",
            "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 6",
            1,
            false,
        ),
        Play(
            "g1f3",
            "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 6",
            2,
            false,
        ),
        // Ply 12: position B.
        Play(
            "g8f6",
            "rnbqkb1r/pppp1ppp/5n2/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 7",
            3,
            false,
        ),
        // 3 entries (plies 9, 10, 11), clock 2: the entry of ply 9 (before e7e5) goes.
        Compact(2),
        Play(
            "f3g1",
            "rnbqkb1r/pppp1ppp/5n2/4p3/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 3 7",
            3,
            false,
        ),
        // Ply 14: A for the second time.
        Play(
            "f6g8",
            "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 4 8",
            4,
            false,
        ),
        Play(
            "g1f3",
            "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 5 8",
            5,
            false,
        ),
        // Ply 16: B for the second time.
        Play(
            "g8f6",
            "rnbqkb1r/pppp1ppp/5n2/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 6 9",
            6,
            false,
        ),
        Compact(6),
        Play(
            "f3g1",
            "rnbqkb1r/pppp1ppp/5n2/4p3/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 7 9",
            7,
            false,
        ),
        // Ply 18: A for the third time (plies 10, 14, 18): needs the entry of ply 10.
        Play(
            "f6g8",
            "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 8 10",
            8,
            true,
        ),
        // Ply 19: A + Nf3 for the third time too (plies 11, 15, 19).
        Play(
            "g1f3",
            "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 9 10",
            9,
            true,
        ),
        Play(
            "b8c6",
            "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 10 11",
            10,
            false,
        ),
        // A capture and the recapture: the clock starts again.
        Play(
            "f3e5",
            "r1bqkbnr/pppp1ppp/2n5/4N3/4P3/8/PPPP1PPP/RNBQKB1R b KQkq - 0 11",
            11,
            false,
        ),
        // Ply 22: position C.
        Play(
            "c6e5",
            "r1bqkbnr/pppp1ppp/8/4n3/4P3/8/PPPP1PPP/RNBQKB1R w KQkq - 0 12",
            12,
            false,
        ),
        Play(
            "b1c3",
            "r1bqkbnr/pppp1ppp/8/4n3/4P3/2N5/PPPP1PPP/R1BQKB1R b KQkq - 1 12",
            13,
            false,
        ),
        // 13 entries, clock 1: only the entry of ply 22 (C) stays.
        Compact(1),
        Play(
            "g8f6",
            "r1bqkb1r/pppp1ppp/5n2/4n3/4P3/2N5/PPPP1PPP/R1BQKB1R w KQkq - 2 13",
            2,
            false,
        ),
        Play(
            "c3b1",
            "r1bqkb1r/pppp1ppp/5n2/4n3/4P3/8/PPPP1PPP/RNBQKB1R b KQkq - 3 13",
            3,
            false,
        ),
        // Ply 26: C for the second time.
        Play(
            "f6g8",
            "r1bqkbnr/pppp1ppp/8/4n3/4P3/8/PPPP1PPP/RNBQKB1R w KQkq - 4 14",
            4,
            false,
        ),
        Play(
            "b1c3",
            "r1bqkbnr/pppp1ppp/8/4n3/4P3/2N5/PPPP1PPP/R1BQKB1R b KQkq - 5 14",
            5,
            false,
        ),
        Play(
            "g8f6",
            "r1bqkb1r/pppp1ppp/5n2/4n3/4P3/2N5/PPPP1PPP/R1BQKB1R w KQkq - 6 15",
            6,
            false,
        ),
        Play(
            "c3b1",
            "r1bqkb1r/pppp1ppp/5n2/4n3/4P3/8/PPPP1PPP/RNBQKB1R b KQkq - 7 15",
            7,
            false,
        ),
        // Ply 30: C for the third time (plies 22, 26, 30): needs the one entry kept at ply 23.
        Play(
            "f6g8",
            "r1bqkbnr/pppp1ppp/8/4n3/4P3/8/PPPP1PPP/RNBQKB1R w KQkq - 8 16",
            8,
            true,
        ),
        Compact(8),
    ];
    let mut pos = Position::startpos();
    let mut threefolds = 0;
    for (i, step) in steps.iter().enumerate() {
        match *step {
            Play(uci, fen, plies, third) => {
                let m = pos.parse_uci_move(uci).unwrap();
                pos.try_make_move(m).unwrap();
                assert_eq!(pos.to_fen(), fen, "step {i}: {uci}");
                assert_eq!(pos.ply_count(), plies, "step {i}: {uci}");
                assert_eq!(pos.is_repetition(i32::MAX), third, "step {i}: {uci}");
                let want = if third {
                    threefolds += 1;
                    GameStatus::ThreefoldRepetition
                } else {
                    GameStatus::Ongoing
                };
                assert_eq!(pos.status(), want, "step {i}: {uci}");
                if third {
                    // The two earlier occurrences are 4 and 8 plies back.
                    assert!(pos.is_repetition(8), "step {i}");
                    assert!(!pos.is_repetition(7), "step {i}");
                }
            }
            Compact(plies) => {
                let (fen, hash, rep, status) = (
                    pos.to_fen(),
                    pos.hash(),
                    pos.is_repetition(i32::MAX),
                    pos.status(),
                );
                let (rep8, rep7) = (pos.is_repetition(8), pos.is_repetition(7));
                pos.compact_history();
                assert_eq!(pos.ply_count(), plies, "step {i}: compact");
                // The FEN (so the clocks and the move number) and the answers stay.
                assert_eq!(pos.to_fen(), fen, "step {i}: compact");
                assert_eq!(pos.hash(), hash);
                assert_eq!(pos.is_repetition(i32::MAX), rep, "step {i}: compact");
                assert_eq!(pos.is_repetition(8), rep8, "step {i}: compact");
                assert_eq!(pos.is_repetition(7), rep7, "step {i}: compact");
                assert_eq!(pos.status(), status, "step {i}: compact");
                // Compacting twice changes nothing more.
                pos.compact_history();
                assert_eq!(pos.ply_count(), plies, "step {i}: compact twice");
            }
        }
    }
    assert_eq!(threefolds, 4);
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
    assert_eq!(
        pos.to_fen(),
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2"
    );
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
