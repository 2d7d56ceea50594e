//! The game state: a [`Position`], the rule set and the dice state, in one plain value that
//! C copies with `memcpy`; make and unmake of moves, micro-moves and passes.

use super::roll::Roll;
use super::rules::Rules;
use crate::bitboard::Bitboard;
use crate::moves::{Move, MoveList};
use crate::position::{Position, Undo};
use crate::types::{Color, PieceType, Square};
use core::fmt;

/// Where the turn stands.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Phase {
    /// The dice are to be rolled ([`DiceGame::set_roll`]).
    AwaitingRoll = 0,
    /// The dice are rolled; a move (or, when none exists, the pass) is to be made.
    AwaitingMove = 1,
    /// A king was captured: the game is over.
    Over = 2,
}

/// The dice state beside the position: 40 bytes, no implicit padding.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[repr(C)]
pub(crate) struct Header {
    /// Rule sets without check: the en passant targets the side to move may capture on (the
    /// position's own en passant square is kept empty). Two dice: unused (0).
    pub(crate) ep: Bitboard,
    /// Three dice: the targets this turn's double pushes leave for the opponent.
    pub(crate) ep_next: Bitboard,
    /// Turns since the last capture or pawn move (passes count).
    pub(crate) halfmove: u16,
    /// The move number (after Black's turn it counts on).
    pub(crate) fullmove: u16,
    pub(crate) rules: u8,
    pub(crate) phase: u8,
    /// 0 none, 1 White won, 2 Black won (by king capture).
    pub(crate) winner: u8,
    /// Three dice: a capture or pawn move was made this turn.
    pub(crate) turn_resets_clock: u8,
    /// The dice still to play: the roll (one or two dice) or the dice left (three dice).
    pub(crate) dice: Roll,
    /// Micro-moves made this turn (three dice).
    pub(crate) micro: u8,
    pub(crate) _pad: [u8; 3],
    /// Three dice: the micro-moves made this turn (raw values, `micro` of them).
    pub(crate) turn_moves: [u16; 3],
    pub(crate) _pad2: u16,
}

const _: () = assert!(core::mem::size_of::<Header>() == 40);

/// A saved turn state ([`DiceGame::turn_snapshot`]).
#[derive(Copy, Clone, Debug)]
pub(crate) struct TurnSnapshot(Header);

impl Header {
    /// Every field in range and consistent with the others: rule set, phase, winner, dice
    /// (none before the roll, the rule set's number after it), micro-move count, en passant
    /// targets on their ranks for `side` to move (none for two dice, whose position keeps its
    /// own).
    pub(crate) fn is_plausible_for(&self, side: Color) -> bool {
        let Some(rules) = Rules::from_u8(self.rules) else {
            return false;
        };
        let dice_ok = match self.phase {
            0 => self.dice == Roll::EMPTY && self.winner == 0,
            1 => {
                self.dice.is_canonical()
                    && self.winner == 0
                    && (rules == Rules::ThreeDice || self.dice.count as usize == rules.dice_count())
            }
            2 => self.winner != 0 && self.winner <= 2,
            _ => false,
        };
        let (theirs, ours) = if side == Color::WHITE {
            (Bitboard::RANK_6, Bitboard::RANK_3)
        } else {
            (Bitboard::RANK_3, Bitboard::RANK_6)
        };
        let ep_ok = if rules.has_check() {
            self.ep.is_empty() && self.ep_next.is_empty()
        } else {
            (self.ep & !theirs).is_empty()
                && (self.ep_next & !ours).is_empty()
                && (rules == Rules::ThreeDice || self.ep_next.is_empty())
        };
        dice_ok
            && ep_ok
            && self.micro <= 3
            && self.turn_resets_clock <= 1
            && self._pad == [0; 3]
            && self._pad2 == 0
    }
}

/// A Dice Chess game: position, rule set, dice state. A plain value (no heap, no padding
/// bytes): copy it to branch a search.
#[derive(Clone)]
#[repr(C)]
pub struct DiceGame {
    pub(crate) pos: Position,
    pub(crate) h: Header,
}

