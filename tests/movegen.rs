//! The move generator against an independent, deliberately naive model written here from
//! scratch (a mailbox of `Option<Man>`, moves found by walking offsets on (file, rank)
//! coordinates, legality by making the move on a copy and scanning every ray and leaper
//! offset from the king), on about 20,000 positions; the naive model itself is first checked
//! against the perft counts of the shared suites. Also the filtered generator (piece types,
//! captures, quiets) against filtering the full list.

mod common;

use chesscore::{GenType, Legality, Move, MoveList, PieceType, Position, ALL_PIECE_TYPES};
use std::collections::BTreeSet;

fn set(list: &MoveList) -> BTreeSet<u16> {
    list.iter().map(|m| m.raw()).collect()
}

// ---------------------------------------------------------------------------------------------
// The naive model. It shares nothing with the library but the FEN text it reads and the move
// encoding documented beside `chesscore::Move` (from | to << 6 | flag << 12).
// ---------------------------------------------------------------------------------------------

mod naive {
    #[derive(Clone, Copy, PartialEq, Eq, Debug)]
    pub enum Kind {
        Pawn,
        Knight,
        Bishop,
        Rook,
        Queen,
        King,
    }

    #[derive(Clone, Copy, PartialEq, Eq, Debug)]
    pub struct Man {
        pub white: bool,
        pub kind: Kind,
    }

    // Move flags, as documented on `chesscore::Move`.
    pub const QUIET: u16 = 0;
    pub const DOUBLE_PUSH: u16 = 1;
    pub const KING_CASTLE: u16 = 2;
    pub const QUEEN_CASTLE: u16 = 3;
    pub const CAPTURE: u16 = 4;
    pub const EN_PASSANT: u16 = 5;
    /// Promotion flags: 8 knight, 9 bishop, 10 rook, 11 queen; +4 with a capture.
    pub const PROMO: u16 = 8;

    #[derive(Clone, Copy, PartialEq, Eq, Debug)]
    pub struct NMove {
        pub from: usize,
        pub to: usize,
        pub flag: u16,
    }

    impl NMove {
        pub fn raw(self) -> u16 {
            self.from as u16 | (self.to as u16) << 6 | self.flag << 12
        }
    }

    /// A square's name from its index (a1 = 0, b1 = 1, ..., h8 = 63).
    pub fn name(sq: usize) -> String {
        format!("{}{}", (b'a' + (sq % 8) as u8) as char, sq / 8 + 1)
    }

    /// A raw move value as text: from, to, flag.
    pub fn show(raw: u16) -> String {
        format!(
            "{}{}/{}",
            name((raw & 63) as usize),
            name((raw >> 6 & 63) as usize),
            raw >> 12
        )
    }

    /// The square at (file, rank), or `None` off the board (this is the wrap check).
    fn at(file: i32, rank: i32) -> Option<usize> {
        if (0..8).contains(&file) && (0..8).contains(&rank) {
            Some((rank * 8 + file) as usize)
        } else {
            None
        }
    }

    fn coords(sq: usize) -> (i32, i32) {
        ((sq % 8) as i32, (sq / 8) as i32)
    }

    const KNIGHT: [(i32, i32); 8] = [
        (1, 2),
        (2, 1),
        (2, -1),
        (1, -2),
        (-1, -2),
        (-2, -1),
        (-2, 1),
        (-1, 2),
    ];
    const KING: [(i32, i32); 8] = [
        (1, 0),
        (1, 1),
        (0, 1),
        (-1, 1),
        (-1, 0),
        (-1, -1),
        (0, -1),
        (1, -1),
    ];
    const ORTHOGONAL: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
    const DIAGONAL: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

    // Squares of the standard castling setup.
    const E1: usize = 4;
    const E8: usize = 60;

    #[derive(Clone, PartialEq, Eq, Debug)]
    pub struct Board {
        pub men: [Option<Man>; 64],
        pub white_to_move: bool,
        /// K, Q, k, q.
        pub castle: [bool; 4],
        pub ep: Option<usize>,
    }

