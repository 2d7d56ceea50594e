//! `chesscore dice match`: games between two players, on several threads, and the tally.

use super::DiceArgs;
use crate::Failure;
use chesscore::dice::pgn::termination_text;
use chesscore::dice::search::arena::{run_match, tally, GameResult, MatchGame};
use std::io::Write;

/// `chesscore dice match`.
pub(super) fn match_cmd(a: &DiceArgs, out: &mut impl Write) -> Result<(), Failure> {
    let limits = a.limits(100);
    let seed = a.seed.unwrap_or(1);
    let games = if a.games == 1 { 100 } else { a.games };
    let (pa, pb, hash, threads) = (a.a, a.b, a.hash, a.threads);
    let rules = a.rules;
    let make_a = move |s: u64| pa.player(rules, s, limits, hash, threads);
    let make_b = move |s: u64| pb.player(rules, s, limits, hash, threads);
    let (name_a, name_b) = (a.a.name(), a.b.name());
    writeln!(
        out,
        "match {name_a} (A) vs {name_b} (B), {rules} rules, {games} games, movetime {} ms, depth {}, seed {seed}, {} thread(s)",
        limits.movetime_ms.map_or("-".to_owned(), |m| m.to_string()),
        if a.depth == 0 { "-".to_owned() } else { a.depth.to_string() },
        a.concurrency
    )?;
    out.flush()?;
    let lines = std::sync::Mutex::new(Vec::new());
    let report = |g: &MatchGame| {
        let text = format!(
            "game {} seed {} A {}: {} in {} turns ({})",
            g.index + 1,
            g.seed,
            if g.a_white { "white" } else { "black" },
            match g.result {
                GameResult::Win => "A wins",
                GameResult::Draw => "draw",
                GameResult::Loss => "B wins",
            },
            g.turns,
            termination_text(g.end)
        );
        eprintln!("{text}");
        lines.lock().unwrap_or_else(|e| e.into_inner()).push(text);
    };
    let played = run_match(
        a.rules,
        &make_a,
        &make_b,
        games,
        seed,
        a.concurrency,
        a.max_turns,
        &report,
    );
    for g in &played {
        writeln!(
            out,
            "game {} seed {} A {}: {}",
            g.index + 1,
            g.seed,
            if g.a_white { "white" } else { "black" },
            match g.result {
                GameResult::Win => "1-0 for A",
                GameResult::Draw => "draw",
                GameResult::Loss => "0-1 for A",
            }
        )?;
    }
    let t = tally(&played);
    let (elo, err) = t.elo();
    writeln!(
        out,
        "result {name_a} vs {name_b} ({rules}): W {} D {} L {} of {}, score {:.1}% +- {:.1}%, Elo {:+.0} +- {:.0}",
        t.wins,
        t.draws,
        t.losses,
        t.games(),
        100.0 * t.score(),
        100.0 * t.score_error(),
        elo,
        err
    )?;
    Ok(())
}
