//! 64-bit bitboards in LERF order (bit 0 = a1, bit 63 = h8) and their printing.

use crate::types::Square;
use core::fmt;
use core::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// A set of squares: bit `i` set means square `i` (LERF: a1 = 0, h8 = 63) is in the set.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Default)]
#[repr(transparent)]
pub struct Bitboard(pub u64);

impl Bitboard {
    /// The empty set.
    pub const EMPTY: Bitboard = Bitboard(0);
    /// All 64 squares.
    pub const ALL: Bitboard = Bitboard(!0);
    /// File a.
    pub const FILE_A: Bitboard = Bitboard(0x0101_0101_0101_0101);
    /// File h.
    pub const FILE_H: Bitboard = Bitboard(0x8080_8080_8080_8080);
    /// Rank 1.
    pub const RANK_1: Bitboard = Bitboard(0xFF);
    /// Rank 2.
    pub const RANK_2: Bitboard = Bitboard(0xFF << 8);
    /// Rank 3.
    pub const RANK_3: Bitboard = Bitboard(0xFF << 16);
    /// Rank 4.
    pub const RANK_4: Bitboard = Bitboard(0xFF << 24);
    /// Rank 5.
    pub const RANK_5: Bitboard = Bitboard(0xFF << 32);
    /// Rank 6.
    pub const RANK_6: Bitboard = Bitboard(0xFF << 40);
    /// Rank 7.
    pub const RANK_7: Bitboard = Bitboard(0xFF << 48);
    /// Rank 8.
    pub const RANK_8: Bitboard = Bitboard(0xFF << 56);
    /// The 32 light squares (h1 is light).
    pub const LIGHT_SQUARES: Bitboard = Bitboard(0x55AA_55AA_55AA_55AA);

    /// The bitboard of file `f` (0 = a).
    #[inline(always)]
    pub const fn file(f: u8) -> Bitboard {
        Bitboard(0x0101_0101_0101_0101 << (f & 7))
    }

    /// The bitboard of rank `r` (0 = rank 1).
    #[inline(always)]
    pub const fn rank(r: u8) -> Bitboard {
        Bitboard(0xFF << ((r & 7) * 8))
    }

    /// True when no square is set.
    #[inline(always)]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// True when at least one square is set.
    #[inline(always)]
    pub const fn any(self) -> bool {
        self.0 != 0
    }

    /// True when `sq` is set.
    #[inline(always)]
    pub const fn has(self, sq: Square) -> bool {
        self.0 >> sq.index() & 1 != 0
    }

    /// Number of squares set.
    #[inline(always)]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// True when more than one square is set.
    #[inline(always)]
    pub const fn more_than_one(self) -> bool {
        self.0 & self.0.wrapping_sub(1) != 0
    }

    /// The lowest set square. Meaningless (a1..h8 wrap) on an empty set: check first.
    #[inline(always)]
    pub const fn lsb(self) -> Square {
        Square::from_index(self.0.trailing_zeros() as u8)
    }

