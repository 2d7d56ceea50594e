//! `dice`: a Dice Chess game (rule set and start chosen by the input: the start position or a
//! seed dice FEN) driven through the C ABI by a stream of operations: rolls from arbitrary
//! faces, rolls from the outcome list, makes of generated moves, makes of arbitrary 16-bit
//! values, true unmakes, forged unmakes (record bytes edited), dice FEN round trips, arbitrary
//! dice FEN text, and copies of the game with bytes overwritten handed to every function.
//!
//! Contracts:
//! * no call panics inside the library or returns `CHESS_ERR_INTERNAL`;
//! * a refused call leaves the game (and its output buffers, pre-filled with a pattern)
//!   byte-for-byte unchanged; functions taking `const ChessDiceGame *` never change it;
//! * a roll is accepted exactly when the game awaits one and the roll is one of the rule set's
//!   outcomes here (`chess_diceOutcomes`); faces become a roll only when they are 1..6 and as
//!   many as the rule set's dice;
//! * an arbitrary move value is made exactly when it is in `chess_diceGenerateMoves`'s list,
//!   or is the pass (0) and the list is empty;
//! * the true unmake always succeeds and gives back the game's dice FEN and phase; a forged
//!   unmake either is refused (game unchanged) or gives back the same dice FEN but for the
//!   halfmove clock and the dice (documented: the clock before a capture or pawn move and the
//!   roll before a move that ends the turn are taken from the record unproven);
//! * a game's dice FEN sets again into a game with the same FEN, status and moves;
//! * every game reached has a status, and a game awaiting a move has moves or only the pass;
//! * the engine (`chess_diceSearch`, `chess_diceEvaluate`, `chess_diceEquity`,
//!   `chess_diceSearchAllRolls`, a few
//!   hundred nodes) never changes the game; it answers exactly in the phase it is for (else
//!   the phase's status and nothing written); its best move is one of the generated moves
//!   (the pass only when there is none), its turn a sequence the rules allow, its expected
//!   score in [0, 1], and its advice one entry per outcome, each move legal for its roll;
//!   limits with a reserved byte set are `CHESS_ERR_INVALID_LIMITS`;
//! * `chess_diceCubeAdvice` on each equity gives advice for every owner (none to double
//!   without the cube) and, on the equity with a byte changed, advice or a refusal with
//!   nothing written.
#![no_main]

use chesscore::ffi::{
    self, ChessDiceCubeAdvice, ChessDiceEquity, ChessDiceGame, ChessDiceOutcome, ChessDiceRoll, ChessDiceRollAdvice,
    ChessDiceSearchResult, ChessDiceUndo, ChessEngine, ChessSearchLimits,
};
use chesscore_fuzz::*;
use core::ffi::c_char;
use core::mem::size_of;

const GAME_BYTES: usize = size_of::<ChessDiceGame>();
const UNDO_BYTES_DICE: usize = size_of::<ChessDiceUndo>();
const PATTERN: u8 = 0xA5;

/// Seed dice FENs per rule set (two dice, one die, three dice): odd castling, en passant,
/// promotions, a king in check, a mid-turn three-dice game.
const SEEDS: [&[&str]; 3] = [
    &[
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2P3k1/8/8/8/8/5p2/4K3 b - - 0 40",
        "rnb1kbnr/pppp1ppp/8/4p3/5P1q/8/PPPPP1PP/RNBQKBNR w KQkq - 1 3",
    ],
    &[
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2P3k1/8/8/8/8/5p2/4K3 b - - 0 40",
    ],
    &[
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "4k3/8/8/8/1p6/8/P1P5/R3K3 w Q - 0 1",
        "8/2P3k1/8/8/8/8/5p2/4K3 b - - 0 40",
    ],
];

libfuzzer_sys::fuzz_target!(init: chesscore_fuzz::init(), |data: &[u8]| run(data));

fn new_game() -> Box<ChessDiceGame> {
    // SAFETY: `ChessDiceGame` is plain words; all zeros is a valid value of the C type (the
    // library refuses it as a game, which is the point of some calls).
    unsafe { Box::<ChessDiceGame>::new_zeroed().assume_init() }
}

fn game_bytes(g: &ChessDiceGame) -> &[u8] {
    // SAFETY: plain words, `GAME_BYTES` long; the library writes every byte of a game it sets.
    unsafe { core::slice::from_raw_parts(g as *const ChessDiceGame as *const u8, GAME_BYTES) }
}

fn game_bytes_mut(g: &mut ChessDiceGame) -> &mut [u8] {
    // SAFETY: as `game_bytes`; every byte pattern is a valid value of the opaque C type.
    unsafe { core::slice::from_raw_parts_mut(g as *mut ChessDiceGame as *mut u8, GAME_BYTES) }
}

fn clone_game(g: &ChessDiceGame) -> Box<ChessDiceGame> {
    let mut b = new_game();
    game_bytes_mut(&mut b).copy_from_slice(game_bytes(g));
    b
}

fn undo_filled_dice(b: u8) -> Box<ChessDiceUndo> {
    // SAFETY: plain words; the pattern is written over every byte right after.
    let mut u = unsafe { Box::<ChessDiceUndo>::new_zeroed().assume_init() };
    undo_bytes_dice_mut(&mut u).fill(b);
    u
}

