//! `chesscore dice` without a mode: a game against a player, typed on stdin.

use super::DiceArgs;
use crate::Failure;
use chesscore::dice::cube::{advise, Cube, CubeOwner};
use chesscore::dice::eval::wdl::Wdl;
use chesscore::dice::pgn::{result_text, termination_text};
use chesscore::dice::player::{sample_roll, Rng};
use chesscore::dice::search::DiceEngine;
use chesscore::dice::{DiceGame, DiceStatus, Rules};
use std::io::{self, BufRead, Write};

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

/// The side to move's chances before `g`'s roll, and their line for `human`.
fn chances(
    engine: &mut DiceEngine,
    g: &DiceGame,
    human: chesscore::Color,
) -> Option<(Wdl, String)> {
    let q = engine
        .equity(g, &super::equity_limits(g.rules()), &mut |_| {})
        .ok()?;
    let (win, loss) = if g.side_to_move() == human {
        (q.wdl.win, q.wdl.loss)
    } else {
        (q.wdl.loss, q.wdl.win)
    };
    Some((
        q.wdl,
        format!(
            "chances for you ({}): win {:.0}% draw {:.0}% loss {:.0}%",
            side_name(human),
            100.0 * win,
            100.0 * q.wdl.draw,
            100.0 * loss
        ),
    ))
}

/// Reads one trimmed line; `None` at the end of input.
fn read_answer(input: &mut impl BufRead, line: &mut String) -> Result<Option<String>, Failure> {
    line.clear();
    if input.read_line(line).map_err(Failure::Input)? == 0 {
        return Ok(None);
    }
    Ok(Some(line.trim().to_owned()))
}

/// What a cube decision before the roll led to.
enum CubeTurn {
    /// Roll on.
    Play,
    /// The game ended by a pass: the winner.
    Passed(chesscore::Color),
    /// The human stopped (quit or end of input).
    Stop,
}

/// The cube before the roll of `g` (the side to move's chances `wdl`), `cube` seen from the
/// side to move: the engine doubles by the advice, the human is asked; the taker answers
/// (the engine by the advice).
fn cube_turn(
    g: &DiceGame,
    wdl: &Wdl,
    cube: &mut Cube,
    human: chesscore::Color,
    input: &mut impl BufRead,
    out: &mut impl Write,
    line: &mut String,
) -> Result<CubeTurn, Failure> {
    if cube.owner == CubeOwner::Opponent || cube.value >= 1 << 20 {
        return Ok(CubeTurn::Play);
    }
    let us = g.side_to_move();
    let advice = advise(wdl, *cube);
    let doubles = if us == human {
        loop {
            write!(out, "cube {}: double, or Enter to roll: ", cube.value)?;
            out.flush()?;
            match read_answer(input, line)?.as_deref() {
                None | Some("quit") | Some("exit") => return Ok(CubeTurn::Stop),
                Some("") | Some("roll") => break false,
                Some("double") => break true,
                Some(other) => writeln!(out, "'{other}': type double, or Enter to roll")?,
            }
        }
    } else {
        advice.double
    };
    if !doubles {
        return Ok(CubeTurn::Play);
    }
    writeln!(out, "{} doubles to {}", side_name(us), cube.value * 2)?;
    let takes = if us == human {
        advice.take
    } else {
        loop {
            write!(out, "take or pass: ")?;
            out.flush()?;
            match read_answer(input, line)?.as_deref() {
                None | Some("quit") | Some("exit") => return Ok(CubeTurn::Stop),
                Some("take") => break true,
                Some("pass") => break false,
                Some(other) => writeln!(out, "'{other}': type take or pass")?,
            }
        }
    };
    if !takes {
        writeln!(out, "{} passes", side_name(us.flip()))?;
        return Ok(CubeTurn::Passed(us));
    }
    writeln!(
        out,
        "{} takes: the stake is {}",
        side_name(us.flip()),
        cube.value * 2
    )?;
    *cube = Cube {
        value: cube.value * 2,
        owner: CubeOwner::Opponent,
    };
    Ok(CubeTurn::Play)
}

/// `chesscore dice`: a game against a built-in player on stdin and stdout.
pub(super) fn play_cmd(
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
    // The win chances' own engine (the opponent's search keeps its table).
    let mut equity = DiceEngine::new(a.hash.min(16));
    // The cube (with --cube), seen from the side to move.
    let mut cube = Cube::default();
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
                let seen = chances(&mut equity, &g, a.human);
                if let Some((_, text)) = &seen {
                    writeln!(out, "{text}")?;
                }
                if let (true, Some((wdl, _))) = (a.cube, &seen) {
                    match cube_turn(&g, wdl, &mut cube, a.human, input, out, &mut line)? {
                        CubeTurn::Play => {}
                        CubeTurn::Stop => {
                            writeln!(out)?;
                            return Ok(());
                        }
                        CubeTurn::Passed(winner) => {
                            writeln!(
                                out,
                                "Game over: {} wins {} point{} (pass)",
                                side_name(winner),
                                cube.value,
                                if cube.value == 1 { "" } else { "s" }
                            )?;
                            return Ok(());
                        }
                    }
                }
                writeln!(out, "{} rolls {roll}", side_name(g.side_to_move()))?;
                let _ = g.set_roll(roll);
                // The roll starts the turn: the cube is seen from the next mover after it.
                cube.owner = match cube.owner {
                    CubeOwner::Centered => CubeOwner::Centered,
                    CubeOwner::Mover => CubeOwner::Opponent,
                    CubeOwner::Opponent => CubeOwner::Mover,
                };
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
                if a.cube {
                    writeln!(out, "stake: {}", cube.value)?;
                }
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
