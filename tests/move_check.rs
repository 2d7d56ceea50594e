//! Move events and illegal-move reasons: events replayed on a plain board model must give the
//! board after the move; `check_move` must call exactly the triples the legal generator makes
//! legal (the generator is the independent implementation), and every reason comes from a
//! hand-made case.

use chesscore::position::events::{MoveEventKind, MAX_MOVE_EVENTS};
use chesscore::position::illegal::IllegalReason;
use chesscore::{Move, Piece, PieceType, Position, Square};

fn fens(file: &str) -> Vec<String> {
    let path = format!("{}/testdata/{file}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.split(';').next().unwrap().trim().to_string())
        .collect()
}

/// Positions from the suites (standard and Chess960) and a few plies of seeded random play
/// from them.
fn positions() -> Vec<Position> {
    let mut out = Vec::new();
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let mut start: Vec<Position> = fens("standard.epd")
        .iter()
        .chain(fens("edge.epd").iter())
        .map(|f| Position::from_fen(f).unwrap())
        .collect();
    start.extend(
        fens("chess960.epd")
            .iter()
            .step_by(9)
            .map(|f| Position::from_fen_960(f).unwrap()),
    );
    for pos in start {
        let mut p = pos.clone();
        out.push(pos);
        for _ in 0..(next() % 12) {
            let moves = p.legal_moves();
            if moves.is_empty() {
                break;
            }
            let m = moves.as_slice()[(next() % moves.len() as u64) as usize];
            p.make_move_unchecked(m);
        }
        out.push(p);
    }
    out
}

#[test]
fn events_replayed_on_a_board_give_the_board_after_the_move() {
    let mut moves_checked = 0;
    for pos in positions() {
        for &m in pos.legal_moves().iter() {
            let ev = pos.move_events(m).unwrap();
            assert!(ev.len() >= 1 && ev.len() <= MAX_MOVE_EVENTS);
            assert_eq!(ev.as_slice()[0].kind, MoveEventKind::Move);
            let mut board: Vec<Piece> = Square::all().map(|s| pos.piece_on(s)).collect();
            // The documented rule: lift every moving and captured piece, then put, then promote.
            for e in ev.as_slice() {
                if e.kind != MoveEventKind::Promote {
                    assert_eq!(board[e.from.index()], e.piece, "{m:?} {e:?}");
                    board[e.from.index()] = Piece::NONE;
                }
            }
            for e in ev.as_slice() {
                if matches!(e.kind, MoveEventKind::Move | MoveEventKind::CastleRook) {
                    assert!(board[e.to.index()].is_none(), "{m:?}");
                    board[e.to.index()] = e.piece;
                }
            }
            for e in ev.as_slice() {
                if e.kind == MoveEventKind::Promote {
                    board[e.to.index()] = e.piece;
                }
            }
            let mut after = pos.clone();
            after.make_move_unchecked(m);
            let want: Vec<Piece> = Square::all().map(|s| after.piece_on(s)).collect();
            assert_eq!(board, want, "{} {}", pos.to_fen(), pos.uci_move_text(m));
            moves_checked += 1;
        }
        // Not a legal move: refused.
        assert!(pos.move_events(Move::NONE).is_err());
    }
    assert!(moves_checked > 8_000, "{moves_checked}");
}

fn sq(s: &str) -> Square {
    Square::parse(s).unwrap()
}

#[test]
fn events_of_castling_en_passant_and_promotion_capture() {
    let kinds = |pos: &Position, uci: &str| -> Vec<(MoveEventKind, char, String, String)> {
        let m = pos.parse_uci_move(uci).unwrap();
        pos.move_events(m)
            .unwrap()
            .as_slice()
            .iter()
            .map(|e| {
                (
                    e.kind,
                    e.piece.to_char(),
                    e.from.to_string(),
                    e.to.to_string(),
                )
            })
            .collect()
    };
    use MoveEventKind::*;
    let s = |x: &str| x.to_string();
    let pos = Position::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap();
    assert_eq!(
        kinds(&pos, "e1c1"),
        [
            (Move, 'K', s("e1"), s("c1")),
            (CastleRook, 'R', s("a1"), s("d1"))
        ]
    );
    let pos = Position::from_fen("4k3/8/8/8/3Pp3/8/8/4K3 b - d3 0 1").unwrap();
    assert_eq!(
        kinds(&pos, "e4d3"),
        [
            (Move, 'p', s("e4"), s("d3")),
            (Capture, 'P', s("d4"), s("d4"))
        ]
    );
    let pos = Position::from_fen("1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1").unwrap();
    assert_eq!(
        kinds(&pos, "a7b8n"),
        [
            (Move, 'P', s("a7"), s("b8")),
            (Capture, 'n', s("b8"), s("b8")),
            (Promote, 'N', s("b8"), s("b8"))
        ]
    );
    // Chess960: king and rook swap squares; the king castles onto its own square.
    let pos = Position::from_fen_960("4k3/8/8/8/8/8/8/5KR1 w K - 0 1").unwrap();
    assert_eq!(
        kinds(&pos, "f1g1"),
        [
            (Move, 'K', s("f1"), s("g1")),
            (CastleRook, 'R', s("g1"), s("f1"))
        ]
    );
    let pos = Position::from_fen_960("4k3/8/8/8/8/8/8/6KR w K - 0 1").unwrap();
    assert_eq!(
        kinds(&pos, "g1h1"),
        [
            (Move, 'K', s("g1"), s("g1")),
            (CastleRook, 'R', s("h1"), s("f1"))
        ]
    );
}

const PROMOS: [PieceType; 7] = [
    PieceType::NONE,
    PieceType::KNIGHT,
    PieceType::BISHOP,
    PieceType::ROOK,
    PieceType::QUEEN,
    PieceType::PAWN,
    PieceType::KING,
];

#[test]
fn check_move_agrees_with_the_legal_generator_on_every_triple() {
    let mut legal = 0;
    let mut seen = std::collections::HashSet::new();
    for pos in positions() {
        for from in Square::all() {
            for to in Square::all() {
                for promo in PROMOS {
                    let c = pos.check_move(from, to, promo);
                    let found = pos.find_legal_move(from, to, promo);
                    assert_eq!(
                        c.reason == IllegalReason::Legal,
                        found.is_ok(),
                        "{} {from}{to} {promo:?}: {c:?}",
                        pos.to_fen()
                    );
                    legal += u32::from(found.is_ok());
                    seen.insert(c.reason);
                    if matches!(
                        c.reason,
                        IllegalReason::KingLeftInCheck | IllegalReason::CastlingOutOfCheck
                    ) {
                        let attacker = c.square.unwrap();
                        assert_eq!(pos.piece_on(attacker).color(), pos.side_to_move().flip());
                    }
                }
            }
        }
    }
    assert!(legal > 8_000, "{legal}");
    assert!(seen.len() >= 12, "{seen:?}");
}

#[test]
fn every_reason_from_a_hand_made_case() {
    use IllegalReason::*;
    // (FEN, move, promotion, reason, square)
    let n = PieceType::NONE;
    let cases: &[(&str, &str, PieceType, IllegalReason, Option<&str>)] = &[
        (chesscore::START_FEN, "e2e4", n, Legal, None),
        (chesscore::START_FEN, "e3e4", n, NoPiece, None),
        (chesscore::START_FEN, "e7e5", n, NotYourPiece, None),
        (chesscore::START_FEN, "g1g3", n, WrongGeometry, None),
        (chesscore::START_FEN, "e2e5", n, WrongGeometry, None),
        (chesscore::START_FEN, "f1c4", n, PathBlocked, Some("e2")),
        (chesscore::START_FEN, "a1a4", n, PathBlocked, Some("a2")),
        (chesscore::START_FEN, "g1e2", n, OwnPieceOnTarget, None),
        (
            "4k3/8/8/8/8/4p3/4P3/4K3 w - - 0 1",
            "e2e3",
            n,
            PawnForwardBlocked,
            None,
        ),
        (
            "4k3/8/8/8/8/4p3/4P3/4K3 w - - 0 1",
            "e2e4",
            n,
            PathBlocked,
            Some("e3"),
        ),
        (
            "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1",
            "e2d3",
            n,
            PawnCaptureNothing,
            None,
        ),
        (
            "4k3/8/8/3pP3/8/8/8/4K3 w - - 0 1",
            "e5d6",
            n,
            EnPassantNotAvailable,
            None,
        ),
        ("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5d6", n, Legal, None),
        (
            "4k3/P7/8/8/8/8/8/4K3 w - - 0 1",
            "a7a8",
            n,
            PromotionMissing,
            None,
        ),
        (
            "4k3/P7/8/8/8/8/8/4K3 w - - 0 1",
            "a7a8",
            PieceType::KING,
            PromotionNotAllowed,
            None,
        ),
        (
            "4k3/P7/8/8/8/8/8/4K3 w - - 0 1",
            "a7a8",
            PieceType::QUEEN,
            Legal,
            None,
        ),
        (
            chesscore::START_FEN,
            "e2e4",
            PieceType::QUEEN,
            PromotionNotAllowed,
            None,
        ),
        (
            "r3k2r/8/8/8/8/8/8/R3K2R w Qkq - 0 1",
            "e1g1",
            n,
            CastlingNoRight,
            None,
        ),
        (
            "r3k2r/8/8/8/8/8/4r3/R3K2R w KQkq - 0 1",
            "e1g1",
            n,
            CastlingOutOfCheck,
            Some("e2"),
        ),
        (
            "r3k2r/8/8/8/8/8/8/R3KB1R w KQkq - 0 1",
            "e1g1",
            n,
            PathBlocked,
            Some("f1"),
        ),
        (
            "r3k2r/8/8/8/8/8/5r2/R3K2R w KQkq - 0 1",
            "e1g1",
            n,
            CastlingThroughCheck,
            Some("f2"),
        ),
        (
            "r3k2r/8/8/8/8/8/6r1/R3K2R w KQkq - 0 1",
            "e1g1",
            n,
            KingLeftInCheck,
            Some("g2"),
        ),
        (
            "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
            "e1c1",
            n,
            Legal,
            None,
        ),
        (
            "4k3/8/8/8/1b6/8/3P4/4K3 w - - 0 1",
            "d2d3",
            n,
            KingLeftInCheck,
            Some("b4"),
        ),
        (
            "4k3/8/8/8/8/8/3r4/4K3 w - - 0 1",
            "e1e2",
            n,
            KingLeftInCheck,
            Some("d2"),
        ),
        // En passant that uncovers a rank check.
        (
            "8/8/8/K2pP2r/8/8/8/4k3 w - d6 0 1",
            "e5d6",
            n,
            KingLeftInCheck,
            Some("h5"),
        ),
    ];
    for &(fen, mv, promo, want, square) in cases {
        let pos = Position::from_fen(fen).unwrap();
        let c = pos.check_move(sq(&mv[0..2]), sq(&mv[2..4]), promo);
        assert_eq!((c.reason, c.square), (want, square.map(sq)), "{fen} {mv}");
    }
    // Chess960: the king dropped on its rook; a screened destination; a right gone.
    let c960: &[(&str, &str, IllegalReason, Option<&str>)] = &[
        ("4k3/8/8/8/8/8/8/rR1K3R w KQ - 0 1", "d1h1", Legal, None),
        (
            "4k3/8/8/8/8/8/8/rR1K3R w KQ - 0 1",
            "d1b1",
            KingLeftInCheck,
            Some("a1"),
        ),
        (
            "4k3/8/8/8/8/8/8/rR1K3R w K - 0 1",
            "d1b1",
            CastlingNoRight,
            None,
        ),
        (
            "4k3/8/8/8/8/8/8/4KRRR w F - 0 1",
            "e1h1",
            CastlingNoRight,
            None,
        ),
        (
            "4k3/8/8/8/8/8/8/4KRRR w F - 0 1",
            "e1f1",
            PathBlocked,
            Some("g1"),
        ),
    ];
    for &(fen, mv, want, square) in c960 {
        let pos = Position::from_fen_960(fen).unwrap();
        let c = pos.check_move(sq(&mv[0..2]), sq(&mv[2..4]), n);
        assert_eq!((c.reason, c.square), (want, square.map(sq)), "{fen} {mv}");
    }
    // Every reason has its own message.
    let msgs: std::collections::HashSet<_> =
        IllegalReason::ALL.iter().map(|r| r.message()).collect();
    assert_eq!(msgs.len(), IllegalReason::ALL.len());
    for (i, r) in IllegalReason::ALL.iter().enumerate() {
        assert_eq!(*r as usize, i);
    }
}
