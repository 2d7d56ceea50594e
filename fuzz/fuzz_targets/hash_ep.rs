//! `hash_ep`: the en passant square counts in `chess_hash` exactly when an en passant capture
//! is legal (equal positions for play hash equal). Positions come from a seed (several with
//! the capturer pinned along a file, a rank or a diagonal, or with the king exposed along the
//! rank once both pawns vanish) and legal moves chosen by the input bytes (a byte with the top
//! bit set prefers a double pawn push) until a double pawn push has just been made; every
//! position on the way with an en passant square is checked.
//!
//! Contracts, for a position P with an en passant square and Q set from P's FEN with `-` in
//! the en passant field:
//! * Q's FEN is accepted;
//! * no legal move of P has the en passant flag (5) => `chess_hash(P) == chess_hash(Q)`;
//!   one has => they differ;
//! * `chess_pawnHash` and `chess_materialHash` of P and Q are equal (pawns and material only);
//! * Q's legal moves are P's without the en passant captures;
//! * the pseudo-legal generator lists an en passant capture only when it is legal;
//! * P's hashes equal those of the position set from P's own FEN (played and parsed agree).
#![no_main]

use chesscore::ffi;
use chesscore_fuzz::*;

/// En passant situations, then the shared seeds.
const EP_SEEDS: &[&str] = &[
    // g5xf6 would leave the g-file: the capturer is pinned by the rook on g6.
    "rnbq1b2/p2k2p1/Bp4r1/2pPppPp/P4P1P/NRP5/3P2K1/2B2QNR w - f6 0 22",
    // b5xc6 removes both pawns from the fifth rank: the rook on h5 sees the king on a5.
    "8/8/8/KPp4r/8/8/8/4k3 w - c6 0 2",
    // The same for Black along the fourth rank.
    "8/8/8/8/k2pP2R/8/8/4K3 b - e3 0 1",
    // d4xe3 leaves the a1-f6 diagonal: pinned by the bishop.
    "8/8/5k2/8/3pP3/8/8/B3K3 b - e3 0 1",
    // The double-pushed pawn gives check; e4xd3 takes the checker: legal.
    "8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1",
    // Two capturers: both legal.
    "4k3/8/8/8/2pPp3/8/8/4K3 b - d3 0 1",
    // One push away from the rank pin (c7c5, then b5xc6 is illegal).
    "8/2p5/8/KP5r/8/8/8/4k3 b - - 0 1",
    // One push away from the rank pin for Black (e2e4, then d4xe3 is illegal).
    "8/8/8/8/k2p3R/8/4P3/4K3 w - - 0 1",
    // One push away from the diagonal pin (e2e4, d4xe3 pinned by the bishop on a1).
    "8/8/5k2/8/3p4/8/4P3/B3K3 w - - 0 1",
    // One push away from the file pin (f7f5, g5xf6 pinned along the g-file).
    "rnbq1b2/p2k1pp1/Bp4r1/2pPp1Pp/P4P1P/NRP5/3P2K1/2B2QNR b - - 0 21",
    // Two capturers, one pinned along the b6-g1 diagonal: only e5xd6 is legal.
    "4k3/8/1b6/2PpP3/8/8/8/6K1 w - d6 0 1",
];

fn seed_list() -> impl Iterator<Item = &'static str> {
    EP_SEEDS.iter().chain(SEED_FENS.iter()).copied()
}

