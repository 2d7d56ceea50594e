//! SAN against python-chess: every legal move of the 24,000 positions of
//! `testdata/san/random-games.txt` (written offline by `tools/san/gen_san_data.py`) is written
//! as python-chess writes it and read back, strictly and in its tolerant variants; then the
//! errors and the tolerant readings, case by case.

use chesscore::{Move, Position, SanError, SanMode};

const DATA: &str = include_str!("../testdata/san/random-games.txt");

fn sorted_legal(pos: &Position) -> Vec<Move> {
    let mut moves: Vec<Move> = pos.legal_moves().iter().copied().collect();
    moves.sort_by_key(|m| m.to_string());
    moves
}

/// Tolerant spellings of a move whose standard SAN is `san`: none may change what it names.
fn variants(pos: &Position, m: Move, san: &str) -> Vec<String> {
    let bare = san.trim_end_matches(['+', '#']);
    let mut v = vec![
        bare.to_string(),
        format!("{bare}+"),
        format!("{bare}!?"),
        format!("{san}??"),
        m.to_string(),
    ];
    let (from, to) = (m.from().to_string(), m.to().to_string());
    let letter = pos.piece_on(m.from()).kind().to_char().to_ascii_uppercase();
    if !m.is_castle() {
        let promo = if m.is_promotion() {
            format!("={}", m.promotion().to_char().to_ascii_uppercase())
        } else {
            String::new()
        };
        let sep = if m.is_capture() { "x" } else { "-" };
        if letter == 'P' {
            v.push(format!("{from}{sep}{to}{promo}"));
            if m.is_promotion() {
                v.push(bare.replace('=', ""));
            }
        } else {
            v.push(format!("{letter}{from}{sep}{to}"));
            v.push(format!("{letter}{from}{to}"));
            // Lower-case letters, except a bishop's `b`, which may read as the b-file.
            if letter != 'B' {
                v.push(bare.replacen(letter, &letter.to_ascii_lowercase().to_string(), 1));
            }
        }
    } else {
        v.push(bare.replace('O', "0"));
    }
    v
}

#[test]
fn san_equals_python_chess_and_reads_back() {
    let mut pos = Position::startpos();
    let (mut positions, mut moves_checked, mut games) = (0, 0, 0);
    for (n, line) in DATA.lines().enumerate() {
        let lineno = n + 1;
        if let Some(fen) = line.strip_prefix("fen ") {
            pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("line {lineno}: {e}"));
            games += 1;
            continue;
        }
        let mut fields = line.split(' ');
        let played = fields.next().unwrap();
        let expected: Vec<&str> = fields.filter(|s| !s.is_empty()).collect();
        let legal = sorted_legal(&pos);
        assert_eq!(
            legal.len(),
            expected.len(),
            "line {lineno}: {}",
            pos.to_fen()
        );
        for (&m, &want) in legal.iter().zip(&expected) {
            let san = pos.to_san(m).unwrap();
            assert_eq!(san.as_str(), want, "line {lineno}: {} {m}", pos.to_fen());
            assert_eq!(pos.parse_san(want), Ok(m), "line {lineno}: {want}");
            assert_eq!(pos.parse_san_with(want, SanMode::Tolerant), Ok(m));
            // Every tenth position: the tolerant spellings too.
            if positions % 10 == 0 {
                for text in variants(&pos, m, want) {
                    assert_eq!(
                        pos.parse_san_with(&text, SanMode::Tolerant),
                        Ok(m),
                        "line {lineno}: {} {text:?}",
                        pos.to_fen()
                    );
                    if text != want {
                        assert_eq!(pos.parse_san(&text), Err(SanError::Syntax), "{text:?}");
                    }
                }
            }
            moves_checked += 1;
        }
        positions += 1;
        if played != "-" {
            let m = pos.parse_uci_move(played).unwrap();
            pos.try_make_move(m).unwrap();
        }
    }
    assert_eq!(positions, 24_000);
    assert!(
        games > 400 && moves_checked > 350_000,
        "{games} {moves_checked}"
    );
}

