//! Drives the C ABI the way a Rust FFI caller does: positions, undo records and move lists in
//! `MaybeUninit` storage handed to the library by pointer, then taken out and copied *by value*
//! (`assume_init`, `ptr::read`, moves into a `Vec`) and the copies reused; make/unmake, null
//! moves, FEN into buffers, small perfts, every NULL argument and every too-small buffer.
//!
//! Under plain `cargo test` it is one more quick test. Its purpose is Miri (`scripts/miri` runs
//! `cargo +nightly miri test --test ffi_driver`, in the debug and the release layout): Miri
//! checks every access the library makes, every typed copy here, and every byte of each
//! position and record the library writes (each copy is compared with its original byte for
//! byte, which reads them all). A `ChessPosition` or `ChessUndo` is plain data that C copies
//! with `memcpy` and may compare with `memcmp`, so a Rust caller may copy and compare it too:
//! every byte must be initialised, padding and unused tail included.
//!
//! Loop counts and perft depths shrink under Miri (`cfg!(miri)`), which runs ~1000x slower.

use chesscore::ffi::ChessGameStatus::*;
use chesscore::ffi::ChessStatus::*;
use chesscore::ffi::*;
use core::ffi::{c_char, CStr};
use core::mem::{size_of, MaybeUninit};
use core::ptr;

const START: &CStr = c"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const KIWIPETE: &CStr = c"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
/// Black just played f7f5; White's e5 pawn can take en passant.
const EN_PASSANT: &CStr = c"rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3";
/// Promotions (quiet and capturing) for both sides.
const PROMOTION: &CStr = c"1n5k/P7/8/8/8/8/6Kp/8 w - - 0 1";
const FOOLS_MATE: &CStr = c"rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3";
const STALEMATE: &CStr = c"7k/5Q2/6K1/8/8/8/8/8 b - - 0 1";
const FIFTY_MOVES: &CStr = c"4k3/8/8/8/8/8/4P3/4K3 w - - 100 80";
const BARE_KINGS_AND_KNIGHT: &CStr = c"4k3/8/8/8/8/8/8/4KN2 w - - 0 1";

const FENS: [&CStr; 8] = [
    START,
    KIWIPETE,
    EN_PASSANT,
    PROMOTION,
    FOOLS_MATE,
    STALEMATE,
    FIFTY_MOVES,
    BARE_KINGS_AND_KNIGHT,
];

/// Plies of the random games, and how many games.
const PLIES: usize = if cfg!(miri) { 6 } else { 80 };
const GAMES: u64 = if cfg!(miri) { 1 } else { 8 };
/// Every square, or under Miri (where each getter call runs the debug build's full position
/// check) every 21st: a1, f3, c6, h8.
const SQUARE_STEP: usize = if cfg!(miri) { 21 } else { 1 };
/// Every pseudo-legal move is checked with `chess_isLegalMove`, or under Miri every fourth.
const MOVE_STEP: usize = if cfg!(miri) { 4 } else { 1 };

// ---- Helpers: exactly what a Rust caller of the C ABI writes ------------------------------

/// Sets a position from FEN into fresh uninitialised storage and takes it out by value, as a
/// caller does once the library has reported success.
fn position(fen: &CStr) -> ChessPosition {
    let mut slot = MaybeUninit::<ChessPosition>::uninit();
    // SAFETY: valid pointers; the slot may be uninitialised (documented).
    let status = unsafe { chess_setFromFEN(slot.as_mut_ptr(), fen.as_ptr()) };
    assert_eq!(status, CHESS_OK, "{fen:?}");
    // SAFETY: CHESS_OK: the library initialised the position.
    let pos = unsafe { slot.assume_init() };
    assert_initialised(&pos);
    pos
}

/// Reads every byte of `v` (under Miri: reports any the library left uninitialised).
fn assert_initialised<T>(v: &T) {
    let folded = bytes_of(v).iter().fold(0u8, |a, &b| a.rotate_left(1) ^ b);
    std::hint::black_box(folded);
}

/// A by-value copy of a position (C: `ChessPosition copy = *pos;` or `memcpy`), checked to be
/// byte-identical to the original: comparing the bytes reads every one of them, so under Miri
/// any byte the library left uninitialised (padding, unused tail) is reported here.
fn copy_position(pos: &ChessPosition) -> ChessPosition {
    // SAFETY: `pos` is a valid reference; `ChessPosition` is plain data.
    let copy = unsafe { ptr::read(pos) };
    assert!(
        bytes_of(&copy) == bytes_of(pos),
        "a copy differs from its original"
    );
    copy
}

/// A by-value copy of an undo record (C: `ChessUndo copy = *undo;`), checked as above.
fn copy_undo(undo: &ChessUndo) -> ChessUndo {
    // SAFETY: `undo` is a valid reference; `ChessUndo` is plain data.
    let copy = unsafe { ptr::read(undo) };
    assert!(
        bytes_of(&copy) == bytes_of(undo),
        "a copy differs from its original"
    );
    copy
}

/// The FEN of `pos`, written by the library into an uninitialised buffer.
fn fen(pos: *const ChessPosition) -> String {
    let mut buf = MaybeUninit::<[c_char; CHESS_FEN_MAX]>::uninit();
    // SAFETY: the buffer is valid for CHESS_FEN_MAX bytes.
    let status = unsafe { chess_toFEN(pos, buf.as_mut_ptr().cast(), CHESS_FEN_MAX) };
    assert_eq!(status, CHESS_OK);
    // SAFETY: on success the text and its NUL were written at the start of the buffer; CStr
    // reads no further than the NUL.
    let text = unsafe { CStr::from_ptr(buf.as_ptr().cast()) };
    text.to_str().unwrap().to_owned()
}

/// Takes a list the library filled out of its storage by value and reads `moves[..count]`
/// (the entries past `count` may be uninitialised: only the first `count` are promised).
fn read_list(list: MaybeUninit<ChessMoveList>) -> Vec<ChessMove> {
    // SAFETY: the library wrote `count` (the entries are `MaybeUninit`).
    let list = unsafe { list.assume_init() };
    assert!(list.len() <= 256);
    list.as_slice().to_vec()
}

