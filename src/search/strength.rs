//! Play at a chosen strength: the `UCI_LimitStrength` and `UCI_Elo` options.
//!
//! The weakening imitates a weaker player rather than a strong one that blunders at random:
//! - **It sees less.** The search gets a node budget that doubles every [`ELO_PER_DOUBLING`]
//!   Elo from [`NODES_AT_MIN_ELO`] at [`ELO_MIN`] (a user's `go nodes` or clock still applies
//!   when it is smaller). Fewer nodes means shallower tactics and a shakier positional
//!   judgement, the way a weaker engine or a hurried human misses things.
//! - **It is not always sure which good move is best.** The search runs as MultiPV with at
//!   least [`LINES`] lines; the move played is drawn from the last completed iteration's
//!   lines with a softmax over their scores, `weight = exp(-(best - score) / T)`, whose
//!   temperature `T` falls geometrically from [`TEMPERATURE_AT_MIN_ELO`] to
//!   [`TEMPERATURE_AT_MAX_ELO`] centipawns.
//! - **It never throws the game away on purpose.** A line more than `margin` centipawns
//!   below the best is never chosen; the margin falls geometrically from [`MARGIN_AT_MIN_ELO`] to
//!   [`MARGIN_AT_MAX_ELO`]. A mate found stays (a non-mating line is a mate's score away), and
//!   a line that loses to a mate is never chosen when a line that does not exists.
//!
//! The draw is seeded: the same position in the same game (counted by `ucinewgame`) at the
//! same Elo gives the same move, so tests are reproducible; games differ through the game
//! counter and the positions. The choice runs once a search, after it: no allocation, no work
//! inside the search's nodes. Every tunable is in the block below; the calibration against
//! Stockfish's `UCI_Elo` scale is in docs/results/strength.md.

use super::{INFINITE, MATE_BOUND};
use crate::moves::Move;

// ---- Tunables (calibrated by matches: docs/results/strength.md) ------------------------

/// The lowest `UCI_Elo` (the bottom of Stockfish's limited scale is 1320 in Stockfish 16 and
/// later, 1350 in 15.1).
pub(crate) const ELO_MIN: i64 = 1320;
/// The highest `UCI_Elo`: about the most the engine reaches at full strength on Stockfish's
/// scale at 5 s + 0.05 s (Stockfish 15.1 at 2850 scored 82.5% against it, about 2580, issue
/// 29; at 2500 it scored 24.2%, about 2300). A higher setting would promise a strength the
/// engine does not have.
pub(crate) const ELO_MAX: i64 = 2600;
/// The default `UCI_Elo` (used only while `UCI_LimitStrength` is on).
pub(crate) const ELO_DEFAULT: i64 = 1800;

/// The node budget at [`ELO_MIN`]...
pub(crate) const NODES_AT_MIN_ELO: f64 = 1000.0;
/// ...doubles every this many Elo.
pub(crate) const ELO_PER_DOUBLING: f64 = 120.0;

/// The MultiPV lines the choice draws from (at least; more when `MultiPV` asks for more)...
pub(crate) const LINES: usize = 4;
/// ...and at most (the lines recorded after each iteration).
pub(crate) const MAX_LINES: usize = 8;

/// The softmax temperature in centipawns at [`ELO_MIN`]...
pub(crate) const TEMPERATURE_AT_MIN_ELO: f64 = 40.0;
/// ...and at [`ELO_MAX`].
pub(crate) const TEMPERATURE_AT_MAX_ELO: f64 = 3.0;

/// The most centipawns below the best line a chosen line may be, at [`ELO_MIN`]...
pub(crate) const MARGIN_AT_MIN_ELO: i32 = 200;
/// ...and at [`ELO_MAX`].
pub(crate) const MARGIN_AT_MAX_ELO: i32 = 20;

// ---- The mapping ---------------------------------------------------------------------------

/// Where `elo` lies between [`ELO_MIN`] (0) and [`ELO_MAX`] (1).
fn fraction(elo: i64) -> f64 {
    let e = elo.clamp(ELO_MIN, ELO_MAX);
    (e - ELO_MIN) as f64 / (ELO_MAX - ELO_MIN) as f64
}

/// The node budget of one search at `elo`.
pub(crate) fn node_limit(elo: i64) -> u64 {
    let e = elo.clamp(ELO_MIN, ELO_MAX);
    let doublings = (e - ELO_MIN) as f64 / ELO_PER_DOUBLING;
    (NODES_AT_MIN_ELO * doublings.exp2()) as u64
}

/// The softmax temperature at `elo` (centipawns): geometric between the two ends.
pub(crate) fn temperature(elo: i64) -> f64 {
    let f = fraction(elo);
    TEMPERATURE_AT_MIN_ELO * (TEMPERATURE_AT_MAX_ELO / TEMPERATURE_AT_MIN_ELO).powf(f)
}

