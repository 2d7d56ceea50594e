//! The rules description: which of the three Dice Chess rule sets a game follows, and what
//! each one means for the rest of the module (see the [module docs](super) for every rule).

use core::fmt;

/// A Dice Chess rule set. The discriminants are the C ABI's `ChessDiceRules` values.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
#[repr(u8)]
pub enum Rules {
    /// Two dice, check and mate (the rules usually quoted as "Dice Chess").
    #[default]
    TwoDice = 0,
    /// One die showing only the types that can move; no check; capturing the king wins.
    OneDie = 1,
    /// Three dice spent by up to three micro-moves; the maximum rule; capturing the king wins.
    ThreeDice = 2,
}

impl Rules {
    /// Every rule set, in the order of their values.
    pub const ALL: [Rules; 3] = [Rules::TwoDice, Rules::OneDie, Rules::ThreeDice];

    /// The rule set with this C value.
    pub const fn from_u8(v: u8) -> Option<Rules> {
        match v {
            0 => Some(Rules::TwoDice),
            1 => Some(Rules::OneDie),
            2 => Some(Rules::ThreeDice),
            _ => None,
        }
    }

    /// Number of dice rolled each turn.
    pub const fn dice_count(self) -> usize {
        match self {
            Rules::TwoDice => 2,
            Rules::OneDie => 1,
            Rules::ThreeDice => 3,
        }
    }

    /// True when the rule set has check (moving into check is illegal, mate and stalemate
    /// end the game): only [`Rules::TwoDice`].
    pub const fn has_check(self) -> bool {
        matches!(self, Rules::TwoDice)
    }

    /// The name used on the command line and in the PGN `Variant` tag.
    pub const fn name(self) -> &'static str {
        match self {
            Rules::TwoDice => "two-dice",
            Rules::OneDie => "one-die",
            Rules::ThreeDice => "three-dice",
        }
    }

    /// The rule set with this [`Rules::name`].
    pub fn from_name(s: &str) -> Option<Rules> {
        Rules::ALL.into_iter().find(|r| r.name() == s)
    }
}

impl fmt::Display for Rules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
