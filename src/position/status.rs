//! Repetition detection and game status.

use super::{Position, HISTORY_CAPACITY, HISTORY_KEY_MASK};
use crate::bitboard::Bitboard;
use crate::types::PieceType;

/// How the game stands in a position. Checked in this order: checkmate and stalemate (no
/// legal move), then the 50-move rule, threefold repetition, insufficient material.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum GameStatus {
    /// The game goes on.
    Ongoing = 0,
    /// The side to move is checkmated.
    Checkmate = 1,
    /// The side to move has no legal move and is not in check.
    Stalemate = 2,
    /// 100 plies without a capture or pawn move.
    FiftyMoveRule = 3,
    /// The position occurred for the third time.
    ThreefoldRepetition = 4,
    /// Neither side can mate: K v K, K+minor v K, or bishops all on one square color.
    InsufficientMaterial = 5,
}

impl Position {
    /// True when the current position occurred twice before (3 occurrences in all), looking
    /// back only as far as the last capture or pawn move and at most `ply_limit` plies.
    /// Positions are compared by the 43 hash bits a history entry keeps.
    /// Sees nothing once more moves were made than the history holds
    /// ([`HISTORY_CAPACITY`]; see [`Position::compact_history`]).
    pub fn is_repetition(&self, ply_limit: i32) -> bool {
        let n = self.st.history_len as usize;
        if n > HISTORY_CAPACITY {
            return false;
        }
        let back = (self.st.halfmove as usize)
            .min(ply_limit.max(0) as usize)
            .min(n);
        let mut seen = 0;
        let mut i = 2;
        while i <= back {
            if (self.history[n - i] ^ self.st.hash) & HISTORY_KEY_MASK == 0 {
                seen += 1;
                if seen >= 2 {
                    return true;
                }
            }
            i += 2;
        }
        false
    }

    /// The search's repetition rule: true when the position occurred before within the last
    /// `tree_plies` plies (a repetition inside the search tree scores as a draw at once), or
    /// occurred twice before (a threefold repetition with the game's history). Looks back at
    /// most `scan_limit` plies (the plies since the last null move), and only as far as the
    /// last capture or pawn move.
    pub fn is_search_repetition(&self, tree_plies: u32, scan_limit: u32) -> bool {
        let n = self.st.history_len as usize;
        if n > HISTORY_CAPACITY {
            return false;
        }
        let back = (self.st.halfmove as usize).min(scan_limit as usize).min(n);
        let mut seen = 0;
        let mut i = 4;
        while i <= back {
            if (self.history[n - i] ^ self.st.hash) & HISTORY_KEY_MASK == 0 {
                if i <= tree_plies as usize {
                    return true;
                }
                seen += 1;
                if seen >= 2 {
                    return true;
                }
            }
            i += 2;
        }
        false
    }

    /// True when neither side has mating material: no pawns, rooks or queens, and either at
    /// most one minor piece on the board or only bishops, all on squares of one color.
    pub fn is_insufficient_material(&self) -> bool {
        let heavy = self.pieces_of_type(PieceType::PAWN)
            | self.pieces_of_type(PieceType::ROOK)
            | self.pieces_of_type(PieceType::QUEEN);
        if heavy.any() {
            return false;
        }
        let knights = self.pieces_of_type(PieceType::KNIGHT);
        let bishops = self.pieces_of_type(PieceType::BISHOP);
        if (knights | bishops).count() <= 1 {
            return true;
        }
        knights.is_empty()
            && ((bishops & Bitboard::LIGHT_SQUARES).is_empty()
                || (bishops & !Bitboard::LIGHT_SQUARES).is_empty())
    }

    /// The game status (see [`GameStatus`] for the order of the checks).
    pub fn status(&self) -> GameStatus {
        if self.legal_moves().is_empty() {
            return if self.in_check() {
                GameStatus::Checkmate
            } else {
                GameStatus::Stalemate
            };
        }
        if self.st.halfmove >= 100 {
            return GameStatus::FiftyMoveRule;
        }
        if self.is_repetition(i32::MAX) {
            return GameStatus::ThreefoldRepetition;
        }
        if self.is_insufficient_material() {
            return GameStatus::InsufficientMaterial;
        }
        GameStatus::Ongoing
    }
}
