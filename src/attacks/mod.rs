//! Attack tables: leapers (knight, king, pawn) and line helpers computed at compile time by
//! `const fn`; sliders (rook, bishop, queen) looked up in tables that `build.rs` computes at
//! compile time, in two layouts behind one trait:
//!
//! * [`Pext`]: index = `pext(occupancy, mask)` with the BMI2 instruction. Only constructible
//!   through [`Pext::detect`], which checks the running CPU.
//! * [`Magic`]: index = `(occupancy & mask) * magic >> shift` (fancy magic bitboards), works
//!   everywhere.
//!
//! Hot code is generic over [`Sliders`] and is monomorphised for each back end; the back end is
//! chosen once per top-level call ([`Backend::detect`]), so no lookup pays a branch or an
//! indirect call. The free functions [`rook_attacks`] and [`bishop_attacks`] are conveniences
//! that choose per call.

#[allow(dead_code)]
mod slider_gen;

pub use slider_gen::{pdep as pdep_soft, pext as pext_soft};

use crate::bitboard::Bitboard;
use crate::types::{Color, Square};

/// One square's slider lookup data, shared by both layouts.
#[derive(Clone, Copy, Debug)]
pub struct SliderEntry {
    /// Relevant occupancy mask (rays without their edge squares).
    pub mask: u64,
    /// Magic multiplier of the magic layout.
    pub magic: u64,
    /// Start of this square's block in the table (both layouts use the same blocks).
    pub offset: u32,
    /// `64 - mask.count_ones()`.
    pub shift: u8,
}

mod generated {
    use super::SliderEntry;
    include!(concat!(env!("OUT_DIR"), "/slider_meta.rs"));
}
use generated::{BISHOP_ENTRIES, BISHOP_TABLE_LEN, ROOK_ENTRIES, ROOK_TABLE_LEN};

/// Decodes a little-endian byte image of `N` words at compile time.
const fn words<const N: usize>(bytes: &[u8]) -> [u64; N] {
    assert!(bytes.len() == N * 8);
    let mut out = [0u64; N];
    let mut i = 0;
    while i < N {
        let b = i * 8;
        out[i] = u64::from_le_bytes([
            bytes[b],
            bytes[b + 1],
            bytes[b + 2],
            bytes[b + 3],
            bytes[b + 4],
            bytes[b + 5],
            bytes[b + 6],
            bytes[b + 7],
        ]);
        i += 1;
    }
    out
}

static ROOK_PEXT: [u64; ROOK_TABLE_LEN] =
    words(include_bytes!(concat!(env!("OUT_DIR"), "/rook_pext.bin")));
static ROOK_MAGIC: [u64; ROOK_TABLE_LEN] =
    words(include_bytes!(concat!(env!("OUT_DIR"), "/rook_magic.bin")));
static BISHOP_PEXT: [u64; BISHOP_TABLE_LEN] =
    words(include_bytes!(concat!(env!("OUT_DIR"), "/bishop_pext.bin")));
static BISHOP_MAGIC: [u64; BISHOP_TABLE_LEN] = words(include_bytes!(concat!(
    env!("OUT_DIR"),
    "/bishop_magic.bin"
)));

/// Every square's block ends inside its table: `offset + 2^(64 - shift) <= len`. Checked at
/// compile time; the unchecked lookups below rely on it.
const fn blocks_fit(entries: &[SliderEntry; 64], len: usize) -> bool {
    let mut i = 0;
    while i < 64 {
        let e = entries[i];
        if e.shift < 52 || e.offset as usize + (1usize << (64 - e.shift)) > len {
            return false;
        }
        if e.mask.count_ones() != 64 - e.shift as u32 {
            return false;
        }
        i += 1;
    }
    true
}
const _: () = assert!(blocks_fit(&ROOK_ENTRIES, ROOK_TABLE_LEN));
const _: () = assert!(blocks_fit(&BISHOP_ENTRIES, BISHOP_TABLE_LEN));

