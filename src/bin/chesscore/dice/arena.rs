//! `chesscore dice match`: games between two players, on several threads, and the tally.
//!
//! The arena: games in parallel threads, colours alternated, each pair of games played with
//! the same dice seed (player A white in one, black in the other: the luck of the dice
//! largely cancels), the score with its Elo and a 95% error bar. It lives with the command
//! that uses it, outside the library's API.
//!
//! On a clock (`--tc BASE+INC`) each side has its own: the time of its whole turn (every
//! micro-move, the arena's own work between them included) comes off it, measured around
//! the turn, and the increment is added after the turn. Before each move the player is
//! told what is left ([`Player::set_clock`]); the engines manage their time from it, the
//! built-in players ignore it and take no time to speak of. A turn that ends with the clock
//! below zero loses the game on time, even if it took the king.
//!
//! With the cube (`--cube`) each game is played for a doubling cube (docs/dice.md, "The
//! doubling cube"). Before each roll, a side that searches
//! ([`super::contestant::Contestant::searches`]) and may double (the cube centred or its
//! own, below 2^20) asks the library's equity (`DiceEngine::equity` at
//! [`super::equity_limits`], one table for the game) and doubles when `cube::advise` says
//! so; the other side answers by the same advice on its own call of the equity, or takes
//! when it does not search. On a clock each call's time comes off the clock of the side
//! that made it. A pass ends the game: the doubler wins the stake before the double.

use super::DiceArgs;
use crate::Failure;
use chesscore::dice::cube::{advise, Cube, CubeOwner};
use chesscore::dice::pgn::termination_text;
use chesscore::dice::player::{sample_roll, DiceClock, Player, Rng};
use chesscore::dice::search::DiceEngine;
use chesscore::dice::DiceStatus;
use chesscore::dice::Rules;
use chesscore::dice::{DiceGame, Phase};
use chesscore::Color;
use chesscore::Move;
use std::io::Write;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Mutex;
use std::time::Instant;

/// A time control: each side's clock at the start and the increment after each turn (ms).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct TimeControl {
    /// The clock at the start.
    pub base_ms: u64,
    /// Added after each turn.
    pub inc_ms: u64,
}

impl TimeControl {
    /// `BASE+INC` or `BASE` in seconds (`10+0.1`, `2`, `0.5+0.01`), to the millisecond:
    /// a base of 1 ms to 24 hours, an increment of 0 to 1 hour; `None` otherwise.
    pub fn parse(s: &str) -> Option<TimeControl> {
        let (base, inc) = s.split_once('+').unwrap_or((s, "0"));
        let base_ms = seconds_to_ms(base)?;
        let inc_ms = seconds_to_ms(inc)?;
        ((1..=86_400_000).contains(&base_ms) && inc_ms <= 3_600_000)
            .then_some(TimeControl { base_ms, inc_ms })
    }

    /// As `--tc` writes it (seconds).
    pub fn text(&self) -> String {
        format!(
            "{}+{}",
            self.base_ms as f64 / 1000.0,
            self.inc_ms as f64 / 1000.0
        )
    }
}

/// Decimal seconds (`12`, `0.5`, `.25`, at most three decimals, no sign) in ms.
fn seconds_to_ms(s: &str) -> Option<u64> {
    let (whole, frac) = s.split_once('.').unwrap_or((s, ""));
    let digits = |t: &str| t.bytes().all(|b| b.is_ascii_digit());
    if (whole.is_empty() && frac.is_empty()) || !digits(whole) || !digits(frac) || frac.len() > 3 {
        return None;
    }
    let whole: u64 = if whole.is_empty() {
        0
    } else {
        whole.parse().ok()?
    };
    let frac_ms: u64 = format!("{frac:0<3}").parse().ok()?;
    whole.checked_mul(1000)?.checked_add(frac_ms)
}

