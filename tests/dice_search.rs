//! The Dice Chess search against an independent, slow, obviously correct expectimax written
//! here (checked make on clones, every outcome and every move, no table, no pruning, the
//! same evaluator): on a few hundred small trees per rule set, every configuration returns
//! exactly its value (and the same root move), and the table on or off changes nothing at a
//! fixed depth. The part of the eval-cache test that searches under other weights needs the
//! `lab` feature's tuning hook (`cargo test --features lab`, as scripts/test-all runs it).

use chesscore::dice::eval::{DiceEvaluator, EVAL_MAX};
use chesscore::dice::player::{play_turn, RandomPlayer, Rng};
use chesscore::dice::search::QS_DEPTH;
use chesscore::dice::search::{
    DiceEngine, DiceLimits, Leaves, Sampling, SearchConfig, TableMode, WIN,
};
use chesscore::dice::{DiceGame, DiceStatus, Outcomes, Phase, Rules};
use chesscore::Move;

#[path = "../lab/dice_configs.rs"]
mod dice_configs;

/// The static value, or the quiet one (without the mover's expected capture gain, the
/// quiescence's stand-pat value; the unit tests of `dice::eval` check it against the feature
/// counts).
fn static_value(g: &DiceGame, ev: &mut DiceEvaluator, quiet: bool) -> i32 {
    let (full, quiet_value) = ev.evaluate_with_quiet(g);
    if quiet { quiet_value } else { full }.clamp(-EVAL_MAX, EVAL_MAX)
}

/// The slow reference of the quiescence (the definition in `dice::search::quiescence`): a
/// game awaiting its roll with `q` capture turns left. Every roll, every capture it allows.
fn slow_quiesce(g: &DiceGame, q: u32, ply: i32, ev: &mut DiceEvaluator) -> i32 {
    if q == 0 {
        return static_value(g, ev, false);
    }
    let stand = static_value(g, ev, true);
    let o = g.outcomes();
    let mut sum = 0i64;
    for oc in o.as_slice() {
        let mut c = g.clone();
        c.set_roll(oc.roll).unwrap();
        sum += oc.weight as i64 * slow_qdecision(&c, q, ply, stand, ev) as i64;
    }
    sum.div_euclid(o.denominator() as i64) as i32
}

/// The quiescence's decision node: the best of standing pat and each capture.
fn slow_qdecision(g: &DiceGame, q: u32, ply: i32, stand: i32, ev: &mut DiceEvaluator) -> i32 {
    let mut best = stand;
    for &m in g.moves().as_slice() {
        if !m.is_capture() {
            continue;
        }
        let mut c = g.clone();
        c.make_move(m).unwrap();
        let v = if c.winner().is_some() {
            WIN - ply
        } else if c.phase() == Phase::AwaitingMove {
            let e = static_value(&c, ev, true);
            slow_qdecision(&c, q, ply, e, ev)
        } else {
            match c.status() {
                DiceStatus::Won { winner, .. } if winner == c.side_to_move() => -(WIN - ply - 1),
                DiceStatus::Won { .. } => WIN - ply - 1,
                DiceStatus::Drawn(_) => 0,
                _ => -slow_quiesce(&c, q - 1, ply + 1, ev),
            }
        };
        best = best.max(v);
    }
    best
}

/// The slow reference: the value of a game awaiting its roll (`qs`: quiescence leaves).
fn slow_chance(g: &DiceGame, depth: u32, ply: i32, ev: &mut DiceEvaluator, qs: bool) -> i32 {
    slow_chance_on(g, depth, ply, ev, qs, None)
}

/// [`slow_chance`] with every chance node taking `sample`'s rolls at its weights when there
/// is one (what a sampling search computes below its root), else the game's outcomes.
fn slow_chance_on(
    g: &DiceGame,
    depth: u32,
    ply: i32,
    ev: &mut DiceEvaluator,
    qs: bool,
    sample: Option<&Outcomes>,
) -> i32 {
    match g.status() {
        DiceStatus::Won { winner, .. } => {
            return if winner == g.side_to_move() {
                WIN - ply
            } else {
                -(WIN - ply)
            }
        }
        DiceStatus::Drawn(_) => return 0,
        _ => {}
    }
    if depth == 0 {
        if qs {
            return slow_quiesce(g, QS_DEPTH, ply, ev);
        }
        return ev.evaluate(g).clamp(-EVAL_MAX, EVAL_MAX);
    }
    let o = sample.copied().unwrap_or_else(|| g.outcomes());
    let mut sum = 0i64;
    for oc in o.as_slice() {
        let mut c = g.clone();
        c.set_roll(oc.roll).unwrap();
        sum += oc.weight as i64 * slow_decision_on(&c, depth, ply, ev, qs, sample).0 as i64;
    }
    sum.div_euclid(o.denominator() as i64) as i32
}