fn generate(pos: *const ChessPosition, legal: bool, class: u32, types: u8) -> Vec<ChessMove> {
    let mut list = MaybeUninit::<ChessMoveList>::uninit();
    // SAFETY: valid pointers; the list may be uninitialised.
    let status = unsafe { chess_generateMoves(pos, legal, class, types, list.as_mut_ptr()) };
    assert_eq!(status, CHESS_OK);
    read_list(list)
}

fn legal_moves(pos: *const ChessPosition) -> Vec<ChessMove> {
    let mut list = MaybeUninit::<ChessMoveList>::uninit();
    // SAFETY: valid pointers; the list may be uninitialised.
    let status = unsafe { chess_generateLegalMoves(pos, list.as_mut_ptr()) };
    assert_eq!(status, CHESS_OK);
    read_list(list)
}

/// Makes `m` with the checked call into an uninitialised record and takes the record out by
/// value.
fn make(pos: &mut ChessPosition, m: ChessMove) -> ChessUndo {
    let mut undo = MaybeUninit::<ChessUndo>::uninit();
    // SAFETY: valid pointers; the record may be uninitialised.
    let status = unsafe { chess_makeMove(pos, m, undo.as_mut_ptr()) };
    assert_eq!(status, CHESS_OK, "make {m:#06x} in {}", fen(pos));
    // SAFETY: CHESS_OK: the record was filled.
    let undo = unsafe { undo.assume_init() };
    assert_initialised(&undo);
    undo
}

fn unmake(pos: &mut ChessPosition, m: ChessMove, undo: &ChessUndo) {
    // SAFETY: valid pointers.
    let status = unsafe { chess_unmakeMove(pos, m, undo) };
    assert_eq!(status, CHESS_OK, "unmake {m:#06x} in {}", fen(pos));
}

fn uci(m: ChessMove) -> String {
    let mut buf = [0u8; 6];
    // SAFETY: 6 valid bytes.
    let status = unsafe { chess_moveToUci(m, buf.as_mut_ptr().cast(), buf.len()) };
    assert_eq!(status, CHESS_OK);
    CStr::from_bytes_until_nul(&buf)
        .unwrap()
        .to_str()
        .unwrap()
        .to_owned()
}

fn from_uci(pos: &ChessPosition, text: &CStr) -> ChessMove {
    let mut m = MaybeUninit::<ChessMove>::uninit();
    // SAFETY: valid pointers.
    let status = unsafe { chess_moveFromUci(pos, text.as_ptr(), m.as_mut_ptr()) };
    assert_eq!(status, CHESS_OK, "{text:?}");
    // SAFETY: written on success.
    unsafe { m.assume_init() }
}

/// The bytes of a value: of storage this test filled itself, or of a position or record the
/// library wrote, every byte of which it promises to initialise. Under Miri an uninitialised
/// byte is reported here (with `-Zmiri-recursive-validation`, at the `&[u8]`) or where the
/// bytes are compared or folded.
fn bytes_of<T>(v: &T) -> Vec<u8> {
    // SAFETY: `v` is valid for reads of size_of::<T>() bytes, every one of them initialised
    // (the library's promise, which this test checks), and the slice is copied out before
    // `v`'s borrow ends.
    unsafe { core::slice::from_raw_parts((v as *const T).cast::<u8>(), size_of::<T>()) }.to_vec()
}

/// Storage of `T` with every byte set to `byte`: lets a test see that an error wrote nothing.
fn filled<T>(byte: u8) -> MaybeUninit<T> {
    let mut v = MaybeUninit::<T>::uninit();
    // SAFETY: writes size_of::<T>() bytes into the storage.
    unsafe { ptr::write_bytes(v.as_mut_ptr().cast::<u8>(), byte, size_of::<T>()) };
    v
}

fn storage_bytes<T>(v: &MaybeUninit<T>) -> Vec<u8> {
    // SAFETY: only called on storage from `filled` (every byte written), possibly overwritten
    // since by the library.
    unsafe { core::slice::from_raw_parts(v.as_ptr().cast::<u8>(), size_of::<T>()) }.to_vec()
}

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }
}

fn message(status: i32) -> String {
    let p = chess_statusMessage(status);
    assert!(!p.is_null());
    // SAFETY: a static NUL-terminated string.
    unsafe { CStr::from_ptr(p) }.to_str().unwrap().to_owned()
}

// ---- Tests ---------------------------------------------------------------------------------

