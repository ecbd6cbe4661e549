//! The learned evaluation ("net"): its form, its weights file, and the float
//! reference forward pass that the trainer and the tests use.
//!
//! For every empty cell `p` and each colour `c` ("own" = `c`, "opp" = the
//! other) six keys pick rows of one embedding table of `rows()` rows:
//! per direction `d` the pair of line nibbles the evaluator keeps
//! (`own_nibble * 12 + opp_nibble`, a nibble being the `Pattern` 0..=10 or
//! 11 for a double four on one line), then the cell's threat class for `c`
//! and for the other colour. Under renju Black's forbidden cells have the
//! class `Forbidden`, so the net sees them: that is how renju is respected.
//!
//! `acc_c(p) = bias + Σ six rows` (F floats), `h_c(p) = clamp(acc, 0, 1)`,
//! `pool_c = Σ_p h_c(p) / POOL_DIV`; then `x = [pool_stm, pool_opp]`,
//! `z = clamp(W1·x + b1, 0, 1)` (H units) and `out = w2·z + b2`, the logit
//! of the side to move's win probability. The engine's score is
//! `round(out · k)` (`k` in the weights file: the classical evaluation's
//! sigmoid scale, so search margins keep their meaning), within
//! `EVAL_LIMIT`.
//!
//! The engine's integer inference, kept incrementally, is in `eval::netq`;
//! this file is the definition it must agree with (`forward_f32`).

use anyhow::{bail, ensure, Result};

use super::weights::{Class, CLASSES, EVAL_LIMIT};
use super::Evaluator;
use crate::brain::game::board::{Board, Pos};
use crate::brain::game::zobrist::SplitMix64;
use crate::brain::types::{Color, Score};

/// Values a line nibble takes (`Pattern` 0..=10, 11 = double four).
pub const NIBBLES: usize = 12;

/// Rows keyed by one direction's pair of nibbles (own, opp).
pub const LINE_KEYS: usize = NIBBLES * NIBBLES;

/// The pooled sums are divided by this (so a board's ~200 empty cells give
/// inputs of order one).
pub const POOL_DIV: f32 = 32.0;

/// Keys per cell and colour: four directions and two classes.
pub const KEYS_PER_CELL: usize = 6;

/// Rows of the embedding table: the line keys, then the own class, then
/// the opponent's class.
pub const ROWS: usize = LINE_KEYS + 2 * CLASSES;

/// Every key a `KeyChange` can hold is below this: line keys come from
/// 4-bit nibbles (at most `15 · 12 + 15`), class keys from `Class` (below
/// `ROWS`). The quantized table has this many rows, the ones past `ROWS`
/// zero, so its kernels read rows without a bounds check.
pub const KEY_SPACE: usize = 15 * NIBBLES + 16;
const _: () = assert!(ROWS <= KEY_SPACE);

/// Rows of the embedding table (`ROWS`).
pub const fn rows() -> usize {
    ROWS
}

/// The six embedding rows of the empty cell `p` seen from `own`: per
/// direction `own_nibble * 12 + opp_nibble`, then `LINE_KEYS + class(own)`
/// and `LINE_KEYS + CLASSES + class(opp)`. Meaningful for empty cells only.
#[inline]
pub fn cell_keys(ev: &Evaluator, p: Pos, own: Color) -> [u16; KEYS_PER_CELL] {
    let c = &ev.cells[p.idx()];
    keys_both(c.code, c.class.map(|k| k as usize))[own.index()]
}

