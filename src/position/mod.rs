//! The position: board, state, hashes and history, with make/unmake ([`make`]), FEN
//! ([`fen`]), game status ([`status`]) and move notation ([`notation`] for UCI, [`san`] for SAN).
//!
//! What lives where (the split make/unmake relies on):
//!
//! | part | fields | make | unmake |
//! |---|---|---|---|
//! | board | `by_type`, `by_color`, `board` (mailbox) | updated incrementally | reversed incrementally |
//! | state | castling, en passant, halfmove clock, hashes, history length | updated | copied back from [`Undo`] (32 bytes in release builds) |
//! | side to move | `side` | flipped | flipped back |
//! | setup | castling rook squares, masks and paths; plies before the history (`fullmove_plies`) | untouched | untouched |
//! | history | hashes of earlier positions | pushes | nothing (the length comes back with the state) |
//!
//! Occupancy, attacked squares, checkers and pinned pieces are derived on demand; they are never
//! stored in the undo record. The one derived fact the state caches is whether the en passant
//! square can be captured (a flag bit of `ep`, set where the square is set), since both the next
//! make (for the hash) and the generator would otherwise test it again.
//! The fullmove number is not stored at all: it follows from `fullmove_plies` and the history
//! length, which make counts on anyway.

pub mod chess960;
pub mod events;
pub mod fen;
pub mod fen_lenient;
pub mod illegal;
pub mod make;
pub mod notation;
pub mod san;
pub mod status;
pub mod validate;

use crate::attacks::{self, Sliders};
use crate::bitboard::Bitboard;
use crate::types::{CastlingRights, Color, Piece, PieceType, Square};
use crate::zobrist::KEYS;
use core::fmt;

pub use fen::FenError;
pub use make::{MoveError, Undo};
pub use notation::NotationError;
pub use san::{San, SanError, SanMode, SAN_MAX};
pub use status::GameStatus;

/// How many earlier positions the history keeps. Repetition detection sees this far back;
/// [`Position::try_make_move`] refuses to go deeper.
pub const HISTORY_CAPACITY: usize = 1024;

/// The FEN of the standard starting position.
pub const START_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// Value of `ep` when there is no en passant square.
pub(crate) const NO_EP: u8 = 64;
/// Bit of `ep` set when the side to move has a legal en passant capture: the file is then in
/// the hash and the generator looks at the square.
/// Computed once, where the square is set (double push, FEN), so neither the next make nor
/// the generator tests it again; the square itself is `ep & EP_SQUARE`.
pub(crate) const EP_CAPTURABLE: u8 = 0x80;
/// Mask of `ep` that gives the square (or `NO_EP`).
pub(crate) const EP_SQUARE: u8 = 0x7f;

/// A history entry is the position's hash with its low [`HISTORY_INFO_BITS`] bits replaced by
/// what a move erases and the checked unmake must prove a record against (written by the makes
/// whose records may come back, see `Position::make_move_provable`; the plain unchecked make of
/// search and perft leaves the hash's own bits there):
///
/// ```text
/// bits 0-16   the halfmove clock before the move (131071: too large to prove)
/// bit  17     there was an en passant square before the move
/// bits 18-20  its file (the rank follows from the side to move)
/// bits 21-63  the position's hash before the move (repetition compares these 43 bits)
/// ```
pub(crate) const HISTORY_INFO_BITS: u32 = 21;
/// Mask of a history entry's hash bits.
pub(crate) const HISTORY_KEY_MASK: u64 = !((1u64 << HISTORY_INFO_BITS) - 1);

/// The part of the position that make changes and unmake copies back from the [`Undo`]
/// record in one piece (the side to move is flipped back instead).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C)]
pub(crate) struct State {
    pub(crate) hash: u64,
    pub(crate) pawn_hash: u64,
    pub(crate) material_hash: u64,
    /// The second, independent hash that debug builds keep to check the first (absent from
    /// release builds, where the state is 32 bytes).
    #[cfg(debug_assertions)]
    pub(crate) hash2: u64,
    /// Plies since the last capture or pawn move. 32 bits, so that make counts on with a plain
    /// increment; read through [`Position::halfmove_clock`], which stops at 65535.
    pub(crate) halfmove: u32,
    /// Moves made since setup, modulo 65536 (the history's length while it is at most
    /// [`HISTORY_CAPACITY`]). In the state so that unmake restores it with the rest.
    pub(crate) history_len: u16,
    pub(crate) castling: CastlingRights,
    pub(crate) ep: u8,
}

