//! Incremental make/unmake of moves and null moves, with the plain-data [`Undo`] record.

use super::{
    Position, State, EP_CAPTURABLE, HISTORY_CAPACITY, HISTORY_INFO_BITS, HISTORY_KEY_MASK, NO_EP,
};
use crate::moves::Move;
use crate::types::{castling_index, CastlingRights, Color, Piece, PieceType, Square};
use crate::zobrist::KEYS;
use core::ffi::CStr;
use core::fmt;

/// What [`Position::make_move_unchecked`] saves for [`Position::unmake_move_unchecked`]: only what cannot be
/// recomputed from the position after the move and the move itself. Plain data: copy it,
/// store it in arrays, pass it through C as `ChessUndo`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C)]
pub struct Undo {
    pub(crate) state: State,
    pub(crate) captured: Piece,
    /// Explicit padding (always zero): no byte of a record is implicit padding, so a record
    /// copied into C memory initialises all of it.
    pub(crate) _pad: [u8; 7],
}

const _: () = assert!(core::mem::size_of::<Undo>() == core::mem::size_of::<State>() + 8);

impl Default for Undo {
    /// A record that belongs to no move (every checked unmake refuses it).
    fn default() -> Self {
        Undo {
            state: State::EMPTY,
            captured: Piece::NONE,
            _pad: [0; 7],
        }
    }
}

impl Undo {
    /// The piece the move captured (`Piece::NONE` for none).
    pub fn captured(&self) -> Piece {
        self.captured
    }
}

/// Why a checked make or unmake refused.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// The move is not legal in the position.
    Illegal,
    /// The history is full ([`HISTORY_CAPACITY`] moves since setup).
    HistoryFull,
    /// The undo record or move does not belong to the last move made.
    BadUndo,
}

impl MoveError {
    /// A short English description, NUL-terminated for C (`chess_statusMessage` returns it).
    pub const fn message_c(self) -> &'static CStr {
        match self {
            MoveError::Illegal => c"the move is not legal in this position",
            MoveError::HistoryFull => {
                c"the position history is full (1024 moves since setup): compact or set it again"
            }
            MoveError::BadUndo => c"the move and undo record are not those of the last move made",
        }
    }
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.message_c().to_str().unwrap_or("move error"))
    }
}

impl std::error::Error for MoveError {}

/// The key changes of one make, accumulated in registers and applied to the position once.
#[derive(Clone, Copy, Default)]
struct KeyDelta {
    pos: u64,
    #[cfg(debug_assertions)]
    pos2: u64,
}

impl KeyDelta {
    #[inline(always)]
    fn piece(&mut self, pc: Piece, sq: Square) {
        self.pos ^= KEYS.psq[pc.index()][sq.index()];
        #[cfg(debug_assertions)]
        {
            self.pos2 ^= crate::zobrist::KEYS2.psq[pc.index()][sq.index()];
        }
    }

    #[inline(always)]
    fn side(&mut self) {
        self.pos ^= KEYS.side;
        #[cfg(debug_assertions)]
        {
            self.pos2 ^= crate::zobrist::KEYS2.side;
        }
    }

    #[inline(always)]
    fn ep(&mut self, ep: u8) {
        self.pos ^= KEYS.ep_file[(ep & 7) as usize];
        #[cfg(debug_assertions)]
        {
            self.pos2 ^= crate::zobrist::KEYS2.ep_file[(ep & 7) as usize];
        }
    }

    #[inline(always)]
    fn castling(&mut self, rights: CastlingRights) {
        let r = rights.bits() as usize & 15;
        self.pos ^= KEYS.castling[r];
        #[cfg(debug_assertions)]
        {
            self.pos2 ^= crate::zobrist::KEYS2.castling[r];
        }
    }
}

/// The low bits of a history entry (see [`HISTORY_INFO_BITS`]): bits 0-16 the clock (at most
/// [`CLOCK_UNPROVABLE`]), bit 17 an en passant square is set, bits 18-20 its file.
#[inline(always)]
fn history_info(st: &State) -> u64 {
    let has_ep = st.ep != NO_EP;
    u64::from(st.halfmove.min(CLOCK_UNPROVABLE))
        | (u64::from(has_ep) << 17)
        | (u64::from(st.ep & 7) << 18)
}

