//! The net's integer inference (`eval::net` defines the form), kept
//! incrementally by the evaluator.
//!
//! At load the float weights are quantized: embeddings and bias as `i16`
//! with 1.0 = `QA` (each clamped to `TERM_LIMIT`, so that the bias plus six
//! rows can never leave `i16`: the sums are exact whatever the order), the
//! head stays `f32` with the pooling's scale folded into `W1`. Per empty
//! cell and colour the evaluator keeps the accumulator (`bias + six rows`,
//! `fp` lanes: `f` rounded up to 16, the extra lanes zero) and per colour
//! the pooled sum of the clipped accumulators (`clamp(acc, 0, QA)`, `i32`).
//! When a cell's line codes change (`Evaluator::set_codes`) its two
//! accumulators are recomputed from their six rows and the pool gets the
//! new clipped values minus the old; a cell that is filled leaves the pool;
//! `pop` copies the accumulators and pools back from its undo log.
//!
//! The per-cell work has three kernels giving identical integers: AVX2
//! (chosen at run time where the CPU has it), SSE2 (every x86_64) and
//! scalar (everywhere else, and the reference the tests compare with). The
//! head is scalar `f32` in a fixed order (vectorised over hidden units by
//! the compiler, which keeps each unit's sum in order), so every kernel
//! gives the same score.

use std::sync::{Arc, OnceLock};

use anyhow::Result;

use super::net::{KeyChange, NetWeights, KEYS_PER_CELL, KEY_SPACE, POOL_DIV, ROWS};
use crate::brain::types::{Color, Score};

/// The accumulators' scale: 1.0 is `QA`, so the clipped range is `0..=QA`.
pub const QA: i32 = 256;

/// Largest magnitude of one quantized embedding or bias value: seven of
/// them (bias and six rows) sum within `i16`. At `QA` = 256 that is 18.3
/// in floats, beyond anything the clipped range [0, 1] can use.
pub const TERM_LIMIT: i32 = i16::MAX as i32 / (KEYS_PER_CELL as i32 + 1);

/// Accumulator lanes are padded to a multiple of this (one AVX2 register).
pub const LANES: usize = 16;

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

/// The quantized network.
#[derive(Debug)]
pub struct QuantNet {
    /// Features, and accumulator lanes (`f` rounded up to `LANES`).
    pub f: usize,
    pub fp: usize,
    /// Hidden units, and `h` rounded up to 8 (the head's blocks).
    h: usize,
    hp: usize,
    k: f32,
    /// `KEY_SPACE × fp` (the rows past `ROWS` zero), and the bias (`fp`).
    embed: Vec<i16>,
    bias: Vec<i16>,
    /// `2f × hp`, input-major, scaled by `1 / (QA · POOL_DIV)`.
    w1t: Vec<f32>,
    b1: Vec<f32>,
    w2: Vec<f32>,
    b2: f32,
    kernel: Kernel,
    /// The float weights it was made from.
    pub weights: NetWeights,
}

/// Head units per block (a fixed order of sums, whatever the compiler
/// vectorises).
const HB: usize = 8;

fn quantize(x: f32) -> i16 {
    ((x * QA as f32).round() as i32).clamp(-TERM_LIMIT, TERM_LIMIT) as i16
}

impl QuantNet {
    /// Quantize `w` (checked) for the best kernel of this CPU.
    pub fn new(w: &NetWeights) -> Result<QuantNet> {
        QuantNet::with_kernel(w, Kernel::best())
    }

