//! The net's integer inference (`keys` defines the form, `float` the
//! reference), kept incrementally by the evaluator (`accum`).
//!
//! At load the float weights are quantized: embeddings and bias as `i16`
//! with 1.0 = `QA` (each clamped to `term_limit`, so that the bias plus six
//! rows, eight in the joint form, can never leave `i16`: the sums are exact
//! whatever the order), laid out as a pair table (`Form::pair_rows`: each
//! row both colours' rows of one key, so that a changed direction, class
//! or joint key is one row for the cell's two accumulators); the head
//! stays `f32` with the pooling's scale folded into `W1`, and the joint
//! form's tempo term is added to its output as it is (`f32`). Per empty cell the evaluator keeps both colours'
//! accumulators (`bias + six rows`, `fp` lanes each: `f` rounded up to
//! `LANES`, the extra lanes zero; together whole `kernel::Block`s) and per
//! colour the pooled sum of the clipped accumulators (`clamp(acc, 0, QA)`,
//! `i32`). When a cell's line codes change (`NetState::set_cell`) its
//! accumulators lose the rows of what changed and gain the new ones, and
//! the clipped values' difference gathers in `i16` lanes that join the
//! pools once per update (`flush`); a cell that is filled leaves the pool;
//! `pop` copies the accumulators and pools back from its undo log.
//!
//! The per-cell work is one generic kernel instantiated per instruction
//! set (`kernel`: AVX2 where the CPU has it, SSE2, scalar), all giving
//! identical integers. The head is `f32` in a fixed order per hidden unit
//! (vectorised over the units by the compiler, AVX2's 8 at a time, SSE2's
//! 4, each unit's sum in the same order), so every kernel gives the same
//! logit.

use std::sync::{Arc, OnceLock};

use anyhow::Result;

use super::format::{embedded_file, embedded_for, NetWeights, EMBEDDED_FILES};
use super::joint::{joint_table, JOINT_KEYS, NO_JOINT};
use super::kernel::{blocks, Block, Kernel, Rows, BLOCK, LANES, QA};
use super::keys::{
    joint_pair, line_pair, Form, CLASS_PAIRS, JOINT_ROWS, KEYS_PER_CELL, LINE_KEYS, NIBBLES,
    POOL_DIV,
};
use crate::brain::eval::weights::CLASSES;
use crate::brain::types::{Color, Rule, Score};

/// Largest magnitude of one quantized embedding or bias value: seven of
/// them (bias and six rows) sum within `i16`. At `QA` = 256 that is 18.3
/// in floats, beyond anything the clipped range [0, 1] can use.
pub const TERM_LIMIT: i32 = i16::MAX as i32 / (KEYS_PER_CELL as i32 + 1);

/// `TERM_LIMIT` of a form: the bias and its keys' rows sum within `i16`
/// (the joint form's nine terms: 3,640, 14.2 in floats).
pub const fn term_limit(form: Form) -> i32 {
    i16::MAX as i32 / (form.keys_per_cell() as i32 + 1)
}
const _: () = assert!(term_limit(Form::Lines) == TERM_LIMIT);

/// The quantized network.
#[derive(Debug)]
pub struct QuantNet {
    /// Features, and accumulator lanes (`f` rounded up to `LANES`).
    pub f: usize,
    pub fp: usize,
    /// Hidden units, and `h` rounded up to `HB` (the head's blocks).
    h: usize,
    hp: usize,
    k: f32,
    /// The form, the pair table (`Form::pair_rows` rows of `2 · fp`: each
    /// row both colours' embeddings of one key, the rows no key reaches
    /// zero), the bias twice (`2 · fp`), and in the joint form the joint
    /// keys' table (`joint::joint_table`; empty in `Lines`).
    form: Form,
    pairs: Vec<Block>,
    bias: Vec<Block>,
    jt: &'static [u16],
    /// `2f × hp`, input-major, scaled by `1 / (QA · POOL_DIV)`.
    w1t: Vec<f32>,
    b1: Vec<f32>,
    w2: Vec<f32>,
    b2: f32,
    /// The tempo term (`Form::tempo` entries: none in `Lines`).
    tempo: Vec<f32>,
    kernel: Kernel,
    /// The float weights it was made from.
    pub weights: NetWeights,
}

/// Head units per block: the head keeps one block's sums in registers
/// while it reads the inputs once (each unit's sum in a fixed order,
/// whatever the compiler vectorises).
const HB: usize = 32;

