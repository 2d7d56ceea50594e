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

use chesscore::dice::eval::heuristic::HeuristicPlayer;
use chesscore::dice::pgn::{result_text, selfplay, termination_text, verify_pgn};
use chesscore::dice::player::{sample_roll, Rng};
use chesscore::dice::search::arena::{run_match, tally, GameResult, MatchGame};
use chesscore::dice::search::player::EnginePlayer;
use chesscore::dice::search::{DiceLimits, SearchConfig};
use chesscore::dice::{DiceGame, DiceStatus, Player, PlayerKind, Rules};
use chesscore::uci::{bench, RunError, Uci};
use chesscore::{PerftMode, Position, START_FEN};
use std::io::BufRead;
use std::io::{self, BufWriter, Write};
use std::process::ExitCode;
use std::sync::{Arc, Mutex};
use std::time::Instant;

const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

/// Deepest perft accepted: far beyond any count that finishes, well within the stack (the
/// search recurses once per ply, on worker threads' 2 MiB stacks with `--threads`).
const MAX_DEPTH: u32 = 256;
/// Most worker threads `--threads` accepts (the C ABI's `chess_perftParallel` limit).
const MAX_THREADS: usize = 256;

/// Deepest search `bench` accepts (the search's ply limit).
const MAX_BENCH_DEPTH: u32 = chesscore::search::MAX_PLY as u32 - 1;

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

const BENCH_HELP: &str = "\
usage: chesscore bench [DEPTH]

Searches a fixed set of positions to a fixed depth, each from a new game with one thread and
a 16 MiB hash table, and prints the total time, nodes and nodes per second on stdout (a line
for each position goes to stderr). The node count is the same on every run: a signature of
the search and the evaluation.

  DEPTH          plies, 1 to 127 (default DEFAULT)
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

const DICE_HELP: &str = "\
usage: chesscore dice [--rules RULES] [--opponent PLAYER] [--color COLOR] [--seed N]
                      [--movetime MS] [--depth N] [--threads N]
       chesscore dice match [--rules RULES] [--a PLAYER] [--b PLAYER] [--games N]
                      [--movetime MS] [--depth N] [--concurrency K] [--seed N] [--threads N]
       chesscore dice selfplay [--rules RULES] [--games N] [--seed N] [--white PLAYER]
                               [--black PLAYER] [--max-turns N]
       chesscore dice selfplay --verify FILE

Dice Chess in the terminal against a built-in player: the dice are rolled for both sides,
the board is drawn, you type your moves in UCI form (e2e4, e7e8q; a three-dice turn one
micro-move at a time). Also: `moves` lists the moves the roll allows, `quit` ends.

`selfplay` plays seeded games between two built-in players and writes them as PGN (rolls
in comments, moves in UCI form, a pass as `--`, a Variant tag naming the rules); the same
seed gives the same games. `selfplay --verify FILE` reads such PGN (FILE `-`: stdin) and
replays every roll and move under the rules, checking each and the results.

`match` plays N games between players A and B on K threads, colours alternated: games 2i
and 2i+1 share the dice seed S+i (S: --seed) with A White in the first, so two matches are
independent samples only when their seeds lie at least N/2 apart (--seed 12 and --seed 13
share all but one dice seed). It prints a line per game and
the tally: wins, draws, losses, A's score and Elo with 95% error bars. Games that reach
--max-turns count as draws.

