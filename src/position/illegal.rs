//! Why a move is illegal: for any origin, target and promotion a user drags, the first rule it
//! breaks ([`Position::check_move`]), each rule its own [`IllegalReason`] with a message.
//!
//! The stages, in the order they are tried (the first failing one is reported):
//!
//! 1. the origin: [`IllegalReason::NoPiece`], [`IllegalReason::NotYourPiece`];
//! 2. castling, when the king is dropped on its castling square (standard mode: two files
//!    from e1/e8 to g or c; Chess960 mode: onto its own rook):
//!    [`IllegalReason::PromotionNotAllowed`], [`IllegalReason::CastlingNoRight`],
//!    [`IllegalReason::CastlingOutOfCheck`], [`IllegalReason::PathBlocked`],
//!    [`IllegalReason::CastlingThroughCheck`], [`IllegalReason::KingLeftInCheck`];
//! 3. geometry: [`IllegalReason::WrongGeometry`] (the piece does not move that way, `from ==
//!    to` included);
//! 4. the path: [`IllegalReason::PathBlocked`] (a slider's or a double push's);
//! 5. the target: [`IllegalReason::OwnPieceOnTarget`];
//! 6. pawn rules: [`IllegalReason::PawnForwardBlocked`], [`IllegalReason::PawnCaptureNothing`],
//!    [`IllegalReason::EnPassantNotAvailable`];
//! 7. promotion: [`IllegalReason::PromotionMissing`], [`IllegalReason::PromotionNotAllowed`];
//! 8. king safety: [`IllegalReason::KingLeftInCheck`], naming a piece that would give check.
//!
//! Everything is a handful of bitboard operations on the position as it is: no move
//! generation and no make, cheap enough for every mouse move. A test checks on many positions
//! that exactly the triples the legal generator produces are reported legal.

use super::Position;
use crate::attacks;
use crate::bitboard::Bitboard;
use crate::types::{castling_index, Color, PieceType, Square};
use core::ffi::CStr;
use core::fmt;

/// The first rule a move breaks, or [`IllegalReason::Legal`]. The numbers are those of the C
/// enum `ChessIllegalReason` and never change.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum IllegalReason {
    /// The move is legal.
    Legal = 0,
    /// No piece stands on the origin square.
    NoPiece = 1,
    /// The piece on the origin square belongs to the side not to move.
    NotYourPiece = 2,
    /// The piece does not move that way (or the origin is the target).
    WrongGeometry = 3,
    /// A piece stands in the way (the square names the first one).
    PathBlocked = 4,
    /// One of the mover's own pieces stands on the target.
    OwnPieceOnTarget = 5,
    /// A pawn cannot move straight ahead onto an occupied square.
    PawnForwardBlocked = 6,
    /// A pawn moves diagonally only to capture.
    PawnCaptureNothing = 7,
    /// En passant is possible only right after the double push of the pawn beside.
    EnPassantNotAvailable = 8,
    /// A pawn reaching the last rank must name its promotion piece.
    PromotionMissing = 9,
    /// A promotion piece given for a move that is no promotion, or one that is not a knight,
    /// bishop, rook or queen.
    PromotionNotAllowed = 10,
    /// The castling right on that side is gone (king or rook moved).
    CastlingNoRight = 11,
    /// The king may not castle out of check (the square names a checker).
    CastlingOutOfCheck = 12,
    /// The king may not castle across an attacked square (the square names an attacker).
    CastlingThroughCheck = 13,
    /// The move leaves the own king in check (the square names a checking piece).
    KingLeftInCheck = 14,
}

impl IllegalReason {
    /// Every reason, in number order.
    pub const ALL: [IllegalReason; 15] = [
        IllegalReason::Legal,
        IllegalReason::NoPiece,
        IllegalReason::NotYourPiece,
        IllegalReason::WrongGeometry,
        IllegalReason::PathBlocked,
        IllegalReason::OwnPieceOnTarget,
        IllegalReason::PawnForwardBlocked,
        IllegalReason::PawnCaptureNothing,
        IllegalReason::EnPassantNotAvailable,
        IllegalReason::PromotionMissing,
        IllegalReason::PromotionNotAllowed,
        IllegalReason::CastlingNoRight,
        IllegalReason::CastlingOutOfCheck,
        IllegalReason::CastlingThroughCheck,
        IllegalReason::KingLeftInCheck,
    ];