/// The largest clock a history entry holds; an entry with it proves nothing about the clock
/// (no game through the checked calls gets there: FEN clocks stop at 65535 and the history at
/// 1024 moves).
const CLOCK_UNPROVABLE: u32 = (1 << 17) - 1;

const _: () = assert!(HISTORY_INFO_BITS == 21);

impl Position {
    #[inline(always)]
    fn apply(&mut self, d: KeyDelta) {
        self.st.hash ^= d.pos;
        #[cfg(debug_assertions)]
        {
            self.st.hash2 ^= d.pos2;
        }
    }

    /// What every ply does first, moves and null moves alike: the en passant square goes
    /// (and its key, if it was hashed) and the halfmove clock counts on.
    #[inline(always)]
    fn begin_ply<const TRACK: bool>(&mut self, d: &mut KeyDelta) {
        if self.st.ep != NO_EP {
            if self.st.ep & EP_CAPTURABLE != 0 {
                d.ep(self.st.ep);
            }
            self.st.ep = NO_EP;
        }
        if TRACK {
            self.st.halfmove = self.st.halfmove.wrapping_add(1);
        }
    }

    /// Material key of the `n`-th (from 0) piece `pc`.
    #[inline(always)]
    fn material_key(pc: Piece, n: u32) -> u64 {
        KEYS.material[pc.index()][(n & 15) as usize]
    }

    #[inline(always)]
    fn save_state(&self) -> Undo {
        Undo {
            state: self.st,
            captured: Piece::NONE,
            _pad: [0; 7],
        }
    }

    #[inline(always)]
    fn restore_state(&mut self, u: &Undo) {
        self.st = u.state;
    }

    /// Records the current hash (a full history records nothing and only counts). Unmake
    /// needs no pop: the length is part of the state it copies back. The entry's low bits are
    /// the hash's own here: [`Position::record_erased_facts`] replaces them for the makes whose
    /// records a checked unmake may have to prove (search and perft never pay for it).
    #[inline(always)]
    fn push_history(&mut self) {
        let len = self.st.history_len;
        if let Some(slot) = self.history.get_mut(len as usize) {
            *slot = self.st.hash;
        }
        self.st.history_len = len.wrapping_add(1);
    }

    /// Writes into the history entry of the move `undo` belongs to (just made) what that move
    /// erased: whether the clock was 0 and the en passant square (see [`HISTORY_INFO_BITS`]),
    /// so that [`Position::try_unmake_move`] can prove a record exactly.
    #[inline]
    pub(crate) fn record_erased_facts(&mut self, undo: &Undo) {
        if let Some(slot) = self.history.get_mut(undo.state.history_len as usize) {
            *slot = (*slot & HISTORY_KEY_MASK) | history_info(&undo.state);
        }
    }

    /// [`Position::make_move_unchecked`] for a generated move whose record may come back to
    /// [`Position::try_unmake_move`]: the history entry also records what the move erased.
    /// (The C ABI's unchecked make uses it, so every move made through C is provable.)
    #[inline]
    pub fn make_move_provable(&mut self, m: Move) -> Undo {
        let undo = self.make_move_unchecked(m);
        self.record_erased_facts(&undo);
        undo
    }

    /// The king and rook squares of a castle by `us` on one side: (king to, rook from, rook to).
    #[inline(always)]
    pub(crate) fn castle_squares(&self, us: Color, king_side: bool) -> (Square, Square, Square) {
        let rank = if us == Color::WHITE { 0 } else { 7 };
        let rook_from = self.castle_rooks[castling_index(us, king_side)];
        if king_side {
            (
                Square::from_coords(6, rank),
                rook_from,
                Square::from_coords(5, rank),
            )
        } else {
            (
                Square::from_coords(2, rank),
                rook_from,
                Square::from_coords(3, rank),
            )
        }
    }