/// `cell_keys` of both colours (`[black, white]`) from a cell's codes
/// (four nibbles per colour) and classes, in one pass.
#[inline(always)]
pub(super) fn keys_both(code: [u16; 2], class: [usize; 2]) -> [[u16; KEYS_PER_CELL]; 2] {
    let mut k = [[0u16; KEYS_PER_CELL]; 2];
    let [kb, kw] = &mut k;
    for (d, (b, w)) in kb.iter_mut().zip(kw.iter_mut()).take(4).enumerate() {
        let (x, y) = ((code[0] >> (4 * d)) & 15, (code[1] >> (4 * d)) & 15);
        *b = x * NIBBLES as u16 + y;
        *w = y * NIBBLES as u16 + x;
    }
    kb[4] = (LINE_KEYS + class[0]) as u16;
    kb[5] = (LINE_KEYS + CLASSES + class[1]) as u16;
    kw[4] = (LINE_KEYS + class[1]) as u16;
    kw[5] = (LINE_KEYS + CLASSES + class[0]) as u16;
    k
}

/// How a cell's six keys per colour change: a cell joining the pool
/// (`fresh`: all six keys in `adds`) or a counted cell whose keys `subs[..n]`
/// become `adds[..n]` (the same count for both colours: a direction's pair
/// of nibbles keys both, and each class keys one row of each colour).
/// Its fields are private: every key in one is below `KEY_SPACE`, and
/// `n` at most `KEYS_PER_CELL`, by construction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct KeyChange {
    fresh: bool,
    n: usize,
    subs: [[u16; KEYS_PER_CELL]; 2],
    adds: [[u16; KEYS_PER_CELL]; 2],
}

/// A cell's line codes and classes.
pub(super) type CellState = ([u16; 2], [Class; 2]);

impl KeyChange {
    /// (fresh, n, rows to take out, rows to add).
    #[inline(always)]
    #[allow(clippy::type_complexity)]
    pub fn parts(
        &self,
    ) -> (
        bool,
        usize,
        &[[u16; KEYS_PER_CELL]; 2],
        &[[u16; KEYS_PER_CELL]; 2],
    ) {
        (self.fresh, self.n, &self.subs, &self.adds)
    }

    /// Any change, for tests of the kernels (keys below `ROWS`, checked).
    #[cfg(test)]
    pub fn raw(
        fresh: bool,
        n: usize,
        subs: [[u16; KEYS_PER_CELL]; 2],
        adds: [[u16; KEYS_PER_CELL]; 2],
    ) -> KeyChange {
        assert!(n <= KEYS_PER_CELL);
        assert!(subs
            .iter()
            .chain(&adds)
            .flatten()
            .all(|&k| (k as usize) < ROWS));
        KeyChange {
            fresh,
            n,
            subs,
            adds,
        }
    }

    /// A cell joining the pool with these codes and classes.
    #[inline(always)]
    pub fn fresh((code, class): CellState) -> KeyChange {
        let class = class.map(|k| k as usize);
        KeyChange {
            fresh: true,
            n: KEYS_PER_CELL,
            subs: [[0; KEYS_PER_CELL]; 2],
            adds: keys_both(code, class),
        }
    }

    /// A counted cell going from `(code, class)` `old` to `new`: only the
    /// keys that differ (a changed direction, a changed class).
    #[inline(always)]
    pub fn between(old: CellState, new: CellState) -> KeyChange {
        let mut c = KeyChange {
            fresh: false,
            n: 0,
            subs: [[0; KEYS_PER_CELL]; 2],
            adds: [[0; KEYS_PER_CELL]; 2],
        };
        let ((oc, ok), (nc, nk)) = (old, new);
        let (ok, nk) = (ok.map(|k| k as usize), nk.map(|k| k as usize));
        let moved = (oc[0] ^ nc[0]) | (oc[1] ^ nc[1]);
        let pair = |code: [u16; 2], d: usize| {
            let (x, y) = ((code[0] >> (4 * d)) & 15, (code[1] >> (4 * d)) & 15);
            [x * NIBBLES as u16 + y, y * NIBBLES as u16 + x]
        };
        let mut push = |sub: [u16; 2], add: [u16; 2]| {
            for side in 0..2 {
                c.subs[side][c.n] = sub[side];
                c.adds[side][c.n] = add[side];
            }
            c.n += 1;
        };
        for d in 0..4 {
            if (moved >> (4 * d)) & 15 != 0 {
                push(pair(oc, d), pair(nc, d));
            }
        }
        let own = |k: [usize; 2], side: usize| (LINE_KEYS + k[side]) as u16;
        let opp = |k: [usize; 2], side: usize| (LINE_KEYS + CLASSES + k[1 - side]) as u16;
        if ok[0] != nk[0] {
            // Black's class: Black's own row, White's opponent row.
            push([own(ok, 0), opp(ok, 1)], [own(nk, 0), opp(nk, 1)]);
        }
        if ok[1] != nk[1] {
            push([opp(ok, 0), own(ok, 1)], [opp(nk, 0), own(nk, 1)]);
        }
        c
    }
}

