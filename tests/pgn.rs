//! PGN: the files of `testdata/pgn/` read into the games python-chess reads (move counts and
//! final positions below were taken from python-chess 1.11 offline), comments and NAGs kept,
//! round-tripped (read, write, read gives the same games, and writing again the same text),
//! malformed games reported with their line and skipped.

use chesscore::pgn::{Game, PgnErrorKind, PgnReader};
use chesscore::{Position, SanError};

fn read_all(path: &str) -> Vec<Result<Game, chesscore::pgn::PgnError>> {
    let text = std::fs::read(path).unwrap();
    PgnReader::new(&text[..]).collect()
}

/// (Event, plies, final FEN) of a game, from python-chess.
type Expected = (&'static str, usize, &'static str);

/// Each file's games.
const EXPECTED: [(&str, &[Expected]); 2] = [
    (
        "testdata/pgn/annotated.pgn",
        &[
            (
                "Casual game",
                33,
                "1n1Rkb1r/p4ppp/4q3/4p1B1/4P3/8/PPP2PPP/2K5 b k - 1 17",
            ),
            (
                "London",
                45,
                "r1bk3r/p2pBpNp/n4n2/1p1NP2P/6P1/3P4/P1P1K3/q5b1 b - - 1 23",
            ),
            (
                "Berlin",
                47,
                "1r3kr1/pbpBBp1p/1b3P2/8/8/2P2q2/P4PPP/3R2K1 b - - 0 24",
            ),
        ],
    ),
    (
        "testdata/pgn/odd-format.pgn",
        &[
            (
                "Odd formatting",
                85,
                "8/8/4R1p1/2k3p1/1p4P1/1P1b1P2/3K1n2/8 b - - 2 43",
            ),
            (
                "Set-up position, Black to move",
                15,
                "8/8/8/8/8/Kq6/2k5/8 w - - 8 68",
            ),
            (
                "No result token, lower case and long algebraic",
                24,
                "r1bq1rk1/pp2nppp/2p5/3n4/2BP4/1Q3N2/PP1N1PPP/R3R1K1 w - - 0 13",
            ),
            (
                "Promotion, en passant, underpromotion",
                8,
                "1R6/8/6R1/3k4/8/8/8/4K3 w - - 2 5",
            ),
        ],
    ),
];

#[test]
fn files_read_to_python_chess_games_and_round_trip() {
    for (path, games) in EXPECTED {
        let read = read_all(path);
        assert_eq!(read.len(), games.len(), "{path}");
        for (got, &(event, plies, fen)) in read.iter().zip(games) {
            let game = got.as_ref().unwrap_or_else(|e| panic!("{path}: {e}"));
            assert_eq!(game.tag("Event"), Some(event));
            assert_eq!(game.moves().len(), plies, "{event}");
            assert_eq!(game.end_position().to_fen(), fen, "{event}");
            // Round trip: write, read back, same game (the roster tags added by the writer
            // aside), and writing that again gives the same text.
            let text = game.to_pgn();
            assert!(text.lines().all(|l| l.len() <= 79), "{text}");
            let again = Game::from_pgn(&text).unwrap_or_else(|e| panic!("{event}: {e}\n{text}"));
            assert_eq!(again.moves(), game.moves(), "{event}");
            assert_eq!(again.comment, game.comment);
            assert_eq!(again.result(), game.result());
            assert_eq!(
                again.start_position().to_fen(),
                game.start_position().to_fen()
            );
            for (name, value) in &game.tags {
                if name != "Result" {
                    assert_eq!(again.tag(name), Some(value.as_str()), "{event} {name}");
                }
            }
            assert_eq!(again.to_pgn(), text);
            assert_eq!(Game::from_pgn(&again.to_pgn()).unwrap(), again);
        }
    }
}

