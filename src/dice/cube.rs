//! The doubling cube (issue 30 item 3): backgammon's cube, the dicechess sites' X2 mode.
//!
//! A game is played for the cube's value (1 at the start). Before a roll, the side to move
//! may double if the cube is centred or its own: the other side takes (the game goes on for
//! twice the stake and the taker owns the cube) or passes (and loses the current stake). A
//! win scores the stake, a draw 0. The advice here is a pure function of the side to move's
//! win, draw and loss chances before the roll (`DiceEngine::equity`) and the cube's state;
//! the reasoning and the thresholds are in docs/dice.md, "The doubling cube".
//!
//! # The model
//! Equities are in units of the current stake, for the side to move, with `p` its expected
//! score (`win + draw / 2`: a draw is worth half, as it is worth 0 points while a win is
//! +1 and a loss -1, so the equity without a cube is `2p - 1`). Janowski's interpolation:
//! the cubeful equity is `x * live + (1 - x) * dead`, `x` the cube's efficiency (0: a dead
//! cube, nobody doubles again; 1: a fully live cube, chances moving continuously so that a
//! double comes exactly at the opponent's take point). `dead = 2p - 1`; `live`, with no
//! gammons and a continuous game whose take point is 20% and cash point 80%:
//! * cube centred: `(10p - 5) / 3` (from -1 at 20% to +1 at 80%);
//! * cube ours: `2.5p - 1` (from -1 at 0 to +1 at 80%);
//! * cube theirs: `2.5p - 1.5` (from -1 at 20% to +1 at 100%);
//!
//! each clamped to `-1..=1`. The taker takes when taking (twice the stake, owning the cube)
//! is worth at least passing: `2 E(1 - p, ours) >= -1`, which is `1 - p >= 1 / (4 + x)` (25%
//! with a dead cube, 20% with a live one). The doubler doubles when the better of the
//! taker's answers for the taker is still no worse for the doubler than not doubling:
//! `min(2 E(p, theirs), 1) >= E(p, now)` (a tie doubles: past the cash point the live
//! equity of not doubling is 1 only because it assumes the double).
//!
//! Dice Chess games swing a lot in one roll (a king capture ends the game), so the cube is
//! far from continuous: [`CUBE_EFFICIENCY`] is set low.

use crate::dice::eval::wdl::Wdl;

/// Who may double next.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum CubeOwner {
    /// Either side (the start).
    Centered,
    /// The side to move (it took the last double).
    Mover,
    /// The other side: the side to move may not double.
    Opponent,
}

/// The cube: its value (the stake, 1, 2, 4 ...) and who may double.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Cube {
    /// The stake.
    pub value: u32,
    /// Who may double next.
    pub owner: CubeOwner,
}

impl Default for Cube {
    fn default() -> Cube {
        Cube {
            value: 1,
            owner: CubeOwner::Centered,
        }
    }
}

/// The cube's efficiency in [`advise`] by default (see the [module docs](self)).
pub const CUBE_EFFICIENCY: f64 = 0.5;

/// The advice for one pre-roll position.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct CubeAdvice {
    /// The side to move should double (false when it may not).
    pub double: bool,
    /// The other side should take a double (whether or not one is advised).
    pub take: bool,
    /// Cubeful equity without doubling, in units of the stake, for the side to move.
    pub no_double: f64,
    /// Cubeful equity after double and take, in units of the current stake.
    pub double_take: f64,
}

/// The fully live cube's equity for the side to move with expected score `p`.
fn live(p: f64, owner: CubeOwner) -> f64 {
    let e = match owner {
        CubeOwner::Centered => (10.0 * p - 5.0) / 3.0,
        CubeOwner::Mover => 2.5 * p - 1.0,
        CubeOwner::Opponent => 2.5 * p - 1.5,
    };
    e.clamp(-1.0, 1.0)
}

/// The cubeful equity (units of the stake) for the side to move with expected score `p`,
/// Janowski's interpolation between the dead cube (`2p - 1`) and the live one at efficiency
/// `x`.
pub fn cubeful_equity(p: f64, owner: CubeOwner, x: f64) -> f64 {
    x * live(p, owner) + (1.0 - x) * (2.0 * p - 1.0)
}

/// The taker's take point at efficiency `x`: take with an expected score of at least this,
/// `1 / (4 + x)` (25% dead, 20% live).
pub fn take_point(x: f64) -> f64 {
    1.0 / (4.0 + x)
}

