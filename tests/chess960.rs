//! Chess960: X-FEN and Shredder-FEN in and out, castling with any king and rook squares, UCI
//! text as king takes rook, and perft of all 960 start positions and of middlegame positions
//! with odd castling setups against counts from Stockfish and python-chess
//! (testdata/chess960.epd, made by tools/chess960/make_perft.py).
//!
//! By default each position is checked to a node budget that keeps debug builds quick (every
//! position to depth 3, a sample deeper); `CHESSCORE_CHESS960_FULL=1 cargo test --release
//! --test chess960` checks every count in the file (depth 4 for all 960, 5 for every 40th).

use chesscore::{FenError, Move, PerftMode, Position, Square};

struct Line {
    fen: String,
    counts: Vec<(u32, u64)>,
}

fn suite() -> Vec<Line> {
    let path = format!("{}/testdata/chess960.epd", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let mut parts = l.split(';');
            let fen = parts.next().unwrap().trim().to_string();
            let counts = parts
                .map(|p| {
                    let mut w = p.split_whitespace();
                    let d = w.next().unwrap().trim_start_matches('D').parse().unwrap();
                    (d, w.next().unwrap().parse().unwrap())
                })
                .collect();
            Line { fen, counts }
        })
        .collect()
}

fn full() -> bool {
    std::env::var("CHESSCORE_CHESS960_FULL").is_ok_and(|v| v == "1")
}

#[test]
fn start_positions_are_numbered_as_python_chess_numbers_them() {
    let lines = suite();
    for n in 0..960u16 {
        let pos = Position::chess960_start(n).unwrap();
        assert_eq!(pos.to_fen(), lines[n as usize].fen, "position {n}");
        assert!(pos.is_chess960());
    }
    assert!(Position::chess960_start(960).is_none());
}

#[test]
fn perft_matches_the_committed_counts() {
    let budget = if full() { u64::MAX } else { 40_000 };
    let mut checked = 0;
    for (i, line) in suite().iter().enumerate() {
        let mut pos = Position::from_fen_960(&line.fen).unwrap();
        // A sample goes deeper by default: every 60th position and the hand-made ones.
        let deep = i % 60 == 0 || (960..980).contains(&i);
        for &(depth, want) in &line.counts {
            if want > budget && !(deep && want < 400_000) {
                break;
            }
            let mode = if i % 2 == 0 {
                PerftMode::Bulk
            } else {
                PerftMode::Full
            };
            assert_eq!(
                pos.perft_mode(depth, mode),
                want,
                "{} depth {depth}",
                line.fen
            );
            checked += 1;
        }
        assert_eq!(
            pos.to_fen(),
            line.fen,
            "perft must leave the position as it was"
        );
    }
    assert!(checked >= 3140, "only {checked} counts checked");
}

#[test]
fn fen_round_trips_in_x_fen_and_shredder_fen() {
    for line in suite() {
        let pos = Position::from_fen_960(&line.fen).unwrap();
        assert_eq!(pos.to_fen(), line.fen);
        let shredder = pos.to_shredder_fen();
        let again = Position::from_fen_960(&shredder).unwrap();
        assert_eq!(again, pos, "{shredder}");
        assert_eq!(again.to_fen(), line.fen);
        assert_eq!(again.hash(), pos.hash());
    }
}