    /// Makes `m` without checking it, and returns what [`Position::unmake_move_unchecked`] needs.
    ///
    /// `m` must come from this position's legal or pseudo-legal generator (after a
    /// pseudo-legal move the mover's king may stand in check; the caller then unmakes it).
    /// Any other value gives an unspecified but memory-safe position. Use
    /// [`Position::try_make_move`] for moves from outside.
    ///
    /// # Panics
    /// Debug builds check every invariant and both hashes after the move.
    #[inline(always)]
    pub fn make_move_unchecked(&mut self, m: Move) -> Undo {
        self.make_move_impl::<true>(m, self.side)
    }

    /// The one make, returning the whole record: `TRACK` keeps hashes, history and clocks
    /// (their updates compile away without it).
    #[inline(always)]
    fn make_move_impl<const TRACK: bool>(&mut self, m: Move, us: Color) -> Undo {
        let state = self.st;
        let captured = self.make_move_in_node::<TRACK>(m, us);
        Undo {
            state,
            captured,
            _pad: [0; 7],
        }
    }

    /// The state every move of this node saves in its record: the same for all of them, so a
    /// loop over a node's moves (perft, search) can copy it once, before the first move, and
    /// use [`Position::make_move_in_node`] and [`Position::unmake_move_in_node`].
    #[inline(always)]
    pub(crate) fn node_state(&self) -> State {
        self.st
    }

    /// Make without the record's copy of the state (the caller holds it from
    /// [`Position::node_state`]); returns the captured piece, the rest of the record.
    /// `TRACK = false` leaves the hashes, the history and the clocks alone (bulk perft reads
    /// none of them): they are stale until the matching [`Position::unmake_move_in_node`],
    /// which copies the state back whole.
    /// Quiet moves and double pushes, most moves, take a short path; everything else goes
    /// through [`Position::make_special`].
    #[inline(always)]
    pub(crate) fn make_move_in_node<const TRACK: bool>(&mut self, m: Move, us: Color) -> Piece {
        debug_assert_eq!(us, self.side);
        let mut captured = Piece::NONE;
        if TRACK {
            self.push_history();
        }
        let (from, to, flag) = (m.from(), m.to(), m.flag());
        let pc = self.board[from.index()];
        debug_assert!(
            pc.color() == us && !pc.is_none(),
            "no piece of the mover on {from}: {m:?}"
        );
        let mut d = KeyDelta::default();
        self.begin_ply::<TRACK>(&mut d);
        if flag <= Move::DOUBLE_PUSH {
            // Quiet moves and double pushes (a third of all moves from the start position).
            self.move_piece(pc, from, to);
            d.piece(pc, from);
            d.piece(pc, to);
            if TRACK && pc.kind() == PieceType::PAWN {
                self.st.halfmove = 0;
                self.st.pawn_hash ^= Self::psq_key(pc, from) ^ Self::psq_key(pc, to);
            }
            if flag == Move::DOUBLE_PUSH {
                self.set_double_push_ep(from, to, us, &mut d);
            }
        } else {
            captured = self.make_special::<TRACK>(m, pc, us, &mut d);
        }
        self.end_ply::<TRACK>(from, to, us, d);
        self.debug_validate_tracked(TRACK);
        captured
    }

    /// Zobrist key of `pc` on `sq`.
    #[inline(always)]
    fn psq_key(pc: Piece, sq: Square) -> u64 {
        KEYS.psq[pc.index()][sq.index()]
    }

    /// Whether `m`, a legal move of this position, gives check: what making it and asking
    /// [`Position::in_check`] would say, without the make (a search that prunes quiet moves
    /// unless they give check asks it of every move it might prune). Our pieces and the
    /// board's occupancy after the move (castles, en passant and promotions included) are
    /// put together and the other king's attackers among them counted, so direct checks,
    /// discovered checks and a castling rook's check all come out of one test.
    #[inline]
    pub(crate) fn gives_check(&self, m: Move) -> bool {
        crate::with_sliders!(|s| self.gives_check_with(s, m))
    }