fn quantize(x: f32, limit: i32) -> i16 {
    ((x * QA as f32).round() as i32).clamp(-limit, limit) as i16
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
        let (f, h, form) = (w.f, w.h, w.form);
        let limit = term_limit(form);
        let fp = f.div_ceil(LANES) * LANES;
        let hp = h.div_ceil(HB) * HB;
        let width = 2 * fp;
        // Embedding row `r` quantized, `fp` lanes.
        let row = |r: usize| {
            let mut v = vec![0i16; fp];
            for (q, &x) in v.iter_mut().zip(&w.embed[r * f..(r + 1) * f]) {
                *q = quantize(x, limit);
            }
            v
        };
        let mut pairs = vec![0i16; form.pair_rows() * width];
        let mut set = |key: usize, black: usize, white: usize| {
            pairs[key * width..key * width + fp].copy_from_slice(&row(black));
            pairs[key * width + fp..(key + 1) * width].copy_from_slice(&row(white));
        };
        for x in 0..NIBBLES {
            for y in 0..NIBBLES {
                set(line_pair(x, y), x * NIBBLES + y, y * NIBBLES + x);
            }
        }
        for k in 0..CLASSES {
            let (own, opp) = (LINE_KEYS + k, LINE_KEYS + CLASSES + k);
            set(CLASS_PAIRS + k, own, opp);
            set(CLASS_PAIRS + 16 + k, opp, own);
        }
        if form == Form::Joint {
            for j in 0..JOINT_KEYS {
                let (own, opp) = (JOINT_ROWS + j, JOINT_ROWS + JOINT_KEYS + j);
                set(joint_pair(0, j as u16) as usize, own, opp);
                set(joint_pair(1, j as u16) as usize, opp, own);
            }
            // `NO_JOINT`'s rows stay zero.
            debug_assert!(joint_pair(1, NO_JOINT) as usize + 1 == form.pair_rows());
        }
        let mut bias = vec![0i16; width];
        for (j, &x) in w.bias.iter().enumerate() {
            bias[j] = quantize(x, limit);
            bias[fp + j] = quantize(x, limit);
        }
        let (pairs, bias) = (blocks(&pairs), blocks(&bias));
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
            form,
            pairs,
            bias,
            jt: match form {
                Form::Lines => &[],
                Form::Joint => joint_table(),
            },
            w1t,
            b1,
            w2,
            b2: w.b2,
            tempo: w.tempo.clone(),
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

    /// The net's form.
    pub fn form(&self) -> Form {
        self.form
    }

    /// What the kernels read (`kernel::Rows`).
    #[inline(always)]
    pub(super) fn rows(&self) -> Rows<'_> {
        Rows {
            nb: 2 * self.fp / BLOCK,
            pairs: &self.pairs,
            bias: &self.bias,
            form: self.form,
            jt: self.jt,
        }
    }

    /// The logit for `stm` from the two pools (`2 · fp` lanes, Black's
    /// first), plus in the joint form the tempo term of entry `tempo`
    /// (`joint::tempo_index`; unread in `Lines`). With AVX2 the head runs
    /// 8 floats at a time (the same operations in the same order per unit
    /// as with SSE2: the same floats).
    pub fn logit(&self, pool: &[i32], stm: Color, tempo: usize) -> f32 {
        let out = self.head_any(pool, stm);
        match self.form {
            Form::Lines => out,
            Form::Joint => out + self.tempo[tempo],
        }
    }

    /// `head` with the net's kernel's instructions.
    #[inline(always)]
    fn head_any(&self, pool: &[i32], stm: Color) -> f32 {
        #[cfg(target_arch = "x86_64")]
        if self.kernel == Kernel::Avx2 {
            // SAFETY: a `QuantNet`'s kernel is one this CPU has
            // (`with_kernel` checks `Kernel::available`).
            return unsafe { self.logit_avx2(pool, stm) };
        }
        self.head(pool, stm)
    }

    /// `head` in a function that enables AVX2.
    ///
    /// SAFETY: the CPU has AVX2.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn logit_avx2(&self, pool: &[i32], stm: Color) -> f32 {
        self.head(pool, stm)
    }

    /// The head: per block of `HB` units, `z = b1 + Σ_i w1[i] · x_i` in the
    /// order of the inputs (the side to move's pool, then the other's),
    /// then `out += w2 · clamp(z, 0, 1)` unit after unit.
    #[inline(always)]
    fn head(&self, pool: &[i32], stm: Color) -> f32 {
        let (f, fp, hp) = (self.f, self.fp, self.hp);
        let (s, o) = (stm.index() * fp, stm.opposite().index() * fp);
        let (own, opp) = (&pool[s..s + f], &pool[o..o + f]);
        let mut out = self.b2;
        // Per block: the sums in groups of 8 (one AVX2 register each, two
        // SSE2 ones), the products `w2 · clamp(z)` side by side, then their
        // sum unit after unit.
        const G: usize = 8;
        for u0 in (0..hp).step_by(HB) {
            let mut z = [[0f32; G]; HB / G];
            for (zg, b) in z.iter_mut().zip(self.b1[u0..u0 + HB].chunks_exact(G)) {
                zg.copy_from_slice(b);
            }
            let (w_own, w_opp) = self.w1t.split_at(f * hp);
            for (xs, ws) in [(own, w_own), (opp, w_opp)] {
                for (&x, w) in xs.iter().zip(ws.chunks_exact(hp)) {
                    let x = x as f32;
                    for (zg, wg) in z.iter_mut().zip(w[u0..u0 + HB].chunks_exact(G)) {
                        let wg: &[f32; G] = wg.try_into().expect("G units");
                        for (zl, &wl) in zg.iter_mut().zip(wg) {
                            *zl += wl * x;
                        }
                    }
                }
            }
            let mut t = [[0f32; G]; HB / G];
            for ((tg, zg), wg) in t
                .iter_mut()
                .zip(&z)
                .zip(self.w2[u0..u0 + HB].chunks_exact(G))
            {
                for ((tl, &zl), &wl) in tg.iter_mut().zip(zg).zip(wg) {
                    *tl = wl * zl.clamp(0.0, 1.0);
                }
            }
            for &v in t.iter().flatten() {
                out += v;
            }
        }
        out
    }

    /// The engine's score for `stm` from the two pools and the tempo
    /// entry (as `logit`; out of line: the classical `evaluate` stays
    /// small).
    #[inline(never)]
    pub fn score(&self, pool: &[i32], stm: Color, tempo: usize) -> Score {
        self.weights.score(self.logit(pool, stm, tempo))
    }

    /// Score units per logit.
    pub fn k(&self) -> f32 {
        self.k
    }
}

