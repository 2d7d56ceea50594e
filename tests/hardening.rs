//! The C ABI against an adversarial caller (issue 9): forged undo records, corrupted
//! positions, positions equal for play hashing equal, impossible checks. Every expectation
//! here is derived from the rules (a record either belongs to the last move or it does not; a
//! call either refuses with every byte kept or succeeds), never from the library's output.

use chesscore::ffi::*;
use chesscore::position::POSITION_FIELDS_OFFSET;
use chesscore::{FenError, Position};
use std::ffi::CString;
use std::mem::size_of;

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
use ChessStatus::*;

/// A position in caller memory, driven through the C functions only.
struct CPos(Box<ChessPosition>);

impl CPos {
    fn new(fen: &str) -> CPos {
        // A garbage-filled box, as C would pass uninitialised memory.
        let mut b = Box::<ChessPosition>::new_uninit();
        // SAFETY: the buffer is valid for `size_of::<ChessPosition>()` bytes.
        unsafe {
            std::ptr::write_bytes(b.as_mut_ptr() as *mut u8, 0xA5, size_of::<ChessPosition>())
        };
        let fen_c = CString::new(fen).unwrap();
        // SAFETY: valid storage and a NUL-terminated string.
        let s = unsafe { chess_setFromFEN(b.as_mut_ptr(), fen_c.as_ptr()) };
        assert_eq!(s, CHESS_OK, "{fen}");
        // SAFETY: chess_setFromFEN wrote every byte.
        CPos(unsafe { b.assume_init() })
    }
    fn ptr(&mut self) -> *mut ChessPosition {
        &mut *self.0
    }
    fn bytes(&self) -> Vec<u8> {
        // SAFETY: every byte of the position is initialised (the library writes all of it).
        unsafe {
            std::slice::from_raw_parts(
                &*self.0 as *const ChessPosition as *const u8,
                size_of::<ChessPosition>(),
            )
        }
        .to_vec()
    }
    fn set_bytes(&mut self, bytes: &[u8]) {
        // SAFETY: `bytes` is exactly a position's size; any bytes are a valid `ChessPosition`.
        unsafe {
            std::ptr::copy_nonoverlapping(
                bytes.as_ptr(),
                self.ptr() as *mut u8,
                size_of::<ChessPosition>(),
            )
        };
    }
    fn fen(&self) -> String {
        let mut buf = [0u8; CHESS_FEN_MAX];
        // SAFETY: a valid position and a buffer of the stated size.
        let s = unsafe { chess_toFEN(&*self.0, buf.as_mut_ptr() as *mut _, buf.len()) };
        assert_eq!(s, CHESS_OK);
        let n = buf.iter().position(|&b| b == 0).unwrap();
        String::from_utf8(buf[..n].to_vec()).unwrap()
    }
    fn hash(&self) -> u64 {
        // SAFETY: a valid position.
        unsafe { chess_hash(&*self.0) }
    }
    fn mv(&self, uci: &str) -> ChessMove {
        let mut m = 0;
        let text = CString::new(uci).unwrap();
        // SAFETY: valid pointers.
        let s = unsafe { chess_moveFromUci(&*self.0, text.as_ptr(), &mut m) };
        assert_eq!(s, CHESS_OK, "{uci} in {}", self.fen());
        m
    }
    fn legal(&self) -> Vec<ChessMove> {
        let mut list = ChessMoveList::new();
        // SAFETY: valid pointers.
        assert_eq!(
            unsafe { chess_generateLegalMoves(&*self.0, &mut list) },
            CHESS_OK
        );
        list.as_slice().to_vec()
    }
    fn make(&mut self, m: ChessMove) -> Result<ChessUndo, ChessStatus> {
        let mut u = undo_filled(0x5A);
        // SAFETY: valid pointers.
        match unsafe { chess_makeMove(self.ptr(), m, &mut u) } {
            CHESS_OK => Ok(u),
            s => Err(s),
        }
    }
    fn unmake(&mut self, m: ChessMove, u: &ChessUndo) -> ChessStatus {
        // SAFETY: valid pointers.
        unsafe { chess_unmakeMove(self.ptr(), m, u) }
    }
}

