//! The Dice Chess C ABI (issue 11): a caller-owned game (`ChessDiceGame`, plain data copyable
//! with `memcpy`, like `ChessPosition`) holding the position, the rule set and the dice state;
//! rolls and their exact weights; generation for the roll; checked make and unmake; status.
//! A thin skin over [`crate::dice`], whose module docs state every rule.
//!
//! Every function checks its game argument (the bytes must be a game this library wrote:
//! every field in range and the position's invariants, `CHESS_ERR_DICE_INVALID_GAME`
//! otherwise), refuses a roll or move the rules do not allow with a status, writes its outputs
//! only on success, and leaves the game as it was on error.

#![allow(non_camel_case_types)]

use super::guard::{check, ffi_guard, try_ptr};
use super::{ChessMove, ChessMoveList, ChessPosition, ChessStatus};
use crate::dice::{
    DiceError, DiceFenError, DiceGame, DiceStatus, DiceUndo, DrawReason, Roll, Rules, WinReason,
};
use crate::moves::{Move, MoveList};
use crate::position::Position;
use crate::types::Color;
use core::ffi::{c_char, c_int};
use core::mem::{size_of, MaybeUninit};

/// A Dice Chess rule set (`chess_diceSetFromFEN`). Read as an integer (`ChessDiceRulesCode`):
/// any other value is refused with `CHESS_ERR_DICE_INVALID_RULES`.
#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ChessDiceRules {
    /// Two dice, check and mate; the default rules of "Dice Chess".
    CHESS_DICE_TWO_DICE = 0,
    /// One die showing only movable types; no check; capturing the king wins.
    CHESS_DICE_ONE_DIE = 1,
    /// Three dice spent by up to three micro-moves; the maximum rule; king capture wins.
    CHESS_DICE_THREE_DICE = 2,
}

/// A `ChessDiceRules` as received from C (any int may arrive). Shown as `ChessDiceRules`.
pub type ChessDiceRulesCode = c_int;

/// A roll: `count` dice (1 to 3) with faces 1..6 (pawn, knight, bishop, rook, queen, king) in
/// `faces[0..count]`, sorted ascending; unused faces 0. `chess_diceRollFromFaces` makes one.
#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub struct ChessDiceRoll {
    /// Number of dice.
    pub count: u8,
    /// The faces, sorted, then zeros.
    pub faces: [u8; 3],
}

/// One outcome of the roll: its chance is `weight / denominator` (`chess_diceOutcomes`).
#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub struct ChessDiceOutcome {
    /// The roll.
    pub roll: ChessDiceRoll,
    /// Its integer weight.
    pub weight: u32,
}

/// Most outcomes a roll has (three dice: 56).
pub const CHESS_DICE_MAX_OUTCOMES: u32 = 56;

/// A buffer of this size always holds a dice FEN written by `chess_diceGetFEN`.
pub const CHESS_DICE_FEN_MAX: usize = 128;

/// Size of the text `chess_diceRollToText` writes at most, terminating NUL included.
pub const CHESS_DICE_ROLL_TEXT_SIZE: usize = 16;

/// Number of 64-bit words in a `ChessDiceGame` (9280 bytes).
pub const CHESS_DICE_GAME_WORDS: usize = 1160;

/// Number of 64-bit words in a `ChessDiceUndo` (160 bytes).
pub const CHESS_DICE_UNDO_WORDS: usize = 20;

/// A Dice Chess game: 9280 bytes, 8-byte aligned, owned by the caller. Its fields are the
/// library's. Initialise it with `chess_diceSetFromFEN` or `chess_diceSetStart`; copy it with
/// `memcpy` (an expectimax search copies it per node or makes and unmakes).
#[repr(C)]
pub struct ChessDiceGame {
    _opaque: [MaybeUninit<u64>; CHESS_DICE_GAME_WORDS],
}

/// What `chess_diceMakeMove` saves for `chess_diceUnmakeMove`: 160 bytes of plain data.
#[repr(C)]
pub struct ChessDiceUndo {
    _opaque: [MaybeUninit<u64>; CHESS_DICE_UNDO_WORDS],
}