    /// Quantize `w` for the kernel `kernel` (one of `Kernel::available`).
    pub fn with_kernel(w: &NetWeights, kernel: Kernel) -> Result<QuantNet> {
        w.check()?;
        anyhow::ensure!(
            Kernel::available().contains(&kernel),
            "kernel {kernel:?} not available on this CPU"
        );
        let (f, h) = (w.f, w.h);
        let fp = f.div_ceil(LANES) * LANES;
        let hp = h.div_ceil(HB) * HB;
        let mut embed = vec![0i16; KEY_SPACE * fp];
        for r in 0..ROWS {
            for j in 0..f {
                embed[r * fp + j] = quantize(w.embed[r * f + j]);
            }
        }
        let mut bias = vec![0i16; fp];
        for (q, &x) in bias.iter_mut().zip(&w.bias) {
            *q = quantize(x);
        }
        let scale = 1.0 / (QA as f32 * POOL_DIV);
        let mut w1t = vec![0f32; 2 * f * hp];
        for u in 0..h {
            for i in 0..2 * f {
                w1t[i * hp + u] = w.w1[u * 2 * f + i] * scale;
            }
        }
        let mut b1 = vec![0f32; hp];
        b1[..h].copy_from_slice(&w.b1);
        let mut w2 = vec![0f32; hp];
        w2[..h].copy_from_slice(&w.w2);
        Ok(QuantNet {
            f,
            fp,
            h,
            hp,
            k: w.k,
            embed,
            bias,
            w1t,
            b1,
            w2,
            b2: w.b2,
            kernel,
            weights: w.clone(),
        })
    }

    pub fn kernel(&self) -> Kernel {
        self.kernel
    }

    pub fn hidden(&self) -> usize {
        self.h
    }

    /// A cell's keys changed (`ch`): bring its two accumulators in `acc`
    /// (`2 · fp` lanes, Black's first) up to date and add to `pool` (the
    /// same layout) the new clipped values minus the old. A fresh cell's
    /// accumulators are the bias plus its six rows; a counted cell's lose
    /// the rows of the keys that changed and gain the new ones.
    #[inline(always)]
    pub(super) fn set_cell(&self, ch: &KeyChange, acc: &mut [i16], pool: &mut [i32]) {
        let fp = self.fp;
        assert!(acc.len() == 2 * fp && pool.len() == 2 * fp);
        assert!(self.embed.len() == KEY_SPACE * fp && self.bias.len() == fp);
        match self.kernel {
            Kernel::Scalar => apply_scalar(self, ch, acc, pool),
            #[cfg(target_arch = "x86_64")]
            // SAFETY: SSE2 is part of every x86_64 CPU; `acc` and `pool`
            // have `2 · fp` lanes and the table `KEY_SPACE` rows (asserted
            // above), and every key of a `KeyChange` is below `KEY_SPACE`
            // (by construction), so every read and write is in the slices.
            Kernel::Sse2 => unsafe { x86::apply_sse2(self, ch, acc, pool) },
            #[cfg(target_arch = "x86_64")]
            // SAFETY: as for SSE2, and a `Kernel::Avx2` net is only built
            // where the CPU has AVX2 (`with_kernel` checks
            // `Kernel::available`).
            Kernel::Avx2 => unsafe { x86::apply_avx2(self, ch, acc, pool) },
        }
    }

    /// A counted cell was filled: take its two clipped accumulators out of
    /// `pool`.
    #[inline(always)]
    pub(super) fn remove_cell(&self, acc: &[i16], pool: &mut [i32]) {
        assert!(acc.len() == 2 * self.fp && pool.len() == 2 * self.fp);
        match self.kernel {
            Kernel::Scalar => remove_scalar(acc, pool),
            #[cfg(target_arch = "x86_64")]
            // SAFETY: as in `set_cell` (SSE2 is x86_64's baseline).
            Kernel::Sse2 => unsafe { x86::remove_sse2(acc, pool) },
            #[cfg(target_arch = "x86_64")]
            // SAFETY: as in `set_cell` (built only where AVX2 is).
            Kernel::Avx2 => unsafe { x86::remove_avx2(acc, pool) },
        }
    }