#[test]
fn fen_round_trip_and_getters() {
    for f in FENS {
        let pos = position(f);
        assert_eq!(fen(&pos), f.to_str().unwrap());
        // A by-value copy answers every question the same way.
        let copy = copy_position(&pos);
        assert_eq!(fen(&copy), f.to_str().unwrap());
        // SAFETY (whole block): valid pointers to initialised positions.
        unsafe {
            assert_eq!(chess_hash(&pos), chess_hash(&copy));
            assert_ne!(chess_hash(&pos), 0);
            assert_eq!(chess_pawnHash(&pos), chess_pawnHash(&copy));
            assert_eq!(chess_materialHash(&pos), chess_materialHash(&copy));
            assert_eq!(chess_sideToMove(&pos), chess_sideToMove(&copy));
            assert_eq!(chess_castlingRights(&pos), chess_castlingRights(&copy));
            assert_eq!(chess_enPassantSquare(&pos), chess_enPassantSquare(&copy));
            assert_eq!(chess_halfmoveClock(&pos), chess_halfmoveClock(&copy));
            assert_eq!(chess_fullmoveNumber(&pos), chess_fullmoveNumber(&copy));
            assert_eq!(chess_isInCheck(&pos), chess_isInCheck(&copy));
            assert_eq!(chess_checkers(&pos), chess_checkers(&copy));
            assert!(!chess_isRepetition(&pos, 100));
            let mut occupied = 0u64;
            for sq in (0..64).step_by(SQUARE_STEP) {
                let piece = chess_pieceOn(&pos, sq);
                assert_eq!(piece, chess_pieceOn(&copy, sq));
                if piece != 0 {
                    occupied |= 1 << sq;
                    let (color, kind) = ((piece >> 3) as u32, (piece & 7) as u32);
                    assert_ne!(chess_pieces(&pos, color, kind) & (1 << sq), 0);
                }
                assert_eq!(chess_attackersTo(&pos, sq), chess_attackersTo(&copy, sq));
            }
            let all = chess_pieces(&pos, 0, 0) | chess_pieces(&pos, 1, 0);
            let checked = (0..64).step_by(SQUARE_STEP).fold(0u64, |b, sq| b | 1 << sq);
            assert_eq!(occupied, all & checked);
            assert_eq!(chess_pieceOn(&pos, 64), 0);
            assert_eq!(chess_pieces(&pos, 2, 1), 0);
            assert_eq!(chess_pieces(&pos, 0, 7), 0);
            assert_eq!(chess_attackersTo(&pos, 64), 0);

            let mut text = MaybeUninit::<[u8; CHESS_POSITION_TEXT_SIZE]>::uninit();
            let status =
                chess_positionToText(&copy, text.as_mut_ptr().cast(), CHESS_POSITION_TEXT_SIZE);
            assert_eq!(status, CHESS_OK);
            let text = CStr::from_ptr(text.as_ptr().cast()).to_str().unwrap();
            assert_eq!(text.len() + 1, CHESS_POSITION_TEXT_SIZE);
            assert!(text.ends_with("  a b c d e f g h\n"), "{text}");
        }
    }

    // Specific values.
    let start = position(START);
    // SAFETY (whole block): valid pointers to initialised positions.
    unsafe {
        assert_eq!(chess_sideToMove(&start), 0);
        assert_eq!(chess_castlingRights(&start), 15);
        assert_eq!(chess_enPassantSquare(&start), -1);
        assert_eq!(chess_fullmoveNumber(&start), 1);
        assert_eq!(chess_pieceOn(&start, 4), 6); // e1: white king
        assert_eq!(chess_pieceOn(&start, 60), 8 | 6); // e8: black king
        assert_eq!(chess_pieces(&start, 0, 1), 0xFF00);
        assert_eq!(chess_pieces(&start, 1, 6), 1 << 60);
        let ep = position(EN_PASSANT);
        assert_eq!(chess_enPassantSquare(&ep), 45); // f6
        let mated = position(FOOLS_MATE);
        assert!(chess_isInCheck(&mated));
        assert_eq!(chess_checkers(&mated), 1 << 31); // h4
        let mut s = MaybeUninit::<ChessGameStatus>::uninit();
        for (f, want) in [
            (START, CHESS_ONGOING),
            (FOOLS_MATE, CHESS_CHECKMATE),
            (STALEMATE, CHESS_STALEMATE),
            (FIFTY_MOVES, CHESS_FIFTY_MOVE_RULE),
            (BARE_KINGS_AND_KNIGHT, CHESS_INSUFFICIENT_MATERIAL),
        ] {
            let p = position(f);
            assert_eq!(chess_gameStatus(&p, s.as_mut_ptr()), CHESS_OK);
            assert_eq!(s.assume_init(), want, "{f:?}");
        }
    }

    // The setup calls write into storage that already holds a position, too.
    let mut reused = copy_position(&start);
    // SAFETY: valid pointers.
    unsafe {
        assert_eq!(chess_setFromFEN(&mut reused, KIWIPETE.as_ptr()), CHESS_OK);
        assert_eq!(fen(&reused), KIWIPETE.to_str().unwrap());
        assert_eq!(chess_setStartPosition(&mut reused), CHESS_OK);
        assert_eq!(fen(&reused), START.to_str().unwrap());
    }
    let mut slot = MaybeUninit::<ChessPosition>::uninit();
    // SAFETY: valid pointer to uninitialised storage (allowed).
    assert_eq!(
        unsafe { chess_setStartPosition(slot.as_mut_ptr()) },
        CHESS_OK
    );
    // SAFETY: initialised by the call.
    let from_start = unsafe { slot.assume_init() };
    assert_eq!(fen(&from_start), START.to_str().unwrap());

    // A heap copy behaves like the stack original.
    let boxed = Box::new(copy_position(&from_start));
    // SAFETY: valid pointers.
    unsafe { assert_eq!(chess_hash(&*boxed), chess_hash(&start)) };
}

#[test]
fn generation_into_uninitialised_lists() {
    for (f, want) in [
        (START, 20usize),
        (KIWIPETE, 48),
        (EN_PASSANT, 31),
        (FOOLS_MATE, 0),
        (STALEMATE, 0),
    ] {
        let pos = position(f);
        let copy = copy_position(&pos);
        let legal = legal_moves(&pos);
        assert_eq!(legal.len(), want, "{f:?}");
        assert_eq!(legal_moves(&copy), legal);
        let mut pseudo = MaybeUninit::<ChessMoveList>::uninit();
        // SAFETY: valid pointers.
        let status = unsafe { chess_generatePseudoLegalMoves(&copy, pseudo.as_mut_ptr()) };
        assert_eq!(status, CHESS_OK);
        let pseudo = read_list(pseudo);
        assert!(pseudo.len() >= legal.len());
        for &m in pseudo.iter().step_by(MOVE_STEP) {
            // SAFETY: valid pointer.
            let is_legal = unsafe { chess_isLegalMove(&pos, m) };
            assert_eq!(is_legal, legal.contains(&m), "{}", uci(m));
        }
        // Captures and quiets partition the moves; each piece type's moves are its own.
        let captures = generate(&pos, true, CHESS_GEN_CAPTURES, CHESS_ALL_PIECE_TYPES);
        let quiets = generate(&pos, true, CHESS_GEN_QUIETS, CHESS_ALL_PIECE_TYPES);
        assert_eq!(captures.len() + quiets.len(), legal.len());
        assert!(captures.iter().all(|m| m & 0x4000 != 0));
        assert!(quiets.iter().all(|m| m & 0x4000 == 0));
        let by_type: usize = (1..=6)
            .map(|t| generate(&copy, true, CHESS_GEN_ALL, 1 << t).len())
            .sum();
        assert_eq!(by_type, legal.len());
        assert!(generate(&pos, true, CHESS_GEN_ALL, 0).is_empty());
    }

    // En passant and promotions come out as the flags say.
    let ep = position(EN_PASSANT);
    assert!(legal_moves(&ep)
        .iter()
        .any(|&m| uci(m) == "e5f6" && m >> 12 == 5));
    let promo = position(PROMOTION);
    let names: Vec<String> = legal_moves(&promo).into_iter().map(uci).collect();
    for want in ["a7a8q", "a7a8n", "a7b8q", "a7b8r"] {
        assert!(names.iter().any(|n| n == want), "{want} in {names:?}");
    }

    // Bad class or mask: refused, the list untouched (pattern-filled storage).
    let start = position(START);
    for (class, types) in [(3, CHESS_ALL_PIECE_TYPES), (0, 0x81), (u32::MAX, 1)] {
        let mut list = filled::<ChessMoveList>(0x5A);
        // SAFETY: valid pointers.
        let status = unsafe { chess_generateMoves(&start, true, class, types, list.as_mut_ptr()) };
        assert_eq!(status, CHESS_ERR_INVALID_ARGUMENT);
        assert!(storage_bytes(&list).iter().all(|&b| b == 0x5A));
    }

    // A list made by `ChessMoveList::new()`, filled, then copied by value.
    let mut list = ChessMoveList::new();
    // SAFETY: valid pointers.
    assert_eq!(
        unsafe { chess_generateLegalMoves(&start, &mut list) },
        CHESS_OK
    );
    // SAFETY: a valid list (its entries are `MaybeUninit`, `count` is initialised).
    let copy: ChessMoveList = unsafe { ptr::read(&list) };
    assert_eq!(copy.len(), 20);
    assert_eq!(copy.as_slice(), legal_moves(&start));
}

