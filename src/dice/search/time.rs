//! Time management on a clock (base plus increment): how long one search may think, from
//! the mover's clock, the rules and the position ([`DiceLimits::on_clock`]; the design and
//! its measurements: docs/dice-search.md "The clock").
//!
//! Two limits, like the chess search's (`crate::search::time`): the *soft* one is checked
//! between iterations (none starts after it: each costs about ten times the last), the
//! *hard* one every 1024 nodes and between a chance node's outcomes, and stops the search
//! outright (a stopped iteration still gives a move: see the module docs of
//! [`super`]). The hard limit is what the turn may take at most: the clock over the turns
//! the side is still expected to play, plus most of the increment; the soft one is half of
//! it, as with a fixed time a move ([`DiceLimits::movetime`]).
//!
//! * **Turns to go.** Dice Chess games end when a king is taken, and how many turns are
//!   left depends much more on the rules than on the move number: the engine against
//!   itself (lab/dice_clock.rs) plays on average about 7 more turns in three dice from any
//!   position, 18 in one die and 20 in two dice from the start, fewer as the material goes
//!   (two dice: 11 under 30 pawns' worth). [`TURNS_LEFT`] has the measured ends; between
//!   them the count goes with the material on the board. A `movestogo` from the caller
//!   (turns to the next time control) takes its place.
//! * **Three dice.** The engine searches a whole turn at its first micro-move and plays the
//!   rest of the line (`EnginePlayer`), so a turn costs one search. A search in the middle
//!   of a turn (a caller that searches every micro-move) gets the turn's budget times the
//!   dice left over the turn's dice, so a turn searched micro-move by micro-move takes at
//!   most twice a turn's budget, never more than the hard caps allow.
//! * **Safety.** Off the clock first: [`MOVE_OVERHEAD_MS`] (the search returns a little
//!   after its hard limit, and the caller needs time to play the move) and [`RESERVE_MS`],
//!   never handed out: with an increment the clock settles above it, so one turn delayed by
//!   a loaded machine does not lose on time. The hard limit is never more than
//!   [`MAX_SHARE_PERCENT`] of what is left after the overhead, never 0.

use super::DiceLimits;
use crate::dice::game::DiceGame;
use crate::dice::player::DiceClock;
use crate::dice::rules::Rules;
use crate::types::{Color, PieceType};

// The tunables, all here.

/// The turns the side to move is expected to play from here, this one counted, with no
/// material left and with all of it (78 pawns' worth: pawn 1, knight and bishop 3, rook 5,
/// queen 9, both sides), per rule set (two dice, one die, three dice); in between it goes
/// with the material. Measured: `cargo run --release --features lab --example dice_clock --
/// 5 200 7000` (docs/results/dice-clock.md): two dice 20.0 at 70 or more, 13.4 at 40-49,
/// 10.6 at 10-19; one die 17.6, 15.2, 12.8; three dice 6 to 7 at any material.
pub const TURNS_LEFT: [(u32, u32); 3] = [(10, 20), (13, 18), (6, 7)];

/// Taken off the clock before it is shared out: the search returns a little after its hard
/// limit (up to 1024 nodes, the helper threads joining), and the caller needs time to play
/// the move.
pub const MOVE_OVERHEAD_MS: u64 = 5;

/// Kept on the clock, never handed out to a turn: with an increment the clock settles above
/// it, which absorbs a turn the machine delays (on a loaded 2-core machine, up to 43 ms past
/// a 5 ms search was seen: docs/results/dice-clock.md).
pub const RESERVE_MS: u64 = 50;

/// The hard limit is at most this share (percent) of the clock less the overhead.
pub const MAX_SHARE_PERCENT: u64 = 80;

/// The soft limit (no iteration starts after it) is this share (percent) of the hard one:
/// the fixed-time rule's half ([`DiceLimits::movetime`]).
pub const SOFT_PERCENT: u64 = 50;

/// Material on the board, both sides, in pawns (78 at the start).
fn material(game: &DiceGame) -> u32 {
    let pos = game.position();
    let mut m = 0;
    for c in [Color::WHITE, Color::BLACK] {
        for (kind, v) in [
            (PieceType::PAWN, 1),
            (PieceType::KNIGHT, 3),
            (PieceType::BISHOP, 3),
            (PieceType::ROOK, 5),
            (PieceType::QUEEN, 9),
        ] {
            m += v * pos.pieces(c, kind).count();
        }
    }
    m
}