fn undo_bytes_dice(u: &ChessDiceUndo) -> &[u8] {
    // SAFETY: plain words, every byte initialised (filled, then written by the library).
    unsafe { core::slice::from_raw_parts(u as *const ChessDiceUndo as *const u8, UNDO_BYTES_DICE) }
}

fn undo_bytes_dice_mut(u: &mut ChessDiceUndo) -> &mut [u8] {
    // SAFETY: as `undo_bytes_dice`; every byte pattern is valid.
    unsafe { core::slice::from_raw_parts_mut(u as *mut ChessDiceUndo as *mut u8, UNDO_BYTES_DICE) }
}

fn unchanged(name: &str, before: &[u8], after: &[u8]) {
    if let Some(at) = first_diff(before, after) {
        panic!(
            "{name} changed byte {at} of its input although it returned an error or takes it const"
        );
    }
}

/// The dice FEN of a game, or the status.
fn fen(g: &ChessDiceGame) -> Result<String, S> {
    let mut buf = [PATTERN; 160];
    // SAFETY: valid pointers and size.
    let s = status_call("chess_diceGetFEN", || unsafe {
        ffi::chess_diceGetFEN(g, buf.as_mut_ptr() as *mut c_char, buf.len())
    });
    if s != S::CHESS_OK {
        assert!(
            buf.iter().all(|&b| b == PATTERN),
            "chess_diceGetFEN wrote on error"
        );
        return Err(s);
    }
    let n = buf
        .iter()
        .position(|&b| b == 0)
        .expect("NUL inside the buffer");
    assert!(
        n < ffi::CHESS_DICE_FEN_MAX,
        "dice FEN longer than CHESS_DICE_FEN_MAX"
    );
    Ok(String::from_utf8(buf[..n].to_vec()).expect("ASCII FEN"))
}

fn set_fen(g: &mut ChessDiceGame, rules: i32, text: &[u8]) -> S {
    let mut c = text.to_vec();
    c.push(0);
    // SAFETY: valid pointers, NUL-terminated text.
    status_call("chess_diceSetFromFEN", || unsafe {
        ffi::chess_diceSetFromFEN(g, rules, c.as_ptr() as *const c_char)
    })
}

fn moves(g: &ChessDiceGame) -> Result<Vec<u16>, S> {
    let mut list = RawList::filled(PATTERN);
    // SAFETY: valid pointers.
    let s = status_call("chess_diceGenerateMoves", || unsafe {
        ffi::chess_diceGenerateMoves(g, list.ptr())
    });
    if s != S::CHESS_OK {
        assert!(
            list.bytes().iter().all(|&b| b == PATTERN),
            "generation wrote on error"
        );
        return Err(s);
    }
    assert!(list.count() <= 256);
    Ok(list.moves())
}

fn outcomes(g: &ChessDiceGame) -> Result<Vec<ChessDiceOutcome>, S> {
    let mut out = [ChessDiceOutcome::default(); 56];
    let (mut count, mut denominator) = (u32::MAX, u32::MAX);
    // SAFETY: valid pointers; capacity is the array's length.
    let s = status_call("chess_diceOutcomes", || unsafe {
        ffi::chess_diceOutcomes(g, out.as_mut_ptr(), 56, &mut count, &mut denominator)
    });
    if s != S::CHESS_OK {
        assert_eq!(
            (count, denominator),
            (u32::MAX, u32::MAX),
            "outcomes wrote on error"
        );
        return Err(s);
    }
    let list = out[..count as usize].to_vec();
    let sum: u32 = list.iter().map(|o| o.weight).sum();
    assert!(
        count == 0 || sum == denominator,
        "outcome weights sum {sum} != {denominator}"
    );
    Ok(list)
}

/// (state, winner, reason) of `chess_diceStatus`.
fn status(g: &ChessDiceGame) -> Result<(u32, u8, u8), S> {
    let mut st = core::mem::MaybeUninit::<ffi::ChessDiceStatus>::zeroed();
    // SAFETY: valid pointers.
    let s = status_call("chess_diceStatus", || unsafe {
        ffi::chess_diceStatus(g, st.as_mut_ptr())
    });
    if s != S::CHESS_OK {
        return Err(s);
    }
    // SAFETY: written on success.
    let st = unsafe { st.assume_init() };
    Ok((st.state as u32, st.winner, st.reason))
}

fn dice(g: &ChessDiceGame) -> Result<ChessDiceRoll, S> {
    let mut r = ChessDiceRoll {
        count: 0xA5,
        faces: [0xA5; 3],
    };
    // SAFETY: valid pointers.
    let s = status_call("chess_diceGetDice", || unsafe {
        ffi::chess_diceGetDice(g, &mut r)
    });
    if s != S::CHESS_OK {
        return Err(s);
    }
    Ok(r)
}

const AWAITING_ROLL: u32 = 0;
const AWAITING_MOVE: u32 = 1;
const WON: u32 = 2;

