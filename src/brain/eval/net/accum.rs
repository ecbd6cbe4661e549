//! The net's incremental state beside the evaluator's cells (`NetState`):
//! per cell its two accumulators, per colour the pool, and the undo log
//! that lets `Evaluator::pop` put them back.
//!
//! The search's `push` leaves the net alone: the evaluator's undo entries
//! say which cells each move changed and how they were. The net catches up
//! when a score is asked for (`score`, `sync`): frame by frame, each logged
//! cell's accumulators lose the rows of what changed and gain the new ones
//! (its state after the frame: the cell's current state for the last
//! frame; for an earlier one, the state the cell's next undo entry holds,
//! found by a pass backwards through the entries), and the clipped values'
//! differences gather in `i16` lanes that join the pools at the end of the
//! frame (`flush`); the accumulators and pools it overwrites are saved per
//! frame, so that `pop` puts back exactly the frames it synced. A move
//! whose subtree is never scored (a table cut, a five found by the threat
//! checks) costs the net nothing, and neither does its `pop`. Frame by
//! frame rather than merged: a `pop` undoes one frame, and an unscored
//! parent's frame is applied once for all its scored children.
//!
//! `update` (outside the search) and the evaluator's build change the net
//! as they go (`set_cell`, `remove_cell`, `flush`), after a `sync`.
//!
//! The per-cell work takes the kernel and form as a constant (`K`, one of
//! `kernel::SCALAR`, `SSE2`, `AVX2`, plus `kernel::JOINT` for a net of the
//! joint form: `kernel::code`): it is compiled once per kernel and form,
//! AVX2's inside functions that enable AVX2 (`sync_avx2` here,
//! `Evaluator::refresh_around_net` there), so the lane operations inline
//! into it. `K` must be the net's (checked).
//!
//! `score` takes `&self` (the evaluator's `evaluate` does): what it
//! brings up to date sits in a `RefCell`, which the `&mut self` paths
//! reach for free (`get_mut`).

use std::cell::RefCell;
use std::sync::Arc;

use super::kernel::{self, Block, Kern, Kernel, BLOCK};
use super::keys::{CellState, Form, KeyChange};
use super::quant::QuantNet;
use crate::brain::eval::weights::Class;
use crate::brain::eval::{CellEval, Frame};
use crate::brain::types::{Color, Score};

/// No next undo entry (`Log::next`).
const NONE: u32 = u32::MAX;

/// Cells whose clipped differences `delta` may hold before `flush`: each
/// moves a lane by at most `QA` (256), and 127 · 256 = 32,512 fits `i16`.
const PENDING_LIMIT: u32 = 127;

/// The evaluator's moves as `sync` reads them: its undo entries (cell,
/// state before), its frames (where each move's entries begin) and its
/// cells as they are now.
#[derive(Clone, Copy)]
pub(in crate::brain::eval) struct Moves<'a> {
    pub undo: &'a [(u32, CellEval)],
    pub frames: &'a [Frame],
    pub cells: &'a [CellEval],
}

/// A cell as the net sees it: its line codes and classes, and whether it
/// is counted (an empty playing cell).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(in crate::brain::eval) struct NetCell {
    pub code: [u16; 2],
    pub class: [Class; 2],
    pub live: bool,
}

impl NetCell {
    #[inline(always)]
    fn of(c: &CellEval) -> NetCell {
        NetCell {
            code: c.code,
            class: c.class,
            live: c.live,
        }
    }

    #[inline(always)]
    fn state(self) -> CellState {
        (self.code, self.class)
    }
}

/// The net's incremental state (see the module doc).
#[derive(Clone)]
pub(in crate::brain::eval) struct NetState {
    q: Arc<QuantNet>,
    /// `q`'s kernel and form (`kernel::code(kernel, form)`: the `K` every
    /// call must name).
    kernel: Kernel,
    form: Form,
    /// Lanes per cell: `2 · fp`, Black's accumulator first; in blocks.
    width: usize,
    nb: usize,
    /// Everything `score` may bring up to date.
    st: RefCell<St>,
}

/// The mutable part of `NetState`.
#[derive(Clone)]
struct St {
    live: Live,
    log: Log,
    /// The evaluator's frames the accumulators and pools include (the
    /// first `synced` of them).
    synced: usize,
}

/// The accumulators and pools.
#[derive(Clone)]
struct Live {
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
}