/// The turns to share the clock over: `movestogo` when given (at most 50), else
/// [`TURNS_LEFT`] at the material on the board; at least 1.
fn turns_to_go(game: &DiceGame, movestogo: u32) -> u64 {
    if movestogo > 0 {
        return u64::from(movestogo.min(50));
    }
    let rules = game.rules();
    let (lo, hi) = TURNS_LEFT[match rules {
        Rules::TwoDice => 0,
        Rules::OneDie => 1,
        Rules::ThreeDice => 2,
    }];
    let m = material(game).min(78);
    u64::from(lo + (hi - lo) * m / 78).max(1)
}

impl DiceLimits {
    /// The limits of one search for `game`'s side to move on `clock` (the time manager, see
    /// docs/dice-search.md "The clock"): a hard limit (`movetime_ms`) of the clock, less
    /// [`MOVE_OVERHEAD_MS`] and [`RESERVE_MS`], over the turns the side is expected to play
    /// ([`TURNS_LEFT`], by the rules and the material; `movestogo` when given), plus three
    /// quarters of the increment, times the share of the turn's dice still to play (three
    /// dice, in the middle of a turn); at most [`MAX_SHARE_PERCENT`] of the clock less the
    /// overhead, at least 1 ms. The soft limit (`soft_ms`) is [`SOFT_PERCENT`] of it, at
    /// least 1 ms. No depth or node limit. Saturating: any clock is accepted.
    ///
    /// ```
    /// use chesscore::dice::search::{DiceClock, DiceLimits};
    /// use chesscore::dice::{DiceGame, Rules};
    /// let clock = DiceClock { time_ms: 60_000, inc_ms: 0, movestogo: 0 };
    /// let two = DiceLimits::on_clock(&DiceGame::new(Rules::TwoDice), &clock);
    /// let three = DiceLimits::on_clock(&DiceGame::new(Rules::ThreeDice), &clock);
    /// // Three-dice games are shorter: more time for each turn.
    /// assert!(three.movetime_ms > two.movetime_ms);
    /// assert!(two.soft_ms < two.movetime_ms);
    /// ```
    pub fn on_clock(game: &DiceGame, clock: &DiceClock) -> DiceLimits {
        let time = clock.time_ms.max(0) as u64;
        let inc = clock.inc_ms.max(0) as u64;
        let usable = time.saturating_sub(MOVE_OVERHEAD_MS);
        let spare = usable.saturating_sub(RESERVE_MS);
        // inc * 3 / 4 without overflow for any increment.
        let turn = (spare / turns_to_go(game, clock.movestogo))
            .saturating_add(inc / 4 * 3 + inc % 4 * 3 / 4);
        // Three dice in the middle of a turn: the share of the dice still to play.
        let left = u64::from(game.dice().count);
        let made = u64::from(game.h.micro);
        let turn = if left > 0 && made > 0 {
            ((turn as u128 * left as u128) / (left + made) as u128) as u64
        } else {
            turn
        };
        let cap = (usable as u128 * MAX_SHARE_PERCENT as u128 / 100) as u64;
        let hard = turn.min(cap).max(1);
        let soft = ((hard as u128 * SOFT_PERCENT as u128 / 100) as u64).max(1);
        DiceLimits {
            depth: 0,
            nodes: 0,
            movetime_ms: Some(hard),
            soft_ms: Some(soft),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::Roll;

    fn clock(time_ms: i64, inc_ms: i64) -> DiceClock {
        DiceClock {
            time_ms,
            inc_ms,
            movestogo: 0,
        }
    }

    fn hard(game: &DiceGame, c: DiceClock) -> u64 {
        DiceLimits::on_clock(game, &c).movetime_ms.unwrap()
    }

    /// Games of every rule set: the start, rolled, and (three dice) after a micro-move; and
    /// a bare endgame.
    fn games() -> Vec<DiceGame> {
        let mut v = Vec::new();
        for rules in Rules::ALL {
            let g = DiceGame::new(rules);
            v.push(g.clone());
            let mut rolled = g.clone();
            let roll = g.outcomes().as_slice()[0].roll;
            rolled.set_roll(roll).unwrap();
            v.push(rolled.clone());
            if rules == Rules::ThreeDice {
                let m = rolled.moves().as_slice()[0];
                rolled.make_move(m).unwrap();
                assert_eq!(rolled.dice().count, 2);
                v.push(rolled);
            }
        }
        v.push(DiceGame::from_fen(Rules::OneDie, "4k3/8/8/8/8/8/8/4K3 w - - 0 1").unwrap());
        v
    }

    #[test]
    fn budget_grows_with_the_clock_and_the_increment() {
        let clocks = [
            -100, 0, 1, 5, 20, 55, 56, 60, 100, 500, 2_000, 10_000, 60_000, 3_600_000,
        ];
        for g in games() {
            for inc in [0, 1, 10, 50, 1000] {
                let mut last = 0;
                for &t in &clocks {
                    let h = hard(&g, clock(t, inc));
                    assert!(h >= last, "{t} ms + {inc}: {h} < {last}");
                    last = h;
                }
            }
            for &t in &clocks {
                let mut last = 0;
                for inc in [0, 1, 4, 10, 100, 10_000] {
                    let h = hard(&g, clock(t, inc));
                    assert!(h >= last, "{t} ms + {inc}: {h} < {last}");
                    last = h;
                }
            }
        }
    }

    #[test]
    fn budget_never_passes_the_cap_and_is_never_zero() {
        for g in games() {
            for t in [-5, 0, 1, 3, 6, 10, 30, 56, 57, 100, 1_000, 30_000, i64::MAX] {
                for inc in [-3, 0, 2, 10, 100, 5_000, i64::MAX] {
                    for togo in [0, 1, 2, 25, 80] {
                        let c = DiceClock {
                            time_ms: t,
                            inc_ms: inc,
                            movestogo: togo,
                        };
                        let l = DiceLimits::on_clock(&g, &c);
                        let (hard, soft) = (l.movetime_ms.unwrap(), l.soft_ms.unwrap());
                        assert!(hard >= 1 && soft >= 1 && soft <= hard, "{c:?}: {l:?}");
                        assert_eq!((l.depth, l.nodes), (0, 0));
                        // At most 80% of the clock less the overhead, when that is 1 ms
                        // or more.
                        let usable = (t.max(0) as u64).saturating_sub(MOVE_OVERHEAD_MS);
                        assert!(
                            hard <= (usable as u128 * 4 / 5).max(1) as u64,
                            "{c:?}: {l:?}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn increment_is_spent_and_reserve_kept() {
        let g = DiceGame::new(Rules::TwoDice);
        // Below the reserve the turn gets three quarters of the increment.
        assert_eq!(hard(&g, clock(40, 100)), 28); // 80% of 35 ms
        assert_eq!(hard(&g, clock(200, 100)), 75 + 145 / 20);
        assert_eq!(hard(&g, clock(200, 0)), 145 / 20);
        // Movestogo replaces the turns left: the last turn before a control may take 80%.
        let c = DiceClock {
            time_ms: 1_005,
            inc_ms: 0,
            movestogo: 1,
        };
        assert_eq!(hard(&g, c), 800);
        // A tiny clock still gives 1 ms.
        assert_eq!(hard(&g, clock(3, 0)), 1);
    }

    #[test]
    fn turns_left_follow_the_rules_and_the_material() {
        let start = |r| turns_to_go(&DiceGame::new(r), 0);
        assert_eq!(start(Rules::TwoDice), 20);
        assert_eq!(start(Rules::OneDie), 18);
        assert_eq!(start(Rules::ThreeDice), 7);
        let bare = DiceGame::from_fen(Rules::TwoDice, "4k3/8/8/8/8/8/8/4K3 w - - 0 1").unwrap();
        assert_eq!(material(&bare), 0);
        assert_eq!(turns_to_go(&bare, 0), 10);
        assert_eq!(turns_to_go(&bare, 3), 3);
        assert_eq!(turns_to_go(&bare, 500), 50);
        assert_eq!(material(&DiceGame::new(Rules::OneDie)), 78);
    }

    #[test]
    fn later_micro_moves_get_the_dice_left_share() {
        let mut g = DiceGame::new(Rules::ThreeDice);
        g.set_roll(Roll::from_faces(&[1, 1, 1]).unwrap()).unwrap();
        let c = clock(60_055, 0);
        let whole = hard(&g, c);
        assert_eq!(whole, 60_000 / 7);
        let m = g.moves().as_slice()[0];
        g.make_move(m).unwrap();
        assert_eq!(hard(&g, c), whole * 2 / 3);
        let m = g.moves().as_slice()[0];
        g.make_move(m).unwrap();
        assert_eq!(hard(&g, c), whole / 3);
    }
}