    impl Board {
        /// Reads the first four FEN fields (the clocks play no part in move generation).
        pub fn from_fen(fen: &str) -> Board {
            let fields: Vec<&str> = fen.split(' ').collect();
            let mut men = [None; 64];
            for (i, row) in fields[0].split('/').enumerate() {
                let rank = 7 - i;
                let mut file = 0;
                for c in row.chars() {
                    if let Some(d) = c.to_digit(10) {
                        file += d as usize;
                        continue;
                    }
                    let kind = match c.to_ascii_lowercase() {
                        'p' => Kind::Pawn,
                        'n' => Kind::Knight,
                        'b' => Kind::Bishop,
                        'r' => Kind::Rook,
                        'q' => Kind::Queen,
                        'k' => Kind::King,
                        _ => panic!("bad piece {c} in {fen}"),
                    };
                    men[rank * 8 + file] = Some(Man {
                        white: c.is_ascii_uppercase(),
                        kind,
                    });
                    file += 1;
                }
                assert_eq!(file, 8, "{fen}");
            }
            let castle = ['K', 'Q', 'k', 'q'].map(|c| fields[2].contains(c));
            let ep = match fields[3] {
                "-" => None,
                s => {
                    let b = s.as_bytes();
                    Some(((b[1] - b'1') * 8 + (b[0] - b'a')) as usize)
                }
            };
            Board {
                men,
                white_to_move: fields[1] == "w",
                castle,
                ep,
            }
        }

        fn is(&self, sq: Option<usize>, white: bool, kind: Kind) -> bool {
            sq.and_then(|s| self.men[s]) == Some(Man { white, kind })
        }

        /// True when a man of color `by_white` attacks `sq`: pawns, knights and kings by their
        /// offsets, sliders by walking each ray to its first occupied square.
        pub fn attacked(&self, sq: usize, by_white: bool) -> bool {
            let (f, r) = coords(sq);
            // An attacking pawn stands one rank behind `sq`, seen from its own side.
            let pawn_rank = if by_white { r - 1 } else { r + 1 };
            if self.is(at(f - 1, pawn_rank), by_white, Kind::Pawn)
                || self.is(at(f + 1, pawn_rank), by_white, Kind::Pawn)
            {
                return true;
            }
            for (df, dr) in KNIGHT {
                if self.is(at(f + df, r + dr), by_white, Kind::Knight) {
                    return true;
                }
            }
            for (df, dr) in KING {
                if self.is(at(f + df, r + dr), by_white, Kind::King) {
                    return true;
                }
            }
            for (dirs, kind) in [(ORTHOGONAL, Kind::Rook), (DIAGONAL, Kind::Bishop)] {
                for (df, dr) in dirs {
                    let (mut x, mut y) = (f + df, r + dr);
                    while let Some(s) = at(x, y) {
                        if let Some(m) = self.men[s] {
                            if m.white == by_white && (m.kind == kind || m.kind == Kind::Queen) {
                                return true;
                            }
                            break;
                        }
                        x += df;
                        y += dr;
                    }
                }
            }
            false
        }

        fn king(&self, white: bool) -> usize {
            (0..64)
                .find(|&s| self.is(Some(s), white, Kind::King))
                .expect("a king")
        }

