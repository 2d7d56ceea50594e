//! The network's vector loops: the output's SCReLU dot product and the accumulator's
//! additions, with one path per instruction set. Every path computes exactly the scalar
//! integer (tested in this file's tests and tests/nnue.rs).
//!
//! - x86_64: AVX2 when the CPU has it (`is_x86_feature_detected!`, asked once and cached),
//!   else the scalar loops (which LLVM vectorises with the baseline SSE2).
//! - aarch64: NEON, always present there (compile-time).
//! - wasm32: simd128 when the build enables it (`-C target-feature=+simd128`), else scalar.
//!
//! The dot product: `v = clamp(acc, 0, QA)`, `v * w` in 16 bits (the loader keeps
//! `|w| <= 127`, so `|v * w| <= 32385`), then a 16x16->32 multiply-add of `v` and `v * w`.
//! A 32-bit lane receives at most `N / 8` products of at most `255 * 32385` (about 1.06e9 for
//! `N = 1024`), so no lane overflows; the lanes are summed in `i64`.
//!
//! The accumulator loops are plain wrapping `i16` loops; on x86_64 the same loop is also
//! compiled with AVX2 enabled and chosen at run time.

use super::QA;

/// The scalar SCReLU dot product: `sum clamp(a, 0, QA)^2 * w`, exact, in `i64`.
pub(crate) fn screlu_dot_scalar(acc: &[i16], w: &[i16]) -> i64 {
    acc.iter()
        .zip(w)
        .map(|(&a, &w)| {
            let v = (a as i32).clamp(0, QA);
            (v * (v * w as i32)) as i64
        })
        .sum()
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    use super::QA;
    use core::arch::x86_64::*;
    use std::sync::atomic::{AtomicU8, Ordering};

    /// Whether the CPU has AVX2, asked once (0: not asked yet, 1: no, 2: yes).
    #[inline(always)]
    pub(crate) fn has_avx2() -> bool {
        static CACHED: AtomicU8 = AtomicU8::new(0);
        match CACHED.load(Ordering::Relaxed) {
            0 => {
                let yes = std::arch::is_x86_feature_detected!("avx2");
                CACHED.store(if yes { 2 } else { 1 }, Ordering::Relaxed);
                yes
            }
            v => v == 2,
        }
    }

    /// The SCReLU dot product with AVX2 (16 lanes of `i16`); `acc` and `w` of one length,
    /// a multiple of 16.
    ///
    /// # Safety
    /// The CPU must have AVX2.
    #[target_feature(enable = "avx2")]
    pub(crate) unsafe fn screlu_dot_avx2(acc: &[i16], w: &[i16]) -> i64 {
        debug_assert!(acc.len() == w.len() && acc.len() % 16 == 0);
        // SAFETY: the caller guarantees AVX2; every load reads 16 `i16` inside a chunk of
        // exactly 16 (`chunks_exact`), unaligned loads need no alignment.
        unsafe {
            let zero = _mm256_setzero_si256();
            let qa = _mm256_set1_epi16(QA as i16);
            let mut sum = _mm256_setzero_si256();
            for (a, w) in acc.chunks_exact(16).zip(w.chunks_exact(16)) {
                let v = _mm256_loadu_si256(a.as_ptr() as *const __m256i);
                let v = _mm256_min_epi16(_mm256_max_epi16(v, zero), qa);
                let w = _mm256_loadu_si256(w.as_ptr() as *const __m256i);
                let vw = _mm256_mullo_epi16(v, w);
                sum = _mm256_add_epi32(sum, _mm256_madd_epi16(v, vw));
            }
            let mut lanes = [0i32; 8];
            _mm256_storeu_si256(lanes.as_mut_ptr() as *mut __m256i, sum);
            lanes.iter().map(|&l| l as i64).sum()
        }
    }

    /// `fused` compiled for AVX2.
    ///
    /// # Safety
    /// The CPU must have AVX2.
    #[target_feature(enable = "avx2")]
    pub(crate) unsafe fn fused_avx2<const A: usize, const S: usize>(
        dst: &mut [i16],
        src: &[i16],
        add: [&[i16]; A],
        sub: [&[i16]; S],
    ) {
        super::fused_body(dst, src, add, sub);
    }
}

#[cfg(target_arch = "x86_64")]
pub(crate) use x86::{has_avx2, screlu_dot_avx2};

