//! Standard Algebraic Notation (SAN): writing a legal move as `Nbd2`, `exd8=Q+`, `O-O-O#`, and
//! reading it back, strictly or tolerantly. No heap allocation: the text of a move lives in a
//! [`San`] (8 bytes on the stack) and parsing works on the bytes of the input.
//!
//! Writing follows the PGN standard (export format), as python-chess writes it too:
//! * piece letter `N B R Q K` (none for pawns), then the origin's file, rank or both only when
//!   another legal move of the same piece type goes to the same square (file first, then rank,
//!   then both: minimal disambiguation among *legal* moves, so a pinned knight never forces
//!   one); pawn captures always name the origin file (`exd5`, no `e.p.` for en passant);
//! * `x` for captures, `=Q` for promotions;
//! * castling `O-O` / `O-O-O`, written from the move's castle flag (so it holds for any castling
//!   rook squares, as in Chess960);
//! * `+` when the move gives check, `#` when it mates.
//!
//! Reading comes in two modes ([`SanMode`]):
//! * [`SanMode::Strict`]: the text must be exactly what [`Position::to_san`] writes (the export
//!   format: right suffix, minimal disambiguation, no annotations).
//! * [`SanMode::Tolerant`]: what people and other programs write (PGN import format and
//!   more): missing, extra or wrong `+`/`#`; annotation glyphs `!`, `?`, `!!`, `!?`, `?!`, `??`
//!   stripped; castling as `0-0`, `0-0-0` or lower-case `o-o`; lower-case piece letters
//!   (`nf3`, `qxd7`; a lower-case `b` is the b-file, as in standard SAN, unless no pawn move
//!   matches, and then a bishop: `bxc5` with no pawn able to take there); a `P` for pawns; more
//!   disambiguation than needed (`Ngf3`); `:` or no `x` for captures (`ed5` is a capture,
//!   but a pawn move naming no origin file stays on its file); long algebraic (`e2e4`,
//!   `e2-e4`, `Ng1-f3`, `e7e8q`), castling also as the king taking its own rook (`e1h1`, the
//!   Chess960 UCI form); promotions without `=` (`e8Q`).
//!
//! Each failure is its own [`SanError`]: the text is no move notation at all
//! ([`SanError::Syntax`]; in strict mode also: names a legal move but is not its standard
//! SAN), it names no legal move ([`SanError::Illegal`]), or several
//! ([`SanError::Ambiguous`], e.g. `Nd2` with knights on b1 and f3, or a promotion without its
//! piece in tolerant mode).

use super::Position;
use crate::movegen::{GenType, Legality};
use crate::moves::{Move, MoveList};
use crate::types::{castling_index, PieceType, Square};
use core::fmt;

/// The longest SAN text (`Qa1xb2+`, `exd8=Q#`): 7 bytes.
pub const SAN_MAX: usize = 7;

/// Why a SAN text was not accepted (see the [module docs](self)).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum SanError {
    /// Not move notation (in strict mode: not the standard SAN of the move it names).
    Syntax,
    /// Well formed, but no legal move of this position matches (also: a move given to
    /// [`Position::to_san`] that is not legal here).
    Illegal,
    /// Well formed, but more than one legal move matches.
    Ambiguous,
}

impl SanError {
    /// The error's message, NUL-terminated for the C layer.
    pub(crate) const fn message_c(self) -> &'static core::ffi::CStr {
        match self {
            SanError::Syntax => c"the text is not SAN move notation",
            SanError::Illegal => c"the SAN names no legal move in this position",
            SanError::Ambiguous => c"the SAN names more than one legal move in this position",
        }
    }

    /// The error's message.
    pub fn message(self) -> &'static str {
        // The C strings above are ASCII, so this never falls back.
        self.message_c().to_str().unwrap_or("SAN error")
    }
}

impl fmt::Display for SanError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.message())
    }
}

impl std::error::Error for SanError {}

