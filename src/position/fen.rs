//! Strict FEN parsing and writing.
//!
//! Accepted: exactly 6 fields separated by single spaces (or 4 fields, the clocks then being
//! 0 and 1), no leading or trailing white space. Castling as `-` or a subset of `KQkq` in that
//! order; en passant as `-` or a square; clocks as decimal numbers without sign or leading
//! zeros, halfmove clock 0..=65535, fullmove number 1..=65535.
//!
//! The en passant square is kept exactly as written (FEN's convention: after every double
//! push), so writing FEN back is the identity on canonical input; the hash includes it only
//! when a legal capture there exists.

use super::{Position, EP_CAPTURABLE};
use crate::attacks;
use crate::bitboard::Bitboard;
use crate::types::{CastlingRights, Color, Piece, PieceType, Square};
use core::ffi::CStr;
use core::fmt;

/// Why a FEN string was rejected. Each variant maps to its own C status code.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum FenError {
    /// Not 4 or 6 fields, or fields not separated by single spaces.
    FieldCount,
    /// Text after the sixth field.
    TrailingText,
    /// Piece placement: bad character, rank not 8 squares wide, not 8 ranks, adjacent digits.
    Board,
    /// Side to move is not `w` or `b`.
    SideToMove,
    /// Castling field is not `-` or a subset of `KQkq` in order.
    Castling,
    /// En passant field is not `-` or a square.
    EnPassant,
    /// Halfmove clock is not a number in 0..=65535.
    HalfmoveClock,
    /// Fullmove number is not a number in 1..=65535.
    FullmoveNumber,
    /// Not exactly one king per side.
    KingCount,
    /// A pawn on rank 1 or 8.
    PawnOnBackRank,
    /// More than 16 pieces or 8 pawns for a side, or more promoted pieces than missing pawns.
    TooManyPieces,
    /// A castling right whose king or rook is not on its square.
    CastlingRights,
    /// En passant square not on rank 6 (White to move) or rank 3 (Black to move).
    EnPassantRank,
    /// En passant square without the pawn that just made the double step in front of it, or
    /// with the squares it crossed occupied.
    EnPassantPawn,
    /// The side that is not to move is in check.
    OpponentInCheck,
    /// The side to move is in a check no single move can give (more than two checkers, two
    /// that one move cannot uncover, or a check not given by a double push that just happened).
    ImpossibleCheck,
}

impl FenError {
    /// A short English description, NUL-terminated for C (`chess_statusMessage` returns it).
    pub const fn message_c(self) -> &'static CStr {
        match self {
            FenError::FieldCount => c"FEN must have 6 (or 4) fields separated by single spaces",
            FenError::TrailingText => c"FEN has text after the sixth field",
            FenError::Board => c"FEN piece placement is malformed",
            FenError::SideToMove => c"FEN side to move must be 'w' or 'b'",
            FenError::Castling => c"FEN castling field must be '-' or a subset of 'KQkq' in order",
            FenError::EnPassant => c"FEN en passant field must be '-' or a square",
            FenError::HalfmoveClock => c"FEN halfmove clock must be a number from 0 to 65535",
            FenError::FullmoveNumber => c"FEN fullmove number must be a number from 1 to 65535",
            FenError::KingCount => c"FEN must have exactly one king per side",
            FenError::PawnOnBackRank => c"FEN has a pawn on rank 1 or 8",
            FenError::TooManyPieces => c"FEN has more pieces than a game can produce",
            FenError::CastlingRights => c"FEN castling rights contradict king and rook placement",
            FenError::EnPassantRank => c"FEN en passant square is on the wrong rank",
            FenError::EnPassantPawn => c"FEN en passant square has no pawn that just double-pushed",
            FenError::OpponentInCheck => c"FEN side not to move is in check",
            FenError::ImpossibleCheck => c"FEN check is impossible: no single move gives it",
        }
    }

    /// A short English description.
    pub fn message(self) -> &'static str {
        self.message_c().to_str().unwrap_or("invalid FEN")
    }
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.message())
    }
}

impl std::error::Error for FenError {}

fn parse_number(s: &str, min: u32, err: FenError) -> Result<u16, FenError> {
    let b = s.as_bytes();
    if b.is_empty()
        || b.len() > 5
        || !b.iter().all(u8::is_ascii_digit)
        || (b.len() > 1 && b[0] == b'0')
    {
        return Err(err);
    }
    let v: u32 = s.parse().map_err(|_| err)?;
    if v < min || v > u16::MAX as u32 {
        return Err(err);
    }
    Ok(v as u16)
}