    /// The logit for `stm` from the two pools (`2 · fp` lanes, Black's
    /// first).
    pub fn logit(&self, pool: &[i32], stm: Color) -> f32 {
        let (f, fp, hp) = (self.f, self.fp, self.hp);
        let (s, o) = (stm.index() * fp, stm.opposite().index() * fp);
        let mut out = self.b2;
        for u0 in (0..hp).step_by(HB) {
            let mut z = [0f32; HB];
            z.copy_from_slice(&self.b1[u0..u0 + HB]);
            for i in 0..2 * f {
                let x = if i < f { pool[s + i] } else { pool[o + i - f] } as f32;
                let w = &self.w1t[i * hp + u0..i * hp + u0 + HB];
                for (zl, &wl) in z.iter_mut().zip(w) {
                    *zl += wl * x;
                }
            }
            for (&zl, &wl) in z.iter().zip(&self.w2[u0..u0 + HB]) {
                out += wl * zl.clamp(0.0, 1.0);
            }
        }
        out
    }

    /// The engine's score for `stm` from the two pools (out of line: the
    /// classical `evaluate` stays small).
    #[inline(never)]
    pub fn score(&self, pool: &[i32], stm: Color) -> Score {
        self.weights.score(self.logit(pool, stm))
    }

    /// Score units per logit.
    pub fn k(&self) -> f32 {
        self.k
    }
}

#[inline(always)]
fn clip(v: i16) -> i32 {
    (v as i32).clamp(0, QA)
}

/// The scalar kernel of `set_cell` (the reference), per colour and lane:
/// a fresh cell's accumulator is the bias plus its six rows, with nothing
/// to take out of the pool; a counted cell's loses the rows `subs[..n]`
/// and gains `adds[..n]`, and the pool gets the new clipped value minus
/// the old. Wrapping adds: the result is the exact sum, which fits `i16`
/// (`TERM_LIMIT`), whatever the order.
fn apply_scalar(q: &QuantNet, ch: &KeyChange, acc: &mut [i16], pool: &mut [i32]) {
    let fp = q.fp;
    let (fresh, n, subs, adds) = ch.parts();
    let row = |k: u16, j: usize| q.embed[k as usize * fp + j];
    for side in 0..2 {
        let (subs, adds) = (&subs[side][..n], &adds[side][..n]);
        for j in 0..fp {
            let a = &mut acc[side * fp + j];
            let (mut v, before) = if fresh {
                (q.bias[j], 0)
            } else {
                (*a, clip(*a))
            };
            if !fresh {
                for &k in subs {
                    v = v.wrapping_sub(row(k, j));
                }
            }
            for &k in adds {
                v = v.wrapping_add(row(k, j));
            }
            *a = v;
            pool[side * fp + j] += clip(v) - before;
        }
    }
}