/// How strictly [`Position::parse_san_with`] reads (see the [module docs](self)).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub enum SanMode {
    /// Exactly the standard SAN that [`Position::to_san`] writes.
    Strict,
    /// The common variants people and programs write.
    #[default]
    Tolerant,
}

/// The SAN text of one move, on the stack: use it as a `&str` ([`San::as_str`], `Display`).
#[derive(Copy, Clone, PartialEq, Eq, Hash)]
pub struct San {
    buf: [u8; SAN_MAX],
    len: u8,
}

impl San {
    const fn empty() -> San {
        San {
            buf: [0; SAN_MAX],
            len: 0,
        }
    }

    fn push(&mut self, b: u8) {
        // Never more than SAN_MAX bytes (see `Position::to_san`); a longer text is cut short
        // rather than panicking.
        if let Some(slot) = self.buf.get_mut(self.len as usize) {
            *slot = b;
            self.len += 1;
        }
    }

    fn push_square(&mut self, sq: Square) {
        self.push(b'a' + sq.file());
        self.push(b'1' + sq.rank());
    }

    /// The text.
    pub fn as_str(&self) -> &str {
        // Only ASCII bytes are ever pushed.
        core::str::from_utf8(&self.buf[..self.len as usize]).unwrap_or("")
    }

    /// The text's bytes (ASCII).
    pub fn as_bytes(&self) -> &[u8] {
        &self.buf[..self.len as usize]
    }
}

impl core::ops::Deref for San {
    type Target = str;
    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl fmt::Display for San {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Debug for San {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "San({:?})", self.as_str())
    }
}

/// The upper-case SAN letter of a piece type (`P` for pawns, which SAN leaves out).
fn piece_letter(kind: PieceType) -> u8 {
    kind.to_char().to_ascii_uppercase() as u8
}

/// The piece type of an upper-case SAN letter (`N B R Q K`, and `P`).
fn piece_of_upper(b: u8) -> Option<PieceType> {
    match b {
        b'P' => Some(PieceType::PAWN),
        b'N' => Some(PieceType::KNIGHT),
        b'B' => Some(PieceType::BISHOP),
        b'R' => Some(PieceType::ROOK),
        b'Q' => Some(PieceType::QUEEN),
        b'K' => Some(PieceType::KING),
        _ => None,
    }
}

/// What the text names, short of the position: the piece, the origin constraints, the
/// target and promotion. `file`/`rank` are `None` when not given.
#[derive(Copy, Clone, Debug)]
struct Pattern {
    kind: PieceType,
    file: Option<u8>,
    rank: Option<u8>,
    to: Square,
    /// `None`: not given (tolerant mode matches any promotion, or none).
    promo: Option<PieceType>,
}

impl Position {
    /// The legal moves of the side to move with piece type `kind`.
    fn legal_moves_of(&self, kind: PieceType) -> MoveList {
        let mut list = MoveList::new();
        self.generate_moves(Legality::Legal, GenType::All, kind.mask_bit(), &mut list);
        list
    }

    /// `+`, `#` or nothing (0): what the legal move `m` does to the opponent.
    fn check_suffix(&self, m: Move) -> u8 {
        let mut after = self.clone();
        after.make_move_unchecked(m);
        if !after.in_check() {
            0
        } else if after.count_legal_moves() == 0 {
            b'#'
        } else {
            b'+'
        }
    }

