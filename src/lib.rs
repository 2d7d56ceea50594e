//! chesscore: a chess engine core with a C ABI.
//!
//! Bitboards in LERF order (a1 = bit 0, h8 = bit 63); piece types 1..6 = pawn..king (the dice
//! values) with 0 = none; pieces `color << 3 | type`; 16-bit [`Move`]s; fixed 256-entry
//! [`MoveList`]s; legal and pseudo-legal generation that can be limited to some piece types or
//! to captures or quiets ([`Position::generate_moves`]); incremental make/unmake with a plain
//! [`Undo`] record; Zobrist, pawn and material hashes; repetition detection; strict FEN; perft.
//!
//! ```
//! use chesscore::{Position, PerftMode};
//! let mut pos = Position::startpos();
//! let m = pos.parse_uci_move("e2e4").unwrap();
//! let undo = pos.make_move_unchecked(m);
//! assert_eq!(pos.to_string(), "\
//! 8 r n b q k b n r
//! 7 p p p p p p p p
//! 6 . . . . . . . .
//! 5 . . . . . . . .
//! 4 . . . . P . . .
//! 3 . . . . . . . .
//! 2 P P P P . P P P
//! 1 R N B Q K B N R
//!   a b c d e f g h
//! ");
//! assert_eq!(pos.legal_moves().len(), 20);
//! pos.unmake_move_unchecked(m, &undo);
//! assert_eq!(pos.perft_mode(4, PerftMode::Full), 197_281);
//! ```
//!
//! Module map: [`types`], [`bitboard`], [`attacks`], [`zobrist`], [`moves`], [`position`],
//! [`movegen`], [`perft`] form the core (with SAN in [`position::san`]); [`pgn`] reads and
//! writes games over it; [`dice`] holds the Dice Chess rules over it; [`ffi`]
//! is the C skin over both. [`eval`] and
//! [`search`] make it an engine; [`uci`] speaks the UCI protocol over it (the `chesscore`
//! binary with no arguments) and holds the search benchmark ([`uci::bench`]). The cargo
//! feature `lab` (off by default) adds the module `lab`: the hooks of the tuners and data
//! generators in the repository's `lab/` folder, outside the stability promise.

#![warn(missing_docs)]

pub mod attacks;
pub mod bitboard;
pub mod dice;
pub mod eval;
pub mod ffi;
#[cfg(feature = "lab")]
pub mod lab;
pub(crate) mod large_pages;
pub mod movegen;
pub mod moves;
pub mod perft;
pub mod pgn;
pub(crate) mod pool;
pub mod position;
pub mod search;
pub mod types;
pub mod uci;
pub mod zobrist;

pub use bitboard::Bitboard;
pub use movegen::{GenType, Legality, MoveCounter, MoveSink, ALL_PIECE_TYPES};
pub use moves::{MicroMove, Move, MoveList, MAX_MOVES};
pub use perft::PerftMode;
pub use position::{
    FenError, GameStatus, MoveError, NotationError, Position, San, SanError, SanMode, Undo,
    SAN_MAX, START_FEN,
};
pub use types::*;