/// The slow reference: the value of a game with its dice rolled, and the best move (the
/// smallest raw move among the best).
fn slow_decision(
    g: &DiceGame,
    depth: u32,
    ply: i32,
    ev: &mut DiceEvaluator,
    qs: bool,
) -> (i32, Move) {
    slow_decision_on(g, depth, ply, ev, qs, None)
}

/// [`slow_decision`] with the chance nodes below it taking `sample` ([`slow_chance_on`]).
fn slow_decision_on(
    g: &DiceGame,
    depth: u32,
    ply: i32,
    ev: &mut DiceEvaluator,
    qs: bool,
    sample: Option<&Outcomes>,
) -> (i32, Move) {
    let moves = g.moves();
    let mut list: Vec<Move> = moves.as_slice().to_vec();
    if list.is_empty() {
        list.push(Move::NONE);
    }
    let mut best = (i32::MIN, Move::NONE);
    for m in list {
        let mut c = g.clone();
        c.make_move(m).unwrap();
        let v = if c.winner().is_some() {
            WIN - ply
        } else if c.phase() == Phase::AwaitingMove {
            slow_decision_on(&c, depth, ply, ev, qs, sample).0
        } else {
            -slow_chance_on(&c, depth - 1, ply + 1, ev, qs, sample)
        };
        if v > best.0 || (v == best.0 && m.raw() < best.1.raw()) {
            best = (v, m);
        }
    }
    best
}

/// The slow reference's whole turn (three dice: up to three micro-moves; empty for the
/// pass): at each node of the turn the smallest raw move among the best, as
/// [`slow_decision`] picks at the root.
fn slow_line(g: &DiceGame, depth: u32, ev: &mut DiceEvaluator) -> Vec<Move> {
    let mut line = Vec::new();
    let mut g = g.clone();
    loop {
        let (_, m) = slow_decision(&g, depth, 0, ev, false);
        if m == Move::NONE {
            // A pass (of the turn or of the dice left): the line ends.
            break;
        }
        line.push(m);
        g.make_move(m).unwrap();
        if g.winner().is_some() || g.phase() != Phase::AwaitingMove {
            break;
        }
    }
    line
}

/// Games from seeded random play, `turns` turns in (stopped early when the game ends).
fn positions(rules: Rules, count: usize, seed: u64, min_turns: u64, spread: u64) -> Vec<DiceGame> {
    let mut out = Vec::new();
    let mut rng = Rng(seed);
    while out.len() < count {
        let mut g = DiceGame::new(rules);
        let turns = min_turns + rng.below(spread);
        let mut p = RandomPlayer(Rng(rng.next_u64()));
        for _ in 0..turns {
            if play_turn(&mut g, &mut p, &mut rng).is_none() {
                break;
            }
        }
        if g.status() == DiceStatus::AwaitingRoll {
            out.push(g);
        }
    }
    out
}

/// Three-dice games from `fens`, `per_fen` random rolls each ([`with_random_roll`], from
/// `seed`), kept when plain expectimax searches two turns in 40,000 nodes or fewer.
fn small_three_dice_trees(fens: &[&str], per_fen: usize, seed: u64) -> Vec<DiceGame> {
    let mut rng = Rng(seed);
    let mut out = Vec::new();
    for fen in fens {
        let g = DiceGame::from_fen(Rules::ThreeDice, fen).unwrap();
        for _ in 0..per_fen {
            let g = with_random_roll(&g, &mut rng);
            if plain_nodes(&g, 2, 40_000) <= 40_000 {
                out.push(g);
            }
        }
    }
    out
}

/// `g` (awaiting its roll) with one of its outcomes rolled, drawn uniformly from the list
/// of distinct outcomes (not by weight: rare rolls are tested as often as common ones).
fn with_random_roll(g: &DiceGame, rng: &mut Rng) -> DiceGame {
    let o = g.outcomes();
    let roll = o.as_slice()[rng.below(o.as_slice().len() as u64) as usize].roll;
    let mut g = g.clone();
    g.set_roll(roll).unwrap();
    g
}

