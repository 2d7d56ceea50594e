//! Time management: how long the search may think, from the UCI limits.
//!
//! Two budgets: the *soft* one is checked between iterations (an iteration that starts after
//! it would rarely finish in time) and stretched or shrunk by how stable the best move is;
//! the *hard* one is checked every few thousand nodes and stops the search outright. With a
//! clock of `time` ms, increment `inc` and `mtg` moves to go (25 when not given, sudden
//! death), the soft budget is `time / mtg + inc * 3/4`, the hard one five times that, both
//! capped at `time` minus the move overhead minus a 20% reserve, so the clock can never reach
//! zero: each move takes a bounded fraction of what is left.

use super::Limits;
use crate::types::Color;

/// The budgets of one search (milliseconds, `None` = unlimited).
#[derive(Copy, Clone, Debug)]
pub struct TimeBudget {
    /// Do not start a new iteration after this (scaled by stability).
    pub soft_ms: Option<u64>,
    /// Stop the search at this.
    pub hard_ms: Option<u64>,
}

impl TimeBudget {
    /// The budget for `side` under `limits` with `overhead_ms` lost per move to
    /// communication.
    pub fn new(limits: &Limits, side: Color, overhead_ms: u64) -> TimeBudget {
        if let Some(mt) = limits.movetime_ms {
            let t = mt.saturating_sub(overhead_ms).max(1);
            return TimeBudget {
                soft_ms: Some(t),
                hard_ms: Some(t),
            };
        }
        let (time, inc) = if side == Color::WHITE {
            (limits.wtime_ms, limits.winc_ms)
        } else {
            (limits.btime_ms, limits.binc_ms)
        };
        let Some(time) = time else {
            return TimeBudget {
                soft_ms: None,
                hard_ms: None,
            };
        };
        let time = time.max(0) as u64;
        let inc = inc.unwrap_or(0).max(0) as u64;
        let mtg = if limits.movestogo > 0 {
            (limits.movestogo as u64).min(50)
        } else {
            25
        };
        // What may be spent on this move at most: the clock minus the overhead, minus a
        // reserve (more than the overhead for the moves still to come).
        let usable = time
            .saturating_sub(overhead_ms)
            .saturating_sub(time / 5)
            .max(1);
        // inc * 3 / 4 without overflow for any increment.
        let soft = (time / mtg)
            .saturating_add(inc / 4 * 3 + inc % 4 * 3 / 4)
            .min(usable);
        let hard = if limits.movestogo == 1 {
            usable
        } else {
            soft.saturating_mul(5).min(usable)
        };
        TimeBudget {
            soft_ms: Some(soft.max(1)),
            hard_ms: Some(hard.max(1)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn budgets_leave_time_on_the_clock() {
        // 1 s + 10 ms increment: a move takes at most 80% of the clock minus the overhead.
        let mut l = Limits {
            wtime_ms: Some(1000),
            winc_ms: Some(10),
            ..Limits::default()
        };
        let b = TimeBudget::new(&l, Color::WHITE, 10);
        assert_eq!(b.soft_ms, Some(1000 / 25 + 7));
        assert_eq!(b.hard_ms, Some(5 * 47));
        // Almost flagged: still a positive budget, well under what is left.
        l.wtime_ms = Some(30);
        let b = TimeBudget::new(&l, Color::WHITE, 10);
        assert!(b.hard_ms.unwrap() <= 14 && b.hard_ms.unwrap() >= 1);
        // Black's clock is not White's.
        assert_eq!(TimeBudget::new(&l, Color::BLACK, 10).hard_ms, None);
        // Movetime wins.
        l.movetime_ms = Some(500);
        assert_eq!(TimeBudget::new(&l, Color::WHITE, 10).hard_ms, Some(490));
    }
}
