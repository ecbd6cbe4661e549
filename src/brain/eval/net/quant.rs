//! The net's integer inference (`keys` defines the form, `float` the
//! reference), kept incrementally by the evaluator (`accum`).
//!
//! At load the float weights are quantized: embeddings and bias as `i16`
//! with 1.0 = `QA` (each clamped to `TERM_LIMIT`, so that the bias plus six
//! rows can never leave `i16`: the sums are exact whatever the order), the
//! head stays `f32` with the pooling's scale folded into `W1`. Per empty
//! cell and colour the evaluator keeps the accumulator (`bias + six rows`,
//! `fp` lanes: `f` rounded up to 16, the extra lanes zero) and per colour
//! the pooled sum of the clipped accumulators (`clamp(acc, 0, QA)`, `i32`).
//! When a cell's line codes change (`NetState::set_cell`) its two
//! accumulators are recomputed from their six rows and the pool gets the
//! new clipped values minus the old; a cell that is filled leaves the pool;
//! `pop` copies the accumulators and pools back from its undo log.
//!
//! The per-cell work is one generic kernel instantiated per instruction
//! set (`kernel`: AVX2 where the CPU has it, SSE2, scalar), all giving
//! identical integers. The head is scalar `f32` in a fixed order
//! (vectorised over hidden units by the compiler, which keeps each unit's
//! sum in order), so every kernel gives the same score.

use std::sync::{Arc, OnceLock};

use anyhow::Result;

use super::format::{embedded, NetWeights};
use super::kernel::{self, Kernel, Rows, LANES, QA};
use super::keys::{KeyChange, KEYS_PER_CELL, KEY_SPACE, POOL_DIV, ROWS};
use crate::brain::types::{Color, Score};

/// Largest magnitude of one quantized embedding or bias value: seven of
/// them (bias and six rows) sum within `i16`. At `QA` = 256 that is 18.3
/// in floats, beyond anything the clipped range [0, 1] can use.
pub const TERM_LIMIT: i32 = i16::MAX as i32 / (KEYS_PER_CELL as i32 + 1);

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
    pub(super) embed: Vec<i16>,
    pub(super) bias: Vec<i16>,
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
        kernel::set_cell(
            Rows {
                kernel: self.kernel,
                fp: self.fp,
                embed: &self.embed,
                bias: &self.bias,
            },
            ch,
            acc,
            pool,
        );
    }

    /// A counted cell was filled: take its two clipped accumulators out of
    /// `pool`.
    #[inline(always)]
    pub(super) fn remove_cell(&self, acc: &[i16], pool: &mut [i32]) {
        assert!(acc.len() == 2 * self.fp);
        kernel::remove_cell(self.kernel, acc, pool);
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

/// The embedded weights (`format::embedded`), quantized once for the best
/// kernel: the net `--eval net` uses unless the engine was given another
/// (`Engine::set_net`, `pbrain-sente --net FILE`).
pub fn embedded_net() -> Arc<QuantNet> {
    static Q: OnceLock<Arc<QuantNet>> = OnceLock::new();
    Q.get_or_init(|| Arc::new(QuantNet::new(embedded()).expect("the embedded net quantizes")))
        .clone()
}

#[cfg(test)]
mod tests {
    use super::super::float::forward_f32;
    use super::super::format::random;
    use super::*;
    use crate::brain::eval::Evaluator;
    use crate::brain::game::board::Board;
    use crate::brain::game::testutil::random_empty;
    use crate::brain::game::zobrist::SplitMix64;
    use crate::brain::types::{Rule, RuleSet};

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
        let q = embedded_net();
        assert!(Arc::ptr_eq(ev.net().unwrap(), &q));
        let want = forward_f32(&q.weights, &ev, &b, Color::Black);
        assert!((ev.net_logit(Color::Black).unwrap() - want).abs() < 0.02);
        assert_eq!(q.kernel(), Kernel::best());
    }
}