Players: engine (the expectimax search with Star1/Star2 and the table, default opponent),
expectimax (plain expectimax: same evaluation, same time, nothing pruned), heuristic (greedy
plus king exposure and king attack terms, like the published three-dice bots), random, greedy
(one ply: material and king safety). selfplay takes random and greedy only. engine:CONFIG
is the engine with one of the search's named configurations (plain, star1, star2, star2-tt,
all-exact, all: the default, all-noqs: without quiescence, plain-qs, all-exact-qs, all-qs:
quiescence in every rule set, all-notable, all-notypes, all-nosplit: all without the Lazy
SMP helpers' outcome split, all-nocache: all without the static-value cache, which every
other configuration and plain expectimax have, all-nosleep: all without the three-dice sleep
sets), for matches between versions of the search. engine@N and
engine:CONFIG@N search on N threads (Lazy SMP: results may differ from run to run, except
in the exact configurations; a configuration without the table uses one), e.g. --a engine@2 --b engine
with --concurrency 1, so that each game has the cores. An engine ending in /dN searches to
depth N every move whatever the time (e.g. engine:plain/d4 against engine:plain/d3: what one
turn of depth is worth).

  --rules RULES      two-dice (default), one-die or three-dice
  --opponent PLAYER  engine (default), expectimax, heuristic, random or greedy
  --movetime MS      engine and expectimax: time per move, 1 to 3600000 ms (default
                     1000 for play, 100 for match)
  --depth N          engine and expectimax: depth in turns, 1 to 64 (default: no limit)
  --a PLAYER         match: player A (default engine)
  --b PLAYER         match: player B (default greedy)
  --concurrency K    match: games at once, 1 to 256 (default 1)
  --hash MIB         engine and expectimax: table size, 1 to 4096 (default 16)
  --threads N        engine: search threads, 1 to 256, where the player has no @N
                     (default 1)
  --color COLOR      white (default) or black: the side you play
  --seed N           seed of the dice (and of the players), 0 to 2^64-1 (default: the
                     clock for play, 1 for selfplay; game i of selfplay uses N + i)
  --games N          selfplay games, 1 to 100000 (default 1)
  --white PLAYER     selfplay: White's player (default random)
  --black PLAYER     selfplay: Black's player (default greedy)
  --max-turns N      selfplay: stop a game after N turns, 1 to 100000 (default 1000)
  -h, --help         print this help
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

const PERFT: &str = "chesscore perft";
const BENCH: &str = "chesscore bench";
const PERFTBENCH: &str = "chesscore perftbench";
const DICE: &str = "chesscore dice";

fn usage_error(cmd: &'static str, msg: impl Into<String>) -> Failure {
    Failure::Usage(cmd, msg.into())
}

/// An option rather than an operand: starts with `-`, but is not `-` alone or a negative
/// number (an operand, so that `-1` as DEPTH is reported as a bad number).
fn is_option(arg: &str) -> bool {
    arg.len() > 1 && arg.starts_with('-') && !arg[1..].starts_with(|c: char| c.is_ascii_digit())
}

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

fn perft_cmd(args: &[String], out: &mut impl Write) -> Result<(), Failure> {
    let mut divide = false;
    let mut mode = PerftMode::Bulk;
    let mut threads = 1usize;
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
            "-h" | "--help" => return Ok(out.write_all(PERFT_HELP.as_bytes())?),
            "--divide" => divide = true,
            "--full" => mode = PerftMode::Full,
            "--threads" => threads = parse_threads(it.next().map(String::as_str))?,
            other => match other.strip_prefix("--threads=") {
                Some(value) => threads = parse_threads(Some(value))?,
                None => return Err(usage_error(PERFT, format!("unknown option '{other}'"))),
            },
        }
    }
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

fn perftbench_cmd(args: &[String], out: &mut impl Write) -> Result<(), Failure> {
    let mut mode = PerftMode::Bulk;
    let mut operands = Vec::new();
    let mut options_done = false;
    for arg in args {
        if options_done || !is_option(arg) {
            operands.push(arg.as_str());
            continue;
        }
        match arg.as_str() {
            "--" => options_done = true,
            "-h" | "--help" => return Ok(out.write_all(PERFTBENCH_HELP.as_bytes())?),
            "--full" => mode = PerftMode::Full,
            other => return Err(usage_error(PERFTBENCH, format!("unknown option '{other}'"))),
        }
    }
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

fn bench_cmd(args: &[String], out: &mut impl Write) -> Result<(), Failure> {
    let mut operands = Vec::new();
    let mut options_done = false;
    for arg in args {
        if options_done || !is_option(arg) {
            operands.push(arg.as_str());
            continue;
        }
        match arg.as_str() {
            "--" => options_done = true,
            "-h" | "--help" => {
                let help = BENCH_HELP.replace("DEFAULT", &bench::DEFAULT_DEPTH.to_string());
                return Ok(out.write_all(help.as_bytes())?);
            }
            other => return Err(usage_error(BENCH, format!("unknown option '{other}'"))),
        }
    }
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

/// The value of option `name`.
fn option_value<'a>(name: &str, v: Option<&'a String>) -> Result<&'a str, Failure> {
    v.map(String::as_str)
        .ok_or_else(|| usage_error(DICE, format!("option '{name}' needs a value")))
}

