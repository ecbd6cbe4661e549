//! A policy head on the value net's cell features (issue 44 item 6): a
//! logit per candidate move, for ordering the moves of nodes far from the
//! horizon (`Ordering::head`, `params::HEAD_MIN_DEPTH`). Off unless a head
//! is loaded (`pbrain-sente --policy-head FILE`).
//!
//! Per candidate `p` it reads `x = [h_stm(p), h_opp(p)]`, the net's
//! clipped accumulators of the cell (2F values), and the position's pooled
//! inputs `pool` (what the value head reads, 2F), and gives
//!
//! `logit = α · pattern(p) + w · x + Σ_k v_k · clamp(b_k + U_k · [x, pool], 0, 1)`
//!
//! where `pattern` is the pattern policy's score in logits
//! (`search::policy`). The pool's share of each hidden unit is summed once
//! a node. `pbrain-sente tune policy-head --out FILE` fits it (softmax
//! regression to the moves searches chose) and writes the file this
//! reads: a header line `sente-policy-head 1 f=F hidden=K`, then the
//! parameters in the fitter's order (α, w, then per hidden unit U_k over
//! the cell's 2F and the pool's 2F, b_k, v_k), whitespace-separated.

use super::movegen::Position;
use super::policy::{self, POLICY_UNIT};
use crate::brain::game::board::Pos;

/// The header's first word.
pub const HEAD_MAGIC: &str = "sente-policy-head";

/// A fitted head.
#[derive(Clone, Debug, PartialEq)]
pub struct PolicyHead {
    /// The net's width it reads (F).
    pub f: usize,
    pub hidden: usize,
    /// α, w (2F), then per hidden unit U_k (4F), b_k, v_k.
    pub params: Vec<f32>,
}

/// Scratch a search thread keeps for the head (no allocation per node
/// once grown).
#[derive(Clone, Debug, Default)]
pub struct HeadScratch {
    cells: Vec<usize>,
    feats: Vec<f32>,
    pool: Vec<f32>,
    ctx: Vec<f32>,
}

impl PolicyHead {
    /// Parameters of a head of width `f` with `hidden` units.
    pub fn len(f: usize, hidden: usize) -> usize {
        1 + 2 * f + hidden * (4 * f + 2)
    }

    /// Where hidden unit `k`'s parameters start (U_k's cell half, its
    /// pool half, b_k, v_k).
    fn unit(&self, k: usize) -> usize {
        1 + 2 * self.f + k * (4 * self.f + 2)
    }

    /// A head of random parameters in `[-scale, scale]`, for tests.
    #[cfg(test)]
    pub fn random(f: usize, hidden: usize, seed: u64, scale: f32) -> PolicyHead {
        let mut r = crate::brain::game::zobrist::SplitMix64::new(seed);
        let params = (0..Self::len(f, hidden))
            .map(|_| (r.below(2001) as f32 / 1000.0 - 1.0) * scale)
            .collect();
        PolicyHead { f, hidden, params }
    }

    /// The head in the file's text form (the module doc).
    pub fn parse(text: &str) -> Result<PolicyHead, String> {
        let mut words = text.split_whitespace();
        if words.next() != Some(HEAD_MAGIC) {
            return Err(format!("not a policy head (no {HEAD_MAGIC:?} header)"));
        }
        if words.next() != Some("1") {
            return Err("unknown policy head version".into());
        }
        let mut field = |name: &str| -> Result<usize, String> {
            words
                .next()
                .and_then(|w| w.strip_prefix(name))
                .and_then(|v| v.parse().ok())
                .ok_or_else(|| format!("the header wants {name}N"))
        };
        let f = field("f=")?;
        let hidden = field("hidden=")?;
        if f == 0 || f > 256 || hidden > 64 {
            return Err(format!("f={f} hidden={hidden} out of range"));
        }
        let params = words
            .map(|w| w.parse::<f32>().map_err(|_| format!("not a number: {w:?}")))
            .collect::<Result<Vec<f32>, String>>()?;
        if params.len() != Self::len(f, hidden) {
            return Err(format!(
                "{} parameters where f={f} hidden={hidden} wants {}",
                params.len(),
                Self::len(f, hidden)
            ));
        }
        if params.iter().any(|v| !v.is_finite()) {
            return Err("a parameter is not finite".into());
        }
        Ok(PolicyHead { f, hidden, params })
    }