/// The SCReLU dot product with NEON (8 lanes of `i16`); lengths a multiple of 8.
#[cfg(target_arch = "aarch64")]
pub(crate) fn screlu_dot_neon(acc: &[i16], w: &[i16]) -> i64 {
    use core::arch::aarch64::*;
    assert!(acc.len() == w.len() && acc.len() % 8 == 0);
    // SAFETY: NEON is part of every aarch64 target; each load reads 8 `i16` inside a chunk of
    // exactly 8 (`chunks_exact`).
    unsafe {
        let zero = vdupq_n_s16(0);
        let qa = vdupq_n_s16(QA as i16);
        let mut lo = vdupq_n_s32(0);
        let mut hi = vdupq_n_s32(0);
        for (a, w) in acc.chunks_exact(8).zip(w.chunks_exact(8)) {
            let v = vminq_s16(vmaxq_s16(vld1q_s16(a.as_ptr()), zero), qa);
            let vw = vmulq_s16(v, vld1q_s16(w.as_ptr()));
            lo = vmlal_s16(lo, vget_low_s16(v), vget_low_s16(vw));
            hi = vmlal_high_s16(hi, v, vw);
        }
        vaddlvq_s32(lo) + vaddlvq_s32(hi)
    }
}

/// The SCReLU dot product with wasm simd128 (8 lanes of `i16`); lengths a multiple of 8.
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
pub(crate) fn screlu_dot_simd128(acc: &[i16], w: &[i16]) -> i64 {
    use core::arch::wasm32::*;
    assert!(acc.len() == w.len() && acc.len() % 8 == 0);
    let zero = i16x8_splat(0);
    let qa = i16x8_splat(QA as i16);
    let mut sum = i32x4_splat(0);
    for (a, w) in acc.chunks_exact(8).zip(w.chunks_exact(8)) {
        // SAFETY: each load reads 16 bytes inside a chunk of exactly 8 `i16`; `v128_load`
        // needs no alignment.
        let (v, w) = unsafe {
            (
                v128_load(a.as_ptr() as *const v128),
                v128_load(w.as_ptr() as *const v128),
            )
        };
        let v = i16x8_min(i16x8_max(v, zero), qa);
        let vw = i16x8_mul(v, w);
        sum = i32x4_add(sum, i32x4_dot_i16x8(v, vw));
    }
    i32x4_extract_lane::<0>(sum) as i64
        + i32x4_extract_lane::<1>(sum) as i64
        + i32x4_extract_lane::<2>(sum) as i64
        + i32x4_extract_lane::<3>(sum) as i64
}

/// The SCReLU dot product on the fastest path compiled and present.
#[inline(always)]
pub(crate) fn screlu_dot(acc: &[i16], w: &[i16]) -> i64 {
    #[cfg(target_arch = "x86_64")]
    {
        if has_avx2() {
            // SAFETY: AVX2 was detected.
            return unsafe { screlu_dot_avx2(acc, w) };
        }
    }
    #[cfg(target_arch = "aarch64")]
    {
        return screlu_dot_neon(acc, w);
    }
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    {
        return screlu_dot_simd128(acc, w);
    }
    #[allow(unreachable_code)]
    screlu_dot_scalar(acc, w)
}

/// `dst = src + sum(add) - sum(sub)`, wrapping `i16`, all of `dst`'s length. A plain loop
/// that LLVM vectorises (the chunks of 16 make the trip count visible).
#[inline(always)]
fn fused_body<const A: usize, const S: usize>(
    dst: &mut [i16],
    src: &[i16],
    add: [&[i16]; A],
    sub: [&[i16]; S],
) {
    let n = dst.len();
    let src = &src[..n];
    let add = add.map(|a| &a[..n]);
    let sub = sub.map(|s| &s[..n]);
    for i in 0..n {
        let mut v = src[i];
        for a in &add {
            v = v.wrapping_add(a[i]);
        }
        for s in &sub {
            v = v.wrapping_sub(s[i]);
        }
        dst[i] = v;
    }
}

