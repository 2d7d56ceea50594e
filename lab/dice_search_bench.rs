//! The Dice Chess search benchmark: nodes and time to finish a fixed depth on 50 fixed
//! positions per rule set (testdata/dice-search-positions.txt), for plain expectimax, Star1,
//! Star1+Star2, and everything together; the values of every exact configuration are
//! checked against plain expectimax's; then the depth each reaches in a fixed time.
//!
//! ```text
//! cargo run --release --features lab --example dice_search_bench                # the benchmark
//! cargo run --release --features lab --example dice_search_bench -- --ms 1000 --time-positions 50
//! cargo run --release --features lab --example dice_search_bench -- --make-positions   # rewrite the file
//! cargo run --release --features lab --example dice_search_bench -- --threads 2 --runs 5   # Lazy SMP
//! cargo run --release --features lab --example dice_search_bench -- --threads 1 --smp-configs all,all-nocache --runs 5
//! cargo run --release --features lab --example dice_search_bench -- --rules one-die --configs all-exact,-bounds
//! cargo run --release --features lab --example dice_search_bench -- --skip-plain   # values against the first row run
//! cargo run --release --features lab --example dice_search_bench -- --configs none --skip-plain --ms 25 --depth-configs plain,all,all-exact
//! ```
//! Depths: 3 turns for two dice and one die, 2 for three dice (the issue's).
//!
//! `--threads N` measures Lazy SMP instead: the time to finish the fixed depth on the
//! positions (each from an empty table) and the nodes per second, with 1 thread in the
//! first configuration of `--smp-configs a,b` and with N threads in each (named, default
//! `all`; `all-nosplit` is `all` without the helpers' outcome split),
//! `--runs` times each (alternating), and the medians; then the mean depth completed in
//! `--ms` per position with each (when `--time-positions` is not 0).
//! With several threads nodes and times vary from run to run. `--threads 1` gives one
//! row per configuration of `--smp-configs`, alternating: a timing comparison of named
//! configurations that search the same nodes (`all,all-nocache`: the static-value cache).

#[path = "dice_common/mod.rs"]
mod common;
#[path = "dice_configs.rs"]
mod dice_configs;

use chesscore::dice::player::{sample_roll, GreedyPlayer, RandomPlayer, Rng};
use chesscore::dice::search::{DiceEngine, DiceLimits, MoveOrder, Pruning, SearchConfig};
use chesscore::dice::{DiceGame, Rules};
use std::time::Instant;

const FILE: &str = "testdata/dice-search-positions.txt";

/// 50 positions per rule set, dice rolled: seeded games of greedy against random (one in
/// four turns random for both, for variety), a position taken 6 to 45 turns in.
fn make_positions() -> String {
    let mut s = String::from(
        "# Dice Chess search benchmark positions: rules;dice FEN (dice rolled).\n\
         # Made by `cargo run --release --features lab --example dice_search_bench -- --make-positions`.\n",
    );
    for rules in Rules::ALL {
        let mut rng = Rng(2026 + rules as u64);
        let mut n = 0;
        while n < 50 {
            let mut g = DiceGame::new(rules);
            let stop = 6 + rng.below(40);
            let mut greedy = GreedyPlayer(Rng(rng.next_u64()));
            let mut random = RandomPlayer(Rng(rng.next_u64()));
            let mut turn = 0;
            let mut taken = None;
            while let Some(roll) = sample_roll(&g, &mut rng) {
                g.set_roll(roll).unwrap();
                if turn == stop {
                    if !g.moves().is_empty() {
                        taken = Some(g.clone());
                    }
                    break;
                }
                common::play_mixed_turn(&mut g, &mut rng, &mut greedy, &mut random);
                turn += 1;
            }
            if let Some(g) = taken {
                s.push_str(&format!("{};{}\n", rules.name(), g.to_fen()));
                n += 1;
            }
        }
    }
    s
}

fn load() -> Vec<DiceGame> {
    let text = std::fs::read_to_string(FILE).expect("testdata/dice-search-positions.txt");
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let (r, fen) = l.split_once(';').expect("rules;fen");
            DiceGame::from_fen(Rules::from_name(r).expect("rules"), fen).expect("fen")
        })
        .collect()
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

