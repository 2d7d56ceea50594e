//! SAN and PGN speed: every legal move of the 24,000 positions of
//! `testdata/san/random-games.txt` written as SAN and read back (strict and tolerant), and the
//! PGN files of `testdata/pgn/` repeated into a database read game by game and written back.
//! Prints the median of `RUNS` runs of each.
//!
//! `cargo run --release --features lab --example san_pgn_bench [RUNS]` (from the repository root)

use chesscore::pgn::PgnReader;
use chesscore::{Move, Position, SanMode};
use std::time::Instant;

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() {
    let runs: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(5);
    // The positions and their legal moves.
    let data = std::fs::read_to_string("testdata/san/random-games.txt").expect("run from the root");
    let mut cases: Vec<(Position, Vec<Move>)> = Vec::new();
    let mut pos = Position::startpos();
    for line in data.lines() {
        if let Some(fen) = line.strip_prefix("fen ") {
            pos = Position::from_fen(fen).unwrap();
            continue;
        }
        cases.push((pos.clone(), pos.legal_moves().iter().copied().collect()));
        let played = line.split(' ').next().unwrap();
        if played != "-" {
            pos.try_make_move(pos.parse_uci_move(played).unwrap())
                .unwrap();
        }
    }
    let moves: usize = cases.iter().map(|(_, m)| m.len()).sum();
    let sans: Vec<Vec<_>> = cases
        .iter()
        .map(|(p, ms)| ms.iter().map(|&m| p.to_san(m).unwrap()).collect())
        .collect();
    let time = |f: &mut dyn FnMut()| {
        median(
            (0..runs)
                .map(|_| {
                    let t = Instant::now();
                    f();
                    t.elapsed().as_secs_f64()
                })
                .collect(),
        )
    };
    let write = time(&mut || {
        for (p, ms) in &cases {
            for &m in ms {
                std::hint::black_box(p.to_san(m).unwrap());
            }
        }
    });
    let strict = time(&mut || {
        for ((p, _), ss) in cases.iter().zip(&sans) {
            for s in ss {
                std::hint::black_box(p.parse_san(s).unwrap());
            }
        }
    });
    let tolerant = time(&mut || {
        for ((p, _), ss) in cases.iter().zip(&sans) {
            for s in ss {
                std::hint::black_box(p.parse_san_with(s, SanMode::Tolerant).unwrap());
            }
        }
    });
    println!(
        "SAN over {moves} moves of {} positions (median of {runs}):",
        cases.len()
    );
    for (what, secs) in [
        ("to_san", write),
        ("parse_san (strict)", strict),
        ("parse_san_with (tolerant)", tolerant),
    ] {
        println!("  {what:<26} {:7.1} ns/move", secs * 1e9 / moves as f64);
    }
    // A database: the test files, 200 times over.
    let mut db = String::new();
    for _ in 0..200 {
        for f in ["annotated.pgn", "odd-format.pgn"] {
            db.push_str(&std::fs::read_to_string(format!("testdata/pgn/{f}")).unwrap());
            db.push('\n');
        }
    }
    let (mut games, mut plies) = (0, 0);
    let read = time(&mut || {
        games = 0;
        plies = 0;
        for g in PgnReader::new(db.as_bytes()) {
            let g = g.unwrap();
            games += 1;
            plies += g.moves().len();
            std::hint::black_box(g);
        }
    });
    let parsed: Vec<_> = PgnReader::new(db.as_bytes()).map(Result::unwrap).collect();
    let written = time(&mut || {
        for g in &parsed {
            std::hint::black_box(g.to_pgn());
        }
    });
    println!(
        "PGN database of {games} games, {plies} plies, {} bytes (median of {runs}):",
        db.len()
    );
    println!(
        "  read   {:7.1} ms  ({:.0} games/s, {:.0} ns/ply)",
        read * 1e3,
        games as f64 / read,
        read * 1e9 / plies as f64
    );
    println!(
        "  write  {:7.1} ms  ({:.0} games/s, {:.0} ns/ply)",
        written * 1e3,
        games as f64 / written,
        written * 1e9 / plies as f64
    );
}