/// `dst = src + sum(add) - sum(sub)` (wrapping `i16`; the final values fit, docs/nnue.md).
#[inline(always)]
pub(crate) fn fused<const A: usize, const S: usize>(
    dst: &mut [i16],
    src: &[i16],
    add: [&[i16]; A],
    sub: [&[i16]; S],
) {
    #[cfg(target_arch = "x86_64")]
    {
        if has_avx2() {
            // SAFETY: AVX2 was detected.
            return unsafe { x86::fused_avx2(dst, src, add, sub) };
        }
    }
    fused_body(dst, src, add, sub)
}

/// `dst += src` (wrapping `i16`), `dst`'s length.
#[inline(always)]
pub(crate) fn add_assign(dst: &mut [i16], src: &[i16]) {
    let n = dst.len();
    for (d, s) in dst.iter_mut().zip(&src[..n]) {
        *d = d.wrapping_add(*s);
    }
}

/// `dst -= src` (wrapping `i16`), `dst`'s length.
#[inline(always)]
pub(crate) fn sub_assign(dst: &mut [i16], src: &[i16]) {
    let n = dst.len();
    for (d, s) in dst.iter_mut().zip(&src[..n]) {
        *d = d.wrapping_sub(*s);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::nnue::testnet::Rng;

    /// Random accumulators (a third outside 0..=QA on either side, to test the clamp) and
    /// output weights in -127..=127.
    fn random_case(rng: &mut Rng, n: usize) -> (Vec<i16>, Vec<i16>) {
        let acc = (0..n)
            .map(|_| match rng.below(3) {
                0 => rng.range(-32768, 32767) as i16,
                _ => rng.range(-20, 280) as i16,
            })
            .collect();
        let w = (0..n).map(|_| rng.range(-127, 127) as i16).collect();
        (acc, w)
    }

    /// An independent `i64` reference of one perspective's sum.
    fn reference(acc: &[i16], w: &[i16]) -> i64 {
        acc.iter()
            .zip(w)
            .map(|(&a, &w)| {
                let v = (a as i64).clamp(0, 255);
                v * v * w as i64
            })
            .sum()
    }

    #[test]
    fn every_path_gives_the_scalar_integer() {
        let mut rng = Rng::new(0x5eed_0001);
        for case in 0..400 {
            let n = 16 * (1 + rng.below(64) as usize);
            let (mut acc, mut w) = random_case(&mut rng, n);
            if case % 50 == 0 {
                // The extremes: every lane at its largest product.
                acc.fill(i16::MAX);
                w.fill(if case % 100 == 0 { 127 } else { -127 });
            }
            let want = reference(&acc, &w);
            assert_eq!(screlu_dot_scalar(&acc, &w), want, "scalar, n = {n}");
            assert_eq!(screlu_dot(&acc, &w), want, "dispatched, n = {n}");
            #[cfg(target_arch = "x86_64")]
            if has_avx2() {
                // SAFETY: AVX2 was detected.
                assert_eq!(unsafe { screlu_dot_avx2(&acc, &w) }, want, "avx2, n = {n}");
            }
            #[cfg(target_arch = "aarch64")]
            assert_eq!(screlu_dot_neon(&acc, &w), want, "neon, n = {n}");
            #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
            assert_eq!(screlu_dot_simd128(&acc, &w), want, "simd128, n = {n}");
        }
    }

    #[test]
    fn fused_updates_equal_the_plain_sums() {
        let mut rng = Rng::new(7);
        for _ in 0..100 {
            let n = 16 * (1 + rng.below(64) as usize);
            let rows: Vec<Vec<i16>> = (0..5)
                .map(|_| (0..n).map(|_| rng.range(-3000, 3000) as i16).collect())
                .collect();
            let want: Vec<i16> = (0..n)
                .map(|i| rows[0][i] + rows[1][i] + rows[2][i] - rows[3][i] - rows[4][i])
                .collect();
            let mut dst = vec![0i16; n];
            fused(
                &mut dst,
                &rows[0],
                [&rows[1], &rows[2]],
                [&rows[3], &rows[4]],
            );
            assert_eq!(dst, want);
            fused_body(
                &mut dst,
                &rows[0],
                [&rows[1], &rows[2]],
                [&rows[3], &rows[4]],
            );
            assert_eq!(dst, want);
            let mut a = rows[0].clone();
            add_assign(&mut a, &rows[1]);
            let want: Vec<i16> = (0..n).map(|i| rows[0][i] + rows[1][i]).collect();
            assert_eq!(a, want);
        }
    }
}
