//! The C ABI: `extern "C"` functions with the prefix `chess_`, a thin skin over the safe core,
//! one file per concern: [`status`] (codes and messages), [`position`] (setup, getters, game
//! status), [`moves`] (generation, make/unmake), [`perft`], [`text`] (FEN, UCI, pictures),
//! [`attacks`], [`chess960`] (Chess960, move events, why a move is illegal), [`engine`]
//! (engine handles, search, evaluation), [`dice`] (Dice Chess games), [`dice_search`] (the
//! Dice Chess engine), [`dice_cube`] (the doubling cube's advice), [`pgn`] (SAN, PGN games
//! and readers), with the boundary's rules in `guard` and the C types in `types`.
//!
//! Conventions, the same for every export:
//! * every export runs inside the panic guard, so no panic crosses the boundary, except the
//!   few that cannot panic and need no guard (the message functions `chess_statusMessage` and
//!   `chess_illegalReasonMessage`, and the attack-table lookups, all reading static tables
//!   with checked indices) (a caught panic is `CHESS_ERR_INTERNAL`, and its message is not printed: a panic hook installed on first
//!   use stays silent for panics inside the guard and passes others on);
//! * fallible functions return a [`ChessStatus`] and write their outputs only on success;
//!   on error every object is left as it was;
//! * a NULL pointer argument is `CHESS_ERR_NULL_ARGUMENT` (getters return 0, false or -1 and
//!   say so in their docs);
//! * a position argument must have been initialised by `chess_setFromFEN` or
//!   `chess_setStartPosition`; what is checked, and when, is in `guard`.
//!
//! The frozen signatures (issue 2) never change; new functions are added beside them.

#![deny(unsafe_op_in_unsafe_fn)]
#![allow(non_snake_case)]

pub mod attacks;
pub mod chess960;
pub mod dice;
pub mod dice_cube;
pub mod dice_search;
pub mod engine;
pub(crate) mod guard;
pub mod moves;
pub mod perft;
pub mod pgn;
pub mod position;
pub mod status;
pub mod text;
mod types;

pub use attacks::*;
pub use chess960::*;
pub use dice::*;
pub use dice_cube::*;
pub use dice_search::*;
pub use engine::*;
pub use moves::*;
pub use perft::*;
pub use pgn::*;
pub use position::*;
pub use status::*;
pub use text::*;
pub use types::*;