    /// A short English sentence, NUL-terminated for C.
    pub const fn message_c(self) -> &'static CStr {
        match self {
            IllegalReason::Legal => c"the move is legal",
            IllegalReason::NoPiece => c"there is no piece on that square",
            IllegalReason::NotYourPiece => c"that piece belongs to the other side",
            IllegalReason::WrongGeometry => c"the piece does not move that way",
            IllegalReason::PathBlocked => c"the path is blocked",
            IllegalReason::OwnPieceOnTarget => c"one of your own pieces stands on the target",
            IllegalReason::PawnForwardBlocked => {
                c"a pawn cannot move forward onto an occupied square"
            }
            IllegalReason::PawnCaptureNothing => c"a pawn moves diagonally only to capture",
            IllegalReason::EnPassantNotAvailable => {
                c"en passant is only possible right after that pawn's double step"
            }
            IllegalReason::PromotionMissing => c"a pawn reaching the last rank must promote",
            IllegalReason::PromotionNotAllowed => {
                c"promotion is not allowed here (or not to that piece)"
            }
            IllegalReason::CastlingNoRight => c"the castling right on that side is gone",
            IllegalReason::CastlingOutOfCheck => c"you cannot castle out of check",
            IllegalReason::CastlingThroughCheck => {
                c"the king cannot castle across an attacked square"
            }
            IllegalReason::KingLeftInCheck => c"the move leaves your king in check",
        }
    }

    /// A short English sentence.
    pub fn message(self) -> &'static str {
        self.message_c().to_str().unwrap_or("illegal move")
    }
}

impl fmt::Display for IllegalReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.message())
    }
}

/// The verdict of [`Position::check_move`]: the reason, and for some reasons a square
/// (the checking or attacking piece, the first blocker).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct MoveCheck {
    /// The first rule broken, or [`IllegalReason::Legal`].
    pub reason: IllegalReason,
    /// For [`IllegalReason::KingLeftInCheck`], [`IllegalReason::CastlingOutOfCheck`] and
    /// [`IllegalReason::CastlingThroughCheck`] a piece that attacks; for
    /// [`IllegalReason::PathBlocked`] the blocker nearest the origin; else `None`.
    pub square: Option<Square>,
}

const fn verdict(reason: IllegalReason, square: Option<Square>) -> MoveCheck {
    MoveCheck { reason, square }
}

/// The square of `set` nearest to `from` (the set lies on one line from it).
fn nearest(set: Bitboard, from: Square) -> Square {
    let mut best = set.lsb();
    let mut best_d = u8::MAX;
    for sq in set {
        let d = sq
            .file()
            .abs_diff(from.file())
            .max(sq.rank().abs_diff(from.rank()));
        if d < best_d {
            best_d = d;
            best = sq;
        }
    }
    best
}

impl Position {
    /// Why going `from` → `to` with promotion `promo` (`PieceType::NONE` for none) is illegal
    /// here, or that it is legal (see the [module docs](self) for the order of the rules).
    /// Castling is the king's move to its destination (`e1g1`), in Chess960 mode the king
    /// dropped on its rook, as in [`Position::find_legal_move`], with which this agrees.
    ///
    /// ```
    /// use chesscore::{Position, PieceType, Square};
    /// use chesscore::position::illegal::IllegalReason;
    /// let pos = Position::from_fen("4k3/8/8/8/1b6/8/3P4/4K3 w - - 0 1").unwrap();
    /// let c = pos.check_move(Square::D2, Square::D3, PieceType::NONE);
    /// assert_eq!(c.reason, IllegalReason::KingLeftInCheck);
    /// assert_eq!(c.square, Some(Square::B4));
    /// ```
    pub fn check_move(&self, from: Square, to: Square, promo: PieceType) -> MoveCheck {
        use IllegalReason::*;
        let us = self.side;
        let them = us.flip();
        let pc = self.piece_on(from);
        if pc.is_none() {
            return verdict(NoPiece, None);
        }
        if pc.color() != us {
            return verdict(NotYourPiece, None);
        }
        let occ = self.occupied();
        let ours = self.color_pieces(us);
        let theirs = self.color_pieces(them);
        let kind = pc.kind();
        let back_rank = if us == Color::WHITE { 0 } else { 7 };
        if kind == PieceType::KING {
            if let Some(king_side) = self.castle_attempt(from, to) {
                return self.check_castle(from, to, king_side, promo);
            }
        }
        // Geometry.
        let forward: i8 = if us == Color::WHITE { 8 } else { -8 };
        let step = to.to_u8() as i8 - from.to_u8() as i8;
        let reach = match kind {
            PieceType::KNIGHT => attacks::knight_attacks(from),
            PieceType::BISHOP => attacks::bishop_rays(from),
            PieceType::ROOK => attacks::rook_rays(from),
            PieceType::QUEEN => attacks::bishop_rays(from) | attacks::rook_rays(from),
            PieceType::KING => attacks::king_attacks(from),
            _ => {
                let start_rank = if us == Color::WHITE { 1 } else { 6 };
                let mut r = attacks::pawn_attacks(us, from);
                if let Some(one) = Square::new((from.to_u8() as i8 + forward) as u8) {
                    r |= one.bb();
                    if from.rank() == start_rank {
                        r |= Square::from_index((one.to_u8() as i8 + forward) as u8).bb();
                    }
                }
                r
            }
        };
        if from == to || !reach.has(to) {
            return verdict(WrongGeometry, None);
        }
        // Path.
        let mut path = attacks::between(from, to);
        if kind == PieceType::KNIGHT || kind == PieceType::KING {
            path = Bitboard::EMPTY;
        }
        let blockers = path & occ;
        if blockers.any() {
            return verdict(PathBlocked, Some(nearest(blockers, from)));
        }
        if ours.has(to) {
            return verdict(OwnPieceOnTarget, None);
        }
        // Pawn rules.
        let mut ep_victim = None;
        if kind == PieceType::PAWN {
            let straight = step == forward || step == 2 * forward;
            if straight && occ.has(to) {
                return verdict(PawnForwardBlocked, None);
            }
            if !straight && !occ.has(to) {
                if self.en_passant() == Some(to) {
                    ep_victim = Some(Square::from_index(to.to_u8() ^ 8));
                } else {
                    let behind = Square::from_index(to.to_u8() ^ 8);
                    let ep_rank = if us == Color::WHITE { 5 } else { 2 };
                    if to.rank() == ep_rank
                        && self.piece_on(behind).kind() == PieceType::PAWN
                        && theirs.has(behind)
                    {
                        return verdict(EnPassantNotAvailable, None);
                    }
                    return verdict(PawnCaptureNothing, None);
                }
            }
        }
        // Promotion.
        let promotes = kind == PieceType::PAWN && to.rank() == 7 - back_rank;
        if promotes && promo == PieceType::NONE {
            return verdict(PromotionMissing, None);
        }
        let promo_ok = matches!(
            promo,
            PieceType::KNIGHT | PieceType::BISHOP | PieceType::ROOK | PieceType::QUEEN
        );
        if (promotes && !promo_ok) || (!promotes && promo != PieceType::NONE) {
            return verdict(PromotionNotAllowed, None);
        }
        // King safety, on the occupancy after the move.
        let mut after = (occ ^ from.bb()) | to.bb();
        let mut theirs_after = theirs & !to.bb();
        if let Some(v) = ep_victim {
            after ^= v.bb();
            theirs_after &= !v.bb();
        }
        let king = if kind == PieceType::KING {
            to
        } else {
            self.king_square(us)
        };
        let attackers =
            crate::with_sliders!(|s| self.attackers_to_with(s, king, after)) & theirs_after;
        if attackers.any() {
            return verdict(KingLeftInCheck, Some(attackers.lsb()));
        }
        verdict(Legal, None)
    }

