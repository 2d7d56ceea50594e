//! The network's speed in the search: nodes per second of the hand-written evaluation against
//! random networks of N = 128 and 256 (seeded, in docs/nnue.md's file format), on
//! `chesscore bench`'s positions, interleaved within each run, one thread, 16 MiB hash.
//!
//!   cargo run --release --features lab --example nnue_bench -- [RUNS] [NODES_PER_POSITION] [NET...]
//!
//! With NET files, those trained nets are measured instead of the random ones.
//! Random nets are not trained: their trees differ from the hand-written evaluation's, so only
//! the nodes per second compare (each search is cut at the same node count).

use chesscore::eval::nnue::{fnv1a32, Network};
use chesscore::search::{Engine, Limits};
use chesscore::uci::bench::BENCH_POSITIONS;
use chesscore::Position;
use std::sync::Arc;
use std::time::Instant;

/// SplitMix64.
struct Rng(u64);

impl Rng {
    fn range(&mut self, lo: i64, hi: i64) -> i64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        lo + ((z ^ (z >> 31)) % (hi - lo + 1) as u64) as i64
    }
}

/// A random net: feature weights and biases in -120..=120, output weights in -8..=8 (evals of
/// a few hundred centipawns), written and loaded through the file format.
fn random_net(seed: u64, n: usize) -> Network {
    let mut rng = Rng(seed);
    let mut b = Vec::new();
    b.extend_from_slice(b"CCNN");
    for v in [1u32, n as u32, 1] {
        b.extend_from_slice(&v.to_le_bytes());
    }
    for _ in 0..769 * n {
        b.extend_from_slice(&(rng.range(-120, 120) as i16).to_le_bytes());
    }
    for _ in 0..2 * n {
        b.extend_from_slice(&(rng.range(-8, 8) as i16).to_le_bytes());
    }
    b.extend_from_slice(&0i32.to_le_bytes());
    let sum = fnv1a32(&b);
    b.extend_from_slice(&sum.to_le_bytes());
    Network::from_bytes(&b).expect("the random net loads")
}

fn nps(engine: &mut Engine, nodes: u64) -> f64 {
    let limits = Limits {
        nodes,
        ..Limits::default()
    };
    let (mut total, mut secs) = (0u64, 0f64);
    for fen in BENCH_POSITIONS {
        let pos = Position::from_fen(fen).unwrap();
        engine.new_game();
        let start = Instant::now();
        total += engine.search(&pos, &limits, &mut |_| {}).nodes;
        secs += start.elapsed().as_secs_f64();
    }
    total as f64 / secs
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    v[v.len() / 2]
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let runs: usize = args.get(1).map_or(5, |a| a.parse().expect("RUNS"));
    let nodes: u64 = args.get(2).map_or(200_000, |a| a.parse().expect("NODES"));
    let mut choices: Vec<(String, Option<Arc<Network>>)> = vec![("hand-written".into(), None)];
    if args.len() > 3 {
        for path in &args[3..] {
            let net = Network::from_file(path).unwrap_or_else(|e| panic!("{path}: {e}"));
            choices.push((path.clone(), Some(Arc::new(net))));
        }
    } else {
        choices.push(("random N=128".into(), Some(Arc::new(random_net(128, 128)))));
        choices.push(("random N=256".into(), Some(Arc::new(random_net(256, 256)))));
    }
    let mut engine = Engine::new();
    let mut results = vec![Vec::new(); choices.len()];
    for run in 0..runs {
        for (i, (name, net)) in choices.iter().enumerate() {
            engine.set_network(net.clone());
            let v = nps(&mut engine, nodes);
            eprintln!("run {}: {name:<13} {v:>10.0} nps", run + 1);
            results[i].push(v);
        }
    }
    let hand = median(&mut results[0].clone());
    println!("| evaluation | median nps | runs | vs hand-written |");
    println!("|---|---|---|---|");
    for (i, (name, _)) in choices.iter().enumerate() {
        let m = median(&mut results[i]);
        println!("| {name} | {m:.0} | {runs} | {:.2}x |", m / hand);
    }
}
