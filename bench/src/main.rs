//! Side-by-side perft benchmark: chesscore against the Rust move generators people use
//! (cozy-chess with `pext`, chess, shakmaty) and, when installed, Stockfish's `go perft`, on the
//! same positions in one process. Several rounds, each measuring every engine once in turn
//! (so that drift in a shared machine's speed hits all alike); one measurement repeats a perft
//! for at least 0.5 s; odd rounds run the engines in reverse order. Medians per engine, and
//! chesscore's ratio to each as the median of the per-round ratios (with their range). Not a
//! test: nothing here asserts a speed (only the node counts).
//!
//! Built with `-C target-cpu=native` for every crate (bench/.cargo/config.toml), as the peers'
//! BMI2 features require; chesscore itself chooses its instructions at run time either way.
//!
//! ```text
//! cd bench
//! cargo run --release                           # the positions and depths of issue 3, 3 runs
//! cargo run --release -- --quick                # one ply less everywhere
//! cargo run --release -- --runs 5 --full        # full perft (every leaf made) only
//! cargo run --release -- --bulk --only startpos
//! cargo run --release -- --threads 2 --only startpos   # parallel perft against one thread
//! ```

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::time::Instant;

struct Case {
    name: &'static str,
    fen: &'static str,
    bulk_depth: u32,
    full_depth: u32,
    nodes_bulk: u64,
    nodes_full: u64,
}

const CASES: &[Case] = &[
    Case {
        name: "startpos",
        fen: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        bulk_depth: 7,
        // Full perft runs one ply shallower here (~120M nodes instead of ~3.2G, per engine and
        // run); nodes/s hardly depends on depth at this size.
        full_depth: 6,
        nodes_bulk: 3_195_901_860,
        nodes_full: 119_060_324,
    },
    Case {
        name: "kiwipete",
        fen: "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        bulk_depth: 5,
        full_depth: 5,
        nodes_bulk: 193_690_690,
        nodes_full: 193_690_690,
    },
    Case {
        name: "pos3",
        fen: "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        bulk_depth: 7,
        full_depth: 6,
        nodes_bulk: 178_633_661,
        nodes_full: 11_030_083,
    },
    Case {
        name: "pos4",
        fen: "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        bulk_depth: 5,
        full_depth: 5,
        nodes_bulk: 15_833_292,
        nodes_full: 15_833_292,
    },
    Case {
        name: "pos5",
        fen: "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
        bulk_depth: 5,
        full_depth: 5,
        nodes_bulk: 89_941_194,
        nodes_full: 89_941_194,
    },
];

/// Published perft counts of the benchmark positions by depth (for `--quick`, one ply less).
fn known_nodes(name: &str, depth: u32) -> u64 {
    match (name, depth) {
        ("startpos", 5) => 4_865_609,
        ("startpos", 6) => 119_060_324,
        ("kiwipete", 4) => 4_085_603,
        ("pos3", 5) => 674_624,
        ("pos3", 6) => 11_030_083,
        ("pos4", 4) => 422_333,
        ("pos5", 4) => 2_103_487,
        _ => 0,
    }
}

#[derive(Clone, Copy, PartialEq)]
enum Mode {
    Bulk,
    Full,
}

type Runner = Box<dyn Fn(&str, u32, Mode) -> Option<u64>>;

mod peers {
    use super::Mode;

    pub fn chesscore(fen: &str, depth: u32, mode: Mode) -> Option<u64> {
        let mut pos = chesscore::Position::from_fen(fen).ok()?;
        Some(match mode {
            Mode::Bulk => pos.perft(depth),
            Mode::Full => pos.perft_full(depth),
        })
    }

    pub fn chesscore_c_abi(fen: &str, depth: u32, mode: Mode) -> Option<u64> {
        use chesscore::ffi::*;
        let fen = std::ffi::CString::new(fen).ok()?;
        let mut pos = std::mem::MaybeUninit::<ChessPosition>::uninit();
        let mut nodes = 0u64;
        // SAFETY: `pos` is valid for writes; after a successful set it is initialised; `fen`
        // is NUL-terminated; `nodes` is a valid u64.
        unsafe {
            if chess_setFromFEN(pos.as_mut_ptr(), fen.as_ptr()) != ChessStatus::CHESS_OK {
                return None;
            }
            let status = match mode {
                Mode::Bulk => chess_perft(pos.as_mut_ptr(), depth, &mut nodes),
                Mode::Full => chess_perftFull(pos.as_mut_ptr(), depth, &mut nodes),
            };
            (status == ChessStatus::CHESS_OK).then_some(nodes)
        }
    }