/// One side's clock in a game.
#[derive(Copy, Clone, Debug, Default)]
struct SideClock {
    /// Time left (ms; below zero: flagged).
    left_ms: f64,
    /// Time used in the game (ms).
    used_ms: f64,
    /// The time available in the game: the base plus the increments received (ms).
    given_ms: f64,
    /// The largest share of the clock one turn took (of what the clock showed at its start).
    worst_share: f64,
}

/// `chesscore dice match`.
pub(super) fn match_cmd(a: &DiceArgs, out: &mut impl Write) -> Result<(), Failure> {
    let limits = a.limits(100);
    let tc = a.tc;
    let seed = a.seed.unwrap_or(1);
    let games = if a.games == 1 { 100 } else { a.games };
    let (pa, pb, hash, threads) = (a.a, a.b, a.hash, a.threads);
    let rules = a.rules;
    let make_a = move |s: u64| pa.player(rules, s, limits, hash, threads);
    let make_b = move |s: u64| pb.player(rules, s, limits, hash, threads);
    let (name_a, name_b) = (a.a.name(), a.b.name());
    // With --cube: whether A and B double and take by the advice.
    let cube = a.cube.then_some([a.a.searches(), a.b.searches()]);
    let time = match tc {
        Some(tc) => format!("clock {} s", tc.text()),
        None => format!(
            "movetime {} ms",
            limits.movetime_ms.map_or("-".to_owned(), |m| m.to_string())
        ),
    };
    writeln!(
        out,
        "match {name_a} (A) vs {name_b} (B), {rules} rules, {games} games, {time}, depth {}, seed {seed}, {} thread(s){}",
        if a.depth == 0 { "-".to_owned() } else { a.depth.to_string() },
        a.concurrency,
        if cube.is_some() { ", cube" } else { "" }
    )?;
    out.flush()?;
    let lines = std::sync::Mutex::new(Vec::new());
    let report = |g: &MatchGame| {
        let text = format!(
            "game {} seed {} A {}: {} in {} turns ({}){}",
            g.index + 1,
            g.seed,
            if g.a_white { "white" } else { "black" },
            match g.result {
                GameResult::Win => "A wins",
                GameResult::Draw => "draw",
                GameResult::Loss => "B wins",
            },
            g.turns,
            if g.time_loss {
                "loss on time"
            } else if g.passed {
                "a double passed"
            } else {
                termination_text(g.end)
            },
            match g.cube {
                Some(c) => format!(", stake {}, doubles {}", c.stake, c.doubles),
                None => String::new(),
            } + &match g.clocks {
                Some([ca, cb]) => format!(
                    ", time used A {:.2} s of {:.2}, B {:.2} s of {:.2}",
                    ca.used_ms / 1000.0,
                    ca.given_ms / 1000.0,
                    cb.used_ms / 1000.0,
                    cb.given_ms / 1000.0
                ),
                None => String::new(),
            }
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
        tc,
        cube,
        &report,
    );
    for g in &played {
        writeln!(
            out,
            "game {} seed {} A {}: {}{}{}",
            g.index + 1,
            g.seed,
            if g.a_white { "white" } else { "black" },
            match g.result {
                GameResult::Win => "1-0 for A",
                GameResult::Draw => "draw",
                GameResult::Loss => "0-1 for A",
            },
            if g.time_loss {
                " on time"
            } else if g.passed {
                " by a pass"
            } else {
                ""
            },
            match g.cube {
                Some(c) => format!(", stake {}, points {:+} for A", c.stake, g.points()),
                None => String::new(),
            }
        )?;
    }
    let t = tally(&played);
    let (elo, err) = t.elo();
    writeln!(
        out,
        "result {name_a} vs {name_b} ({rules}): W {} D {} L {} of {}, score {:.1}% +- {:.1}%, Elo {:+.0} +- {:.0}",
        t.wins,
        t.draws,
        t.losses,
        t.games(),
        100.0 * t.score(),
        100.0 * t.score_error(),
        elo,
        err
    )?;
    if cube.is_some() {
        let (mean, err) = points_per_game(&played);
        let n = played.len().max(1) as f64;
        let sum = |f: fn(&CubeTally) -> u32| {
            played
                .iter()
                .filter_map(|g| g.cube.as_ref().map(f))
                .map(u64::from)
                .sum::<u64>()
        };
        writeln!(
            out,
            "cube {name_a} vs {name_b}: points {:+} for A in {} games, {mean:+.3} +- {err:.3} a game (95%, pairs), doubles {}, passes {}, mean final stake {:.2}",
            played.iter().map(MatchGame::points).sum::<i64>(),
            played.len(),
            sum(|c| c.doubles),
            played.iter().filter(|g| g.passed).count(),
            sum(|c| c.stake) as f64 / n
        )?;
    }
    if tc.is_some() {
        let losses = |a_side: bool| {
            played
                .iter()
                .filter(|g| g.time_loss && (g.result == GameResult::Loss) == a_side)
                .count()
        };
        let clocks: Vec<[SideClock; 2]> = played.iter().filter_map(|g| g.clocks).collect();
        let n = clocks.len().max(1) as f64;
        let side = |i: usize| {
            let used = clocks.iter().map(|c| c[i].used_ms).sum::<f64>() / n / 1000.0;
            let given = clocks.iter().map(|c| c[i].given_ms).sum::<f64>() / n / 1000.0;
            let worst = clocks.iter().map(|c| c[i].worst_share).fold(0.0, f64::max);
            let least = clocks
                .iter()
                .map(|c| c[i].left_ms)
                .fold(f64::INFINITY, f64::min);
            format!(
                "{used:.2} s of {given:.2} available ({:.0}%), largest turn {:.0}% of its clock, least left at the end {:.0} ms",
                100.0 * used / given.max(1e-9),
                100.0 * worst,
                least
            )
        };
        writeln!(
            out,
            "time losses: {} (A {}, B {})",
            losses(true) + losses(false),
            losses(true),
            losses(false)
        )?;
        writeln!(out, "time a game: A {}", side(0))?;
        writeln!(out, "time a game: B {}", side(1))?;
    }
    Ok(())
}

/// Makes a player from a seed (one per game and side, made on the thread that plays it).
pub type PlayerFactory<'a> = &'a (dyn Fn(u64) -> Box<dyn Player> + Sync);

/// How one game ended, for player A.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum GameResult {
    /// A won.
    Win,
    /// Drawn (by the rules, or adjudicated at the turn limit).
    Draw,
    /// A lost.
    Loss,
}

