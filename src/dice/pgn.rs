//! Self-play games as PGN, and reading them back. The rolls are in comments, moves in UCI
//! notation (king captures too), a pass is `--`; a three-dice turn is its roll followed by
//! its micro-moves:
//!
//! ```text
//! [Event "chesscore dice selfplay"]
//! [Variant "three-dice"]
//! [Seed "7"]
//! [White "random"]
//! [Black "greedy"]
//! [Result "0-1"]
//! [Termination "king capture"]
//!
//! 1. {roll 1-1-2} e2e4 e4e5 g1f3 {roll 3-5-6} e7e6 f8b4 e8e7 2. ...
//! ```
//!
//! A game is replayed exactly from its seed (the dice and both players draw from generators
//! seeded by it); [`verify_pgn`] reads games back and checks every roll and move against the
//! rules, and the result against the final position.

use super::game::{DiceGame, Phase};
use super::player::{sample_roll, PlayerKind, Rng};
use super::roll::Roll;
use super::rules::Rules;
use super::status::{DiceStatus, DrawReason, WinReason};
use crate::moves::Move;
use crate::types::Color;
use core::fmt::Write as _;

/// One self-play game: its settings, and every roll and move in order.
#[derive(Clone, Debug)]
pub struct GameRecord {
    /// The rule set.
    pub rules: Rules,
    /// The seed the dice and the players drew from.
    pub seed: u64,
    /// White's player.
    pub white: PlayerKind,
    /// Black's player.
    pub black: PlayerKind,
    /// Each turn: the mover, its roll and its moves (empty: a pass).
    pub turns: Vec<(Color, Roll, Vec<Move>)>,
    /// The game as it ended.
    pub end: DiceStatus,
}

/// The PGN result text of a status.
pub fn result_text(s: DiceStatus) -> &'static str {
    match s {
        DiceStatus::Won {
            winner: Color::WHITE,
            ..
        } => "1-0",
        DiceStatus::Won { .. } => "0-1",
        DiceStatus::Drawn(_) => "1/2-1/2",
        _ => "*",
    }
}

/// The PGN termination text of a status.
pub fn termination_text(s: DiceStatus) -> &'static str {
    match s {
        DiceStatus::Won {
            reason: WinReason::KingCapture,
            ..
        } => "king capture",
        DiceStatus::Won { .. } => "checkmate",
        DiceStatus::Drawn(DrawReason::FiftyMoves) => "fifty-move rule",
        DiceStatus::Drawn(DrawReason::Stalemate) => "stalemate",
        DiceStatus::Drawn(DrawReason::DeadPosition) => "dead position",
        _ => "unterminated",
    }
}

/// Plays one game between two built-in players from the start position, at most
/// `max_turns` turns; the dice and the players draw from generators seeded by `seed`.
pub fn selfplay(
    rules: Rules,
    seed: u64,
    white: PlayerKind,
    black: PlayerKind,
    max_turns: u32,
) -> GameRecord {
    let mut dice_rng = Rng(seed);
    let mut players = [
        white.player(Rng(seed ^ 0x5757_5757)),
        black.player(Rng(seed ^ 0xb1ac_b1ac)),
    ];
    let mut g = DiceGame::new(rules);
    let mut turns = Vec::new();
    while (turns.len() as u32) < max_turns {
        let Some(roll) = sample_roll(&g, &mut dice_rng) else {
            break;
        };
        let mover = g.side_to_move();
        if g.set_roll(roll).is_err() {
            break;
        }
        let mut moves = Vec::new();
        while g.phase() == Phase::AwaitingMove {
            let list = g.moves();
            if list.is_empty() {
                g.make_move_unchecked(Move::NONE);
                break;
            }
            let m = players[mover.index()].choose(&g, list.as_slice());
            g.make_move_unchecked(m);
            moves.push(m);
        }
        turns.push((mover, roll, moves));
    }
    GameRecord {
        rules,
        seed,
        white,
        black,
        turns,
        end: g.status(),
    }
}

/// The roll as PGN comment text: faces joined by `-`.
fn roll_digits(r: &Roll) -> String {
    let mut s = String::new();
    for (i, f) in r.dice().iter().enumerate() {
        if i > 0 {
            s.push('-');
        }
        let _ = write!(s, "{f}");
    }
    s
}