#[test]
fn comments_nags_variations_and_escapes() {
    let games = read_all("testdata/pgn/annotated.pgn");
    let opera = games[0].as_ref().unwrap();
    assert_eq!(
        opera.comment,
        "The Opera Game, played during a performance of Norma."
    );
    assert_eq!(
        opera.tag("Annotator"),
        Some("chesscore test data \"quoted\" and a backslash \\ here")
    );
    assert_eq!(opera.tag("Black"), Some("Duke Karl / Count Isouard"));
    let m = opera.moves();
    // 3... Bg4 $6 {This pin...}; the variation after 4. dxe5 Bxf3 is skipped.
    assert_eq!(m[5].nags, vec![6]);
    assert_eq!(m[5].comment, "This pin is a mistake here.");
    assert_eq!(m[7].comment, "");
    assert_eq!(m[12].nags, vec![1]); // 7. Qb3!
    assert_eq!(m[17].nags, vec![6]); // 9... b5?!
    assert_eq!(m[30].nags, vec![3, 18]); // 16. Qb8+!! $18
    let text = opera.to_pgn();
    assert!(text.starts_with(
        "[Event \"Casual game\"]\n[Site \"Paris FRA\"]\n[Date \"1858.??.??\"]\n[Round \"?\"]\n"
    ));
    assert!(text.contains(
        "[Annotator \"chesscore test data \\\"quoted\\\" and a backslash \\\\ here\"]\n"
    ));
    assert!(text.ends_with("Nxb8 17. Rd8# 1-0\n\n"), "{text}");
    let flat = text.replace('\n', " ");
    assert!(flat.contains("3. d4 Bg4 $6 {This pin is a mistake here.} 4. dxe5 Bxf3 5. Qxf3"));
    assert!(flat.contains("16. Qb8+ $3 $18 Nxb8"), "{text}");
    // A comment spanning lines, a `;` comment, and the set-up game's Black first move.
    let games = read_all("testdata/pgn/odd-format.pgn");
    let odd = games[0].as_ref().unwrap();
    assert_eq!(odd.tag("Site"), Some("?"));
    assert_eq!(odd.moves()[5].comment, "the Ruy Lopez");
    assert_eq!(odd.moves()[6].comment, "A comment over two lines");
    assert_eq!(odd.result(), "*");
    let setup = games[1].as_ref().unwrap();
    assert_eq!(setup.result(), "0-1");
    assert!(setup.to_pgn().contains("\n\n60... g1=Q+ 61. Ke2"));
    // No result token: the Result tag's value.
    assert_eq!(games[2].as_ref().unwrap().result(), "1/2-1/2");
    let promo = games[3].as_ref().unwrap();
    assert_eq!(promo.moves()[0].nags, vec![1]);
    assert_eq!(promo.moves()[1].nags, vec![4]);
    assert!(promo.to_pgn().contains("1. exd6 $1 g1=N $4 2. b8=R+"));
}

#[test]
fn malformed_games_are_reported_with_their_line_and_skipped() {
    let games = read_all("testdata/pgn/malformed.pgn");
    let events: Vec<_> = games
        .iter()
        .map(|g| match g {
            Ok(g) => Ok(g.tag("Event").unwrap().to_string()),
            Err(e) => Err((e.line, e.kind.clone())),
        })
        .collect();
    let mv = |text: &str, ply, error| PgnErrorKind::Move {
        text: text.to_string(),
        ply,
        error,
    };
    let fen_error =
        chesscore::Position::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN w KQkq - 0 1")
            .unwrap_err();
    assert_eq!(
        events,
        vec![
            Ok("good 1".to_string()),
            Err((9, mv("Ke2", 10, SanError::Illegal))),
            Err((12, PgnErrorKind::Fen(fen_error))),
            Err((19, mv("Nd2", 0, SanError::Ambiguous))),
            Err((23, mv("Xyz9", 3, SanError::Syntax))),
            Err((25, PgnErrorKind::Tag)),
            Err((32, PgnErrorKind::Unterminated)),
            Ok("good 2".to_string()),
        ]
    );
    assert_eq!(
        games[1].as_ref().unwrap_err().to_string(),
        "line 9: move \"Ke2\" (ply 11): the SAN names no legal move in this position"
    );
}

