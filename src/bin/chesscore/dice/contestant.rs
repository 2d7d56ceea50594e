//! The players that `chesscore dice` and `chesscore dice match` name: built in, or the engine
//! in one of its configurations.

use crate::{dice_configs, MAX_THREADS};
use chesscore::dice::eval::heuristic::HeuristicPlayer;
use chesscore::dice::player::{DiceClock, Rng};
use chesscore::dice::search::player::EnginePlayer;
use chesscore::dice::search::{DiceLimits, SearchConfig};
use chesscore::dice::{DiceGame, Player, PlayerKind, Rules};
use chesscore::Move;

/// A player of `chesscore dice` and `chesscore dice match`: built in, or the engine.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) enum Contestant {
    /// random or greedy.
    Builtin(PlayerKind),
    /// This search with a configuration: `engine` is [`SearchConfig::ALL`], `engine:NAME`
    /// one of `lab/dice_configs.rs`'s `NAMED` (for matches between versions of the search); with
    /// `@N` on N threads (`None`: `--threads`); with `/dN` to depth N every move, whatever
    /// the time (for measuring what a turn of depth is worth).
    Engine(SearchConfig, Option<usize>, Option<u32>),
    /// An engine (as [`Contestant::Engine`], no fixed depth) that on a clock takes
    /// [`DiceLimits::clock_budget_ms`] for every search, the budget from before the time
    /// manager (`/old-clock`): the baseline the time manager was measured against.
    OldClock(SearchConfig, Option<usize>),
    /// Plain expectimax ([`SearchConfig::PLAIN`]), same evaluator and limits.
    Expectimax,
    /// Greedy with king exposure and king attack terms ([`HeuristicPlayer`]): the baseline
    /// of the published three-dice bots.
    Heuristic,
}

impl Contestant {
    pub(super) fn name(self) -> String {
        match self {
            Contestant::Builtin(k) => k.name().to_owned(),
            Contestant::Engine(c, threads, depth) => {
                let name = match dice_configs::name_of(&c) {
                    Some("all") | None => "engine",
                    Some(name) => name,
                };
                let name = match threads {
                    Some(n) => format!("{name}@{n}"),
                    None => name.to_owned(),
                };
                match depth {
                    Some(d) => format!("{name}/d{d}"),
                    None => name,
                }
            }
            Contestant::OldClock(c, n) => {
                format!("{}/old-clock", Contestant::Engine(c, n, None).name())
            }
            Contestant::Expectimax => "expectimax".to_owned(),
            Contestant::Heuristic => "heuristic".to_owned(),
        }
    }

    /// Whether the player searches (an engine or plain expectimax): with `--cube` such a
    /// player doubles and takes by the library's advice, the others never double and
    /// always take.
    pub(super) fn searches(self) -> bool {
        !matches!(self, Contestant::Builtin(_) | Contestant::Heuristic)
    }

    pub(super) fn from_name(s: &str) -> Option<Contestant> {
        if let Some(engine) = s.strip_suffix("/old-clock") {
            return match Contestant::from_name(engine)? {
                Contestant::Engine(c, n, None) => Some(Contestant::OldClock(c, n)),
                _ => None,
            };
        }
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
                    dice_configs::from_name(config).map(|c| Contestant::Engine(c, None, None))
                }
                None => PlayerKind::from_name(s).map(Contestant::Builtin),
            },
        }
    }

    /// The player for games of `rules`, drawing from `seed` where it draws at random; an
    /// engine without `@N` searches on `threads` threads.
    pub(super) fn player(
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
            Contestant::OldClock(c, n) => {
                let mut p = EnginePlayer::new(c, limits, hash);
                p.engine().set_threads(n.unwrap_or(threads));
                Box::new(OldClockPlayer { inner: p, limits })
            }
            Contestant::Expectimax => {
                Box::new(EnginePlayer::new(SearchConfig::PLAIN, limits, hash))
            }
        }
    }
}

/// The engine with the clock budget from before the time manager: on a clock every search
/// gets [`DiceLimits::clock_budget_ms`] as its fixed time (the clock over 25 plus three
/// quarters of the increment, at most 80% of the clock), whatever the rules, the position
/// or the micro-move.
struct OldClockPlayer {
    inner: EnginePlayer,
    /// The limits off a clock.
    limits: DiceLimits,
}

impl Player for OldClockPlayer {
    fn choose(&mut self, game: &DiceGame, moves: &[Move]) -> Move {
        self.inner.choose(game, moves)
    }

    fn set_clock(&mut self, clock: Option<DiceClock>) {
        self.inner.set_limits(match clock {
            Some(c) => DiceLimits {
                movetime_ms: Some(DiceLimits::clock_budget_ms(
                    c.time_ms,
                    c.inc_ms,
                    c.movestogo,
                )),
                soft_ms: None,
                ..self.limits
            },
            None => self.limits,
        });
    }
}
