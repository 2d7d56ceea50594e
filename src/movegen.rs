//! Move generation.
//!
//! One generic generator serves every use, without filtering a full list afterwards:
//!
//! * legal or pseudo-legal ([`Legality`]): legal generation works straight from the check
//!   mask (the squares that stop a single check), the pinned pieces (which move only along
//!   the line through their king) and the squares the enemy attacks with the king lifted off
//!   the board; pseudo-legal generation ignores all three (king safety is then checked one
//!   move at a time by [`Position::is_legal_pseudo`]);
//! * a move class ([`GenType`]): all moves, captures only (every move with the capture bit:
//!   captures, en passant, capture-promotions; for quiescence), or quiets only (the rest,
//!   quiet promotions and castling included); captures and quiets partition all moves;
//! * a piece-type mask: bit `1 << type` for each piece type allowed to move (a Dice Chess roll
//!   is a single bit; [`ALL_PIECE_TYPES`] is every type). A promotion is a pawn move.
//!
//! Moves go to a [`MoveSink`]: a [`MoveList`], or a [`MoveCounter`] that counts whole target
//! sets with one popcount (bulk perft). Color, legality and move class are compile-time
//! parameters, the slider back end a monomorphised type, so the inner loops carry no dispatch.
//! Promotions come in the order queen, rook, bishop, knight.

use crate::attacks::{self, Sliders};
use crate::bitboard::Bitboard;
use crate::moves::{Move, MoveList};
use crate::position::Position;
use crate::types::{Color, PieceType, Square};

/// Piece-type mask with every type (bits 1..6).
pub const ALL_PIECE_TYPES: u8 = 0b0111_1110;

/// Which moves to generate.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum GenType {
    /// Every move.
    All = 0,
    /// Moves with the capture bit: captures, en passant, capture-promotions.
    Captures = 1,
    /// Every other move: quiet moves, double pushes, castling, quiet promotions.
    Quiets = 2,
}

/// Whether generation checks king safety.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Legality {
    /// Only legal moves.
    Legal = 0,
    /// Pseudo-legal moves: the king may be left in check.
    PseudoLegal = 1,
}

const GEN_ALL: u8 = GenType::All as u8;
const GEN_CAPTURES: u8 = GenType::Captures as u8;
const GEN_QUIETS: u8 = GenType::Quiets as u8;

/// Receives generated moves. The bulk methods let a counter add whole target sets at once.
pub trait MoveSink {
    /// One move.
    fn push(&mut self, m: Move);

    /// A move from `from` to each square of `targets`, all with `flag`.
    #[inline(always)]
    fn push_targets(&mut self, from: Square, targets: Bitboard, flag: u16) {
        for to in targets {
            self.push(Move::new(from, to, flag));
        }
    }

    /// A move from `from` to each square of `targets`: captures on the squares in `theirs`,
    /// quiet moves on the others.
    #[inline(always)]
    fn push_moves(&mut self, from: Square, targets: Bitboard, theirs: Bitboard) {
        self.push_targets(from, targets & theirs, Move::CAPTURE);
        self.push_targets(from, targets & !theirs, Move::QUIET);
    }

    /// A pawn move to each square of `targets`, from `to - delta`, all with `flag`.
    #[inline(always)]
    fn push_pawn_targets(&mut self, targets: Bitboard, delta: i8, flag: u16) {
        for to in targets {
            let from = Square::from_index((to.to_u8() as i8 - delta) as u8);
            self.push(Move::new(from, to, flag));
        }
    }

    /// The four promotions (queen, rook, bishop, knight) of a pawn going `from` to `to`.
    #[inline(always)]
    fn push_promotions(&mut self, from: Square, to: Square, capture: bool) {
        let base = if capture {
            Move::PROMO_CAPTURE_KNIGHT
        } else {
            Move::PROMO_KNIGHT
        };
        for k in (0..4).rev() {
            self.push(Move::new(from, to, base + k));
        }
    }

    /// The four promotions of a pawn to each square of `targets`, from `to - delta`.
    #[inline(always)]
    fn push_pawn_promotions(&mut self, targets: Bitboard, delta: i8, capture: bool) {
        for to in targets {
            let from = Square::from_index((to.to_u8() as i8 - delta) as u8);
            self.push_promotions(from, to, capture);
        }
    }
}