#[test]
fn variants_and_setup() {
    let g = Game::from_pgn("[Variant \"Crazyhouse\"]\n\n1. e4 *\n").unwrap_err();
    assert_eq!(g.kind, PgnErrorKind::UnsupportedVariant);
    // Standard chess under another name, and Chess960 from a standard-looking FEN.
    let g = Game::from_pgn("[Variant \"Standard\"]\n\n1. e4 *\n").unwrap();
    assert_eq!(g.moves().len(), 1);
    let fen = "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w - - 0 1";
    let g = Game::from_pgn(&format!(
        "[Variant \"Chess960\"]\n[SetUp \"1\"]\n[FEN \"{fen}\"]\n\n1. g3 g6 2. Ne3 *\n"
    ))
    .unwrap();
    assert_eq!(g.start_position().to_fen(), fen);
    assert_eq!(g.moves().len(), 3);
    // A Chess960 game with castles whose rooks are not in the corners (the king crosses its
    // own rook's square, the black king ends where it castles from a rook on a8): the end
    // position is python-chess's (`chess.Board(fen, chess960=True)`, the same SAN pushed).
    let g = Game::from_pgn(
        "[Variant \"Chess960\"]\n[SetUp \"1\"]\n\
         [FEN \"rk2r3/pppppppp/8/8/8/8/PPPPPPPP/RK2R3 w KQkq - 0 1\"]\n\n\
         1. O-O O-O-O 2. Rae1 Kb8 *\n",
    )
    .unwrap();
    assert!(g.start_position().is_chess960());
    assert_eq!(
        g.end_position().to_fen(),
        "1k1rr3/pppppppp/8/8/8/8/PPPPPPPP/4RRK1 w - - 4 3"
    );
    let uci: Vec<String> = {
        let mut pos = Box::new(g.start_position().clone());
        g.moves()
            .iter()
            .map(|gm| {
                let t = pos.uci_move_text(gm.mv());
                pos.try_make_move(gm.mv()).unwrap();
                t
            })
            .collect()
    };
    assert_eq!(uci, ["b1e1", "b8a8", "a1e1", "c8b8"]);
    // Built in code from a Chess960 position, it is written with its Variant and reads back.
    let mut built = Game::new(g.start_position().clone());
    for san in ["O-O", "O-O-O", "Rae1", "Kb8"] {
        built.push_san(san).unwrap();
    }
    let text = built.to_pgn();
    assert!(text.contains("[Variant \"Chess960\"]\n"), "{text}");
    let back = Game::from_pgn(&text).unwrap();
    assert_eq!(back.end_position().to_fen(), g.end_position().to_fen());
    // A game built in code gets SetUp/FEN tags when it does not start from the standard
    // position.
    let start = Position::from_fen("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1").unwrap();
    let mut g = Game::new(start);
    g.push_san("e4").unwrap();
    g.push_san("Kd7").unwrap();
    assert_eq!(g.push_san("e4"), Err(SanError::Illegal));
    g.moves_mut()[1].comment = "the king steps aside".to_string();
    let text = g.to_pgn();
    assert!(text.contains("[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\"]\n"));
    assert!(
        text.ends_with("\n\n1. e4 Kd7 {the king steps aside} *\n\n"),
        "{text}"
    );
    assert_eq!(Game::from_pgn("").unwrap_err().kind, PgnErrorKind::NoGame);
    assert_eq!(
        Game::from_pgn("  \n% only an escape\n").unwrap_err().kind,
        PgnErrorKind::NoGame
    );
}

#[test]
fn long_games_and_long_comments_wrap() {
    // Knights out and back for 600 moves (1,200 plies, past the position's history) and a
    // comment longer than a line.
    let mut g = Game::default();
    for _ in 0..150 {
        for san in ["Nf3", "Nf6", "Ng1", "Ng8"] {
            g.push_san(san).unwrap();
        }
    }
    let words = "word ".repeat(40);
    g.moves_mut()[0].comment = words.trim().to_string();
    let text = g.to_pgn();
    assert!(text.lines().all(|l| l.len() <= 79));
    let again = Game::from_pgn(&text).unwrap();
    assert_eq!(again.moves(), g.moves());
    assert_eq!(again.end_position().to_fen(), g.end_position().to_fen());
}