impl State {
    /// The state of no position: zero hashes and clocks, no rights, no en passant square.
    pub(crate) const EMPTY: State = State {
        hash: 0,
        pawn_hash: 0,
        material_hash: 0,
        #[cfg(debug_assertions)]
        hash2: 0,
        halfmove: 0,
        history_len: 0,
        castling: CastlingRights::NONE,
        ep: NO_EP,
    };
}

/// A chess position. A plain value: copy it to give each thread its own; the crate keeps no
/// global mutable state (only a write-once cache of the CPU check, see `attacks::Pext::detect`).
///
/// ```
/// use chesscore::{Position, Square, Piece, Color, PieceType};
/// let pos = Position::startpos();
/// assert_eq!(pos.piece_on(Square::E1), Piece::new(Color::WHITE, PieceType::KING));
/// assert_eq!(pos.to_string(), "\
/// 8 r n b q k b n r
/// 7 p p p p p p p p
/// 6 . . . . . . . .
/// 5 . . . . . . . .
/// 4 . . . . . . . .
/// 3 . . . . . . . .
/// 2 P P P P P P P P
/// 1 R N B Q K B N R
///   a b c d e f g h
/// ");
/// ```
#[derive(Clone)]
#[repr(C)]
pub struct Position {
    // The field order is the one rustc picks for these fields when free to (history first,
    // then board, state and setup tables interleaved): measured by callgrind, full perft runs
    // 2% fewer instructions a node than with the fields in the order of the table in the
    // module docs. `repr(C)` keeps it fixed (and known to the byte-level tests).
    // History: `history[i]` is the entry (hash and erased facts, see [`HISTORY_INFO_BITS`])
    // of the position before the i-th move made since setup (the length is
    // `st.history_len`).
    pub(crate) history: [u64; HISTORY_CAPACITY],
    // Board.
    pub(crate) by_type: [Bitboard; 8],
    pub(crate) board: [Piece; 64],
    // Setup: which castling rights a move from or to each square keeps.
    pub(crate) castle_masks: [u8; 64],
    // State: what the undo record copies back whole (the side to move is below).
    pub(crate) st: State,
    // Setup.
    /// Per castling right: the squares that must be empty (king and rook paths, without the
    /// king and the rook themselves), and the king's path (squares that must not be attacked).
    pub(crate) castle_paths: [Bitboard; 4],
    pub(crate) castle_king_paths: [Bitboard; 4],
    // Board.
    pub(crate) by_color: [Bitboard; 2],
    // Setup.
    /// The squares whose `castle_masks` entry clears a right (king and rook home squares):
    /// make looks at castling rights only for moves from or to one of them.
    pub(crate) castle_squares_touched: Bitboard,
    pub(crate) castle_rooks: [Square; 4],
    /// Plies played before the first move of the history: 2 × (FEN fullmove number − 1), plus
    /// 1 when Black moved first, plus whatever clearing or compacting the history dropped. The
    /// fullmove number is derived from it and the history length, so make never updates it.
    pub(crate) fullmove_plies: u32,
    // State: the side to move.
    pub(crate) side: Color,
    // Setup.
    /// 1 in Chess960 mode, 0 for standard chess (a `u8`, not a `bool`, so that any byte that
    /// arrives through the C ABI is a value; [`Position::is_plausible`] refuses others). The
    /// mode changes only text: FEN castling fields (X-FEN) and castling in UCI
    /// (king takes rook), and one extra test in castling generation (see `position::chess960`).
    pub(crate) chess960: u8,
    /// Per color, the king's home square for castling (the square castling rights need the
    /// king on): e1/e8 in standard chess, any back-rank square in Chess960.
    pub(crate) castle_kings: [Square; 2],
    /// Explicit padding (always zero): the layout has no implicit padding, so every byte of a
    /// position is initialised and a copy of the C struct is well defined.
    pub(crate) _pad_side: [u8; 4],
}