/// The invariants of a valid game: a status, generation, and moves or the pass when awaiting a
/// move; its FEN sets again to the same FEN, status and moves.
fn check_game(g: &ChessDiceGame, rules: i32) {
    let st = status(g).expect("a game the library made has a status");
    let list = moves(g).expect("a game the library made generates");
    if st.0 != AWAITING_MOVE {
        assert!(list.is_empty(), "moves listed while not awaiting a move");
    }
    let f = fen(g).expect("a game the library made has a FEN");
    let mut again = new_game();
    let s = set_fen(&mut again, rules, f.as_bytes());
    assert_eq!(s, S::CHESS_OK, "its own dice FEN {f:?} was refused");
    assert_eq!(fen(&again).unwrap(), f, "dice FEN round trip");
    // A three-dice game in the middle of its turn does not carry the micro-moves already made
    // in its FEN, nor a won game that it is over (both documented): compare moves and status
    // only outside those.
    let mut made = [0u16; 3];
    let mut n = u32::MAX;
    // SAFETY: valid pointers, 3 slots.
    let s = status_call("chess_diceTurnMoves", || unsafe {
        ffi::chess_diceTurnMoves(g, made.as_mut_ptr(), &mut n)
    });
    assert_eq!(s, S::CHESS_OK);
    assert!(n <= 3);
    if n == 0 && st.0 != WON {
        let mut a = moves(&again).unwrap();
        let mut b = list.clone();
        a.sort_unstable();
        b.sort_unstable();
        assert_eq!(a, b, "moves after the FEN round trip of {f:?}");
        assert_eq!(
            status(&again).unwrap(),
            st,
            "status after the FEN round trip of {f:?}"
        );
    }
}

struct Made {
    m: u16,
    undo: Box<ChessDiceUndo>,
    fen: String,
    /// A roll was set after this move (before any later move).
    rolled_after: bool,
}

