//! The search proper: expectimax over chance nodes (awaiting the roll) and decision nodes
//! (the roll known), negamax style, with Star1 and Star2 pruning at chance nodes, alpha-beta
//! at decision nodes and the transposition table.
//!
//! # Nodes and depth
//! A *chance node* is a game awaiting its roll: its value is the weighted average of its
//! outcomes' decision nodes, `floor(sum(w_i * v_i) / D)` with the exact integer weights (the
//! floor keeps every bound below exact, see Star1). It costs no depth. A *decision node* is
//! a game with its dice rolled: the best of its moves (or the pass when it has none). A move
//! that ends the turn leads to the opponent's chance node one turn (one depth) deeper, whose
//! value is negated; a three-dice micro-move that leaves the turn going leads to the same
//! side's decision node at the same depth (a turn is one ply, whatever its micro-moves). At
//! depth 0 a chance node takes the static evaluation, or with
//! [`super::Leaves::Quiescence`] the roll-aware capture search of `quiescence`.
//!
//! # Value scale
//! Heuristic values lie in `-EVAL_MAX..=EVAL_MAX` ([`crate::dice::eval::EVAL_MAX`]); a king
//! capture (or a two-dice mate) `ply` turns from the root is worth `WIN - ply` (see
//! [`super::WIN`]), and every value of the search lies in `-WIN..=WIN`: these are the bounds
//! `L` and `U` of Star1.
//!
//! # Star1 (at every chance node)
//! Before outcome `i` (weight `w`) is searched, with `S` the weighted sum of the outcomes
//! done and `R_U`, `R_L` the weights of the outcomes left times `U` and times their lower
//! bounds (`L`, or the Star2 probe's value), the child's window is
//! `a = floor((alpha*D - S - R_U) / w)`, `b = ceil((beta*D - S - R_L) / w)`: a child value at
//! most `a` proves the node at most `alpha` (it returns that bound), one at least `b` proves
//! it at least `beta`. All arithmetic is integer (`i64`), so the bounds are exact, and a
//! chance node whose loop finishes has searched every outcome exactly: its value is exact.
//!
//! # Star2 (probing, when beta is below U)
//! Each outcome's decision node is first probed with one move only (the table's or the best
//! ordered one), as a null window test against the value it needs for the whole node to
//! reach `beta` if every later outcome did its best. The value of one move bounds the
//! decision node from below: when the probed lower bounds reach `beta*D` the node fails high
//! without a full search; when a probe falls short the probing stops (no cutoff is possible
//! any more) and the lower bounds found so far tighten the Star1 phase's fail-high test.
//! With leaf probes ([`super::Pruning::Star2`]), at depth 1 (one and two dice) a probe's child
//! is a static evaluation, so its value is exact whatever the window: every outcome is
//! probed (a failed probe is still a lower bound) and the Star1 phase does not search the
//! probed move again (`Strategy::Seeded` in `decision.rs`).
//!
//! # Tighter bounds ([`super::SearchConfig::bounds`])
//! `L` and `U` per outcome: nothing beats a king capture now (`WIN - ply`), so an outcome
//! whose dice can take the king (one and two dice) is worth exactly that and is not
//! searched; the side to move cannot lose before the next turn; at depth 1 an outcome
//! without a king capture lies in `-EVAL_MAX..=EVAL_MAX` (one die; two dice may mate). A
//! decision node stops at a king capture.
//!
//! # Per-type sharing ([`super::SearchConfig::share_types`], two dice)
//! A two-dice roll allows the moves of its two types (all six on doubles), and the
//! position after a move does not depend on the roll. So below the root turn a chance node
//! keeps, per piece type, what it learnt of that type's moves (value and bound under the
//! window it was searched with, and the best move); an outcome's decision node is alpha-beta
//! over its types (`Strategy::Types` in `decision.rs`), each type settled by what is known when
//! the bound decides under the window left, else searched (`Strategy::OneType`, with a
//! table entry of its own) and the result kept for the later outcomes. Star2's successful
//! probes are lower bounds of their move's type, shared the same way. A fail-soft value is
//! the same whichever way it is combined, so the value stays exact.
//!
//! # Sleep sets ([`super::SearchConfig::sleep_sets`], three dice)
//! Below the root turn a decision node passes to each child the moves it explored before
//! (and those asleep at itself) that commute with the child's move; the child does not search
//! them (`Strategy::Moves` with a sleep set), so each set of commuting micro-moves is searched in one
//! order. Every end of the turn is still reached and the turn's value is unchanged; a node
//! with moves asleep is not stored in the table (see `sleep.rs`).
//!
//! # Exactness
//! At a fixed depth every configuration returns the same root value as plain expectimax:
//! each cutoff is proven by integer bounds, table entries are reused only for the same
//! remaining depth and the same distance from the root in the exact mode
//! ([`super::TableMode::Exact`]), and root-turn decision nodes break ties between equal
//! values by the smallest raw move, not by search order, so the root move and turn are the
//! same too.

