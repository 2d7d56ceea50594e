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
//! [`super::SearchConfig::quiescence`] the roll-aware capture search of [`super::quiescence`].
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
//!
//! # Exactness
//! At a fixed depth every configuration returns the same root value as plain expectimax:
//! each cutoff is proven by integer bounds, table entries are reused only for the same
//! remaining depth and the same distance from the root in the exact mode
//! ([`super::SearchConfig::exact_tt`]), and root-turn decision nodes break ties between equal
//! values by the smallest raw move, not by search order, so the root move and turn are the
//! same too.

use super::order;
use super::tt::{node_key, Bound, DiceTable};
use super::{SearchConfig, WIN};
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
    pub(crate) fn new(o: &Outcomes, config: &SearchConfig, rules: Rules) -> OutcomeList {
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
    pub(crate) config: SearchConfig,
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

/// Sets the roll without the checks of [`DiceGame::set_roll`] (the search only sets rolls
/// the chance node's outcomes list).
#[inline]
pub(super) fn roll_unchecked(game: &mut DiceGame, roll: Roll) {
    game.h.dice = roll;
    game.h.phase = Phase::AwaitingMove as u8;
    game.h.micro = 0;
    game.h.turn_resets_clock = 0;
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
            if self.config.quiescence && self.config.quiescence_rules & (1 << rules as u8) != 0 {
                return self.quiesce(game, super::quiescence::QS_DEPTH, ply, alpha, beta);
            }
            return self.eval.evaluate(game).clamp(-EVAL_MAX, EVAL_MAX);
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
        let saved = game.h;
        let pruning = self.config.star1;
        let mut lb = [L; MAX_OUTCOMES];

        // Star2: probe one move of each outcome.
        if self.config.star2 && pruning && beta < U {
            let total: i64 = outcomes.as_slice().iter().map(|o| o.weight as i64).sum();
            let mut sum_lb = 0i64;
            let mut rest = total;
            let mut all = true;
            for (i, oc) in outcomes.as_slice().iter().enumerate() {
                let w = oc.weight as i64;
                rest -= w;
                let target = ceil_div(beta as i64 * d - sum_lb - rest * U as i64, w);
                if target > U as i64 {
                    all = false;
                    break;
                }
                let t = target.max(L as i64 + 1) as i32;
                roll_unchecked(game, oc.roll);
                let v = self.probe(game, depth, ply, t - 1, t);
                game.h = saved;
                if self.aborted {
                    return 0;
                }
                if v >= t {
                    lb[i] = v;
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
            .map(|o| o.weight as i64)
            .sum::<i64>()
            * U as i64;
        let mut rest_lb: i64 = outcomes
            .as_slice()
            .iter()
            .zip(lb.iter())
            .map(|(o, &l)| o.weight as i64 * l as i64)
            .sum();
        for (i, (oc, &lb_i)) in outcomes.as_slice().iter().zip(lb.iter()).enumerate() {
            let w = oc.weight as i64;
            rest_ub -= w * U as i64;
            rest_lb -= w * lb_i as i64;
            let (a, b) = if pruning {
                (
                    clamp_window(floor_div(alpha as i64 * d - sum - rest_ub, w)),
                    clamp_window(ceil_div(beta as i64 * d - sum - rest_lb, w)),
                )
            } else {
                (NEG_INF, POS_INF)
            };
            roll_unchecked(game, oc.roll);
            let v = self.decision(game, depth, ply, a, b);
            game.h = saved;
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
            if i + 1 < n {
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
        if m != Move::NONE && crate::dice::gen::is_king_capture(&game.pos, m) {
            return WIN - ply as i32;
        }
        let u = game.make_move_unchecked(m);
        let v = if game.phase() == Phase::AwaitingMove {
            self.decision(game, depth, ply, alpha, beta)
        } else {
            -self.chance(game, depth - 1, ply + 1, -beta, -alpha)
        };
        game.unmake_move_unchecked(m, &u);
        v
    }

    /// Star2's probe: the value of one move (the table's or the best ordered one) under a
    /// window; a lower bound of the decision node's value when at least `beta`.
    fn probe(&mut self, game: &mut DiceGame, depth: u32, ply: u32, alpha: i32, beta: i32) -> i32 {
        let mut list = MoveList::new();
        game.generate_moves_in_place(&mut list);
        if list.is_empty() {
            return self.child(game, Move::NONE, depth, ply, alpha, beta);
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
        self.child(game, best, depth, ply, alpha, beta)
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
        if self.config.ordering {
            order::sort_moves(&game.pos, list.as_mut_slice(), tt_move);
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
        for &m in list.iter() {
            // At the root turn a move equal to the best is searched to its exact value so
            // ties are broken by the move, not by the order.
            let a = if root { alpha.min(best) - 1 } else { alpha };
            let a = a.max(NEG_INF);
            let v = self.child(game, m, depth, ply, a, beta);
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
        }
        if self.config.tt {
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
