//! The search proper: iterative deepening with aspiration windows over a principal variation
//! search, quiescence, and the per-thread state they work on.
//!
//! Pruning and reductions in `Searcher::search`: mate-distance pruning, transposition
//! cutoffs, reverse futility (static null move), null-move pruning with a verification-free
//! reduction of 3 + depth/3, razoring into quiescence, internal iterative reduction, late-move
//! pruning, futility pruning of quiets, SEE pruning of quiets and captures, singular
//! extension of the hash move (with multi-cut), check extension, late-move reductions from a
//! logarithmic table adjusted by node type, improvement and history. Draws by repetition,
//! the 50-move rule and insufficient material are scored inside the tree.
//!
//! One search ([`run_search`]) in parts: `root_moves` (the legal moves, `searchmoves`, the
//! first order), `root_position` (the history compacted to leave room for the search),
//! `reset_thread` (each thread's root moves and counters), `run_threads` and
//! `assemble_result`. `run_threads` runs Lazy SMP on the engine's [`Pool`]: the helper
//! threads are started by the `Threads` option and parked between searches; a search hands
//! helper `i` the tables of thread `i + 1` and its own copy of the root, runs the main thread
//! (thread 0, the one that reports) on the caller, and the main thread raises the stop flag
//! when it is done (also when it panics), which ends the helpers before the pool returns.
//! Nothing is allocated on any thread (tests/no_alloc.rs, tests/search_smp_no_alloc.rs).

use super::history::{self, ContTable, History};
use super::params;
use super::picker::{MovePicker, QuietContext};
use super::see::{gain, see_ge};
use super::strength;
use super::time::TimeBudget;
use super::tt::{Bound, TranspositionTable};
use super::{
    Engine, Limits, Score, ScoreBound, SearchInfo, SearchResult, Signals, INFINITE, MATE,
    MATE_BOUND, MAX_PLY,
};
use crate::eval::nnue::accumulator::AccStack;
use crate::eval::nnue::Network;
use crate::eval::Evaluator;
use crate::moves::{Move, MoveList, MAX_MOVES};
use crate::pool::Pool;
use crate::position::{Position, HISTORY_CAPACITY};
use crate::types::{Color, PieceType};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

/// One ply of the search stack.
#[derive(Copy, Clone, Default)]
struct Frame {
    static_eval: i32,
    /// The move made from this ply (none before it is made; `Move::NONE` for a null move).
    current: Move,
    /// The raw piece that made `current` (0 for a null move).
    piece: usize,
    killers: [Move; 2],
    excluded: Move,
    /// Plies since the last null move (for the repetition scan).
    plies_from_null: u32,
}

/// A root move and what the last iterations found for it.
#[derive(Copy, Clone)]
struct RootMove {
    mv: Move,
    score: i32,
    prev_score: i32,
    seldepth: u32,
    pv: [Move; MAX_PLY],
    pv_len: usize,
}

impl RootMove {
    const EMPTY: RootMove = RootMove {
        mv: Move::NONE,
        score: -INFINITE,
        prev_score: -INFINITE,
        seldepth: 0,
        pv: [Move::NONE; MAX_PLY],
        pv_len: 0,
    };
}

/// A search thread's own tables: history, evaluator cache, stack, PV table, root moves.
/// Allocated when the engine is created or its thread count changes.
pub struct ThreadData {
    hist: Box<History>,
    eval: Evaluator,
    /// The network's accumulators, one entry per ply (used when a network is set).
    nnue: AccStack,
    stack: [Frame; MAX_PLY + 8],
    pv: [[Move; MAX_PLY]; MAX_PLY + 1],
    pv_len: [usize; MAX_PLY + 1],
    root: [RootMove; MAX_MOVES],
    root_count: usize,
    /// The first MultiPV lines (move, score) of the last completed iteration, best first
    /// (read by the strength limit, `strength.rs`).
    done_lines: [(Move, i32); strength::MAX_LINES],
    done_lines_len: usize,
    lmr: [[u8; 64]; 64],
    nodes: u64,
    seldepth: u32,
    completed_depth: u32,
}

impl ThreadData {
    /// Fresh tables, boxed (about 3.4 MB, 0.56 MB of them the network's accumulators), or
    /// `None` when the memory cannot be had.
    pub fn try_new_boxed() -> Option<Box<ThreadData>> {
        let mut lmr = [[0u8; 64]; 64];
        for (d, row) in lmr.iter_mut().enumerate().skip(1) {
            for (m, r) in row.iter_mut().enumerate().skip(1) {
                *r = params::lmr_base(d, m);
            }
        }
        try_box(ThreadData {
            hist: History::try_new_boxed()?,
            eval: Evaluator::try_new()?,
            nnue: AccStack::try_new(MAX_PLY + 8)?,
            stack: [Frame::default(); MAX_PLY + 8],
            pv: [[Move::NONE; MAX_PLY]; MAX_PLY + 1],
            pv_len: [0; MAX_PLY + 1],
            root: [RootMove::EMPTY; MAX_MOVES],
            root_count: 0,
            done_lines: [(Move::NONE, -INFINITE); strength::MAX_LINES],
            done_lines_len: 0,
            lmr,
            nodes: 0,
            seldepth: 0,
            completed_depth: 0,
        })
    }

    /// Nodes this thread searched in the last search (tests).
    #[cfg(test)]
    pub(crate) fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Forgets the history tables and the evaluator cache (a new game).
    pub fn clear(&mut self) {
        self.hist.clear();
        self.eval.clear();
    }
}

/// `Box::new` that reports an allocation failure instead of aborting.
fn try_box<T>(value: T) -> Option<Box<T>> {
    let mut v: Vec<T> = Vec::new();
    v.try_reserve_exact(1).ok()?;
    v.push(value);
    let b: Box<[T]> = v.into_boxed_slice();
    // SAFETY: a boxed slice of one `T` was allocated with `Layout::array::<T>(1)`, which equals
    // `Layout::new::<T>()`, so the block is a valid `Box<T>` allocation holding that one value.
    Some(unsafe { Box::from_raw(Box::into_raw(b) as *mut T) })
}

