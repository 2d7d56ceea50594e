//! Self-play training data for the learned evaluation, in docs/nnue.md's 32-byte records.
//!
//! ```text
//! cargo run --release --features lab --example nnue_datagen -- OUT [--games N]
//!     [--positions N] [--nodes 5000] [--threads 1] [--seed 1] [--random-plies 8]
//!     [--check-nodes 2000] [--append] [--eval <embedded>|<hand>|FILE]
//! ```
//! The engine plays itself with EVAL (the `EvalFile` option's values: the embedded net by
//! default, `<hand>` for the hand-written evaluation that made rounds 1 and 2, or a net file), NODES nodes a move (a node limit, so a game
//! depends only on its seed), one engine per thread. Game `g` (thread `t` plays games
//! `t, t + T, t + 2T, ...`) starts from the start position after 8 or 9 random legal plies
//! drawn from a generator seeded by SEED and `g`; a game whose position after them is over or
//! scores beyond ±400 on a CHECK_NODES search is skipped. Games end by the rules (mate,
//! stalemate, 50 moves, threefold, insufficient material) or by adjudication: a win when the
//! score stays beyond ±1000 for 6 plies in a row, a draw when it stays within ±10 for 12 plies
//! in a row from ply 80 on, or at ply 300. Kept: every position after the random plies that is
//! not in check, whose best move is quiet (no capture, no promotion) and whose score is not a
//! mate score, with the search score from White's point of view and the game's result.
//!
//! Each game's records go to OUT in one write of whole records (OUT is valid while the tool
//! runs, up to a trailing partial record that readers drop). Stops after GAMES games or
//! POSITIONS positions, whichever comes first (0 = no limit: runs until killed).

#[path = "nnue_data.rs"]
mod nnue_data;

use chesscore::search::{Engine, Limits, MATE_BOUND};
use chesscore::{Color, GameStatus, Position};
use nnue_data::{encode, Record, BLACK_WON, DRAW, WHITE_WON};
use std::io::Write;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;

struct Rng(u64);
impl Rng {
    fn new(seed: u64, game: u64) -> Rng {
        // splitmix64 of the pair, so neighbouring games get unrelated streams.
        let mut z = seed
            .wrapping_mul(0x9E37_79B9_7F4A_7C15)
            .wrapping_add(game.wrapping_mul(0xD1B5_4A32_D192_ED03))
            .wrapping_add(0x2545_F491_4F6C_DD1D);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        Rng((z ^ (z >> 31)) | 1)
    }
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

struct Config {
    nodes: u64,
    check_nodes: u64,
    random_plies: u32,
}

const WIN_SCORE: i32 = 1000;
const WIN_PLIES: i32 = 6;
const DRAW_SCORE: i32 = 10;
const DRAW_PLIES: u32 = 12;
const DRAW_FROM_PLY: u32 = 80;
const MAX_PLY: u32 = 300;
const OPENING_LIMIT: i32 = 400;

/// Plays game `game`; returns its kept records, or `None` for a skipped opening.
fn play(engine: &mut Engine, cfg: &Config, seed: u64, game: u64) -> Option<Vec<Record>> {
    let mut rng = Rng::new(seed, game);
    let mut pos = Position::startpos();
    let plies = cfg.random_plies + (rng.next() & 1) as u32;
    for _ in 0..plies {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return None;
        }
        let m = moves.as_slice()[(rng.next() % moves.len() as u64) as usize];
        pos.try_make_move(m).ok()?;
    }
    if pos.status() != GameStatus::Ongoing {
        return None;
    }
    engine.new_game();
    let check = Limits {
        nodes: cfg.check_nodes,
        ..Limits::default()
    };
    if engine
        .search(&pos, &check, &mut |_| {})
        .score_internal
        .abs()
        > OPENING_LIMIT
    {
        return None;
    }
    engine.new_game();
    let limits = Limits {
        nodes: cfg.nodes,
        ..Limits::default()
    };
    let mut records = Vec::new();
    let mut win_streak = 0i32;
    let mut draw_streak = 0u32;
    let mut ply = plies;
    let result = loop {
        match pos.status() {
            GameStatus::Checkmate => {
                break if pos.side_to_move() == Color::WHITE {
                    BLACK_WON
                } else {
                    WHITE_WON
                };
            }
            GameStatus::Ongoing => {}
            _ => break DRAW,
        }
        if ply >= MAX_PLY {
            break DRAW;
        }
        let r = engine.search(&pos, &limits, &mut |_| {});
        let m = r.best_move?;
        let white = if pos.side_to_move() == Color::WHITE {
            r.score_internal
        } else {
            -r.score_internal
        };
        if white.abs() > WIN_SCORE {
            if win_streak.signum() == white.signum() {
                win_streak += white.signum();
            } else {
                win_streak = white.signum();
            }
        } else {
            win_streak = 0;
        }
        if win_streak.abs() >= WIN_PLIES {
            break if win_streak > 0 { WHITE_WON } else { BLACK_WON };
        }
        if white.abs() <= DRAW_SCORE {
            draw_streak += 1;
        } else {
            draw_streak = 0;
        }
        if ply >= DRAW_FROM_PLY && draw_streak >= DRAW_PLIES {
            break DRAW;
        }
        if !pos.in_check() && !m.is_capture() && !m.is_promotion() && white.abs() < MATE_BOUND {
            records.push(encode(&pos, white, 0));
        }
        if pos.try_make_move(m).is_err() {
            pos.compact_history();
            pos.try_make_move(m).ok()?;
        }
        ply += 1;
    };
    for r in &mut records {
        r[26] = result;
    }
    Some(records)
}

