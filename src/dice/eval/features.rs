//! The evaluation's features: where each weight lives, and the counts of one game.
//!
//! Every term is a weight times a count, the count seen from the side to move ("us", the
//! player whose turn it is) and mostly ours minus theirs, so the evaluation is linear in the
//! weights and the tuner (`lab/dice_tune.rs`) fits them all at once from the counts.
//! Chances are counted in 1/1024 ([`ONE`]), expected captures in centipawns.
//!
//! The dice-aware counts work on the distribution of a roll: the rule set's fixed outcomes
//! with their exact weights (two and three dice), the movable types uniformly (one die), or
//! the dice already rolled (a game awaiting its move, or in the middle of a three-dice turn).
//! Which types "can move" is judged on the board with attack bitboards (pushes and captures
//! for pawns, promotions making knight to queen movable in one die, attacks on squares not
//! our own for pieces), except for a two-dice side in check, whose legal answers are
//! generated.
//!
//! Speed: the counts are most of a Dice Chess search's time, so they are gathered in one
//! pass over each side's pieces (`SideAttacks`: each piece's attacks computed once, giving
//! movable types, king threats, king-zone attacks and capture targets together), and every
//! chance over the rule set's table is one or two lookups in per-set weights computed when
//! the evaluator is made. `reference.rs` (tests only) keeps the first, direct version; a test
//! checks that both give the same counts in every position of random games.

use super::super::game::{DiceGame, Phase};
use super::super::roll::{Outcomes, Roll};
use super::super::rules::Rules;
use crate::attacks;
use crate::bitboard::Bitboard;
use crate::movegen::{GenType, Legality, MoveSink};
use crate::moves::Move;
use crate::position::Position;
use crate::types::{Color, PieceType, Square};
use crate::ALL_PIECE_TYPES;

/// A chance of 1 in the counts (chances are counted in 1/1024).
pub const ONE: f64 = 1024.0;

/// Always 1: the side to move's bonus (or malus) for having the roll.
pub const TEMPO: usize = 0;
/// Material, ours minus theirs: pawn, knight, bishop, rook, queen (5 features).
pub const MATERIAL: usize = 1;
/// The chess evaluation (`crate::eval`, its tuned piece-square tables, mobility, pawn
/// structure and the rest) for the side to move, in centipawns clamped to +-1500.
pub const CHESS: usize = MATERIAL + 5;
/// The chance that our roll (or the dice we hold) lets us capture their king at once.
pub const OUR_KING_CAPTURE: usize = CHESS + 1;
/// King danger: the chance that their next roll lets them capture our king, on this board
/// (two dice: the chance that we have no answer to a check, times their chance to take).
pub const THEIR_KING_CAPTURE: usize = OUR_KING_CAPTURE + 1;
/// Attacks of their pieces on our king and its neighbour squares (one per attacker and
/// square).
pub const KING_ZONE_OURS: usize = THEIR_KING_CAPTURE + 1;
/// Attacks of our pieces on their king zone.
pub const KING_ZONE_THEIRS: usize = KING_ZONE_OURS + 1;
/// The best capture our roll allows, expected over the roll, in centipawns (a defended
/// victim counts its value less the capturer's).
pub const OUR_CAPTURE_GAIN: usize = KING_ZONE_THEIRS + 1;
/// The same for their next roll on this board.
pub const THEIR_CAPTURE_GAIN: usize = OUR_CAPTURE_GAIN + 1;
/// Movable piece types, ours minus theirs.
pub const MOVABLE_TYPES: usize = THEIR_CAPTURE_GAIN + 1;
/// The chance that a roll moves nothing (a pass), ours minus theirs (two and three dice).
pub const PASS_CHANCE: usize = MOVABLE_TYPES + 1;
/// Passed pawns by relative rank 2..7 (6 features), ours minus theirs.
pub const PASSED: usize = PASS_CHANCE + 1;
/// Passed pawns with every square to promotion empty, weighted by the chance of rolling a
/// pawn move on each of the turns it needs (`p^squares`), ours minus theirs.
pub const PROMOTION_CHANCE: usize = PASSED + 6;
/// Piece diversity: the types among pawn .. queen we have, minus theirs.
pub const DIVERSITY: usize = PROMOTION_CHANCE + 1;
/// Number of features.
pub const NUM_FEATURES: usize = DIVERSITY + 1;

