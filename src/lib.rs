//! chesscore: a chess engine core.
pub mod attacks;
pub mod bitboard;
pub mod ffi;
pub mod movegen;
pub mod moves;
pub mod perft;
pub mod position;
pub mod types;
pub mod zobrist;

pub use bitboard::Bitboard;
pub use movegen::{GenType, Legality, MoveCounter, MoveSink, ALL_PIECE_TYPES};
pub use moves::{MicroMove, Move, MoveList, MAX_MOVES};
pub use perft::PerftMode;
pub use position::{FenError, GameStatus, MoveError, NotationError, Position, Undo, START_FEN};
pub use types::*;
