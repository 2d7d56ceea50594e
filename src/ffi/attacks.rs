//! Attack sets of single pieces, for callers that build their own evaluation or search.

use super::position::square_or_none;
use crate::attacks;
use crate::bitboard::Bitboard;
use crate::types::Color;

/// Knight attacks from `square` (0 for a square out of range).
#[no_mangle]
pub extern "C" fn chess_knightAttacks(square: u32) -> u64 {
    square_or_none(square).map_or(0, |s| attacks::knight_attacks(s).0)
}

/// King attacks from `square` (0 for a square out of range).
#[no_mangle]
pub extern "C" fn chess_kingAttacks(square: u32) -> u64 {
    square_or_none(square).map_or(0, |s| attacks::king_attacks(s).0)
}

/// Squares a pawn of `color` (0 White, 1 Black) on `square` attacks (0 when out of range).
#[no_mangle]
pub extern "C" fn chess_pawnAttacks(color: u32, square: u32) -> u64 {
    if color > 1 {
        return 0;
    }
    square_or_none(square).map_or(0, |s| {
        attacks::pawn_attacks(Color::from_index(color as u8), s).0
    })
}

/// Bishop attacks from `square` with blockers `occupied` (first blocker included).
#[no_mangle]
pub extern "C" fn chess_bishopAttacks(square: u32, occupied: u64) -> u64 {
    square_or_none(square).map_or(0, |s| attacks::bishop_attacks(s, Bitboard(occupied)).0)
}

/// Rook attacks from `square` with blockers `occupied` (first blocker included).
#[no_mangle]
pub extern "C" fn chess_rookAttacks(square: u32, occupied: u64) -> u64 {
    square_or_none(square).map_or(0, |s| attacks::rook_attacks(s, Bitboard(occupied)).0)
}

/// Queen attacks from `square` with blockers `occupied` (first blocker included).
#[no_mangle]
pub extern "C" fn chess_queenAttacks(square: u32, occupied: u64) -> u64 {
    square_or_none(square).map_or(0, |s| attacks::queen_attacks(s, Bitboard(occupied)).0)
}