/// Reads `table[offset + index]` where the caller guarantees `index < 2^(64 - shift)`.
#[inline(always)]
fn block_lookup(table: &[u64], e: &SliderEntry, index: u64) -> Bitboard {
    debug_assert!(index < 1 << (64 - e.shift));
    let i = e.offset as usize + index as usize;
    debug_assert!(i < table.len());
    // SAFETY: `index < 2^(64 - shift)` (a product shifted right by `shift`, or a `pext` over a
    // mask of `64 - shift` bits), and `blocks_fit` proved at compile time that
    // `offset + 2^(64 - shift) <= table.len()` for every entry.
    Bitboard(unsafe { *table.get_unchecked(i) })
}

/// A slider attack back end. Implementors are zero-sized tokens; code generic over this
/// trait is monomorphised, so a lookup is a few instructions with no dispatch.
pub trait Sliders: Copy + Send + Sync + 'static {
    /// Rook attacks from `sq` with blockers `occ` (the first blocker on each ray included).
    fn rook(self, sq: Square, occ: Bitboard) -> Bitboard;
    /// Bishop attacks from `sq` with blockers `occ`.
    fn bishop(self, sq: Square, occ: Bitboard) -> Bitboard;
    /// Queen attacks: rook | bishop.
    #[inline(always)]
    fn queen(self, sq: Square, occ: Bitboard) -> Bitboard {
        self.rook(sq, occ) | self.bishop(sq, occ)
    }
}

/// Fancy magic bitboards: portable back end.
#[derive(Copy, Clone, Debug, Default)]
pub struct Magic;

impl Sliders for Magic {
    #[inline(always)]
    fn rook(self, sq: Square, occ: Bitboard) -> Bitboard {
        let e = &ROOK_ENTRIES[sq.index()];
        block_lookup(
            &ROOK_MAGIC,
            e,
            (occ.0 & e.mask).wrapping_mul(e.magic) >> e.shift,
        )
    }
    #[inline(always)]
    fn bishop(self, sq: Square, occ: Bitboard) -> Bitboard {
        let e = &BISHOP_ENTRIES[sq.index()];
        block_lookup(
            &BISHOP_MAGIC,
            e,
            (occ.0 & e.mask).wrapping_mul(e.magic) >> e.shift,
        )
    }
}

/// BMI2 `pext` back end. A value of this type exists only when the running CPU has BMI1, BMI2,
/// POPCNT and LZCNT (see [`Pext::detect`]), so holding one is the proof that those instructions
/// may be used: code entered with a `Pext` token may be compiled with
/// `#[target_feature(enable = "bmi1,bmi2,popcnt,lzcnt")]`.
#[derive(Copy, Clone, Debug)]
pub struct Pext(());

impl Pext {
    /// `Some` when the running CPU executes `pext` natively and fast. AMD processors before
    /// Zen 3 (family < 0x19) implement it in microcode at ~20x the cost, so they get `None`
    /// and the magic back end.
    pub fn detect() -> Option<Pext> {
        use std::sync::atomic::{AtomicU8, Ordering};
        // The verdict is cached: `cpuid` traps to the hypervisor in a virtual machine (about a
        // microsecond), far more than a move generation. This is the only static the crate
        // writes; it holds a fact about the CPU, every thread computes the same value, and a
        // race only computes it twice.
        const UNKNOWN: u8 = 0;
        const FAST: u8 = 1;
        const SLOW: u8 = 2;
        static VERDICT: AtomicU8 = AtomicU8::new(UNKNOWN);
        let verdict = match VERDICT.load(Ordering::Relaxed) {
            UNKNOWN => {
                let v = if Self::probe() { FAST } else { SLOW };
                VERDICT.store(v, Ordering::Relaxed);
                v
            }
            v => v,
        };
        (verdict == FAST).then_some(Pext(()))
    }

