//! Move generation for a roll, straight from the generator's piece-type mask, and the
//! three-dice maximum rule. Nothing here allocates: lists are fixed [`MoveList`]s on the
//! stack, and the maximum rule's look-ahead makes and unmakes on one position.
//!
//! What each rule set adds to the core generator (which knows neither king captures nor
//! several en passant targets):
//! * two dice: the legal generator with the mask of the two types (every type on doubles);
//!   castling also on a rook die (a second, king-only pass keeping the castles); king
//!   captures by a piece of a rolled type;
//! * one die: the pseudo-legal generator (no check) with the rolled type; castling also on a
//!   rook; en passant from the game's own target; promotions to the rolled type (2..5) for
//!   pawns on the last rank but one; king captures (a promoting pawn may capture the king on
//!   any roll it may promote on);
//! * three dice: the pseudo-legal generator with the mask of the dice left; castling only
//!   with both a king and a rook die, with the right and an empty path (as in one die,
//!   attacked squares do not matter: no check in this rule set); en passant on every target;
//!   king captures; then the maximum rule.
//!
//! The maximum rule: the value of a micro-move is the number of dice it spends (two for
//! castling) plus the most dice the rest of the turn can use after it, and every die left
//! when it captures the king. A micro-move is legal when its value is the largest. The
//! look-ahead stops as soon as a continuation uses every die, so the usual cost is one
//! generation and one make per candidate and level; the worst case (no sequence uses every
//! die) is bounded by the product of the candidate counts of the first two levels (at most a
//! few thousand makes), since the last die only needs one generation.

use super::roll::Roll;
use crate::bitboard::Bitboard;
use crate::movegen::{GenType, Legality, MoveSink};
use crate::moves::{Move, MoveList};
use crate::position::Position;
use crate::types::{Color, Piece, PieceType, Square};
use crate::{attacks, ALL_PIECE_TYPES};

const PAWN: u8 = PieceType::PAWN.mask_bit();
const ROOK: u8 = PieceType::ROOK.mask_bit();
const KING: u8 = PieceType::KING.mask_bit();

/// Keeps only castles.
struct CastleOnly<'a>(&'a mut MoveList);

impl MoveSink for CastleOnly<'_> {
    #[inline(always)]
    fn push(&mut self, m: Move) {
        if m.is_castle() {
            self.0.push(m);
        }
    }
}

/// Keeps every move but castles (three dice: a king die without a rook die).
struct NoCastle<'a>(&'a mut MoveList);

impl MoveSink for NoCastle<'_> {
    #[inline(always)]
    fn push(&mut self, m: Move) {
        if !m.is_castle() {
            self.0.push(m);
        }
    }
}

/// The rank a pawn of `us` promotes from.
fn promo_rank(us: Color) -> Bitboard {
    if us == Color::WHITE {
        Bitboard::RANK_7
    } else {
        Bitboard::RANK_2
    }
}

/// True when `m` captures the enemy king (a dice move the core never makes).
#[inline]
pub(crate) fn is_king_capture(pos: &Position, m: Move) -> bool {
    m.is_capture() && !m.is_en_passant() && m.to() == pos.king_square(pos.side_to_move().flip())
}

/// King captures by pieces of the types in `kinds` (and, when `promo_any`, by pawns on the
/// last rank but one whatever `kinds` says): `from`-to-king with the capture flag.
pub(crate) fn king_captures(pos: &Position, kinds: u8, promo_any: bool, out: &mut MoveList) {
    let us = pos.side_to_move();
    let king = pos.king_square(us.flip());
    let attackers = pos.attackers_to(king) & pos.color_pieces(us);
    for from in attackers {
        let kind = pos.piece_on(from).kind();
        let promo_pawn = promo_any && kind == PieceType::PAWN && promo_rank(us).has(from);
        if kinds & kind.mask_bit() != 0 || promo_pawn {
            out.push(Move::new(from, king, Move::CAPTURE));
        }
    }
}

/// En passant captures onto the targets of `targets` whose pushed pawn still stands in front
/// of an empty square (rule sets without check: the king may be left attacked).
pub(crate) fn ep_captures(pos: &Position, targets: Bitboard, out: &mut MoveList) {
    let us = pos.side_to_move();
    let them = us.flip();
    for t in targets {
        let pushed = Square::from_index(t.to_u8() ^ 8);
        if pos.piece_on(pushed) != Piece::new(them, PieceType::PAWN) || !pos.piece_on(t).is_none() {
            continue;
        }
        for from in attacks::pawn_attacks(them, t) & pos.pieces(us, PieceType::PAWN) {
            out.push(Move::new(from, t, Move::EN_PASSANT));
        }
    }
}