fn pos(fen: &str) -> Position {
    Position::from_fen(fen).unwrap()
}

fn tolerant(p: &Position, text: &str) -> Result<String, SanError> {
    p.parse_san_with(text, SanMode::Tolerant)
        .map(|m| m.to_string())
}

#[test]
fn disambiguation_is_minimal_file_then_rank_then_both() {
    // Queens on a1, a5 and e1 (expected texts checked with python-chess).
    let p = pos("8/7k/8/Q7/8/8/8/Q3Q1K1 w - - 0 1");
    let san = |uci: &str| {
        p.to_san(p.parse_uci_move(uci).unwrap())
            .unwrap()
            .to_string()
    };
    assert_eq!(san("a1c3"), "Qa1c3"); // a5 (same file) and e1 (same rank) also reach c3
    assert_eq!(san("e1e5"), "Qee5"); // a1 and a5, on another file, also reach e5
    assert_eq!(san("a1a3"), "Q1a3"); // a5, on the same file, also reaches a3
    assert_eq!(san("e1e4"), "Qe4+"); // alone
    assert_eq!(p.parse_san("Qa1c3").unwrap().to_string(), "a1c3");
    assert_eq!(p.parse_san("Qac3"), Err(SanError::Ambiguous));
    assert_eq!(p.parse_san("Q1c3"), Err(SanError::Ambiguous));
    assert_eq!(tolerant(&p, "Qe1e5").as_deref(), Ok("e1e5"));
    // Two knights reach e4; with c3 pinned by the bishop on a5, only one does (legal moves).
    let p = pos("4k3/8/8/8/8/2N3N1/8/4K3 w - - 0 1");
    let m = p.parse_uci_move("g3e4").unwrap();
    assert_eq!(p.to_san(m).unwrap().as_str(), "Nge4");
    let p = pos("4k3/8/8/b7/8/2N3N1/8/4K3 w - - 0 1");
    let m = p.parse_uci_move("g3e4").unwrap();
    assert_eq!(p.to_san(m).unwrap().as_str(), "Ne4");
    assert_eq!(p.parse_san("Nge4"), Err(SanError::Syntax));
    assert_eq!(tolerant(&p, "Nge4").as_deref(), Ok("g3e4"));
}

#[test]
fn castling_promotion_check_and_mate_marks() {
    let p = pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    assert_eq!(p.parse_san("O-O").unwrap().to_string(), "e1g1");
    assert_eq!(p.parse_san("O-O-O").unwrap().to_string(), "e1c1");
    for t in ["0-0", "o-o", "O-O+", "Kg1", "e1g1", "e1h1"] {
        assert_eq!(tolerant(&p, t).as_deref(), Ok("e1g1"), "{t}");
    }
    assert_eq!(tolerant(&p, "e1a1").as_deref(), Ok("e1c1"));
    // King takes rook without the right: illegal.
    let no_rights = pos("r3k2r/8/8/8/8/8/8/R3K2R w Qkq - 0 1");
    assert_eq!(tolerant(&no_rights, "e1h1"), Err(SanError::Illegal));
    assert_eq!(p.parse_san("0-0"), Err(SanError::Syntax));
    let p = pos("4k3/8/8/8/8/8/8/4K3 w - - 0 1");
    assert_eq!(p.parse_san("O-O"), Err(SanError::Illegal));
    // Promotions: the piece is needed (ambiguous without it in tolerant mode).
    let p = pos("3r2k1/2P5/8/8/8/8/8/4K3 w - - 0 1");
    assert_eq!(p.parse_san("cxd8=Q+").unwrap().to_string(), "c7d8q");
    assert_eq!(p.parse_san("c8=N").unwrap().to_string(), "c7c8n");
    assert_eq!(tolerant(&p, "cxd8"), Err(SanError::Ambiguous));
    assert_eq!(tolerant(&p, "c7d8r").as_deref(), Ok("c7d8r"));
    assert_eq!(tolerant(&p, "cd8Q").as_deref(), Ok("c7d8q"));
    assert_eq!(tolerant(&p, "c8=K"), Err(SanError::Syntax));
    assert_eq!(p.parse_san("cxd8=Q"), Err(SanError::Syntax)); // the check mark is missing
                                                              // Mate: the back-rank mate Ra8#.
    let p = pos("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1");
    let m = p.parse_uci_move("a1a8").unwrap();
    assert_eq!(p.to_san(m).unwrap().as_str(), "Ra8#");
    assert_eq!(p.parse_san("Ra8+"), Err(SanError::Syntax));
    assert_eq!(tolerant(&p, "Ra8+").as_deref(), Ok("a1a8"));
    assert_eq!(tolerant(&p, "Ra8").as_deref(), Ok("a1a8"));
    // En passant: a plain pawn capture.
    let p = pos("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2");
    let m = p.parse_uci_move("e5d6").unwrap();
    assert_eq!(p.to_san(m).unwrap().as_str(), "exd6");
    assert_eq!(tolerant(&p, "ed6").as_deref(), Ok("e5d6"));
    assert_eq!(tolerant(&p, "ed").ok(), None);
}