    /// The uncached check behind [`Pext::detect`].
    fn probe() -> bool {
        #[cfg(target_arch = "x86_64")]
        {
            std::arch::is_x86_feature_detected!("bmi2")
                && std::arch::is_x86_feature_detected!("bmi1")
                && std::arch::is_x86_feature_detected!("popcnt")
                && std::arch::is_x86_feature_detected!("lzcnt")
                && !slow_pext_cpu()
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            false
        }
    }
}

#[cfg(target_arch = "x86_64")]
fn slow_pext_cpu() -> bool {
    use std::arch::x86_64::__cpuid;
    let vendor = __cpuid(0);
    let amd = vendor.ebx == 0x6874_7541 && vendor.edx == 0x6974_6e65 && vendor.ecx == 0x444d_4163;
    if !amd {
        return false;
    }
    let eax = __cpuid(1).eax;
    let family = ((eax >> 8) & 0xF) + ((eax >> 20) & 0xFF);
    family < 0x19
}

#[inline(always)]
fn pext_hw(_token: Pext, src: u64, mask: u64) -> u64 {
    #[cfg(target_arch = "x86_64")]
    {
        let out: u64;
        // SAFETY: a `Pext` token exists only when `Pext::detect` saw BMI2 on this CPU, so the
        // instruction is available. It reads and writes registers only (no memory, no stack,
        // no flags).
        unsafe {
            core::arch::asm!(
                "pext {out}, {src}, {mask}",
                out = lateout(reg) out,
                src = in(reg) src,
                mask = in(reg) mask,
                options(pure, nomem, nostack, preserves_flags)
            );
        }
        out
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        slider_gen::pext(src, mask)
    }
}

impl Sliders for Pext {
    #[inline(always)]
    fn rook(self, sq: Square, occ: Bitboard) -> Bitboard {
        let e = &ROOK_ENTRIES[sq.index()];
        block_lookup(&ROOK_PEXT, e, pext_hw(self, occ.0, e.mask))
    }
    #[inline(always)]
    fn bishop(self, sq: Square, occ: Bitboard) -> Bitboard {
        let e = &BISHOP_ENTRIES[sq.index()];
        block_lookup(&BISHOP_PEXT, e, pext_hw(self, occ.0, e.mask))
    }
}

/// The slider back end chosen for this CPU.
#[derive(Copy, Clone, Debug)]
pub enum Backend {
    /// BMI2 `pext`.
    Pext(Pext),
    /// Magic multiplication.
    Magic(Magic),
}

impl Backend {
    /// The fastest back end the running CPU supports.
    #[inline]
    pub fn detect() -> Backend {
        match Pext::detect() {
            Some(p) => Backend::Pext(p),
            None => Backend::Magic(Magic),
        }
    }

    /// `"pext"` or `"magic"`.
    pub fn name(self) -> &'static str {
        match self {
            Backend::Pext(_) => "pext",
            Backend::Magic(_) => "magic",
        }
    }
}

/// Runs generic code with the detected back end: `with_sliders!(|s| expr)` evaluates `expr`
/// with `s` bound to a `Pext` or a `Magic` token (one branch, then monomorphised code).
#[macro_export]
#[doc(hidden)]
macro_rules! with_sliders {
    (|$s:ident| $body:expr) => {
        match $crate::attacks::Backend::detect() {
            $crate::attacks::Backend::Pext($s) => $body,
            $crate::attacks::Backend::Magic($s) => $body,
        }
    };
}

/// Rook attacks from `sq` with blockers `occ`, on the detected back end (one branch per call;
/// hot code uses [`Sliders`] directly).
#[inline]
pub fn rook_attacks(sq: Square, occ: Bitboard) -> Bitboard {
    with_sliders!(|s| s.rook(sq, occ))
}

/// Bishop attacks from `sq` with blockers `occ`, on the detected back end.
#[inline]
pub fn bishop_attacks(sq: Square, occ: Bitboard) -> Bitboard {
    with_sliders!(|s| s.bishop(sq, occ))
}