/// The name of each feature, for the tuner and the weights file.
#[cfg(feature = "lab")]
pub const NAMES: [&str; NUM_FEATURES] = [
    "tempo",
    "pawn",
    "knight",
    "bishop",
    "rook",
    "queen",
    "chess",
    "our_king_capture",
    "their_king_capture",
    "king_zone_ours",
    "king_zone_theirs",
    "our_capture_gain",
    "their_capture_gain",
    "movable_types",
    "pass_chance",
    "passed_2",
    "passed_3",
    "passed_4",
    "passed_5",
    "passed_6",
    "passed_7",
    "promotion_chance",
    "diversity",
];

/// The counts of one game.
pub type Counts = [i32; NUM_FEATURES];

/// Material values for the capture gains, by piece type (the king: never captured for gain).
pub(super) const VALUES: [i32; 7] = [0, 100, 300, 300, 500, 900, 0];
// `SideAttacks::capture_gains` takes knights and bishops as victims of one value.
const _: () = assert!(VALUES[2] == VALUES[3]);

pub(super) const KNIGHT_TO_QUEEN: u8 = 0b0011_1100;

/// One roll reduced to what the counts ask of it.
#[derive(Copy, Clone, Debug, Default)]
pub(crate) struct RollInfo {
    /// The faces (bit `1 << face`).
    mask: u8,
    /// The faces shown at least twice (three dice: a piece may move twice).
    pub(super) pairs: u8,
    /// Two-dice doubles: any piece may move.
    any: bool,
    weight: u32,
}

impl RollInfo {
    pub(super) fn of(roll: Roll, rules: Rules, weight: u32) -> RollInfo {
        let mut pairs = 0;
        let d = roll.dice();
        for i in 0..d.len() {
            for j in i + 1..d.len() {
                if d[i] == d[j] {
                    pairs |= 1 << d[i];
                }
            }
        }
        RollInfo {
            mask: roll.mask(),
            pairs: if rules == Rules::ThreeDice { pairs } else { 0 },
            any: rules == Rules::TwoDice && roll.is_doubles(),
            weight,
        }
    }

    /// The types a piece of which may move (doubles: all).
    pub(super) fn kinds(&self) -> u8 {
        if self.any {
            ALL_PIECE_TYPES
        } else {
            self.mask
        }
    }
}

/// The rule set's fixed outcomes, reduced (one die: unused; it depends on the board).
#[derive(Copy, Clone, Debug)]
pub(crate) struct RollTable {
    rolls: [RollInfo; 56],
    len: usize,
    denominator: u32,
    /// For every set of piece types (bit `1 << type`), the total weight of the rolls that
    /// let a piece of one of them move (`kinds() & set != 0`): a chance in one lookup.
    any_weight: [u32; 256],
    /// Three dice: for each face `f` and set, the total weight of the rolls that show `f`
    /// at least twice and let no piece of the set move. Three dice show at most one face
    /// twice, so these events are disjoint over the faces and their weights add up.
    pair_none: [[u32; 128]; 7],
}