#[test]
fn make_unmake_with_copied_records() {
    for game in 0..GAMES {
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15 ^ (game + 1));
        let start = if game % 2 == 0 { START } else { KIWIPETE };
        let mut pos = position(start);
        let start_hash = {
            // SAFETY: valid pointer.
            unsafe { chess_hash(&pos) }
        };
        // (move, record, FEN and hash before the move)
        let mut line: Vec<(ChessMove, ChessUndo, String, u64)> = Vec::new();
        let mut snapshot: Option<(ChessPosition, usize)> = None;
        for ply in 0..PLIES {
            let moves = legal_moves(&pos);
            if moves.is_empty() {
                break;
            }
            let m = moves[(rng.next() % moves.len() as u64) as usize];
            let before = fen(&pos);
            // SAFETY: valid pointer.
            let hash = unsafe { chess_hash(&pos) };

            // An illegal value is refused and writes nothing into the record.
            let mut undo = filled::<ChessUndo>(0xC3);
            // SAFETY: valid pointers.
            let status = unsafe { chess_makeMove(&mut pos, 0, undo.as_mut_ptr()) };
            assert_eq!(status, CHESS_ERR_ILLEGAL_MOVE);
            assert!(storage_bytes(&undo).iter().all(|&b| b == 0xC3));
            assert_eq!(fen(&pos), before);

            let undo = make(&mut pos, m);
            // SAFETY: valid pointer.
            assert_ne!(unsafe { chess_hash(&pos) }, hash);
            // The record copied by value works as well as the original: unmake with the copy,
            // make again, keep a copy.
            let copy = copy_undo(&undo);
            unmake(&mut pos, m, &copy);
            assert_eq!(fen(&pos), before);
            // SAFETY: valid pointer.
            assert_eq!(unsafe { chess_hash(&pos) }, hash);
            let undo = make(&mut pos, m);
            line.push((m, copy_undo(&undo), before, hash));
            if ply == PLIES / 2 {
                snapshot = Some((copy_position(&pos), line.len()));
            }
        }
        assert!(!line.is_empty());

        // A wrong record or a wrong move is refused with the position untouched.
        if line.len() >= 2 {
            let after = fen(&pos);
            let (m, _, _, _) = &line[line.len() - 1];
            let (_, wrong, _, _) = &line[line.len() - 2];
            // SAFETY: valid pointers.
            unsafe {
                assert_eq!(chess_unmakeMove(&mut pos, *m, wrong), CHESS_ERR_BAD_UNDO);
                let (_, right, _, _) = &line[line.len() - 1];
                assert_eq!(
                    chess_unmakeMove(&mut pos, *m ^ 0x0FC0, right),
                    CHESS_ERR_BAD_UNDO
                );
            }
            assert_eq!(fen(&pos), after);
        }

        // The snapshot (a by-value copy of the position mid-game) unmakes independently,
        // with copies of the records.
        if let Some((mut snap, len)) = snapshot {
            for (m, undo, before, hash) in line[..len].iter().rev() {
                let copy = copy_undo(undo);
                unmake(&mut snap, *m, &copy);
                assert_eq!(&fen(&snap), before);
                // SAFETY: valid pointer.
                assert_eq!(unsafe { chess_hash(&snap) }, *hash);
            }
            // SAFETY: valid pointer.
            assert_eq!(unsafe { chess_hash(&snap) }, start_hash);
        }

        // The original unmakes the whole line, alternating checked and unchecked calls.
        for (i, (m, undo, before, hash)) in line.iter().enumerate().rev() {
            if i % 2 == 0 {
                unmake(&mut pos, *m, undo);
            } else {
                // SAFETY: valid pointers; `m` and `undo` are the last move's.
                let status = unsafe { chess_unmakeMoveUnchecked(&mut pos, *m, undo) };
                assert_eq!(status, CHESS_OK);
            }
            assert_eq!(&fen(&pos), before);
            // SAFETY: valid pointer.
            assert_eq!(unsafe { chess_hash(&pos) }, *hash);
        }
        assert_eq!(fen(&pos), start.to_str().unwrap());

        // The unchecked make into an uninitialised record, the record moved into a Vec.
        let mut records = Vec::new();
        for m in legal_moves(&pos)
            .into_iter()
            .take(if cfg!(miri) { 3 } else { 50 })
        {
            let mut undo = MaybeUninit::<ChessUndo>::uninit();
            // SAFETY: valid pointers; `m` comes from this position's generator.
            let status = unsafe { chess_makeMoveUnchecked(&mut pos, m, undo.as_mut_ptr()) };
            assert_eq!(status, CHESS_OK);
            // SAFETY: CHESS_OK: the record was filled.
            records.push((m, unsafe { undo.assume_init() }));
            let (m, undo) = records.last().unwrap();
            let copy = copy_undo(undo);
            // SAFETY: valid pointers; the last move's record.
            let status = unsafe { chess_unmakeMoveUnchecked(&mut pos, *m, &copy) };
            assert_eq!(status, CHESS_OK);
            assert_eq!(fen(&pos), start.to_str().unwrap());
        }
    }
}

