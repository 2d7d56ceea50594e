//! The staged move picker: the hash move first, then captures that do not lose material
//! (by static exchange) ordered by victim value and capture history, then the killers and
//! the counter-move, then the other quiet moves by their histories, then the losing
//! captures. Moves come from the legal generator one class at a time, so a stage that a
//! cutoff makes unnecessary is never generated.
//!
//! Quiescence has its own picker ([`MovePicker::new_qsearch`]): captures and queen
//! promotions, or every evasion when in check. The main-search picker always gives every
//! legal move; the search's shallow pruning drops quiet moves itself, because a quiet move
//! that gives check is not pruned (`Position::gives_check`).

use super::history::{ContTable, History};
use super::see::{see_ge, SEE_VALUE};
use crate::bitboard::Bitboard;
use crate::movegen::{GenType, Legality, ALL_PIECE_TYPES};
use crate::moves::{Move, MoveList, MAX_MOVES};
use crate::position::Position;
use crate::types::{Color, PieceType};
use core::mem::MaybeUninit;

#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Debug)]
enum Stage {
    TtMove,
    GenCaptures,
    GoodCaptures,
    Killer1,
    Killer2,
    Counter,
    GenQuiets,
    Quiets,
    BadCaptures,
    // Quiescence / evasions.
    QsGen,
    QsMoves,
    Done,
}

/// The scores of the picker's current moves, index for index: pushed in the moves' order
/// by the scoring functions, read only below their count. Not zeroed when a picker is made
/// (1 KiB at every node, cleared for nothing: 2% of the search's time), as `MoveList`'s
/// entries are not.
struct Scores {
    vals: [MaybeUninit<i32>; MAX_MOVES],
    len: usize,
}

impl Scores {
    #[inline(always)]
    const fn new() -> Scores {
        Scores {
            vals: [const { MaybeUninit::uninit() }; MAX_MOVES],
            len: 0,
        }
    }

    #[inline(always)]
    fn clear(&mut self) {
        self.len = 0;
    }

    /// Appends a score; past the capacity (never reached: a list holds at most
    /// `MAX_MOVES` moves) it is dropped.
    #[inline(always)]
    fn push(&mut self, s: i32) {
        if let Some(slot) = self.vals.get_mut(self.len) {
            slot.write(s);
            self.len += 1;
        }
    }

    /// The scores pushed since the last clear.
    #[inline(always)]
    fn as_mut_slice(&mut self) -> &mut [i32] {
        // SAFETY: `len <= MAX_MOVES` and entries `0..len` were written by `push`;
        // `MaybeUninit<i32>` has the layout of `i32`, and the slice borrows `self` mutably.
        unsafe { core::slice::from_raw_parts_mut(self.vals.as_mut_ptr() as *mut i32, self.len) }
    }
}

/// The picker of one node.
pub struct MovePicker {
    stage: Stage,
    tt_move: Move,
    killers: [Move; 2],
    counter: Move,
    moves: MoveList,
    scores: Scores,
    cursor: usize,
    bad: MoveList,
    bad_cursor: usize,
    /// Quiescence only: generate the captures and queen promotions (not in check) rather
    /// than every evasion (in check). Unused by the main-search stages.
    qs_captures_only: bool,
}

/// What the picker needs to score quiet moves: the continuation tables of the moves one and
/// two plies back (none at the root or after a null move).
#[derive(Copy, Clone)]
pub struct QuietContext<'a> {
    /// Continuation table for the previous move.
    pub cont1: Option<&'a ContTable>,
    /// Continuation table for the move two plies back.
    pub cont2: Option<&'a ContTable>,
}

#[inline(always)]
fn is_quiet(m: Move) -> bool {
    !m.is_capture() && !m.is_promotion()
}

impl MovePicker {
    /// A picker for the main search.
    pub fn new(tt_move: Move, killers: [Move; 2], counter: Move) -> MovePicker {
        MovePicker {
            stage: Stage::TtMove,
            tt_move,
            killers,
            counter,
            moves: MoveList::new(),
            scores: Scores::new(),
            cursor: 0,
            bad: MoveList::new(),
            bad_cursor: 0,
            qs_captures_only: false,
        }
    }

    /// A picker for quiescence: captures and queen promotions (every evasion in check), the
    /// hash move first when it is one of those.
    pub fn new_qsearch(tt_move: Move, in_check: bool) -> MovePicker {
        let mut p = MovePicker::new(tt_move, [Move::NONE; 2], Move::NONE);
        p.stage = Stage::QsGen;
        p.qs_captures_only = !in_check;
        p
    }

    fn pick_best(&mut self) -> Option<(Move, i32)> {
        // The two lengths are equal once a stage has scored its moves.
        let n = self.moves.len().min(self.scores.len);
        if self.cursor >= n {
            return None;
        }
        // The first move with the highest score, in two passes that compile to straight
        // vector code and one predictable scan (a single `if s > best` pass mispredicts once
        // per new maximum): the same move, so the same search, as the one-pass loop.
        let scores = self.scores.as_mut_slice();
        let rest = &scores[self.cursor..n];
        let high = rest.iter().fold(i32::MIN, |a, &s| a.max(s));
        let best = self.cursor + rest.iter().position(|&s| s == high).unwrap_or(0);
        let slice = self.moves.as_mut_slice();
        slice.swap(self.cursor, best);
        scores.swap(self.cursor, best);
        let r = (slice[self.cursor], scores[self.cursor]);
        self.cursor += 1;
        Some(r)
    }