    /// `Some(king_side)` when the king's move `from` → `to` is a castling attempt in this
    /// position's mode (see the [module docs](self)).
    fn castle_attempt(&self, from: Square, to: Square) -> Option<bool> {
        let us = self.side;
        let home = self.castle_kings[us.index()];
        if self.is_chess960() {
            let rook = crate::types::Piece::new(us, PieceType::ROOK);
            if from == home && to.rank() == from.rank() && self.piece_on(to) == rook {
                return Some(to.file() > from.file());
            }
            return None;
        }
        if from == home && to.rank() == from.rank() && from.file().abs_diff(to.file()) == 2 {
            return Some(to.file() > from.file());
        }
        None
    }

    /// The castling stage of [`Position::check_move`].
    fn check_castle(
        &self,
        king: Square,
        to: Square,
        king_side: bool,
        promo: PieceType,
    ) -> MoveCheck {
        use IllegalReason::*;
        let us = self.side;
        let i = castling_index(us, king_side);
        if promo != PieceType::NONE {
            return verdict(PromotionNotAllowed, None);
        }
        if !self.st.castling.has(i) || (self.is_chess960() && self.castle_rooks[i] != to) {
            return verdict(CastlingNoRight, None);
        }
        let checkers = self.checkers();
        if checkers.any() {
            return verdict(CastlingOutOfCheck, Some(checkers.lsb()));
        }
        let occ = self.occupied();
        let blockers = self.castle_paths[i] & occ;
        if blockers.any() {
            return verdict(PathBlocked, Some(nearest(blockers, king)));
        }
        let (king_to, _, rook_to) = self.castle_squares(us, king_side);
        let theirs = self.color_pieces(us.flip());
        for sq in self.castle_king_paths[i] {
            let attackers =
                crate::with_sliders!(|s| self.attackers_to_with(s, sq, occ ^ king.bb())) & theirs;
            if attackers.any() {
                let reason = if sq == king_to {
                    KingLeftInCheck
                } else {
                    CastlingThroughCheck
                };
                return verdict(reason, Some(attackers.lsb()));
            }
        }
        let after = (occ ^ king.bb() ^ self.castle_rooks[i].bb()) | king_to.bb() | rook_to.bb();
        let attackers =
            crate::with_sliders!(|s| self.attackers_to_with(s, king_to, after)) & theirs;
        if attackers.any() {
            return verdict(KingLeftInCheck, Some(attackers.lsb()));
        }
        verdict(Legal, None)
    }
}