impl RollTable {
    pub(crate) fn new(rules: Rules) -> RollTable {
        let o = Outcomes::fixed(rules);
        let mut t = RollTable {
            rolls: [RollInfo::default(); 56],
            len: 0,
            denominator: o.denominator(),
            any_weight: [0; 256],
            pair_none: [[0; 128]; 7],
        };
        for oc in o.as_slice() {
            t.rolls[t.len] = RollInfo::of(oc.roll, rules, oc.weight);
            t.len += 1;
        }
        for set in 0..256 {
            t.any_weight[set] = t.rolls[..t.len]
                .iter()
                .filter(|r| u32::from(r.kinds()) & set as u32 != 0)
                .map(|r| r.weight)
                .sum();
        }
        for (face, row) in t.pair_none.iter_mut().enumerate() {
            for (set, w) in row.iter_mut().enumerate() {
                *w = t.rolls[..t.len]
                    .iter()
                    .filter(|r| r.pairs & 1 << face != 0 && u32::from(r.kinds()) & set as u32 == 0)
                    .map(|r| r.weight)
                    .sum();
            }
        }
        t
    }
}

/// A roll still to come, or one already made.
#[derive(Copy, Clone)]
pub(super) enum Dist<'a> {
    Table(&'a RollTable),
    /// One die over these movable types, uniformly.
    OneDie(u8),
    Fixed(RollInfo),
}

impl Dist<'_> {
    /// The chance (0..=1) that `hit` holds for the roll.
    pub(super) fn chance(&self, hit: impl Fn(&RollInfo) -> bool) -> f64 {
        match *self {
            Dist::Table(t) => {
                let mut w = 0;
                for r in &t.rolls[..t.len] {
                    if hit(r) {
                        w += r.weight;
                    }
                }
                w as f64 / t.denominator as f64
            }
            Dist::OneDie(movable) => self.mean_one_die(movable, |r| f64::from(u8::from(hit(r)))),
            Dist::Fixed(r) => f64::from(u8::from(hit(&r))),
        }
    }

    /// The expected value of `f` over the roll.
    pub(super) fn expect(&self, f: impl Fn(&RollInfo) -> f64) -> f64 {
        match *self {
            Dist::Table(t) => {
                let mut s = 0.0;
                for r in &t.rolls[..t.len] {
                    s += f(r) * r.weight as f64;
                }
                s / t.denominator as f64
            }
            Dist::OneDie(movable) => self.mean_one_die(movable, f),
            Dist::Fixed(r) => f(&r),
        }
    }

    /// The chance that the roll lets no piece of a type in `set` move.
    fn chance_none(&self, set: u8) -> f64 {
        match *self {
            Dist::Table(t) => {
                (t.denominator - t.any_weight[set as usize]) as f64 / t.denominator as f64
            }
            _ => self.chance(|r| r.kinds() & set == 0),
        }
    }

    /// The chance of a king capture: a type in `direct` rolled, or (three dice) two dice
    /// of a type in `two_step`; for the table, two lookups and one per two-step face.
    fn chance_king(&self, direct: u8, two_step: u8) -> f64 {
        match *self {
            Dist::Table(t) => {
                let mut w = t.any_weight[direct as usize];
                for (face, row) in t.pair_none.iter().enumerate() {
                    if two_step & 1 << face != 0 {
                        w += row[direct as usize & 127];
                    }
                }
                w as f64 / t.denominator as f64
            }
            _ => self.chance(|r| r.kinds() & direct != 0 || r.pairs & two_step != 0),
        }
    }

    /// The expected best gain over the roll ([`Dist::expect`] of [`best_gain`]). For the
    /// table, with the types in descending order of gain, a roll's best is the gain of the
    /// first type it allows, so the expectation is `sum_k g_k (W(S_k) - W(S_k-1))` with
    /// `S_k` the first `k` types and `W` the table's per-set weight: the same integer sum
    /// divided by the same denominator, so the same value to the last bit.
    fn expect_best_gain(&self, gains: &[i32; 7]) -> f64 {
        match *self {
            Dist::Table(t) => {
                let mut order = [(0i32, 0u8); 6];
                for (i, slot) in order.iter_mut().enumerate() {
                    *slot = (gains[i + 1], i as u8 + 1);
                }
                order.sort_unstable_by_key(|&(g, _)| std::cmp::Reverse(g));
                let mut set = 0u8;
                let mut prev = 0u32;
                let mut sum = 0i64;
                for (g, kind) in order {
                    if g <= 0 {
                        break;
                    }
                    set |= 1 << kind;
                    let w = t.any_weight[set as usize];
                    sum += i64::from(g) * i64::from(w - prev);
                    prev = w;
                }
                sum as f64 / t.denominator as f64
            }
            _ => self.expect(|r| best_gain(gains, r)),
        }
    }

    fn mean_one_die(&self, movable: u8, f: impl Fn(&RollInfo) -> f64) -> f64 {
        let n = movable.count_ones();
        if n == 0 {
            return 0.0;
        }
        let mut s = 0.0;
        for face in 1..=6u8 {
            if movable & 1 << face != 0 {
                s += f(&RollInfo {
                    mask: 1 << face,
                    pairs: 0,
                    any: false,
                    weight: 1,
                });
            }
        }
        s / n as f64
    }
}

