//! The streaming reader: one game's text is gathered line by line into a buffer the reader
//! keeps (so a database is read with allocations per game, not per line or per token), then
//! parsed into a [`Game`].

use super::{is_null_move_text, Game, PgnError, PgnErrorKind};
use crate::moves::Move;
use crate::position::{Position, SanError, SanMode};
use std::io::BufRead;

/// Reads the games of a PGN database one at a time: an iterator of `Result<Game, PgnError>`.
/// A malformed game is an `Err` with its line number and, when it went wrong in its movetext,
/// the game as read up to the error ([`PgnError::partial`]); the next call goes on with the
/// next game. Buffers (the line, the game's text) are kept from game to game.
///
/// ```
/// use chesscore::pgn::{PgnReader, PgnErrorKind};
/// let db = "[Event \"a\"]\n\n1. e4 e5 1-0\n\n[Event \"b\"]\n\n1. e4 e4 0-1\n\n[Event \"c\"]\n\n1. d4 *\n";
/// let games: Vec<_> = PgnReader::new(db.as_bytes()).collect();
/// assert_eq!(games.len(), 3);
/// assert_eq!(games[0].as_ref().unwrap().moves().len(), 2);
/// let err = games[1].as_ref().unwrap_err();
/// assert_eq!(err.line, 7);
/// assert!(matches!(err.kind, PgnErrorKind::Move { ply: 1, .. }));
/// // The partial game: the tags and the move before the bad one, and the result token.
/// let partial = err.partial.as_ref().unwrap();
/// assert_eq!((partial.tag("Event"), partial.moves().len(), partial.result()), (Some("b"), 1, "0-1"));
/// assert_eq!(games[2].as_ref().unwrap().tag("Event"), Some("c"));
/// ```
pub struct PgnReader<R> {
    src: R,
    /// Lines read so far.
    line_no: usize,
    /// The current raw line, and as text.
    raw: Vec<u8>,
    line: String,
    /// A line (or its rest) that belongs to the next game, when `pending_no` is its number.
    pending: String,
    pending_no: Option<usize>,
    /// The current game's text, and where each of its lines starts: (offset, line number).
    text: String,
    lines: Vec<(usize, usize)>,
    /// Whether the game's text ends with its result token (at the top level).
    ends_with_result: bool,
    done: bool,
}

/// The comment and variation state of the line scanner.
#[derive(Default)]
struct Scan {
    in_brace: bool,
    depth: u32,
}

fn is_delimiter(c: u8) -> bool {
    c.is_ascii_whitespace() || matches!(c, b'{' | b'}' | b'(' | b')' | b';' | b'[' | b']')
}

fn is_result(tok: &str) -> bool {
    matches!(tok, "1-0" | "0-1" | "1/2-1/2" | "*")
}

impl Scan {
    /// Scans `line` on from the state so far; returns the end offset of a result token at the
    /// top level, if the line has one.
    fn line(&mut self, line: &str) -> Option<usize> {
        let b = line.as_bytes();
        let mut i = 0;
        while i < b.len() {
            let c = b[i];
            if self.in_brace {
                self.in_brace = c != b'}';
                i += 1;
                continue;
            }
            match c {
                b'{' => self.in_brace = true,
                b';' => return None,
                b'(' => self.depth += 1,
                b')' => self.depth = self.depth.saturating_sub(1),
                b'[' if self.depth == 0 => {
                    // A tag: skip to its end, over the quoted value.
                    let mut quoted = false;
                    i += 1;
                    while i < b.len() && (quoted || b[i] != b']') {
                        if b[i] == b'\\' && quoted {
                            i += 1;
                        } else if b[i] == b'"' {
                            quoted = !quoted;
                        }
                        i += 1;
                    }
                }
                c if c.is_ascii_whitespace() => {}
                _ => {
                    let start = i;
                    while i < b.len() && !is_delimiter(b[i]) {
                        i += 1;
                    }
                    if i == start {
                        // A lone `]` or a `[` inside a variation.
                        i += 1;
                    } else if self.depth == 0 && is_result(&line[start..i]) {
                        return Some(i);
                    }
                    continue;
                }
            }
            i += 1;
        }
        None
    }
}

