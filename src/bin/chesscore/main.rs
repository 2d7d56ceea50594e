//! `chesscore` command line: a UCI engine, perft, divide, a search and a perft benchmark.
//!
//! ```text
//! chesscore                 (no arguments: speaks UCI on stdin and stdout)
//! chesscore perft [--divide] [--full] [--threads N] FEN DEPTH
//! chesscore bench [DEPTH]
//! chesscore perftbench [--full] [DEPTH]
//! chesscore dice [--rules RULES] [--opponent PLAYER] [--color COLOR] [--seed N]
//!                [--movetime MS] [--depth N] [--threads N]
//! chesscore dice match [--rules RULES] [--a PLAYER] [--b PLAYER] [--games N]
//!                      [--movetime MS] [--depth N] [--concurrency K] [--seed N]
//!                      [--threads N]
//! chesscore dice selfplay [--rules RULES] [--games N] [--seed N] [--white PLAYER]
//!                         [--black PLAYER] [--max-turns N] | --verify FILE
//! chesscore --help | --version
//! ```
//! FEN may be `startpos` or `kiwipete`.
//!
//! Without arguments it is a UCI engine ([`chesscore::uci`]): it reads commands until `quit`
//! or the end of input (which acts as `quit`: a running search is stopped and its `bestmove`
//! printed) and exits 0; bad commands are answered with `info string` and never end it.
//!
//! Behaves as a Unix tool: output goes through one locked, buffered stdout (in UCI mode, a
//! shared stdout written and flushed a whole line at a time, by the input and the search
//! thread) and every write error is handled (a closed pipe, as in
//! `chesscore perft startpos 6 | head -1`, ends the program quietly with status 0; another
//! write error, or an error reading stdin in UCI mode, is reported with status 1); a bad
//! argument (unknown command or option, missing or extra argument, malformed number, invalid
//! FEN, an argument that is not UTF-8) gets one line on stderr and status 2; `--help` and
//! `--version` print to stdout and exit 0.
//!
//! One module per command: [`perft`] (perft and perftbench), [`bench`](mod@bench), [`dice`]
//! (its modes in `dice/`) and [`uci`]; this file holds the dispatch and what they share.

mod bench;
mod dice;
/// The Dice Chess search's named configurations (shared with the lab tools and the tests).
#[path = "../../../lab/dice_configs.rs"]
mod dice_configs;
mod perft;
mod uci;

use std::io::{self, BufWriter, Write};
use std::process::ExitCode;

/// Most worker threads `--threads` accepts (the C ABI's `chess_perftParallel` limit).
const MAX_THREADS: usize = 256;

const HELP: &str = "\
chesscore: chess engine; UCI, perft and benchmarks

usage:
  chesscore
  chesscore perft [--divide] [--full] [--threads N] FEN DEPTH
  chesscore bench [DEPTH]
  chesscore perftbench [--full] [DEPTH]
  chesscore dice [--rules RULES] [--opponent PLAYER] [--color COLOR] [--seed N]
  chesscore dice match [--a PLAYER] [--b PLAYER] [--games N] [--movetime MS] [OPTIONS]
  chesscore dice selfplay [OPTIONS] | --verify FILE
  chesscore --help | --version

Without arguments, chesscore is a UCI engine: it reads UCI commands on stdin and answers on
stdout until `quit` or the end of input.

FEN may be a full FEN string (quoted, one argument), `startpos` or `kiwipete`.
`chesscore COMMAND --help` describes a command.

  -h, --help     print this help
  -V, --version  print the version
";