/// Reads the piece placement into `pos`. With `promoted_marks` (the lenient reader), a `~`
/// right after a piece letter other than a king (Crazyhouse's mark of a promoted piece, which
/// python-chess reads) is allowed and ignored; otherwise `~` is an error.
pub(super) fn parse_board(
    pos: &mut Position,
    s: &str,
    promoted_marks: bool,
) -> Result<(), FenError> {
    let mut rank = 7i8;
    let mut file = 0u8;
    let mut last_digit = false;
    let mut last_piece = false;
    for c in s.chars() {
        match c {
            '/' => {
                if file != 8 || rank == 0 {
                    return Err(FenError::Board);
                }
                rank -= 1;
                file = 0;
                last_digit = false;
                last_piece = false;
            }
            '1'..='8' => {
                if last_digit {
                    return Err(FenError::Board);
                }
                file += c as u8 - b'0';
                if file > 8 {
                    return Err(FenError::Board);
                }
                last_digit = true;
                last_piece = false;
            }
            '~' if promoted_marks && last_piece => last_piece = false,
            _ => {
                let pc = Piece::from_char(c).ok_or(FenError::Board)?;
                if file >= 8 {
                    return Err(FenError::Board);
                }
                pos.put_piece(pc, Square::from_coords(file, rank as u8));
                file += 1;
                last_digit = false;
                last_piece = pc.kind() != PieceType::KING;
            }
        }
    }
    if rank != 0 || file != 8 {
        return Err(FenError::Board);
    }
    Ok(())
}

fn parse_castling(pos: &mut Position, s: &str) -> Result<(), FenError> {
    if s == "-" {
        return Ok(());
    }
    let mut bits = 0u8;
    let mut last = -1i32;
    for c in s.chars() {
        let i = "KQkq".find(c).ok_or(FenError::Castling)? as i32;
        if i <= last {
            return Err(FenError::Castling);
        }
        last = i;
        bits |= 1 << i;
    }
    if s.is_empty() {
        return Err(FenError::Castling);
    }
    pos.st.castling = CastlingRights::from_bits(bits);
    Ok(())
}

fn parse_en_passant(pos: &mut Position, s: &str) -> Result<(), FenError> {
    if s == "-" {
        return Ok(());
    }
    pos.st.ep = Square::parse(s).ok_or(FenError::EnPassant)?.to_u8();
    Ok(())
}

/// The setup tables of castling for the rook squares `rooks` (K, Q, k, q): which rights each
/// square's move clears, each right's paths, and the squares that clear any right.
pub(super) struct CastleTables {
    pub(super) masks: [u8; 64],
    pub(super) paths: [Bitboard; 4],
    pub(super) king_paths: [Bitboard; 4],
    pub(super) touched: Bitboard,
}

/// Computes the [`CastleTables`] of a position whose castling rooks stand on `rooks` and
/// whose kings castle from `kings` (per color).
pub(super) fn castle_tables(rooks: &[Square; 4], kings: &[Square; 2]) -> CastleTables {
    let mut t = CastleTables {
        masks: [15; 64],
        paths: [Bitboard::EMPTY; 4],
        king_paths: [Bitboard::EMPTY; 4],
        touched: Bitboard::EMPTY,
    };
    for (i, &rook_from) in rooks.iter().enumerate() {
        let color = Color::from_index((i / 2) as u8);
        let king = kings[color.index() & 1];
        t.masks[rook_from.index()] &= !(1u8 << i);
        t.masks[king.index()] &= !(1u8 << i);
        let rank = king.rank();
        let (king_to, rook_to) = if i % 2 == 0 {
            (Square::from_coords(6, rank), Square::from_coords(5, rank))
        } else {
            (Square::from_coords(2, rank), Square::from_coords(3, rank))
        };
        let king_path = attacks::between(king, king_to) | king_to.bb();
        let path = king_path | attacks::between(rook_from, rook_to) | rook_to.bb();
        t.paths[i] = path & !king.bb() & !rook_from.bb();
        t.king_paths[i] = king_path;
        t.touched |= rook_from.bb() | king.bb();
    }
    t
}

