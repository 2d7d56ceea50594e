//! The legal generator (check and pin masks) against pseudo-legal generation filtered by the
//! independent one-move legality check, and the filtered generator (piece types, captures,
//! quiets) against filtering the full list, on thousands of positions.

mod common;

use chesscore::{GenType, Legality, Move, MoveList, PieceType, Position, ALL_PIECE_TYPES};
use std::collections::BTreeSet;

fn set(list: &MoveList) -> BTreeSet<u16> {
    list.iter().map(|m| m.raw()).collect()
}

#[test]
fn legal_equals_pseudo_legal_filtered_by_legality_check() {
    let positions = common::random_positions(3, 60, 0x1234_5678);
    assert!(positions.len() > 10_000, "{} positions", positions.len());
    for pos in &positions {
        let legal = pos.legal_moves();
        let pseudo = pos.pseudo_legal_moves();
        let filtered: BTreeSet<u16> = pseudo
            .iter()
            .filter(|&&m| pos.is_legal_pseudo(m))
            .map(|m| m.raw())
            .collect();
        assert_eq!(set(&legal), filtered, "{}", pos.to_fen());
        assert_eq!(
            legal.len(),
            set(&legal).len(),
            "duplicates in {}",
            pos.to_fen()
        );
        assert_eq!(pos.count_legal_moves(), legal.len() as u64);
        for &m in legal.iter() {
            assert!(pos.is_legal(m), "{m} in {}", pos.to_fen());
        }
    }
}

#[test]
fn filtered_generation_equals_filtering_the_full_list() {
    let positions = common::random_positions(1, 80, 0xD1CE);
    for pos in &positions {
        for legality in [Legality::Legal, Legality::PseudoLegal] {
            let mut all = MoveList::new();
            pos.generate_moves(legality, GenType::All, ALL_PIECE_TYPES, &mut all);
            for gen in [GenType::All, GenType::Captures, GenType::Quiets] {
                for t in 1..=6u8 {
                    let kind = PieceType::new(t).unwrap();
                    for mask in [kind.mask_bit(), ALL_PIECE_TYPES & !kind.mask_bit()] {
                        let mut got = MoveList::new();
                        pos.generate_moves(legality, gen, mask, &mut got);
                        let want: BTreeSet<u16> = all
                            .iter()
                            .filter(|m| mask & pos.piece_on(m.from()).kind().mask_bit() != 0)
                            .filter(|m| match gen {
                                GenType::All => true,
                                GenType::Captures => m.is_capture(),
                                GenType::Quiets => !m.is_capture(),
                            })
                            .map(|m| m.raw())
                            .collect();
                        assert_eq!(
                            set(&got),
                            want,
                            "{:?} {gen:?} mask {mask:#x} in {}",
                            legality,
                            pos.to_fen()
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn promotions_come_queen_rook_bishop_knight() {
    let pos = Position::from_fen("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1").unwrap();
    let promos: Vec<String> = pos
        .legal_moves()
        .iter()
        .filter(|m| m.is_promotion())
        .map(|m| m.to_string())
        .collect();
    assert_eq!(promos, ["b7b8q", "b7b8r", "b7b8b", "b7b8n"]);
}

#[test]
fn en_passant_discovered_check_is_refused() {
    // Capturing d3 en passant would expose the black king on a4 to the rook on h4.
    let pos = Position::from_fen("8/8/8/8/k2Pp2R/8/8/4K3 b - d3 0 1").unwrap();
    let ep = Move::new(
        chesscore::Square::E4,
        chesscore::Square::D3,
        Move::EN_PASSANT,
    );
    assert!(pos.pseudo_legal_moves().contains(ep));
    assert!(!pos.is_legal_pseudo(ep));
    assert!(!pos.legal_moves().contains(ep));
}

#[test]
fn castling_through_check_is_pseudo_legal_only() {
    // The bishop on c4 attacks f1: king-side castling passes through check.
    let pos = Position::from_fen("4k3/8/8/8/2b5/8/8/4K2R w K - 0 1").unwrap();
    let castle = Move::new(
        chesscore::Square::E1,
        chesscore::Square::G1,
        Move::KING_CASTLE,
    );
    assert!(pos.pseudo_legal_moves().contains(castle));
    assert!(!pos.is_legal_pseudo(castle));
    assert!(!pos.legal_moves().contains(castle));
}

#[test]
fn arbitrary_values_are_legal_only_when_generated() {
    for fen in [
        chesscore::START_FEN,
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/8/1k6/2b5/2pP4/8/5K2/8 b - d3 0 1",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    ] {
        let pos = Position::from_fen(fen).unwrap();
        let legal = set(&pos.legal_moves());
        for raw in 0..=u16::MAX {
            assert_eq!(
                pos.is_legal(Move::from_raw(raw)),
                legal.contains(&raw),
                "{raw:#06x} in {fen}"
            );
        }
    }
}
