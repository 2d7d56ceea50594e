//! Perft counts from the known suites (testdata/*.epd, checked against an independent engine),
//! to a node budget that keeps debug-assertion builds quick; the C suite under ctest runs
//! every count.

use chesscore::{PerftMode, Position};

fn suite(name: &str) -> Vec<(String, Vec<(u32, u64)>)> {
    let path = format!("{}/testdata/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path)
        .unwrap()
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let mut parts = l.split(';');
            let fen = parts.next().unwrap().trim().to_string();
            let counts = parts
                .map(|p| {
                    let mut w = p.split_whitespace();
                    let d = w.next().unwrap().trim_start_matches('D').parse().unwrap();
                    (d, w.next().unwrap().parse().unwrap())
                })
                .collect();
            (fen, counts)
        })
        .collect()
}

fn run(name: &str, budget: u64, mode: PerftMode, min_checked: usize) {
    let mut checked = 0;
    for (fen, counts) in suite(name) {
        let mut pos = Position::from_fen(&fen).unwrap();
        for (depth, want) in counts {
            if want > budget {
                break;
            }
            assert_eq!(pos.perft_mode(depth, mode), want, "{fen} depth {depth}");
            checked += 1;
        }
        assert_eq!(pos.to_fen(), fen, "perft must leave the position as it was");
    }
    assert!(checked >= min_checked, "only {checked} counts checked");
}

#[test]
fn standard_suite_bulk() {
    run("standard.epd", 200_000, PerftMode::Bulk, 500);
}

#[test]
fn edge_suite_bulk() {
    run("edge.epd", 2_000_000, PerftMode::Bulk, 90);
}

#[test]
fn edge_suite_full() {
    run("edge.epd", 200_000, PerftMode::Full, 70);
}

#[test]
fn standard_suite_full() {
    run("standard.epd", 30_000, PerftMode::Full, 400);
}

#[test]
fn parallel_perft_matches_the_suites() {
    let mut checked = 0;
    for name in ["edge.epd", "standard.epd"] {
        for (fen, counts) in suite(name).into_iter().step_by(7) {
            let pos = Position::from_fen(&fen).unwrap();
            for (depth, want) in counts {
                if want > 3_000_000 {
                    break;
                }
                for threads in [2, 3] {
                    for mode in [PerftMode::Bulk, PerftMode::Full] {
                        assert_eq!(
                            pos.perft_parallel(depth, mode, threads),
                            want,
                            "{fen} depth {depth}"
                        );
                    }
                }
                checked += 1;
            }
        }
    }
    assert!(checked >= 50, "only {checked} counts checked");
}