fn run(data: &[u8]) {
    let mut r = Bytes::new(data);
    let rules = (r.u8() % 3) as i32;
    let seeds = SEEDS[rules as usize];
    let seed = r.below(seeds.len() + 1);
    let mut g = new_game();
    let s = if seed == seeds.len() {
        // SAFETY: valid pointer.
        status_call("chess_diceSetStart", || unsafe {
            ffi::chess_diceSetStart(&mut *g, rules)
        })
    } else {
        set_fen(&mut g, rules, seeds[seed].as_bytes())
    };
    assert_eq!(s, S::CHESS_OK, "seed {seed} of rules {rules}");
    set_context(format!("rules {rules}, seed {seed}\n"));
    let mut stack: Vec<Made> = Vec::new();

    for _ in 0..96 {
        if r.is_empty() {
            break;
        }
        let op = r.u8() % 11;
        match op {
            // A roll from arbitrary faces.
            0 => {
                let count = r.u8() % 5;
                let faces = [r.u8() % 8, r.u8() % 8, r.u8() % 8, r.u8() % 8];
                add_context(&format!("roll faces {:?}", &faces[..count as usize]));
                let mut roll = ChessDiceRoll {
                    count: 0xA5,
                    faces: [0xA5; 3],
                };
                // SAFETY: valid pointers; `count` <= 4 faces readable.
                let s = status_call("chess_diceRollFromFaces", || unsafe {
                    ffi::chess_diceRollFromFaces(faces.as_ptr(), count as u32, &mut roll)
                });
                let well_formed = (1..=3).contains(&count)
                    && faces[..count as usize].iter().all(|f| (1..=6).contains(f));
                assert_eq!(
                    s == S::CHESS_OK,
                    well_formed,
                    "faces {:?}: {s:?}",
                    &faces[..count as usize]
                );
                if s != S::CHESS_OK {
                    continue;
                }
                if try_roll(&mut g, roll) {
                    mark_rolled(&mut stack);
                }
            }
            // A roll from the outcome list.
            1 => {
                let list = outcomes(&g).expect("outcomes of a valid game");
                if list.is_empty() {
                    continue;
                }
                let o = list[r.below(list.len())];
                add_context(&format!("roll outcome {:?}", o.roll));
                if try_roll(&mut g, o.roll) {
                    mark_rolled(&mut stack);
                }
            }
            // Make a generated move (or the pass).
            2 => {
                let list = moves(&g).unwrap();
                let st = status(&g).unwrap();
                if st.0 != AWAITING_MOVE {
                    continue;
                }
                let m = if list.is_empty() {
                    0
                } else {
                    list[r.below(list.len())]
                };
                add_context(&format!("make listed {m:#06x}"));
                make(&mut g, m, true, &mut stack);
            }
            // Make an arbitrary value.
            3 => {
                let m = r.u16();
                let list = moves(&g).unwrap();
                let st = status(&g).unwrap();
                let legal =
                    st.0 == AWAITING_MOVE && (list.contains(&m) || (m == 0 && list.is_empty()));
                add_context(&format!("make value {m:#06x} (legal: {legal})"));
                make(&mut g, m, legal, &mut stack);
            }
            // The true unmake.
            4 => {
                let Some(mut top) = stack.pop() else { continue };
                add_context(&format!("unmake {:#06x}", top.m));
                clear_roll_if(&mut g, &mut top.rolled_after);
                // SAFETY: valid pointers.
                let s = status_call("chess_diceUnmakeMove", || unsafe {
                    ffi::chess_diceUnmakeMove(&mut *g, top.m, &*top.undo)
                });
                assert_eq!(
                    s,
                    S::CHESS_OK,
                    "the true unmake of {:#06x} was refused",
                    top.m
                );
                assert_eq!(
                    fen(&g).unwrap(),
                    top.fen,
                    "unmake did not give the FEN back"
                );
            }
            // A forged unmake: the record with a byte changed, or another move value.
            5 => {
                let Some(top) = stack.last_mut() else {
                    continue;
                };
                clear_roll_if(&mut g, &mut top.rolled_after);
                let mut forged = undo_filled_dice(0);
                undo_bytes_dice_mut(&mut forged).copy_from_slice(undo_bytes_dice(&top.undo));
                let m = if r.u8() & 1 == 0 {
                    let at = r.below(UNDO_BYTES_DICE);
                    let x = r.u8() | 1;
                    undo_bytes_dice_mut(&mut forged)[at] ^= x;
                    add_context(&format!("forged unmake: record byte {at} ^= {x:#04x}"));
                    top.m
                } else {
                    let m = r.u16();
                    add_context(&format!("forged unmake: move {m:#06x} for {:#06x}", top.m));
                    m
                };
                let before = game_bytes(&g).to_vec();
                let rec = undo_bytes_dice(&forged).to_vec();
                // SAFETY: valid pointers.
                let s = status_call("chess_diceUnmakeMove", || unsafe {
                    ffi::chess_diceUnmakeMove(&mut *g, m, &*forged)
                });
                unchanged(
                    "chess_diceUnmakeMove (record)",
                    &rec,
                    undo_bytes_dice(&forged),
                );
                if s == S::CHESS_OK {
                    // Documented: the halfmove clock before a capture or pawn move (the dice
                    // clock in the FEN, and the position's own clock, which no FEN shows) and
                    // the roll before a move that ends the turn come from the record unproven.
                    // Everything else must be the true previous game. The older true records may then no longer
                    // fit the (differently clocked) game: they are dropped.
                    let top = stack.pop().unwrap();
                    let got = fen(&g).unwrap();
                    // Fields 4 (halfmove clock) and 6 (dice) may differ.
                    let fields = |f: &str| -> Vec<String> {
                        f.split(' ')
                            .enumerate()
                            .filter(|(i, _)| *i != 4 && *i != 6)
                            .map(|(_, x)| x.to_string())
                            .collect()
                    };
                    assert_eq!(fields(&got), fields(&top.fen), "an accepted forged unmake");
                    stack.clear();
                } else {
                    assert!(
                        matches!(s, S::CHESS_ERR_BAD_UNDO | S::CHESS_ERR_ILLEGAL_MOVE),
                        "forged unmake: {s:?}"
                    );
                    unchanged("chess_diceUnmakeMove", &before, game_bytes(&g));
                }
            }
            // Arbitrary dice FEN text into a copy (the game itself stays).
            6 => {
                let len = r.below(96);
                let text: Vec<u8> = (0..len).map(|_| r.u8()).filter(|&b| b != 0).collect();
                let code = (r.u8() % 5) as i32 - 1; // -1 and 3 are no rule set
                let mut copy = clone_game(&g);
                let before = game_bytes(&copy).to_vec();
                let s = set_fen(&mut copy, code, &text);
                if s == S::CHESS_OK {
                    assert!((0..3).contains(&code), "a FEN set with rules code {code}");
                    check_game(&copy, code);
                } else {
                    unchanged("chess_diceSetFromFEN", &before, game_bytes(&copy));
                }
            }
            // Bytes of a copy overwritten, the copy handed to every function.
            7 => {
                let mut copy = clone_game(&g);
                let n = 1 + r.below(4);
                for _ in 0..n {
                    let at = if r.u8() & 1 == 0 {
                        // The dice header sits at the end of the library's game.
                        GAME_BYTES - 1 - r.below(96)
                    } else {
                        r.below(GAME_BYTES)
                    };
                    game_bytes_mut(&mut copy)[at] = r.u8();
                }
                add_context("corrupted copy");
                corrupted(&mut copy, r.u16());
                if r.u8() & 3 == 0 {
                    let before = game_bytes(&copy).to_vec();
                    search_calls(&copy, 50, 1, 0);
                    unchanged(
                        "the dice search functions (corrupted)",
                        &before,
                        game_bytes(&copy),
                    );
                }
            }
            // The full invariants.
            8 => check_game(&g, rules),
            // The engine on the game: a few hundred nodes.
            10 => {
                let nodes = 1 + r.below(400) as u64;
                let depth = 1 + r.below(3) as i32;
                let garbage = r.u8();
                add_context(&format!(
                    "search ({nodes} nodes, depth {depth}, limits byte {garbage})"
                ));
                search_calls(&g, nodes, depth, garbage);
            }
            // Clear the roll.
            _ => {
                let st = status(&g).unwrap();
                let before = game_bytes(&g).to_vec();
                // SAFETY: valid pointer.
                let s = status_call("chess_diceClearRoll", || unsafe {
                    ffi::chess_diceClearRoll(&mut *g)
                });
                if s != S::CHESS_OK {
                    unchanged("chess_diceClearRoll", &before, game_bytes(&g));
                } else {
                    assert_eq!(
                        st.0, AWAITING_MOVE,
                        "a roll cleared while not awaiting a move"
                    );
                    assert_eq!(status(&g).unwrap().0, AWAITING_ROLL);
                    if let Some(top) = stack.last_mut() {
                        top.rolled_after = false;
                    }
                }
            }
        }
        // After every step: a status, and moves or the pass when awaiting a move.
        status(&g).expect("status of the game");
        moves(&g).expect("generation of the game");
    }
    // Unmake everything: back to the seed.
    while let Some(mut top) = stack.pop() {
        clear_roll_if(&mut g, &mut top.rolled_after);
        // SAFETY: valid pointers.
        let s = status_call("chess_diceUnmakeMove", || unsafe {
            ffi::chess_diceUnmakeMove(&mut *g, top.m, &*top.undo)
        });
        assert_eq!(s, S::CHESS_OK);
        assert_eq!(fen(&g).unwrap(), top.fen);
    }
}

