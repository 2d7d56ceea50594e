//! Roll-aware quiescence: the value of a chance node at depth 0 when
//! [`super::Leaves::Quiescence`] is on, instead of the bare static evaluation.
//!
//! # Definition (what the search returns exactly)
//! `Q(g, q)` of a chance node `g` (awaiting its roll, not over) with `q` capture turns left
//! (`q = QS_DEPTH` at the search's depth-0 chance nodes), `s` the *quiet* static value of `g`
//! ([`crate::dice::eval::DiceEvaluator::evaluate_with_quiet`]: the evaluation without the
//! mover's expected capture gain, which the quiescence searches instead; clamped):
//! * `q = 0`: the full static value ([`crate::dice::eval::DiceEvaluator::evaluate`]);
//! * else `floor(sum(w_i * D(g rolled i, s)) / D)` over the outcomes of `g`, where a decision
//!   node's `D(h, s)` is the best of *standing pat* (`s`) and each legal **capture** of the
//!   roll: a king capture is `WIN - ply`; a capture that ends the turn is `-Q(child, q - 1)`
//!   (the child's status first: a two-dice mate or a draw is valued as in the search); a
//!   three-dice capture that leaves dice to play is `D(child, e)` with `e` the quiet value
//!   of the mid-turn game (the mover may stop capturing there).
//!
//! Where it is used: [`super::SearchConfig::ALL`] in two dice only (matches in
//! docs/dice-search.md: +54 and +33 Elo in two dice; no gain in one die; a large loss in three
//! dice, where 56 outcomes with the maximum rule at every leaf halve the depth). In two dice
//! the captures are searched once per piece type and shared by the outcomes (see
//! `quiesce_two_dice`).
//!
//! So a capture counts only with the chance of rolling a die that allows it, and a
//! recapture only with the chance of the opponent's roll allowing one: the exchange is
//! searched through the dice instead of assumed. Quiet moves are never searched (a roll with
//! no capture is worth `s`); the cap [`QS_DEPTH`] bounds the exchanges.
//!
//! # Pruning (exact relative to the definition)
//! Every outcome's value lies in `s..=WIN` (standing pat is always allowed), so Star1 runs
//! with `s` as each outcome's lower bound: a node with `s >= beta` fails high at once, and
//! the outcome windows are Star1's. Decision nodes are fail-soft alpha-beta over the
//! captures (MVV/LVA order). An outcome whose dice allow no piece type that has a capture
//! (one pseudo-legal capture generation per node finds the types) is worth `s` without a
//! generation. No table. Configurations without `star1` search the definition in full.

use super::expectimax::{floor_div, Searcher};
use super::expectimax::{terminal_value, Star1, NEG_INF, POS_INF, U};
use super::order;
use super::WIN;
use crate::bitboard::Bitboard;
use crate::dice::eval::EVAL_MAX;
use crate::dice::game::{DiceGame, Phase};
use crate::dice::roll::Roll;
use crate::dice::rules::Rules;
use crate::movegen::{GenType, Legality, MoveSink};
use crate::moves::{Move, MoveList};
use crate::position::Position;
use crate::types::{Color, PieceType};
use crate::ALL_PIECE_TYPES;

/// Capture turns searched below a depth-0 chance node (each side's capture counts one).
pub const QS_DEPTH: u32 = 2;

/// Collects the piece types of the moves pushed.
struct TypeMask<'a> {
    pos: &'a Position,
    mask: u8,
}

impl MoveSink for TypeMask<'_> {
    #[inline(always)]
    fn push(&mut self, m: Move) {
        self.mask |= self.pos.piece_on(m.from()).kind().mask_bit();
    }
}

/// A superset of the die faces that allow a capture in `game` (the side to move's): the
/// types with a pseudo-legal capture, king captures, en passant, and in one die the faces
/// 2..5 when a pawn may capture-promote (a promotion to the rolled type).
fn capture_faces(game: &DiceGame) -> u8 {
    let pos = &game.pos;
    let us = pos.side_to_move();
    let mut sink = TypeMask { pos, mask: 0 };
    pos.generate_moves(
        Legality::PseudoLegal,
        GenType::Captures,
        ALL_PIECE_TYPES,
        &mut sink,
    );
    let mut mask = sink.mask;
    let king = pos.king_square(us.flip());
    for from in pos.attackers_to(king) & pos.color_pieces(us) {
        mask |= pos.piece_on(from).kind().mask_bit();
    }
    if game.en_passant_targets().any() {
        mask |= PieceType::PAWN.mask_bit();
    }
    if game.rules() == Rules::OneDie && mask & PieceType::PAWN.mask_bit() != 0 {
        let rank = if us == Color::WHITE {
            Bitboard::RANK_7
        } else {
            Bitboard::RANK_2
        };
        if (pos.pieces(us, PieceType::PAWN) & rank).any() {
            mask |= 0b0011_1100;
        }
    }
    mask
}

/// True when `dice` may allow a capture, given [`capture_faces`].
#[inline]
fn may_capture(dice: Roll, rules: Rules, faces: u8) -> bool {
    if rules == Rules::TwoDice && dice.is_doubles() {
        faces != 0
    } else {
        dice.mask() & faces != 0
    }
}

impl Searcher {
    /// `Q` of the chance node `game` with `qdepth` capture turns left (see the module docs),
    /// its status judged first.
    fn qchance(
        &mut self,
        game: &mut DiceGame,
        qdepth: u32,
        ply: u32,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        if self.tick() {
            return 0;
        }
        if let Some(v) = terminal_value(game, ply) {
            return v;
        }
        self.quiesce(game, qdepth, ply, alpha, beta)
    }