/// Lazy SMP: time and nodes to finish `depth` on `set` with 1 thread in the first of
/// `configs` (named configurations) and with `threads` threads in each, the rows
/// alternating within each run.
fn smp_bench(
    set: &[&DiceGame],
    depth: u32,
    threads: usize,
    configs: &[&str],
    runs: usize,
    ms: u64,
    timed: usize,
) {
    println!(
        "Lazy SMP: {} positions, depth {depth} (turns), 1 thread ({}) and {threads} threads ({}), {runs} runs",
        set.len(),
        configs[0],
        configs.join(", ")
    );
    let mut rows: Vec<(String, DiceEngine)> = Vec::new();
    for (k, name) in configs.iter().enumerate() {
        let config = dice_configs::from_name(name)
            .unwrap_or_else(|| panic!("--smp-configs: no configuration named {name}"));
        // `--threads 1`: one row per configuration (an alternating comparison of them).
        let counts: &[usize] = if threads == 1 { &[1] } else { &[1, threads] };
        for &n in counts {
            if n == 1 && k > 0 && threads > 1 {
                continue;
            }
            let mut e = DiceEngine::new(64);
            e.set_config(config);
            assert!(e.set_threads(n), "threads");
            let label = if n == 1 { "thread" } else { "threads" };
            rows.push((format!("{n} {label} {name}"), e));
        }
    }
    let mut times = vec![Vec::new(); rows.len()];
    let mut rates = vec![Vec::new(); rows.len()];
    for run in 0..runs {
        for (k, (label, e)) in rows.iter_mut().enumerate() {
            let (mut nodes, mut values) = (0u64, 0i64);
            let t = Instant::now();
            for g in set {
                e.new_game();
                let r = e.search(g, &DiceLimits::depth(depth), &mut |_| {}).unwrap();
                nodes += r.nodes;
                values += i64::from(r.value);
            }
            let secs = t.elapsed().as_secs_f64();
            println!(
                "run {} {label:<24}: {:>9.1} ms {nodes:>12} nodes {:>10.0} nodes/s (sum of values {values})",
                run + 1,
                secs * 1e3,
                nodes as f64 / secs
            );
            times[k].push(secs * 1e3);
            rates[k].push(nodes as f64 / secs);
        }
    }
    let (t1, r1) = (median(&mut times[0]), median(&mut rates[0]));
    println!("median {:<24}: {t1:.1} ms {r1:.0} nodes/s", rows[0].0);
    for k in 1..rows.len() {
        let (tn, rn) = (median(&mut times[k]), median(&mut rates[k]));
        println!(
            "median {:<24}: {tn:.1} ms {rn:.0} nodes/s; time-to-depth speedup {:.2}, nodes/s ratio {:.2}",
            rows[k].0,
            t1 / tn,
            rn / r1
        );
    }
    if timed == 0 {
        return;
    }
    for (label, e) in rows.iter_mut() {
        let mut depths = Vec::new();
        for g in set.iter().take(timed) {
            e.new_game();
            let r = e.search(g, &DiceLimits::movetime(ms), &mut |_| {}).unwrap();
            depths.push(r.depth);
        }
        let mean = depths.iter().sum::<u32>() as f64 / depths.len().max(1) as f64;
        println!(
            "{label:<24}: mean depth completed in {ms} ms {mean:.2} (first {} positions)",
            depths.len()
        );
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.iter().any(|a| a == "--make-positions") {
        std::fs::write(FILE, make_positions()).expect("write");
        println!("wrote {FILE}");
        return;
    }
    let arg = |name: &str, default: u64| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
            .map_or(default, |v| v.parse().expect("a number"))
    };
    let ms = arg("--ms", 1000);
    let time_positions = arg("--time-positions", 50) as usize;
    let positions = arg("--positions", 50) as usize;
    let depth_arg = arg("--depth", 0) as u32;
    let only: Option<Rules> = args
        .iter()
        .position(|a| a == "--rules")
        .and_then(|i| args.get(i + 1))
        .and_then(|r| Rules::from_name(r));
    let threads = arg("--threads", 0) as usize;
    // `--smp-configs a,b`: the named configurations run with `--threads` (default `all`).
    let smp_configs: String = args
        .iter()
        .position(|a| a == "--smp-configs")
        .and_then(|i| args.get(i + 1))
        .cloned()
        .unwrap_or_else(|| "all".to_string());
    let smp_configs: Vec<&str> = smp_configs.split(',').collect();
    let runs = arg("--runs", 3) as usize;
    let skip_plain = args.iter().any(|a| a == "--skip-plain");
    let only_configs: Option<String> = args
        .iter()
        .position(|a| a == "--configs")
        .and_then(|i| args.get(i + 1))
        .cloned();
    // `--depth-configs a,b`: the named configurations (`dice_configs::NAMED`) of the depth
    // table instead of plain and all. Each row also gives the wall time the searches used
    // (mean and max), so that "the same time" can be checked: at a few ms a move the clock is
    // read only every 1024 nodes and between outcomes.
    let depth_names: Option<String> = args
        .iter()
        .position(|a| a == "--depth-configs")
        .and_then(|i| args.get(i + 1))
        .cloned();
    let games = load();
    let configs = [
        ("plain", SearchConfig::PLAIN),
        ("star1", dice_configs::STAR1),
        ("star1+star2", dice_configs::STAR2),
        ("all-exact", SearchConfig::ALL_EXACT),
        (
            "-types",
            SearchConfig {
                share_types: false,
                ..SearchConfig::ALL_EXACT
            },
        ),
        (
            "-bounds",
            SearchConfig {
                bounds: false,
                ..SearchConfig::ALL_EXACT
            },
        ),
        (
            "-leafprobes",
            SearchConfig {
                pruning: Pruning::Star2 {
                    leaf_probes: false,
                    probe_order: true,
                },
                ..SearchConfig::ALL_EXACT
            },
        ),
        (
            "-evalorder",
            SearchConfig {
                order: MoveOrder::Static,
                ..SearchConfig::ALL_EXACT
            },
        ),
        (
            "-probeorder",
            SearchConfig {
                pruning: Pruning::Star2 {
                    leaf_probes: true,
                    probe_order: false,
                },
                ..SearchConfig::ALL_EXACT
            },
        ),
        (
            "-sleep",
            SearchConfig {
                sleep_sets: false,
                ..SearchConfig::ALL_EXACT
            },
        ),
        // The static-value cache saves time, not nodes.
        (
            "-evalcache",
            SearchConfig {
                eval_cache: false,
                ..SearchConfig::ALL_EXACT
            },
        ),
        // The search's techniques at the same leaves as plain expectimax (quiescence, on in
        // `ALL` for two dice, changes the leaves: it is judged by matches, not here).
        ("all", dice_configs::ALL_NOQS),
    ];
    for rules in Rules::ALL {
        if only.is_some_and(|o| o != rules) {
            continue;
        }
        let set: Vec<&DiceGame> = games
            .iter()
            .filter(|g| g.rules() == rules)
            .take(positions)
            .collect();
        let depth = match (depth_arg, rules) {
            (0, Rules::ThreeDice) => 2,
            (0, _) => 3,
            (d, _) => d,
        };
        if threads > 0 {
            print!("{rules}: ");
            smp_bench(&set, depth, threads, &smp_configs, runs, ms, time_positions);
            println!();
            continue;
        }
        println!(
            "{rules}: {} positions, depth {depth} (turns)\n{:<12} {:>14} {:>9} {:>10} {:>8}",
            set.len(),
            "config",
            "nodes",
            "vs plain",
            "time ms",
            "values"
        );
        let mut plain_values = Vec::new();
        let mut plain_nodes = 0u64;
        for (name, config) in configs {
            if only_configs
                .as_ref()
                .is_some_and(|o| name != "plain" && !o.split(',').any(|c| c == name))
            {
                continue;
            }
            if name == "plain" && skip_plain {
                println!("plain        (skipped: --skip-plain; values against the next row)");
                continue;
            }
            // Without plain, the first row run is the values' reference.
            let reference = name == "plain" || plain_values.is_empty();
            let mut e = DiceEngine::new(64);
            e.set_config(config);
            let (mut nodes, mut same) = (0u64, 0usize);
            let t = Instant::now();
            for (i, g) in set.iter().enumerate() {
                e.new_game();
                let r = e.search(g, &DiceLimits::depth(depth), &mut |_| {}).unwrap();
                nodes += r.nodes;
                if reference {
                    plain_values.push(r.value);
                } else if plain_values.get(i) == Some(&r.value) {
                    same += 1;
                }
            }
            let ms = t.elapsed().as_millis();
            if name == "plain" {
                plain_nodes = nodes;
            }
            if reference {
                same = set.len();
            }
            let share = if plain_nodes > 0 {
                format!("{:.1}%", 100.0 * nodes as f64 / plain_nodes as f64)
            } else {
                "-".to_string()
            };
            println!(
                "{name:<12} {nodes:>14} {share:>9} {ms:>10} {same:>5}/{}",
                set.len()
            );
        }
        if time_positions == 0 {
            continue;
        }
        println!("depth completed in {ms} ms (first {time_positions} positions):");
        let mut depth_configs = vec![
            ("plain".to_string(), SearchConfig::PLAIN),
            ("all".to_string(), dice_configs::ALL_NOQS),
        ];
        if let Some(names) = &depth_names {
            depth_configs = names
                .split(',')
                .map(|n| {
                    let c = dice_configs::from_name(n).expect("a named configuration");
                    (n.to_string(), c)
                })
                .collect();
        }
        for (name, config) in depth_configs {
            let mut e = DiceEngine::new(64);
            e.set_config(config);
            let mut depths = Vec::new();
            let mut wall = Vec::new();
            for g in set.iter().take(time_positions) {
                e.new_game();
                let t = Instant::now();
                let r = e.search(g, &DiceLimits::movetime(ms), &mut |_| {}).unwrap();
                wall.push(t.elapsed().as_micros() as u64);
                depths.push(r.depth);
            }
            depths.sort_unstable();
            wall.sort_unstable();
            let mean = depths.iter().sum::<u32>() as f64 / depths.len().max(1) as f64;
            let mean_us = wall.iter().sum::<u64>() as f64 / wall.len().max(1) as f64;
            println!(
                "{name:<12} mean depth {mean:.2}, median {}, min {}, max {}; time used: mean {:.0} us, max {} us",
                depths[depths.len() / 2],
                depths[0],
                depths[depths.len() - 1],
                mean_us,
                wall[wall.len() - 1]
            );
        }
        println!();
    }
}
