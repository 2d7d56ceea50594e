//! Shared helpers of the fuzz targets: heap positions, byte views, a byte reader, the seed
//! FENs from `testdata/`, and `lib_call`, which runs one C-ABI call and turns any panic inside
//! the library (which the library catches and reports as `CHESS_ERR_INTERNAL`, or as a getter's
//! fallback value) into a fuzz failure that names the function and the library's own message.
//!
//! Every call into the library goes through `chesscore::ffi::chess_*`, the `extern "C"`
//! functions a C program links against: the contracts checked are those of the C ABI.

use chesscore::ffi::{self, ChessMoveList, ChessStatus};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

pub use chesscore::ffi::ChessStatus as S;
pub use chesscore::ffi::{ChessPosition, ChessUndo};

/// Size of `ChessPosition` in bytes.
pub const POS_BYTES: usize = core::mem::size_of::<ChessPosition>();
/// Size of `ChessUndo` in bytes.
pub const UNDO_BYTES: usize = core::mem::size_of::<ChessUndo>();
/// The move flag of en passant captures (bits 12-15 of a move).
pub const FLAG_EN_PASSANT: u16 = 5;
/// The move flag of double pawn pushes.
pub const FLAG_DOUBLE_PUSH: u16 = 1;
/// The history capacity documented for `CHESS_ERR_HISTORY_FULL`.
pub const HISTORY_CAPACITY: usize = 1024;

// ---------------------------------------------------------------------------------------------
// Panics inside the library.
// ---------------------------------------------------------------------------------------------

/// Set while a `chess_*` function runs (the fuzzer is single-threaded; worker threads of
/// `chess_perftParallel` run while it is set too).
static IN_LIBRARY: AtomicBool = AtomicBool::new(false);
/// The first panic seen inside the library during the current call.
static LIBRARY_PANIC: Mutex<Option<String>> = Mutex::new(None);
/// What the current input did so far (printed with a failure).
static CONTEXT: Mutex<String> = Mutex::new(String::new());

/// Replaces the context printed with a failure (seed position, steps so far).
pub fn set_context(text: String) {
    *CONTEXT.lock().unwrap_or_else(|e| e.into_inner()) = text;
}

/// Appends a line to the context printed with a failure.
pub fn add_context(line: &str) {
    let mut c = CONTEXT.lock().unwrap_or_else(|e| e.into_inner());
    c.push_str(line);
    c.push('\n');
}

/// Installs a panic hook in front of libFuzzer's (which aborts on every panic, even one the
/// library would catch) and the library's own: a panic inside a library call is recorded and left to unwind to the
/// library's `catch_unwind`, so that `lib_call` can report which function panicked and with
/// what status; a panic anywhere else (a failed assertion of a target) goes on to libFuzzer's
/// hook, which prints it and aborts (a crash, saved under `fuzz/artifacts/<target>/`).
/// Call it from `fuzz_target!(init: ...)`.
pub fn init() {
    // The library installs its own hook on its first guarded call (silent for panics inside a
    // guard, the previous hook for the rest): make that call now, so that this hook goes on top
    // of it and sees the library's panics too.
    // SAFETY: NULL is a documented argument (the getter returns its fallback).
    let _ = unsafe { ffi::chess_hash(core::ptr::null()) };
    let libfuzzer_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        if IN_LIBRARY.load(Ordering::SeqCst) {
            let mut slot = LIBRARY_PANIC.lock().unwrap_or_else(|e| e.into_inner());
            if slot.is_none() {
                *slot = Some(info.to_string());
            }
            return;
        }
        if let Ok(c) = CONTEXT.try_lock() {
            if !c.is_empty() {
                eprintln!(
                    "==== fuzz input, step by step ====\n{}==== end of steps ====",
                    *c
                );
            }
        }
        libfuzzer_hook(info);
    }));
}

/// Triage aid: true when `part` is listed in the comma-separated environment variable
/// `CHESSCORE_FUZZ_IGNORE`, so that a run can look past a known failure for others (moves:
/// FEN fields `board,side,castling,ep,halfmove,fullmove` and `hash,pawnHash,materialHash,moves`
/// of an accepted forged unmake; corrupt: `ranges`, the getters' value ranges; hash_ep:
/// `hash_ep_illegal`, an en passant square hashed without a legal capture, and `pseudo_ep`, a
/// pseudo-legal en passant capture that is not legal; every target:
/// `internal`, a panic inside the library or `CHESS_ERR_INTERNAL`, which is then printed once
/// per message and the call's other checks are skipped). Unset (the
/// default, and always in scripts/fuzz), nothing is ignored.
pub fn ignoring(part: &str) -> bool {
    static IGNORE: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    IGNORE
        .get_or_init(|| {
            std::env::var("CHESSCORE_FUZZ_IGNORE")
                .map(|v| v.split(',').map(|s| s.trim().to_string()).collect())
                .unwrap_or_default()
        })
        .iter()
        .any(|i| i == part)
}