        /// Moves by the rules of piece movement alone (the king may be left in check;
        /// castling needs the right, king and rook at home and the squares between them
        /// empty, nothing about attacks).
        pub fn pseudo_moves(&self) -> Vec<NMove> {
            let us = self.white_to_move;
            let mut out = Vec::new();
            for from in 0..64 {
                let Some(man) = self.men[from] else { continue };
                if man.white != us {
                    continue;
                }
                let (f, r) = coords(from);
                let mut add = |to: usize, flag: u16| out.push(NMove { from, to, flag });
                match man.kind {
                    Kind::Pawn => {
                        let dir = if us { 1 } else { -1 };
                        let start = if us { 1 } else { 6 };
                        let last = if us { 7 } else { 0 };
                        let promote = r + dir == last;
                        if let Some(to) = at(f, r + dir) {
                            if self.men[to].is_none() {
                                if promote {
                                    for p in [3, 2, 1, 0] {
                                        add(to, PROMO + p);
                                    }
                                } else {
                                    add(to, QUIET);
                                    if r == start {
                                        let to2 = at(f, r + 2 * dir).unwrap();
                                        if self.men[to2].is_none() {
                                            add(to2, DOUBLE_PUSH);
                                        }
                                    }
                                }
                            }
                        }
                        for df in [-1, 1] {
                            let Some(to) = at(f + df, r + dir) else {
                                continue;
                            };
                            match self.men[to] {
                                Some(m) if m.white != us => {
                                    if promote {
                                        for p in [3, 2, 1, 0] {
                                            add(to, PROMO + CAPTURE + p);
                                        }
                                    } else {
                                        add(to, CAPTURE);
                                    }
                                }
                                None if self.ep == Some(to) => {
                                    // The pawn that made the double push stands beside us.
                                    assert!(
                                        self.is(at(f + df, r), !us, Kind::Pawn),
                                        "en passant square {} without the pushed pawn",
                                        name(to)
                                    );
                                    add(to, EN_PASSANT);
                                }
                                _ => {}
                            }
                        }
                    }
                    Kind::Knight | Kind::King => {
                        let steps = if man.kind == Kind::Knight {
                            KNIGHT
                        } else {
                            KING
                        };
                        for (df, dr) in steps {
                            if let Some(to) = at(f + df, r + dr) {
                                match self.men[to] {
                                    None => add(to, QUIET),
                                    Some(m) if m.white != us => add(to, CAPTURE),
                                    _ => {}
                                }
                            }
                        }
                    }
                    Kind::Bishop | Kind::Rook | Kind::Queen => {
                        let dirs: Vec<(i32, i32)> = match man.kind {
                            Kind::Bishop => DIAGONAL.to_vec(),
                            Kind::Rook => ORTHOGONAL.to_vec(),
                            _ => [ORTHOGONAL, DIAGONAL].concat(),
                        };
                        for (df, dr) in dirs {
                            let (mut x, mut y) = (f + df, r + dr);
                            while let Some(to) = at(x, y) {
                                match self.men[to] {
                                    None => add(to, QUIET),
                                    Some(m) => {
                                        if m.white != us {
                                            add(to, CAPTURE);
                                        }
                                        break;
                                    }
                                }
                                x += df;
                                y += dr;
                            }
                        }
                    }
                }
            }
            // Castling: (right, king home, king to, rook home, squares that must be empty).
            let (home, base) = if us { (E1, 0) } else { (E8, 2) };
            for (right, to, rook, empty, flag) in [
                (
                    base,
                    home + 2,
                    home + 3,
                    &[home + 1, home + 2][..],
                    KING_CASTLE,
                ),
                (
                    base + 1,
                    home - 2,
                    home - 4,
                    &[home - 1, home - 2, home - 3][..],
                    QUEEN_CASTLE,
                ),
            ] {
                if self.castle[right]
                    && self.is(Some(home), us, Kind::King)
                    && self.is(Some(rook), us, Kind::Rook)
                    && empty.iter().all(|&s| self.men[s].is_none())
                {
                    out.push(NMove {
                        from: home,
                        to,
                        flag,
                    });
                }
            }
            out
        }