/// What [`DiceGame::make_move`] saves for [`DiceGame::unmake_move`]. Plain data.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[repr(C)]
pub struct DiceUndo {
    pub(crate) h: Header,
    pub(crate) core: Undo,
    pub(crate) null: Undo,
    /// Bit 0: a move was made on the board; bit 1: a null move (pass, or the three-dice turn
    /// goes on and the side to move came back).
    pub(crate) kind: u8,
    pub(crate) _pad: [u8; 7],
}

const UNDO_MOVE: u8 = 1;
const UNDO_NULL: u8 = 2;

/// Why a move or a roll was refused.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum DiceError {
    /// The game is not awaiting a roll (dice already rolled, or the game is over).
    NotAwaitingRoll,
    /// The game is not awaiting a move (the dice are not rolled, or the game is over).
    NotAwaitingMove,
    /// A roll the rule set cannot produce here (wrong number of dice, faces not 1..6 sorted,
    /// one die: a type that cannot move).
    InvalidRoll,
    /// A move the rules do not allow with these dice (or a pass while a move exists).
    IllegalMove,
    /// The undo record or move does not belong to the last move made.
    UndoMismatch,
}

impl DiceError {
    /// A short English description.
    pub const fn message(self) -> &'static str {
        match self {
            DiceError::NotAwaitingRoll => "the game is not awaiting a roll",
            DiceError::NotAwaitingMove => "the game is not awaiting a move",
            DiceError::InvalidRoll => "the rules cannot produce this roll here",
            DiceError::IllegalMove => "the rules do not allow this move with these dice",
            DiceError::UndoMismatch => "the undo record does not belong to the last move",
        }
    }
}

impl fmt::Display for DiceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.message())
    }
}

impl std::error::Error for DiceError {}

impl DiceGame {
    /// The standard starting position under `rules`, awaiting the first roll.
    pub fn new(rules: Rules) -> DiceGame {
        DiceGame {
            pos: Position::startpos(),
            h: Header {
                ep: Bitboard::EMPTY,
                ep_next: Bitboard::EMPTY,
                halfmove: 0,
                fullmove: 1,
                rules: rules as u8,
                phase: Phase::AwaitingRoll as u8,
                winner: 0,
                turn_resets_clock: 0,
                dice: Roll::EMPTY,
                micro: 0,
                _pad: [0; 3],
                turn_moves: [0; 3],
                _pad2: 0,
            },
        }
    }

    /// The rule set.
    pub fn rules(&self) -> Rules {
        Rules::from_u8(self.h.rules).unwrap_or_default()
    }

    /// The position (the side to move is the player whose turn it is, also between
    /// three-dice micro-moves).
    pub fn position(&self) -> &Position {
        &self.pos
    }

    /// Where the turn stands.
    pub fn phase(&self) -> Phase {
        match self.h.phase {
            0 => Phase::AwaitingRoll,
            1 => Phase::AwaitingMove,
            _ => Phase::Over,
        }
    }

    /// The player whose turn it is.
    pub fn side_to_move(&self) -> Color {
        self.pos.side_to_move()
    }

    /// The dice still to play: the roll (one or two dice), the dice left (three dice), or
    /// the empty roll before the roll.
    pub fn dice(&self) -> Roll {
        self.h.dice
    }

    /// The winner by king capture, if a king was captured.
    pub fn winner(&self) -> Option<Color> {
        match self.h.winner {
            1 => Some(Color::WHITE),
            2 => Some(Color::BLACK),
            _ => None,
        }
    }

    /// Micro-moves made so far this turn (three dice; 0 otherwise).
    pub fn micro_moves_made(&self) -> u32 {
        self.h.micro as u32
    }