const _: () = assert!(size_of::<DiceGame>() <= size_of::<ChessDiceGame>());
const _: () = assert!(core::mem::align_of::<DiceGame>() <= core::mem::align_of::<ChessDiceGame>());
const _: () = assert!(size_of::<DiceUndo>() <= size_of::<ChessDiceUndo>());
const _: () = assert!(core::mem::align_of::<DiceUndo>() <= core::mem::align_of::<ChessDiceUndo>());
const _: () = assert!(size_of::<Roll>() == size_of::<ChessDiceRoll>());
const _: () = assert!(size_of::<ChessDiceOutcome>() == 8);

/// Where the game stands (`ChessDiceStatus.state`).
#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ChessDiceState {
    /// The game goes on: roll the dice (`chess_diceSetRoll`).
    CHESS_DICE_AWAITING_ROLL = 0,
    /// The game goes on: make a move (`chess_diceMakeMove`; 0 passes when there is none).
    CHESS_DICE_AWAITING_MOVE = 1,
    /// Won: `winner` and `reason` say by whom and how.
    CHESS_DICE_WON = 2,
    /// Drawn: `reason` says why.
    CHESS_DICE_DRAWN = 3,
}

/// `ChessDiceStatus.reason` of a won game: a king was captured.
pub const CHESS_DICE_WIN_KING_CAPTURE: u8 = 1;
/// `ChessDiceStatus.reason` of a won game: two dice, checkmate (judged before the roll).
pub const CHESS_DICE_WIN_CHECKMATE: u8 = 2;
/// `ChessDiceStatus.reason` of a drawn game: 100 turns (passes included) without a capture
/// or pawn move.
pub const CHESS_DICE_DRAW_FIFTY_MOVES: u8 = 1;
/// `ChessDiceStatus.reason` of a drawn game: two dice, stalemate; one die, no type can move.
pub const CHESS_DICE_DRAW_STALEMATE: u8 = 2;
/// `ChessDiceStatus.reason` of a drawn game: two dice, only the two kings are left.
pub const CHESS_DICE_DRAW_DEAD_POSITION: u8 = 3;

/// How the game stands (`chess_diceStatus`).
#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct ChessDiceStatus {
    /// Ongoing (awaiting a roll or a move), won or drawn.
    pub state: ChessDiceState,
    /// The winner when won: 0 White, 1 Black; else 0.
    pub winner: u8,
    /// `CHESS_DICE_WIN_*` when won, `CHESS_DICE_DRAW_*` when drawn, 0 while ongoing.
    pub reason: u8,
    /// Zero.
    pub reserved: [u8; 2],
}

impl From<Roll> for ChessDiceRoll {
    fn from(r: Roll) -> Self {
        ChessDiceRoll {
            count: r.count,
            faces: r.faces,
        }
    }
}

impl From<ChessDiceRoll> for Roll {
    fn from(r: ChessDiceRoll) -> Self {
        Roll {
            count: r.count,
            faces: r.faces,
        }
    }
}

impl From<DiceError> for ChessStatus {
    fn from(e: DiceError) -> ChessStatus {
        match e {
            DiceError::NotAwaitingRoll => ChessStatus::CHESS_ERR_DICE_NOT_AWAITING_ROLL,
            DiceError::NotAwaitingMove => ChessStatus::CHESS_ERR_DICE_NOT_AWAITING_MOVE,
            DiceError::InvalidRoll => ChessStatus::CHESS_ERR_DICE_INVALID_ROLL,
            DiceError::IllegalMove => ChessStatus::CHESS_ERR_ILLEGAL_MOVE,
            DiceError::UndoMismatch => ChessStatus::CHESS_ERR_BAD_UNDO,
        }
    }
}

impl From<DiceFenError> for ChessStatus {
    fn from(e: DiceFenError) -> ChessStatus {
        match e {
            DiceFenError::Fen(f) => ChessStatus::from(f),
            DiceFenError::EnPassant => ChessStatus::CHESS_ERR_DICE_FEN_EN_PASSANT,
            DiceFenError::Dice => ChessStatus::CHESS_ERR_DICE_FEN_DICE,
            DiceFenError::BothInCheck => ChessStatus::CHESS_ERR_DICE_FEN_BOTH_IN_CHECK,
        }
    }
}

