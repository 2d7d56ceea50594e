//! Temporary: `dice_search_bench.rs`, the last Dice Chess tool still in `examples/` (it moves
//! to `lab/` next), reads the tools' shared code through here; the code is in
//! `lab/dice_common/mod.rs`.

#[path = "../../lab/dice_common/mod.rs"]
mod shared;

pub use shared::*;
