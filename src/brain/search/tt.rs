//! Transposition table: 64-byte buckets of four 16-byte entries, indexed by
//! the board's Zobrist key (side to move included). Entries carry the full
//! 64-bit key as check, depth, bound, score (mate scores stored relative to the node,
//! so they stay right wherever the position recurs), best move and the
//! search generation; replacement prefers keeping deep and current entries.
//!
//! The table is shared by the search threads (Lazy SMP) without locks: every
//! word is an `AtomicU64` read and written with relaxed ordering, and the key
//! word is stored XORed with the data word, so an entry torn by two threads
//! writing at once fails the key check and reads as a miss.
//!
//! Memory: the table gets half of what `max_memory` leaves after a 40 MB
//! reserve (default 350 MB in all: a 155 MB table), less 4 MB for each helper
//! thread. Every page of a new table is written when it is built, so the
//! operating system maps the pages then (left to page faults, they made a
//! fresh process's first search a third slower). Mapping a large table takes
//! 50–800 ms on a loaded machine, and managers start the clock without
//! waiting for START or INFO to be dealt with, so the engine's tables are
//! built off the protocol thread (`PendingTt`, started when no command is
//! waiting): the searcher holds a small table (`FIRST_TT_BYTES`) until the
//! full one is ready, and the old table is freed before the new one is
//! built, so the two never add up. On Linux it asks for transparent huge pages
//! (`crate::brain::hugepages::advise`, before its first write): with 4 KiB pages
//! nearly every probe of a large table also misses the TLB. Where the kernel
//! gives none (THP off, other systems) nothing changes but the speed; the
//! memory used is the same. `Tt::prefetch` hints the bucket of a position
//! about to be searched into the cache. `YXHASHCLEAR` clears the table.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::sync::Arc;
use std::thread::JoinHandle;

use crate::brain::game::Pos;
use crate::brain::types::{Depth, Score, MATE_BOUND, ONE_PLY};

use super::params;

/// How a stored score bounds the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// Score is an upper bound (fail low).
    Upper = 1,
    /// Score is a lower bound (fail high).
    Lower = 2,
    Exact = 3,
}

impl Bound {
    /// What a search of the window (`alpha`, `beta`) that returned `score`
    /// knows: at least it at or above beta, exactly it above alpha, at
    /// most it otherwise.
    #[inline]
    pub fn of(score: Score, alpha: Score, beta: Score) -> Bound {
        if score >= beta {
            Bound::Lower
        } else if score > alpha {
            Bound::Exact
        } else {
            Bound::Upper
        }
    }
}

/// Entries per 64-byte bucket: each is two words, the full key and the data
/// (move 16 bits, score 16, depth 16 in `Depth` units, generation 6 +
/// bound 2).
const ENTRIES: usize = 4;

/// A bucket: per entry the key word (key check XOR data) and the data word.
type Bucket = [AtomicU64; 2 * ENTRIES];

const _: () = assert!(std::mem::size_of::<Bucket>() == 64);

/// What a probe found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hit {
    pub mv: Pos,
    pub score: Score,
    pub depth: Depth,
    pub bound: Bound,
}

