//! The per-cell work of the quantized net (`QuantNet::set_cell` and
//! `remove_cell`), written once: `apply` and `remove` are generic over the
//! lane operations of an instruction set (`Lanes`: load, store, wrapping
//! 16-bit add and sub, the clamp to `0..=QA`, and the widening add into the
//! `i32` pool), and instantiated per instruction set: AVX2 (16 lanes, chosen
//! at run time where the CPU has it), SSE2 (8 lanes, every x86_64) and
//! scalar (1 lane: everywhere else, and the reference the tests compare
//! with). The sums wrap, which is exact here because no sum leaves `i16`
//! (`TERM_LIMIT`), so every kernel gives the same integers.
//!
//! The AVX2 instantiation is a `#[target_feature]` function around the
//! `#[inline(always)]` generic body, whose `#[inline(always)]` lane
//! operations then inline into a function that has the feature, and the
//! intrinsics with them; SSE2 is part of every x86_64 target, so its
//! instantiation inlines into the evaluator like the scalar one. Under
//! cachegrind `bench --eval net` runs the same number of kernel
//! instructions as with the hand-written kernels this replaced.

use super::keys::{KeyChange, KEY_SPACE};

/// The accumulators' scale: 1.0 is `QA`, so the clipped range is `0..=QA`.
pub const QA: i32 = 256;

/// Accumulator lanes are padded to a multiple of this (one AVX2 register).
pub const LANES: usize = 16;

/// What the kernel reads of a quantized net (`QuantNet::rows`): its
/// kernel, the padded feature count `fp`, the embedding table
/// (`KEY_SPACE × fp`) and the bias (`fp`).
#[derive(Clone, Copy)]
pub(super) struct Rows<'a> {
    pub kernel: Kernel,
    pub fp: usize,
    pub embed: &'a [i16],
    pub bias: &'a [i16],
}

/// Which implementation of the per-cell work runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kernel {
    Scalar,
    #[cfg(target_arch = "x86_64")]
    Sse2,
    /// Only ever built after `is_x86_feature_detected!("avx2")` said yes
    /// (`Kernel::available`).
    #[cfg(target_arch = "x86_64")]
    Avx2,
}

impl Kernel {
    /// Every kernel this CPU can run, best last.
    pub fn available() -> Vec<Kernel> {
        #[allow(unused_mut)]
        let mut v = vec![Kernel::Scalar];
        #[cfg(target_arch = "x86_64")]
        {
            // SSE2 is part of x86_64.
            v.push(Kernel::Sse2);
            if std::arch::is_x86_feature_detected!("avx2") {
                v.push(Kernel::Avx2);
            }
        }
        v
    }

    /// The fastest kernel this CPU can run, unless the environment
    /// variable `SENTE_NET_KERNEL` names another available one (`scalar`,
    /// `sse2`, `avx2`: for measuring them side by side).
    pub fn best() -> Kernel {
        let all = Kernel::available();
        if let Ok(name) = std::env::var("SENTE_NET_KERNEL") {
            match all.iter().find(|k| k.name() == name) {
                Some(&k) => return k,
                None => log::warn!("SENTE_NET_KERNEL={name}: not available here"),
            }
        }
        *all.last().expect("scalar is always there")
    }

    pub fn name(self) -> &'static str {
        match self {
            Kernel::Scalar => "scalar",
            #[cfg(target_arch = "x86_64")]
            Kernel::Sse2 => "sse2",
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx2 => "avx2",
        }
    }
}

/// A cell's keys changed (`ch`): bring its two accumulators in `acc`
/// (`2 · fp` lanes, Black's first) up to date and add to `pool` (the same
/// layout) the new clipped values minus the old, with the net's kernel.
#[inline(always)]
pub(super) fn set_cell(q: Rows, ch: &KeyChange, acc: &mut [i16], pool: &mut [i32]) {
    let fp = q.fp;
    assert!(acc.len() == 2 * fp && pool.len() == 2 * fp && fp.is_multiple_of(LANES));
    assert!(q.embed.len() == KEY_SPACE * fp && q.bias.len() == fp);
    // SAFETY: `acc` and `pool` have `2 · fp` lanes, `fp` is a multiple of
    // every kernel's width, the table has `KEY_SPACE` rows of `fp` and the
    // bias `fp` lanes (asserted above), and every key of a `KeyChange` is
    // below `KEY_SPACE` (by construction), so each row `k · fp .. (k + 1) ·
    // fp` lies in the table and every load and store of `apply` lies in
    // its slice. The instructions: the scalar kernel has none of its own,
    // SSE2 is part of every x86_64 CPU, and a `Kernel::Avx2` net is only
    // built where the CPU has AVX2 (`QuantNet::with_kernel` checks
    // `Kernel::available`).
    unsafe {
        match q.kernel {
            Kernel::Scalar => apply::<Scalar>(q, ch, acc, pool),
            #[cfg(target_arch = "x86_64")]
            Kernel::Sse2 => apply::<x86::Sse2>(q, ch, acc, pool),
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx2 => x86::apply_avx2(q, ch, acc, pool),
        }
    }
}

