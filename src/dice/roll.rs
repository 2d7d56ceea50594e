//! Rolls and the chance node's outcomes with exact integer weights.

use super::rules::Rules;
use crate::types::{Color, PieceType};
use core::fmt;

/// A roll: `count` dice (1 to 3) with faces 1..6 (pawn .. king) in `faces[..count]`, sorted
/// ascending, the unused faces 0. The layout of the C ABI's `ChessDiceRoll`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
#[repr(C)]
pub struct Roll {
    /// Number of dice, 1 to 3 (0 only in the empty roll of no turn).
    pub count: u8,
    /// The faces, sorted, then zeros.
    pub faces: [u8; 3],
}

impl Roll {
    /// The empty roll (no dice).
    pub const EMPTY: Roll = Roll {
        count: 0,
        faces: [0; 3],
    };

    /// The roll of these die faces (1 to 3 faces, each 1..6, in any order; stored sorted).
    pub fn from_faces(faces: &[u8]) -> Option<Roll> {
        if faces.is_empty() || faces.len() > 3 || faces.iter().any(|&f| !(1..=6).contains(&f)) {
            return None;
        }
        let mut r = Roll {
            count: faces.len() as u8,
            faces: [0; 3],
        };
        r.faces[..faces.len()].copy_from_slice(faces);
        r.faces[..faces.len()].sort_unstable();
        Some(r)
    }

    /// True when the bytes are a roll [`Roll::from_faces`] can return: count 1 to 3, faces in
    /// 1..6 sorted, unused faces 0.
    pub fn is_canonical(&self) -> bool {
        let n = self.count as usize;
        (1..=3).contains(&n)
            && self.faces[..n].iter().all(|f| (1..=6).contains(f))
            && self.faces[..n].windows(2).all(|w| w[0] <= w[1])
            && self.faces[n..].iter().all(|&f| f == 0)
    }

    /// The faces in use.
    pub fn dice(&self) -> &[u8] {
        &self.faces[..(self.count as usize).min(3)]
    }

    /// The piece-type mask of the faces (bit `1 << face`).
    pub fn mask(&self) -> u8 {
        self.dice().iter().fold(0, |m, &f| m | 1 << f)
    }

    /// True for two equal dice (the two-dice rule set's "any move").
    pub fn is_doubles(&self) -> bool {
        self.count == 2 && self.faces[0] == self.faces[1]
    }

    /// The faces as piece letters in `color`'s case (`PPN`), as in the dice FEN.
    pub fn letters(&self, color: Color) -> impl Iterator<Item = char> + '_ {
        self.dice().iter().map(move |&f| {
            let c = PieceType::new(f).map_or('?', PieceType::to_char);
            if color == Color::WHITE {
                c.to_ascii_uppercase()
            } else {
                c
            }
        })
    }

    /// This roll with one die of `face` taken out (`None` when it has none).
    pub fn without(&self, face: u8) -> Option<Roll> {
        let i = self.dice().iter().position(|&f| f == face)?;
        let mut r = Roll::EMPTY;
        for (j, &f) in self.dice().iter().enumerate() {
            if j != i {
                r.faces[r.count as usize] = f;
                r.count += 1;
            }
        }
        Some(r)
    }
}

impl fmt::Display for Roll {
    /// The faces as digits joined by `-` with their piece letters, e.g. `1-2 (P N)`; `-` for
    /// the empty roll.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.count == 0 {
            return f.write_str("-");
        }
        for (i, d) in self.dice().iter().enumerate() {
            if i > 0 {
                f.write_str("-")?;
            }
            write!(f, "{d}")?;
        }
        f.write_str(" (")?;
        for (i, c) in self.letters(Color::WHITE).enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{c}")?;
        }
        f.write_str(")")
    }
}

/// One outcome of the chance node: a roll and its integer weight (its chance is weight /
/// denominator). The layout of the C ABI's `ChessDiceOutcome`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
#[repr(C)]
pub struct Outcome {
    /// The roll.
    pub roll: Roll,
    /// Its weight.
    pub weight: u32,
}