/// The targets of `targets` whose pawn (of `pusher`) still stands in front of the empty
/// target square: a target lapses for good once either fails.
pub(crate) fn live_targets(pos: &Position, targets: Bitboard, pusher: Color) -> Bitboard {
    let mut keep = Bitboard::EMPTY;
    for t in targets {
        let pawn = Square::from_index(t.to_u8() ^ 8);
        if pos.piece_on(pawn) == Piece::new(pusher, PieceType::PAWN) && pos.piece_on(t).is_none() {
            keep |= t.bb();
        }
    }
    keep
}

/// One die: promotions to `kind` (knight .. queen) of the pawns on the last rank but one.
fn promotions_to(pos: &Position, kind: u8, out: &mut MoveList) {
    let us = pos.side_to_move();
    let them = us.flip();
    let k = (kind - 2) as u16;
    let capturable = pos.color_pieces(them) & !pos.pieces(them, PieceType::KING);
    let occ = pos.occupied();
    for from in pos.pieces(us, PieceType::PAWN) & promo_rank(us) {
        let ahead = Square::from_index(if us == Color::WHITE {
            from.to_u8() + 8
        } else {
            from.to_u8() - 8
        });
        if !occ.has(ahead) {
            out.push(Move::new(from, ahead, Move::PROMO_KNIGHT + k));
        }
        for to in attacks::pawn_attacks(us, from) & capturable {
            out.push(Move::new(from, to, Move::PROMO_CAPTURE_KNIGHT + k));
        }
    }
}

/// Two dice: the moves `roll` allows (legal moves of the rolled types, any on doubles).
pub(crate) fn two_dice_moves(pos: &Position, roll: Roll, out: &mut MoveList) {
    let mask = if roll.is_doubles() {
        ALL_PIECE_TYPES
    } else {
        roll.mask()
    };
    pos.generate_moves(Legality::Legal, GenType::All, mask, out);
    if mask & ROOK != 0 && mask & KING == 0 {
        pos.generate_moves(Legality::Legal, GenType::Quiets, KING, &mut CastleOnly(out));
    }
    king_captures(pos, mask, false, out);
}

/// Two dice: the moves of one piece type (`face`), the part of every roll that shows it:
/// the type's legal moves, castles also for the rook, king captures by the type. A roll's
/// moves ([`two_dice_moves`]) are the union of its faces' (of all six on doubles; castles
/// come twice when both the king and the rook are in it). The search's per-type sharing.
pub(crate) fn two_dice_type_moves(pos: &Position, face: u8, out: &mut MoveList) {
    let bit = 1u8 << face;
    pos.generate_moves(Legality::Legal, GenType::All, bit, out);
    if bit == ROOK {
        pos.generate_moves(Legality::Legal, GenType::Quiets, KING, &mut CastleOnly(out));
    }
    king_captures(pos, bit, false, out);
}

/// One die: the moves a die of `face` allows.
pub(crate) fn one_die_moves(pos: &Position, ep: Bitboard, face: u8, out: &mut MoveList) {
    let bit = 1u8 << face;
    pos.generate_moves(Legality::PseudoLegal, GenType::All, bit, out);
    if bit == ROOK {
        pos.generate_moves(
            Legality::PseudoLegal,
            GenType::Quiets,
            KING,
            &mut CastleOnly(out),
        );
    }
    if bit == PAWN {
        ep_captures(pos, ep, out);
    }
    let promotes = (2..=5).contains(&face);
    if promotes {
        promotions_to(pos, face, out);
    }
    king_captures(pos, bit, promotes, out);
}

/// One die: the mask of the types that have a move (the faces the die can show).
pub(crate) fn one_die_movable(pos: &Position, ep: Bitboard) -> u8 {
    let mut mask = 0;
    let mut list = MoveList::new();
    for face in 1..=6u8 {
        list.clear();
        one_die_moves(pos, ep, face, &mut list);
        if !list.is_empty() {
            mask |= 1 << face;
        }
    }
    mask
}

/// Three dice: every micro-move the dice left allow, before the maximum rule.
pub(crate) fn three_dice_candidates(pos: &Position, dice: Roll, ep: Bitboard, out: &mut MoveList) {
    let mask = dice.mask();
    if mask & !KING != 0 {
        pos.generate_moves(Legality::PseudoLegal, GenType::All, mask & !KING, out);
    }
    // The pseudo-legal generator's castles need only the right and an empty path: attacked
    // squares do not matter (no check in this rule set). Castling spends a king and a rook
    // die.
    if mask & KING != 0 {
        if mask & ROOK != 0 {
            pos.generate_moves(Legality::PseudoLegal, GenType::All, KING, out);
        } else {
            pos.generate_moves(
                Legality::PseudoLegal,
                GenType::All,
                KING,
                &mut NoCastle(out),
            );
        }
    }
    if mask & PAWN != 0 {
        ep_captures(pos, ep, out);
    }
    king_captures(pos, mask, false, out);
}

