//! The net's incremental state beside the evaluator's cells (`NetState`):
//! per cell its two accumulators, per colour the pool, and the undo log
//! `Evaluator::push`/`pop` keep beside their own. The evaluator calls it
//! where its cells change (`set_cell`, `remove_cell`), saves and restores
//! it with its own undo log (`save`, `push`, `pop`), and reads the score
//! from it (`score`).

use std::sync::Arc;

use super::keys::{CellState, KeyChange};
use super::quant::QuantNet;
use crate::brain::types::{Color, Score};

/// The net's incremental state (see `quant`).
#[derive(Clone)]
pub(in crate::brain::eval) struct NetState {
    q: Arc<QuantNet>,
    /// Lanes per cell: `2 · fp`, Black's accumulator first.
    width: usize,
    /// Per cell, its two accumulators (meaningful for live cells).
    acc: Vec<i16>,
    /// Per colour the pooled clipped accumulators (`width` lanes).
    pool: Vec<i32>,
    /// Beside `Evaluator::undo`, entry for entry: the cell's accumulators
    /// as they were.
    undo: Vec<i16>,
    /// Per `push`: the pools before it.
    pools: Vec<i32>,
}

/// `dst.copy_from_slice(src)` for the net's lanes (a multiple of 16, so
/// whole 32- or 64-byte blocks: fixed-size copies the compiler keeps
/// inline, where a copy of run-time length calls `memcpy`).
#[inline(always)]
fn copy_lanes<T: Copy + Default>(dst: &mut [T], src: &[T]) {
    assert_eq!(dst.len(), src.len());
    for (d, s) in dst.chunks_exact_mut(16).zip(src.chunks_exact(16)) {
        let block: [T; 16] = s.try_into().expect("16 lanes");
        d.copy_from_slice(&block);
    }
}

/// `dst.extend_from_slice(src)` the same way.
#[inline(always)]
fn push_lanes<T: Copy + Default>(dst: &mut Vec<T>, src: &[T]) {
    for s in src.chunks_exact(16) {
        let block: [T; 16] = s.try_into().expect("16 lanes");
        dst.extend_from_slice(&block);
    }
}

impl NetState {
    /// No cell counted yet, for a board of `cells` cells (padding
    /// included).
    pub(in crate::brain::eval) fn new(q: Arc<QuantNet>, cells: usize) -> NetState {
        let width = 2 * q.fp;
        NetState {
            q,
            width,
            acc: vec![0; cells * width],
            pool: vec![0; width],
            undo: Vec::new(),
            pools: Vec::new(),
        }
    }

    /// The net it evaluates with.
    pub(in crate::brain::eval) fn net(&self) -> &Arc<QuantNet> {
        &self.q
    }

    /// Cell `i`'s line codes and classes are now `new`; it was counted
    /// with `old`, or not counted (`None`: it joins the pool).
    #[inline(always)]
    pub(in crate::brain::eval) fn set_cell(
        &mut self,
        i: usize,
        old: Option<CellState>,
        new: CellState,
    ) {
        let ch = match old {
            Some(old) => KeyChange::between(old, new),
            None => KeyChange::fresh(new),
        };
        let w = self.width;
        self.q
            .set_cell(&ch, &mut self.acc[i * w..(i + 1) * w], &mut self.pool);
    }

    /// The counted cell `i` was filled: it leaves the pool.
    #[inline(always)]
    pub(in crate::brain::eval) fn remove_cell(&mut self, i: usize) {
        let w = self.width;
        self.q
            .remove_cell(&self.acc[i * w..(i + 1) * w], &mut self.pool);
    }

    /// Log cell `i`'s accumulators (beside the evaluator's undo entry).
    #[inline(always)]
    pub(in crate::brain::eval) fn save(&mut self, i: usize) {
        let w = self.width;
        push_lanes(&mut self.undo, &self.acc[i * w..(i + 1) * w]);
    }

    /// A `push` begins: remember the pools.
    #[inline(always)]
    pub(in crate::brain::eval) fn push(&mut self) {
        push_lanes(&mut self.pools, &self.pool);
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
        let w = self.width;
        for (j, i) in cells.enumerate().rev() {
            let j = from + j;
            copy_lanes(
                &mut self.acc[i * w..(i + 1) * w],
                &self.undo[j * w..(j + 1) * w],
            );
        }
        self.undo.truncate(from * w);
        let at = self.pools.len() - w;
        copy_lanes(&mut self.pool, &self.pools[at..]);
        self.pools.truncate(at);
    }

    /// The net's score for `stm`.
    #[inline]
    pub(in crate::brain::eval) fn score(&self, stm: Color) -> Score {
        self.q.score(&self.pool, stm)
    }

    /// The net's logit of `stm`'s win probability.
    pub(in crate::brain::eval) fn logit(&self, stm: Color) -> f32 {
        self.q.logit(&self.pool, stm)
    }

    /// The same pools, and the same accumulators in every cell `live`
    /// says is counted?
    pub(in crate::brain::eval) fn same_as(
        &self,
        other: &NetState,
        live: impl Fn(usize) -> bool,
    ) -> bool {
        let w = self.width;
        self.pool == other.pool
            && (0..self.acc.len() / w)
                .all(|i| !live(i) || self.acc[i * w..(i + 1) * w] == other.acc[i * w..(i + 1) * w])
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
}