mod properties {
    use super::*;
    use proptest::prelude::*;

    /// Text made of PGN's own pieces, so that random inputs reach deep into the reader.
    fn pgn_like() -> impl Strategy<Value = String> {
        let token = prop_oneof![
            Just("[Event \"x\"]\n".to_string()),
            Just("[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\"]\n".to_string()),
            Just("[Variant \"Chess960\"]\n".to_string()),
            Just("[Bad".to_string()),
            Just("1.".to_string()),
            Just("1...".to_string()),
            Just(" e4".to_string()),
            Just(" e5".to_string()),
            Just(" Nf3".to_string()),
            Just(" O-O".to_string()),
            Just(" {c".to_string()),
            Just("}".to_string()),
            Just(" (".to_string()),
            Just(")".to_string()),
            Just(" ;x\n".to_string()),
            Just(" $7".to_string()),
            Just("!?".to_string()),
            Just(" Z0".to_string()),
            Just(" --".to_string()),
            Just(" 0000".to_string()),
            Just(" @@@@".to_string()),
            Just(" 1-0".to_string()),
            Just(" *".to_string()),
            Just("\n".to_string()),
            Just("\r\n".to_string()),
            Just("\n%esc\n".to_string()),
            "[ -~]{0,4}",
        ];
        proptest::collection::vec(token, 0..40).prop_map(|v| v.concat())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        /// The reader never panics; every game it returns, and every partial game of an
        /// error, writes and reads back to itself, and every error names a line of the input.
        #[test]
        fn reader_never_panics_and_round_trips(text in pgn_like()) {
            let lines = text.split('\n').count();
            for g in PgnReader::new(text.as_bytes()) {
                match g {
                    Ok(game) => {
                        let again = Game::from_pgn(&game.to_pgn()).unwrap();
                        prop_assert_eq!(again.moves(), game.moves());
                        prop_assert_eq!(again.to_pgn(), game.to_pgn());
                    }
                    Err(e) => {
                        prop_assert!(e.line >= 1 && e.line <= lines, "{} of {}", e.line, lines);
                        if let Some(game) = e.partial {
                            let again = Game::from_pgn(&game.to_pgn()).unwrap();
                            prop_assert_eq!(again.moves(), game.moves());
                            prop_assert_eq!(again.to_pgn(), game.to_pgn());
                        }
                    }
                }
            }
        }

        /// SAN reading never panics, and what it accepts is a legal move whose SAN reads back
        /// to it.
        #[test]
        fn san_reading_never_panics(text in "[a-hNBRQKOPxnbrqk0-9=+#!?:-]{0,9}") {
            let pos = Position::from_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1").unwrap();
            for mode in [chesscore::SanMode::Strict, chesscore::SanMode::Tolerant] {
                if let Ok(m) = pos.parse_san_with(&text, mode) {
                    prop_assert!(pos.is_legal(m));
                    prop_assert_eq!(pos.parse_san(&pos.to_san(m).unwrap()), Ok(m));
                }
            }
        }
    }
}

#[test]
fn stray_closing_brackets_are_errors() {
    for text in ["1. e4 } e5 *", "1. e4 ] *"] {
        let e = Game::from_pgn(text).unwrap_err();
        assert!(matches!(e.kind, PgnErrorKind::Token(_)), "{text}: {e}");
    }
}

#[test]
fn nul_bytes_read_as_spaces() {
    let g = Game::from_pgn("[Event \"a\0b\"]\n\n1. e4 {x\0y} e5 *\n").unwrap();
    assert_eq!(g.tag("Event"), Some("a b"));
    assert_eq!(g.moves()[0].comment, "x y");
    assert!(!g.to_pgn().contains('\0'));
}

