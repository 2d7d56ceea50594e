//! Move and outcome ordering: the table's move first, then king captures, captures of the
//! most valuable victim by the least valuable attacker, promotions, then quiet moves.
//! Outcomes: heaviest first (the chance node's Star1 bounds tighten fastest that way).

use crate::dice::roll::Outcome;
use crate::moves::Move;
use crate::position::Position;
use crate::types::PieceType;

/// Values for ordering only (pawn .. king).
const ORDER_VALUE: [i32; 7] = [0, 1, 3, 3, 5, 9, 50];

/// The ordering score of `m` in `pos` (larger first); `tt` is the table's move.
#[inline]
pub fn score(pos: &Position, m: Move, tt: Move) -> i32 {
    if m == tt && m != Move::NONE {
        return 1_000_000;
    }
    let mut s = 0;
    if m.is_capture() {
        let victim = if m.is_en_passant() {
            PieceType::PAWN
        } else {
            pos.piece_on(m.to()).kind()
        };
        let attacker = pos.piece_on(m.from()).kind();
        s += 10_000 + ORDER_VALUE[victim.to_u8() as usize] * 100
            - ORDER_VALUE[attacker.to_u8() as usize];
    }
    if m.is_promotion() {
        s += 5_000 + ORDER_VALUE[m.promotion().to_u8() as usize] * 10;
    }
    s
}

/// Sorts `moves` by [`score`], best first (stable: equal scores keep generation order).
pub fn sort_moves(pos: &Position, moves: &mut [Move], tt: Move) {
    let mut keyed = [(0i32, Move::NONE); crate::MAX_MOVES];
    let n = moves.len().min(crate::MAX_MOVES);
    for (k, &m) in keyed.iter_mut().zip(moves.iter()) {
        *k = (score(pos, m, tt), m);
    }
    // Insertion sort: the lists are short and mostly ordered already.
    for i in 1..n {
        let cur = keyed[i];
        let mut j = i;
        while j > 0 && keyed[j - 1].0 < cur.0 {
            keyed[j] = keyed[j - 1];
            j -= 1;
        }
        keyed[j] = cur;
    }
    for (m, k) in moves.iter_mut().zip(keyed.iter()) {
        *m = k.1;
    }
}

/// Sorts outcomes heaviest first (stable).
pub fn sort_outcomes(list: &mut [Outcome]) {
    for i in 1..list.len() {
        let cur = list[i];
        let mut j = i;
        while j > 0 && list[j - 1].weight < cur.weight {
            list[j] = list[j - 1];
            j -= 1;
        }
        list[j] = cur;
    }
}