    #[inline(always)]
    fn gives_check_with<S: crate::attacks::Sliders>(&self, s: S, m: Move) -> bool {
        use crate::attacks::{knight_attacks, pawn_attacks};
        let us = self.side;
        let them = us.flip();
        let ksq = self.king_square(them);
        let (from, to) = (m.from(), m.to());
        let mut occ = self.occupied() ^ from.bb();
        let mut p = self.pieces(us, PieceType::PAWN);
        let mut n = self.pieces(us, PieceType::KNIGHT);
        let mut b = self.pieces(us, PieceType::BISHOP);
        let mut r = self.pieces(us, PieceType::ROOK);
        let mut q = self.pieces(us, PieceType::QUEEN);
        if m.is_castle() {
            let (king_to, rook_from, rook_to) =
                self.castle_squares(us, m.flag() == Move::KING_CASTLE);
            occ = (occ ^ rook_from.bb()) | king_to.bb() | rook_to.bb();
            r = (r ^ rook_from.bb()) | rook_to.bb();
        } else {
            let mover = self.piece_on(from).kind();
            let placed = if m.is_promotion() {
                m.promotion()
            } else {
                mover
            };
            for (kind, bb) in [
                (PieceType::PAWN, &mut p),
                (PieceType::KNIGHT, &mut n),
                (PieceType::BISHOP, &mut b),
                (PieceType::ROOK, &mut r),
                (PieceType::QUEEN, &mut q),
            ] {
                if kind == mover {
                    *bb ^= from.bb();
                }
                if kind == placed {
                    *bb |= to.bb();
                }
            }
            if m.is_en_passant() {
                occ ^= Square::from_index(to.to_u8() ^ 8).bb();
            }
            occ |= to.bb();
        }
        ((pawn_attacks(them, ksq) & p)
            | (knight_attacks(ksq) & n)
            | (s.bishop(ksq, occ) & (b | q))
            | (s.rook(ksq, occ) & (r | q)))
            .any()
    }

    /// The hash after `m`, a move of this position, for a search to prefetch the hash table's
    /// entry before it makes the move: exact for a quiet move or capture by a piece other than
    /// a king or rook that is not a double push, a promotion or en passant, and that captures
    /// no rook; for the others a key that may differ (castling rights, en passant squares and
    /// promotions are left out), which only costs the prefetch.
    #[inline(always)]
    pub(crate) fn hash_after_hint(&self, m: Move) -> u64 {
        let (from, to) = (m.from(), m.to());
        let pc = self.piece_on(from);
        let mut h = self.st.hash ^ KEYS.side ^ Self::psq_key(pc, from) ^ Self::psq_key(pc, to);
        let victim = self.piece_on(to);
        if victim != Piece::NONE {
            h ^= Self::psq_key(victim, to);
        }
        if self.st.ep != NO_EP && self.st.ep & EP_CAPTURABLE != 0 {
            h ^= KEYS.ep_file[(self.st.ep & 7) as usize];
        }
        h
    }

    /// The moves other than quiet moves and double pushes: castles, captures, en passant and
    /// promotions. Returns the captured piece (`Piece::NONE` for none).
    #[inline(always)]
    fn make_special<const TRACK: bool>(
        &mut self,
        m: Move,
        pc: Piece,
        us: Color,
        d: &mut KeyDelta,
    ) -> Piece {
        let them = us.flip();
        let (from, to, flag) = (m.from(), m.to(), m.flag());
        let mut captured = Piece::NONE;
        if m.is_castle() {
            let (king_to, rook_from, rook_to) = self.castle_squares(us, flag == Move::KING_CASTLE);
            let rook = Piece::new(us, PieceType::ROOK);
            self.remove_piece(pc, from);
            self.remove_piece(rook, rook_from);
            self.put_piece(pc, king_to);
            self.put_piece(rook, rook_to);
            d.piece(pc, from);
            d.piece(pc, king_to);
            d.piece(rook, rook_from);
            d.piece(rook, rook_to);
            return captured;
        }
        if m.is_capture() {
            let cap_sq = if flag == Move::EN_PASSANT {
                Square::from_index(to.to_u8() ^ 8)
            } else {
                to
            };
            let cap = self.board[cap_sq.index()];
            captured = cap;
            self.remove_piece(cap, cap_sq);
            d.piece(cap, cap_sq);
            if TRACK {
                if cap.kind() == PieceType::PAWN {
                    self.st.pawn_hash ^= Self::psq_key(cap, cap_sq);
                }
                // The count after removal is the index of the key the piece had.
                self.st.material_hash ^=
                    Self::material_key(cap, self.pieces(them, cap.kind()).count());
                self.st.halfmove = 0;
            }
        }
        d.piece(pc, from);
        if pc.kind() != PieceType::PAWN {
            self.move_piece(pc, from, to);
            d.piece(pc, to);
            return captured;
        }
        if TRACK {
            self.st.halfmove = 0;
            self.st.pawn_hash ^= Self::psq_key(pc, from);
        }
        if m.is_promotion() {
            let promo = Piece::new(us, m.promotion());
            self.remove_piece(pc, from);
            if TRACK {
                self.st.material_hash ^=
                    Self::material_key(pc, self.pieces(us, PieceType::PAWN).count())
                        ^ Self::material_key(promo, self.pieces(us, promo.kind()).count());
            }
            self.put_piece(promo, to);
            d.piece(promo, to);
            return captured;
        }
        self.move_piece(pc, from, to);
        d.piece(pc, to);
        if TRACK {
            self.st.pawn_hash ^= Self::psq_key(pc, to);
        }
        captured
    }