fn undo_filled(byte: u8) -> ChessUndo {
    let mut u = std::mem::MaybeUninit::<ChessUndo>::uninit();
    // SAFETY: every byte written, and any bytes are a valid `ChessUndo`.
    unsafe {
        std::ptr::write_bytes(u.as_mut_ptr() as *mut u8, byte, size_of::<ChessUndo>());
        u.assume_init()
    }
}

fn undo_bytes(u: &ChessUndo) -> [u8; 48] {
    // SAFETY: a `ChessUndo` is 48 initialised bytes (the library writes all of them).
    unsafe { std::ptr::read(u as *const ChessUndo as *const [u8; 48]) }
}

fn undo_from_bytes(b: [u8; 48]) -> ChessUndo {
    // SAFETY: any 48 bytes are a valid `ChessUndo`.
    unsafe { std::ptr::read(b.as_ptr() as *const ChessUndo) }
}

/// The offsets where two records differ.
fn differing(a: &ChessUndo, b: &ChessUndo) -> Vec<usize> {
    let (a, b) = (undo_bytes(a), undo_bytes(b));
    (0..48).filter(|&i| a[i] != b[i]).collect()
}

// ---- 1. Forged records ---------------------------------------------------------------------

#[test]
fn a_record_with_another_clock_is_refused() {
    // The same move from the same placement with clock 57 gives a record whose hashes are
    // those of the real one: only the clock tells them apart, and e2e4 resets it.
    let mut pos = CPos::new(START);
    let mut other = CPos::new("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 57 1");
    let e4 = pos.mv("e2e4");
    let real = pos.make(e4).unwrap();
    let forged = other.make(e4).unwrap();
    assert!(!differing(&real, &forged).is_empty());
    let before = pos.bytes();
    assert_eq!(pos.unmake(e4, &forged), CHESS_ERR_BAD_UNDO);
    assert_eq!(pos.bytes(), before, "a refused unmake changed the position");
    assert_eq!(pos.unmake(e4, &real), CHESS_OK);
    assert_eq!(pos.fen(), START);
}

#[test]
fn a_null_move_record_naming_an_en_passant_square_is_refused() {
    // Two genuine null-move records that differ only in the en passant square (h3, not
    // capturable, so not hashed) locate the square's byte; writing h3 into the record of a
    // null move from a position without the pushed pawn must be refused.
    let mut with_ep = CPos::new("rnbqkbnr/pppppppp/8/8/7P/8/PPPPPPP1/RNBQKBNR b KQkq h3 0 1");
    let mut without_ep = CPos::new("rnbqkbnr/pppppppp/8/8/7P/8/PPPPPPP1/RNBQKBNR b KQkq - 0 1");
    let mut u1 = undo_filled(0);
    let mut u2 = undo_filled(0);
    // SAFETY: valid pointers.
    unsafe {
        assert_eq!(chess_makeNullMove(with_ep.ptr(), &mut u1), CHESS_OK);
        assert_eq!(chess_makeNullMove(without_ep.ptr(), &mut u2), CHESS_OK);
    }
    let ep_bytes = differing(&u1, &u2);
    assert_eq!(ep_bytes.len(), 1, "only the en passant byte differs");
    let mut pos = CPos::new("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1");
    let mut real = undo_filled(0);
    // SAFETY: valid pointers.
    assert_eq!(
        unsafe { chess_makeNullMove(pos.ptr(), &mut real) },
        CHESS_OK
    );
    let mut b = undo_bytes(&real);
    b[ep_bytes[0]] = undo_bytes(&u1)[ep_bytes[0]];
    let forged = undo_from_bytes(b);
    let before = pos.bytes();
    // SAFETY: valid pointers.
    assert_eq!(
        unsafe { chess_unmakeNullMove(pos.ptr(), &forged) },
        CHESS_ERR_BAD_UNDO
    );
    assert_eq!(pos.bytes(), before);
    // SAFETY: valid pointers.
    assert_eq!(unsafe { chess_unmakeNullMove(pos.ptr(), &real) }, CHESS_OK);
    assert_eq!(
        pos.fen(),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1"
    );
}

