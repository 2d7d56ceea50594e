//! `chesscore bench`: a fixed-depth search over a fixed set of positions.
//!
//! Each position is searched from a new game (`Engine::new_game`: empty hash and history
//! tables) with one thread and a 16 MiB table, to [`DEFAULT_DEPTH`] plies or the depth asked.
//! With one thread the search is deterministic, so the total node count is a signature of the
//! search and evaluation: a change that alters it changes what the engine does. The time and
//! nodes per second measure speed.
//!
//! The positions: the start position and the five positions of the Chess Programming Wiki's
//! perft suite (`testdata/standard.epd`), openings reached by well-known move orders (Ruy
//! Lopez, Najdorf, Queen's Gambit Declined, King's Indian, French Winawer, English, Italian,
//! Yugoslav Attack against the Dragon, Caro-Kann), a mate in one, and endgames written for this
//! list (king and pawn, Lucena, rook and pawn against rook, queen against rook, opposite-colored
//! bishops, a pawn ending, a promotion race). White and Black to move, one side in check.

use crate::position::Position;
use crate::search::{Engine, Limits, SearchResult};
use std::time::{Duration, Instant};

/// The depth `chesscore bench` searches without an argument (2 to 3 s in a release build on
/// the 2-core development machine).
pub const DEFAULT_DEPTH: u32 = 13;

/// `chesscore bench`'s node count at [`DEFAULT_DEPTH`]: the signature of the search and the
/// evaluation ("no functional change" keeps it). `tests/bench_signature.rs` pins it in
/// release builds (`scripts/test-all` runs it). A change that alters it updates this number
/// deliberately, in the commit whose match shows the change gains.
pub const SIGNATURE: u64 = 1_992_706;

/// The bench positions (FEN).
pub const BENCH_POSITIONS: [&str; 23] = [
    // The start position and the perft suite's positions 2 to 6.
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    // Openings and middlegames.
    "r1bqk2r/1pppbppp/p1n2n2/4p3/B3P3/5N2/PPPP1PPP/RNBQR1K1 b kq - 5 6",
    "rnbqkb1r/1p2pppp/p2p1n2/8/3NP3/2N5/PPP2PPP/R1BQKB1R w KQkq - 0 6",
    "rnbq1rk1/ppp1bppp/4pn2/3p2B1/2PP4/2N1P3/PP3PPP/R2QKBNR w KQ - 1 6",
    "rnbq1rk1/ppp2pbp/3p1np1/4p3/2PPP3/2N2N2/PP2BPPP/R1BQ1RK1 b - - 1 7",
    "rnbqk2r/pp2nppp/4p3/2ppP3/3P4/P1P5/2P2PPP/R1BQKBNR w KQkq - 1 7",
    "rnbqkb1r/ppp2ppp/1n6/4p3/8/2N2NP1/PP1PPPBP/R1BQK2R b KQkq - 3 6",
    "r1bqr1k1/bpp2pp1/p1np1n1p/4p3/P1B1P3/2PP1N1P/1P1N1PP1/R1BQR1K1 w - - 2 11",
    "2rq1rk1/pp1bppbp/3p1np1/4n3/3NP3/1BN1BP2/PPPQ2PP/2KR3R w - - 9 12",
    "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4",
    "r3k2r/pp1nbpp1/2p1pn1p/q6P/3P4/2PQ1NN1/PP1B1PP1/2KR3R w kq - 3 15",
    // Endgames.
    "8/8/8/4k3/8/8/4P3/4K3 w - - 0 1",
    "1K1k4/1P6/8/8/8/8/r7/2R5 w - - 0 1",
    "8/5k2/8/4PK2/8/8/r7/6R1 b - - 0 1",
    "8/8/8/4k3/8/8/2r5/3QK3 w - - 0 1",
    "8/4kp2/4b1p1/7p/7P/2B3P1/5PK1/8 w - - 0 1",
    "8/8/1p3k2/p1p4p/P1P2K1P/1P6/8/8 w - - 0 1",
    "8/1P6/8/8/8/8/6p1/K6k b - - 0 1",
];

/// One searched position, as [`bench_with`] reports it.
#[derive(Debug)]
pub struct BenchEntry<'a> {
    /// Index into [`BENCH_POSITIONS`].
    pub index: usize,
    /// The position's FEN.
    pub fen: &'a str,
    /// The search's result (best move, score, nodes).
    pub result: &'a SearchResult,
    /// Time of this search.
    pub time: Duration,
}

/// Searches every bench position to `depth` plies and returns the total nodes and the total
/// search time.
///
/// # Panics
/// When the engine's 16 MiB table cannot be allocated.
pub fn bench(depth: u32) -> (u64, Duration) {
    bench_with(depth, &mut |_| {})
}

/// [`bench()`], calling `on_position` after each position.
///
/// # Panics
/// When the engine's 16 MiB table cannot be allocated.
pub fn bench_with(depth: u32, on_position: &mut dyn FnMut(&BenchEntry)) -> (u64, Duration) {
    let mut engine = Engine::new();
    for (name, value) in [("Threads", "1"), ("Hash", "16"), ("MultiPV", "1")] {
        engine
            .set_option(name, value)
            .expect("bench options are valid");
    }
    let limits = Limits {
        depth: depth.max(1),
        ..Limits::default()
    };
    let mut nodes = 0;
    let mut time = Duration::ZERO;
    for (index, fen) in BENCH_POSITIONS.iter().enumerate() {
        let pos = Position::from_fen(fen).expect("bench FENs are valid");
        engine.new_game();
        let start = Instant::now();
        let result = engine.search(&pos, &limits, &mut |_| {});
        let elapsed = start.elapsed();
        nodes += result.nodes;
        time += elapsed;
        on_position(&BenchEntry {
            index,
            fen,
            result: &result,
            time: elapsed,
        });
    }
    (nodes, time)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_are_valid_and_distinct() {
        for (i, fen) in BENCH_POSITIONS.iter().enumerate() {
            let pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e:?}"));
            assert!(!pos.legal_moves().is_empty(), "{fen}");
            assert_eq!(pos.to_fen(), *fen, "canonical FEN");
            assert!(!BENCH_POSITIONS[..i].contains(fen), "{fen} twice");
        }
    }

    #[test]
    fn node_count_is_deterministic() {
        let a = bench(3).0;
        let b = bench(3).0;
        assert!(a > 0);
        assert_eq!(a, b);
    }
}