impl Position {
    /// Fills the castling setup tables from `castle_rooks` and `castle_kings`.
    pub(super) fn set_castle_tables(&mut self) {
        let t = castle_tables(&self.castle_rooks, &self.castle_kings);
        self.castle_masks = t.masks;
        self.castle_paths = t.paths;
        self.castle_king_paths = t.king_paths;
        self.castle_squares_touched = t.touched;
    }

    /// Parses a FEN string strictly (see the [module docs](self)).
    ///
    /// # Errors
    /// A [`FenError`] naming the first defect found.
    ///
    /// ```
    /// use chesscore::{Position, FenError};
    /// let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    /// assert_eq!(Position::from_fen(kiwipete).unwrap().to_fen(), kiwipete);
    /// assert_eq!(Position::from_fen("8/8/8/8/8/8/8/8 w - - 0 1"), Err(FenError::KingCount));
    /// ```
    pub fn from_fen(fen: &str) -> Result<Position, FenError> {
        Position::from_fen_with(fen, false, false, false)
    }

    /// Parses a Chess960 FEN: as [`Position::from_fen`], but the castling field is X-FEN or
    /// Shredder-FEN (see [`super::chess960`]), and the position is in Chess960 mode.
    ///
    /// # Errors
    /// A [`FenError`] naming the first defect found ([`FenError::Castling`] for a letter
    /// outside `KQkqA-Ha-h` or a right given twice, [`FenError::CastlingRights`] for a right
    /// without its king and rook).
    ///
    /// ```
    /// use chesscore::Position;
    /// let fen = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9";
    /// let pos = Position::from_fen_960(fen).unwrap();
    /// assert_eq!(pos.to_fen(), "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w KQkq - 2 9");
    /// assert_eq!(pos.to_shredder_fen(), fen);
    /// ```
    pub fn from_fen_960(fen: &str) -> Result<Position, FenError> {
        Position::from_fen_with(fen, false, false, true)
    }

    /// [`Position::from_fen`] for Dice Chess (`crate::dice`), where a pass can leave the side
    /// not to move in check (`opponent_check_ok`) and, in the rule sets without check, any
    /// number of checks can stand on the board (`any_check_ok` also skips the
    /// impossible-check rule). Every other rule is enforced as in the strict parser, which
    /// this does not change.
    pub(crate) fn from_fen_relaxed(
        fen: &str,
        opponent_check_ok: bool,
        any_check_ok: bool,
    ) -> Result<Position, FenError> {
        Position::from_fen_with(fen, opponent_check_ok, any_check_ok, false)
    }

    fn from_fen_with(
        fen: &str,
        opponent_check_ok: bool,
        any_check_ok: bool,
        chess960: bool,
    ) -> Result<Position, FenError> {
        // The fields in a fixed array (no heap): six, plus one to notice trailing text.
        let mut fields = [""; 7];
        let mut count = 0;
        for f in fen.split(' ') {
            if let Some(slot) = fields.get_mut(count) {
                *slot = f;
            }
            count += 1;
        }
        // An empty field (double, leading or trailing space) is a separator error; text past
        // six well-separated fields is trailing text.
        let well_separated = fields.iter().take(count.min(6)).all(|f| !f.is_empty());
        match count {
            4 | 6 if well_separated => {}
            n if n > 6 && well_separated => return Err(FenError::TrailingText),
            _ => return Err(FenError::FieldCount),
        }
        let mut pos = Position::empty();
        parse_board(&mut pos, fields[0], false)?;
        pos.side = match fields[1] {
            "w" => Color::WHITE,
            "b" => Color::BLACK,
            _ => return Err(FenError::SideToMove),
        };
        // Syntax of every field before the semantic checks, so errors name the field.
        let letters = if chess960 {
            super::chess960::CASTLING_LETTERS
        } else {
            "KQkq"
        };
        if fields[2] != "-" && !fields[2].chars().all(|c| letters.contains(c)) {
            return Err(FenError::Castling);
        }
        if fields[3] != "-" && Square::parse(fields[3]).is_none() {
            return Err(FenError::EnPassant);
        }
        if count == 6 {
            pos.st.halfmove = parse_number(fields[4], 0, FenError::HalfmoveClock)? as u32;
            let fullmove = parse_number(fields[5], 1, FenError::FullmoveNumber)? as u32;
            pos.fullmove_plies = 2 * (fullmove - 1);
        }
        if pos.side == Color::BLACK {
            pos.fullmove_plies += 1;
        }
        if chess960 {
            pos.chess960 = 1;
            super::chess960::parse_castling_960(&mut pos, fields[2])?;
        } else {
            parse_castling(&mut pos, fields[2])?;
        }
        parse_en_passant(&mut pos, fields[3])?;
        pos.check_rules_with(opponent_check_ok, any_check_ok)?;
        pos.set_castle_tables();
        if pos.compute_ep_capturable() {
            pos.st.ep |= EP_CAPTURABLE;
        }
        pos.refresh_hashes();
        pos.debug_validate();
        Ok(pos)
    }

