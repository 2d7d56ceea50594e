//! Decision nodes (a game with its dice rolled): one node, [`Searcher::decision_node`], whose
//! table prologue (probe, early return) and epilogue (store) are written once, and whose
//! body is the [`Strategy`] the chance node above it chose from the configuration:
//!
//! * [`Strategy::Moves`]: alpha-beta over the legal moves, less those asleep (three dice,
//!   sleep sets, see `sleep.rs`); at the root turn it records the best line and breaks ties
//!   by the smallest raw move;
//! * [`Strategy::Seeded`]: the same when one move's exact value is already known (a
//!   depth-1 leaf probe of Star2): that move is not searched again;
//! * [`Strategy::Types`]: two dice below the root turn, alpha-beta over the roll's piece
//!   types, each settled by what the chance node already knows of it or searched as a
//!   [`Strategy::OneType`] node (per-type sharing);
//! * [`Strategy::OneType`]: one piece type's moves, under a table key of its own.
//!
//! Every node is fail-soft; the module docs of `expectimax` give the reasons.

use super::expectimax::{bound_of, NodeResult, Searcher, NEG_INF, POS_INF};
use super::order;
use super::sleep::Sleep;
use super::tt::{node_key, Bound};
use super::{TurnLine, WIN};
use crate::dice::game::{DiceGame, Phase};
use crate::dice::roll::Roll;
use crate::dice::rules::Rules;
use crate::dice::status::DiceStatus;
use crate::moves::{Move, MoveList};

