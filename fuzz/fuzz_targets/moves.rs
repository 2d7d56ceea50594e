//! `moves`: a byte stream drives a game from one of the seed positions through the checked
//! and unchecked make/unmake calls, null moves, arbitrary 16-bit move values, and forged
//! unmakes (a record with bytes flipped or overwritten, a different move value, an older
//! record, a sibling move's record, the record of the wrong kind of move, a garbage record).
//!
//! Contracts (letters as in fuzz/README.md):
//! (a) a checked unmake with the true move and record succeeds and restores the previous
//!     position exactly: FEN text, the three hashes, the legal move set; the same for the
//!     unchecked unmake of a generated move with its true record, and for the null-move unmake;
//! (b) a forged unmake returns `CHESS_ERR_BAD_UNDO` with the position's bytes (and the
//!     record's) unchanged, or `CHESS_OK` with the position equal to the true previous one as
//!     in (a) and in everything else observable (every getter, game status, repetition):
//!     bytes may differ only where nothing observable does (e.g. padding);
//! (c) `chess_makeMove` of an arbitrary 16-bit value fails with `CHESS_ERR_ILLEGAL_MOVE` (or
//!     `CHESS_ERR_HISTORY_FULL`) leaving position and record bytes unchanged, or succeeds and
//!     the value is in the legal move list; a value in the list is never refused as illegal,
//!     and `chess_isLegalMove` agrees with the list;
//! (d) after every step the FEN `chess_toFEN` writes is accepted by `chess_setFromFEN` and
//!     writes back as the same text;
//! (e) the position's three hashes equal those of the position set from its own FEN.
//! Also: `chess_validatePosition` accepts every position reached; `chess_compactHistory` keeps
//! the position and its moves made before can no longer be taken back (or only correctly);
//! a generated move's UCI text and micro move resolve back to it; `chess_makeNullMove`
//! is refused exactly in check, leaving the bytes unchanged; unmaking the whole game with the
//! true records gives back the seed FEN.
#![no_main]

use chesscore::ffi;
use chesscore_fuzz::*;

/// The stack never grows past this (below the 1024-entry history, which unchecked makes
/// would overflow without a status).
const MAX_DEPTH: usize = 600;

struct Entry {
    /// `None` for a null move.
    mv: Option<u16>,
    undo: ChessUndo,
    /// The position before the move: FEN, hashes, legal moves (sorted).
    prev: Core,
}

fn describe(mv: Option<u16>) -> String {
    match mv {
        None => "null move".into(),
        Some(m) => format!("{m:#06x} ({})", uci(m).unwrap_or_else(|| "no move".into())),
    }
}

/// Calls the checked unmake for `mv` (None: the null-move unmake).
fn checked_unmake(pos: &mut ChessPosition, mv: Option<u16>, undo: &ChessUndo) -> (&'static str, S) {
    // SAFETY: valid pointers.
    match mv {
        Some(m) => (
            "chess_unmakeMove",
            status_call("chess_unmakeMove", || unsafe {
                ffi::chess_unmakeMove(pos, m, undo)
            }),
        ),
        None => (
            "chess_unmakeNullMove",
            status_call("chess_unmakeNullMove", || unsafe {
                ffi::chess_unmakeNullMove(pos, undo)
            }),
        ),
    }
}

/// The FEN fields (board, side, castling, ep, halfmove, fullmove) and the parts "hash",
/// "pawnHash", "materialHash", "moves" in which two positions differ.
fn differences(a: &Core, b: &Core) -> Vec<&'static str> {
    const FIELDS: [&str; 6] = ["board", "side", "castling", "ep", "halfmove", "fullmove"];
    let mut d: Vec<&'static str> = FIELDS
        .iter()
        .zip(a.fen.split(' ').zip(b.fen.split(' ')))
        .filter(|(_, (x, y))| x != y)
        .map(|(f, _)| *f)
        .collect();
    for (i, name) in ["hash", "pawnHash", "materialHash"].iter().enumerate() {
        if a.hashes[i] != b.hashes[i] {
            d.push(name);
        }
    }
    if a.legal != b.legal {
        d.push("moves");
    }
    d
}

