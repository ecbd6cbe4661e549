//! The per-cell work of the quantized net, written once: `apply` (a cell's
//! accumulators change, `change`), `take_out` (a cell is filled, `remove`)
//! and `widen` (the gathered differences join the pools, `flush`) are
//! generic over the lane operations of an instruction set (`Lanes`: load,
//! store, wrapping 16-bit add and sub, the clamp to `0..=QA`, and the
//! widening add into the `i32` pool), and instantiated per instruction set:
//! AVX2 (16 lanes, chosen at run time where the CPU has it), SSE2 (8 lanes,
//! every x86_64) and scalar (1 lane: everywhere else, and the reference the
//! tests compare with). The sums wrap, which is exact here because no sum
//! leaves `i16` (`TERM_LIMIT`), so every kernel gives the same integers.
//!
//! The lanes are cut in `Block`s of 64 (a cell's two accumulators are whole
//! blocks: one for a net of up to 32 features), and a block is held in
//! registers (`R` of them: 4 with AVX2) while each of a change's rows is
//! taken out and added. The kernels are `#[inline(always)]` and take their
//! instruction set as a constant (`K`): the evaluator's update is compiled
//! once per kernel, AVX2's in a function that enables AVX2
//! (`Evaluator::refresh_around_net`), so the lane operations and their
//! intrinsics inline there.

use super::keys::{Form, KeyChange};

/// The accumulators' scale: 1.0 is `QA`, so the clipped range is `0..=QA`.
pub const QA: i32 = 256;

/// Lanes of a `Block`.
pub const BLOCK: usize = 64;

/// Each colour's accumulator lanes are padded to a multiple of this, so
/// that a cell's two are whole blocks.
pub const LANES: usize = BLOCK / 2;

/// 64 lanes, aligned to a cache line: the unit the kernels work in (a
/// cell's accumulators, a row of the pair table, the pending differences,
/// an undo entry are whole blocks).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C, align(64))]
pub(super) struct Block(pub [i16; BLOCK]);

impl Default for Block {
    fn default() -> Block {
        Block([0; BLOCK])
    }
}

/// Flat lanes cut into blocks (`lanes.len()` a multiple of `BLOCK`).
pub(super) fn blocks(lanes: &[i16]) -> Vec<Block> {
    assert!(lanes.len().is_multiple_of(BLOCK));
    lanes
        .chunks_exact(BLOCK)
        .map(|c| Block(c.try_into().expect("a block")))
        .collect()
}

