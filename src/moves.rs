//! Moves: the 16-bit [`Move`], the UI-oriented [`MicroMove`] and the fixed-capacity
//! [`MoveList`].

use crate::types::{PieceType, Square};
use core::fmt;
use core::mem::MaybeUninit;

/// A move in 16 bits. Every move describes itself: make never has to infer what kind it is.
///
/// ```text
/// bits  0- 5  from square (0..63, LERF: a1 = 0, h8 = 63)
/// bits  6-11  to square; for castling, the king's destination (g1, c1, g8, c8)
/// bits 12-15  flag:
///              0  quiet move                 8  promotion to knight
///              1  double pawn push           9  promotion to bishop
///              2  king-side castle          10  promotion to rook
///              3  queen-side castle         11  promotion to queen
///              4  capture                   12  capture + promotion to knight
///              5  en passant capture        13  capture + promotion to bishop
///              6, 7  unused (never valid)   14  capture + promotion to rook
///                                           15  capture + promotion to queen
/// ```
///
/// So bit 14 (flag bit 2) marks a capture, bit 15 (flag bit 3) a promotion, and for
/// promotions the piece type is `(flag & 3) + 2` (knight = 2 .. queen = 5). The value 0
/// (a1a1, quiet) is never a legal move and serves as [`Move::NONE`].
#[derive(Copy, Clone, PartialEq, Eq, Hash, Default)]
#[repr(transparent)]
pub struct Move(u16);

impl Move {
    /// Not a move (a1a1 quiet): the value 0.
    pub const NONE: Move = Move(0);
    /// Flag: quiet move.
    pub const QUIET: u16 = 0;
    /// Flag: double pawn push.
    pub const DOUBLE_PUSH: u16 = 1;
    /// Flag: king-side castle.
    pub const KING_CASTLE: u16 = 2;
    /// Flag: queen-side castle.
    pub const QUEEN_CASTLE: u16 = 3;
    /// Flag: capture.
    pub const CAPTURE: u16 = 4;
    /// Flag: en passant capture.
    pub const EN_PASSANT: u16 = 5;
    /// Flag: promotion to knight (add 1, 2, 3 for bishop, rook, queen).
    pub const PROMO_KNIGHT: u16 = 8;
    /// Flag: promotion to queen.
    pub const PROMO_QUEEN: u16 = 11;
    /// Flag: capture with promotion to knight (add 1, 2, 3 for bishop, rook, queen).
    pub const PROMO_CAPTURE_KNIGHT: u16 = 12;

    /// A move from its parts (`flag` taken modulo 16).
    #[inline(always)]
    pub const fn new(from: Square, to: Square, flag: u16) -> Move {
        Move(from.to_u8() as u16 | (to.to_u8() as u16) << 6 | (flag & 15) << 12)
    }

    /// The move with this raw 16-bit value (any value; see [`Move::is_well_formed`]).
    #[inline(always)]
    pub const fn from_raw(raw: u16) -> Move {
        Move(raw)
    }

    /// The raw 16-bit value.
    #[inline(always)]
    pub const fn raw(self) -> u16 {
        self.0
    }

    /// Origin square.
    #[inline(always)]
    pub const fn from(self) -> Square {
        Square::from_index((self.0 & 63) as u8)
    }

    /// Destination square (the king's destination for castling).
    #[inline(always)]
    pub const fn to(self) -> Square {
        Square::from_index((self.0 >> 6 & 63) as u8)
    }

    /// The 4-bit flag.
    #[inline(always)]
    pub const fn flag(self) -> u16 {
        self.0 >> 12
    }

    /// True for captures, en passant and capture-promotions.
    #[inline(always)]
    pub const fn is_capture(self) -> bool {
        self.0 & 0x4000 != 0
    }

    /// True for the four promotion and four capture-promotion flags.
    #[inline(always)]
    pub const fn is_promotion(self) -> bool {
        self.0 & 0x8000 != 0
    }

    /// The promotion piece type, or `PieceType::NONE`.
    #[inline(always)]
    pub const fn promotion(self) -> PieceType {
        if self.is_promotion() {
            match PieceType::new(((self.0 >> 12) & 3) as u8 + 2) {
                Some(p) => p,
                None => PieceType::NONE,
            }
        } else {
            PieceType::NONE
        }
    }

    /// True for either castle.
    #[inline(always)]
    pub const fn is_castle(self) -> bool {
        // Flags 2 and 3 are exactly the values whose top three flag bits read 001.
        self.0 >> 13 == 1
    }

    /// True for en passant.
    #[inline(always)]
    pub const fn is_en_passant(self) -> bool {
        self.flag() == Self::EN_PASSANT
    }