/// One finished game of a match.
#[derive(Clone, Debug)]
pub struct MatchGame {
    /// Index in the match (pairs are 2k and 2k + 1).
    pub index: u32,
    /// The dice seed.
    pub seed: u64,
    /// A played White.
    pub a_white: bool,
    /// The result for A.
    pub result: GameResult,
    /// Turns played.
    pub turns: u32,
    /// The final status (of the board: a game lost on time may be going on).
    pub end: DiceStatus,
    /// The game was lost on time (by the side `result` says lost).
    pub time_loss: bool,
    /// On a clock: A's and B's clocks at the end.
    clocks: Option<[SideClock; 2]>,
    /// With the cube: the final stake and the doubles taken.
    pub cube: Option<CubeTally>,
    /// The game ended by a pass (the side `result` says lost passed a double).
    pub passed: bool,
}

/// A game's cube: the final stake (1, 2, 4 ...) and the doubles taken.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct CubeTally {
    /// The stake at the end (the stake before the double, after a pass).
    pub stake: u32,
    /// Doubles offered and taken.
    pub doubles: u32,
}

impl MatchGame {
    /// A's points: the stake won (+) or lost (-), 0 drawn; without the cube 1, 0 or -1.
    pub fn points(&self) -> i64 {
        let stake = i64::from(self.cube.map_or(1, |c| c.stake));
        match self.result {
            GameResult::Win => stake,
            GameResult::Draw => 0,
            GameResult::Loss => -stake,
        }
    }
}