#[test]
fn repetition_by_shuffling_knights() {
    let mut pos = position(START);
    let shuffle = [c"g1f3", c"g8f6", c"f3g1", c"f6g8"];
    let mut records = Vec::new();
    for round in 0..2 {
        for text in shuffle {
            let m = from_uci(&pos, text);
            records.push((m, make(&mut pos, m)));
        }
        // SAFETY: valid pointer.
        let repeated = unsafe { chess_isRepetition(&pos, 100) };
        assert_eq!(repeated, round == 1);
    }
    let mut s = MaybeUninit::<ChessGameStatus>::uninit();
    // SAFETY: valid pointers; written on success.
    unsafe {
        assert_eq!(chess_gameStatus(&pos, s.as_mut_ptr()), CHESS_OK);
        assert_eq!(s.assume_init(), CHESS_THREEFOLD_REPETITION);
    }
    // A copy of the position keeps the history: it sees the repetition too.
    let copy = copy_position(&pos);
    // SAFETY: valid pointer.
    assert!(unsafe { chess_isRepetition(&copy, 100) });
    for (m, undo) in records.iter().rev() {
        unmake(&mut pos, *m, undo);
    }
    assert_eq!(fen(&pos), START.to_str().unwrap());

    // Compacting keeps what a repetition can reach; the position itself is unchanged, and the
    // moves before the last pawn move can no longer be taken back by the checked unmake.
    let mut game = Vec::new();
    for text in [c"e2e4", c"e7e5", c"g1f3"] {
        let m = from_uci(&pos, text);
        game.push((m, make(&mut pos, m)));
    }
    let before = (fen(&pos), {
        // SAFETY: valid pointer.
        unsafe { chess_hash(&pos) }
    });
    // SAFETY: valid pointers.
    unsafe {
        assert_eq!(chess_validatePosition(&pos), CHESS_OK);
        assert_eq!(chess_compactHistory(&mut pos), CHESS_OK);
        assert_eq!(chess_validatePosition(&pos), CHESS_OK);
        assert_eq!((fen(&pos), chess_hash(&pos)), before);
        let copy = copy_position(&pos);
        assert_eq!(chess_validatePosition(&copy), CHESS_OK);
        let (m, undo) = &game[2];
        assert_eq!(chess_unmakeMove(&mut pos, *m, undo), CHESS_ERR_BAD_UNDO);
        assert_eq!((fen(&pos), chess_hash(&pos)), before);
    }
    // Play goes on after compacting.
    let m = from_uci(&pos, c"b8c6");
    let undo = make(&mut pos, m);
    unmake(&mut pos, m, &copy_undo(&undo));
    assert_eq!(fen(&pos), before.0);
}

#[test]
fn null_moves() {
    let mut pos = position(EN_PASSANT);
    // SAFETY (whole block): valid pointers.
    unsafe {
        let hash = chess_hash(&pos);
        let mut slot = MaybeUninit::<ChessUndo>::uninit();
        assert_eq!(chess_makeNullMove(&mut pos, slot.as_mut_ptr()), CHESS_OK);
        let undo = slot.assume_init();
        assert_eq!(chess_sideToMove(&pos), 1);
        assert_eq!(chess_enPassantSquare(&pos), -1);
        assert_ne!(chess_hash(&pos), hash);
        // The position after a null move is a position like any other: generate, copy.
        let copy = copy_position(&pos);
        assert_eq!(legal_moves(&copy), legal_moves(&pos));
        let undo_copy = copy_undo(&undo);
        // A zeroed record does not belong to the null move.
        let bogus = MaybeUninit::<ChessUndo>::zeroed();
        assert_eq!(
            chess_unmakeNullMove(&mut pos, bogus.as_ptr()),
            CHESS_ERR_BAD_UNDO
        );
        assert_eq!(chess_unmakeNullMove(&mut pos, &undo_copy), CHESS_OK);
        assert_eq!(chess_hash(&pos), hash);
        assert_eq!(fen(&pos), EN_PASSANT.to_str().unwrap());

        // After an ordinary move, unmakeNullMove refuses.
        let m = from_uci(&pos, c"e5f6");
        let undo = make(&mut pos, m);
        assert_eq!(chess_unmakeNullMove(&mut pos, &undo), CHESS_ERR_BAD_UNDO);
        unmake(&mut pos, m, &undo);

        // In check a null move is illegal and the record untouched.
        let mut mated = position(FOOLS_MATE);
        let mut slot = filled::<ChessUndo>(0x77);
        let status = chess_makeNullMove(&mut mated, slot.as_mut_ptr());
        assert_eq!(status, CHESS_ERR_ILLEGAL_MOVE);
        assert!(storage_bytes(&slot).iter().all(|&b| b == 0x77));
    }
}

