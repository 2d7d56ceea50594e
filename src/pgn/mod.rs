//! PGN (Portable Game Notation): games read from and written as PGN text.
//!
//! A [`Game`] is its tags (in order), its starting position (the `[FEN]` tag's, or the
//! standard one), the moves of its main line, each with its NAGs and comment, a comment before
//! the first move, and its result. [`PgnReader`] reads a whole database one game at a time
//! from any `BufRead`; [`Game::from_pgn`] reads one game from text; [`Game::write_pgn`] writes
//! one in the PGN export format.
//!
//! Decisions the PGN standard leaves to a program (or that this reader takes):
//! * **Variations are skipped**: `( ... )`, nested ones and the comments inside them, are
//!   read and dropped; a written game has its main line only.
//! * **Comments**: `{...}` and `; ...` to the end of the line. A comment after a move belongs
//!   to that move; comments before the first move form the game's comment; several comments
//!   in one place are joined with a space. Runs of white space inside a comment become one
//!   space and the ends are trimmed, and a `}` (which a `;` comment may hold) is dropped, so
//!   that reading what was written gives the same text.
//! * **NAGs**: `$n` (0..=255), and the move suffixes `!` `?` `!!` `??` `!?` `?!` as NAGs 1 to 6,
//!   kept per move in order; a NAG before the first move is dropped.
//! * **Moves** are read as tolerant SAN ([`crate::position::san`]: missing or extra check
//!   marks, `0-0`, long algebraic, ...); move numbers, with or without dots, are skipped and
//!   not checked.
//! * **Null moves**: `--`, `Z0` (ChessBase), `0000` (UCI) and `@@@@` are read as a null move
//!   (the turn passes: [`Position::try_make_null_move`]), kept in the main line as
//!   [`Move::NONE`] (the 16-bit value 0, which is never a move: [`GameMove::is_null`]), and
//!   written as `--`. Through C a null move is the `ChessMove` 0 (`CHESS_PGN_NULL_MOVE`), which
//!   `chess_pgnGameMoves` gives and `chess_pgnGamePushMove` takes; in Python it is `Move(0)`,
//!   as `Board.push_null` keeps it. `0000` is a null move, never a move number. A null move
//!   while the side to move is in check is not played (it would leave a king in check with
//!   the other side to move, a position no game reaches and [`Position`] refuses): it is an
//!   error at that token ([`PgnErrorKind::Move`] with [`SanError::Illegal`]), where
//!   python-chess plays it. Null moves inside variations are skipped with them.
//! * **Errors and partial games**: a game that goes wrong in its movetext (an illegal,
//!   ambiguous or unreadable move, an unexpected token, a tag inside the movetext, a comment
//!   or variation not closed, a `)` without `(`) is an `Err` whose [`PgnError::partial`] holds
//!   what was read before the error: the tags, the starting position and the moves before the
//!   bad token with their comments and NAGs, and as result the game's result token (if its
//!   text has one), else its `[Result]` tag, else `*`. The rest of that game is skipped. A game
//!   whose tags are wrong (a malformed tag line, a bad `[FEN]`, an unsupported `[Variant]`)
//!   has no partial game.
//! * **Tags**: `[Name "value"]`, several on a line allowed, `\"` and `\\` escapes; a tag
//!   after the first movetext token of a game (not at the start of a line) is an error. `[FEN]`
//!   sets the starting position (whether or not `[SetUp "1"]` is present); `[Variant]` must be
//!   absent or name standard chess (`Standard`, `chess`, ...) or Chess960 (`Chess960`,
//!   `Fischerandom`, `chess 960`, ...), anything else is refused. A Chess960 game's `[FEN]`
//!   is read as X-FEN or Shredder-FEN and its positions are in Chess960 mode (no `[FEN]`: the
//!   standard array in that mode); a game whose start is in Chess960 mode is written with
//!   `[Variant "Chess960"]` and its `[FEN]`.
//! * **Game boundaries**: a game ends with its result token (`1-0`, `0-1`, `1/2-1/2`, `*`) at
//!   the top level, or where a line starting with `[` follows movetext (even inside an
//!   unclosed comment or variation, so that such a game costs only itself), or at the end of
//!   the input. A
//!   game without a result token takes its `[Result]` tag's value, or `*`. A result token
//!   that contradicts the `[Result]` tag is not an error; the token wins.
//! * **Escapes and line ends**: lines starting with `%` are ignored, as the standard says;
//!   `\r\n` and a UTF-8 byte-order mark are accepted; a NUL byte reads as a space and bytes
//!   that are not UTF-8 as U+FFFD.
//! * **Errors**: a malformed game is a [`PgnError`] with the line number (1-based, in the whole
//!   input) where it went wrong (and its partial game, see above); [`PgnReader`] then goes on
//!   with the next game.
//! * **Writing** (export format): the seven tag roster first (`Event`, `Site`, `Date`,
//!   `Round`, `White`, `Black`, `Result`; `?` or `????.??.??` where missing, and `Result`
//!   always the game's result), then the other tags in their order; a blank line; the
//!   movetext with move numbers (`12...` for a Black move after a comment or at the start),
//!   comments and NAGs, the result last, in lines of at most 79 characters; a blank line.
//!
//! ```
//! use chesscore::pgn::Game;
//! let game = Game::from_pgn("[White \"Anderssen\"]\n\n1. e4 e5 2. Nf3 {develops} Nc6 $1 1-0\n").unwrap();
//! assert_eq!(game.tag("White"), Some("Anderssen"));
//! assert_eq!(game.moves().len(), 4);
//! assert_eq!(game.moves()[2].comment, "develops");
//! assert_eq!(game.moves()[3].nags, vec![1]);
//! assert_eq!(game.result(), "1-0");
//! assert!(game.to_pgn().ends_with("1. e4 e5 2. Nf3 {develops} 2... Nc6 $1 1-0\n\n"));
//!
//! // A null move (ChessBase's `Z0`) is kept and written as `--`; a bad move ends the game's
//! // reading, and the error keeps what came before it.
//! let game = Game::from_pgn("1. e4 Z0 2. d4 *").unwrap();
//! assert!(game.moves()[1].is_null());
//! assert!(game.to_pgn().ends_with("1. e4 -- 2. d4 *\n\n"));
//! let err = Game::from_pgn("[White \"Anderssen\"]\n\n1. e4 e5 2. Ke3 Nc6 1-0\n").unwrap_err();
//! assert_eq!(err.line, 3);
//! let partial = err.partial.unwrap();
//! assert_eq!((partial.tag("White"), partial.moves().len(), partial.result()), (Some("Anderssen"), 2, "1-0"));
//! ```