    /// Replaces this position with the one `fen` describes; on error the position is left
    /// exactly as it was.
    ///
    /// # Errors
    /// As [`Position::from_fen`].
    pub fn set_fen(&mut self, fen: &str) -> Result<(), FenError> {
        *self = Position::from_fen(fen)?;
        Ok(())
    }

    /// Writes the FEN of this position (X-FEN in Chess960 mode: `KQkq` for the outermost
    /// rooks, the rook's file letter for another; identical to standard FEN for the standard
    /// castling setup).
    pub fn write_fen(&self, out: &mut impl fmt::Write) -> fmt::Result {
        self.write_fen_as(out, self.is_chess960(), false)
    }

    /// Writes the FEN with the castling field as Shredder-FEN (the rooks' file letters, `HAha`
    /// for the standard setup), whatever the mode.
    pub fn write_shredder_fen(&self, out: &mut impl fmt::Write) -> fmt::Result {
        self.write_fen_as(out, true, true)
    }

    /// The FEN with a Shredder-FEN castling field (see [`Position::write_shredder_fen`]).
    pub fn to_shredder_fen(&self) -> String {
        let mut s = String::with_capacity(90);
        self.write_shredder_fen(&mut s)
            .expect("writing to a String cannot fail");
        s
    }

    fn write_fen_as(&self, out: &mut impl fmt::Write, x_fen: bool, shredder: bool) -> fmt::Result {
        for rank in (0..8u8).rev() {
            let mut empty = 0;
            for file in 0..8u8 {
                let pc = self.piece_on(Square::from_coords(file, rank));
                if pc.is_none() {
                    empty += 1;
                } else {
                    if empty > 0 {
                        write!(out, "{empty}")?;
                        empty = 0;
                    }
                    out.write_char(pc.to_char())?;
                }
            }
            if empty > 0 {
                write!(out, "{empty}")?;
            }
            if rank > 0 {
                out.write_char('/')?;
            }
        }
        write!(out, " {} ", self.side.to_char())?;
        if self.st.castling.bits() == 0 {
            out.write_char('-')?;
        }
        for (i, c) in "KQkq".chars().enumerate() {
            if self.st.castling.has(i) {
                if x_fen {
                    out.write_char(self.castling_letter(i, shredder))?;
                } else {
                    out.write_char(c)?;
                }
            }
        }
        match self.en_passant() {
            Some(ep) => write!(out, " {ep}")?,
            _ => out.write_str(" -")?,
        }
        write!(out, " {} {}", self.halfmove_clock(), self.fullmove_number())
    }