/// Runs one library call named `name`. Panics (a fuzz failure) when the library panicked
/// inside, whatever the call returned: a caught panic is `CHESS_ERR_INTERNAL` (or a getter's
/// fallback), which no input may produce.
pub fn lib_call<T>(name: &str, f: impl FnOnce() -> T) -> T {
    *LIBRARY_PANIC.lock().unwrap_or_else(|e| e.into_inner()) = None;
    IN_LIBRARY.store(true, Ordering::SeqCst);
    let r = f();
    IN_LIBRARY.store(false, Ordering::SeqCst);
    if let Some(msg) = LIBRARY_PANIC
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .take()
    {
        if ignoring("internal") {
            report_once(format!("{name}: the library panicked inside: {msg}"));
            return r;
        }
        panic!("{name}: the library panicked inside (caught at the boundary): {msg}");
    }
    r
}

/// Under `CHESSCORE_FUZZ_IGNORE=internal`: prints each distinct panic once (with its location,
/// without the values that follow "index is") instead of failing.
fn report_once(msg: String) {
    static SEEN: Mutex<Vec<String>> = Mutex::new(Vec::new());
    let key: String = msg.split("index is").next().unwrap_or("").to_string();
    let mut seen = SEEN.lock().unwrap_or_else(|e| e.into_inner());
    if !seen.contains(&key) {
        eprintln!("IGNORED PANIC (CHESSCORE_FUZZ_IGNORE=internal): {msg}");
        seen.push(key);
    }
}

/// Runs a status-returning call and fails on `CHESS_ERR_INTERNAL` (with or without a panic).
pub fn status_call(name: &str, f: impl FnOnce() -> ChessStatus) -> ChessStatus {
    let s = lib_call(name, f);
    assert!(
        s != S::CHESS_ERR_INTERNAL || ignoring("internal"),
        "{name} returned CHESS_ERR_INTERNAL (8) without a panic"
    );
    s
}

// ---------------------------------------------------------------------------------------------
// Positions on the heap, byte views.
// ---------------------------------------------------------------------------------------------

/// A zeroed `ChessPosition` on the heap (9216 bytes: too large for the fuzzer's stack frames).
pub fn new_pos() -> Box<ChessPosition> {
    // SAFETY: `ChessPosition` is plain `u64` words; all zeros is a valid value.
    unsafe { Box::<ChessPosition>::new_zeroed().assume_init() }
}

/// A copy of `p` on the heap (`memcpy`, as the header says copies are made).
pub fn clone_pos(p: &ChessPosition) -> Box<ChessPosition> {
    let mut b = new_pos();
    pos_bytes_mut(&mut b).copy_from_slice(pos_bytes(p));
    b
}

/// The bytes of a position.
pub fn pos_bytes(p: &ChessPosition) -> &[u8] {
    // SAFETY: `ChessPosition` is `POS_BYTES` bytes of plain integers, no padding.
    unsafe { core::slice::from_raw_parts(p as *const ChessPosition as *const u8, POS_BYTES) }
}

/// The bytes of a position, writable.
pub fn pos_bytes_mut(p: &mut ChessPosition) -> &mut [u8] {
    // SAFETY: as `pos_bytes`; every byte pattern is a valid `ChessPosition`.
    unsafe { core::slice::from_raw_parts_mut(p as *mut ChessPosition as *mut u8, POS_BYTES) }
}

/// An undo record filled with one byte value (a pattern that no make writes whole).
pub fn undo_filled(b: u8) -> ChessUndo {
    let mut u = core::mem::MaybeUninit::<ChessUndo>::uninit();
    // SAFETY: `ChessUndo` is plain `u64` words; every byte pattern is valid.
    unsafe {
        core::ptr::write_bytes(u.as_mut_ptr() as *mut u8, b, UNDO_BYTES);
        u.assume_init()
    }
}

/// The bytes of an undo record.
pub fn undo_bytes(u: &ChessUndo) -> &[u8] {
    // SAFETY: plain words, no padding.
    unsafe { core::slice::from_raw_parts(u as *const ChessUndo as *const u8, UNDO_BYTES) }
}

