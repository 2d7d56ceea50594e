//! `chesscore dice match`: games between two players, on several threads, and the tally.
//!
//! The arena: games in parallel threads, colours alternated, each pair of games played with
//! the same dice seed (player A white in one, black in the other: the luck of the dice
//! largely cancels), the score with its Elo and a 95% error bar. It lives with the command
//! that uses it, outside the library's API.

use super::DiceArgs;
use crate::Failure;
use chesscore::dice::pgn::termination_text;
use chesscore::dice::player::{sample_roll, Player, Rng};
use chesscore::dice::DiceStatus;
use chesscore::dice::Rules;
use chesscore::dice::{DiceGame, Phase};
use chesscore::Color;
use chesscore::Move;
use std::io::Write;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Mutex;

/// `chesscore dice match`.
pub(super) fn match_cmd(a: &DiceArgs, out: &mut impl Write) -> Result<(), Failure> {
    let limits = a.limits(100);
    let seed = a.seed.unwrap_or(1);
    let games = if a.games == 1 { 100 } else { a.games };
    let (pa, pb, hash, threads) = (a.a, a.b, a.hash, a.threads);
    let rules = a.rules;
    let make_a = move |s: u64| pa.player(rules, s, limits, hash, threads);
    let make_b = move |s: u64| pb.player(rules, s, limits, hash, threads);
    let (name_a, name_b) = (a.a.name(), a.b.name());
    writeln!(
        out,
        "match {name_a} (A) vs {name_b} (B), {rules} rules, {games} games, movetime {} ms, depth {}, seed {seed}, {} thread(s)",
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
    /// The final status.
    pub end: DiceStatus,
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

/// Plays one game; `players[0]` is White.
pub fn play_game(
    rules: Rules,
    seed: u64,
    players: &mut [Box<dyn Player>; 2],
    max_turns: u32,
) -> (DiceStatus, u32) {
    let mut dice = Rng(seed);
    let mut g = DiceGame::new(rules);
    let mut turns = 0;
    while turns < max_turns {
        let Some(roll) = sample_roll(&g, &mut dice) else {
            break;
        };
        let side = g.side_to_move().index();
        if g.set_roll(roll).is_err() {
            break;
        }
        while g.phase() == Phase::AwaitingMove {
            let list = g.moves();
            let m = if list.is_empty() {
                Move::NONE
            } else {
                players[side].choose(&g, list.as_slice())
            };
            if g.make_move(m).is_err() {
                // A player's move the rules refuse (never from the built-in players).
                g.make_move_unchecked(list.as_slice().first().copied().unwrap_or(Move::NONE));
            }
        }
        turns += 1;
    }
    (g.status(), turns)
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
                let (end, turns) = play_game(rules, game_seed, &mut players, max_turns);
                let a_color = if a_white { Color::WHITE } else { Color::BLACK };
                let result = match end {
                    DiceStatus::Won { winner, .. } if winner == a_color => GameResult::Win,
                    DiceStatus::Won { .. } => GameResult::Loss,
                    _ => GameResult::Draw,
                };
                let g = MatchGame {
                    index: i,
                    seed: game_seed,
                    a_white,
                    result,
                    turns,
                    end,
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