impl<R: BufRead> PgnReader<R> {
    /// A reader over `src` (a file through `BufReader`, or `&[u8]`).
    pub fn new(src: R) -> PgnReader<R> {
        PgnReader {
            src,
            line_no: 0,
            raw: Vec::new(),
            line: String::new(),
            pending: String::new(),
            pending_no: None,
            text: String::new(),
            lines: Vec::new(),
            ends_with_result: false,
            done: false,
        }
    }

    /// Reads the next line, without its line end, into `self.line`; returns its number, or
    /// `None` at the end of the input.
    fn next_line(&mut self) -> Result<Option<usize>, PgnError> {
        if let Some(no) = self.pending_no.take() {
            core::mem::swap(&mut self.line, &mut self.pending);
            return Ok(Some(no));
        }
        self.raw.clear();
        let n = self
            .src
            .read_until(b'\n', &mut self.raw)
            .map_err(|e| PgnError {
                line: self.line_no + 1,
                kind: PgnErrorKind::Io(e.to_string()),
                partial: None,
            })?;
        if n == 0 {
            return Ok(None);
        }
        self.line_no += 1;
        // A NUL byte reads as a space (written PGN has none, and C strings end at one).
        for c in self.raw.iter_mut().filter(|c| **c == 0) {
            *c = b' ';
        }
        let mut b = &self.raw[..];
        if self.line_no == 1 {
            b = b.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(b);
        }
        while let Some((&last, rest)) = b.split_last() {
            if last == b'\n' || last == b'\r' {
                b = rest;
            } else {
                break;
            }
        }
        self.line.clear();
        match core::str::from_utf8(b) {
            Ok(text) => self.line.push_str(text),
            // Not UTF-8: the bad bytes become U+FFFD (in a comment or tag value they stay
            // visible; in a move they make it unreadable).
            Err(_) => self.line.push_str(&String::from_utf8_lossy(b)),
        }
        Ok(Some(self.line_no))
    }

    /// Keeps `self.line[from..]` (line `no`) for the next game.
    fn keep_for_next_game(&mut self, from: usize, no: usize) {
        self.pending.clear();
        self.pending.push_str(&self.line[from..]);
        self.pending_no = Some(no);
    }

    fn append(&mut self, line: &str, no: usize) {
        self.lines.push((self.text.len(), no));
        self.text.push_str(line);
        self.text.push('\n');
    }

    /// Gathers the next game's text into `self.text`; false at the end of the input.
    fn gather(&mut self) -> Result<bool, PgnError> {
        self.text.clear();
        self.lines.clear();
        self.ends_with_result = false;
        let mut scan = Scan::default();
        let mut movetext = false;
        while let Some(no) = self.next_line()? {
            let line = core::mem::take(&mut self.line);
            let done = self.gather_line(&line, no, &mut scan, &mut movetext);
            self.line = line;
            if let Some(from) = done {
                if from < self.line.len() {
                    self.keep_for_next_game(from, no);
                }
                return Ok(true);
            }
        }
        Ok(!self.text.trim().is_empty())
    }

    /// Adds one line to the game's text; `Some(offset)` when the game ends in it (the line
    /// from `offset` on, if not blank, belongs to the next game).
    fn gather_line(
        &mut self,
        line: &str,
        no: usize,
        scan: &mut Scan,
        movetext: &mut bool,
    ) -> Option<usize> {
        let trimmed = line.trim_start();
        if !scan.in_brace && line.starts_with('%') {
            return None;
        }
        // A tag at the start of a line after movetext starts the next game, even inside an
        // unclosed comment or variation (so that one such game costs only itself).
        if *movetext && line.starts_with('[') {
            return Some(0);
        }
        if !scan.in_brace && scan.depth == 0 && trimmed.starts_with('[') {
            self.append(line, no);
            scan.line(line);
            return None;
        }
        if trimmed.is_empty() && !scan.in_brace {
            if !self.text.is_empty() {
                self.append("", no);
            }
            return None;
        }
        *movetext = true;
        match scan.line(line) {
            Some(end) => {
                self.append(&line[..end], no);
                self.ends_with_result = true;
                let rest = line[end..].trim_start();
                Some(if rest.is_empty() {
                    line.len()
                } else {
                    line.len() - rest.len()
                })
            }
            None => {
                self.append(line, no);
                None
            }
        }
    }