/// The bytes of an undo record, writable.
pub fn undo_bytes_mut(u: &mut ChessUndo) -> &mut [u8] {
    // SAFETY: plain words; every byte pattern is valid.
    unsafe { core::slice::from_raw_parts_mut(u as *mut ChessUndo as *mut u8, UNDO_BYTES) }
}

/// A copy of an undo record.
pub fn clone_undo(u: &ChessUndo) -> ChessUndo {
    let mut c = undo_filled(0);
    undo_bytes_mut(&mut c).copy_from_slice(undo_bytes(u));
    c
}

/// The first offset where two byte strings differ (for failure messages).
/// Equal slices are compared with one `memcmp` (not byte by byte: the comparisons of
/// instrumented code are traced, which would dominate a run).
pub fn first_diff(a: &[u8], b: &[u8]) -> Option<usize> {
    if a == b {
        return None;
    }
    Some(
        a.iter()
            .zip(b)
            .position(|(x, y)| x != y)
            .unwrap_or(a.len().min(b.len())),
    )
}

/// A `ChessMoveList` seen as C sees it (`ChessMove moves[256]` at offset 0, `uint32_t count`
/// at offset 512), on the heap, every byte set to a pattern before the library writes it.
pub struct RawList(Box<core::mem::MaybeUninit<ChessMoveList>>);

const LIST_BYTES: usize = core::mem::size_of::<ChessMoveList>();
const _: () = assert!(LIST_BYTES >= 516);

impl RawList {
    /// A list whose every byte is `b`.
    pub fn filled(b: u8) -> RawList {
        let mut l = Box::<ChessMoveList>::new_uninit();
        // SAFETY: writes `LIST_BYTES` bytes into the allocation of that size.
        unsafe { core::ptr::write_bytes(l.as_mut_ptr() as *mut u8, b, LIST_BYTES) };
        RawList(l)
    }
    /// The pointer to pass to the library.
    pub fn ptr(&mut self) -> *mut ChessMoveList {
        self.0.as_mut_ptr()
    }
    /// Every byte (all initialised: the pattern, or what the library wrote).
    pub fn bytes(&self) -> &[u8] {
        // SAFETY: `filled` initialised every byte; the library writes only initialised values.
        unsafe { core::slice::from_raw_parts(self.0.as_ptr() as *const u8, LIST_BYTES) }
    }
    /// `count`.
    pub fn count(&self) -> u32 {
        let b = self.bytes();
        u32::from_ne_bytes([b[512], b[513], b[514], b[515]])
    }
    /// `moves[0..count]` (at most 256).
    pub fn moves(&self) -> Vec<u16> {
        let b = self.bytes();
        (0..(self.count() as usize).min(256))
            .map(|i| u16::from_ne_bytes([b[2 * i], b[2 * i + 1]]))
            .collect()
    }
}

// ---------------------------------------------------------------------------------------------
// Thin safe wrappers for valid positions (each asserts its own contract).
// ---------------------------------------------------------------------------------------------

/// `chess_setFromFEN` with a Rust string (must not contain NUL).
pub fn set_fen(p: &mut ChessPosition, fen: &str) -> ChessStatus {
    let c = std::ffi::CString::new(fen).expect("FEN with NUL");
    // SAFETY: valid position storage and NUL-terminated text.
    status_call("chess_setFromFEN", || unsafe {
        ffi::chess_setFromFEN(p, c.as_ptr())
    })
}

/// A position set from a FEN that must be valid.
pub fn pos_from_fen(fen: &str) -> Box<ChessPosition> {
    let mut p = new_pos();
    let s = set_fen(&mut p, fen);
    assert_eq!(s, S::CHESS_OK, "chess_setFromFEN refused seed FEN {fen:?}");
    p
}

/// `chess_toFEN` into a `CHESS_FEN_MAX` buffer; the text must be ASCII.
pub fn to_fen(p: &ChessPosition) -> Result<String, ChessStatus> {
    let mut buf = [0xA5u8; ffi::CHESS_FEN_MAX];
    // SAFETY: `buf` is valid for its length.
    let s = status_call("chess_toFEN", || unsafe {
        ffi::chess_toFEN(p, buf.as_mut_ptr() as *mut core::ffi::c_char, buf.len())
    });
    if s != S::CHESS_OK {
        assert!(
            buf.iter().all(|&b| b == 0xA5),
            "chess_toFEN returned {s:?} but wrote into the buffer"
        );
        return Err(s);
    }
    let n = buf
        .iter()
        .position(|&b| b == 0)
        .expect("chess_toFEN: no NUL in CHESS_FEN_MAX bytes");
    Ok(String::from_utf8(buf[..n].to_vec()).expect("chess_toFEN wrote non-UTF-8 text"))
}