        /// The board after `m` (a move from `pseudo_moves`), with the castling rights, the en
        /// passant square (set after every double push, as FEN writes it) and the side to
        /// move updated.
        pub fn after(&self, m: NMove) -> Board {
            let mut b = self.clone();
            let mut man = b.men[m.from].take().expect("a man on the from square");
            let (ff, fr) = coords(m.from);
            let (tf, _) = coords(m.to);
            match m.flag {
                EN_PASSANT => {
                    // The captured pawn stands beside the mover, on the destination's file.
                    let cap = at(tf, fr).unwrap();
                    assert!(b.men[cap].is_some_and(|c| c.kind == Kind::Pawn));
                    b.men[cap] = None;
                }
                KING_CASTLE => {
                    let rook = b.men[at(7, fr).unwrap()].take();
                    b.men[at(5, fr).unwrap()] = rook;
                }
                QUEEN_CASTLE => {
                    let rook = b.men[at(0, fr).unwrap()].take();
                    b.men[at(3, fr).unwrap()] = rook;
                }
                _ => {}
            }
            if m.flag & PROMO != 0 {
                man.kind =
                    [Kind::Knight, Kind::Bishop, Kind::Rook, Kind::Queen][(m.flag & 3) as usize];
            }
            b.men[m.to] = Some(man);
            if man.kind == Kind::King {
                let base = if man.white { 0 } else { 2 };
                b.castle[base] = false;
                b.castle[base + 1] = false;
            }
            // A move from or to a rook's home corner ends that corner's right.
            for sq in [m.from, m.to] {
                match sq {
                    7 => b.castle[0] = false,
                    0 => b.castle[1] = false,
                    63 => b.castle[2] = false,
                    56 => b.castle[3] = false,
                    _ => {}
                }
            }
            b.ep = (m.flag == DOUBLE_PUSH).then(|| at(ff, (fr + coords(m.to).1) / 2).unwrap());
            b.white_to_move = !b.white_to_move;
            b
        }

        /// Legal: the mover's king is not attacked after the move; a castling king also does
        /// not start on, pass through or land on an attacked square.
        pub fn is_legal(&self, m: NMove) -> bool {
            let us = self.white_to_move;
            if m.flag == KING_CASTLE || m.flag == QUEEN_CASTLE {
                let passed = (m.from + m.to) / 2;
                if self.attacked(m.from, !us) || self.attacked(passed, !us) {
                    return false;
                }
            }
            let b = self.after(m);
            !b.attacked(b.king(us), !us)
        }

        pub fn legal_moves(&self) -> Vec<NMove> {
            self.pseudo_moves()
                .into_iter()
                .filter(|&m| self.is_legal(m))
                .collect()
        }

        pub fn perft(&self, depth: u32) -> u64 {
            let moves = self.legal_moves();
            if depth <= 1 {
                return moves.len() as u64;
            }
            moves.iter().map(|&m| self.after(m).perft(depth - 1)).sum()
        }
    }
}

use naive::{show, Board, NMove};

fn raw_set(moves: &[NMove]) -> BTreeSet<u16> {
    moves.iter().map(|m| m.raw()).collect()
}

fn show_set(s: &BTreeSet<u16>) -> String {
    s.iter().map(|&m| show(m)).collect::<Vec<_>>().join(" ")
}

/// The naive model against the shared suites' perft counts (checked against Stockfish, not
/// produced by this library): every position of both suites, every depth up to 20,000 nodes.
/// This is what makes the model trustworthy as an oracle below.
#[test]
fn naive_model_reproduces_suite_perft_counts() {
    let mut checked = 0;
    for file in ["standard.epd", "edge.epd"] {
        let path = format!("{}/testdata/{file}", env!("CARGO_MANIFEST_DIR"));
        for line in std::fs::read_to_string(path).unwrap().lines() {
            let mut parts = line.split(';');
            let fen = parts.next().unwrap().trim();
            if fen.is_empty() {
                continue;
            }
            let board = Board::from_fen(fen);
            for part in parts {
                let mut words = part.split_whitespace();
                let depth: u32 = words.next().unwrap()[1..].parse().unwrap();
                let count: u64 = words.next().unwrap().parse().unwrap();
                if count > 20_000 {
                    break;
                }
                assert_eq!(board.perft(depth), count, "naive perft {depth} of {fen}");
                checked += 1;
            }
        }
    }
    assert!(checked > 300, "{checked} counts");
}