/// A counted cell was filled: take its two clipped accumulators `acc`
/// out of `pool`, with `kernel`.
#[inline(always)]
pub(super) fn remove_cell(kernel: Kernel, acc: &[i16], pool: &mut [i32]) {
    assert!(acc.len() == pool.len() && acc.len().is_multiple_of(LANES));
    // SAFETY: as in `set_cell`: both slices have the same length, a
    // multiple of every kernel's width, and the kernel's instructions are
    // there.
    unsafe {
        match kernel {
            Kernel::Scalar => remove::<Scalar>(acc, pool),
            #[cfg(target_arch = "x86_64")]
            Kernel::Sse2 => remove::<x86::Sse2>(acc, pool),
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx2 => x86::remove_avx2(acc, pool),
        }
    }
}

/// `N` signed 16-bit lanes and what the kernels do with them.
///
/// SAFETY (callers): the methods use their instruction set's intrinsics:
/// call them only where the CPU has it. `load` and `store` read or write
/// `N` `i16` at `p`, `add_widened` reads and writes `N` `i32` at `pool`
/// (unaligned): the pointers must be valid for that.
trait Lanes: Copy {
    const N: usize;
    unsafe fn zero() -> Self;
    unsafe fn load(p: *const i16) -> Self;
    unsafe fn store(self, p: *mut i16);
    /// Wrapping lane-wise sum and difference.
    unsafe fn add(self, o: Self) -> Self;
    unsafe fn sub(self, o: Self) -> Self;
    /// Each lane clamped to `0..=QA`.
    unsafe fn clip(self) -> Self;
    /// `pool[0..N] += self`, each lane widened to 32 bits with its sign.
    unsafe fn add_widened(self, pool: *mut i32);
}

/// The per-cell work of `set_cell`, per colour and `L::N` lanes at a time:
/// a fresh cell's accumulator is the bias plus its six rows, with nothing
/// to take out of the pool; a counted cell's loses the rows `subs[..n]`
/// and gains `adds[..n]`, and the pool gets the new clipped value minus
/// the old.
///
/// SAFETY: the CPU has `L`'s instructions; `acc` and `pool` have `2 ·
/// q.fp` lanes, `q.fp` is a multiple of `L::N`, `q.bias` has `q.fp` lanes
/// and `q.embed` a row of `q.fp` for every key of `ch`.
#[inline(always)]
unsafe fn apply<L: Lanes>(q: Rows, ch: &KeyChange, acc: &mut [i16], pool: &mut [i32]) {
    let fp = q.fp;
    let e = q.embed.as_ptr();
    let (fresh, n, subs, adds) = ch.parts();
    for side in 0..2 {
        let (subs, adds) = (&subs[side][..n], &adds[side][..n]);
        for c in (0..fp / L::N).map(|i| i * L::N) {
            let row = |k: u16| L::load(e.add(k as usize * fp + c));
            let ap = acc.as_mut_ptr().add(side * fp + c);
            let (mut v, before) = if fresh {
                (L::load(q.bias.as_ptr().add(c)), L::zero())
            } else {
                let v = L::load(ap);
                (v, v.clip())
            };
            if !fresh {
                for &k in subs {
                    v = v.sub(row(k));
                }
            }
            for &k in adds {
                v = v.add(row(k));
            }
            v.store(ap);
            // Both clipped values lie in 0..=QA: the difference fits i16.
            v.clip()
                .sub(before)
                .add_widened(pool.as_mut_ptr().add(side * fp + c));
        }
    }
}

/// The work of `remove_cell`: `pool -= clip(acc)`, `L::N` lanes at a time.
///
/// SAFETY: the CPU has `L`'s instructions; `pool` is as long as `acc`, a
/// multiple of `L::N`.
#[inline(always)]
unsafe fn remove<L: Lanes>(acc: &[i16], pool: &mut [i32]) {
    for c in (0..acc.len()).step_by(L::N) {
        let a = L::load(acc.as_ptr().add(c));
        L::zero()
            .sub(a.clip())
            .add_widened(pool.as_mut_ptr().add(c));
    }
}