/// Where the fields after the history start in a position's bytes (the history is the first
/// 8 KiB): for tests that corrupt a position byte by byte.
#[doc(hidden)]
pub const POSITION_FIELDS_OFFSET: usize = core::mem::offset_of!(Position, by_type);

// No implicit padding anywhere in a position: the size is the sum of the fields' sizes, so a
// position written into caller memory initialises every byte of it.
const _: () = {
    use core::mem::size_of;
    assert!(
        size_of::<Position>()
            == size_of::<[Bitboard; 8]>()
                + size_of::<[Bitboard; 2]>()
                + 64
                + 1
                + 7
                + size_of::<State>()
                + 4
                + 64
                + 4
                + 2 * size_of::<[Bitboard; 4]>()
                + size_of::<Bitboard>()
                + 8 * HISTORY_CAPACITY
    );
    assert!(
        size_of::<State>() == 3 * 8 + 4 + 2 + 1 + 1 + if cfg!(debug_assertions) { 8 } else { 0 }
    );
};

impl Default for Position {
    fn default() -> Self {
        Self::startpos()
    }
}

impl Position {
    /// A board with no pieces (not a valid position); the FEN parser fills it.
    pub(crate) fn empty() -> Position {
        Position {
            by_type: [Bitboard::EMPTY; 8],
            by_color: [Bitboard::EMPTY; 2],
            board: [Piece::NONE; 64],
            side: Color::WHITE,
            chess960: 0,
            castle_kings: [Square::E1, Square::E8],
            _pad_side: [0; 4],
            st: State::EMPTY,
            castle_rooks: [Square::H1, Square::A1, Square::H8, Square::A8],
            castle_masks: [15; 64],
            fullmove_plies: 0,
            castle_paths: [Bitboard::EMPTY; 4],
            castle_king_paths: [Bitboard::EMPTY; 4],
            castle_squares_touched: Bitboard::EMPTY,
            history: [0; HISTORY_CAPACITY],
        }
    }

    /// The standard starting position.
    pub fn startpos() -> Position {
        Position::from_fen(START_FEN).expect("the start FEN is valid")
    }

    /// The side to move.
    #[inline(always)]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// The piece on `sq` (`Piece::NONE` when empty): one mailbox read.
    #[inline(always)]
    pub fn piece_on(&self, sq: Square) -> Piece {
        self.board[sq.index()]
    }

    /// Squares of `color`'s pieces of type `kind` (`PieceType::NONE` gives the empty set).
    #[inline(always)]
    pub fn pieces(&self, color: Color, kind: PieceType) -> Bitboard {
        self.by_color[color.index()] & self.by_type[kind.index() & 7]
    }

    /// Squares of all pieces of type `kind`, both colors.
    #[inline(always)]
    pub fn pieces_of_type(&self, kind: PieceType) -> Bitboard {
        self.by_type[kind.index() & 7]
    }

    /// Squares of all of `color`'s pieces.
    #[inline(always)]
    pub fn color_pieces(&self, color: Color) -> Bitboard {
        self.by_color[color.index()]
    }

    /// All occupied squares.
    #[inline(always)]
    pub fn occupied(&self) -> Bitboard {
        self.by_color[0] | self.by_color[1]
    }

    /// The square of `color`'s king.
    #[inline(always)]
    pub fn king_square(&self, color: Color) -> Square {
        self.pieces(color, PieceType::KING).lsb()
    }

    /// Castling rights.
    #[inline(always)]
    pub fn castling_rights(&self) -> CastlingRights {
        self.st.castling
    }

    /// The rook square of castling right `index` (0 = K, 1 = Q, 2 = k, 3 = q): h1, a1, h8, a8
    /// in standard chess, the rook's start square in Chess960 (for a right the position does
    /// not have, the standard square).
    #[inline(always)]
    pub fn castling_rook(&self, index: usize) -> Square {
        self.castle_rooks[index & 3]
    }