/// Every position the test below uses, and what the naive model says about it.
struct Case {
    pos: Position,
    fen: String,
    naive_pseudo: BTreeSet<u16>,
    naive_legal: BTreeSet<u16>,
}

fn case(pos: &Position) -> Case {
    let fen = pos.to_fen();
    let board = Board::from_fen(&fen);
    // The FEN text and the mailbox the library answers `piece_on` from agree.
    for sq in 0..64u8 {
        let want = board.men[sq as usize].map_or('.', |m| {
            let c = match m.kind {
                naive::Kind::Pawn => 'p',
                naive::Kind::Knight => 'n',
                naive::Kind::Bishop => 'b',
                naive::Kind::Rook => 'r',
                naive::Kind::Queen => 'q',
                naive::Kind::King => 'k',
            };
            if m.white {
                c.to_ascii_uppercase()
            } else {
                c
            }
        });
        let got = pos.piece_on(chesscore::Square::from_index(sq)).to_char();
        assert_eq!(got, want, "{} in {fen}", naive::name(sq as usize));
    }
    let pseudo = board.pseudo_moves();
    let legal: Vec<NMove> = pseudo
        .iter()
        .copied()
        .filter(|&m| board.is_legal(m))
        .collect();
    Case {
        pos: pos.clone(),
        fen,
        naive_pseudo: raw_set(&pseudo),
        naive_legal: raw_set(&legal),
    }
}

fn is_en_passant(raw: u16) -> bool {
    raw >> 12 == naive::EN_PASSANT
}

/// Checks one position: the library's legal moves are exactly the naive model's; the
/// pseudo-legal ones are all moves by the rules of movement (flags included), contain every
/// legal move, and equal the naive pseudo-legal moves except for en passant captures (which
/// the generator may leave out when they are illegal); the one-move checks agree with the
/// model on every pseudo-legal move.
fn check(c: &Case) {
    let pos = &c.pos;
    let fen = &c.fen;
    let legal_list = pos.legal_moves();
    let pseudo_list = pos.pseudo_legal_moves();
    let legal = set(&legal_list);
    let pseudo = set(&pseudo_list);
    assert_eq!(
        legal.len(),
        legal_list.len(),
        "duplicate legal moves in {fen}"
    );
    assert_eq!(
        pseudo.len(),
        pseudo_list.len(),
        "duplicate pseudo-legal moves in {fen}"
    );
    assert!(
        legal == c.naive_legal,
        "legal moves of {fen}\n  library only: {}\n  naive only:   {}",
        show_set(&legal.difference(&c.naive_legal).copied().collect()),
        show_set(&c.naive_legal.difference(&legal).copied().collect()),
    );
    assert_eq!(pos.count_legal_moves(), c.naive_legal.len() as u64, "{fen}");
    let invalid: BTreeSet<u16> = pseudo.difference(&c.naive_pseudo).copied().collect();
    assert!(
        invalid.is_empty(),
        "pseudo-legal moves that break the rules of movement in {fen}: {}",
        show_set(&invalid)
    );
    assert!(legal.is_subset(&pseudo), "legal not in pseudo-legal: {fen}");
    let missing: BTreeSet<u16> = c
        .naive_pseudo
        .difference(&pseudo)
        .copied()
        .filter(|&m| !is_en_passant(m))
        .collect();
    assert!(
        missing.is_empty(),
        "pseudo-legal moves missing in {fen}: {}",
        show_set(&missing)
    );
    for &raw in &c.naive_pseudo {
        let want = c.naive_legal.contains(&raw);
        assert_eq!(
            pos.is_legal(Move::from_raw(raw)),
            want,
            "is_legal {} in {fen}",
            show(raw)
        );
    }
    for &raw in &pseudo {
        assert_eq!(
            pos.is_legal_pseudo(Move::from_raw(raw)),
            c.naive_legal.contains(&raw),
            "is_legal_pseudo {} in {fen}",
            show(raw)
        );
    }
}