/// The scalar kernel of `remove_cell`.
fn remove_scalar(acc: &[i16], pool: &mut [i32]) {
    for (p, &a) in pool.iter_mut().zip(acc) {
        *p -= clip(a);
    }
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    //! SSE2 and AVX2 kernels: the scalar kernels' arithmetic, 8 or 16
    //! lanes at a time (wrapping 16-bit adds, which are exact here because
    //! no sum leaves `i16`, a clamp to `0..=QA`, then the difference
    //! widened to 32 bits and added to the pool).

    use super::{KeyChange, QuantNet, QA};
    use std::arch::x86_64::*;

    /// SAFETY (for callers): needs SSE2 (always on x86_64); `acc` and
    /// `pool` have `2 · q.fp` lanes, `q.embed` `KEY_SPACE` rows of `q.fp`
    /// and every key of `ch` is below `KEY_SPACE` (so each row
    /// `k · fp .. (k + 1) · fp` lies in `q.embed`); the loads and stores
    /// are unaligned ones within those slices (`fp` is a multiple of 16).
    #[target_feature(enable = "sse2")]
    pub(super) unsafe fn apply_sse2(
        q: &QuantNet,
        ch: &KeyChange,
        acc: &mut [i16],
        pool: &mut [i32],
    ) {
        let fp = q.fp;
        let e = q.embed.as_ptr();
        let zero = _mm_setzero_si128();
        let top = _mm_set1_epi16(QA as i16);
        let (fresh, n, subs, adds) = ch.parts();
        for side in 0..2 {
            let (subs, adds) = (&subs[side][..n], &adds[side][..n]);
            for c in (0..fp / 8).map(|i| i * 8) {
                let row = |k: u16| e.add(k as usize * fp + c) as *const __m128i;
                let ap = acc.as_mut_ptr().add(side * fp + c) as *mut __m128i;
                let (mut v, before) = if fresh {
                    (
                        _mm_loadu_si128(q.bias.as_ptr().add(c) as *const __m128i),
                        zero,
                    )
                } else {
                    let v = _mm_loadu_si128(ap);
                    (v, _mm_min_epi16(_mm_max_epi16(v, zero), top))
                };
                if !fresh {
                    for &k in subs {
                        v = _mm_sub_epi16(v, _mm_loadu_si128(row(k)));
                    }
                }
                for &k in adds {
                    v = _mm_add_epi16(v, _mm_loadu_si128(row(k)));
                }
                _mm_storeu_si128(ap, v);
                let d = _mm_sub_epi16(_mm_min_epi16(_mm_max_epi16(v, zero), top), before);
                add_widened_sse2(pool.as_mut_ptr().add(side * fp + c), d);
            }
        }
    }

    /// `pool[0..8] += d` (eight signed 16-bit lanes widened).
    #[inline(always)]
    unsafe fn add_widened_sse2(pool: *mut i32, d: __m128i) {
        let lo = _mm_srai_epi32(_mm_unpacklo_epi16(d, d), 16);
        let hi = _mm_srai_epi32(_mm_unpackhi_epi16(d, d), 16);
        let p0 = pool as *mut __m128i;
        let p1 = pool.add(4) as *mut __m128i;
        _mm_storeu_si128(p0, _mm_add_epi32(_mm_loadu_si128(p0), lo));
        _mm_storeu_si128(p1, _mm_add_epi32(_mm_loadu_si128(p1), hi));
    }

    /// SAFETY: as `set_sse2`.
    #[target_feature(enable = "sse2")]
    pub(super) unsafe fn remove_sse2(acc: &[i16], pool: &mut [i32]) {
        let n = acc.len();
        assert!(n.is_multiple_of(16) && pool.len() == n);
        let zero = _mm_setzero_si128();
        let top = _mm_set1_epi16(QA as i16);
        for c in (0..n).step_by(8) {
            let a = _mm_loadu_si128(acc.as_ptr().add(c) as *const __m128i);
            let d = _mm_sub_epi16(zero, _mm_min_epi16(_mm_max_epi16(a, zero), top));
            add_widened_sse2(pool.as_mut_ptr().add(c), d);
        }
    }

    /// SAFETY (for callers): needs AVX2 (the caller checked the CPU);
    /// slices and keys as in `apply_sse2`.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn apply_avx2(
        q: &QuantNet,
        ch: &KeyChange,
        acc: &mut [i16],
        pool: &mut [i32],
    ) {
        let fp = q.fp;
        let e = q.embed.as_ptr();
        let zero = _mm256_setzero_si256();
        let top = _mm256_set1_epi16(QA as i16);
        let (fresh, n, subs, adds) = ch.parts();
        for side in 0..2 {
            let (subs, adds) = (&subs[side][..n], &adds[side][..n]);
            for c in (0..fp / 16).map(|i| i * 16) {
                let row = |k: u16| e.add(k as usize * fp + c) as *const __m256i;
                let ap = acc.as_mut_ptr().add(side * fp + c) as *mut __m256i;
                let (mut v, before) = if fresh {
                    (
                        _mm256_loadu_si256(q.bias.as_ptr().add(c) as *const __m256i),
                        zero,
                    )
                } else {
                    let v = _mm256_loadu_si256(ap);
                    (v, _mm256_min_epi16(_mm256_max_epi16(v, zero), top))
                };
                if !fresh {
                    for &k in subs {
                        v = _mm256_sub_epi16(v, _mm256_loadu_si256(row(k)));
                    }
                }
                for &k in adds {
                    v = _mm256_add_epi16(v, _mm256_loadu_si256(row(k)));
                }
                _mm256_storeu_si256(ap, v);
                let d = _mm256_sub_epi16(_mm256_min_epi16(_mm256_max_epi16(v, zero), top), before);
                add_widened_avx2(pool.as_mut_ptr().add(side * fp + c), d);
            }
        }
    }

    /// `pool[0..16] += d` (sixteen signed 16-bit lanes widened).
    #[inline(always)]
    unsafe fn add_widened_avx2(pool: *mut i32, d: __m256i) {
        let lo = _mm256_cvtepi16_epi32(_mm256_castsi256_si128(d));
        let hi = _mm256_cvtepi16_epi32(_mm256_extracti128_si256(d, 1));
        let p0 = pool as *mut __m256i;
        let p1 = pool.add(8) as *mut __m256i;
        _mm256_storeu_si256(p0, _mm256_add_epi32(_mm256_loadu_si256(p0), lo));
        _mm256_storeu_si256(p1, _mm256_add_epi32(_mm256_loadu_si256(p1), hi));
    }

    /// SAFETY: as `set_avx2`.
    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn remove_avx2(acc: &[i16], pool: &mut [i32]) {
        let n = acc.len();
        assert!(n.is_multiple_of(16) && pool.len() == n);
        let zero = _mm256_setzero_si256();
        let top = _mm256_set1_epi16(QA as i16);
        for c in (0..n).step_by(16) {
            let a = _mm256_loadu_si256(acc.as_ptr().add(c) as *const __m256i);
            let d = _mm256_sub_epi16(zero, _mm256_min_epi16(_mm256_max_epi16(a, zero), top));
            add_widened_avx2(pool.as_mut_ptr().add(c), d);
        }
    }
}