#[test]
fn small_perfts() {
    let mut start = position(START);
    let deep = if cfg!(miri) { 1 } else { 3 };
    let mut nodes = MaybeUninit::<u64>::uninit();
    // SAFETY (whole block): valid pointers.
    unsafe {
        for (depth, want) in [(0, 1u64), (1, 20), (2, 400), (3, 8902)] {
            if depth > 2 && cfg!(miri) {
                break;
            }
            assert_eq!(chess_perft(&mut start, depth, nodes.as_mut_ptr()), CHESS_OK);
            assert_eq!(nodes.assume_init(), want);
        }
        let mut kiwi = position(KIWIPETE);
        let hash = chess_hash(&kiwi);
        assert_eq!(chess_perft(&mut kiwi, 1, nodes.as_mut_ptr()), CHESS_OK);
        assert_eq!(nodes.assume_init(), 48);
        assert_eq!(chess_hash(&kiwi), hash);

        // Full perft (make/unmake at every leaf) on a by-value copy.
        let mut copy = copy_position(&start);
        let want = [1u64, 20, 400, 8902][deep];
        assert_eq!(
            chess_perftFull(&mut copy, deep as u32, nodes.as_mut_ptr()),
            CHESS_OK
        );
        assert_eq!(nodes.assume_init(), want);
        assert_eq!(fen(&copy), START.to_str().unwrap());

        // Parallel perft: 2 threads, each with its own copy inside the library.
        for full in [false, true] {
            // Under Miri: bulk to depth 2, full (every leaf made, and checked in debug builds)
            // to depth 1.
            let depth = match (cfg!(miri), full) {
                (true, false) => 2,
                (true, true) => 1,
                (false, _) => 3,
            };
            let want = [1u64, 20, 400, 8902][depth];
            let status = chess_perftParallel(&copy, depth as u32, 2, full, nodes.as_mut_ptr());
            assert_eq!(status, CHESS_OK);
            assert_eq!(nodes.assume_init(), want);
        }

        // Divide: moves into an uninitialised list, counts into uninitialised storage.
        let mut list = MaybeUninit::<ChessMoveList>::uninit();
        let mut counts = MaybeUninit::<[u64; 256]>::uninit();
        let mut total = MaybeUninit::<u64>::uninit();
        let status = chess_perftDivide(
            &mut copy,
            2,
            list.as_mut_ptr(),
            counts.as_mut_ptr().cast(),
            256,
            total.as_mut_ptr(),
        );
        assert_eq!(status, CHESS_OK);
        let moves = read_list(list);
        assert_eq!(moves.len(), 20);
        let counts = core::slice::from_raw_parts(counts.as_ptr().cast::<u64>(), moves.len());
        assert!(counts.iter().all(|&c| c == 20));
        assert_eq!(total.assume_init(), 400);

        // Too few count slots: refused, nothing written.
        let mut list = filled::<ChessMoveList>(0x11);
        let mut counts = [7u64; 19];
        let mut total = 9u64;
        let status = chess_perftDivide(
            &mut copy,
            2,
            list.as_mut_ptr(),
            counts.as_mut_ptr(),
            counts.len(),
            &mut total,
        );
        assert_eq!(status, CHESS_ERR_BUFFER_TOO_SMALL);
        assert!(storage_bytes(&list).iter().all(|&b| b == 0x11));
        assert!(counts.iter().all(|&c| c == 7));
        assert_eq!(total, 9);
    }
}

#[test]
fn text_buffers_exact_and_too_small() {
    let pos = position(KIWIPETE);
    let text = KIWIPETE.to_bytes();
    // SAFETY (whole block): every buffer is valid for the length passed.
    unsafe {
        // toFEN: exactly strlen + 1 fits; one byte less writes nothing.
        let mut buf = vec![0xEEu8; text.len() + 1];
        assert_eq!(
            chess_toFEN(&pos, buf.as_mut_ptr().cast(), text.len() + 1),
            CHESS_OK
        );
        assert_eq!(&buf[..text.len()], text);
        assert_eq!(buf[text.len()], 0);
        for len in [0, 1, text.len()] {
            let mut buf = vec![0xEEu8; text.len() + 1];
            assert_eq!(
                chess_toFEN(&pos, buf.as_mut_ptr().cast(), len),
                CHESS_ERR_BUFFER_TOO_SMALL
            );
            assert!(buf.iter().all(|&b| b == 0xEE));
        }

        // moveToUci: 5 bytes for "e2e4", 6 for "a7a8q".
        let promo = position(PROMOTION);
        let queen = legal_moves(&promo)
            .into_iter()
            .find(|&m| uci(m) == "a7a8q")
            .unwrap();
        let e2e4 = from_uci(&position(START), c"e2e4");
        for (m, need) in [(e2e4, 5usize), (queen, 6)] {
            let mut buf = vec![0xEEu8; need];
            assert_eq!(
                chess_moveToUci(m, buf.as_mut_ptr().cast(), need - 1),
                CHESS_ERR_BUFFER_TOO_SMALL
            );
            assert!(buf.iter().all(|&b| b == 0xEE));
            assert_eq!(chess_moveToUci(m, buf.as_mut_ptr().cast(), need), CHESS_OK);
            assert_eq!(buf[need - 1], 0);
        }
        // Values that are no move.
        let mut buf = [0u8; 6];
        for bad in [
            0u16,
            0x6000 | 12 | (28 << 6),
            0x7000 | 12 | (28 << 6),
            12 | (12 << 6),
        ] {
            assert_eq!(
                chess_moveToUci(bad, buf.as_mut_ptr().cast(), 6),
                CHESS_ERR_INVALID_ARGUMENT
            );
        }

        // Bitboard grid and board picture: exact sizes fit, one less does not.
        let mut grid = vec![0xEEu8; CHESS_BITBOARD_TEXT_SIZE];
        assert_eq!(
            chess_printBitboardToBuffer(0xFF00, grid.as_mut_ptr().cast(), grid.len() - 1),
            CHESS_ERR_BUFFER_TOO_SMALL
        );
        assert!(grid.iter().all(|&b| b == 0xEE));
        assert_eq!(
            chess_printBitboardToBuffer(0xFF00, grid.as_mut_ptr().cast(), grid.len()),
            CHESS_OK
        );
        assert_eq!(grid[CHESS_BITBOARD_TEXT_SIZE - 1], 0);
        let mut board = vec![0xEEu8; CHESS_POSITION_TEXT_SIZE];
        assert_eq!(
            chess_positionToText(&pos, board.as_mut_ptr().cast(), board.len() - 1),
            CHESS_ERR_BUFFER_TOO_SMALL
        );
        assert!(board.iter().all(|&b| b == 0xEE));
        assert_eq!(
            chess_positionToText(&pos, board.as_mut_ptr().cast(), board.len()),
            CHESS_OK
        );
    }

    // Micro moves round trip through the position.
    let start = position(START);
    for m in legal_moves(&start) {
        let micro = chess_moveToMicro(m);
        let mut back = MaybeUninit::<ChessMove>::uninit();
        // SAFETY: valid pointers.
        unsafe {
            assert_eq!(
                chess_moveFromMicro(&start, micro, back.as_mut_ptr()),
                CHESS_OK
            );
            assert_eq!(back.assume_init(), m);
        }
        let name = std::ffi::CString::new(uci(m)).unwrap();
        assert_eq!(from_uci(&start, &name), m);
    }
}