    /// The SAN of the legal move `m` (see the [module docs](self) for the rules).
    ///
    /// # Errors
    /// [`SanError::Illegal`] when `m` is not a legal move here.
    ///
    /// ```
    /// use chesscore::Position;
    /// // Knights on b1 and f3 can both go to d2: the origin file tells them apart.
    /// let pos = Position::from_fen("4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1").unwrap();
    /// assert_eq!(pos.to_string(), "\
    /// 8 . . . . k . . .
    /// 7 . . . . . . . .
    /// 6 . . . . . . . .
    /// 5 . . . . . . . .
    /// 4 . . . . . . . .
    /// 3 . . . . . N . .
    /// 2 . . . . . . . .
    /// 1 . N . . K . . .
    ///   a b c d e f g h
    /// ");
    /// let m = pos.parse_uci_move("b1d2").unwrap();
    /// assert_eq!(pos.to_san(m).unwrap().as_str(), "Nbd2");
    /// let m = pos.parse_uci_move("f3g5").unwrap();
    /// assert_eq!(pos.to_san(m).unwrap().to_string(), "Ng5");
    /// ```
    pub fn to_san(&self, m: Move) -> Result<San, SanError> {
        if !self.is_legal(m) {
            return Err(SanError::Illegal);
        }
        let mut san = self.san_without_suffix(m);
        let suffix = self.check_suffix(m);
        if suffix != 0 {
            san.push(suffix);
        }
        Ok(san)
    }

    /// Writes the SAN of the legal move `m` to `out` (as [`Position::to_san`]).
    ///
    /// # Errors
    /// [`SanError::Illegal`] when `m` is not legal here; a formatter error counts as none of
    /// these and is passed over (the text is then cut short).
    pub fn write_san(&self, m: Move, out: &mut impl fmt::Write) -> Result<(), SanError> {
        let san = self.to_san(m)?;
        // A failing writer is the caller's business; the SAN itself was found.
        let _ = out.write_str(san.as_str());
        Ok(())
    }

    /// The SAN of the legal move `m` without `+` or `#`.
    fn san_without_suffix(&self, m: Move) -> San {
        let mut san = San::empty();
        if m.is_castle() {
            let text: &[u8] = if m.flag() == Move::KING_CASTLE {
                b"O-O"
            } else {
                b"O-O-O"
            };
            text.iter().for_each(|&b| san.push(b));
            return san;
        }
        let (from, to) = (m.from(), m.to());
        let kind = self.piece_on(from).kind();
        if kind == PieceType::PAWN {
            if m.is_capture() {
                san.push(b'a' + from.file());
                san.push(b'x');
            }
            san.push_square(to);
            if m.is_promotion() {
                san.push(b'=');
                san.push(piece_letter(m.promotion()));
            }
            return san;
        }
        san.push(piece_letter(kind));
        if kind != PieceType::KING {
            // Other legal moves of this piece type to the same square.
            let (mut others, mut same_file, mut same_rank) = (false, false, false);
            for &o in self.legal_moves_of(kind).iter() {
                if o.to() == to && o.from() != from {
                    others = true;
                    same_file |= o.from().file() == from.file();
                    same_rank |= o.from().rank() == from.rank();
                }
            }
            if others {
                if !same_file {
                    san.push(b'a' + from.file());
                } else if !same_rank {
                    san.push(b'1' + from.rank());
                } else {
                    san.push_square(from);
                }
            }
        }
        if m.is_capture() {
            san.push(b'x');
        }
        san.push_square(to);
        san
    }

    /// Parses SAN strictly ([`SanMode::Strict`]): exactly the text [`Position::to_san`] writes.
    ///
    /// # Errors
    /// See [`Position::parse_san_with`].
    pub fn parse_san(&self, text: &str) -> Result<Move, SanError> {
        self.parse_san_with(text, SanMode::Strict)
    }