#[test]
fn x_fen_and_shredder_fen_castling_fields() {
    let cases = [
        // (input, X-FEN written, Shredder-FEN castling field)
        (
            "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
            "KQkq",
            "HFhf",
        ),
        ("4k3/8/8/8/8/8/8/4KRRR w F - 0 1", "F", "F"),
        ("4k3/8/8/8/8/8/8/4KRRR w K - 0 1", "K", "H"),
        ("4k3/8/8/8/8/8/8/RR2K3 w B - 0 1", "B", "B"),
        ("4k3/8/8/8/8/8/8/RR2K3 w Q - 0 1", "Q", "A"),
        ("r5kr/8/8/8/8/8/8/RK5R w AHah - 0 1", "KQkq", "HAha"),
        ("r5kr/8/8/8/8/8/8/RK5R w qKkQ - 0 1", "KQkq", "HAha"),
        (chesscore::START_FEN, "KQkq", "HAha"),
    ];
    for (fen, x, shredder) in cases {
        let pos = Position::from_fen_960(fen).unwrap();
        assert_eq!(pos.to_fen().split(' ').nth(2), Some(x), "{fen}");
        assert_eq!(
            pos.to_shredder_fen().split(' ').nth(2),
            Some(shredder),
            "{fen}"
        );
    }
    let pos = Position::from_fen_960("4k3/8/8/8/8/8/8/4KRRR w F - 0 1").unwrap();
    assert_eq!(pos.castling_rook(0), Square::F1);
    assert_eq!(pos.castling_king(chesscore::Color::WHITE), Square::E1);
}

#[test]
fn bad_chess960_castling_fields_are_refused() {
    let cases = [
        ("4k3/8/8/8/8/8/8/4KRRR w FF - 0 1", FenError::Castling),
        ("4k3/8/8/8/8/8/8/4KRRR w KF - 0 1", FenError::Castling),
        ("4k3/8/8/8/8/8/8/4KRRR w X - 0 1", FenError::Castling),
        ("4k3/8/8/8/8/8/8/4KRRR w Q - 0 1", FenError::CastlingRights),
        ("4k3/8/8/8/8/8/8/4KRRR w D - 0 1", FenError::CastlingRights),
        ("4k3/8/8/8/8/8/8/4KRRR w E - 0 1", FenError::CastlingRights),
        ("4k3/8/8/8/8/8/4K3/5RRR w F - 0 1", FenError::CastlingRights),
        ("4k3/8/8/8/8/8/8/4KRRR w f - 0 1", FenError::CastlingRights),
    ];
    for (fen, want) in cases {
        assert_eq!(Position::from_fen_960(fen).err(), Some(want), "{fen}");
    }
    // The strict parser stays strict.
    for fen in [
        "4k3/8/8/8/8/8/8/4KRRR w F - 0 1",
        "r5kr/8/8/8/8/8/8/RK5R w KQkq - 0 1",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1",
    ] {
        assert!(Position::from_fen(fen).is_err(), "{fen}");
    }
}

fn castles(pos: &Position) -> Vec<Move> {
    pos.legal_moves()
        .iter()
        .copied()
        .filter(|m| m.is_castle())
        .collect()
}

#[test]
fn castling_where_king_or_rook_stay_or_swap() {
    // (FEN, UCI of the castle, FEN after it)
    let cases = [
        (
            "4k3/8/8/8/8/8/8/6KR w K - 0 1",
            "g1h1",
            "4k3/8/8/8/8/8/8/5RK1 b - - 1 1",
        ),
        (
            "4k3/8/8/8/8/8/8/5KR1 w K - 0 1",
            "f1g1",
            "4k3/8/8/8/8/8/8/5RK1 b - - 1 1",
        ),
        (
            "4k3/8/8/8/8/8/8/RK6 w Q - 0 1",
            "b1a1",
            "4k3/8/8/8/8/8/8/2KR4 b - - 1 1",
        ),
        (
            "4k3/8/8/8/8/8/8/1RK5 w Q - 0 1",
            "c1b1",
            "4k3/8/8/8/8/8/8/2KR4 b - - 1 1",
        ),
        (
            "4k3/8/8/8/8/8/8/3RK3 w Q - 0 1",
            "e1d1",
            "4k3/8/8/8/8/8/8/2KR4 b - - 1 1",
        ),
        (
            "1r4kr/8/8/8/8/8/8/4K3 b kq - 0 1",
            "g8b8",
            "2kr3r/8/8/8/8/8/8/4K3 w - - 1 2",
        ),
    ];
    for (fen, uci, after) in cases {
        let mut pos = Position::from_fen_960(fen).unwrap();
        let cs = castles(&pos);
        let m = pos.parse_uci_move(uci).unwrap();
        assert!(m.is_castle() && cs.contains(&m), "{fen}: {cs:?}");
        assert_eq!(pos.uci_move_text(m), uci);
        let before = pos.clone();
        let undo = pos.try_make_move(m).unwrap();
        assert_eq!(pos.to_fen(), after, "{fen}");
        assert_eq!(pos.hash(), pos.compute_hashes().0);
        pos.try_unmake_move(m, &undo).unwrap();
        assert_eq!(pos, before);
        assert_eq!(pos.hash(), before.hash());
        // The king's own-move text is not a castle in Chess960 mode (unless the rook stands on
        // the king's destination, where both texts are the same).
        let mut buf = [0u8; 5];
        let n = m.write_uci(&mut buf);
        let king_text = std::str::from_utf8(&buf[..n]).unwrap();
        assert!(
            king_text == uci
                || pos
                    .parse_uci_move(king_text)
                    .map_or(true, |k| !k.is_castle()),
            "{king_text}"
        );
    }
}

