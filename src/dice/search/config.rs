//! Which techniques a Dice Chess search uses: [`SearchConfig`], typed so that it cannot
//! name a combination the search does not have (Star2 without Star1, an exact mode without
//! a table, leaf probes without probing, quiescence rule sets without quiescence).
//!
//! The library names three configurations: [`SearchConfig::ALL`] (the default, what the
//! engine plays with), [`SearchConfig::ALL_EXACT`] (every technique, values exactly those
//! of plain expectimax at a fixed depth) and [`SearchConfig::PLAIN`] (plain expectimax, the
//! baseline). The experiments' named sets (`star1`, `all-nosleep`, ...) live in
//! `lab/dice_configs.rs`, outside the library, with the match arena and the benchmarks
//! that use them.
//!
//! The search itself reads the flat switches of [`Techniques`], derived once when the
//! configuration is set.

use crate::dice::rules::Rules;

/// How chance nodes are pruned.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Pruning {
    /// None: every outcome searched with an open window (plain expectimax).
    None,
    /// Star1: bounds at chance nodes, alpha-beta windows through them.
    Star1,
    /// Star1 and Star2: each outcome probed with one move first.
    Star2 {
        /// At depth 1 (one and two dice), where a probe's value is a leaf's and so exact:
        /// every outcome is probed (a failed probe still gives a lower bound for Star1's
        /// fail-high test) and the probed move is not searched again.
        leaf_probes: bool,
        /// Star1's phase takes the outcomes in ascending order of their lower bounds (the
        /// probes' values), so a fail low comes sooner: at depth 1 with leaf probes, and in
        /// one die at every depth.
        probe_order: bool,
    },
}

/// The transposition table's use.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum TableMode {
    /// No table (and no helper threads: they would share nothing).
    Off,
    /// Entries reused only at the same remaining depth and distance from the root: values
    /// exactly those of the search without the table.
    Exact,
    /// Deeper entries reused too, which changes values (for the better, usually): what the
    /// players use.
    Fast,
}

/// How a decision node orders its moves (and a chance node its outcomes).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum MoveOrder {
    /// Generation order; outcomes in the rules' order.
    Generation,
    /// Table move, captures and promotions first (`order`); outcomes heaviest
    /// first.
    Static,
    /// As `Static`, and in one die a decision node with two turns or more to go orders its
    /// moves by the static value after each (a one-turn search; each evaluation counts as
    /// a node).
    Eval,
}

/// A set of rule sets.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct RuleSets(u8);

impl RuleSets {
    /// Every rule set.
    pub const ALL: RuleSets = RuleSets(0b111);

    /// The one rule set `rules`.
    pub const fn only(rules: Rules) -> RuleSets {
        RuleSets(1 << rules as u8)
    }

    /// Whether `rules` is in the set.
    pub const fn contains(self, rules: Rules) -> bool {
        self.0 & (1 << rules as u8) != 0
    }
}

/// Which chance nodes search a sample of their outcomes instead of every one
/// (Monte-Carlo *-minimax, Lanctot, Saffidine, Veness, Archibald and Winands, IJCAI 2013).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Sampling {
    /// Every outcome at its probability: expectimax.
    Off,
    /// Three dice, below the root: `rolls` rolls drawn by their probability (repeats
    /// counted) from the root position's key, once a search, and every chance node of the
    /// search takes that sample in place of the 56 outcomes. The same rolls along every line
    /// compare the moves on the same luck; the search is a function of its root, as without.
    /// The root itself (a chance node in [`super::DiceEngine::evaluate`]) stays exact.
    ThreeDice {
        /// Rolls drawn (0: none, every outcome searched).
        rolls: u8,
    },
}

/// What a chance node at depth 0 is worth.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Leaves {
    /// The static evaluation.
    Static,
    /// In these rule sets the roll-aware capture search of `quiescence`; in the
    /// others the static evaluation.
    Quiescence(RuleSets),
}

