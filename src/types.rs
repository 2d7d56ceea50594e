//! Basic chess types: squares, colors, piece types, pieces and castling rights.
//!
//! All are zero-cost newtypes over `u8` with `const fn` constructors and accessors, so they
//! can be used in tables built at compile time. Numbering follows the C ABI:
//!
//! * `Square`: 0..63 in little-endian rank-file order (LERF): a1 = 0, b1 = 1, ..., h8 = 63.
//! * `Color`: White = 0, Black = 1; the other color is `c ^ 1` ([`Color::flip`]).
//! * `PieceType`: 1..6 = pawn, knight, bishop, rook, queen, king (the dice values), 0 = none.
//! * `Piece`: `color << 3 | type` in 4 bits; 0 = no piece.

use core::fmt;

/// `index()` (as `usize`) and `to_u8()` of a `u8` newtype, documented as `$doc`.
macro_rules! index_accessors {
    ($doc:literal) => {
        #[doc = concat!($doc, ".")]
        #[inline(always)]
        pub const fn index(self) -> usize {
            self.0 as usize
        }

        #[doc = concat!($doc, ", as `u8`.")]
        #[inline(always)]
        pub const fn to_u8(self) -> u8 {
            self.0
        }
    };
}

/// A square of the board, 0..63 in LERF order (a1 = 0, h1 = 7, a8 = 56, h8 = 63).
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
#[repr(transparent)]
pub struct Square(u8);

macro_rules! square_consts {
    ($($name:ident = $v:expr),* $(,)?) => {
        $(#[allow(missing_docs)] pub const $name: Square = Square($v);)*
    };
}

impl Square {
    square_consts! {
        A1 = 0, B1 = 1, C1 = 2, D1 = 3, E1 = 4, F1 = 5, G1 = 6, H1 = 7,
        A2 = 8, B2 = 9, C2 = 10, D2 = 11, E2 = 12, F2 = 13, G2 = 14, H2 = 15,
        A3 = 16, B3 = 17, C3 = 18, D3 = 19, E3 = 20, F3 = 21, G3 = 22, H3 = 23,
        A4 = 24, B4 = 25, C4 = 26, D4 = 27, E4 = 28, F4 = 29, G4 = 30, H4 = 31,
        A5 = 32, B5 = 33, C5 = 34, D5 = 35, E5 = 36, F5 = 37, G5 = 38, H5 = 39,
        A6 = 40, B6 = 41, C6 = 42, D6 = 43, E6 = 44, F6 = 45, G6 = 46, H6 = 47,
        A7 = 48, B7 = 49, C7 = 50, D7 = 51, E7 = 52, F7 = 53, G7 = 54, H7 = 55,
        A8 = 56, B8 = 57, C8 = 58, D8 = 59, E8 = 60, F8 = 61, G8 = 62, H8 = 63,
    }

    /// The square with this index, or `None` when `index > 63`.
    #[inline]
    pub const fn new(index: u8) -> Option<Square> {
        if index < 64 {
            Some(Square(index))
        } else {
            None
        }
    }

    /// The square with index `index & 63`: never out of range, no check.
    #[inline(always)]
    pub const fn from_index(index: u8) -> Square {
        Square(index & 63)
    }

    /// The square on `file` (0 = a) and `rank` (0 = rank 1), both taken modulo 8.
    #[inline(always)]
    pub const fn from_coords(file: u8, rank: u8) -> Square {
        Square(((rank & 7) << 3) | (file & 7))
    }

    index_accessors!("Index 0..63");

    /// File 0..7 (0 = a).
    #[inline(always)]
    pub const fn file(self) -> u8 {
        self.0 & 7
    }

    /// Rank 0..7 (0 = rank 1).
    #[inline(always)]
    pub const fn rank(self) -> u8 {
        self.0 >> 3
    }

    /// The single-bit bitboard of this square.
    #[inline(always)]
    pub const fn bb(self) -> crate::bitboard::Bitboard {
        crate::bitboard::Bitboard(1u64 << self.0)
    }

    /// The square mirrored vertically (a1 <-> a8): the same square seen from Black's side.
    #[inline(always)]
    pub const fn flip_rank(self) -> Square {
        Square(self.0 ^ 56)
    }

    /// The square relative to `color`: itself for White, mirrored for Black.
    #[inline(always)]
    pub const fn relative(self, color: Color) -> Square {
        Square(self.0 ^ (56 * color.0))
    }

    /// The square `delta` steps away in index order, if it stays on the board
    /// (only the index range is checked, not file wrap-around).
    #[inline]
    pub const fn offset(self, delta: i8) -> Option<Square> {
        let i = self.0 as i16 + delta as i16;
        if i >= 0 && i < 64 {
            Some(Square(i as u8))
        } else {
            None
        }
    }

    /// Parses `"e4"` style coordinates.
    pub fn parse(s: &str) -> Option<Square> {
        match s.as_bytes() {
            [f @ b'a'..=b'h', r @ b'1'..=b'8'] => Some(Square::from_coords(f - b'a', r - b'1')),
            _ => None,
        }
    }

    /// All 64 squares, a1 first.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..64u8).map(Square)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}{}",
            (b'a' + self.file()) as char,
            (b'1' + self.rank()) as char
        )
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// A side: White = 0, Black = 1.
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Default, Debug)]
#[repr(transparent)]
pub struct Color(u8);