/// What `sync` and `pop` keep beside the evaluator's undo log.
#[derive(Clone)]
struct Log {
    /// A sync of several frames: beside `Evaluator::undo`, entry for
    /// entry, the cell's next entry (`NONE`: none, its state now is the
    /// one after the move), and per cell the last entry the backward pass
    /// met, stamped with the sync (`stamp`) that met it (scratch).
    next: Vec<u32>,
    last: Vec<(u32, u32)>,
    stamp: u32,
    /// Beside `Evaluator::undo`, entry for entry, for the synced frames:
    /// the cell's accumulators before that frame was applied (`nb` blocks
    /// an entry; the vector only grows, so a save is a copy into place).
    undo: Vec<Block>,
    /// Per synced frame, the pools before it (`width` lanes a frame, grown
    /// the same way).
    pools: Vec<i32>,
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

/// Make a vector that only grows at least `len` long.
#[inline(always)]
fn grow<T: Copy + Default>(v: &mut Vec<T>, len: usize) {
    if v.len() < len {
        v.resize(len.max(2 * v.len()), T::default());
    }
}

/// The cell whose accumulators are `acc` goes from `old` to `new`: its
/// rows change, it joins the pool or leaves it (its clipped values' change
/// into `delta`). Whether it moved `delta` at all.
#[inline(always)]
fn change<const K: u8, const NB: usize>(
    kern: Kern<K, NB>,
    acc: &mut [Block],
    delta: &mut [Block],
    old: NetCell,
    new: NetCell,
) -> bool {
    match (old.live, new.live) {
        (true, true) => kern.change(&KeyChange::Between(old.state(), new.state()), acc, delta),
        (false, true) => kern.change(&KeyChange::Fresh(new.state()), acc, delta),
        (true, false) => kern.remove(acc, delta),
        (false, false) => return false,
    }
    true
}

impl Live {
    /// `change` for cell `i` as `update` and the build make them: `delta`
    /// is flushed whenever it could hold no more.
    #[inline(always)]
    fn set<const K: u8, const NB: usize>(
        &mut self,
        kern: Kern<K, NB>,
        i: usize,
        old: NetCell,
        new: NetCell,
    ) {
        let nb = kern.nb();
        if change(
            kern,
            &mut self.acc[i * nb..(i + 1) * nb],
            &mut self.delta,
            old,
            new,
        ) {
            self.pending += 1;
            if self.pending == PENDING_LIMIT {
                self.flush(kern);
            }
        }
    }