    fn score_captures(&mut self, pos: &Position, hist: &History) {
        self.scores.clear();
        for &m in self.moves.as_slice() {
            let pc = pos.piece_on(m.from());
            let victim = if m.is_en_passant() {
                PieceType::PAWN
            } else {
                pos.piece_on(m.to()).kind()
            };
            let mut s = SEE_VALUE[victim.index()] * 16
                + hist.capture[pc.index()][m.to().index()][victim.index()] as i32 / 8;
            if m.is_promotion() {
                s += SEE_VALUE[m.promotion().index()] * 16;
            }
            self.scores.push(s);
        }
    }

    fn score_quiets(&mut self, pos: &Position, hist: &History, ctx: &QuietContext) {
        let side = pos.side_to_move().index();
        self.scores.clear();
        for &m in self.moves.as_slice() {
            let pc = pos.piece_on(m.from()).index();
            let to = m.to().index();
            let mut s = hist.butterfly[side][m.from().index()][to] as i32;
            if let Some(c) = ctx.cont1 {
                s += c[pc][to] as i32;
            }
            if let Some(c) = ctx.cont2 {
                s += c[pc][to] as i32;
            }
            if m.is_promotion() {
                s = if m.promotion() == PieceType::QUEEN {
                    1 << 20
                } else {
                    -(1 << 20)
                };
            }
            self.scores.push(s);
        }
    }

