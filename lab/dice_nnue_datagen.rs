//! Self-play records for a learned Dice Chess evaluation (issue 30 item 1), in the NNUE
//! trainer's 32-byte records (docs/nnue.md "Training data"), so `lab/nnue_train.rs` fits a
//! net of the chess net's shape to Dice Chess values and outcomes.
//!
//! ```text
//! cargo run --release --features lab --example dice_nnue_datagen -- RULES OUT GAMES
//!     [--threads 2] [--seed 1] [--players engine:d1] [--depth 2]
//! ```
//! Plays GAMES seeded self-play games of RULES as `dice_equity_calibrate` does (both sides the
//! same `dice_common::make_player` player; the first 4 turns each move random with chance
//! 1/2, none later), and writes one record for every position awaiting its roll that the
//! search does not prove won or lost: the board, the pre-roll value of
//! `DiceEngine::evaluate` at `--depth` ([`SearchConfig::ALL`], a fresh table per game) as
//! centipawns on the trainer's logistic scale (`400 ln(e / (1 - e))`, `e` the expected score,
//! from White's point of view, clamped to ±4000), and the game's result. Game `g`'s records
//! depend only on the seed and `g`; they are written game by game, so the file order depends
//! on the threads. The trainer's `--lambda` blends the value (1) and the result (0).

#[path = "dice_common/mod.rs"]
mod common;
#[path = "nnue_data.rs"]
mod nnue_data;

use chesscore::dice::search::{expected_score, win_in, DiceEngine, DiceLimits, SearchConfig};
use chesscore::dice::Rules;
use chesscore::Color;
use nnue_data::{encode, BLACK_WON, DRAW, WHITE_WON};
use std::io::Write as _;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let usage = "usage: dice_nnue_datagen RULES OUT GAMES [--threads N] [--seed S] \
                 [--players P] [--depth D]";
    if args.len() < 4 {
        eprintln!("{usage}");
        std::process::exit(2);
    }
    let rules = Rules::from_name(&args[1]).unwrap_or_else(|| {
        eprintln!("{usage}");
        std::process::exit(2)
    });
    let games: usize = args[3].parse().expect("GAMES");
    let (mut threads, mut seed, mut player, mut depth) =
        (2usize, 1u64, "engine:d1".to_string(), 2u32);
    let mut i = 4;
    while i + 1 < args.len() {
        let v = &args[i + 1];
        match args[i].as_str() {
            "--threads" => threads = v.parse().expect("threads"),
            "--seed" => seed = v.parse().expect("seed"),
            "--players" => player = v.clone(),
            "--depth" => depth = v.parse().expect("depth"),
            _ => {
                eprintln!("{usage}");
                std::process::exit(2);
            }
        }
        i += 2;
    }
    let out = Mutex::new(std::io::BufWriter::new(
        std::fs::File::create(&args[2]).expect("OUT"),
    ));
    let (next, done, written) = (
        AtomicUsize::new(0),
        AtomicUsize::new(0),
        AtomicUsize::new(0),
    );
    let start = std::time::Instant::now();
    std::thread::scope(|s| {
        for _ in 0..threads.max(1) {
            s.spawn(|| {
                let mut engine = DiceEngine::new(16);
                engine.set_config(SearchConfig::ALL);
                loop {
                    let g = next.fetch_add(1, Ordering::Relaxed);
                    if g >= games {
                        break;
                    }
                    let p = common::selfplay_game(rules, &player, seed, g as u64);
                    let result = if p.white_score > 0.75 {
                        WHITE_WON
                    } else if p.white_score < 0.25 {
                        BLACK_WON
                    } else {
                        DRAW
                    };
                    engine.new_game();
                    let mut bytes = Vec::new();
                    for pos in &p.positions {
                        let r = engine
                            .evaluate(pos, &DiceLimits::depth(depth), &mut |_| {})
                            .expect("a game awaiting its roll");
                        if win_in(r.value).is_some() {
                            continue;
                        }
                        let e = expected_score(r.value).clamp(1e-4, 1.0 - 1e-4);
                        let cp = (400.0 * (e / (1.0 - e)).ln())
                            .round()
                            .clamp(-4000.0, 4000.0);
                        let cp = if pos.side_to_move() == Color::WHITE {
                            cp
                        } else {
                            -cp
                        };
                        bytes.extend_from_slice(&encode(pos.position(), cp as i32, result));
                    }
                    written.fetch_add(bytes.len() / nnue_data::RECORD_BYTES, Ordering::Relaxed);
                    out.lock().unwrap().write_all(&bytes).expect("write");
                    let d = done.fetch_add(1, Ordering::Relaxed) + 1;
                    if d % 200 == 0 || d == games {
                        eprintln!(
                            "{d} games, {} positions, {:.0} s",
                            written.load(Ordering::Relaxed),
                            start.elapsed().as_secs_f64()
                        );
                    }
                }
            });
        }
    });
    out.lock().unwrap().flush().expect("write");
}