    /// Parses SAN in the given mode (see the [module docs](self) for what each accepts).
    ///
    /// # Errors
    /// [`SanError::Syntax`] for text that is no move notation (and, in strict mode, for the
    /// notation of a legal move that is not its standard SAN), [`SanError::Illegal`] when no
    /// legal move matches, [`SanError::Ambiguous`] when several do.
    ///
    /// ```
    /// use chesscore::{Position, SanError, SanMode};
    /// let pos = Position::startpos();
    /// let nf3 = pos.parse_uci_move("g1f3").unwrap();
    /// assert_eq!(pos.parse_san("Nf3"), Ok(nf3));
    /// assert_eq!(pos.parse_san("Ngf3"), Err(SanError::Syntax)); // over-disambiguated
    /// for text in ["Ngf3", "Ng1-f3", "g1f3", "nf3", "Nf3!?", "Nf3+"] {
    ///     assert_eq!(pos.parse_san_with(text, SanMode::Tolerant), Ok(nf3), "{text}");
    /// }
    /// assert_eq!(pos.parse_san_with("Nf4", SanMode::Tolerant), Err(SanError::Illegal));
    /// assert_eq!(pos.parse_san_with("Zz9", SanMode::Tolerant), Err(SanError::Syntax));
    /// ```
    pub fn parse_san_with(&self, text: &str, mode: SanMode) -> Result<Move, SanError> {
        let m = self.parse_san_tolerant(text.as_bytes())?;
        if mode == SanMode::Strict {
            // A tolerant reading that is the standard text of its move is the strict reading.
            let san = self.san_without_suffix(m);
            let suffix = self.check_suffix(m);
            let b = text.as_bytes();
            let body_ok = b.starts_with(san.as_bytes());
            let rest = &b[san.as_bytes().len().min(b.len())..];
            let suffix_ok = match suffix {
                0 => rest.is_empty(),
                s => rest == [s],
            };
            if !(body_ok && suffix_ok) {
                return Err(SanError::Syntax);
            }
        }
        Ok(m)
    }

    fn parse_san_tolerant(&self, text: &[u8]) -> Result<Move, SanError> {
        // Annotations and check marks at the end, in any order.
        let mut end = text.len();
        while end > 0 && matches!(text[end - 1], b'!' | b'?' | b'+' | b'#') {
            end -= 1;
        }
        let b = &text[..end];
        if b.is_empty() {
            return Err(SanError::Syntax);
        }
        match b {
            b"O-O" | b"0-0" | b"o-o" => return self.find_castle(Move::KING_CASTLE),
            b"O-O-O" | b"0-0-0" | b"o-o-o" => return self.find_castle(Move::QUEEN_CASTLE),
            _ => {}
        }
        // Promotion at the end: `=Q`, `Q` or `q` after the target's rank digit.
        let mut end = b.len();
        let mut promo = None;
        if end >= 3 && !b[end - 1].is_ascii_digit() {
            let p = piece_of_upper(b[end - 1].to_ascii_uppercase())
                .filter(|p| ![PieceType::PAWN, PieceType::KING].contains(p))
                .ok_or(SanError::Syntax)?;
            promo = Some(p);
            end -= 1;
            if b[end - 1] == b'=' {
                end -= 1;
            }
        }
        // The target square.
        if end < 2 {
            return Err(SanError::Syntax);
        }
        let to = match (b[end - 2], b[end - 1]) {
            (f @ b'a'..=b'h', r @ b'1'..=b'8') => Square::from_coords(f - b'a', r - b'1'),
            _ => return Err(SanError::Syntax),
        };
        end -= 2;
        // A capture or move mark between origin and target (it needs an origin before it).
        if end > 0 && matches!(b[end - 1], b'x' | b':' | b'-') {
            end -= 1;
            if end == 0 {
                return Err(SanError::Syntax);
            }
        }
        let prefix = &b[..end];
        // Long algebraic without a piece letter (`g1f3`, `e2-e4`): the piece is the one there.
        if let [f @ b'a'..=b'h', r @ b'1'..=b'8'] = *prefix {
            let from = Square::from_coords(f - b'a', r - b'1');
            let pc = self.piece_on(from);
            if pc.is_none() || pc.color() != self.side_to_move() {
                return Err(SanError::Illegal);
            }
            // Castling as the king taking its own rook (`e1h1`, as Chess960 UCI writes it).
            let target = self.piece_on(to);
            if pc.kind() == PieceType::KING
                && target.kind() == PieceType::ROOK
                && target.color() == pc.color()
            {
                return self
                    .legal_moves_of(PieceType::KING)
                    .iter()
                    .copied()
                    .find(|m| {
                        let king_side = m.flag() == Move::KING_CASTLE;
                        m.is_castle()
                            && self.castling_rook(castling_index(pc.color(), king_side)) == to
                    })
                    .ok_or(SanError::Illegal);
            }
            return self.find_unique(Pattern {
                kind: pc.kind(),
                file: Some(from.file()),
                rank: Some(from.rank()),
                to,
                promo,
            });
        }
        // The piece letter, if any: upper case, or lower case `n r q k`.
        let piece = match prefix.first() {
            Some(&c) if c.is_ascii_uppercase() => Some(piece_of_upper(c).ok_or(SanError::Syntax)?),
            Some(&c @ (b'n' | b'r' | b'q' | b'k')) => piece_of_upper(c.to_ascii_uppercase()),
            _ => None,
        };
        if let Some(kind) = piece {
            let (file, rank) = parse_origin(&prefix[1..]).ok_or(SanError::Syntax)?;
            if kind != PieceType::PAWN && promo.is_some() {
                return Err(SanError::Syntax);
            }
            let file = if kind == PieceType::PAWN {
                // `Pd5` is a push, as `d5` is.
                Some(file.unwrap_or(to.file()))
            } else {
                file
            };
            return self.find_unique(Pattern {
                kind,
                file,
                rank,
                to,
                promo,
            });
        }
        // A pawn: no origin file means a push on the target's file. A lower-case `b` that
        // names no pawn move is read as a bishop (`bxc5` with no pawn on b4).
        let (file, rank) = parse_origin(prefix).ok_or(SanError::Syntax)?;
        let pawn = self.find_unique(Pattern {
            kind: PieceType::PAWN,
            file: Some(file.unwrap_or(to.file())),
            rank,
            to,
            promo,
        });
        match pawn {
            Err(SanError::Illegal) if prefix.first() == Some(&b'b') && promo.is_none() => {
                let (file, rank) = parse_origin(&prefix[1..]).ok_or(SanError::Syntax)?;
                self.find_unique(Pattern {
                    kind: PieceType::BISHOP,
                    file,
                    rank,
                    to,
                    promo,
                })
            }
            other => other,
        }
    }

