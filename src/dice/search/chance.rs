//! Chance nodes (a game awaiting its roll), split by technique: [`Searcher::chance`] answers
//! terminal nodes, leaves and table hits, then sets up a [`ChanceNode`] (the outcomes and
//! each one's bounds, with [`SearchConfig::bounds`](super::SearchConfig::bounds)), runs
//! Star2's probing phase ([`Searcher::star2`]) when it can cut, and ends with Star1's phase
//! ([`Searcher::star1`]) over the outcomes in the order [`ChanceNode::search_order`] gives.
//! The arithmetic and why it is exact: the module docs of `expectimax`.

use super::decision::Strategy;
use super::expectimax::{
    ceil_div, floor_div, terminal_value, NodeResult, OutcomeList, Searcher, Star1, L, NEG_INF, U,
};
use super::sleep::Sleep;
use super::tt::{node_key, Bound};
use super::WIN;
use crate::dice::eval::EVAL_MAX;
use crate::dice::game::{DiceGame, TurnSnapshot};
use crate::dice::roll::{Roll, MAX_OUTCOMES};
use crate::dice::rules::Rules;
use crate::moves::Move;

/// One chance node while it is searched (on the stack: nothing is allocated).
struct ChanceNode {
    /// The table key.
    key: u64,
    outcomes: OutcomeList,
    /// The outcomes' denominator.
    d: i64,
    /// The turn state before the roll, put back after each outcome.
    saved: TurnSnapshot,
    /// Per-outcome bounds of the decision nodes' values (Star1's L and U, tightened).
    lo: [i32; MAX_OUTCOMES],
    hi: [i32; MAX_OUTCOMES],
    /// Outcomes whose value is known without a search (`lo` holds it).
    known: [bool; MAX_OUTCOMES],
    /// Lower bounds: `lo`, raised by Star2's probes.
    lb: [i32; MAX_OUTCOMES],
    /// Depth 1 with leaf probes: the move each probe searched and its value, exact (a
    /// leaf's).
    probed: [Option<(Move, i32)>; MAX_OUTCOMES],
    /// Leaf probes apply (depth 1, one and two dice, static leaves).
    leaves: bool,
    /// Per-type sharing applies (two dice, below the root turn).
    share: bool,
    /// What the outcomes' decision nodes learnt of each piece type (with `share`).
    types: [NodeResult; 7],
}

impl ChanceNode {
    /// The weighted sum of `values` over the outcomes.
    fn weighted(&self, values: &[i32; MAX_OUTCOMES]) -> i64 {
        self.outcomes
            .as_slice()
            .iter()
            .zip(values.iter())
            .map(|(o, &v)| o.weight as i64 * v as i64)
            .sum()
    }

    /// The order of Star1's phase: the outcomes as listed (heaviest first with ordering),
    /// or with `by_lower_bound` the lowest lower bounds first (a fail low comes sooner); a
    /// Lazy SMP helper `thread` of `threads` then starts elsewhere with `split`, so the
    /// threads do different outcomes first and the main thread meets the helpers' outcomes
    /// done in the table.
    fn search_order(
        &self,
        by_lower_bound: bool,
        split: bool,
        (thread, threads): (usize, usize),
    ) -> [u8; MAX_OUTCOMES] {
        let n = self.outcomes.len;
        let mut idx = [0u8; MAX_OUTCOMES];
        for (k, x) in idx.iter_mut().enumerate().take(n) {
            *x = k as u8;
        }
        if by_lower_bound {
            for k in 1..n {
                let cur = idx[k];
                let mut j = k;
                while j > 0 && self.lb[idx[j - 1] as usize] > self.lb[cur as usize] {
                    idx[j] = idx[j - 1];
                    j -= 1;
                }
                idx[j] = cur;
            }
        }
        if split && thread != 0 && n > 1 {
            idx[..n].rotate_left(thread * n / threads.max(1) % n);
        }
        idx
    }
}

