//! The mate suite (testdata/mates.epd): forced mates in 2 to 4 from several sources of
//! positions (issue 29's two, real games, Stockfish self-play at low skill, games with random
//! moves mixed in), made by tools/mates/make_suite.py with Stockfish 15.1. Each position is
//! searched at the depth at which Stockfish (one thread, fresh hash) first reports the mate,
//! plus two (at least 2N + 1 plies), capped at [`MAX_DEPTH`], except the [`KNOWN_DEEPER`] ones; chesscore must report that mate (mate in N for the side
//! to move: not shorter, which would be a wrong score, nor longer) with a first move that
//! Stockfish confirms as mating in N, and a principal variation that plays legally (and ends
//! in mate when it is complete). The expected values come from Stockfish, not from chesscore.

use chesscore::search::{Engine, Limits, Score};
use chesscore::Position;

/// The deepest search the test makes (the suite keeps positions that Stockfish solves by
/// depth 14; issue 29's second position needs 17).
const MAX_DEPTH: u32 = 19;

/// Positions chesscore does not yet solve at Stockfish's depth + 2 (the rest of issue 29's
/// tactical hole, left open), with the depth at which it reports the right mate with a
/// confirmed move, for the hand-written evaluation and for the embedded net (measured when
/// the suite was last rechecked, searched here instead; 0: solved at the suite's depth). The
/// list may only shrink: a position that comes to be solved at Stockfish's depth + 2 loses its
/// entry. (Ten more left it when static pruning stopped in decisive windows:
/// `search::params::DECISIVE_SCORE`.) A new embedded net changes the net column: round 8's
/// needed depth 9 and 13 for two positions that round 7's solved at the suite's depth, and
/// round 9's solves both there again (the second entry left the list). Round 10's needs depth
/// 10 for the first (test depth 8; at depth 9 it reports mate in 6 by f4f3, a longer mate).
const KNOWN_DEEPER: [(&str, u32, u32); 1] = [
    // (FEN prefix, hand-written, net)
    ("8/8/5k2/P3p3/3bPpn1/8/3K4/5r2 b", 14, 10),
];

struct Case {
    fen: String,
    mate: i32,
    sf_depth: u32,
    moves: Vec<String>,
    source: String,
}

fn suite() -> Vec<Case> {
    let text = include_str!("../testdata/mates.epd");
    let mut out = Vec::new();
    for line in text.lines() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut fields = line.split(';').map(str::trim);
        let fen = fields.next().unwrap().to_string();
        let (mut mate, mut sf_depth, mut moves, mut source) = (0, 0, Vec::new(), String::new());
        for f in fields {
            let (key, value) = f.split_once(' ').unwrap_or((f, ""));
            match key {
                "mate" => mate = value.parse().unwrap(),
                "sfdepth" => sf_depth = value.parse().unwrap(),
                "moves" => moves = value.split_whitespace().map(String::from).collect(),
                "source" => source = value.to_string(),
                _ => {}
            }
        }
        assert!(
            (2..=4).contains(&mate) && sf_depth > 0 && !moves.is_empty(),
            "{line}"
        );
        out.push(Case {
            fen,
            mate,
            sf_depth,
            moves,
            source,
        });
    }
    out
}

#[test]
fn the_suite_is_large_and_varied() {
    let cases = suite();
    assert!(cases.len() >= 60, "{} positions", cases.len());
    for n in 2..=4 {
        assert!(
            cases.iter().filter(|c| c.mate == n).count() >= 10,
            "mates in {n}"
        );
    }
    for side in [" w ", " b "] {
        assert!(cases.iter().filter(|c| c.fen.contains(side)).count() >= 10);
    }
    for source in ["issue29", "sf-skill", "random-mix"] {
        assert!(cases.iter().any(|c| c.source == source), "{source}");
    }
}

/// The default engine (the embedded net, when the build has one).
#[test]
fn every_mate_is_found_at_stockfish_depth_plus_two() {
    let engine = Engine::new();
    let net = engine.network().is_some();
    check_suite(engine, if net { Eval::Net } else { Eval::Hand });
}

/// The hand-written evaluation (`EvalFile <hand>`, and the one `UCI_LimitStrength` plays).
#[test]
fn every_mate_is_found_at_stockfish_depth_plus_two_by_hand() {
    let mut engine = Engine::new();
    engine.set_eval_file("<hand>").unwrap();
    check_suite(engine, Eval::Hand);
}

/// Which column of [`KNOWN_DEEPER`] applies.
#[derive(Clone, Copy)]
enum Eval {
    Hand,
    Net,
}

fn check_suite(mut engine: Engine, eval: Eval) {
    let mut failures = Vec::new();
    for c in suite() {
        let pos = Position::from_fen(&c.fen).unwrap();
        engine.new_game();
        // A mate in N needs 2N - 1 plies: Stockfish, whose quiescence searches checks, may
        // report a mate in two at depth 1, so the depth is at least 2N + 1.
        let mut depth = (c.sf_depth + 2).max(2 * c.mate as u32 + 1).min(MAX_DEPTH);
        if let Some(&(_, hand, net)) = KNOWN_DEEPER.iter().find(|k| c.fen.starts_with(k.0)) {
            match if matches!(eval, Eval::Hand) {
                hand
            } else {
                net
            } {
                0 => {}
                d => depth = d,
            }
        }
        let limits = Limits {
            depth,
            ..Limits::default()
        };
        let r = engine.search(&pos, &limits, &mut |_| {});
        let best = r
            .best_move
            .map(|m| pos.uci_move_text(m))
            .unwrap_or_default();
        if r.score != Score::Mate(c.mate) || !c.moves.contains(&best) {
            failures.push(format!(
                "{} (mate {}, depth {depth}): got {:?} {best}, want one of {:?}",
                c.fen, c.mate, r.score, c.moves
            ));
            continue;
        }
        let mut p = pos.clone();
        for &m in r.pv() {
            assert!(p.is_legal(m), "{}: illegal pv move {m}", c.fen);
            p.make_move_unchecked(m);
        }
        if r.pv().len() as i32 == 2 * c.mate - 1 {
            assert!(
                p.legal_moves().is_empty() && p.in_check(),
                "{}: the pv does not end in mate",
                c.fen
            );
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