impl Hit {
    /// Whether the entry's bound settles the window (`alpha`, `beta`)
    /// (depth aside: the caller decides whether the entry is deep enough).
    #[inline]
    pub fn settles(&self, alpha: Score, beta: Score) -> bool {
        match self.bound {
            Bound::Exact => true,
            Bound::Lower => self.score >= beta,
            Bound::Upper => self.score <= alpha,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Data {
    mv: u16,
    score: i16,
    depth: u16,
    gen_bound: u8,
}

impl Data {
    #[inline]
    fn unpack(w: u64) -> Data {
        Data {
            mv: w as u16,
            score: (w >> 16) as u16 as i16,
            depth: (w >> 32) as u16,
            gen_bound: (w >> 48) as u8,
        }
    }

    #[inline]
    fn pack(self) -> u64 {
        self.mv as u64
            | (self.score as u16 as u64) << 16
            | (self.depth as u64) << 32
            | (self.gen_bound as u64) << 48
    }

    #[inline]
    fn used(self) -> bool {
        self.gen_bound & 3 != 0
    }

    #[inline]
    fn generation(self) -> u8 {
        self.gen_bound >> 2
    }
}

pub struct Tt {
    buckets: Vec<Bucket>,
    generation: u8,
}

/// Mate scores are stored as distance from the node, not from the root.
#[inline]
pub fn to_tt(score: Score, ply: usize) -> Score {
    if score >= MATE_BOUND {
        score + ply as Score
    } else if score <= -MATE_BOUND {
        score - ply as Score
    } else {
        score
    }
}

#[inline]
pub fn from_tt(score: Score, ply: usize) -> Score {
    if score >= MATE_BOUND {
        score - ply as Score
    } else if score <= -MATE_BOUND {
        score + ply as Score
    } else {
        score
    }
}

impl Tt {
    /// A table of about `bytes` (at least one bucket), its pages not yet
    /// mapped.
    fn unmapped(bytes: usize) -> Tt {
        let n = (bytes / std::mem::size_of::<Bucket>()).max(1);
        // All-zero words: in release builds this compiles to a zeroed
        // allocation (cheap: the pages are mapped at the first touch, which
        // `prefault` then does for all of them).
        let mut buckets = Vec::with_capacity(n);
        buckets.resize_with(n, Bucket::default);
        // Huge pages before the first write (`prefault`): most probes miss
        // the TLB otherwise (`hugepages`).
        crate::brain::hugepages::advise(&mut buckets);
        Tt {
            buckets,
            generation: 0,
        }
    }

    /// A table of about `bytes` with every page mapped (`prefault`).
    pub fn new(bytes: usize) -> Tt {
        let tt = Tt::unmapped(bytes);
        tt.prefault(&AtomicBool::new(false), false);
        tt
    }

    /// Write one word of every page of a new (all-zero) table, so that the
    /// operating system maps the pages now (the table is built on START and
    /// INFO max_memory, off the move clock) rather than one page fault at a
    /// time inside the first searches: with a fresh 155 MB table the first
    /// 500 ms search ran about a third slower. The word is written with 0,
    /// the value it has; `black_box` keeps the compiler from dropping a
    /// store it could prove redundant (a read alone would map the shared
    /// zero page and fault again at the first real write). Returns false,
    /// leaving the rest unmapped, as soon as `cancel` is seen set; with
    /// `throttle`, pausing now and then.
    fn prefault(&self, cancel: &AtomicBool, throttle: bool) -> bool {
        const PAGE: usize = 4096;
        let step = (PAGE / std::mem::size_of::<Bucket>()).max(1);
        for (i, b) in self.buckets.iter().step_by(step).enumerate() {
            if i % 64 == 0 && cancel.load(Relaxed) {
                return false;
            }
            // Off the protocol thread (`PendingTt`) the build runs beside a
            // search: a pause of 1 ms every 2 MB leaves it the processor
            // on a busy machine (a 1 GB table takes about 0.5 s longer).
            if throttle && i % 512 == 511 {
                std::thread::sleep(std::time::Duration::from_millis(1));
            }
            std::hint::black_box(&b[0]).store(0, Relaxed);
        }
        true
    }

    pub fn bytes(&self) -> usize {
        self.buckets.len() * std::mem::size_of::<Bucket>()
    }

    /// Forget everything (YXHASHCLEAR, new game).
    pub fn clear(&mut self) {
        for b in self.buckets.iter_mut() {
            for w in b.iter_mut() {
                *w.get_mut() = 0;
            }
        }
        self.generation = 0;
    }

    /// Start a new search: older entries become cheaper to replace.
    pub fn new_search(&mut self) {
        self.generation = (self.generation + 1) & 63;
    }

    #[inline]
    fn index(&self, key: u64) -> usize {
        ((key as u128 * self.buckets.len() as u128) >> 64) as usize
    }

    /// The key as stored: never 0, so an empty slot never matches.
    #[inline]
    fn check(key: u64) -> u64 {
        key | 1
    }

    /// Entry `i` of bucket `b` as (stored key check, data), or None when
    /// the slot is empty or torn.
    #[inline]
    fn entry(b: &Bucket, i: usize) -> (u64, Data) {
        let d = b[2 * i + 1].load(Relaxed);
        (b[2 * i].load(Relaxed) ^ d, Data::unpack(d))
    }

    /// Ask the processor to start loading the bucket of `key` into the
    /// cache: the search calls it right after a move changes the key, so the
    /// load runs while the evaluation is updated and the probe at the child
    /// finds the bucket cached (the table is far larger than the caches, so
    /// a probe otherwise waits on memory). Only a hint: nothing is read or
    /// written, and on other architectures it does nothing.
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            let bucket: *const Bucket = &self.buckets[self.index(key)];
            // SAFETY: `_mm_prefetch` needs the `sse` target feature, which
            // every x86_64 processor has (it is part of the x86_64 baseline
            // that rustc always enables for this architecture). The
            // instruction is a hint that never faults and never changes
            // memory, and `bucket` points into the table's live allocation
            // (`index` is below `buckets.len()`, and the slice index checks
            // it), so no memory-safety condition is involved.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(bucket.cast::<i8>()) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    pub fn probe(&self, key: u64, ply: usize) -> Option<Hit> {
        let check = Self::check(key);
        let b = &self.buckets[self.index(key)];
        for i in 0..ENTRIES {
            let (k, d) = Self::entry(b, i);
            if k == check && d.used() {
                let bound = match d.gen_bound & 3 {
                    1 => Bound::Upper,
                    2 => Bound::Lower,
                    _ => Bound::Exact,
                };
                return Some(Hit {
                    mv: Pos(d.mv),
                    score: from_tt(d.score as Score, ply),
                    depth: d.depth as Depth,
                    bound,
                });
            }
        }
        None
    }

    pub fn store(&self, key: u64, ply: usize, depth: Depth, score: Score, bound: Bound, mv: Pos) {
        let check = Self::check(key);
        let generation = self.generation;
        let b = &self.buckets[self.index(key)];
        // Same position: overwrite unless the old entry is much deeper and current.
        let mut slot = None;
        for i in 0..ENTRIES {
            let (k, d) = Self::entry(b, i);
            if k == check && d.used() {
                slot = Some((i, d));
                break;
            }
        }
        let (i, old) = match slot {
            Some((i, e)) => {
                if e.generation() == generation
                    && bound != Bound::Exact
                    && (e.depth as Depth) > depth + params::TT_KEEP_DEPTH_MARGIN() * ONE_PLY
                {
                    return;
                }
                (i, e)
            }
            None => {
                // Victim: an empty slot, else the shallowest, older generations first.
                let mut best = 0;
                let mut best_val = i32::MAX;
                for i in 0..ENTRIES {
                    let e = Data::unpack(b[2 * i + 1].load(Relaxed));
                    if !e.used() {
                        best = i;
                        break;
                    }
                    let age = ((generation as i32 - e.generation() as i32) + 64) & 63;
                    let val = e.depth as Depth - params::TT_AGE_WEIGHT() * ONE_PLY * age;
                    if val < best_val {
                        best_val = val;
                        best = i;
                    }
                }
                (best, Data::unpack(0))
            }
        };
        let keep_move = slot.is_some() && mv.is_none();
        let d = Data {
            mv: if keep_move { old.mv } else { mv.0 },
            score: to_tt(score, ply).clamp(i16::MIN as Score, i16::MAX as Score) as i16,
            depth: depth.clamp(0, u16::MAX as Depth) as u16,
            gen_bound: (generation << 2) | bound as u8,
        }
        .pack();
        b[2 * i].store(check ^ d, Relaxed);
        b[2 * i + 1].store(d, Relaxed);
    }

    /// Per mille of the first 1000 buckets' slots holding current entries.
    pub fn hashfull(&self) -> u32 {
        let n = self.buckets.len().min(1000);
        let used: usize = self.buckets[..n]
            .iter()
            .map(|b| {
                (0..ENTRIES)
                    .filter(|&i| {
                        let d = Data::unpack(b[2 * i + 1].load(Relaxed));
                        d.used() && d.generation() == self.generation
                    })
                    .count()
            })
            .sum();
        (used * 1000 / (n * ENTRIES)) as u32
    }
}

/// The table a searcher holds while its full one is being built
/// (`PendingTt`): small enough to build at once (a few ms), large enough
/// for a first move's search.
pub const FIRST_TT_BYTES: usize = 16 << 20;

/// A table being built (allocated and every page mapped, throttled) on a
/// thread of its own, so that neither START nor `INFO max_memory` nor the
/// first move waits for it. Dropping it stops the build and waits for the thread to free
/// what it had mapped (a few ms at most: it checks every 256 KiB), so a
/// table built after it never shares the memory budget with it.
pub struct PendingTt {
    bytes: usize,
    cancel: Arc<AtomicBool>,
    handle: Option<JoinHandle<Option<Tt>>>,
}

impl PendingTt {
    /// Start building a table of about `bytes`. None when no thread could
    /// be started (the caller builds it in place).
    pub fn start(bytes: usize) -> Option<PendingTt> {
        let cancel = Arc::new(AtomicBool::new(false));
        let flag = cancel.clone();
        let handle = std::thread::Builder::new()
            .name("tt-build".into())
            .spawn(move || {
                let tt = Tt::unmapped(bytes);
                tt.prefault(&flag, true).then_some(tt)
            });
        match handle {
            Ok(h) => Some(PendingTt {
                bytes,
                cancel,
                handle: Some(h),
            }),
            Err(e) => {
                log::warn!("could not start the table builder: {e}");
                None
            }
        }
    }

    /// The size asked for.
    pub fn bytes(&self) -> usize {
        self.bytes
    }

    /// Has the build finished (`take` will not wait)?
    pub fn is_ready(&self) -> bool {
        self.handle.as_ref().is_none_or(|h| h.is_finished())
    }

    /// The built table, waiting for it if need be (None only if the build
    /// thread panicked).
    pub fn take(mut self) -> Option<Tt> {
        let h = self.handle.take()?;
        h.join().ok().flatten()
    }
}

impl Drop for PendingTt {
    fn drop(&mut self) {
        if let Some(h) = self.handle.take() {
            self.cancel.store(true, Relaxed);
            // Whatever it built is freed before this returns.
            let _ = h.join();
        }
    }
}

// ---- Memory sizing: how much of the process budget the table gets ----

/// Memory assumed when the manager gives none (Gomocup default: 350 MB).
pub const DEFAULT_MEMORY: usize = 350 << 20;
/// Memory kept aside for everything but the table (pattern tables, board,
/// buffers, the main thread's net score cache, the protocol).
pub(crate) const RESERVED_MEMORY: usize = 40 << 20;
/// Largest table we allocate, whatever the budget.
const MAX_TT_BYTES: usize = 1 << 30;
/// Bytes of transposition table for a whole-process memory budget.
pub fn tt_bytes_for(memory_bytes: usize) -> usize {
    tt_bytes_for_threads(memory_bytes, 1)
}

/// The whole-process memory budget in force: `memory_bytes`, or the 350 MB
/// Gomocup default when it is 0 (no limit given).
pub fn budget_of(memory_bytes: usize) -> usize {
    if memory_bytes == 0 {
        DEFAULT_MEMORY
    } else {
        memory_bytes
    }
}

/// Bytes of transposition table for a memory budget shared with
/// `threads` − 1 helper threads, each counted as `params::HELPER_BYTES`.
pub fn tt_bytes_for_threads(memory_bytes: usize, threads: usize) -> usize {
    let helpers = threads
        .saturating_sub(1)
        .saturating_mul(params::HELPER_BYTES);
    (budget_of(memory_bytes)
        .saturating_sub(RESERVED_MEMORY)
        .saturating_sub(helpers)
        / 2)
    .clamp(64 << 10, MAX_TT_BYTES)
}

/// The most search threads a memory budget allows: helpers may take at
/// most half of what is left after the reserve (the table keeps the rest),
/// so under 48 MB there is room for none.
pub fn threads_for_memory(memory_bytes: usize) -> usize {
    let spare = budget_of(memory_bytes).saturating_sub(RESERVED_MEMORY) / 2;
    (1 + spare / params::HELPER_BYTES).min(params::MAX_THREADS)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::brain::types::{mate_in, mated_in};

    #[test]
    fn prefetch_takes_any_key_and_changes_nothing() {
        // One bucket and a larger table: every key maps inside (the slice
        // index would panic otherwise), and a prefetch leaves entries as
        // they were.
        for bytes in [0, 1 << 16] {
            let tt = Tt::new(bytes);
            tt.store(42, 0, 3, 7, Bound::Exact, Pos(5));
            for key in [0, 1, 42, u64::MAX, 0x9e37_79b9_7f4a_7c15] {
                tt.prefetch(key);
            }
            let hit = tt.probe(42, 0).expect("stored entry");
            assert_eq!((hit.depth, hit.score, hit.mv), (3, 7, Pos(5)));
        }
    }

    #[test]
    fn a_table_built_in_the_background_is_empty_and_whole() {
        let p = PendingTt::start(1 << 20).expect("a builder thread");
        assert_eq!(p.bytes(), 1 << 20);
        let tt = p.take().expect("the built table");
        assert_eq!(tt.bytes(), 1 << 20);
        assert!(tt.probe(12345, 0).is_none());
        tt.store(12345, 0, 3, 9, Bound::Lower, Pos(4));
        assert_eq!(tt.probe(12345, 0).map(|h| h.score), Some(9));
        // Dropped unfinished: the build stops and the drop returns.
        drop(PendingTt::start(64 << 20).expect("a builder thread"));
    }

    #[test]
    fn prefault_stops_when_cancelled() {
        let tt = Tt::unmapped(1 << 20);
        assert!(!tt.prefault(&AtomicBool::new(true), false));
        assert!(tt.prefault(&AtomicBool::new(false), true));
    }

    #[test]
    fn store_and_probe_round_trip() {
        let mut tt = Tt::new(1 << 16);
        tt.store(0xdead_beef_1234_5678, 3, 7, 42, Bound::Exact, Pos(99));
        let h = tt.probe(0xdead_beef_1234_5678, 3).unwrap();
        assert_eq!(h.mv, Pos(99));
        assert_eq!(h.score, 42);
        assert_eq!(h.depth, 7);
        assert_eq!(h.bound, Bound::Exact);
        assert!(tt.probe(0x1111_2222_3333_4444, 0).is_none());
        tt.clear();
        assert!(tt.probe(0xdead_beef_1234_5678, 3).is_none());
    }

    #[test]
    fn mate_scores_are_ply_adjusted() {
        let tt = Tt::new(1 << 16);
        // Win found 9 plies from the root at a node of ply 4: 5 plies from the node.
        tt.store(77, 4, 5, mate_in(9), Bound::Lower, Pos::NONE);
        // Reached again at ply 2 it is a win in 7 from the root.
        assert_eq!(tt.probe(77, 2).unwrap().score, mate_in(7));
        tt.store(78, 4, 5, mated_in(10), Bound::Upper, Pos::NONE);
        assert_eq!(tt.probe(78, 6).unwrap().score, mated_in(12));
    }

    #[test]
    fn replacement_keeps_deep_current_entries() {
        // A single bucket: every key collides.
        let mut tt = Tt::new(64);
        tt.store(1 << 20, 0, 30, 1, Bound::Exact, Pos(5));
        for k in 2..40u64 {
            tt.store(k << 20, 0, 1, 0, Bound::Exact, Pos(6));
        }
        assert_eq!(tt.probe(1 << 20, 0).unwrap().depth, 30);
        // Old generations give way.
        for _ in 0..10 {
            tt.new_search();
        }
        for k in 40..50u64 {
            tt.store(k << 20, 0, 1, 0, Bound::Exact, Pos(6));
        }
        assert!(tt.probe(1 << 20, 0).is_none());
    }

    #[test]
    fn same_key_keeps_move_when_new_has_none() {
        let tt = Tt::new(1 << 12);
        tt.store(5 << 30, 0, 4, 10, Bound::Lower, Pos(33));
        tt.store(5 << 30, 0, 5, 12, Bound::Upper, Pos::NONE);
        let h = tt.probe(5 << 30, 0).unwrap();
        assert_eq!(h.mv, Pos(33));
        assert_eq!(h.depth, 5);
    }

    #[test]
    fn threads_sharing_the_table_never_read_a_torn_entry() {
        // Four threads hammer the same 4 buckets with entries whose data is
        // derived from the key; any hit must carry the data of its own key.
        let tt = Tt::new(4 * 64);
        let data_of = |k: u64| (Pos((k % 1000) as u16), (k % 97) as Score, (k % 50) as i32);
        std::thread::scope(|s| {
            for t in 0..4u64 {
                let tt = &tt;
                s.spawn(move || {
                    let mut x = 0x9e37_79b9_7f4a_7c15u64.wrapping_mul(t + 1);
                    for _ in 0..200_000 {
                        x ^= x << 13;
                        x ^= x >> 7;
                        x ^= x << 17;
                        let k = x % 64 + 1; // few keys, many collisions
                        let key = k.wrapping_mul(0x2545_f491_4f6c_dd1d);
                        let (mv, score, depth) = data_of(k);
                        if x & 1 == 0 {
                            tt.store(key, 0, depth, score, Bound::Exact, mv);
                        } else if let Some(h) = tt.probe(key, 0) {
                            assert_eq!((h.mv, h.score, h.depth), (mv, score, depth), "key {k}");
                        }
                    }
                });
            }
        });
    }
}