    #[inline(always)]
    fn flush<const K: u8, const NB: usize>(&mut self, kern: Kern<K, NB>) {
        kern.flush(&mut self.delta, &mut self.pool);
        self.pending = 0;
    }
}

impl NetState {
    /// No cell counted yet, for a board of `cells` cells (padding
    /// included).
    pub(in crate::brain::eval) fn new(q: Arc<QuantNet>, cells: usize) -> NetState {
        let width = 2 * q.fp;
        let nb = width / BLOCK;
        NetState {
            kernel: q.kernel(),
            form: q.form(),
            q,
            width,
            nb,
            st: RefCell::new(St {
                live: Live {
                    acc: vec![Block::default(); cells * nb],
                    pool: vec![0; width],
                    delta: vec![Block::default(); nb],
                    pending: 0,
                },
                log: Log {
                    next: Vec::new(),
                    last: vec![(0, 0); cells],
                    stamp: 0,
                    undo: Vec::new(),
                    pools: Vec::new(),
                },
                synced: 0,
            }),
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

    /// Its form.
    pub(in crate::brain::eval) fn form(&self) -> Form {
        self.form
    }

    /// Cell `i`'s line codes and classes are now `new`; it was counted
    /// with `old`, or not counted (`None`: it joins the pool). For
    /// `update` and the build, after a `sync`; `K`: the net's kernel and
    /// form (`kernel::code`).
    #[inline(always)]
    pub(in crate::brain::eval) fn set_cell<const K: u8>(
        &mut self,
        i: usize,
        old: Option<CellState>,
        (code, class): CellState,
    ) {
        let old = match old {
            Some((code, class)) => NetCell {
                code,
                class,
                live: true,
            },
            None => NetCell {
                code,
                class,
                live: false,
            },
        };
        let new = NetCell {
            code,
            class,
            live: true,
        };
        self.set::<K>(i, old, new);
    }

    /// The counted cell `i` was filled: it leaves the pool (as
    /// `set_cell`).
    #[inline(always)]
    pub(in crate::brain::eval) fn remove_cell<const K: u8>(&mut self, i: usize) {
        let cell = NetCell {
            code: [0; 2],
            class: [Class::None; 2],
            live: true,
        };
        let gone = NetCell {
            live: false,
            ..cell
        };
        self.set::<K>(i, cell, gone);
    }

    /// `Live::set` with the kernel `K`, a cell of one block known at
    /// compile time when it is one.
    #[inline(always)]
    fn set<const K: u8>(&mut self, i: usize, old: NetCell, new: NetCell) {
        let live = &mut self.st.get_mut().live;
        if self.nb == 1 {
            live.set(Kern::<K, 1>::new(self.kernel, self.q.rows()), i, old, new);
        } else {
            live.set(Kern::<K, 0>::new(self.kernel, self.q.rows()), i, old, new);
        }
    }

    /// Add what the cells changed since the last flush to the pools (the
    /// end of every `update` and of the build).
    #[inline(always)]
    pub(in crate::brain::eval) fn flush<const K: u8>(&mut self) {
        let kern = Kern::<K, 0>::new(self.kernel, self.q.rows());
        self.st.get_mut().live.flush(kern);
    }

    /// The evaluator popped its frame `depth` (the frames now number
    /// `depth`), whose undo entries began at `from`: if the net had synced
    /// that frame, put its accumulators (last first) and pools back.
    #[inline]
    pub(in crate::brain::eval) fn pop(
        &mut self,
        depth: usize,
        from: usize,
        undo: &[(u32, CellEval)],
    ) {
        let st = self.st.get_mut();
        if st.synced <= depth {
            return;
        }
        st.synced = depth;
        match (self.kernel, self.nb) {
            // SAFETY: a net's kernel is one this CPU has
            // (`QuantNet::with_kernel` checks `Kernel::available`).
            #[cfg(target_arch = "x86_64")]
            (Kernel::Avx2, 1) => unsafe { self.put_back_avx2(depth, from, undo) },
            (_, 1) => self.put_back::<1>(depth, from, undo),
            _ => self.put_back::<0>(depth, from, undo),
        }
    }

    /// `put_back` in a function that enables AVX2 (whole blocks in two
    /// registers).
    ///
    /// SAFETY: the CPU has AVX2.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn put_back_avx2(&mut self, depth: usize, from: usize, undo: &[(u32, CellEval)]) {
        self.put_back::<1>(depth, from, undo);
    }

    /// `pop`'s work: the accumulators of the undo entries from `from` on
    /// (last first) and the pools of frame `depth` back (`NB`: the blocks
    /// per cell, 0 for `nb`).
    #[inline(always)]
    fn put_back<const NB: usize>(&mut self, depth: usize, from: usize, undo: &[(u32, CellEval)]) {
        let (w, nb) = (self.width, if NB == 0 { self.nb } else { NB });
        assert!(nb == self.nb);
        let st = self.st.get_mut();
        let (live, log) = (&mut st.live, &st.log);
        let saved = log.undo[from * nb..undo.len() * nb].chunks_exact(nb);
        for (&(i, _), saved) in undo[from..].iter().zip(saved).rev() {
            let i = i as usize;
            copy(&mut live.acc[i * nb..(i + 1) * nb], saved);
        }
        copy_lanes(&mut live.pool, &log.pools[depth * w..(depth + 1) * w]);
    }

    /// Bring the accumulators and pools up to the evaluator's last frame
    /// (`m`), with the net's kernel and form.
    #[inline]
    pub(in crate::brain::eval) fn sync(&self, m: Moves) {
        let st = &mut *self.st.borrow_mut();
        if st.synced == m.frames.len() {
            return;
        }
        let one = self.nb == 1;
        kernel::by_code!(self.kernel, self.form,
        C => if one {
            self.sync_with::<C, 1>(st, m)
        } else {
            self.sync_with::<C, 0>(st, m)
        },
        // SAFETY: a net's kernel is one this CPU has
        // (`QuantNet::with_kernel` checks `Kernel::available`).
        avx2 C => unsafe {
            if one {
                self.sync_avx2::<C, 1>(st, m)
            } else {
                self.sync_avx2::<C, 0>(st, m)
            }
        })
    }

    /// `sync_with` the AVX2 kernel (`K`: `AVX2`, with `JOINT` or not), in
    /// a function that enables AVX2.
    ///
    /// SAFETY: the CPU has AVX2.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn sync_avx2<const K: u8, const NB: usize>(&self, st: &mut St, m: Moves) {
        self.sync_with::<K, NB>(st, m);
    }