/// What all threads of one search share.
struct Shared<'a> {
    tt: &'a TranspositionTable,
    signals: &'a Signals,
    counters: &'a [AtomicU64],
    limits: &'a Limits,
    budget: TimeBudget,
    start: Instant,
    multipv: usize,
    threads: usize,
    /// The network that evaluates, or `None` for the hand-written evaluation.
    net: Option<&'a Network>,
}

impl Shared<'_> {
    fn total_nodes(&self) -> u64 {
        self.counters
            .iter()
            .map(|c| c.load(Ordering::Relaxed))
            .sum()
    }
    fn stopped(&self) -> bool {
        self.signals.stop.load(Ordering::Relaxed)
    }
}

/// One thread's search over its copy of the position.
struct Searcher<'a, 'b> {
    td: &'a mut ThreadData,
    sh: &'a Shared<'b>,
    id: usize,
    /// When time started counting (the search's start, or the ponderhit).
    time_start: Instant,
    pondering: bool,
    stop: bool,
}

#[inline(always)]
fn score_to_tt(v: i32, ply: usize) -> i32 {
    if v >= MATE_BOUND {
        v + ply as i32
    } else if v <= -MATE_BOUND {
        v - ply as i32
    } else {
        v
    }
}

#[inline(always)]
fn score_from_tt(v: i32, ply: usize, halfmove: u32) -> i32 {
    if v >= MATE_BOUND {
        // A mate that the 50-move rule would cut is not trusted as a mate.
        if MATE - v > 99 - halfmove as i32 {
            return MATE_BOUND - 1;
        }
        v - ply as i32
    } else if v <= -MATE_BOUND {
        if MATE + v > 99 - halfmove as i32 {
            return -MATE_BOUND + 1;
        }
        v + ply as i32
    } else {
        v
    }
}

fn is_draw(pos: &Position, ply: usize, plies_from_null: u32) -> bool {
    pos.halfmove_clock() >= 100
        || pos.is_insufficient_material()
        || pos.is_search_repetition(ply as u32, plies_from_null)
}

fn has_non_pawn_material(pos: &Position, c: Color) -> bool {
    (pos.color_pieces(c) & !pos.pieces(c, PieceType::PAWN) & !pos.pieces(c, PieceType::KING)).any()
}

impl<'a, 'b> Searcher<'a, 'b> {
    /// Thread `id`'s searcher (0: the main thread) at the start of a search.
    fn new(td: &'a mut ThreadData, sh: &'a Shared<'b>, id: usize) -> Self {
        Searcher {
            td,
            sh,
            id,
            time_start: sh.start,
            pondering: sh.limits.ponder,
            stop: false,
        }
    }

    /// Counts a node; every 1024 nodes the main thread checks time and node limits.
    #[inline(always)]
    fn tick(&mut self) -> bool {
        self.td.nodes += 1;
        if self.td.nodes & 1023 == 0 {
            self.sh.counters[self.id].store(self.td.nodes, Ordering::Relaxed);
            if self.id == 0 {
                self.check_limits();
            }
            if self.sh.stopped() {
                self.stop = true;
            }
        } else if self.id == 0
            && self.sh.limits.nodes > 0
            && self.sh.threads == 1
            && self.td.nodes >= self.sh.limits.nodes
        {
            self.sh.signals.stop.store(true, Ordering::Relaxed);
            self.stop = true;
        }
        self.stop
    }

    fn elapsed_ms(&self) -> u64 {
        self.time_start.elapsed().as_millis() as u64
    }

    fn check_limits(&mut self) {
        let lim = self.sh.limits;
        if self.pondering && self.sh.signals.ponderhit.load(Ordering::Relaxed) {
            self.pondering = false;
            self.time_start = Instant::now();
        }
        let mut stop = false;
        if lim.nodes > 0 && self.sh.total_nodes() >= lim.nodes {
            stop = true;
        }
        if !self.pondering && !lim.infinite {
            if let Some(hard) = self.sh.budget.hard_ms {
                if self.elapsed_ms() >= hard {
                    stop = true;
                }
            }
        }
        if stop {
            self.sh.signals.stop.store(true, Ordering::Relaxed);
            self.stop = true;
        }
    }

    /// Makes `m` at `ply`, recording it (and its piece) in the stack for the histories.
    #[inline(always)]
    fn make(&mut self, pos: &mut Position, ply: usize, m: Move) -> crate::position::Undo {
        let frame = &mut self.td.stack[ply];
        frame.current = m;
        frame.piece = pos.piece_on(m.from()).index();
        let from_null = frame.plies_from_null + 1;
        self.td.stack[ply + 1].plies_from_null = from_null;
        if self.sh.net.is_some() {
            self.td.nnue.push_move(ply + 1, pos, m);
        }
        pos.make_move_unchecked(m)
    }

    /// The static evaluation of `pos`, the position at `ply`: the network's (from the
    /// accumulators of `ply`) or the hand-written one.
    fn evaluate(&mut self, pos: &Position, ply: usize) -> i32 {
        let v = match self.sh.net {
            Some(net) => self.td.nnue.evaluate(net, ply, pos),
            None => self.td.eval.evaluate(pos),
        };
        v.clamp(-MATE_BOUND + 1, MATE_BOUND - 1)
    }

    /// The PV of `ply` becomes `m` followed by the PV of `ply + 1` (triangular table with
    /// absolute indexes: line `ply` holds its moves at `ply..pv_len[ply]`).
    fn update_pv(&mut self, ply: usize, m: Move) {
        let child_len = self.td.pv_len[ply + 1].clamp(ply + 1, MAX_PLY);
        let (head, tail) = self.td.pv.split_at_mut(ply + 1);
        head[ply][ply] = m;
        head[ply][ply + 1..child_len].copy_from_slice(&tail[0][ply + 1..child_len]);
        self.td.pv_len[ply] = child_len;
    }