    /// The en passant square a double push from `from` to `to` by `us` leaves, flagged and
    /// hashed only when a pawn of the side to move next can capture there.
    #[inline(always)]
    fn set_double_push_ep(&mut self, from: Square, to: Square, us: Color, d: &mut KeyDelta) {
        let ep = (from.to_u8() + to.to_u8()) / 2;
        if self.ep_capturable_by(Square::from_index(ep), us.flip()) {
            self.st.ep = ep | EP_CAPTURABLE;
            d.ep(ep);
        } else {
            self.st.ep = ep;
        }
    }

    /// What every move ends with: castling rights (looked at only when the move touches a
    /// king or rook home square), the side to move, the hash. (The fullmove number follows
    /// from the history length, which make has already counted on.)
    #[inline(always)]
    fn end_ply<const TRACK: bool>(&mut self, from: Square, to: Square, us: Color, mut d: KeyDelta) {
        if ((from.bb() | to.bb()) & self.castle_squares_touched).any() {
            let rights = CastlingRights::from_bits(
                self.st.castling.bits()
                    & self.castle_masks[from.index()]
                    & self.castle_masks[to.index()],
            );
            if rights != self.st.castling {
                d.castling(self.st.castling);
                d.castling(rights);
                self.st.castling = rights;
            }
        }
        self.side = us.flip();
        d.side();
        if TRACK {
            self.apply(d);
        }
    }

    /// Takes back `m`, which must be the last move made, with the record `make_move_unchecked` returned.
    /// Use [`Position::try_unmake_move`] for a move and record from outside.
    ///
    /// # Panics
    /// Debug builds check every invariant and both hashes after the unmake.
    #[inline(always)]
    pub fn unmake_move_unchecked(&mut self, m: Move, undo: &Undo) {
        self.unmake_move_impl(m, undo, self.side.flip());
        self.debug_validate();
    }

    #[inline(always)]
    fn unmake_move_impl(&mut self, m: Move, undo: &Undo, us: Color) {
        self.unmake_core(m, undo.captured, &undo.state, us);
    }

    /// [`Position::unmake_move_unchecked`] without the debug-build validation, for a checked
    /// unmake that validates the result itself and refuses it when it is inconsistent (Dice
    /// Chess, `crate::dice`). The record's fields are only copied and the pieces moved by
    /// masked bit arithmetic, so any record is memory-safe here.
    #[inline]
    pub(crate) fn unmake_move_unvalidated(&mut self, m: Move, undo: &Undo) {
        self.unmake_move_impl(m, undo, self.side.flip());
    }

    /// Takes back a move made by [`Position::make_move_in_node`], given what it captured and
    /// the node's state from [`Position::node_state`].
    #[inline(always)]
    pub(crate) fn unmake_move_in_node<const TRACK: bool>(
        &mut self,
        m: Move,
        captured: Piece,
        state: &State,
        us: Color,
    ) {
        debug_assert_eq!(us, self.side.flip());
        self.unmake_core(m, captured, state, us);
        self.debug_validate_tracked(TRACK);
    }