/// Notes on the last move made that a roll followed it (its unmake needs the roll taken back).
fn mark_rolled(stack: &mut [Made]) {
    if let Some(top) = stack.last_mut() {
        top.rolled_after = true;
    }
}

/// Takes back the roll set after the last move, if any (it must succeed).
fn clear_roll_if(g: &mut ChessDiceGame, rolled: &mut bool) {
    if core::mem::take(rolled) {
        // SAFETY: valid pointer.
        let s = status_call("chess_diceClearRoll", || unsafe {
            ffi::chess_diceClearRoll(g)
        });
        assert_eq!(s, S::CHESS_OK, "clearing the roll set since the last move");
    }
}

/// Sets `roll`, accepted exactly when the game awaits a roll and it is one of the outcomes.
/// True when it was set.
fn try_roll(g: &mut ChessDiceGame, roll: ChessDiceRoll) -> bool {
    let st = status(g).unwrap();
    let list = outcomes(g).unwrap();
    let expected = st.0 == AWAITING_ROLL && list.iter().any(|o| o.roll == roll);
    let before = game_bytes(g).to_vec();
    // SAFETY: valid pointer.
    let s = status_call("chess_diceSetRoll", || unsafe {
        ffi::chess_diceSetRoll(g, roll)
    });
    assert_eq!(
        s == S::CHESS_OK,
        expected,
        "roll {roll:?} in state {st:?}: {s:?}"
    );
    if s == S::CHESS_OK {
        assert_eq!(dice(g).unwrap(), roll, "the dice after the roll");
        true
    } else {
        assert!(matches!(
            s,
            S::CHESS_ERR_DICE_NOT_AWAITING_ROLL | S::CHESS_ERR_DICE_INVALID_ROLL
        ));
        unchanged("chess_diceSetRoll", &before, game_bytes(g));
        false
    }
}

fn make(g: &mut ChessDiceGame, m: u16, legal: bool, stack: &mut Vec<Made>) {
    let fen_before = fen(g).unwrap();
    let before = game_bytes(g).to_vec();
    let mut undo = undo_filled_dice(PATTERN);
    // SAFETY: valid pointers.
    let s = status_call("chess_diceMakeMove", || unsafe {
        ffi::chess_diceMakeMove(g, m, &mut *undo)
    });
    assert_eq!(s == S::CHESS_OK, legal, "make {m:#06x}: {s:?}");
    if s == S::CHESS_OK {
        stack.push(Made {
            m,
            undo,
            fen: fen_before,
            rolled_after: false,
        });
    } else {
        unchanged("chess_diceMakeMove", &before, game_bytes(g));
        assert!(
            undo_bytes_dice(&undo).iter().all(|&b| b == PATTERN),
            "undo written on error"
        );
    }
}