/// Why the program stops short of success.
enum Failure {
    /// A bad command line: the command (`chesscore` or `chesscore perft`...) and the problem.
    Usage(&'static str, String),
    /// Writing to stdout failed.
    Output(io::Error),
    /// Reading stdin failed (UCI mode).
    Input(io::Error),
}

impl From<io::Error> for Failure {
    fn from(e: io::Error) -> Self {
        Failure::Output(e)
    }
}

fn usage_error(cmd: &'static str, msg: impl Into<String>) -> Failure {
    Failure::Usage(cmd, msg.into())
}

/// An option rather than an operand: starts with `-`, but is not `-` alone or a negative
/// number (an operand, so that `-1` as DEPTH is reported as a bad number).
fn is_option(arg: &str) -> bool {
    arg.len() > 1 && arg.starts_with('-') && !arg[1..].starts_with(|c: char| c.is_ascii_digit())
}

/// A command's arguments, once [`read_args`] has read its options.
enum Args<'a> {
    /// `-h` or `--help`: print the command's help.
    Help,
    /// The operands in order: the arguments that are not options, and all after `--`.
    Operands(Vec<&'a str>),
}

/// Reads a command's `args` in order: keeps the operands, `--` ends the options, `-h` or
/// `--help` stops there (an error before it counts), any other option goes to `option` with
/// the arguments after it, from which it takes its value if it has one.
fn read_args<'a>(
    args: &'a [String],
    mut option: impl FnMut(&str, &mut std::slice::Iter<'a, String>) -> Result<(), Failure>,
) -> Result<Args<'a>, Failure> {
    let mut operands = Vec::new();
    let mut options_done = false;
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        if options_done || !is_option(arg) {
            operands.push(arg.as_str());
            continue;
        }
        match arg.as_str() {
            "--" => options_done = true,
            "-h" | "--help" => return Ok(Args::Help),
            other => option(other, &mut it)?,
        }
    }
    Ok(Args::Operands(operands))
}

/// Runs the command that `args` names (never empty: no arguments is UCI mode, see `main`).
fn run(out: &mut impl Write) -> Result<(), Failure> {
    let mut args = Vec::new();
    for (i, arg) in std::env::args_os().skip(1).enumerate() {
        match arg.into_string() {
            Ok(s) => args.push(s),
            Err(bad) => {
                return Err(usage_error(
                    "chesscore",
                    format!("argument {} is not valid UTF-8: {bad:?}", i + 1),
                ))
            }
        }
    }
    match args.first().map(String::as_str) {
        Some("perft") => perft::perft_cmd(&args[1..], out),
        Some("bench") => bench::bench_cmd(&args[1..], out),
        Some("perftbench") => perft::perftbench_cmd(&args[1..], out),
        Some("dice") => dice::dice_cmd(&args[1..], out),
        Some("-h" | "--help") => Ok(out.write_all(HELP.as_bytes())?),
        Some("-V" | "--version") => Ok(writeln!(out, "chesscore {}", env!("CARGO_PKG_VERSION"))?),
        Some(opt) if is_option(opt) => {
            Err(usage_error("chesscore", format!("unknown option '{opt}'")))
        }
        Some(cmd) => Err(usage_error(
            "chesscore",
            format!("unknown command '{cmd}' (commands: perft, bench, perftbench, dice)"),
        )),
        None => unreachable!("no arguments is UCI mode"),
    }
}

fn main() -> ExitCode {
    let result = if std::env::args_os().len() <= 1 {
        // UCI: the search thread writes too, so stdout is not held locked here.
        uci::uci_cmd()
    } else {
        let mut out = BufWriter::new(io::stdout().lock());
        let result = run(&mut out).and_then(|()| Ok(out.flush()?));
        // Flushed, or the flush failed: no second try when `out` goes.
        drop(out.into_parts());
        result
    };
    // Messages to stderr are best effort: a closed stderr must not panic either.
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure::Usage(cmd, msg)) => {
            let _ = writeln!(io::stderr(), "{cmd}: {msg} (see '{cmd} --help')");
            ExitCode::from(2)
        }
        // The reader is gone (`| head`, `| true`): nobody wants the rest, which is success.
        Err(Failure::Output(e)) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(Failure::Output(e)) => {
            let _ = writeln!(io::stderr(), "chesscore: error writing to stdout: {e}");
            ExitCode::from(1)
        }
        Err(Failure::Input(e)) => {
            let _ = writeln!(io::stderr(), "chesscore: error reading stdin: {e}");
            ExitCode::from(1)
        }
    }
}
