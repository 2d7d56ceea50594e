//! The search's tunables, named in one place: depth limits and margins of the pruning rules,
//! the reductions, the aspiration window. Scores are in centipawns, depths in plies. Each
//! value here is part of `chesscore bench`'s signature (`uci::bench::SIGNATURE`): changing one
//! changes what the engine does, and is kept only with a match that shows it gains.

/// Aspiration windows: the first window is the previous iteration's score +- this...
pub(crate) const ASPIRATION_DELTA: i32 = 15;
/// ...from this depth on (shallower iterations search the full window).
pub(crate) const ASPIRATION_MIN_DEPTH: i32 = 4;

/// A decisive window: a node whose beta is at least this far from zero (20 pawns, either
/// side) prunes nothing by its static evaluation (no reverse futility, razoring or null
/// move). Evaluations that large are far apart for equally won positions (a net may score one
/// queening pawn at +25 pawns and another at +41), so a margin of a few pawns says nothing,
/// and such a window is where mates are decided: a mating threat hidden behind +28 pawns of
/// static evaluation is what the mate suite (tests/mates.rs) caught with round 3's net.
pub(crate) const DECISIVE_SCORE: i32 = 2000;

/// Reverse futility pruning (static null move): at most this deep...
pub(crate) const RFP_MAX_DEPTH: i32 = 8;
/// ...a node whose evaluation beats beta by this much a ply (one ply less when improving)
/// returns the evaluation.
pub(crate) const RFP_MARGIN_PER_PLY: i32 = 80;

/// Razoring: at most this deep...
pub(crate) const RAZOR_MAX_DEPTH: i32 = 3;
/// ...a node whose evaluation is this much a ply below alpha is checked by quiescence.
pub(crate) const RAZOR_MARGIN_PER_PLY: i32 = 250;

/// Whether razoring applies right after a null move. It does not: a null move's reduced
/// search would razor into quiescence, which sees no quiet mate, so the null move "passes" a
/// mate threat (issue 29: a queen sacrifice mating in two was found at depth 15).
pub(crate) const RAZOR_AFTER_NULL_MOVE: bool = false;

/// Null-move pruning from this depth on...
pub(crate) const NMP_MIN_DEPTH: i32 = 3;
/// ...when the static evaluation is at least beta - `NMP_EVAL_PER_PLY` * depth +
/// `NMP_EVAL_BASE`.
pub(crate) const NMP_EVAL_PER_PLY: i32 = 20;
/// See [`NMP_EVAL_PER_PLY`].
pub(crate) const NMP_EVAL_BASE: i32 = 160;

/// The null move's reduction: 3 + depth / 3, plus one per 200 cp the evaluation beats beta
/// by (at most 3).
pub(crate) const fn nmp_reduction(depth: i32, eval_over_beta: i32) -> i32 {
    let by_eval = eval_over_beta / 200;
    3 + depth / 3 + if by_eval < 3 { by_eval } else { 3 }
}

/// Internal iterative reduction: a PV or cut node without a hash move, from this depth on,
/// is searched one ply shallower.
pub(crate) const IIR_MIN_DEPTH: i32 = 4;

/// Shallow pruning of moves (late moves, futility, history, SEE): at most this deep.
pub(crate) const SHALLOW_PRUNE_MAX_DEPTH: i32 = 8;

/// Late-move pruning: quiet moves after this many are pruned ((3 + depth^2), halved when
/// not improving).
pub(crate) const fn lmp_limit(depth: i32, improving: bool) -> i32 {
    (3 + depth * depth) / if improving { 1 } else { 2 }
}

/// Futility pruning of quiet moves: pruned when the static evaluation plus this margin is
/// at most alpha.
pub(crate) const fn futility_margin(depth: i32) -> i32 {
    100 + 100 * depth
}

/// History pruning of quiet moves: at most this deep...
pub(crate) const HISTORY_PRUNE_MAX_DEPTH: i32 = 3;
/// ...a quiet move whose history is below -this a ply is pruned.
pub(crate) const HISTORY_PRUNE_PER_PLY: i32 = 4000;

/// SEE pruning: a quiet move that loses more than this (a negative threshold) is pruned.
pub(crate) const fn see_quiet_threshold(depth: i32) -> i32 {
    -60 * depth
}

/// SEE pruning: a capture that loses more than this (a negative threshold) is skipped.
pub(crate) const fn see_capture_threshold(depth: i32) -> i32 {
    -25 * depth * depth
}

/// Singular extensions: from this depth on...
pub(crate) const SINGULAR_MIN_DEPTH: i32 = 8;
/// ...for a hash move whose entry is at most this much shallower...
pub(crate) const SINGULAR_TT_DEPTH_SLACK: i32 = 3;
/// ...the other moves are searched against the hash score minus this a ply.
pub(crate) const SINGULAR_MARGIN_PER_PLY: i32 = 2;

/// Late-move reductions: from this depth on, for quiet moves after the first (the first two
/// at PV nodes).
pub(crate) const LMR_MIN_DEPTH: i32 = 3;
/// Late-move reductions: one ply less per this much history.
pub(crate) const LMR_HISTORY_DIVISOR: i32 = 8000;

/// The base reduction of the `moves`-th move at `depth` (both at least 1):
/// 0.75 + ln(depth) ln(moves) / 2.25, rounded down.
pub(crate) fn lmr_base(depth: usize, moves: usize) -> u8 {
    (0.75 + (depth as f64).ln() * (moves as f64).ln() / 2.25) as u8
}

/// Quiescence delta pruning: a capture that cannot bring the stand-pat score within this
/// of alpha is skipped.
pub(crate) const QS_DELTA_MARGIN: i32 = 200;