/// Every function on corrupted bytes: no panic, no `INTERNAL`; refusals leave the bytes (and
/// the outputs) as they were; `const` functions never change them.
fn corrupted(g: &mut ChessDiceGame, pick: u16) {
    let before = game_bytes(g).to_vec();
    let valid = status(g).is_ok();
    // Const functions.
    let _ = fen(g);
    let _ = moves(g);
    let _ = outcomes(g);
    let _ = dice(g);
    let mut rules = core::mem::MaybeUninit::<ffi::ChessDiceRules>::zeroed();
    // SAFETY: valid pointers.
    let _ = status_call("chess_diceGetRules", || unsafe {
        ffi::chess_diceGetRules(g, rules.as_mut_ptr())
    });
    let mut made = [0u16; 3];
    let mut n = 0u32;
    // SAFETY: valid pointers, 3 slots.
    let _ = status_call("chess_diceTurnMoves", || unsafe {
        ffi::chess_diceTurnMoves(g, made.as_mut_ptr(), &mut n)
    });
    let mut pos = new_pos();
    // SAFETY: valid pointers.
    let s = status_call("chess_diceGetPosition", || unsafe {
        ffi::chess_diceGetPosition(g, &mut *pos)
    });
    if s == S::CHESS_OK {
        // Dice positions may break standard chess's check rules (documented), so the full
        // check may refuse it; the read-only calls work, and the board is the game's.
        let chess = to_fen(&pos).expect("chess_toFEN of the position of an accepted game");
        let dice = fen(g).expect("the dice FEN of an accepted game");
        assert_eq!(
            chess.split(' ').next(),
            dice.split(' ').next(),
            "board of the position"
        );
    }
    unchanged("const dice functions", &before, game_bytes(g));
    if !valid {
        for s in [
            fen(g).err(),
            moves(g).err(),
            outcomes(g).err(),
            dice(g).err(),
        ] {
            assert_eq!(
                s,
                Some(S::CHESS_ERR_DICE_INVALID_GAME),
                "a refused game accepted by a getter"
            );
        }
    }
    // Functions that change the game: on a copy each, so each sees the same bytes.
    let list = if valid {
        moves(g).unwrap_or_default()
    } else {
        Vec::new()
    };
    let m = if list.is_empty() {
        pick
    } else {
        list[pick as usize % list.len()]
    };
    let mut c = clone_game(g);
    let mut undo = undo_filled_dice(PATTERN);
    // SAFETY: valid pointers.
    let s = status_call("chess_diceMakeMove", || unsafe {
        ffi::chess_diceMakeMove(&mut *c, m, &mut *undo)
    });
    if s != S::CHESS_OK {
        unchanged("chess_diceMakeMove (corrupted)", &before, game_bytes(&c));
    } else {
        assert!(valid, "a move made on a game the status refuses");
        // Corrupted bytes the cheap check lets through may be an inconsistent game (a stale
        // hash, say), which the proven unmake may refuse: only no panic and no change on error.
        let after = game_bytes(&c).to_vec();
        // SAFETY: valid pointers.
        let s = status_call("chess_diceUnmakeMove", || unsafe {
            ffi::chess_diceUnmakeMove(&mut *c, m, &*undo)
        });
        if s != S::CHESS_OK {
            assert_eq!(s, S::CHESS_ERR_BAD_UNDO);
            unchanged("chess_diceUnmakeMove (corrupted)", &after, game_bytes(&c));
        }
    }
    for o in outcomes(g).unwrap_or_default().into_iter().take(2) {
        let mut c = clone_game(g);
        // SAFETY: valid pointer.
        let s = status_call("chess_diceSetRoll", || unsafe {
            ffi::chess_diceSetRoll(&mut *c, o.roll)
        });
        if s != S::CHESS_OK {
            unchanged("chess_diceSetRoll (corrupted)", &before, game_bytes(&c));
        }
    }
    let mut c = clone_game(g);
    // SAFETY: valid pointer.
    let s = status_call("chess_diceClearRoll", || unsafe {
        ffi::chess_diceClearRoll(&mut *c)
    });
    if s != S::CHESS_OK {
        unchanged("chess_diceClearRoll (corrupted)", &before, game_bytes(&c));
    }
}

/// The engine every input shares (made once: its tables are allocated at creation).
fn engine() -> *mut ChessEngine {
    struct Handle(*mut ChessEngine);
    // SAFETY: the handle is used by one thread at a time (the fuzzer runs inputs in turn).
    unsafe impl Send for Handle {}
    // SAFETY: as above; the library's handle guards its own state.
    unsafe impl Sync for Handle {}
    static ENGINE: std::sync::OnceLock<Handle> = std::sync::OnceLock::new();
    ENGINE
        .get_or_init(|| {
            let e = lib_call("chess_engineNew", || ffi::chess_engineNew());
            assert!(!e.is_null(), "chess_engineNew");
            let mut name = *b"Hash\0";
            let mut value = *b"1\0";
            // SAFETY: a live engine, NUL-terminated texts.
            let s = status_call("chess_engineSetOption", || unsafe {
                ffi::chess_engineSetOption(
                    e,
                    name.as_mut_ptr() as *const c_char,
                    value.as_mut_ptr() as *const c_char,
                )
            });
            assert_eq!(s, S::CHESS_OK);
            Handle(e)
        })
        .0
}

fn limits(nodes: u64, depth: i32) -> ChessSearchLimits {
    let mut l = core::mem::MaybeUninit::<ChessSearchLimits>::uninit();
    // SAFETY: the init function writes every byte.
    let mut l = unsafe {
        ffi::chess_searchLimitsInit(l.as_mut_ptr());
        l.assume_init()
    };
    l.nodes = nodes;
    l.depth = depth;
    l
}

fn result_bytes(r: &ChessDiceSearchResult) -> Vec<u8> {
    // SAFETY: plain data, every byte written (pattern, or the library's struct whose padding
    // is explicit).
    unsafe {
        core::slice::from_raw_parts(
            r as *const ChessDiceSearchResult as *const u8,
            size_of::<ChessDiceSearchResult>(),
        )
    }
    .to_vec()
}

fn pattern_result() -> ChessDiceSearchResult {
    let mut r = core::mem::MaybeUninit::<ChessDiceSearchResult>::uninit();
    // SAFETY: every byte is written; every pattern is a valid value of its plain fields.
    unsafe {
        core::ptr::write_bytes(
            r.as_mut_ptr() as *mut u8,
            PATTERN,
            size_of::<ChessDiceSearchResult>(),
        );
        r.assume_init()
    }
}