    /// The micro-moves made so far this turn, in order (three dice; a game set from a
    /// mid-turn FEN does not know them: [`Move::NONE`] stands for each).
    pub fn turn_moves(&self) -> impl Iterator<Item = Move> + '_ {
        self.h.turn_moves[..(self.h.micro as usize).min(3)]
            .iter()
            .map(|&m| Move::from_raw(m))
    }

    /// The en passant targets the side to move may capture on (every rule set; for two dice
    /// the position's capturable square).
    pub fn en_passant_targets(&self) -> Bitboard {
        if self.rules().has_check() {
            self.pos
                .capturable_en_passant()
                .map_or(Bitboard::EMPTY, Square::bb)
        } else {
            self.h.ep
        }
    }

    /// A 64-bit key of everything that decides the rest of the game: the position's hash
    /// (pieces, side, castling, a capturable two-dice en passant square), the rule set, the
    /// phase and dice still to play, the en passant targets (rule sets without check) and
    /// the winner. Equal states have equal keys; for a search's transposition table. (The
    /// clocks are left out, as the position's hash leaves them out.)
    pub fn hash(&self) -> u64 {
        let mix = |mut z: u64| {
            z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            z ^ (z >> 31)
        };
        let d = &self.h.dice;
        let small = u64::from(self.h.rules)
            | u64::from(self.h.phase) << 8
            | u64::from(self.h.winner) << 16
            | u64::from(d.count) << 24
            | u64::from(d.faces[0]) << 32
            | u64::from(d.faces[1]) << 40
            | u64::from(d.faces[2]) << 48;
        self.pos.hash()
            ^ mix(small ^ 0x6a09_e667_f3bc_c909)
            ^ mix(self.h.ep.0 ^ 0xbb67_ae85_84ca_a73b)
            ^ mix(self.h.ep_next.0 ^ 0x3c6e_f372_fe94_f82b)
    }

    /// Turns since the last capture or pawn move (passes count).
    pub fn halfmove_clock(&self) -> u32 {
        self.h.halfmove as u32
    }

    /// The move number.
    pub fn fullmove_number(&self) -> u32 {
        self.h.fullmove as u32
    }

    /// Rolls the dice: `roll` must be one the rules can produce here (see
    /// [`DiceGame::outcomes`]). On error nothing changes.
    ///
    /// # Errors
    /// [`DiceError::NotAwaitingRoll`] or [`DiceError::InvalidRoll`].
    pub fn set_roll(&mut self, roll: Roll) -> Result<(), DiceError> {
        if self.phase() != Phase::AwaitingRoll || self.status().is_over() {
            return Err(DiceError::NotAwaitingRoll);
        }
        if !roll.is_canonical() || roll.count as usize != self.rules().dice_count() {
            return Err(DiceError::InvalidRoll);
        }
        if self.rules() == Rules::OneDie && self.movable_types() & roll.mask() == 0 {
            return Err(DiceError::InvalidRoll);
        }
        self.set_roll_unchecked(roll);
        Ok(())
    }

    /// [`DiceGame::set_roll`] without its checks, for the search: it sets only the rolls of a
    /// chance node's outcome list, on a game awaiting its roll.
    #[inline]
    pub(crate) fn set_roll_unchecked(&mut self, roll: Roll) {
        self.h.dice = roll;
        self.h.phase = Phase::AwaitingMove as u8;
        self.h.micro = 0;
        self.h.turn_resets_clock = 0;
    }

    /// Replaces the dice still to play, nothing else, and returns the dice it replaced (the
    /// search's table key of one piece type of a roll; it puts the dice back at once).
    #[inline]
    pub(crate) fn replace_dice_unchecked(&mut self, dice: Roll) -> Roll {
        core::mem::replace(&mut self.h.dice, dice)
    }

    /// The state of the turn (the roll, the phase, the turn's micro-moves, clocks and
    /// targets): what the search saves before it sets a roll and puts back after with
    /// [`DiceGame::restore_turn`]. A 40-byte copy.
    #[inline]
    pub(crate) fn turn_snapshot(&self) -> TurnSnapshot {
        TurnSnapshot(self.h)
    }

    /// Puts back the turn state of [`DiceGame::turn_snapshot`] (the board is the caller's to
    /// restore: the search unmakes its moves first).
    #[inline]
    pub(crate) fn restore_turn(&mut self, snapshot: TurnSnapshot) {
        self.h = snapshot.0;
    }

    /// Takes back the roll of a turn in which nothing has been played yet (the chance node
    /// of a search tries its outcomes one after another; an unmake walking back through a
    /// game takes back each roll before the move that preceded it). On error nothing
    /// changes.
    ///
    /// # Errors
    /// [`DiceError::NotAwaitingMove`] unless a move is awaited and no micro-move of the turn
    /// has been made.
    pub fn clear_roll(&mut self) -> Result<(), DiceError> {
        if self.phase() != Phase::AwaitingMove || self.h.micro != 0 {
            return Err(DiceError::NotAwaitingMove);
        }
        self.h.dice = Roll::EMPTY;
        self.h.phase = Phase::AwaitingRoll as u8;
        Ok(())
    }

    /// Makes `m` (a move from [`DiceGame::generate_moves`]), or the pass ([`Move::NONE`]) when
    /// that list is empty. On error nothing changes.
    ///
    /// # Errors
    /// [`DiceError::NotAwaitingMove`] or [`DiceError::IllegalMove`].
    pub fn make_move(&mut self, m: Move) -> Result<DiceUndo, DiceError> {
        if self.phase() != Phase::AwaitingMove {
            return Err(DiceError::NotAwaitingMove);
        }
        // The copying generator: the in-place one leaves the three-dice look-ahead's history
        // entries behind the game's history, and a refused move must change no byte (the C
        // ABI's contract, found by the `dice` fuzz target).
        let mut list = MoveList::new();
        self.generate_moves(&mut list);
        let ok = if m == Move::NONE {
            list.is_empty()
        } else {
            list.contains(m)
        };
        if !ok {
            return Err(DiceError::IllegalMove);
        }
        Ok(self.make_move_unchecked(m))
    }

    /// Makes `m`, which must come from [`DiceGame::generate_moves`] (or be [`Move::NONE`] when
    /// that list is empty), without checking it. Allocates nothing.
    pub fn make_move_unchecked(&mut self, m: Move) -> DiceUndo {
        let mut u = DiceUndo {
            h: self.h,
            core: Undo::default(),
            null: Undo::default(),
            kind: 0,
            _pad: [0; 7],
        };
        let us = self.pos.side_to_move();
        if m == Move::NONE {
            u.null = self.pos.make_null_move_unchecked();
            u.kind = UNDO_NULL;
            self.h.ep = self.h.ep_next;
            self.end_turn(us);
            return u;
        }
        let rules = self.rules();
        let their_king = self.pos.king_square(us.flip());
        if m.to() == their_king && m.is_capture() && !m.is_en_passant() {
            self.h.winner = if us == Color::WHITE { 1 } else { 2 };
            self.h.phase = Phase::Over as u8;
            self.h.dice = Roll::EMPTY;
            // No move follows: en passant targets lapse (a target this turn's double push
            // left, with the mover still to move and no dice, is no state a FEN can hold).
            self.h.ep = Bitboard::EMPTY;
            self.h.ep_next = Bitboard::EMPTY;
            return u;
        }
        let mover = self.pos.piece_on(m.from()).kind();
        let resets = m.is_capture() || mover == PieceType::PAWN;
        u.core = self.pos.make_move_unchecked(m);
        u.kind = UNDO_MOVE;
        match rules {
            Rules::TwoDice => {
                self.h.turn_resets_clock = resets as u8;
                self.end_turn(us);
            }
            Rules::OneDie => {
                self.h.ep = if m.is_double_push() {
                    Square::from_index((m.from().to_u8() + m.to().to_u8()) / 2).bb()
                } else {
                    Bitboard::EMPTY
                };
                self.pos.clear_en_passant();
                self.h.turn_resets_clock = resets as u8;
                self.end_turn(us);
            }
            Rules::ThreeDice => {
                self.pos.clear_en_passant();
                if m.is_double_push() {
                    self.h.ep_next |=
                        Square::from_index((m.from().to_u8() + m.to().to_u8()) / 2).bb();
                }
                // Targets whose pawn was taken or moved on, or whose square is now occupied,
                // are gone.
                self.h.ep = self.live_targets(self.h.ep, us.flip());
                self.h.ep_next = self.live_targets(self.h.ep_next, us);
                self.h.turn_resets_clock |= resets as u8;
                if let Some(slot) = self.h.turn_moves.get_mut(self.h.micro as usize) {
                    *slot = m.raw();
                }
                self.h.micro += 1;
                let spent = if m.is_castle() {
                    self.h
                        .dice
                        .without(PieceType::KING.to_u8())
                        .and_then(|r| r.without(PieceType::ROOK.to_u8()))
                } else {
                    self.h.dice.without(mover.to_u8())
                };
                self.h.dice = spent.unwrap_or(Roll::EMPTY);
                if self.h.dice.count > 0 {
                    // The turn goes on if a die left can be used: the side comes back.
                    u.null = self.pos.make_null_move_unchecked();
                    if super::gen::any_three_dice_move(&self.pos, self.h.dice, self.h.ep) {
                        u.kind |= UNDO_NULL;
                        return u;
                    }
                    self.pos.unmake_null_move_unchecked(&u.null);
                    u.null = Undo::default();
                }
                self.h.ep = self.h.ep_next;
                self.end_turn(us);
            }
        }
        u
    }

    fn live_targets(&self, targets: Bitboard, pusher: Color) -> Bitboard {
        super::gen::live_targets(&self.pos, targets, pusher)
    }

    /// Ends the turn of `us` (the position's side has already flipped).
    fn end_turn(&mut self, us: Color) {
        if self.rules() == Rules::ThreeDice {
            self.h.ep = self.live_targets(self.h.ep, us);
            self.h.ep_next = Bitboard::EMPTY;
        }
        if self.h.turn_resets_clock != 0 {
            self.h.halfmove = 0;
        } else {
            self.h.halfmove = self.h.halfmove.saturating_add(1);
        }
        if us == Color::BLACK {
            self.h.fullmove = self.h.fullmove.saturating_add(1);
        }
        self.h.turn_resets_clock = 0;
        self.h.dice = Roll::EMPTY;
        self.h.micro = 0;
        self.h.turn_moves = [0; 3];
        self.h.phase = Phase::AwaitingRoll as u8;
    }

    /// Takes back `m`, the last move made (or pass), with the record
    /// [`DiceGame::make_move_unchecked`] returned. Allocates nothing.
    pub fn unmake_move_unchecked(&mut self, m: Move, u: &DiceUndo) {
        if u.kind & UNDO_NULL != 0 {
            self.pos.unmake_null_move_unchecked(&u.null);
        }
        if u.kind & UNDO_MOVE != 0 {
            self.pos.unmake_move_unchecked(m, &u.core);
        }
        self.h = u.h;
    }

    /// Checked unmake: takes back `m` with `u` only when they are the last move made, proven
    /// by making `m` again from the state the record restores and getting this game back
    /// exactly. On error nothing changes. Unproven (the move erases them): the halfmove clock
    /// before a capture or pawn move, and the roll before a move that ends the turn (any roll
    /// under which `m` is legal passes).
    ///
    /// # Errors
    /// [`DiceError::UndoMismatch`].
    pub fn unmake_move(&mut self, m: Move, u: &DiceUndo) -> Result<(), DiceError> {
        let valid_kind = matches!(u.kind, 0 | UNDO_NULL | UNDO_MOVE | 3);
        if !valid_kind
            || u.h.rules != self.h.rules
            || u.h.phase != Phase::AwaitingMove as u8
            || (u.kind == 0) != (self.winner().is_some() && u.h.winner == 0)
        {
            return Err(DiceError::UndoMismatch);
        }
        let mut before = self.clone();
        if u.kind & UNDO_NULL != 0 {
            before.pos.side = before.pos.side.flip();
            before.pos.st = u.null.state;
        }
        if u.kind & UNDO_MOVE != 0 {
            let moved = before.pos.piece_on(m.to());
            let cap = u.core.captured();
            if !m.is_well_formed()
                || moved.is_none()
                || moved.color() == before.pos.side
                || !(cap.is_none() || cap.color() == before.pos.side)
            {
                return Err(DiceError::UndoMismatch);
            }
            before.pos.unmake_move_unvalidated(m, &u.core);
        }
        before.h = u.h;
        if !before.is_plausible() || before.pos.validate().is_err() || !before.fen_consistent() {
            return Err(DiceError::UndoMismatch);
        }
        let mut again = before.clone();
        match again.make_move(m) {
            Ok(u2) if u2 == *u && again.same_state(self) => {
                *self = before;
                Ok(())
            }
            _ => Err(DiceError::UndoMismatch),
        }
    }

    /// True when the state is one the dice FEN parser accepts and gives back: en passant
    /// targets, dice (one die: a movable type), clocks and the position's rules. What a
    /// record restores must pass it (the fields a move overwrites cannot be proven by making
    /// the move again). Only the halfmove clock before a capture or pawn move, which the move
    /// erases, is taken from the record unproven.
    fn fen_consistent(&self) -> bool {
        match DiceGame::from_fen(self.rules(), &self.to_fen()) {
            Ok(g) => {
                g.h.ep == self.h.ep
                    && g.h.ep_next == self.h.ep_next
                    && g.h.dice == self.h.dice
                    && g.h.phase == self.h.phase
                    && g.h.winner == self.h.winner
                    && self.h.turn_moves[(self.h.micro as usize).min(3)..]
                        .iter()
                        .all(|&m| m == 0)
            }
            Err(_) => false,
        }
    }

    /// True when every field of the dice state is in range and the position is plausible
    /// ([`Position::is_plausible`]): no call on the game can panic or go out of bounds. For
    /// games that arrive as raw bytes (the C ABI).
    pub fn is_plausible(&self) -> bool {
        self.pos.is_plausible() && self.h.is_plausible_for(self.pos.side_to_move())
    }

    /// True when the two games are the same state (position, dice, clocks, history length).
    pub(crate) fn same_state(&self, other: &DiceGame) -> bool {
        self.h == other.h
            && self.pos == other.pos
            && self.pos.ply_count() == other.pos.ply_count()
            && self.pos.hash() == other.pos.hash()
    }
}

