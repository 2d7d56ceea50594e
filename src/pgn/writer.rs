//! The writer: a game in the PGN export format (see the [module docs](super)).

use super::Game;
use crate::position::START_FEN;
use core::fmt::{self, Write};

/// The longest movetext line written.
pub const LINE_MAX: usize = 79;

/// The seven tag roster, in its order, with the value written when a tag is missing.
const ROSTER: [(&str, &str); 7] = [
    ("Event", "?"),
    ("Site", "?"),
    ("Date", "????.??.??"),
    ("Round", "?"),
    ("White", "?"),
    ("Black", "?"),
    ("Result", "*"),
];

/// Writes tokens separated by spaces, breaking lines before [`LINE_MAX`] characters.
struct Wrap<'a, W: Write> {
    out: &'a mut W,
    col: usize,
}

impl<W: Write> Wrap<'_, W> {
    fn token(&mut self, t: &str) -> fmt::Result {
        if self.col > 0 {
            if self.col + 1 + t.len() > LINE_MAX {
                self.out.write_char('\n')?;
                self.col = 0;
                // A line that starts with `[` after movetext starts the next game for the
                // reader (its recovery rule, even inside an unclosed comment): a comment word
                // that starts with `[` goes after one space (white space in a comment is
                // collapsed on reading, so the comment reads back the same).
                if t.starts_with('[') {
                    self.out.write_char(' ')?;
                    self.col = 1;
                }
            } else {
                self.out.write_char(' ')?;
                self.col += 1;
            }
        }
        self.out.write_str(t)?;
        self.col += t.len();
        Ok(())
    }

    /// A `{comment}`, word by word (a `}` inside is dropped).
    fn comment(&mut self, text: &str) -> fmt::Result {
        let mut word = String::new();
        let words: Vec<&str> = text.split_whitespace().collect();
        for (k, w) in words.iter().enumerate() {
            word.clear();
            if k == 0 {
                word.push('{');
            }
            word.extend(w.chars().filter(|&c| c != '}' && c != '\0'));
            if k + 1 == words.len() {
                word.push('}');
            }
            self.token(&word)?;
        }
        Ok(())
    }
}

fn write_tag(out: &mut impl Write, name: &str, value: &str) -> fmt::Result {
    write!(out, "[{name} \"")?;
    for c in value.chars() {
        match c {
            '"' | '\\' => write!(out, "\\{c}")?,
            '\n' | '\r' | '\0' => out.write_char(' ')?,
            c => out.write_char(c)?,
        }
    }
    out.write_str("\"]\n")
}

impl Game {
    /// Writes the game in the PGN export format (see the [module docs](super)): tags, a blank
    /// line, the movetext in lines of at most 79 characters, and a blank line.
    ///
    /// # Errors
    /// Only those of `out`.
    pub fn write_pgn(&self, out: &mut impl Write) -> fmt::Result {
        for (name, default) in ROSTER {
            let value = if name == "Result" {
                self.result.as_str()
            } else {
                self.tag(name).unwrap_or(default)
            };
            write_tag(out, name, value)?;
        }
        if self.start.is_chess960() && self.tag("Variant").is_none() {
            write_tag(out, "Variant", "Chess960")?;
        }
        let fen = self.start.to_fen();
        if (fen != START_FEN || self.start.is_chess960()) && self.tag("FEN").is_none() {
            write_tag(out, "SetUp", "1")?;
            write_tag(out, "FEN", &fen)?;
        }
        for (name, value) in &self.tags {
            if !ROSTER.iter().any(|(n, _)| n == name) {
                write_tag(out, name, value)?;
            }
        }
        out.write_char('\n')?;
        let mut w = Wrap { out, col: 0 };
        if !self.comment.is_empty() {
            w.comment(&self.comment)?;
        }
        let mut pos = self.start.clone();
        let mut number = String::new();
        let mut after_comment = true;
        for gm in &self.moves {
            let white = pos.side_to_move() == crate::types::Color::WHITE;
            if white || after_comment {
                number.clear();
                let dots = if white { "." } else { "..." };
                write!(number, "{}{dots}", pos.fullmove_number())?;
                w.token(&number)?;
            }
            if gm.is_null() {
                w.token("--")?;
            } else {
                let san = pos.to_san(gm.mv).map_err(|_| fmt::Error)?;
                w.token(san.as_str())?;
            }
            for nag in &gm.nags {
                number.clear();
                write!(number, "${nag}")?;
                w.token(&number)?;
            }
            after_comment = !gm.comment.is_empty();
            if after_comment {
                w.comment(&gm.comment)?;
            }
            // A game is a list of legal moves and null moves (see `Game::push`); a long one
            // compacts.
            Game::retry_compacted(&mut pos, |p| {
                if gm.is_null() {
                    p.try_make_null_move()
                } else {
                    p.try_make_move(gm.mv)
                }
            })
            .map_err(|_| fmt::Error)?;
        }
        w.token(&self.result)?;
        w.out.write_str("\n\n")
    }

    /// The game as PGN text ([`Game::write_pgn`]).
    pub fn to_pgn(&self) -> String {
        let mut s = String::new();
        // Writing into a String cannot fail, and a game's moves are legal.
        let _ = self.write_pgn(&mut s);
        s
    }
}