/// How a decision node searches (see the [module docs](self)).
pub(crate) enum Strategy<'a> {
    /// Every legal move but those asleep ([`Sleep::EMPTY`]: none).
    Moves(&'a Sleep),
    /// Below the root turn, the exact value of one move ([`Move::NONE`]: the pass) known.
    Seeded(Move, i32),
    /// Two dice below the root turn: the roll's piece types, with what the chance node
    /// knows of each (slot 0: the pass).
    Types(&'a mut [NodeResult; 7]),
    /// The moves of one piece type of a two-dice roll.
    OneType(u8),
}

/// What a node's body found: the fail-soft value and best move, whether the node has no
/// move at all (a piece type without moves), and whether the table may keep it.
struct Found {
    value: i32,
    best: Move,
    empty: bool,
    store: bool,
}

impl Found {
    /// A value the table keeps, with its best move.
    fn stored(value: i32, best: Move) -> Found {
        Found {
            value,
            best,
            empty: false,
            store: true,
        }
    }

    /// A value the table does not keep (the pass, a node searched in part).
    fn unstored(value: i32) -> Found {
        Found {
            value,
            best: Move::NONE,
            empty: false,
            store: false,
        }
    }
}

impl Searcher {
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
        self.decision_node(
            game,
            depth,
            ply,
            alpha,
            beta,
            Strategy::Moves(&Sleep::EMPTY),
        )
        .value
    }

    /// The decision node `game` searched by `strategy` under `alpha..beta`: the table first
    /// (a usable entry answers below the root turn; its move is tried first), then the
    /// strategy's body, then the store. [`NodeResult::UNKNOWN`] when the search is stopped.
    pub(crate) fn decision_node(
        &mut self,
        game: &mut DiceGame,
        depth: u32,
        ply: u32,
        alpha: i32,
        beta: i32,
        strategy: Strategy<'_>,
    ) -> NodeResult {
        if self.tick() {
            return NodeResult::UNKNOWN;
        }
        let key = match strategy {
            Strategy::OneType(face) => type_key(game, face),
            _ => node_key(game),
        };
        let mut tt_move = Move::NONE;
        if self.config.tt {
            if let Some(e) = self.tt.probe(key) {
                tt_move = e.best_move();
                // At the root turn every move is searched (for the line and the ties).
                let root = ply == 0 && matches!(strategy, Strategy::Moves(_));
                if !root {
                    if let Some(v) = self.usable(&e, depth, ply, alpha, beta) {
                        return NodeResult {
                            bound: bound_of(v, alpha, beta),
                            empty: false,
                            value: v,
                            best: tt_move,
                        };
                    }
                }
            }
        }
        let found = match strategy {
            Strategy::Moves(sleep) => self.moves(game, depth, ply, alpha, beta, tt_move, sleep),
            Strategy::Seeded(seed, value) => {
                self.seeded(game, depth, ply, alpha, beta, tt_move, seed, value)
            }
            Strategy::Types(types) => self.types(game, depth, ply, alpha, beta, tt_move, types),
            Strategy::OneType(face) => self.one_type(game, face, depth, ply, alpha, beta, tt_move),
        };
        if self.aborted {
            return NodeResult::UNKNOWN;
        }
        if found.empty {
            return NodeResult {
                bound: Bound::Exact,
                empty: true,
                value: 0,
                best: Move::NONE,
            };
        }
        let bound = bound_of(found.value, alpha, beta);
        if found.store && self.config.tt {
            self.tt
                .store(key, found.value, bound, depth, ply, found.best);
        }
        NodeResult {
            bound,
            empty: false,
            value: found.value,
            best: found.best,
        }
    }

    /// [`Strategy::Moves`]: alpha-beta over the legal moves but those in `sleep`. With every
    /// move asleep the node reaches no new end of the turn and is worth `NEG_INF`; a node
    /// with moves asleep searched a part of itself and is not stored.
    #[allow(clippy::too_many_arguments)]
    fn moves(
        &mut self,
        game: &mut DiceGame,
        depth: u32,
        ply: u32,
        alpha: i32,
        beta: i32,
        tt_move: Move,
        sleep: &Sleep,
    ) -> Found {
        let root = ply == 0;
        let micro = game.h.micro as usize;
        let mut list = MoveList::new();
        game.generate_moves_in_place(&mut list);
        if list.is_empty() {
            // The pass (a chance node for the opponent).
            let v = self.child(game, Move::NONE, depth, ply, alpha, beta);
            if root && micro < 3 {
                self.lines[micro] = TurnLine::default();
            }
            return Found::unstored(v);
        }
        // Moves asleep here are left out, and the children may inherit them: the node then
        // searches a part of its full self, whose value is no bound of the full node the
        // key stands for (1.8% more nodes in three dice than storing the bounds it does
        // give, for a rule that needs no argument).
        let reduced = !sleep.is_empty();
        if reduced {
            list.retain(|m| !sleep.contains(m));
            if list.is_empty() {
                return Found::unstored(NEG_INF);
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
            self.order_root(list.as_mut_slice());
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
                return Found::unstored(0);
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
                    self.record_line(game, micro, m);
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
        Found {
            value: best,
            best: best_move,
            empty: false,
            store: !reduced,
        }
    }

    /// The search's root moves: the previous iteration's best first, whatever the
    /// configuration (a stopped iteration may then keep its best completed move); a helper
    /// thread then starts elsewhere in the list (its result is not used).
    fn order_root(&self, moves: &mut [Move]) {
        if let Some(i) = moves.iter().position(|&m| m == self.root_prev) {
            moves[..=i].rotate_right(1);
        }
        if self.root_rotate != 0 && moves.len() > 1 {
            let k = self.root_rotate % moves.len();
            moves.rotate_left(k);
        }
    }

    /// Records `m` as the best line from micro-move `micro` of the root turn, followed (when
    /// the turn goes on) by the best line from the next micro-move.
    fn record_line(&mut self, game: &mut DiceGame, micro: usize, m: Move) {
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

    /// [`Strategy::Seeded`]: alpha-beta over the moves but `seed`, from its exact value.
    #[allow(clippy::too_many_arguments)]
    fn seeded(
        &mut self,
        game: &mut DiceGame,
        depth: u32,
        ply: u32,
        alpha: i32,
        beta: i32,
        tt_move: Move,
        seed: Move,
        seed_value: i32,
    ) -> Found {
        if seed == Move::NONE {
            // The pass: the only move.
            return Found::unstored(seed_value);
        }
        let mut list = MoveList::new();
        game.generate_moves_in_place(&mut list);
        if self.config.ordering {
            order::sort_moves(&game.pos, list.as_mut_slice(), tt_move);
        }
        let (mut best, mut best_move) = (seed_value, seed);
        let a = alpha.max(best);
        if best < beta && !(self.config.bounds && best >= WIN - ply as i32) {
            match self.best_of(game, list.as_slice(), seed, depth, ply, a, beta, best, seed) {
                Some(found) => (best, best_move) = found,
                None => return Found::unstored(0),
            }
        }
        Found::stored(best, best_move)
    }

    /// [`Strategy::Types`]: each type of the roll (all six on doubles) is settled by what the
    /// chance node already knows of it (`types`) or searched as a [`Strategy::OneType`] node
    /// under the window left, alpha-beta over the types; the pass when none has a move (the
    /// same for every outcome without one, kept in slot 0 and not stored).
    #[allow(clippy::too_many_arguments)]
    fn types(
        &mut self,
        game: &mut DiceGame,
        depth: u32,
        ply: u32,
        alpha: i32,
        beta: i32,
        tt_move: Move,
        types: &mut [NodeResult; 7],
    ) -> Found {
        let (order, n) = type_order(game, types, tt_move);
        let mut best = NEG_INF;
        let mut best_move = Move::NONE;
        let mut a = alpha;
        let mut any = false;
        for &(_, t) in &order[..n] {
            let t = t as usize;
            if !types[t].decides(a, beta) {
                let r = self.decision_node(game, depth, ply, a, beta, Strategy::OneType(t as u8));
                if self.aborted {
                    return Found::unstored(0);
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
            if !types[0].decides(alpha, beta) {
                let v = self.child(game, Move::NONE, depth, ply, alpha, beta);
                if self.aborted {
                    return Found::unstored(0);
                }
                types[0] = NodeResult {
                    bound: bound_of(v, alpha, beta),
                    empty: false,
                    value: v,
                    best: Move::NONE,
                };
            }
            return Found::unstored(types[0].value);
        }
        Found::stored(best, best_move)
    }

    /// [`Strategy::OneType`]: the moves of piece type `face` in the two-dice node `game`
    /// (the roll's other dice aside), alpha-beta over them; `empty` when it has none.
    #[allow(clippy::too_many_arguments)]
    fn one_type(
        &mut self,
        game: &mut DiceGame,
        face: u8,
        depth: u32,
        ply: u32,
        alpha: i32,
        beta: i32,
        tt_move: Move,
    ) -> Found {
        let mut list = MoveList::new();
        crate::dice::gen::two_dice_type_moves(&game.pos, face, &mut list);
        if list.is_empty() {
            return Found {
                empty: true,
                ..Found::unstored(0)
            };
        }
        if self.config.ordering {
            order::sort_moves(&game.pos, list.as_mut_slice(), tt_move);
        }
        let moves = list.as_slice();
        match self.best_of(
            game,
            moves,
            Move::NONE,
            depth,
            ply,
            alpha,
            beta,
            NEG_INF,
            Move::NONE,
        ) {
            Some((best, best_move)) => Found::stored(best, best_move),
            None => Found::unstored(0),
        }
    }

    /// Fail-soft alpha-beta over `moves` (all but `skip`) under `(alpha, beta)`, from the best
    /// value and move found so far; stops at a cutoff (or, with
    /// [`SearchConfig::bounds`](super::SearchConfig::bounds), at a king capture now).
    /// `None` when the search was stopped.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    pub(super) fn best_of(
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

    /// The value of `m` in the decision node `game`: the child chance node (negated, one
    /// turn deeper) or the same side's next micro-move node; a king capture wins now.
    #[inline]
    pub(super) fn child(
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
            self.decision_node(game, depth, ply, alpha, beta, Strategy::Moves(sleep))
                .value
        } else {
            -self.chance(game, depth - 1, ply + 1, -beta, -alpha)
        };
        game.unmake_move_unchecked(m, &u);
        v
    }

    /// Star2's probe: the value of one move (the table's or the best ordered one) under a
    /// window, and the move; a lower bound of the decision node's value when at least `beta`.
    pub(super) fn probe(
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
}

/// The table key of piece type `face`'s moves in the two-dice node `game`: the node's key
/// with a one-die roll of `face`, which no two-dice node has.
fn type_key(game: &mut DiceGame, face: u8) -> u64 {
    let roll = game.replace_dice_unchecked(Roll {
        count: 1,
        faces: [face, 0, 0],
    });
    let key = node_key(game);
    game.replace_dice_unchecked(roll);
    key
}

/// The order in which [`Strategy::Types`] takes the roll's piece types (all six on
/// doubles): the table move's type first, then the types known best, then the unknown
/// ones, then those known to have no move. Returns `(sort key, type)` pairs and their count.
fn type_order(game: &DiceGame, types: &[NodeResult; 7], tt_move: Move) -> ([(i32, u8); 6], usize) {
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
    (order, n)
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
