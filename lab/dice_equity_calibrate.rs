//! Calibration of the Dice Chess win chances (`chesscore::dice::eval::wdl`, issue 30 item 2).
//!
//! ```text
//! cargo run --release --features lab --example dice_equity_calibrate -- RULES GAMES [options]
//!   --threads N     games played at once (default 2)
//!   --seed S        the games' seed (default 1)
//!   --players P     the self-play player (a `dice_common::make_player` name; default engine:d1)
//!   --depth D       the fixed depth of `DiceEngine::evaluate` for every position (default 2)
//!   --dump FILE     write every position's record (game, side, value, depth, result)
//!   --from FILE     read the records of an earlier --dump instead of playing
//!   --svg FILE      write the reliability diagram of the held-out split
//! ```
//! Plays GAMES seeded self-play games of RULES (both sides the same player; the first 4
//! turns each move random with chance 1/2 for variety, none later), keeps every position
//! awaiting its roll with the game's final result for its side to move, and evaluates each
//! with `DiceEngine::evaluate` ([`SearchConfig::ALL`], a fresh table per game, so a game's
//! values do not depend on the thread that played it) at `--depth`. Games whose index is a
//! multiple of 3 are the training split, the others held out: the split is by game, never
//! by position.
//!
//! On the training split it fits the two constants of `wdl::WdlModel` (`a`, `s`: win
//! `sigmoid((x - a) / s)`, loss `sigmoid((-x - a) / s)`, draw the rest, `x` the value's
//! logit `ln((1 + u) / (1 - u))`, `u = v / EVAL_MAX`) by minimising the three-outcome log
//! loss (a coarse grid, then finer grids around the best), and also the same model on the
//! raw value `x = v / 1000`, to compare. On the held-out split it reports, for the fitted
//! model and for today's mapping (`chess_diceEvaluate`'s expected score `e = (v + EVAL_MAX) /
//! (2 EVAL_MAX)` read as win `e`, loss `1 - e`, no draw):
//! * `logloss3`: mean `-ln p(outcome)` over win, draw, loss, each chance clipped to at least
//!   1e-6 (today's mapping gives a draw and a proven position's other outcomes 0);
//! * `brier3`: mean of `sum_k (p_k - y_k)^2` over the three outcomes (0 perfect, 2 worst);
//! * `brier_score`: mean `(E - y)^2`, `E` the expected score (`W + D/2`; today's: `e`), `y`
//!   the actual score (1, 1/2, 0);
//! * `logloss_score`: mean `-(y ln E + (1 - y) ln(1 - E))`, E clipped to 1e-6..1-1e-6.
//!
//! Positions whose value is a proven win or loss (`search::win_in`) count in every metric,
//! both mappings giving them 1 or 0; they take no part in the fit.

#[path = "dice_common/mod.rs"]
mod common;

use chesscore::dice::eval::wdl::{self, WdlModel};
use chesscore::dice::eval::EVAL_MAX;
use chesscore::dice::search::{expected_score, win_in, DiceEngine, DiceLimits, SearchConfig};
use chesscore::dice::Rules;
use chesscore::Color;
use std::fmt::Write as _;
use std::io::Write as _;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// One position: its game, the searched value for the side to move, and that side's result
/// (1, 0.5, 0).
#[derive(Clone, Copy)]
struct Rec {
    game: usize,
    value: i32,
    score: f64,
}

impl Rec {
    fn train(&self) -> bool {
        self.game % 3 == 0
    }
}

struct Opts {
    rules: Rules,
    games: usize,
    threads: usize,
    seed: u64,
    player: String,
    depth: u32,
    dump: Option<String>,
    from: Option<String>,
    svg: Option<String>,
}

fn parse() -> Opts {
    let a: Vec<String> = std::env::args().collect();
    if a.len() < 3 {
        eprintln!("usage: dice_equity_calibrate RULES GAMES [--threads N] [--seed S] [--players P] [--depth D] [--dump F] [--from F] [--svg F]");
        std::process::exit(2);
    }
    let mut o = Opts {
        rules: Rules::from_name(&a[1]).expect("RULES"),
        games: a[2].parse().expect("GAMES"),
        threads: 2,
        seed: 1,
        player: "engine:d1".into(),
        depth: 2,
        dump: None,
        from: None,
        svg: None,
    };
    let mut i = 3;
    while i < a.len() {
        let v = a.get(i + 1).cloned().expect("a value after the option");
        match a[i].as_str() {
            "--threads" => o.threads = v.parse().expect("N"),
            "--seed" => o.seed = v.parse().expect("S"),
            "--players" => o.player = v,
            "--depth" => o.depth = v.parse().expect("D"),
            "--dump" => o.dump = Some(v),
            "--from" => o.from = Some(v),
            "--svg" => o.svg = Some(v),
            x => panic!("unknown option {x}"),
        }
        i += 2;
    }
    o
}

