//! Chess960 (Fischer Random): castling with the king and rooks on any start squares.
//!
//! # Design
//!
//! A [`Position`] is either in standard mode or in Chess960 mode (a flag set by
//! [`Position::from_fen_960`], [`Position::chess960_start`] or [`Position::set_chess960`]).
//! The rules are the same in both modes; what is kept per position in either is the castling
//! setup: per castling right its rook's start square ([`Position::castling_rook`]) and per
//! color the king's ([`Position::castling_king`]), with the tables make and the generator use
//! (which rights a move from or to each square clears, the squares that must be empty, the
//! squares the king crosses). The [`Move`] encoding does not change: a castle is the king's
//! move with the castle flag and the king's *destination* (g1, c1, g8, c8) as its target, so
//! every module that reads moves (search, SAN, Dice Chess) works unchanged. In Chess960 the
//! king may already stand on its destination: that castle has `from == to`, the one kind of
//! move where that is so ([`Move::is_well_formed`] allows it for castles only).
//!
//! What the mode changes:
//!
//! - **FEN**: the castling field is read as X-FEN or Shredder-FEN (`K`/`Q`/`k`/`q` name the
//!   outermost rook on that side of the king, a file letter `A`-`H`/`a`-`h` names the rook on
//!   that file; letters in any order, each right at most once) and written as X-FEN (`KQkq`
//!   for outermost rooks, file letters otherwise: standard FEN for the standard setup).
//!   [`Position::to_shredder_fen`] writes file letters always. The strict [`Position::from_fen`]
//!   stays strict: `KQkq` in order, king on e1/e8, rooks in the corners.
//! - **UCI**: castling is written and read as the king taking its own rook (`e1h1`, `b1a1`),
//!   the only form that is never ambiguous in Chess960; in standard mode it stays the king's
//!   move (`e1g1`). The same goes for [`Position::find_legal_move`] (a GUI's drag of the king
//!   onto its rook).
//! - **Generation**: one more test for castles, in Chess960 mode only (so the standard
//!   generator pays nothing): the king must not stand in check on its destination once the
//!   castling rook has left its square (an enemy rook or queen behind the castling rook on the
//!   back rank). The squares the king crosses are tested with the rook in place. The test is
//!   compiled in only where the generator's `CHESS960` const parameter says so (chosen by the
//!   position's mode), so the standard generator compiles exactly as before.
//!
//! The hash keys castling rights by their four bits, as in standard chess; two positions with
//! the same pieces and rights but different rook start squares are not told apart (no game
//! reaches both).

use super::{FenError, Position};
use crate::attacks::Sliders;
use crate::moves::Move;
use crate::types::{castling_index, CastlingRights, Color, Piece, PieceType, Square};

/// The characters a Chess960 castling field may hold (besides a lone `-`).
pub(crate) const CASTLING_LETTERS: &str = "KQkqABCDEFGHabcdefgh";

/// Parses an X-FEN or Shredder-FEN castling field into `pos` (board already placed): rights,
/// rook squares and king squares.
pub(super) fn parse_castling_960(pos: &mut Position, s: &str) -> Result<(), FenError> {
    if s == "-" {
        return Ok(());
    }
    if s.is_empty() {
        return Err(FenError::Castling);
    }
    let mut bits = 0u8;
    for c in s.chars() {
        let color = if c.is_ascii_uppercase() {
            Color::WHITE
        } else {
            Color::BLACK
        };
        let kings = pos.pieces(color, PieceType::KING);
        if kings.count() != 1 {
            return Err(FenError::KingCount);
        }
        let king = kings.lsb();
        let rank = if color == Color::WHITE { 0 } else { 7 };
        if king.rank() != rank {
            return Err(FenError::CastlingRights);
        }
        let rook = Piece::new(color, PieceType::ROOK);
        let is_rook = |file: u8| pos.piece_on(Square::from_coords(file, rank)) == rook;
        let rook_file = match c.to_ascii_uppercase() {
            'K' => (king.file() + 1..8).rev().find(|&f| is_rook(f)),
            'Q' => (0..king.file()).find(|&f| is_rook(f)),
            l @ 'A'..='H' => Some(l as u8 - b'A').filter(|&f| is_rook(f)),
            _ => return Err(FenError::Castling),
        }
        .ok_or(FenError::CastlingRights)?;
        let king_side = rook_file > king.file();
        if rook_file == king.file() {
            return Err(FenError::CastlingRights);
        }
        let i = castling_index(color, king_side);
        if bits & (1 << i) != 0 {
            return Err(FenError::Castling);
        }
        bits |= 1 << i;
        pos.castle_rooks[i] = Square::from_coords(rook_file, rank);
        pos.castle_kings[color.index()] = king;
    }
    pos.st.castling = CastlingRights::from_bits(bits);
    Ok(())
}