/// A fuzz finding: a long comment wrapped so that a word starting with `[` began a line,
/// which the reader (by its recovery rule) took for the next game's tags.
#[test]
fn wrapped_comment_word_starting_with_a_bracket_reads_back() {
    let text = "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 ; th% A comment line for the machine: ixe7+ting\"] [S]it e\"?\"]\n*\n";
    let game = Game::from_pgn(text).unwrap();
    let written = game.to_pgn();
    assert!(
        written
            .lines()
            .any(|l| l.trim_start().starts_with('[') && !l.starts_with('[')),
        "the case is not exercised any more:\n{written}"
    );
    let again = Game::from_pgn(&written).unwrap();
    assert_eq!(again.moves(), game.moves());
    assert_eq!(again.to_pgn(), written);
    for n in 0..60 {
        // Every wrapping position: the bracketed word at each column.
        let comment = format!("{} [x] y", "w".repeat(n));
        let g = Game::from_pgn(&format!("1. e4 {{{comment}}} e5 *")).unwrap();
        let back = Game::from_pgn(&g.to_pgn()).unwrap();
        assert_eq!(back.moves(), g.moves(), "{n}");
    }
}

/// Inputs the property tests found (kept as plain tests).
#[test]
fn property_test_findings() {
    // A tag after a move on the same line: an error, not a FEN applied after the fact.
    let text = " Nf3[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\"]\n[Event \"x\"]\n";
    let games: Vec<_> = PgnReader::new(text.as_bytes()).collect();
    assert_eq!(games[0].as_ref().unwrap_err().kind, PgnErrorKind::Tag);
    assert_eq!(games[1].as_ref().unwrap().tag("Event"), Some("x"));
    // A `;` comment holding `}`: dropped, so that the written comment reads back the same.
    let text = " Nf3;}[Event \"x\"]\n[Event \"x\"]\n";
    let game = PgnReader::new(text.as_bytes()).next().unwrap().unwrap();
    assert_eq!(game.moves()[0].comment, "[Event \"x\"]");
    assert_eq!(
        Game::from_pgn(&game.to_pgn()).unwrap().moves(),
        game.moves()
    );
}

/// Tags the starting position decides are refused, and the result and its tag never
/// disagree (found by review through the C ABI).
#[test]
fn derived_tags_and_the_result() {
    use chesscore::pgn::TagError;
    let mut g = Game::from_pgn("[Result \"1-0\"]\n\n1. e4 e5 1-0\n").unwrap();
    assert_eq!(
        g.set_tag("FEN", "8/8/8/8/8/8/8/K6k w - - 0 1"),
        Err(TagError::Derived)
    );
    assert_eq!(g.set_tag("SetUp", "1"), Err(TagError::Derived));
    assert_eq!(g.set_tag("Variant", "Crazyhouse"), Err(TagError::Derived));
    assert_eq!(g.set_tag("bad name", "x"), Err(TagError::Name));
    assert_eq!(g.set_tag("Result", "2-0"), Err(TagError::Result));
    assert_eq!(g.set_result("0-1"), Ok(()));
    assert_eq!(g.tag("Result"), Some("0-1"));
    assert!(g.tags.contains(&("Result".to_string(), "0-1".to_string())));
    assert_eq!(g.set_tag("Result", "1/2-1/2"), Ok(()));
    assert_eq!(g.result(), "1/2-1/2");
    let again = Game::from_pgn(&g.to_pgn()).unwrap();
    assert_eq!(again.result(), "1/2-1/2");
    // A token that contradicts the tag wins, and the tag follows it.
    let g = Game::from_pgn("[Result \"1-0\"]\n\n1. e4 e5 0-1\n").unwrap();
    assert_eq!(g.tag("Result"), Some("0-1"));
    assert!(g.tags.contains(&("Result".to_string(), "0-1".to_string())));
}

// ---------------------------------------------------------------------------------------------
// Null moves (issue 26). Expected positions from python-chess 1.11 (`board.push(chess.Move.null())`
// between the same SAN moves, `board.fen(en_passant="fen")`), worked offline.
// ---------------------------------------------------------------------------------------------

/// The UCI text of a game's main line, `0000` for a null move.
fn uci_line(game: &Game) -> Vec<String> {
    let mut pos = game.start_position().clone();
    game.moves()
        .iter()
        .map(|gm| {
            if gm.is_null() {
                pos.try_make_null_move().unwrap();
                "0000".to_string()
            } else {
                let t = pos.uci_move_text(gm.mv());
                pos.try_make_move(gm.mv()).unwrap();
                t
            }
        })
        .collect()
}