const CONFIGS: [(&str, SearchConfig); 18] = dice_configs::NAMED;

/// The configurations that claim exactness, with quiescence leaves (`qs`) or without.
fn exact_configs(qs: bool) -> impl Iterator<Item = (&'static str, SearchConfig)> {
    CONFIGS
        .into_iter()
        .filter(move |(_, c)| c.is_exact() && (c.leaves != Leaves::Static) == qs)
}

/// Plain-expectimax node count of a decision search (to keep the trees small), stopped
/// past `max`.
fn plain_nodes(g: &DiceGame, depth: u32, max: u64) -> u64 {
    let mut e = DiceEngine::new(1);
    e.set_config(SearchConfig::PLAIN);
    let limits = DiceLimits {
        depth,
        nodes: max + 1,
        movetime_ms: None,
        soft_ms: None,
    };
    e.search(g, &limits, &mut |_| {}).unwrap().nodes
}

fn check_decisions(rules: Rules, count: usize, depth: u32, max_nodes: u64, seed: u64) {
    check_decisions_from(rules, count, depth, max_nodes, seed, 4, 60, false)
}

/// As [`check_decisions`], from games `min_turns..min_turns + spread` turns in.
#[allow(clippy::too_many_arguments)]
fn check_decisions_from(
    rules: Rules,
    count: usize,
    depth: u32,
    max_nodes: u64,
    seed: u64,
    min_turns: u64,
    spread: u64,
    qs: bool,
) {
    let mut ev = DiceEvaluator::new(rules);
    let mut engines: Vec<(&str, DiceEngine)> = exact_configs(qs)
        .map(|(n, c)| {
            let mut e = DiceEngine::new(2);
            e.set_config(c);
            (n, e)
        })
        .collect();
    let mut rng = Rng(seed ^ 0x77);
    let mut checked = 0;
    let mut nonzero = 0;
    for g in positions(rules, count * 3, seed, min_turns, spread) {
        if checked == count {
            break;
        }
        let g = with_random_roll(&g, &mut rng);
        if plain_nodes(&g, depth, max_nodes) > max_nodes {
            continue;
        }
        let want = slow_decision(&g, depth, 0, &mut ev, qs);
        nonzero += (want.0 != 0) as u32;
        for (name, e) in engines.iter_mut() {
            let r = e
                .search(&g, &DiceLimits::depth(depth), &mut |_| {})
                .unwrap();
            assert_eq!(
                (r.value, r.best_move()),
                want,
                "{rules} {name} depth {depth}: {g:?}"
            );
        }
        checked += 1;
    }
    assert_eq!(checked, count, "{rules}: not enough small trees");
    assert!(nonzero > count as u32 / 10, "{rules}: trivial values only");
}

fn check_chance(rules: Rules, count: usize, depth: u32, seed: u64, qs: bool) {
    let mut ev = DiceEvaluator::new(rules);
    let mut engines: Vec<(&str, DiceEngine)> = exact_configs(qs)
        .map(|(n, c)| {
            let mut e = DiceEngine::new(2);
            e.set_config(c);
            (n, e)
        })
        .collect();
    for g in positions(rules, count, seed, 20, 60) {
        let want = slow_chance(&g, depth, 0, &mut ev, qs);
        for (name, e) in engines.iter_mut() {
            let r = e
                .evaluate(&g, &DiceLimits::depth(depth), &mut |_| {})
                .unwrap();
            assert_eq!(r.value, want, "{rules} {name} chance depth {depth}: {g:?}");
        }
    }
}

#[test]
fn two_dice_decisions_match_plain_expectimax() {
    check_decisions(Rules::TwoDice, 200, 2, 60_000, 1);
}

/// Two dice, three turns: chance nodes on two levels below the root, so per-type sharing
/// runs under narrow windows with the table's type entries from earlier iterations; small
/// trees from late games.
#[test]
fn two_dice_three_turns_match_plain_expectimax() {
    check_decisions_from(Rules::TwoDice, 8, 3, 400_000, 43, 90, 150, false);
}

