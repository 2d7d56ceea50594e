//! The Dice Chess search's named configurations for experiments: the match arena
//! (`chesscore dice match engine:NAME`), the search benchmark (`lab/dice_search_bench.rs`)
//! and the tests that prove every exact configuration returns plain expectimax's values.
//! Not part of the library: each user includes this file with `#[path]`.
#![allow(dead_code)]

use chesscore::dice::search::{
    Leaves, MoveOrder, Pruning, RuleSets, Sampling, SearchConfig, TableMode,
};

/// Star1 with move and outcome ordering.
pub const STAR1: SearchConfig = SearchConfig {
    pruning: Pruning::Star1,
    order: MoveOrder::Static,
    ..SearchConfig::PLAIN
};
/// Star1 and Star2 (no leaf probes, no probe order).
pub const STAR2: SearchConfig = SearchConfig {
    pruning: Pruning::Star2 {
        leaf_probes: false,
        probe_order: false,
    },
    ..STAR1
};
/// Star1, Star2 and the table in its exact mode.
pub const STAR2_TT: SearchConfig = SearchConfig {
    table: TableMode::Exact,
    ..STAR2
};
/// Everything but quiescence, the table in its fast mode (the engine before quiescence).
pub const ALL_NOQS: SearchConfig = SearchConfig {
    table: TableMode::Fast,
    ..SearchConfig::ALL_EXACT
};
/// [`SearchConfig::ALL_EXACT`] with quiescence in every rule set.
pub const ALL_EXACT_QS: SearchConfig = SearchConfig {
    leaves: Leaves::Quiescence(RuleSets::ALL),
    ..SearchConfig::ALL_EXACT
};
/// [`SearchConfig::ALL`] with quiescence in every rule set.
pub const ALL_QS: SearchConfig = SearchConfig {
    leaves: Leaves::Quiescence(RuleSets::ALL),
    ..SearchConfig::ALL
};
/// Plain expectimax with quiescence leaves in every rule set (nothing pruned: the tests'
/// reference for the quiescence definition).
pub const PLAIN_QS: SearchConfig = SearchConfig {
    leaves: Leaves::Quiescence(RuleSets::ALL),
    ..SearchConfig::PLAIN
};

/// The named sets: the library's three (`plain`, `all-exact`, `all`), the steps between
/// them (`star1`, `star2`, `star2-tt`), `all-noqs` without quiescence, `plain-qs`,
/// `all-exact-qs` and `all-qs` with it in every rule set, and for comparisons
/// `all-notable` ([`SearchConfig::ALL_EXACT`] without the table), `all-notypes`,
/// `all-nosplit`, `all-nocache` and `all-nosleep` ([`SearchConfig::ALL`] without per-type
/// sharing, the outcome split, the static-value cache, the sleep sets), and `all-s8`,
/// `all-s16`, `all-s32` ([`SearchConfig::ALL`] sampling 8, 16 or 32 three-dice rolls).
pub const NAMED: [(&str, SearchConfig); 18] = [
    ("plain", SearchConfig::PLAIN),
    ("star1", STAR1),
    ("star2", STAR2),
    ("star2-tt", STAR2_TT),
    ("all-exact", SearchConfig::ALL_EXACT),
    ("all", SearchConfig::ALL),
    ("all-noqs", ALL_NOQS),
    ("plain-qs", PLAIN_QS),
    ("all-exact-qs", ALL_EXACT_QS),
    ("all-qs", ALL_QS),
    (
        "all-notable",
        SearchConfig {
            table: TableMode::Off,
            ..SearchConfig::ALL_EXACT
        },
    ),
    (
        "all-notypes",
        SearchConfig {
            share_types: false,
            ..SearchConfig::ALL
        },
    ),
    (
        "all-nosplit",
        SearchConfig {
            split_outcomes: false,
            ..SearchConfig::ALL
        },
    ),
    (
        "all-nocache",
        SearchConfig {
            eval_cache: false,
            ..SearchConfig::ALL
        },
    ),
    (
        "all-nosleep",
        SearchConfig {
            sleep_sets: false,
            ..SearchConfig::ALL
        },
    ),
    ("all-s8", sampling(8)),
    ("all-s16", sampling(16)),
    ("all-s32", sampling(32)),
];

/// [`SearchConfig::ALL`] sampling `rolls` three-dice rolls.
const fn sampling(rolls: u8) -> SearchConfig {
    SearchConfig {
        sampling: Sampling::ThreeDice { rolls },
        ..SearchConfig::ALL
    }
}

/// The set with this name.
pub fn from_name(s: &str) -> Option<SearchConfig> {
    NAMED.iter().find(|(n, _)| *n == s).map(|(_, c)| *c)
}

/// The name of `config` if it is one of [`NAMED`].
pub fn name_of(config: &SearchConfig) -> Option<&'static str> {
    NAMED.iter().find(|(_, c)| c == config).map(|(n, _)| *n)
}
