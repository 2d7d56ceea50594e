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
//! [`super::Leaves::Quiescence`] the roll-aware capture search of [`super::quiescence`].
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
//! probed move again (`Searcher::decision_seeded`).
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
//! over its types (`Searcher::shared_decision`), each type settled by what is known when
//! the bound decides under the window left, else searched (`Searcher::type_node`, with a
//! table entry of its own) and the result kept for the later outcomes. Star2's successful
//! probes are lower bounds of their move's type, shared the same way. A fail-soft value is
//! the same whichever way it is combined, so the value stays exact.
//!
//! # Sleep sets ([`super::SearchConfig::sleep_sets`], three dice)
//! Below the root turn a decision node passes to each child the moves it explored before
//! (and those asleep at itself) that commute with the child's move; the child does not search
//! them (`Searcher::decision_asleep`), so each set of commuting micro-moves is searched in one
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
use super::sleep::Sleep;
use super::tt::{node_key, Bound, DiceTable};
use super::WIN;
use crate::dice::eval::{DiceEvaluator, EVAL_MAX};
use crate::dice::game::{DiceGame, Phase};
use crate::dice::roll::{Outcome, Outcomes, Roll, MAX_OUTCOMES};
use crate::dice::rules::Rules;
use crate::dice::status::DiceStatus;
use crate::moves::{Move, MoveList};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Instant;

/// Below every value.
pub(crate) const NEG_INF: i32 = -WIN - 1;
/// Above every value.
pub(crate) const POS_INF: i32 = WIN + 1;
/// The bounds of every value (Star1's L and U).
const L: i32 = -WIN;
const U: i32 = WIN;

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
struct TypeResult {
    bound: Bound,
    empty: bool,
    value: i32,
    best: Move,
}

impl TypeResult {
    const UNKNOWN: TypeResult = TypeResult {
        bound: Bound::None,
        empty: false,
        value: 0,
        best: Move::NONE,
    };