#[test]
fn one_die_decisions_match_plain_expectimax() {
    check_decisions(Rules::OneDie, 300, 2, 60_000, 2);
    check_decisions(Rules::OneDie, 40, 3, 100_000, 22);
}

#[test]
fn three_dice_decisions_match_plain_expectimax() {
    check_decisions(Rules::ThreeDice, 200, 1, 20_000, 3);
}

/// Three dice, two turns (chance nodes with Star1/Star2 inside the tree): sparse endgames,
/// every roll of a few positions.
#[test]
fn three_dice_two_turns_match_plain_expectimax() {
    let fens = [
        "4k3/8/8/3p4/8/2N5/8/4K3 w - - 0 1",
        "4k3/8/8/3p4/8/2N5/8/4K3 b - - 0 1",
        "8/2k5/8/8/4R3/8/5p2/4K3 w - - 0 1",
        "8/2k5/8/8/4R3/8/5p2/4K3 b - - 0 1",
        "3qk3/8/8/8/8/8/8/3QK3 w - - 0 1",
        "4k3/4p3/8/8/8/8/4P3/4K3 w - - 0 1",
        "7k/6b1/8/8/8/8/1B6/K7 b - - 0 1",
        "4k3/8/8/8/8/8/8/1N2K1N1 b - - 0 1",
        "1n2k1n1/8/8/8/8/8/8/4K3 w - - 0 1",
    ];
    let mut ev = DiceEvaluator::new(Rules::ThreeDice);
    // The exact configurations, and `all-exact` without sleep sets (last).
    let no_sleep = SearchConfig {
        sleep_sets: false,
        ..SearchConfig::ALL_EXACT
    };
    let mut engines: Vec<(&str, DiceEngine)> = exact_configs(false)
        .chain([("all-exact without sleep sets", no_sleep)])
        .map(|(n, c)| {
            let mut e = DiceEngine::new(2);
            e.set_config(c);
            (n, e)
        })
        .collect();
    let mut checked = 0;
    let (mut sleep_nodes, mut no_sleep_nodes) = (0, 0);
    for g in small_three_dice_trees(&fens, 6, 77) {
        let want = slow_decision(&g, 2, 0, &mut ev, false);
        let want_line = slow_line(&g, 2, &mut ev);
        for (name, e) in engines.iter_mut() {
            e.new_game();
            let r = e.search(&g, &DiceLimits::depth(2), &mut |_| {}).unwrap();
            assert_eq!((r.value, r.best_move()), want, "{name}: {g:?}");
            // The whole turn, not only its first micro-move: the nodes inside the root
            // turn break ties the same way.
            assert_eq!(
                r.line.as_slice(),
                want_line.as_slice(),
                "{name} line: {g:?}"
            );
            match *name {
                "all-exact" => sleep_nodes += r.nodes,
                "all-exact without sleep sets" => no_sleep_nodes += r.nodes,
                _ => {}
            }
        }
        checked += 1;
    }
    assert!(checked >= 20, "only {checked} small trees");
    // The sleep sets were at work in these trees (the knights' turns commute).
    assert!(
        sleep_nodes < no_sleep_nodes,
        "sleep sets: {sleep_nodes} nodes, without: {no_sleep_nodes}"
    );
}