    fn cozy_bulk(board: &cozy_chess::Board, depth: u32) -> u64 {
        let mut nodes = 0;
        if depth == 1 {
            board.generate_moves(|moves| {
                nodes += moves.len() as u64;
                false
            });
        } else {
            board.generate_moves(|moves| {
                for mv in moves {
                    let mut child = board.clone();
                    child.play_unchecked(mv);
                    nodes += cozy_bulk(&child, depth - 1);
                }
                false
            });
        }
        nodes
    }

    fn cozy_full(board: &cozy_chess::Board, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let mut nodes = 0;
        board.generate_moves(|moves| {
            for mv in moves {
                let mut child = board.clone();
                child.play_unchecked(mv);
                nodes += cozy_full(&child, depth - 1);
            }
            false
        });
        nodes
    }

    pub fn cozy(fen: &str, depth: u32, mode: Mode) -> Option<u64> {
        let board = cozy_chess::Board::from_fen(fen, false).ok()?;
        Some(match mode {
            Mode::Bulk if depth > 0 => cozy_bulk(&board, depth),
            _ => cozy_full(&board, depth),
        })
    }

    fn chess_full(board: &chess::Board, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        chess::MoveGen::new_legal(board)
            .map(|m| chess_full(&board.make_move_new(m), depth - 1))
            .sum()
    }

    pub fn chess(fen: &str, depth: u32, mode: Mode) -> Option<u64> {
        let board: chess::Board = fen.parse().ok()?;
        Some(match mode {
            Mode::Bulk => chess::MoveGen::movegen_perft_test(&board, depth as usize) as u64,
            Mode::Full => chess_full(&board, depth),
        })
    }

    fn shakmaty_full(pos: &shakmaty::Chess, depth: u32) -> u64 {
        use shakmaty::Position;
        if depth == 0 {
            return 1;
        }
        pos.legal_moves()
            .iter()
            .map(|m| {
                let mut child = pos.clone();
                child.play_unchecked(*m);
                shakmaty_full(&child, depth - 1)
            })
            .sum()
    }

    pub fn shakmaty(fen: &str, depth: u32, mode: Mode) -> Option<u64> {
        let setup: shakmaty::fen::Fen = fen.parse().ok()?;
        let pos: shakmaty::Chess = setup.into_position(shakmaty::CastlingMode::Standard).ok()?;
        Some(match mode {
            Mode::Bulk => shakmaty::perft(&pos, depth),
            Mode::Full => shakmaty_full(&pos, depth),
        })
    }
}

/// Stockfish `go perft` through UCI, timed from `go` to `Nodes searched`. Stockfish's perft
/// bulk-counts at the last ply, so it is only a bulk-mode peer.
fn stockfish(fen: &str, depth: u32, mode: Mode) -> Option<(u64, f64)> {
    if mode == Mode::Full {
        return None;
    }
    let mut child = Command::new(stockfish_path()?)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .ok()?;
    let mut stdin = child.stdin.take()?;
    let mut out = BufReader::new(child.stdout.take()?);
    writeln!(stdin, "uci\nsetoption name Threads value 1\nisready").ok()?;
    let mut line = String::new();
    loop {
        line.clear();
        if out.read_line(&mut line).ok()? == 0 {
            return None;
        }
        if line.trim() == "readyok" {
            break;
        }
    }
    writeln!(stdin, "position fen {fen}\ngo perft {depth}").ok()?;
    let start = Instant::now();
    let nodes = loop {
        line.clear();
        if out.read_line(&mut line).ok()? == 0 {
            return None;
        }
        if let Some(n) = line.trim().strip_prefix("Nodes searched: ") {
            break n.parse().ok()?;
        }
    };
    let secs = start.elapsed().as_secs_f64();
    let _ = writeln!(stdin, "quit");
    let _ = child.wait();
    Some((nodes, secs))
}

