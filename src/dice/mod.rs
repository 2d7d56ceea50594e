//! Dice Chess: three rule sets over the core, roll-constrained generation from the
//! generator's piece-type mask, the dice FEN, outcome weights and game status.
//!
//! Piece types 1..6 (pawn .. king) are the die faces. One file per concept: [`rules`] (the
//! rule set), [`roll`] (rolls, the chance node's outcomes), [`game`] (the state, make and
//! unmake), [`gen`] (generation and the three-dice maximum rule), [`fen`] (the dice FEN),
//! [`status`] (win, draw, outcomes), [`perft`] (counts over every roll), [`pgn`] (self-play games as PGN, read back and
//! verified), [`player`] (built-in players), [`eval`] (the static value the engine's search averages). The C ABI over it is
//! `crate::ffi::dice`. Dependencies: `ffi -> dice -> core`.
//!
//! ```
//! use chesscore::dice::{DiceGame, Roll, Rules};
//! let mut game = DiceGame::new(Rules::TwoDice);
//! game.set_roll(Roll::from_faces(&[1, 2]).unwrap()).unwrap(); // a pawn or a knight
//! assert_eq!(game.moves().len(), 16 + 4);
//! ```
//!
//! # The rules, and every decision the rules leave open
//!
//! **Two dice** ([`Rules::TwoDice`], the default). Two d6 a turn; the mover moves one piece
//! of either rolled type, any piece on doubles. Moving into check is illegal; in check only
//! answers to the check are legal (the legal generator gives exactly those). No legal move
//! for the roll: the turn passes (the pass is [`crate::Move::NONE`], allowed only then), and
//! the opponent may then capture the king with a piece of a rolled type (or on doubles),
//! which wins. Castling on a rook or a king die or doubles, with the classical conditions.
//! En passant is a pawn move (a 1 or doubles) and only on the turn right after the push: a
//! pass loses it. Promotion is a pawn move, to any piece. Checkmate (in check, no legal move
//! of any type, no king capture) and stalemate are judged on all legal moves before the roll.
//! *Decided:* doubles are six outcomes of weight 1 (not one merged outcome), so that every
//! outcome is a real roll; all six allow the same moves.
//!
//! **One die** ([`Rules::OneDie`]). No check: a king may stand in, or move into, attack;
//! capturing it wins. The die shows only types that can move, uniformly over them (weight 1
//! each over their number). A pawn on the last rank but one may promote on a 1 (to any of
//! knight, bishop, rook, queen) or on a 2..5 (to the rolled type; that pawn move counts for
//! the type being movable). *Decided:* a 6 (king) does not promote (no second king). A
//! promoting pawn may capture the king on any roll it may promote on. Castling on a king or
//! a rook roll with the right and an empty path; *decided:* attacked squares do not matter
//! (there is no check in this rule set). En passant on a 1, right after the push. *Decided:*
//! a side with no move for any type (the die has no face to show) is stalemated: a draw.
//!
//! **Three dice** ([`Rules::ThreeDice`]). Three d6 (56 multisets over 216). A turn is up to
//! three micro-moves, each spending one die of its piece's type; the same piece may move
//! again; the side to move stays the mover between micro-moves. The mover must use as many
//! dice as the position allows: a micro-move is legal only if some sequence starting with it
//! uses the most dice any sequence can use. A move capturing the king is always legal and
//! ends the game; *decided:* a sequence that captures the king counts as using every die (so
//! a micro-move that prepares a king capture is never forbidden by the maximum rule). A
//! promotion choice counts for the maximum. No usable die: the turn passes; the turn ends by
//! itself once no die left can be used. No check, mate or stalemate. Castling needs a king
//! and a rook die and spends both, with the right and the squares between king and rook
//! empty; *decided:* attacked squares do not matter (the king may castle out of, through and
//! onto attacked squares: no check, so no check conditions, as in one die and in the engine
//! the design documents come from). Several double pushes in one turn leave several en
//! passant targets for the opponent's next turn; *decided:* a target lives while its pawn
//! stands in front of the empty target square, and lapses for good as soon as either fails,
//! in the middle of a turn too (the pawn moved on or was taken, or a piece stopped on the
//! target square, even if it leaves again); a live target can be used by any micro-move of
//! the opponent's next turn and lapses after it.
//!
//! **Draw rules, all rule sets.** *Decided:* the fifty-move rule counts turns: 100 turns
//! (passes included, a three-dice turn counting once) without a capture or pawn move is a
//! draw. There is no repetition draw: chance, not the players, decides whether a position
//! comes back, and the fifty-move rule already ends every game. Dead positions: two dice,
//! only the two bare kings (a king never moves into check, so bare kings can never be
//! captured, while any other piece can check, and a roll without an answer lets it capture
//! the king); one and three dice, none (a king may walk next to the other king and be taken).
//!
//! **Positions.** The side not to move may be in check after a two-dice pass (both kings in
//! check is refused); a check may also outlive a turn (in check, a pass; the opponent plays
//! on without taking the king), so standard chess's impossible-check rule does not apply;
//! without check, any checks may stand. See [`fen`] for the dice FEN.

pub mod cube;
pub mod eval;
pub mod fen;
pub mod game;
pub mod gen;
pub mod perft;
pub mod pgn;
pub mod player;
pub mod roll;
pub mod rules;
pub mod search;
pub mod status;

pub use fen::DiceFenError;
pub use game::{DiceError, DiceGame, DiceUndo, Phase};
pub use perft::DicePerft;
pub use player::{GreedyPlayer, Player, PlayerKind, RandomPlayer};
pub use roll::{Outcome, Outcomes, Roll, MAX_OUTCOMES};
pub use rules::Rules;
pub use status::{DiceStatus, DrawReason, WinReason};