impl GameRecord {
    /// The game as PGN (`round` for the Round tag).
    pub fn to_pgn(&self, round: u32) -> String {
        let mut s = String::new();
        let result = result_text(self.end);
        let _ = writeln!(s, "[Event \"chesscore dice selfplay\"]");
        let _ = writeln!(s, "[Site \"?\"]");
        let _ = writeln!(s, "[Round \"{round}\"]");
        let _ = writeln!(s, "[White \"{}\"]", self.white.name());
        let _ = writeln!(s, "[Black \"{}\"]", self.black.name());
        let _ = writeln!(s, "[Result \"{result}\"]");
        let _ = writeln!(s, "[Variant \"{}\"]", self.rules.name());
        let _ = writeln!(s, "[Seed \"{}\"]", self.seed);
        let _ = writeln!(s, "[Termination \"{}\"]", termination_text(self.end));
        s.push('\n');
        let mut line = String::new();
        let mut number = 1;
        for (mover, roll, moves) in &self.turns {
            let mut tokens = Vec::new();
            if *mover == Color::WHITE {
                tokens.push(format!("{number}."));
            } else if line.is_empty() {
                tokens.push(format!("{number}..."));
            }
            tokens.push(format!("{{roll {}}}", roll_digits(roll)));
            if moves.is_empty() {
                tokens.push("--".to_owned());
            }
            tokens.extend(moves.iter().map(|m| m.to_string()));
            if *mover == Color::BLACK {
                number += 1;
            }
            for t in tokens {
                if line.len() + t.len() + 1 > 80 {
                    s.push_str(&line);
                    s.push('\n');
                    line.clear();
                }
                if !line.is_empty() {
                    line.push(' ');
                }
                line.push_str(&t);
            }
        }
        if line.len() + result.len() + 1 > 80 {
            s.push_str(&line);
            s.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(result);
        s.push_str(&line);
        s.push_str("\n\n");
        s
    }
}

/// What [`verify_pgn`] found in one game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verified {
    /// The rule set (`Variant` tag).
    pub rules: Rules,
    /// Turns played.
    pub turns: u32,
    /// Moves made (micro-moves each; passes not counted).
    pub moves: u32,
    /// The result tag, which the final position confirms.
    pub result: String,
}

/// Reads every game of `text` and replays it under the rules its `Variant` tag names:
/// every roll must be one the rules can produce, every move one the roll allows, every pass
/// a turn without a move, each turn complete, and the `Result` tag the final position's.
///
/// # Errors
/// A message naming the game and what is wrong.
pub fn verify_pgn(text: &str) -> Result<Vec<Verified>, String> {
    let mut games = Vec::new();
    let mut tags: Vec<(String, String)> = Vec::new();
    let mut movetext = String::new();
    let mut in_moves = false;
    for line in text.lines().chain(core::iter::once("[End \"\"]")) {
        let t = line.trim();
        if t.starts_with('[') {
            if in_moves {
                games.push(verify_one(games.len() + 1, &tags, &movetext)?);
                tags.clear();
                movetext.clear();
                in_moves = false;
            }
            let inner = t.trim_start_matches('[').trim_end_matches(']');
            let (name, value) = inner
                .split_once(' ')
                .ok_or_else(|| format!("malformed tag line '{t}'"))?;
            tags.push((name.to_owned(), value.trim_matches('"').to_owned()));
        } else if !t.is_empty() {
            in_moves = true;
            movetext.push_str(t);
            movetext.push(' ');
        }
    }
    if games.is_empty() {
        return Err("no game found".to_owned());
    }
    Ok(games)
}

fn verify_one(n: usize, tags: &[(String, String)], movetext: &str) -> Result<Verified, String> {
    let tag = |name: &str| {
        tags.iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    };
    let err = |msg: String| format!("game {n}: {msg}");
    let rules = tag("Variant")
        .and_then(Rules::from_name)
        .ok_or_else(|| err("no Variant tag naming two-dice, one-die or three-dice".into()))?;
    let result = tag("Result").unwrap_or("*").to_owned();
    let mut g = DiceGame::new(rules);
    let (mut turns, mut moves) = (0u32, 0u32);
    let mut tokens = movetext.split_whitespace().peekable();
    let mut game_result = None;
    while let Some(tok) = tokens.next() {
        if tok == "{roll" {
            let faces_text = tokens
                .next()
                .and_then(|t| t.strip_suffix('}'))
                .ok_or_else(|| err("malformed roll comment".into()))?;
            let faces: Option<Vec<u8>> = faces_text.split('-').map(|f| f.parse().ok()).collect();
            let roll = faces
                .as_deref()
                .and_then(Roll::from_faces)
                .ok_or_else(|| err(format!("malformed roll '{faces_text}'")))?;
            if g.phase() == Phase::AwaitingMove {
                return Err(err(format!(
                    "turn {turns}: a roll before the turn was complete"
                )));
            }
            g.set_roll(roll)
                .map_err(|e| err(format!("turn {}: roll {roll}: {e}", turns + 1)))?;
            turns += 1;
        } else if tok.ends_with('.') && tok.trim_end_matches('.').parse::<u32>().is_ok() {
            continue;
        } else if matches!(tok, "1-0" | "0-1" | "1/2-1/2" | "*") {
            game_result = Some(tok.to_owned());
            break;
        } else if tok == "--" {
            g.make_move(Move::NONE)
                .map_err(|e| err(format!("turn {turns}: pass: {e}")))?;
        } else {
            let list = g.moves();
            let m = list
                .iter()
                .copied()
                .find(|m| m.to_string() == tok)
                .ok_or_else(|| {
                    err(format!(
                        "turn {turns}: '{tok}' is not a move the roll allows in {}",
                        g.to_fen()
                    ))
                })?;
            g.make_move(m)
                .map_err(|e| err(format!("turn {turns}: {tok}: {e}")))?;
            moves += 1;
        }
    }
    if g.phase() == Phase::AwaitingMove {
        return Err(err("the last turn is not complete".into()));
    }
    let game_result = game_result.ok_or_else(|| err("no result at the end".into()))?;
    if game_result != result {
        return Err(err(format!(
            "result {game_result} differs from the tag {result}"
        )));
    }
    let actual = result_text(g.status());
    if actual != result {
        return Err(err(format!(
            "the result is {result}, the final position says {actual}"
        )));
    }
    Ok(Verified {
        rules,
        turns,
        moves,
        result,
    })
}