mod reader;
mod writer;

pub use reader::PgnReader;

use crate::moves::Move;
use crate::position::{MoveError, Position, SanError};
use core::fmt;

/// Why [`Game::set_tag`] or [`Game::set_result`] refused a tag.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum TagError {
    /// The name is not letters, digits and `_`.
    Name,
    /// `FEN`, `SetUp` or `Variant`: the starting position decides them.
    Derived,
    /// Not a result token (`1-0`, `0-1`, `1/2-1/2`, `*`).
    Result,
}

/// One move of a game's main line, with what the PGN said about it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameMove {
    mv: Move,
    /// Numeric annotation glyphs, in order (`$1` = good move, ...).
    pub nags: Vec<u8>,
    /// The comment after the move (empty: none).
    pub comment: String,
}

impl GameMove {
    /// The move ([`Move::NONE`] for a null move).
    pub fn mv(&self) -> Move {
        self.mv
    }

    /// Whether this is a null move (the turn passed: `--`, `Z0`, `0000` or `@@@@` in PGN).
    pub fn is_null(&self) -> bool {
        self.mv == Move::NONE
    }
}

/// Whether `text` is a null move as PGN writers spell it: `--`, `Z0` (ChessBase), `0000`
/// (UCI) or `@@@@` (the spellings python-chess reads).
pub(crate) fn is_null_move_text(text: &str) -> bool {
    matches!(text, "--" | "Z0" | "0000" | "@@@@")
}

/// A game: tags, starting position, main line with comments and NAGs, result.
#[derive(Clone, Debug)]
pub struct Game {
    /// The tags in the order read or set (names unique).
    pub tags: Vec<(String, String)>,
    /// The comment before the first move (empty: none).
    pub comment: String,
    /// The result: `1-0`, `0-1`, `1/2-1/2` or `*` ([`Game::set_result`] keeps the `Result`
    /// tag in step).
    result: String,
    start: Position,
    end: Position,
    moves: Vec<GameMove>,
}

impl Default for Game {
    fn default() -> Self {
        Game::new(Position::startpos())
    }
}