/// Triage aid (see `chesscore_fuzz::ignoring`): an accepted forged unmake whose only
/// differences are all listed in `CHESSCORE_FUZZ_IGNORE` (e.g. `halfmove,ep`) passes, with the
/// true previous position put back.
fn ignored(diff: &[&str]) -> bool {
    !diff.is_empty() && diff.iter().all(|d| ignoring(d))
}

/// Calls the checked unmake with a possibly forged move and record and checks contract (b).
/// Returns true when the unmake went through (the caller pops).
fn forged_unmake(
    pos: &mut ChessPosition,
    mv: Option<u16>,
    undo: &ChessUndo,
    truth: &Entry,
    how: &str,
) -> bool {
    let before = clone_pos(pos);
    let undo_before = undo_bytes(undo).to_vec();
    let (name, s) = checked_unmake(pos, mv, undo);
    assert_eq!(
        undo_bytes(undo),
        &undo_before[..],
        "{name} wrote into the const undo record"
    );
    let truth_desc = format!(
        "true move {}, position before it {:?}",
        describe(truth.mv),
        truth.prev.fen
    );
    match s {
        S::CHESS_ERR_BAD_UNDO => {
            if let Some(at) = first_diff(pos_bytes(&before), pos_bytes(pos)) {
                panic!("{name} ({how}) returned BAD_UNDO but changed the position at byte {at}; {truth_desc}");
            }
            false
        }
        S::CHESS_OK => {
            let what = format!(
                "{name} accepted a forged unmake ({how}; move {}, record {:02x?}; {truth_desc})",
                describe(mv),
                undo_bytes(undo)
            );
            let mut want = before;
            let (tname, ts) = checked_unmake(&mut want, truth.mv, &truth.undo);
            assert_eq!(ts, S::CHESS_OK, "{tname} of the true move and record");
            let got = core(pos);
            if got != truth.prev {
                if ignored(&differences(&got, &truth.prev)) {
                    pos_bytes_mut(pos).copy_from_slice(pos_bytes(&want));
                    return true;
                }
                panic!("{what}: the position is not the one before the move (differs in {:?})\n got: {got:?}\nwant: {:?}", differences(&got, &truth.prev), truth.prev);
            }
            // Everything else observable: against the true unmake of the same position.
            let (got, want) = (snapshot(pos), snapshot(&want));
            if got != want {
                panic!("{what}: the position differs from the true unmake's\n got: {got:?}\nwant: {want:?}");
            }
            true
        }
        other => panic!(
            "{name} ({how}) returned {other:?}: only OK or BAD_UNDO are allowed; {truth_desc}"
        ),
    }
}

/// Takes back the top entry with its true move and record and checks contract (a).
fn true_unmake(pos: &mut ChessPosition, stack: &mut Vec<Entry>, unchecked: bool) {
    let e = stack.pop().expect("non-empty");
    let undo_before = undo_bytes(&e.undo).to_vec();
    let (name, s) = match e.mv {
        Some(m) if unchecked => (
            "chess_unmakeMoveUnchecked",
            // SAFETY: valid pointers.
            status_call("chess_unmakeMoveUnchecked", || unsafe {
                ffi::chess_unmakeMoveUnchecked(pos, m, &e.undo)
            }),
        ),
        _ => checked_unmake(pos, e.mv, &e.undo),
    };
    assert_eq!(
        undo_bytes(&e.undo),
        &undo_before[..],
        "{name} wrote into the const undo record"
    );
    assert_eq!(
        s,
        S::CHESS_OK,
        "{name} refused the true move {} and record (position before it: {:?})",
        describe(e.mv),
        e.prev.fen
    );
    let got = core(pos);
    if got != e.prev {
        panic!(
            "{name} of the true move {} and record: the position is not the one before the move\n got: {got:?}\nwant: {:?}",
            describe(e.mv),
            e.prev
        );
    }
}