    /// The lowest set square, or `None` when empty.
    #[inline(always)]
    pub const fn first(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(self.lsb())
        }
    }

    /// Removes and returns the lowest set square. Meaningless on an empty set.
    #[inline(always)]
    pub fn pop_lsb(&mut self) -> Square {
        let sq = self.lsb();
        self.0 &= self.0.wrapping_sub(1);
        sq
    }

    /// The set with `sq` added.
    #[inline(always)]
    pub const fn with(self, sq: Square) -> Bitboard {
        Bitboard(self.0 | 1 << sq.index())
    }

    /// The set with `sq` removed.
    #[inline(always)]
    pub const fn without(self, sq: Square) -> Bitboard {
        Bitboard(self.0 & !(1 << sq.index()))
    }

    /// Every square shifted one rank up (towards rank 8); rank 8 falls off.
    #[inline(always)]
    pub const fn north(self) -> Bitboard {
        Bitboard(self.0 << 8)
    }

    /// Every square shifted one rank down (towards rank 1); rank 1 falls off.
    #[inline(always)]
    pub const fn south(self) -> Bitboard {
        Bitboard(self.0 >> 8)
    }

    /// Writes the 8x8 grid (rank 8 first, files a to h, `x` set, `.` empty, one line a rank
    /// with the squares separated by spaces) into `out`.
    pub fn write_grid(self, out: &mut impl fmt::Write) -> fmt::Result {
        for rank in (0..8).rev() {
            for file in 0..8 {
                let c = if self.has(Square::from_coords(file, rank)) {
                    'x'
                } else {
                    '.'
                };
                out.write_char(c)?;
                out.write_char(if file == 7 { '\n' } else { ' ' })?;
            }
        }
        Ok(())
    }

    /// Prints the grid of [`Bitboard::write_grid`] to standard output.
    ///
    /// ```
    /// use chesscore::{Bitboard, Square};
    /// let mut s = String::new();
    /// Bitboard(0).with(Square::E4).with(Square::H8).write_grid(&mut s).unwrap();
    /// assert_eq!(s, "\
    /// . . . . . . . x
    /// . . . . . . . .
    /// . . . . . . . .
    /// . . . . . . . .
    /// . . . . x . . .
    /// . . . . . . . .
    /// . . . . . . . .
    /// . . . . . . . .
    /// ");
    /// ```
    pub fn print(self) {
        print!("{self}");
    }

    /// Iterates over the set squares, lowest first.
    #[inline(always)]
    pub fn iter(self) -> BitboardIter {
        BitboardIter(self.0)
    }
}

/// Length in bytes of the grid text of [`Bitboard::write_grid`] (8 lines of 16 bytes).
pub const GRID_TEXT_LEN: usize = 128;

impl fmt::Display for Bitboard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write_grid(f)
    }
}

impl fmt::Debug for Bitboard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Bitboard({:#018x})", self.0)
    }
}

/// Iterator over the squares of a bitboard, lowest first.
#[derive(Clone, Copy)]
pub struct BitboardIter(u64);

impl Iterator for BitboardIter {
    type Item = Square;
    #[inline(always)]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            let sq = Square::from_index(self.0.trailing_zeros() as u8);
            self.0 &= self.0 - 1;
            Some(sq)
        }
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for BitboardIter {}

impl IntoIterator for Bitboard {
    type Item = Square;
    type IntoIter = BitboardIter;
    #[inline(always)]
    fn into_iter(self) -> BitboardIter {
        self.iter()
    }
}

macro_rules! bit_ops {
    ($($tr:ident $f:ident $atr:ident $af:ident $op:tt),*) => {$(
        impl $tr for Bitboard {
            type Output = Bitboard;
            #[inline(always)]
            fn $f(self, rhs: Bitboard) -> Bitboard { Bitboard(self.0 $op rhs.0) }
        }
        impl $atr for Bitboard {
            #[inline(always)]
            fn $af(&mut self, rhs: Bitboard) { self.0 = self.0 $op rhs.0; }
        }
    )*};
}
bit_ops!(BitAnd bitand BitAndAssign bitand_assign &, BitOr bitor BitOrAssign bitor_assign |,
         BitXor bitxor BitXorAssign bitxor_assign ^);

impl Not for Bitboard {
    type Output = Bitboard;
    #[inline(always)]
    fn not(self) -> Bitboard {
        Bitboard(!self.0)
    }
}

impl From<Square> for Bitboard {
    #[inline(always)]
    fn from(sq: Square) -> Bitboard {
        sq.bb()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grid_has_rank_8_first_and_file_a_left() {
        let s = Bitboard(1).to_string(); // a1 only
        let lines: Vec<&str> = s.lines().collect();
        assert_eq!(lines.len(), 8);
        assert_eq!(lines[7], "x . . . . . . .");
        assert!(lines[..7].iter().all(|l| *l == ". . . . . . . ."));
        assert_eq!(s.len(), GRID_TEXT_LEN);
    }

    #[test]
    fn iteration_yields_squares_in_order() {
        let b = Bitboard(0)
            .with(Square::H8)
            .with(Square::A1)
            .with(Square::E4);
        let v: Vec<Square> = b.iter().collect();
        assert_eq!(v, vec![Square::A1, Square::E4, Square::H8]);
        assert_eq!(b.count(), 3);
        assert!(b.more_than_one());
        assert!(!Square::E4.bb().more_than_one());
    }
}
