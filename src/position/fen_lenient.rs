//! The lenient FEN reader: FEN as GUIs, databases and puzzle collections write it, read the
//! way python-chess's `chess.Board(fen)` reads it.
//!
//! [`Position::from_fen`] stays strict (the frozen `chess_setFromFEN` keeps its contract);
//! [`Position::from_fen_lenient`] is for text from outside: the UCI front end, `chesscore
//! perft`, the Python `Board(fen)` and `chess_setFromFENLenient` use it.
//!
//! What it accepts beyond the strict reader:
//!
//! | text | read as |
//! |---|---|
//! | fields separated by runs of white space, white space before and after | the same fields (white space as Python's `str.split()`: Unicode white space and `\x1c`..`\x1f`) |
//! | only the first 1 to 5 fields | the missing ones are `w`, `-`, `-`, `0`, `1` |
//! | a fullmove number of `0` (puzzle collections write `1 0`) | 1 |
//! | counters with leading zeros, a `+` sign, `-0`, `_` between digits (Python's `int()`) | their value |
//! | a castling field of up to two of `KQA`..`H` followed by up to two of `kqa`..`h`, in any order within each case (`QK`, `HAha`, `Kk`) | `K`/`H` for the h-rook, `Q`/`A` for the a-rook; the other files name rooks that standard chess cannot castle with |
//! | castling rights whose king or rook is not at home | those rights dropped (python-chess's `clean_castling_rights()`) |
//! | an en passant square without the pawn that just double-pushed, on the wrong rank, or with the squares behind it occupied | no en passant square (python-chess's `STATUS_INVALID_EP_SQUARE`) |
//! | an en passant square no legal capture can use | no en passant square (written as `-`, as python-chess's `board.fen()` and Stockfish do) |
//! | `~` after a piece letter other than a king (Crazyhouse's promoted mark) | the piece |
//!
//! What it still refuses, as python-chess's `board.status()` does: a missing or extra king,
//! pawns on the back ranks, more than 16 pieces or 8 pawns for a side, the side not to move in
//! check, more than two checkers, two checkers on one line through the king, and a check that
//! contradicts the en passant square. And text python-chess refuses: a malformed board, a
//! side other than `w` or `b`, a castling field outside the pattern above, an en passant field
//! that is not `-` or a lower-case square, counters that are not integers, negative counters,
//! more than six fields.
//!
//! Where it differs from python-chess (each refused here, accepted there):
//! * more promoted pieces than missing pawns ([`FenError::TooManyPieces`]): the move list's
//!   capacity is sized for positions a game can reach;
//! * two checkers neither of which is a bishop, rook or queen ([`FenError::ImpossibleCheck`]):
//!   only a slider can be uncovered, so no move gives such a check;
//! * a halfmove clock or fullmove number above 65535;
//! * a king marked `~` (python-chess then loses track of that king's checks);
//! * digits other than ASCII in the counters (Python's `int()` reads every Unicode digit), and
//!   piece letters other than ASCII (Python's `str.lower()` maps a few other letters onto them).

use super::fen::parse_board;
use super::{FenError, Position, EP_CAPTURABLE, NO_EP};
use crate::types::{CastlingRights, Color, Piece, PieceType, Square};

/// White space as Python's `str.split()` sees it: Unicode's, plus the four ASCII separators.
fn is_python_space(c: char) -> bool {
    c.is_whitespace() || ('\x1c'..='\x1f').contains(&c)
}

/// A counter as Python's `int()` reads ASCII text: an optional sign, then digits with single
/// `_` between them. `None` for anything else, for a negative value and for one above 65535.
fn parse_counter(s: &str) -> Option<u32> {
    let digits = s.strip_prefix(['+', '-']).unwrap_or(s);
    let negative = s.starts_with('-');
    let b = digits.as_bytes();
    if b.is_empty() || !b[0].is_ascii_digit() || !b[b.len() - 1].is_ascii_digit() {
        return None;
    }
    let mut value: u32 = 0;
    let mut last_underscore = false;
    for &c in b {
        if c == b'_' {
            if last_underscore {
                return None;
            }
            last_underscore = true;
            continue;
        }
        if !c.is_ascii_digit() {
            return None;
        }
        last_underscore = false;
        value = value.saturating_mul(10).saturating_add(u32::from(c - b'0'));
    }
    if (negative && value != 0) || value > u32::from(u16::MAX) {
        return None;
    }
    Some(value)
}

/// The castling field's letters when it matches python-chess's pattern (`-`, or up to two of
/// `KQA`..`H` then up to two of `kqa`..`h`): the rights it asks for as `KQkq` bits, before
/// they are checked against the board.
fn parse_castling_lenient(s: &str) -> Option<u8> {
    if s == "-" {
        return Some(0);
    }
    let b = s.as_bytes();
    let upper = b
        .iter()
        .take_while(|c| matches!(c, b'K' | b'Q' | b'A'..=b'H'))
        .count();
    let lower = b[upper..]
        .iter()
        .take_while(|c| matches!(c, b'k' | b'q' | b'a'..=b'h'))
        .count();
    if upper > 2 || lower > 2 || upper + lower != b.len() {
        return None;
    }
    let mut bits = 0u8;
    for &c in b {
        bits |= match c {
            b'K' | b'H' => 1,
            b'Q' | b'A' => 2,
            b'k' | b'h' => 4,
            b'q' | b'a' => 8,
            _ => 0,
        };
    }
    Some(bits)
}