/// Records the piece types of the moves generated.
pub(super) struct KindSink<'a> {
    pub(super) pos: &'a Position,
    pub(super) kinds: u8,
}

impl MoveSink for KindSink<'_> {
    #[inline(always)]
    fn push(&mut self, m: Move) {
        self.kinds |= self.pos.piece_on(m.from()).kind().mask_bit();
    }

    #[inline(always)]
    fn push_targets(&mut self, from: Square, targets: Bitboard, _flag: u16) {
        if targets.any() {
            self.kinds |= self.pos.piece_on(from).kind().mask_bit();
        }
    }
}

fn promo_rank(c: Color) -> Bitboard {
    if c == Color::WHITE {
        Bitboard::RANK_7
    } else {
        Bitboard::RANK_2
    }
}

fn pawn_push(c: Color, b: Bitboard) -> Bitboard {
    if c == Color::WHITE {
        b.north()
    } else {
        b.south()
    }
}

/// The types of `c` with a move on the board (see the module docs), `ep` the en passant
/// targets it may capture on.
pub(crate) fn movable_types(pos: &Position, c: Color, ep: Bitboard, rules: Rules) -> u8 {
    let own = pos.color_pieces(c);
    let theirs = pos.color_pieces(c.flip());
    let occ = pos.occupied();
    let mut kinds = 0u8;
    let pawns = pos.pieces(c, PieceType::PAWN);
    let mut promoting = false;
    for sq in pawns {
        let push = pawn_push(c, sq.bb()) & !occ;
        let caps = attacks::pawn_attacks(c, sq) & (theirs | ep);
        if (push | caps).any() {
            kinds |= PieceType::PAWN.mask_bit();
            promoting |= promo_rank(c).has(sq);
        }
    }
    if promoting && rules == Rules::OneDie {
        kinds |= KNIGHT_TO_QUEEN;
    }
    for kind in [
        PieceType::KNIGHT,
        PieceType::BISHOP,
        PieceType::ROOK,
        PieceType::QUEEN,
        PieceType::KING,
    ] {
        if kinds & kind.mask_bit() != 0 {
            continue;
        }
        for sq in pos.pieces(c, kind) {
            if (piece_attacks(kind, sq, occ) & !own).any() {
                kinds |= kind.mask_bit();
                break;
            }
        }
    }
    kinds
}

fn piece_attacks(kind: PieceType, sq: Square, occ: Bitboard) -> Bitboard {
    match kind {
        PieceType::KNIGHT => attacks::knight_attacks(sq),
        PieceType::BISHOP => attacks::bishop_attacks(sq, occ),
        PieceType::ROOK => attacks::rook_attacks(sq, occ),
        PieceType::QUEEN => attacks::queen_attacks(sq, occ),
        PieceType::KING => attacks::king_attacks(sq),
        _ => Bitboard::EMPTY,
    }
}

