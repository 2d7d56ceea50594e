//! The dice FEN: standard FEN with two extensions. Field 4 holds every en passant target,
//! concatenated in square order (`a3c3e3`); in the middle of a three-dice turn it also holds
//! the targets the mover's own double pushes of this turn leave for the opponent (they are on
//! the other rank, so the two kinds never mix up). An optional field 7 holds the dice still
//! to play as piece letters sorted pawn to king (`PPN`), or `-` before the roll. The writer
//! writes the letters in the mover's case (White `PPN`, Black `ppn`); the reader takes
//! either case, letter by letter (`PPN`, `ppn` and `PpN` are the same dice whoever moves:
//! field 2 names the mover), since the engine the rules come from writes upper case for
//! both sides. The writer always writes the seven fields. A game won by a king capture writes
//! the board as it stood (the capture is not made on the board): the FEN does not say the
//! game is over.

use super::game::{DiceGame, Header, Phase};
use super::roll::Roll;
use super::rules::Rules;
use crate::bitboard::Bitboard;
use crate::position::{FenError, Position};
use crate::types::{Color, Piece, PieceType, Square};
use core::fmt;

/// Why a dice FEN was rejected.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum DiceFenError {
    /// A defect of the standard fields (as in [`Position::from_fen`]).
    Fen(FenError),
    /// The en passant field is not `-` or squares each with a pawn that just double-pushed
    /// in front of an empty target, on a rank the rule set allows.
    EnPassant,
    /// The dice field is not `-` or piece letters (either case), sorted, as many as the
    /// rule set rolls (three dice: 1 to 3; one die: a type that can move).
    Dice,
    /// Both kings are in check (two dice: a pass can leave only the side not to move in
    /// check).
    BothInCheck,
}

impl DiceFenError {
    /// A short English description.
    pub fn message(self) -> &'static str {
        match self {
            DiceFenError::Fen(e) => e.message(),
            DiceFenError::EnPassant => "dice FEN en passant targets are malformed or impossible",
            DiceFenError::Dice => "dice FEN dice field is malformed or impossible",
            DiceFenError::BothInCheck => "dice FEN has both kings in check",
        }
    }
}

impl fmt::Display for DiceFenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.message())
    }
}

impl std::error::Error for DiceFenError {}

impl From<FenError> for DiceFenError {
    fn from(e: FenError) -> Self {
        DiceFenError::Fen(e)
    }
}

/// Parses `-` or concatenated squares.
fn parse_squares(s: &str) -> Option<Bitboard> {
    if s == "-" {
        return Some(Bitboard::EMPTY);
    }
    if s.is_empty() || s.len() % 2 != 0 || !s.is_ascii() {
        return None;
    }
    let mut b = Bitboard::EMPTY;
    let mut last: Option<Square> = None;
    for i in (0..s.len()).step_by(2) {
        let sq = Square::parse(&s[i..i + 2])?;
        if last.is_some_and(|l| l >= sq) {
            return None;
        }
        last = Some(sq);
        b |= sq.bb();
    }
    Some(b)
}

/// Parses the dice field: piece letters in either case, each on its own (the case says
/// nothing: field 2 names the mover), sorted pawn to king.
fn parse_dice(s: &str) -> Option<Roll> {
    if s == "-" {
        return Some(Roll::EMPTY);
    }
    let mut faces = [0u8; 3];
    let mut n = 0;
    for c in s.chars() {
        if n == 3 {
            return None;
        }
        let t = PieceType::from_char(c.to_ascii_lowercase())?;
        faces[n] = t.to_u8();
        n += 1;
    }
    let roll = Roll {
        count: n as u8,
        faces,
    };
    roll.is_canonical().then_some(roll)
}

