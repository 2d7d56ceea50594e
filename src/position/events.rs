//! Move events: what a legal move does on the board, step by step, for a GUI that animates
//! moves or keeps an audit trail without knowing the rules of chess.
//!
//! A move gives at most [`MAX_MOVE_EVENTS`] events, in this order:
//!
//! 1. [`MoveEventKind::Move`]: the moving piece goes `from` → `to` (in a castle, the king to
//!    its destination; in Chess960 that may be its own square, `from == to`).
//! 2. [`MoveEventKind::Capture`]: the captured piece leaves the board from `from` (`== to`):
//!    for en passant the captured pawn's real square, not the move's target.
//! 3. [`MoveEventKind::CastleRook`]: the castling rook goes `from` → `to` (may stand still in
//!    Chess960).
//! 4. [`MoveEventKind::Promote`]: the pawn now on `to` becomes `piece`.
//!
//! The events of one move happen together. To apply them to a board model: lift the pieces of
//! every `Move`, `CastleRook` and `Capture` event from their `from` squares first, then put
//! the `Move` and `CastleRook` pieces on their `to` squares, then apply `Promote`. (In
//! Chess960 the king and rook may swap squares, so no one-at-a-time order works for castles.)
//! The result is the board after the move; a test checks exactly this for every legal move of
//! many positions.

use super::{MoveError, Position};
use crate::moves::Move;
use crate::types::{castling_index, Piece, PieceType, Square};

/// The most events one move gives (a capture with promotion: move, capture, promote).
pub const MAX_MOVE_EVENTS: usize = 4;

/// The kind of a [`MoveEvent`] (the numbers are those of the C ABI).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum MoveEventKind {
    /// The moving piece goes from `from` to `to`.
    Move = 1,
    /// The captured piece leaves the board from `from` (`== to`).
    Capture = 2,
    /// The castling rook goes from `from` to `to`.
    CastleRook = 3,
    /// The pawn on `to` (`== from`) becomes `piece`.
    Promote = 4,
}

/// One thing a move does on the board. Plain data.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct MoveEvent {
    /// What happens.
    pub kind: MoveEventKind,
    /// The piece it happens to (for `Promote`, the piece the pawn becomes).
    pub piece: Piece,
    /// Where the piece is before the event.
    pub from: Square,
    /// Where it is after (for `Capture` and `Promote`, equal to `from`).
    pub to: Square,
}

/// The events of one move: a fixed array, no heap.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct MoveEvents {
    events: [MoveEvent; MAX_MOVE_EVENTS],
    len: u8,
}

impl MoveEvents {
    const fn empty() -> MoveEvents {
        MoveEvents {
            events: [MoveEvent {
                kind: MoveEventKind::Move,
                piece: Piece::NONE,
                from: Square::A1,
                to: Square::A1,
            }; MAX_MOVE_EVENTS],
            len: 0,
        }
    }

    fn push(&mut self, kind: MoveEventKind, piece: Piece, from: Square, to: Square) {
        if let Some(slot) = self.events.get_mut(self.len as usize) {
            *slot = MoveEvent {
                kind,
                piece,
                from,
                to,
            };
            self.len += 1;
        }
    }

    /// The events, in order.
    pub fn as_slice(&self) -> &[MoveEvent] {
        &self.events[..self.len as usize]
    }

    /// Number of events (1 to [`MAX_MOVE_EVENTS`]).
    #[allow(clippy::len_without_is_empty)]
    pub fn len(&self) -> usize {
        self.len as usize
    }
}

impl Position {
    /// The board events of the legal move `m` (see the [module docs](self)).
    ///
    /// # Errors
    /// [`MoveError::Illegal`] when `m` is not a legal move here.
    ///
    /// ```
    /// use chesscore::Position;
    /// use chesscore::position::events::MoveEventKind;
    /// let pos = Position::from_fen("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1").unwrap();
    /// let ev = pos.move_events(pos.parse_uci_move("e5d6").unwrap()).unwrap();
    /// let kinds: Vec<_> = ev.as_slice().iter().map(|e| (e.kind, e.from.to_string())).collect();
    /// assert_eq!(kinds, [(MoveEventKind::Move, "e5".into()), (MoveEventKind::Capture, "d5".into())]);
    /// ```
    pub fn move_events(&self, m: Move) -> Result<MoveEvents, MoveError> {
        if !self.is_legal(m) {
            return Err(MoveError::Illegal);
        }
        let mut ev = MoveEvents::empty();
        let (from, to) = (m.from(), m.to());
        let pc = self.piece_on(from);
        ev.push(MoveEventKind::Move, pc, from, to);
        if m.is_castle() {
            let i = castling_index(self.side, m.flag() == Move::KING_CASTLE);
            let (_, rook_from, rook_to) = self.castle_squares(self.side, i % 2 == 0);
            ev.push(
                MoveEventKind::CastleRook,
                self.piece_on(rook_from),
                rook_from,
                rook_to,
            );
            return Ok(ev);
        }
        if m.is_capture() {
            let cap_sq = if m.is_en_passant() {
                Square::from_index(to.to_u8() ^ 8)
            } else {
                to
            };
            ev.push(
                MoveEventKind::Capture,
                self.piece_on(cap_sq),
                cap_sq,
                cap_sq,
            );
        }
        if m.is_promotion() {
            let promo = Piece::new(self.side, m.promotion());
            debug_assert!(promo.kind() != PieceType::NONE);
            ev.push(MoveEventKind::Promote, promo, to, to);
        }
        Ok(ev)
    }
}