impl MoveSink for MoveList {
    #[inline(always)]
    fn push(&mut self, m: Move) {
        MoveList::push(self, m);
    }
    #[inline(always)]
    fn push_targets(&mut self, from: Square, targets: Bitboard, flag: u16) {
        self.push_each(targets, |to| Move::new(from, to, flag));
    }
    #[inline(always)]
    fn push_pawn_targets(&mut self, targets: Bitboard, delta: i8, flag: u16) {
        self.push_each(targets, |to| {
            Move::new(
                Square::from_index((to.to_u8() as i8 - delta) as u8),
                to,
                flag,
            )
        });
    }
}

/// A sink that only counts: target sets are counted with one popcount.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct MoveCounter(pub u64);

impl MoveSink for MoveCounter {
    #[inline(always)]
    fn push(&mut self, _m: Move) {
        self.0 += 1;
    }
    #[inline(always)]
    fn push_targets(&mut self, _from: Square, targets: Bitboard, _flag: u16) {
        self.0 += targets.count() as u64;
    }
    #[inline(always)]
    fn push_moves(&mut self, _from: Square, targets: Bitboard, _theirs: Bitboard) {
        self.0 += targets.count() as u64;
    }
    #[inline(always)]
    fn push_pawn_targets(&mut self, targets: Bitboard, _delta: i8, _flag: u16) {
        self.0 += targets.count() as u64;
    }
    #[inline(always)]
    fn push_promotions(&mut self, _from: Square, _to: Square, _capture: bool) {
        self.0 += 4;
    }
    #[inline(always)]
    fn push_pawn_promotions(&mut self, targets: Bitboard, _delta: i8, _capture: bool) {
        self.0 += 4 * targets.count() as u64;
    }
}

/// The side to move as a type, so per-color code is generated at compile time.
pub trait Side: Copy + 'static {
    /// This side's color.
    const COLOR: Color;
    /// True for White.
    const WHITE: bool;
    /// The other side.
    type Other: Side;
}

/// White to move.
#[derive(Copy, Clone, Debug)]
pub struct White;
/// Black to move.
#[derive(Copy, Clone, Debug)]
pub struct Black;

impl Side for White {
    const COLOR: Color = Color::WHITE;
    const WHITE: bool = true;
    type Other = Black;
}
impl Side for Black {
    const COLOR: Color = Color::BLACK;
    const WHITE: bool = false;
    type Other = White;
}

#[inline(always)]
fn up<C: Side>(b: Bitboard) -> Bitboard {
    if C::WHITE {
        b.north()
    } else {
        b.south()
    }
}

/// Pawn captures towards file a: (targets, delta to = from + delta).
#[inline(always)]
fn capture_west<C: Side>(pawns: Bitboard) -> (Bitboard, i8) {
    let p = pawns.0 & !Bitboard::FILE_A.0;
    if C::WHITE {
        (Bitboard(p << 7), 7)
    } else {
        (Bitboard(p >> 9), -9)
    }
}

/// Pawn captures towards file h.
#[inline(always)]
fn capture_east<C: Side>(pawns: Bitboard) -> (Bitboard, i8) {
    let p = pawns.0 & !Bitboard::FILE_H.0;
    if C::WHITE {
        (Bitboard(p << 9), 9)
    } else {
        (Bitboard(p >> 7), -7)
    }
}

/// Every square attacked by `them`, with blockers `occ`.
#[inline(always)]
pub(crate) fn attacked_by<S: Sliders, T: Side>(pos: &Position, s: S, occ: Bitboard) -> Bitboard {
    let them = T::COLOR;
    let pawns = pos.pieces(them, PieceType::PAWN);
    let mut a = capture_west::<T>(pawns).0 | capture_east::<T>(pawns).0;
    for sq in pos.pieces(them, PieceType::KNIGHT) {
        a |= attacks::knight_attacks(sq);
    }
    a |= attacks::king_attacks(pos.king_square(them));
    let queens = pos.pieces(them, PieceType::QUEEN);
    for sq in pos.pieces(them, PieceType::BISHOP) | queens {
        a |= s.bishop(sq, occ);
    }
    for sq in pos.pieces(them, PieceType::ROOK) | queens {
        a |= s.rook(sq, occ);
    }
    a
}

