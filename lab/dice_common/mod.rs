//! Shared by the Dice Chess examples (`dice_datagen`, `dice_tune`, `dice_eval_match`,
//! `dice_search_bench`, `dice_probcut_calibrate`): players, one game, a turn of a seeded
//! greedy/random game, weights files.

#![allow(dead_code)]

use chesscore::dice::eval::heuristic::HeuristicPlayer;
use chesscore::dice::eval::DiceEvaluator;
use chesscore::dice::player::{sample_roll, Rng};
use chesscore::dice::search::player::EnginePlayer;
use chesscore::dice::search::{DiceLimits, SearchConfig};
use chesscore::dice::{DiceGame, DiceStatus, GreedyPlayer, Phase, Player, RandomPlayer, Rules};
use chesscore::eval::nnue::Network;
use chesscore::lab::dice_eval::{
    evaluator_with_weights, with_chess_net, with_weights_override, Weights, NUM_FEATURES,
};
use chesscore::{Color, Move, MoveList};
use std::sync::Arc;

/// One ply with the evaluator: the move after which the value for the mover is best (a
/// micro-move judged on the game as it stands after it, the turn going on or not).
pub struct EvalPlayer {
    pub ev: DiceEvaluator,
    pub rng: Rng,
}

impl Player for EvalPlayer {
    fn choose(&mut self, game: &DiceGame, moves: &[Move]) -> Move {
        let us = game.side_to_move();
        let mut g = game.clone();
        let mut best = i32::MIN;
        let mut picks = MoveList::new();
        for &m in moves {
            let u = g.make_move_unchecked(m);
            let v = match g.status() {
                DiceStatus::Won { winner, .. } => {
                    if winner == us {
                        1_000_000
                    } else {
                        -1_000_000
                    }
                }
                DiceStatus::Drawn(_) => 0,
                _ if g.side_to_move() == us => self.ev.evaluate(&g),
                _ => -self.ev.evaluate(&g),
            };
            g.unmake_move_unchecked(m, &u);
            if v > best {
                best = v;
                picks.clear();
            }
            if v == best {
                picks.push(m);
            }
        }
        picks.as_slice()[self.rng.below(picks.len() as u64) as usize]
    }
}

/// The engine's search with given weights (`None`: the weights in use) standing in for its
/// evaluator's (see `with_weights_override`).
pub struct WeightedEngine {
    inner: EnginePlayer,
    rules: Rules,
    weights: Option<Weights>,
    /// The chess term's source (`with_chess_net`: a net, or `None` for the hand-written
    /// chess evaluation), else the rule set's default.
    net: Option<Option<Arc<Network>>>,
}

impl WeightedEngine {
    fn new(
        rules: Rules,
        config: SearchConfig,
        limits: DiceLimits,
        weights: Option<Weights>,
        net: Option<Option<Arc<Network>>>,
    ) -> WeightedEngine {
        let make = || {
            let engine = || EnginePlayer::new(config, limits, 16);
            match net.clone() {
                Some(n) => with_chess_net(n, engine),
                None => engine(),
            }
        };
        let inner = match weights {
            Some(w) => with_weights_override(rules, w, make),
            None => make(),
        };
        WeightedEngine {
            inner,
            rules,
            weights,
            net,
        }
    }
}

impl Player for WeightedEngine {
    fn choose(&mut self, game: &DiceGame, moves: &[Move]) -> Move {
        let (inner, net) = (&mut self.inner, self.net.clone());
        let choose = || match net {
            Some(n) => with_chess_net(n, || inner.choose(game, moves)),
            None => inner.choose(game, moves),
        };
        match self.weights {
            Some(w) => with_weights_override(self.rules, w, choose),
            None => choose(),
        }
    }
}

/// A player by name: `random`, `greedy`, `heuristic`, `eval` (one ply, the weights in use),
/// `eval:FILE` (one ply, weights from a file written by `dice_tune --out`), `engine:dN` or
/// `engine:tMS` (the engine's search to depth N or for MS milliseconds a move), optionally
/// followed by `:FILE` (with those weights) and/or a chess term other than the rule set's
/// default (`with_chess_net`): `:hand` (the hand-written chess evaluation, the engine before
/// the learned nets), `:net` (the embedded chess net) or `:net=NET` (the net file NET), e.g.
/// `engine:d2:hand` or `engine:d2:w.txt:net=dice.nnue`. `plain:` in place of `engine:` is
/// plain expectimax (`SearchConfig::PLAIN`) with the same options.
pub fn make_player(name: &str, rules: Rules, rng: Rng) -> Box<dyn Player + Send> {
    let engine_spec = name
        .strip_prefix("engine:")
        .map(|s| (SearchConfig::ALL, s))
        .or_else(|| {
            name.strip_prefix("plain:")
                .map(|s| (SearchConfig::PLAIN, s))
        });
    if let Some((config, spec)) = engine_spec {
        let (spec, net) = if let Some(rest) = spec.strip_suffix(":net") {
            (
                rest,
                Some(Some(Network::embedded().expect("an embedded net"))),
            )
        } else if let Some(rest) = spec.strip_suffix(":hand") {
            (rest, Some(None))
        } else if let Some((rest, path)) = spec.split_once(":net=") {
            let net = Network::from_file(path).unwrap_or_else(|e| panic!("{path}: {e:?}"));
            (rest, Some(Some(Arc::new(net))))
        } else {
            (spec, None)
        };
        let (limit, file) = spec
            .split_once(':')
            .map_or((spec, None), |(a, b)| (a, Some(b)));
        let limits = if let Some(d) = limit.strip_prefix('d') {
            DiceLimits::depth(d.parse().expect("depth"))
        } else if let Some(t) = limit.strip_prefix('t') {
            DiceLimits::movetime(t.parse().expect("milliseconds"))
        } else {
            panic!("engine:dN or engine:tMS")
        };
        return Box::new(WeightedEngine::new(
            rules,
            config,
            limits,
            file.map(read_weights),
            net,
        ));
    }
    match name {
        "random" => Box::new(RandomPlayer(rng)),
        "greedy" => Box::new(GreedyPlayer(rng)),
        "heuristic" => Box::new(HeuristicPlayer::new(rules, rng)),
        "eval" => Box::new(EvalPlayer {
            ev: DiceEvaluator::new(rules),
            rng,
        }),
        n if n.starts_with("eval:") => Box::new(EvalPlayer {
            ev: evaluator_with_weights(rules, read_weights(&n[5..])),
            rng,
        }),
        n => panic!("unknown player {n}"),
    }
}