    /// The one unmake (no checks: the checked unmake runs it on a probe copy).
    #[inline(always)]
    fn unmake_core(&mut self, m: Move, captured: Piece, state: &State, us: Color) {
        self.side = us;
        let (from, to, flag) = (m.from(), m.to(), m.flag());
        if flag <= Move::DOUBLE_PUSH {
            let moved = self.board[to.index()];
            self.move_piece(moved, to, from);
        } else if m.is_castle() {
            let (king_to, rook_from, rook_to) = self.castle_squares(us, flag == Move::KING_CASTLE);
            let king = Piece::new(us, PieceType::KING);
            let rook = Piece::new(us, PieceType::ROOK);
            self.remove_piece(king, king_to);
            self.remove_piece(rook, rook_to);
            self.put_piece(king, from);
            self.put_piece(rook, rook_from);
        } else {
            let moved = self.board[to.index()];
            if m.is_promotion() {
                self.remove_piece(moved, to);
                self.put_piece(Piece::new(us, PieceType::PAWN), from);
            } else {
                self.move_piece(moved, to, from);
            }
            if !captured.is_none() {
                let cap_sq = if flag == Move::EN_PASSANT {
                    Square::from_index(to.to_u8() ^ 8)
                } else {
                    to
                };
                self.put_piece(captured, cap_sq);
            }
        }
        self.st = *state;
    }

    /// Passes the turn: side to move flips, en passant is cleared, the halfmove clock counts
    /// on. For null-move pruning and Dice Chess rolls with no legal move. Must not be used
    /// while in check (see [`Position::try_make_null_move`]).
    #[inline]
    pub fn make_null_move_unchecked(&mut self) -> Undo {
        let undo = self.save_state();
        self.push_history();
        let mut d = KeyDelta::default();
        self.begin_ply::<true>(&mut d);
        self.side = self.side.flip();
        d.side();
        self.apply(d);
        self.debug_validate();
        undo
    }

    /// Removes the en passant square (and its key, if it was hashed) without making a move:
    /// for Dice Chess (`crate::dice`), whose rule sets without check keep their en passant
    /// targets themselves. The move's [`Undo`] record restores the square on unmake.
    #[inline]
    pub(crate) fn clear_en_passant(&mut self) {
        let mut d = KeyDelta::default();
        if self.st.ep != NO_EP {
            if self.st.ep & EP_CAPTURABLE != 0 {
                d.ep(self.st.ep);
            }
            self.st.ep = NO_EP;
        }
        self.apply(d);
        self.debug_validate();
    }

    /// Takes back a null move.
    #[inline]
    pub fn unmake_null_move_unchecked(&mut self, undo: &Undo) {
        self.side = self.side.flip();
        self.restore_state(undo);
        self.debug_validate();
    }

    /// Checked make: refuses, leaving the position untouched, a move that is not legal here
    /// (any 16-bit value may be passed) or a make past the history capacity.
    ///
    /// # Errors
    /// [`MoveError::Illegal`] or [`MoveError::HistoryFull`].
    pub fn try_make_move(&mut self, m: Move) -> Result<Undo, MoveError> {
        if !self.is_legal(m) {
            return Err(MoveError::Illegal);
        }
        if self.st.history_len as usize >= HISTORY_CAPACITY {
            return Err(MoveError::HistoryFull);
        }
        Ok(self.make_move_provable(m))
    }

    /// Checked null move: refuses while in check or with a full history.
    ///
    /// # Errors
    /// [`MoveError::Illegal`] in check, [`MoveError::HistoryFull`].
    pub fn try_make_null_move(&mut self) -> Result<Undo, MoveError> {
        if self.in_check() {
            return Err(MoveError::Illegal);
        }
        if self.st.history_len as usize >= HISTORY_CAPACITY {
            return Err(MoveError::HistoryFull);
        }
        let undo = self.make_null_move_unchecked();
        self.record_erased_facts(&undo);
        Ok(undo)
    }