/// Plays `plies` moves chosen by a fixed generator from `fen` and returns the position with
/// the moves and their records, and the FEN before each move.
fn play(fen: &str, plies: usize, seed: u64) -> (CPos, Vec<(ChessMove, ChessUndo, String, u64)>) {
    let mut pos = CPos::new(fen);
    let mut rng = seed;
    let mut line = Vec::new();
    for _ in 0..plies {
        let moves = pos.legal();
        if moves.is_empty() {
            break;
        }
        rng = rng
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let m = moves[(rng >> 33) as usize % moves.len()];
        let (fen, hash) = (pos.fen(), pos.hash());
        let u = pos.make(m).unwrap();
        line.push((m, u, fen, hash));
    }
    (pos, line)
}

#[test]
fn every_single_byte_forgery_is_refused_or_harmless() {
    // For every move of several games, and every byte of its record set to several other
    // values: the checked unmake either refuses, leaving every byte of the position, or
    // gives back exactly the position before the move (the byte did not matter).
    let mut checked = 0;
    let mut accepted_changes = 0;
    let mut accepted_at = std::collections::BTreeSet::new();
    for (i, fen) in [START, KIWIPETE, "r3k2r/8/8/8/3pPp2/8/8/R3K1R1 b Qkq e3 0 1"]
        .iter()
        .enumerate()
    {
        let (mut pos, mut line) = play(fen, 24, 7 + i as u64);
        while let Some((m, real, fen_before, hash_before)) = line.pop() {
            let real_bytes = undo_bytes(&real);
            for at in 0..48 {
                for v in [
                    real_bytes[at] ^ 1,
                    real_bytes[at] ^ 0x80,
                    0,
                    0xFF,
                    real_bytes[at] ^ 0x10,
                ] {
                    if v == real_bytes[at] {
                        continue;
                    }
                    let mut b = real_bytes;
                    b[at] = v;
                    let forged = undo_from_bytes(b);
                    let before = pos.bytes();
                    checked += 1;
                    match pos.unmake(m, &forged) {
                        CHESS_ERR_BAD_UNDO => assert_eq!(pos.bytes(), before),
                        CHESS_OK => {
                            accepted_changes += 1;
                            accepted_at.insert(at);
                            assert_eq!(pos.fen(), fen_before, "byte {at} = {v:#x}");
                            assert_eq!(pos.hash(), hash_before, "byte {at} = {v:#x}");
                            // Back to where we were, with the real record this time.
                            let redo = pos.make(m).unwrap();
                            assert_eq!(undo_bytes(&redo)[..], real_bytes[..]);
                        }
                        s => panic!("unexpected {s:?}"),
                    }
                }
            }
            // Another move with the real record is refused too.
            for other in pos.legal().into_iter().take(3) {
                let before = pos.bytes();
                assert_eq!(pos.unmake(other, &real), CHESS_ERR_BAD_UNDO);
                assert_eq!(pos.bytes(), before);
            }
            assert_eq!(pos.unmake(m, &real), CHESS_OK);
            assert_eq!(pos.fen(), fen_before);
        }
    }
    // Only bytes that carry nothing may differ and be accepted: the tail of the record after
    // the position's state (the captured piece's unused bits and the padding). The state
    // takes the first 32 bytes in a release build and 40 in a debug one, which keeps a second
    // hash: no accepted forgery may touch the first 32 in either build.
    assert!(checked > 10_000, "{checked}");
    assert!(
        accepted_at.iter().all(|&at| at >= 32),
        "forged state bytes accepted at {accepted_at:?}"
    );
    // The share of accepted forgeries, for the debug layout (about 12%). A release record
    // has 8 more bytes of padding (about 28% accepted), which the check above covers.
    if cfg!(debug_assertions) {
        assert!(
            accepted_changes * 4 < checked,
            "{accepted_changes} of {checked} accepted"
        );
    }
}