    /// The FEN of this position.
    pub fn to_fen(&self) -> String {
        let mut s = String::with_capacity(90);
        self.write_fen(&mut s)
            .expect("writing to a String cannot fail");
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips() {
        for fen in [
            super::super::START_FEN,
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
            "8/8/1k6/2b5/2pP4/8/5K2/8 b - d3 0 1",
            "4k3/8/8/8/8/8/8/4K2R w K - 99 200",
        ] {
            assert_eq!(Position::from_fen(fen).unwrap().to_fen(), fen);
        }
    }

    #[test]
    fn four_fields_get_default_clocks() {
        let p = Position::from_fen("4k3/8/8/8/8/8/8/4K3 w - -").unwrap();
        assert_eq!(p.to_fen(), "4k3/8/8/8/8/8/8/4K3 w - - 0 1");
    }

    #[test]
    fn rejects_each_defect_class() {
        use FenError::*;
        let cases: &[(&str, FenError)] = &[
            ("4k3/8/8/8/8/8/8/4K3 w - - 0", FieldCount),
            ("4k3/8/8/8/8/8/8/4K3 w -", FieldCount),
            ("4k3/8/8/8/8/8/8/4K3  w - - 0 1", FieldCount),
            (" 4k3/8/8/8/8/8/8/4K3 w - - 0 1", FieldCount),
            ("4k3/8/8/8/8/8/8/4K3 w - - 0 1 x", TrailingText),
            ("4k3/8/8/8/8/8/8/4K3 w - - 0 1 ", TrailingText),
            ("4k3/8/8/8/8/8/8/4K3 w - - 0 1 x y", TrailingText),
            ("4k3/8/8/8/8/8/8/4K2 w - - 0 1", Board),
            ("4k3/8/8/8/8/8/8/4K4 w - - 0 1", Board),
            ("4k3/8/8/8/8/8/8/44K3 w - - 0 1", Board),
            ("4k3/8/8/8/8/8/8 w - - 0 1", Board),
            ("4k3/8/8/8/8/8/8/8/4K3 w - - 0 1", Board),
            ("4k3/8/8/8/8/8/8/4X3 w - - 0 1", Board),
            ("4k3/8/8/8/8/8/8/4K3 x - - 0 1", SideToMove),
            ("4k3/8/8/8/8/8/8/4K3 w KK - 0 1", Castling),
            ("4k3/8/8/8/8/8/8/4K3 w QK - 0 1", Castling),
            ("4k3/8/8/8/8/8/8/4K3 w A - 0 1", Castling),
            ("4k3/8/8/8/8/8/8/4K3 w - e9 0 1", EnPassant),
            ("4k3/8/8/8/8/8/8/4K3 w - -1 0 1", EnPassant),
            ("4k3/8/8/8/8/8/8/4K3 w - - -1 1", HalfmoveClock),
            ("4k3/8/8/8/8/8/8/4K3 w - - 65536 1", HalfmoveClock),
            ("4k3/8/8/8/8/8/8/4K3 w - - 01 1", HalfmoveClock),
            ("4k3/8/8/8/8/8/8/4K3 w - - 0 0", FullmoveNumber),
            ("4k3/8/8/8/8/8/8/4K3 w - - 0 x", FullmoveNumber),
            ("4k3/8/8/8/8/8/8/8 w - - 0 1", KingCount),
            ("4k3/8/8/8/8/8/8/3KK3 w - - 0 1", KingCount),
            ("P3k3/8/8/8/8/8/8/4K3 w - - 0 1", PawnOnBackRank),
            ("4k3/8/8/8/8/8/8/p3K3 w - - 0 1", PawnOnBackRank),
            ("4k3/8/8/8/PPPPPPPP/P7/8/4K3 w - - 0 1", TooManyPieces),
            ("4k3/8/8/8/PPPPPPPP/QQ6/8/4K3 w - - 0 1", TooManyPieces),
            ("4k3/8/8/8/8/8/8/4K3 w K - 0 1", CastlingRights),
            ("4k3/8/8/8/8/8/8/R3K3 w K - 0 1", CastlingRights),
            ("4k2r/8/8/8/8/8/8/4K3 w q - 0 1", CastlingRights),
            ("4k3/8/8/8/4P3/8/8/4K3 b - e4 0 1", EnPassantRank),
            ("4k3/8/8/8/8/8/8/4K3 b - e3 0 1", EnPassantPawn),
            ("4k3/8/8/8/4P3/8/4P3/4K3 b - e3 0 1", EnPassantPawn),
            ("4k2R/8/8/8/8/8/8/4K3 w - - 0 1", OpponentInCheck),
        ];
        for &(fen, want) in cases {
            assert_eq!(Position::from_fen(fen).err(), Some(want), "{fen}");
        }
        // The near misses are accepted: consistent rights, a rook that does not give check.
        for fen in [
            "r3k3/8/8/8/8/8/8/4K3 w q - 0 1",
            "4k3/8/8/8/8/8/8/4K2R b K - 0 1",
            "4k2R/8/8/8/8/8/8/4K3 b - - 0 1",
        ] {
            assert!(Position::from_fen(fen).is_ok(), "{fen}");
        }
    }

    #[test]
    fn error_leaves_position_unchanged() {
        let mut p = Position::from_fen("4k3/8/8/8/8/8/8/4K2R w K - 3 9").unwrap();
        let before = p.clone();
        assert_eq!(p.set_fen("garbage"), Err(FenError::FieldCount));
        assert_eq!(p, before);
        assert_eq!(p.to_fen(), before.to_fen());
    }
}