    fn cont_tables(&self, ply: usize) -> QuietContext<'_> {
        let table = |back: usize| -> Option<&ContTable> {
            if ply < back {
                return None;
            }
            let f = &self.td.stack[ply - back];
            if f.current == Move::NONE {
                return None;
            }
            Some(&self.td.hist.continuation[f.piece][f.current.to().index()])
        };
        QuietContext {
            cont1: table(1),
            cont2: table(2),
        }
    }

    fn update_quiet_stats(
        &mut self,
        pos: &Position,
        ply: usize,
        best: Move,
        quiets: &[Move],
        depth: i32,
    ) {
        let b = history::bonus(depth);
        let side = pos.side_to_move().index();
        let frame = &mut self.td.stack[ply];
        if frame.killers[0] != best {
            frame.killers[1] = frame.killers[0];
            frame.killers[0] = best;
        }
        if ply >= 1 {
            let prev = self.td.stack[ply - 1];
            if prev.current != Move::NONE {
                self.td.hist.counter[prev.piece][prev.current.to().index()] = best;
            }
        }
        for &m in quiets {
            let bonus = if m == best { b } else { -b };
            let pc = pos.piece_on(m.from()).index();
            let to = m.to().index();
            history::update(
                &mut self.td.hist.butterfly[side][m.from().index()][to],
                bonus,
            );
            for back in [1usize, 2] {
                if ply >= back {
                    let f = self.td.stack[ply - back];
                    if f.current != Move::NONE {
                        history::update(
                            &mut self.td.hist.continuation[f.piece][f.current.to().index()][pc][to],
                            bonus,
                        );
                    }
                }
            }
        }
    }

    fn update_capture_stats(&mut self, pos: &Position, best: Move, captures: &[Move], depth: i32) {
        let b = history::bonus(depth);
        for &m in captures {
            let bonus = if m == best { b } else { -b };
            let pc = pos.piece_on(m.from()).index();
            let victim = if m.is_en_passant() {
                PieceType::PAWN.index()
            } else {
                pos.piece_on(m.to()).kind().index()
            };
            history::update(&mut self.td.hist.capture[pc][m.to().index()][victim], bonus);
        }
    }

    fn quiet_history(&self, pos: &Position, ply: usize, m: Move) -> i32 {
        let side = pos.side_to_move().index();
        let pc = pos.piece_on(m.from()).index();
        let to = m.to().index();
        let mut s = self.td.hist.butterfly[side][m.from().index()][to] as i32;
        let ctx = self.cont_tables(ply);
        if let Some(c) = ctx.cont1 {
            s += c[pc][to] as i32;
        }
        if let Some(c) = ctx.cont2 {
            s += c[pc][to] as i32;
        }
        s
    }

    /// Quiescence search: captures and queen promotions (every evasion in check) until the
    /// position is quiet.
    fn qsearch(
        &mut self,
        pos: &mut Position,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        pv_node: bool,
    ) -> i32 {
        if self.tick() {
            return 0;
        }
        if pv_node {
            self.td.pv_len[ply] = ply;
        }
        self.td.seldepth = self.td.seldepth.max(ply as u32);
        if is_draw(pos, ply, self.td.stack[ply].plies_from_null) {
            return 0;
        }
        let in_check = pos.in_check();
        if ply >= MAX_PLY - 1 {
            return if in_check { 0 } else { self.evaluate(pos, ply) };
        }
        let key = pos.hash();
        let tt_hit = self.sh.tt.probe(key);
        let mut tt_move = Move::NONE;
        if let Some(h) = tt_hit {
            tt_move = h.mv;
            let s = score_from_tt(h.score, ply, pos.halfmove_clock());
            if !pv_node
                && (h.bound == Bound::Exact
                    || (h.bound == Bound::Lower && s >= beta)
                    || (h.bound == Bound::Upper && s <= alpha))
            {
                return s;
            }
        }
        let mut best;
        let stand_pat;
        if in_check {
            best = -MATE + ply as i32;
            stand_pat = -INFINITE;
        } else {
            stand_pat = match tt_hit {
                Some(h) => h.eval,
                None => self.evaluate(pos, ply),
            };
            if stand_pat >= beta {
                return stand_pat;
            }
            if stand_pat > alpha {
                alpha = stand_pat;
            }
            best = stand_pat;
        }
        let mut picker = MovePicker::new_qsearch(tt_move, in_check);
        let mut best_move = Move::NONE;
        let empty = QuietContext {
            cont1: None,
            cont2: None,
        };
        while let Some(m) = picker.next(pos, &self.td.hist, &empty) {
            self.sh.tt.prefetch(pos.hash_after_hint(m));
            if !in_check {
                if stand_pat + gain(pos, m) + params::QS_DELTA_MARGIN <= alpha && !m.is_promotion()
                {
                    continue;
                }
                if !see_ge(pos, m, 0) {
                    continue;
                }
            }
            let undo = self.make(pos, ply, m);
            self.sh.tt.prefetch(pos.hash());
            let score = -self.qsearch(pos, -beta, -alpha, ply + 1, pv_node);
            pos.unmake_move_unchecked(m, &undo);
            if self.stop {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    best_move = m;
                    if pv_node {
                        self.update_pv(ply, m);
                    }
                    if score >= beta {
                        break;
                    }
                    alpha = score;
                }
            }
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if pv_node && best_move != Move::NONE {
            Bound::Exact
        } else {
            Bound::Upper
        };
        let eval_store = if in_check { 0 } else { stand_pat };
        self.sh
            .tt
            .store(key, best_move, score_to_tt(best, ply), eval_store, 0, bound);
        best
    }

    /// The principal variation search below the root.
    #[allow(clippy::too_many_arguments)]
    fn search(
        &mut self,
        pos: &mut Position,
        mut alpha: i32,
        mut beta: i32,
        mut depth: i32,
        ply: usize,
        pv_node: bool,
        cut_node: bool,
    ) -> i32 {
        if depth <= 0 {
            return self.qsearch(pos, alpha, beta, ply, pv_node);
        }
        if self.tick() {
            return 0;
        }
        if pv_node {
            self.td.pv_len[ply] = ply;
        }
        self.td.seldepth = self.td.seldepth.max(ply as u32);
        let excluded = self.td.stack[ply].excluded;
        if excluded == Move::NONE {
            if is_draw(pos, ply, self.td.stack[ply].plies_from_null) {
                return 0;
            }
            if ply >= MAX_PLY - 1 {
                return if pos.in_check() {
                    0
                } else {
                    self.evaluate(pos, ply)
                };
            }
            // Mate-distance pruning.
            alpha = alpha.max(-MATE + ply as i32);
            beta = beta.min(MATE - ply as i32 - 1);
            if alpha >= beta {
                return alpha;
            }
        }
        let in_check = pos.in_check();
        let key = pos.hash()
            ^ if excluded != Move::NONE {
                (excluded.raw() as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
            } else {
                0
            };
        let tt_hit = self.sh.tt.probe(key);
        let mut tt_move = Move::NONE;
        let mut tt_score = 0;
        let mut tt_depth = -1;
        let mut tt_bound = Bound::None;
        if let Some(h) = tt_hit {
            tt_move = h.mv;
            tt_score = score_from_tt(h.score, ply, pos.halfmove_clock());
            tt_depth = h.depth;
            tt_bound = h.bound;
            if !pv_node
                && h.depth >= depth
                && (h.bound == Bound::Exact
                    || (h.bound == Bound::Lower && tt_score >= beta)
                    || (h.bound == Bound::Upper && tt_score <= alpha))
            {
                if tt_score >= beta
                    && tt_move != Move::NONE
                    && !tt_move.is_capture()
                    && pos.is_legal(tt_move)
                {
                    self.update_quiet_stats(pos, ply, tt_move, &[tt_move], depth);
                }
                return tt_score;
            }
        }

        // Static evaluation.
        let static_eval = if in_check {
            -INFINITE
        } else if let Some(h) = tt_hit {
            h.eval
        } else {
            self.evaluate(pos, ply)
        };
        let mut eval = static_eval;
        if !in_check && tt_hit.is_some() {
            // The table's score is a better estimate when its bound points the right way.
            if (tt_bound == Bound::Lower && tt_score > eval)
                || (tt_bound == Bound::Upper && tt_score < eval)
                || tt_bound == Bound::Exact
            {
                eval = tt_score;
            }
        }
        self.td.stack[ply].static_eval = static_eval;
        let improving = !in_check
            && ply >= 2
            && self.td.stack[ply - 2].static_eval != -INFINITE
            && static_eval > self.td.stack[ply - 2].static_eval;
        self.td.stack[ply + 1].killers = [Move::NONE; 2];
        self.td.stack[ply + 2].excluded = Move::NONE;
        // Pieces besides pawns and king (null move and shallow pruning need them); the same
        // at every move of the node, so computed once.
        let has_pieces = has_non_pawn_material(pos, pos.side_to_move());

        // Static pruning (below) trusts the evaluation to a margin of a few pawns; in a
        // decisive window it does not (see `params::DECISIVE_SCORE`).
        if !in_check && !pv_node && excluded == Move::NONE && beta.abs() < params::DECISIVE_SCORE {
            // Reverse futility pruning.
            if depth <= params::RFP_MAX_DEPTH
                && eval - params::RFP_MARGIN_PER_PLY * (depth - improving as i32) >= beta
                && eval < MATE_BOUND
            {
                return eval;
            }
            // Razoring.
            if depth <= params::RAZOR_MAX_DEPTH
                && eval + params::RAZOR_MARGIN_PER_PLY * depth < alpha
                && (params::RAZOR_AFTER_NULL_MOVE
                    || ply == 0
                    || self.td.stack[ply - 1].current != Move::NONE)
            {
                let v = self.qsearch(pos, alpha, alpha + 1, ply, false);
                if v <= alpha {
                    return v;
                }
            }
            // Null-move pruning.
            if depth >= params::NMP_MIN_DEPTH
                && eval >= beta
                && static_eval >= beta - params::NMP_EVAL_PER_PLY * depth + params::NMP_EVAL_BASE
                && ply >= 1
                && self.td.stack[ply - 1].current != Move::NONE
                && has_pieces
            {
                let r = params::nmp_reduction(depth, eval - beta);
                self.td.stack[ply].current = Move::NONE;
                self.td.stack[ply].piece = 0;
                self.td.stack[ply + 1].plies_from_null = 0;
                if self.sh.net.is_some() {
                    self.td.nnue.push_null(ply + 1);
                }
                let undo = pos.make_null_move_unchecked();
                let v = -self.search(pos, -beta, -beta + 1, depth - r, ply + 1, false, !cut_node);
                pos.unmake_null_move_unchecked(&undo);
                if self.stop {
                    return 0;
                }
                if v >= beta {
                    return if v >= MATE_BOUND { beta } else { v };
                }
            }
        }

        // Internal iterative reduction: no hash move to lead a deep search.
        if tt_move == Move::NONE
            && depth >= params::IIR_MIN_DEPTH
            && (pv_node || cut_node)
            && excluded == Move::NONE
        {
            depth -= 1;
        }

        let counter = if ply >= 1 {
            let p = self.td.stack[ply - 1];
            if p.current != Move::NONE {
                self.td.hist.counter[p.piece][p.current.to().index()]
            } else {
                Move::NONE
            }
        } else {
            Move::NONE
        };
        let mut picker = MovePicker::new(tt_move, self.td.stack[ply].killers, counter);
        let mut best = -INFINITE;
        let mut best_move = Move::NONE;
        let mut moves_tried = 0;
        let mut quiets = MoveList::new();
        let mut captures = MoveList::new();
        let orig_alpha = alpha;

        loop {
            let m = {
                let ctx = self.cont_tables(ply);
                match picker.next(pos, &self.td.hist, &ctx) {
                    Some(m) => m,
                    None => break,
                }
            };
            if m == excluded {
                continue;
            }
            // The child's hash-table cluster, fetched while this node decides how to search
            // the move (the probe after the make would otherwise wait for it).
            self.sh.tt.prefetch(pos.hash_after_hint(m));
            moves_tried += 1;
            let quiet = !m.is_capture() && !m.is_promotion();
            let hist_score = if quiet {
                self.quiet_history(pos, ply, m)
            } else {
                0
            };

            // Pruning at shallow depth, once a move has kept us from being mated, and never
            // while a mate score is at stake (a quiet move may mate sooner). Captures are
            // pruned by SEE here; quiet moves below, unless they give check.
            let may_prune = best > -MATE_BOUND && alpha.abs() < MATE_BOUND && has_pieces;
            let mut prune_quiet = false;
            if may_prune {
                if quiet {
                    prune_quiet = depth <= params::SHALLOW_PRUNE_MAX_DEPTH
                        && (moves_tried > params::lmp_limit(depth, improving)
                            || (!in_check
                                && static_eval + params::futility_margin(depth) <= alpha)
                            || (depth <= params::HISTORY_PRUNE_MAX_DEPTH
                                && hist_score < -params::HISTORY_PRUNE_PER_PLY * depth)
                            || !see_ge(pos, m, params::see_quiet_threshold(depth)));
                } else if depth <= params::SHALLOW_PRUNE_MAX_DEPTH
                    && !see_ge(pos, m, params::see_capture_threshold(depth))
                {
                    continue;
                }
            }

            // Singular extension of the hash move.
            let mut extension = 0;
            if ply > 0
                && m == tt_move
                && excluded == Move::NONE
                && depth >= params::SINGULAR_MIN_DEPTH
                && tt_depth >= depth - params::SINGULAR_TT_DEPTH_SLACK
                && tt_bound != Bound::Upper
                && tt_score.abs() < MATE_BOUND
            {
                let s_beta = tt_score - params::SINGULAR_MARGIN_PER_PLY * depth;
                self.td.stack[ply].excluded = m;
                let v = self.search(
                    pos,
                    s_beta - 1,
                    s_beta,
                    (depth - 1) / 2,
                    ply,
                    false,
                    cut_node,
                );
                self.td.stack[ply].excluded = Move::NONE;
                if self.stop {
                    return 0;
                }
                if v < s_beta {
                    extension = 1;
                } else if s_beta >= beta {
                    // Multi-cut: more than one move beats beta.
                    return s_beta;
                }
            }

            let gives_check = pos.gives_check(m);
            if prune_quiet && !gives_check {
                continue;
            }
            let undo = self.make(pos, ply, m);
            debug_assert_eq!(gives_check, pos.in_check());
            self.sh.tt.prefetch(pos.hash());
            if gives_check && extension == 0 && (ply as i32) < 2 * depth + 8 {
                extension = 1;
            }
            let new_depth = depth - 1 + extension;

            let mut score;
            if depth >= params::LMR_MIN_DEPTH && moves_tried > 1 + pv_node as i32 && quiet {
                let mut r =
                    self.td.lmr[(depth as usize).min(63)][(moves_tried as usize).min(63)] as i32;
                r += !pv_node as i32;
                r += !improving as i32;
                r += cut_node as i32;
                r -= gives_check as i32;
                r -= (m == self.td.stack[ply].killers[0]
                    || m == self.td.stack[ply].killers[1]
                    || m == counter) as i32;
                if quiet {
                    r -= hist_score / params::LMR_HISTORY_DIVISOR;
                }
                let d = (new_depth - r.max(0)).clamp(1, new_depth.max(1));
                score = -self.search(pos, -alpha - 1, -alpha, d, ply + 1, false, true);
                if score > alpha && d < new_depth {
                    score = -self.search(
                        pos,
                        -alpha - 1,
                        -alpha,
                        new_depth,
                        ply + 1,
                        false,
                        !cut_node,
                    );
                }
            } else if !pv_node || moves_tried > 1 {
                score = -self.search(
                    pos,
                    -alpha - 1,
                    -alpha,
                    new_depth,
                    ply + 1,
                    false,
                    !cut_node,
                );
            } else {
                score = alpha + 1;
            }
            if pv_node && (moves_tried == 1 || score > alpha) {
                score = -self.search(pos, -beta, -alpha, new_depth, ply + 1, true, false);
            }
            pos.unmake_move_unchecked(m, &undo);
            if self.stop {
                return 0;
            }

            if score > best {
                best = score;
                if score > alpha {
                    best_move = m;
                    if pv_node {
                        self.update_pv(ply, m);
                    }
                    if score >= beta {
                        break;
                    }
                    alpha = score;
                }
            }
            if m != best_move {
                if quiet {
                    quiets.push(m);
                } else if m.is_capture() {
                    captures.push(m);
                }
            }
        }

        if moves_tried == 0 {
            return if excluded != Move::NONE {
                alpha
            } else if in_check {
                -MATE + ply as i32
            } else {
                0
            };
        }
        if best == -INFINITE {
            // Every move was pruned: fail low with alpha.
            best = alpha;
        }

        if best >= beta && best_move != Move::NONE {
            let quiet_best = !best_move.is_capture() && !best_move.is_promotion();
            if quiet_best {
                quiets.push(best_move);
                let q = quiets;
                self.update_quiet_stats(pos, ply, best_move, q.as_slice(), depth);
            } else if best_move.is_capture() {
                captures.push(best_move);
            }
            let c = captures;
            self.update_capture_stats(pos, best_move, c.as_slice(), depth);
        }

        if excluded == Move::NONE {
            let bound = if best >= beta {
                Bound::Lower
            } else if pv_node && best > orig_alpha {
                Bound::Exact
            } else {
                Bound::Upper
            };
            let eval_store = if in_check { 0 } else { static_eval };
            self.sh.tt.store(
                key,
                best_move,
                score_to_tt(best, ply),
                eval_store,
                depth,
                bound,
            );
        }
        best
    }

    /// Searches the root moves from `pv_idx` on with a window; records each move's score.
    fn root_search(
        &mut self,
        pos: &mut Position,
        mut alpha: i32,
        beta: i32,
        depth: i32,
        pv_idx: usize,
    ) -> i32 {
        let mut best = -INFINITE;
        self.td.pv_len[0] = 0;
        self.td.stack[0].static_eval = if pos.in_check() {
            -INFINITE
        } else {
            self.evaluate(pos, 0)
        };
        self.td.stack[1].killers = [Move::NONE; 2];
        self.td.stack[2].excluded = Move::NONE;
        let in_check = pos.in_check();
        let mut quiets = MoveList::new();
        for i in pv_idx..self.td.root_count {
            let m = self.td.root[i].mv;
            self.td.seldepth = 0;
            let undo = self.make(pos, 0, m);
            let gives_check = pos.in_check();
            let new_depth = depth - 1 + gives_check as i32;
            let quiet = !m.is_capture() && !m.is_promotion();
            let mut score;
            let tried = i - pv_idx + 1;
            // Ply 1's line starts empty: only a PV search writes it, and a zero-window fail
            // high (not searched again when at least beta) must not keep another root move's
            // line.
            self.td.pv_len[1] = 1;
            if i == pv_idx {
                score = -self.search(pos, -beta, -alpha, new_depth, 1, true, false);
            } else {
                let mut d = new_depth;
                if depth >= 3 && quiet && !in_check && !gives_check && tried > 3 {
                    let r = self.td.lmr[(depth as usize).min(63)][tried.min(63)] as i32 - 1;
                    d = (new_depth - r.max(0)).max(1);
                }
                score = -self.search(pos, -alpha - 1, -alpha, d, 1, false, true);
                if score > alpha && d < new_depth {
                    score = -self.search(pos, -alpha - 1, -alpha, new_depth, 1, false, false);
                }
                if score > alpha && score < beta {
                    score = -self.search(pos, -beta, -alpha, new_depth, 1, true, false);
                }
            }
            pos.unmake_move_unchecked(m, &undo);
            if self.stop {
                break;
            }
            let rm = &mut self.td.root[i];
            if i == pv_idx || score > alpha {
                rm.score = score;
                rm.seldepth = self.td.seldepth;
                rm.pv[0] = m;
                let n = self.td.pv_len[1].clamp(1, MAX_PLY);
                rm.pv[1..n].copy_from_slice(&self.td.pv[1][1..n]);
                rm.pv_len = n;
                debug_assert!(
                    line_plays(pos, &rm.pv[..n]),
                    "root move {m}: its line {:?} does not play",
                    &rm.pv[..n]
                );
            } else {
                rm.score = -INFINITE;
            }
            if score > best {
                best = score;
            }
            if score > alpha {
                alpha = score;
                if score >= beta {
                    if quiet {
                        quiets.push(m);
                        let q = quiets;
                        self.update_quiet_stats(pos, 0, m, q.as_slice(), depth);
                    }
                    break;
                }
            }
            if quiet {
                quiets.push(m);
            }
        }
        best
    }

    fn report(
        &self,
        pos: &Position,
        depth: u32,
        pv_idx: usize,
        bound: ScoreBound,
        on_info: &mut dyn FnMut(&SearchInfo),
    ) {
        let nodes = self.sh.total_nodes().max(self.td.nodes);
        let time_ms = self.sh.start.elapsed().as_millis() as u64;
        let lines = self.sh.multipv.min(self.td.root_count);
        let _ = pos;
        for k in 0..lines {
            if bound != ScoreBound::Exact && k != pv_idx {
                continue;
            }
            let rm = &self.td.root[k];
            let searched = k <= pv_idx;
            let v = if searched { rm.score } else { rm.prev_score };
            if v == -INFINITE {
                continue;
            }
            let d = if searched {
                depth
            } else {
                depth.saturating_sub(1).max(1)
            };
            let info = SearchInfo {
                depth: d,
                seldepth: rm.seldepth.max(1),
                multipv: k as u32 + 1,
                score: Score::from_internal(v),
                score_internal: v,
                bound,
                nodes,
                nps: nodes * 1000 / time_ms.max(1),
                time_ms,
                hashfull: self.sh.tt.hashfull(),
                pv: &rm.pv[..rm.pv_len],
            };
            on_info(&info);
        }
    }

    /// Iterative deepening on this thread. The main thread (id 0) reports and decides when
    /// to stop.
    fn iterate(&mut self, pos: &mut Position, on_info: &mut dyn FnMut(&SearchInfo)) {
        if let Some(net) = self.sh.net {
            self.td.nnue.refresh(0, net, pos);
        }
        let lim = self.sh.limits;
        let max_depth = if lim.depth > 0 {
            (lim.depth as usize).min(MAX_PLY - 1)
        } else {
            MAX_PLY - 1
        };
        let mut best_stable = 0;
        let mut last_best = Move::NONE;
        for depth in 1..=max_depth as i32 {
            // Helpers skip some depths so that the threads spread over different iterations.
            if self.id > 0 && depth > 2 && (depth as usize + self.id) % 4 == 0 {
                continue;
            }
            let lines = self.sh.multipv.min(self.td.root_count);
            for i in 0..self.td.root_count {
                self.td.root[i].prev_score = self.td.root[i].score;
            }
            for pv_idx in 0..lines {
                let prev = self.td.root[pv_idx].prev_score;
                let mut delta = params::ASPIRATION_DELTA;
                let (mut alpha, mut beta) =
                    if depth >= params::ASPIRATION_MIN_DEPTH && prev.abs() < MATE_BOUND {
                        ((prev - delta).max(-INFINITE), (prev + delta).min(INFINITE))
                    } else {
                        (-INFINITE, INFINITE)
                    };
                loop {
                    let v = self.root_search(pos, alpha, beta, depth, pv_idx);
                    // Stable sort of the lines still open by their new scores.
                    sort_root_moves(&mut self.td.root[pv_idx..self.td.root_count]);
                    if self.stop {
                        break;
                    }
                    if v <= alpha {
                        if self.id == 0 && self.sh.start.elapsed().as_millis() > 3000 {
                            self.report(pos, depth as u32, pv_idx, ScoreBound::Upper, on_info);
                        }
                        beta = (alpha + beta) / 2;
                        alpha = (v - delta).max(-INFINITE);
                    } else if v >= beta {
                        if self.id == 0 && self.sh.start.elapsed().as_millis() > 3000 {
                            self.report(pos, depth as u32, pv_idx, ScoreBound::Lower, on_info);
                        }
                        beta = (v + delta).min(INFINITE);
                    } else {
                        break;
                    }
                    delta += delta / 2;
                }
                sort_root_moves(&mut self.td.root[..=pv_idx]);
                if self.stop {
                    break;
                }
            }
            if self.stop {
                break;
            }
            self.td.completed_depth = depth as u32;
            if self.id != 0 {
                continue;
            }
            let recorded = lines.min(strength::MAX_LINES);
            for k in 0..recorded {
                let rm = &self.td.root[k];
                self.td.done_lines[k] = (rm.mv, rm.score);
            }
            self.td.done_lines_len = recorded;
            self.report(pos, depth as u32, lines - 1, ScoreBound::Exact, on_info);

            // Stop conditions of the main thread.
            let best = self.td.root[0];
            if lim.mate > 0 && best.score > MATE - 2 * lim.mate as i32 {
                break;
            }
            if best.mv == last_best {
                best_stable += 1;
            } else {
                best_stable = 0;
                last_best = best.mv;
            }
            if self.pondering && self.sh.signals.ponderhit.load(Ordering::Relaxed) {
                self.pondering = false;
                self.time_start = Instant::now();
            }
            if !self.pondering && !lim.infinite {
                if let Some(soft) = self.sh.budget.soft_ms {
                    // Stable best move: spend less; an unstable one: more.
                    let scale = match best_stable {
                        0 => 1.6,
                        1 => 1.2,
                        2 => 1.0,
                        3 => 0.85,
                        _ => 0.7,
                    };
                    if self.elapsed_ms() as f64 >= soft as f64 * scale {
                        break;
                    }
                }
                // A single legal move needs no thought.
                if self.td.root_count == 1 && self.sh.budget.soft_ms.is_some() && depth >= 4 {
                    break;
                }
            }
        }
    }
}