/// Writes `g` into caller storage that may be uninitialised, the tail zeroed.
///
/// # Safety
/// `p` is non-NULL and valid for writes of a `ChessDiceGame`.
unsafe fn write_game(p: *mut ChessDiceGame, g: &DiceGame) {
    let dst = p as *mut u8;
    // SAFETY: `p` is valid for `size_of::<ChessDiceGame>()` bytes, at least the game's size;
    // `g` is the library's memory, so they do not overlap; a game has no padding bytes.
    unsafe {
        core::ptr::copy_nonoverlapping(
            g as *const DiceGame as *const u8,
            dst,
            size_of::<DiceGame>(),
        );
        core::ptr::write_bytes(
            dst.add(size_of::<DiceGame>()),
            0,
            size_of::<ChessDiceGame>() - size_of::<DiceGame>(),
        );
    }
}

/// The rule set of a C value.
fn rules_of(code: ChessDiceRulesCode) -> Result<Rules, ChessStatus> {
    u8::try_from(code)
        .ok()
        .and_then(Rules::from_u8)
        .ok_or(ChessStatus::CHESS_ERR_DICE_INVALID_RULES)
}

/// Sets `*game` from a dice FEN under `rules`: standard FEN whose en passant field may hold
/// several squares (`a3c3e3`), with an optional seventh field for the dice still to play as
/// sorted piece letters in either case (`PPN`, `ppn`; written in the mover's case), or `-`
/// before the roll. The side not to
/// move may be in check (after a two-dice pass); without check (one and three dice) any
/// checks may stand. `*game` may be uninitialised; every byte is written. On error it is left
/// as it was: `CHESS_ERR_DICE_INVALID_RULES`, the `CHESS_ERR_FEN_*` codes of the standard
/// fields, `CHESS_ERR_DICE_FEN_*`, `CHESS_ERR_INVALID_ARGUMENT` for text that is not UTF-8.
///
/// # Safety
/// `game` is NULL or valid for writes of a `ChessDiceGame`; `fen` is NULL or a NUL-terminated
/// string.
#[no_mangle]
pub unsafe extern "C" fn chess_diceSetFromFEN(
    game: *mut ChessDiceGame,
    rules: ChessDiceRulesCode,
    fen: *const c_char,
) -> ChessStatus {
    ffi_guard!({
        if game.is_null() {
            return ChessStatus::CHESS_ERR_NULL_ARGUMENT;
        }
        let rules = check!(rules_of(rules));
        let text = try_ptr!(c_str(fen));
        let g = check!(DiceGame::from_fen(rules, text));
        // SAFETY: non-NULL and valid for writes by the caller's contract.
        unsafe { write_game(game, &g) };
        ChessStatus::CHESS_OK
    })
}

/// Sets `*game` to the standard starting position under `rules`, awaiting the first roll.
///
/// # Safety
/// `game` is NULL or valid for writes of a `ChessDiceGame`.
#[no_mangle]
pub unsafe extern "C" fn chess_diceSetStart(
    game: *mut ChessDiceGame,
    rules: ChessDiceRulesCode,
) -> ChessStatus {
    ffi_guard!({
        if game.is_null() {
            return ChessStatus::CHESS_ERR_NULL_ARGUMENT;
        }
        let rules = check!(rules_of(rules));
        // SAFETY: non-NULL and valid for writes by the caller's contract.
        unsafe { write_game(game, &DiceGame::new(rules)) };
        ChessStatus::CHESS_OK
    })
}

