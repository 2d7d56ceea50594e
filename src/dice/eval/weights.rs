//! The evaluation weights, one set per rule set (indexed by `Rules as usize`: two dice, one
//! die, three dice), written by the tuner (`lab/dice_tune.rs`; the module docs of
//! [`super`] give the commands that rebuild them). Unit: see [`super::linear::WEIGHT_SCALE`].

use super::Weights;

/// The weights in use, by rule set.
#[rustfmt::skip]
pub static WEIGHTS: [Weights; 3] = [
    // two-dice
    [
        0, // tempo
        21845, // pawn
        65535, // knight
        67720, // bishop
        109225, // rook
        196605, // queen
        65, // chess
        384, // our_king_capture
        -384, // their_king_capture
        0, // king_zone_ours
        0, // king_zone_theirs
        109, // our_capture_gain
        -65, // their_capture_gain
        2184, // movable_types
        -32, // pass_chance
        0, // passed_2
        1092, // passed_3
        2184, // passed_4
        4369, // passed_5
        8738, // passed_6
        17476, // passed_7
        64, // promotion_chance
        2184, // diversity
    ],
    // one-die
    [
        1244, // tempo
        1896, // pawn
        12696, // knight
        2994, // bishop
        19726, // rook
        40310, // queen
        65, // chess
        357, // our_king_capture
        -200, // their_king_capture
        -4601, // king_zone_ours
        5169, // king_zone_theirs
        140, // our_capture_gain
        -91, // their_capture_gain
        -7724, // movable_types
        -32, // pass_chance
        2961, // passed_2
        -6258, // passed_3
        -215, // passed_4
        1798, // passed_5
        9243, // passed_6
        14805, // passed_7
        -108, // promotion_chance
        -46950, // diversity
    ],
    // three-dice
    [
        0, // tempo
        21845, // pawn
        65535, // knight
        67720, // bishop
        109225, // rook
        196605, // queen
        65, // chess
        384, // our_king_capture
        -200, // their_king_capture
        0, // king_zone_ours
        0, // king_zone_theirs
        109, // our_capture_gain
        -65, // their_capture_gain
        2184, // movable_types
        -32, // pass_chance
        0, // passed_2
        1092, // passed_3
        2184, // passed_4
        4369, // passed_5
        8738, // passed_6
        17476, // passed_7
        64, // promotion_chance
        2184, // diversity
    ],
];
