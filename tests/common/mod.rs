//! Shared helpers for the integration tests: suite positions and random games.
#![allow(dead_code)]

use chesscore::{Move, Position};

/// Every FEN of both perft suites.
pub fn suite_fens() -> Vec<String> {
    let mut out = Vec::new();
    for name in ["standard.epd", "edge.epd"] {
        let path = format!("{}/testdata/{name}", env!("CARGO_MANIFEST_DIR"));
        for line in std::fs::read_to_string(path).unwrap().lines() {
            if let Some(fen) = line.split(';').next() {
                if !fen.trim().is_empty() {
                    out.push(fen.trim().to_string());
                }
            }
        }
    }
    out
}

/// Deterministic xorshift64 generator.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Positions reached by random legal games from every suite position: `games` games of up to
/// `plies` plies each, every position along the way.
pub fn random_positions(games_per_fen: usize, plies: usize, seed: u64) -> Vec<Position> {
    let mut rng = Rng(seed);
    let mut out = Vec::new();
    for fen in suite_fens() {
        for _ in 0..games_per_fen {
            let mut pos = Position::from_fen(&fen).unwrap();
            for _ in 0..plies {
                out.push(pos.clone());
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let m: Move = moves[rng.below(moves.len())];
                pos.make_move_unchecked(m);
            }
        }
    }
    out
}