/// One lane, plain integers: the reference.
#[derive(Clone, Copy)]
struct Scalar(i16);

impl Lanes for Scalar {
    const N: usize = 1;
    #[inline(always)]
    unsafe fn zero() -> Self {
        Scalar(0)
    }
    #[inline(always)]
    unsafe fn load(p: *const i16) -> Self {
        Scalar(p.read_unaligned())
    }
    #[inline(always)]
    unsafe fn store(self, p: *mut i16) {
        p.write_unaligned(self.0)
    }
    #[inline(always)]
    unsafe fn add(self, o: Self) -> Self {
        Scalar(self.0.wrapping_add(o.0))
    }
    #[inline(always)]
    unsafe fn sub(self, o: Self) -> Self {
        Scalar(self.0.wrapping_sub(o.0))
    }
    #[inline(always)]
    unsafe fn clip(self) -> Self {
        Scalar(self.0.clamp(0, QA as i16))
    }
    #[inline(always)]
    unsafe fn add_widened(self, pool: *mut i32) {
        *pool += self.0 as i32;
    }
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    //! The SSE2 and AVX2 lanes, and the AVX2 instantiations of the generic
    //! kernels.

    use super::{apply, remove, KeyChange, Lanes, Rows, QA};
    use std::arch::x86_64::*;

    /// Eight lanes in an SSE2 register.
    #[derive(Clone, Copy)]
    pub(super) struct Sse2(__m128i);

    impl Lanes for Sse2 {
        const N: usize = 8;
        #[inline(always)]
        unsafe fn zero() -> Self {
            Sse2(_mm_setzero_si128())
        }
        #[inline(always)]
        unsafe fn load(p: *const i16) -> Self {
            Sse2(_mm_loadu_si128(p as *const __m128i))
        }
        #[inline(always)]
        unsafe fn store(self, p: *mut i16) {
            _mm_storeu_si128(p as *mut __m128i, self.0)
        }
        #[inline(always)]
        unsafe fn add(self, o: Self) -> Self {
            Sse2(_mm_add_epi16(self.0, o.0))
        }
        #[inline(always)]
        unsafe fn sub(self, o: Self) -> Self {
            Sse2(_mm_sub_epi16(self.0, o.0))
        }
        #[inline(always)]
        unsafe fn clip(self) -> Self {
            let low = _mm_max_epi16(self.0, _mm_setzero_si128());
            Sse2(_mm_min_epi16(low, _mm_set1_epi16(QA as i16)))
        }
        #[inline(always)]
        unsafe fn add_widened(self, pool: *mut i32) {
            let d = self.0;
            let lo = _mm_srai_epi32(_mm_unpacklo_epi16(d, d), 16);
            let hi = _mm_srai_epi32(_mm_unpackhi_epi16(d, d), 16);
            let (p0, p1) = (pool as *mut __m128i, pool.add(4) as *mut __m128i);
            _mm_storeu_si128(p0, _mm_add_epi32(_mm_loadu_si128(p0), lo));
            _mm_storeu_si128(p1, _mm_add_epi32(_mm_loadu_si128(p1), hi));
        }
    }

    /// Sixteen lanes in an AVX2 register.
    #[derive(Clone, Copy)]
    pub(super) struct Avx2(__m256i);

    impl Lanes for Avx2 {
        const N: usize = 16;
        #[inline(always)]
        unsafe fn zero() -> Self {
            Avx2(_mm256_setzero_si256())
        }
        #[inline(always)]
        unsafe fn load(p: *const i16) -> Self {
            Avx2(_mm256_loadu_si256(p as *const __m256i))
        }
        #[inline(always)]
        unsafe fn store(self, p: *mut i16) {
            _mm256_storeu_si256(p as *mut __m256i, self.0)
        }
        #[inline(always)]
        unsafe fn add(self, o: Self) -> Self {
            Avx2(_mm256_add_epi16(self.0, o.0))
        }
        #[inline(always)]
        unsafe fn sub(self, o: Self) -> Self {
            Avx2(_mm256_sub_epi16(self.0, o.0))
        }
        #[inline(always)]
        unsafe fn clip(self) -> Self {
            let low = _mm256_max_epi16(self.0, _mm256_setzero_si256());
            Avx2(_mm256_min_epi16(low, _mm256_set1_epi16(QA as i16)))
        }
        #[inline(always)]
        unsafe fn add_widened(self, pool: *mut i32) {
            let d = self.0;
            let lo = _mm256_cvtepi16_epi32(_mm256_castsi256_si128(d));
            let hi = _mm256_cvtepi16_epi32(_mm256_extracti128_si256(d, 1));
            let (p0, p1) = (pool as *mut __m256i, pool.add(8) as *mut __m256i);
            _mm256_storeu_si256(p0, _mm256_add_epi32(_mm256_loadu_si256(p0), lo));
            _mm256_storeu_si256(p1, _mm256_add_epi32(_mm256_loadu_si256(p1), hi));
        }
    }