impl PartialEq for Game {
    /// Same tags, comments, result, starting position (as FEN) and moves.
    fn eq(&self, other: &Game) -> bool {
        self.tags == other.tags
            && self.comment == other.comment
            && self.result == other.result
            && self.start.to_fen() == other.start.to_fen()
            && self.moves == other.moves
    }
}

impl Eq for Game {}

impl Game {
    /// A game without tags or moves from `start`, result `*`.
    pub fn new(start: Position) -> Game {
        Game {
            tags: Vec::new(),
            comment: String::new(),
            result: "*".to_string(),
            end: start.clone(),
            start,
            moves: Vec::new(),
        }
    }

    /// The value of tag `name` (`Result`: always the result, which the writer writes).
    pub fn tag(&self, name: &str) -> Option<&str> {
        if name == "Result" {
            return Some(&self.result);
        }
        self.raw_tag(name)
    }

    /// The value of tag `name` as read or set, `Result` included.
    fn raw_tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// Sets tag `name` (replacing its value, or appended). `Result` sets the result too
    /// (see [`Game::set_result`]).
    ///
    /// # Errors
    /// [`TagError::Name`] for a name that is not letters, digits and `_`;
    /// [`TagError::Derived`] for `FEN`, `SetUp` and `Variant`, which the starting position
    /// decides (make the game with [`Game::new`] from the position instead);
    /// [`TagError::Result`] for a `Result` that is not a result token. The game is then
    /// unchanged.
    pub fn set_tag(&mut self, name: &str, value: &str) -> Result<(), TagError> {
        if name.is_empty() || !name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
            return Err(TagError::Name);
        }
        if matches!(name, "FEN" | "SetUp" | "Variant") {
            return Err(TagError::Derived);
        }
        if name == "Result" {
            return self.set_result(value);
        }
        self.put_tag(name, value);
        Ok(())
    }

    /// The result: `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub fn result(&self) -> &str {
        &self.result
    }

    /// Sets the result (`1-0`, `0-1`, `1/2-1/2` or `*`), and the `Result` tag when the game
    /// has one, so that the two never disagree.
    ///
    /// # Errors
    /// [`TagError::Result`] for any other text; the game is then unchanged.
    pub fn set_result(&mut self, result: &str) -> Result<(), TagError> {
        if !matches!(result, "1-0" | "0-1" | "1/2-1/2" | "*") {
            return Err(TagError::Result);
        }
        self.result = result.to_string();
        if self.raw_tag("Result").is_some() {
            self.put_tag("Result", result);
        }
        Ok(())
    }

    fn put_tag(&mut self, name: &str, value: &str) {
        match self.tags.iter_mut().find(|(n, _)| n == name) {
            Some((_, v)) => *v = value.to_string(),
            None => self.tags.push((name.to_string(), value.to_string())),
        }
    }

    /// The starting position.
    pub fn start_position(&self) -> &Position {
        &self.start
    }

    /// The position after the last move.
    pub fn end_position(&self) -> &Position {
        &self.end
    }

    /// The main line.
    pub fn moves(&self) -> &[GameMove] {
        &self.moves
    }

    /// The main line, for changing comments and NAGs (the moves themselves stay).
    pub fn moves_mut(&mut self) -> &mut [GameMove] {
        &mut self.moves
    }

    /// Appends the move `m`, legal in [`Game::end_position`]; [`Move::NONE`] appends a null
    /// move ([`Game::push_null`]), so that the moves of a game pushed one by one make the
    /// same game.
    ///
    /// # Errors
    /// [`MoveError::Illegal`] when it is not legal (for a null move: while in check); the
    /// game is unchanged.
    pub fn push(&mut self, m: Move) -> Result<(), MoveError> {
        let played = if m == Move::NONE {
            Self::retry_compacted(&mut self.end, |p| p.try_make_null_move())
        } else {
            Self::retry_compacted(&mut self.end, |p| p.try_make_move(m))
        };
        played?;
        self.moves.push(GameMove {
            mv: m,
            nags: Vec::new(),
            comment: String::new(),
        });
        Ok(())
    }

    /// Plays `make` on `pos`; when the history is full (a long game), keeps only what
    /// repetition detection can still reach and tries again.
    fn retry_compacted<T>(
        pos: &mut Position,
        mut make: impl FnMut(&mut Position) -> Result<T, MoveError>,
    ) -> Result<(), MoveError> {
        match make(pos) {
            Ok(_) => Ok(()),
            Err(MoveError::HistoryFull) => {
                pos.compact_history();
                make(pos).map(|_| ())
            }
            Err(e) => Err(e),
        }
    }

    /// Appends a null move (the turn passes), kept as [`Move::NONE`] and written as `--`.
    ///
    /// # Errors
    /// [`MoveError::Illegal`] while the side to move is in check; the game is unchanged.
    pub fn push_null(&mut self) -> Result<(), MoveError> {
        self.push(Move::NONE)
    }

    /// Appends the move named by `san` (tolerant SAN, or a null move as `--`, `Z0`, `0000` or
    /// `@@@@`, which gives [`Move::NONE`]) and returns it.
    ///
    /// # Errors
    /// The [`SanError`] of reading it ([`SanError::Illegal`] for a null move in check); the
    /// game is unchanged.
    pub fn push_san(&mut self, san: &str) -> Result<Move, SanError> {
        let m = if is_null_move_text(san.trim_end_matches(['!', '?'])) {
            Move::NONE
        } else {
            self.end
                .parse_san_with(san, crate::position::SanMode::Tolerant)?
        };
        self.push(m).map_err(|_| SanError::Illegal)?;
        Ok(m)
    }

    /// Reads the first game of `text`.
    ///
    /// # Errors
    /// The [`PgnError`] of that game (with its [partial game](PgnError::partial) when it went
    /// wrong in the movetext), or [`PgnErrorKind::NoGame`] for text without one.
    pub fn from_pgn(text: &str) -> Result<Game, PgnError> {
        PgnReader::new(text.as_bytes())
            .next()
            .unwrap_or(Err(PgnError {
                line: 1,
                kind: PgnErrorKind::NoGame,
                partial: None,
            }))
    }
}