fn check_ep(pos: &ChessPosition, context: &str) {
    // SAFETY: valid pointer.
    let ep = lib_call("chess_enPassantSquare", || unsafe {
        ffi::chess_enPassantSquare(pos)
    });
    if ep < 0 {
        return;
    }
    let fen = fen_of(pos);
    let fields: Vec<&str> = fen.split(' ').collect();
    assert_eq!(fields.len(), 6, "{context}: chess_toFEN wrote {fen:?}");
    assert_ne!(
        fields[3], "-",
        "{context}: en passant square {ep} but FEN {fen:?}"
    );
    let mut no_ep = fields.clone();
    no_ep[3] = "-";
    let no_ep = no_ep.join(" ");
    let mut q = new_pos();
    let s = set_fen(&mut q, &no_ep);
    assert_eq!(
        s,
        S::CHESS_OK,
        "{context}: chess_setFromFEN refuses {no_ep:?} (from {fen:?})"
    );

    let legal = legal_set(pos);
    let ep_moves: Vec<u16> = legal
        .iter()
        .copied()
        .filter(|&m| flag(m) == FLAG_EN_PASSANT)
        .collect();
    let mut pseudo = RawList::filled(0xA5);
    // SAFETY: valid pointers.
    let st = status_call("chess_generatePseudoLegalMoves", || unsafe {
        ffi::chess_generatePseudoLegalMoves(pos, pseudo.ptr())
    });
    assert_eq!(st, S::CHESS_OK);
    let mut pseudo_ep: Vec<u16> = pseudo
        .moves()
        .into_iter()
        .filter(|&m| flag(m) == FLAG_EN_PASSANT)
        .collect();
    pseudo_ep.sort_unstable();
    assert!(
        pseudo_ep == ep_moves || ignoring("pseudo_ep"),
        "{context}: the pseudo-legal generator's en passant captures {:?} in {fen:?} are not the \
         legal ones {:?}",
        pseudo_ep
            .iter()
            .map(|&m| uci(m).unwrap_or_default())
            .collect::<Vec<_>>(),
        ep_moves
            .iter()
            .map(|&m| uci(m).unwrap_or_default())
            .collect::<Vec<_>>()
    );
    let (hp, hq) = (hashes(pos), hashes(&q));
    if ep_moves.is_empty() {
        assert!(
            hp[0] == hq[0] || ignoring("hash_ep_illegal"),
            "{context}: no legal en passant capture in {fen:?}, but its chess_hash {:#018x} differs \
             from that of {no_ep:?}, {:#018x}",
            hp[0],
            hq[0]
        );
    } else {
        assert_ne!(
            hp[0], hq[0],
            "{context}: legal en passant capture {:?} in {fen:?}, but its chess_hash equals that of {no_ep:?}",
            ep_moves.iter().map(|&m| uci(m).unwrap_or_default()).collect::<Vec<_>>()
        );
    }
    assert_eq!(
        hp[1..],
        hq[1..],
        "{context}: pawn or material hash of {fen:?} depends on the en passant field"
    );
    let without: Vec<u16> = legal
        .iter()
        .copied()
        .filter(|&m| flag(m) != FLAG_EN_PASSANT)
        .collect();
    assert_eq!(
        legal_set(&q),
        without,
        "{context}: legal moves of {no_ep:?} are not those of {fen:?} without en passant"
    );
    check_fen_round_trip(pos, context);
}

libfuzzer_sys::fuzz_target!(init: chesscore_fuzz::init(), |data: &[u8]| run(data));

fn run(data: &[u8]) {
    let mut b = Bytes::new(data);
    let n = seed_list().count();
    let seed = seed_list().nth(b.below(n)).unwrap();
    let mut pos = pos_from_fen(seed);
    set_context(format!("seed {seed:?}\n"));
    check_ep(&pos, &format!("seed {seed:?}"));

    let mut played = Vec::new();
    for _ in 0..64 {
        if b.is_empty() {
            break;
        }
        let legal = legal_moves(&pos);
        if legal.is_empty() {
            break;
        }
        let x = b.u8();
        let pushes: Vec<u16> = legal
            .iter()
            .copied()
            .filter(|&m| flag(m) == FLAG_DOUBLE_PUSH)
            .collect();
        let m = if x & 0x80 != 0 && !pushes.is_empty() {
            pushes[x as usize % pushes.len()]
        } else {
            legal[x as usize % legal.len()]
        };
        let mut u = undo_filled(0);
        // SAFETY: valid pointers.
        let s = status_call("chess_makeMove", || unsafe {
            ffi::chess_makeMove(&mut *pos, m, &mut u)
        });
        assert_eq!(s, S::CHESS_OK, "chess_makeMove of generated move {m:#06x}");
        played.push(uci(m).unwrap_or_default());
        add_context(&format!("chess_makeMove {}", played.last().unwrap()));
        check_ep(&pos, &format!("seed {seed:?} after {}", played.join(" ")));
        if flag(m) == FLAG_DOUBLE_PUSH {
            break;
        }
    }
}