#[test]
fn null_moves_in_every_spelling_are_read_and_written_as_dashes() {
    for null in ["--", "Z0", "0000", "@@@@"] {
        for text in [
            format!("1. e4 {null} 2. d4 *"),
            format!("1. e4 1...{null} 2.d4 *"),
            format!("1.e4 {null}!? 2. d4 *"),
        ] {
            let game = Game::from_pgn(&text).unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!(uci_line(&game), ["e2e4", "0000", "d2d4"], "{text}");
            assert!(game.moves()[1].is_null());
            assert_eq!(game.moves()[1].mv(), chesscore::Move::NONE);
            assert_eq!(
                game.end_position().to_fen(),
                "rnbqkbnr/pppppppp/8/8/3PP3/8/PPP2PPP/RNBQKBNR b KQkq d3 0 2",
                "{text}"
            );
            game.end_position().validate_full().unwrap();
            let written = game.to_pgn();
            let nag = if text.contains("!?") { " $5" } else { "" };
            assert!(
                written.ends_with(&format!("\n\n1. e4 --{nag} 2. d4 *\n\n")),
                "{written}"
            );
            // Read back: the same game.
            let back = Game::from_pgn(&written).unwrap();
            assert_eq!(back.moves(), game.moves());
            assert_eq!(back.to_pgn(), written);
        }
    }
    // A null move first, by White: written `1. --`, and Black's reply numbered `1...` only
    // after a comment.
    let game = Game::from_pgn("Z0 e5 {reply} 2. e4 *").unwrap();
    assert_eq!(uci_line(&game), ["0000", "e7e5", "e2e4"]);
    assert_eq!(
        game.end_position().to_fen(),
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 2"
    );
    assert!(game.to_pgn().ends_with("\n\n1. -- e5 {reply} 2. e4 *\n\n"));
    // `0000` is a null move, not a move number; other all-digit tokens still are numbers.
    let game = Game::from_pgn("1 e4 0000 2 d4 *").unwrap();
    assert_eq!(uci_line(&game), ["e2e4", "0000", "d2d4"]);
    // Null moves inside variations go with them.
    let game = Game::from_pgn("1. e4 (1. -- e5 (1... Z0)) e5 *").unwrap();
    assert_eq!(uci_line(&game), ["e2e4", "e7e5"]);
}

#[test]
fn a_null_move_clears_en_passant_and_is_refused_in_check() {
    // 3. Z0 passes up exf6 e.p.: it is not legal a move later.
    let err =
        Game::from_pgn("[Event \"ep\"]\n\n1. e4 d5 2. e5 f5 3. Z0 Nc6\n4. exf6 *\n").unwrap_err();
    assert_eq!(err.line, 4);
    assert_eq!(
        err.kind,
        PgnErrorKind::Move {
            text: "exf6".to_string(),
            ply: 6,
            error: SanError::Illegal
        }
    );
    let partial = err.partial.unwrap();
    assert_eq!(
        uci_line(&partial),
        ["e2e4", "d7d5", "e4e5", "f7f5", "0000", "b8c6"]
    );
    assert_eq!(
        partial.end_position().to_fen(),
        "r1bqkbnr/ppp1p1pp/2n5/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq - 2 4"
    );
    // In check a null move cannot be played (python-chess would): an error at that token,
    // with the moves before it kept.
    let err = Game::from_pgn("1. e4 e5 2. Qh5 Nc6 3. Qxf7+ Z0 4. Qxe8 1-0").unwrap_err();
    assert_eq!(
        (err.line, err.kind.clone()),
        (
            1,
            PgnErrorKind::Move {
                text: "Z0".to_string(),
                ply: 5,
                error: SanError::Illegal
            }
        )
    );
    let partial = err.partial.unwrap();
    assert_eq!(partial.moves().len(), 5);
    assert_eq!(partial.result(), "1-0");
    let mut game = *partial;
    assert_eq!(game.push_null(), Err(chesscore::MoveError::Illegal));
    assert_eq!(
        game.push(chesscore::Move::NONE),
        Err(chesscore::MoveError::Illegal)
    );
    assert_eq!(game.push_san("--"), Err(SanError::Illegal));
    assert_eq!(game.moves().len(), 5);
    // Built in code: push_null, push(Move::NONE) and push_san("Z0") are the same null move.
    let mut a = Game::default();
    a.push_san("e4").unwrap();
    a.push_null().unwrap();
    let mut b = Game::default();
    b.push_san("e4").unwrap();
    b.push(chesscore::Move::NONE).unwrap();
    let mut c = Game::default();
    c.push_san("e4").unwrap();
    assert_eq!(c.push_san("Z0"), Ok(chesscore::Move::NONE));
    assert_eq!(a, b);
    assert_eq!(a, c);
    assert!(a.to_pgn().ends_with("\n\n1. e4 -- *\n\n"));
}

