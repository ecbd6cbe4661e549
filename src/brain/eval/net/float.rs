//! The float reference forward pass (from scratch, `f32`): the definition
//! the integer inference (`quant`) must agree with, and what the trainer's
//! tests compare with.

use super::format::NetWeights;
use super::keys::{cell_keys, KEYS_PER_CELL, POOL_DIV};
use crate::brain::eval::Evaluator;
use crate::brain::game::board::Board;
use crate::brain::types::Color;

/// `h(p)` for one cell's keys, `clamp(bias + Σ rows, 0, 1)` (floats, the
/// reference): `each(j, h_j)` for the F values in order.
#[inline]
pub fn cell_h_f32(w: &NetWeights, keys: &[u16; KEYS_PER_CELL], mut each: impl FnMut(usize, f32)) {
    let f = w.f;
    for j in 0..f {
        let mut a = w.bias[j];
        for &k in keys {
            a += w.embed[k as usize * f + j];
        }
        each(j, a.clamp(0.0, 1.0));
    }
}

/// `h(p)` for one cell's keys, added into `pool`.
fn add_cell_f32(w: &NetWeights, keys: &[u16; KEYS_PER_CELL], pool: &mut [f32]) {
    cell_h_f32(w, keys, |j, h| pool[j] += h);
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
    use super::super::format::random;
    use super::super::keys::tests::board;
    use super::super::keys::LINE_KEYS;
    use super::*;
    use crate::brain::eval::weights::{CLASSES, EVAL_LIMIT};
    use crate::brain::types::Score;

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