#[test]
fn lower_case_b_is_the_b_file_unless_no_pawn_move_matches() {
    // A bishop on a4 and a pawn on b4 can both go to b5: `bb5` is the pawn (b-file).
    let p = pos("7k/8/8/8/BP6/8/8/4K3 w - - 0 1");
    assert_eq!(tolerant(&p, "bb5").as_deref(), Ok("b4b5"));
    assert_eq!(tolerant(&p, "Bb5").as_deref(), Ok("a4b5"));
    assert_eq!(tolerant(&p, "b5").as_deref(), Ok("b4b5"));
    // Only the pawn can capture on c5: `bxc5` is the pawn, `bc5` too.
    let p = pos("4k3/8/8/2n5/1P6/8/8/4K3 w - - 0 1");
    assert_eq!(tolerant(&p, "bxc5").as_deref(), Ok("b4c5"));
    assert_eq!(tolerant(&p, "bc5").as_deref(), Ok("b4c5"));
    // Pawn and bishop can both take on c5: standard SAN `bxc5` is the pawn.
    let p = pos("4k3/8/8/2n5/1P6/4B3/8/4K3 w - - 0 1");
    assert_eq!(p.parse_san("bxc5").unwrap().to_string(), "b4c5");
    assert_eq!(p.parse_san("Bxc5").unwrap().to_string(), "e3c5");
    // Only a bishop: `bxc5` is the bishop.
    let p = pos("4k3/8/8/2n5/8/4B3/8/4K3 w - - 0 1");
    assert_eq!(tolerant(&p, "bxc5").as_deref(), Ok("e3c5"));
    assert_eq!(tolerant(&p, "nf3"), Err(SanError::Illegal));
}

#[test]
fn each_failure_has_its_own_error() {
    let p = Position::startpos();
    for text in [
        "", "+", "!!", "Zf3", "N", "Nf9", "Ni3", "xe4", "e4=", "Nf3=Q", "Pe2e4e5", "e4 ", " e4",
        "é4", "O-O-O-O",
    ] {
        assert_eq!(tolerant(&p, text), Err(SanError::Syntax), "{text:?}");
        assert_eq!(p.parse_san(text), Err(SanError::Syntax), "{text:?}");
    }
    for text in [
        "e5", "Nf4", "Ke2", "O-O", "Bb5", "exd3", "e2e5", "a1a2", "e7e5",
    ] {
        assert_eq!(tolerant(&p, text), Err(SanError::Illegal), "{text:?}");
    }
    let p = pos("4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1");
    assert_eq!(p.parse_san("Nd2"), Err(SanError::Ambiguous));
    assert_eq!(tolerant(&p, "Nd2"), Err(SanError::Ambiguous));
    assert_eq!(tolerant(&p, "nd2"), Err(SanError::Ambiguous));
    // An illegal move has no SAN.
    assert_eq!(
        p.to_san(Move::new(chesscore::Square::E1, chesscore::Square::E3, 0)),
        Err(SanError::Illegal)
    );
    assert_eq!(
        SanError::Ambiguous.to_string(),
        SanError::Ambiguous.message()
    );
}