/// What was wrong with a game (see [`PgnError`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PgnErrorKind {
    /// A tag line that is not `[Name "value"]`.
    Tag,
    /// The `[FEN]` tag is not a valid FEN.
    Fen(crate::position::FenError),
    /// The `[Variant]` tag names a variant other than standard chess and Chess960.
    UnsupportedVariant,
    /// A movetext token that is not a move, number, NAG, comment or result (`text` is it).
    Token(String),
    /// A move (`text`, at ply `ply` from the start, 0-based) not legal, ambiguous or not SAN.
    Move {
        /// The move's text.
        text: String,
        /// Its ply in the main line (0 = first move).
        ply: usize,
        /// Why it was refused.
        error: SanError,
    },
    /// A `{` comment or `(` variation not closed before the game's end.
    Unterminated,
    /// A `)` without its `(`.
    UnbalancedParenthesis,
    /// The input has no game.
    NoGame,
    /// Reading the input failed (the message of the I/O error).
    Io(String),
}

/// A malformed game: what and where (the reader goes on with the next game), and what could
/// be read of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PgnError {
    /// The line (1-based, counted over the whole input) where the error was found.
    pub line: usize,
    /// What was wrong.
    pub kind: PgnErrorKind,
    /// The game as read up to the error, when the error is in its movetext: its tags,
    /// starting position, the moves before the bad token (with their comments and NAGs), and
    /// as result its result token when its text has one, else its `[Result]` tag, else `*`.
    /// `None` for an error in the tags (a malformed tag line, a bad `[FEN]`, an unsupported
    /// `[Variant]`), for [`PgnErrorKind::NoGame`] and [`PgnErrorKind::Io`].
    pub partial: Option<Box<Game>>,
}

impl fmt::Display for PgnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: ", self.line)?;
        match &self.kind {
            PgnErrorKind::Tag => f.write_str("malformed tag"),
            PgnErrorKind::Fen(e) => write!(f, "bad FEN tag: {e}"),
            PgnErrorKind::UnsupportedVariant => f.write_str("unsupported variant"),
            PgnErrorKind::Token(t) => write!(f, "unexpected text {t:?}"),
            PgnErrorKind::Move { text, ply, error } => {
                write!(f, "move {text:?} (ply {}): {error}", ply + 1)
            }
            PgnErrorKind::Unterminated => f.write_str("comment or variation not closed"),
            PgnErrorKind::UnbalancedParenthesis => f.write_str("')' without '('"),
            PgnErrorKind::NoGame => f.write_str("no game"),
            PgnErrorKind::Io(e) => write!(f, "read error: {e}"),
        }
    }
}

impl std::error::Error for PgnError {}