/// What the kernel reads of a quantized net (`QuantNet::rows`): blocks per
/// cell (`nb`: both colours' accumulators, `2 · fp` lanes), the pair table
/// (`Form::pair_rows` rows of `nb` blocks), the bias of both colours
/// (`nb`), the net's form and, in the joint form, the joint keys' table
/// (`joint::joint_table`; empty in `Lines`).
#[derive(Clone, Copy)]
pub(super) struct Rows<'a> {
    pub nb: usize,
    pub pairs: &'a [Block],
    pub bias: &'a [Block],
    pub form: Form,
    pub jt: &'a [u16],
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

    /// The kernel's constant (`SCALAR`, `SSE2`, `AVX2`).
    pub(in crate::brain::eval) const fn id(self) -> u8 {
        match self {
            Kernel::Scalar => SCALAR,
            #[cfg(target_arch = "x86_64")]
            Kernel::Sse2 => SSE2,
            #[cfg(target_arch = "x86_64")]
            Kernel::Avx2 => AVX2,
        }
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

/// The kernels as constants, for code compiled once per kernel
/// (`Kernel::id`; 0 is no net at all).
pub(in crate::brain::eval) const SCALAR: u8 = 1;
pub(in crate::brain::eval) const SSE2: u8 = 2;
pub(in crate::brain::eval) const AVX2: u8 = 3;

/// Added to a kernel's constant for a net of the joint form
/// (`Form::Joint`): code compiled once per kernel and form (`code`).
pub(in crate::brain::eval) const JOINT: u8 = 4;

/// The constant the code for a net of kernel `k` and form `form` is
/// compiled with (what every `K` names: `Kernel::id`, plus `JOINT`).
pub(in crate::brain::eval) const fn code(k: Kernel, form: Form) -> u8 {
    match form {
        Form::Lines => k.id(),
        Form::Joint => k.id() | JOINT,
    }
}

/// The one dispatch from a net's kernel and form, known at run time, to the
/// constant (`code`) that code compiled once per kernel and form is
/// instantiated with: `by_code!(kernel, form, C => body, avx2 C => avx_body)`
/// evaluates `body` with the constant `C` bound for the scalar and SSE2
/// kernels, and `avx_body` for AVX2 (where callers enter a function that
/// enables AVX2, an `unsafe` call they justify: a net's kernel is one this
/// CPU has, `QuantNet::with_kernel` checks `Kernel::available`).
/// `by_code!(kernel, form, C => body)` uses `body` for AVX2 too.
macro_rules! by_code {
    // One body for every kernel (a caller that needs no AVX2 entry).
    ($kernel:expr, $form:expr, $c:ident => $body:expr) => {
        by_code!($kernel, $form, $c => $body, avx2 $c => $body)
    };
    ($kernel:expr, $form:expr, $c:ident => $body:expr, avx2 $ca:ident => $avx:expr) => {{
        use $crate::brain::eval::net::{Form, Kernel};
        match ($kernel, $form) {
            (Kernel::Scalar, Form::Lines) => {
                const $c: u8 = $crate::brain::eval::net::SCALAR;
                $body
            }
            (Kernel::Scalar, Form::Joint) => {
                const $c: u8 = $crate::brain::eval::net::SCALAR | $crate::brain::eval::net::JOINT;
                $body
            }
            #[cfg(target_arch = "x86_64")]
            (Kernel::Sse2, Form::Lines) => {
                const $c: u8 = $crate::brain::eval::net::SSE2;
                $body
            }
            #[cfg(target_arch = "x86_64")]
            (Kernel::Sse2, Form::Joint) => {
                const $c: u8 = $crate::brain::eval::net::SSE2 | $crate::brain::eval::net::JOINT;
                $body
            }
            #[cfg(target_arch = "x86_64")]
            (Kernel::Avx2, Form::Lines) => {
                const $ca: u8 = $crate::brain::eval::net::AVX2;
                $avx
            }
            #[cfg(target_arch = "x86_64")]
            (Kernel::Avx2, Form::Joint) => {
                const $ca: u8 = $crate::brain::eval::net::AVX2 | $crate::brain::eval::net::JOINT;
                $avx
            }
        }
    }};
}
pub(in crate::brain::eval) use by_code;

/// Run `body` with `L` the lanes of the kernel `K` and `R` the registers
/// of a block. SAFETY (callers): the CPU has `K`'s instructions.
macro_rules! with_lanes {
    ($k:expr, $l:ident, $r:ident => $body:expr) => {
        match $k & !JOINT {
            SCALAR => {
                type $l = Scalar;
                const $r: usize = BLOCK;
                $body
            }
            #[cfg(target_arch = "x86_64")]
            SSE2 => {
                type $l = x86::Sse2;
                const $r: usize = BLOCK / 8;
                $body
            }
            #[cfg(target_arch = "x86_64")]
            AVX2 => {
                type $l = x86::Avx2;
                const $r: usize = BLOCK / 16;
                $body
            }
            _ => unreachable!("no kernel {}", $k),
        }
    };
}

/// The kernel `K` over a net's rows (`q`), checked once (`new`): `K` is
/// the net's kernel and form (`code`), so the CPU has its lanes and the
/// keys are the net's, and a cell is `NB` blocks
/// (`NB` 0: `q.nb`, known at run time; 1: one block, a net of up to 32
/// features, the embedded one, for which the loops over blocks vanish and
/// the rows are addressed directly).
#[derive(Clone, Copy)]
pub(super) struct Kern<'a, const K: u8, const NB: usize> {
    q: Rows<'a>,
}

impl<'a, const K: u8, const NB: usize> Kern<'a, K, NB> {
    /// The kernel `K` of a quantized net whose kernel is `kernel` and rows
    /// `q` (checked: `K` must be `code(kernel, q.form)`, `NB` 0 or `q.nb`).
    #[inline(always)]
    pub fn new(kernel: Kernel, q: Rows<'a>) -> Self {
        assert!(code(kernel, q.form) == K && (NB == 0 || NB == q.nb));
        Kern { q }
    }

    /// Blocks per cell.
    #[inline(always)]
    pub fn nb(&self) -> usize {
        if NB == 0 {
            self.q.nb
        } else {
            NB
        }
    }