/// Notation round trips of a generated move.
fn check_notation(pos: &ChessPosition, fen: &str, m: u16) {
    let text = uci(m)
        .unwrap_or_else(|| panic!("chess_moveToUci refused generated move {m:#06x} in {fen:?}"));
    let c = std::ffi::CString::new(text.clone()).unwrap();
    let mut out = 0u16;
    // SAFETY: valid pointers.
    let s = status_call("chess_moveFromUci", || unsafe {
        ffi::chess_moveFromUci(pos, c.as_ptr(), &mut out)
    });
    assert_eq!(
        (s, out),
        (S::CHESS_OK, m),
        "chess_moveFromUci({text:?}) in {fen:?}"
    );
    let micro = lib_call("chess_moveToMicro", || ffi::chess_moveToMicro(m));
    let mut out = 0u16;
    // SAFETY: valid pointers.
    let s = status_call("chess_moveFromMicro", || unsafe {
        ffi::chess_moveFromMicro(pos, micro, &mut out)
    });
    assert_eq!(
        (s, out),
        (S::CHESS_OK, m),
        "chess_moveFromMicro({micro:#06x}) of {text} in {fen:?}"
    );
}

libfuzzer_sys::fuzz_target!(init: chesscore_fuzz::init(), |data: &[u8]| run(data));