#[test]
fn records_of_moves_made_unchecked_are_accepted_up_to_the_capacity() {
    let mut pos = CPos::new(START);
    let shuffle = ["g1f3", "g8f6", "f3g1", "f6g8"];
    let mut line = Vec::new();
    let status = loop {
        let m = pos.mv(shuffle[line.len() % 4]);
        let mut u = undo_filled(0);
        let before = pos.bytes();
        // SAFETY: valid pointers.
        match unsafe { chess_makeMoveUnchecked(pos.ptr(), m, &mut u) } {
            CHESS_OK => line.push((m, u)),
            s => {
                assert_eq!(pos.bytes(), before);
                break s;
            }
        }
    };
    assert_eq!((line.len(), status), (1024, CHESS_ERR_HISTORY_FULL));
    while let Some((m, u)) = line.pop() {
        assert_eq!(pos.unmake(m, &u), CHESS_OK, "move {}", line.len());
    }
    assert_eq!(pos.fen(), START);
}

// ---- 2. Corrupted positions ------------------------------------------------------------------

/// The statuses a make may end with on any bytes: success or an ordinary refusal.
fn make_outcome(s: ChessStatus) -> bool {
    matches!(
        s,
        CHESS_OK | CHESS_ERR_INVALID_POSITION | CHESS_ERR_ILLEGAL_MOVE | CHESS_ERR_HISTORY_FULL
    )
}

/// Runs every call that takes a position on `bytes` (a position with one byte changed);
/// `m` is a legal move of the uncorrupted position and `record` its record, made there.
fn corrupted_calls(bytes: &[u8], m: ChessMove, record: &ChessUndo, label: &str) {
    let mut pos = CPos::new(START);
    let ok_or_invalid = |s: ChessStatus, what: &str| {
        assert!(
            matches!(s, CHESS_OK | CHESS_ERR_INVALID_POSITION),
            "{label}: {what} returned {s:?}"
        );
    };
    macro_rules! refused_keeps_bytes {
        ($what:expr, $call:expr) => {{
            pos.set_bytes(bytes);
            let s = $call;
            if s != CHESS_OK {
                assert_eq!(
                    pos.bytes(),
                    bytes,
                    "{label}: refused {} changed the position",
                    $what
                );
            }
            s
        }};
    }
    let mut n = 0u64;
    let mut list = ChessMoveList::new();
    let mut u = undo_filled(0x33);
    // SAFETY (all calls below): valid pointers to a position (with arbitrary bytes: the
    // library must cope), an undo record, a list and counters.
    unsafe {
        let s = refused_keeps_bytes!("perft", chess_perft(pos.ptr(), 2, &mut n));
        ok_or_invalid(s, "chess_perft");
        let s = refused_keeps_bytes!("perftFull", chess_perftFull(pos.ptr(), 2, &mut n));
        ok_or_invalid(s, "chess_perftFull");
        let mut counts = [0u64; 256];
        let s = refused_keeps_bytes!(
            "perftDivide",
            chess_perftDivide(pos.ptr(), 2, &mut list, counts.as_mut_ptr(), 256, &mut n)
        );
        ok_or_invalid(s, "chess_perftDivide");
        let s = refused_keeps_bytes!(
            "perftParallel",
            chess_perftParallel(pos.ptr(), 2, 1, false, &mut n)
        );
        ok_or_invalid(s, "chess_perftParallel");
        let s = refused_keeps_bytes!("generate", chess_generateLegalMoves(pos.ptr(), &mut list));
        ok_or_invalid(s, "chess_generateLegalMoves");
        let s = refused_keeps_bytes!("null move", chess_makeNullMove(pos.ptr(), &mut u));
        assert!(make_outcome(s), "{label}: null move {s:?}");
        // A checked make that succeeds can be taken back with its own record (the position
        // was then valid, so its FEN and hash are meaningful).
        pos.set_bytes(bytes);
        let valid = chess_validatePosition(pos.ptr()) == CHESS_OK;
        let before = valid.then(|| (pos.fen(), pos.hash()));
        let s = refused_keeps_bytes!("make", chess_makeMove(pos.ptr(), m, &mut u));
        assert!(make_outcome(s), "{label}: make {s:?}");
        if s == CHESS_OK {
            assert_eq!(
                chess_unmakeMove(pos.ptr(), m, &u),
                CHESS_OK,
                "{label}: own record refused"
            );
            assert_eq!(
                Some((pos.fen(), pos.hash())),
                before,
                "{label}: make + unmake changed it"
            );
        }
        // The unmake of the move made before the corruption.
        let s = refused_keeps_bytes!("unmake", chess_unmakeMove(pos.ptr(), m, record));
        assert!(
            matches!(
                s,
                CHESS_OK | CHESS_ERR_INVALID_POSITION | CHESS_ERR_BAD_UNDO
            ),
            "{label}: unmake {s:?}"
        );
        // Read-only calls and getters: any answer, but no internal error and no change.
        let mut buf = [0u8; 256];
        for s in [
            chess_toFEN(pos.ptr(), buf.as_mut_ptr() as *mut _, buf.len()),
            chess_positionToText(pos.ptr(), buf.as_mut_ptr() as *mut _, buf.len()),
            chess_generatePseudoLegalMoves(pos.ptr(), &mut list),
            chess_gameStatus(pos.ptr(), &mut *Box::new(ChessGameStatus::CHESS_ONGOING)),
        ] {
            assert_ne!(s, CHESS_ERR_INTERNAL, "{label}");
        }
        chess_isLegalMove(pos.ptr(), m);
        chess_isInCheck(pos.ptr());
        chess_isRepetition(pos.ptr(), 100);
        chess_hash(pos.ptr());
        chess_checkers(pos.ptr());
        chess_fullmoveNumber(pos.ptr());
        assert_eq!(
            pos.bytes(),
            bytes,
            "{label}: a read-only call changed the position"
        );
    }
}