    /// The king's home square for castling of `color`: e1/e8 in standard chess, its start
    /// square in Chess960 (e1/e8 for a side without castling rights).
    #[inline(always)]
    pub fn castling_king(&self, color: Color) -> Square {
        self.castle_kings[color.index() & 1]
    }

    /// True in Chess960 mode (see [`chess960`]): FEN is written as X-FEN and castling in UCI
    /// as king takes rook.
    #[inline(always)]
    pub fn is_chess960(&self) -> bool {
        self.chess960 != 0
    }

    /// The en passant target square, if the last move was a double pawn push.
    #[inline(always)]
    pub fn en_passant(&self) -> Option<Square> {
        Square::new(self.st.ep & EP_SQUARE)
    }

    /// The en passant square when the side to move can legally capture there: a flag read, no
    /// attack test (the flag is set where the square is set).
    #[inline(always)]
    pub fn capturable_en_passant(&self) -> Option<Square> {
        if self.st.ep & EP_CAPTURABLE != 0 {
            Some(Square::from_index(self.st.ep & 63))
        } else {
            None
        }
    }

    /// Plies since the last capture or pawn move.
    #[inline(always)]
    pub fn halfmove_clock(&self) -> u32 {
        self.st.halfmove.min(u16::MAX as u32)
    }

    /// The move number, starting at 1 and incremented after Black's move (at most 65535).
    #[inline(always)]
    pub fn fullmove_number(&self) -> u32 {
        (self
            .fullmove_plies
            .saturating_add(self.st.history_len as u32)
            / 2
            + 1)
        .min(u16::MAX as u32)
    }

    /// Zobrist hash of the position (pieces, side, castling rights, capturable en passant).
    #[inline(always)]
    pub fn hash(&self) -> u64 {
        self.st.hash
    }

    /// Zobrist hash of the pawns alone.
    #[inline(always)]
    pub fn pawn_hash(&self) -> u64 {
        self.st.pawn_hash
    }

    /// Hash of the material (piece counts) alone.
    #[inline(always)]
    pub fn material_hash(&self) -> u64 {
        self.st.material_hash
    }

    /// Number of moves made since setup (the history length, counting moves past capacity),
    /// modulo 65536.
    #[inline(always)]
    pub fn ply_count(&self) -> u32 {
        self.st.history_len as u32
    }

    /// Pieces of either color that attack `sq`, with blockers `occ`.
    #[inline(always)]
    pub fn attackers_to_with<S: Sliders>(&self, s: S, sq: Square, occ: Bitboard) -> Bitboard {
        let t = &self.by_type;
        (attacks::pawn_attacks(Color::WHITE, sq) & self.pieces(Color::BLACK, PieceType::PAWN))
            | (attacks::pawn_attacks(Color::BLACK, sq) & self.pieces(Color::WHITE, PieceType::PAWN))
            | (attacks::knight_attacks(sq) & t[PieceType::KNIGHT.index()])
            | (attacks::king_attacks(sq) & t[PieceType::KING.index()])
            | (s.bishop(sq, occ) & (t[PieceType::BISHOP.index()] | t[PieceType::QUEEN.index()]))
            | (s.rook(sq, occ) & (t[PieceType::ROOK.index()] | t[PieceType::QUEEN.index()]))
    }

    /// Pieces of either color that attack `sq` in this position.
    pub fn attackers_to(&self, sq: Square) -> Bitboard {
        crate::with_sliders!(|s| self.attackers_to_with(s, sq, self.occupied()))
    }

    /// True when `sq` is attacked by a piece of `by`.
    pub fn is_attacked(&self, sq: Square, by: Color) -> bool {
        (self.attackers_to(sq) & self.color_pieces(by)).any()
    }

    /// Enemy pieces giving check to the side to move.
    #[inline(always)]
    pub fn checkers_with<S: Sliders>(&self, s: S) -> Bitboard {
        self.checkers_of(s, self.side)
    }