#[test]
fn a_rook_screening_the_kings_destination_forbids_castling() {
    // The b1 rook screens c1 from the a1 rook (or queen): after O-O-O the king would be in check.
    for fen in [
        "4k3/8/8/8/8/8/8/rR1K3R w KQ - 0 1",
        "4k3/8/8/8/8/8/8/qR1K3R w KQ - 0 1",
    ] {
        let pos = Position::from_fen_960(fen).unwrap();
        let cs: Vec<String> = castles(&pos)
            .iter()
            .map(|&m| pos.uci_move_text(m))
            .collect();
        assert_eq!(cs, ["d1h1"], "{fen}");
        // The pseudo-legal castle exists; the independent legality check refuses it.
        let q = pos
            .pseudo_legal_moves()
            .iter()
            .copied()
            .find(|m| m.flag() == Move::QUEEN_CASTLE)
            .unwrap();
        assert!(!pos.is_legal_pseudo(q));
        assert!(!pos.is_legal(q));
    }
}

#[test]
fn uci_text_follows_the_mode() {
    let mut pos = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap();
    let m = pos.parse_uci_move("e1g1").unwrap();
    assert!(m.is_castle());
    assert_eq!(pos.uci_move_text(m), "e1g1");
    assert!(pos.parse_uci_move("e1h1").is_err());
    pos.set_chess960(true).unwrap();
    assert_eq!(pos.uci_move_text(m), "e1h1");
    assert_eq!(pos.parse_uci_move("e1h1"), Ok(m));
    assert!(pos.parse_uci_move("e1g1").is_err());
    assert_eq!(pos.to_fen(), "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    pos.set_chess960(false).unwrap();
    assert_eq!(pos.parse_uci_move("e1g1"), Ok(m));
    // A Chess960 setup cannot leave the mode.
    let mut odd = Position::from_fen_960("r5kr/8/8/8/8/8/8/RK5R w KQkq - 0 1").unwrap();
    let before = odd.clone();
    assert_eq!(odd.set_chess960(false), Err(FenError::CastlingRights));
    assert_eq!(odd, before);
}

#[test]
fn chess960_positions_validate_fully_and_standard_ones_do_not_change() {
    for line in suite().iter().step_by(13) {
        let pos = Position::from_fen_960(&line.fen).unwrap();
        assert_eq!(pos.validate_full(), Ok(()), "{}", line.fen);
    }
    let std = Position::startpos();
    assert!(!std.is_chess960());
    let mut n518 = Position::chess960_start(518).unwrap();
    assert_eq!(n518.hash(), std.hash());
    assert_eq!(n518.to_fen(), std.to_fen());
    assert_eq!(n518.perft_mode(3, PerftMode::Full), 8902);
}