impl Position {
    /// Parses FEN text leniently, as python-chess's `chess.Board(fen)` does: see the
    /// [module docs](self) for what is accepted, what is dropped and what is refused. The
    /// position it gives passes every check of the strict reader, so writing it with
    /// [`Position::to_fen`] gives a FEN that [`Position::from_fen`] accepts.
    ///
    /// # Errors
    /// A [`FenError`] naming the first defect found: syntax errors by field, then the
    /// position's (kings, pawns, material, checks). Castling rights and en passant squares
    /// that contradict the board are dropped, never refused.
    ///
    /// ```
    /// use chesscore::Position;
    /// // A puzzle collection's "1 0", runs of spaces, a right without its rook.
    /// let pos = Position::from_fen_lenient("  6k1/5ppp/8/8/8/8/5PPP/3R2K1   w  K  -  1 0 ").unwrap();
    /// assert_eq!(pos.to_fen(), "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 1 1");
    /// // Missing fields take their defaults.
    /// let pos = Position::from_fen_lenient("4k3/8/8/8/8/8/8/4K2R").unwrap();
    /// assert_eq!(pos.to_fen(), "4k3/8/8/8/8/8/8/4K2R w - - 0 1");
    /// // An impossible position is still refused.
    /// assert!(Position::from_fen_lenient("4k2R/8/8/8/8/8/8/4K3 w - - 0 1").is_err());
    /// ```
    pub fn from_fen_lenient(fen: &str) -> Result<Position, FenError> {
        // Up to six fields, plus one to notice a seventh (no heap).
        let mut fields = [""; 7];
        let mut count = 0;
        for f in fen.split(is_python_space).filter(|f| !f.is_empty()) {
            if count == fields.len() {
                break;
            }
            fields[count] = f;
            count += 1;
        }
        match count {
            0 => return Err(FenError::FieldCount),
            7 => return Err(FenError::TrailingText),
            _ => {}
        }
        let field = |i: usize, default: &'static str| if i < count { fields[i] } else { default };
        let side = match field(1, "w") {
            "w" => Color::WHITE,
            "b" => Color::BLACK,
            _ => return Err(FenError::SideToMove),
        };
        let asked_rights = parse_castling_lenient(field(2, "-")).ok_or(FenError::Castling)?;
        let ep = match field(3, "-") {
            "-" => None,
            text => Some(Square::parse(text).ok_or(FenError::EnPassant)?),
        };
        let halfmove = parse_counter(field(4, "0")).ok_or(FenError::HalfmoveClock)?;
        let fullmove = parse_counter(field(5, "1")).ok_or(FenError::FullmoveNumber)?;

        let mut pos = Position::empty();
        parse_board(&mut pos, fields[0], true)?;
        pos.side = side;
        pos.st.halfmove = halfmove;
        pos.fullmove_plies = 2 * (fullmove.max(1) - 1) + u32::from(side == Color::BLACK);
        pos.st.castling = CastlingRights::from_bits(pos.rights_at_home(asked_rights));
        if let Some(ep) = ep {
            pos.st.ep = ep.to_u8();
            if pos.check_en_passant().is_err() {
                pos.st.ep = NO_EP;
            }
        }
        pos.check_rules()?;
        // The en passant square stays only where a legal capture can use it.
        if pos.compute_ep_capturable() {
            pos.st.ep |= EP_CAPTURABLE;
        } else {
            pos.st.ep = NO_EP;
        }
        pos.set_castle_tables();
        pos.refresh_hashes();
        pos.debug_validate();
        Ok(pos)
    }

    /// Replaces this position with the one `fen` describes, read by
    /// [`Position::from_fen_lenient`]; on error the position is left exactly as it was.
    ///
    /// # Errors
    /// As [`Position::from_fen_lenient`].
    pub fn set_fen_lenient(&mut self, fen: &str) -> Result<(), FenError> {
        *self = Position::from_fen_lenient(fen)?;
        Ok(())
    }

    /// The rights of `asked` (`KQkq` bits) whose king stands on e1/e8 and whose rook stands
    /// in its corner (standard chess).
    fn rights_at_home(&self, asked: u8) -> u8 {
        let mut bits = 0;
        for (i, (king, rook)) in [
            (Square::E1, Square::H1),
            (Square::E1, Square::A1),
            (Square::E8, Square::H8),
            (Square::E8, Square::A8),
        ]
        .into_iter()
        .enumerate()
        {
            let color = Color::from_index((i / 2) as u8);
            if asked & (1 << i) != 0
                && self.piece_on(king) == Piece::new(color, PieceType::KING)
                && self.piece_on(rook) == Piece::new(color, PieceType::ROOK)
            {
                bits |= 1 << i;
            }
        }
        bits
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counters_read_as_python_int() {
        for (text, want) in [
            ("0", Some(0)),
            ("007", Some(7)),
            ("+3", Some(3)),
            ("-0", Some(0)),
            ("1_000", Some(1000)),
            ("65535", Some(65535)),
            ("65536", None),
            ("-1", None),
            ("1__0", None),
            ("_1", None),
            ("1_", None),
            ("+", None),
            ("1.5", None),
            ("x", None),
            ("99999999999999999999", None),
        ] {
            assert_eq!(parse_counter(text), want, "{text:?}");
        }
    }

    #[test]
    fn castling_field_pattern() {
        for (text, want) in [
            ("-", Some(0)),
            ("KQkq", Some(15)),
            ("QK", Some(3)),
            ("kq", Some(12)),
            ("HAha", Some(15)),
            ("Bb", Some(0)),
            ("KQK", None),
            ("kK", None),
            ("K-", None),
            ("x", None),
        ] {
            assert_eq!(parse_castling_lenient(text), want, "{text:?}");
        }
    }
}
