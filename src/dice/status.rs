//! Game status: awaiting a roll or a move, won (king capture or mate), drawn; the outcomes of
//! the chance node; the draw rules.

use super::game::{DiceGame, Phase};
use super::gen;
use super::roll::Outcomes;
use super::rules::Rules;
use crate::moves::MoveList;
use crate::types::{Color, PieceType};
use crate::ALL_PIECE_TYPES;

/// How a game was won.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum WinReason {
    /// A king was captured.
    KingCapture = 1,
    /// Two dice: the side to move is in check with no legal move (judged before the roll).
    Checkmate = 2,
}

/// Why a game is drawn.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum DrawReason {
    /// 100 turns (passes included) without a capture or pawn move.
    FiftyMoves = 1,
    /// Two dice: no legal move and not in check; one die: no type can move.
    Stalemate = 2,
    /// Two dice: only the two kings are left (neither can ever be captured).
    DeadPosition = 3,
}

/// Where a game stands.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum DiceStatus {
    /// The game goes on; the dice are to be rolled.
    AwaitingRoll,
    /// The game goes on; a move (or the pass) is to be made.
    AwaitingMove,
    /// `winner` won.
    Won {
        /// The winner.
        winner: Color,
        /// How.
        reason: WinReason,
    },
    /// Drawn.
    Drawn(DrawReason),
}

impl DiceStatus {
    /// True when the game is over (won or drawn).
    pub fn is_over(self) -> bool {
        matches!(self, DiceStatus::Won { .. } | DiceStatus::Drawn(_))
    }
}

impl DiceGame {
    /// Where the game stands. Mate, stalemate and the draw rules are judged before the roll.
    pub fn status(&self) -> DiceStatus {
        if let Some(winner) = self.winner() {
            return DiceStatus::Won {
                winner,
                reason: WinReason::KingCapture,
            };
        }
        match self.phase() {
            Phase::AwaitingMove => return DiceStatus::AwaitingMove,
            Phase::Over => {
                return DiceStatus::Drawn(DrawReason::DeadPosition);
            }
            Phase::AwaitingRoll => {}
        }
        let pos = &self.pos;
        match self.rules() {
            Rules::TwoDice => {
                let mut caps = MoveList::new();
                gen::king_captures(pos, ALL_PIECE_TYPES, false, &mut caps);
                if caps.is_empty() && pos.count_legal_moves() == 0 {
                    return if pos.in_check() {
                        DiceStatus::Won {
                            winner: pos.side_to_move().flip(),
                            reason: WinReason::Checkmate,
                        }
                    } else {
                        DiceStatus::Drawn(DrawReason::Stalemate)
                    };
                }
            }
            Rules::OneDie => {
                if self.movable_types() == 0 {
                    return DiceStatus::Drawn(DrawReason::Stalemate);
                }
            }
            Rules::ThreeDice => {}
        }
        if self.h.halfmove >= 100 {
            return DiceStatus::Drawn(DrawReason::FiftyMoves);
        }
        if self.rules() == Rules::TwoDice && pos.occupied() == pos.pieces_of_type(PieceType::KING) {
            return DiceStatus::Drawn(DrawReason::DeadPosition);
        }
        DiceStatus::AwaitingRoll
    }

    /// One die: the piece-type mask of the faces the die can show (the types with a move for
    /// the side to move). Other rule sets: every type.
    pub fn movable_types(&self) -> u8 {
        if self.rules() == Rules::OneDie {
            gen::one_die_movable(&self.pos, self.h.ep)
        } else {
            ALL_PIECE_TYPES
        }
    }

    /// The chance node's outcomes with exact weights (empty once the game is over or while a
    /// move is awaited). Two dice: the 21 rolls, doubles as six outcomes of weight 1 (all six
    /// allow the same moves), mixed pairs of weight 2, over 36. One die: the movable types,
    /// weight 1 each. Three dice: the 56 multisets at 1, 3 or 6 over 216.
    pub fn outcomes(&self) -> Outcomes {
        if self.status() != DiceStatus::AwaitingRoll {
            return Outcomes::NONE;
        }
        match self.rules() {
            Rules::OneDie => Outcomes::one_die(self.movable_types()),
            r => Outcomes::fixed(r),
        }
    }

    /// Fills `out` with the moves the dice allow (cleared first; empty: the turn must pass
    /// with [`crate::Move::NONE`]). Allocates nothing.
    pub fn generate_moves(&self, out: &mut MoveList) {
        out.clear();
        if self.phase() != Phase::AwaitingMove {
            return;
        }
        let dice = self.h.dice;
        match self.rules() {
            Rules::TwoDice => gen::two_dice_moves(&self.pos, dice, out),
            Rules::OneDie => gen::one_die_moves(&self.pos, self.h.ep, dice.faces[0], out),
            Rules::ThreeDice => {
                let mut pos = self.pos.clone();
                gen::three_dice_moves(&mut pos, dice, self.h.ep, out);
            }
        }
    }

    /// [`DiceGame::generate_moves`] without copying the position for the three-dice
    /// look-ahead: the maximum rule makes and unmakes on the game's own position, which it
    /// leaves as it was. The form for a search.
    pub fn generate_moves_in_place(&mut self, out: &mut MoveList) {
        if self.rules() != Rules::ThreeDice {
            return self.generate_moves(out);
        }
        out.clear();
        if self.phase() != Phase::AwaitingMove {
            return;
        }
        let (dice, ep) = (self.h.dice, self.h.ep);
        gen::three_dice_moves(&mut self.pos, dice, ep, out);
    }

    /// [`DiceGame::generate_moves`] into a new list.
    pub fn moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generate_moves(&mut list);
        list
    }
}