fn parse_number<T: std::str::FromStr + PartialOrd>(
    name: &str,
    s: &str,
    min: T,
    max: T,
    range: &str,
) -> Result<T, Failure> {
    match s.parse::<T>() {
        Ok(v) if v >= min && v <= max => Ok(v),
        _ => Err(usage_error(
            DICE,
            format!("{name} needs a whole number from {range}, got '{s}'"),
        )),
    }
}

fn parse_player(name: &str, s: &str) -> Result<PlayerKind, Failure> {
    PlayerKind::from_name(s)
        .ok_or_else(|| usage_error(DICE, format!("{name} must be random or greedy, got '{s}'")))
}

/// A player of `chesscore dice` and `chesscore dice match`: built in, or the engine.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Contestant {
    /// random or greedy.
    Builtin(PlayerKind),
    /// This search with a configuration: `engine` is [`SearchConfig::ALL`], `engine:NAME`
    /// one of [`SearchConfig::NAMED`] (for matches between versions of the search); with
    /// `@N` on N threads (`None`: `--threads`); with `/dN` to depth N every move, whatever
    /// the time (for measuring what a turn of depth is worth).
    Engine(SearchConfig, Option<usize>, Option<u32>),
    /// Plain expectimax ([`SearchConfig::PLAIN`]), same evaluator and limits.
    Expectimax,
    /// Greedy with king exposure and king attack terms ([`HeuristicPlayer`]): the baseline
    /// of the published three-dice bots.
    Heuristic,
}

impl Contestant {
    fn name(self) -> String {
        match self {
            Contestant::Builtin(k) => k.name().to_owned(),
            Contestant::Engine(c, threads, depth) => {
                let name = SearchConfig::NAMED.iter().find(|(_, n)| *n == c).map_or(
                    "engine",
                    |(name, _)| match *name {
                        "all" => "engine",
                        _ => name,
                    },
                );
                let name = match threads {
                    Some(n) => format!("{name}@{n}"),
                    None => name.to_owned(),
                };
                match depth {
                    Some(d) => format!("{name}/d{d}"),
                    None => name,
                }
            }
            Contestant::Expectimax => "expectimax".to_owned(),
            Contestant::Heuristic => "heuristic".to_owned(),
        }
    }

    fn from_name(s: &str) -> Option<Contestant> {
        if let Some((engine, d)) = s.rsplit_once("/d") {
            let d: u32 = d.parse().ok().filter(|d| (1..=64).contains(d))?;
            return match Contestant::from_name(engine)? {
                Contestant::Engine(c, n, None) => Some(Contestant::Engine(c, n, Some(d))),
                _ => None,
            };
        }
        if let Some((engine, n)) = s.split_once('@') {
            let n: usize = n.parse().ok().filter(|n| (1..=MAX_THREADS).contains(n))?;
            return match Contestant::from_name(engine)? {
                Contestant::Engine(c, None, None) => Some(Contestant::Engine(c, Some(n), None)),
                _ => None,
            };
        }
        match s {
            "engine" => Some(Contestant::Engine(SearchConfig::ALL, None, None)),
            "expectimax" => Some(Contestant::Expectimax),
            "heuristic" => Some(Contestant::Heuristic),
            _ => match s.strip_prefix("engine:") {
                Some(config) => {
                    SearchConfig::from_name(config).map(|c| Contestant::Engine(c, None, None))
                }
                None => PlayerKind::from_name(s).map(Contestant::Builtin),
            },
        }
    }

    /// The player for games of `rules`, drawing from `seed` where it draws at random; an
    /// engine without `@N` searches on `threads` threads.
    fn player(
        self,
        rules: Rules,
        seed: u64,
        limits: DiceLimits,
        hash: usize,
        threads: usize,
    ) -> Box<dyn Player> {
        match self {
            Contestant::Builtin(k) => k.player(Rng(seed)),
            Contestant::Heuristic => Box::new(HeuristicPlayer::new(rules, Rng(seed))),
            Contestant::Engine(c, n, depth) => {
                let limits = depth.map_or(limits, DiceLimits::depth);
                let mut p = EnginePlayer::new(c, limits, hash);
                p.engine().set_threads(n.unwrap_or(threads));
                Box::new(p)
            }
            Contestant::Expectimax => {
                Box::new(EnginePlayer::new(SearchConfig::PLAIN, limits, hash))
            }
        }
    }
}