impl Searcher {
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
        if let Some(v) = terminal_value(game, ply) {
            return v;
        }
        if depth == 0 {
            if self.config.qs_leaves(rules) {
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
        let mut node = self.chance_node(game, key, depth, ply);
        if self.config.star2 && self.config.star1 && beta < U {
            if let Some(v) = self.star2(game, &mut node, depth, ply, beta) {
                return v;
            }
        }
        self.star1(game, &mut node, depth, ply, alpha, beta)
    }

    /// The chance node `game` before its outcomes are searched: the outcomes as the
    /// configuration merges and orders them, each one's bounds, and which of the techniques
    /// that depend on the node apply.
    fn chance_node(&self, game: &DiceGame, key: u64, depth: u32, ply: u32) -> ChanceNode {
        let rules = game.rules();
        // Below the root, a sampling search's chance nodes take its sample (three dice).
        let outcomes = match self.sampled {
            Some(sample) if ply > 0 && rules == Rules::ThreeDice => sample,
            _ => self.outcomes(game),
        };
        // Quiescence leaves are searches, not static values: the depth-1 shortcuts that rely
        // on static leaves (the static range, exact leaf probes) are off there.
        let static_leaves = !self.config.qs_leaves(rules);
        let mut node = ChanceNode {
            key,
            d: outcomes.denominator as i64,
            outcomes,
            saved: game.turn_snapshot(),
            lo: [L; MAX_OUTCOMES],
            hi: [U; MAX_OUTCOMES],
            known: [false; MAX_OUTCOMES],
            lb: [L; MAX_OUTCOMES],
            probed: [None; MAX_OUTCOMES],
            leaves: self.config.leaf_probes
                && depth == 1
                && rules != Rules::ThreeDice
                && static_leaves,
            share: self.config.type_sharing && rules == Rules::TwoDice && ply > 0,
            types: [NodeResult::UNKNOWN; 7],
        };
        if self.config.bounds {
            self.outcome_bounds(game, &mut node, depth, ply);
            if !static_leaves && depth == 1 {
                for i in 0..node.outcomes.len {
                    if !node.known[i] {
                        node.lo[i] = L.max(-(WIN - ply as i32 - 1));
                        node.hi[i] = WIN - ply as i32;
                    }
                }
            }
        }
        node.lb = node.lo;
        node
    }

    /// Star2's phase: one move of each outcome probed as a null-window test against what
    /// the node needs to reach `beta` if every later outcome did its best (every outcome at
    /// depth 1 with leaf probes, where a failed probe still gives a lower bound). Returns
    /// the node's value when the probes prove it at least `beta` (stored as a lower bound),
    /// or 0 when the search was stopped; else `None`, the lower bounds found left in
    /// `node.lb` for Star1's phase.
    fn star2(
        &mut self,
        game: &mut DiceGame,
        node: &mut ChanceNode,
        depth: u32,
        ply: u32,
        beta: i32,
    ) -> Option<i32> {
        let d = node.d;
        let mut sum_lb = 0i64;
        let mut all = true;
        let mut rest_hi = node.weighted(&node.hi);
        for i in 0..node.outcomes.len {
            let oc = node.outcomes.list[i];
            let w = oc.weight as i64;
            rest_hi -= w * node.hi[i] as i64;
            if node.known[i] {
                sum_lb += w * node.lo[i] as i64;
                continue;
            }
            let target = ceil_div(beta as i64 * d - sum_lb - rest_hi, w);
            if target > node.hi[i] as i64 {
                // No fail high any more; at depth 1 the probes still give lower bounds.
                all = false;
                if !node.leaves {
                    break;
                }
            }
            let target = target.min(node.hi[i] as i64);
            let t = target.max(L as i64 + 1) as i32;
            game.set_roll_unchecked(oc.roll);
            let v = self.probe_outcome(game, node, i, depth, ply, t);
            game.restore_turn(node.saved);
            if self.aborted {
                return Some(0);
            }
            if v >= t {
                node.lb[i] = v;
                sum_lb += w * v as i64;
                continue;
            }
            if !node.leaves {
                all = false;
                break;
            }
            // Depth 1: the probe failed, yet its value is a leaf's: a lower bound; without
            // sharing the rest of the decision node settles the outcome.
            let v = match node.probed[i] {
                Some((m, pv)) if !node.share => {
                    game.set_roll_unchecked(oc.roll);
                    let v = self.failed_leaf_probe(game, node, i, depth, ply, t, m, pv);
                    game.restore_turn(node.saved);
                    if self.aborted {
                        return Some(0);
                    }
                    if v < t {
                        all = false;
                    }
                    v
                }
                _ => {
                    node.lb[i] = node.lb[i].max(v);
                    all = false;
                    v
                }
            };
            sum_lb += w * v as i64;
        }
        if all && sum_lb >= beta as i64 * d {
            let v = floor_div(sum_lb, d) as i32;
            if self.config.tt {
                self.tt
                    .store(node.key, v, Bound::Lower, depth, ply, Move::NONE);
            }
            return Some(v);
        }
        None
    }

    /// Outcome `i`'s probe (its roll set in `game`) against target `t`: a lower bound the
    /// chance node's per-type results already prove, else one move searched (recorded in
    /// `node.probed` at depth 1, and with sharing as a lower bound of its piece type).
    fn probe_outcome(
        &mut self,
        game: &mut DiceGame,
        node: &mut ChanceNode,
        i: usize,
        depth: u32,
        ply: u32,
        t: i32,
    ) -> i32 {
        let shared_lb = if node.share {
            known_lower(&node.types, game.h.dice)
        } else {
            NEG_INF
        };
        if shared_lb >= t {
            return shared_lb;
        }
        let (v, m) = self.probe(game, depth, ply, t - 1, t);
        if node.leaves {
            node.probed[i] = Some((m, v));
        }
        if node.share && v >= t && m != Move::NONE {
            // The probed move's value bounds its type from below.
            let k = game.pos.piece_on(m.from()).kind().to_u8() as usize;
            let r = &mut node.types[k];
            if r.bound == Bound::None || (r.bound == Bound::Lower && r.value < v) {
                *r = NodeResult {
                    bound: Bound::Lower,
                    empty: false,
                    value: v,
                    best: m,
                };
            }
        }
        v
    }

    /// Depth 1, outcome `i` (its roll set in `game`), whose probe of `m` (exact value `pv`)
    /// failed below `t`: the rest of the decision node under the same null window settles
    /// it: a lower bound at least `t`, or (every leaf seen) its exact value, which becomes
    /// the outcome's known value. Returns the value; `node.lb` gets it.
    #[allow(clippy::too_many_arguments)]
    fn failed_leaf_probe(
        &mut self,
        game: &mut DiceGame,
        node: &mut ChanceNode,
        i: usize,
        depth: u32,
        ply: u32,
        t: i32,
        m: Move,
        pv: i32,
    ) -> i32 {
        let v = self
            .decision_node(game, depth, ply, t - 1, t, Strategy::Seeded(m, pv))
            .value;
        node.lb[i] = v;
        if v < t {
            // Every leaf searched: the exact value.
            node.lo[i] = v;
            node.hi[i] = v;
            node.known[i] = true;
        }
        v
    }

    /// Star1's phase: every outcome not known yet searched under the window that Star1's
    /// bounds give it (an open window without pruning), cutting when one proves the node
    /// at most `alpha` or at least `beta`; the exact weighted average when none does.
    fn star1(
        &mut self,
        game: &mut DiceGame,
        node: &mut ChanceNode,
        depth: u32,
        ply: u32,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        let pruning = self.config.star1;
        let n = node.outcomes.len;
        let mut star1 = Star1 {
            d: node.d,
            sum: 0,
            rest_ub: node.weighted(&node.hi),
            rest_lb: node.weighted(&node.lb),
        };
        let rules = game.rules();
        let by_lower_bound = self.config.probe_order
            && pruning
            && (node.leaves || (rules == Rules::OneDie && self.config.star2));
        let idx = node.search_order(
            by_lower_bound,
            self.config.split_outcomes,
            self.outcome_split,
        );
        for (step, &ix) in idx[..n].iter().enumerate() {
            let i = ix as usize;
            let oc = node.outcomes.list[i];
            let w = oc.weight as i64;
            star1.take(w, node.lb[i], node.hi[i]);
            if node.known[i] {
                star1.add(w, node.lo[i]);
                continue;
            }
            let window = star1.window(pruning, w, alpha, beta);
            game.set_roll_unchecked(oc.roll);
            let strategy = if node.share {
                Strategy::Types(&mut node.types)
            } else {
                match node.probed[i] {
                    Some((m, pv)) => Strategy::Seeded(m, pv),
                    None => Strategy::Moves(&Sleep::EMPTY),
                }
            };
            let v = self
                .decision_node(game, depth, ply, window.0, window.1, strategy)
                .value;
            game.restore_turn(node.saved);
            if self.aborted {
                return 0;
            }
            if let Some((v, bound)) = star1.cut(pruning, w, v, window) {
                if self.config.tt {
                    self.tt.store(node.key, v, bound, depth, ply, Move::NONE);
                }
                return v;
            }
            star1.add(w, v);
            if step + 1 < n {
                // Time is checked between outcomes.
                self.check_limits();
                if self.aborted {
                    return 0;
                }
            }
        }
        let v = star1.value();
        if self.config.tt {
            self.tt
                .store(node.key, v, Bound::Exact, depth, ply, Move::NONE);
        }
        v
    }

    /// Bounds of each outcome's decision-node value that hold whatever the search finds
    /// ([`SearchConfig::bounds`](super::SearchConfig::bounds)): nothing beats a king capture
    /// now (`WIN - ply`), and an outcome whose dice can capture the king (one die, two
    /// dice) is worth exactly that (`known`); the side to move cannot lose before the next
    /// turn (at least `-(WIN - ply - 1)`); at depth 1 the children are static evaluations,
    /// so without a king capture an outcome lies in `-EVAL_MAX..=EVAL_MAX` (one die; two dice
    /// may mate, `WIN - ply - 1`; three dice may capture with a later micro-move). With
    /// quiescence leaves the caller widens the depth-1 range again.
    fn outcome_bounds(&self, game: &DiceGame, node: &mut ChanceNode, depth: u32, ply: u32) {
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
        for (i, oc) in node.outcomes.as_slice().iter().enumerate() {
            let mask = if rules == Rules::TwoDice && oc.roll.is_doubles() {
                crate::ALL_PIECE_TYPES
            } else {
                oc.roll.mask()
            };
            node.lo[i] = -(now - 1);
            node.hi[i] = now;
            if ply > 0 && rules != Rules::ThreeDice && mask & takers != 0 {
                node.lo[i] = now;
                node.known[i] = true;
                continue;
            }
            if depth == 1 {
                node.lo[i] = -EVAL_MAX;
                node.hi[i] = match rules {
                    Rules::OneDie => EVAL_MAX,
                    Rules::TwoDice => now - 1,
                    Rules::ThreeDice => now,
                };
            }
        }
    }
}

/// The best value the types of `roll` (all six on doubles) are known to reach at least (a
/// lower bound of the decision node's value), `NEG_INF` when none is known.
fn known_lower(types: &[NodeResult; 7], roll: Roll) -> i32 {
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
