//! Three dice: each set of commuting micro-moves searched in one order (sleep sets).
//!
//! A three-dice turn plays up to three micro-moves, and most orders of the same micro-moves
//! reach the same position: a knight move and a bishop move on other squares give the same
//! position whichever is played first. The table merges the positions after two micro-moves
//! (the key holds the dice left), but the last micro-move leads to a leaf, and each leaf is
//! reached from every order of the turn's last two micro-moves, by decision nodes with
//! different dice left. Sleep sets (Godefroid's partial-order reduction) search such a turn
//! once per set of commuting micro-moves instead:
//!
//! * a decision node with dice left explores its moves in order; when it explores `m`, the
//!   moves it explored before `m` that commute with `m`, and the moves asleep at the node
//!   itself that commute with `m`, are asleep at the child;
//! * a node does not search its asleep moves: every sequence that starts with one of them is
//!   a reordering of a sequence already searched in an earlier sibling's subtree.
//!
//! Every end-of-turn position is still reached (the classical property of sleep sets), so the
//! turn's value (the best of its end positions) is unchanged: a turn's decision nodes all
//! belong to one side, and an end left out below a node was met earlier in the same turn,
//! where the turn's best already counts it. A node with moves asleep returns the best of the
//! end positions it still reaches, which is no bound of the full node its table key stands
//! for, so the search does not store it (a node whose children alone have moves asleep, from
//! its own earlier moves, is complete and stored as usual). With every move asleep a node
//! returns below every value, and its parent takes the other moves.
//!
//! [`commute`] is a static test, conservative by design: two micro-moves commute when
//! neither is a castle, an en passant capture or a king capture, and neither touches a square
//! (its origin or destination) that the other touches or passes over (a slider's or a double
//! push's squares between origin and destination). Then each stays a candidate after the
//! other, both orders give the same position, castling rights, en passant targets and clock
//! flag, and each spends the same die. The maximum rule agrees too: both moves being legal at
//! the node, each order's second move is legal exactly when the same position with the same
//! dice left allows the rest of the turn, so one order is legal when the other is.
//! `tests` checks all of it against the full enumeration of turns.
//!
//! Not used in the root turn (each root micro-move's value must be its own, for the ties and
//! the turn reported) nor in one and two dice (one move a turn).

use crate::attacks;
use crate::bitboard::Bitboard;
use crate::dice::gen::is_king_capture;
use crate::moves::Move;
use crate::position::Position;

/// The most moves a set keeps. Dropping one is always safe: the node then searches that
/// move's orders again, as without sleep sets.
pub(crate) const CAPACITY: usize = 32;

/// A move that may commute, with its footprint.
#[derive(Copy, Clone)]
struct Entry {
    m: Move,
    fp: Footprint,
}

const NO_ENTRY: Entry = Entry {
    m: Move::NONE,
    fp: Footprint {
        touch: Bitboard::EMPTY,
        path: Bitboard::EMPTY,
    },
};

/// A set of micro-moves that may commute: the moves asleep at a decision node, or those it
/// explored so far.
#[derive(Copy, Clone)]
pub(crate) struct Sleep {
    entries: [Entry; CAPACITY],
    len: usize,
    /// The origins of the moves (a quick test for `contains`).
    froms: Bitboard,
}

impl Sleep {
    /// No move.
    pub(crate) const EMPTY: Sleep = Sleep {
        entries: [NO_ENTRY; CAPACITY],
        len: 0,
        froms: Bitboard::EMPTY,
    };

    /// True when the set has no move.
    #[inline]
    pub(crate) fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// True when `m` is in the set.
    #[inline]
    pub(crate) fn contains(&self, m: Move) -> bool {
        (self.froms & m.from().bb()).any() && self.entries().iter().any(|e| e.m == m)
    }

    #[inline]
    fn entries(&self) -> &[Entry] {
        &self.entries[..self.len.min(CAPACITY)]
    }

    #[inline]
    fn push(&mut self, e: Entry) {
        if let Some(slot) = self.entries.get_mut(self.len) {
            *slot = e;
            self.len += 1;
            self.froms |= e.m.from().bb();
        }
    }

    /// Adds `m`, a move of the node at `pos`, unless it never commutes (then no set needs
    /// it).
    #[inline]
    pub(crate) fn note(&mut self, pos: &Position, m: Move) {
        if let Some(fp) = Footprint::of(pos, m) {
            self.push(Entry { m, fp });
        }
    }

    /// The moves asleep at the child reached by `m` from the node at `pos` where `self` is
    /// asleep and `explored` were explored before `m`: those of both that commute with `m`.
    pub(crate) fn for_child(&self, explored: &Sleep, pos: &Position, m: Move) -> Sleep {
        let mut child = Sleep::EMPTY;
        let Some(fm) = Footprint::of(pos, m) else {
            return child;
        };
        for e in self.entries().iter().chain(explored.entries()) {
            if e.fp.disjoint(&fm) {
                child.push(*e);
            }
        }
        child
    }
}

/// The squares a micro-move needs: those it touches (origin, destination) and those it
/// passes over.
#[derive(Copy, Clone)]
struct Footprint {
    touch: Bitboard,
    path: Bitboard,
}