/// What one side's pieces do on the board, gathered in one pass over them (each piece's
/// attacks computed once): the inputs of the counts that [`movable_types`],
/// [`king_threats`] and an `attackers_to` per square would give one by one.
struct SideAttacks {
    side: Color,
    /// The types with a move on the board ([`movable_types`]).
    movable: u8,
    /// The types attacking the enemy king ([`king_threats`]'s first).
    direct: u8,
    /// The types with a piece one move from attacking it (three dice; [`king_threats`]'s
    /// second).
    two_step: u8,
    /// Every square a piece of this side attacks (own pieces included: they are defended).
    all: Bitboard,
    /// The squares attacked by the pieces of each type (index = type).
    by_kind: [Bitboard; 7],
    /// Attacks on the enemy king's square and its neighbours, one per piece and square.
    zone: i32,
}

impl SideAttacks {
    fn of(pos: &Position, c: Color, ep: Bitboard, rules: Rules) -> SideAttacks {
        let them = c.flip();
        let own = pos.color_pieces(c);
        let theirs = pos.color_pieces(them);
        let occ = pos.occupied();
        let king = pos.king_square(them);
        let zone_squares = attacks::king_attacks(king).with(king);
        let three = rules == Rules::ThreeDice;
        let mut s = SideAttacks {
            side: c,
            movable: 0,
            direct: 0,
            two_step: 0,
            all: Bitboard::EMPTY,
            by_kind: [Bitboard::EMPTY; 7],
            zone: 0,
        };
        let pawns = pos.pieces(c, PieceType::PAWN);
        let mut promoting = false;
        let mut pawn_attacks = Bitboard::EMPTY;
        for sq in pawns {
            let att = attacks::pawn_attacks(c, sq);
            pawn_attacks |= att;
            s.zone += (att & zone_squares).count() as i32;
            let push = pawn_push(c, sq.bb()) & !occ;
            if (push | (att & (theirs | ep))).any() {
                s.movable |= PieceType::PAWN.mask_bit();
                promoting |= promo_rank(c).has(sq);
            }
            if att.has(king) {
                s.direct |= PieceType::PAWN.mask_bit();
                if rules == Rules::OneDie && promo_rank(c).has(sq) {
                    s.direct |= KNIGHT_TO_QUEEN;
                }
            }
        }
        if promoting && rules == Rules::OneDie {
            s.movable |= KNIGHT_TO_QUEEN;
        }
        if three && (pawn_push(c, pawns) & !occ & attacks::pawn_attacks(them, king)).any() {
            s.two_step |= PieceType::PAWN.mask_bit();
        }
        s.by_kind[PieceType::PAWN.index()] = pawn_attacks;
        s.all = pawn_attacks;
        for kind in [
            PieceType::KNIGHT,
            PieceType::BISHOP,
            PieceType::ROOK,
            PieceType::QUEEN,
            PieceType::KING,
        ] {
            let spots = if three {
                piece_attacks(kind, king, occ) & !own
            } else {
                Bitboard::EMPTY
            };
            let mut kind_attacks = Bitboard::EMPTY;
            for sq in pos.pieces(c, kind) {
                let att = piece_attacks(kind, sq, occ);
                kind_attacks |= att;
                s.zone += (att & zone_squares).count() as i32;
                if (att & !own).any() {
                    s.movable |= kind.mask_bit();
                }
                if att.has(king) {
                    s.direct |= kind.mask_bit();
                } else if (att & spots).any() {
                    s.two_step |= kind.mask_bit();
                }
            }
            s.by_kind[kind.index()] = kind_attacks;
            s.all |= kind_attacks;
        }
        s
    }