/// Uniform random games reach few en passant captures, so: every position reached from
/// `positions` by a legal double push after which the naive model sees an en passant capture.
fn en_passant_positions(positions: &[Position]) -> Vec<Position> {
    let mut out = Vec::new();
    for pos in positions {
        for &m in pos.legal_moves().iter().filter(|m| m.is_double_push()) {
            let mut next = pos.clone();
            next.make_move_unchecked(m);
            let board = Board::from_fen(&next.to_fen());
            if board
                .pseudo_moves()
                .iter()
                .any(|m| m.flag == naive::EN_PASSANT)
            {
                out.push(next);
            }
        }
    }
    out
}

#[test]
fn generator_matches_the_naive_model() {
    let mut positions = common::random_positions(3, 60, 0x1234_5678);
    assert!(positions.len() > 10_000, "{} positions", positions.len());
    let extra = en_passant_positions(&positions);
    positions.extend(extra);
    let (mut moves, mut illegal, mut ep, mut castles) = (0usize, 0usize, 0usize, 0usize);
    let mut illegal_ep = 0;
    for pos in &positions {
        let c = case(pos);
        check(&c);
        moves += c.naive_legal.len();
        illegal += c.naive_pseudo.len() - c.naive_legal.len();
        ep += c.naive_legal.iter().filter(|&&m| is_en_passant(m)).count();
        illegal_ep += c
            .naive_pseudo
            .iter()
            .filter(|&&m| is_en_passant(m) && !c.naive_legal.contains(&m))
            .count();
        castles += c
            .naive_legal
            .iter()
            .filter(|&&m| matches!(m >> 12, naive::KING_CASTLE | naive::QUEEN_CASTLE))
            .count();
    }
    // The sample exercises what it is meant to: pseudo-legal moves that are illegal, en
    // passant and castling.
    assert!(illegal > 10_000, "{illegal} illegal pseudo-legal moves");
    assert!(ep > 100, "{ep} en passant captures");
    assert!(illegal_ep > 0, "no illegal en passant capture");
    assert!(castles > 200, "{castles} castling moves");
    eprintln!(
        "{} positions, {moves} legal moves, {illegal} illegal pseudo-legal, {ep} en passant \
         ({illegal_ep} illegal), {castles} castling",
        positions.len()
    );
}