/// Three dice with sampling (`Sampling::ThreeDice`), two turns, on the small trees of the
/// test above: the search equals the slow reference whose chance nodes below the root take
/// the engine's sample (its rolls at its weights), the root turn searched in full; plain
/// expectimax and `all-exact` with sampling, the table emptied before each search (another
/// root draws another sample). The sample changes some values from exact expectimax's, so
/// a search that ignored it would fail.
#[test]
fn three_dice_sampling_searches_its_sample() {
    let fens = [
        "4k3/8/8/3p4/8/2N5/8/4K3 w - - 0 1",
        "8/2k5/8/8/4R3/8/5p2/4K3 b - - 0 1",
        "3qk3/8/8/8/8/8/8/3QK3 w - - 0 1",
        "4k3/4p3/8/8/8/8/4P3/4K3 w - - 0 1",
        "7k/6b1/8/8/8/8/1B6/K7 b - - 0 1",
        "1n2k1n1/8/8/8/8/8/8/4K3 w - - 0 1",
    ];
    let mut ev = DiceEvaluator::new(Rules::ThreeDice);
    let mut engines: Vec<(&str, u8, DiceEngine)> = [
        ("plain", SearchConfig::PLAIN, 8),
        ("all-exact", SearchConfig::ALL_EXACT, 3),
    ]
    .into_iter()
    .map(|(n, c, rolls)| {
        let mut e = DiceEngine::new(2);
        e.set_config(SearchConfig {
            sampling: Sampling::ThreeDice { rolls },
            ..c
        });
        (n, rolls, e)
    })
    .collect();
    let (mut checked, mut changed) = (0, 0);
    for g in small_three_dice_trees(&fens, 3, 78) {
        // Exact expectimax's value, until a sample has been seen to change one.
        let exact = (changed == 0).then(|| slow_decision(&g, 2, 0, &mut ev, false).0);
        for (name, rolls, e) in engines.iter_mut() {
            let sample = e
                .sample(&g)
                .expect("three dice with sampling draws a sample");
            assert_eq!(sample.denominator(), *rolls as u32);
            let drawn: u32 = sample.as_slice().iter().map(|o| o.weight).sum();
            assert_eq!(drawn, *rolls as u32);
            let want = slow_decision_on(&g, 2, 0, &mut ev, false, Some(&sample));
            e.new_game();
            let r = e.search(&g, &DiceLimits::depth(2), &mut |_| {}).unwrap();
            assert_eq!(
                (r.value, r.best_move()),
                want,
                "{name} sampling {rolls}: {g:?}"
            );
            changed += exact.is_some_and(|v| v != want.0) as u32;
        }
        checked += 1;
    }
    assert!(checked >= 10, "only {checked} small trees");
    assert!(changed > 0, "no sample changed a value");
    // Without sampling, or in another rule set, there is no sample.
    assert!(DiceEngine::new(1)
        .sample(&DiceGame::new(Rules::ThreeDice))
        .is_none());
    let mut e = DiceEngine::new(1);
    e.set_config(SearchConfig {
        sampling: Sampling::ThreeDice { rolls: 8 },
        ..SearchConfig::ALL
    });
    assert!(e.sample(&DiceGame::new(Rules::TwoDice)).is_none());
}

#[test]
fn chance_nodes_match_plain_expectimax() {
    check_chance(Rules::TwoDice, 60, 1, 4, false);
    check_chance(Rules::OneDie, 100, 1, 5, false);
    check_chance(Rules::ThreeDice, 5, 1, 6, false);
}

/// The configurations with quiescence leaves against the slow reference with the same
/// leaves (`slow_quiesce`, the quiescence's definition written here): decision nodes at one
/// turn (and two in one die), chance nodes at one turn. Three dice only one tiny tree: the
/// reference's 56 outcomes with the maximum rule at every leaf are very slow.
#[test]
fn quiescence_matches_its_definition() {
    check_decisions_from(Rules::TwoDice, 30, 1, 2_000, 31, 4, 60, true);
    check_decisions_from(Rules::OneDie, 40, 1, 2_000, 33, 4, 60, true);
    check_decisions_from(Rules::OneDie, 12, 2, 1_500, 34, 4, 60, true);
    // Three dice: sparse endgames with captures, every roll of a few (the reference's 56
    // outcomes with the maximum rule at every leaf make big trees very slow).
    let mut ev = DiceEvaluator::new(Rules::ThreeDice);
    let mut engines: Vec<(&str, DiceEngine)> = exact_configs(true)
        .map(|(n, c)| {
            let mut e = DiceEngine::new(2);
            e.set_config(c);
            (n, e)
        })
        .collect();
    let mut rng = Rng(35);
    for fen in [
        "4k3/8/8/3p4/4P3/2N5/8/4K3 w - - 0 1",
        "4k3/8/2n5/3p4/4P3/8/8/4K3 b - - 0 1",
        "8/2k5/8/2p5/1P2R3/8/5p2/4K3 w - - 0 1",
    ] {
        let g = DiceGame::from_fen(Rules::ThreeDice, fen).unwrap();
        for _ in 0..4 {
            let g = with_random_roll(&g, &mut rng);
            let want = slow_decision(&g, 1, 0, &mut ev, true);
            for (name, e) in engines.iter_mut() {
                let r = e.search(&g, &DiceLimits::depth(1), &mut |_| {}).unwrap();
                assert_eq!((r.value, r.best_move()), want, "{name}: {g:?}");
            }
        }
    }
    check_chance(Rules::OneDie, 16, 1, 37, true);
}

