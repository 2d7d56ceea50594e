//! `chesscore dice selfplay`: seeded games between built-in players as PGN, and
//! `--verify`, which replays such PGN under the rules.

use super::{DiceArgs, DICE};
use crate::{usage_error, Failure};
use chesscore::dice::pgn::{selfplay, verify_pgn};
use std::io::{self, Write};

pub(super) fn selfplay_cmd(a: &DiceArgs, out: &mut impl Write) -> Result<(), Failure> {
    let seed = a.seed.unwrap_or(1);
    for i in 0..a.games {
        let game = selfplay(
            a.rules,
            seed.wrapping_add(i as u64),
            a.white,
            a.black,
            a.max_turns,
        );
        out.write_all(game.to_pgn(i + 1).as_bytes())?;
    }
    Ok(())
}

pub(super) fn verify_cmd(file: &str, out: &mut impl Write) -> Result<(), Failure> {
    let text = if file == "-" {
        let mut s = String::new();
        io::Read::read_to_string(&mut io::stdin().lock(), &mut s).map_err(Failure::Input)?;
        s
    } else {
        std::fs::read_to_string(file)
            .map_err(|e| usage_error(DICE, format!("cannot read '{file}': {e}")))?
    };
    let games = verify_pgn(&text).map_err(|e| usage_error(DICE, format!("{file}: {e}")))?;
    for (i, g) in games.iter().enumerate() {
        writeln!(
            out,
            "game {}: {} {} turns {} moves {}: verified",
            i + 1,
            g.rules,
            g.turns,
            g.moves,
            g.result
        )?;
    }
    writeln!(out, "{} game(s) verified", games.len())?;
    Ok(())
}