/// `chess_toFEN` of a position that must be valid.
pub fn fen_of(p: &ChessPosition) -> String {
    match to_fen(p) {
        Ok(f) => f,
        Err(s) => panic!("chess_toFEN failed with {s:?} on a valid position"),
    }
}

/// The legal moves (in generator order) of a valid position.
pub fn legal_moves(p: &ChessPosition) -> Vec<u16> {
    let mut l = RawList::filled(0xA5);
    // SAFETY: valid pointers.
    let s = status_call("chess_generateLegalMoves", || unsafe {
        ffi::chess_generateLegalMoves(p, l.ptr())
    });
    assert_eq!(
        s,
        S::CHESS_OK,
        "chess_generateLegalMoves on a valid position"
    );
    assert!(
        l.count() <= 256,
        "chess_generateLegalMoves: count {}",
        l.count()
    );
    l.moves()
}

/// The legal moves as a sorted set.
pub fn legal_set(p: &ChessPosition) -> Vec<u16> {
    let mut v = legal_moves(p);
    v.sort_unstable();
    let n = v.len();
    v.dedup();
    assert_eq!(n, v.len(), "chess_generateLegalMoves listed a move twice");
    v
}

/// The three hashes.
pub fn hashes(p: &ChessPosition) -> [u64; 3] {
    // SAFETY: valid pointer.
    unsafe {
        [
            lib_call("chess_hash", || ffi::chess_hash(p)),
            lib_call("chess_pawnHash", || ffi::chess_pawnHash(p)),
            lib_call("chess_materialHash", || ffi::chess_materialHash(p)),
        ]
    }
}

/// `chess_validatePosition`: `CHESS_OK` or `CHESS_ERR_INVALID_POSITION`, the position untouched
/// (a `const` argument).
pub fn validate(p: &ChessPosition) -> ChessStatus {
    let before = pos_bytes(p).to_vec();
    // SAFETY: valid pointer.
    let s = status_call("chess_validatePosition", || unsafe {
        ffi::chess_validatePosition(p)
    });
    assert!(
        matches!(s, S::CHESS_OK | S::CHESS_ERR_INVALID_POSITION),
        "chess_validatePosition returned {s:?}"
    );
    assert!(
        first_diff(&before, pos_bytes(p)).is_none(),
        "chess_validatePosition changed its const position"
    );
    s
}

/// True when the side to move is in check.
pub fn in_check(p: &ChessPosition) -> bool {
    // SAFETY: valid pointer.
    lib_call("chess_isInCheck", || unsafe { ffi::chess_isInCheck(p) })
}

/// `chess_perft` of a valid position.
pub fn perft(p: &mut ChessPosition, depth: u32) -> u64 {
    let mut n = u64::MAX;
    // SAFETY: valid pointers.
    let s = status_call("chess_perft", || unsafe {
        ffi::chess_perft(p, depth, &mut n)
    });
    assert_eq!(s, S::CHESS_OK, "chess_perft depth {depth}");
    n
}

/// `chess_perftFull` of a valid position.
pub fn perft_full(p: &mut ChessPosition, depth: u32) -> u64 {
    let mut n = u64::MAX;
    // SAFETY: valid pointers.
    let s = status_call("chess_perftFull", || unsafe {
        ffi::chess_perftFull(p, depth, &mut n)
    });
    assert_eq!(s, S::CHESS_OK, "chess_perftFull depth {depth}");
    n
}

/// The offsets inside `ChessPosition` of everything but the repetition history: the board,
/// the state and the setup tables (a few hundred bytes; their place is the compiler's choice, so
/// it is found at run time: the history's first entry is the hash before the first move).
/// Offsets past the library's `Position` (unused tail of the opaque buffer) are left out too.
pub fn state_offsets() -> &'static [usize] {
    static OFFSETS: std::sync::OnceLock<Vec<usize>> = std::sync::OnceLock::new();
    OFFSETS.get_or_init(|| {
        let size = core::mem::size_of::<chesscore::Position>().min(POS_BYTES);
        let mut p = pos_from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        let h = hashes(&p)[0].to_ne_bytes();
        let m = legal_moves(&p)[0];
        let mut u = undo_filled(0);
        // SAFETY: valid pointers.
        let s = status_call("chess_makeMove", || unsafe {
            ffi::chess_makeMove(&mut *p, m, &mut u)
        });
        assert_eq!(s, S::CHESS_OK);
        let bytes = pos_bytes(&p);
        let hits: Vec<usize> = (0..size.saturating_sub(8))
            .step_by(8)
            .filter(|&k| bytes[k..k + 8] == h)
            .collect();
        let history = HISTORY_CAPACITY * 8;
        match hits[..] {
            [k] if k + history <= size => {
                (0..size).filter(|&o| o < k || o >= k + history).collect()
            }
            _ => (0..size).collect(),
        }
    })
}

