//! The float reference forward pass (from scratch, `f32`): the definition
//! the integer inference (`quant`) must agree with, and what the trainer's
//! tests compare with.

use super::format::NetWeights;
use super::joint::tempo_index;
use super::keys::{cell_keys, cell_keys_joint, Form, POOL_DIV};
use crate::brain::eval::Evaluator;
use crate::brain::game::board::Board;
use crate::brain::types::Color;

/// `h(p)` for one cell's keys (six, or eight in the joint form),
/// `clamp(bias + Σ rows, 0, 1)` (floats, the reference): `each(j, h_j)`
/// for the F values in order.
#[inline]
pub fn cell_h_f32(w: &NetWeights, keys: &[u16], mut each: impl FnMut(usize, f32)) {
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
fn add_cell_f32(w: &NetWeights, keys: &[u16], pool: &mut [f32]) {
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
            let pool = &mut x[i * f..(i + 1) * f];
            match w.form {
                Form::Lines => add_cell_f32(w, &cell_keys(ev, p, c), pool),
                Form::Joint => add_cell_f32(w, &cell_keys_joint(ev, p, c), pool),
            }
        }
    }
    x.iter_mut().for_each(|v| *v /= POOL_DIV);
    x
}

/// The float reference: the logit of `stm`'s win probability on `board`
/// (whose evaluation `ev` is current), recomputed from scratch; in the
/// joint form the head's output plus the tempo term of `stm`'s tempo
/// index (`joint::tempo_index`).
pub fn forward_f32(w: &NetWeights, ev: &Evaluator, board: &Board, stm: Color) -> f32 {
    let out = head_f32(w, &pooled_f32(w, ev, board, stm));
    match w.form {
        Form::Lines => out,
        Form::Joint => out + w.tempo[tempo_index(ev, stm)],
    }
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

    /// A `Lines` net widened to the joint form (`to_joint`: joint rows
    /// and tempo terms zero) gives the same logits; a tempo term then adds
    /// itself to the logit of the positions that read it, and a joint row
    /// moves the logit of a board whose cells have its key.
    #[test]
    fn the_joint_form_extends_the_lines_form() {
        use super::super::format::random_of;
        use super::super::joint::tempo_index;
        use super::super::keys::cell_keys_joint;
        let b = board();
        let ev = Evaluator::new(&b);
        let w = random(8, 8, 3);
        let j = w.to_joint();
        assert_eq!(j.form, Form::Joint);
        assert_eq!(j.to_joint(), j);
        for c in [Color::Black, Color::White] {
            assert_eq!(forward_f32(&w, &ev, &b, c), forward_f32(&j, &ev, &b, c));
        }
        let mut t = j.clone();
        t.tempo[tempo_index(&ev, Color::Black)] += 0.5;
        let d = forward_f32(&t, &ev, &b, Color::Black) - forward_f32(&j, &ev, &b, Color::Black);
        assert!((d - 0.5).abs() < 1e-5, "{d}");
        let p = b.empty_cells().next().unwrap();
        let key = cell_keys_joint(&ev, p, Color::White)[6] as usize;
        let mut r = j.clone();
        r.embed[key * r.f..(key + 1) * r.f].fill(0.3);
        assert_ne!(
            forward_f32(&r, &ev, &b, Color::Black),
            forward_f32(&j, &ev, &b, Color::Black)
        );
        // Another joint net: other logits.
        let other = random_of(Form::Joint, 8, 8, 3);
        assert_ne!(
            forward_f32(&other, &ev, &b, Color::Black),
            forward_f32(&j, &ev, &b, Color::Black)
        );
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
