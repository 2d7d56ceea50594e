//! The learned evaluation's data and trainer (lab/nnue_data.rs, lab/nnue_model.rs), checked
//! against docs/nnue.md without the inference: records round-trip, feature indices, the
//! float model's gradient against finite differences, the written net's integer output (i64,
//! straight from the spec) against the float model, and a training run that learns a known
//! target.

#[path = "../lab/nnue_data.rs"]
mod nnue_data;

use chesscore::{Color, Position, Square};
use nnue_data::*;

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

/// Positions of random games (random legal moves from the start position).
fn random_positions(seed: u64, games: usize, plies: usize) -> Vec<Position> {
    let mut rng = Rng(seed);
    let mut out = Vec::new();
    for _ in 0..games {
        let mut pos = Position::startpos();
        for _ in 0..plies {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let m = moves.as_slice()[(rng.next() % moves.len() as u64) as usize];
            if pos.try_make_move(m).is_err() {
                break;
            }
            out.push(Position::from_fen(&pos.to_fen()).unwrap());
        }
    }
    out
}

#[test]
fn records_round_trip_positions() {
    let positions = random_positions(0x1234_5678, 40, 120);
    assert!(positions.len() > 2000);
    for (i, pos) in positions.iter().enumerate() {
        let score = (i as i32 * 37) % 4001 - 2000;
        let result = (i % 3) as u8;
        let r = encode(pos, score, result);
        assert!(is_valid(&r), "{}", pos.to_fen());
        assert_eq!(nnue_data::score(&r) as i32, score);
        assert_eq!(nnue_data::result(&r), result);
        assert_eq!(side_to_move(&r), pos.side_to_move().to_u8());
        let mut ps = [RecPiece {
            square: 0,
            colour: 0,
            kind: 0,
        }; 32];
        let n = pieces(&r, &mut ps);
        let mut board = [None; 64];
        for p in &ps[..n] {
            board[p.square as usize] = Some((p.colour, p.kind));
        }
        for (s, got) in board.iter().enumerate() {
            let piece = pos.piece_on(Square::from_index(s as u8));
            let want = if piece.is_none() {
                None
            } else {
                // PNBRQK in FEN letters, 0..5 in the record.
                let kind = "pnbrqk".find(piece.kind().to_char()).unwrap() as u8;
                Some((piece.color().to_u8(), kind))
            };
            assert_eq!(*got, want, "square {s} of {}", pos.to_fen());
        }
    }
    // Scores beyond i16 are clamped.
    let r = encode(&Position::startpos(), 40_000, DRAW);
    assert_eq!(nnue_data::score(&r), i16::MAX);
}

/// The record of the start position, byte for byte from docs/nnue.md's table.
#[test]
fn start_position_record_bytes() {
    let r = encode(&Position::startpos(), -5, WHITE_WON);
    assert_eq!(&r[0..8], &0xFFFF_0000_0000_FFFFu64.to_le_bytes());
    // a1..h1: R N B Q K B N R = 3 1 2 4 5 2 1 3; a2..h2: pawns 0; a7..h7: black pawns 8;
    // a8..h8: 11 9 10 12 13 10 9 11. Two nibbles a byte, the first low.
    let want: [u8; 16] = [
        0x13, 0x42, 0x25, 0x31, 0, 0, 0, 0, 0x88, 0x88, 0x88, 0x88, 0x9B, 0xCA, 0xAD, 0xB9,
    ];
    assert_eq!(&r[8..24], &want);
    assert_eq!(&r[24..26], &(-5i16).to_le_bytes());
    assert_eq!(&r[26..32], &[2, 0, 0, 0, 0, 0]);
}

/// The colour-flipped FEN (ranks mirrored, colours swapped, the other side to move).
fn mirror_fen(fen: &str) -> String {
    let f: Vec<&str> = fen.split(' ').collect();
    let board: Vec<String> = f[0]
        .split('/')
        .rev()
        .map(|r| {
            r.chars()
                .map(|c| {
                    if c.is_ascii_uppercase() {
                        c.to_ascii_lowercase()
                    } else {
                        c.to_ascii_uppercase()
                    }
                })
                .collect()
        })
        .collect();
    let stm = if f[1] == "w" { "b" } else { "w" };
    format!("{} {stm} - - 0 1", board.join("/"))
}

#[test]
fn features_follow_the_spec() {
    // Hand-computed from docs/nnue.md: White's pawn on e2 (12) is feature 12 for White and
    // 384 + 0 + (12 ^ 56) = 436 for Black; Black's king on e8 (60) is 384 + 320 + 60 = 764 for
    // White and 0 + 320 + 4 = 324 for Black.
    let pawn = RecPiece {
        square: 12,
        colour: 0,
        kind: 0,
    };
    let king = RecPiece {
        square: 60,
        colour: 1,
        kind: 5,
    };
    assert_eq!((feature(0, pawn), feature(1, pawn)), (12, 436));
    assert_eq!((feature(0, king), feature(1, king)), (764, 324));
    // A position and its colour-flipped mirror have the same features, perspective for
    // perspective.
    for pos in random_positions(99, 10, 80) {
        let m = Position::from_fen(&mirror_fen(&pos.to_fen())).unwrap();
        assert_ne!(m.side_to_move(), pos.side_to_move());
        let (mut u1, mut t1, mut u2, mut t2) = ([0u16; 32], [0u16; 32], [0u16; 32], [0u16; 32]);
        let n1 = features(&encode(&pos, 0, 1), &mut u1, &mut t1);
        let n2 = features(&encode(&m, 0, 1), &mut u2, &mut t2);
        assert_eq!(n1, n2);
        let sorted = |a: &[u16]| {
            let mut v = a.to_vec();
            v.sort_unstable();
            v
        };
        assert_eq!(sorted(&u1[..n1]), sorted(&u2[..n2]));
        assert_eq!(sorted(&t1[..n1]), sorted(&t2[..n2]));
        assert!(u1[..n1].iter().all(|&f| f < 768));
    }
    let _ = Color::WHITE;
}