/// The largest loss against the best line a chosen line may have at `elo` (centipawns):
/// geometric between the two ends.
pub(crate) fn margin(elo: i64) -> i32 {
    let f = fraction(elo);
    let ratio = MARGIN_AT_MAX_ELO as f64 / MARGIN_AT_MIN_ELO as f64;
    (MARGIN_AT_MIN_ELO as f64 * ratio.powf(f)).round() as i32
}

/// A seed for the position with hash `key` in game number `game` at `elo`.
pub(crate) fn seed(key: u64, game: u64, elo: i64) -> u64 {
    splitmix64(key ^ splitmix64(game.wrapping_add(0x5EED)) ^ (elo as u64).rotate_left(32))
}

/// SplitMix64's output function.
fn splitmix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The index of the line to play among `lines` (move and score, best first, as the last
/// completed iteration left them; at least one), drawn with `seed` at `elo`.
pub(crate) fn choose(lines: &[(Move, i32)], elo: i64, seed: u64) -> usize {
    let Some(&(_, best)) = lines.first() else {
        return 0;
    };
    let margin = margin(elo);
    let t = temperature(elo);
    // A line is a candidate when it is close enough to the best, and not mated when the best
    // is not (mate scores differ by thousands from any other, so the margin sees to it).
    let loss = |s: i32| -> Option<f64> {
        if s <= -INFINITE + 1 {
            return None;
        }
        let d = best.saturating_sub(s).max(0);
        if d > margin || (s < -MATE_BOUND && best >= -MATE_BOUND) {
            return None;
        }
        Some(d as f64)
    };
    let mut total = 0.0;
    for &(_, s) in lines {
        if let Some(d) = loss(s) {
            total += (-d / t).exp();
        }
    }
    // A uniform draw in [0, total).
    let u = (seed >> 11) as f64 / (1u64 << 53) as f64 * total;
    let mut acc = 0.0;
    let mut pick = 0;
    for (i, &(_, s)) in lines.iter().enumerate() {
        if let Some(d) = loss(s) {
            acc += (-d / t).exp();
            pick = i;
            if u < acc {
                break;
            }
        }
    }
    pick
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_mapping_is_monotonic_and_spans_its_range() {
        assert_eq!(node_limit(ELO_MIN), NODES_AT_MIN_ELO as u64);
        assert_eq!(node_limit(ELO_MIN - 500), node_limit(ELO_MIN));
        assert_eq!(margin(ELO_MIN), MARGIN_AT_MIN_ELO);
        assert_eq!(margin(ELO_MAX), MARGIN_AT_MAX_ELO);
        assert!((temperature(ELO_MAX) - TEMPERATURE_AT_MAX_ELO).abs() < 1e-9);
        for e in ELO_MIN..ELO_MAX {
            assert!(node_limit(e) <= node_limit(e + 1));
            assert!(margin(e) >= margin(e + 1));
            assert!(temperature(e) >= temperature(e + 1));
        }
        // One doubling of the budget every ELO_PER_DOUBLING Elo.
        let e = ELO_MIN + ELO_PER_DOUBLING as i64;
        assert!((node_limit(e) as f64 / NODES_AT_MIN_ELO - 2.0).abs() < 0.01);
    }

    fn lines(scores: &[i32]) -> Vec<(Move, i32)> {
        scores.iter().map(|&s| (Move::NONE, s)).collect()
    }

    #[test]
    fn the_choice_respects_the_margin_and_the_mates() {
        let l = lines(&[50, 40, 50 - MARGIN_AT_MIN_ELO - 1, -MATE_BOUND - 5]);
        let mut seen = [0; 4];
        for k in 0..2000u64 {
            seen[choose(&l, ELO_MIN, splitmix64(k))] += 1;
        }
        assert!(seen[0] > 0 && seen[1] > 0, "{seen:?}");
        assert_eq!((seen[2], seen[3]), (0, 0), "{seen:?}");
        // Line 1 is 10 cp worse: chosen less often than line 0, but often at the bottom.
        assert!(seen[1] < seen[0] && seen[1] > 600, "{seen:?}");

        // At the top, a line 30 cp worse than the best is never played.
        let l = lines(&[10, 10 - MARGIN_AT_MAX_ELO - 5]);
        assert!((0..2000u64).all(|k| choose(&l, ELO_MAX, splitmix64(k)) == 0));
        // A single line, or a mate found, is always played.
        assert!((0..200u64).all(|k| choose(&lines(&[3]), ELO_MIN, splitmix64(k)) == 0));
        let l = lines(&[MATE_BOUND + 20, 900, 800]);
        assert!((0..2000u64).all(|k| choose(&l, ELO_MIN, splitmix64(k)) == 0));
    }

    #[test]
    fn seeds_differ_across_games_and_positions() {
        assert_ne!(seed(1, 0, 1500), seed(1, 1, 1500));
        assert_ne!(seed(1, 0, 1500), seed(2, 0, 1500));
        assert_eq!(seed(7, 3, 2000), seed(7, 3, 2000));
    }
}