/// `stockfish` on PATH, or Debian's `/usr/games/stockfish`.
fn stockfish_path() -> Option<String> {
    let on_path = std::env::var_os("PATH")
        .is_some_and(|p| std::env::split_paths(&p).any(|d| d.join("stockfish").is_file()));
    if on_path {
        Some("stockfish".into())
    } else if std::path::Path::new("/usr/games/stockfish").is_file() {
        Some("/usr/games/stockfish".into())
    } else {
        None
    }
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    v[v.len() / 2]
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let flag = |f: &str| args.iter().any(|a| a == f);
    let value = |f: &str| {
        args.iter()
            .position(|a| a == f)
            .and_then(|i| args.get(i + 1))
            .cloned()
    };
    let quick = flag("--quick");
    let runs: usize = value("--runs").and_then(|v| v.parse().ok()).unwrap_or(3);
    let only = value("--only");
    let modes: Vec<Mode> = match (flag("--bulk"), flag("--full")) {
        (true, false) => vec![Mode::Bulk],
        (false, true) => vec![Mode::Full],
        _ => vec![Mode::Bulk, Mode::Full],
    };
    let threads: usize = value("--threads").and_then(|v| v.parse().ok()).unwrap_or(1);
    let stockfish_present = stockfish_path().is_some() && threads == 1;
    println!(
        "perft benchmark: {runs} runs each, median Mnodes/s; slider back end {}; stockfish {}",
        chesscore::attacks::Backend::detect().name(),
        if stockfish_present {
            "found"
        } else if threads > 1 {
            "not run (parallel comparison)"
        } else {
            "not installed (skipped)"
        }
    );
    let parallel_name: &'static str =
        Box::leak(format!("chesscore {threads} threads").into_boxed_str());
    let mut runners: Vec<(&str, Runner)> = vec![
        ("chesscore", Box::new(peers::chesscore)),
        ("chesscore C ABI", Box::new(peers::chesscore_c_abi)),
        ("cozy-chess 0.3.4 (pext)", Box::new(peers::cozy)),
        ("chess 3.2.0", Box::new(peers::chess)),
        ("shakmaty 0.30.1", Box::new(peers::shakmaty)),
    ];
    if threads > 1 {
        // Parallel perft against one thread, without the peers.
        runners.truncate(1);
        runners.push((
            parallel_name,
            Box::new(move |fen: &str, depth: u32, mode: Mode| {
                let pos = chesscore::Position::from_fen(fen).ok()?;
                let m = match mode {
                    Mode::Bulk => chesscore::PerftMode::Bulk,
                    Mode::Full => chesscore::PerftMode::Full,
                };
                Some(pos.perft_parallel(depth, m, threads))
            }),
        ));
    }
    for &mode in &modes {
        println!(
            "\n{} perft",
            if mode == Mode::Bulk { "bulk" } else { "full" }
        );
        println!(
            "{:<10} {:>5} {:<24} {:>10} {:>12}   {}",
            "position", "depth", "engine", "Mnodes/s", "chesscore x", "[per-round range]"
        );
        for case in CASES {
            if only.as_deref().is_some_and(|o| o != case.name) {
                continue;
            }
            let mut depth = if mode == Mode::Bulk {
                case.bulk_depth
            } else {
                case.full_depth
            };
            let mut want = if mode == Mode::Bulk {
                case.nodes_bulk
            } else {
                case.nodes_full
            };
            if quick {
                depth -= 1;
                want = known_nodes(case.name, depth);
            }
            // Round-robin: every run measures every engine once, so drift in the machine's
            // speed (shared hosts) hits all engines alike; medians per engine afterwards.
            let mut speeds: Vec<Vec<f64>> = vec![Vec::new(); runners.len() + 1];
            for round in 0..runs {
                // Odd rounds go in reverse order, so that a steady drift during a round
                // favours no engine.
                let order: Vec<usize> = if round % 2 == 0 {
                    (0..runners.len()).collect()
                } else {
                    (0..runners.len()).rev().collect()
                };
                for i in order {
                    let (name, run) = &runners[i];
                    // One measurement repeats the perft until half a second has passed, so
                    // short trees are not timed at the resolution of scheduler noise.
                    let start = Instant::now();
                    let mut total = 0u64;
                    let mut ok = true;
                    while ok && (total == 0 || start.elapsed().as_secs_f64() < 0.5) {
                        match run(case.fen, depth, mode) {
                            Some(nodes) => {
                                assert_eq!(
                                    nodes, want,
                                    "{name} miscounted {} depth {depth}",
                                    case.name
                                );
                                total += nodes;
                            }
                            None => ok = false,
                        }
                    }
                    if total > 0 {
                        speeds[i].push(total as f64 / start.elapsed().as_secs_f64() / 1e6);
                    }
                }
                if stockfish_present {
                    if let Some((nodes, secs)) = stockfish(case.fen, depth, mode) {
                        assert_eq!(nodes, want, "stockfish miscounted");
                        speeds[runners.len()].push(nodes as f64 / secs / 1e6);
                    }
                }
            }
            let names = runners
                .iter()
                .map(|r| r.0)
                .chain(std::iter::once("stockfish go perft"));
            // The ratio is the median of the per-round ratios (each round's chesscore
            // measurement against the same round's peer measurement), with their range.
            let ours = speeds[0].clone();
            for (name, v) in names.zip(speeds) {
                if v.is_empty() {
                    continue;
                }
                let ratios: Vec<f64> = ours.iter().zip(&v).map(|(a, b)| a / b).collect();
                let lo = ratios.iter().cloned().fold(f64::INFINITY, f64::min);
                let hi = ratios.iter().cloned().fold(0.0, f64::max);
                println!(
                    "{:<10} {:>5} {:<24} {:>10.1} {:>12.2}   [{lo:.2}-{hi:.2}]",
                    case.name,
                    depth,
                    name,
                    median(v),
                    median(ratios),
                );
            }
        }
    }
}