#[test]
fn every_single_byte_corruption_is_refused_or_harmless() {
    // Every byte of the position's fields (all but the history array, whose entries only feed
    // repetition and the proof of records), a spread of history bytes and of the unused tail,
    // each set to several values.
    let mut base = CPos::new(KIWIPETE);
    let m0 = base.mv("e2a6");
    let record = base.make(m0).unwrap();
    let m = base.mv("b4c3");
    let bytes = base.bytes();
    let fields = POSITION_FIELDS_OFFSET..size_of::<Position>();
    let offsets = fields
        .chain((0..POSITION_FIELDS_OFFSET).step_by(97))
        .chain((size_of::<Position>()..size_of::<ChessPosition>()).step_by(31));
    let mut runs = 0;
    for at in offsets {
        for v in [bytes[at] ^ 1, bytes[at] ^ 0x40, bytes[at] ^ 0x80, 0, 0xFF] {
            if v == bytes[at] {
                continue;
            }
            let mut b = bytes.clone();
            b[at] = v;
            corrupted_calls(&b, m, &record, &format!("byte {at} = {v:#x}"));
            runs += 1;
        }
    }
    assert!(runs > 1000, "{runs}");
    // Wholesale garbage and zeros.
    for fill in [0u8, 0xFF, 0xA5] {
        corrupted_calls(
            &vec![fill; size_of::<ChessPosition>()],
            m,
            &record,
            &format!("fill {fill:#x}"),
        );
    }
}