    /// The line (1-based) where the text of the game last read starts (0 before any).
    pub fn last_game_line(&self) -> usize {
        self.lines.first().map_or(0, |&(_, no)| no)
    }

    /// The input line of byte `offset` of the game's text.
    fn line_of(&self, offset: usize) -> usize {
        let i = self.lines.partition_point(|&(start, _)| start <= offset);
        self.lines
            .get(i.saturating_sub(1))
            .map_or(self.line_no, |&(_, no)| no)
    }
}

impl<R: BufRead> Iterator for PgnReader<R> {
    type Item = Result<Game, PgnError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        match self.gather() {
            Ok(true) => Some(parse_game(self)),
            Ok(false) => {
                self.done = true;
                None
            }
            Err(e) => {
                self.done = true;
                Some(Err(e))
            }
        }
    }
}

/// The numeric annotation glyph of a move suffix (`!` = 1 ... `?!` = 6).
fn suffix_nag(s: &str) -> Option<u8> {
    Some(match s {
        "!" => 1,
        "?" => 2,
        "!!" => 3,
        "??" => 4,
        "!?" => 5,
        "?!" => 6,
        _ => return None,
    })
}

/// Appends a comment's text, white space collapsed and any `}` (possible in a `;` comment)
/// dropped, to `to` (space-separated).
fn add_comment(to: &mut String, text: &str) {
    for word in text.split_whitespace() {
        if word.bytes().all(|c| c == b'}') {
            continue;
        }
        if !to.is_empty() {
            to.push(' ');
        }
        to.extend(word.chars().filter(|&c| c != '}'));
    }
}

/// The game in `r.text`; for an error in the movetext, the error carries the game read up to
/// it.
fn parse_game<R: BufRead>(r: &PgnReader<R>) -> Result<Game, PgnError> {
    let mut game = Game::default();
    let mut setup_done = false;
    let mut result = None;
    match parse_into(r, &mut game, &mut setup_done, &mut result) {
        Ok(()) => {
            finish_result(&mut game, result);
            Ok(game)
        }
        Err(mut e) => {
            if setup_done {
                // The result token ends the game's text (the reader found it there).
                let token = r
                    .ends_with_result
                    .then(|| r.text.trim_end().rsplit(is_delimiter_char).next())
                    .flatten()
                    .filter(|t| is_result(t));
                finish_result(&mut game, token);
                e.partial = Some(Box::new(game));
            }
            Err(e)
        }
    }
}

fn is_delimiter_char(c: char) -> bool {
    c.is_ascii() && is_delimiter(c as u8)
}

/// Sets the game's result from its token, else its `[Result]` tag, else `*`; the `[Result]`
/// tag follows a token that contradicts it.
fn finish_result(game: &mut Game, token: Option<&str>) {
    game.result = match token {
        Some(r) => r.to_string(),
        None => game
            .raw_tag("Result")
            .filter(|r| is_result(r))
            .unwrap_or("*")
            .to_string(),
    };
    // The token wins over a contradicting tag: the tag follows it (never two results).
    if game.raw_tag("Result").is_some_and(|t| t != game.result) {
        let r = game.result.clone();
        game.put_tag("Result", &r);
    }
}