/// Which techniques a search uses. Every combination is a valid search; the tests prove
/// that each exact one returns the value of plain expectimax at a fixed depth.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct SearchConfig {
    /// Star1 / Star2 at chance nodes.
    pub pruning: Pruning,
    /// The transposition table.
    pub table: TableMode,
    /// Move and outcome ordering.
    pub order: MoveOrder,
    /// Depth-0 chance nodes: static values or quiescence.
    pub leaves: Leaves,
    /// Merge outcomes that allow the same moves (the six two-dice doubles, one outcome of
    /// weight 6).
    pub share_doubles: bool,
    /// Two dice: search each piece type's moves once per chance node and share the result
    /// (value and bound) among every outcome that allows the type (see
    /// `expectimax`'s module docs).
    pub share_types: bool,
    /// Three dice, below the root turn: each set of commuting micro-moves is searched in one
    /// order only (sleep sets, see `sleep.rs`): a turn's end positions are all reached, each
    /// far fewer times. Values stay exact.
    pub sleep_sets: bool,
    /// Tighter value bounds: per-outcome bounds at chance nodes (an outcome that can take
    /// the king is worth exactly a win now, unsearched; static evaluations at depth 1) and a
    /// decision node stops at a king capture (nothing beats it).
    pub bounds: bool,
    /// Lazy SMP: helper `i` of `n` threads takes every chance node's outcomes starting at
    /// outcome `i * len / n` (wrapping), so the threads fill the table with different
    /// outcomes' subtrees, which the main thread then finds done. Nothing changes with one
    /// thread or without the table.
    pub split_outcomes: bool,
    /// Each search thread keeps the static values it computed by game key (1 MiB) and
    /// answers a position met again from there: a three-dice turn reaches the same position
    /// by several micro-move orders. The same nodes, values and moves, less time: on in
    /// every named configuration, [`SearchConfig::PLAIN`] included (it is the evaluation's
    /// speed, not a search technique).
    pub eval_cache: bool,
    /// Chance nodes that take a sample of their outcomes ([`Sampling`]); values are then
    /// not plain expectimax's.
    pub sampling: Sampling,
}

impl SearchConfig {
    /// Plain expectimax: every outcome and move searched, nothing pruned or shared (the
    /// static-value cache on).
    pub const PLAIN: SearchConfig = SearchConfig {
        pruning: Pruning::None,
        table: TableMode::Off,
        order: MoveOrder::Generation,
        leaves: Leaves::Static,
        share_doubles: false,
        share_types: false,
        sleep_sets: false,
        bounds: false,
        split_outcomes: false,
        eval_cache: true,
        sampling: Sampling::Off,
    };
    /// Everything, exact: Star1, Star2 with leaf probes and probe order, the exact table,
    /// every kind of sharing, the tighter bounds, evaluation order; static leaves. At a
    /// fixed depth its values and moves are those of [`SearchConfig::PLAIN`].
    pub const ALL_EXACT: SearchConfig = SearchConfig {
        pruning: Pruning::Star2 {
            leaf_probes: true,
            probe_order: true,
        },
        table: TableMode::Exact,
        order: MoveOrder::Eval,
        leaves: Leaves::Static,
        share_doubles: true,
        share_types: true,
        sleep_sets: true,
        bounds: true,
        split_outcomes: true,
        eval_cache: true,
        sampling: Sampling::Off,
    };
    /// Everything, the table in its fast mode: what the engine plays with. Quiescence only
    /// in two dice, where a match showed it gains (one die: no gain; three dice: a loss;
    /// see docs/results/dice-search.md).
    pub const ALL: SearchConfig = SearchConfig {
        table: TableMode::Fast,
        leaves: Leaves::Quiescence(RuleSets::only(Rules::TwoDice)),
        ..SearchConfig::ALL_EXACT
    };

    /// Whether every value the search returns at a fixed depth is plain expectimax's (with
    /// the same leaves): true unless the table is in its fast mode or chance nodes sample.
    pub const fn is_exact(&self) -> bool {
        !matches!(self.table, TableMode::Fast) && matches!(self.sampling, Sampling::Off)
    }