/// The three engine calls on `g` (never changed), each checked against the phase.
/// `chess_diceCubeAdvice` on a search's equity: advice for every owner (never a double when
/// the other side owns the cube; the take point between the live cube's 20% and the dead
/// one's 25%), an unknown owner refused; then the equity with one byte set to `garbage`:
/// advice with finite equities, or a refusal with nothing written.
fn cube_advice_calls(eq: &ChessDiceEquity, garbage: u8) {
    let pattern = || ChessDiceCubeAdvice {
        size: 0xA5A5_A5A5,
        shouldDouble: PATTERN,
        shouldTake: PATTERN,
        reserved0: [PATTERN; 2],
        noDouble: -7.0,
        doubleTake: -7.0,
        takePoint: -7.0,
        reserved: [PATTERN; 32],
    };
    let untouched = |a: &ChessDiceCubeAdvice| {
        a.size == 0xA5A5_A5A5 && a.shouldDouble == PATTERN && a.noDouble == -7.0
    };
    for owner in 0..4u32 {
        let mut a = pattern();
        // SAFETY: valid pointers.
        let s = status_call("chess_diceCubeAdvice", || unsafe {
            ffi::chess_diceCubeAdvice(eq, owner, &mut a)
        });
        if owner == 3 {
            assert_eq!(s, S::CHESS_ERR_INVALID_ARGUMENT);
            assert!(untouched(&a), "chess_diceCubeAdvice wrote on {s:?}");
            continue;
        }
        assert_eq!(s, S::CHESS_OK, "advice on a search's equity, owner {owner}");
        assert_eq!(a.size, 64);
        assert!(a.shouldDouble <= 1 && a.shouldTake <= 1);
        assert!(owner != 2 || a.shouldDouble == 0, "doubled without the cube");
        assert!((0.2..=0.25).contains(&a.takePoint), "take point {}", a.takePoint);
        assert!(a.noDouble.abs() <= 1.0 && a.doubleTake.abs() <= 2.0);
    }
    // SAFETY: ChessDiceEquity is plain data: any 128 bytes are a value.
    let mut bytes: [u8; 128] = unsafe { core::mem::transmute_copy(eq) };
    bytes[garbage as usize % 128] = garbage;
    // SAFETY: as above.
    let mangled: ChessDiceEquity = unsafe { core::mem::transmute(bytes) };
    let mut a = pattern();
    // SAFETY: valid pointers.
    let s = status_call("chess_diceCubeAdvice", || unsafe {
        ffi::chess_diceCubeAdvice(&mangled, u32::from(garbage % 3), &mut a)
    });
    if s == S::CHESS_OK {
        assert!(a.noDouble.is_finite() && a.doubleTake.is_finite());
    } else {
        assert_eq!(s, S::CHESS_ERR_INVALID_ARGUMENT);
        assert!(untouched(&a), "chess_diceCubeAdvice wrote on {s:?}");
    }
}

