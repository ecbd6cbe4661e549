//! The policy fitter's optimiser: softmax (multinomial logistic)
//! regression of the chosen move over each position's candidates. A
//! candidate's logit is the sum of the weights its features index; the loss
//! is the mean negative log-likelihood of the chosen moves plus an L2 pull
//! `l2 / 2 · |w|²` towards zero; minibatch Adam, seeded shuffles, a
//! learning rate falling linearly to a tenth.

use super::data::Samples;
use crate::brain::game::zobrist::SplitMix64;
use crate::brain::search::policy::WEIGHTS;

/// How a fit runs.
#[derive(Clone, Copy, Debug)]
pub struct FitOptions {
    pub epochs: usize,
    pub lr: f64,
    pub l2: f64,
    /// Positions per step.
    pub batch: usize,
    pub seed: u64,
    /// Threads sharing each batch's gradient (the result does not depend on
    /// the scheduling, only on this count).
    pub threads: usize,
}

/// The logit of candidate `c` under `w`.
#[inline]
pub fn logit(s: &Samples, c: usize, w: &[f64]) -> f64 {
    s.feats[c].iter().map(|&k| w[k as usize]).sum()
}

/// The negative log-likelihood of position `i`'s chosen move under `w`;
/// with `grad`, adds its gradient (`p_c − [c is the target]` to every
/// weight candidate `c` indexes) there.
fn position_loss(
    s: &Samples,
    i: usize,
    w: &[f64],
    grad: Option<&mut [f64]>,
    buf: &mut Vec<f64>,
) -> f64 {
    let r = s.range(i);
    let t = s.target[i] as usize;
    buf.clear();
    buf.extend(r.clone().map(|c| logit(s, c, w)));
    let max = buf.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let z: f64 = buf.iter().map(|&v| (v - max).exp()).sum();
    let lse = max + z.ln();
    let loss = lse - buf[t];
    if let Some(g) = grad {
        for (j, c) in r.enumerate() {
            let p = (buf[j] - lse).exp() - (j == t) as u8 as f64;
            for &k in &s.feats[c] {
                g[k as usize] += p;
            }
        }
    }
    loss
}

/// Mean negative log-likelihood of the positions `idx` under `w` (no L2).
pub fn nll(s: &Samples, idx: &[u32], w: &[f64]) -> f64 {
    let mut buf = Vec::new();
    let sum: f64 = idx
        .iter()
        .map(|&i| position_loss(s, i as usize, w, None, &mut buf))
        .sum();
    sum / idx.len().max(1) as f64
}

/// The loss over the positions `idx` (mean NLL plus `l2 / 2 · |w|²`) and
/// its gradient, written to `grad`; the positions are shared by `threads`
/// threads in fixed chunks, their sums added in chunk order.
pub fn loss_grad(
    s: &Samples,
    idx: &[u32],
    w: &[f64],
    l2: f64,
    threads: usize,
    grad: &mut [f64],
) -> f64 {
    let n = idx.len().max(1) as f64;
    let chunk = idx.len().div_ceil(threads.max(1)).max(1);
    let run = |part: &[u32]| {
        let mut g = vec![0.0; w.len()];
        let mut buf = Vec::new();
        let l: f64 = part
            .iter()
            .map(|&i| position_loss(s, i as usize, w, Some(&mut g), &mut buf))
            .sum();
        (l, g)
    };
    let parts: Vec<(f64, Vec<f64>)> = if threads <= 1 {
        vec![run(idx)]
    } else {
        std::thread::scope(|sc| {
            let handles: Vec<_> = idx
                .chunks(chunk)
                .map(|part| sc.spawn(move || run(part)))
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().expect("gradient thread"))
                .collect()
        })
    };
    grad.fill(0.0);
    let mut loss = 0.0;
    for (l, g) in parts {
        loss += l;
        for (a, b) in grad.iter_mut().zip(g) {
            *a += b;
        }
    }
    for (g, &v) in grad.iter_mut().zip(w) {
        *g = *g / n + l2 * v;
    }
    loss / n + 0.5 * l2 * w.iter().map(|v| v * v).sum::<f64>()
}