use super::config::Techniques;
use super::evalcache::EvalCache;
use super::order;
use super::tt::{Bound, DiceTable};
use super::WIN;
use crate::dice::eval::DiceEvaluator;
use crate::dice::game::DiceGame;
use crate::dice::roll::{Outcome, Outcomes, MAX_OUTCOMES};
use crate::dice::rules::Rules;
use crate::dice::status::DiceStatus;
use crate::moves::Move;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Instant;

/// Below every value.
pub(crate) const NEG_INF: i32 = -WIN - 1;
/// Above every value.
pub(crate) const POS_INF: i32 = WIN + 1;
/// The bounds of every value (Star1's L and U).
pub(super) const L: i32 = -WIN;
pub(super) const U: i32 = WIN;

/// A chance node's outcomes, in search order, with the denominator.
#[derive(Copy, Clone)]
pub(crate) struct OutcomeList {
    pub(crate) list: [Outcome; MAX_OUTCOMES],
    pub(crate) len: usize,
    pub(crate) denominator: u32,
}

impl OutcomeList {
    /// `o` merged and ordered as `config` says: with sharing, the six two-dice doubles (which
    /// allow the same moves) are one outcome of weight 6; with ordering, heaviest first.
    pub(crate) fn new(o: &Outcomes, config: &Techniques, rules: Rules) -> OutcomeList {
        let mut out = OutcomeList {
            list: [Outcome::default(); MAX_OUTCOMES],
            len: 0,
            denominator: o.denominator(),
        };
        let mut doubles_at = usize::MAX;
        for oc in o.as_slice() {
            if config.sharing && rules == Rules::TwoDice && oc.roll.is_doubles() {
                if doubles_at == usize::MAX {
                    doubles_at = out.len;
                } else {
                    out.list[doubles_at].weight += oc.weight;
                    continue;
                }
            }
            out.list[out.len] = *oc;
            out.len += 1;
        }
        if config.ordering {
            order::sort_outcomes(&mut out.list[..out.len]);
        }
        out
    }

    pub(crate) fn as_slice(&self) -> &[Outcome] {
        &self.list[..self.len]
    }
}

/// What a chance node knows of one piece type's moves (two-dice per-type sharing): nothing
/// yet (`bound` [`Bound::None`]), no move (`empty`), or the best value with its bound under
/// the window it was searched with, and the best move. Slot 0 holds the pass.
#[derive(Copy, Clone)]
pub(crate) struct NodeResult {
    pub(crate) bound: Bound,
    pub(crate) empty: bool,
    pub(crate) value: i32,
    pub(crate) best: Move,
}

impl NodeResult {
    pub(crate) const UNKNOWN: NodeResult = NodeResult {
        bound: Bound::None,
        empty: false,
        value: 0,
        best: Move::NONE,
    };

    /// True when the result settles the type under the window `alpha..beta` (fail-soft).
    #[inline]
    pub(crate) fn decides(&self, alpha: i32, beta: i32) -> bool {
        match self.bound {
            Bound::None => false,
            _ if self.empty => true,
            Bound::Exact => true,
            Bound::Lower => self.value >= beta,
            Bound::Upper => self.value <= alpha,
        }
    }
}

/// The bound a fail-soft value `v` searched under `alpha..beta` stands for.
#[inline]
pub(crate) fn bound_of(v: i32, alpha: i32, beta: i32) -> Bound {
    if v >= beta {
        Bound::Lower
    } else if v <= alpha {
        Bound::Upper
    } else {
        Bound::Exact
    }
}

/// The best line of the root turn: up to three micro-moves (one move in one and two dice;
/// the pass is an empty line).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct TurnLine {
    /// The moves, `len` of them.
    pub moves: [Move; 3],
    /// How many.
    pub len: usize,
}

impl TurnLine {
    /// The moves.
    pub fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len]
    }

    /// The first move, [`Move::NONE`] for the pass.
    pub fn first(&self) -> Move {
        if self.len == 0 {
            Move::NONE
        } else {
            self.moves[0]
        }
    }
}