/// The generator. `C` must be the side to move; `LEGAL` selects legal generation; `GEN` is a
/// [`GenType`] value; `kinds` a piece-type mask. `CHESS960` must be the position's Chess960
/// mode when `LEGAL`: it compiles in the one castling test only Chess960 needs (see
/// `position::chess960`), so the standard generator carries no trace of it.
#[inline(always)]
pub(crate) fn generate<
    S: Sliders,
    C: Side,
    const LEGAL: bool,
    const GEN: u8,
    const CHESS960: bool,
    K: MoveSink,
>(
    pos: &Position,
    s: S,
    kinds: u8,
    sink: &mut K,
) {
    debug_assert!(!LEGAL || CHESS960 == pos.is_chess960());
    debug_assert_eq!(pos.side_to_move(), C::COLOR);
    let us = C::COLOR;
    let them = us.flip();
    let ours = pos.color_pieces(us);
    let theirs = pos.color_pieces(them);
    let occ = ours | theirs;
    let king = pos.king_square(us);
    let their_king = pos.pieces(them, PieceType::KING);
    let capturable = theirs & !their_king;
    let filter = match GEN {
        GEN_CAPTURES => capturable,
        GEN_QUIETS => !occ,
        _ => !ours & !their_king,
    };
    let (checkers, pinned) = if LEGAL {
        (pos.checkers_of(s, us), pos.pinned(us))
    } else {
        (Bitboard::EMPTY, Bitboard::EMPTY)
    };

    if kinds & PieceType::KING.mask_bit() != 0 {
        let mut targets = attacks::king_attacks(king) & filter;
        // Castling rights whose squares are empty: only these, and king steps, need the
        // enemy attack map.
        let mut castles = 0u8;
        if GEN != GEN_CAPTURES && (!LEGAL || checkers.is_empty()) {
            let rights = pos.castling_rights().bits() >> (2 * us.index()) & 3;
            for side in 0..2 {
                let i = 2 * us.index() + side;
                if rights & (1 << side) != 0 && (pos.castle_paths[i] & occ).is_empty() {
                    castles |= 1 << side;
                }
            }
        }
        // Chess960 only (a cold call; compiled out of the standard generator): drop the
        // castles whose rook screens the king's destination from an enemy rook or queen.
        if LEGAL && CHESS960 && castles != 0 {
            castles = pos.chess960_castle_filter(s, us, castles);
        }
        let danger = if LEGAL && (targets.any() || castles != 0) {
            attacked_by::<S, C::Other>(pos, s, occ ^ king.bb())
        } else {
            Bitboard::EMPTY
        };
        targets &= !danger;
        sink.push_moves(king, targets, theirs);
        for side in 0..2 {
            let i = 2 * us.index() + side;
            if castles & (1 << side) != 0 && !(LEGAL && (pos.castle_king_paths[i] & danger).any()) {
                let (king_to, flag) = if side == 0 {
                    (Square::from_coords(6, king.rank()), Move::KING_CASTLE)
                } else {
                    (Square::from_coords(2, king.rank()), Move::QUEEN_CASTLE)
                };
                sink.push(Move::new(king, king_to, flag));
            }
        }
    }
    if LEGAL && checkers.more_than_one() {
        return;
    }
    let check_mask = if LEGAL && checkers.any() {
        attacks::between(king, checkers.lsb()) | checkers
    } else {
        Bitboard::ALL
    };
    let targets = filter & check_mask;

    if kinds & PieceType::KNIGHT.mask_bit() != 0 {
        for from in pos.pieces(us, PieceType::KNIGHT) & !pinned {
            sink.push_moves(from, attacks::knight_attacks(from) & targets, theirs);
        }
    }
    let queens = if kinds & PieceType::QUEEN.mask_bit() != 0 {
        pos.pieces(us, PieceType::QUEEN)
    } else {
        Bitboard::EMPTY
    };
    let mut diag = queens;
    if kinds & PieceType::BISHOP.mask_bit() != 0 {
        diag |= pos.pieces(us, PieceType::BISHOP);
    }
    slider_moves::<LEGAL, K>(sink, diag, pinned, king, targets, theirs, |sq| {
        s.bishop(sq, occ)
    });
    let mut orth = queens;
    if kinds & PieceType::ROOK.mask_bit() != 0 {
        orth |= pos.pieces(us, PieceType::ROOK);
    }
    slider_moves::<LEGAL, K>(sink, orth, pinned, king, targets, theirs, |sq| {
        s.rook(sq, occ)
    });
    if kinds & PieceType::PAWN.mask_bit() != 0 {
        pawn_moves::<S, C, LEGAL, GEN, K>(pos, s, sink, king, pinned, check_mask, capturable, occ);
    }
}

