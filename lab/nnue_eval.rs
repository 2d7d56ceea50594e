//! The integer output of a `.nnue` file for given positions, computed straight from
//! docs/nnue.md (i64, the trainer's implementation, independent of `src/eval/nnue/`): expected
//! values for the inference's tests.
//!
//! ```text
//! cargo run --release --features lab --example nnue_eval -- NET [FEN...]
//! ```
//! Reads NET with the loader's checks, then prints `FEN;EVAL` for each FEN (from the command
//! line, or one a line from standard input), EVAL in centipawns from the side to move's view.

#[path = "nnue_data.rs"]
mod nnue_data;
#[path = "nnue_model.rs"]
mod nnue_model;

use chesscore::Position;
use std::io::BufRead;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(path) = args.first() else {
        eprintln!("usage: nnue_eval NET [FEN...]");
        std::process::exit(2);
    };
    let bytes = std::fs::read(path).unwrap_or_else(|e| {
        eprintln!("{path}: {e}");
        std::process::exit(1)
    });
    let net = nnue_model::from_bytes(&bytes).unwrap_or_else(|e| {
        eprintln!("{path}: {e}");
        std::process::exit(1)
    });
    let fens: Vec<String> = if args.len() > 1 {
        args[1..].to_vec()
    } else {
        std::io::stdin()
            .lock()
            .lines()
            .map_while(Result::ok)
            .collect()
    };
    for fen in fens.iter().map(|f| f.trim()).filter(|f| !f.is_empty()) {
        match Position::from_fen(fen) {
            Ok(pos) => {
                let r = nnue_data::encode(&pos, 0, nnue_data::DRAW);
                println!("{fen};{}", nnue_model::eval_int(&net, &r));
            }
            Err(e) => {
                eprintln!("{fen}: {e:?}");
                std::process::exit(1);
            }
        }
    }
}