/// True when `line` plays from `pos` move after move (a debug check of the root's lines).
fn line_plays(pos: &Position, line: &[Move]) -> bool {
    let mut p = pos.clone();
    line.iter().all(|&m| {
        let ok = p.is_legal(m);
        if ok {
            p.make_move_unchecked(m);
        }
        ok
    })
}

/// Stable sort by score, best first, in place (the library's stable sort would allocate
/// scratch space for these large elements).
fn sort_root_moves(moves: &mut [RootMove]) {
    for i in 1..moves.len() {
        let mut j = i;
        while j > 0 && moves[j - 1].score < moves[j].score {
            moves.swap(j - 1, j);
            j -= 1;
        }
    }
}

fn to_result(td: &ThreadData, nodes: u64, time_ms: u64) -> SearchResult {
    let rm = &td.root[0];
    let v = if rm.score != -INFINITE {
        rm.score
    } else if rm.prev_score != -INFINITE {
        rm.prev_score
    } else {
        0
    };
    let mut pv = [Move::NONE; MAX_PLY];
    pv[..rm.pv_len].copy_from_slice(&rm.pv[..rm.pv_len]);
    SearchResult {
        best_move: Some(rm.mv),
        ponder_move: if rm.pv_len >= 2 { Some(rm.pv[1]) } else { None },
        score: Score::from_internal(v),
        score_internal: v,
        depth: td.completed_depth,
        seldepth: rm.seldepth,
        nodes,
        time_ms,
        pv,
        pv_len: rm.pv_len,
    }
}

