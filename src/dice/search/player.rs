//! The engine as a [`Player`]: this search ([`SearchConfig::ALL`]) or plain expectimax
//! ([`SearchConfig::PLAIN`], the baseline) under the same limits and evaluator.
//!
//! In three dice the first micro-move of a turn searches the whole turn; the later
//! micro-moves play the rest of that line while the game follows it (a new search
//! otherwise). On a clock ([`Player::set_clock`]) each search takes the time manager's
//! limits ([`DiceLimits::on_clock`]) instead of the fixed ones, keeping their depth and node
//! limits.

use super::{DiceEngine, DiceLimits, SearchConfig, TurnLine};
use crate::dice::game::DiceGame;
use crate::dice::player::{DiceClock, Player};
use crate::moves::Move;

/// A searching player.
#[derive(Debug)]
pub struct EnginePlayer {
    engine: DiceEngine,
    limits: DiceLimits,
    /// The clock for the next move, when playing on one.
    clock: Option<DiceClock>,
    /// The turn line of the last search and the micro-moves made before it.
    plan: Option<(Vec<Move>, TurnLine)>,
}

impl EnginePlayer {
    /// A player searching with `config` under `limits`, with a table of `hash_mib` MiB.
    pub fn new(config: SearchConfig, limits: DiceLimits, hash_mib: usize) -> EnginePlayer {
        let mut engine = DiceEngine::new(hash_mib);
        engine.set_config(config);
        EnginePlayer {
            engine,
            limits,
            clock: None,
            plan: None,
        }
    }

    /// The engine.
    pub fn engine(&mut self) -> &mut DiceEngine {
        &mut self.engine
    }

    /// Replaces the limits of the searches to come (off a clock).
    pub fn set_limits(&mut self, limits: DiceLimits) {
        self.limits = limits;
    }

    /// The limits of a search of `game` now: the time manager's on a clock (with the
    /// fixed limits' depth and nodes), else the fixed ones.
    pub fn limits_for(&self, game: &DiceGame) -> DiceLimits {
        match &self.clock {
            Some(clock) => DiceLimits {
                depth: self.limits.depth,
                nodes: self.limits.nodes,
                ..DiceLimits::on_clock(game, clock)
            },
            None => self.limits,
        }
    }
}

impl Player for EnginePlayer {
    fn choose(&mut self, game: &DiceGame, moves: &[Move]) -> Move {
        let made: Vec<Move> = game.turn_moves().collect();
        if let (false, Some((before, line))) = (made.is_empty(), &self.plan) {
            // The moves made since the search must be the line's first ones.
            let since = made.strip_prefix(before.as_slice());
            if let Some(since) = since {
                let k = since.len();
                if k < line.len && since == &line.moves[..k] && moves.contains(&line.moves[k]) {
                    return line.moves[k];
                }
            }
        }
        let limits = self.limits_for(game);
        let r = self
            .engine
            .search(game, &limits, &mut |_| {})
            .expect("a player is asked only for a game awaiting a move");
        self.plan = Some((made, r.line));
        let m = r.best_move();
        if moves.contains(&m) {
            m
        } else {
            moves[0]
        }
    }

    fn set_clock(&mut self, clock: Option<DiceClock>) {
        self.clock = clock;
    }
}