/// Writes the dice FEN of `*game` (seven fields) into `buffer`, NUL-terminated
/// (`CHESS_DICE_FEN_MAX` bytes always suffice; `CHESS_ERR_BUFFER_TOO_SMALL` writes nothing).
///
/// # Safety
/// `game` is NULL or points to a `ChessDiceGame`; `buffer` is NULL or valid for writes of
/// `size` bytes.
#[no_mangle]
pub unsafe extern "C" fn chess_diceGetFEN(
    game: *const ChessDiceGame,
    buffer: *mut c_char,
    size: usize,
) -> ChessStatus {
    ffi_guard!({
        let g = try_ptr!(read_game(game));
        let fen = g.to_fen();
        let buf = try_ptr!(text_buffer(buffer, size, fen.len() + 1));
        write_text(buf, fen.as_bytes());
        ChessStatus::CHESS_OK
    })
}

/// Copies `text` and a NUL into `buf` (which has room).
fn write_text(buf: &mut [MaybeUninit<u8>], text: &[u8]) {
    for (slot, &b) in buf.iter_mut().zip(text.iter().chain(core::iter::once(&0))) {
        slot.write(b);
    }
}

/// The rule set of `*game` into `*rules` (a `ChessDiceRules` value).
///
/// # Safety
/// `game` is NULL or points to a `ChessDiceGame`; `rules` is NULL or valid for writes.
#[no_mangle]
pub unsafe extern "C" fn chess_diceGetRules(
    game: *const ChessDiceGame,
    rules: *mut ChessDiceRules,
) -> ChessStatus {
    ffi_guard!({
        let out = try_ptr!(out::<ChessDiceRules, ChessDiceRules>(rules));
        let g = try_ptr!(read_game(game));
        out.write(match g.rules() {
            Rules::TwoDice => ChessDiceRules::CHESS_DICE_TWO_DICE,
            Rules::OneDie => ChessDiceRules::CHESS_DICE_ONE_DIE,
            Rules::ThreeDice => ChessDiceRules::CHESS_DICE_THREE_DICE,
        });
        ChessStatus::CHESS_OK
    })
}

/// The outcomes of the roll awaited by `*game`, with exact integer weights summing to
/// `*denominator`, into `out[0..*count]` (`capacity` entries; `CHESS_DICE_MAX_OUTCOMES`
/// always suffice, fewer give `CHESS_ERR_BUFFER_TOO_SMALL` and write nothing). Two dice: 21
/// outcomes, the six doubles separately at 1 and the 15 mixed pairs at 2, over 36. One die:
/// the movable types at 1 each over their number. Three dice: the 56 multisets at 1, 3 or 6
/// over 216. None (count 0, denominator 1) once the game is over or while a move is awaited.
///
/// # Safety
/// `game` is NULL or points to a `ChessDiceGame`; `out` is NULL or valid for writes of
/// `capacity` outcomes; `count` and `denominator` are NULL or valid for writes.
#[no_mangle]
pub unsafe extern "C" fn chess_diceOutcomes(
    game: *const ChessDiceGame,
    out: *mut ChessDiceOutcome,
    capacity: u32,
    count: *mut u32,
    denominator: *mut u32,
) -> ChessStatus {
    ffi_guard!({
        let count = try_ptr!(out::<u32, u32>(count));
        let denominator = try_ptr!(out::<u32, u32>(denominator));
        let g = try_ptr!(read_game(game));
        let o = g.outcomes();
        let list = o.as_slice();
        let slots = try_ptr!(out_array(out, capacity as usize, list.len()));
        for (slot, oc) in slots.iter_mut().zip(list) {
            slot.write(ChessDiceOutcome {
                roll: oc.roll.into(),
                weight: oc.weight,
            });
        }
        count.write(list.len() as u32);
        denominator.write(o.denominator());
        ChessStatus::CHESS_OK
    })
}

/// Rolls the dice of `*game`: `roll` must be one `chess_diceOutcomes` lists (right number of
/// dice, faces 1..6 sorted, unused faces 0; one die: a movable type), else
/// `CHESS_ERR_DICE_INVALID_ROLL`; `CHESS_ERR_DICE_NOT_AWAITING_ROLL` while a move is awaited
/// or once the game is over.
///
/// # Safety
/// `game` is NULL or points to a `ChessDiceGame`.
#[no_mangle]
pub unsafe extern "C" fn chess_diceSetRoll(
    game: *mut ChessDiceGame,
    roll: ChessDiceRoll,
) -> ChessStatus {
    ffi_guard!({
        let g = try_ptr!(game_mut(game));
        check!(g.set_roll(roll.into()));
        ChessStatus::CHESS_OK
    })
}