/// The strength limit's move (`strength.rs`): drawn among the main thread's lines of its last
/// completed iteration; `result` becomes that line's move, score and principal variation.
/// Without a completed iteration (a budget too small for depth 1) `result` stays.
pub(super) fn apply_strength(td: &ThreadData, result: &mut SearchResult, elo: i64, seed: u64) {
    let lines = &td.done_lines[..td.done_lines_len.min(td.root_count)];
    if lines.is_empty() || result.best_move.is_none() {
        return;
    }
    let k = strength::choose(lines, elo, seed);
    let (mv, score) = lines[k];
    if result.best_move == Some(mv) {
        return;
    }
    // The line's principal variation, if the root still has it.
    let rm = td.root[..td.root_count].iter().find(|rm| rm.mv == mv);
    result.best_move = Some(mv);
    result.score = Score::from_internal(score);
    result.score_internal = score;
    result.pv = [Move::NONE; MAX_PLY];
    match rm {
        Some(rm) if rm.pv_len > 0 && rm.pv[0] == mv => {
            result.pv[..rm.pv_len].copy_from_slice(&rm.pv[..rm.pv_len]);
            result.pv_len = rm.pv_len;
            result.ponder_move = if rm.pv_len >= 2 { Some(rm.pv[1]) } else { None };
        }
        _ => {
            result.pv[0] = mv;
            result.pv_len = 1;
            result.ponder_move = None;
        }
    }
}