/// Reads `r.text` into `game` (tags, then once `setup_done` the moves); `result` is the result
/// token found. On an error, `game` holds what was read before it.
fn parse_into<'t, R: BufRead>(
    r: &'t PgnReader<R>,
    game: &mut Game,
    setup_done: &mut bool,
    result: &mut Option<&'t str>,
) -> Result<(), PgnError> {
    let text = r.text.as_str();
    let b = text.as_bytes();
    let err = |offset: usize, kind: PgnErrorKind| PgnError {
        line: r.line_of(offset),
        kind,
        partial: None,
    };
    // (offset of the FEN tag, ...) for the error's line.
    let mut fen_at = 0;
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        match c {
            b'[' if *setup_done => {
                // A tag inside the movetext (one at the start of a line begins the next game).
                return Err(err(i, PgnErrorKind::Tag));
            }
            b'[' => {
                let start = i;
                let (name, value, end) = parse_tag(text, i).ok_or(err(start, PgnErrorKind::Tag))?;
                if name == "FEN" {
                    fen_at = start;
                }
                if game.raw_tag(&name).is_none() {
                    game.tags.push((name, value));
                }
                i = end;
                continue;
            }
            _ if !*setup_done => {
                setup(game, fen_at, &err)?;
                *setup_done = true;
                continue;
            }
            b'{' => {
                let close = text[i + 1..]
                    .find('}')
                    .ok_or(err(i, PgnErrorKind::Unterminated))?;
                let comment = &text[i + 1..i + 1 + close];
                match game.moves.last_mut() {
                    Some(m) => add_comment(&mut m.comment, comment),
                    None => add_comment(&mut game.comment, comment),
                }
                i += close + 2;
            }
            b';' => {
                let end = text[i..].find('\n').map_or(b.len(), |n| i + n);
                let comment = &text[i + 1..end];
                match game.moves.last_mut() {
                    Some(m) => add_comment(&mut m.comment, comment),
                    None => add_comment(&mut game.comment, comment),
                }
                i = end;
            }
            b'(' => i = skip_variation(text, i).ok_or(err(i, PgnErrorKind::Unterminated))?,
            b')' => return Err(err(i, PgnErrorKind::UnbalancedParenthesis)),
            _ => {
                let start = i;
                while i < b.len() && !is_delimiter(b[i]) {
                    i += 1;
                }
                if i == start {
                    // A stray `}` or `]`.
                    return Err(err(
                        start,
                        PgnErrorKind::Token(text[start..=start].to_string()),
                    ));
                }
                let tok = &text[start..i];
                if is_result(tok) {
                    *result = Some(tok);
                    continue;
                }
                if let Some(n) = tok.strip_prefix('$') {
                    let nag = n
                        .parse::<u8>()
                        .map_err(|_| err(start, PgnErrorKind::Token(tok.to_string())))?;
                    if let Some(m) = game.moves.last_mut() {
                        m.nags.push(nag);
                    }
                    continue;
                }
                // A move number (`12`, `12.`, `12...`), maybe glued to the move (`12.e4`); `0000`
                // is a null move, not a number.
                let digits = tok.bytes().take_while(u8::is_ascii_digit).count();
                let dots = tok[digits..].bytes().take_while(|&c| c == b'.').count();
                let mv = if digits > 0 && (dots > 0 || digits == tok.len()) && tok != "0000" {
                    &tok[digits + dots..]
                } else {
                    tok
                };
                if mv.is_empty() {
                    continue;
                }
                if let Some(nag) = suffix_nag(mv) {
                    if let Some(m) = game.moves.last_mut() {
                        m.nags.push(nag);
                    }
                    continue;
                }
                let body = mv.trim_end_matches(['!', '?']);
                let nag = suffix_nag(&mv[body.len()..]);
                let ply = game.moves.len();
                let move_error = |error| {
                    err(
                        start,
                        PgnErrorKind::Move {
                            text: mv.to_string(),
                            ply,
                            error,
                        },
                    )
                };
                let m = if is_null_move_text(body) {
                    Move::NONE
                } else {
                    game.end
                        .parse_san_with(body, SanMode::Tolerant)
                        .map_err(move_error)?
                };
                // A null move in check is refused here (see the module docs).
                game.push(m).map_err(|_| move_error(SanError::Illegal))?;
                if let (Some(nag), Some(m)) = (nag, game.moves.last_mut()) {
                    m.nags.push(nag);
                }
            }
        }
    }
    if !*setup_done {
        setup(game, fen_at, &err)?;
    }
    Ok(())
}

