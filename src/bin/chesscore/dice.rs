//! `chesscore dice`: its help and options, and the dispatch to its modes: a game against a
//! player ([`play`]), a match between two players ([`arena`]), seeded self-play and its
//! verifier ([`selfplay`]).

mod arena;
mod contestant;
mod play;
mod selfplay;

use crate::{is_option, usage_error, Failure, MAX_THREADS};
use chesscore::dice::search::{DiceLimits, SearchConfig};
use chesscore::dice::{PlayerKind, Rules};
use contestant::Contestant;
use std::io::{self, Write};

const DICE_HELP: &str = "\
usage: chesscore dice [--rules RULES] [--opponent PLAYER] [--color COLOR] [--seed N]
                      [--movetime MS] [--depth N] [--threads N] [--cube]
       chesscore dice match [--rules RULES] [--a PLAYER] [--b PLAYER] [--games N]
                      [--movetime MS | --tc BASE+INC] [--depth N] [--concurrency K]
                      [--seed N] [--threads N] [--cube]
       chesscore dice selfplay [--rules RULES] [--games N] [--seed N] [--white PLAYER]
                               [--black PLAYER] [--max-turns N]
       chesscore dice selfplay --verify FILE

Dice Chess in the terminal against a built-in player: the dice are rolled for both sides,
the board is drawn, you type your moves in UCI form (e2e4, e7e8q; a three-dice turn one
micro-move at a time). Also: `moves` lists the moves the roll allows, `quit` ends. Before
every roll it shows your chances to win, draw and lose (the engine's equity, two turns deep,
one in three dice: docs/results/dice-equity.md). With --cube the game is played for a
doubling cube: before your roll type `double` (or just Enter to roll) when the cube is
centred or yours; answer the engine's doubles with `take` or `pass`. The engine doubles,
takes and passes by the library's advice (docs/dice.md, The doubling cube).

`selfplay` plays seeded games between two built-in players and writes them as PGN (rolls
in comments, moves in UCI form, a pass as `--`, a Variant tag naming the rules); the same
seed gives the same games. `selfplay --verify FILE` reads such PGN (FILE `-`: stdin) and
replays every roll and move under the rules, checking each and the results.

`match` plays N games between players A and B on K threads, colours alternated: games 2i
and 2i+1 share the dice seed S+i (S: --seed) with A White in the first, so two matches are
independent samples only when their seeds lie at least N/2 apart (--seed 12 and --seed 13
share all but one dice seed). It prints a line per game and
the tally: wins, draws, losses, A's score and Elo with 95% error bars. Games that reach
--max-turns count as draws. With --tc each side plays on a clock instead of a fixed time a
move: the time of its whole turn (every micro-move) comes off its clock, the increment is
added after each turn, and a turn that ends past zero loses on time (\"time losses: N\" in
the tally, with the time used a game against the time available). The engines manage
their time from the clock (the rules, the material left, the increment; docs/dice.md); the
built-in players take none to speak of. engine/old-clock is the engine with the budget
from before the time manager: clock/25 + 3/4 increment every turn, whatever the rules.
With --cube every game is played for a doubling cube: before each roll a searching player
(engine, expectimax) may double when the cube is centred or its own, and the other side
takes or passes, each by the library's advice on the library's equity at the depth shown
in play (its time comes off the clock with --tc); random, greedy and heuristic never
double and always take. A pass ends the game for the stake before the double. The tally
then adds A's points (the stake won or lost, 0 for a draw) with a 95% error bar over the
pairs, the doubles, passes and the mean final stake.

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
  --tc BASE+INC      match: a clock for each side, BASE seconds plus INC seconds a turn
                     (10+0.1, 2+0.05, 60; to the millisecond), instead of --movetime
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
  --cube             play and match: games played for a doubling cube
  -h, --help         print this help
";

const DICE: &str = "chesscore dice";

/// The limits of the win chances shown after every turn (and of the cube's decisions in
/// `play` and `match`): the depth each rule set's model
/// was fitted at (docs/results/dice-equity.md: two turns in two dice and one die, a few
/// milliseconds; one turn in three dice), at most 300 ms.
fn equity_limits(rules: Rules) -> DiceLimits {
    DiceLimits {
        depth: if rules == Rules::ThreeDice { 1 } else { 2 },
        movetime_ms: Some(300),
        ..DiceLimits::default()
    }
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
    tc: Option<arena::TimeControl>,
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
    /// `chesscore dice --cube` and `match --cube`: play for a doubling cube.
    cube: bool,
}

pub(crate) fn dice_cmd(args: &[String], out: &mut impl Write) -> Result<(), Failure> {
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
        tc: None,
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
        cube: false,
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
            "--cube" if !selfplay_mode && inline.is_none() => a.cube = true,
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
            "--tc" if match_mode => {
                let v = value()?;
                a.tc = Some(arena::TimeControl::parse(v).ok_or_else(|| {
                    usage_error(
                        DICE,
                        format!("--tc needs BASE+INC in seconds (10+0.1), a base of 0.001 to 86400 and an increment of 0 to 3600, got '{v}'"),
                    )
                })?)
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
    if a.tc.is_some() && a.movetime.is_some() {
        return Err(usage_error(
            DICE,
            "--tc and --movetime exclude each other".to_owned(),
        ));
    }
    if match_mode {
        arena::match_cmd(&a, out)
    } else if selfplay_mode {
        match &a.verify {
            Some(file) => selfplay::verify_cmd(file, out),
            None => selfplay::selfplay_cmd(&a, out),
        }
    } else {
        let seed = a.seed.unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(1, |d| d.as_nanos() as u64)
        });
        play::play_cmd(&a, seed, &mut io::stdin().lock(), out)
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
            soft_ms: None,
        }
    }
}