/// Runs one search on the engine's threads (see [`Engine::search`]): the root moves, the
/// root position, each thread's reset, the threads' searches, the result.
pub(super) fn run_search(
    engine: &mut Engine,
    pos: &Position,
    limits: &Limits,
    on_info: &mut dyn FnMut(&SearchInfo),
    overhead_ms: u64,
    multipv: usize,
) -> SearchResult {
    let start = Instant::now();
    // A stop belongs to the search it was sent to: none is carried into this one. (A
    // ponderhit is kept: it may arrive between `go ponder` and this point; it is cleared when
    // the search ends.)
    engine.signals.stop.store(false, Ordering::SeqCst);
    let Some(root_moves) = root_moves(pos, limits) else {
        return no_move_result(pos);
    };
    let root_pos = root_position(pos);
    engine.tt.new_search();
    let threads = engine.threads.len();
    for c in &engine.counters[..threads] {
        c.store(0, Ordering::Relaxed);
    }
    for td in engine.threads.iter_mut() {
        reset_thread(td, &root_moves);
    }
    let shared = Shared {
        tt: &engine.tt,
        signals: &engine.signals,
        counters: &engine.counters[..threads],
        limits,
        budget: TimeBudget::new(limits, pos.side_to_move(), overhead_ms),
        start,
        multipv: multipv.max(1),
        threads,
        net: if engine.limit_strength {
            None // the strength map's evaluation (`Engine::search_net`)
        } else {
            engine.net.as_deref()
        },
    };
    run_threads(
        &mut engine.pool,
        &mut engine.threads,
        &shared,
        &root_pos,
        on_info,
    );
    let result = assemble_result(&engine.threads, start);
    engine.signals.stop.store(false, Ordering::SeqCst);
    engine.signals.ponderhit.store(false, Ordering::SeqCst);
    result
}