/// The table on or off (exact mode) gives the same value and move at every fixed depth,
/// also across the iterations of one search (entries of shallower iterations in the table).
#[test]
fn table_on_and_off_agree() {
    for rules in Rules::ALL {
        let depth = if rules == Rules::ThreeDice { 2 } else { 3 };
        let mut on = DiceEngine::new(8);
        on.set_config(SearchConfig::ALL_EXACT);
        let mut off = DiceEngine::new(8);
        off.set_config(SearchConfig {
            table: TableMode::Off,
            ..SearchConfig::ALL_EXACT
        });
        let mut rng = Rng(9);
        for g in positions(rules, 12, 10 + rules as u64, 10, 40) {
            let g = with_random_roll(&g, &mut rng);
            let limits = DiceLimits {
                depth,
                nodes: 400_000,
                movetime_ms: None,
                soft_ms: None,
            };
            let a = on.search(&g, &limits, &mut |_| {}).unwrap();
            let b = off.search(&g, &limits, &mut |_| {}).unwrap();
            let d = a.depth.min(b.depth);
            let a = on.search(&g, &DiceLimits::depth(d), &mut |_| {}).unwrap();
            let b = off.search(&g, &DiceLimits::depth(d), &mut |_| {}).unwrap();
            assert_eq!(
                (a.value, a.line),
                (b.value, b.line),
                "{rules} depth {d}: {g:?}"
            );
        }
    }
}

/// A value in the win band that is an average, not a proven win, must not end iterative
/// deepening before the depth asked (found by the three-turn test with seed 41: plain
/// expectimax returned the depth-2 value at depth 3).
#[test]
fn averaged_win_band_values_do_not_stop_the_deepening() {
    let g = DiceGame::from_fen(
        Rules::TwoDice,
        "7r/2P5/3p1b2/3bpk1p/1P1P1q2/4npP1/r6N/2R1K2n w - - 2 51 BK",
    )
    .unwrap();
    let mut ev = DiceEvaluator::new(Rules::TwoDice);
    let want = slow_decision(&g, 3, 0, &mut ev, false);
    let mut e = DiceEngine::new(2);
    e.set_config(SearchConfig::PLAIN);
    let r = e.search(&g, &DiceLimits::depth(3), &mut |_| {}).unwrap();
    assert_eq!(r.depth, 3);
    assert_eq!((r.value, r.best_move()), want);
}

/// The static-value cache (`SearchConfig::eval_cache`) changes nothing but time: with it
/// and without, searches give the same value, line and node count in every rule set (the
/// fast table and two-dice quiescence included), the engines kept across positions and
/// rule sets. A cache must also forget its values when the evaluator changes: after a
/// one-die search, two-dice searches under other weights must not meet the old weights'
/// values.
#[test]
fn the_eval_cache_changes_nothing_but_time() {
    fn engines() -> (DiceEngine, DiceEngine) {
        let mut with = DiceEngine::new(8);
        with.set_config(SearchConfig::ALL);
        let mut without = DiceEngine::new(8);
        without.set_config(SearchConfig {
            eval_cache: false,
            ..SearchConfig::ALL
        });
        (with, without)
    }
    fn compare(with: &mut DiceEngine, without: &mut DiceEngine, rules: Rules, seed: u64) {
        let depth = if rules == Rules::ThreeDice { 2 } else { 3 };
        let limits = DiceLimits {
            depth,
            nodes: 150_000,
            movetime_ms: None,
            soft_ms: None,
        };
        let mut rng = Rng(seed);
        for g in positions(rules, 6, seed, 10, 40) {
            let g = with_random_roll(&g, &mut rng);
            let a = with.search(&g, &limits, &mut |_| {}).unwrap();
            let b = without.search(&g, &limits, &mut |_| {}).unwrap();
            assert_eq!(
                (a.value, a.line, a.nodes, a.depth),
                (b.value, b.line, b.nodes, b.depth),
                "{rules}: {g:?}"
            );
        }
    }
    let (mut with, mut without) = engines();
    for rules in Rules::ALL {
        compare(&mut with, &mut without, rules, 50 + rules as u64);
    }
    // Other two-dice weights (material doubled) through the tuning hook: `with` made its
    // evaluator before, and its cache holds two-dice values of the weights in use (of the
    // same positions: seed 60), which the one-die search between must have cleared.
    compare(&mut with, &mut without, Rules::TwoDice, 60);
    compare(&mut with, &mut without, Rules::OneDie, 61);
    #[cfg(feature = "lab")]
    {
        use chesscore::lab::dice_eval::{weights_in_use, with_weights_override, WEIGHTS};
        let mut w = WEIGHTS[Rules::TwoDice as usize];
        for x in &mut w[1..6] {
            *x *= 2;
        }
        with_weights_override(Rules::TwoDice, w, || {
            let (_, mut fresh) = engines();
            assert_eq!(
                weights_in_use(&DiceEvaluator::new(Rules::TwoDice)),
                &w,
                "the override reaches new evaluators"
            );
            // Both tables empty, so only the caches can differ.
            with.new_game();
            compare(&mut with, &mut fresh, Rules::TwoDice, 60);
        });
    }
}

