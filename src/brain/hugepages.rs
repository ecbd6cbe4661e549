//! Large lookup tables on 2 MiB pages where the operating system grants
//! them. The search reads the transposition table, the pattern tables and
//! the evaluator's combination tables at random: with 4 KiB pages nearly
//! every such read also misses the TLB. Linux gives transparent huge pages
//! to memory that asks for them (`madvise(MADV_HUGEPAGE)`; most
//! distributions set THP to `madvise`), which `advise` does before the
//! memory is first written. Elsewhere, or when the kernel refuses, nothing
//! changes but the speed: the memory's contents never depend on it.
//!
//! Measured (README, "Sente 0.8.2"): `bench 11` with a game-sized table
//! (160 MB) searched 1.10 M nodes/s on 4 KiB pages and 1.17 M with the
//! table on huge pages, six alternating runs each, every run faster;
//! `pbrain-sente bench pages` repeats that comparison in one build.

/// The huge page size asked for.
pub const HUGE_PAGE: usize = 2 << 20;

/// Whether `advise` asks at all (on unless `set_enabled(false)`: for
/// `bench pages`, which times the same build both ways).
static ENABLED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(true);

/// Does `advise` ask for huge pages now?
pub fn enabled() -> bool {
    ENABLED.load(std::sync::atomic::Ordering::Relaxed)
}

/// Let `advise` ask for huge pages (the default), or make it do nothing.
/// Memory already advised keeps its pages.
pub fn set_enabled(on: bool) {
    ENABLED.store(on, std::sync::atomic::Ordering::Relaxed);
}

/// Ask that the memory under `s`, from its first to its last whole page,
/// be backed by huge pages. Best done before the memory is first written
/// (a written page is only merged later, if at all). A no-op off Linux.
pub fn advise<T>(s: &mut [T]) {
    #[cfg(target_os = "linux")]
    if enabled() {
        const PAGE: usize = 4096;
        const MADV_HUGEPAGE: i32 = 14;
        extern "C" {
            fn madvise(addr: *mut u8, len: usize, advice: i32) -> i32;
        }
        let addr = s.as_mut_ptr() as usize;
        let start = addr.next_multiple_of(PAGE);
        let end = (addr + std::mem::size_of_val(s)) / PAGE * PAGE;
        if end >= start + HUGE_PAGE {
            // SAFETY: `madvise` is the C library's (std links it on every
            // Linux target) with the signature declared above. The range
            // [start, end) is page-aligned, as the call requires, and lies
            // inside the allocation behind `s`, which we hold mutably for
            // the call's duration. MADV_HUGEPAGE only chooses how the
            // kernel backs those pages: it never changes their contents,
            // unmaps them or makes them fault, so every Rust reference
            // into the range stays valid. A failure (-1: old kernel, THP
            // off) leaves the memory as it was, hence the ignored result.
            let _ = unsafe { madvise(start as *mut u8, end - start, MADV_HUGEPAGE) };
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = s;
}

/// A zero-filled table of `len` elements of a plain-number type that
/// starts on a huge-page boundary, with huge pages asked for (`advise`)
/// before anything is written. It over-allocates by one huge page of
/// address space: zero-filled allocations this large are fresh mappings,
/// so the part before the aligned start is never touched and takes no
/// memory.
pub struct HugeTable<T> {
    buf: Vec<T>,
    start: usize,
    len: usize,
}

impl<T: Copy + Default> HugeTable<T> {
    /// A table of `len` zero (default) elements.
    pub fn zeroed(len: usize) -> HugeTable<T> {
        let size = std::mem::size_of::<T>().max(1);
        let extra = HUGE_PAGE / size;
        let mut buf = vec![T::default(); len + extra];
        let addr = buf.as_ptr() as usize;
        let start = (addr.next_multiple_of(HUGE_PAGE) - addr) / size;
        let start = start.min(extra);
        advise(&mut buf[start..start + len]);
        HugeTable { buf, start, len }
    }
}

impl<T> std::ops::Deref for HugeTable<T> {
    type Target = [T];
    #[inline(always)]
    fn deref(&self) -> &[T] {
        &self.buf[self.start..self.start + self.len]
    }
}

impl<T> std::ops::DerefMut for HugeTable<T> {
    #[inline(always)]
    fn deref_mut(&mut self) -> &mut [T] {
        &mut self.buf[self.start..self.start + self.len]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn huge_tables_are_zeroed_aligned_and_writable() {
        for len in [0usize, 1, 1000, 3 << 20] {
            let mut t: HugeTable<u64> = HugeTable::zeroed(len);
            assert_eq!(t.len(), len);
            assert!(t.iter().all(|&x| x == 0));
            if len > 0 {
                assert_eq!(t.as_ptr() as usize % HUGE_PAGE, 0, "{len}");
                t[0] = 5;
                t[len - 1] += 7;
                assert_eq!(t[len - 1], if len == 1 { 12 } else { 7 });
                assert_eq!(t.iter().map(|&x| x as usize).sum::<usize>(), 12);
            }
        }
        let b: HugeTable<u8> = HugeTable::zeroed(HUGE_PAGE + 3);
        assert_eq!(b.as_ptr() as usize % HUGE_PAGE, 0);
        assert_eq!(b.len(), HUGE_PAGE + 3);
    }

    #[test]
    fn advice_never_changes_contents() {
        let mut v: Vec<u32> = (0..(3 << 20) as u32).collect();
        advise(&mut v);
        advise(&mut v[5..7]);
        assert!(v.iter().enumerate().all(|(i, &x)| x == i as u32));
    }
}