    /// What the history proves about the state before the last move made: that move's
    /// index, its history entry, the halfmove clock and the en passant square before it.
    /// `None` when nothing was made, more was made than the history holds, or the entry's clock
    /// is out of its range.
    fn last_move_facts(&self) -> Option<(usize, u64, u32, u8)> {
        let n = self.st.history_len as usize;
        if n == 0 || n > HISTORY_CAPACITY {
            return None;
        }
        let idx = n - 1;
        let entry = self.history[idx];
        let halfmove = (entry as u32) & CLOCK_UNPROVABLE;
        if halfmove == CLOCK_UNPROVABLE {
            return None;
        }
        let ep = if entry & (1 << 17) != 0 {
            // Before the last move its mover was to move: the square is on the rank behind
            // the other side's double push (the sixth from the mover).
            let rank = if self.side == Color::WHITE { 2 } else { 5 };
            Square::from_coords((entry >> 18) as u8 & 7, rank).to_u8()
        } else {
            NO_EP
        };
        Some((idx, entry, halfmove, ep))
    }

    /// The record check both checked unmakes share: what the history proves about the state
    /// before the last move (index, clock, en passant square, hash bits) must be what `undo`
    /// says, and the fields must be in range for the unmake to run on a probe.
    fn record_matches_history(&self, undo: &Undo) -> bool {
        let Some((idx, entry, halfmove, ep)) = self.last_move_facts() else {
            return false;
        };
        let st = &undo.state;
        st.history_len as usize == idx
            && st.halfmove == halfmove
            && (st.ep & !EP_CAPTURABLE) == ep
            && (st.hash ^ entry) & HISTORY_KEY_MASK == 0
            && st.castling.bits() <= 15
            && Piece::from_u8(undo.captured.to_u8()).is_some()
    }

    /// Checked unmake: takes back `m` only when `m` and `undo` are those of the last move made.
    /// The record must agree with what the history proves (the clock and en passant square the
    /// move erased, the hash before it), and it is proven on a copy: the unmade copy must be a
    /// position [`Position::validate_full`] accepts, `m` must be legal there, and making `m` on
    /// it must give back exactly this position and history entry. The position is untouched on
    /// error. Only moves made by a checked make or [`Position::make_move_provable`] can be
    /// proven (the plain [`Position::make_move_unchecked`] of search and perft does not record
    /// what a move erased), and only while the history holds them: others are refused.
    ///
    /// # Errors
    /// [`MoveError::BadUndo`].
    pub fn try_unmake_move(&mut self, m: Move, undo: &Undo) -> Result<(), MoveError> {
        if !m.is_well_formed() || !self.record_matches_history(undo) {
            return Err(MoveError::BadUndo);
        }
        // Enough to keep the unmake below in range; the probe catches everything else.
        let mover = self.side.flip();
        let moved = self.piece_on(m.to());
        let cap = undo.captured;
        if moved.is_none()
            || moved.color() != mover
            || !(cap.is_none() || (cap.color() == self.side && cap.kind() != PieceType::KING))
        {
            return Err(MoveError::BadUndo);
        }
        let mut probe = self.clone();
        // A wrong record leaves the copy inconsistent (bits without mailbox entries, overlaps,
        // wrong hashes), which the validation reports; every step is masked bit arithmetic, so
        // nothing can go out of bounds on the way.
        probe.unmake_move_impl(m, undo, probe.side.flip());
        if probe.validate_full().is_err() || !probe.is_legal(m) {
            return Err(MoveError::BadUndo);
        }
        probe.make_move_provable(m);
        self.check_replay(&probe)?;
        self.unmake_move_unchecked(m, undo);
        Ok(())
    }

    /// True when unmaking `m` with `undo` gives a position that passes
    /// [`Position::validate`] (tried on a copy): what debug builds of the C layer ask before
    /// an unchecked unmake, whose own debug check would otherwise panic.
    pub(crate) fn unmake_validates(&self, m: Move, undo: &Undo) -> bool {
        let mut probe = self.clone();
        probe.unmake_move_impl(m, undo, probe.side.flip());
        probe.validate().is_ok()
    }

    /// The last step of both checked unmakes: replaying the move on the unmade probe must give
    /// back this position and the history entry the move wrote.
    fn check_replay(&self, replayed: &Position) -> Result<(), MoveError> {
        let idx = (self.st.history_len as usize).wrapping_sub(1);
        if replayed != self || replayed.history.get(idx) != self.history.get(idx) {
            return Err(MoveError::BadUndo);
        }
        Ok(())
    }