impl Footprint {
    /// `None` for the moves that never commute (castles, en passant, king captures, the pass).
    #[inline]
    fn of(pos: &Position, m: Move) -> Option<Footprint> {
        if m == Move::NONE || m.is_castle() || m.is_en_passant() || is_king_capture(pos, m) {
            return None;
        }
        Some(Footprint {
            touch: m.from().bb() | m.to().bb(),
            path: attacks::between(m.from(), m.to()),
        })
    }

    #[inline]
    fn disjoint(&self, other: &Footprint) -> bool {
        (self.touch & (other.touch | other.path)).is_empty() && (other.touch & self.path).is_empty()
    }
}

#[cfg(test)]
/// True when micro-moves `x` and `m`, both legal in the three-dice decision node at `pos`,
/// commute (see the module docs).
pub(crate) fn commute(pos: &Position, x: Move, m: Move) -> bool {
    match (Footprint::of(pos, x), Footprint::of(pos, m)) {
        (Some(a), Some(b)) => a.disjoint(&b),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::player::{play_turn, sample_roll, RandomPlayer, Rng};
    use crate::dice::{DiceGame, Phase, Rules};
    use std::collections::HashSet;

    /// Games a few turns in, their dice rolled.
    fn rolled_games(seed: u64, count: usize) -> Vec<DiceGame> {
        let (mut player, mut dice) = (RandomPlayer(Rng(seed)), Rng(seed ^ 0xd1ce));
        let mut out = Vec::new();
        while out.len() < count {
            let mut g = DiceGame::new(Rules::ThreeDice);
            for _ in 0..dice.below(30) {
                if play_turn(&mut g, &mut player, &mut dice).is_none() {
                    break;
                }
            }
            if let Some(roll) = sample_roll(&g, &mut dice) {
                g.set_roll(roll).unwrap();
                out.push(g);
            }
        }
        out
    }

    /// The whole state a position of the turn stands for (the table key and the clock flag).
    fn state(g: &DiceGame) -> (u64, u8, u8) {
        (g.hash(), g.h.turn_resets_clock, g.h.winner)
    }

    /// Every state that ends the turn, by the full enumeration of micro-move sequences when
    /// `sleep` is `None`, else with sleep sets as the search applies them; counts the visits.
    fn ends(
        g: &mut DiceGame,
        sleep: Option<&Sleep>,
        out: &mut HashSet<(u64, u8, u8)>,
        visits: &mut usize,
    ) {
        if g.phase() != Phase::AwaitingMove {
            out.insert(state(g));
            *visits += 1;
            return;
        }
        let mut l = g.moves();
        if l.is_empty() {
            let u = g.make_move_unchecked(Move::NONE);
            out.insert(state(g));
            *visits += 1;
            g.unmake_move_unchecked(Move::NONE, &u);
            return;
        }
        if let Some(s) = sleep {
            l.retain(|m| !s.contains(m));
        }
        let mut explored = Sleep::EMPTY;
        for &m in l.iter() {
            let child = sleep.map(|s| s.for_child(&explored, &g.pos, m));
            let u = g.make_move_unchecked(m);
            ends(g, child.as_ref(), out, visits);
            g.unmake_move_unchecked(m, &u);
            explored.note(&g.pos, m);
        }
    }

    /// Sleep sets reach exactly the end states of the full enumeration, and far fewer times.
    #[test]
    fn sleep_sets_reach_every_end_of_the_turn() {
        let (mut full_visits, mut sleep_visits) = (0, 0);
        for mut g in rolled_games(31, 300) {
            let mut want = HashSet::new();
            ends(&mut g, None, &mut want, &mut full_visits);
            let mut got = HashSet::new();
            ends(&mut g, Some(&Sleep::EMPTY), &mut got, &mut sleep_visits);
            assert_eq!(got, want, "{}", g.to_fen());
        }
        assert!(
            sleep_visits * 2 < full_visits,
            "sleep sets visit {sleep_visits} ends of {full_visits}"
        );
    }

    /// Moves that `commute` says commute do: each is legal after the other (maximum rule
    /// included) and both orders give the same state.
    #[test]
    fn commuting_moves_commute() {
        let mut pairs = 0;
        for mut g in rolled_games(32, 80) {
            let l = g.moves();
            for &x in l.iter() {
                for &m in l.iter() {
                    if x == m || !commute(&g.pos, x, m) {
                        continue;
                    }
                    let ux = g.make_move_unchecked(x);
                    let after_x = g.clone();
                    g.unmake_move_unchecked(x, &ux);
                    let um = g.make_move_unchecked(m);
                    let after_m = g.clone();
                    g.unmake_move_unchecked(m, &um);
                    let mut a = after_x.clone();
                    let mut b = after_m.clone();
                    let m_after_x = a.phase() == Phase::AwaitingMove && a.moves().contains(m);
                    let x_after_m = b.phase() == Phase::AwaitingMove && b.moves().contains(x);
                    assert_eq!(m_after_x, x_after_m, "{} {x} {m}", g.to_fen());
                    if m_after_x {
                        a.make_move_unchecked(m);
                        b.make_move_unchecked(x);
                        assert_eq!(state(&a), state(&b), "{} {x} {m}", g.to_fen());
                        assert_eq!(a.to_fen(), b.to_fen());
                        pairs += 1;
                    }
                }
            }
        }
        assert!(pairs > 1000, "only {pairs} commuting pairs");
    }
}