#[test]
fn long_games_with_null_moves_pass_the_history_capacity() {
    // 1,616 plies, about half of them null moves: past the position's history (a pawn move
    // every 202 plies keeps the halfmove clock in range), written and read back.
    let mut g = Game::default();
    for pawn in ["a3", "a4", "a5", "a6", "h3", "h4", "h5", "h6"] {
        g.push_san(pawn).unwrap();
        g.push_null().unwrap();
        for _ in 0..50 {
            for san in ["Nf3", "--", "Ng1", "Z0"] {
                g.push_san(san).unwrap();
            }
        }
    }
    assert_eq!(g.moves().len(), 1616);
    assert_eq!(
        g.end_position().to_fen(),
        "rnbqkbnr/pppppppp/P6P/8/8/8/1PPPPPP1/RNBQKBNR w KQkq - 201 809"
    );
    let text = g.to_pgn();
    assert!(
        text.contains("1. a3 -- 2. Nf3 -- 3. Ng1 -- 4. Nf3"),
        "{text}"
    );
    let again = Game::from_pgn(&text).unwrap();
    assert_eq!(again.moves(), g.moves());
    assert_eq!(again.end_position().to_fen(), g.end_position().to_fen());
}

// ---------------------------------------------------------------------------------------------
// Partial games (issue 26): a game that goes wrong in its movetext keeps its tags and the moves
// before the bad token. Expectations worked by hand from testdata/pgn/malformed.pgn.
// ---------------------------------------------------------------------------------------------