/// The starting position number `n` (0..960) of Chess960 in the standard (Scharnagl)
/// numbering, as the 8 piece types of White's back rank from the a-file.
fn start_rank(n: u16) -> [PieceType; 8] {
    let mut rank = [PieceType::NONE; 8];
    let n = n as usize;
    let (n, light) = (n / 4, n % 4);
    rank[2 * light + 1] = PieceType::BISHOP;
    let (n, dark) = (n / 4, n % 4);
    rank[2 * dark] = PieceType::BISHOP;
    let (n, queen) = (n / 6, n % 6);
    // The `k`-th empty file of the rank.
    fn place(rank: &mut [PieceType; 8], k: usize, pt: PieceType) {
        let file = (0..8)
            .filter(|&f| rank[f] == PieceType::NONE)
            .nth(k)
            .unwrap_or(0);
        rank[file] = pt;
    }
    place(&mut rank, queen, PieceType::QUEEN);
    const KNIGHTS: [(usize, usize); 10] = [
        (0, 1),
        (0, 2),
        (0, 3),
        (0, 4),
        (1, 2),
        (1, 3),
        (1, 4),
        (2, 3),
        (2, 4),
        (3, 4),
    ];
    let (k1, k2) = KNIGHTS[n % 10];
    // The second knight first: placing the first would shift the empty files it counts.
    place(&mut rank, k2, PieceType::KNIGHT);
    place(&mut rank, k1, PieceType::KNIGHT);
    place(&mut rank, 0, PieceType::ROOK);
    place(&mut rank, 0, PieceType::KING);
    place(&mut rank, 0, PieceType::ROOK);
    rank
}

impl Position {
    /// The Chess960 starting position number `n` (0..960, the standard numbering: 518 is the
    /// standard starting position), in Chess960 mode; `None` for `n >= 960`.
    ///
    /// ```
    /// use chesscore::Position;
    /// let pos = Position::chess960_start(0).unwrap();
    /// assert_eq!(pos.to_fen(), "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1");
    /// assert_eq!(Position::chess960_start(518).unwrap().to_fen(), chesscore::START_FEN);
    /// ```
    pub fn chess960_start(n: u16) -> Option<Position> {
        if n >= 960 {
            return None;
        }
        let rank = start_rank(n);
        let mut fen = String::with_capacity(64);
        for (i, color) in [Color::BLACK, Color::WHITE].into_iter().enumerate() {
            for pt in rank {
                fen.push(Piece::new(color, pt).to_char());
            }
            if i == 0 {
                fen.push_str("/pppppppp/8/8/8/8/PPPPPPPP/");
            }
        }
        fen.push_str(" w KQkq - 0 1");
        Position::from_fen_960(&fen).ok()
    }

    /// Switches between standard mode and Chess960 mode (see the [module docs](self)): only
    /// the text forms of FEN castling fields and of castles in UCI change. Turning Chess960
    /// off needs the standard castling setup for every right the position has (king on e1/e8,
    /// rooks in the corners).
    ///
    /// # Errors
    /// [`FenError::CastlingRights`] when turning the mode off is refused; the position is
    /// then unchanged.
    pub fn set_chess960(&mut self, on: bool) -> Result<(), FenError> {
        if !on {
            let standard = [Square::H1, Square::A1, Square::H8, Square::A8];
            for (i, &rook) in standard.iter().enumerate() {
                let home = Square::E1.relative(Color::from_index((i / 2) as u8));
                if self.st.castling.has(i)
                    && (self.castle_rooks[i] != rook || self.castle_kings[i / 2] != home)
                {
                    return Err(FenError::CastlingRights);
                }
            }
            self.castle_rooks = standard;
            self.castle_kings = [Square::E1, Square::E8];
            self.set_castle_tables();
        }
        self.chess960 = u8::from(on);
        Ok(())
    }

    /// The letter of castling right `i` in a FEN castling field: X-FEN (`K`/`Q`, lower case for
    /// Black, when the rook is the outermost one on its side of the king; else its file) or,
    /// with `shredder`, always the file.
    pub(super) fn castling_letter(&self, i: usize, shredder: bool) -> char {
        let color = Color::from_index((i / 2) as u8);
        let rook = self.castle_rooks[i];
        let king = self.castle_kings[color.index()];
        let rank = rook.rank();
        let outer = if rook.file() > king.file() {
            rook.file() + 1..8
        } else {
            0..rook.file()
        };
        let outermost = !outer.into_iter().any(|f| {
            self.piece_on(Square::from_coords(f, rank)) == Piece::new(color, PieceType::ROOK)
        });
        let c = match (shredder || !outermost, i % 2 == 0) {
            (false, true) => 'K',
            (false, false) => 'Q',
            (true, _) => (b'A' + rook.file()) as char,
        };
        if color == Color::WHITE {
            c
        } else {
            c.to_ascii_lowercase()
        }
    }