fn parse_contestant(name: &str, s: &str) -> Result<Contestant, Failure> {
    Contestant::from_name(s).ok_or_else(|| {
        usage_error(
            DICE,
            format!("{name} must be engine, engine:CONFIG, expectimax, heuristic, random or greedy (an engine may end in @THREADS and /dDEPTH), got '{s}'"),
        )
    })
}

/// The settings of `chesscore dice`, `chesscore dice match` and `chesscore dice selfplay`.
struct DiceArgs {
    rules: Rules,
    opponent: Contestant,
    movetime: Option<u64>,
    depth: u32,
    hash: usize,
    threads: usize,
    a: Contestant,
    b: Contestant,
    concurrency: usize,
    human: chesscore::Color,
    seed: Option<u64>,
    games: u32,
    white: PlayerKind,
    black: PlayerKind,
    max_turns: u32,
    verify: Option<String>,
}

fn dice_cmd(args: &[String], out: &mut impl Write) -> Result<(), Failure> {
    let (mode, args) = match args.first().map(String::as_str) {
        Some("selfplay") => (Mode::SelfPlay, &args[1..]),
        Some("match") => (Mode::Match, &args[1..]),
        _ => (Mode::Play, args),
    };
    let selfplay_mode = mode == Mode::SelfPlay;
    let match_mode = mode == Mode::Match;
    let mut a = DiceArgs {
        rules: Rules::TwoDice,
        opponent: Contestant::Engine(SearchConfig::ALL, None, None),
        movetime: None,
        depth: 0,
        hash: 16,
        threads: 1,
        a: Contestant::Engine(SearchConfig::ALL, None, None),
        b: Contestant::Builtin(PlayerKind::Greedy),
        concurrency: 1,
        human: chesscore::Color::WHITE,
        seed: None,
        games: 1,
        white: PlayerKind::Random,
        black: PlayerKind::Greedy,
        max_turns: 1000,
        verify: None,
    };
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let (name, inline) = match arg.split_once('=') {
            Some((n, v)) if n.starts_with("--") => (n, Some(v.to_owned())),
            _ => (arg.as_str(), None),
        };
        let inline = inline.as_ref();
        let mut value = || option_value(name, inline.or_else(|| it.next()));
        match name {
            "-h" | "--help" => return Ok(out.write_all(DICE_HELP.as_bytes())?),
            "--rules" => {
                let v = value()?;
                a.rules = Rules::from_name(v).ok_or_else(|| {
                    usage_error(
                        DICE,
                        format!("--rules must be two-dice, one-die or three-dice, got '{v}'"),
                    )
                })?;
            }
            "--seed" => {
                a.seed = Some(parse_number(
                    "--seed",
                    value()?,
                    0,
                    u64::MAX,
                    "0 to 2^64-1",
                )?)
            }
            "--opponent" if mode == Mode::Play => {
                a.opponent = parse_contestant("--opponent", value()?)?
            }
            "--movetime" if !selfplay_mode => {
                a.movetime = Some(parse_number(
                    "--movetime",
                    value()?,
                    1,
                    3_600_000,
                    "1 to 3600000",
                )?)
            }
            "--depth" if !selfplay_mode => {
                a.depth = parse_number("--depth", value()?, 1, 64, "1 to 64")?
            }
            "--hash" if !selfplay_mode => {
                a.hash = parse_number("--hash", value()?, 1, 4096, "1 to 4096")?
            }
            "--threads" if !selfplay_mode => {
                a.threads = parse_number("--threads", value()?, 1, MAX_THREADS, "1 to 256")?
            }
            "--a" if match_mode => a.a = parse_contestant("--a", value()?)?,
            "--b" if match_mode => a.b = parse_contestant("--b", value()?)?,
            "--concurrency" if match_mode => {
                a.concurrency = parse_number("--concurrency", value()?, 1, 256, "1 to 256")?
            }
            "--color" if mode == Mode::Play => {
                a.human = match value()? {
                    "white" => chesscore::Color::WHITE,
                    "black" => chesscore::Color::BLACK,
                    v => {
                        return Err(usage_error(
                            DICE,
                            format!("--color must be white or black, got '{v}'"),
                        ))
                    }
                }
            }
            "--games" if selfplay_mode || match_mode => {
                a.games = parse_number("--games", value()?, 1, 100_000, "1 to 100000")?
            }
            "--white" if selfplay_mode => a.white = parse_player("--white", value()?)?,
            "--black" if selfplay_mode => a.black = parse_player("--black", value()?)?,
            "--max-turns" if selfplay_mode || match_mode => {
                a.max_turns = parse_number("--max-turns", value()?, 1, 100_000, "1 to 100000")?
            }
            "--verify" if selfplay_mode => a.verify = Some(value()?.to_owned()),
            other if is_option(other) => {
                return Err(usage_error(DICE, format!("unknown option '{other}'")))
            }
            other => return Err(usage_error(DICE, format!("unexpected argument '{other}'"))),
        }
    }
    if match_mode {
        match_cmd(&a, out)
    } else if selfplay_mode {
        match &a.verify {
            Some(file) => verify_cmd(file, out),
            None => selfplay_cmd(&a, out),
        }
    } else {
        let seed = a.seed.unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(1, |d| d.as_nanos() as u64)
        });
        play_cmd(&a, seed, &mut io::stdin().lock(), out)
    }
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Mode {
    Play,
    SelfPlay,
    Match,
}