    /// The file's text form.
    pub fn to_text(&self) -> String {
        let mut s = format!("{HEAD_MAGIC} 1 f={} hidden={}\n", self.f, self.hidden);
        for chunk in self.params.chunks(8) {
            let line: Vec<String> = chunk.iter().map(|v| format!("{v:e}")).collect();
            s += &line.join(" ");
            s.push('\n');
        }
        s
    }

    /// The logit of one candidate from its cell features `x` (2F), its
    /// pattern score in logits, and the node's hidden-unit context `ctx`
    /// (`b_k + U_k`'s pool half · pool, per unit).
    pub fn logit(&self, x: &[f32], pattern: f32, ctx: &[f32]) -> f32 {
        let (f2, p) = (2 * self.f, &self.params);
        let mut out = p[0] * pattern + dot(&p[1..1 + f2], x);
        for (k, &c) in ctx.iter().enumerate().take(self.hidden) {
            let o = self.unit(k);
            let a = c + dot(&p[o..o + f2], x);
            out += p[o + 2 * f2 + 1] * a.clamp(0.0, 1.0);
        }
        out
    }

    /// Each hidden unit's bias plus its pool half · `pool`.
    pub fn context(&self, pool: &[f32], ctx: &mut Vec<f32>) {
        let f2 = 2 * self.f;
        ctx.clear();
        ctx.extend((0..self.hidden).map(|k| {
            let o = self.unit(k);
            self.params[o + 2 * f2] + dot(&self.params[o + f2..o + 2 * f2], pool)
        }));
    }

    /// The logits of `moves` at `pos` into `out` (in order); false (and
    /// `out` empty) when the position has no net of this head's width.
    pub fn logits(
        &self,
        pos: &Position,
        moves: &[Pos],
        out: &mut Vec<f32>,
        s: &mut HeadScratch,
    ) -> bool {
        out.clear();
        let f2 = 2 * self.f;
        match pos.ev.net() {
            Some(n) if n.f == self.f => {}
            _ => return false,
        }
        s.cells.clear();
        s.cells.extend(moves.iter().map(|m| m.idx()));
        s.feats.resize(moves.len() * f2, 0.0);
        s.pool.resize(f2, 0.0);
        let stm = pos.stm();
        if !pos
            .ev
            .net_features(stm, &s.cells, &mut s.pool, &mut s.feats)
        {
            return false;
        }
        self.context(&s.pool, &mut s.ctx);
        for (&m, x) in moves.iter().zip(s.feats.chunks_exact(f2)) {
            let pat = if self.params[0] != 0.0 {
                policy::score(pos.board, &pos.ev, m, stm) as f32 / POLICY_UNIT as f32
            } else {
                0.0
            };
            out.push(self.logit(x, pat, &s.ctx));
        }
        true
    }
}