    /// What [`Position::validate_full`] demands of the castling setup: in standard mode the
    /// standard squares; in Chess960 kings on their back rank, each castling rook on its back
    /// rank on the right side of its king.
    pub(super) fn check_castling_setup(&self) -> Result<(), &'static str> {
        if !self.is_chess960() {
            if self.castle_rooks != [Square::H1, Square::A1, Square::H8, Square::A8]
                || self.castle_kings != [Square::E1, Square::E8]
            {
                return Err("castling squares are not the standard ones in standard mode");
            }
            return Ok(());
        }
        for i in 0..4 {
            let color = Color::from_index((i / 2) as u8);
            let (king, rook) = (self.castle_kings[color.index()], self.castle_rooks[i]);
            let rank = if color == Color::WHITE { 0 } else { 7 };
            let side_ok = if i % 2 == 0 {
                rook.file() > king.file()
            } else {
                rook.file() < king.file()
            };
            if king.rank() != rank || rook.rank() != rank || !side_ok {
                return Err("castling squares are not on the back rank, rook beside king");
            }
        }
        Ok(())
    }

    /// The square UCI names as a move's target: the king's destination, except for a castle
    /// in Chess960 mode, where it is the castling rook's start square (king takes rook).
    /// `m` is a move of the side to move.
    #[inline]
    pub fn uci_target(&self, m: Move) -> Square {
        if self.is_chess960() && m.is_castle() {
            self.castle_rooks[castling_index(self.side, m.flag() == Move::KING_CASTLE)]
        } else {
            m.to()
        }
    }

    /// The UCI text of `m` (a move of this position) in this position's mode into a 5-byte
    /// buffer; returns the length (4 or 5). See [`Move::write_uci`], which this equals in
    /// standard mode.
    pub fn write_uci_move(&self, m: Move, buf: &mut [u8; 5]) -> usize {
        let n = m.write_uci(buf);
        let t = self.uci_target(m);
        buf[2] = b'a' + t.file();
        buf[3] = b'1' + t.rank();
        n
    }

    /// The UCI text of `m` (a move of this position) in this position's mode: `e1h1` for a
    /// castle in Chess960 mode, `e1g1` in standard mode.
    pub fn uci_move_text(&self, m: Move) -> String {
        if m == Move::NONE {
            return "0000".to_string();
        }
        let mut buf = [0u8; 5];
        let n = self.write_uci_move(m, &mut buf);
        String::from_utf8_lossy(&buf[..n]).into_owned()
    }

    /// For the legal generator in Chess960 mode: `castles` (bit 0 king side, bit 1 queen
    /// side, each with its path empty) without the castles that would leave the king in check
    /// on its destination once the castling rook has left its square (an enemy rook or queen
    /// the rook screened on the back rank). The squares the king crosses are the generator's
    /// own test, with the rook in place.
    #[cold]
    #[inline(never)]
    pub(crate) fn chess960_castle_filter<S: Sliders>(&self, s: S, us: Color, castles: u8) -> u8 {
        let mut kept = castles;
        for side in 0..2 {
            if castles & (1 << side) == 0 {
                continue;
            }
            let i = castling_index(us, side == 0);
            let (king_to, _, rook_to) = self.castle_squares(us, side == 0);
            if self.castle_uncovers_check(s, i, king_to, rook_to) {
                kept &= !(1 << side);
            }
        }
        kept
    }

    /// True when the castle of right `i` would leave the king in check on `king_to` from an
    /// enemy rook or queen on the occupancy after the castle (king and rook moved).
    pub(crate) fn castle_uncovers_check<S: Sliders>(
        &self,
        s: S,
        i: usize,
        king_to: Square,
        rook_to: Square,
    ) -> bool {
        let us = Color::from_index((i / 2) as u8);
        let rook_from = self.castle_rooks[i];
        let occ = (self.occupied() ^ self.king_square(us).bb() ^ rook_from.bb())
            | king_to.bb()
            | rook_to.bb();
        let them = us.flip();
        let orth = self.pieces(them, PieceType::ROOK) | self.pieces(them, PieceType::QUEEN);
        (s.rook(king_to, occ) & orth).any()
    }
}