/// The net `--eval net` uses: the one `install` was given, or else the
/// embedded weights (`net::embedded`), quantized once.
pub fn default_net() -> Arc<QuantNet> {
    DEFAULT
        .get_or_init(|| {
            Arc::new(QuantNet::new(super::net::embedded()).expect("the embedded net quantizes"))
        })
        .clone()
}

static DEFAULT: OnceLock<Arc<QuantNet>> = OnceLock::new();

/// Use `w` instead of the embedded weights for every evaluator built with
/// the net from now on (`pbrain-sente --net FILE`). Only before the first
/// use: fails once the default net is fixed.
pub fn install(w: &NetWeights) -> Result<()> {
    let q = Arc::new(QuantNet::new(w)?);
    DEFAULT
        .set(q)
        .map_err(|_| anyhow::anyhow!("the net is already in use; install it first"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::brain::eval::net::{forward_f32, random, rows};
    use crate::brain::eval::Evaluator;
    use crate::brain::game::board::Board;
    use crate::brain::game::testutil::random_empty;
    use crate::brain::game::zobrist::SplitMix64;
    use crate::brain::types::{Rule, RuleSet};

    fn net(f: usize, h: usize, seed: u64, kernel: Kernel) -> Arc<QuantNet> {
        Arc::new(QuantNet::with_kernel(&random(f, h, seed), kernel).unwrap())
    }

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

    /// Every rule, plain and continuous: random makes, takebacks (both
    /// through `update`) and push/pop sequences with a random net; after
    /// each step the incremental state equals one built from scratch, for
    /// every kernel, and all kernels give the same score.
    #[test]
    fn incremental_equals_scratch_under_every_rule_for_every_kernel() {
        let kernels = Kernel::available();
        let mut checks = 0;
        for (i, rule) in Rule::ALL.into_iter().enumerate() {
            for continuous in [false, true] {
                let rules = RuleSet { rule, continuous };
                let seed = 1000 + i as u64 * 2 + continuous as u64;
                let nets: Vec<_> = kernels.iter().map(|&k| net(16, 8, seed, k)).collect();
                let mut rng = SplitMix64::new(seed);
                let mut b = Board::square(15, rules).unwrap();
                let mut evs: Vec<Evaluator> = nets
                    .iter()
                    .map(|q| Evaluator::with_net(&b, q.clone()))
                    .collect();
                let mut pushed = 0;
                for _ in 0..150 {
                    let r = rng.below(10);
                    if r < 3 && pushed > 0 {
                        b.unmake().unwrap();
                        evs.iter_mut().for_each(|ev| assert!(ev.pop()));
                        pushed -= 1;
                    } else if r == 3 && pushed == 0 && b.move_count() > 0 {
                        let m = b.unmake().unwrap();
                        evs.iter_mut().for_each(|ev| ev.update(&b, m.pos));
                    } else if b.empty_cells().count() > 10 {
                        let p = random_empty(&mut rng, &b).unwrap();
                        if r == 9 && continuous && pushed == 0 {
                            b.make_neutral(p);
                            evs.iter_mut().for_each(|ev| ev.update(&b, p));
                        } else {
                            b.play(p);
                            evs.iter_mut().for_each(|ev| ev.push(&b, p));
                            pushed += 1;
                        }
                    }
                    for (ev, q) in evs.iter().zip(&nets) {
                        let fresh = Evaluator::with_net(&b, q.clone());
                        assert!(ev.same_as(&fresh), "{rules:?} {:?}\n{b}", q.kernel());
                        for c in [Color::Black, Color::White] {
                            assert_eq!(ev.evaluate(c), evs[0].evaluate(c));
                            assert_eq!(ev.net_logit(c), fresh.net_logit(c));
                        }
                        checks += 1;
                    }
                }
            }
        }
        assert!(checks >= 1200 * kernels.len(), "{checks}");
    }

    /// The integer net against the float reference on boards from random
    /// play: within 0.02 of a logit (about 15 score units at k = 772), and
    /// scores that differ by the rounding of that at most.
    #[test]
    fn quantized_output_is_close_to_the_float_reference() {
        let mut worst = 0f32;
        let mut spread = (f32::MAX, f32::MIN);
        for rule in Rule::ALL {
            let rules = RuleSet::from(rule);
            for (f, h) in [(16, 16), (32, 8)] {
                let w = random(f, h, 17 + f as u64);
                let q = Arc::new(QuantNet::new(&w).unwrap());
                let mut rng = SplitMix64::new(f as u64 + rule as u64);
                let mut b = Board::square(15, rules).unwrap();
                let mut ev = Evaluator::with_net(&b, q.clone());
                for _ in 0..60 {
                    let p = random_empty(&mut rng, &b).unwrap();
                    b.play(p);
                    ev.push(&b, p);
                    for c in [Color::Black, Color::White] {
                        let want = forward_f32(&w, &ev, &b, c);
                        let got = ev.net_logit(c).unwrap();
                        worst = worst.max((want - got).abs());
                        spread = (spread.0.min(want), spread.1.max(want));
                        let (s, t) = (ev.evaluate(c), w.score(want));
                        assert!((s - t).abs() <= 16, "{s} vs {t}");
                    }
                }
            }
        }
        eprintln!("worst logit error {worst}, spread {spread:?}");
        assert!(worst < 0.02, "worst logit error {worst}");
        // The outputs vary: the comparison is not between constants.
        assert!(spread.1 - spread.0 > 0.5, "{spread:?}");
    }

    /// The Classic evaluator carries no net; `with_kind` picks the
    /// embedded one, whose scores follow its float weights.
    #[test]
    fn kinds_build_what_they_say() {
        let b = Board::square(15, RuleSet::FREESTYLE).unwrap();
        assert_eq!(
            Evaluator::new(&b).kind(),
            crate::brain::eval::EvalKind::Classic
        );
        assert_eq!(Evaluator::new(&b).net_logit(Color::Black), None);
        let ev = Evaluator::with_kind(&b, crate::brain::eval::EvalKind::Net);
        assert_eq!(ev.kind(), crate::brain::eval::EvalKind::Net);
        let q = default_net();
        let want = forward_f32(&q.weights, &ev, &b, Color::Black);
        assert!((ev.net_logit(Color::Black).unwrap() - want).abs() < 0.02);
        assert_eq!(q.kernel(), Kernel::best());
    }
}