/// The move's flag (bits 12-15).
pub fn flag(m: u16) -> u16 {
    m >> 12
}

/// UCI text of a move (`chess_moveToUci`), or None for a value that is no move.
pub fn uci(m: u16) -> Option<String> {
    let mut buf = [0u8; 8];
    // SAFETY: valid buffer.
    let s = status_call("chess_moveToUci", || unsafe {
        ffi::chess_moveToUci(m, buf.as_mut_ptr() as *mut core::ffi::c_char, buf.len())
    });
    if s != S::CHESS_OK {
        return None;
    }
    let n = buf.iter().position(|&b| b == 0).expect("NUL");
    Some(String::from_utf8_lossy(&buf[..n]).into_owned())
}

/// Everything observable about a valid position, for "the same position" comparisons:
/// the FEN text, the three hashes, the legal moves as a set, the getters, the game status and
/// repetition answers.
#[derive(Debug, PartialEq, Eq, Clone)]
pub struct Snapshot {
    pub fen: String,
    pub hashes: [u64; 3],
    pub legal: Vec<u16>,
    pub side: i32,
    pub castling: u8,
    pub ep: i32,
    pub halfmove: u32,
    pub fullmove: u32,
    pub checkers: u64,
    pub in_check: bool,
    pub pieces: [u64; 14],
    pub game_status: u32,
    pub repetition: [bool; 3],
}

/// The full observable state (slower: used where a comparison needs everything).
pub fn snapshot(p: &ChessPosition) -> Snapshot {
    let mut pieces = [0u64; 14];
    for c in 0..2u32 {
        for t in 0..7u32 {
            // SAFETY: valid pointer.
            pieces[(c * 7 + t) as usize] =
                lib_call("chess_pieces", || unsafe { ffi::chess_pieces(p, c, t) });
        }
    }
    let mut gs = 0xA5A5_A5A5u32;
    // SAFETY: valid pointers; `gs` is 4 bytes like the C enum.
    let s = status_call("chess_gameStatus", || unsafe {
        ffi::chess_gameStatus(p, &mut gs as *mut u32 as *mut ffi::ChessGameStatus)
    });
    assert_eq!(s, S::CHESS_OK, "chess_gameStatus on a valid position");
    // SAFETY: valid pointer for every call below.
    unsafe {
        Snapshot {
            fen: fen_of(p),
            hashes: hashes(p),
            legal: legal_set(p),
            side: lib_call("chess_sideToMove", || ffi::chess_sideToMove(p)),
            castling: lib_call("chess_castlingRights", || ffi::chess_castlingRights(p)),
            ep: lib_call("chess_enPassantSquare", || ffi::chess_enPassantSquare(p)),
            halfmove: lib_call("chess_halfmoveClock", || ffi::chess_halfmoveClock(p)),
            fullmove: lib_call("chess_fullmoveNumber", || ffi::chess_fullmoveNumber(p)),
            checkers: lib_call("chess_checkers", || ffi::chess_checkers(p)),
            in_check: in_check(p),
            pieces,
            game_status: gs,
            repetition: [
                lib_call("chess_isRepetition", || ffi::chess_isRepetition(p, 4)),
                lib_call("chess_isRepetition", || ffi::chess_isRepetition(p, 100)),
                lib_call("chess_isRepetition", || {
                    ffi::chess_isRepetition(p, i32::MAX)
                }),
            ],
        }
    }
}

/// The core of a snapshot that contract (a) names: FEN, hashes, legal move set.
#[derive(Debug, PartialEq, Eq, Clone)]
pub struct Core {
    pub fen: String,
    pub hashes: [u64; 3],
    pub legal: Vec<u16>,
}

/// FEN, the three hashes and the legal move set.
pub fn core(p: &ChessPosition) -> Core {
    Core {
        fen: fen_of(p),
        hashes: hashes(p),
        legal: legal_set(p),
    }
}