fn run(data: &[u8]) {
    let mut b = Bytes::new(data);
    let seed = SEED_FENS[b.below(SEED_FENS.len())];
    let mut pos = pos_from_fen(seed);
    let mut stack: Vec<Entry> = Vec::new();
    let mut base = seed.to_string();
    set_context(format!("seed {seed:?}\n"));

    let mut step = 0;
    loop {
        // (d), (e) for the position as it stands, and what the step below starts from.
        let cur = core(&pos);
        check_core_round_trip(&cur, &format!("after step {step}"));
        assert_eq!(
            validate(&pos),
            S::CHESS_OK,
            "after step {step}: chess_validatePosition refuses {:?}",
            cur.fen
        );
        if b.is_empty() {
            break;
        }
        step += 1;
        let op = b.u8();
        let full = stack.len() >= MAX_DEPTH;
        match op % 8 {
            // Make a generated move: checked, unchecked, or checked after notation round trips.
            0 | 1 | 7 if !cur.legal.is_empty() && !full => {
                let legal = legal_moves(&pos); // generator order
                let m = legal[b.below(legal.len())];
                if op % 8 == 7 {
                    check_notation(&pos, &cur.fen, m);
                }
                let unchecked = op % 8 == 1;
                let name = if unchecked {
                    "chess_makeMoveUnchecked"
                } else {
                    "chess_makeMove"
                };
                add_context(&format!("{step}: {name} {}", describe(Some(m))));
                let mut undo = undo_filled(0x5A);
                // SAFETY: valid pointers.
                let s = status_call(name, || unsafe {
                    if unchecked {
                        ffi::chess_makeMoveUnchecked(&mut *pos, m, &mut undo)
                    } else {
                        ffi::chess_makeMove(&mut *pos, m, &mut undo)
                    }
                });
                assert_eq!(
                    s,
                    S::CHESS_OK,
                    "{name} of generated move {} in {:?}",
                    describe(Some(m)),
                    cur.fen
                );
                stack.push(Entry {
                    mv: Some(m),
                    undo,
                    prev: cur,
                });
            }
            // History compaction (op 0xFA): the position is the same, and the moves made
            // before can no longer be taken back (a checked unmake of the last one is refused,
            // or, if it goes through, gives back the true previous position).
            2 if op == 0xFA => {
                add_context(&format!("{step}: chess_compactHistory"));
                // SAFETY: valid pointer.
                let s = status_call("chess_compactHistory", || unsafe {
                    ffi::chess_compactHistory(&mut *pos)
                });
                assert_eq!(s, S::CHESS_OK, "chess_compactHistory in {:?}", cur.fen);
                let after = core(&pos);
                assert_eq!(after, cur, "chess_compactHistory changed the position");
                if let Some(top) = stack.last() {
                    let mut q = clone_pos(&pos);
                    let how = "the last move before chess_compactHistory, true record";
                    forged_unmake(&mut q, top.mv, &top.undo, top, how);
                }
                stack.clear();
                base = cur.fen.clone();
            }
            // Null move: refused exactly in check.
            2 if !full => {
                let check = in_check(&pos);
                let before = clone_pos(&pos);
                let mut undo = undo_filled(0x5A);
                add_context(&format!("{step}: chess_makeNullMove"));
                // SAFETY: valid pointers.
                let s = status_call("chess_makeNullMove", || unsafe {
                    ffi::chess_makeNullMove(&mut *pos, &mut undo)
                });
                if check {
                    assert_eq!(
                        s,
                        S::CHESS_ERR_ILLEGAL_MOVE,
                        "chess_makeNullMove in check in {:?}",
                        cur.fen
                    );
                    assert!(
                        first_diff(pos_bytes(&before), pos_bytes(&pos)).is_none(),
                        "chess_makeNullMove refused but changed the position"
                    );
                    assert!(
                        undo_bytes(&undo).iter().all(|&x| x == 0x5A),
                        "chess_makeNullMove refused but wrote the record"
                    );
                } else {
                    assert_eq!(
                        s,
                        S::CHESS_OK,
                        "chess_makeNullMove out of check in {:?}",
                        cur.fen
                    );
                    stack.push(Entry {
                        mv: None,
                        undo,
                        prev: cur,
                    });
                }
            }
            // True unmake: checked, or unchecked for a move (null moves have only the checked).
            3 | 4 if !stack.is_empty() => {
                let top = stack.last().unwrap();
                let unchecked = op % 8 == 4 && top.mv.is_some();
                add_context(&format!(
                    "{step}: {} of {} with its true record",
                    if unchecked {
                        "unchecked unmake"
                    } else {
                        "checked unmake"
                    },
                    describe(top.mv)
                ));
                true_unmake(&mut pos, &mut stack, unchecked);
            }
            // Forged unmake.
            5 if !stack.is_empty() => {
                let top = stack.last().unwrap();
                let kind = b.u8() % 6;
                let (mv, undo, how): (Option<u16>, ChessUndo, String) = match kind {
                    // The true move with bytes of the record flipped or overwritten.
                    0 => {
                        let mut u = clone_undo(&top.undo);
                        let n = 1 + b.below(4);
                        let mut edits = Vec::new();
                        for _ in 0..n {
                            let off = b.below(UNDO_BYTES);
                            let v = b.u8();
                            let xor = b.u8() & 1 == 0;
                            let bytes = undo_bytes_mut(&mut u);
                            bytes[off] = if xor { bytes[off] ^ v } else { v };
                            edits.push(format!(
                                "byte {off} {} {v:#04x}",
                                if xor { "^=" } else { "=" }
                            ));
                        }
                        (
                            top.mv,
                            u,
                            format!("true move, record edited: {}", edits.join(", ")),
                        )
                    }
                    // The true record with another move value (any 16 bits, or a neighbour of
                    // the true move: other flag or other target).
                    1 => {
                        let v = b.u16();
                        let m = match (top.mv, b.u8() % 3) {
                            (Some(t), 0) => t ^ (v & 0xF000),
                            (Some(t), 1) => t ^ (v & 0x0FC0),
                            _ => v,
                        };
                        (
                            Some(m),
                            clone_undo(&top.undo),
                            format!("true record, move value {}", describe(Some(m))),
                        )
                    }
                    // A sibling: the record of another legal move from the previous position,
                    // paired with the true move or with the sibling move.
                    2 if !top.prev.legal.is_empty() => {
                        let sib = top.prev.legal[b.below(top.prev.legal.len())];
                        let mut q = clone_pos(&pos);
                        let (_, s) = checked_unmake(&mut q, top.mv, &top.undo);
                        assert_eq!(s, S::CHESS_OK, "checked unmake of the true move on a copy");
                        let mut u = undo_filled(0);
                        // SAFETY: valid pointers.
                        let s = status_call("chess_makeMove", || unsafe {
                            ffi::chess_makeMove(&mut *q, sib, &mut u)
                        });
                        assert_eq!(
                            s,
                            S::CHESS_OK,
                            "sibling {} in {:?}",
                            describe(Some(sib)),
                            top.prev.fen
                        );
                        let m = if b.u8() & 1 == 0 {
                            top.mv.unwrap_or(sib)
                        } else {
                            sib
                        };
                        (
                            Some(m),
                            u,
                            format!(
                                "record of sibling move {}, move {}",
                                describe(Some(sib)),
                                describe(Some(m))
                            ),
                        )
                    }
                    // An older record, with the true move or with its own move.
                    3 if stack.len() >= 2 => {
                        let i = b.below(stack.len() - 1);
                        let old = &stack[i];
                        let mv = if b.u8() & 1 == 0 { top.mv } else { old.mv };
                        (
                            mv,
                            clone_undo(&old.undo),
                            format!(
                                "record of ply {i} ({}), move {}",
                                describe(old.mv),
                                describe(mv)
                            ),
                        )
                    }
                    // The wrong kind: a move's record to the null unmake, a null record to
                    // the move unmake (with a legal move of the previous position).
                    4 => match top.mv {
                        Some(_) => (
                            None,
                            clone_undo(&top.undo),
                            "a move's record to chess_unmakeNullMove".into(),
                        ),
                        None => {
                            let m = if top.prev.legal.is_empty() {
                                b.u16()
                            } else {
                                top.prev.legal[b.below(top.prev.legal.len())]
                            };
                            (
                                Some(m),
                                clone_undo(&top.undo),
                                format!("a null move's record with move {}", describe(Some(m))),
                            )
                        }
                    },
                    // A record of fuzzer bytes.
                    _ => {
                        let mut u = undo_filled(0);
                        for x in undo_bytes_mut(&mut u).iter_mut() {
                            *x = b.u8();
                        }
                        (top.mv, u, "a record of fuzzer bytes".into())
                    }
                };
                add_context(&format!("{step}: forged unmake: {how}"));
                if forged_unmake(&mut pos, mv, &undo, top, &how) {
                    add_context("   (accepted, and equal to the true unmake)");
                    stack.pop();
                }
            }
            // An arbitrary 16-bit value through the checked make.
            6 if !full => {
                let v = b.u16();
                let in_list = cur.legal.binary_search(&v).is_ok();
                // SAFETY: valid pointer.
                let says_legal = lib_call("chess_isLegalMove", || unsafe {
                    ffi::chess_isLegalMove(&*pos, v)
                });
                assert_eq!(
                    says_legal, in_list,
                    "chess_isLegalMove({v:#06x}) disagrees with the generator in {:?}",
                    cur.fen
                );
                let before = clone_pos(&pos);
                let mut undo = undo_filled(0x5A);
                // SAFETY: valid pointers.
                let s = status_call("chess_makeMove", || unsafe {
                    ffi::chess_makeMove(&mut *pos, v, &mut undo)
                });
                add_context(&format!(
                    "{step}: chess_makeMove({}) of an arbitrary value: {s:?}",
                    describe(Some(v))
                ));
                match s {
                    S::CHESS_OK => {
                        assert!(in_list, "chess_makeMove accepted {v:#06x}, which is not in the legal list of {:?}", cur.fen);
                        stack.push(Entry {
                            mv: Some(v),
                            undo,
                            prev: cur,
                        });
                    }
                    S::CHESS_ERR_ILLEGAL_MOVE | S::CHESS_ERR_HISTORY_FULL => {
                        assert!(
                            !in_list || s == S::CHESS_ERR_HISTORY_FULL,
                            "chess_makeMove refused legal move {v:#06x} in {:?}",
                            cur.fen
                        );
                        assert!(
                            s != S::CHESS_ERR_HISTORY_FULL || stack.len() >= HISTORY_CAPACITY,
                            "HISTORY_FULL at depth {}",
                            stack.len()
                        );
                        if let Some(at) = first_diff(pos_bytes(&before), pos_bytes(&pos)) {
                            panic!("chess_makeMove({v:#06x}) returned {s:?} but changed the position at byte {at}");
                        }
                        assert!(
                            undo_bytes(&undo).iter().all(|&x| x == 0x5A),
                            "chess_makeMove({v:#06x}) returned {s:?} but wrote the record"
                        );
                    }
                    other => panic!(
                        "chess_makeMove({v:#06x}) returned {other:?} in {:?}",
                        cur.fen
                    ),
                }
            }
            _ => {}
        }
    }

    // Unwind the whole game with the true records: back to the seed (or to where the history
    // was last compacted).
    while !stack.is_empty() {
        true_unmake(&mut pos, &mut stack, false);
    }
    assert_eq!(
        fen_of(&pos),
        base,
        "after unmaking every move the FEN is not the seed's (or the compaction point's)"
    );
}