impl Color {
    /// White, 0.
    pub const WHITE: Color = Color(0);
    /// Black, 1.
    pub const BLACK: Color = Color(1);

    /// The color with this index (`index & 1`).
    #[inline(always)]
    pub const fn from_index(index: u8) -> Color {
        Color(index & 1)
    }

    index_accessors!("0 for White, 1 for Black");

    /// The other color (`c ^ 1`).
    #[inline(always)]
    pub const fn flip(self) -> Color {
        Color(self.0 ^ 1)
    }

    /// `'w'` or `'b'`, as in FEN.
    pub const fn to_char(self) -> char {
        if self.0 == 0 {
            'w'
        } else {
            'b'
        }
    }
}

/// A piece type: 1..6 = pawn, knight, bishop, rook, queen, king (the dice values); 0 = none.
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
#[repr(transparent)]
pub struct PieceType(u8);

impl PieceType {
    /// No piece, 0.
    pub const NONE: PieceType = PieceType(0);
    /// Pawn, 1.
    pub const PAWN: PieceType = PieceType(1);
    /// Knight, 2.
    pub const KNIGHT: PieceType = PieceType(2);
    /// Bishop, 3.
    pub const BISHOP: PieceType = PieceType(3);
    /// Rook, 4.
    pub const ROOK: PieceType = PieceType(4);
    /// Queen, 5.
    pub const QUEEN: PieceType = PieceType(5);
    /// King, 6.
    pub const KING: PieceType = PieceType(6);
    /// The six real piece types, pawn first.
    pub const ALL: [PieceType; 6] = [
        Self::PAWN,
        Self::KNIGHT,
        Self::BISHOP,
        Self::ROOK,
        Self::QUEEN,
        Self::KING,
    ];

    /// The piece type with this value, or `None` outside 0..=6.
    #[inline]
    pub const fn new(value: u8) -> Option<PieceType> {
        if value <= 6 {
            Some(PieceType(value))
        } else {
            None
        }
    }

    index_accessors!("The value 0..6");

    /// This type's bit in a piece-type mask (`1 << type`), as used by filtered generation.
    #[inline(always)]
    pub const fn mask_bit(self) -> u8 {
        1 << self.0
    }

    /// Lower-case letter (`p n b r q k`), `'.'` for none.
    pub const fn to_char(self) -> char {
        match self.0 {
            1 => 'p',
            2 => 'n',
            3 => 'b',
            4 => 'r',
            5 => 'q',
            6 => 'k',
            _ => '.',
        }
    }

    /// Parses a lower-case letter `p n b r q k`.
    pub const fn from_char(c: char) -> Option<PieceType> {
        match c {
            'p' => Some(Self::PAWN),
            'n' => Some(Self::KNIGHT),
            'b' => Some(Self::BISHOP),
            'r' => Some(Self::ROOK),
            'q' => Some(Self::QUEEN),
            'k' => Some(Self::KING),
            _ => None,
        }
    }
}