#[test]
fn malformed_games_keep_their_tags_and_the_moves_before_the_error() {
    let games = read_all("testdata/pgn/malformed.pgn");
    // (error line, Event of the partial game, its UCI moves, its result), None: no partial.
    type Partial = Option<(&'static str, Vec<&'static str>, &'static str)>;
    let expected: Vec<(usize, Partial)> = vec![
        (
            9,
            Some((
                "illegal move",
                vec![
                    "e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6", "b5c6", "d7c6", "e1g1", "c8g4",
                ],
                "*",
            )),
        ),
        (12, None),
        (19, Some(("ambiguous move", vec![], "*"))),
        (
            23,
            Some(("unknown text", vec!["e2e4", "e7e5", "g1f3"], "*")),
        ),
        (25, None),
        (32, Some(("unterminated variation", vec!["e2e4"], "*"))),
    ];
    let errors: Vec<_> = games.iter().filter_map(|g| g.as_ref().err()).collect();
    assert_eq!(errors.len(), expected.len());
    for (e, (line, want)) in errors.iter().zip(&expected) {
        assert_eq!(e.line, *line);
        let got = e
            .partial
            .as_ref()
            .map(|g| (g.tag("Event").unwrap(), uci_line(g), g.result()));
        let want = want
            .as_ref()
            .map(|(ev, m, r)| (*ev, m.iter().map(|s| s.to_string()).collect(), *r));
        assert_eq!(got, want, "line {line}");
    }
    // The ambiguous move's game starts from its FEN.
    let ambiguous = errors[2].partial.as_ref().unwrap();
    assert_eq!(
        ambiguous.start_position().to_fen(),
        "4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1"
    );
    assert_eq!(
        ambiguous.tag("FEN"),
        Some("4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1")
    );
}

#[test]
fn partial_games_keep_comments_nags_and_the_result_and_the_reader_goes_on() {
    // The moves of the real record the issue quotes, in a set-up position: Black's 41... Z0
    // (ChessBase's null move) is read; a junk word ends the next game, and the third is whole.
    let db = "\u{feff}[Event \"ChessBase\"]\r\n[Result \"1-0\"]\r\n\
              [FEN \"4k3/8/8/8/8/5r2/4B2q/3K4 w - - 0 41\"]\r\n\r\n\
              41. Bxf3 {[%clk 0:03:12]} Z0 42. Ke1 Qh1+ 1-0\r\n\r\n\
              [Event \"junk\"]\n[Result \"0-1\"]\n\n1. e4 $1 {best} e5\n2. Nf3 foo Nc6 3. Bb5 0-1\n\n\
              [Event \"next\"]\n\n1. d4 d5 *\n";
    let games: Vec<_> = PgnReader::new(db.as_bytes()).collect();
    assert_eq!(games.len(), 3);
    let g = games[0].as_ref().unwrap();
    assert_eq!(uci_line(g), ["e2f3", "0000", "d1e1", "h2h1"]);
    assert_eq!(g.moves()[0].comment, "[%clk 0:03:12]");
    assert_eq!((g.tag("Event"), g.result()), (Some("ChessBase"), "1-0"));
    assert_eq!(
        g.end_position().to_fen(),
        "4k3/8/8/8/8/5B2/8/4K2q w - - 3 43"
    );
    assert!(g
        .to_pgn()
        .contains("\n\n41. Bxf3 {[%clk 0:03:12]} 41... -- 42. Ke1 Qh1+ 1-0\n\n"));
    // A junk word: PgnErrorKind::Move with a syntax error, at its line.
    let e = games[1].as_ref().unwrap_err();
    assert_eq!(e.line, 11);
    assert_eq!(
        e.kind,
        PgnErrorKind::Move {
            text: "foo".to_string(),
            ply: 3,
            error: SanError::Syntax
        }
    );
    let p = e.partial.as_ref().unwrap();
    assert_eq!(uci_line(p), ["e2e4", "e7e5", "g1f3"]);
    assert_eq!(
        (p.moves()[0].nags.as_slice(), p.moves()[0].comment.as_str()),
        (&[1u8][..], "best")
    );
    assert_eq!(p.result(), "0-1");
    // The partial game writes and reads back as a whole game.
    let back = Game::from_pgn(&p.to_pgn()).unwrap();
    assert_eq!(back.moves(), p.moves());
    assert_eq!((back.tag("Event"), back.result()), (Some("junk"), "0-1"));
    assert_eq!(games[2].as_ref().unwrap().tag("Event"), Some("next"));
    // Other movetext errors keep what came before them too; tag errors have no partial game.
    for (text, kind, plies) in [
        (
            "1. e4 e5 2. Nf3 } *",
            PgnErrorKind::Token("}".to_string()),
            3,
        ),
        ("1. e4 $x e5 *", PgnErrorKind::Token("$x".to_string()), 1),
        ("1. e4 e5 ) *", PgnErrorKind::UnbalancedParenthesis, 2),
        ("1. e4 e5 {open", PgnErrorKind::Unterminated, 2),
        ("1. e4 [Event \"x\"] e5 *", PgnErrorKind::Tag, 1),
    ] {
        let e = Game::from_pgn(text).unwrap_err();
        assert_eq!(e.kind, kind, "{text}");
        assert_eq!(e.partial.map(|p| p.moves().len()), Some(plies), "{text}");
    }
    for text in [
        "[Event \"x\n\n1. e4 *",
        "[FEN \"8/8/8/8/8/8/8/8 w - - 0 1\"]\n\n1. e4 *",
        "[Variant \"Atomic\"]\n\n1. e4 *",
    ] {
        assert_eq!(Game::from_pgn(text).unwrap_err().partial, None, "{text}");
    }
}