    /// `sync`'s work, frame by frame from the first one not synced: save
    /// the pools and each logged cell's accumulators, apply the cell's
    /// change, flush (a frame logs at most 41 cells, 1 + 4 · 2 · 5, below
    /// `PENDING_LIMIT`: checked). A cell's state after the last frame is
    /// its state now; after an earlier frame, the state the cell's next
    /// entry logged (or its state now): the backward pass finds them.
    #[inline(always)]
    fn sync_with<const K: u8, const NB: usize>(&self, st: &mut St, m: Moves) {
        let kern = Kern::<K, NB>::new(self.kernel, self.q.rows());
        let (w, nb) = (self.width, kern.nb());
        let St { live, log, synced } = st;
        let Moves {
            undo,
            frames,
            cells,
        } = m;
        assert!(live.pending == 0 && cells.len() == log.last.len());
        grow(&mut log.undo, undo.len() * nb);
        grow(&mut log.pools, frames.len() * w);
        let multi = *synced + 1 < frames.len();
        if multi {
            if log.stamp == u32::MAX {
                log.last.fill((0, 0));
                log.stamp = 0;
            }
            log.stamp += 1;
            let (first, stamp) = (frames[*synced].undo_len, log.stamp);
            grow(&mut log.next, undo.len());
            for (j, &(i, _)) in undo.iter().enumerate().skip(first).rev() {
                let last = &mut log.last[i as usize];
                log.next[j] = if last.0 == stamp { last.1 } else { NONE };
                *last = (stamp, j as u32);
            }
        }
        while *synced < frames.len() {
            let f = *synced;
            let start = frames[f].undo_len;
            let end = frames.get(f + 1).map_or(undo.len(), |g| g.undo_len);
            assert!(end - start < PENDING_LIMIT as usize);
            copy_lanes(&mut log.pools[f * w..(f + 1) * w], &live.pool);
            let saved = log.undo[start * nb..end * nb].chunks_exact_mut(nb);
            for (j, (&(i, ref old), saved)) in (start..).zip(undo[start..end].iter().zip(saved)) {
                let i = i as usize;
                let next = if multi { log.next[j] } else { NONE };
                let new = match next {
                    NONE => NetCell::of(&cells[i]),
                    k => NetCell::of(&undo[k as usize].1),
                };
                let acc = &mut live.acc[i * nb..(i + 1) * nb];
                copy(saved, acc);
                change(kern, acc, &mut live.delta, NetCell::of(old), new);
            }
            live.flush(kern);
            *synced = f + 1;
        }
    }

    /// The net's score for `stm` (synced first), `tempo` the position's
    /// tempo index (`joint::tempo_index`; unread in `Lines`).
    #[inline]
    pub(in crate::brain::eval) fn score(&self, stm: Color, m: Moves, tempo: usize) -> Score {
        self.sync(m);
        let st = self.st.borrow();
        assert!(st.live.pending == 0, "the pools are flushed");
        self.q.score(&st.live.pool, stm, tempo)
    }

    /// The net's logit of `stm`'s win probability (synced first; `tempo`
    /// as in `score`).
    pub(in crate::brain::eval) fn logit(&self, stm: Color, m: Moves, tempo: usize) -> f32 {
        self.sync(m);
        let st = self.st.borrow();
        assert!(st.live.pending == 0, "the pools are flushed");
        self.q.logit(&st.live.pool, stm, tempo)
    }

    /// The same pools, and the same accumulators in every cell `live`
    /// says is counted? (Both synced first, with their evaluators'
    /// moves.)
    pub(in crate::brain::eval) fn same_as(
        &self,
        m: Moves,
        other: &NetState,
        other_m: Moves,
        live: impl Fn(usize) -> bool,
    ) -> bool {
        self.sync(m);
        other.sync(other_m);
        let (a, b) = (&self.st.borrow().live, &other.st.borrow().live);
        let nb = self.nb;
        a.pending == 0
            && b.pending == 0
            && a.pool == b.pool
            && (0..a.acc.len() / nb)
                .all(|i| !live(i) || a.acc[i * nb..(i + 1) * nb] == b.acc[i * nb..(i + 1) * nb])
    }
}

#[cfg(test)]
mod tests {
    use super::super::format::random_of;
    use super::super::kernel::Kernel;
    use crate::brain::eval::{walk_step, Evaluator};
    use crate::brain::game::board::Board;
    use crate::brain::game::testutil::random_empty;
    use crate::brain::game::zobrist::SplitMix64;
    use crate::brain::types::{Color, Rule, RuleSet};