#[test]
fn filtered_generation_equals_filtering_the_full_list() {
    let positions = common::random_positions(1, 80, 0xD1CE);
    for pos in &positions {
        for legality in [Legality::Legal, Legality::PseudoLegal] {
            let mut all = MoveList::new();
            pos.generate_moves(legality, GenType::All, ALL_PIECE_TYPES, &mut all);
            for gen in [GenType::All, GenType::Captures, GenType::Quiets] {
                for t in 1..=6u8 {
                    let kind = PieceType::new(t).unwrap();
                    for mask in [kind.mask_bit(), ALL_PIECE_TYPES & !kind.mask_bit()] {
                        let mut got = MoveList::new();
                        pos.generate_moves(legality, gen, mask, &mut got);
                        let want: BTreeSet<u16> = all
                            .iter()
                            .filter(|m| mask & pos.piece_on(m.from()).kind().mask_bit() != 0)
                            .filter(|m| match gen {
                                GenType::All => true,
                                GenType::Captures => m.is_capture(),
                                GenType::Quiets => !m.is_capture(),
                            })
                            .map(|m| m.raw())
                            .collect();
                        assert_eq!(
                            set(&got),
                            want,
                            "{:?} {gen:?} mask {mask:#x} in {}",
                            legality,
                            pos.to_fen()
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn promotions_come_queen_rook_bishop_knight() {
    let pos = Position::from_fen("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1").unwrap();
    let promos: Vec<String> = pos
        .legal_moves()
        .iter()
        .filter(|m| m.is_promotion())
        .map(|m| m.to_string())
        .collect();
    assert_eq!(promos, ["b7b8q", "b7b8r", "b7b8b", "b7b8n"]);
}

#[test]
fn en_passant_discovered_check_is_refused() {
    // Capturing d3 en passant would expose the black king on a4 to the rook on h4.
    let pos = Position::from_fen("8/8/8/8/k2Pp2R/8/8/4K3 b - d3 0 1").unwrap();
    let ep = Move::new(
        chesscore::Square::E4,
        chesscore::Square::D3,
        Move::EN_PASSANT,
    );
    // The naive model sees the capture by the rules of movement and refuses it.
    let board = Board::from_fen("8/8/8/8/k2Pp2R/8/8/4K3 b - d3 0 1");
    assert!(raw_set(&board.pseudo_moves()).contains(&ep.raw()));
    assert!(!raw_set(&board.legal_moves()).contains(&ep.raw()));
    // The pseudo-legal generator may leave out an en passant capture that a pin forbids;
    // when it lists it, the one-move check refuses it.
    if pos.pseudo_legal_moves().contains(ep) {
        assert!(!pos.is_legal_pseudo(ep));
    }
    assert!(!pos.is_legal(ep));
    assert!(!pos.legal_moves().contains(ep));
    // Without the rook the same capture is legal.
    let pos = Position::from_fen("8/8/8/8/k2Pp3/8/8/4K3 b - d3 0 1").unwrap();
    assert!(pos.legal_moves().contains(ep));
}

#[test]
fn castling_through_check_is_pseudo_legal_only() {
    // The bishop on c4 attacks f1: king-side castling passes through check.
    let pos = Position::from_fen("4k3/8/8/8/2b5/8/8/4K2R w K - 0 1").unwrap();
    let castle = Move::new(
        chesscore::Square::E1,
        chesscore::Square::G1,
        Move::KING_CASTLE,
    );
    assert!(pos.pseudo_legal_moves().contains(castle));
    assert!(!pos.is_legal_pseudo(castle));
    assert!(!pos.legal_moves().contains(castle));
}

#[test]
fn arbitrary_values_are_legal_only_when_the_naive_model_says_so() {
    // Every 16-bit value, against the naive model's legal moves.
    for fen in [
        chesscore::START_FEN,
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/8/1k6/2b5/2pP4/8/5K2/8 b - d3 0 1",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    ] {
        let pos = Position::from_fen(fen).unwrap();
        let legal = raw_set(&Board::from_fen(fen).legal_moves());
        assert_eq!(set(&pos.legal_moves()), legal, "{fen}");
        for raw in 0..=u16::MAX {
            assert_eq!(
                pos.is_legal(Move::from_raw(raw)),
                legal.contains(&raw),
                "{raw:#06x} in {fen}"
            );
        }
    }
}

/// `is_legal` checks a move's shape against the board rather than generating: every 16-bit
/// value against the naive model's legal moves, on positions sampled from random games of
/// every suite position (promotions, castling, pins, checks) and on en passant positions.
#[test]
fn arbitrary_values_on_random_positions_are_legal_only_when_the_naive_model_says_so() {
    let all = common::random_positions(1, 40, 0x1E6A_1000);
    let mut positions: Vec<Position> = all.iter().step_by(19).cloned().collect();
    let ep = en_passant_positions(&positions);
    positions.extend(ep.into_iter().take(40));
    assert!(positions.len() > 250, "{} positions", positions.len());
    let (mut checked_legal, mut in_check) = (0usize, 0usize);
    for pos in &positions {
        let fen = pos.to_fen();
        let legal = raw_set(&Board::from_fen(&fen).legal_moves());
        in_check += pos.in_check() as usize;
        for raw in 0..=u16::MAX {
            let want = legal.contains(&raw);
            assert_eq!(
                pos.is_legal(Move::from_raw(raw)),
                want,
                "{} in {fen}",
                show(raw)
            );
            checked_legal += want as usize;
        }
    }
    assert!(checked_legal > 3_000, "{checked_legal} legal moves");
    assert!(in_check > 5, "{in_check} positions in check");
}