/// Weights from a file: one integer per line (`#` comments allowed), NUM_FEATURES of them.
pub fn read_weights(path: &str) -> Weights {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let v: Vec<i32> = text
        .lines()
        .map(|l| l.split('#').next().unwrap_or("").trim())
        .filter(|l| !l.is_empty())
        .map(|l| l.parse().expect("weight"))
        .collect();
    assert_eq!(v.len(), NUM_FEATURES, "{path}: {} weights", v.len());
    let mut w = [0; NUM_FEATURES];
    w.copy_from_slice(&v);
    w
}

/// Game `g` of a seeded self-play run (`dice_equity_calibrate`, `dice_nnue_datagen`): both
/// sides `player`, the first 4 turns each move random with chance 1/2, none later; the
/// players, dice and noise drawn from a generator seeded by `seed` and `g` alone, so the game
/// does not depend on the thread that plays it.
pub fn selfplay_game(rules: Rules, player: &str, seed: u64, g: u64) -> Played {
    let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ (g + 1));
    let mut w = make_player(player, rules, Rng(rng.next_u64()));
    let mut b = make_player(player, rules, Rng(rng.next_u64()));
    let mut dice = Rng(rng.next_u64());
    let mut noise = Rng(rng.next_u64());
    play(
        rules,
        w.as_mut(),
        b.as_mut(),
        &mut dice,
        (4, 0.5, 0.0),
        &mut noise,
        true,
    )
}

/// How a game went: White's score (1, 0.5, 0) and the games awaiting a roll along the way.
pub struct Played {
    pub white_score: f64,
    pub positions: Vec<DiceGame>,
    pub turns: u32,
}

/// Plays one game: rolls from `dice` (so a pair of games can share them), `noise`: in the
/// first `noise.0` turns each move is random with chance `noise.1`, later with `noise.2`.
pub fn play(
    rules: Rules,
    white: &mut dyn Player,
    black: &mut dyn Player,
    dice: &mut Rng,
    noise: (u32, f64, f64),
    noise_rng: &mut Rng,
    keep: bool,
) -> Played {
    let mut g = DiceGame::new(rules);
    let mut positions = Vec::new();
    let mut list = MoveList::new();
    let mut turns = 0;
    let white_score = loop {
        match g.status() {
            DiceStatus::Won { winner, .. } => break if winner == Color::WHITE { 1.0 } else { 0.0 },
            DiceStatus::Drawn(_) => break 0.5,
            _ => {}
        }
        if turns >= 400 {
            break 0.5;
        }
        if keep {
            positions.push(g.clone());
        }
        let roll = sample_roll(&g, dice).expect("a roll");
        g.set_roll(roll).expect("a valid roll");
        let eps = if turns < noise.0 { noise.1 } else { noise.2 };
        while g.phase() == Phase::AwaitingMove {
            g.generate_moves(&mut list);
            let m = if list.is_empty() {
                Move::NONE
            } else if eps > 0.0 && (noise_rng.below(1 << 20) as f64) < eps * (1 << 20) as f64 {
                list.as_slice()[noise_rng.below(list.len() as u64) as usize]
            } else if g.side_to_move() == Color::WHITE {
                white.choose(&g, list.as_slice())
            } else {
                black.choose(&g, list.as_slice())
            };
            g.make_move_unchecked(m);
        }
        turns += 1;
    };
    Played {
        white_score,
        positions,
        turns,
    }
}

/// Plays out the turn whose dice `g` has just rolled in a seeded greedy/random game: the
/// whole turn by `random` one time in four (drawn from `rng`), else by `greedy`; a pass
/// where the roll allows nothing.
pub fn play_mixed_turn(
    g: &mut DiceGame,
    rng: &mut Rng,
    greedy: &mut GreedyPlayer,
    random: &mut RandomPlayer,
) {
    let use_random = rng.below(4) == 0;
    while g.phase() == Phase::AwaitingMove {
        let l = g.moves();
        let m = if l.is_empty() {
            Move::NONE
        } else if use_random {
            random.choose(g, l.as_slice())
        } else {
            greedy.choose(g, l.as_slice())
        };
        g.make_move(m).unwrap();
    }
}