/// Moves of the sliders `pieces` with attack function `attacks_of`: free pieces first, pinned
/// ones (rare) in a second loop, kept on the line through their king.
#[inline(always)]
fn slider_moves<const LEGAL: bool, K: MoveSink>(
    sink: &mut K,
    pieces: Bitboard,
    pinned: Bitboard,
    king: Square,
    targets: Bitboard,
    theirs: Bitboard,
    attacks_of: impl Fn(Square) -> Bitboard,
) {
    for from in pieces & !pinned {
        sink.push_moves(from, attacks_of(from) & targets, theirs);
    }
    if LEGAL {
        for from in pieces & pinned {
            let line = attacks::line(king, from);
            sink.push_moves(from, attacks_of(from) & targets & line, theirs);
        }
    }
}

#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn pawn_moves<S: Sliders, C: Side, const LEGAL: bool, const GEN: u8, K: MoveSink>(
    pos: &Position,
    s: S,
    sink: &mut K,
    king: Square,
    pinned: Bitboard,
    check_mask: Bitboard,
    capturable: Bitboard,
    occ: Bitboard,
) {
    let us = C::COLOR;
    let them = us.flip();
    let pawns = pos.pieces(us, PieceType::PAWN);
    let empty = !occ;
    let (promo_rank, double_rank) = if C::WHITE {
        (Bitboard::RANK_7, Bitboard::RANK_3)
    } else {
        (Bitboard::RANK_2, Bitboard::RANK_6)
    };
    let push: i8 = if C::WHITE { 8 } else { -8 };
    let free = if LEGAL { pawns & !pinned } else { pawns };
    let free_promo = free & promo_rank;
    let free_rest = free & !promo_rank;

    if GEN != GEN_CAPTURES {
        let one = up::<C>(free_rest) & empty;
        let two = up::<C>(one & double_rank) & empty;
        sink.push_pawn_targets(one & check_mask, push, Move::QUIET);
        sink.push_pawn_targets(two & check_mask, 2 * push, Move::DOUBLE_PUSH);
        let p = up::<C>(free_promo) & empty & check_mask;
        sink.push_pawn_promotions(p, push, false);
    }
    if GEN != GEN_QUIETS {
        let enemies = capturable & check_mask;
        for (targets, delta) in [capture_west::<C>(free_rest), capture_east::<C>(free_rest)] {
            sink.push_pawn_targets(targets & enemies, delta, Move::CAPTURE);
        }
        for (targets, delta) in [capture_west::<C>(free_promo), capture_east::<C>(free_promo)] {
            sink.push_pawn_promotions(targets & enemies, delta, true);
        }
        if let Some(ep) = pos.capturable_en_passant() {
            let cap_sq = Square::from_index(ep.to_u8() ^ 8);
            if !LEGAL || check_mask.has(cap_sq) || check_mask.has(ep) {
                for from in attacks::pawn_attacks(them, ep) & pawns {
                    let m = Move::new(from, ep, Move::EN_PASSANT);
                    if LEGAL {
                        let after = (occ ^ from.bb() ^ cap_sq.bb()) | ep.bb();
                        let orth =
                            pos.pieces(them, PieceType::ROOK) | pos.pieces(them, PieceType::QUEEN);
                        let diag = pos.pieces(them, PieceType::BISHOP)
                            | pos.pieces(them, PieceType::QUEEN);
                        if (s.rook(king, after) & orth).any()
                            || (s.bishop(king, after) & diag).any()
                        {
                            continue;
                        }
                    } else if !pos.is_legal_pseudo_with(s, m) {
                        // The pseudo-legal list has an en passant capture only when it is
                        // legal, as the hash counts it (rare: the square is flagged only
                        // when some capture there is legal, so only a second, illegal
                        // capturer gets here).
                        continue;
                    }
                    sink.push(m);
                }
            }
        }
    }
    if LEGAL {
        // Pinned pawns (rare): one at a time, kept on the line through their king.
        for from in pawns & pinned {
            let allowed = attacks::line(king, from) & check_mask;
            let is_promo = promo_rank.has(from);
            if GEN != GEN_CAPTURES {
                let one = up::<C>(from.bb()) & empty;
                let two = up::<C>(one & double_rank) & empty & allowed;
                let one = one & allowed;
                if is_promo {
                    for to in one {
                        sink.push_promotions(from, to, false);
                    }
                } else {
                    sink.push_targets(from, one, Move::QUIET);
                    sink.push_targets(from, two, Move::DOUBLE_PUSH);
                }
            }
            if GEN != GEN_QUIETS {
                let caps = attacks::pawn_attacks(us, from) & capturable & allowed;
                if is_promo {
                    for to in caps {
                        sink.push_promotions(from, to, true);
                    }
                } else {
                    sink.push_targets(from, caps, Move::CAPTURE);
                }
            }
        }
    }
}

