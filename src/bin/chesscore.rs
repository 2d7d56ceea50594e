//! `chesscore` command line: perft, divide and a perft benchmark.
//!
//! ```text
//! chesscore perft [--divide] [--full] [--threads N] FEN DEPTH
//! chesscore bench [--full] [DEPTH]
//! ```
//! FEN may be `startpos` or `kiwipete`.

use chesscore::{PerftMode, Position, START_FEN};
use std::process::ExitCode;
use std::time::Instant;

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

fn usage() -> ExitCode {
    eprintln!(
        "usage:\n  chesscore perft [--divide] [--full] [--threads N] FEN DEPTH\n  chesscore bench [--full]\n\
         FEN may be a full FEN string (quoted), `startpos` or `kiwipete`."
    );
    ExitCode::from(2)
}

fn resolve_fen(s: &str) -> &str {
    match s {
        "startpos" => START_FEN,
        "kiwipete" => KIWIPETE,
        other => other,
    }
}

fn perft_cmd(args: &[String]) -> ExitCode {
    let mut divide = false;
    let mut mode = PerftMode::Bulk;
    let mut threads = 1usize;
    let mut rest = Vec::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--divide" => divide = true,
            "--full" => mode = PerftMode::Full,
            "--threads" => match it.next().and_then(|t| t.parse().ok()) {
                Some(t) if t >= 1 => threads = t,
                _ => {
                    eprintln!("error: --threads needs a number >= 1");
                    return ExitCode::from(2);
                }
            },
            _ => rest.push(a.as_str()),
        }
    }
    let [fen, depth] = rest[..] else {
        return usage();
    };
    let Ok(depth) = depth.parse::<u32>() else {
        eprintln!("error: depth must be a number, got {depth:?}");
        return ExitCode::from(2);
    };
    let mut pos = match Position::from_fen(resolve_fen(fen)) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let start = Instant::now();
    let nodes = if divide {
        let rows = pos.perft_divide(depth, mode);
        for (m, n) in &rows {
            println!("{m}: {n}");
        }
        println!();
        rows.iter()
            .map(|r| r.1)
            .sum::<u64>()
            .max(u64::from(depth == 0))
    } else if threads > 1 {
        pos.perft_parallel(depth, mode, threads)
    } else {
        pos.perft_mode(depth, mode)
    };
    let secs = start.elapsed().as_secs_f64();
    println!("Nodes searched: {nodes}");
    println!(
        "Time: {:.3} s, {:.1} Mnodes/s ({} perft, {} thread(s), {} sliders)",
        secs,
        nodes as f64 / secs.max(1e-9) / 1e6,
        if mode == PerftMode::Bulk {
            "bulk"
        } else {
            "full"
        },
        threads,
        chesscore::attacks::Backend::detect().name()
    );
    ExitCode::SUCCESS
}

fn bench_cmd(args: &[String]) -> ExitCode {
    let mode = if args.iter().any(|a| a == "--full") {
        PerftMode::Full
    } else {
        PerftMode::Bulk
    };
    let cases: [(&str, &str, u32); 2] = [("startpos", START_FEN, 6), ("kiwipete", KIWIPETE, 5)];
    let mut total_nodes = 0u64;
    let mut total_secs = 0.0;
    for (name, fen, depth) in cases {
        let mut pos = Position::from_fen(fen).expect("bench FEN is valid");
        let start = Instant::now();
        let nodes = pos.perft_mode(depth, mode);
        let secs = start.elapsed().as_secs_f64();
        total_nodes += nodes;
        total_secs += secs;
        println!(
            "{name:<9} depth {depth}: {nodes:>11} nodes {secs:>7.3} s {:>8.1} Mnodes/s",
            nodes as f64 / secs / 1e6
        );
    }
    println!(
        "total: {total_nodes} nodes {total_secs:.3} s {:.1} Mnodes/s ({} perft)",
        total_nodes as f64 / total_secs / 1e6,
        if mode == PerftMode::Bulk {
            "bulk"
        } else {
            "full"
        }
    );
    ExitCode::SUCCESS
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("perft") => perft_cmd(&args[1..]),
        Some("bench") => bench_cmd(&args[1..]),
        _ => usage(),
    }
}
