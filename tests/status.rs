//! Repetition detection and game status.

use chesscore::{GameStatus, Position};

fn play(pos: &mut Position, moves: &[&str]) {
    for m in moves {
        let mv = pos.parse_uci_move(m).unwrap_or_else(|e| panic!("{m}: {e}"));
        pos.try_make_move(mv).unwrap();
    }
}

#[test]
fn threefold_repetition_counts_three_occurrences() {
    let mut pos = Position::startpos();
    let shuffle = ["g1f3", "g8f6", "f3g1", "f6g8"];
    assert!(!pos.is_repetition(100));
    play(&mut pos, &shuffle); // start position, second time
    assert!(!pos.is_repetition(100));
    assert_eq!(pos.status(), GameStatus::Ongoing);
    play(&mut pos, &shuffle); // third time
    assert!(pos.is_repetition(100));
    assert_eq!(pos.status(), GameStatus::ThreefoldRepetition);
    // The first occurrence is 8 plies back: a limit of 7 cannot see it.
    assert!(!pos.is_repetition(7));
    assert!(pos.is_repetition(8));
}

#[test]
fn repetition_stops_at_irreversible_moves() {
    let mut pos = Position::startpos();
    play(&mut pos, &["g1f3", "g8f6", "f3g1", "f6g8", "e2e4", "e7e5"]);
    play(
        &mut pos,
        &[
            "g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1", "f6g8",
        ],
    );
    assert!(pos.is_repetition(1000)); // three times since e7e5
    let mut p2 = Position::startpos();
    play(
        &mut p2,
        &[
            "g1f3", "g8f6", "f3g1", "f6g8", "e2e4", "e7e5", "g1f3", "g8f6", "f3g1", "f6g8",
        ],
    );
    assert!(!p2.is_repetition(1000)); // only twice since e7e5
}

#[test]
fn terminal_statuses() {
    let cases = [
        (
            "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",
            GameStatus::Checkmate,
        ),
        ("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", GameStatus::Stalemate),
        (
            "4k3/8/8/8/8/8/4P3/4K3 w - - 100 80",
            GameStatus::FiftyMoveRule,
        ),
        (
            "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
            GameStatus::InsufficientMaterial,
        ),
        (
            "4k3/8/8/8/8/8/8/2B1K3 w - - 0 1",
            GameStatus::InsufficientMaterial,
        ),
        (
            "4k3/8/8/8/8/8/8/1N2K3 w - - 0 1",
            GameStatus::InsufficientMaterial,
        ),
        (
            "4kb2/8/8/8/8/8/8/2B1K3 w - - 0 1",
            GameStatus::InsufficientMaterial,
        ),
        ("4k1b1/8/8/8/8/8/8/2B1K3 w - - 0 1", GameStatus::Ongoing),
        ("4k3/8/8/8/8/8/8/1NN1K3 w - - 0 1", GameStatus::Ongoing),
        ("4k3/8/8/8/8/8/4P3/4K3 w - - 99 80", GameStatus::Ongoing),
        // Mate takes precedence over the 50-move rule.
        ("7k/6Q1/6K1/8/8/8/8/8 b - - 100 80", GameStatus::Checkmate),
    ];
    for (fen, want) in cases {
        assert_eq!(Position::from_fen(fen).unwrap().status(), want, "{fen}");
    }
}
