//! `fen`: arbitrary bytes as FEN text through `chess_setFromFEN` and
//! `chess_setFromFENLenient` (C semantics: the text ends at the first NUL; any byte, UTF-8 or
//! not).
//!
//! Contracts, for each reader:
//! * on error the status is a FEN code (100..=199) or `CHESS_ERR_INVALID_ARGUMENT`, the latter
//!   exactly when the text is not UTF-8, and the position (pre-filled with a valid position
//!   with history) is byte-for-byte unchanged;
//! * on success `chess_validatePosition` accepts the position, `chess_toFEN` succeeds, setting from that FEN succeeds and gives the same FEN
//!   text and the same `chess_hash` / `chess_pawnHash` / `chess_materialHash`;
//! * `chess_perft` depth 1 equals the legal move count; `chess_perftFull` depth 2 equals
//!   `chess_perft` depth 2, and both leave the position's FEN and hashes as they were.
//!
//! And between them: what the strict reader accepts, the lenient one accepts too, with the
//! same hashes (it may write `-` for an en passant square no capture can use, which the hash
//! leaves out anyway).
#![no_main]

use chesscore::ffi;
use chesscore_fuzz::*;

const PREFILL_FEN: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

libfuzzer_sys::fuzz_target!(init: chesscore_fuzz::init(), |data: &[u8]| run(data));

type Reader = unsafe extern "C" fn(*mut ffi::ChessPosition, *const core::ffi::c_char) -> S;

fn run(data: &[u8]) {
    let text = match data.iter().position(|&b| b == 0) {
        Some(n) => &data[..n],
        None => data,
    };
    let mut c_text = text.to_vec();
    c_text.push(0);
    let strict = check_reader("chess_setFromFEN", ffi::chess_setFromFEN, text, &c_text);
    let lenient = check_reader(
        "chess_setFromFENLenient",
        ffi::chess_setFromFENLenient,
        text,
        &c_text,
    );
    if let Some(strict) = strict {
        assert_eq!(
            lenient,
            Some(strict),
            "the strict reader accepts {:?}, the lenient one gives another position or none",
            String::from_utf8_lossy(text)
        );
    }
}

/// The contracts of one reader on `text`; the hashes of the position it set, if it did.
fn check_reader(name: &str, reader: Reader, text: &[u8], c_text: &[u8]) -> Option<[u64; 3]> {

    // A valid position with history in it: the refusal must leave every byte as it was.
    let mut pos = pos_from_fen(PREFILL_FEN);
    let m = legal_moves(&pos)[0];
    let mut undo = undo_filled(0);
    // SAFETY: valid pointers.
    let s = status_call("chess_makeMove", || unsafe {
        ffi::chess_makeMove(&mut *pos, m, &mut undo)
    });
    assert_eq!(s, S::CHESS_OK);
    let before = pos_bytes(&pos).to_vec();

    // SAFETY: valid storage; `c_text` is NUL-terminated.
    let s = status_call(name, || unsafe {
        reader(&mut *pos, c_text.as_ptr() as *const core::ffi::c_char)
    });
    let utf8 = std::str::from_utf8(text).is_ok();
    if s != S::CHESS_OK {
        let code = s as i32;
        assert!(
            (100..=199).contains(&code) || s == S::CHESS_ERR_INVALID_ARGUMENT,
            "{name}({:?}) returned {s:?} ({code}): not a FEN code nor INVALID_ARGUMENT",
            String::from_utf8_lossy(text)
        );
        assert_eq!(
            s == S::CHESS_ERR_INVALID_ARGUMENT,
            !utf8,
            "{name}({:?}): INVALID_ARGUMENT must be returned exactly for non-UTF-8 text, got {s:?}",
            String::from_utf8_lossy(text)
        );
        if let Some(at) = first_diff(&before, pos_bytes(&pos)) {
            panic!(
                "{name}({:?}) returned {s:?} but changed the position (byte {at})",
                String::from_utf8_lossy(text)
            );
        }
        return None;
    }
    assert!(utf8, "{name} accepted non-UTF-8 text {text:?}");
    let input = String::from_utf8_lossy(text).into_owned();
    assert_eq!(
        validate(&pos),
        S::CHESS_OK,
        "chess_validatePosition refuses the position {name}({input:?}) wrote"
    );

    // Round trip: the written FEN is accepted and is a fixed point, with the same hashes.
    let fen = match to_fen(&pos) {
        Ok(f) => f,
        Err(s) => panic!("chess_toFEN returned {s:?} for a position set from {input:?}"),
    };
    let mut again = new_pos();
    let s = set_fen(&mut again, &fen);
    assert_eq!(
        s,
        S::CHESS_OK,
        "chess_setFromFEN refuses {fen:?}, which chess_toFEN wrote for {input:?}"
    );
    assert_eq!(
        fen_of(&again),
        fen,
        "FEN round trip of {input:?} is not a fixed point"
    );
    assert_eq!(
        hashes(&again),
        hashes(&pos),
        "hashes [hash, pawn, material] of {input:?} differ from those of its own FEN {fen:?}"
    );

    // Perft against the generator, and full (make/unmake) perft against bulk perft.
    let legal = legal_set(&pos);
    let before = (fen_of(&pos), hashes(&pos));
    let p1 = perft(&mut pos, 1);
    assert_eq!(
        p1,
        legal.len() as u64,
        "chess_perft depth 1 of {input:?} != legal move count"
    );
    let p2 = perft(&mut pos, 2);
    let f2 = perft_full(&mut pos, 2);
    assert_eq!(
        f2, p2,
        "chess_perftFull depth 2 != chess_perft depth 2 for {input:?}"
    );
    assert_eq!(
        (fen_of(&pos), hashes(&pos)),
        before,
        "perft changed the position {input:?}"
    );
    Some(hashes(&pos))
}