/// Runs the generator with every parameter resolved: one branch on the back end, one match on
/// color, legality and class, then monomorphised code.
#[inline(always)]
pub(crate) fn dispatch<K: MoveSink>(
    pos: &Position,
    legality: Legality,
    gen: GenType,
    kinds: u8,
    sink: &mut K,
) {
    match crate::attacks::Backend::detect() {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: a `Pext` token exists only when the CPU has BMI1, BMI2, POPCNT and LZCNT,
        // the features `dispatch_bmi2` is compiled for.
        crate::attacks::Backend::Pext(p) => unsafe {
            dispatch_bmi2(pos, p, legality, gen, kinds, sink)
        },
        #[cfg(not(target_arch = "x86_64"))]
        crate::attacks::Backend::Pext(p) => dispatch_with(pos, p, legality, gen, kinds, sink),
        crate::attacks::Backend::Magic(m) => dispatch_with(pos, m, legality, gen, kinds, sink),
    }
}

/// [`dispatch_with`] on the PEXT back end, compiled with the instructions its token proves.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "bmi1,bmi2,popcnt,lzcnt")]
fn dispatch_bmi2<K: MoveSink>(
    pos: &Position,
    s: crate::attacks::Pext,
    legality: Legality,
    gen: GenType,
    kinds: u8,
    sink: &mut K,
) {
    dispatch_with(pos, s, legality, gen, kinds, sink)
}

/// [`dispatch`] on a given back end.
#[inline(always)]
pub(crate) fn dispatch_with<S: Sliders, K: MoveSink>(
    pos: &Position,
    s: S,
    legality: Legality,
    gen: GenType,
    kinds: u8,
    sink: &mut K,
) {
    macro_rules! go {
        ($c:ty, $x:expr) => {
            match (legality, gen) {
                (Legality::Legal, GenType::All) => {
                    generate::<S, $c, true, GEN_ALL, $x, K>(pos, s, kinds, sink)
                }
                (Legality::Legal, GenType::Captures) => {
                    generate::<S, $c, true, GEN_CAPTURES, $x, K>(pos, s, kinds, sink)
                }
                (Legality::Legal, GenType::Quiets) => {
                    generate::<S, $c, true, GEN_QUIETS, $x, K>(pos, s, kinds, sink)
                }
                (Legality::PseudoLegal, GenType::All) => {
                    generate::<S, $c, false, GEN_ALL, false, K>(pos, s, kinds, sink)
                }
                (Legality::PseudoLegal, GenType::Captures) => {
                    generate::<S, $c, false, GEN_CAPTURES, false, K>(pos, s, kinds, sink)
                }
                (Legality::PseudoLegal, GenType::Quiets) => {
                    generate::<S, $c, false, GEN_QUIETS, false, K>(pos, s, kinds, sink)
                }
            }
        };
    }
    match (pos.side_to_move() == Color::WHITE, pos.is_chess960()) {
        (true, false) => go!(White, false),
        (false, false) => go!(Black, false),
        (true, true) => go!(White, true),
        (false, true) => go!(Black, true),
    }
}

