//! Checking positions: the invariants make and unmake keep ([`Position::validate`]), the rules
//! a position must obey to be reachable in a game (shared with the FEN parser), and the
//! checks for positions that arrive as raw bytes through the C ABI.
//!
//! Three levels, from cheap to complete:
//!
//! | check | what it proves | used by |
//! |---|---|---|
//! | [`Position::is_plausible`] | every index the core takes from the bytes is in range: nothing can panic or read out of bounds (answers may be nonsense on a corrupted position) | read-only C calls and the unchecked twins, every call in release builds |
//! | [`Position::validate`] | the board, the state and the hashes agree | debug builds after every make and unmake; with the castling setup and tables (`validate_castling_tables`), every Dice Chess game from the C ABI (whose positions may break standard chess's check rules) |
//! | [`Position::validate_full`] | everything the FEN parser would demand of the same position, plus the setup tables and hashes: the bytes are a position some game reaches | C calls that change a position or trust it (checked make/unmake, perft), every C call in debug builds |

use super::{fen::castle_tables, Position, EP_CAPTURABLE, EP_SQUARE, HISTORY_CAPACITY, NO_EP};
use crate::attacks;
use crate::bitboard::Bitboard;
use crate::position::FenError;
use crate::types::{Color, Piece, PieceType, Square};