/// The result for a root without legal moves: mated or stalemate, no move.
fn no_move_result(pos: &Position) -> SearchResult {
    let v = if pos.in_check() { -MATE } else { 0 };
    SearchResult {
        best_move: None,
        ponder_move: None,
        score: Score::from_internal(v),
        score_internal: v,
        depth: 0,
        seldepth: 0,
        nodes: 0,
        time_ms: 0,
        pv: [Move::NONE; MAX_PLY],
        pv_len: 0,
    }
}

/// The root moves in their first order (captures and promotions by gain, then the rest in
/// generation order): the legal moves, restricted to `limits.search_moves` unless none of
/// those is legal. `None` when the root has no legal move.
fn root_moves(pos: &Position, limits: &Limits) -> Option<MoveList> {
    let legal = pos.legal_moves();
    if legal.is_empty() {
        return None;
    }
    let mut root_list = MoveList::new();
    for &m in legal.iter() {
        if limits.search_moves.is_empty() || limits.search_moves.contains(m) {
            root_list.push(m);
        }
    }
    if root_list.is_empty() {
        root_list = legal;
    }
    let mut ordered: [(i32, Move); MAX_MOVES] = [(0, Move::NONE); MAX_MOVES];
    let n = root_list.len();
    for (i, &m) in root_list.iter().enumerate() {
        let key = if m.is_capture() || m.is_promotion() {
            gain(pos, m)
        } else {
            0
        };
        ordered[i] = (key, m);
    }
    // Stable: equal keys keep the generation order.
    ordered[..n].sort_by_key(|o| core::cmp::Reverse(o.0));
    let mut out = MoveList::new();
    for &(_, m) in &ordered[..n] {
        out.push(m);
    }
    Some(out)
}