impl fmt::Debug for PieceType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.to_char())
    }
}

/// A colored piece: `color << 3 | type`, 4 bits; 0 = no piece.
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
#[repr(transparent)]
pub struct Piece(u8);

impl Piece {
    /// No piece, 0.
    pub const NONE: Piece = Piece(0);

    /// The piece of `color` and `kind`.
    #[inline(always)]
    pub const fn new(color: Color, kind: PieceType) -> Piece {
        Piece(color.0 << 3 | kind.0)
    }

    /// The raw 4-bit value (`color << 3 | type`).
    #[inline(always)]
    pub const fn to_u8(self) -> u8 {
        self.0
    }

    /// The raw value as an index 0..15.
    #[inline(always)]
    pub const fn index(self) -> usize {
        (self.0 & 15) as usize
    }

    /// The piece from its raw value, or `None` when it is not a valid piece or none.
    pub const fn from_u8(v: u8) -> Option<Piece> {
        if v == 0 || (v & 7 >= 1 && v & 7 <= 6 && v < 16) {
            Some(Piece(v))
        } else {
            None
        }
    }

    /// True for [`Piece::NONE`].
    #[inline(always)]
    pub const fn is_none(self) -> bool {
        self.0 == 0
    }

    /// The piece's type (`PieceType::NONE` for no piece).
    #[inline(always)]
    pub const fn kind(self) -> PieceType {
        PieceType(self.0 & 7)
    }

    /// The piece's color (White for no piece).
    #[inline(always)]
    pub const fn color(self) -> Color {
        Color((self.0 >> 3) & 1)
    }

    /// FEN letter: upper case for White, lower case for Black, `'.'` for none.
    pub const fn to_char(self) -> char {
        let c = self.kind().to_char();
        if self.0 != 0 && self.color().0 == 0 {
            c.to_ascii_uppercase()
        } else {
            c
        }
    }

    /// Parses a FEN letter.
    pub const fn from_char(c: char) -> Option<Piece> {
        let color = if c.is_ascii_uppercase() {
            Color::WHITE
        } else {
            Color::BLACK
        };
        match PieceType::from_char(c.to_ascii_lowercase()) {
            Some(kind) => Some(Piece::new(color, kind)),
            None => None,
        }
    }
}

impl fmt::Debug for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.to_char())
    }
}

/// Castling rights as 4 bits: 1 = White king side, 2 = White queen side, 4 = Black king side,
/// 8 = Black queen side (the order of `KQkq` in FEN).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Default, Debug)]
#[repr(transparent)]
pub struct CastlingRights(u8);

impl CastlingRights {
    /// No rights.
    pub const NONE: CastlingRights = CastlingRights(0);
    /// All four rights.
    pub const ALL: CastlingRights = CastlingRights(15);
    /// White king side (`K`).
    pub const WHITE_KING: u8 = 1;
    /// White queen side (`Q`).
    pub const WHITE_QUEEN: u8 = 2;
    /// Black king side (`k`).
    pub const BLACK_KING: u8 = 4;
    /// Black queen side (`q`).
    pub const BLACK_QUEEN: u8 = 8;

    /// Rights from the 4 low bits.
    #[inline(always)]
    pub const fn from_bits(bits: u8) -> CastlingRights {
        CastlingRights(bits & 15)
    }

    /// The 4 bits.
    #[inline(always)]
    pub const fn bits(self) -> u8 {
        self.0
    }

    /// True when the right with index `i` (0 = K, 1 = Q, 2 = k, 3 = q) is held.
    #[inline(always)]
    pub const fn has(self, i: usize) -> bool {
        self.0 & (1 << i) != 0
    }
}

/// The index (0 = K, 1 = Q, 2 = k, 3 = q) of the castling right of `color` on one side.
#[inline(always)]
pub const fn castling_index(color: Color, king_side: bool) -> usize {
    color.index() * 2 + if king_side { 0 } else { 1 }
}