fn search_calls(g: &ChessDiceGame, nodes: u64, depth: i32, garbage: u8) {
    let e = engine();
    let before = game_bytes(g).to_vec();
    let st = status(g).ok();
    let mut l = limits(nodes, depth);
    let bad_limits = garbage & 7 == 1;
    if bad_limits {
        l.reserved[garbage as usize % l.reserved.len()] = garbage | 1;
    }
    // chess_diceSearch.
    let mut res = pattern_result();
    let pattern = result_bytes(&res);
    // SAFETY: a live engine, valid pointers.
    let s = status_call("chess_diceSearch", || unsafe {
        ffi::chess_diceSearch(e, g, &l, &mut res)
    });
    unchanged("chess_diceSearch (game)", &before, game_bytes(g));
    match (st, s) {
        (_, S::CHESS_OK) => {
            assert!(
                !bad_limits,
                "chess_diceSearch accepted limits with a reserved byte set"
            );
            assert_eq!(
                st.map(|t| t.0),
                Some(AWAITING_MOVE),
                "a search of a game not awaiting a move"
            );
            let list = moves(g).unwrap();
            let m = res.bestMove;
            assert!(
                (m == 0 && list.is_empty()) || list.contains(&m),
                "chess_diceSearch's best move {m:#06x} is not generated"
            );
            assert!(
                (0.0..=1.0).contains(&res.expectedScore),
                "expected score {}",
                res.expectedScore
            );
            let n = res.turnLength as usize;
            assert!(
                n <= 3 && (n == 0 || res.turn[0] == m),
                "turn {:?} of length {n}",
                res.turn
            );
            // The turn is a sequence the rules allow, micro-move after micro-move.
            let mut c = clone_game(g);
            for &tm in &res.turn[..n] {
                let legal = moves(&c).unwrap();
                let st = status(&c).unwrap();
                if st.0 != AWAITING_MOVE {
                    panic!(
                        "turn {:?} goes on after the game or the turn ended",
                        &res.turn[..n]
                    );
                }
                assert!(
                    legal.contains(&tm) || (tm == 0 && legal.is_empty()),
                    "turn move {tm:#06x}"
                );
                let mut u = undo_filled_dice(0);
                // SAFETY: valid pointers.
                let s = status_call("chess_diceMakeMove", || unsafe {
                    ffi::chess_diceMakeMove(&mut *c, tm, &mut *u)
                });
                assert_eq!(s, S::CHESS_OK);
            }
        }
        (_, s) => {
            assert_eq!(
                result_bytes(&res),
                pattern,
                "chess_diceSearch wrote its result on {s:?}"
            );
            let expected = match st {
                None => S::CHESS_ERR_DICE_INVALID_GAME,
                Some(_) if bad_limits => S::CHESS_ERR_INVALID_LIMITS,
                Some(_) => S::CHESS_ERR_DICE_NOT_AWAITING_MOVE,
            };
            assert_eq!(s, expected, "chess_diceSearch in state {st:?}");
        }
    }
    // chess_diceEvaluate.
    let mut score = -7.0f64;
    // SAFETY: a live engine, valid pointers.
    let s = status_call("chess_diceEvaluate", || unsafe {
        ffi::chess_diceEvaluate(e, g, &l, &mut score)
    });
    unchanged("chess_diceEvaluate (game)", &before, game_bytes(g));
    if s == S::CHESS_OK {
        assert!(!bad_limits);
        assert!((0.0..=1.0).contains(&score), "expected score {score}");
        assert_ne!(st.map(|t| t.0), Some(AWAITING_MOVE));
    } else {
        assert_eq!(score, -7.0, "chess_diceEvaluate wrote on {s:?}");
        assert!(
            st.is_none() || bad_limits || st.map(|t| t.0) == Some(AWAITING_MOVE),
            "chess_diceEvaluate refused a game in state {st:?}: {s:?}"
        );
    }
    // chess_diceEquity: the same refusals as chess_diceEvaluate; chances that sum to 1.
    // SAFETY: ChessDiceEquity is plain data (integers, floats, bytes): any bytes are a value.
    let mut eq: ChessDiceEquity = unsafe { core::mem::transmute([PATTERN; 128]) };
    let eq_bytes = |q: &ChessDiceEquity| -> [u8; 128] {
        // SAFETY: 128 bytes of plain data, read as bytes.
        unsafe { core::mem::transmute_copy(q) }
    };
    // SAFETY: a live engine, valid pointers.
    let s = status_call("chess_diceEquity", || unsafe {
        ffi::chess_diceEquity(e, g, &l, &mut eq)
    });
    unchanged("chess_diceEquity (game)", &before, game_bytes(g));
    if s == S::CHESS_OK {
        assert!(!bad_limits);
        assert_ne!(st.map(|t| t.0), Some(AWAITING_MOVE));
        assert_eq!(eq.size, 128);
        let (w, d, lo) = (eq.win, eq.draw, eq.loss);
        assert!(
            [w, d, lo].iter().all(|p| (0.0..=1.0).contains(p)) && (w + d + lo - 1.0).abs() < 1e-9,
            "chances {w} {d} {lo}"
        );
        assert!((eq.expectedScore - (w + d / 2.0)).abs() < 1e-9);
        if st.map(|t| t.0) != Some(AWAITING_ROLL) {
            assert_eq!(eq.depth, 0, "a finished game is not searched");
        }
        cube_advice_calls(&eq, garbage);
    } else {
        assert_eq!(
            eq_bytes(&eq),
            [PATTERN; 128],
            "chess_diceEquity wrote on {s:?}"
        );
        assert!(
            st.is_none() || bad_limits || st.map(|t| t.0) == Some(AWAITING_MOVE),
            "chess_diceEquity refused a game in state {st:?}: {s:?}"
        );
    }
    // chess_diceSearchAllRolls.
    let mut out = [ChessDiceRollAdvice {
        roll: ChessDiceRoll::default(),
        weight: 0xA5A5,
        result: pattern_result(),
    }; 56];
    let mut count = 999u32;
    // SAFETY: a live engine, valid pointers, 56 slots.
    let s = status_call("chess_diceSearchAllRolls", || unsafe {
        ffi::chess_diceSearchAllRolls(e, g, &l, out.as_mut_ptr(), 56, &mut count)
    });
    unchanged("chess_diceSearchAllRolls (game)", &before, game_bytes(g));
    if s == S::CHESS_OK {
        assert!(!bad_limits);
        assert_eq!(st.map(|t| t.0), Some(AWAITING_ROLL));
        let list = outcomes(g).unwrap();
        assert_eq!(count as usize, list.len(), "one advice per outcome");
        for (a, o) in out.iter().zip(&list) {
            assert_eq!(
                (a.roll, a.weight),
                (o.roll, o.weight),
                "advice in outcome order"
            );
            let mut c = clone_game(g);
            // SAFETY: valid pointer.
            let s = status_call("chess_diceSetRoll", || unsafe {
                ffi::chess_diceSetRoll(&mut *c, o.roll)
            });
            assert_eq!(s, S::CHESS_OK);
            let legal = moves(&c).unwrap();
            let m = a.result.bestMove;
            assert!(
                (m == 0 && legal.is_empty()) || legal.contains(&m),
                "advice {m:#06x} for {:?}",
                o.roll
            );
        }
    } else {
        assert_eq!(
            count, 999,
            "chess_diceSearchAllRolls wrote its count on {s:?}"
        );
        assert!(
            st.is_none() || bad_limits || st.map(|t| t.0) != Some(AWAITING_ROLL),
            "chess_diceSearchAllRolls refused a game in state {st:?}: {s:?}"
        );
    }
}
