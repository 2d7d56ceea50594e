//! `corrupt`: a valid position (a seed FEN and a few legal moves) whose bytes are then
//! overwritten (offset/value pairs where the board and state live, or anywhere,
//! word bit flips, all zeros, all fuzzer garbage), handed to every exported function that
//! takes a position.
//!
//! Contracts, per call (on a fresh copy of the same corrupted bytes):
//! * no call returns `CHESS_ERR_INTERNAL` (8), and no call panics inside the library (a
//!   getter's caught panic shows only as its fallback value: the panic hook catches it);
//! * each returns `CHESS_OK`, `CHESS_ERR_INVALID_POSITION`, or one of the function's ordinary
//!   errors (ILLEGAL_MOVE, HISTORY_FULL, BAD_UNDO, BUFFER_TOO_SMALL, INVALID_ARGUMENT);
//! * a call that returns an error leaves the position bytes and its output buffers (pre-filled
//!   with a pattern) unchanged; a function taking `const ChessPosition *` never changes it;
//! * `chess_validatePosition` returns OK or INVALID_POSITION; when it refuses the bytes, every
//!   checked call that changes a position (make, unmake, null moves, perft, perftFull,
//!   perftDivide) returns `CHESS_ERR_INVALID_POSITION`; when it accepts them, their FEN is
//!   accepted by `chess_setFromFEN` and gives the same hashes and legal moves;
//! * outputs are well formed on success: move counts at most 256, NUL-terminated text within
//!   the buffer, divide counts summing to the total, the getters that the cheap check bounds
//!   (side, castling rights, en passant square, halfmove clock) inside their ranges.
//!
//! Failures name the function and the status. Built without debug assertions by scripts/fuzz
//! (the release behaviour a C caller gets; a debug build of the library checks the whole
//! position on every call, about 9x slower here).
#![no_main]

use chesscore::ffi::{self, ChessGameStatus};
use chesscore_fuzz::*;
use core::ffi::c_char;

const PATTERN: u8 = 0xA5;

struct Ctx {
    corrupted: Vec<u8>,
    pos: Box<ChessPosition>,
    how: String,
    /// What `chess_validatePosition` said of the corrupted bytes.
    valid: bool,
}

impl Ctx {
    /// A fresh copy of the corrupted bytes.
    fn reset(&mut self) -> &mut ChessPosition {
        pos_bytes_mut(&mut self.pos).copy_from_slice(&self.corrupted);
        &mut self.pos
    }

    /// A checked call that changes a position runs the full check itself: when
    /// `chess_validatePosition` refuses the bytes, so must it.
    fn refused_if_invalid(&self, name: &str, s: S) {
        if !self.valid && !(s == S::CHESS_ERR_INTERNAL && ignoring("internal")) {
            assert_eq!(
                s,
                S::CHESS_ERR_INVALID_POSITION,
                "{name} returned {s:?} on bytes chess_validatePosition refuses ({})",
                self.how
            );
        }
    }

    /// Checks one call: the status is allowed, and on error (or for a const position always)
    /// the position and the outputs are unchanged.
    fn check(
        &self,
        name: &str,
        s: S,
        allowed: &[S],
        is_const: bool,
        outs: &[(&str, &[u8], &[u8])],
    ) {
        if s == S::CHESS_ERR_INTERNAL && ignoring("internal") {
            return;
        }
        assert!(
            s == S::CHESS_OK || s == S::CHESS_ERR_INVALID_POSITION || allowed.contains(&s),
            "{name} returned {s:?} ({}) on a corrupted position ({})",
            s as i32,
            self.how
        );
        if s != S::CHESS_OK || is_const {
            if let Some(at) = first_diff(&self.corrupted, pos_bytes(&self.pos)) {
                panic!(
                    "{name} returned {s:?} and changed the position at byte {at} ({}){}",
                    self.how,
                    if is_const { " (a const position)" } else { "" }
                );
            }
        }
        if s != S::CHESS_OK {
            for (label, before, after) in outs {
                if let Some(at) = first_diff(before, after) {
                    panic!(
                        "{name} returned {s:?} but wrote its output {label} at byte {at} ({})",
                        self.how
                    );
                }
            }
        }
    }
}

fn bytes_of<T>(v: &T) -> &[u8] {
    // SAFETY: plain-data outputs (integers, arrays of integers) only.
    unsafe { core::slice::from_raw_parts(v as *const T as *const u8, core::mem::size_of::<T>()) }
}

