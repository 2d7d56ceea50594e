//! Self-play data for the Dice Chess evaluation tuner (`lab/dice_tune.rs`).
//!
//! ```text
//! cargo run --release --features lab --example dice_datagen -- OUT RULES GAMES [THREADS] [SEED] [PLAYERS] [NOISE]
//! ```
//! Plays GAMES games under RULES (`two-dice`, `one-die`, `three-dice`) on THREADS threads
//! (default 2), each side a player drawn from PLAYERS (comma-separated names as
//! `dice_eval_match` takes them; default `greedy,heuristic,eval`). Noise for variety: in the
//! first 4 turns each move is random with chance 1/2, later with chance NOISE (default 0.05). Every second
//! game state awaiting its roll from turn 2 on is written as `FEN;RESULT`, RESULT White's
//! score (1.0, 0.5 or 0.0). Games end by the rules or, drawn, after 400 turns. The same SEED
//! gives the same games.

#[path = "dice_common/mod.rs"]
mod common;

use chesscore::dice::player::Rng;
use chesscore::dice::Rules;
use std::io::Write;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 4 {
        eprintln!("usage: dice_datagen OUT RULES GAMES [THREADS] [SEED] [PLAYERS] [NOISE]");
        std::process::exit(2);
    }
    let out = Mutex::new(std::io::BufWriter::new(
        std::fs::File::create(&args[1]).expect("cannot create OUT"),
    ));
    let rules = Rules::from_name(&args[2]).expect("RULES");
    let games: usize = args[3].parse().expect("GAMES");
    let threads: usize = args.get(4).map_or(2, |s| s.parse().expect("THREADS"));
    let seed: u64 = args.get(5).map_or(1, |s| s.parse().expect("SEED"));
    let players: Vec<String> = args
        .get(6)
        .map_or("greedy,heuristic,eval", String::as_str)
        .split(',')
        .map(str::to_string)
        .collect();
    let late_noise: f64 = args.get(7).map_or(0.05, |s| s.parse().expect("NOISE"));
    let next = AtomicUsize::new(0);
    let written = AtomicUsize::new(0);
    let score = Mutex::new([0.0f64; 2]);
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| loop {
                let g = next.fetch_add(1, Ordering::Relaxed);
                if g >= games {
                    break;
                }
                let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ (g as u64 + 1));
                let pw = &players[rng.below(players.len() as u64) as usize];
                let pb = &players[rng.below(players.len() as u64) as usize];
                let mut w = common::make_player(pw, rules, Rng(rng.next_u64()));
                let mut b = common::make_player(pb, rules, Rng(rng.next_u64()));
                let mut dice = Rng(rng.next_u64());
                let mut noise = Rng(rng.next_u64());
                let p = common::play(
                    rules,
                    w.as_mut(),
                    b.as_mut(),
                    &mut dice,
                    (4, 0.5, late_noise),
                    &mut noise,
                    true,
                );
                let mut text = String::new();
                for (i, pos) in p.positions.iter().enumerate() {
                    if i >= 4 && rng.below(2) == 0 {
                        text.push_str(&format!("{};{:.1}\n", pos.to_fen(), p.white_score));
                        written.fetch_add(1, Ordering::Relaxed);
                    }
                }
                out.lock().unwrap().write_all(text.as_bytes()).unwrap();
                let mut sc = score.lock().unwrap();
                sc[0] += p.white_score;
                sc[1] += 1.0;
            });
        }
    });
    out.lock().unwrap().flush().unwrap();
    let sc = score.lock().unwrap();
    eprintln!(
        "{rules}: {games} games, White scored {:.1}%, {} positions",
        100.0 * sc[0] / sc[1].max(1.0),
        written.load(Ordering::Relaxed)
    );
}