/// The network's weights, in floats (what the trainer writes and the
/// engine quantizes at load).
#[derive(Clone, Debug, PartialEq)]
pub struct NetWeights {
    /// Features per cell and colour.
    pub f: usize,
    /// Hidden units of the head.
    pub h: usize,
    /// Score units per logit.
    pub k: f32,
    /// `rows() × f`, row-major.
    pub embed: Vec<f32>,
    /// `f`.
    pub bias: Vec<f32>,
    /// `h × 2f`, row-major; inputs `[pool_stm, pool_opp]`.
    pub w1: Vec<f32>,
    /// `h`.
    pub b1: Vec<f32>,
    /// `h`.
    pub w2: Vec<f32>,
    pub b2: f32,
}

/// The file's first four bytes.
pub const MAGIC: &[u8; 4] = b"SNET";
/// Format version written by `to_bytes`.
pub const VERSION: u32 = 1;
/// Largest `f` and `h` a file may declare (a few MB at most).
pub const MAX_DIM: usize = 1024;

/// FNV-1a, 64 bits: the file's checksum.
fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

impl NetWeights {
    /// All zeros (outputs `b2` = 0 everywhere), with dimensions `f`, `h`.
    pub fn zeros(f: usize, h: usize, k: f32) -> NetWeights {
        NetWeights {
            f,
            h,
            k,
            embed: vec![0.0; ROWS * f],
            bias: vec![0.0; f],
            w1: vec![0.0; h * 2 * f],
            b1: vec![0.0; h],
            w2: vec![0.0; h],
            b2: 0.0,
        }
    }

    /// Do the vectors have the lengths the dimensions say, and are the
    /// dimensions within bounds and the numbers finite?
    pub fn check(&self) -> Result<()> {
        let (f, h) = (self.f, self.h);
        ensure!(
            (1..=MAX_DIM).contains(&f) && (1..=MAX_DIM).contains(&h),
            "net dimensions f={f} h={h} out of 1..={MAX_DIM}"
        );
        ensure!(self.embed.len() == ROWS * f, "embed length");
        ensure!(self.bias.len() == f, "bias length");
        ensure!(self.w1.len() == h * 2 * f, "w1 length");
        ensure!(self.b1.len() == h && self.w2.len() == h, "b1/w2 length");
        let all = [&self.embed, &self.bias, &self.w1, &self.b1, &self.w2];
        ensure!(
            all.iter().all(|v| v.iter().all(|x| x.is_finite()))
                && self.b2.is_finite()
                && self.k.is_finite()
                && self.k > 0.0,
            "net weights not finite (or k <= 0)"
        );
        Ok(())
    }

    /// The weights file: `SNET`, version, f, h, rows (u32 each), k, the
    /// arrays embed, bias, w1, b1, w2 and b2 (f32), all little-endian, then
    /// an FNV-1a 64 checksum of everything before it.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(24 + 4 * (ROWS * self.f + 3 * self.f * self.h) + 8);
        out.extend_from_slice(MAGIC);
        for v in [VERSION, self.f as u32, self.h as u32, ROWS as u32] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        out.extend_from_slice(&self.k.to_le_bytes());
        for arr in [&self.embed, &self.bias, &self.w1, &self.b1, &self.w2] {
            for x in arr.iter() {
                out.extend_from_slice(&x.to_le_bytes());
            }
        }
        out.extend_from_slice(&self.b2.to_le_bytes());
        let sum = fnv1a(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        out
    }