impl DiceArgs {
    /// The engine players' limits: `--depth`, `--movetime` (default `default_ms`, unless a
    /// depth alone is given).
    fn limits(&self, default_ms: u64) -> DiceLimits {
        DiceLimits {
            depth: self.depth,
            nodes: 0,
            movetime_ms: match (self.movetime, self.depth) {
                (Some(ms), _) => Some(ms),
                (None, 0) => Some(default_ms),
                (None, _) => None,
            },
        }
    }
}

/// `chesscore dice match`.
fn match_cmd(a: &DiceArgs, out: &mut impl Write) -> Result<(), Failure> {
    let limits = a.limits(100);
    let seed = a.seed.unwrap_or(1);
    let games = if a.games == 1 { 100 } else { a.games };
    let (pa, pb, hash, threads) = (a.a, a.b, a.hash, a.threads);
    let rules = a.rules;
    let make_a = move |s: u64| pa.player(rules, s, limits, hash, threads);
    let make_b = move |s: u64| pb.player(rules, s, limits, hash, threads);
    writeln!(
        out,
        "match {} (A) vs {} (B), {} rules, {games} games, movetime {} ms, depth {}, seed {seed}, {} thread(s)",
        a.a.name(),
        a.b.name(),
        a.rules,
        limits.movetime_ms.map_or("-".to_owned(), |m| m.to_string()),
        if a.depth == 0 { "-".to_owned() } else { a.depth.to_string() },
        a.concurrency
    )?;
    out.flush()?;
    let lines = std::sync::Mutex::new(Vec::new());
    let report = |g: &MatchGame| {
        let text = format!(
            "game {} seed {} A {}: {} in {} turns ({})",
            g.index + 1,
            g.seed,
            if g.a_white { "white" } else { "black" },
            match g.result {
                GameResult::Win => "A wins",
                GameResult::Draw => "draw",
                GameResult::Loss => "B wins",
            },
            g.turns,
            termination_text(g.end)
        );
        eprintln!("{text}");
        lines.lock().unwrap_or_else(|e| e.into_inner()).push(text);
    };
    let played = run_match(
        a.rules,
        &make_a,
        &make_b,
        games,
        seed,
        a.concurrency,
        a.max_turns,
        &report,
    );
    for g in &played {
        writeln!(
            out,
            "game {} seed {} A {}: {}",
            g.index + 1,
            g.seed,
            if g.a_white { "white" } else { "black" },
            match g.result {
                GameResult::Win => "1-0 for A",
                GameResult::Draw => "draw",
                GameResult::Loss => "0-1 for A",
            }
        )?;
    }
    let t = tally(&played);
    let (elo, err) = t.elo();
    writeln!(
        out,
        "result {} vs {} ({}): W {} D {} L {} of {}, score {:.1}% +- {:.1}%, Elo {:+.0} +- {:.0}",
        a.a.name(),
        a.b.name(),
        a.rules,
        t.wins,
        t.draws,
        t.losses,
        t.games(),
        100.0 * t.score(),
        100.0 * t.score_error(),
        elo,
        err
    )?;
    Ok(())
}