    /// True for a double pawn push.
    #[inline(always)]
    pub const fn is_double_push(self) -> bool {
        self.flag() == Self::DOUBLE_PUSH
    }

    /// False for the unused flags 6 and 7 and for from == to other than a castle (in Chess960
    /// the king may castle to the square it stands on, see `position::chess960`). A
    /// well-formed move may still be illegal in a given position.
    pub const fn is_well_formed(self) -> bool {
        !matches!(self.flag(), 6 | 7) && ((self.0 & 63) != (self.0 >> 6 & 63) || self.is_castle())
    }

    /// The UCI text (`e2e4`, `e7e8q`, castling as the king's move `e1g1`) into a 5-byte buffer;
    /// returns the used length (4 or 5).
    pub fn write_uci(self, buf: &mut [u8; 5]) -> usize {
        let (f, t) = (self.from(), self.to());
        buf[0] = b'a' + f.file();
        buf[1] = b'1' + f.rank();
        buf[2] = b'a' + t.file();
        buf[3] = b'1' + t.rank();
        if self.is_promotion() {
            buf[4] = self.promotion().to_char() as u8;
            5
        } else {
            4
        }
    }

    /// The [`MicroMove`] of this move (origin, target, promotion type).
    #[inline]
    pub const fn to_micro(self) -> MicroMove {
        MicroMove::new(self.from(), self.to(), self.promotion())
    }
}

impl fmt::Display for Move {
    /// UCI text; `0000` for [`Move::NONE`].
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if *self == Move::NONE {
            return f.write_str("0000");
        }
        let mut buf = [0u8; 5];
        let n = self.write_uci(&mut buf);
        f.write_str(core::str::from_utf8(&buf[..n]).map_err(|_| fmt::Error)?)
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self, self.flag())
    }
}

/// A move as a user interface sees it, in 16 bits: bits 0-5 origin, 6-11 target, 12-15 the
/// promotion piece type (2..5 = knight..queen) or 0. It carries no flags; resolve it against a
/// position ([`crate::Position::move_from_micro`]) to get a [`Move`].
#[derive(Copy, Clone, PartialEq, Eq, Hash, Default, Debug)]
#[repr(transparent)]
pub struct MicroMove(pub u16);

impl MicroMove {
    /// A micro move from its parts.
    #[inline]
    pub const fn new(from: Square, to: Square, promotion: PieceType) -> MicroMove {
        MicroMove(
            from.to_u8() as u16 | (to.to_u8() as u16) << 6 | (promotion.to_u8() as u16 & 15) << 12,
        )
    }
    /// Origin square.
    pub const fn from(self) -> Square {
        Square::from_index((self.0 & 63) as u8)
    }
    /// Target square.
    pub const fn to(self) -> Square {
        Square::from_index((self.0 >> 6 & 63) as u8)
    }
    /// Promotion piece type value (0 = none).
    pub const fn promotion(self) -> u8 {
        (self.0 >> 12) as u8
    }
}

/// Capacity of a [`MoveList`]: more than the most moves any legal chess position has (218).
pub const MAX_MOVES: usize = 256;

/// A fixed list of up to 256 moves with an explicit count: no heap, laid out as the C type
/// `ChessMoveList` (`uint16_t moves[256]; uint32_t count;`).
#[derive(Clone)]
#[repr(C)]
pub struct MoveList {
    /// Entries `0..len` are written; the rest may be uninitialised (a new list is not zeroed:
    /// 512 bytes a node that perft and search would clear for nothing).
    moves: [MaybeUninit<Move>; MAX_MOVES],
    len: u32,
}

impl Default for MoveList {
    fn default() -> Self {
        Self::new()
    }
}

impl MoveList {
    /// An empty list.
    #[inline(always)]
    pub const fn new() -> MoveList {
        MoveList {
            // An inline const: rustc 1.95 fills `[MaybeUninit::uninit(); N]` with a memset.
            moves: [const { MaybeUninit::uninit() }; MAX_MOVES],
            len: 0,
        }
    }

    /// Makes the (possibly uninitialised) storage `slot` an empty list in place, writing only
    /// the count: the C layer fills a caller's `ChessMoveList` this way, without copying 512
    /// bytes of entries.
    #[inline(always)]
    pub(crate) fn init_in(slot: &mut MaybeUninit<MoveList>) -> &mut MoveList {
        let p = slot.as_mut_ptr();
        // SAFETY: `p` points to storage for a `MoveList`; writing the count through a raw
        // field pointer reads nothing. The entries are `MaybeUninit`, so with the count
        // written the list is initialised.
        unsafe {
            core::ptr::addr_of_mut!((*p).len).write(0);
            slot.assume_init_mut()
        }
    }