impl DiceGame {
    /// Parses a dice FEN (see the [module docs](self)) under `rules`. The rules decide which
    /// checks may stand: two dice allow the side not to move in check (after a pass), the
    /// other rule sets any checks.
    ///
    /// # Errors
    /// A [`DiceFenError`] naming the first defect.
    pub fn from_fen(rules: Rules, fen: &str) -> Result<DiceGame, DiceFenError> {
        let mut fields = [""; 8];
        let mut count = 0;
        for f in fen.split(' ') {
            if let Some(slot) = fields.get_mut(count) {
                *slot = f;
            }
            count += 1;
        }
        if fields.iter().take(count.min(7)).any(|f| f.is_empty()) {
            return Err(FenError::FieldCount.into());
        }
        match count {
            4 | 6 | 7 => {}
            n if n > 7 => return Err(FenError::TrailingText.into()),
            _ => return Err(FenError::FieldCount.into()),
        }
        let no_check = !rules.has_check();
        let targets = if no_check {
            // Syntax first, so that a malformed field is an en passant error.
            Some(parse_squares(fields[3]).ok_or(DiceFenError::EnPassant)?)
        } else {
            None
        };
        let mut core = String::with_capacity(fen.len());
        for (i, f) in fields.iter().take(count.min(6)).enumerate() {
            if i > 0 {
                core.push(' ');
            }
            core.push_str(if i == 3 && no_check { "-" } else { f });
        }
        // Checks are never impossible in Dice Chess: in check, a roll without an answer
        // passes the turn, and the opponent may then play on without taking the king.
        let pos = Position::from_fen_relaxed(&core, true, true)?;
        let us = pos.side_to_move();
        if !no_check && pos.in_check() {
            let their_king = pos.king_square(us.flip());
            if pos.is_attacked(their_king, us) {
                return Err(DiceFenError::BothInCheck);
            }
        }
        let dice =
            parse_dice(if count == 7 { fields[6] } else { "-" }).ok_or(DiceFenError::Dice)?;
        let (mut ep, mut ep_next) = (Bitboard::EMPTY, Bitboard::EMPTY);
        if let Some(t) = targets {
            let (theirs_rank, ours_rank) = if us == Color::WHITE {
                (Bitboard::RANK_6, Bitboard::RANK_3)
            } else {
                (Bitboard::RANK_3, Bitboard::RANK_6)
            };
            ep = t & theirs_rank;
            ep_next = t & ours_rank;
            let mid_turn = rules == Rules::ThreeDice && dice.count > 0 && dice.count < 3;
            if (t & !(theirs_rank | ours_rank)).any() || (ep_next.any() && !mid_turn) {
                return Err(DiceFenError::EnPassant);
            }
            if rules == Rules::OneDie && ep.more_than_one() {
                return Err(DiceFenError::EnPassant);
            }
            for sq in t {
                let pusher = if ep.has(sq) { us.flip() } else { us };
                let pawn = Square::from_index(sq.to_u8() ^ 8);
                if pos.piece_on(pawn) != Piece::new(pusher, PieceType::PAWN)
                    || !pos.piece_on(sq).is_none()
                {
                    return Err(DiceFenError::EnPassant);
                }
            }
        }
        let mut game = DiceGame::new(rules);
        game.h = Header {
            ep,
            ep_next,
            halfmove: pos.halfmove_clock().min(u16::MAX as u32) as u16,
            fullmove: pos.fullmove_number().min(u16::MAX as u32) as u16,
            ..game.h
        };
        game.pos = pos;
        if dice.count > 0 {
            let ok = match rules {
                Rules::ThreeDice => true,
                _ => dice.count as usize == rules.dice_count(),
            };
            if !ok {
                return Err(DiceFenError::Dice);
            }
            if rules == Rules::OneDie && game.movable_types() & dice.mask() == 0 {
                return Err(DiceFenError::Dice);
            }
            if game.status().is_over() {
                return Err(DiceFenError::Dice);
            }
            game.h.dice = dice;
            game.h.phase = Phase::AwaitingMove as u8;
            game.h.micro = (rules.dice_count() - dice.count as usize) as u8;
        }
        Ok(game)
    }

    /// Writes the dice FEN (seven fields).
    pub fn write_fen(&self, out: &mut impl fmt::Write) -> fmt::Result {
        let core = self.pos.to_fen();
        let mut fields = core.split(' ');
        for i in 0..3 {
            if i > 0 {
                out.write_char(' ')?;
            }
            out.write_str(fields.next().unwrap_or("-"))?;
        }
        out.write_char(' ')?;
        if self.rules().has_check() {
            out.write_str(fields.next().unwrap_or("-"))?;
        } else {
            let t = self.h.ep | self.h.ep_next;
            if t.is_empty() {
                out.write_char('-')?;
            }
            for sq in t {
                write!(out, "{sq}")?;
            }
        }
        write!(out, " {} {} ", self.h.halfmove, self.h.fullmove)?;
        if self.h.dice.count == 0 {
            out.write_char('-')
        } else {
            for c in self.h.dice.letters(self.pos.side_to_move()) {
                out.write_char(c)?;
            }
            Ok(())
        }
    }

    /// The dice FEN (seven fields).
    pub fn to_fen(&self) -> String {
        let mut s = String::with_capacity(100);
        let _ = self.write_fen(&mut s);
        s
    }
}