/// Fit the weights from `start` on the positions `train`; `progress` is
/// called after each epoch with the epoch (1-based) and the weights.
pub fn fit(
    s: &Samples,
    train: &[u32],
    start: &[f64],
    o: FitOptions,
    mut progress: impl FnMut(usize, &[f64]),
) -> Vec<f64> {
    let dims = start.len();
    debug_assert_eq!(dims, WEIGHTS);
    let mut w = start.to_vec();
    let (mut m, mut v) = (vec![0.0; dims], vec![0.0; dims]);
    let (b1, b2, eps) = (0.9f64, 0.999f64, 1e-8);
    let mut order = train.to_vec();
    let mut rng = SplitMix64::new(o.seed);
    let batch = o.batch.max(1);
    let steps_per_epoch = order.len().div_ceil(batch).max(1);
    let total = (o.epochs * steps_per_epoch).max(1) as f64;
    let mut grad = vec![0.0; dims];
    let mut t = 0usize;
    for epoch in 1..=o.epochs {
        // Fisher–Yates with the seeded generator.
        for i in (1..order.len()).rev() {
            order.swap(i, rng.below(i as u64 + 1) as usize);
        }
        for part in order.chunks(batch) {
            t += 1;
            loss_grad(s, part, &w, o.l2, o.threads, &mut grad);
            let lr = o.lr * (1.0 - 0.9 * (t - 1) as f64 / total);
            for j in 0..dims {
                let g = grad[j];
                m[j] = b1 * m[j] + (1.0 - b1) * g;
                v[j] = b2 * v[j] + (1.0 - b2) * g * g;
                let mh = m[j] / (1.0 - b1.powi(t as i32));
                let vh = v[j] / (1.0 - b2.powi(t as i32));
                w[j] -= lr * mh / (vh.sqrt() + eps);
            }
        }
        progress(epoch, &w);
    }
    w
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Random positions: 3 to 12 candidates each, random table entries.
    fn random_samples(seed: u64, positions: usize, dims: u64) -> Samples {
        let mut rng = SplitMix64::new(seed);
        let mut s = Samples::default();
        s.starts.push(0);
        for i in 0..positions {
            let n = 3 + rng.below(10) as usize;
            for c in 0..n {
                s.feats
                    .push(std::array::from_fn(|_| rng.below(dims) as u16));
                s.cell.push(c as u16);
                s.stat.push(0);
            }
            s.starts.push(s.feats.len() as u32);
            s.target.push(rng.below(n as u64) as u16);
            s.game.push(i as u32);
            s.forced.push(false);
        }
        s
    }

    /// The analytic gradient equals central finite differences of the
    /// loss, with one thread and with several.
    #[test]
    fn gradient_matches_finite_differences() {
        let s = random_samples(3, 40, 30);
        let idx: Vec<u32> = (0..s.len() as u32).collect();
        let mut rng = SplitMix64::new(4);
        let w: Vec<f64> = (0..WEIGHTS)
            .map(|_| (rng.below(2001) as f64 - 1000.0) / 500.0)
            .collect();
        let l2 = 0.01;
        let mut g1 = vec![0.0; WEIGHTS];
        let mut g3 = vec![0.0; WEIGHTS];
        let l1 = loss_grad(&s, &idx, &w, l2, 1, &mut g1);
        let l3 = loss_grad(&s, &idx, &w, l2, 3, &mut g3);
        assert!((l1 - l3).abs() < 1e-12);
        let h = 1e-5;
        let mut scratch = vec![0.0; WEIGHTS];
        let mut checked = 0;
        for k in 0..40 {
            let (mut wp, mut wm) = (w.clone(), w.clone());
            wp[k] += h;
            wm[k] -= h;
            let lp = loss_grad(&s, &idx, &wp, l2, 1, &mut scratch);
            let lm = loss_grad(&s, &idx, &wm, l2, 1, &mut scratch);
            let numeric = (lp - lm) / (2.0 * h);
            assert!(
                (numeric - g1[k]).abs() < 1e-6 * (1.0 + numeric.abs()),
                "weight {k}: analytic {} numeric {numeric}",
                g1[k]
            );
            assert!((g1[k] - g3[k]).abs() < 1e-12);
            // Entries 30.. are in no feature: only the L2 pull moves them.
            if k < 30 {
                assert!((g1[k] - l2 * w[k]).abs() > 1e-6, "weight {k} is used");
                checked += 1;
            }
        }
        assert_eq!(checked, 30);
        // And the loss is the mean NLL plus the L2 term.
        let reg = 0.5 * l2 * w.iter().map(|v| v * v).sum::<f64>();
        assert!((l1 - nll(&s, &idx, &w) - reg).abs() < 1e-9);
    }

    /// Targets drawn from a planted softmax model: the fit from zero lowers
    /// the loss to near the planted model's and finds its largest weights.
    #[test]
    fn fitting_recovers_a_planted_policy() {
        let mut s = random_samples(9, 4000, 12);
        let mut planted = vec![0.0; WEIGHTS];
        planted[..12].copy_from_slice(&[
            2.0, -1.0, 0.5, 0.0, 1.5, -2.0, 0.0, 0.3, -0.5, 1.0, 0.0, -1.5,
        ]);
        let mut rng = SplitMix64::new(10);
        for i in 0..s.len() {
            let r = s.range(i);
            let l: Vec<f64> = r.clone().map(|c| logit(&s, c, &planted)).collect();
            let z: f64 = l.iter().map(|v| v.exp()).sum();
            let mut u = rng.below(1 << 30) as f64 / (1u64 << 30) as f64 * z;
            let mut t = l.len() - 1;
            for (j, v) in l.iter().enumerate() {
                u -= v.exp();
                if u <= 0.0 {
                    t = j;
                    break;
                }
            }
            s.target[i] = t as u16;
        }
        let idx: Vec<u32> = (0..s.len() as u32).collect();
        let o = FitOptions {
            epochs: 20,
            lr: 0.05,
            l2: 0.0,
            batch: 128,
            seed: 1,
            threads: 1,
        };
        let zero = vec![0.0; WEIGHTS];
        let w = fit(&s, &idx, &zero, o, |_, _| {});
        let (l0, lw, lp) = (
            nll(&s, &idx, &zero),
            nll(&s, &idx, &w),
            nll(&s, &idx, &planted),
        );
        assert!(
            lw < lp + 0.01 && lw < l0 - 0.2,
            "zero {l0}, fitted {lw}, planted {lp}"
        );
        // The fit is shift-invariant per table: compare differences.
        let d = |v: &[f64], a: usize, b: usize| v[a] - v[b];
        assert!((d(&w, 0, 5) - 4.0).abs() < 0.5, "{:?}", &w[..12]);
        assert!((d(&w, 4, 11) - 3.0).abs() < 0.5, "{:?}", &w[..12]);
    }
}