    /// Appends a move. Capacity is never exceeded for positions that `Position` accepts
    /// (at most 16 pieces a side); past it, moves are dropped (never out of bounds) and a
    /// debug build asserts.
    #[inline(always)]
    pub fn push(&mut self, m: Move) {
        debug_assert!((self.len as usize) < MAX_MOVES);
        if let Some(slot) = self.moves.get_mut(self.len as usize) {
            slot.write(m);
            self.len += 1;
        }
    }

    /// Appends `make(sq)` for each square of `squares`, keeping the count in a register
    /// until the end (the generator's bulk push). Moves past the capacity are dropped, as in
    /// [`MoveList::push`].
    #[inline(always)]
    pub(crate) fn push_each(
        &mut self,
        squares: crate::bitboard::Bitboard,
        make: impl Fn(crate::types::Square) -> Move,
    ) {
        let mut len = self.len as usize;
        for sq in squares {
            if let Some(slot) = self.moves.get_mut(len) {
                slot.write(make(sq));
                len += 1;
            }
        }
        self.len = len as u32;
    }

    /// Number of moves.
    #[inline(always)]
    pub fn len(&self) -> usize {
        self.len as usize
    }

    /// True when empty.
    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Empties the list.
    #[inline(always)]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// The moves as a slice.
    #[inline(always)]
    pub fn as_slice(&self) -> &[Move] {
        let init = &self.moves[..(self.len as usize).min(MAX_MOVES)];
        // SAFETY: `len` grows only in `push` and `push_each`, each right after writing the
        // entry it counts, so the first `len` entries are initialised; `MaybeUninit<Move>` has
        // the layout of `Move`, so the cast keeps length and alignment.
        unsafe { &*(init as *const [MaybeUninit<Move>] as *const [Move]) }
    }

    /// The moves as a mutable slice (for ordering).
    #[inline(always)]
    pub fn as_mut_slice(&mut self) -> &mut [Move] {
        let init = &mut self.moves[..(self.len as usize).min(MAX_MOVES)];
        // SAFETY: as in `as_slice`: the first `len` entries are initialised, the layouts
        // agree, and a `Move` written through the slice keeps the entry initialised.
        unsafe { &mut *(init as *mut [MaybeUninit<Move>] as *mut [Move]) }
    }

    /// Keeps the moves for which `keep` is true, in their order.
    pub(crate) fn retain(&mut self, mut keep: impl FnMut(Move) -> bool) {
        let moves = self.as_mut_slice();
        let mut kept = 0;
        for i in 0..moves.len() {
            let m = moves[i];
            if keep(m) {
                moves[kept] = m;
                kept += 1;
            }
        }
        // Shrinking the count keeps the first `len` entries initialised.
        self.len = kept as u32;
    }

    /// True when `m` is in the list.
    pub fn contains(&self, m: Move) -> bool {
        self.as_slice().contains(&m)
    }

    /// Iterates over the moves.
    pub fn iter(&self) -> core::slice::Iter<'_, Move> {
        self.as_slice().iter()
    }
}

impl core::ops::Deref for MoveList {
    type Target = [Move];
    fn deref(&self) -> &[Move] {
        self.as_slice()
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = core::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl fmt::Debug for MoveList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list()
            .entries(self.iter().map(|m| m.to_string()))
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layout_round_trips() {
        let m = Move::new(Square::E7, Square::D8, Move::PROMO_CAPTURE_KNIGHT + 3);
        assert_eq!(m.from(), Square::E7);
        assert_eq!(m.to(), Square::D8);
        assert!(m.is_capture() && m.is_promotion());
        assert_eq!(m.promotion(), PieceType::QUEEN);
        assert_eq!(m.to_string(), "e7d8q");
        assert_eq!(m.raw(), 52 | 59 << 6 | 15 << 12);
        let ep = Move::new(Square::E5, Square::D6, Move::EN_PASSANT);
        assert!(ep.is_capture() && !ep.is_promotion() && ep.is_en_passant());
        let n = Move::new(Square::A7, Square::A8, Move::PROMO_KNIGHT);
        assert_eq!(n.promotion(), PieceType::KNIGHT);
        assert!(!n.is_capture());
        assert!(!Move::from_raw(6 << 12 | 1).is_well_formed());
    }

    #[test]
    fn micro_move_fields() {
        let m = Move::new(Square::B2, Square::B1, Move::PROMO_KNIGHT + 2).to_micro();
        assert_eq!(m.from(), Square::B2);
        assert_eq!(m.to(), Square::B1);
        assert_eq!(m.promotion(), PieceType::ROOK.to_u8());
    }

    #[test]
    fn move_list_layout_matches_c() {
        assert_eq!(core::mem::size_of::<MoveList>(), 256 * 2 + 4);
        assert_eq!(core::mem::offset_of!(MoveList, len), 512);
    }
}