fn play_all(o: &Opts) -> Vec<Rec> {
    let next = AtomicUsize::new(0);
    let recs = Mutex::new(Vec::new());
    let done = AtomicUsize::new(0);
    let start = std::time::Instant::now();
    std::thread::scope(|s| {
        for _ in 0..o.threads {
            s.spawn(|| {
                let mut engine = DiceEngine::new(16);
                engine.set_config(SearchConfig::ALL);
                loop {
                    let g = next.fetch_add(1, Ordering::Relaxed);
                    if g >= o.games {
                        break;
                    }
                    let p = common::selfplay_game(o.rules, &o.player, o.seed, g as u64);
                    engine.new_game();
                    let mut mine = Vec::with_capacity(p.positions.len());
                    for pos in &p.positions {
                        let r = engine
                            .evaluate(pos, &DiceLimits::depth(o.depth), &mut |_| {})
                            .expect("a game awaiting its roll");
                        let score = if pos.side_to_move() == Color::WHITE {
                            p.white_score
                        } else {
                            1.0 - p.white_score
                        };
                        mine.push(Rec {
                            game: g,
                            value: r.value,
                            score,
                        });
                    }
                    recs.lock().unwrap().extend(mine);
                    let d = done.fetch_add(1, Ordering::Relaxed) + 1;
                    if d % 50 == 0 {
                        eprintln!(
                            "{} games, {} positions, {:.0} s",
                            d,
                            recs.lock().unwrap().len(),
                            start.elapsed().as_secs_f64()
                        );
                    }
                }
            });
        }
    });
    let mut v = recs.into_inner().unwrap();
    v.sort_by_key(|r| r.game);
    v
}

fn read_dump(path: &str) -> Vec<Rec> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    text.lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            Rec {
                game: f[0].parse().unwrap(),
                value: f[1].parse().unwrap(),
                score: f[2].parse().unwrap(),
            }
        })
        .collect()
}

/// A prediction: chances of win, draw, loss.
type Wdl = [f64; 3];

/// Today's mapping: the expected score read as a win chance, no draws.
fn baseline(v: i32) -> Wdl {
    let e = expected_score(v);
    [e, 0.0, 1.0 - e]
}

/// The model on the raw value instead of its logit (compared, not used).
fn raw_model(m: WdlModel, v: i32) -> Wdl {
    if let Some(n) = win_in(v) {
        return if n > 0 {
            [1.0, 0.0, 0.0]
        } else {
            [0.0, 0.0, 1.0]
        };
    }
    let x = v.clamp(-EVAL_MAX, EVAL_MAX) as f64 / 1000.0;
    let w = sigmoid((x - m.a) / m.s);
    let l = sigmoid((-x - m.a) / m.s);
    [w, (1.0 - w - l).max(0.0), l]
}