/// A's mean points a game with the 95% half-width, from the pairs' sums (the two games of a
/// pair share their dice, so the pairs are the independent samples); a lone last game
/// counts as a pair of one.
pub fn points_per_game(games: &[MatchGame]) -> (f64, f64) {
    let mut pairs: Vec<f64> = Vec::new();
    for chunk in games.chunks(2) {
        pairs.push(chunk.iter().map(|g| g.points() as f64).sum::<f64>() / chunk.len() as f64);
    }
    let n = pairs.len() as f64;
    if n == 0.0 {
        return (0.0, 0.0);
    }
    let mean = pairs.iter().sum::<f64>() / n;
    if n < 2.0 {
        return (mean, f64::INFINITY);
    }
    let var = pairs.iter().map(|p| (p - mean).powi(2)).sum::<f64>() / (n - 1.0);
    (mean, 1.96 * (var / n).sqrt())
}

/// The tally of a match, for player A.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// A's wins.
    pub wins: u32,
    /// Draws.
    pub draws: u32,
    /// A's losses.
    pub losses: u32,
}

impl Tally {
    /// Games counted.
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// A's score fraction in `[0, 1]`.
    pub fn score(&self) -> f64 {
        if self.games() == 0 {
            return 0.5;
        }
        (self.wins as f64 + 0.5 * self.draws as f64) / self.games() as f64
    }

    /// The score's 95% interval half-width (normal approximation from the games' variance).
    pub fn score_error(&self) -> f64 {
        let n = self.games() as f64;
        if n < 2.0 {
            return 0.5;
        }
        let s = self.score();
        let var = (self.wins as f64 * (1.0 - s).powi(2)
            + self.draws as f64 * (0.5 - s).powi(2)
            + self.losses as f64 * s.powi(2))
            / n;
        1.96 * (var / n).sqrt()
    }

    /// Elo difference of A over B, with the 95% interval's half-width.
    pub fn elo(&self) -> (f64, f64) {
        let s = self.score();
        let e = self.score_error();
        let lo = elo_of(s - e);
        let hi = elo_of(s + e);
        (elo_of(s), (hi - lo) / 2.0)
    }
}

/// The Elo difference of a score fraction (clamped off 0 and 1).
pub fn elo_of(score: f64) -> f64 {
    let s = score.clamp(0.001, 0.999);
    -400.0 * (1.0 / s - 1.0).log10()
}

/// How a game ended: the board's status, the turns played, the side that lost on time
/// (if one did), and on a clock White's and Black's clocks.
struct Played {
    end: DiceStatus,
    turns: u32,
    flagged: Option<Color>,
    clocks: Option<[SideClock; 2]>,
    /// With the cube: its tally, and the side that passed a double (it lost).
    cube: Option<CubeTally>,
    passed: Option<Color>,
}

/// The cube's state in a game (who may double: `None` either side), the equity engine of
/// the game, and which sides double and take by the advice (White, Black).
struct CubeGame {
    value: u32,
    owner: Option<Color>,
    doubles: u32,
    advised: [bool; 2],
    engine: DiceEngine,
}

impl CubeGame {
    /// The side to move's chances before `g`'s roll by the library's equity, on the clock
    /// of `side` (its time taken off there); `None` when the search fails.
    fn chances(
        &mut self,
        g: &DiceGame,
        side: usize,
        clocks: &mut Option<[SideClock; 2]>,
    ) -> Option<chesscore::dice::eval::wdl::Wdl> {
        let start = Instant::now();
        let q = self
            .engine
            .equity(g, &super::equity_limits(g.rules()), &mut |_| {});
        if let Some(c) = clocks {
            let took = start.elapsed().as_secs_f64() * 1000.0;
            c[side].used_ms += took;
            c[side].left_ms -= took;
        }
        q.ok().map(|q| q.wdl)
    }

