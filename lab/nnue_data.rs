//! The NNUE training record of docs/nnue.md ("Training data"): 32 bytes per position, and the
//! network's feature indices. Shared by `lab/nnue_datagen.rs`, `lab/nnue_train.rs` and
//! `tests/nnue_trainer.rs` (each includes this file with `#[path]`).
#![allow(dead_code)]

use chesscore::{Color, Position, Square};

/// Bytes per record.
pub const RECORD_BYTES: usize = 32;

/// Result byte: Black won.
pub const BLACK_WON: u8 = 0;
/// Result byte: draw.
pub const DRAW: u8 = 1;
/// Result byte: White won.
pub const WHITE_WON: u8 = 2;

/// One training record, as stored.
pub type Record = [u8; RECORD_BYTES];

/// The record of `pos` with `score` (centipawns, White's view, clamped to `i16`) and `result`
/// (0 Black won, 1 draw, 2 White won).
pub fn encode(pos: &Position, score: i32, result: u8) -> Record {
    let mut r = [0u8; RECORD_BYTES];
    let occ = pos.occupied().0;
    r[0..8].copy_from_slice(&occ.to_le_bytes());
    let mut bits = occ;
    let mut n = 0usize;
    while bits != 0 {
        let s = bits.trailing_zeros() as u8;
        bits &= bits - 1;
        let piece = pos.piece_on(Square::from_index(s));
        // chesscore's piece types are 1..6 (pawn..king); the record's kinds are 0..5.
        let nibble = 8 * piece.color().to_u8() + (piece.kind().to_u8() - 1);
        r[8 + n / 2] |= nibble << (4 * (n % 2));
        n += 1;
    }
    let score = score.clamp(i16::MIN as i32, i16::MAX as i32) as i16;
    r[24..26].copy_from_slice(&score.to_le_bytes());
    r[26] = result;
    r[27] = if pos.side_to_move() == Color::WHITE {
        0
    } else {
        1
    };
    r
}

/// One piece of a decoded record.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct RecPiece {
    /// Square 0..63 (a1 = 0).
    pub square: u8,
    /// 0 White, 1 Black.
    pub colour: u8,
    /// 0 pawn .. 5 king.
    pub kind: u8,
}

/// An empty piece list for [`pieces`] to fill.
pub const NO_PIECES: [RecPiece; 32] = [RecPiece {
    square: 0,
    colour: 0,
    kind: 0,
}; 32];

/// The pieces of record `r` (at most 32), in increasing square order; returns their count.
#[inline]
pub fn pieces(r: &Record, out: &mut [RecPiece; 32]) -> usize {
    let mut bits = u64::from_le_bytes(r[0..8].try_into().unwrap());
    let mut n = 0usize;
    while bits != 0 && n < 32 {
        let s = bits.trailing_zeros() as u8;
        bits &= bits - 1;
        let nibble = (r[8 + n / 2] >> (4 * (n % 2))) & 15;
        out[n] = RecPiece {
            square: s,
            colour: nibble >> 3,
            kind: nibble & 7,
        };
        n += 1;
    }
    n
}

/// The score (centipawns, White's view).
#[inline]
pub fn score(r: &Record) -> i16 {
    i16::from_le_bytes([r[24], r[25]])
}

/// The result byte (0 Black won, 1 draw, 2 White won).
#[inline]
pub fn result(r: &Record) -> u8 {
    r[26]
}

/// The side to move (0 White, 1 Black).
#[inline]
pub fn side_to_move(r: &Record) -> u8 {
    r[27]
}

/// docs/nnue.md's feature index of a piece seen from perspective `p` (0 White, 1 Black).
#[inline]
pub fn feature(p: u8, piece: RecPiece) -> usize {
    let own = if piece.colour == p { 0 } else { 384 };
    let sq = if p == 0 {
        piece.square
    } else {
        piece.square ^ 56
    };
    own + 64 * piece.kind as usize + sq as usize
}

/// The active features of record `r` for the side to move (`us`) and the other side (`them`);
/// returns how many (the same for both).
#[inline]
pub fn features(r: &Record, us: &mut [u16; 32], them: &mut [u16; 32]) -> usize {
    let mut ps = NO_PIECES;
    let n = pieces(r, &mut ps);
    let stm = side_to_move(r);
    for i in 0..n {
        us[i] = feature(stm, ps[i]) as u16;
        them[i] = feature(stm ^ 1, ps[i]) as u16;
    }
    n
}

/// Record `r` with the board mirrored left to right (file a <-> file h), the same score, result
/// and side to move: chess's value does not change under that mirror once castling rights are
/// gone, and the network does not see them. The trainer's `--mirror` doubles its training set
/// with these.
pub fn mirror_files(r: &Record) -> Record {
    let mut ps = NO_PIECES;
    let n = pieces(r, &mut ps);
    let mut by_square = [None; 64];
    for p in &ps[..n] {
        by_square[(p.square ^ 7) as usize] = Some(8 * p.colour + p.kind);
    }
    let mut out = [0u8; RECORD_BYTES];
    let mut occ = 0u64;
    let mut k = 0usize;
    for (s, nibble) in by_square.iter().enumerate() {
        if let Some(nibble) = nibble {
            occ |= 1 << s;
            out[8 + k / 2] |= nibble << (4 * (k % 2));
            k += 1;
        }
    }
    out[0..8].copy_from_slice(&occ.to_le_bytes());
    out[24..28].copy_from_slice(&r[24..28]);
    out
}

/// Checks that `r` is a plausible record (kinds 0..5, one king each, zero padding, result and
/// side to move in range).
pub fn is_valid(r: &Record) -> bool {
    let mut ps = NO_PIECES;
    let occ = u64::from_le_bytes(r[0..8].try_into().unwrap());
    if occ.count_ones() > 32 || r[26] > 2 || r[27] > 1 || r[28..32] != [0; 4] {
        return false;
    }
    let n = pieces(r, &mut ps);
    let mut kings = [0; 2];
    for p in &ps[..n] {
        if p.kind > 5 {
            return false;
        }
        if p.kind == 5 {
            kings[p.colour as usize] += 1;
        }
    }
    kings == [1, 1]
}

/// Reads every whole record of the files at `paths` (a trailing partial record, from a
/// generator still writing, is dropped).
pub fn read_files(paths: &[String]) -> std::io::Result<Vec<Record>> {
    let mut out = Vec::new();
    for p in paths {
        let bytes = std::fs::read(p)?;
        out.reserve(bytes.len() / RECORD_BYTES);
        for c in bytes.chunks_exact(RECORD_BYTES) {
            out.push(c.try_into().unwrap());
        }
    }
    Ok(out)
}