    /// Checked null-move unmake: takes back the last move only when it was a null move made
    /// with `undo`, proven as in [`Position::try_unmake_move`].
    ///
    /// # Errors
    /// [`MoveError::BadUndo`].
    pub fn try_unmake_null_move(&mut self, undo: &Undo) -> Result<(), MoveError> {
        if !self.record_matches_history(undo) || !undo.captured.is_none() {
            return Err(MoveError::BadUndo);
        }
        let mut probe = self.clone();
        probe.side = probe.side.flip();
        probe.restore_state(undo);
        if probe.validate_full().is_err() || probe.in_check() {
            return Err(MoveError::BadUndo);
        }
        let replayed = probe.make_null_move_unchecked();
        probe.record_erased_facts(&replayed);
        self.check_replay(&probe)?;
        self.unmake_null_move_unchecked(undo);
        Ok(())
    }

    /// Forgets the history (repetition detection starts afresh from this position).
    pub fn clear_history(&mut self) {
        self.fullmove_plies = self
            .fullmove_plies
            .saturating_add(self.st.history_len as u32);
        self.st.history_len = 0;
    }

    /// Keeps only the history entries a repetition can still reach (those since the last
    /// capture or pawn move), moved to the front, so a long game never fills the history.
    /// For game drivers that never unmake past this point (a checked unmake of an earlier move
    /// is refused afterwards).
    pub fn compact_history(&mut self) {
        let n = (self.st.history_len as usize).min(HISTORY_CAPACITY);
        let keep = (self.st.halfmove as usize).min(n);
        self.history.copy_within(n - keep..n, 0);
        self.fullmove_plies = self
            .fullmove_plies
            .saturating_add(self.st.history_len as u32 - keep as u32);
        self.st.history_len = keep as u16;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Along random games from the start position and Kiwipete, every move that
    /// `hash_after_hint` promises to be exact for gives the hash that making it gives, and
    /// `gives_check` agrees with making the move for every legal move.
    #[test]
    fn the_hash_hint_and_gives_check_agree_with_the_make() {
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let (mut exact, mut other, mut checks) = (0, 0, 0);
        let mut starts: Vec<Position> = [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            // Promotions, en passant, and a rook behind an en passant pair.
            "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
            "8/4k3/8/1pP5/8/B7/8/4K3 w - b6 0 1",
        ]
        .iter()
        .map(|f| Position::from_fen(f).unwrap())
        .collect();
        // Chess960 castles: the king or the rook may stay where it is.
        starts.extend([0u16, 518, 959, 77, 300].map(|n| Position::chess960_start(n).unwrap()));
        let mut special = 0;
        for start in &starts {
            for _game in 0..20 {
                let mut pos = start.clone();
                for _ply in 0..120 {
                    let moves = pos.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    for &m in moves.iter() {
                        let mover = pos.piece_on(m.from()).kind();
                        let victim = pos.piece_on(m.to());
                        let double_push = mover == PieceType::PAWN
                            && m.from().index().abs_diff(m.to().index()) == 16;
                        let plain = !m.is_castle()
                            && !m.is_promotion()
                            && !m.is_en_passant()
                            && !double_push
                            && mover != PieceType::KING
                            && mover != PieceType::ROOK
                            && (victim == Piece::NONE || victim.kind() != PieceType::ROOK);
                        let mut after = pos.clone();
                        after.make_move_unchecked(m);
                        assert_eq!(
                            pos.gives_check(m),
                            after.in_check(),
                            "gives_check: {} {m:?}",
                            pos.to_fen()
                        );
                        checks += usize::from(after.in_check());
                        special += usize::from(
                            after.in_check()
                                && (m.is_castle() || m.is_en_passant() || m.is_promotion()),
                        );
                        if plain {
                            assert_eq!(
                                pos.hash_after_hint(m),
                                after.hash(),
                                "{} {m:?}",
                                pos.to_fen()
                            );
                            exact += 1;
                        } else {
                            other += 1;
                        }
                    }
                    let m = moves.as_slice()[(next() % moves.len() as u64) as usize];
                    pos.make_move_unchecked(m);
                }
            }
        }
        assert!(
            exact > 50_000 && other > 5_000 && checks > 1_000 && special > 20,
            "{exact} {other} {checks} {special}"
        );
    }
}