    /// The flat switches the search reads.
    pub(crate) const fn techniques(&self) -> Techniques {
        let (star1, star2, leaf_probes, probe_order) = match self.pruning {
            Pruning::None => (false, false, false, false),
            Pruning::Star1 => (true, false, false, false),
            Pruning::Star2 {
                leaf_probes,
                probe_order,
            } => (true, true, leaf_probes, probe_order),
        };
        let (quiescence, quiescence_rules) = match self.leaves {
            Leaves::Static => (false, RuleSets(0)),
            Leaves::Quiescence(r) => (true, r),
        };
        Techniques {
            star1,
            star2,
            tt: !matches!(self.table, TableMode::Off),
            exact_tt: !matches!(self.table, TableMode::Fast),
            sharing: self.share_doubles,
            ordering: !matches!(self.order, MoveOrder::Generation),
            eval_order: matches!(self.order, MoveOrder::Eval),
            quiescence,
            quiescence_rules,
            type_sharing: self.share_types,
            bounds: self.bounds,
            leaf_probes,
            probe_order,
            split_outcomes: self.split_outcomes,
            eval_cache: self.eval_cache,
            sleep_sets: self.sleep_sets,
            sample_rolls: match self.sampling {
                Sampling::Off => 0,
                Sampling::ThreeDice { rolls } => rolls,
            },
        }
    }
}

impl Default for SearchConfig {
    fn default() -> Self {
        SearchConfig::ALL
    }
}

/// The switches of a [`SearchConfig`], flat, as the search reads them at every node. Made
/// only by [`SearchConfig::techniques`], so every combination is one a configuration names
/// (`star2` implies `star1`, `exact_tt` means nothing without `tt`, `leaf_probes` and
/// `probe_order` imply `star2`, `eval_order` implies `ordering`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct Techniques {
    pub(crate) star1: bool,
    pub(crate) star2: bool,
    pub(crate) tt: bool,
    pub(crate) exact_tt: bool,
    pub(crate) sharing: bool,
    pub(crate) ordering: bool,
    pub(crate) eval_order: bool,
    pub(crate) quiescence: bool,
    pub(crate) quiescence_rules: RuleSets,
    pub(crate) type_sharing: bool,
    pub(crate) bounds: bool,
    pub(crate) leaf_probes: bool,
    pub(crate) probe_order: bool,
    pub(crate) split_outcomes: bool,
    pub(crate) eval_cache: bool,
    pub(crate) sleep_sets: bool,
    /// Three dice's rolls sampled below the root (0: every outcome).
    pub(crate) sample_rolls: u8,
}

impl Techniques {
    /// Whether depth-0 chance nodes of `rules` take quiescence instead of the static value.
    #[inline]
    pub(crate) fn qs_leaves(&self, rules: Rules) -> bool {
        self.quiescence && self.quiescence_rules.contains(rules)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_flat_switches_follow_the_typed_options() {
        let all = SearchConfig::ALL.techniques();
        assert!(all.star1 && all.star2 && all.leaf_probes && all.tt && !all.exact_tt);
        assert!(all.qs_leaves(Rules::TwoDice) && !all.qs_leaves(Rules::ThreeDice));
        let plain = SearchConfig::PLAIN.techniques();
        assert!(!plain.star1 && !plain.tt && !plain.ordering && !plain.qs_leaves(Rules::TwoDice));
        let star1 = SearchConfig {
            pruning: Pruning::Star1,
            ..SearchConfig::ALL_EXACT
        }
        .techniques();
        assert!(star1.star1 && !star1.star2 && !star1.leaf_probes && !star1.probe_order);
        assert!(SearchConfig::ALL_EXACT.is_exact() && !SearchConfig::ALL.is_exact());
        assert!(SearchConfig::PLAIN.is_exact());
    }
}