#[test]
fn null_arguments_invalid_positions_and_messages() {
    let null_pos: *mut ChessPosition = ptr::null_mut();
    let mut pos = position(START);
    let e2e4 = from_uci(&pos, c"e2e4");
    let some_undo = {
        let mut tmp = copy_position(&pos);
        make(&mut tmp, e2e4)
    };
    // SAFETY: valid pointer.
    let hash = unsafe { chess_hash(&pos) };
    let mut list = filled::<ChessMoveList>(0x3C);
    let mut undo = filled::<ChessUndo>(0x3C);
    let mut n = 0x3C3C_u64;
    let mut m = 0x3C3C_u16;
    let mut game = filled::<ChessGameStatus>(0);
    let mut buf = [0x3Cu8; 200];
    let b: *mut c_char = buf.as_mut_ptr().cast();
    let np: *mut u64 = &mut n;
    let mp: *mut u16 = &mut m;
    let p: *mut ChessPosition = &mut pos;
    // SAFETY (whole block): every pointer is NULL or valid.
    unsafe {
        let cases: Vec<(&str, ChessStatus)> = vec![
            ("setFromFEN pos", chess_setFromFEN(null_pos, START.as_ptr())),
            ("setFromFEN fen", chess_setFromFEN(p, ptr::null())),
            ("setStartPosition", chess_setStartPosition(null_pos)),
            ("toFEN pos", chess_toFEN(null_pos, b, buf.len())),
            ("toFEN buf", chess_toFEN(p, ptr::null_mut(), 200)),
            (
                "pseudo pos",
                chess_generatePseudoLegalMoves(null_pos, list.as_mut_ptr()),
            ),
            (
                "pseudo out",
                chess_generatePseudoLegalMoves(p, ptr::null_mut()),
            ),
            (
                "legal pos",
                chess_generateLegalMoves(null_pos, list.as_mut_ptr()),
            ),
            ("legal out", chess_generateLegalMoves(p, ptr::null_mut())),
            (
                "generate pos",
                chess_generateMoves(null_pos, true, 0, 0x7E, list.as_mut_ptr()),
            ),
            (
                "generate out",
                chess_generateMoves(p, true, 0, 0x7E, ptr::null_mut()),
            ),
            (
                "makeMove pos",
                chess_makeMove(null_pos, e2e4, undo.as_mut_ptr()),
            ),
            ("makeMove undo", chess_makeMove(p, e2e4, ptr::null_mut())),
            (
                "unmakeMove pos",
                chess_unmakeMove(null_pos, e2e4, &some_undo),
            ),
            ("unmakeMove undo", chess_unmakeMove(p, e2e4, ptr::null())),
            (
                "makeUnchecked pos",
                chess_makeMoveUnchecked(null_pos, e2e4, undo.as_mut_ptr()),
            ),
            (
                "makeUnchecked undo",
                chess_makeMoveUnchecked(p, e2e4, ptr::null_mut()),
            ),
            (
                "unmakeUnchecked pos",
                chess_unmakeMoveUnchecked(null_pos, e2e4, &some_undo),
            ),
            (
                "unmakeUnchecked undo",
                chess_unmakeMoveUnchecked(p, e2e4, ptr::null()),
            ),
            (
                "makeNull pos",
                chess_makeNullMove(null_pos, undo.as_mut_ptr()),
            ),
            ("makeNull undo", chess_makeNullMove(p, ptr::null_mut())),
            ("unmakeNull pos", chess_unmakeNullMove(null_pos, &some_undo)),
            ("unmakeNull undo", chess_unmakeNullMove(p, ptr::null())),
            ("perft pos", chess_perft(null_pos, 1, np)),
            ("perft nodes", chess_perft(p, 1, ptr::null_mut())),
            ("perftFull pos", chess_perftFull(null_pos, 1, np)),
            ("perftFull nodes", chess_perftFull(p, 1, ptr::null_mut())),
            (
                "perftParallel pos",
                chess_perftParallel(null_pos, 1, 1, false, np),
            ),
            (
                "perftParallel nodes",
                chess_perftParallel(p, 1, 1, false, ptr::null_mut()),
            ),
            (
                "perftDivide pos",
                chess_perftDivide(null_pos, 1, list.as_mut_ptr(), np, 1, np),
            ),
            (
                "perftDivide moves",
                chess_perftDivide(p, 1, ptr::null_mut(), np, 256, np),
            ),
            (
                "perftDivide counts",
                chess_perftDivide(p, 1, list.as_mut_ptr(), ptr::null_mut(), 256, np),
            ),
            (
                "perftDivide total",
                chess_perftDivide(p, 1, list.as_mut_ptr(), np, 256, ptr::null_mut()),
            ),
            (
                "moveFromUci pos",
                chess_moveFromUci(null_pos, c"e2e4".as_ptr(), mp),
            ),
            ("moveFromUci text", chess_moveFromUci(p, ptr::null(), mp)),
            (
                "moveFromUci out",
                chess_moveFromUci(p, c"e2e4".as_ptr(), ptr::null_mut()),
            ),
            ("moveToUci buf", chess_moveToUci(e2e4, ptr::null_mut(), 6)),
            ("moveFromMicro pos", chess_moveFromMicro(null_pos, 0, mp)),
            (
                "moveFromMicro out",
                chess_moveFromMicro(p, 0, ptr::null_mut()),
            ),
            (
                "printBitboardToBuffer",
                chess_printBitboardToBuffer(0, ptr::null_mut(), 129),
            ),
            (
                "positionToText pos",
                chess_positionToText(null_pos, b, buf.len()),
            ),
            (
                "positionToText buf",
                chess_positionToText(p, ptr::null_mut(), 200),
            ),
            ("printPosition", chess_printPosition(null_pos)),
            (
                "gameStatus pos",
                chess_gameStatus(null_pos, game.as_mut_ptr()),
            ),
            ("gameStatus out", chess_gameStatus(p, ptr::null_mut())),
            ("validatePosition", chess_validatePosition(null_pos)),
            ("compactHistory", chess_compactHistory(null_pos)),
        ];
        for (name, status) in cases {
            assert_eq!(status, CHESS_ERR_NULL_ARGUMENT, "{name}");
        }
        // Nothing was written anywhere.
        assert!(storage_bytes(&list).iter().all(|&x| x == 0x3C));
        assert!(storage_bytes(&undo).iter().all(|&x| x == 0x3C));
        assert_eq!((*np, *mp), (0x3C3C, 0x3C3C));
        assert!(storage_bytes(&game).iter().all(|&x| x == 0));
        assert!(buf.iter().all(|&x| x == 0x3C));
        assert_eq!(chess_hash(&pos), hash);
        assert_eq!(fen(&pos), START.to_str().unwrap());

        // Getters: documented fallbacks.
        let cp: *const ChessPosition = null_pos;
        assert_eq!(chess_hash(cp), 0);
        assert_eq!(chess_pawnHash(cp), 0);
        assert_eq!(chess_materialHash(cp), 0);
        assert_eq!(chess_sideToMove(cp), -1);
        assert_eq!(chess_pieceOn(cp, 4), 0);
        assert_eq!(chess_pieces(cp, 0, 1), 0);
        assert_eq!(chess_castlingRights(cp), 0);
        assert_eq!(chess_enPassantSquare(cp), -1);
        assert_eq!(chess_halfmoveClock(cp), 0);
        assert_eq!(chess_fullmoveNumber(cp), 0);
        assert_eq!(chess_attackersTo(cp, 4), 0);
        assert_eq!(chess_checkers(cp), 0);
        assert!(!chess_isRepetition(cp, 100));
        assert!(!chess_isLegalMove(cp, e2e4));
        assert!(!chess_isInCheck(cp));

        // Positions that were never set (zeroed, garbage): refused, never read out of bounds.
        for byte in [0x00u8, 0xFF, 0xA5] {
            let mut bad = filled::<ChessPosition>(byte);
            let bp = bad.as_mut_ptr();
            assert_eq!(chess_toFEN(bp, b, buf.len()), CHESS_ERR_INVALID_POSITION);
            assert_eq!(
                chess_generateLegalMoves(bp, list.as_mut_ptr()),
                CHESS_ERR_INVALID_POSITION
            );
            assert_eq!(
                chess_makeMove(bp, e2e4, undo.as_mut_ptr()),
                CHESS_ERR_INVALID_POSITION
            );
            assert_eq!(chess_perft(bp, 1, np), CHESS_ERR_INVALID_POSITION);
            assert_eq!(chess_validatePosition(bp), CHESS_ERR_INVALID_POSITION);
            assert_eq!(chess_compactHistory(bp), CHESS_ERR_INVALID_POSITION);
            assert_eq!(chess_hash(bp), 0);
            assert_eq!(chess_sideToMove(bp), -1);
            assert!(storage_bytes(&bad).iter().all(|&x| x == byte));
        }

        // Rejected FEN leaves the storage exactly as it was (here: an earlier position).
        let mut target = copy_position(&pos);
        let before = bytes_of(&target);
        for (text, want) in [
            (c"", CHESS_ERR_FEN_FIELD_COUNT),
            (c"8/8/8/8/8/8/8/8 w - - 0 1", CHESS_ERR_FEN_KING_COUNT),
            (
                c"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
                CHESS_ERR_FEN_SIDE_TO_MOVE,
            ),
            (
                c"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 x",
                CHESS_ERR_FEN_TRAILING_TEXT,
            ),
            (
                c"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 0",
                CHESS_ERR_FEN_FULLMOVE_NUMBER,
            ),
            (c"\xff", CHESS_ERR_INVALID_ARGUMENT),
        ] {
            assert_eq!(
                chess_setFromFEN(&mut target, text.as_ptr()),
                want,
                "{text:?}"
            );
            assert_eq!(bytes_of(&target), before);
        }
        // Into uninitialised storage, a rejected FEN writes nothing either (still uninit: not
        // read).
        let mut slot = MaybeUninit::<ChessPosition>::uninit();
        assert_eq!(
            chess_setFromFEN(slot.as_mut_ptr(), c"8/8/8/8/8/8/8/8 w - - 0 1".as_ptr()),
            CHESS_ERR_FEN_KING_COUNT
        );

        // moveFromUci: malformed and illegal text.
        assert_eq!(
            chess_moveFromUci(&pos, c"e2e9".as_ptr(), mp),
            CHESS_ERR_INVALID_ARGUMENT
        );
        assert_eq!(
            chess_moveFromUci(&pos, c"e2e5".as_ptr(), mp),
            CHESS_ERR_ILLEGAL_MOVE
        );
        assert_eq!(*mp, 0x3C3C);
    }

    // Status messages: every code has its own sentence; every other int gets the sentence for
    // unknown codes.
    let texts: Vec<String> = ChessStatus::ALL
        .iter()
        .map(|&c| message(c as i32))
        .collect();
    for (i, t) in texts.iter().enumerate() {
        assert!(!t.is_empty());
        assert!(!texts[..i].contains(t), "duplicate message {t}");
        assert_ne!(t, "unknown status code");
    }
    let known = |c: i32| ChessStatus::ALL.iter().any(|&s| s as i32 == c);
    for c in (-2..=300).chain([i32::MAX, i32::MIN]) {
        if !known(c) {
            assert_eq!(message(c), "unknown status code", "{c}");
        }
    }
    assert_eq!(message(CHESS_ERR_BAD_UNDO as i32), texts[7]);

    // Static strings and pure functions.
    // SAFETY: static NUL-terminated strings.
    let (version, backend) = unsafe {
        (
            CStr::from_ptr(chess_version()).to_str().unwrap(),
            CStr::from_ptr(chess_sliderBackend()).to_str().unwrap(),
        )
    };
    assert_eq!(version, env!("CARGO_PKG_VERSION"));
    assert!(chess_versionNumber() > 0);
    assert!(backend == "pext" || backend == "magic", "{backend}");
    // Miri cannot run `cpuid`, and off x86-64 there is no PEXT (aarch64: scripts/cross-aarch64).
    if cfg!(miri) || !cfg!(target_arch = "x86_64") {
        assert_eq!(backend, "magic");
    }
    assert_eq!(chess_knightAttacks(0), (1 << 10) | (1 << 17));
    assert_eq!(chess_kingAttacks(0), (1 << 1) | (1 << 8) | (1 << 9));
    assert_eq!(chess_pawnAttacks(0, 12), (1 << 19) | (1 << 21));
    assert_eq!(chess_pawnAttacks(2, 12), 0);
    assert_eq!(chess_knightAttacks(64), 0);
    assert_eq!(chess_rookAttacks(0, 0).count_ones(), 14);
    assert_eq!(chess_bishopAttacks(27, 0).count_ones(), 13);
    assert_eq!(
        chess_queenAttacks(27, 0),
        chess_rookAttacks(27, 0) | chess_bishopAttacks(27, 0)
    );
    assert_eq!(chess_rookAttacks(64, 0), 0);
}