    /// `Q` of the chance node `game` (not over) with `qdepth` capture turns left.
    pub(crate) fn quiesce(
        &mut self,
        game: &mut DiceGame,
        qdepth: u32,
        ply: u32,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        let (full, quiet) = self.static_values(game);
        if qdepth == 0 {
            return full.clamp(-EVAL_MAX, EVAL_MAX);
        }
        let stand = quiet.clamp(-EVAL_MAX, EVAL_MAX);
        let pruning = self.config.star1;
        if pruning && stand >= beta {
            return stand;
        }
        let faces = capture_faces(game);
        if faces == 0 {
            return stand;
        }
        let rules = game.rules();
        if rules == Rules::TwoDice {
            return self.quiesce_two_dice(game, qdepth, ply, stand);
        }
        let outcomes = self.outcomes(game);
        let d = outcomes.denominator as i64;
        let saved = game.turn_snapshot();
        let total: i64 = outcomes.as_slice().iter().map(|o| o.weight as i64).sum();
        let mut star1 = Star1 {
            d,
            sum: 0,
            rest_ub: total * U as i64,
            rest_lb: total * stand as i64,
        };
        for oc in outcomes.as_slice() {
            let w = oc.weight as i64;
            star1.take(w, stand, U);
            if !may_capture(oc.roll, rules, faces) {
                star1.add(w, stand);
                continue;
            }
            let window = star1.window(pruning, w, alpha, beta);
            game.set_roll_unchecked(oc.roll);
            let v = self.qdecision(game, qdepth, ply, window.0, window.1, stand);
            game.restore_turn(saved);
            if self.aborted {
                return 0;
            }
            if let Some((v, _)) = star1.cut(pruning, w, v, window) {
                return v;
            }
            star1.add(w, v);
        }
        star1.value()
    }

    /// Two dice: a roll allows the captures of its two types (every type on doubles), so
    /// each capture is searched once and each type's best capture is shared by every
    /// outcome that allows the type; an outcome is worth the best of `stand` and its types'.
    fn quiesce_two_dice(&mut self, game: &mut DiceGame, qdepth: u32, ply: u32, stand: i32) -> i32 {
        let pruning = self.config.star1;
        let mut caps = MoveList::new();
        game.pos.generate_moves(
            Legality::Legal,
            GenType::Captures,
            ALL_PIECE_TYPES,
            &mut caps,
        );
        crate::dice::gen::king_captures(&game.pos, ALL_PIECE_TYPES, false, &mut caps);
        if caps.is_empty() {
            return stand;
        }
        if self.config.ordering {
            order::sort_moves(&game.pos, caps.as_mut_slice(), Move::NONE);
        }
        let win = WIN - ply as i32;
        let mut by_type = [stand; 7];
        for &m in caps.iter() {
            let t = game.pos.piece_on(m.from()).kind().to_u8() as usize;
            if by_type[t] == win {
                continue;
            }
            if crate::dice::gen::is_king_capture(&game.pos, m) {
                by_type[t] = win;
                continue;
            }
            let a = if pruning { by_type[t] } else { NEG_INF };
            let u = game.make_move_unchecked(m);
            let v = -self.qchance(game, qdepth - 1, ply + 1, -POS_INF, -a);
            game.unmake_move_unchecked(m, &u);
            if self.aborted {
                return 0;
            }
            by_type[t] = by_type[t].max(v);
        }
        let all = by_type.iter().copied().max().unwrap_or(stand);
        let outcomes = &self.fixed[Rules::TwoDice as usize];
        let mut sum = 0i64;
        for oc in outcomes.as_slice() {
            let v = if oc.roll.is_doubles() {
                all
            } else {
                oc.roll
                    .dice()
                    .iter()
                    .map(|&f| by_type[f as usize])
                    .max()
                    .unwrap_or(stand)
            };
            sum += oc.weight as i64 * v as i64;
        }
        floor_div(sum, outcomes.denominator as i64) as i32
    }

    /// `D` of the decision node `game` (dice rolled or dice left) with standing pat worth
    /// `stand`: the best of `stand` and the roll's captures.
    fn qdecision(
        &mut self,
        game: &mut DiceGame,
        qdepth: u32,
        ply: u32,
        alpha: i32,
        beta: i32,
        stand: i32,
    ) -> i32 {
        if self.tick() {
            return 0;
        }
        let pruning = self.config.star1;
        let mut best = stand;
        if pruning && best >= beta {
            return best;
        }
        let mut list = MoveList::new();
        game.generate_moves_in_place(&mut list);
        let mut caps = MoveList::new();
        for &m in list.iter() {
            if m.is_capture() {
                if crate::dice::gen::is_king_capture(&game.pos, m) {
                    return WIN - ply as i32;
                }
                caps.push(m);
            }
        }
        if caps.is_empty() {
            return best;
        }
        if self.config.ordering {
            order::sort_moves(&game.pos, caps.as_mut_slice(), Move::NONE);
        }
        let mut alpha = alpha;
        for &m in caps.iter() {
            let (a, b) = if pruning {
                (alpha.max(best), beta)
            } else {
                (NEG_INF, POS_INF)
            };
            let u = game.make_move_unchecked(m);
            let v = if game.phase() == Phase::AwaitingMove {
                let (_, quiet) = self.static_values(game);
                let e = quiet.clamp(-EVAL_MAX, EVAL_MAX);
                self.qdecision(game, qdepth, ply, a, b, e)
            } else {
                -self.qchance(game, qdepth - 1, ply + 1, -b, -a)
            };
            game.unmake_move_unchecked(m, &u);
            if self.aborted {
                return 0;
            }
            if v > best {
                best = v;
            }
            if pruning {
                alpha = alpha.max(best);
                if best >= beta {
                    break;
                }
            }
        }
        best
    }
}