/// True when the dice left allow some micro-move.
pub(crate) fn any_three_dice_move(pos: &Position, dice: Roll, ep: Bitboard) -> bool {
    if dice.count == 0 {
        return false;
    }
    let mut list = MoveList::new();
    three_dice_candidates(pos, dice, ep, &mut list);
    !list.is_empty()
}

/// The dice left after micro-move `m` (castling spends a king and a rook die).
pub(crate) fn spend(pos: &Position, dice: Roll, m: Move) -> Roll {
    let r = if m.is_castle() {
        dice.without(PieceType::KING.to_u8())
            .and_then(|r| r.without(PieceType::ROOK.to_u8()))
    } else {
        dice.without(pos.piece_on(m.from()).kind().to_u8())
    };
    r.unwrap_or(Roll::EMPTY)
}

/// The value of micro-move `m` (see the module docs); `pos` is restored.
fn value(pos: &mut Position, dice: Roll, ep: Bitboard, m: Move) -> u8 {
    if is_king_capture(pos, m) {
        return dice.count;
    }
    let rest = spend(pos, dice, m);
    let used = dice.count - rest.count;
    if rest.count == 0 {
        return used;
    }
    let u = pos.make_move_unchecked(m);
    let n = pos.make_null_move_unchecked();
    let ep = if ep.any() {
        live_targets(pos, ep, pos.side_to_move().flip())
    } else {
        ep
    };
    let v = used + best(pos, rest, ep);
    pos.unmake_null_move_unchecked(&n);
    pos.unmake_move_unchecked(m, &u);
    v
}

/// The most dice the turn can still use (every die when a sequence captures the king).
fn best(pos: &mut Position, dice: Roll, ep: Bitboard) -> u8 {
    let mut list = MoveList::new();
    three_dice_candidates(pos, dice, ep, &mut list);
    if dice.count == 1 {
        return u8::from(!list.is_empty());
    }
    let mut best = 0;
    for &m in list.iter() {
        best = best.max(value(pos, dice, ep, m));
        if best == dice.count {
            break;
        }
    }
    best
}

/// Three dice: the legal micro-moves (the candidates of the largest value). `pos` is used
/// for the look-ahead and restored.
pub(crate) fn three_dice_moves(pos: &mut Position, dice: Roll, ep: Bitboard, out: &mut MoveList) {
    let mut list = MoveList::new();
    three_dice_candidates(pos, dice, ep, &mut list);
    let mut values = [0u8; crate::MAX_MOVES];
    let mut max = 0;
    for (i, &m) in list.iter().enumerate() {
        values[i] = value(pos, dice, ep, m);
        max = max.max(values[i]);
    }
    for (i, &m) in list.iter().enumerate() {
        if values[i] == max {
            out.push(m);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::player::{sample_roll, Rng};
    use crate::dice::{DiceGame, Phase, Rules};

    /// Every two-dice roll's moves are the union of its faces' type moves (all six on
    /// doubles), on positions from seeded random games.
    #[test]
    fn two_dice_roll_moves_are_the_union_of_type_moves() {
        let mut rng = Rng(12);
        let mut checked = 0;
        for _ in 0..60 {
            let mut g = DiceGame::new(Rules::TwoDice);
            for _ in 0..rng.below(80) {
                let Some(roll) = sample_roll(&g, &mut rng) else {
                    break;
                };
                g.set_roll(roll).unwrap();
                while g.phase() == Phase::AwaitingMove {
                    let l = g.moves();
                    let m = if l.is_empty() {
                        Move::NONE
                    } else {
                        l.as_slice()[rng.below(l.len() as u64) as usize]
                    };
                    g.make_move(m).unwrap();
                }
            }
            if g.status().is_over() {
                continue;
            }
            for oc in g.outcomes().as_slice() {
                let mut want = MoveList::new();
                two_dice_moves(&g.pos, oc.roll, &mut want);
                let faces: &[u8] = if oc.roll.is_doubles() {
                    &[1, 2, 3, 4, 5, 6]
                } else {
                    oc.roll.dice()
                };
                let mut got: Vec<u16> = Vec::new();
                for &f in faces {
                    let mut l = MoveList::new();
                    two_dice_type_moves(&g.pos, f, &mut l);
                    got.extend(l.iter().map(|m| m.raw()));
                }
                got.sort_unstable();
                got.dedup();
                let mut want: Vec<u16> = want.iter().map(|m| m.raw()).collect();
                want.sort_unstable();
                want.dedup();
                assert_eq!(got, want, "{} {:?}", g.to_fen(), oc.roll);
                checked += 1;
            }
        }
        assert!(checked > 500);
    }
}
