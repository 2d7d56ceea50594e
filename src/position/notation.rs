//! Moves in UCI text and as [`MicroMove`], resolved against a position.

use super::Position;
use crate::moves::{MicroMove, Move};
use crate::types::{PieceType, Square};
use core::fmt;

/// Why a move in UCI text or as a micro move was not accepted.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum NotationError {
    /// Not of the form `e2e4` or `e7e8q` (lower-case promotion letter `n b r q`).
    Syntax,
    /// Well formed, but no legal move of this position matches.
    Illegal,
}

impl fmt::Display for NotationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            NotationError::Syntax => "move text is not UCI notation",
            NotationError::Illegal => "no legal move matches",
        })
    }
}

impl std::error::Error for NotationError {}

impl Position {
    /// The legal move going `from` to `to` with promotion `promo` (`PieceType::NONE` for
    /// none). Castling is the king's move (`e1g1`), in Chess960 mode the king taking its own
    /// rook (`e1h1`, see [`Position::uci_target`]).
    ///
    /// # Errors
    /// [`NotationError::Illegal`] when no legal move matches.
    pub fn find_legal_move(
        &self,
        from: Square,
        to: Square,
        promo: PieceType,
    ) -> Result<Move, NotationError> {
        let pc = self.piece_on(from);
        if pc.is_none() || pc.color() != self.side_to_move() {
            return Err(NotationError::Illegal);
        }
        let mut list = crate::moves::MoveList::new();
        self.generate_moves(
            crate::movegen::Legality::Legal,
            crate::movegen::GenType::All,
            pc.kind().mask_bit(),
            &mut list,
        );
        list.iter()
            .copied()
            .find(|&m| m.from() == from && self.uci_target(m) == to && m.promotion() == promo)
            .ok_or(NotationError::Illegal)
    }

    /// Parses UCI text (`e2e4`, `e7e8q`, castling `e1g1`, in Chess960 mode `e1h1`) into the
    /// legal move it names.
    ///
    /// # Errors
    /// [`NotationError::Syntax`] for malformed text, [`NotationError::Illegal`] when well formed
    /// but not legal here.
    ///
    /// ```
    /// use chesscore::Position;
    /// let pos = Position::startpos();
    /// let m = pos.parse_uci_move("g1f3").unwrap();
    /// assert_eq!(m.to_string(), "g1f3");
    /// assert!(pos.parse_uci_move("e2e5").is_err());
    /// // Not ASCII: a syntax error (slicing it by bytes would split a character).
    /// assert_eq!(pos.parse_uci_move("a\u{1F600}"), Err(chesscore::NotationError::Syntax));
    /// ```
    pub fn parse_uci_move(&self, text: &str) -> Result<Move, NotationError> {
        let b = text.as_bytes();
        if (b.len() != 4 && b.len() != 5) || !text.is_ascii() {
            return Err(NotationError::Syntax);
        }
        let from = Square::parse(&text[0..2]).ok_or(NotationError::Syntax)?;
        let to = Square::parse(&text[2..4]).ok_or(NotationError::Syntax)?;
        let promo = match b.get(4) {
            None => PieceType::NONE,
            Some(b'n') => PieceType::KNIGHT,
            Some(b'b') => PieceType::BISHOP,
            Some(b'r') => PieceType::ROOK,
            Some(b'q') => PieceType::QUEEN,
            Some(_) => return Err(NotationError::Syntax),
        };
        self.find_legal_move(from, to, promo)
    }

    /// Resolves a [`MicroMove`] into the legal move it names.
    ///
    /// # Errors
    /// [`NotationError::Syntax`] for a promotion field outside 0 and 2..=5,
    /// [`NotationError::Illegal`] when no legal move matches.
    pub fn move_from_micro(&self, mm: MicroMove) -> Result<Move, NotationError> {
        let promo = match mm.promotion() {
            0 => PieceType::NONE,
            p @ 2..=5 => PieceType::new(p).unwrap_or(PieceType::NONE),
            _ => return Err(NotationError::Syntax),
        };
        self.find_legal_move(mm.from(), mm.to(), promo)
    }
}