    /// [`Position::checkers_with`] with the side to move `us` passed in, so that a caller
    /// that knows it at compile time gets the color-indexed loads folded.
    #[inline(always)]
    pub(crate) fn checkers_of<S: Sliders>(&self, s: S, us: Color) -> Bitboard {
        debug_assert_eq!(us, self.side);
        let them = us.flip();
        let king = self.king_square(us);
        let occ = self.occupied();
        let queens = self.pieces(them, PieceType::QUEEN);
        (attacks::pawn_attacks(us, king) & self.pieces(them, PieceType::PAWN))
            | (attacks::knight_attacks(king) & self.pieces(them, PieceType::KNIGHT))
            | (s.bishop(king, occ) & (self.pieces(them, PieceType::BISHOP) | queens))
            | (s.rook(king, occ) & (self.pieces(them, PieceType::ROOK) | queens))
    }

    /// Enemy pieces giving check to the side to move.
    pub fn checkers(&self) -> Bitboard {
        crate::with_sliders!(|s| self.checkers_with(s))
    }

    /// True when the side to move is in check.
    pub fn in_check(&self) -> bool {
        self.checkers().any()
    }

    /// Pieces of `color` pinned to their own king by an enemy slider.
    #[inline(always)]
    pub fn pinned(&self, color: Color) -> Bitboard {
        let king = self.king_square(color);
        let them = color.flip();
        let occ = self.occupied();
        let diag = self.pieces(them, PieceType::BISHOP) | self.pieces(them, PieceType::QUEEN);
        let orth = self.pieces(them, PieceType::ROOK) | self.pieces(them, PieceType::QUEEN);
        let snipers = (attacks::bishop_rays(king) & diag) | (attacks::rook_rays(king) & orth);
        let mut pinned = Bitboard::EMPTY;
        for sniper in snipers {
            let between = attacks::between(king, sniper) & occ;
            if !between.more_than_one() {
                pinned |= between;
            }
        }
        pinned & self.color_pieces(color)
    }

    /// True when the side to move has a legal en passant capture: the condition under which
    /// the en passant file enters the hash (positions equal for play hash equal, as in
    /// python-chess's transposition key). Recomputed from the board (the [`EP_CAPTURABLE`]
    /// flag caches it).
    pub(crate) fn compute_ep_capturable(&self) -> bool {
        match Square::new(self.st.ep & EP_SQUARE) {
            Some(ep) => self.ep_capturable_by(ep, self.side),
            None => false,
        }
    }

    /// True when a pawn of `capturer` can legally capture en passant on `ep` (the pawn that
    /// double-pushed stands in front of it): the one test behind the capturable flag, at setup
    /// and after a double push. A pawn attacking the square is the cheap first test (it fails
    /// for most double pushes); only then is the capture tried on the occupancy, with both
    /// pawns gone and the capturer on `ep`, for any attack on the capturer's king.
    #[inline(always)]
    pub(crate) fn ep_capturable_by(&self, ep: Square, capturer: Color) -> bool {
        let candidates =
            attacks::pawn_attacks(capturer.flip(), ep) & self.pieces(capturer, PieceType::PAWN);
        candidates.any() && self.ep_capture_is_legal(ep, capturer, candidates)
    }

    /// The rare part of [`Position::ep_capturable_by`]: does any of `candidates` (pawns of
    /// `capturer` attacking `ep`) capture there without leaving its king attacked? Inlined,
    /// on the magic back end (plain table reads, no CPU dispatch): a call here would cost
    /// every make its register saves, though the branch is rarely taken.
    #[inline(always)]
    fn ep_capture_is_legal(&self, ep: Square, capturer: Color, candidates: Bitboard) -> bool {
        let victim = Square::from_index(ep.to_u8() ^ 8);
        let king = self.king_square(capturer);
        let enemies = self.color_pieces(capturer.flip()) & !victim.bb();
        candidates.iter().any(|from| {
            let occ = (self.occupied() ^ from.bb() ^ victim.bb()) | ep.bb();
            (self.attackers_to_with(attacks::Magic, king, occ) & enemies).is_empty()
        })
    }

