//! `chesscore perft` (perft and divide) and `chesscore perftbench` (perft timed on two
//! positions).

use crate::{read_args, usage_error, Args, Failure, MAX_THREADS};
use chesscore::{PerftMode, Position, START_FEN};
use std::io::Write;
use std::time::Instant;

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

/// Deepest perft accepted: far beyond any count that finishes, well within the stack (the
/// search recurses once per ply, on worker threads' 2 MiB stacks with `--threads`).
const MAX_DEPTH: u32 = 256;

const PERFT_HELP: &str = "\
usage: chesscore perft [--divide] [--full] [--threads N] FEN DEPTH

Counts the leaf nodes of the legal move tree DEPTH plies deep from FEN and prints the
count, the time and the speed.

  FEN            a FEN string (quoted, one argument; read leniently, as python-chess
                 reads FEN: missing counters, a fullmove number of 0), `startpos` or
                 `kiwipete`
  DEPTH          plies, 0 to 256
  --divide       first print each root move with the count below it (one thread)
  --full         make every leaf move (default: count the last ply's moves in bulk)
  --threads N    search on N threads, 1 to 256 (default 1)
  -h, --help     print this help
";

const PERFTBENCH_HELP: &str = "\
usage: chesscore perftbench [--full] [DEPTH]

Times perft on the start position (depth 6) and Kiwipete (depth 5), a line for each as it
finishes, then the total.

  DEPTH          run both positions to DEPTH plies instead, 0 to 256
  --full         make every leaf move (default: count the last ply's moves in bulk)
  -h, --help     print this help
";

const PERFT: &str = "chesscore perft";
const PERFTBENCH: &str = "chesscore perftbench";

fn parse_depth(cmd: &'static str, s: &str) -> Result<u32, Failure> {
    match s.parse::<u32>() {
        Ok(d) if d <= MAX_DEPTH => Ok(d),
        _ => Err(usage_error(
            cmd,
            format!("DEPTH must be a whole number from 0 to {MAX_DEPTH}, got '{s}'"),
        )),
    }
}

fn parse_threads(s: Option<&str>) -> Result<usize, Failure> {
    let Some(s) = s else {
        return Err(usage_error(PERFT, "option '--threads' needs a value"));
    };
    match s.parse::<usize>() {
        Ok(t) if (1..=MAX_THREADS).contains(&t) => Ok(t),
        _ => Err(usage_error(
            PERFT,
            format!("--threads needs a whole number from 1 to {MAX_THREADS}, got '{s}'"),
        )),
    }
}

fn mode_name(mode: PerftMode) -> &'static str {
    if mode == PerftMode::Bulk {
        "bulk"
    } else {
        "full"
    }
}

fn resolve_fen(s: &str) -> &str {
    match s {
        "startpos" => START_FEN,
        "kiwipete" => KIWIPETE,
        other => other,
    }
}

pub(crate) fn perft_cmd(args: &[String], out: &mut impl Write) -> Result<(), Failure> {
    let mut divide = false;
    let mut mode = PerftMode::Bulk;
    let mut threads = 1usize;
    let read = read_args(args, |option, it| {
        match option {
            "--divide" => divide = true,
            "--full" => mode = PerftMode::Full,
            "--threads" => threads = parse_threads(it.next().map(String::as_str))?,
            other => match other.strip_prefix("--threads=") {
                Some(value) => threads = parse_threads(Some(value))?,
                None => return Err(usage_error(PERFT, format!("unknown option '{other}'"))),
            },
        }
        Ok(())
    })?;
    let operands = match read {
        Args::Help => return Ok(out.write_all(PERFT_HELP.as_bytes())?),
        Args::Operands(operands) => operands,
    };
    let (fen, depth) = match operands[..] {
        [fen, depth] => (fen, depth),
        [] => return Err(usage_error(PERFT, "missing FEN and DEPTH")),
        [_] => return Err(usage_error(PERFT, "missing DEPTH")),
        [_, _, extra, ..] => {
            return Err(usage_error(
                PERFT,
                format!("unexpected argument '{extra}' (quote a FEN as one argument)"),
            ))
        }
    };
    let depth = parse_depth(PERFT, depth)?;
    if divide && threads > 1 {
        return Err(usage_error(
            PERFT,
            "--divide runs on one thread, drop --threads",
        ));
    }
    let mut pos = Position::from_fen_lenient(resolve_fen(fen))
        .map_err(|e| usage_error(PERFT, format!("invalid FEN '{fen}': {e}")))?;
    let start = Instant::now();
    let nodes = if divide {
        let rows = pos.perft_divide(depth, mode);
        for (m, n) in &rows {
            writeln!(out, "{m}: {n}")?;
        }
        writeln!(out)?;
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
    writeln!(out, "Nodes searched: {nodes}")?;
    writeln!(
        out,
        "Time: {:.3} s, {:.1} Mnodes/s ({} perft, {} thread(s), {} sliders)",
        secs,
        nodes as f64 / secs.max(1e-9) / 1e6,
        mode_name(mode),
        threads,
        chesscore::attacks::Backend::detect().name()
    )?;
    Ok(())
}

pub(crate) fn perftbench_cmd(args: &[String], out: &mut impl Write) -> Result<(), Failure> {
    let mut mode = PerftMode::Bulk;
    let read = read_args(args, |option, _| match option {
        "--full" => {
            mode = PerftMode::Full;
            Ok(())
        }
        other => Err(usage_error(PERFTBENCH, format!("unknown option '{other}'"))),
    })?;
    let operands = match read {
        Args::Help => return Ok(out.write_all(PERFTBENCH_HELP.as_bytes())?),
        Args::Operands(operands) => operands,
    };
    let depth = match operands[..] {
        [] => None,
        [depth] => Some(parse_depth(PERFTBENCH, depth)?),
        [_, extra, ..] => {
            return Err(usage_error(
                PERFTBENCH,
                format!("unexpected argument '{extra}'"),
            ))
        }
    };
    let cases: [(&str, &str, u32); 2] = [("startpos", START_FEN, 6), ("kiwipete", KIWIPETE, 5)];
    let mut total_nodes = 0u64;
    let mut total_secs = 0.0;
    for (name, fen, default_depth) in cases {
        let depth = depth.unwrap_or(default_depth);
        let mut pos = Position::from_fen(fen).expect("bench FEN is valid");
        let start = Instant::now();
        let nodes = pos.perft_mode(depth, mode);
        let secs = start.elapsed().as_secs_f64();
        total_nodes += nodes;
        total_secs += secs;
        writeln!(
            out,
            "{name:<9} depth {depth}: {nodes:>11} nodes {secs:>7.3} s {:>8.1} Mnodes/s",
            nodes as f64 / secs.max(1e-9) / 1e6
        )?;
        // Each line as its position finishes, as on a terminal.
        out.flush()?;
    }
    writeln!(
        out,
        "total: {total_nodes} nodes {total_secs:.3} s {:.1} Mnodes/s ({} perft)",
        total_nodes as f64 / f64::max(total_secs, 1e-9) / 1e6,
        mode_name(mode)
    )?;
    Ok(())
}