/// The win chances (`DiceEngine::equity`, issue 30 item 2): at depth 1 the value is the slow
/// reference's, the chances are the rule set's model of that value (checked against the
/// model's own definition in `dice::eval::wdl`'s unit tests), they sum to 1 and rise with the
/// value; a proven win is certain, a proven loss too, a finished game gives its result and a
/// rolled game is refused.
#[test]
fn equity_reads_the_searched_value_through_the_model() {
    use chesscore::dice::eval::wdl;
    use chesscore::dice::search::{wdl_of, DiceSearchError};
    for rules in Rules::ALL {
        let mut ev = DiceEvaluator::new(rules);
        let mut e = DiceEngine::new(2);
        e.set_config(SearchConfig::ALL_EXACT);
        let mut seen = Vec::new();
        for g in positions(rules, 12, 71, 10, 40) {
            let want = slow_chance(&g, 1, 0, &mut ev, false);
            let q = e.equity(&g, &DiceLimits::depth(1), &mut |_| {}).unwrap();
            assert_eq!((q.value, q.depth), (want, 1), "{rules}: {g:?}");
            let p = q.wdl;
            assert!((p.win + p.draw + p.loss - 1.0).abs() < 1e-12, "{p:?}");
            assert!([p.win, p.draw, p.loss]
                .iter()
                .all(|x| (0.0..=1.0).contains(x)));
            assert_eq!(q.expected_score(), p.win + p.draw / 2.0);
            if want.abs() <= EVAL_MAX {
                assert_eq!(p, wdl::wdl(rules, want), "{rules} {want}");
            }
            seen.push((want, p.win, p.loss));
        }
        seen.sort_by_key(|s| s.0);
        for w in seen.windows(2) {
            assert!(w[0].1 <= w[1].1 && w[0].2 >= w[1].2, "{rules}: {seen:?}");
        }
        for n in 0..64 {
            assert_eq!(wdl_of(rules, WIN - n), wdl::Wdl::WIN, "win in {}", n + 1);
            assert_eq!(wdl_of(rules, -(WIN - n)), wdl::Wdl::LOSS);
        }
        // Above EVAL_MAX but below the band: near-certain, read as EVAL_MAX.
        assert_eq!(wdl_of(rules, EVAL_MAX + 100), wdl::wdl(rules, EVAL_MAX));
        let mut rolled = DiceGame::new(rules);
        let roll = rolled.outcomes().as_slice()[0].roll;
        rolled.set_roll(roll).unwrap();
        assert_eq!(
            e.equity(&rolled, &DiceLimits::depth(1), &mut |_| {}),
            Err(DiceSearchError::NotAwaitingRoll)
        );
    }
    // One die: the white queen takes the king on a queen roll; the winner is still to move.
    let mut g = DiceGame::from_fen(Rules::OneDie, "4k3/8/8/8/4Q3/8/8/4K3 w - - 0 1").unwrap();
    let mut e = DiceEngine::new(2);
    g.set_roll(chesscore::dice::Roll::from_faces(&[5]).unwrap())
        .unwrap();
    let r = e.search(&g, &DiceLimits::depth(1), &mut |_| {}).unwrap();
    g.make_move(r.best_move()).unwrap();
    assert!(matches!(g.status(), DiceStatus::Won { .. }));
    let q = e.equity(&g, &DiceLimits::depth(3), &mut |_| {}).unwrap();
    assert_eq!((q.wdl, q.depth, q.value), (wdl::Wdl::WIN, 0, WIN));
}