    /// True when the result settles the type under the window `alpha..beta` (fail-soft).
    #[inline]
    fn decides(&self, alpha: i32, beta: i32) -> bool {
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
fn bound_of(v: i32, alpha: i32, beta: i32) -> Bound {
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

    /// Makes `eval` this thread's evaluator; the cached values go with the old one.
    pub(crate) fn set_evaluator(&mut self, eval: DiceEvaluator) {
        self.eval = eval;
        self.eval_cache.clear();
    }

    /// The value of the chance node `game` (awaiting its roll) for its side to move.
    pub(crate) fn chance(
        &mut self,
        game: &mut DiceGame,
        depth: u32,
        ply: u32,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        if self.tick() {
            return 0;
        }
        let rules = game.rules();
        match game.status() {
            DiceStatus::Won { winner, .. } => {
                return if winner == game.side_to_move() {
                    WIN - ply as i32
                } else {
                    -(WIN - ply as i32)
                };
            }
            DiceStatus::Drawn(_) => return 0,
            _ => {}
        }
        if depth == 0 {
            if self.qs_leaves(rules) {
                return self.quiesce(game, super::quiescence::QS_DEPTH, ply, alpha, beta);
            }
            return self.static_values(game).0.clamp(-EVAL_MAX, EVAL_MAX);
        }
        let key = node_key(game);
        if self.config.tt {
            if let Some(e) = self.tt.probe(key) {
                if let Some(v) = self.usable(&e, depth, ply, alpha, beta) {
                    return v;
                }
            }
        }
        let outcomes = if rules == Rules::OneDie {
            OutcomeList::new(
                &Outcomes::one_die(game.movable_types()),
                &self.config,
                rules,
            )
        } else {
            self.fixed[rules as usize]
        };
        let d = outcomes.denominator as i64;
        let n = outcomes.len;
        let saved = game.turn_snapshot();
        let pruning = self.config.star1;
        // Per-outcome bounds of the decision nodes' values (Star1's L and U, tightened).
        let mut lo = [L; MAX_OUTCOMES];
        let mut hi = [U; MAX_OUTCOMES];
        let mut known = [false; MAX_OUTCOMES];
        // Quiescence leaves are searches, not static values: the depth-1 shortcuts that rely
        // on static leaves (the static range, exact leaf probes) are off there.
        let static_leaves = !self.qs_leaves(rules);
        if self.config.bounds {
            self.outcome_bounds(game, &outcomes, depth, ply, &mut lo, &mut hi, &mut known);
            if !static_leaves && depth == 1 {
                for i in 0..n {
                    if !known[i] {
                        lo[i] = L.max(-(WIN - ply as i32 - 1));
                        hi[i] = WIN - ply as i32;
                    }
                }
            }
        }
        let mut lb = lo;
        // Depth 1: the move each probe searched, whose value is exact (a leaf's).
        let mut probed = [None::<(Move, i32)>; MAX_OUTCOMES];
        // Per-type sharing (two dice, below the root turn, whose decision nodes record lines).
        let share = self.config.type_sharing && rules == Rules::TwoDice && ply > 0;
        let mut types = [TypeResult::UNKNOWN; 7];

        // Star2: probe one move of each outcome (every outcome at depth 1 with leaf probes).
        let leaves =
            self.config.leaf_probes && depth == 1 && rules != Rules::ThreeDice && static_leaves;
        if self.config.star2 && pruning && beta < U {
            let mut sum_lb = 0i64;
            let mut all = true;
            let mut rest_hi: i64 = outcomes
                .as_slice()
                .iter()
                .zip(hi.iter())
                .map(|(o, &h)| o.weight as i64 * h as i64)
                .sum();
            for (i, oc) in outcomes.as_slice().iter().enumerate() {
                let w = oc.weight as i64;
                rest_hi -= w * hi[i] as i64;
                if known[i] {
                    sum_lb += w * lo[i] as i64;
                    continue;
                }
                let target = ceil_div(beta as i64 * d - sum_lb - rest_hi, w);
                if target > hi[i] as i64 {
                    // No fail high any more; at depth 1 the probes still give lower bounds.
                    all = false;
                    if !leaves {
                        break;
                    }
                }
                let target = target.min(hi[i] as i64);
                let t = target.max(L as i64 + 1) as i32;
                game.set_roll_unchecked(oc.roll);
                let shared_lb = if share {
                    known_lower(&types, game.h.dice)
                } else {
                    NEG_INF
                };
                let v = if shared_lb >= t {
                    shared_lb
                } else {
                    let (v, m) = self.probe(game, depth, ply, t - 1, t);
                    if leaves {
                        probed[i] = Some((m, v));
                    }
                    if share && v >= t && m != Move::NONE {
                        // The probed move's value bounds its type from below.
                        let k = game.pos.piece_on(m.from()).kind().to_u8() as usize;
                        let r = &mut types[k];
                        if r.bound == Bound::None || (r.bound == Bound::Lower && r.value < v) {
                            *r = TypeResult {
                                bound: Bound::Lower,
                                empty: false,
                                value: v,
                                best: m,
                            };
                        }
                    }
                    v
                };
                game.restore_turn(saved);
                if self.aborted {
                    return 0;
                }
                if v >= t {
                    lb[i] = v;
                    sum_lb += w * v as i64;
                } else if leaves && !share {
                    // Depth 1: the probe failed; the rest of the decision node under the
                    // same null window settles it: a lower bound, or (every leaf seen) its
                    // exact value.
                    if let Some((m, pv)) = probed[i] {
                        game.set_roll_unchecked(oc.roll);
                        let v2 = self.decision_seeded(game, depth, ply, t - 1, t, m, pv);
                        game.restore_turn(saved);
                        if self.aborted {
                            return 0;
                        }
                        if v2 >= t {
                            lb[i] = v2;
                            sum_lb += w * v2 as i64;
                        } else {
                            // Every leaf searched: the exact value.
                            lo[i] = v2;
                            hi[i] = v2;
                            lb[i] = v2;
                            known[i] = true;
                            all = false;
                            sum_lb += w * v2 as i64;
                        }
                    } else {
                        lb[i] = lb[i].max(v);
                        all = false;
                        sum_lb += w * v as i64;
                    }
                } else if leaves {
                    // Depth 1: the probe's value is a leaf's, exact: a lower bound.
                    lb[i] = lb[i].max(v);
                    all = false;
                    sum_lb += w * v as i64;
                } else {
                    all = false;
                    break;
                }
            }
            if all && sum_lb >= beta as i64 * d {
                let v = floor_div(sum_lb, d) as i32;
                if self.config.tt {
                    self.tt.store(key, v, Bound::Lower, depth, ply, Move::NONE);
                }
                return v;
            }
        }

        let mut sum = 0i64;
        let mut rest_ub: i64 = outcomes
            .as_slice()
            .iter()
            .zip(hi.iter())
            .map(|(o, &h)| o.weight as i64 * h as i64)
            .sum();
        let mut rest_lb: i64 = outcomes
            .as_slice()
            .iter()
            .zip(lb.iter())
            .map(|(o, &l)| o.weight as i64 * l as i64)
            .sum();
        // Probe order: the outcomes with the lowest lower bounds first (a fail low comes
        // sooner): at depth 1 with leaf probes (every outcome probed), and in one die at
        // every depth (two dice: more nodes there).
        let mut idx = [0u8; MAX_OUTCOMES];
        for (k, x) in idx.iter_mut().enumerate().take(n) {
            *x = k as u8;
        }
        if self.config.probe_order
            && pruning
            && (leaves || (rules == Rules::OneDie && self.config.star2))
        {
            for k in 1..n {
                let cur = idx[k];
                let mut j = k;
                while j > 0 && lb[idx[j - 1] as usize] > lb[cur as usize] {
                    idx[j] = idx[j - 1];
                    j -= 1;
                }
                idx[j] = cur;
            }
        }
        let (thread, threads) = self.outcome_split;
        if self.config.split_outcomes && thread != 0 && n > 1 {
            // A Lazy SMP helper starts elsewhere, so the threads do different outcomes
            // first; the main thread meets the helper's outcomes done in the table.
            idx[..n].rotate_left(thread * n / threads.max(1) % n);
        }
        for (step, &ix) in idx[..n].iter().enumerate() {
            let i = ix as usize;
            let oc = &outcomes.list[i];
            let lb_i = lb[i];
            let w = oc.weight as i64;
            rest_ub -= w * hi[i] as i64;
            rest_lb -= w * lb_i as i64;
            if known[i] {
                sum += w * lo[i] as i64;
                continue;
            }
            let (a, b) = if pruning {
                (
                    clamp_window(floor_div(alpha as i64 * d - sum - rest_ub, w)),
                    clamp_window(ceil_div(beta as i64 * d - sum - rest_lb, w)),
                )
            } else {
                (NEG_INF, POS_INF)
            };
            game.set_roll_unchecked(oc.roll);
            let v = if share {
                self.shared_decision(game, depth, ply, a, b, &mut types)
            } else {
                match probed[i] {
                    Some((m, pv)) => self.decision_seeded(game, depth, ply, a, b, m, pv),
                    None => self.decision(game, depth, ply, a, b),
                }
            };
            game.restore_turn(saved);
            if self.aborted {
                return 0;
            }
            if pruning && v <= a {
                let bound = floor_div(sum + w * v as i64 + rest_ub, d) as i32;
                if self.config.tt {
                    self.tt
                        .store(key, bound, Bound::Upper, depth, ply, Move::NONE);
                }
                return bound;
            }
            if pruning && v >= b {
                let bound = floor_div(sum + w * v as i64 + rest_lb, d) as i32;
                if self.config.tt {
                    self.tt
                        .store(key, bound, Bound::Lower, depth, ply, Move::NONE);
                }
                return bound;
            }
            sum += w * v as i64;
            if step + 1 < n {
                // Time is checked between outcomes.
                self.check_limits();
                if self.aborted {
                    return 0;
                }
            }
        }
        let v = floor_div(sum, d) as i32;
        if self.config.tt {
            self.tt.store(key, v, Bound::Exact, depth, ply, Move::NONE);
        }
        v
    }

    /// Fail-soft alpha-beta over `moves` (all but `skip`) under `(alpha, beta)`, from the best
    /// value and move found so far; stops at a cutoff (or, with
    /// [`SearchConfig::bounds`](super::SearchConfig::bounds), at a king capture now).
    /// `None` when the search was stopped.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn best_of(
        &mut self,
        game: &mut DiceGame,
        moves: &[Move],
        skip: Move,
        depth: u32,
        ply: u32,
        alpha: i32,
        beta: i32,
        mut best: i32,
        mut best_move: Move,
    ) -> Option<(i32, Move)> {
        let mut a = alpha;
        for &m in moves {
            if m == skip {
                continue;
            }
            let v = self.child(game, m, depth, ply, a, beta);
            if self.aborted {
                return None;
            }
            if v > best {
                best = v;
                best_move = m;
            }
            if best >= beta || (self.config.bounds && best >= WIN - ply as i32) {
                break;
            }
            if best > a {
                a = best;
            }
        }
        Some((best, best_move))
    }

    /// True when depth-0 chance nodes of `rules` take quiescence instead of the static value.
    #[inline]
    fn qs_leaves(&self, rules: Rules) -> bool {
        self.config.qs_leaves(rules)
    }

    /// Bounds of each outcome's decision-node value that hold whatever the search finds
    /// ([`SearchConfig::bounds`](super::SearchConfig::bounds)): nothing beats a king capture
    /// now (`WIN - ply`), and an outcome whose dice can capture the king (one die, two
    /// dice) is worth exactly that (`known`); the side to move cannot lose before the next
    /// turn (at least `-(WIN - ply - 1)`); at depth 1 the children are static evaluations,
    /// so without a king capture an outcome lies in `-EVAL_MAX..=EVAL_MAX` (one die; two dice
    /// may mate, `WIN - ply - 1`; three dice may capture with a later micro-move). With
    /// quiescence leaves the caller widens the depth-1 range again.
    #[allow(clippy::too_many_arguments)]
    fn outcome_bounds(
        &self,
        game: &DiceGame,
        outcomes: &OutcomeList,
        depth: u32,
        ply: u32,
        lo: &mut [i32; MAX_OUTCOMES],
        hi: &mut [i32; MAX_OUTCOMES],
        known: &mut [bool; MAX_OUTCOMES],
    ) {
        let now = WIN - ply as i32;
        let rules = game.rules();
        // The types that can take the enemy king now (one die: a pawn that can promote
        // takes on every face it promotes to).
        let pos = &game.pos;
        let us = pos.side_to_move();
        let king = pos.king_square(us.flip());
        let mut takers = 0u8;
        let mut promo_taker = false;
        for from in pos.attackers_to(king) & pos.color_pieces(us) {
            let kind = pos.piece_on(from).kind();
            takers |= kind.mask_bit();
            let rank = from.to_u8() / 8;
            if kind == crate::types::PieceType::PAWN
                && ((us == crate::types::Color::WHITE && rank == 6)
                    || (us == crate::types::Color::BLACK && rank == 1))
            {
                promo_taker = true;
            }
        }
        if rules == Rules::OneDie && promo_taker {
            takers |= 0b0011_1100;
        }
        for (i, oc) in outcomes.as_slice().iter().enumerate() {
            let mask = if rules == Rules::TwoDice && oc.roll.is_doubles() {
                crate::ALL_PIECE_TYPES
            } else {
                oc.roll.mask()
            };
            lo[i] = -(now - 1);
            hi[i] = now;
            if ply > 0 && rules != Rules::ThreeDice && mask & takers != 0 {
                lo[i] = now;
                known[i] = true;
                continue;
            }
            if depth == 1 {
                lo[i] = -EVAL_MAX;
                hi[i] = match rules {
                    Rules::OneDie => EVAL_MAX,
                    Rules::TwoDice => now - 1,
                    Rules::ThreeDice => now,
                };
            }
        }
    }

    /// The stored value of `e` when it decides the node under the window, as the
    /// configuration allows (exact mode: same depth and ply; else at least the depth).
    #[inline]
    fn usable(
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

    /// The value of `m` in the decision node `game`: the child chance node (negated, one
    /// turn deeper) or the same side's next micro-move node; a king capture wins now.
    #[inline]
    fn child(
        &mut self,
        game: &mut DiceGame,
        m: Move,
        depth: u32,
        ply: u32,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        self.child_in_turn(game, m, depth, ply, alpha, beta, &Sleep::EMPTY)
    }

    /// [`Searcher::child`] with the moves asleep at the child when the turn goes on (three
    /// dice, see `sleep.rs`).
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn child_in_turn(
        &mut self,
        game: &mut DiceGame,
        m: Move,
        depth: u32,
        ply: u32,
        alpha: i32,
        beta: i32,
        sleep: &Sleep,
    ) -> i32 {
        if m != Move::NONE && crate::dice::gen::is_king_capture(&game.pos, m) {
            return WIN - ply as i32;
        }
        let u = game.make_move_unchecked(m);
        let v = if game.phase() == Phase::AwaitingMove {
            self.decision_asleep(game, depth, ply, alpha, beta, sleep)
        } else {
            -self.chance(game, depth - 1, ply + 1, -beta, -alpha)
        };
        game.unmake_move_unchecked(m, &u);
        v
    }

    /// Star2's probe: the value of one move (the table's or the best ordered one) under a
    /// window, and the move; a lower bound of the decision node's value when at least `beta`.
    fn probe(
        &mut self,
        game: &mut DiceGame,
        depth: u32,
        ply: u32,
        alpha: i32,
        beta: i32,
    ) -> (i32, Move) {
        let mut list = MoveList::new();
        game.generate_moves_in_place(&mut list);
        if list.is_empty() {
            let v = self.child(game, Move::NONE, depth, ply, alpha, beta);
            return (v, Move::NONE);
        }
        let tt_move = if self.config.tt {
            self.tt
                .probe(node_key(game))
                .map_or(Move::NONE, |e| e.best_move())
        } else {
            Move::NONE
        };
        let mut best = list.as_slice()[0];
        let mut best_score = i32::MIN;
        for &m in list.iter() {
            let s = order::score(&game.pos, m, tt_move);
            if s > best_score {
                best_score = s;
                best = m;
            }
        }
        (self.child(game, best, depth, ply, alpha, beta), best)
    }

    /// The decision node `game` (two dice, below the root turn) from its piece types: each
    /// type of the roll (all six on doubles) is settled by what the chance node already
    /// knows of it (`types`) or searched by `Searcher::type_node` under the window left,
    /// alpha-beta over the types; the pass when none has a move. Fail-soft, like
    /// [`Searcher::decision`], whose value it returns.
    fn shared_decision(
        &mut self,
        game: &mut DiceGame,
        depth: u32,
        ply: u32,
        alpha: i32,
        beta: i32,
        types: &mut [TypeResult; 7],
    ) -> i32 {
        if self.tick() {
            return 0;
        }
        let key = node_key(game);
        let mut tt_move = Move::NONE;
        if self.config.tt {
            if let Some(e) = self.tt.probe(key) {
                tt_move = e.best_move();
                if let Some(v) = self.usable(&e, depth, ply, alpha, beta) {
                    return v;
                }
            }
        }
        let roll = game.h.dice;
        let mask = if roll.is_doubles() {
            crate::ALL_PIECE_TYPES
        } else {
            roll.mask()
        };
        let first = if tt_move == Move::NONE {
            0
        } else {
            game.pos.piece_on(tt_move.from()).kind().to_u8()
        };
        // The table move's type first, then the types known best, then the unknown ones.
        let mut order = [(0i32, 0u8); 6];
        let mut n = 0;
        for t in 1..=6u8 {
            if mask & 1 << t == 0 {
                continue;
            }
            let r = &types[t as usize];
            let key = if t == first {
                i32::MAX
            } else if r.bound == Bound::None {
                NEG_INF - 1
            } else if r.empty {
                NEG_INF - 2
            } else {
                r.value
            };
            let mut j = n;
            while j > 0 && order[j - 1].0 < key {
                order[j] = order[j - 1];
                j -= 1;
            }
            order[j] = (key, t);
            n += 1;
        }
        let mut best = NEG_INF;
        let mut best_move = Move::NONE;
        let mut a = alpha;
        let mut any = false;
        for &(_, t) in &order[..n] {
            let t = t as usize;
            if !types[t].decides(a, beta) {
                let r = self.type_node(game, t as u8, depth, ply, a, beta);
                if self.aborted {
                    return 0;
                }
                types[t] = r;
            }
            let r = types[t];
            if r.empty {
                continue;
            }
            any = true;
            if r.value > best {
                best = r.value;
                best_move = r.best;
            }
            if best >= beta {
                break;
            }
            if best > a {
                a = best;
            }
        }
        if !any {
            // The pass, the same for every outcome without a move.
            if !types[0].decides(alpha, beta) {
                let v = self.child(game, Move::NONE, depth, ply, alpha, beta);
                if self.aborted {
                    return 0;
                }
                types[0] = TypeResult {
                    bound: bound_of(v, alpha, beta),
                    empty: false,
                    value: v,
                    best: Move::NONE,
                };
            }
            return types[0].value;
        }
        if self.config.tt {
            let bound = bound_of(best, alpha, beta);
            self.tt.store(key, best, bound, depth, ply, best_move);
        }
        best
    }

    /// Orders `moves` (sorted by [`order::score`] already) by the static value after each
    /// (king captures and the table's move first), a shallow search of one turn; each
    /// evaluation counts as a node.
    fn order_by_eval(&mut self, game: &mut DiceGame, moves: &mut [Move], tt_move: Move) {
        let mut keyed = [(0i32, Move::NONE); crate::MAX_MOVES];
        let n = moves.len().min(crate::MAX_MOVES);
        for (k, &m) in keyed.iter_mut().zip(moves.iter()) {
            let s = if m == tt_move {
                POS_INF + 2
            } else if crate::dice::gen::is_king_capture(&game.pos, m) {
                POS_INF + 1
            } else {
                self.nodes += 1;
                let u = game.make_move_unchecked(m);
                let v = match game.status() {
                    DiceStatus::Drawn(_) => 0,
                    DiceStatus::AwaitingRoll => -self.static_values(game).0,
                    _ => POS_INF,
                };
                game.unmake_move_unchecked(m, &u);
                v
            };
            *k = (s, m);
        }
        keyed[..n].sort_unstable_by(|a, b| b.0.cmp(&a.0).then(a.1.raw().cmp(&b.1.raw())));
        for (m, k) in moves.iter_mut().zip(keyed.iter()) {
            *m = k.1;
        }
    }

    /// [`Searcher::decision`] below the root turn when the exact value `seed_value` of one
    /// of its moves, `seed` ([`Move::NONE`]: the pass), is already known (a depth-1 probe):
    /// that move is not searched again.
    #[allow(clippy::too_many_arguments)]
    fn decision_seeded(
        &mut self,
        game: &mut DiceGame,
        depth: u32,
        ply: u32,
        alpha: i32,
        beta: i32,
        seed: Move,
        seed_value: i32,
    ) -> i32 {
        if self.tick() {
            return 0;
        }
        let key = node_key(game);
        let mut tt_move = Move::NONE;
        if self.config.tt {
            if let Some(e) = self.tt.probe(key) {
                tt_move = e.best_move();
                if let Some(v) = self.usable(&e, depth, ply, alpha, beta) {
                    return v;
                }
            }
        }
        if seed == Move::NONE {
            // The pass: the only move.
            return seed_value;
        }
        let mut list = MoveList::new();
        game.generate_moves_in_place(&mut list);
        if self.config.ordering {
            order::sort_moves(&game.pos, list.as_mut_slice(), tt_move);
        }
        let mut best = seed_value;
        let mut best_move = seed;
        let a = alpha.max(best);
        if best < beta && !(self.config.bounds && best >= WIN - ply as i32) {
            match self.best_of(
                game,
                list.as_slice(),
                seed,
                depth,
                ply,
                a,
                beta,
                best,
                best_move,
            ) {
                Some((v, m)) => (best, best_move) = (v, m),
                None => return 0,
            }
        }
        if self.config.tt {
            self.tt.store(
                key,
                best,
                bound_of(best, alpha, beta),
                depth,
                ply,
                best_move,
            );
        }
        best
    }

    /// The moves of piece type `face` in the two-dice decision node `game` (the roll's other
    /// dice aside): alpha-beta over them, with the table under a key of its own (the node's
    /// with a one-die roll of `face`, which no two-dice node has).
    fn type_node(
        &mut self,
        game: &mut DiceGame,
        face: u8,
        depth: u32,
        ply: u32,
        alpha: i32,
        beta: i32,
    ) -> TypeResult {
        if self.tick() {
            return TypeResult::UNKNOWN;
        }
        let roll = game.replace_dice_unchecked(Roll {
            count: 1,
            faces: [face, 0, 0],
        });
        let key = node_key(game);
        game.replace_dice_unchecked(roll);
        let mut tt_move = Move::NONE;
        if self.config.tt {
            if let Some(e) = self.tt.probe(key) {
                tt_move = e.best_move();
                if let Some(v) = self.usable(&e, depth, ply, alpha, beta) {
                    return TypeResult {
                        bound: bound_of(v, alpha, beta),
                        empty: false,
                        value: v,
                        best: tt_move,
                    };
                }
            }
        }
        let mut list = MoveList::new();
        crate::dice::gen::two_dice_type_moves(&game.pos, face, &mut list);
        if list.is_empty() {
            return TypeResult {
                bound: Bound::Exact,
                empty: true,
                value: 0,
                best: Move::NONE,
            };
        }
        if self.config.ordering {
            order::sort_moves(&game.pos, list.as_mut_slice(), tt_move);
        }
        let a = alpha;
        let Some((best, best_move)) = self.best_of(
            game,
            list.as_slice(),
            Move::NONE,
            depth,
            ply,
            a,
            beta,
            NEG_INF,
            Move::NONE,
        ) else {
            return TypeResult::UNKNOWN;
        };
        if self.config.tt {
            self.tt.store(
                key,
                best,
                bound_of(best, alpha, beta),
                depth,
                ply,
                best_move,
            );
        }
        TypeResult {
            bound: bound_of(best, alpha, beta),
            empty: false,
            value: best,
            best: best_move,
        }
    }

    /// The value of the decision node `game` (dice rolled) for its side to move. At `ply` 0
    /// (the root turn) it also records the best line in `self.lines` and breaks ties by the
    /// smallest raw move.
    pub(crate) fn decision(
        &mut self,
        game: &mut DiceGame,
        depth: u32,
        ply: u32,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        self.decision_asleep(game, depth, ply, alpha, beta, &Sleep::EMPTY)
    }

    /// [`Searcher::decision`] with the moves in `sleep` asleep (not searched: their orders
    /// were searched in an earlier sibling's subtree of the same turn, see `sleep.rs`). With
    /// every move asleep the node reaches no new end of the turn and returns `NEG_INF`.
    fn decision_asleep(
        &mut self,
        game: &mut DiceGame,
        depth: u32,
        ply: u32,
        alpha: i32,
        beta: i32,
        sleep: &Sleep,
    ) -> i32 {
        if self.tick() {
            return 0;
        }
        let root = ply == 0;
        let micro = game.h.micro as usize;
        let key = node_key(game);
        let mut tt_move = Move::NONE;
        if self.config.tt {
            if let Some(e) = self.tt.probe(key) {
                tt_move = e.best_move();
                if !root {
                    if let Some(v) = self.usable(&e, depth, ply, alpha, beta) {
                        return v;
                    }
                }
            }
        }
        let mut list = MoveList::new();
        game.generate_moves_in_place(&mut list);
        if list.is_empty() {
            // The pass (a chance node for the opponent).
            let v = self.child(game, Move::NONE, depth, ply, alpha, beta);
            if root && micro < 3 {
                self.lines[micro] = TurnLine::default();
            }
            return v;
        }
        // Moves asleep here are left out, and the children may inherit them: the node then
        // searches a part of its full self (see the store below).
        let reduced = !sleep.is_empty();
        if reduced {
            list.retain(|m| !sleep.contains(m));
            if list.is_empty() {
                return NEG_INF;
            }
        }
        // Sleep sets below the root turn, when a child may go on with the turn.
        let sleeping = self.config.sleep_sets
            && !root
            && game.rules() == Rules::ThreeDice
            && game.dice().count > 1;
        if self.config.ordering {
            order::sort_moves(&game.pos, list.as_mut_slice(), tt_move);
            if depth >= 2 && self.config.eval_order && game.rules() == Rules::OneDie {
                self.order_by_eval(game, list.as_mut_slice(), tt_move);
            }
        }
        let top = root && micro == self.root_micro;
        if top {
            // The previous iteration's best first, whatever the configuration: a stopped
            // iteration may then keep its best completed move.
            let moves = list.as_mut_slice();
            if let Some(i) = moves.iter().position(|&m| m == self.root_prev) {
                moves[..=i].rotate_right(1);
            }
            // A helper thread starts elsewhere in the list (its result is not used).
            if self.root_rotate != 0 && moves.len() > 1 {
                let k = self.root_rotate % moves.len();
                moves.rotate_left(k);
            }
        }
        let mut alpha = alpha;
        let mut best = NEG_INF;
        let mut best_move = Move::NONE;
        let alpha_orig = alpha;
        // The moves explored so far, for the children's sleep sets (only where they apply:
        // the set is not built on other nodes).
        let mut explored = sleeping.then_some(Sleep::EMPTY);
        for &m in list.iter() {
            // At the root turn a move equal to the best is searched to its exact value so
            // ties are broken by the move, not by the order. A node inside the root turn
            // (three dice) needs no value below the window its parent gave it: those fail
            // low there whatever they are.
            let a = if root {
                (alpha.min(best) - 1).max(alpha_orig)
            } else {
                alpha
            };
            let a = a.max(NEG_INF);
            let v = if let Some(explored) = explored.as_mut() {
                let child_sleep = sleep.for_child(explored, &game.pos, m);
                let v = self.child_in_turn(game, m, depth, ply, a, beta, &child_sleep);
                explored.note(&game.pos, m);
                v
            } else {
                self.child(game, m, depth, ply, a, beta)
            };
            if self.aborted {
                return 0;
            }
            if top && m == self.root_prev {
                self.root_prev_done = true;
            }
            let better = v > best || (root && v == best && m.raw() < best_move.raw());
            if better {
                best = v;
                best_move = m;
                if top {
                    self.root_best = v;
                }
                if root && micro < 3 {
                    let mut line = TurnLine::default();
                    line.moves[0] = m;
                    line.len = 1;
                    if micro + 1 < 4 && game_continues_turn(game, m) {
                        let next = self.lines[micro + 1];
                        for &n in next.as_slice() {
                            if line.len < 3 {
                                line.moves[line.len] = n;
                                line.len += 1;
                            }
                        }
                    }
                    self.lines[micro] = line;
                }
            }
            if best > alpha {
                alpha = best;
            }
            if best >= beta {
                break;
            }
            if !root && self.config.bounds && best >= WIN - ply as i32 {
                // A king capture now: nothing is better.
                break;
            }
        }
        // A node with moves asleep searched only a part of itself: its value is no bound of
        // the full node the key stands for, so it is not stored (1.8% more nodes in three
        // dice than storing the bounds it does give, for a rule that needs no argument).
        if self.config.tt && !reduced {
            let bound = if best >= beta {
                Bound::Lower
            } else if best <= alpha_orig {
                Bound::Upper
            } else {
                Bound::Exact
            };
            self.tt.store(key, best, bound, depth, ply, best_move);
        }
        best
    }
}

/// True when making `m` leaves the same side to move in the same turn (three dice, dice
/// left that can be used). Used only to stitch the root turn's line; cheap enough there.
fn game_continues_turn(game: &mut DiceGame, m: Move) -> bool {
    if game.rules() != Rules::ThreeDice
        || m == Move::NONE
        || crate::dice::gen::is_king_capture(&game.pos, m)
    {
        return false;
    }
    let u = game.make_move_unchecked(m);
    let r = game.phase() == Phase::AwaitingMove;
    game.unmake_move_unchecked(m, &u);
    r
}

/// The best value the types of `roll` (all six on doubles) are known to reach at least (a
/// lower bound of the decision node's value), `NEG_INF` when none is known.
fn known_lower(types: &[TypeResult; 7], roll: Roll) -> i32 {
    let mask = if roll.is_doubles() {
        crate::ALL_PIECE_TYPES
    } else {
        roll.mask()
    };
    let mut best = NEG_INF;
    for (t, r) in types.iter().enumerate().skip(1) {
        if mask & 1 << t != 0
            && !r.empty
            && matches!(r.bound, Bound::Exact | Bound::Lower)
            && r.value > best
        {
            best = r.value;
        }
    }
    best
}