    /// The next move to search, or `None` when all were given.
    pub fn next(&mut self, pos: &Position, hist: &History, ctx: &QuietContext) -> Option<Move> {
        loop {
            match self.stage {
                Stage::TtMove => {
                    self.stage = Stage::GenCaptures;
                    if self.tt_move != Move::NONE && pos.is_legal(self.tt_move) {
                        return Some(self.tt_move);
                    }
                    self.tt_move = Move::NONE;
                }
                Stage::GenCaptures => {
                    self.moves.clear();
                    pos.generate_moves(
                        Legality::Legal,
                        GenType::Captures,
                        ALL_PIECE_TYPES,
                        &mut self.moves,
                    );
                    self.score_captures(pos, hist);
                    self.cursor = 0;
                    self.stage = Stage::GoodCaptures;
                }
                Stage::GoodCaptures => match self.pick_best() {
                    Some((m, _)) => {
                        if m == self.tt_move {
                            continue;
                        }
                        if see_ge(pos, m, 0) {
                            return Some(m);
                        }
                        self.bad.push(m);
                    }
                    None => self.stage = Stage::Killer1,
                },
                Stage::Killer1 | Stage::Killer2 | Stage::Counter => {
                    let m = match self.stage {
                        Stage::Killer1 => self.killers[0],
                        Stage::Killer2 => self.killers[1],
                        _ => self.counter,
                    };
                    self.stage = match self.stage {
                        Stage::Killer1 => Stage::Killer2,
                        Stage::Killer2 => Stage::Counter,
                        _ => Stage::GenQuiets,
                    };
                    if m == Move::NONE || m == self.tt_move || !is_quiet(m) {
                        continue;
                    }
                    if self.stage == Stage::GenQuiets
                        && (m == self.killers[0] || m == self.killers[1])
                    {
                        continue;
                    }
                    if self.stage == Stage::Counter && m == self.killers[0] {
                        continue;
                    }
                    if pos.is_legal(m) {
                        return Some(m);
                    }
                }
                Stage::GenQuiets => {
                    self.stage = Stage::Quiets;
                    self.moves.clear();
                    pos.generate_moves(
                        Legality::Legal,
                        GenType::Quiets,
                        ALL_PIECE_TYPES,
                        &mut self.moves,
                    );
                    self.score_quiets(pos, hist, ctx);
                    self.cursor = 0;
                }
                Stage::Quiets => match self.pick_best() {
                    Some((m, _)) => {
                        if m == self.tt_move
                            || m == self.killers[0]
                            || m == self.killers[1]
                            || m == self.counter
                        {
                            continue;
                        }
                        return Some(m);
                    }
                    None => self.stage = Stage::BadCaptures,
                },
                Stage::BadCaptures => {
                    if self.bad_cursor < self.bad.len() {
                        let m = self.bad.as_slice()[self.bad_cursor];
                        self.bad_cursor += 1;
                        return Some(m);
                    }
                    self.stage = Stage::Done;
                }
                Stage::QsGen => {
                    self.moves.clear();
                    let gen = if self.qs_captures_only {
                        GenType::Captures
                    } else {
                        GenType::All
                    };
                    pos.generate_moves(Legality::Legal, gen, ALL_PIECE_TYPES, &mut self.moves);
                    let us = pos.side_to_move();
                    let seventh = if us == Color::WHITE {
                        Bitboard::RANK_7
                    } else {
                        Bitboard::RANK_2
                    };
                    if self.qs_captures_only && (pos.pieces(us, PieceType::PAWN) & seventh).any() {
                        // Quiet queen promotions join the captures (only pawns on the
                        // seventh rank have one, so the others are not generated).
                        let mut promos = MoveList::new();
                        pos.generate_moves(
                            Legality::Legal,
                            GenType::Quiets,
                            PieceType::PAWN.mask_bit(),
                            &mut promos,
                        );
                        for &m in promos.iter() {
                            if m.is_promotion() && m.promotion() == PieceType::QUEEN {
                                self.moves.push(m);
                            }
                        }
                    }
                    if self.qs_captures_only {
                        self.score_captures(pos, hist);
                    } else {
                        // Evasions: captures by value first, then quiets by history.
                        let side = pos.side_to_move().index();
                        self.scores.clear();
                        for &m in self.moves.as_slice() {
                            self.scores.push(if m.is_capture() {
                                (1 << 20) + SEE_VALUE[pos.piece_on(m.to()).kind().index()]
                            } else {
                                hist.butterfly[side][m.from().index()][m.to().index()] as i32
                            });
                        }
                    }
                    self.cursor = 0;
                    self.stage = Stage::QsMoves;
                    if self.tt_move != Move::NONE && self.moves.contains(self.tt_move) {
                        return Some(self.tt_move);
                    }
                    self.tt_move = Move::NONE;
                }
                Stage::QsMoves => match self.pick_best() {
                    Some((m, _)) => {
                        if m == self.tt_move {
                            continue;
                        }
                        return Some(m);
                    }
                    None => self.stage = Stage::Done,
                },
                Stage::Done => return None,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    const FENS: [&str; 6] = [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        // Quiet and capturing promotions, both colours.
        "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
        // En passant.
        "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1",
        // In check (evasions, a capture among them).
        "4k3/8/8/8/8/5n2/8/4KR2 w - - 0 1",
        // Double check.
        "4k3/8/8/8/1b6/8/4r3/R3K3 w Q - 0 1",
    ];

    fn history() -> Box<History> {
        History::try_new_boxed().unwrap()
    }

    fn all_from(mut p: MovePicker, pos: &Position) -> Vec<Move> {
        let hist = history();
        let ctx = QuietContext {
            cont1: None,
            cont2: None,
        };
        let mut out = Vec::new();
        while let Some(m) = p.next(pos, &hist, &ctx) {
            out.push(m);
        }
        out
    }

    fn as_set(moves: &[Move]) -> HashSet<Move> {
        let set: HashSet<Move> = moves.iter().copied().collect();
        assert_eq!(set.len(), moves.len(), "a move was given twice: {moves:?}");
        set
    }

    #[test]
    fn main_picker_gives_every_legal_move_once() {
        for fen in FENS {
            let pos = Position::from_fen(fen).unwrap();
            let legal: Vec<Move> = pos.legal_moves().iter().copied().collect();
            let quiet: Vec<Move> = legal.iter().copied().filter(|&m| is_quiet(m)).collect();
            let capture = legal.iter().copied().find(|m| !is_quiet(*m));
            // Hash move, killers and counter: legal quiets, a capture, a repeat and NONE.
            let q = |i: usize| quiet.get(i).copied().unwrap_or(Move::NONE);
            let setups = [
                (Move::NONE, [Move::NONE; 2], Move::NONE),
                (q(0), [q(1), q(2)], q(3)),
                (capture.unwrap_or(Move::NONE), [q(0), q(0)], q(0)),
                (q(1), [q(1), capture.unwrap_or(Move::NONE)], q(1)),
            ];
            for (tt, killers, counter) in setups {
                let got = all_from(MovePicker::new(tt, killers, counter), &pos);
                assert_eq!(as_set(&got), as_set(&legal), "{fen}");
                if tt != Move::NONE {
                    assert_eq!(got[0], tt, "{fen}: the hash move first");
                }
            }
        }
    }

    #[test]
    fn qsearch_picker_gives_captures_and_queen_promotions_or_every_evasion() {
        for fen in FENS {
            let pos = Position::from_fen(fen).unwrap();
            let in_check = pos.in_check();
            let want: Vec<Move> = pos
                .legal_moves()
                .iter()
                .copied()
                .filter(|&m| {
                    in_check
                        || m.is_capture()
                        || (m.is_promotion() && m.promotion() == PieceType::QUEEN)
                })
                .collect();
            let got = all_from(MovePicker::new_qsearch(Move::NONE, in_check), &pos);
            assert_eq!(as_set(&got), as_set(&want), "{fen}");
            if let Some(&first) = want.last() {
                let got = all_from(MovePicker::new_qsearch(first, in_check), &pos);
                assert_eq!(got[0], first, "{fen}: the hash move first");
                assert_eq!(as_set(&got), as_set(&want), "{fen}");
            }
        }
    }
}