impl Position {
    /// All legal moves.
    ///
    /// ```
    /// use chesscore::Position;
    /// assert_eq!(Position::startpos().legal_moves().len(), 20);
    /// ```
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generate_moves(Legality::Legal, GenType::All, ALL_PIECE_TYPES, &mut list);
        list
    }

    /// All pseudo-legal moves (the king may be left in check; castling through or out of
    /// check is included). See [`Position::is_legal_pseudo`].
    pub fn pseudo_legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generate_moves(
            Legality::PseudoLegal,
            GenType::All,
            ALL_PIECE_TYPES,
            &mut list,
        );
        list
    }

    /// Appends the selected moves to `sink`: legal or pseudo-legal, all, captures or quiets,
    /// for the piece types in `kinds` (bit `1 << type`; a Dice Chess roll of `t` is `1 << t`).
    ///
    /// ```
    /// use chesscore::{Position, GenType, Legality, MoveList, PieceType};
    /// let pos = Position::startpos();
    /// let mut knights = MoveList::new();
    /// pos.generate_moves(Legality::Legal, GenType::All, PieceType::KNIGHT.mask_bit(), &mut knights);
    /// assert_eq!(knights.len(), 4);
    /// ```
    pub fn generate_moves<K: MoveSink>(
        &self,
        legality: Legality,
        gen: GenType,
        kinds: u8,
        sink: &mut K,
    ) {
        dispatch(self, legality, gen, kinds, sink);
    }

    /// Number of legal moves, counted without a list.
    pub fn count_legal_moves(&self) -> u64 {
        let mut c = MoveCounter(0);
        self.generate_moves(Legality::Legal, GenType::All, ALL_PIECE_TYPES, &mut c);
        c.0
    }

    /// True when `m` (any 16-bit value) is a legal move here: exactly one of the moves the
    /// legal generator gives, flag included. Checks the move's shape against the board
    /// (piece, flag, target, path) and then the king's safety with
    /// [`Position::is_legal_pseudo`]; castling, rare where this is asked (hash moves,
    /// killers), is looked up among the king's generated moves.
    pub fn is_legal(&self, m: Move) -> bool {
        if !m.is_well_formed() {
            return false;
        }
        let pc = self.piece_on(m.from());
        if pc.is_none() || pc.color() != self.side_to_move() {
            return false;
        }
        if m.is_castle() {
            return self.is_legal_by_generation(m);
        }
        crate::with_sliders!(
            |s| self.is_pseudo_legal_with(s, m, pc.kind()) && self.is_legal_pseudo_with(s, m)
        )
    }

    /// Whether the non-castling, well-formed move `m` of our piece of type `kind` is one the
    /// pseudo-legal generator gives: the flag fits the piece and the target, and the piece
    /// reaches the target.
    fn is_pseudo_legal_with<S: Sliders>(&self, s: S, m: Move, kind: PieceType) -> bool {
        let us = self.side_to_move();
        let (from, to) = (m.from(), m.to());
        let occ = self.occupied();
        let target = self.piece_on(to);
        // A capture takes an enemy piece (never the king: it is not attacked on our move);
        // any other move goes to an empty square (en passant included).
        let enemy_on_to = !target.is_none() && target.color() != us;
        if m.is_capture() && !m.is_en_passant() {
            if !enemy_on_to || target.kind() == PieceType::KING {
                return false;
            }
        } else if !target.is_none() {
            return false;
        }
        if kind != PieceType::PAWN {
            // Only plain moves and captures for pieces (castling was handled by the caller).
            if m.flag() != Move::QUIET && m.flag() != Move::CAPTURE {
                return false;
            }
            let reach = match kind {
                PieceType::KNIGHT => attacks::knight_attacks(from),
                PieceType::BISHOP => s.bishop(from, occ),
                PieceType::ROOK => s.rook(from, occ),
                PieceType::QUEEN => s.queen(from, occ),
                _ => attacks::king_attacks(from),
            };
            return (reach & to.bb()).any();
        }
        // Pawns: promotions exactly on the last rank.
        let last_rank = if us == Color::WHITE { 7 } else { 0 };
        if m.is_promotion() != (to.rank() == last_rank) {
            return false;
        }
        let forward: i32 = if us == Color::WHITE { 8 } else { -8 };
        let step = to.to_u8() as i32 - from.to_u8() as i32;
        if m.is_capture() {
            if !(attacks::pawn_attacks(us, from) & to.bb()).any() {
                return false;
            }
            if m.is_en_passant() {
                // The pawn taken stands behind the target square.
                let taken = self.piece_on(Square::from_index(to.to_u8() ^ 8));
                return self.en_passant() == Some(to)
                    && !taken.is_none()
                    && taken.kind() == PieceType::PAWN
                    && taken.color() != us;
            }
            return true;
        }
        if m.is_double_push() {
            let start_rank = if us == Color::WHITE { 1 } else { 6 };
            let mid = Square::from_index((from.to_u8() as i32 + forward) as u8);
            return from.rank() == start_rank
                && step == 2 * forward
                && self.piece_on(mid).is_none();
        }
        // A single push (a promotion or a plain move: other flags are not pawn moves).
        step == forward && (m.is_promotion() || m.flag() == Move::QUIET)
    }

    /// [`Position::is_legal`] by generation: the moves of the piece on `m.from()`'s type and
    /// class, then `m` looked up. Used for castling (whose checks, Chess960 included, are
    /// the generator's); complete on its own for any 16-bit value.
    pub(crate) fn is_legal_by_generation(&self, m: Move) -> bool {
        if !m.is_well_formed() {
            return false;
        }
        let pc = self.piece_on(m.from());
        if pc.is_none() || pc.color() != self.side_to_move() {
            return false;
        }
        let gen = if m.is_capture() {
            GenType::Captures
        } else {
            GenType::Quiets
        };
        let mut list = MoveList::new();
        self.generate_moves(Legality::Legal, gen, pc.kind().mask_bit(), &mut list);
        list.contains(m)
    }

    /// The legality check for one pseudo-legal move `m` (from [`Position::pseudo_legal_moves`]):
    /// false when it leaves the king in check (pins and en passant discovered checks included)
    /// or castles out of, through or into check. Independent of the legal generator, which
    /// tests compare it against.
    pub fn is_legal_pseudo(&self, m: Move) -> bool {
        crate::with_sliders!(|s| self.is_legal_pseudo_with(s, m))
    }

    fn is_legal_pseudo_with<S: Sliders>(&self, s: S, m: Move) -> bool {
        let us = self.side_to_move();
        let them = us.flip();
        let (from, to) = (m.from(), m.to());
        let occ = self.occupied();
        let king = self.king_square(us);
        let attacked = |sq: Square, occ: Bitboard, theirs: Bitboard| {
            (self.attackers_to_with(s, sq, occ) & theirs).any()
        };
        let theirs = self.color_pieces(them);
        if m.is_castle() {
            if attacked(king, occ, theirs) {
                return false;
            }
            let path = attacks::between(king, to) | to.bb();
            if !path.iter().all(|sq| !attacked(sq, occ, theirs)) {
                return false;
            }
            // The destination once the rook has moved too (Chess960: the rook may have
            // screened it; in standard chess this changes nothing).
            let i = crate::types::castling_index(us, m.flag() == Move::KING_CASTLE);
            let rook_to = Square::from_coords(if i % 2 == 0 { 5 } else { 3 }, to.rank());
            let after = (occ ^ king.bb() ^ self.castle_rooks[i].bb()) | to.bb() | rook_to.bb();
            return !attacked(to, after, theirs);
        }
        let mut after = (occ ^ from.bb()) | to.bb();
        let mut theirs_after = theirs & !to.bb();
        if m.is_en_passant() {
            let cap = Square::from_index(to.to_u8() ^ 8);
            after ^= cap.bb();
            theirs_after &= !cap.bb();
        }
        let king_after = if from == king { to } else { king };
        !attacked(king_after, after, theirs_after)
    }
}