    /// The cell `acc` (`nb` blocks: both colours' accumulators) changes
    /// as `ch` says (a fresh cell: the bias plus its six pair rows, eight
    /// in the joint form; a counted one: minus the rows of what changed,
    /// plus the new ones);
    /// `delta` (the same lanes, wrapping `i16`) gets its new clipped values
    /// minus the old (a fresh cell had none).
    #[inline(always)]
    pub fn change(&self, ch: &KeyChange, acc: &mut [Block], delta: &mut [Block]) {
        let nb = self.nb();
        assert!(acc.len() == nb && delta.len() == nb);
        // SAFETY: `K` is the kernel of a quantized net (checked in `new`),
        // and a `QuantNet`'s kernel is one of `Kernel::available`
        // (`QuantNet::with_kernel` checks): the CPU has its instructions.
        // Every load and store lies in a block (`apply`).
        unsafe {
            if K & JOINT != 0 {
                with_lanes!(K, L, R => apply::<L, R, NB, true>(self.q, ch, acc, delta))
            } else {
                with_lanes!(K, L, R => apply::<L, R, NB, false>(self.q, ch, acc, delta))
            }
        }
    }

    /// A counted cell was filled: take its clipped accumulators `acc` out
    /// of `delta` (as `change`).
    #[inline(always)]
    pub fn remove(&self, acc: &[Block], delta: &mut [Block]) {
        let nb = self.nb();
        assert!(acc.len() == nb && delta.len() == nb);
        // SAFETY: as in `change`.
        unsafe { with_lanes!(K, L, R => take_out::<L, R, NB>(acc, delta)) }
    }