    /// The one legal move matching `p`.
    fn find_unique(&self, p: Pattern) -> Result<Move, SanError> {
        let (mut found, mut count) = (None, 0);
        for &m in self.legal_moves_of(p.kind).iter() {
            let ok = m.to() == p.to
                && p.file.is_none_or(|f| m.from().file() == f)
                && p.rank.is_none_or(|r| m.from().rank() == r)
                && p.promo.is_none_or(|q| m.promotion() == q);
            if ok {
                found = Some(m);
                count += 1;
            }
        }
        match (count, found) {
            (1, Some(m)) => Ok(m),
            (0, _) => Err(SanError::Illegal),
            _ => Err(SanError::Ambiguous),
        }
    }

    /// The legal castle with this flag.
    fn find_castle(&self, flag: u16) -> Result<Move, SanError> {
        self.legal_moves_of(PieceType::KING)
            .iter()
            .copied()
            .find(|m| m.flag() == flag)
            .ok_or(SanError::Illegal)
    }
}

/// The origin constraints in `[file][rank]` (each optional), or `None` for anything else.
fn parse_origin(b: &[u8]) -> Option<(Option<u8>, Option<u8>)> {
    let file = |c: u8| (b'a'..=b'h').contains(&c).then(|| c - b'a');
    let rank = |c: u8| (b'1'..=b'8').contains(&c).then(|| c - b'1');
    match *b {
        [] => Some((None, None)),
        [c] => match (file(c), rank(c)) {
            (Some(f), _) => Some((Some(f), None)),
            (_, Some(r)) => Some((None, Some(r))),
            _ => None,
        },
        [f, r] => Some((Some(file(f)?), Some(rank(r)?))),
        _ => None,
    }
}