fn text_ok(name: &str, buf: &[u8], len: usize) {
    assert!(
        buf[..len].contains(&0),
        "{name}: OK but no NUL within the {len} bytes given"
    );
}

libfuzzer_sys::fuzz_target!(init: chesscore_fuzz::init(), |data: &[u8]| run(data));

fn run(data: &[u8]) {
    let mut b = Bytes::new(data);
    let seed = SEED_FENS[b.below(SEED_FENS.len())];
    let mut pos = pos_from_fen(seed);
    set_context(format!("seed {seed:?}\n"));

    // A few legal moves, keeping the last one's record for the unmake calls.
    let mut last: Option<(u16, ChessUndo)> = None;
    for _ in 0..b.below(5) {
        let legal = legal_moves(&pos);
        if legal.is_empty() {
            break;
        }
        let m = legal[b.below(legal.len())];
        let mut u = undo_filled(0);
        // SAFETY: valid pointers.
        let s = status_call("chess_makeMove", || unsafe {
            ffi::chess_makeMove(&mut *pos, m, &mut u)
        });
        assert_eq!(s, S::CHESS_OK);
        add_context(&format!("chess_makeMove {}", uci(m).unwrap_or_default()));
        last = Some((m, u));
    }
    let legal = legal_moves(&pos);
    let m = if legal.is_empty() {
        b.u16()
    } else {
        legal[b.below(legal.len())]
    };
    let mut null_undo = undo_filled(0);
    let null_ok = {
        let mut q = clone_pos(&pos);
        // SAFETY: valid pointers.
        status_call("chess_makeNullMove", || unsafe {
            ffi::chess_makeNullMove(&mut *q, &mut null_undo)
        }) == S::CHESS_OK
    };

    // Corrupt.
    let mode = b.u8() % 6;
    let bytes = pos_bytes_mut(&mut pos);
    let state = state_offsets();
    let how = match mode {
        // Values at offsets of the board and state (twice as likely), or anywhere.
        0..=2 => {
            let n = 1 + b.below(8);
            let mut edits = Vec::new();
            for _ in 0..n {
                let off = if mode == 2 {
                    b.u16() as usize % POS_BYTES
                } else {
                    state[b.u16() as usize % state.len()]
                };
                let v = b.u8();
                bytes[off] = v;
                edits.push(format!("[{off}]={v:#04x}"));
            }
            format!("bytes set: {}", edits.join(" "))
        }
        // Single bits of the board and state.
        3 => {
            let n = 1 + b.below(8);
            let mut edits = Vec::new();
            for _ in 0..n {
                let off = state[b.u16() as usize % state.len()];
                let bit = b.below(8);
                bytes[off] ^= 1 << bit;
                edits.push(format!("[{off}]^={:#04x}", 1u8 << bit));
            }
            format!("bits flipped: {}", edits.join(" "))
        }
        4 => {
            bytes.fill(0);
            "all zeros".into()
        }
        _ => {
            let rest = b.rest();
            if rest.is_empty() {
                bytes.fill(0xFF);
            } else {
                for (i, x) in bytes.iter_mut().enumerate() {
                    *x = rest[i % rest.len()] ^ (i / rest.len()) as u8;
                }
            }
            format!("garbage from {} input bytes", rest.len())
        }
    };
    add_context(&format!("corrupted: {how}"));
    let corrupted = pos_bytes(&pos).to_vec();
    let mut c = Ctx {
        corrupted,
        pos,
        how,
        valid: false,
    };
    c.valid = validate(c.reset()) == S::CHESS_OK;
    add_context(&format!(
        "chess_validatePosition: {}",
        if c.valid { "OK" } else { "INVALID_POSITION" }
    ));

    // Move generation.
    for (legal, class, mask) in [
        (true, 0u32, 0x7Eu8),
        (false, 0, 0x7E),
        (true, 1, 0x7E),
        (true, 2, 0x7E),
        (false, 1, 0x04),
        (true, b.u8() as u32 % 4, b.u8()),
    ] {
        let p = c.reset();
        let mut out = RawList::filled(PATTERN);
        let before = out.bytes().to_vec();
        // SAFETY: valid pointers.
        let s = status_call("chess_generateMoves", || unsafe {
            ffi::chess_generateMoves(p, legal, class, mask, out.ptr())
        });
        let name = format!("chess_generateMoves(legal {legal}, class {class}, mask {mask:#x})");
        c.check(
            &name,
            s,
            &[S::CHESS_ERR_INVALID_ARGUMENT],
            true,
            &[("list", &before, out.bytes())],
        );
        if s == S::CHESS_OK {
            assert!(out.count() <= 256, "{name}: count {}", out.count());
        }
    }
    for (name, legal) in [
        ("chess_generateLegalMoves", true),
        ("chess_generatePseudoLegalMoves", false),
    ] {
        let p = c.reset();
        let mut out = RawList::filled(PATTERN);
        let before = out.bytes().to_vec();
        // SAFETY: valid pointers.
        let s = status_call(name, || unsafe {
            if legal {
                ffi::chess_generateLegalMoves(p, out.ptr())
            } else {
                ffi::chess_generatePseudoLegalMoves(p, out.ptr())
            }
        });
        c.check(name, s, &[], true, &[("list", &before, out.bytes())]);
        if s == S::CHESS_OK {
            assert!(out.count() <= 256, "{name}: count {}", out.count());
        }
    }

    // Make and unmake, checked and unchecked, with a move of the pre-corruption position and
    // the record of the last move made before the corruption.
    let undos: Vec<(&str, u16, ChessUndo)> = {
        let mut v = Vec::new();
        if let Some((lm, lu)) = &last {
            v.push(("last move's record", *lm, clone_undo(lu)));
        }
        v.push(("pattern record", m, undo_filled(PATTERN)));
        v
    };
    for checked in [true, false] {
        let p = c.reset();
        let mut u = undo_filled(PATTERN);
        let before = undo_bytes(&u).to_vec();
        let name = if checked {
            "chess_makeMove"
        } else {
            "chess_makeMoveUnchecked"
        };
        add_context(&format!("calling {name}({m:#06x} {:?})", uci(m)));
        // SAFETY: valid pointers.
        let s = status_call(name, || unsafe {
            if checked {
                ffi::chess_makeMove(p, m, &mut u)
            } else {
                ffi::chess_makeMoveUnchecked(p, m, &mut u)
            }
        });
        let name = format!("{name}({m:#06x})");
        // The unchecked make refuses too past 1024 moves, and in debug builds a move the
        // pseudo-legal generator does not produce.
        let allowed = [S::CHESS_ERR_ILLEGAL_MOVE, S::CHESS_ERR_HISTORY_FULL];
        c.check(
            &name,
            s,
            &allowed,
            false,
            &[("undo", &before, undo_bytes(&u))],
        );
        if checked {
            c.refused_if_invalid(&name, s);
        }
        if s == S::CHESS_OK {
            // Then take it back, checked, with the record just filled.
            let after_make = pos_bytes(&c.pos).to_vec();
            let p: &mut ChessPosition = &mut c.pos;
            add_context(&format!(
                "calling chess_unmakeMove({m:#06x}) with the record {name} filled"
            ));
            // SAFETY: valid pointers.
            let s2 = status_call("chess_unmakeMove", || unsafe {
                ffi::chess_unmakeMove(p, m, &u)
            });
            assert!(
                (s2 == S::CHESS_ERR_INTERNAL && ignoring("internal"))
                    || matches!(
                        s2,
                        S::CHESS_OK | S::CHESS_ERR_INVALID_POSITION | S::CHESS_ERR_BAD_UNDO
                    ),
                "chess_unmakeMove after {name} returned {s2:?} ({})",
                c.how
            );
            let internal_ignored = s2 == S::CHESS_ERR_INTERNAL && ignoring("internal");
            if s2 != S::CHESS_OK && !internal_ignored {
                assert!(
                    first_diff(&after_make, pos_bytes(&c.pos)).is_none(),
                    "chess_unmakeMove after {name} returned {s2:?} but changed the position ({})",
                    c.how
                );
            }
        }
    }
    for (label, mv, u) in &undos {
        for checked in [true, false] {
            let p = c.reset();
            let name = if checked {
                "chess_unmakeMove"
            } else {
                "chess_unmakeMoveUnchecked"
            };
            let before = undo_bytes(u).to_vec();
            add_context(&format!(
                "calling {name}({mv:#06x} {:?}, {label})",
                uci(*mv)
            ));
            // SAFETY: valid pointers.
            let s = status_call(name, || unsafe {
                if checked {
                    ffi::chess_unmakeMove(p, *mv, u)
                } else {
                    ffi::chess_unmakeMoveUnchecked(p, *mv, u)
                }
            });
            let name = format!("{name}({mv:#06x}, {label})");
            // Debug builds refuse a record that would break the board in the unchecked
            // unmake too.
            c.check(
                &name,
                s,
                &[S::CHESS_ERR_BAD_UNDO],
                false,
                &[("const undo", &before, undo_bytes(u))],
            );
            if checked {
                c.refused_if_invalid(&name, s);
            }
            assert_eq!(
                undo_bytes(u),
                &before[..],
                "{name} wrote into the const undo record"
            );
        }
    }
    {
        let p = c.reset();
        let mut u = undo_filled(PATTERN);
        let before = undo_bytes(&u).to_vec();
        add_context("calling chess_makeNullMove");
        // SAFETY: valid pointers.
        let s = status_call("chess_makeNullMove", || unsafe {
            ffi::chess_makeNullMove(p, &mut u)
        });
        c.check(
            "chess_makeNullMove",
            s,
            &[S::CHESS_ERR_ILLEGAL_MOVE, S::CHESS_ERR_HISTORY_FULL],
            false,
            &[("undo", &before, undo_bytes(&u))],
        );
        c.refused_if_invalid("chess_makeNullMove", s);
        let records: Vec<(&str, ChessUndo)> = {
            let mut v = vec![("pattern record", undo_filled(PATTERN))];
            if null_ok {
                v.push((
                    "null record of the pre-corruption position",
                    clone_undo(&null_undo),
                ));
            }
            if let Some((_, lu)) = &last {
                v.push(("last move's record", clone_undo(lu)));
            }
            v
        };
        for (label, u) in &records {
            let p = c.reset();
            let before = undo_bytes(u).to_vec();
            add_context(&format!("calling chess_unmakeNullMove({label})"));
            // SAFETY: valid pointers.
            let s = status_call("chess_unmakeNullMove", || unsafe {
                ffi::chess_unmakeNullMove(p, u)
            });
            c.check(
                &format!("chess_unmakeNullMove({label})"),
                s,
                &[S::CHESS_ERR_BAD_UNDO],
                false,
                &[("const undo", &before, undo_bytes(u))],
            );
            c.refused_if_invalid(&format!("chess_unmakeNullMove({label})"), s);
        }
    }

    // Perft in every flavour.
    for depth in 1..=2u32 {
        for (name, full) in [("chess_perft", false), ("chess_perftFull", true)] {
            let p = c.reset();
            let mut n = u64::from_ne_bytes([PATTERN; 8]);
            add_context(&format!("calling {name}(depth {depth})"));
            // SAFETY: valid pointers.
            let s = status_call(name, || unsafe {
                if full {
                    ffi::chess_perftFull(p, depth, &mut n)
                } else {
                    ffi::chess_perft(p, depth, &mut n)
                }
            });
            let before = [PATTERN; 8];
            c.check(
                &format!("{name}(depth {depth})"),
                s,
                &[],
                false,
                &[("nodes", &before, &n.to_ne_bytes())],
            );
            c.refused_if_invalid(&format!("{name}(depth {depth})"), s);
        }
        for full in [false, true] {
            let p = c.reset();
            let mut n = u64::from_ne_bytes([PATTERN; 8]);
            add_context(&format!(
                "calling chess_perftParallel(depth {depth}, 1 thread, full {full})"
            ));
            // SAFETY: valid pointers; the position is not written during the call.
            let s = status_call("chess_perftParallel", || unsafe {
                ffi::chess_perftParallel(p, depth, 1, full, &mut n)
            });
            let before = [PATTERN; 8];
            c.check(
                &format!("chess_perftParallel(depth {depth}, 1 thread, full {full})"),
                s,
                &[],
                true,
                &[("nodes", &before, &n.to_ne_bytes())],
            );
        }
        {
            let p = c.reset();
            let mut list = RawList::filled(PATTERN);
            let mut counts = [u64::from_ne_bytes([PATTERN; 8]); 256];
            let mut total = u64::from_ne_bytes([PATTERN; 8]);
            let (lb, cb, tb) = (
                list.bytes().to_vec(),
                bytes_of(&counts).to_vec(),
                total.to_ne_bytes(),
            );
            add_context(&format!("calling chess_perftDivide(depth {depth})"));
            // SAFETY: valid pointers; `counts` holds 256 entries.
            let s = status_call("chess_perftDivide", || unsafe {
                ffi::chess_perftDivide(
                    p,
                    depth,
                    list.ptr(),
                    counts.as_mut_ptr(),
                    counts.len(),
                    &mut total,
                )
            });
            let name = format!("chess_perftDivide(depth {depth})");
            c.check(
                &name,
                s,
                &[S::CHESS_ERR_BUFFER_TOO_SMALL],
                false,
                &[
                    ("moves", &lb, list.bytes()),
                    ("counts", &cb, bytes_of(&counts)),
                    ("total", &tb, &total.to_ne_bytes()),
                ],
            );
            c.refused_if_invalid(&name, s);
            if s == S::CHESS_OK {
                assert!(list.count() <= 256, "{name}: count {}", list.count());
                let sum = counts[..list.count() as usize]
                    .iter()
                    .fold(0u64, |a, &x| a.wrapping_add(x));
                assert_eq!(
                    sum, total,
                    "{name}: counts do not sum to the total ({})",
                    c.how
                );
            }
        }
    }

    // Text out.
    let short = b.below(200);
    for (name, full_len) in [
        ("chess_toFEN", ffi::CHESS_FEN_MAX),
        ("chess_positionToText", ffi::CHESS_POSITION_TEXT_SIZE),
    ] {
        for len in [full_len, short] {
            let p = c.reset();
            let mut buf = vec![PATTERN; full_len.max(len)];
            // SAFETY: `buf` is valid for `len` bytes.
            let s = status_call(name, || unsafe {
                if name == "chess_toFEN" {
                    ffi::chess_toFEN(p, buf.as_mut_ptr() as *mut c_char, len)
                } else {
                    ffi::chess_positionToText(p, buf.as_mut_ptr() as *mut c_char, len)
                }
            });
            let before = vec![PATTERN; buf.len()];
            let allowed: &[S] = if len < full_len {
                &[S::CHESS_ERR_BUFFER_TOO_SMALL]
            } else {
                &[]
            };
            c.check(
                &format!("{name}(len {len})"),
                s,
                allowed,
                true,
                &[("buffer", &before, &buf)],
            );
            if s == S::CHESS_OK {
                text_ok(name, &buf, len);
                assert!(
                    buf[len..].iter().all(|&x| x == PATTERN),
                    "{name} wrote past len {len}"
                );
            }
        }
    }

    // Notation in.
    let uci_text = uci(m).unwrap_or_else(|| "e2e4".into());
    let fuzz_text: String = (0..b.below(8))
        .map(|_| (b.u8() % 96 + 32) as char)
        .collect();
    for text in [uci_text.as_str(), fuzz_text.as_str()] {
        let p = c.reset();
        let ct = std::ffi::CString::new(text).unwrap();
        let mut out = u16::from_ne_bytes([PATTERN; 2]);
        // SAFETY: valid pointers.
        let s = status_call("chess_moveFromUci", || unsafe {
            ffi::chess_moveFromUci(p, ct.as_ptr(), &mut out)
        });
        c.check(
            &format!("chess_moveFromUci({text:?})"),
            s,
            &[S::CHESS_ERR_INVALID_ARGUMENT, S::CHESS_ERR_ILLEGAL_MOVE],
            true,
            &[("move", &[PATTERN; 2], &out.to_ne_bytes())],
        );
    }
    for micro in [ffi::chess_moveToMicro(m), b.u16()] {
        let p = c.reset();
        let mut out = u16::from_ne_bytes([PATTERN; 2]);
        // SAFETY: valid pointers.
        let s = status_call("chess_moveFromMicro", || unsafe {
            ffi::chess_moveFromMicro(p, micro, &mut out)
        });
        c.check(
            &format!("chess_moveFromMicro({micro:#06x})"),
            s,
            &[S::CHESS_ERR_INVALID_ARGUMENT, S::CHESS_ERR_ILLEGAL_MOVE],
            true,
            &[("move", &[PATTERN; 2], &out.to_ne_bytes())],
        );
    }

    // Game status, predicates and getters: never a panic, values in range, position untouched.
    {
        let p = c.reset();
        let mut out = u32::from_ne_bytes([PATTERN; 4]);
        // SAFETY: valid pointers; `out` has the size of the C enum.
        let s = status_call("chess_gameStatus", || unsafe {
            ffi::chess_gameStatus(p, &mut out as *mut u32 as *mut ChessGameStatus)
        });
        c.check(
            "chess_gameStatus",
            s,
            &[],
            true,
            &[("status", &[PATTERN; 4], &out.to_ne_bytes())],
        );
        if s == S::CHESS_OK {
            assert!(out <= 5, "chess_gameStatus wrote {out}");
        }
    }

    // History compaction: OK or INVALID_POSITION, nothing written on error.
    {
        let p = c.reset();
        add_context("calling chess_compactHistory");
        // SAFETY: valid pointer.
        let s = status_call("chess_compactHistory", || unsafe {
            ffi::chess_compactHistory(p)
        });
        c.check("chess_compactHistory", s, &[], false, &[]);
    }

    // Bytes chess_validatePosition accepts are a position: its FEN is accepted and gives the
    // same hashes and moves.
    if c.valid {
        let p: &ChessPosition = c.reset();
        let fen = match to_fen(p) {
            Ok(f) => f,
            Err(s) => panic!(
                "chess_toFEN returned {s:?} on bytes chess_validatePosition accepts ({})",
                c.how
            ),
        };
        let mut q = new_pos();
        let s = set_fen(&mut q, &fen);
        assert_eq!(s, S::CHESS_OK, "chess_setFromFEN refuses {fen:?}, written for bytes chess_validatePosition accepts ({})", c.how);
        assert_eq!(hashes(&q), hashes(p), "hashes of bytes chess_validatePosition accepts differ from those of their FEN {fen:?} ({})", c.how);
        assert_eq!(legal_set(&q), legal_set(p), "legal moves of bytes chess_validatePosition accepts differ from those of their FEN {fen:?} ({})", c.how);
    }

    // Predicates and getters last (values in their documented ranges: a check that a run can
    // skip with CHESSCORE_FUZZ_IGNORE=ranges).
    let arb = b.u16();
    let sq = b.u8() as u32 % 64;
    let limit = b.u32() as i32;
    let ranges_off = ignoring("ranges");
    let how = c.how.clone();
    let p: &ChessPosition = c.reset();
    // SAFETY: valid pointer for every call below.
    unsafe {
        lib_call("chess_isLegalMove", || ffi::chess_isLegalMove(p, m));
        lib_call("chess_isLegalMove", || ffi::chess_isLegalMove(p, arb));
        lib_call("chess_isInCheck", || ffi::chess_isInCheck(p));
        lib_call("chess_isRepetition", || ffi::chess_isRepetition(p, limit));
        lib_call("chess_isRepetition", || {
            ffi::chess_isRepetition(p, i32::MAX)
        });
        lib_call("chess_hash", || ffi::chess_hash(p));
        lib_call("chess_pawnHash", || ffi::chess_pawnHash(p));
        lib_call("chess_materialHash", || ffi::chess_materialHash(p));
        let side = lib_call("chess_sideToMove", || ffi::chess_sideToMove(p));
        assert!(
            ranges_off || (-1..=1).contains(&side),
            "chess_sideToMove returned {side} ({how})"
        );
        // Any byte: on a corrupted but plausible position the read-only calls answer
        // nonsense by design (docs/decisions.md, "Corrupted and uninitialised positions").
        lib_call("chess_pieceOn", || ffi::chess_pieceOn(p, sq));
        for color in 0..2 {
            for t in 0..7 {
                lib_call("chess_pieces", || ffi::chess_pieces(p, color, t));
            }
        }
        let cr = lib_call("chess_castlingRights", || ffi::chess_castlingRights(p));
        assert!(
            ranges_off || cr <= 15,
            "chess_castlingRights returned {cr} ({how})"
        );
        let ep = lib_call("chess_enPassantSquare", || ffi::chess_enPassantSquare(p));
        assert!(
            ranges_off || (-1..64).contains(&ep),
            "chess_enPassantSquare returned {ep} ({how})"
        );
        let hm = lib_call("chess_halfmoveClock", || ffi::chess_halfmoveClock(p));
        assert!(
            ranges_off || hm <= 65535,
            "chess_halfmoveClock returned {hm} ({how})"
        );
        lib_call("chess_fullmoveNumber", || ffi::chess_fullmoveNumber(p));
        lib_call("chess_attackersTo", || ffi::chess_attackersTo(p, sq));
        lib_call("chess_checkers", || ffi::chess_checkers(p));
    }
    c.check("the predicates and getters", S::CHESS_OK, &[], true, &[]);
}