/// Queen attacks from `sq` with blockers `occ`, on the detected back end.
#[inline]
pub fn queen_attacks(sq: Square, occ: Bitboard) -> Bitboard {
    with_sliders!(|s| s.queen(sq, occ))
}

/// Rook attacks by the slow reference ray walk (tests and table checks).
pub const fn rook_attacks_slow(sq: Square, occ: Bitboard) -> Bitboard {
    Bitboard(slider_gen::slide(sq.to_u8(), occ.0, &slider_gen::ROOK_DIRS))
}

/// Bishop attacks by the slow reference ray walk.
pub const fn bishop_attacks_slow(sq: Square, occ: Bitboard) -> Bitboard {
    Bitboard(slider_gen::slide(
        sq.to_u8(),
        occ.0,
        &slider_gen::BISHOP_DIRS,
    ))
}

const fn leaper_table(steps: &[(i8, i8)]) -> [u64; 64] {
    let mut t = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut i = 0;
        while i < steps.len() {
            let f = (sq & 7) as i8 + steps[i].0;
            let r = (sq >> 3) as i8 + steps[i].1;
            if f >= 0 && f < 8 && r >= 0 && r < 8 {
                t[sq] |= 1u64 << (r * 8 + f);
            }
            i += 1;
        }
        sq += 1;
    }
    t
}

static KNIGHT: [u64; 64] = leaper_table(&[
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
]);
static KING: [u64; 64] = leaper_table(&[
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
]);
static PAWN: [[u64; 64]; 2] = [
    leaper_table(&[(-1, 1), (1, 1)]),
    leaper_table(&[(-1, -1), (1, -1)]),
];

/// Knight attacks from `sq`.
#[inline(always)]
pub fn knight_attacks(sq: Square) -> Bitboard {
    Bitboard(KNIGHT[sq.index()])
}

/// King attacks from `sq`.
#[inline(always)]
pub fn king_attacks(sq: Square) -> Bitboard {
    Bitboard(KING[sq.index()])
}

/// Squares a pawn of `color` on `sq` attacks.
#[inline(always)]
pub fn pawn_attacks(color: Color, sq: Square) -> Bitboard {
    Bitboard(PAWN[color.index()][sq.index()])
}

/// Line tables: `BETWEEN[a][b]` = squares strictly between two aligned squares (empty when not
/// aligned); `LINE[a][b]` = the whole line through both (empty when not aligned).
struct Lines {
    between: [[u64; 64]; 64],
    line: [[u64; 64]; 64],
}

const fn build_lines() -> Lines {
    let mut l = Lines {
        between: [[0; 64]; 64],
        line: [[0; 64]; 64],
    };
    let mut a = 0;
    while a < 64 {
        let mut b = 0;
        while b < 64 {
            if a != b {
                let ab = 1u64 << a | 1u64 << b;
                let dirs = [&slider_gen::ROOK_DIRS, &slider_gen::BISHOP_DIRS];
                let mut k = 0;
                while k < 2 {
                    let d = dirs[k];
                    if slider_gen::slide(a as u8, 0, d) & (1u64 << b) != 0 {
                        l.between[a][b] =
                            slider_gen::slide(a as u8, ab, d) & slider_gen::slide(b as u8, ab, d);
                        l.line[a][b] = (slider_gen::slide(a as u8, 0, d)
                            & slider_gen::slide(b as u8, 0, d))
                            | ab;
                    }
                    k += 1;
                }
            }
            b += 1;
        }
        a += 1;
    }
    l
}

static LINES: Lines = build_lines();

/// Squares strictly between `a` and `b` when they share a rank, file or diagonal; else empty.
#[inline(always)]
pub fn between(a: Square, b: Square) -> Bitboard {
    Bitboard(LINES.between[a.index()][b.index()])
}

/// The full line (edge to edge) through `a` and `b` when aligned; else empty.
#[inline(always)]
pub fn line(a: Square, b: Square) -> Bitboard {
    Bitboard(LINES.line[a.index()][b.index()])
}