    /// Read a weights file written by `to_bytes` (checked: magic, version,
    /// dimensions, length, checksum, finite values).
    pub fn from_bytes(bytes: &[u8]) -> Result<NetWeights> {
        ensure!(
            bytes.len() >= 32 && &bytes[..4] == MAGIC,
            "not a net file (no SNET magic)"
        );
        let (body, tail) = bytes.split_at(bytes.len() - 8);
        let sum = u64::from_le_bytes(tail.try_into().expect("8 bytes"));
        ensure!(sum == fnv1a(body), "net file checksum mismatch");
        let u32_at = |i: usize| u32::from_le_bytes(body[i..i + 4].try_into().expect("4 bytes"));
        let version = u32_at(4);
        if version != VERSION {
            bail!("net file version {version}, expected {VERSION}");
        }
        let (f, h, rows) = (u32_at(8) as usize, u32_at(12) as usize, u32_at(16) as usize);
        ensure!(rows == ROWS, "net file has {rows} rows, expected {ROWS}");
        ensure!(
            (1..=MAX_DIM).contains(&f) && (1..=MAX_DIM).contains(&h),
            "net dimensions f={f} h={h} out of 1..={MAX_DIM}"
        );
        let floats = ROWS * f + f + 2 * f * h + 2 * h + 1;
        ensure!(
            body.len() == 24 + 4 * floats,
            "net file length {} for f={f} h={h}",
            bytes.len()
        );
        let mut at = 24;
        let mut take = |n: usize| -> Vec<f32> {
            let v = body[at..at + 4 * n]
                .chunks_exact(4)
                .map(|c| f32::from_le_bytes(c.try_into().expect("4 bytes")))
                .collect();
            at += 4 * n;
            v
        };
        let k = f32::from_le_bytes(body[20..24].try_into().expect("4 bytes"));
        let embed = take(ROWS * f);
        let bias = take(f);
        let w1 = take(h * 2 * f);
        let b1 = take(h);
        let w2 = take(h);
        let b2 = take(1)[0];
        let w = NetWeights {
            f,
            h,
            k,
            embed,
            bias,
            w1,
            b1,
            w2,
            b2,
        };
        w.check()?;
        Ok(w)
    }

    /// The score of a logit: `round(out · k)` within `EVAL_LIMIT`.
    #[inline]
    pub fn score(&self, out: f32) -> Score {
        let s = (out * self.k).round();
        (s.clamp(-(EVAL_LIMIT as f32), EVAL_LIMIT as f32)) as Score
    }
}

/// The weights built into the binary: `src/brain/eval/net.bin`, the third round:
/// `pbrain-sente tune net --rule freestyle --f 32 --h 32 --epochs 20 --lr 0.003
/// --lr-end 0.0003 --seed 1 --threads 2` on 4,721 classical self-play games
/// and 8,593 of the first two nets' own (fnv1a64 849724938e029f22; the recipe
/// and figures are in `scripts/RESULTS.md`). Used for every rule until nets
/// per rule pay.
pub const EMBEDDED: &[u8] = include_bytes!("net.bin");

/// The embedded weights, read once (a damaged file fails every build's
/// tests: `embedded_weights_load`).
pub fn embedded() -> &'static NetWeights {
    static W: std::sync::OnceLock<NetWeights> = std::sync::OnceLock::new();
    W.get_or_init(|| {
        NetWeights::from_bytes(EMBEDDED).expect("src/brain/eval/net.bin is a valid net file")
    })
}