/// Everything one search uses besides the game: the table, evaluator, configuration,
/// counters and stop conditions. A clone shares the table and the stop flag (helper
/// threads are made so) and has an evaluator of its own.
#[derive(Clone)]
pub(crate) struct Searcher {
    /// The table, shared with the engine's other search threads.
    pub(crate) tt: Arc<DiceTable>,
    pub(crate) eval: DiceEvaluator,
    pub(crate) config: Techniques,
    pub(crate) fixed: [OutcomeList; 3],
    /// Three dice with [`Sampling::ThreeDice`](super::Sampling::ThreeDice): this search's
    /// sample of the outcomes, which every chance node below the root takes
    /// ([`Searcher::draw_sample`]); `None` otherwise.
    pub(crate) sampled: Option<OutcomeList>,
    pub(crate) nodes: u64,
    pub(crate) node_limit: u64,
    pub(crate) start: Instant,
    pub(crate) hard_ms: Option<u64>,
    pub(crate) stop: Arc<AtomicBool>,
    pub(crate) aborted: bool,
    /// Root-turn lines: `lines[k]` is the best line from micro-move `k` of the root turn.
    pub(crate) lines: [TurnLine; 4],
    /// The micro-move index of the search's root decision node (`usize::MAX`: the root is
    /// a chance node).
    pub(crate) root_micro: usize,
    /// The previous iteration's best root move, searched first.
    pub(crate) root_prev: Move,
    /// Whether this iteration has searched `root_prev` completely.
    pub(crate) root_prev_done: bool,
    /// The value of this iteration's best completely searched root move.
    pub(crate) root_best: i32,
    /// With several threads: the nodes of every thread, each adding its own every 1024
    /// nodes, for the node limit (`None` with one thread: the limit counts `nodes`).
    pub(crate) shared_nodes: Option<Arc<AtomicU64>>,
    /// The part of `nodes` already added to `shared_nodes`.
    pub(crate) published: u64,
    /// A helper thread's root move rotation (0 on the main thread): its root moves are
    /// searched in another order, so the threads fill the table with different subtrees.
    pub(crate) root_rotate: usize,
    /// `(i, n)`: this is thread `i` (0: the main thread) of `n`; with
    /// [`SearchConfig::split_outcomes`](super::SearchConfig::split_outcomes) a helper
    /// searches a chance node's outcomes from outcome `i * len / n` on.
    pub(crate) outcome_split: (usize, usize),
    /// This thread's static values by game key ([`SearchConfig::eval_cache`]).
    pub(crate) eval_cache: EvalCache,
}

#[inline]
pub(super) fn floor_div(a: i64, b: i64) -> i64 {
    a.div_euclid(b)
}

#[inline]
pub(super) fn ceil_div(a: i64, b: i64) -> i64 {
    -((-a).div_euclid(b))
}

#[inline]
pub(super) fn clamp_window(v: i64) -> i32 {
    v.clamp(NEG_INF as i64, POS_INF as i64) as i32
}

/// The outcomes every chance node below the root takes in a search from `root` under
/// `config`: three dice with sampling, `config.sample_rolls` rolls drawn from the root's
/// key ([`Outcomes::sample`]); `None` (every outcome) otherwise.
pub(crate) fn sample_for(config: &Techniques, root: &DiceGame) -> Option<Outcomes> {
    if root.rules() != Rules::ThreeDice {
        return None;
    }
    Outcomes::fixed(Rules::ThreeDice).sample(config.sample_rolls as u32, super::tt::node_key(root))
}

/// The value of a finished game for its side to move, `ply` turns from the root (a king
/// captured or a mate: a win or a loss now; a draw: 0); `None` while the game goes on.
#[inline]
pub(super) fn terminal_value(game: &DiceGame, ply: u32) -> Option<i32> {
    match game.status() {
        DiceStatus::Won { winner, .. } if winner == game.side_to_move() => Some(WIN - ply as i32),
        DiceStatus::Won { .. } => Some(-(WIN - ply as i32)),
        DiceStatus::Drawn(_) => Some(0),
        _ => None,
    }
}

/// Star1's running sums at a chance node of denominator `d` (see the module docs): `sum`,
/// the outcomes done (weight times value); `rest_ub` and `rest_lb`, the outcomes left
/// (weight times upper bound, times lower bound). Shared by the search's chance nodes and
/// the quiescence's.
#[derive(Copy, Clone)]
pub(super) struct Star1 {
    pub(super) d: i64,
    pub(super) sum: i64,
    pub(super) rest_ub: i64,
    pub(super) rest_lb: i64,
}

impl Star1 {
    /// Takes the outcome of weight `w` with bounds `lo..=hi` out of the outcomes left.
    #[inline]
    pub(super) fn take(&mut self, w: i64, lo: i32, hi: i32) {
        self.rest_ub -= w * hi as i64;
        self.rest_lb -= w * lo as i64;
    }

    /// The window `(a, b)` of the next outcome (weight `w`), taken: a value at most `a`
    /// proves the node at most `alpha`, one at least `b` proves it at least `beta`. Open
    /// without `pruning`.
    #[inline]
    pub(super) fn window(&self, pruning: bool, w: i64, alpha: i32, beta: i32) -> (i32, i32) {
        if !pruning {
            return (NEG_INF, POS_INF);
        }
        (
            clamp_window(floor_div(
                alpha as i64 * self.d - self.sum - self.rest_ub,
                w,
            )),
            clamp_window(ceil_div(beta as i64 * self.d - self.sum - self.rest_lb, w)),
        )
    }

