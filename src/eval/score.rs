//! Tapered scores: a middlegame and an endgame value packed into one `i32`, so that sums and
//! small multiples of both phases cost one integer operation.
//!
//! Layout: `packed = eg * 65536 + mg`. The middlegame half is the low 16 bits read as `i16`;
//! the endgame half is the rest, rounded so that a negative middlegame half borrows correctly.
//! Both halves must stay within `i16` (a few thousand centipawns is far inside).

/// The phase with every piece on the board (phase weights: knight and bishop 1, rook 2,
/// queen 4): the middlegame value counts fully there, the endgame value at phase 0.
pub const MAX_PHASE: i32 = 24;

/// The endgame scale that means "unchanged" (drawish material scales the endgame value down).
pub const SCALE_NORMAL: i32 = 64;

/// A packed (middlegame, endgame) pair. See the module docs.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
#[repr(transparent)]
pub struct S(pub i32);

impl S {
    /// Zero in both phases.
    pub const ZERO: S = S(0);

    /// Packs a middlegame and an endgame value.
    #[inline(always)]
    pub const fn new(mg: i32, eg: i32) -> S {
        S((eg << 16).wrapping_add(mg))
    }

    /// The middlegame half.
    #[inline(always)]
    pub const fn mg(self) -> i32 {
        self.0 as i16 as i32
    }

    /// The endgame half.
    #[inline(always)]
    pub const fn eg(self) -> i32 {
        ((self.0.wrapping_add(0x8000)) >> 16) as i16 as i32
    }
}

impl core::ops::Add for S {
    type Output = S;
    #[inline(always)]
    fn add(self, o: S) -> S {
        S(self.0.wrapping_add(o.0))
    }
}

impl core::ops::AddAssign for S {
    #[inline(always)]
    fn add_assign(&mut self, o: S) {
        self.0 = self.0.wrapping_add(o.0);
    }
}

impl core::ops::Sub for S {
    type Output = S;
    #[inline(always)]
    fn sub(self, o: S) -> S {
        S(self.0.wrapping_sub(o.0))
    }
}

impl core::ops::SubAssign for S {
    #[inline(always)]
    fn sub_assign(&mut self, o: S) {
        self.0 = self.0.wrapping_sub(o.0);
    }
}

impl core::ops::Neg for S {
    type Output = S;
    #[inline(always)]
    fn neg(self) -> S {
        S(self.0.wrapping_neg())
    }
}

impl core::ops::Mul<i32> for S {
    type Output = S;
    #[inline(always)]
    fn mul(self, k: i32) -> S {
        S(self.0.wrapping_mul(k))
    }
}

#[cfg(test)]
mod tests {
    use super::S;

    #[test]
    fn packs_and_unpacks_both_signs() {
        for mg in [-3000, -1, 0, 1, 77, 3000] {
            for eg in [-3000, -1, 0, 1, 55, 3000] {
                let s = S::new(mg, eg);
                assert_eq!((s.mg(), s.eg()), (mg, eg));
                let t = s * 3 - S::new(1, 2);
                assert_eq!((t.mg(), t.eg()), (3 * mg - 1, 3 * eg - 2));
                assert_eq!(((-s).mg(), (-s).eg()), (-mg, -eg));
            }
        }
    }
}