#[test]
fn every_value_of_every_field_byte_keeps_make_and_unmake_consistent() {
    // The cases (a castling rook square past the board, flipped bytes that the checked
    // make accepted and whose own record the checked unmake then refused) are single bytes of
    // the fields: every value of every field byte, for the checked make of a castle (it reads
    // the rook squares) and the unmake of its own record.
    let mut base = CPos::new(KIWIPETE);
    let m = base.mv("e1g1");
    let bytes = base.bytes();
    for at in POSITION_FIELDS_OFFSET..size_of::<Position>() {
        for v in 0..=255u8 {
            let mut b = bytes.clone();
            b[at] = v;
            base.set_bytes(&b);
            let mut u = undo_filled(0);
            // SAFETY: valid pointers.
            let s = unsafe { chess_makeMove(base.ptr(), m, &mut u) };
            match s {
                CHESS_OK => {
                    // SAFETY: valid pointers.
                    let back = unsafe { chess_unmakeMove(base.ptr(), m, &u) };
                    assert_eq!(back, CHESS_OK, "byte {at} = {v:#x}: own record refused");
                }
                CHESS_ERR_INVALID_POSITION | CHESS_ERR_ILLEGAL_MOVE | CHESS_ERR_HISTORY_FULL => {
                    assert_eq!(base.bytes(), b, "byte {at} = {v:#x}")
                }
                s => panic!("byte {at} = {v:#x}: {s:?}"),
            }
        }
    }
}

// ---- 3. Equal positions hash equal -------------------------------------------------------------

#[test]
fn an_en_passant_square_no_legal_capture_can_use_is_not_hashed() {
    // The only pawn that could take on f6 (g5) is pinned to its king on g2 by the rook on
    // g6, so the two FENs are the same position.
    let with = CPos::new("rnbq1b2/p2k2p1/Bp4r1/2pPppPp/P4P1P/NRP5/3P2K1/2B2QNR w - f6 0 22");
    let without = CPos::new("rnbq1b2/p2k2p1/Bp4r1/2pPppPp/P4P1P/NRP5/3P2K1/2B2QNR w - - 0 22");
    assert!(
        with.legal().iter().all(|m| m >> 12 != 5),
        "no legal en passant capture here"
    );
    assert_eq!(with.hash(), without.hash());
    // A capturable square is hashed.
    let e3 = CPos::new("rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 3");
    let e3_none = CPos::new("rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 3");
    assert!(e3.legal().iter().any(|m| m >> 12 == 5));
    assert_ne!(e3.hash(), e3_none.hash());
}

#[test]
fn threefold_repetition_is_seen_on_the_ply_it_happens() {
    // From the issue: after f7f5 the square f6 is written but no legal capture exists, so the
    // position after f7f5 is the one after each c6b8: the third occurrence is the last ply.
    let mut pos = CPos::new("rnbq1b2/p2k1pp1/Bp4r1/2pPp1Pp/P4P1P/NRP5/3P2K1/2B2QNR b - - 0 21");
    let line = [
        "f7f5", "g1h3", "b8c6", "h3g1", "c6b8", "g1h3", "b8c6", "h3g1", "c6b8",
    ];
    for (i, uci) in line.iter().enumerate() {
        let m = pos.mv(uci);
        pos.make(m).unwrap();
        let mut status = ChessGameStatus::CHESS_ONGOING;
        // SAFETY: valid pointers.
        assert_eq!(
            unsafe { chess_gameStatus(pos.ptr(), &mut status) },
            CHESS_OK
        );
        // SAFETY: valid pointer.
        let repetition = unsafe { chess_isRepetition(pos.ptr(), i32::MAX) };
        let last = i == line.len() - 1;
        assert_eq!(repetition, last, "ply {}", i + 1);
        assert_eq!(
            status == ChessGameStatus::CHESS_THREEFOLD_REPETITION,
            last,
            "ply {}",
            i + 1
        );
    }
}

// ---- 5. Impossible checks ------------------------------------------------------------------------