fn selfplay_cmd(a: &DiceArgs, out: &mut impl Write) -> Result<(), Failure> {
    let seed = a.seed.unwrap_or(1);
    for i in 0..a.games {
        let game = selfplay(
            a.rules,
            seed.wrapping_add(i as u64),
            a.white,
            a.black,
            a.max_turns,
        );
        out.write_all(game.to_pgn(i + 1).as_bytes())?;
    }
    Ok(())
}

fn verify_cmd(file: &str, out: &mut impl Write) -> Result<(), Failure> {
    let text = if file == "-" {
        let mut s = String::new();
        io::Read::read_to_string(&mut io::stdin().lock(), &mut s).map_err(Failure::Input)?;
        s
    } else {
        std::fs::read_to_string(file)
            .map_err(|e| usage_error(DICE, format!("cannot read '{file}': {e}")))?
    };
    let games = verify_pgn(&text).map_err(|e| usage_error(DICE, format!("{file}: {e}")))?;
    for (i, g) in games.iter().enumerate() {
        writeln!(
            out,
            "game {}: {} {} turns {} moves {}: verified",
            i + 1,
            g.rules,
            g.turns,
            g.moves,
            g.result
        )?;
    }
    writeln!(out, "{} game(s) verified", games.len())?;
    Ok(())
}

fn side_name(c: chesscore::Color) -> &'static str {
    if c == chesscore::Color::WHITE {
        "White"
    } else {
        "Black"
    }
}

/// Why `text` is not a move the dice allow (for a human's input).
fn refusal(g: &DiceGame, text: &str) -> String {
    let pos = g.position();
    let bytes = text.as_bytes();
    let syntax = (bytes.len() == 4 || bytes.len() == 5)
        && chesscore::Square::parse(&text[..2]).is_some()
        && chesscore::Square::parse(&text[2..4]).is_some()
        && (bytes.len() == 4 || b"qrbn".contains(&bytes[4]));
    if !text.is_ascii() || !syntax {
        return format!("'{text}' is not a move in UCI form (from and to square: e2e4, e7e8q)");
    }
    let from = chesscore::Square::parse(&text[..2]).unwrap_or_default();
    let pc = pos.piece_on(from);
    if pc.is_none() || pc.color() != g.side_to_move() {
        return format!("you have no piece on {}", &text[..2]);
    }
    let kind = pc.kind();
    let dice = g.dice();
    let doubles = g.rules() == Rules::TwoDice && dice.is_doubles();
    let rook_die = dice.mask() & chesscore::PieceType::ROOK.mask_bit() != 0;
    let allowed = doubles
        || dice.mask() & kind.mask_bit() != 0
        // Castling is a king move on a rook die too.
        || (kind == chesscore::PieceType::KING && rook_die)
        // One die: a pawn about to promote moves on knight to queen.
        || (g.rules() == Rules::OneDie && kind == chesscore::PieceType::PAWN);
    if !allowed {
        return format!(
            "the dice {} do not move a {}",
            dice,
            match kind.to_u8() {
                1 => "pawn",
                2 => "knight",
                3 => "bishop",
                4 => "rook",
                5 => "queen",
                _ => "king",
            }
        );
    }
    let hint = match g.rules() {
        Rules::TwoDice if pos.in_check() => " (you are in check: only answers to it)",
        Rules::TwoDice => " (it would leave your king in check, or the piece cannot go there)",
        Rules::ThreeDice => {
            " (the piece cannot go there, or the maximum rule: use as many dice as you can)"
        }
        Rules::OneDie => " (the piece cannot go there)",
    };
    format!("{text} is not a move these dice allow{hint}")
}