impl Position {
    /// Checks every invariant make and unmake keep: colors disjoint, type sets disjoint and
    /// covering the colors, one king a side, mailbox equal to the bitboards, hashes equal to a
    /// recomputation, en passant square and castling rights consistent. Returns the first
    /// violation. (A pseudo-legal move may leave the mover's king attacked: that is not an
    /// invariant; [`Position::validate_full`] refuses it.)
    ///
    /// # Errors
    /// A short description of the first broken invariant.
    pub fn validate(&self) -> Result<(), &'static str> {
        if !self.is_plausible() {
            return Err("a field is out of range");
        }
        self.validate_board()?;
        if (self.st.hash, self.st.pawn_hash, self.st.material_hash) != self.compute_hashes() {
            return Err("hash differs from recomputation");
        }
        #[cfg(debug_assertions)]
        if self.st.hash2 != self.compute_hashes_with(&crate::zobrist::KEYS2).0 {
            return Err("second hash differs from recomputation");
        }
        Ok(())
    }

    /// Everything [`Position::validate`] checks, plus what makes the bytes a position a game
    /// can reach: the rules the FEN parser enforces (material, castling rights, en passant,
    /// no check against the side not to move, no impossible check) and the castling setup
    /// tables equal to a recomputation. For positions from outside (the C ABI checks every
    /// position it trusts with this).
    ///
    /// # Errors
    /// A short description of the first defect.
    pub fn validate_full(&self) -> Result<(), &'static str> {
        self.validate()?;
        // A FEN clock is at most 65535, and the history takes at most its capacity in moves.
        if self.st.halfmove > u16::MAX as u32 + HISTORY_CAPACITY as u32 {
            return Err("halfmove clock beyond any game's");
        }
        self.validate_castling_tables()?;
        self.check_rules().map_err(FenError::message)
    }

    /// The castling setup (standard squares in standard mode; in Chess960 kings and rooks on
    /// their back rank, each rook on its side of the king) and the tables make and generation
    /// take from it (rights masks, paths, touched squares) equal to a recomputation. Part of
    /// [`Position::validate_full`]; on its own for Dice Chess games from the C ABI, whose
    /// positions may break standard chess's check rules but never the castling setup: a
    /// flipped byte in a rights mask would let a rook leave its corner with its right kept.
    ///
    /// # Errors
    /// A short description of the first defect.
    pub(crate) fn validate_castling_tables(&self) -> Result<(), &'static str> {
        self.check_castling_setup()?;
        let t = castle_tables(&self.castle_rooks, &self.castle_kings);
        if t.masks != self.castle_masks
            || t.paths != self.castle_paths
            || t.king_paths != self.castle_king_paths
            || t.touched != self.castle_squares_touched
        {
            return Err("castling tables differ from recomputation");
        }
        Ok(())
    }

    /// The rules a position must obey to be reachable, in the order the FEN parser reports
    /// them: one king a side, no pawn on a back rank, material a game can produce, castling
    /// rights with their king and rook at home, an en passant square behind the pawn that just
    /// double-pushed (with the two squares it crossed empty), the side not to move not in
    /// check, and a check that one move can give.
    ///
    /// # Errors
    /// The [`FenError`] of the first broken rule.
    pub(crate) fn check_rules(&self) -> Result<(), FenError> {
        self.check_rules_with(false, false)
    }

    /// [`Position::check_rules`] with the Dice Chess relaxations of
    /// [`Position::from_fen_relaxed`].
    pub(crate) fn check_rules_with(
        &self,
        opponent_check_ok: bool,
        any_check_ok: bool,
    ) -> Result<(), FenError> {
        for c in [Color::WHITE, Color::BLACK] {
            if self.pieces(c, PieceType::KING).count() != 1 {
                return Err(FenError::KingCount);
            }
        }
        if (self.pieces_of_type(PieceType::PAWN) & (Bitboard::RANK_1 | Bitboard::RANK_8)).any() {
            return Err(FenError::PawnOnBackRank);
        }
        for c in [Color::WHITE, Color::BLACK] {
            let n = |t| self.pieces(c, t).count() as i32;
            let pawns = n(PieceType::PAWN);
            let promoted = (n(PieceType::QUEEN) - 1).max(0)
                + (n(PieceType::ROOK) - 2).max(0)
                + (n(PieceType::BISHOP) - 2).max(0)
                + (n(PieceType::KNIGHT) - 2).max(0);
            if pawns > 8 || self.color_pieces(c).count() > 16 || promoted > 8 - pawns {
                return Err(FenError::TooManyPieces);
            }
        }
        if !self.castling_rights_at_home() {
            return Err(FenError::CastlingRights);
        }
        self.check_en_passant()?;
        let their_king = self.king_square(self.side.flip());
        if !opponent_check_ok
            && (self.attackers_to(their_king) & self.color_pieces(self.side)).any()
        {
            return Err(FenError::OpponentInCheck);
        }
        if !any_check_ok && self.impossible_check() {
            return Err(FenError::ImpossibleCheck);
        }
        Ok(())
    }

    /// The en passant square, if any, on the rank behind the pawn that just double-pushed,
    /// with the target and the square the pawn came from empty.
    ///
    /// # Errors
    /// [`FenError::EnPassantRank`] or [`FenError::EnPassantPawn`].
    pub(super) fn check_en_passant(&self) -> Result<(), FenError> {
        let Some(ep) = self.en_passant() else {
            return Ok(());
        };
        if ep.rank() != if self.side == Color::WHITE { 5 } else { 2 } {
            return Err(FenError::EnPassantRank);
        }
        // The pawn that moved stands one rank beyond the target (seen from the mover);
        // the target and the square it came from are empty.
        let pawn_sq = Square::from_index(ep.to_u8() ^ 8);
        let origin = Square::from_index(pawn_sq.to_u8() ^ 16);
        if self.piece_on(pawn_sq) != Piece::new(self.side.flip(), PieceType::PAWN)
            || !self.piece_on(ep).is_none()
            || !self.piece_on(origin).is_none()
        {
            return Err(FenError::EnPassantPawn);
        }
        Ok(())
    }

    /// True when every castling right has its king and rook on their squares.
    fn castling_rights_at_home(&self) -> bool {
        (0..4).all(|i| {
            let color = Color::from_index((i / 2) as u8);
            !self.st.castling.has(i)
                || (self.piece_on(self.castle_kings[color.index()])
                    == Piece::new(color, PieceType::KING)
                    && self.piece_on(self.castle_rooks[i]) == Piece::new(color, PieceType::ROOK))
        })
    }

    /// True when the side to move is in a check no single legal move can give:
    /// * more than two checkers;
    /// * two checkers of which neither is a slider (a second checker is always uncovered, and
    ///   only a bishop, rook or queen can be uncovered), or two on one line through the king
    ///   (the piece that uncovered one of them would have had to pass through the king);
    /// * after a double push (an en passant square is set): more than one checker (a pushed
    ///   pawn cannot give check and uncover one at once), or one checker other than the
    ///   pushed pawn that attacked the king already before the push.
    pub(crate) fn impossible_check(&self) -> bool {
        let checkers = self.checkers();
        if checkers.is_empty() {
            return false;
        }
        if checkers.count() > 2 {
            return true;
        }
        let them = self.side.flip();
        let king = self.king_square(self.side);
        if let Some(ep) = self.en_passant() {
            let pushed_to = Square::from_index(ep.to_u8() ^ 8);
            let pushed_from = Square::from_index(pushed_to.to_u8() ^ 16);
            if checkers.count() > 1 {
                return true;
            }
            if checkers.has(pushed_to) {
                return false;
            }
            let before = (self.occupied() ^ pushed_to.bb()) | pushed_from.bb();
            let attackers_before = crate::with_sliders!(|s| self.attackers_to_with(s, king, before))
                & self.color_pieces(them)
                & !pushed_to.bb();
            return attackers_before.any();
        }
        if checkers.count() == 2 {
            let sliders = self.pieces_of_type(PieceType::BISHOP)
                | self.pieces_of_type(PieceType::ROOK)
                | self.pieces_of_type(PieceType::QUEEN);
            if (checkers & sliders).is_empty() {
                return true;
            }
            let (a, b) = (checkers.lsb(), (checkers ^ checkers.lsb().bb()).lsb());
            if attacks::line(a, b).has(king) {
                return true;
            }
        }
        false
    }

    /// [`Position::validate`] without the hashes.
    pub(crate) fn validate_board(&self) -> Result<(), &'static str> {
        if (self.by_color[0] & self.by_color[1]).any() {
            return Err("color sets overlap");
        }
        if self.by_type[0].any() || self.by_type[7].any() {
            return Err("unused type slot is not empty");
        }
        let mut union = Bitboard::EMPTY;
        for t in 1..7 {
            if (union & self.by_type[t]).any() {
                return Err("type sets overlap");
            }
            union |= self.by_type[t];
        }
        if union != self.occupied() {
            return Err("type sets do not cover the color sets");
        }
        for c in [Color::WHITE, Color::BLACK] {
            if self.pieces(c, PieceType::KING).count() != 1 {
                return Err("not exactly one king per side");
            }
        }
        // The mailbox: each piece of the bitboards is in it, and it holds nothing else.
        let mut mailbox_pieces = 0;
        for sq in Square::all() {
            mailbox_pieces += u32::from(!self.board[sq.index()].is_none());
        }
        if mailbox_pieces != self.occupied().count() {
            return Err("mailbox differs from bitboards");
        }
        for c in [Color::WHITE, Color::BLACK] {
            for t in 1..7u8 {
                let kind = PieceType::new(t).unwrap_or(PieceType::NONE);
                let pc = Piece::new(c, kind);
                if self
                    .pieces(c, kind)
                    .iter()
                    .any(|sq| self.board[sq.index()] != pc)
                {
                    return Err("mailbox differs from bitboards");
                }
            }
        }
        if self.st.ep != NO_EP
            && Square::new(self.st.ep & EP_SQUARE)
                .is_none_or(|ep| ep.rank() != if self.side == Color::WHITE { 5 } else { 2 })
        {
            return Err("en passant square on a wrong rank");
        }
        if (self.st.ep & EP_CAPTURABLE != 0) != self.compute_ep_capturable() {
            return Err("en passant capturable flag differs from the board");
        }
        if !self.castling_rights_at_home() {
            return Err("castling right without its king and rook");
        }
        Ok(())
    }

    /// A cheap check for positions that arrive as raw bytes, e.g. through the C ABI: every
    /// field the core uses as an index or a count is in range (one king a side, colors
    /// disjoint, side, castling rights, en passant byte, castling rook squares), so no call on
    /// the position can panic or go out of bounds. A zeroed or garbage struct fails it; a
    /// position with a few flipped bytes may pass it (see [`Position::validate_full`]).
    #[inline]
    pub fn is_plausible(&self) -> bool {
        self.pieces(Color::WHITE, PieceType::KING).count() == 1
            && self.pieces(Color::BLACK, PieceType::KING).count() == 1
            && (self.by_color[0] & self.by_color[1]).is_empty()
            && self.side.to_u8() < 2
            && self.st.castling.bits() <= 15
            && (self.st.ep == NO_EP || (self.st.ep & EP_SQUARE) < 64)
            && self.castle_rooks.iter().all(|sq| sq.to_u8() < 64)
            && self.castle_kings.iter().all(|sq| sq.to_u8() < 64)
            && self.chess960 <= 1
    }

    /// Debug-build check of [`Position::validate`] (no-op in release builds).
    #[inline(always)]
    pub(crate) fn debug_validate(&self) {
        self.debug_validate_tracked(true);
    }

    /// Debug-build check of every invariant, the hashes only when they are `tracked`.
    #[inline(always)]
    pub(crate) fn debug_validate_tracked(&self, tracked: bool) {
        #[cfg(debug_assertions)]
        {
            let result = if tracked {
                self.validate()
            } else {
                self.validate_board()
            };
            if let Err(e) = result {
                panic!("position invariant broken: {e} in {}", self.to_fen());
            }
        }
        #[cfg(not(debug_assertions))]
        let _ = tracked;
    }
}