#[test]
fn impossible_checks_are_refused() {
    for fen in [
        // Three checkers (the case).
        "4k3/8/3N1N2/8/8/8/8/4RK2 b - - 0 1",
        // Two knights: neither can have been uncovered.
        "4k3/8/3N1N2/8/8/8/8/5K2 b - - 0 1",
        // A knight and a pawn.
        "4k3/3P4/5N2/8/8/8/8/5K2 b - - 0 1",
        // Two rooks on one file, on both sides of the king.
        "4R3/8/8/8/4k3/8/8/4R1K1 b - - 0 1",
        // Two bishops on one diagonal through the king (the suite position moved to
        // testdata/impossible-check.epd).
        "B6b/8/8/8/2K5/5k2/8/b6B b - - 0 1",
        // After d2d4: the rook on d1's check along the first rank was there before the push.
        "8/8/8/8/3P4/8/8/k2RK3 b - d3 0 1",
        // After f7f5: the pawn checks, and so does the bishop, which did before the push.
        "bk6/8/8/5pP1/4K1P1/8/8/8 w - f6 6 1",
    ] {
        assert_eq!(
            Position::from_fen(fen).err(),
            Some(FenError::ImpossibleCheck),
            "{fen}"
        );
        let text = CString::new(fen).unwrap();
        let mut pos = CPos::new(START);
        let before = pos.bytes();
        // SAFETY: valid pointers.
        let s = unsafe { chess_setFromFEN(pos.ptr(), text.as_ptr()) };
        assert_eq!(s, CHESS_ERR_FEN_IMPOSSIBLE_CHECK, "{fen}");
        assert_eq!(pos.bytes(), before);
    }
    // Checks one move can give are accepted.
    for fen in [
        // Knight check uncovering the rook on the e-file.
        "4k3/8/3N4/8/8/8/8/4RK2 b - - 0 1",
        // Rook and bishop after a discovered check.
        "4k3/8/8/1B6/8/8/8/4R1K1 b - - 0 1",
        // The pushed pawn gives the check.
        "8/8/8/4k3/3P4/8/8/4K3 b - d3 0 1",
        // The push uncovers the bishop on c1.
        "8/8/7k/8/3P4/8/8/2B1K3 b - d3 0 1",
    ] {
        assert!(
            Position::from_fen(fen).is_ok(),
            "{fen}: {:?}",
            Position::from_fen(fen)
        );
    }
}

#[test]
fn unchecked_twins_take_back_a_pseudo_legal_move_that_leaves_the_king_attacked() {
    // The knight on e7 is pinned by the rook on e1: its moves are pseudo-legal but illegal.
    // Make, test, unmake: the pattern the unchecked twins are for (in debug builds of the
    // library too, where the unmake once refused the attacked king as an invalid position).
    let mut pos = CPos::new("4k3/4n3/8/8/8/8/8/4RK2 b - - 0 1");
    let mut list = ChessMoveList::new();
    // SAFETY: valid pointers.
    assert_eq!(
        unsafe { chess_generatePseudoLegalMoves(pos.ptr(), &mut list) },
        CHESS_OK
    );
    let legal = pos.legal();
    let knight_moves: Vec<ChessMove> = list
        .as_slice()
        .iter()
        .copied()
        .filter(|m| m & 63 == 52)
        .collect();
    assert_eq!(knight_moves.len(), 6);
    for m in knight_moves {
        assert!(!legal.contains(&m));
        let before = pos.bytes();
        let mut u = undo_filled(0);
        // SAFETY: valid pointers.
        unsafe {
            assert_eq!(chess_makeMoveUnchecked(pos.ptr(), m, &mut u), CHESS_OK);
            // The rook on e1 now attacks the black king on e8.
            assert_eq!((chess_attackersTo(pos.ptr(), 60) >> 4) & 1, 1);
            assert_eq!(chess_unmakeMoveUnchecked(pos.ptr(), m, &u), CHESS_OK);
        }
        assert_eq!(pos.fen(), "4k3/4n3/8/8/8/8/8/4RK2 b - - 0 1");
        assert_eq!(
            &pos.bytes()[POSITION_FIELDS_OFFSET..],
            &before[POSITION_FIELDS_OFFSET..]
        );
    }
}