    /// `pool += delta` (each lane widened to 32 bits), then `delta = 0` (as
    /// `change`).
    #[inline(always)]
    pub fn flush(&self, delta: &mut [Block], pool: &mut [i32]) {
        let nb = self.nb();
        assert!(delta.len() == nb && pool.len() == nb * BLOCK);
        // SAFETY: as in `change`.
        unsafe { with_lanes!(K, L, R => widen::<L, R, NB>(delta, pool)) }
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

    /// Register `r` of block `b`. SAFETY: the CPU has the instructions,
    /// `(r + 1) · N <= BLOCK`.
    #[inline(always)]
    unsafe fn get(b: &Block, r: usize) -> Self {
        Self::load(b.0.as_ptr().add(r * Self::N))
    }

    /// Store as register `r` of block `b` (as `get`).
    #[inline(always)]
    unsafe fn put(self, b: &mut Block, r: usize) {
        self.store(b.0.as_mut_ptr().add(r * Self::N))
    }
}

/// The per-cell work of `change`, a block at a time, the block in `R`
/// registers of `L`: a fresh cell's accumulators are the bias plus its six
/// pair rows (eight with `J`, the joint form: `KeyChange::rows_joint`),
/// with nothing to take out of `delta`; a counted cell's lose the rows of
/// what changed and gain the new ones (in any order: the sums wrap, and
/// the result is exact), and `delta` gets the new clipped values minus the
/// old. The rows are indexed with bounds checks.
///
/// `NB`: the blocks of a cell when known at compile time (`q.nb`), 0 when
/// not.
///
/// SAFETY: the CPU has `L`'s instructions; `R · L::N = BLOCK` (checked at
/// compile time), so register `r < R` of a block lies in it.
#[inline(always)]
unsafe fn apply<L: Lanes, const R: usize, const NB: usize, const J: bool>(
    q: Rows,
    ch: &KeyChange,
    acc: &mut [Block],
    delta: &mut [Block],
) {
    const { assert!(R * L::N == BLOCK) };
    let nb = if NB == 0 { q.nb } else { NB };
    for b in 0..nb {
        let (a, d) = (&mut acc[b], &mut delta[b]);
        let mut v = [L::zero(); R];
        let mut before = [L::zero(); R];
        match *ch {
            KeyChange::Fresh(new) => {
                for (r, x) in v.iter_mut().enumerate() {
                    *x = L::get(&q.bias[b], r);
                }
                if J {
                    for k in KeyChange::rows_joint(new, q.jt) {
                        add_row(&mut v, &q.pairs[k as usize * nb + b]);
                    }
                } else {
                    for k in KeyChange::rows(new) {
                        add_row(&mut v, &q.pairs[k as usize * nb + b]);
                    }
                }
            }
            KeyChange::Between(old, new) => {
                for r in 0..R {
                    v[r] = L::get(a, r);
                    before[r] = v[r].clip();
                }
                for (s, k) in KeyChange::swaps::<J>(old, new, q.jt) {
                    let (s, t) = (&q.pairs[s as usize * nb + b], &q.pairs[k as usize * nb + b]);
                    for (r, x) in v.iter_mut().enumerate() {
                        *x = x.sub(L::get(s, r)).add(L::get(t, r));
                    }
                }
            }
        }
        for r in 0..R {
            v[r].put(a, r);
            // Both clipped values lie in 0..=QA: the difference fits i16.
            L::get(d, r).add(v[r].clip().sub(before[r])).put(d, r);
        }
    }
}

/// `v += t`, lane by lane (`apply`'s fresh rows).
///
/// SAFETY: as `apply`.
#[inline(always)]
unsafe fn add_row<L: Lanes, const R: usize>(v: &mut [L; R], t: &Block) {
    for (r, x) in v.iter_mut().enumerate() {
        *x = x.add(L::get(t, r));
    }
}

/// The work of `remove`: `delta -= clip(acc)`, a block at a time.
///
/// SAFETY: as `apply`.
#[inline(always)]
unsafe fn take_out<L: Lanes, const R: usize, const NB: usize>(acc: &[Block], delta: &mut [Block]) {
    const { assert!(R * L::N == BLOCK) };
    let nb = if NB == 0 { acc.len() } else { NB };
    for b in 0..nb {
        let (a, d) = (&acc[b], &mut delta[b]);
        for r in 0..R {
            L::get(d, r).sub(L::get(a, r).clip()).put(d, r);
        }
    }
}

/// The work of `flush`: `pool += delta`, `delta = 0`, a block at a time.
///
/// SAFETY: as `apply`; `pool` has `BLOCK` lanes per block of `delta`.
#[inline(always)]
unsafe fn widen<L: Lanes, const R: usize, const NB: usize>(delta: &mut [Block], pool: &mut [i32]) {
    const { assert!(R * L::N == BLOCK) };
    let nb = if NB == 0 { delta.len() } else { NB };
    for b in 0..nb {
        let (d, p) = (&mut delta[b], &mut pool[b * BLOCK..(b + 1) * BLOCK]);
        for r in 0..R {
            L::get(d, r).add_widened(p.as_mut_ptr().add(r * L::N));
        }
        *d = Block::default();
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

    use super::{Lanes, QA};
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
}

#[cfg(test)]
mod tests {
    use super::super::format::{random, random_of};
    use super::super::joint::{joint_table, JOINT_KEYS, NO_JOINT};
    use super::super::keys::{joint_pair, line_pair, CellState, JOINT_ROWS, NIBBLES};
    use super::super::quant::QuantNet;
    use super::*;
    use crate::brain::eval::weights::Class;
    use crate::brain::game::zobrist::SplitMix64;

    /// What a test asks of a kernel.
    enum Op<'a> {
        Change(&'a KeyChange),
        Remove,
        Flush(&'a mut [i32]),
    }

    /// `op` with the kernel `K`, one block or any number (`NB` 1 or 0).
    fn run<const K: u8, const NB: usize>(
        q: &QuantNet,
        op: Op,
        acc: &mut [Block],
        delta: &mut [Block],
    ) {
        let kern = Kern::<K, NB>::new(q.kernel(), q.rows());
        match op {
            Op::Change(ch) => kern.change(ch, acc, delta),
            Op::Remove => kern.remove(acc, delta),
            Op::Flush(pool) => kern.flush(delta, pool),
        }
    }

    /// `op` with the net's kernel and form, as `NetState` runs it (`NB`
    /// 1 for a one-block net).
    fn run_any(q: &QuantNet, op: Op, acc: &mut [Block], delta: &mut [Block]) {
        let one = q.rows().nb == 1;
        by_code!(q.kernel(), q.form(),
        C => if one {
            run::<C, 1>(q, op, acc, delta)
        } else {
            run::<C, 0>(q, op, acc, delta)
        })
    }

    /// A random cell state: any nibbles (past 11 too, one in eight: their
    /// rows are zero, and so is the joint row of a code with one) and
    /// classes.
    fn random_state(rng: &mut SplitMix64) -> CellState {
        let code = [0, 1].map(|_| {
            (0..4).fold(0u16, |c, d| {
                let n = if rng.below(8) == 0 {
                    12 + rng.below(4)
                } else {
                    rng.below(12)
                };
                c | (n as u16) << (4 * d)
            })
        });
        let class = [0, 1].map(|_| Class::ALL[rng.below(Class::ALL.len() as u64) as usize]);
        (code, class)
    }

    /// How many rows a counted cell swaps from `old` to `new` in `form`.
    fn swap_count(form: Form, old: CellState, new: CellState) -> usize {
        match form {
            Form::Lines => KeyChange::swaps::<false>(old, new, &[]).count(),
            Form::Joint => KeyChange::swaps::<true>(old, new, joint_table()).count(),
        }
    }

    /// The kernels on raw rows, extremes included (every lane at
    /// `±TERM_LIMIT`, so sums reach the ends of `i16`): the same
    /// accumulators, pending differences and pools as the scalar kernel,
    /// for new and for counted cells (one to six rows swapped, to eight in
    /// the joint form), for removal and for flushes, with nets of one and
    /// of two blocks, of both forms.
    #[test]
    fn every_kernel_matches_scalar_on_raw_rows() {
        for form in Form::ALL {
            kernels_match_scalar(form);
        }
    }

    fn kernels_match_scalar(form: Form) {
        let mut rng = SplitMix64::new(99);
        let kernels = Kernel::available();
        let mut swapped = [0usize; 9];
        for f in [16, 40] {
            let mut w = random_of(form, f, 4, 5);
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
            let nb = nets[0].rows().nb;
            assert_eq!(nb, f.div_ceil(LANES) * 2 * LANES / BLOCK);
            type State = (Vec<Block>, Vec<Block>, Vec<i32>);
            let mut states: Vec<State> = kernels
                .iter()
                .map(|_| {
                    let b = vec![Block::default(); nb];
                    (b.clone(), b, vec![0; nb * BLOCK])
                })
                .collect();
            let mut cell: Option<CellState> = None;
            for step in 0..2000 {
                let (remove, ch) = match cell {
                    Some(old) if step % 5 == 0 => {
                        cell = None;
                        (true, KeyChange::Fresh(old))
                    }
                    Some(old) => {
                        // Change some directions and classes of `old`:
                        // each nibble kept with odds 3 in 4.
                        let new = random_state(&mut rng);
                        let code = [0, 1].map(|c| {
                            (0..4).fold(0u16, |x, d| {
                                let from = if rng.below(4) == 0 {
                                    new.0[c]
                                } else {
                                    old.0[c]
                                };
                                x | (from & (15 << (4 * d)))
                            })
                        });
                        let class = [0, 1].map(|c| {
                            if rng.below(2) == 0 {
                                old.1[c]
                            } else {
                                new.1[c]
                            }
                        });
                        cell = Some((code, class));
                        swapped[swap_count(form, old, (code, class))] += 1;
                        (false, KeyChange::Between(old, (code, class)))
                    }
                    None => {
                        let new = random_state(&mut rng);
                        cell = Some(new);
                        (false, KeyChange::Fresh(new))
                    }
                };
                let flush_now = step % 3 == 0;
                for (q, (acc, delta, pool)) in nets.iter().zip(states.iter_mut()) {
                    if remove {
                        run_any(q, Op::Remove, acc, delta);
                    } else {
                        run_any(q, Op::Change(&ch), acc, delta);
                    }
                    if flush_now {
                        run_any(q, Op::Flush(pool), acc, delta);
                        assert!(delta.iter().all(|b| *b == Block::default()));
                    }
                }
                for (k, s) in kernels.iter().zip(&states).skip(1) {
                    assert_eq!(s, &states[0], "{k:?} at step {step}");
                }
            }
            // The extremes were reached and the pools moved.
            let (acc, _, pool) = &states[0];
            let lanes = || acc.iter().flat_map(|b| b.0);
            assert!(lanes().any(|a| a > QA as i16 * 4));
            assert!(lanes().any(|a| a < -(QA as i16) * 4));
            assert!(pool.iter().any(|&p| p != 0));
        }
        // Every number of swapped rows, none to six (eight), was tried.
        let most = form.keys_per_cell();
        assert!(swapped[..=most].iter().all(|&n| n > 0), "{swapped:?}");
        assert!(swapped[most + 1..].iter().all(|&n| n == 0), "{swapped:?}");
        #[cfg(target_arch = "x86_64")]
        assert!(kernels.contains(&Kernel::Sse2));
    }

    /// The lanes of the pair row `key` of `q`: Black's `fp`, then White's.
    fn pair_lanes(q: &QuantNet, key: usize) -> Vec<i16> {
        let rows = q.rows();
        rows.pairs[key * rows.nb..(key + 1) * rows.nb]
            .iter()
            .flat_map(|b| b.0)
            .collect()
    }

    /// The pair row `key` of `q` holds `w`'s embedding rows `black` and
    /// `white`, quantized within `limit`, zero in the padding lanes.
    fn assert_pair(
        q: &QuantNet,
        w: &super::super::NetWeights,
        limit: i32,
        (key, black, white): (usize, usize, usize),
    ) {
        let quant = |r: usize, j: usize| {
            ((w.embed[r * w.f + j] * QA as f32).round() as i32).clamp(-limit, limit) as i16
        };
        let (l, fp) = (pair_lanes(q, key), q.fp);
        for j in 0..fp {
            let want = |r| if j < w.f { quant(r, j) } else { 0 };
            assert_eq!(l[j], want(black), "key {key} lane {j}");
            assert_eq!(l[fp + j], want(white), "key {key} lane {j}");
        }
    }

    /// The pair table holds each key's rows for both colours: a line pair
    /// is Black's row of `x·12 + y` and White's of `y·12 + x`, those of
    /// nibbles past 11 zero, a class pair
    /// the own and opponent rows the other way round for White.
    #[test]
    fn pair_rows_are_both_colours_rows() {
        let w = random(40, 4, 6);
        let q = QuantNet::new(&w).unwrap();
        let lanes = |key: usize| pair_lanes(&q, key);
        let check =
            |key, black, white| assert_pair(&q, &w, super::super::TERM_LIMIT, (key, black, white));
        for x in 0..NIBBLES {
            for y in 0..NIBBLES {
                check(line_pair(x, y), x * NIBBLES + y, y * NIBBLES + x);
            }
        }
        for x in 0..16 {
            for y in NIBBLES..16 {
                for key in [line_pair(x, y), line_pair(y, x)] {
                    assert!(lanes(key).iter().all(|&l| l == 0), "key {key}");
                }
            }
        }
        let (line, classes) = (super::super::LINE_KEYS, Class::ALL.len());
        for k in 0..classes {
            check(super::super::CLASS_PAIRS + k, line + k, line + classes + k);
            check(
                super::super::CLASS_PAIRS + 16 + k,
                line + classes + k,
                line + k,
            );
        }
        let rows = q.rows();
        assert_eq!(rows.pairs.len(), Form::Lines.pair_rows() * rows.nb);
    }

    /// In the joint form the pair table also holds each joint key's rows
    /// (Black's: own then opp, White's: opp then own; `NO_JOINT`'s zero),
    /// and its line and class pairs are the `Lines` form's.
    #[test]
    fn joint_pair_rows_are_both_colours_rows() {
        let w = random_of(Form::Joint, 40, 4, 6);
        let q = QuantNet::new(&w).unwrap();
        let rows = q.rows();
        assert_eq!(rows.pairs.len(), Form::Joint.pair_rows() * rows.nb);
        let lanes = |key: usize| pair_lanes(&q, key);
        let limit = super::super::term_limit(Form::Joint);
        let check = |key, black, white| assert_pair(&q, &w, limit, (key, black, white));
        for j in 0..JOINT_KEYS {
            let (own, opp) = (JOINT_ROWS + j, JOINT_ROWS + JOINT_KEYS + j);
            check(joint_pair(0, j as u16) as usize, own, opp);
            check(joint_pair(1, j as u16) as usize, opp, own);
        }
        for side in 0..2 {
            let key = joint_pair(side, NO_JOINT) as usize;
            assert!(lanes(key).iter().all(|&l| l == 0), "side {side}");
        }
        check(line_pair(3, 7), 3 * NIBBLES + 7, 7 * NIBBLES + 3);
        // Nine terms to a sum: a lower limit than the six rows' form.
        assert!(limit < super::super::TERM_LIMIT);
    }
}