    use super::*;

    fn net(form: Form, f: usize, h: usize, seed: u64, kernel: Kernel) -> Arc<QuantNet> {
        Arc::new(QuantNet::with_kernel(&random_of(form, f, h, seed), kernel).unwrap())
    }

    /// Every rule, plain and continuous: random makes, takebacks (both
    /// through `update`) and push/pop sequences with a random net; after
    /// each step the incremental state equals one built from scratch, for
    /// every kernel, and all kernels give the same logit and score.
    #[test]
    fn incremental_equals_scratch_under_every_rule_for_every_kernel() {
        incremental_equals_scratch(Form::Lines);
    }

    /// The same with a net of the joint form.
    #[test]
    fn joint_incremental_equals_scratch_under_every_rule_for_every_kernel() {
        incremental_equals_scratch(Form::Joint);
    }

    fn incremental_equals_scratch(form: Form) {
        let kernels = Kernel::available();
        let mut checks = 0;
        for (i, rule) in Rule::ALL.into_iter().enumerate() {
            for continuous in [false, true] {
                let rules = RuleSet { rule, continuous };
                let seed = 1000 + i as u64 * 2 + continuous as u64;
                let nets: Vec<_> = kernels.iter().map(|&k| net(form, 16, 8, seed, k)).collect();
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

    /// The net lags behind the moves until a score is asked for: search
    /// like sequences of pushes and pops (one- and two-block nets, every
    /// kernel, both forms), with scores asked now and then. Frames are
    /// synced one at a time and several at once, popped synced and
    /// unsynced, and whenever a score is asked it and the state equal a
    /// fresh evaluation's.
    #[test]
    fn lazy_net_state_follows_pushes_and_pops() {
        let kernels = Kernel::available();
        let (mut multi, mut unsynced_pops, mut synced_pops, mut checks) = (0, 0, 0, 0);
        for (n, (f, form)) in [
            (16, Form::Lines),
            (40, Form::Lines),
            (16, Form::Joint),
            (40, Form::Joint),
        ]
        .into_iter()
        .enumerate()
        {
            for &k in &kernels {
                let q = net(form, f, 8, 77 + n as u64, k);
                let mut rng = SplitMix64::new(5 + n as u64);
                let mut b = Board::square(15, RuleSet::from(Rule::Renju)).unwrap();
                let mut ev = Evaluator::with_net(&b, q.clone());
                let mut depth = 0;
                let lag = |ev: &Evaluator| {
                    let synced = ev.net.as_ref().unwrap().st.borrow().synced;
                    ev.frames.len() - synced
                };
                for step in 0..600 {
                    let r = rng.below(10);
                    let pop = depth > 0 && (r < 4 || depth >= 8 || b.empty_cells().count() < 20);
                    if pop {
                        match lag(&ev) {
                            0 => synced_pops += 1,
                            _ => unsynced_pops += 1,
                        }
                    }
                    walk_step(&mut rng, &mut b, &mut ev, &mut depth, pop);
                    if rng.below(3) == 0 {
                        if lag(&ev) > 1 {
                            multi += 1;
                        }
                        let c = [Color::Black, Color::White][step % 2];
                        let fresh = Evaluator::with_net(&b, q.clone());
                        assert_eq!(ev.evaluate(c), fresh.evaluate(c), "{k:?} f={f}\n{b}");
                        assert_eq!(lag(&ev), 0);
                        if step % 4 == 0 {
                            assert!(ev.same_as(&fresh), "{k:?} f={f}\n{b}");
                        }
                        checks += 1;
                    }
                }
            }
        }
        let runs = 4 * kernels.len();
        assert!(checks > 150 * runs, "{checks}");
        assert!(multi > 20 * runs, "{multi}");
        assert!(unsynced_pops > 50 * runs && synced_pops > 50 * runs);
    }
}
