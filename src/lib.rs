//! chesscore: a chess engine core.
pub mod attacks;
pub mod bitboard;
pub mod types;
pub use bitboard::Bitboard;
pub use types::*;