/// CPU seconds this process has used (user + system, all threads), from /proc (Linux).
fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    let rest = &stat[stat.rfind(')')? + 2..];
    let f: Vec<&str> = rest.split_whitespace().collect();
    // Fields 14 and 15 of stat(5), counted after the command name: utime, stime (in ticks
    // of 1/100 s on Linux).
    let ticks: f64 = f.get(11)?.parse::<f64>().ok()? + f.get(12)?.parse::<f64>().ok()?;
    Some(ticks / 100.0)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let usage = "usage: nnue_datagen OUT [--games N] [--positions N] [--nodes N] [--threads T] \
                 [--seed S] [--random-plies P] [--check-nodes N] [--append] [--eval E]";
    if args.len() < 2 || args[1].starts_with("--") {
        eprintln!("{usage}");
        std::process::exit(2);
    }
    let (mut games, mut positions, mut threads, mut seed, mut append) =
        (0u64, 0u64, 1u64, 1, false);
    let mut eval = String::from("<embedded>");
    let mut cfg = Config {
        nodes: 5000,
        check_nodes: 2000,
        random_plies: 8,
    };
    let mut i = 2;
    while i < args.len() {
        let val = || -> u64 {
            args.get(i + 1)
                .and_then(|v| v.parse().ok())
                .unwrap_or_else(|| {
                    eprintln!("{usage}");
                    std::process::exit(2)
                })
        };
        match args[i].as_str() {
            "--games" => games = val(),
            "--positions" => positions = val(),
            "--nodes" => cfg.nodes = val(),
            "--threads" => threads = val().max(1),
            "--seed" => seed = val(),
            "--random-plies" => cfg.random_plies = val() as u32,
            "--check-nodes" => cfg.check_nodes = val(),
            "--eval" => {
                eval = args.get(i + 1).cloned().unwrap_or_else(|| {
                    eprintln!("{usage}");
                    std::process::exit(2)
                });
            }
            "--append" => {
                append = true;
                i += 1;
                continue;
            }
            _ => {
                eprintln!("{usage}");
                std::process::exit(2);
            }
        }
        i += 2;
    }
    if let Err(e) = Engine::new().set_option("EvalFile", &eval) {
        eprintln!("--eval {eval}: {e:?}");
        std::process::exit(2);
    }
    let file = std::fs::OpenOptions::new()
        .create(true)
        .write(true)
        .append(append)
        .truncate(!append)
        .open(&args[1])
        .expect("cannot open OUT");
    let out = Mutex::new(file);
    let (written, games_done, stop) =
        (AtomicU64::new(0), AtomicU64::new(0), AtomicBool::new(false));
    let start = std::time::Instant::now();
    let cpu0 = cpu_seconds().unwrap_or(0.0);
    let report = |n: u64, g: u64| {
        let wall = start.elapsed().as_secs_f64();
        let cpu = cpu_seconds().map_or(f64::NAN, |c| c - cpu0);
        eprintln!(
            "{g} games, {n} positions, {wall:.0} s wall, {cpu:.0} s cpu: {:.0} positions/h, \
             {:.1} cpu s per 1000 positions",
            n as f64 * 3600.0 / wall.max(1e-9),
            cpu * 1000.0 / (n as f64).max(1.0)
        );
    };
    std::thread::scope(|s| {
        for t in 0..threads {
            let (out, written, games_done, stop, cfg, report, eval) =
                (&out, &written, &games_done, &stop, &cfg, &report, &eval);
            std::thread::Builder::new()
                .stack_size(64 << 20)
                .spawn_scoped(s, move || {
                    let mut engine = Engine::new();
                    engine.set_option("EvalFile", eval).expect("checked above");
                    let mut g = t;
                    while !stop.load(Ordering::Relaxed) && (games == 0 || g < games) {
                        let records = play(&mut engine, cfg, seed, g).unwrap_or_default();
                        g += threads;
                        let bytes: Vec<u8> = records.iter().flatten().copied().collect();
                        {
                            let mut o = out.lock().unwrap();
                            o.write_all(&bytes).expect("write failed");
                        }
                        let n = written.fetch_add(records.len() as u64, Ordering::Relaxed)
                            + records.len() as u64;
                        let done = games_done.fetch_add(1, Ordering::Relaxed) + 1;
                        if positions != 0 && n >= positions {
                            stop.store(true, Ordering::Relaxed);
                        }
                        if done % 20 == 0 {
                            report(n, done);
                        }
                    }
                })
                .unwrap();
        }
    });
    out.lock().unwrap().flush().unwrap();
    report(
        written.load(Ordering::Relaxed),
        games_done.load(Ordering::Relaxed),
    );
}