/// Takes back the roll of `*game` when nothing of the turn has been played yet (the game then
/// awaits a roll again): for a search trying the outcomes of a chance node one after another,
/// and for walking back through a game (take back each roll before unmaking the move that
/// preceded it). `CHESS_ERR_DICE_NOT_AWAITING_MOVE` otherwise.
///
/// # Safety
/// `game` is NULL or points to a `ChessDiceGame`.
#[no_mangle]
pub unsafe extern "C" fn chess_diceClearRoll(game: *mut ChessDiceGame) -> ChessStatus {
    ffi_guard!({
        let g = try_ptr!(game_mut(game));
        check!(g.clear_roll());
        ChessStatus::CHESS_OK
    })
}

/// The moves the dice of `*game` allow, into `*out` (two dice: one move for the roll; one
/// die: one move; three dice: the next micro-move under the maximum rule; king captures are
/// moves to the enemy king's square with the capture flag). Empty: the turn must pass
/// (`chess_diceMakeMove` with 0). Empty too while no move is awaited.
///
/// # Safety
/// `game` is NULL or points to a `ChessDiceGame`; `out` is NULL or valid for writes.
#[no_mangle]
pub unsafe extern "C" fn chess_diceGenerateMoves(
    game: *const ChessDiceGame,
    out: *mut ChessMoveList,
) -> ChessStatus {
    ffi_guard!({
        let out = try_ptr!(out::<MoveList, ChessMoveList>(out));
        let g = try_ptr!(read_game(game));
        g.generate_moves(MoveList::init_in(out));
        ChessStatus::CHESS_OK
    })
}

