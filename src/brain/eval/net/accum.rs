//! The net's incremental state beside the evaluator's cells (`NetState`):
//! per cell its two accumulators, per colour the pool, and the undo log
//! `Evaluator::push`/`pop` keep beside their own. The evaluator calls it
//! where its cells change (`set_cell`, `remove_cell`: their clipped
//! differences gather in `i16` lanes, `flush` adds them to the pools once
//! per update), saves and restores it with its own undo log (`save`,
//! `push`, `pop`), and reads the score from it (`score`).
//!
//! `set_cell`, `remove_cell` and `flush` take the kernel as a constant
//! (`K`, one of `kernel::SCALAR`, `SSE2`, `AVX2`): the evaluator's update
//! is compiled once per kernel, AVX2's inside a function that enables
//! AVX2, so the per-cell work inlines into it. `K` must be the net's
//! kernel (checked).

use std::sync::Arc;

use super::kernel::{self, Block, Kernel, BLOCK};
use super::keys::{CellState, KeyChange};
use super::quant::QuantNet;
use crate::brain::types::{Color, Score};

/// Cells whose clipped differences `delta` may hold before `flush`: each
/// moves a lane by at most `QA` (256), and 127 · 256 = 32,512 fits `i16`.
const PENDING_LIMIT: u32 = 127;

/// The net's incremental state (see `quant`).
#[derive(Clone)]
pub(in crate::brain::eval) struct NetState {
    q: Arc<QuantNet>,
    /// `q`'s kernel (the `K` every call must name).
    kernel: Kernel,
    /// Lanes per cell: `2 · fp`, Black's accumulator first; in blocks.
    width: usize,
    nb: usize,
    /// Per cell, its two accumulators (meaningful for live cells): `nb`
    /// blocks.
    acc: Vec<Block>,
    /// Per colour the pooled clipped accumulators (`width` lanes).
    pool: Vec<i32>,
    /// What the cells changed since the last `flush` add to `pool`
    /// (`nb` blocks, wrapping: exact, as `pending` cells at most
    /// `PENDING_LIMIT` moved it), and how many cells that is.
    delta: Vec<Block>,
    pending: u32,
    /// Beside `Evaluator::undo`, entry for entry: the cell's accumulators
    /// as they were (`undo[..undo_len]`, `nb` blocks an entry; the vector
    /// only grows, so a save is a copy into place).
    undo: Vec<Block>,
    undo_len: usize,
    /// Per `push`: the pools before it (`pools[..pools_len]`, the same
    /// way).
    pools: Vec<i32>,
    pools_len: usize,
}

/// `dst.copy_from_slice(src)` element by element, for blocks and the
/// pools' lanes in 16s (fixed-size copies the compiler keeps inline, with
/// the widest registers of the function it inlines into, where a copy of
/// run-time length calls `memcpy`).
#[inline(always)]
fn copy<T: Copy>(dst: &mut [T], src: &[T]) {
    assert_eq!(dst.len(), src.len());
    for (d, s) in dst.iter_mut().zip(src) {
        *d = *s;
    }
}

/// `copy` for `i32` lanes, 16 at a time (the lengths a multiple of 16).
#[inline(always)]
fn copy_lanes(dst: &mut [i32], src: &[i32]) {
    assert_eq!(dst.len(), src.len());
    for (d, s) in dst.chunks_exact_mut(16).zip(src.chunks_exact(16)) {
        let block: [i32; 16] = s.try_into().expect("16 lanes");
        d.copy_from_slice(&block);
    }
}

/// Make room for `n` more values at `len` in a stack kept as a vector that
/// only grows; returns the new length.
#[inline(always)]
fn grow<T: Copy + Default>(v: &mut Vec<T>, len: usize, n: usize) -> usize {
    if v.len() < len + n {
        v.resize((len + n).max(2 * v.len()), T::default());
    }
    len + n
}

impl NetState {
    /// No cell counted yet, for a board of `cells` cells (padding
    /// included).
    pub(in crate::brain::eval) fn new(q: Arc<QuantNet>, cells: usize) -> NetState {
        let width = 2 * q.fp;
        let nb = width / BLOCK;
        NetState {
            kernel: q.kernel(),
            q,
            width,
            nb,
            acc: vec![Block::default(); cells * nb],
            pool: vec![0; width],
            delta: vec![Block::default(); nb],
            pending: 0,
            undo: Vec::new(),
            undo_len: 0,
            pools: Vec::new(),
            pools_len: 0,
        }
    }

    /// The net it evaluates with.
    pub(in crate::brain::eval) fn net(&self) -> &Arc<QuantNet> {
        &self.q
    }

    /// Its kernel.
    pub(in crate::brain::eval) fn kernel(&self) -> Kernel {
        self.kernel
    }

    /// One more cell in `delta`: flush when it could hold no more.
    #[inline(always)]
    fn count<const K: u8>(&mut self) {
        self.pending += 1;
        if self.pending == PENDING_LIMIT {
            self.flush::<K>();
        }
    }

