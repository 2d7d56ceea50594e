//! `chesscore bench`: the search benchmark, whose node count is the search's signature.

use crate::{read_args, usage_error, Args, Failure};
use chesscore::uci::bench;
use std::io::{self, Write};

/// Deepest search `bench` accepts (the search's ply limit).
const MAX_BENCH_DEPTH: u32 = chesscore::search::MAX_PLY as u32 - 1;

const BENCH_HELP: &str = "\
usage: chesscore bench [DEPTH]

Searches a fixed set of positions to a fixed depth, each from a new game with one thread and
a 16 MiB hash table, and prints the total time, nodes and nodes per second on stdout (a line
for each position goes to stderr). The node count is the same on every run: a signature of
the search and the evaluation.

  DEPTH          plies, 1 to 127 (default DEFAULT)
  -h, --help     print this help
";

const BENCH: &str = "chesscore bench";

pub(crate) fn bench_cmd(args: &[String], out: &mut impl Write) -> Result<(), Failure> {
    let read = read_args(args, |option, _| {
        Err(usage_error(BENCH, format!("unknown option '{option}'")))
    })?;
    let operands = match read {
        Args::Help => {
            let help = BENCH_HELP.replace("DEFAULT", &bench::DEFAULT_DEPTH.to_string());
            return Ok(out.write_all(help.as_bytes())?);
        }
        Args::Operands(operands) => operands,
    };
    let depth = match operands[..] {
        [] => bench::DEFAULT_DEPTH,
        [depth] => match depth.parse::<u32>() {
            Ok(d) if (1..=MAX_BENCH_DEPTH).contains(&d) => d,
            _ => {
                return Err(usage_error(
                    BENCH,
                    format!(
                        "DEPTH must be a whole number from 1 to {MAX_BENCH_DEPTH}, got '{depth}'"
                    ),
                ))
            }
        },
        [_, extra, ..] => return Err(usage_error(BENCH, format!("unexpected argument '{extra}'"))),
    };
    let count = bench::BENCH_POSITIONS.len();
    let (nodes, time) = bench::bench_with(depth, &mut |e| {
        let best = e
            .result
            .best_move
            .map_or("0000".to_owned(), |m| m.to_string());
        // Progress, best effort: a closed stderr does not stop the benchmark.
        let _ = writeln!(
            io::stderr(),
            "position {:>2}/{count}: bestmove {best:<5} nodes {:>10} time {:>6} ms  {}",
            e.index + 1,
            e.result.nodes,
            e.time.as_millis(),
            e.fen
        );
    });
    writeln!(out, "Total time (ms): {}", time.as_millis())?;
    writeln!(out, "Nodes searched: {nodes}")?;
    writeln!(
        out,
        "Nodes/second: {}",
        u128::from(nodes) * 1_000_000 / time.as_micros().max(1)
    )?;
    Ok(())
}