/// The library's model (`wdl::wdl_of` for heuristic values; proven results 1 or 0).
fn lib_model(m: WdlModel, v: i32) -> Wdl {
    if let Some(n) = win_in(v) {
        return if n > 0 {
            [1.0, 0.0, 0.0]
        } else {
            [0.0, 0.0, 1.0]
        };
    }
    let p = m.wdl(v);
    [p.win, p.draw, p.loss]
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

fn outcome(score: f64) -> usize {
    if score > 0.75 {
        0
    } else if score > 0.25 {
        1
    } else {
        2
    }
}

const EPS: f64 = 1e-6;

#[derive(Default, Clone, Copy)]
struct Metrics {
    n: usize,
    logloss3: f64,
    brier3: f64,
    brier_score: f64,
    logloss_score: f64,
}

fn metrics(recs: &[&Rec], f: &dyn Fn(i32) -> Wdl) -> Metrics {
    let mut m = Metrics::default();
    for r in recs {
        let p = f(r.value);
        let k = outcome(r.score);
        m.logloss3 -= p[k].max(EPS).ln();
        for (j, pj) in p.iter().enumerate() {
            let y = if j == k { 1.0 } else { 0.0 };
            m.brier3 += (pj - y) * (pj - y);
        }
        let e = (p[0] + p[1] / 2.0).clamp(EPS, 1.0 - EPS);
        m.brier_score += (e - r.score) * (e - r.score);
        m.logloss_score -= r.score * e.ln() + (1.0 - r.score) * (1.0 - e).ln();
        m.n += 1;
    }
    let n = m.n.max(1) as f64;
    m.logloss3 /= n;
    m.brier3 /= n;
    m.brier_score /= n;
    m.logloss_score /= n;
    m
}

fn logloss3(recs: &[&Rec], f: &dyn Fn(i32) -> Wdl) -> f64 {
    metrics(recs, f).logloss3
}

/// Minimises the training log loss of `make(m)` over `a >= 0` and `s > 0`: a coarse grid
/// (`a` in 0..=4, `ln s` in ln 0.02..=ln 100), then six finer grids around the best point.
fn fit(recs: &[&Rec], make: &dyn Fn(WdlModel, i32) -> Wdl) -> WdlModel {
    let mut best = WdlModel { a: 0.0, s: 1.0 };
    let mut best_l = f64::INFINITY;
    let (mut a_lo, mut a_hi) = (0.0f64, 4.0f64);
    let (mut ls_lo, mut ls_hi) = (0.02f64.ln(), 100f64.ln());
    for _ in 0..7 {
        let n = 24;
        for i in 0..=n {
            for j in 0..=n {
                let a = a_lo + (a_hi - a_lo) * i as f64 / n as f64;
                let s = (ls_lo + (ls_hi - ls_lo) * j as f64 / n as f64).exp();
                let m = WdlModel { a, s };
                let l = logloss3(recs, &|v| make(m, v));
                if l < best_l {
                    best_l = l;
                    best = m;
                }
            }
        }
        let (da, ds) = ((a_hi - a_lo) / 6.0, (ls_hi - ls_lo) / 6.0);
        a_lo = (best.a - da).max(0.0);
        a_hi = best.a + da;
        ls_lo = best.s.ln() - ds;
        ls_hi = best.s.ln() + ds;
    }
    best
}

/// A reliability bin: mean predicted win chance, observed win frequency, positions.
type Bin = (f64, f64, usize);

/// A named mapping from a value to chances.
type Mapping = (&'static str, Box<dyn Fn(i32) -> Wdl>);

/// Reliability: for 10 bins of the predicted win chance, (mean predicted, observed win
/// frequency, count).
fn reliability(recs: &[&Rec], f: &dyn Fn(i32) -> Wdl) -> Vec<Bin> {
    let mut bins = vec![(0.0, 0.0, 0usize); 10];
    for r in recs {
        let w = f(r.value)[0];
        let b = ((w * 10.0) as usize).min(9);
        bins[b].0 += w;
        bins[b].1 += if outcome(r.score) == 0 { 1.0 } else { 0.0 };
        bins[b].2 += 1;
    }
    bins.into_iter()
        .map(|(p, o, n)| {
            let k = n.max(1) as f64;
            (p / k, o / k, n)
        })
        .collect()
}

/// A hand-written SVG: the diagonal, and each mapping's bins (20 positions at least) as a
/// line with dots.
fn svg(rules: Rules, depth: u32, held: usize, curves: &[(&str, &str, Vec<Bin>)]) -> String {
    let (w, h, m) = (420.0, 420.0, 50.0);
    let px = |x: f64| m + x * (w - 2.0 * m);
    let py = |y: f64| h - m - y * (h - 2.0 * m);
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="sans-serif" font-size="11">"#
    );
    let _ = writeln!(s, r#"<rect width="{w}" height="{h}" fill="white"/>"#);
    let _ = writeln!(
        s,
        r#"<text x="{}" y="20" text-anchor="middle" font-size="13">{rules}: win chance, {held} held-out positions (depth {depth})</text>"#,
        w / 2.0
    );
    for i in 0..=10 {
        let t = i as f64 / 10.0;
        let _ = writeln!(
            s,
            r##"<line x1="{:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="#e4e4e4"/><line x1="{:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="#e4e4e4"/>"##,
            px(t),
            py(0.0),
            px(t),
            py(1.0),
            px(0.0),
            py(t),
            px(1.0),
            py(t)
        );
        if i % 2 == 0 {
            let _ = writeln!(
                s,
                r#"<text x="{:.1}" y="{:.1}" text-anchor="middle">{t:.1}</text><text x="{:.1}" y="{:.1}" text-anchor="end">{t:.1}</text>"#,
                px(t),
                py(0.0) + 15.0,
                px(0.0) - 5.0,
                py(t) + 4.0
            );
        }
    }
    let _ = writeln!(
        s,
        r#"<text x="{:.1}" y="{:.1}" text-anchor="middle">predicted win chance</text>"#,
        w / 2.0,
        h - 12.0
    );
    let _ = writeln!(
        s,
        r#"<text x="14" y="{:.1}" text-anchor="middle" transform="rotate(-90 14 {:.1})">observed win frequency</text>"#,
        h / 2.0,
        h / 2.0
    );
    let _ = writeln!(
        s,
        r##"<line x1="{:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="#888" stroke-dasharray="4 3"/>"##,
        px(0.0),
        py(0.0),
        px(1.0),
        py(1.0)
    );
    for (k, (name, color, bins)) in curves.iter().enumerate() {
        let pts: Vec<String> = bins
            .iter()
            .filter(|b| b.2 >= 20)
            .map(|b| format!("{:.1},{:.1}", px(b.0), py(b.1)))
            .collect();
        let _ = writeln!(
            s,
            r#"<polyline points="{}" fill="none" stroke="{color}" stroke-width="2"/>"#,
            pts.join(" ")
        );
        for p in &pts {
            let (x, y) = p.split_once(',').unwrap();
            let _ = writeln!(s, r#"<circle cx="{x}" cy="{y}" r="3" fill="{color}"/>"#);
        }
        let ly = 45.0 + 16.0 * k as f64;
        let _ = writeln!(
            s,
            r#"<line x1="{:.1}" y1="{ly}" x2="{:.1}" y2="{ly}" stroke="{color}" stroke-width="2"/><text x="{:.1}" y="{:.1}">{name}</text>"#,
            px(0.0) + 10.0,
            px(0.0) + 30.0,
            px(0.0) + 36.0,
            ly + 4.0
        );
    }
    s.push_str("</svg>\n");
    s
}

fn main() {
    let o = parse();
    let recs = match &o.from {
        Some(f) => read_dump(f),
        None => play_all(&o),
    };
    if let Some(path) = &o.dump {
        let mut f = std::io::BufWriter::new(std::fs::File::create(path).expect("dump"));
        writeln!(
            f,
            "# {} games {} seed {} player {} depth {}: game value score",
            o.rules, o.games, o.seed, o.player, o.depth
        )
        .unwrap();
        for r in &recs {
            writeln!(f, "{} {} {}", r.game, r.value, r.score).unwrap();
        }
    }
    let train: Vec<&Rec> = recs.iter().filter(|r| r.train()).collect();
    let held: Vec<&Rec> = recs.iter().filter(|r| !r.train()).collect();
    let fit_set: Vec<&Rec> = train
        .iter()
        .copied()
        .filter(|r| win_in(r.value).is_none())
        .collect();
    let count = |rs: &[&Rec], k: usize| rs.iter().filter(|r| outcome(r.score) == k).count();
    let proven = held.iter().filter(|r| win_in(r.value).is_some()).count();
    println!(
        "{}: {} positions; train {} (games 0 mod 3; {} fitted), held-out {} ({} wins, {} draws, {} losses for the side to move; {} proven)",
        o.rules,
        recs.len(),
        train.len(),
        fit_set.len(),
        held.len(),
        count(&held, 0),
        count(&held, 1),
        count(&held, 2),
        proven
    );
    let logit = fit(&fit_set, &lib_model);
    let raw = fit(&fit_set, &raw_model);
    let current = wdl::MODELS[o.rules as usize];
    println!(
        "fitted (logit): a = {:.4}, s = {:.4}; fitted (raw value / 1000): a = {:.4}, s = {:.4}; in the library: a = {}, s = {}",
        logit.a, logit.s, raw.a, raw.s, current.a, current.s
    );
    let rows: [Mapping; 4] = [
        ("today: W = e, L = 1 - e", Box::new(baseline)),
        ("fitted: logit", Box::new(move |v| lib_model(logit, v))),
        ("fitted: raw value", Box::new(move |v| raw_model(raw, v))),
        (
            "library constants",
            Box::new(move |v| lib_model(current, v)),
        ),
    ];
    println!("| mapping | logloss3 | brier3 | brier_score | logloss_score |");
    println!("| --- | --- | --- | --- | --- |");
    for (name, f) in &rows {
        let m = metrics(&held, f.as_ref());
        println!(
            "| {name} | {:.4} | {:.4} | {:.4} | {:.4} |",
            m.logloss3, m.brier3, m.brier_score, m.logloss_score
        );
    }
    let today = reliability(&held, &baseline);
    let model = reliability(&held, &|v| lib_model(current, v));
    println!("reliability (bin: today predicted/observed/n | library predicted/observed/n):");
    for b in 0..10 {
        println!(
            "  {:.1}-{:.1}: {:.3} {:.3} {:6} | {:.3} {:.3} {:6}",
            b as f64 / 10.0,
            (b + 1) as f64 / 10.0,
            today[b].0,
            today[b].1,
            today[b].2,
            model[b].0,
            model[b].1,
            model[b].2
        );
    }
    if let Some(path) = &o.svg {
        let text = svg(
            o.rules,
            o.depth,
            held.len(),
            &[
                ("today: expected score as win chance", "#d62728", today),
                ("fitted WDL model (library constants)", "#1f77b4", model),
            ],
        );
        std::fs::write(path, text).expect("svg");
    }
}
