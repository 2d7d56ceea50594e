//! Static exchange evaluation: whether a capture sequence on one square wins at least a
//! threshold, with both sides taking with their least valuable attacker and x-rays revealed
//! as pieces leave the square's lines. Pins are ignored (the usual approximation).

use crate::attacks::Sliders;
use crate::bitboard::Bitboard;
use crate::moves::Move;
use crate::position::Position;
use crate::types::{PieceType, Square};

/// Exchange values by piece type (none, pawn .. king).
pub const SEE_VALUE: [i32; 7] = [0, 100, 320, 330, 500, 950, 20000];

/// The value `m` wins on its target square before any recapture (captured piece plus
/// promotion gain).
#[inline]
pub fn gain(pos: &Position, m: Move) -> i32 {
    let mut v = if m.is_en_passant() {
        SEE_VALUE[1]
    } else {
        SEE_VALUE[pos.piece_on(m.to()).kind().index()]
    };
    if m.is_promotion() {
        v += SEE_VALUE[m.promotion().index()] - SEE_VALUE[1];
    }
    v
}

/// True when the exchange started by `m` wins at least `threshold` for the mover.
pub fn see_ge(pos: &Position, m: Move, threshold: i32) -> bool {
    crate::with_sliders!(|s| see_ge_with(s, pos, m, threshold))
}

fn see_ge_with<S: Sliders>(s: S, pos: &Position, m: Move, threshold: i32) -> bool {
    if m.is_castle() {
        return threshold <= 0;
    }
    let (from, to) = (m.from(), m.to());
    let mut swap = gain(pos, m) - threshold;
    if swap < 0 {
        return false;
    }
    let moved = if m.is_promotion() {
        m.promotion()
    } else {
        pos.piece_on(from).kind()
    };
    swap = SEE_VALUE[moved.index()] - swap;
    if swap <= 0 {
        return true;
    }
    let mut occ = pos.occupied().without(from).with(to);
    if m.is_en_passant() {
        let cap = Square::from_coords(to.file(), from.rank());
        occ = occ.without(cap);
    }
    let mut attackers = pos.attackers_to_with(s, to, occ) & occ;
    let mut stm = pos.side_to_move();
    let mut res = true;
    let bishops = pos.pieces_of_type(PieceType::BISHOP) | pos.pieces_of_type(PieceType::QUEEN);
    let rooks = pos.pieces_of_type(PieceType::ROOK) | pos.pieces_of_type(PieceType::QUEEN);
    loop {
        stm = stm.flip();
        attackers &= occ;
        let ours = attackers & pos.color_pieces(stm);
        if ours.is_empty() {
            break;
        }
        res = !res;
        // Least valuable attacker.
        let mut kind = PieceType::PAWN;
        let mut b = Bitboard::EMPTY;
        for k in PieceType::ALL {
            b = ours & pos.pieces_of_type(k);
            if b.any() {
                kind = k;
                break;
            }
        }
        if kind == PieceType::KING {
            // The king may take only when the other side has no attacker left.
            return if (attackers & !pos.color_pieces(stm)).any() {
                !res
            } else {
                res
            };
        }
        swap = SEE_VALUE[kind.index()] - swap;
        if swap < res as i32 {
            break;
        }
        occ = occ.without(b.lsb());
        if matches!(kind, PieceType::PAWN | PieceType::BISHOP | PieceType::QUEEN) {
            attackers |= s.bishop(to, occ) & bishops;
        }
        if matches!(kind, PieceType::ROOK | PieceType::QUEEN) {
            attackers |= s.rook(to, occ) & rooks;
        }
    }
    res
}

#[cfg(test)]
mod tests {
    use super::*;

    fn see(fen: &str, mv: &str, t: i32) -> bool {
        let pos = Position::from_fen(fen).unwrap();
        let m = pos.parse_uci_move(mv).unwrap();
        see_ge(&pos, m, t)
    }

    #[test]
    fn exchanges_worked_out_by_hand() {
        // Pawn takes an undefended knight: +320.
        let f = "4k3/8/8/3n4/4P3/8/8/4K3 w - - 0 1";
        assert!(see(f, "e4d5", 320) && !see(f, "e4d5", 321));
        // Queen takes a pawn defended by a pawn: 100 - 950.
        let f = "4k3/2p5/3p4/8/8/8/3Q4/4K3 w - - 0 1";
        assert!(see(f, "d2d6", -850) && !see(f, "d2d6", -849));
        // Rook takes a rook defended by a rook, with our second rook behind (x-ray): R-R+R = +500.
        let f = "3rk3/3r4/8/8/8/8/3R4/3RK3 w - - 0 1";
        assert!(see(f, "d2d7", 0));
        // Same without the x-ray rook: 500 - 500 = 0.
        let f = "3rk3/3r4/8/8/8/8/3R4/4K3 w - - 0 1";
        assert!(see(f, "d2d7", 0) && !see(f, "d2d7", 1));
        // A quiet move to a square attacked by a pawn loses the piece.
        let f = "4k3/8/2p5/8/8/4N3/8/4K3 w - - 0 1";
        assert!(!see(f, "e3d5", 0) && see(f, "e3d5", -320) && !see(f, "e3d5", -319));
        // Pawn takes pawn en passant, nothing recaptures: +100.
        let f = "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1";
        assert!(see(f, "e5d6", 100) && !see(f, "e5d6", 101));
    }
}