/// The embedded weights of `rule` (`format::embedded_for`), quantized once
/// for the best kernel: the net `--eval net` uses under that rule unless
/// the engine was given another (`Engine::set_net`, `pbrain-sente --net
/// FILE`). Rules that share a file share the quantized net.
pub fn embedded_net_for(rule: Rule) -> Arc<QuantNet> {
    static Q: [OnceLock<Arc<QuantNet>>; EMBEDDED_FILES.len()] =
        [const { OnceLock::new() }; EMBEDDED_FILES.len()];
    Q[embedded_file(rule)]
        .get_or_init(|| {
            Arc::new(QuantNet::new(&embedded_for(rule)).expect("the embedded nets quantize"))
        })
        .clone()
}

/// The freestyle net (`embedded_net_for(Rule::Freestyle)`).
pub fn embedded_net() -> Arc<QuantNet> {
    embedded_net_for(Rule::Freestyle)
}

#[cfg(test)]
mod tests {
    use super::super::float::forward_f32;
    use super::super::format::random_of;
    use super::*;
    use crate::brain::eval::Evaluator;
    use crate::brain::game::board::Board;
    use crate::brain::game::testutil::random_empty;
    use crate::brain::game::zobrist::SplitMix64;
    use crate::brain::types::{Rule, RuleSet};

    /// The integer net against the float reference on boards from random
    /// play: within 0.02 of a logit (about 15 score units at k = 772), and
    /// scores that differ by the rounding of that at most; both forms.
    #[test]
    fn quantized_output_is_close_to_the_float_reference() {
        for form in Form::ALL {
            quantized_close_to_float(form);
        }
    }

    fn quantized_close_to_float(form: Form) {
        let mut worst = 0f32;
        let mut spread = (f32::MAX, f32::MIN);
        for rule in Rule::ALL {
            let rules = RuleSet::from(rule);
            for (f, h) in [(16, 16), (32, 8)] {
                let w = random_of(form, f, h, 17 + f as u64);
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
        eprintln!("{form:?}: worst logit error {worst}, spread {spread:?}");
        assert!(worst < 0.02, "worst logit error {worst}");
        // The outputs vary: the comparison is not between constants.
        assert!(spread.1 - spread.0 > 0.5, "{spread:?}");
    }

    /// The Classic evaluator carries no net; `with_kind` picks the
    /// embedded one of the board's rule, whose scores follow its float
    /// weights.
    #[test]
    fn kinds_build_what_they_say() {
        for rule in Rule::ALL {
            let b = Board::square(15, RuleSet::from(rule)).unwrap();
            let ev = Evaluator::with_kind(&b, crate::brain::eval::EvalKind::Net);
            let q = embedded_net_for(rule);
            assert!(Arc::ptr_eq(ev.net().unwrap(), &q), "{rule:?}");
            assert_eq!(q.weights, embedded_for(rule));
        }
        assert!(!Arc::ptr_eq(
            &embedded_net_for(Rule::Renju),
            &embedded_net_for(Rule::Freestyle)
        ));
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