/// Most outcomes a chance node has (three dice: 56 multisets).
pub const MAX_OUTCOMES: usize = 56;

/// The outcomes of a chance node with exact weights summing to `denominator`, in a fixed
/// array (no heap).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Outcomes {
    list: [Outcome; MAX_OUTCOMES],
    len: usize,
    denominator: u32,
}

impl Outcomes {
    /// No outcome (a finished game), denominator 1.
    pub const NONE: Outcomes = Outcomes {
        list: [Outcome {
            roll: Roll::EMPTY,
            weight: 0,
        }; MAX_OUTCOMES],
        len: 0,
        denominator: 1,
    };

    fn push(&mut self, roll: Roll, weight: u32) {
        self.list[self.len] = Outcome { roll, weight };
        self.len += 1;
    }

    /// The outcomes, rolls in ascending order of their faces.
    pub fn as_slice(&self) -> &[Outcome] {
        &self.list[..self.len]
    }

    /// The sum of the weights.
    pub fn denominator(&self) -> u32 {
        self.denominator
    }

    /// `rolls` outcomes drawn from these by their weights, with repeats (SplitMix64 from
    /// `seed`: the same seed, the same sample), as outcomes whose weights count how often
    /// each roll was drawn over the denominator `rolls`, in this list's order: a chance
    /// node sampled (Monte-Carlo *-minimax, the Dice Chess search's
    /// [`Sampling`](crate::dice::search::Sampling)). `None` when `rolls` is 0 or there is no
    /// outcome.
    pub fn sample(&self, rolls: u32, seed: u64) -> Option<Outcomes> {
        if rolls == 0 || self.len == 0 {
            return None;
        }
        let mut counts = [0u32; MAX_OUTCOMES];
        let mut state = seed;
        for _ in 0..rolls {
            state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^= z >> 31;
            let mut r = (z % self.denominator as u64) as u32;
            for (count, o) in counts.iter_mut().zip(self.as_slice()) {
                if r < o.weight {
                    *count += 1;
                    break;
                }
                r -= o.weight;
            }
        }
        let mut out = Outcomes {
            denominator: rolls,
            ..Outcomes::NONE
        };
        for (&count, o) in counts.iter().zip(self.as_slice()) {
            if count > 0 {
                out.push(o.roll, count);
            }
        }
        Some(out)
    }

    /// The outcomes of the fixed dice of a rule set: two dice (15 mixed pairs at 2, six
    /// doubles at 1, over 36) or three dice (56 multisets at 1, 3 or 6, over 216). One die
    /// depends on the position: see [`Outcomes::one_die`].
    pub fn fixed(rules: Rules) -> Outcomes {
        let mut o = Outcomes::NONE;
        match rules {
            Rules::TwoDice => {
                for a in 1..=6u8 {
                    for b in a..=6u8 {
                        let roll = Roll::from_faces(&[a, b]).unwrap_or_default();
                        o.push(roll, if a == b { 1 } else { 2 });
                    }
                }
                o.denominator = 36;
            }
            Rules::ThreeDice => {
                for a in 1..=6u8 {
                    for b in a..=6u8 {
                        for c in b..=6u8 {
                            let roll = Roll::from_faces(&[a, b, c]).unwrap_or_default();
                            // Orderings of the multiset: 6 all different, 3 one pair, 1 triple.
                            let w = if a == c {
                                1
                            } else if a == b || b == c {
                                3
                            } else {
                                6
                            };
                            o.push(roll, w);
                        }
                    }
                }
                o.denominator = 216;
            }
            Rules::OneDie => o = Outcomes::one_die(0b0111_1110),
        }
        o
    }

    /// One die showing the types of `movable` (a piece-type mask) uniformly: weight 1 each
    /// over their number.
    pub fn one_die(movable: u8) -> Outcomes {
        let mut o = Outcomes::NONE;
        for f in 1..=6u8 {
            if movable & 1 << f != 0 {
                o.push(Roll::from_faces(&[f]).unwrap_or_default(), 1);
            }
        }
        o.denominator = o.len.max(1) as u32;
        o
    }
}