/// Double / no double and take / pass for the side to move with chances `wdl` before the
/// roll, under `cube`, at cube efficiency `x` ([`CUBE_EFFICIENCY`] for the library's
/// advice).
pub fn advise_with(wdl: &Wdl, cube: Cube, x: f64) -> CubeAdvice {
    let p = wdl.expected_score().clamp(0.0, 1.0);
    let no_double = cubeful_equity(p, cube.owner, x);
    let double_take = 2.0 * cubeful_equity(p, CubeOwner::Opponent, x);
    let take = 2.0 * cubeful_equity(1.0 - p, CubeOwner::Mover, x) >= -1.0;
    let may = cube.owner != CubeOwner::Opponent;
    CubeAdvice {
        double: may && double_take.min(1.0) >= no_double,
        take,
        no_double,
        double_take,
    }
}

/// [`advise_with`] at [`CUBE_EFFICIENCY`].
pub fn advise(wdl: &Wdl, cube: Cube) -> CubeAdvice {
    advise_with(wdl, cube, CUBE_EFFICIENCY)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn score(p: f64) -> Wdl {
        Wdl {
            win: p,
            draw: 0.0,
            loss: 1.0 - p,
        }
    }

    const CENTRED: Cube = Cube {
        value: 1,
        owner: CubeOwner::Centered,
    };
    const OURS: Cube = Cube {
        value: 2,
        owner: CubeOwner::Mover,
    };
    const THEIRS: Cube = Cube {
        value: 2,
        owner: CubeOwner::Opponent,
    };

    /// The smallest expected score (to 1e-4) where `f` turns true, scanning up from 0.
    fn threshold(f: impl Fn(f64) -> bool) -> f64 {
        (0..=10_000)
            .map(|i| i as f64 / 10_000.0)
            .find(|&p| f(p))
            .unwrap_or(2.0)
    }

    #[test]
    fn take_points_dead_and_live() {
        // Dead cube: pass -1 against take 2(2q - 1): q >= 1/4. Live: q >= 1/5.
        assert!((take_point(0.0) - 0.25).abs() < 1e-12);
        assert!((take_point(1.0) - 0.2).abs() < 1e-12);
        for x in [0.0, 0.5, 1.0] {
            // The doubler at p takes the taker to 1 - p: the advice flips at 1 - take point.
            let t = threshold(|p| !advise_with(&score(p), CENTRED, x).take);
            assert!((t - (1.0 - take_point(x))).abs() < 2e-4, "x {x}: {t}");
        }
    }

    #[test]
    fn double_points_by_hand() {
        // Dead cube, centred: 2(2p - 1) > 2p - 1 from p > 1/2.
        let t = threshold(|p| advise_with(&score(p), CENTRED, 0.0).double);
        assert!((t - 0.5).abs() < 2e-4, "{t}");
        // Live cube, centred: 2(2.5p - 1.5) >= (10p - 5) / 3 from p = 0.8, the cash point.
        let t = threshold(|p| advise_with(&score(p), CENTRED, 1.0).double);
        assert!((t - 0.8).abs() < 2e-4, "{t}");
        // x = 1/2, centred: 4.5p - 2.5 > (8p - 4) / 3, p > 7/11.
        let t = threshold(|p| advise_with(&score(p), CENTRED, 0.5).double);
        assert!((t - 7.0 / 11.0).abs() < 2e-4, "{t}");
        // x = 1/2, our cube (a redouble): 4.5p - 2.5 > 2.25p - 1, p > 2/3.
        let t = threshold(|p| advise_with(&score(p), OURS, 0.5).double);
        assert!((t - 2.0 / 3.0).abs() < 2e-4, "{t}");
        // Their cube: never.
        assert!(!advise_with(&score(0.99), THEIRS, 0.5).double);
    }

    #[test]
    fn draws_count_half() {
        // 40% wins and 40% draws is an expected score of 0.6, as 60% wins and no draws.
        let a = advise(
            &Wdl {
                win: 0.4,
                draw: 0.4,
                loss: 0.2,
            },
            CENTRED,
        );
        let b = advise(&score(0.6), CENTRED);
        assert!((a.no_double - b.no_double).abs() < 1e-12);
        assert_eq!((a.double, a.take), (b.double, b.take));
    }

    #[test]
    fn equities_by_hand() {
        // p = 0.7, x = 0.5, centred: 0.5 * 2/3 + 0.5 * 0.4 = 8/15; after double and take
        // 2 * (0.5 * 0.25 + 0.5 * 0.4) = 0.65: a double (0.65 > 0.533), and a take (the
        // taker's 0.3 is above 1 / 4.5).
        let a = advise_with(&score(0.7), CENTRED, 0.5);
        assert!((a.no_double - 8.0 / 15.0).abs() < 1e-12, "{a:?}");
        assert!((a.double_take - 0.65).abs() < 1e-12, "{a:?}");
        assert!(a.double && a.take);
        // p = 0.85: the taker passes (0.15 < 0.222); double, worth the stake.
        let a = advise_with(&score(0.85), CENTRED, 0.5);
        assert!(a.double && !a.take, "{a:?}");
    }
}
