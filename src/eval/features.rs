//! The evaluation's features: where each weight lives in the weight vector.
//!
//! Every term of the hand-written evaluation is a weight times a count (white's count minus
//! black's), so the evaluation is linear in the weights for each game phase. That is what
//! lets the Texel tuner (`lab/tune.rs`) fit all weights at once from a trace of the
//! counts. The king-attack term stays linear by being a one-hot table over the attack units.

/// Piece values: pawn, knight, bishop, rook, queen.
pub const PIECE_VALUE: usize = 0;
/// Piece-square tables: `PST + (type - 1) * 64 + square`, the square seen from White
/// (Black's squares are mirrored rank-wise).
pub const PST: usize = PIECE_VALUE + 5;
/// Knight mobility by the number of safe squares it attacks (0..=8).
pub const MOBILITY_KNIGHT: usize = PST + 6 * 64;
/// Bishop mobility (0..=13).
pub const MOBILITY_BISHOP: usize = MOBILITY_KNIGHT + 9;
/// Rook mobility (0..=14).
pub const MOBILITY_ROOK: usize = MOBILITY_BISHOP + 14;
/// Queen mobility (0..=27).
pub const MOBILITY_QUEEN: usize = MOBILITY_ROOK + 15;
/// Passed pawn by relative rank (0..8, 1..=6 used).
pub const PASSED: usize = MOBILITY_QUEEN + 28;
/// Passed pawn: own king's distance to the stop square, by relative rank.
pub const PASSED_OWN_KING: usize = PASSED + 8;
/// Passed pawn: the enemy king's distance to the stop square, by relative rank.
pub const PASSED_THEIR_KING: usize = PASSED_OWN_KING + 8;
/// Passed pawn whose stop square is occupied, by relative rank.
pub const PASSED_BLOCKED: usize = PASSED_THEIR_KING + 8;
/// Pawn with no friendly pawn on the neighbouring files.
pub const ISOLATED: usize = PASSED_BLOCKED + 8;
/// Pawn with a friendly pawn in front of it on its file.
pub const DOUBLED: usize = ISOLATED + 1;
/// Pawn that no friendly pawn can defend by advancing and whose stop square an enemy pawn
/// attacks.
pub const BACKWARD: usize = DOUBLED + 1;
/// Pawn defended by a pawn or standing beside one, by relative rank.
pub const CONNECTED: usize = BACKWARD + 1;
/// Two bishops or more.
pub const BISHOP_PAIR: usize = CONNECTED + 8;
/// Rook on a file with no pawns.
pub const ROOK_OPEN: usize = BISHOP_PAIR + 1;
/// Rook on a file with enemy pawns only.
pub const ROOK_SEMI_OPEN: usize = ROOK_OPEN + 1;
/// Own pawns one and two ranks in front of the king (its file and the neighbouring ones).
pub const KING_SHIELD: usize = ROOK_SEMI_OPEN + 1;
/// King attack table, one-hot over the attack units on the king zone (0..=23, clamped).
pub const KING_ATTACK: usize = KING_SHIELD + 2;
/// Number of king attack table entries.
pub const KING_ATTACK_SIZE: usize = 24;
/// Enemy non-pawn pieces attacked by our pawns.
pub const THREAT_BY_PAWN: usize = KING_ATTACK + KING_ATTACK_SIZE;
/// Enemy rooks and queens attacked by our knights and bishops.
pub const THREAT_BY_MINOR: usize = THREAT_BY_PAWN + 1;
/// Enemy queens attacked by our rooks.
pub const THREAT_BY_ROOK: usize = THREAT_BY_MINOR + 1;
/// Enemy non-pawn pieces we attack and they do not defend.
pub const HANGING: usize = THREAT_BY_ROOK + 1;
/// The side to move's bonus (counted +1 for White to move, -1 for Black).
pub const TEMPO: usize = HANGING + 1;
/// Number of weights.
pub const NUM_FEATURES: usize = TEMPO + 1;

/// The name of the feature block that `index` falls in and the offset inside it (for the
/// tuner's report).
#[cfg(feature = "lab")]
pub fn describe(index: usize) -> (&'static str, usize) {
    const BLOCKS: [(&str, usize); 25] = [
        ("piece_value", PIECE_VALUE),
        ("pst", PST),
        ("mobility_knight", MOBILITY_KNIGHT),
        ("mobility_bishop", MOBILITY_BISHOP),
        ("mobility_rook", MOBILITY_ROOK),
        ("mobility_queen", MOBILITY_QUEEN),
        ("passed", PASSED),
        ("passed_own_king", PASSED_OWN_KING),
        ("passed_their_king", PASSED_THEIR_KING),
        ("passed_blocked", PASSED_BLOCKED),
        ("isolated", ISOLATED),
        ("doubled", DOUBLED),
        ("backward", BACKWARD),
        ("connected", CONNECTED),
        ("bishop_pair", BISHOP_PAIR),
        ("rook_open", ROOK_OPEN),
        ("rook_semi_open", ROOK_SEMI_OPEN),
        ("king_shield", KING_SHIELD),
        ("king_attack", KING_ATTACK),
        ("threat_by_pawn", THREAT_BY_PAWN),
        ("threat_by_minor", THREAT_BY_MINOR),
        ("threat_by_rook", THREAT_BY_ROOK),
        ("hanging", HANGING),
        ("tempo", TEMPO),
        ("end", NUM_FEATURES),
    ];
    let mut best = BLOCKS[0];
    for b in BLOCKS {
        if b.1 <= index {
            best = b;
        }
    }
    (best.0, index - best.1)
}