/// Sets the game's starting position from its `[Variant]` and `[FEN]` tags.
fn setup(
    game: &mut Game,
    fen_at: usize,
    err: &impl Fn(usize, PgnErrorKind) -> PgnError,
) -> Result<(), PgnError> {
    let variant = game.tag("Variant").unwrap_or("").to_ascii_lowercase();
    let chess960 = match variant.as_str() {
        "" | "standard" | "chess" | "normal" | "classical" | "from position" => false,
        "chess960"
        | "chess 960"
        | "960"
        | "fischerandom"
        | "fischer random"
        | "fischer random chess" => true,
        _ => return Err(err(fen_at, PgnErrorKind::UnsupportedVariant)),
    };
    // A Chess960 game reads X-FEN / Shredder-FEN castling and is in Chess960 mode (castles
    // as king-takes-rook in UCI, rooks on their own squares); without a FEN tag it starts
    // from the standard array in that mode.
    let start = match (game.tag("FEN"), chess960) {
        (Some(fen), false) => {
            Position::from_fen(fen.trim()).map_err(|e| err(fen_at, PgnErrorKind::Fen(e)))?
        }
        (Some(fen), true) => {
            Position::from_fen_960(fen.trim()).map_err(|e| err(fen_at, PgnErrorKind::Fen(e)))?
        }
        (None, false) => Position::startpos(),
        (None, true) => Position::chess960_start(518).unwrap_or_else(Position::startpos),
    };
    *game = Game {
        tags: core::mem::take(&mut game.tags),
        ..Game::new(start)
    };
    Ok(())
}

/// Reads `[Name "value"]` at `i`: the name, the unescaped value, and the offset after `]`.
fn parse_tag(text: &str, i: usize) -> Option<(String, String, usize)> {
    let b = text.as_bytes();
    let mut j = i + 1;
    while j < b.len() && b[j].is_ascii_whitespace() {
        j += 1;
    }
    let name_start = j;
    while j < b.len() && (b[j].is_ascii_alphanumeric() || b[j] == b'_') {
        j += 1;
    }
    let name = &text[name_start..j];
    if name.is_empty() {
        return None;
    }
    while j < b.len() && b[j].is_ascii_whitespace() {
        j += 1;
    }
    if b.get(j) != Some(&b'"') {
        return None;
    }
    j += 1;
    let mut value = String::new();
    loop {
        let c = *b.get(j)?;
        match c {
            b'"' => break,
            b'\n' => return None,
            b'\\' if matches!(b.get(j + 1), Some(b'"' | b'\\')) => {
                value.push(b[j + 1] as char);
                j += 2;
                continue;
            }
            _ => {}
        }
        // Copy one character (values may hold any UTF-8).
        let ch = text[j..].chars().next()?;
        value.push(ch);
        j += ch.len_utf8();
    }
    j += 1;
    while j < b.len() && b[j].is_ascii_whitespace() && b[j] != b'\n' {
        j += 1;
    }
    if b.get(j) != Some(&b']') {
        return None;
    }
    Some((name.to_string(), value, j + 1))
}

/// The offset after the variation opening at `i` (nested ones and comments skipped).
fn skip_variation(text: &str, i: usize) -> Option<usize> {
    let b = text.as_bytes();
    let mut depth = 0u32;
    let mut j = i;
    while j < b.len() {
        match b[j] {
            b'(' => depth += 1,
            b')' => {
                depth -= 1;
                if depth == 0 {
                    return Some(j + 1);
                }
            }
            b'{' => j += text[j..].find('}')?,
            b';' => j += text[j..].find('\n')?,
            _ => {}
        }
        j += 1;
    }
    None
}