/// Makes `move` (one `chess_diceGenerateMoves` lists; 0 passes, allowed only when it lists
/// none) and fills `*undo`. A three-dice turn goes on while a die left can be used (the side
/// to move stays); a king capture ends the game. `CHESS_ERR_ILLEGAL_MOVE`,
/// `CHESS_ERR_DICE_NOT_AWAITING_MOVE`; on error nothing is written.
///
/// # Safety
/// `game` is NULL or points to a `ChessDiceGame`; `undo` is NULL or valid for writes of a
/// `ChessDiceUndo`.
#[no_mangle]
pub unsafe extern "C" fn chess_diceMakeMove(
    game: *mut ChessDiceGame,
    r#move: ChessMove,
    undo: *mut ChessDiceUndo,
) -> ChessStatus {
    ffi_guard!({
        let undo = try_ptr!(out::<ChessDiceUndo, ChessDiceUndo>(undo));
        let g = try_ptr!(game_mut(game));
        let u = check!(g.make_move(Move::from_raw(r#move)));
        let mut rec = ChessDiceUndo {
            _opaque: [MaybeUninit::new(0); CHESS_DICE_UNDO_WORDS],
        };
        // SAFETY: `ChessDiceUndo` is at least as large and aligned as `DiceUndo` (asserted
        // above); `write` does not read what it replaces.
        unsafe { (rec._opaque.as_mut_ptr() as *mut DiceUndo).write(u) };
        undo.write(rec);
        ChessStatus::CHESS_OK
    })
}

/// Takes back `move`, the last move (or pass) made on `*game`, with the record its make
/// filled (after a roll, take the roll back first with `chess_diceClearRoll`). A move or
/// record that does not belong to the last move is refused with `CHESS_ERR_BAD_UNDO`, the
/// game untouched: the record must restore a valid game (one the dice FEN parser accepts)
/// from which making `move` gives back `*game` exactly. (Two facts the move erases are taken
/// from the record unproven: the halfmove clock before a capture or pawn move, and the roll
/// before a move that ends the turn, which may be any roll under which the move is legal.)
///
/// # Safety
/// `game` is NULL or points to a `ChessDiceGame`; `undo` is NULL or points to a
/// `ChessDiceUndo`.
#[no_mangle]
pub unsafe extern "C" fn chess_diceUnmakeMove(
    game: *mut ChessDiceGame,
    r#move: ChessMove,
    undo: *const ChessDiceUndo,
) -> ChessStatus {
    ffi_guard!({
        let u = try_ptr!(input::<DiceUndo, ChessDiceUndo>(undo));
        let g = try_ptr!(game_mut(game));
        check!(g.unmake_move(Move::from_raw(r#move), u));
        ChessStatus::CHESS_OK
    })
}

/// How `*game` stands: awaiting a roll or a move, won (by whom, king capture or mate), drawn
/// (fifty moves, stalemate, dead position). Mate, stalemate and draws are judged before the
/// roll.
///
/// # Safety
/// `game` is NULL or points to a `ChessDiceGame`; `out` is NULL or valid for writes.
#[no_mangle]
pub unsafe extern "C" fn chess_diceStatus(
    game: *const ChessDiceGame,
    out: *mut ChessDiceStatus,
) -> ChessStatus {
    ffi_guard!({
        let out = try_ptr!(out::<ChessDiceStatus, ChessDiceStatus>(out));
        let g = try_ptr!(read_game(game));
        let (state, winner, reason) = match g.status() {
            DiceStatus::AwaitingRoll => (ChessDiceState::CHESS_DICE_AWAITING_ROLL, 0, 0),
            DiceStatus::AwaitingMove => (ChessDiceState::CHESS_DICE_AWAITING_MOVE, 0, 0),
            DiceStatus::Won { winner, reason } => (
                ChessDiceState::CHESS_DICE_WON,
                u8::from(winner == Color::BLACK),
                match reason {
                    WinReason::KingCapture => CHESS_DICE_WIN_KING_CAPTURE,
                    WinReason::Checkmate => CHESS_DICE_WIN_CHECKMATE,
                },
            ),
            DiceStatus::Drawn(r) => (
                ChessDiceState::CHESS_DICE_DRAWN,
                0,
                match r {
                    DrawReason::FiftyMoves => CHESS_DICE_DRAW_FIFTY_MOVES,
                    DrawReason::Stalemate => CHESS_DICE_DRAW_STALEMATE,
                    DrawReason::DeadPosition => CHESS_DICE_DRAW_DEAD_POSITION,
                },
            ),
        };
        out.write(ChessDiceStatus {
            state,
            winner,
            reason,
            reserved: [0; 2],
        });
        ChessStatus::CHESS_OK
    })
}

/// Makes the roll of `count` die faces (1 to 3, each 1..6, in any order) into `*out`, sorted;
/// `CHESS_ERR_DICE_INVALID_ROLL` otherwise.
///
/// # Safety
/// `faces` is NULL or valid for reads of `count` bytes; `out` is NULL or valid for writes.
#[no_mangle]
pub unsafe extern "C" fn chess_diceRollFromFaces(
    faces: *const u8,
    count: u32,
    out: *mut ChessDiceRoll,
) -> ChessStatus {
    ffi_guard!({
        let out = try_ptr!(out::<ChessDiceRoll, ChessDiceRoll>(out));
        if faces.is_null() {
            return ChessStatus::CHESS_ERR_NULL_ARGUMENT;
        }
        if !(1..=3).contains(&count) {
            return ChessStatus::CHESS_ERR_DICE_INVALID_ROLL;
        }
        // SAFETY: non-NULL and valid for `count` (1 to 3) reads by the caller's contract.
        let f = unsafe { core::slice::from_raw_parts(faces, count as usize) };
        match Roll::from_faces(f) {
            Some(r) => {
                out.write(r.into());
                ChessStatus::CHESS_OK
            }
            None => ChessStatus::CHESS_ERR_DICE_INVALID_ROLL,
        }
    })
}

/// Writes `roll` as text (`1-2 (P N)`; `-` for no dice) into `buffer`, NUL-terminated
/// (`CHESS_DICE_ROLL_TEXT_SIZE` bytes always suffice). A roll that is not canonical is
/// `CHESS_ERR_DICE_INVALID_ROLL`.
///
/// # Safety
/// `buffer` is NULL or valid for writes of `size` bytes.
#[no_mangle]
pub unsafe extern "C" fn chess_diceRollToText(
    roll: ChessDiceRoll,
    buffer: *mut c_char,
    size: usize,
) -> ChessStatus {
    ffi_guard!({
        let r = Roll::from(roll);
        if r != Roll::EMPTY && !r.is_canonical() {
            return ChessStatus::CHESS_ERR_DICE_INVALID_ROLL;
        }
        let text = r.to_string();
        let buf = try_ptr!(text_buffer(buffer, size, text.len() + 1));
        write_text(buf, text.as_bytes());
        ChessStatus::CHESS_OK
    })
}

/// The dice still to play in `*game` (the roll; three dice: the dice left; no dice before the
/// roll) into `*out`.
///
/// # Safety
/// `game` is NULL or points to a `ChessDiceGame`; `out` is NULL or valid for writes.
#[no_mangle]
pub unsafe extern "C" fn chess_diceGetDice(
    game: *const ChessDiceGame,
    out: *mut ChessDiceRoll,
) -> ChessStatus {
    ffi_guard!({
        let out = try_ptr!(out::<ChessDiceRoll, ChessDiceRoll>(out));
        let g = try_ptr!(read_game(game));
        out.write(g.dice().into());
        ChessStatus::CHESS_OK
    })
}

/// The micro-moves made so far in the current three-dice turn, into `moves[0..*count]` (room
/// for 3; 0 for the other rule sets and before a turn's first micro-move; a game set from a
/// mid-turn FEN reports 0 for the moves it does not know).
///
/// # Safety
/// `game` is NULL or points to a `ChessDiceGame`; `moves` is NULL or valid for writes of 3
/// moves; `count` is NULL or valid for writes.
#[no_mangle]
pub unsafe extern "C" fn chess_diceTurnMoves(
    game: *const ChessDiceGame,
    moves: *mut ChessMove,
    count: *mut u32,
) -> ChessStatus {
    ffi_guard!({
        let count = try_ptr!(out::<u32, u32>(count));
        let slots = try_ptr!(out_array(moves, 3, 3));
        let g = try_ptr!(read_game(game));
        let mut n = 0;
        for (slot, m) in slots.iter_mut().zip(g.turn_moves()) {
            slot.write(m.raw());
            n += 1;
        }
        count.write(n);
        ChessStatus::CHESS_OK
    })
}

/// Copies the position inside `*game` into `*pos` (the side to move is the player whose turn
/// it is). In Dice Chess the side not to move may be in check or a king attacked, which
/// standard chess forbids: the `chess_` calls that check positions fully (checked make and
/// unmake, perft, `chess_validatePosition`) refuse such a position; the read-only ones work.
///
/// # Safety
/// `game` is NULL or points to a `ChessDiceGame`; `pos` is NULL or valid for writes of a
/// `ChessPosition`.
#[no_mangle]
pub unsafe extern "C" fn chess_diceGetPosition(
    game: *const ChessDiceGame,
    pos: *mut ChessPosition,
) -> ChessStatus {
    ffi_guard!({
        if pos.is_null() {
            return ChessStatus::CHESS_ERR_NULL_ARGUMENT;
        }
        let g = try_ptr!(read_game(game));
        let p: &Position = g.position();
        let dst = pos as *mut u8;
        // SAFETY: `pos` is non-NULL and valid for writes of a `ChessPosition`, which holds a
        // `Position` (asserted in types.rs); the game is the caller's other object, so the two
        // do not overlap; a position has no padding bytes.
        unsafe {
            core::ptr::copy_nonoverlapping(
                p as *const Position as *const u8,
                dst,
                size_of::<Position>(),
            );
            core::ptr::write_bytes(
                dst.add(size_of::<Position>()),
                0,
                size_of::<ChessPosition>() - size_of::<Position>(),
            );
        }
        ChessStatus::CHESS_OK
    })
}
