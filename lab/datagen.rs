//! Self-play data for the Texel tuner (`lab/tune.rs`).
//!
//! ```text
//! cargo run --release --features lab --example datagen -- OUT GAMES [NODES] [THREADS] [SEED]
//! ```
//! Plays GAMES games of the engine against itself, NODES nodes a move (default 8000), on
//! THREADS threads (default 1, one engine each), each game from the start position after 8
//! random legal plies (seeded: the same SEED gives the same games on one thread). Games end by
//! the rules (mate, stalemate, 50 moves, threefold, insufficient material) or by adjudication:
//! a win when the score stays beyond ±1000 for 6 plies in a row, a draw after ply 300.
//! Every position from ply 16 on that is not in check and whose best move is quiet is written
//! as `FEN;RESULT` (1.0, 0.5 or 0.0 for White), one line each.

use chesscore::search::{Engine, Limits};
use chesscore::{GameStatus, Position};
use std::io::Write;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

fn play(engine: &mut Engine, rng: &mut Rng, nodes: u64) -> Option<(Vec<String>, f32)> {
    let mut pos = Position::startpos();
    for _ in 0..8 {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return None;
        }
        let m = moves.as_slice()[(rng.next() % moves.len() as u64) as usize];
        pos.try_make_move(m).ok()?;
    }
    engine.new_game();
    let limits = Limits {
        nodes,
        ..Limits::default()
    };
    let mut fens = Vec::new();
    let mut streak = 0i32;
    let result;
    let mut ply = 8;
    loop {
        match pos.status() {
            GameStatus::Checkmate => {
                result = if pos.side_to_move() == chesscore::Color::WHITE {
                    0.0
                } else {
                    1.0
                };
                break;
            }
            GameStatus::Ongoing => {}
            _ => {
                result = 0.5;
                break;
            }
        }
        if ply > 300 {
            result = 0.5;
            break;
        }
        let r = engine.search(&pos, &limits, &mut |_| {});
        let m = r.best_move?;
        let white_score = if pos.side_to_move() == chesscore::Color::WHITE {
            r.score_internal
        } else {
            -r.score_internal
        };
        if white_score.abs() > 1000 {
            if streak.signum() == white_score.signum() {
                streak += white_score.signum();
            } else {
                streak = white_score.signum();
            }
        } else {
            streak = 0;
        }
        if streak.abs() >= 6 {
            result = if streak > 0 { 1.0 } else { 0.0 };
            break;
        }
        if ply >= 16 && !pos.in_check() && !m.is_capture() && !m.is_promotion() {
            fens.push(pos.to_fen());
        }
        if pos.try_make_move(m).is_err() {
            pos.compact_history();
            pos.try_make_move(m).ok()?;
        }
        ply += 1;
    }
    Some((fens, result))
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 3 {
        eprintln!("usage: datagen OUT GAMES [NODES] [THREADS] [SEED]");
        std::process::exit(2);
    }
    let out = Arc::new(Mutex::new(std::io::BufWriter::new(
        std::fs::File::create(&args[1]).expect("cannot create OUT"),
    )));
    let games: usize = args[2].parse().expect("GAMES");
    let nodes: u64 = args.get(3).map_or(8000, |s| s.parse().expect("NODES"));
    let threads: usize = args.get(4).map_or(1, |s| s.parse().expect("THREADS"));
    let seed: u64 = args.get(5).map_or(1, |s| s.parse().expect("SEED"));
    let next = Arc::new(AtomicUsize::new(0));
    let positions = Arc::new(AtomicUsize::new(0));
    let start = std::time::Instant::now();
    std::thread::scope(|s| {
        for t in 0..threads {
            let (out, next, positions) = (out.clone(), next.clone(), positions.clone());
            std::thread::Builder::new()
                .stack_size(64 << 20)
                .spawn_scoped(s, move || {
                    let mut engine = Engine::new();
                    loop {
                        let g = next.fetch_add(1, Ordering::Relaxed);
                        if g >= games {
                            break;
                        }
                        let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15)
                            ^ ((g as u64 + 1) * 0x2545_F491_4F6C_DD1D));
                        if let Some((fens, result)) = play(&mut engine, &mut rng, nodes) {
                            let mut o = out.lock().unwrap();
                            for f in &fens {
                                writeln!(o, "{f};{result:.1}").unwrap();
                            }
                            let n = positions.fetch_add(fens.len(), Ordering::Relaxed) + fens.len();
                            if g % 50 == 0 {
                                eprintln!(
                                    "thread {t}: game {g}, {n} positions, {:.0} s",
                                    start.elapsed().as_secs_f64()
                                );
                                o.flush().unwrap();
                            }
                        }
                    }
                })
                .unwrap();
        }
    });
    out.lock().unwrap().flush().unwrap();
    eprintln!(
        "{} positions in {:.0} s",
        positions.load(Ordering::Relaxed),
        start.elapsed().as_secs_f64()
    );
}