#[inline]
fn dot(a: &[f32], b: &[f32]) -> f32 {
    // Eight partial sums: the compiler keeps them in one vector register.
    let mut acc = [0f32; 8];
    let (ca, cb) = (a.chunks_exact(8), b.chunks_exact(8));
    let (ra, rb) = (ca.remainder(), cb.remainder());
    for (x, y) in ca.zip(cb) {
        for i in 0..8 {
            acc[i] += x[i] * y[i];
        }
    }
    let tail: f32 = ra.iter().zip(rb).map(|(x, y)| x * y).sum();
    acc.iter().sum::<f32>() + tail
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_text_form_round_trips_and_bad_files_are_refused() {
        let h = PolicyHead::random(4, 3, 7, 1.0);
        assert_eq!(PolicyHead::parse(&h.to_text()), Ok(h.clone()));
        let t = h.to_text();
        assert!(PolicyHead::parse(&t.replacen(HEAD_MAGIC, "x", 1)).is_err());
        assert!(PolicyHead::parse(&t.replacen("hidden=3", "hidden=2", 1)).is_err());
        assert!(PolicyHead::parse(&format!("{t} 1.0")).is_err());
        assert!(PolicyHead::parse(&format!("{t} nan")).is_err());
        assert!(PolicyHead::parse(&t.replacen(" 1 f=", " 2 f=", 1)).is_err());
    }

    /// On a position with a (random, quantized) net, the head's logits
    /// from the incremental accumulators equal the same head on the
    /// float reference's features (`cell_h_f32`, `pooled_f32`), within
    /// the quantization's error; after further moves too. No
    /// net, or another width: no logits.
    #[test]
    fn the_logits_read_the_nets_features() {
        use crate::brain::eval::net::{cell_h_f32, cell_keys, pooled_f32, random, QuantNet};
        use crate::brain::game::board::Board;
        use crate::brain::types::RuleSet;
        use std::sync::Arc;
        let f = 8;
        let q = Arc::new(QuantNet::new(&random(f, 4, 21)).unwrap());
        let h = PolicyHead::random(f, 5, 13, 0.2);
        let mut board = Board::square(15, RuleSet::FREESTYLE).unwrap();
        let mut pos = Position::with_net(&mut board, Some(q.clone()));
        for (x, y) in [(7, 7), (8, 8), (7, 8), (9, 9), (6, 9)] {
            let p = pos.board.pos(x, y).unwrap();
            pos.make(p);
        }
        let (mut out, mut sc) = (Vec::new(), HeadScratch::default());
        let mut checked = 0;
        for step in 0..3 {
            if step > 0 {
                let m = pos.board.empty_cells().nth(40 * step).unwrap();
                pos.make(m);
            }
            let stm = pos.stm();
            let moves: Vec<Pos> = pos.board.empty_cells().collect();
            assert!(h.logits(&pos, &moves, &mut out, &mut sc));
            assert_eq!(out.len(), moves.len());
            let pool = pooled_f32(&q.weights, &pos.ev, pos.board, stm);
            let mut ctx = Vec::new();
            h.context(&pool, &mut ctx);
            for (&m, &got) in moves.iter().zip(&out) {
                let mut x = vec![0f32; 2 * f];
                for (i, c) in [stm, stm.opposite()].into_iter().enumerate() {
                    cell_h_f32(&q.weights, &cell_keys(&pos.ev, m, c), |j, v| {
                        x[i * f + j] = v
                    });
                }
                let pat = policy::score(pos.board, &pos.ev, m, stm) as f32 / POLICY_UNIT as f32;
                let want = h.logit(&x, pat, &ctx);
                assert!((want - got).abs() < 0.02, "{m:?}: {want} {got}");
                checked += 1;
            }
        }
        assert!(checked > 600);
        let corner = pos.board.pos(0, 0).unwrap();
        let wide = PolicyHead::random(16, 2, 1, 1.0);
        assert!(!wide.logits(&pos, &[corner], &mut out, &mut sc));
        let mut plain = Board::square(15, RuleSet::FREESTYLE).unwrap();
        let classic = Position::new(&mut plain);
        assert!(!h.logits(&classic, &[corner], &mut out, &mut sc) && out.is_empty());
    }

    /// `logit` with the context split out equals the formula written out
    /// on the concatenated inputs.
    #[test]
    fn the_context_split_equals_the_whole_formula() {
        let (f, hidden) = (5, 4);
        let h = PolicyHead::random(f, hidden, 11, 1.0);
        let mut r = crate::brain::game::zobrist::SplitMix64::new(3);
        let mut v =
            |n: usize| -> Vec<f32> { (0..n).map(|_| r.below(1001) as f32 / 1000.0).collect() };
        let (x, pool) = (v(2 * f), v(2 * f));
        let pattern = 0.7;
        let mut ctx = Vec::new();
        h.context(&pool, &mut ctx);
        let inp: Vec<f32> = x.iter().chain(&pool).copied().collect();
        let p = &h.params;
        let mut want = p[0] * pattern;
        want += (0..2 * f).map(|i| p[1 + i] * x[i]).sum::<f32>();
        for k in 0..hidden {
            let o = 1 + 2 * f + k * (4 * f + 2);
            let a = p[o + 4 * f] + (0..4 * f).map(|i| p[o + i] * inp[i]).sum::<f32>();
            want += p[o + 4 * f + 1] * a.clamp(0.0, 1.0);
        }
        let got = h.logit(&x, pattern, &ctx);
        assert!((got - want).abs() < 1e-4, "{got} {want}");
    }
}