    /// The best gain of a capture by each of this side's piece types (index = type), in
    /// centipawns: an undefended victim's value, a defended one's less the capturer's
    /// (never below 0; a king gains nothing on a defended victim). `defended` is every
    /// square the other side attacks.
    fn capture_gains(&self, pos: &Position, defended: Bitboard) -> [i32; 7] {
        let them = self.side.flip();
        // The victims' values, highest first (the king is never captured for gain).
        let victims = [
            (
                pos.pieces(them, PieceType::QUEEN),
                VALUES[PieceType::QUEEN.index()],
            ),
            (
                pos.pieces(them, PieceType::ROOK),
                VALUES[PieceType::ROOK.index()],
            ),
            (
                pos.pieces(them, PieceType::BISHOP) | pos.pieces(them, PieceType::KNIGHT),
                VALUES[PieceType::BISHOP.index()],
            ),
            (
                pos.pieces(them, PieceType::PAWN),
                VALUES[PieceType::PAWN.index()],
            ),
        ];
        let best = |targets: Bitboard| {
            victims
                .iter()
                .find(|(v, _)| (*v & targets).any())
                .map_or(0, |&(_, value)| value)
        };
        let mut gains = [0i32; 7];
        for (t, gain) in gains.iter_mut().enumerate().skip(1) {
            let targets = self.by_kind[t];
            if targets.is_empty() {
                continue;
            }
            let free = best(targets & !defended);
            let guarded = if t == PieceType::KING.index() {
                0
            } else {
                (best(targets & defended) - VALUES[t]).max(0)
            };
            *gain = free.max(guarded);
        }
        gains
    }
}

/// What `c` needs to capture the enemy king: the types of its pieces attacking it now (a
/// promoting pawn also on the faces it may promote on in one die), and the types with a
/// piece one move away from attacking it (three dice: two dice of that type take the king).
pub(crate) fn king_threats(pos: &Position, c: Color, rules: Rules) -> (u8, u8) {
    let them = c.flip();
    let king = pos.king_square(them);
    let own = pos.color_pieces(c);
    let occ = pos.occupied();
    let attackers = pos.attackers_to(king) & own;
    let mut direct = 0u8;
    for sq in attackers {
        let kind = pos.piece_on(sq).kind();
        direct |= kind.mask_bit();
        if kind == PieceType::PAWN && rules == Rules::OneDie && promo_rank(c).has(sq) {
            direct |= KNIGHT_TO_QUEEN;
        }
    }
    let mut two_step = 0u8;
    if rules == Rules::ThreeDice {
        // Squares from which each type attacks the king.
        let from_pawn = attacks::pawn_attacks(them, king);
        let pushes = pawn_push(c, pos.pieces(c, PieceType::PAWN)) & !occ;
        if (pushes & from_pawn).any() {
            two_step |= PieceType::PAWN.mask_bit();
        }
        for kind in [
            PieceType::KNIGHT,
            PieceType::BISHOP,
            PieceType::ROOK,
            PieceType::QUEEN,
            PieceType::KING,
        ] {
            let spots = piece_attacks(kind, king, occ) & !own;
            if spots.is_empty() {
                continue;
            }
            for sq in pos.pieces(c, kind) & !attackers {
                if (piece_attacks(kind, sq, occ) & spots).any() {
                    two_step |= kind.mask_bit();
                    break;
                }
            }
        }
    }
    (direct, two_step)
}

pub(super) fn best_gain(gains: &[i32; 7], r: &RollInfo) -> f64 {
    let kinds = r.kinds();
    let mut best = 0;
    for (t, &g) in gains.iter().enumerate().skip(1) {
        if kinds & (1 << t) != 0 {
            best = best.max(g);
        }
    }
    best as f64
}

pub(super) fn chance_count(p: f64) -> i32 {
    (p * ONE).round() as i32
}