/// `chesscore dice`: a game against a built-in player on stdin and stdout.
fn play_cmd(
    a: &DiceArgs,
    seed: u64,
    input: &mut impl BufRead,
    out: &mut impl Write,
) -> Result<(), Failure> {
    let mut g = DiceGame::new(a.rules);
    let mut dice_rng = Rng(seed);
    let mut opponent = a.opponent.player(
        a.rules,
        seed ^ 0x0bb0_0bb0,
        a.limits(1000),
        a.hash,
        a.threads,
    );
    writeln!(
        out,
        "Dice Chess, {} rules, seed {seed}; you play {} against the {} player.",
        a.rules,
        side_name(a.human),
        a.opponent.name()
    )?;
    writeln!(
        out,
        "Type moves in UCI form (e2e4, e7e8q), 'moves' to list them, 'quit' to stop."
    )?;
    let mut line = String::new();
    loop {
        match g.status() {
            DiceStatus::AwaitingRoll => {
                let Some(roll) = sample_roll(&g, &mut dice_rng) else {
                    break;
                };
                writeln!(out)?;
                g.position()
                    .write_pretty(&mut FmtOut(&mut *out))
                    .map_err(|_| Failure::Output(io::Error::other("write failed")))?;
                writeln!(out, "{} rolls {roll}", side_name(g.side_to_move()))?;
                let _ = g.set_roll(roll);
            }
            DiceStatus::AwaitingMove => {
                let list = g.moves();
                let us = g.side_to_move();
                if list.is_empty() {
                    writeln!(
                        out,
                        "{}: no move for these dice, the turn passes",
                        side_name(us)
                    )?;
                    g.make_move_unchecked(chesscore::Move::NONE);
                    continue;
                }
                if us != a.human {
                    let m = opponent.choose(&g, list.as_slice());
                    writeln!(out, "{} plays {m}", side_name(us))?;
                    g.make_move_unchecked(m);
                    continue;
                }
                if g.micro_moves_made() > 0 {
                    writeln!(out, "dice left: {}", g.dice())?;
                }
                write!(out, "your move: ")?;
                out.flush()?;
                line.clear();
                if input.read_line(&mut line).map_err(Failure::Input)? == 0 {
                    writeln!(out)?;
                    return Ok(());
                }
                let text = line.trim();
                match text {
                    "quit" | "exit" => return Ok(()),
                    "moves" => {
                        let all: Vec<String> = list.iter().map(|m| m.to_string()).collect();
                        writeln!(out, "{}", all.join(" "))?;
                    }
                    "" => {}
                    _ => match list.iter().copied().find(|m| m.to_string() == text) {
                        Some(m) => {
                            g.make_move_unchecked(m);
                        }
                        None => writeln!(out, "illegal: {}", refusal(&g, text))?,
                    },
                }
            }
            end => {
                writeln!(out)?;
                g.position()
                    .write_pretty(&mut FmtOut(&mut *out))
                    .map_err(|_| Failure::Output(io::Error::other("write failed")))?;
                writeln!(
                    out,
                    "Game over: {} ({})",
                    result_text(end),
                    termination_text(end)
                )?;
                return Ok(());
            }
        }
    }
    Ok(())
}

/// `fmt::Write` over an `io::Write`, keeping the I/O error.
struct FmtOut<'a, W: Write>(&'a mut W);

impl<W: Write> std::fmt::Write for FmtOut<'_, W> {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        self.0.write_all(s.as_bytes()).map_err(|_| std::fmt::Error)
    }
}

/// Speaks UCI on stdin and stdout until `quit` or the end of input.
fn uci_cmd() -> Result<(), Failure> {
    let mut uci = Uci::new(Arc::new(Mutex::new(io::stdout())));
    match uci.run(io::stdin().lock()) {
        Ok(()) => Ok(()),
        Err(RunError::Output(e)) => Err(Failure::Output(e)),
        Err(RunError::Input(e)) => Err(Failure::Input(e)),
    }
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
        Some("perft") => perft_cmd(&args[1..], out),
        Some("bench") => bench_cmd(&args[1..], out),
        Some("perftbench") => perftbench_cmd(&args[1..], out),
        Some("dice") => dice_cmd(&args[1..], out),
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
        uci_cmd()
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