/// The position the threads search from: `pos` with its history compacted (or, if that is
/// not enough, cleared) so that the search's plies fit in the history's capacity.
fn root_position(pos: &Position) -> Position {
    let mut root_pos = pos.clone();
    if root_pos.ply_count() as usize + MAX_PLY + 8 > HISTORY_CAPACITY {
        root_pos.compact_history();
        if root_pos.ply_count() as usize + MAX_PLY + 8 > HISTORY_CAPACITY {
            root_pos.clear_history();
        }
    }
    root_pos
}

/// Readies one thread's tables for a new search over `root_moves` (the histories stay).
fn reset_thread(td: &mut ThreadData, root_moves: &MoveList) {
    td.root_count = root_moves.len();
    for (rm, &m) in td.root.iter_mut().zip(root_moves.iter()) {
        *rm = RootMove::EMPTY;
        rm.mv = m;
        rm.pv[0] = m;
        rm.pv_len = 1;
    }
    td.nodes = 0;
    td.seldepth = 0;
    td.completed_depth = 0;
    td.done_lines_len = 0;
    td.stack[0] = Frame {
        plies_from_null: u32::MAX / 2,
        ..Frame::default()
    };
}

/// Raises the stop flag when dropped: the main thread's search ends the helpers' however it
/// ends (a panic included, which the pool's run then propagates after they stop).
struct StopHelpers<'a>(&'a Signals);

impl Drop for StopHelpers<'_> {
    fn drop(&mut self) {
        self.0.stop.store(true, Ordering::SeqCst);
    }
}

/// Searches on every thread: `threads[0]` on the calling thread (the main one, which reports
/// through `on_info` and stops the others when it is done), `threads[i]` on the pool's
/// worker `i - 1`, each on its own copy of `root_pos`. Returns when all are done.
fn run_threads(
    pool: &mut Pool,
    threads: &mut [Box<ThreadData>],
    shared: &Shared,
    root_pos: &Position,
    on_info: &mut dyn FnMut(&SearchInfo),
) {
    let (main, helpers) = threads.split_first_mut().expect("at least one thread");
    let helper = |i: usize, td: &mut Box<ThreadData>| {
        let mut p = root_pos.clone();
        Searcher::new(td, shared, i + 1).iterate(&mut p, &mut |_| {});
    };
    pool.run(helpers, &helper, || {
        let _stop = StopHelpers(shared.signals);
        let mut p = root_pos.clone();
        Searcher::new(main, shared, 0).iterate(&mut p, on_info);
    });
}

/// The search's result: the main thread's best line, every thread's nodes.
fn assemble_result(threads: &[Box<ThreadData>], start: Instant) -> SearchResult {
    let total: u64 = threads.iter().map(|t| t.nodes).sum();
    to_result(&threads[0], total, start.elapsed().as_millis() as u64)
}