const fn rays(dirs: &[(i8, i8); 4]) -> [u64; 64] {
    let mut t = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        t[sq] = slider_gen::slide(sq as u8, 0, dirs);
        sq += 1;
    }
    t
}

static ROOK_RAYS: [u64; 64] = rays(&slider_gen::ROOK_DIRS);
static BISHOP_RAYS: [u64; 64] = rays(&slider_gen::BISHOP_DIRS);

/// Empty-board rook rays from `sq` (one table read).
#[inline(always)]
pub fn rook_rays(sq: Square) -> Bitboard {
    Bitboard(ROOK_RAYS[sq.index()])
}

/// Empty-board bishop rays from `sq` (one table read).
#[inline(always)]
pub fn bishop_rays(sq: Square) -> Bitboard {
    Bitboard(BISHOP_RAYS[sq.index()])
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Occupancies: every subset of the relevant mask for small masks, random ones otherwise.
    fn occupancies(seed: u64) -> impl Iterator<Item = Bitboard> {
        let mut x = seed;
        (0..3000).map(move |_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let y = x.wrapping_mul(0x9E37_79B9_7F4A_7C15);
            Bitboard(x & y)
        })
    }

    fn check_backend<S: Sliders>(s: S) {
        for sq in Square::all() {
            for occ in occupancies(sq.index() as u64 + 1) {
                assert_eq!(
                    s.rook(sq, occ),
                    rook_attacks_slow(sq, occ),
                    "rook {sq} {occ:?}"
                );
                assert_eq!(
                    s.bishop(sq, occ),
                    bishop_attacks_slow(sq, occ),
                    "bishop {sq} {occ:?}"
                );
            }
        }
    }

    #[test]
    fn magic_matches_reference() {
        check_backend(Magic);
    }

    /// `(has BMI1, BMI2, POPCNT and LZCNT, is a slow-PEXT AMD)` for this CPU, decided here
    /// from `cpuid` without `probe`/`slow_pext_cpu`: slow means an AMD processor before Zen 3
    /// (family 0x19), whose PEXT is microcoded. The family is the base family, plus the
    /// extended family when the base family is 0xF (the documented rule).
    #[cfg(target_arch = "x86_64")]
    fn cpu_pext_facts() -> (bool, bool) {
        use std::arch::x86_64::__cpuid;
        let features = std::arch::is_x86_feature_detected!("bmi2")
            && std::arch::is_x86_feature_detected!("bmi1")
            && std::arch::is_x86_feature_detected!("popcnt")
            && std::arch::is_x86_feature_detected!("lzcnt");
        let leaf0 = __cpuid(0);
        let mut vendor = [0u8; 12];
        vendor[..4].copy_from_slice(&leaf0.ebx.to_le_bytes());
        vendor[4..8].copy_from_slice(&leaf0.edx.to_le_bytes());
        vendor[8..].copy_from_slice(&leaf0.ecx.to_le_bytes());
        let eax = __cpuid(1).eax;
        let base = (eax >> 8) & 0xF;
        let family = if base == 0xF {
            base + ((eax >> 20) & 0xFF)
        } else {
            base
        };
        let slow = &vendor == b"AuthenticAMD" && family < 0x19;
        eprintln!(
            "cpu: vendor {:?}, family {family:#x}, bmi1/bmi2/popcnt/lzcnt {features}, slow pext {slow}",
            String::from_utf8_lossy(&vendor)
        );
        (features, slow)
    }

    /// Whether this CPU should get the PEXT back end.
    #[cfg(target_arch = "x86_64")]
    fn expect_fast_pext() -> bool {
        let (features, slow) = cpu_pext_facts();
        features && !slow
    }

    #[cfg(not(target_arch = "x86_64"))]
    fn expect_fast_pext() -> bool {
        false
    }

    #[test]
    fn pext_detection_matches_the_cpu() {
        let expected = expect_fast_pext();
        // A CPU with BMI2 where detection wrongly fails would otherwise skip every PEXT check.
        assert_eq!(Pext::detect().is_some(), expected);
        // The cached verdict is stable, and the back end follows it.
        assert_eq!(Pext::detect().is_some(), expected);
        assert_eq!(
            Backend::detect().name(),
            if expected { "pext" } else { "magic" }
        );
        #[cfg(target_arch = "x86_64")]
        {
            assert_eq!(Pext::probe(), expected);
            // The crate's own slow-PEXT rule agrees with the one above on this CPU.
            assert_eq!(slow_pext_cpu(), cpu_pext_facts().1);
        }
    }

    /// Off x86-64 (aarch64 under qemu in scripts/cross-aarch64) there is no PEXT: detection
    /// must say so without probing anything, and every entry point runs on the magic tables.
    #[cfg(not(target_arch = "x86_64"))]
    #[test]
    fn non_x86_selects_the_magic_back_end() {
        assert!(!Pext::probe());
        assert!(Pext::detect().is_none());
        assert!(matches!(Backend::detect(), Backend::Magic(Magic)));
        assert_eq!(Backend::detect().name(), "magic");
        // The per-call conveniences go through the same choice and agree with the reference.
        let occ = Bitboard(0x0000_1200_0040_8100);
        for sq in Square::all() {
            assert_eq!(rook_attacks(sq, occ), rook_attacks_slow(sq, occ));
            assert_eq!(bishop_attacks(sq, occ), bishop_attacks_slow(sq, occ));
        }
    }

    #[test]
    fn pext_matches_reference_and_magic() {
        let Some(p) = Pext::detect() else {
            // Visible in `cargo test -- --nocapture`, and `pext_detection_matches_the_cpu`
            // fails if this CPU should have had the PEXT back end.
            eprintln!(
                "SKIPPED pext_matches_reference_and_magic: Pext::detect() is None on this CPU \
                 (expected: {}), the PEXT back end is not checked here",
                expect_fast_pext()
            );
            assert!(!expect_fast_pext());
            return;
        };
        check_backend(p);
        for sq in Square::all() {
            for occ in occupancies(99 + sq.index() as u64) {
                assert_eq!(p.rook(sq, occ), Magic.rook(sq, occ));
                assert_eq!(p.bishop(sq, occ), Magic.bishop(sq, occ));
            }
        }
    }

    #[test]
    fn every_subset_of_every_mask_matches() {
        // Exhaustive over the relevant occupancies: every table entry is checked once.
        for sq in Square::all() {
            for (entries, slow) in [
                (
                    &ROOK_ENTRIES,
                    rook_attacks_slow as fn(Square, Bitboard) -> Bitboard,
                ),
                (&BISHOP_ENTRIES, bishop_attacks_slow),
            ] {
                let e = entries[sq.index()];
                for i in 0..1u64 << e.mask.count_ones() {
                    let occ = Bitboard(pdep_soft(i, e.mask));
                    let want = slow(sq, occ);
                    let got = if e.mask == ROOK_ENTRIES[sq.index()].mask {
                        Magic.rook(sq, occ)
                    } else {
                        Magic.bishop(sq, occ)
                    };
                    assert_eq!(got, want);
                }
            }
        }
    }

    #[test]
    fn leapers_and_lines() {
        assert_eq!(knight_attacks(Square::A1).count(), 2);
        assert_eq!(knight_attacks(Square::E4).count(), 8);
        assert_eq!(king_attacks(Square::H8).count(), 3);
        assert_eq!(
            pawn_attacks(Color::WHITE, Square::E4),
            Square::D5.bb() | Square::F5.bb()
        );
        assert_eq!(pawn_attacks(Color::BLACK, Square::A5), Square::B4.bb());
        assert_eq!(
            between(Square::A1, Square::D4),
            Square::B2.bb() | Square::C3.bb()
        );
        assert!(between(Square::A1, Square::B3).is_empty());
        assert_eq!(line(Square::A1, Square::B2).count(), 8);
        assert!(line(Square::A1, Square::C2).is_empty());
    }
}