    /// `apply` for AVX2 lanes inside a function that enables AVX2, so that
    /// the lane operations and their intrinsics inline into code that may
    /// use them. (SSE2 needs no such function: it is part of every x86_64
    /// target, so its intrinsics inline anywhere.)
    ///
    /// SAFETY: as `apply`, and the CPU has AVX2.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn apply_avx2(q: Rows, ch: &KeyChange, acc: &mut [i16], pool: &mut [i32]) {
        apply::<Avx2>(q, ch, acc, pool)
    }

    /// `remove` for AVX2 lanes, the same way.
    ///
    /// SAFETY: as `remove`, and the CPU has AVX2.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn remove_avx2(acc: &[i16], pool: &mut [i32]) {
        remove::<Avx2>(acc, pool)
    }
}

#[cfg(test)]
mod tests {
    use super::super::format::random;
    use super::super::keys::{rows, KEYS_PER_CELL};
    use super::super::quant::QuantNet;
    use super::*;
    use crate::brain::game::zobrist::SplitMix64;

    /// The kernels on raw rows, extremes included (every lane at
    /// `±TERM_LIMIT`, so sums reach the ends of `i16`): the same
    /// accumulators and pools as the scalar kernel, for new and for
    /// counted cells, and for removal.
    #[test]
    fn every_kernel_matches_scalar_on_raw_rows() {
        let mut rng = SplitMix64::new(99);
        let kernels = Kernel::available();
        for f in [16, 40] {
            let mut w = random(f, 4, 5);
            // Some rows at the limits, the rest spread beyond the clip.
            for (i, x) in w.embed.iter_mut().enumerate() {
                *x = match i % 7 {
                    0 => 100.0,
                    1 => -100.0,
                    _ => (rng.below(2001) as f32 - 1000.0) / 400.0,
                };
            }
            let nets: Vec<QuantNet> = kernels
                .iter()
                .map(|&k| QuantNet::with_kernel(&w, k).unwrap())
                .collect();
            let fp = nets[0].fp;
            assert_eq!(fp % LANES, 0);
            let mut states: Vec<(Vec<i16>, Vec<i32>)> = kernels
                .iter()
                .map(|_| (vec![0i16; 2 * fp], vec![0i32; 2 * fp]))
                .collect();
            let mut keys = [[0u16; KEYS_PER_CELL]; 2];
            let mut live = false;
            for step in 0..600 {
                // A fresh cell (all six rows), a counted one whose keys
                // change (one to three of them), or a filled one.
                let (mut subs, mut adds) = ([[0; KEYS_PER_CELL]; 2], [[0; KEYS_PER_CELL]; 2]);
                let count = if live { 1 + step % 3 } else { KEYS_PER_CELL };
                for i in 0..count {
                    let at = if live {
                        (step + 2 * i) % KEYS_PER_CELL
                    } else {
                        i
                    };
                    for (side, ks) in keys.iter_mut().enumerate() {
                        let k = rng.below(rows() as u64) as u16;
                        subs[side][i] = ks[at];
                        adds[side][i] = k;
                        ks[at] = k;
                    }
                }
                let ch = KeyChange::raw(!live, count, subs, adds);
                let remove = live && step % 5 == 0;
                for (q, (acc, pool)) in nets.iter().zip(states.iter_mut()) {
                    if remove {
                        q.remove_cell(acc, pool);
                    } else {
                        q.set_cell(&ch, acc, pool);
                    }
                }
                live = !remove;
                for (k, s) in kernels.iter().zip(&states).skip(1) {
                    assert_eq!(s, &states[0], "{k:?} at step {step}");
                }
            }
            // The extremes were reached and the pools moved.
            let (acc, pool) = &states[0];
            assert!(acc.iter().any(|&a| a > QA as i16 * 4));
            assert!(acc.iter().any(|&a| a < -(QA as i16) * 4));
            assert!(pool.iter().any(|&p| p != 0));
        }
        #[cfg(target_arch = "x86_64")]
        assert!(kernels.contains(&Kernel::Sse2));
    }
}