    /// The cube before the roll of `g`: the side to move doubles or not, the other side
    /// takes or passes. Returns the side that passed, if one did.
    fn before_roll(&mut self, g: &DiceGame, clocks: &mut Option<[SideClock; 2]>) -> Option<Color> {
        let us = g.side_to_move();
        let (side, other) = (us.index(), us.flip().index());
        let may = self.owner.is_none_or(|o| o == us) && self.value < 1 << 20;
        if !may || !self.advised[side] {
            return None;
        }
        let cube = Cube {
            value: self.value,
            owner: if self.owner.is_none() {
                CubeOwner::Centered
            } else {
                CubeOwner::Mover
            },
        };
        let wdl = self.chances(g, side, clocks)?;
        if !advise(&wdl, cube).double {
            return None;
        }
        let takes = !self.advised[other]
            || self
                .chances(g, other, clocks)
                .is_none_or(|w| advise(&w, cube).take);
        if !takes {
            return Some(us.flip());
        }
        self.value *= 2;
        self.owner = Some(us.flip());
        self.doubles += 1;
        None
    }
}

/// Plays one game; `players[0]` is White. On a clock (`tc`) a side whose turn ends with its
/// clock below zero loses on time there.
fn play_game(
    rules: Rules,
    seed: u64,
    players: &mut [Box<dyn Player>; 2],
    max_turns: u32,
    tc: Option<TimeControl>,
    cube: Option<[bool; 2]>,
    hash_mib: usize,
) -> Played {
    let mut dice = Rng(seed);
    let mut g = DiceGame::new(rules);
    let mut cube = cube.map(|advised| CubeGame {
        value: 1,
        owner: None,
        doubles: 0,
        advised,
        engine: DiceEngine::new(hash_mib),
    });
    let mut passed = None;
    let mut turns = 0;
    let mut clocks = tc.map(|tc| {
        let c = SideClock {
            left_ms: tc.base_ms as f64,
            given_ms: tc.base_ms as f64,
            ..SideClock::default()
        };
        [c, c]
    });
    let mut flagged = None;
    while turns < max_turns {
        if g.status() != DiceStatus::AwaitingRoll {
            break;
        }
        if let Some(c) = &mut cube {
            passed = c.before_roll(&g, &mut clocks);
            if passed.is_some() {
                break;
            }
            // An equity search that emptied a clock loses on time before the roll.
            if let Some(cl) = &clocks {
                if let Some(i) = (0..2).find(|&i| cl[i].left_ms < 0.0) {
                    flagged = Some(Color::from_index(i as u8));
                    break;
                }
            }
        }
        let Some(roll) = sample_roll(&g, &mut dice) else {
            break;
        };
        let side = g.side_to_move().index();
        if g.set_roll(roll).is_err() {
            break;
        }
        let start = Instant::now();
        while g.phase() == Phase::AwaitingMove {
            let list = g.moves();
            let m = if list.is_empty() {
                Move::NONE
            } else {
                if let (Some(c), Some(tc)) = (&clocks, tc) {
                    let left = c[side].left_ms - start.elapsed().as_secs_f64() * 1000.0;
                    players[side].set_clock(Some(DiceClock {
                        time_ms: left.floor() as i64,
                        inc_ms: tc.inc_ms as i64,
                        movestogo: 0,
                    }));
                }
                players[side].choose(&g, list.as_slice())
            };
            if g.make_move(m).is_err() {
                // A player's move the rules refuse (never from the built-in players).
                g.make_move_unchecked(list.as_slice().first().copied().unwrap_or(Move::NONE));
            }
        }
        turns += 1;
        if let (Some(c), Some(tc)) = (&mut clocks, tc) {
            let took = start.elapsed().as_secs_f64() * 1000.0;
            let c = &mut c[side];
            c.worst_share = c.worst_share.max(took / c.left_ms.max(1e-9));
            c.used_ms += took;
            c.left_ms -= took;
            if c.left_ms < 0.0 {
                flagged = Some(if side == 0 {
                    Color::WHITE
                } else {
                    Color::BLACK
                });
                break;
            }
            c.left_ms += tc.inc_ms as f64;
            c.given_ms += tc.inc_ms as f64;
        }
    }
    Played {
        end: g.status(),
        turns,
        flagged,
        clocks,
        cube: cube.map(|c| CubeTally {
            stake: c.value,
            doubles: c.doubles,
        }),
        passed,
    }
}