    /// The node's bound when the outcome of weight `w` got `v` outside its window `(a, b)`
    /// (an upper bound at most `a`, a lower bound at least `b`); `None` inside it or without
    /// `pruning`.
    #[inline]
    pub(super) fn cut(
        &self,
        pruning: bool,
        w: i64,
        v: i32,
        (a, b): (i32, i32),
    ) -> Option<(i32, Bound)> {
        let (rest, bound) = if pruning && v <= a {
            (self.rest_ub, Bound::Upper)
        } else if pruning && v >= b {
            (self.rest_lb, Bound::Lower)
        } else {
            return None;
        };
        Some((
            floor_div(self.sum + w * v as i64 + rest, self.d) as i32,
            bound,
        ))
    }

    /// Adds the value `v` of the outcome of weight `w`.
    #[inline]
    pub(super) fn add(&mut self, w: i64, v: i32) {
        self.sum += w * v as i64;
    }

    /// The node's value once every outcome is added.
    #[inline]
    pub(super) fn value(&self) -> i32 {
        floor_div(self.sum, self.d) as i32
    }
}

impl Searcher {
    /// Counts a node; every 1024 nodes checks time, the node limit and the stop flag.
    #[inline]
    pub(super) fn tick(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes & 1023 == 0 {
            self.check_limits();
        }
        self.aborted
    }

    pub(crate) fn check_limits(&mut self) {
        // (With several threads this also publishes this thread's nodes.)
        let nodes = self.total_nodes();
        if self.stop.load(Ordering::Relaxed)
            || (self.node_limit > 0 && nodes >= self.node_limit)
            || self
                .hard_ms
                .is_some_and(|ms| self.start.elapsed().as_millis() as u64 >= ms)
        {
            self.aborted = true;
        }
    }

    /// The nodes of this search: this thread's, or with several threads every thread's as
    /// far as published (this one's published first, every 1024 nodes).
    #[inline]
    pub(crate) fn total_nodes(&mut self) -> u64 {
        match &self.shared_nodes {
            None => self.nodes,
            Some(total) => {
                let fresh = self.nodes - self.published;
                if fresh >= 1024 {
                    self.published = self.nodes;
                    total.fetch_add(fresh, Ordering::Relaxed) + fresh
                } else {
                    total.load(Ordering::Relaxed) + fresh
                }
            }
        }
    }

    /// The static value of `game` and its quiet value
    /// ([`DiceEvaluator::evaluate_with_quiet`]), through this thread's cache with
    /// [`SearchConfig::eval_cache`](super::SearchConfig::eval_cache).
    #[inline]
    pub(crate) fn static_values(&mut self, game: &DiceGame) -> (i32, i32) {
        if self.config.eval_cache {
            self.eval_cache.values(&mut self.eval, game)
        } else {
            self.eval.evaluate_with_quiet(game)
        }
    }

    /// The outcomes of `game`'s chance node as the configuration merges and orders them:
    /// made per node in one die (the faces depend on the pieces left), fixed otherwise.
    #[inline]
    pub(crate) fn outcomes(&self, game: &DiceGame) -> OutcomeList {
        let rules = game.rules();
        if rules == Rules::OneDie {
            OutcomeList::new(
                &Outcomes::one_die(game.movable_types()),
                &self.config,
                rules,
            )
        } else {
            self.fixed[rules as usize]
        }
    }

    /// Sets this search's sample of three dice's outcomes ([`sample_for`]).
    pub(crate) fn draw_sample(&mut self, root: &DiceGame) {
        self.sampled = sample_for(&self.config, root)
            .map(|o| OutcomeList::new(&o, &self.config, Rules::ThreeDice));
    }

    /// Makes `eval` this thread's evaluator; the cached values go with the old one.
    pub(crate) fn set_evaluator(&mut self, eval: DiceEvaluator) {
        self.eval = eval;
        self.eval_cache.clear();
    }

    /// The stored value of `e` when it decides the node under the window, as the
    /// configuration allows (exact mode: same depth and ply; else at least the depth).
    #[inline]
    pub(super) fn usable(
        &self,
        e: &super::tt::Entry,
        depth: u32,
        ply: u32,
        alpha: i32,
        beta: i32,
    ) -> Option<i32> {
        let deep_enough = if self.config.exact_tt {
            u32::from(e.depth) == depth && e.ply() == ply.min(63) && ply < 63
        } else {
            u32::from(e.depth) >= depth
        };
        if !deep_enough {
            return None;
        }
        let v = e.value;
        match e.bound() {
            Bound::Exact => Some(v),
            Bound::Lower if v >= beta => Some(v),
            Bound::Upper if v <= alpha => Some(v),
            _ => None,
        }
    }
}