/// Random weights for tests and the placeholder file: embeddings and bias
/// of the order of the clipped range, a head that gives logits of order
/// one on ordinary boards; `k` the classical scale (772).
pub fn random(f: usize, h: usize, seed: u64) -> NetWeights {
    let mut rng = SplitMix64::new(seed);
    let mut uni = |lo: f32, hi: f32| {
        let u = (rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32;
        lo + (hi - lo) * u
    };
    let mut w = NetWeights::zeros(f, h, 772.0);
    w.embed.iter_mut().for_each(|x| *x = uni(-0.4, 0.4));
    w.bias.iter_mut().for_each(|x| *x = uni(-0.1, 0.4));
    let a = 0.6 / (2.0 * f as f32).sqrt();
    w.w1.iter_mut().for_each(|x| *x = uni(-a, a));
    w.b1.iter_mut().for_each(|x| *x = uni(-0.5, 0.5));
    w.w2.iter_mut().for_each(|x| *x = uni(-1.0, 1.0));
    w.b2 = uni(-0.1, 0.1);
    w
}

/// `h(p)` for one cell's keys, added into `pool` (floats, the reference).
fn add_cell_f32(w: &NetWeights, keys: &[u16; KEYS_PER_CELL], pool: &mut [f32]) {
    let f = w.f;
    for (j, slot) in pool.iter_mut().enumerate() {
        let mut a = w.bias[j];
        for &k in keys {
            a += w.embed[k as usize * f + j];
        }
        *slot += a.clamp(0.0, 1.0);
    }
}

/// The head on the pooled inputs `x = [pool_stm, pool_opp]` (2f values,
/// already divided by `POOL_DIV`): the logit.
pub fn head_f32(w: &NetWeights, x: &[f32]) -> f32 {
    let two_f = 2 * w.f;
    debug_assert_eq!(x.len(), two_f);
    let mut out = w.b2;
    for u in 0..w.h {
        let row = &w.w1[u * two_f..(u + 1) * two_f];
        let mut z = w.b1[u];
        for (a, b) in row.iter().zip(x) {
            z += a * b;
        }
        out += w.w2[u] * z.clamp(0.0, 1.0);
    }
    out
}

/// The pooled inputs `[pool_stm, pool_opp]` (already divided by
/// `POOL_DIV`) of `board`, from scratch.
pub fn pooled_f32(w: &NetWeights, ev: &Evaluator, board: &Board, stm: Color) -> Vec<f32> {
    let f = w.f;
    let mut x = vec![0.0f32; 2 * f];
    for p in board.empty_cells() {
        for (i, c) in [stm, stm.opposite()].into_iter().enumerate() {
            add_cell_f32(w, &cell_keys(ev, p, c), &mut x[i * f..(i + 1) * f]);
        }
    }
    x.iter_mut().for_each(|v| *v /= POOL_DIV);
    x
}

/// The float reference: the logit of `stm`'s win probability on `board`
/// (whose evaluation `ev` is current), recomputed from scratch.
pub fn forward_f32(w: &NetWeights, ev: &Evaluator, board: &Board, stm: Color) -> f32 {
    head_f32(w, &pooled_f32(w, ev, board, stm))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::brain::eval::weights::Class;
    use crate::brain::types::RuleSet;

    fn board() -> Board {
        Board::from_ascii(
            "
            . . . . . . . . .
            . . . . . . . . .
            . . X X . X . . .
            . . . O . . . . .
            . . . O O . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .",
            RuleSet::FREESTYLE,
        )
        .unwrap()
    }

    #[test]
    fn bytes_round_trip_and_damage_is_refused() {
        let w = random(16, 8, 7);
        let bytes = w.to_bytes();
        assert_eq!(&bytes[..4], MAGIC);
        let back = NetWeights::from_bytes(&bytes).unwrap();
        assert_eq!(back, w);
        // Any flipped byte is caught (checksum, or a header check).
        for i in [0, 5, 9, 20, 100, bytes.len() / 2, bytes.len() - 1] {
            let mut bad = bytes.clone();
            bad[i] ^= 0x10;
            assert!(NetWeights::from_bytes(&bad).is_err(), "byte {i}");
        }
        assert!(NetWeights::from_bytes(&bytes[..bytes.len() - 4]).is_err());
        let mut other = random(16, 8, 8);
        assert_ne!(other, w);
        other.k = -1.0;
        assert!(NetWeights::from_bytes(&other.to_bytes()).is_err());
    }

    #[test]
    fn cell_keys_are_the_evaluators_patterns_and_classes() {
        let b = board();
        let ev = Evaluator::new(&b);
        let mut seen = std::collections::HashSet::new();
        for p in b.empty_cells() {
            for own in [Color::Black, Color::White] {
                let k = cell_keys(&ev, p, own);
                let opp = own.opposite();
                for (d, &key) in k[..4].iter().enumerate() {
                    let want =
                        ev.pattern(p, own, d) as usize * NIBBLES + ev.pattern(p, opp, d) as usize;
                    assert_eq!(key as usize, want, "{p:?} {own:?} {d}");
                }
                assert_eq!(k[4] as usize, LINE_KEYS + ev.class(p, own) as usize);
                assert_eq!(
                    k[5] as usize,
                    LINE_KEYS + CLASSES + ev.class(p, opp) as usize
                );
                assert!(k.iter().all(|&x| (x as usize) < rows()));
                seen.extend(k);
            }
        }
        // The position shows more than one shape.
        assert!(seen.len() > 10, "{}", seen.len());
    }

    /// Under renju a Black overline point's keys carry the Forbidden class.
    #[test]
    fn renju_forbidden_points_have_their_own_key() {
        let (b, p) = crate::brain::game::testutil::renju_overline();
        let ev = Evaluator::new(&b);
        let forbidden = Class::Forbidden as usize;
        assert_eq!(
            cell_keys(&ev, p, Color::Black)[4] as usize,
            LINE_KEYS + forbidden
        );
        assert_eq!(
            cell_keys(&ev, p, Color::White)[5] as usize,
            LINE_KEYS + CLASSES + forbidden
        );
    }

    #[test]
    fn embedded_weights_load() {
        let w = embedded();
        assert!(w.check().is_ok());
        assert_eq!(w.to_bytes(), EMBEDDED);
        assert!(EMBEDDED.len() < 4 << 20, "a few MB at most");
    }

    /// A net that counts empty cells: every own-class row is 1, so each
    /// empty cell adds exactly 1 to each pool; the head reads pool_stm.
    #[test]
    fn forward_pools_every_empty_cell() {
        let b = board();
        let ev = Evaluator::new(&b);
        let mut w = NetWeights::zeros(2, 1, 100.0);
        for c in 0..CLASSES {
            w.embed[(LINE_KEYS + c) * 2] = 1.0;
        }
        w.w1 = vec![0.01, 0.0, 0.0, 0.0];
        w.w2 = vec![1.0];
        w.b2 = 0.25;
        let empties = b.empty_cells().count() as f32;
        let x = pooled_f32(&w, &ev, &b, Color::Black);
        assert_eq!(x, vec![empties / POOL_DIV, 0.0, empties / POOL_DIV, 0.0]);
        let out = forward_f32(&w, &ev, &b, Color::Black);
        assert!((out - (0.25 + 0.01 * empties / POOL_DIV)).abs() < 1e-6);
        assert_eq!(w.score(out), (out * 100.0).round() as Score);
        assert_eq!(w.score(1e9), EVAL_LIMIT);
    }

    /// With random weights the two sides see different inputs, and the
    /// output is a plain function of the board.
    #[test]
    fn forward_depends_on_the_side_to_move() {
        let b = board();
        let ev = Evaluator::new(&b);
        let w = random(8, 8, 3);
        let xb = pooled_f32(&w, &ev, &b, Color::Black);
        let xw = pooled_f32(&w, &ev, &b, Color::White);
        assert_eq!(&xb[..8], &xw[8..]);
        assert_eq!(&xb[8..], &xw[..8]);
        assert_ne!(xb, xw);
        let a = forward_f32(&w, &ev, &b, Color::Black);
        assert_eq!(a, forward_f32(&w, &Evaluator::new(&b), &b, Color::Black));
        assert_ne!(a, forward_f32(&w, &ev, &b, Color::White));
    }
}