/// Plays `games` games between A and B on `threads` threads: game `i` uses dice seed
/// `seed + i / 2`, A is White in the even games. `on_game` sees each game as it ends (in
/// the order they end). Returns the games sorted by index.
#[allow(clippy::too_many_arguments)]
pub fn run_match(
    rules: Rules,
    a: PlayerFactory,
    b: PlayerFactory,
    games: u32,
    seed: u64,
    threads: usize,
    max_turns: u32,
    tc: Option<TimeControl>,
    cube: Option<[bool; 2]>,
    on_game: &(dyn Fn(&MatchGame) + Sync),
) -> Vec<MatchGame> {
    let next = AtomicU32::new(0);
    let done = Mutex::new(Vec::with_capacity(games as usize));
    std::thread::scope(|scope| {
        for _ in 0..threads.max(1) {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= games {
                    break;
                }
                let game_seed = seed.wrapping_add(u64::from(i / 2));
                let a_white = i % 2 == 0;
                let pa = a(game_seed ^ 0xa5a5_a5a5);
                let pb = b(game_seed ^ 0x5b5b_5b5b);
                let mut players = if a_white { [pa, pb] } else { [pb, pa] };
                // The cube's sides by colour: White, Black.
                let cube = cube.map(|[ca, cb]| if a_white { [ca, cb] } else { [cb, ca] });
                let p = play_game(rules, game_seed, &mut players, max_turns, tc, cube, 16);
                let a_color = if a_white { Color::WHITE } else { Color::BLACK };
                let result = match (p.flagged, p.passed, p.end) {
                    (Some(c), _, _) if c == a_color => GameResult::Loss,
                    (Some(_), _, _) => GameResult::Win,
                    (None, Some(c), _) if c == a_color => GameResult::Loss,
                    (None, Some(_), _) => GameResult::Win,
                    (None, None, DiceStatus::Won { winner, .. }) if winner == a_color => {
                        GameResult::Win
                    }
                    (None, None, DiceStatus::Won { .. }) => GameResult::Loss,
                    _ => GameResult::Draw,
                };
                // A's clock first.
                let clocks = p.clocks.map(|[w, b]| if a_white { [w, b] } else { [b, w] });
                let g = MatchGame {
                    index: i,
                    seed: game_seed,
                    a_white,
                    result,
                    turns: p.turns,
                    end: p.end,
                    time_loss: p.flagged.is_some(),
                    clocks,
                    cube: p.cube,
                    passed: p.passed.is_some() && p.flagged.is_none(),
                };
                on_game(&g);
                done.lock().unwrap_or_else(|e| e.into_inner()).push(g);
            });
        }
    });
    let mut v = done.into_inner().unwrap_or_else(|e| e.into_inner());
    v.sort_by_key(|g| g.index);
    v
}

/// The tally of finished games.
pub fn tally(games: &[MatchGame]) -> Tally {
    let mut t = Tally::default();
    for g in games {
        match g.result {
            GameResult::Win => t.wins += 1,
            GameResult::Draw => t.draws += 1,
            GameResult::Loss => t.losses += 1,
        }
    }
    t
}