    /// Puts `pc` (not `NONE`) on the empty square `sq`: bitboards and mailbox only.
    #[inline(always)]
    pub(crate) fn put_piece(&mut self, pc: Piece, sq: Square) {
        let b = sq.bb();
        self.by_type[pc.kind().index() & 7] |= b;
        self.by_color[pc.color().index()] |= b;
        self.board[sq.index()] = pc;
    }

    /// Removes the piece `pc` standing on `sq`: bitboards and mailbox only.
    #[inline(always)]
    pub(crate) fn remove_piece(&mut self, pc: Piece, sq: Square) {
        let b = sq.bb();
        self.by_type[pc.kind().index() & 7] ^= b;
        self.by_color[pc.color().index()] ^= b;
        self.board[sq.index()] = Piece::NONE;
    }

    /// Moves `pc` from `from` to the empty square `to`: bitboards and mailbox only.
    #[inline(always)]
    pub(crate) fn move_piece(&mut self, pc: Piece, from: Square, to: Square) {
        let b = from.bb() | to.bb();
        self.by_type[pc.kind().index() & 7] ^= b;
        self.by_color[pc.color().index()] ^= b;
        self.board[from.index()] = Piece::NONE;
        self.board[to.index()] = pc;
    }

    /// The three hashes recomputed from scratch: (position, pawn, material).
    pub fn compute_hashes(&self) -> (u64, u64, u64) {
        self.compute_hashes_with(&KEYS)
    }

    pub(crate) fn compute_hashes_with(&self, keys: &crate::zobrist::Keys) -> (u64, u64, u64) {
        let mut h = 0u64;
        let mut pawn = 0u64;
        let mut counts = [0usize; 16];
        let mut mat = 0u64;
        for sq in self.occupied() {
            let pc = self.board[sq.index()];
            h ^= keys.psq[pc.index()][sq.index()];
            if pc.kind() == PieceType::PAWN {
                pawn ^= keys.psq[pc.index()][sq.index()];
            }
            mat ^= keys.material[pc.index()][counts[pc.index()] & 15];
            counts[pc.index()] += 1;
        }
        h ^= keys.castling[self.st.castling.bits() as usize];
        if self.side == Color::BLACK {
            h ^= keys.side;
        }
        if self.compute_ep_capturable() {
            h ^= keys.ep_file[(self.st.ep & 7) as usize];
        }
        (h, pawn, mat)
    }

    /// Sets all hashes from scratch (after setup).
    pub(crate) fn refresh_hashes(&mut self) {
        let (h, p, m) = self.compute_hashes();
        self.st.hash = h;
        self.st.pawn_hash = p;
        self.st.material_hash = m;
        #[cfg(debug_assertions)]
        {
            self.st.hash2 = self.compute_hashes_with(&crate::zobrist::KEYS2).0;
        }
    }

    /// Writes the board as 8 lines (rank 8 first, `rank-digit piece piece ...`, `.` empty)
    /// and a file line, as [`fmt::Display`] does.
    pub fn write_pretty(&self, out: &mut impl fmt::Write) -> fmt::Result {
        for rank in (0..8u8).rev() {
            write!(out, "{}", rank + 1)?;
            for file in 0..8u8 {
                write!(
                    out,
                    " {}",
                    self.piece_on(Square::from_coords(file, rank)).to_char()
                )?;
            }
            out.write_char('\n')?;
        }
        out.write_str("  a b c d e f g h\n")
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write_pretty(f)
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({})", self.to_fen())
    }
}

impl PartialEq for Position {
    /// Equal when board, state and move number are equal (history and setup tables are not
    /// compared).
    fn eq(&self, other: &Self) -> bool {
        self.by_type == other.by_type
            && self.by_color == other.by_color
            && self.board == other.board
            && self.side == other.side
            && self.st == other.st
            && self.castle_rooks == other.castle_rooks
            && self.castle_kings == other.castle_kings
            && self.chess960 == other.chess960
            && self.fullmove_number() == other.fullmove_number()
    }
}
impl Eq for Position {}
