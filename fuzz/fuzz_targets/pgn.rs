//! `pgn`: arbitrary bytes as a PGN database through `chess_pgnReaderNew` / `chess_pgnReaderNext`,
//! and as SAN through `chess_moveFromSan` (text up to the first NUL).
//!
//! Contracts:
//! * the reader ends (at most one call per input byte and line, plus one) with
//!   `CHESS_ERR_PGN_END_OF_INPUT`; every other status is a PGN or SAN code (400..=419), with a
//!   line number within the input; a refused game leaves the game handle as it was;
//! * every game read writes (`chess_pgnGameWrite`) and reads back (`chess_pgnGameRead`) to the
//!   same moves, and its end position passes `chess_validatePosition`;
//! * SAN accepted in either mode names a legal move whose SAN (`chess_moveToSan`) reads back
//!   strictly to it; a refusal is a SAN code or `CHESS_ERR_INVALID_ARGUMENT` (not UTF-8).
#![no_main]

use chesscore::ffi;
use chesscore_fuzz::*;
use core::ffi::c_char;

libfuzzer_sys::fuzz_target!(init: chesscore_fuzz::init(), |data: &[u8]| run(data));

fn moves_of(game: *const ffi::ChessPgnGame) -> Vec<u16> {
    let mut n = 0usize;
    // SAFETY: a live game and a valid output.
    let s = status_call("chess_pgnGameMoveCount", || unsafe {
        ffi::chess_pgnGameMoveCount(game, &mut n)
    });
    assert_eq!(s, S::CHESS_OK);
    let mut moves = vec![0u16; n];
    // SAFETY: room for `n` moves.
    let s = status_call("chess_pgnGameMoves", || unsafe {
        ffi::chess_pgnGameMoves(game, moves.as_mut_ptr(), n)
    });
    assert_eq!(s, S::CHESS_OK);
    moves
}

fn run(data: &[u8]) {
    let lines = data.iter().filter(|&&b| b == b'\n').count() + 1;
    let mut reader: *mut ffi::ChessPgnReader = core::ptr::null_mut();
    let mut game: *mut ffi::ChessPgnGame = core::ptr::null_mut();
    let mut back: *mut ffi::ChessPgnGame = core::ptr::null_mut();
    // SAFETY: `data` holds `data.len()` bytes; valid outputs.
    unsafe {
        assert_eq!(
            ffi::chess_pgnReaderNew(data.as_ptr() as *const c_char, data.len(), &mut reader),
            S::CHESS_OK
        );
        assert_eq!(ffi::chess_pgnGameNew(&mut game), S::CHESS_OK);
        assert_eq!(ffi::chess_pgnGameNew(&mut back), S::CHESS_OK);
    }
    let mut calls = 0;
    loop {
        calls += 1;
        assert!(calls <= data.len() + lines + 1, "the reader does not end");
        let before = moves_of(game);
        let mut line = 0usize;
        // SAFETY: live handles, a valid output.
        let s = status_call("chess_pgnReaderNext", || unsafe {
            ffi::chess_pgnReaderNext(reader, game, &mut line)
        });
        if s == S::CHESS_ERR_PGN_END_OF_INPUT {
            break;
        }
        if s != S::CHESS_OK {
            assert!((400..=419).contains(&(s as i32)), "status {s:?}");
            assert!(line >= 1 && line <= lines, "line {line} of {lines}");
            assert_eq!(moves_of(game), before, "a refused game changed the handle");
            continue;
        }
        let moves = moves_of(game);
        let mut end = new_pos();
        let mut needed = 0usize;
        // SAFETY: live handles, valid outputs; the sizing call with NULL and 0.
        unsafe {
            assert_eq!(ffi::chess_pgnGameEndPosition(game, &mut *end), S::CHESS_OK);
            assert_eq!(ffi::chess_validatePosition(&*end), S::CHESS_OK);
            assert_eq!(
                ffi::chess_pgnGameWrite(game, core::ptr::null_mut(), 0, &mut needed),
                S::CHESS_ERR_BUFFER_TOO_SMALL
            );
        }
        let mut text = vec![0u8; needed];
        // SAFETY: `needed` bytes.
        let s = status_call("chess_pgnGameWrite", || unsafe {
            ffi::chess_pgnGameWrite(game, text.as_mut_ptr() as *mut c_char, needed, &mut needed)
        });
        assert_eq!(s, S::CHESS_OK);
        // SAFETY: NUL-terminated text, a live game.
        let s = status_call("chess_pgnGameRead", || unsafe {
            ffi::chess_pgnGameRead(back, text.as_ptr() as *const c_char)
        });
        assert_eq!(s, S::CHESS_OK, "{}", String::from_utf8_lossy(&text));
        assert_eq!(moves_of(back), moves, "{}", String::from_utf8_lossy(&text));
    }
    // SAFETY: handles from the constructors, freed once.
    unsafe {
        ffi::chess_pgnReaderFree(reader);
        ffi::chess_pgnGameFree(game);
        ffi::chess_pgnGameFree(back);
    }

    // SAN on a few positions.
    let text = match data.iter().position(|&b| b == 0) {
        Some(n) => &data[..n],
        None => data,
    };
    if text.len() > 16 {
        return;
    }
    let mut c_text = text.to_vec();
    c_text.push(0);
    for fen in [
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
        "4k3/8/8/2n5/1P6/4B3/8/4K3 w - - 0 1",
    ] {
        let pos = pos_from_fen(fen);
        for mode in [ffi::CHESS_SAN_STRICT, ffi::CHESS_SAN_TOLERANT] {
            let mut m = 0u16;
            // SAFETY: a valid position, NUL-terminated text, a valid output.
            let s = status_call("chess_moveFromSan", || unsafe {
                ffi::chess_moveFromSan(&*pos, c_text.as_ptr() as *const c_char, mode, &mut m)
            });
            if s != S::CHESS_OK {
                assert!(
                    matches!(
                        s,
                        S::CHESS_ERR_SAN_SYNTAX
                            | S::CHESS_ERR_SAN_ILLEGAL
                            | S::CHESS_ERR_SAN_AMBIGUOUS
                    ) || (s == S::CHESS_ERR_INVALID_ARGUMENT && std::str::from_utf8(text).is_err()),
                    "{s:?}"
                );
                continue;
            }
            let mut san = [0u8; ffi::CHESS_SAN_MAX];
            let mut again = 0u16;
            // SAFETY: valid buffers.
            unsafe {
                assert!(ffi::chess_isLegalMove(&*pos, m));
                assert_eq!(
                    ffi::chess_moveToSan(&*pos, m, san.as_mut_ptr() as *mut c_char, san.len()),
                    S::CHESS_OK
                );
                assert_eq!(
                    ffi::chess_moveFromSan(
                        &*pos,
                        san.as_ptr() as *const c_char,
                        ffi::CHESS_SAN_STRICT,
                        &mut again
                    ),
                    S::CHESS_OK
                );
            }
            assert_eq!(again, m);
        }
    }
}