    /// Cell `i`'s line codes and classes are now `new`; it was counted
    /// with `old`, or not counted (`None`: it joins the pool). `K`: the
    /// net's kernel (see the module doc).
    #[inline(always)]
    pub(in crate::brain::eval) fn set_cell<const K: u8>(
        &mut self,
        i: usize,
        old: Option<CellState>,
        new: CellState,
    ) {
        let ch = match old {
            Some(old) => KeyChange::Between(old, new),
            None => KeyChange::Fresh(new),
        };
        let nb = self.nb;
        kernel::change::<K>(
            self.kernel,
            self.q.rows(),
            &ch,
            &mut self.acc[i * nb..(i + 1) * nb],
            &mut self.delta,
        );
        self.count::<K>();
    }

    /// The counted cell `i` was filled: it leaves the pool.
    #[inline(always)]
    pub(in crate::brain::eval) fn remove_cell<const K: u8>(&mut self, i: usize) {
        let nb = self.nb;
        kernel::remove::<K>(self.kernel, &self.acc[i * nb..(i + 1) * nb], &mut self.delta);
        self.count::<K>();
    }

    /// Add what the cells changed since the last flush to the pools (the
    /// evaluator calls it at the end of every update).
    #[inline(always)]
    pub(in crate::brain::eval) fn flush<const K: u8>(&mut self) {
        kernel::flush::<K>(self.kernel, &mut self.delta, &mut self.pool);
        self.pending = 0;
    }

    /// Log cell `i`'s accumulators (beside the evaluator's undo entry).
    #[inline(always)]
    pub(in crate::brain::eval) fn save(&mut self, i: usize) {
        let (nb, at) = (self.nb, self.undo_len);
        self.undo_len = grow(&mut self.undo, at, nb);
        copy(&mut self.undo[at..at + nb], &self.acc[i * nb..(i + 1) * nb]);
    }

    /// A `push` begins: remember the pools.
    #[inline(always)]
    pub(in crate::brain::eval) fn push(&mut self) {
        let (w, at) = (self.width, self.pools_len);
        self.pools_len = grow(&mut self.pools, at, w);
        copy_lanes(&mut self.pools[at..at + w], &self.pool);
    }

    /// Undo the last `push`: `cells` are the cells of the evaluator's undo
    /// entries from `from` on (in the order logged), whose accumulators
    /// are put back, last first; then the pools.
    #[inline(always)]
    pub(in crate::brain::eval) fn pop(
        &mut self,
        from: usize,
        cells: impl DoubleEndedIterator<Item = usize> + ExactSizeIterator,
    ) {
        let (w, nb) = (self.width, self.nb);
        for (j, i) in cells.enumerate().rev() {
            let j = from + j;
            copy(
                &mut self.acc[i * nb..(i + 1) * nb],
                &self.undo[j * nb..(j + 1) * nb],
            );
        }
        self.undo_len = from * nb;
        self.pools_len -= w;
        let at = self.pools_len;
        copy_lanes(&mut self.pool, &self.pools[at..at + w]);
    }

    /// The net's score for `stm`.
    #[inline]
    pub(in crate::brain::eval) fn score(&self, stm: Color) -> Score {
        assert!(self.pending == 0, "the pools are flushed");
        self.q.score(&self.pool, stm)
    }

    /// The net's logit of `stm`'s win probability.
    pub(in crate::brain::eval) fn logit(&self, stm: Color) -> f32 {
        assert!(self.pending == 0, "the pools are flushed");
        self.q.logit(&self.pool, stm)
    }

    /// The same pools, and the same accumulators in every cell `live`
    /// says is counted?
    pub(in crate::brain::eval) fn same_as(
        &self,
        other: &NetState,
        live: impl Fn(usize) -> bool,
    ) -> bool {
        let nb = self.nb;
        self.pending == 0
            && other.pending == 0
            && self.pool == other.pool
            && (0..self.acc.len() / nb).all(|i| {
                !live(i) || self.acc[i * nb..(i + 1) * nb] == other.acc[i * nb..(i + 1) * nb]
            })
    }
}

#[cfg(test)]
mod tests {
    use super::super::format::random;
    use super::super::kernel::Kernel;
    use crate::brain::eval::Evaluator;
    use crate::brain::game::board::Board;
    use crate::brain::game::testutil::random_empty;
    use crate::brain::game::zobrist::SplitMix64;
    use crate::brain::types::{Color, Rule, RuleSet};

    use super::*;

    fn net(f: usize, h: usize, seed: u64, kernel: Kernel) -> Arc<QuantNet> {
        Arc::new(QuantNet::with_kernel(&random(f, h, seed), kernel).unwrap())
    }

    /// Every rule, plain and continuous: random makes, takebacks (both
    /// through `update`) and push/pop sequences with a random net; after
    /// each step the incremental state equals one built from scratch, for
    /// every kernel, and all kernels give the same logit and score.
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
                            // The head gives the same floats with every
                            // kernel (AVX2's runs 8 units at a time).
                            assert_eq!(ev.net_logit(c), evs[0].net_logit(c));
                            assert_eq!(ev.net_logit(c), fresh.net_logit(c));
                        }
                        checks += 1;
                    }
                }
            }
        }
        assert!(checks >= 1200 * kernels.len(), "{checks}");
    }
}