impl PartialEq for DiceGame {
    /// Equal when position (board, state, move number) and dice state are equal.
    fn eq(&self, other: &Self) -> bool {
        self.h == other.h && self.pos == other.pos
    }
}
impl Eq for DiceGame {}

impl fmt::Debug for DiceGame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "DiceGame({})", self.to_fen())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bytes(g: &DiceGame) -> Vec<u8> {
        // SAFETY: `DiceGame` is `repr(C)` plain data without padding bytes (the C ABI copies
        // it byte for byte), so every byte is initialised.
        unsafe {
            core::slice::from_raw_parts(
                g as *const DiceGame as *const u8,
                core::mem::size_of::<DiceGame>(),
            )
        }
        .to_vec()
    }

    /// A refused move changes no byte of the game, the history behind its length included
    /// (the three-dice look-ahead once left its entries there; found by the `dice` fuzz
    /// target).
    #[test]
    fn refused_moves_change_no_byte() {
        let mut g =
            DiceGame::from_fen(Rules::ThreeDice, "4k3/8/8/8/1p6/8/P1P5/R3K3 w Q - 0 1 -").unwrap();
        g.set_roll(Roll::from_faces(&[3, 3, 6]).unwrap()).unwrap();
        let legal = g.moves();
        assert!(!legal.is_empty());
        let before = bytes(&g);
        for raw in 0..=u16::MAX {
            let m = Move::from_raw(raw);
            if legal.contains(m) {
                continue;
            }
            assert!(g.make_move(m).is_err());
            assert_eq!(
                bytes(&g),
                before,
                "move {raw:#06x} refused but bytes changed"
            );
        }
    }
}