/// Passed pawns of `c` by relative rank, and the sum of `p^squares` over those with a free
/// path.
pub(super) fn passed_pawns(pos: &Position, c: Color, p: f64, out: &mut [i32; 6]) -> f64 {
    let ours = pos.pieces(c, PieceType::PAWN);
    let theirs = pos.pieces(c.flip(), PieceType::PAWN);
    let occ = pos.occupied();
    let mut chance = 0.0;
    for sq in ours {
        let i = sq.index() as u32;
        let file = Bitboard::file(sq.file()).0;
        // The squares in front of the pawn on its file, and on the neighbouring files too.
        let ahead = if c == Color::WHITE {
            file & (u64::MAX << i << 1)
        } else {
            file & ((1u64 << i) - 1)
        };
        let span =
            ahead | ((ahead & !Bitboard::FILE_A.0) >> 1) | ((ahead & !Bitboard::FILE_H.0) << 1);
        let rel = sq.relative(c).rank();
        if (theirs.0 & span) != 0 || (ours.0 & ahead) != 0 || !(1..=6).contains(&rel) {
            continue;
        }
        out[rel as usize - 1] += 1;
        if occ.0 & ahead == 0 {
            chance += p.powi(7 - rel as i32);
        }
    }
    chance
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

    let our_attacks = SideAttacks::of(pos, us, game.en_passant_targets(), rules);
    let their_attacks = SideAttacks::of(pos, them, Bitboard::EMPTY, rules);
    let our_movable = our_attacks.movable;
    let their_movable = their_attacks.movable;
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
    out[OUR_KING_CAPTURE] =
        chance_count(ours.chance_king(our_attacks.direct, our_attacks.two_step));
    let their_hit = theirs.chance_king(their_attacks.direct, their_attacks.two_step);
    out[THEIR_KING_CAPTURE] = if rules == Rules::TwoDice {
        if their_hit > 0.0 {
            // In check: they take the king only after our pass.
            let mut sink = KindSink { pos, kinds: 0 };
            pos.generate_moves(Legality::Legal, GenType::All, ALL_PIECE_TYPES, &mut sink);
            chance_count(ours.chance_none(sink.kinds) * their_hit)
        } else {
            0
        }
    } else {
        chance_count(their_hit)
    };

    // King zones: their attacks on ours, ours on theirs.
    out[KING_ZONE_OURS] = their_attacks.zone;
    out[KING_ZONE_THEIRS] = our_attacks.zone;

    // Captures.
    let our_gains = our_attacks.capture_gains(pos, their_attacks.all);
    let their_gains = their_attacks.capture_gains(pos, our_attacks.all);
    out[OUR_CAPTURE_GAIN] = ours.expect_best_gain(&our_gains).round() as i32;
    out[THEIR_CAPTURE_GAIN] = theirs.expect_best_gain(&their_gains).round() as i32;

    // Mobility of types, passes.
    out[MOVABLE_TYPES] = our_movable.count_ones() as i32 - their_movable.count_ones() as i32;
    if rules != Rules::OneDie {
        let our_pass = ours.chance_none(our_movable);
        let their_pass = theirs.chance_none(their_movable);
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

/// The chance that `c` can capture the enemy king on its next roll on this board: over the
/// rule set's outcomes (one die: `c`'s movable types), or with `dice` when they are already
/// rolled. Two-step captures count in three dice (two dice of the type of a piece one move
/// from attacking the king); two dice count direct attackers only.
pub(crate) fn king_capture_chance(
    pos: &Position,
    c: Color,
    table: &RollTable,
    rules: Rules,
    dice: Option<Roll>,
) -> f64 {
    let (direct, two) = king_threats(pos, c, rules);
    if direct == 0 && two == 0 {
        return 0.0;
    }
    let dist = match dice {
        Some(r) => Dist::Fixed(RollInfo::of(r, rules, 1)),
        None if rules == Rules::OneDie => {
            Dist::OneDie(movable_types(pos, c, Bitboard::EMPTY, rules))
        }
        None => Dist::Table(table),
    };
    dist.chance(|r| r.kinds() & direct != 0 || r.pairs & two != 0)
}
