//! The data behind the Dice Chess time manager (`src/dice/search/time.rs`): how many turns
//! a side still plays, by the material left, and how far past its time limit a search
//! returns.
//!
//! The engine plays itself at a fixed time a turn (`MS`) on `GAMES` seeded games of each
//! rule set (one game a dice seed: with the same engine on both sides the second game of a
//! pair would be the first again). Before every turn it notes the material on the board
//! (both sides, pawn 1, knight and bishop 3, rook 5, queen 9: 78 at the start); when the
//! game ends, each noted turn gets the turns its side played from there on, that one
//! counted. Printed: game lengths (mean, median, 90th percentile, longest, in turns of both
//! sides), and the mean turns left for the side to move by material bucket. Around every
//! search the wall time is measured; the largest excess over `MS` is printed.
//!
//! ```text
//! cargo run --release --features lab --example dice_clock -- MS GAMES SEED
//! cargo run --release --features lab --example dice_clock -- 5 200 7000
//! ```

use chesscore::dice::player::{sample_roll, Rng};
use chesscore::dice::search::player::EnginePlayer;
use chesscore::dice::search::{DiceLimits, SearchConfig};
use chesscore::dice::{DiceGame, Phase, Player, Rules};
use chesscore::{Color, Move, PieceType};
use std::time::Instant;

const BUCKET: u32 = 10;

fn material(g: &DiceGame) -> u32 {
    let pos = g.position();
    let mut m = 0;
    for c in [Color::WHITE, Color::BLACK] {
        for (kind, v) in [
            (PieceType::PAWN, 1),
            (PieceType::KNIGHT, 3),
            (PieceType::BISHOP, 3),
            (PieceType::ROOK, 5),
            (PieceType::QUEEN, 9),
        ] {
            m += v * pos.pieces(c, kind).count();
        }
    }
    m
}

fn main() {
    let a: Vec<String> = std::env::args().collect();
    if a.len() != 4 {
        eprintln!("usage: dice_clock MS GAMES SEED");
        std::process::exit(2);
    }
    let ms: u64 = a[1].parse().expect("MS");
    let games: u64 = a[2].parse().expect("GAMES");
    let seed: u64 = a[3].parse().expect("SEED");
    println!("engine against itself, {ms} ms a turn, {games} games a rule set, seed {seed}");
    for rules in Rules::ALL {
        let mut player = EnginePlayer::new(SearchConfig::ALL, DiceLimits::movetime(ms), 16);
        let mut lengths: Vec<u32> = Vec::new();
        // Per bucket: turns noted, their turns left summed.
        let mut buckets = [(0u64, 0u64); 8];
        let mut over_ms = 0f64;
        let mut searches = 0u64;
        for i in 0..games {
            let mut dice = Rng(seed + i);
            let mut g = DiceGame::new(rules);
            player.engine().new_game();
            // (side, material) before each turn.
            let mut noted: Vec<(Color, u32)> = Vec::new();
            let mut turns = 0u32;
            while turns < 1000 {
                let Some(roll) = sample_roll(&g, &mut dice) else {
                    break;
                };
                noted.push((g.side_to_move(), material(&g)));
                g.set_roll(roll).expect("a sampled roll");
                while g.phase() == Phase::AwaitingMove {
                    let list = g.moves();
                    let m = if list.is_empty() {
                        Move::NONE
                    } else {
                        let t = Instant::now();
                        let m = player.choose(&g, list.as_slice());
                        let took = t.elapsed().as_secs_f64() * 1000.0;
                        searches += 1;
                        over_ms = over_ms.max(took - ms as f64);
                        m
                    };
                    g.make_move(m).expect("the engine's move");
                }
                turns += 1;
            }
            lengths.push(turns);
            for (k, &(side, mat)) in noted.iter().enumerate() {
                let left = noted[k..].iter().filter(|n| n.0 == side).count() as u64;
                let b = &mut buckets[((mat / BUCKET) as usize).min(7)];
                b.0 += 1;
                b.1 += left;
            }
        }
        lengths.sort_unstable();
        let n = lengths.len();
        let mean = lengths.iter().map(|&l| l as f64).sum::<f64>() / n as f64;
        println!(
            "{rules}: game length in turns: mean {mean:.1}, median {}, 90th percentile {}, longest {}; \
             {searches} engine moves, largest excess over {ms} ms: {over_ms:.2} ms",
            lengths[n / 2],
            lengths[n * 9 / 10],
            lengths[n - 1]
        );
        println!("  material  turns noted  mean turns left for the side to move");
        for (b, &(count, sum)) in buckets.iter().enumerate() {
            if count > 0 {
                let lo = b as u32 * BUCKET;
                let hi = if b == 7 { 78 } else { lo + BUCKET - 1 };
                println!(
                    "  {lo:>2}-{hi:<2}    {count:>11}  {:.1}",
                    sum as f64 / count as f64
                );
            }
        }
    }
}
