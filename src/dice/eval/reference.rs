//! The evaluation's counts as first written: one `attackers_to` per square asked about and
//! one pass over the roll table per chance. Kept, for the tests only, as the slow
//! reference that `features::counts` (one pass over each side's pieces, the table's
//! per-set weights) must reproduce exactly.

use super::features::*;
use crate::bitboard::Bitboard;
use crate::dice::game::{DiceGame, Phase};
use crate::dice::rules::Rules;
use crate::movegen::{GenType, Legality};
use crate::position::Position;
use crate::types::{Color, PieceType};
use crate::{attacks, ALL_PIECE_TYPES};

/// The best gain of a capture by each of `c`'s piece types (index = type), in centipawns.
fn capture_gains(pos: &Position, c: Color) -> [i32; 7] {
    let them = c.flip();
    let mut gains = [0i32; 7];
    let victims = pos.color_pieces(them) & !pos.pieces(them, PieceType::KING);
    for v in victims {
        let value = VALUES[pos.piece_on(v).kind().index()];
        let att = pos.attackers_to(v);
        let ours = att & pos.color_pieces(c);
        if ours.is_empty() {
            continue;
        }
        let defended = (att & pos.color_pieces(them)).any();
        for sq in ours {
            let kind = pos.piece_on(sq).kind();
            let gain = if !defended {
                value
            } else if kind == PieceType::KING {
                0
            } else {
                (value - VALUES[kind.index()]).max(0)
            };
            let g = &mut gains[kind.index()];
            *g = (*g).max(gain);
        }
    }
    gains
}

/// The counts of `game` (not over) for its side to move. `chess` is the chess evaluation of
/// the position for the side to move; `table` the rule set's outcomes.
pub(crate) fn counts(game: &DiceGame, table: &RollTable, chess: i32, out: &mut Counts) {
    *out = [0; NUM_FEATURES];
    let rules = game.rules();
    let pos = game.position();
    let us = pos.side_to_move();
    let them = us.flip();
    out[TEMPO] = 1;
    for t in 1..=5u8 {
        let kind = PieceType::new(t).unwrap_or(PieceType::NONE);
        out[MATERIAL + t as usize - 1] =
            pos.pieces(us, kind).count() as i32 - pos.pieces(them, kind).count() as i32;
    }
    out[CHESS] = chess.clamp(-1500, 1500);

    let our_movable = movable_types(pos, us, game.en_passant_targets(), rules);
    let their_movable = movable_types(pos, them, Bitboard::EMPTY, rules);
    let awaiting_move = game.phase() == Phase::AwaitingMove;
    let ours = if awaiting_move {
        Dist::Fixed(RollInfo::of(game.dice(), rules, 1))
    } else if rules == Rules::OneDie {
        Dist::OneDie(our_movable)
    } else {
        Dist::Table(table)
    };
    let theirs = if rules == Rules::OneDie {
        Dist::OneDie(their_movable)
    } else {
        Dist::Table(table)
    };

    // King capture, both ways.
    let (our_direct, our_two) = king_threats(pos, us, rules);
    let (their_direct, their_two) = king_threats(pos, them, rules);
    let hits =
        |direct: u8, two: u8| move |r: &RollInfo| r.kinds() & direct != 0 || r.pairs & two != 0;
    out[OUR_KING_CAPTURE] = chance_count(ours.chance(hits(our_direct, our_two)));
    let their_hit = theirs.chance(hits(their_direct, their_two));
    out[THEIR_KING_CAPTURE] = if rules == Rules::TwoDice {
        if their_hit > 0.0 {
            // In check: they take the king only after our pass.
            let mut sink = KindSink { pos, kinds: 0 };
            pos.generate_moves(Legality::Legal, GenType::All, ALL_PIECE_TYPES, &mut sink);
            let answers = sink.kinds;
            let pass = ours.chance(|r| r.kinds() & answers == 0);
            chance_count(pass * their_hit)
        } else {
            0
        }
    } else {
        chance_count(their_hit)
    };

    // King zones.
    for (c, idx) in [(us, KING_ZONE_OURS), (them, KING_ZONE_THEIRS)] {
        let k = pos.king_square(c);
        let enemy = pos.color_pieces(c.flip());
        let mut n = 0;
        for sq in attacks::king_attacks(k).with(k) {
            n += (pos.attackers_to(sq) & enemy).count() as i32;
        }
        out[idx] = n;
    }

    // Captures.
    let our_gains = capture_gains(pos, us);
    let their_gains = capture_gains(pos, them);
    out[OUR_CAPTURE_GAIN] = ours.expect(|r| best_gain(&our_gains, r)).round() as i32;
    out[THEIR_CAPTURE_GAIN] = theirs.expect(|r| best_gain(&their_gains, r)).round() as i32;

    // Mobility of types, passes.
    out[MOVABLE_TYPES] = our_movable.count_ones() as i32 - their_movable.count_ones() as i32;
    if rules != Rules::OneDie {
        let our_pass = ours.chance(|r| r.kinds() & our_movable == 0);
        let their_pass = theirs.chance(|r| r.kinds() & their_movable == 0);
        out[PASS_CHANCE] = chance_count(our_pass) - chance_count(their_pass);
    }

    // Passed pawns.
    let pawn_chance = |movable: u8| match rules {
        Rules::TwoDice => 16.0 / 36.0,
        Rules::ThreeDice => 91.0 / 216.0,
        Rules::OneDie => 1.0 / movable.count_ones().max(1) as f64,
    };
    let mut ranks = [0i32; 6];
    let our_chance = passed_pawns(pos, us, pawn_chance(our_movable), &mut ranks);
    let mut their_ranks = [0i32; 6];
    let their_chance = passed_pawns(pos, them, pawn_chance(their_movable), &mut their_ranks);
    for i in 0..6 {
        out[PASSED + i] = ranks[i] - their_ranks[i];
    }
    out[PROMOTION_CHANCE] = chance_count(our_chance) - chance_count(their_chance);

    // Diversity.
    let present = |c: Color| {
        (1..=5u8)
            .filter(|&t| {
                pos.pieces(c, PieceType::new(t).unwrap_or(PieceType::NONE))
                    .any()
            })
            .count() as i32
    };
    out[DIVERSITY] = present(us) - present(them);
}