/// Contracts (d) and (e) for a position whose `Core` is known.
pub fn check_core_round_trip(c: &Core, context: &str) {
    let mut q = new_pos();
    let s = set_fen(&mut q, &c.fen);
    assert_eq!(
        s,
        S::CHESS_OK,
        "{context}: chess_setFromFEN refuses the FEN chess_toFEN wrote: {:?}",
        c.fen
    );
    assert_eq!(
        fen_of(&q),
        c.fen,
        "{context}: FEN round trip changes the text"
    );
    assert_eq!(
        hashes(&q),
        c.hashes,
        "{context}: the hashes [hash, pawnHash, materialHash] of {:?} differ from those of the \
         position set from its own FEN",
        c.fen
    );
}

/// Contracts (d) and (e) of the move fuzzing: the FEN the library writes for `p` is accepted
/// by `chess_setFromFEN`, writes back as the same text, and gives the same three hashes.
pub fn check_fen_round_trip(p: &ChessPosition, context: &str) {
    let fen = fen_of(p);
    let mut q = new_pos();
    let s = set_fen(&mut q, &fen);
    assert_eq!(
        s,
        S::CHESS_OK,
        "{context}: chess_setFromFEN refuses the FEN chess_toFEN wrote: {fen:?}"
    );
    assert_eq!(
        fen_of(&q),
        fen,
        "{context}: FEN round trip changes the text"
    );
    assert_eq!(
        hashes(&q),
        hashes(p),
        "{context}: the hashes [hash, pawnHash, materialHash] of {fen:?} differ from those of the \
         position set from its own FEN"
    );
}

// ---------------------------------------------------------------------------------------------
// Seeds and input bytes.
// ---------------------------------------------------------------------------------------------

/// Start, Kiwipete, and positions with en passant (pins along ranks and diagonals), castling
/// and promotions, from testdata/standard.epd and testdata/edge.epd (and one ep-pin position).
pub const SEED_FENS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "3k4/3p4/8/K1P4r/8/8/8/8 b - - 0 1",
    "8/8/1k6/2b5/2pP4/8/5K2/8 b - d3 0 1",
    "8/8/4k3/8/2p5/8/B2P2K1/8 w - - 0 1",
    "1k6/8/8/5pP1/4K1P1/8/8/8 w - f6 0 1",
    "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
    "r3k2r/1b4bq/8/8/8/8/7B/R3K2R w KQkq - 0 1",
    "r3k2r/8/3Q4/8/8/5q2/8/R3K2R b KQkq - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "2K2r2/4P3/8/8/8/8/8/3k4 w - - 0 1",
    "8/k1P5/8/1K6/8/8/8/8 w - - 0 1",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "rnbq1b2/p2k2p1/Bp4r1/2pPppPp/P4P1P/NRP5/3P2K1/2B2QNR w - f6 0 22",
];

/// The perft suites, compiled in.
pub const STANDARD_EPD: &str = include_str!("../../testdata/standard.epd");
/// The edge-case suite, compiled in.
pub const EDGE_EPD: &str = include_str!("../../testdata/edge.epd");

/// The FEN of every line of an EPD text (the part before the first ';').
pub fn epd_fens(text: &str) -> Vec<&str> {
    text.lines()
        .filter_map(|l| l.split(';').next())
        .map(str::trim)
        .filter(|f| !f.is_empty())
        .collect()
}

/// Reads an input as a stream of small decisions; past the end it yields zeros.
pub struct Bytes<'a> {
    data: &'a [u8],
    at: usize,
}

impl<'a> Bytes<'a> {
    pub fn new(data: &'a [u8]) -> Self {
        Bytes { data, at: 0 }
    }
    pub fn is_empty(&self) -> bool {
        self.at >= self.data.len()
    }
    pub fn u8(&mut self) -> u8 {
        let b = self.data.get(self.at).copied().unwrap_or(0);
        self.at += 1;
        b
    }
    pub fn u16(&mut self) -> u16 {
        u16::from_le_bytes([self.u8(), self.u8()])
    }
    pub fn u32(&mut self) -> u32 {
        u32::from_le_bytes([self.u8(), self.u8(), self.u8(), self.u8()])
    }
    /// A value below `n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        if n <= 256 {
            self.u8() as usize % n
        } else {
            self.u16() as usize % n
        }
    }
    /// The unread rest.
    pub fn rest(&self) -> &'a [u8] {
        &self.data[self.at.min(self.data.len())..]
    }
}
