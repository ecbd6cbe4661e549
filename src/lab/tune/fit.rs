//! The optimiser: mean squared error of `sigmoid(score / K)` against the
//! targets, the scale `K`, full-batch Adam with an optional L2 pull towards
//! the start, and rounding to integers without losing the fit.

use super::*;

#[inline]
pub(crate) fn sigmoid(v: f64) -> f64 {
    1.0 / (1.0 + (-v).exp())
}

pub(crate) fn dot(w: &[f64], x: &[(u32, f64)]) -> f64 {
    x.iter().map(|&(i, v)| w[i as usize] * v).sum()
}

/// Mean squared error of `sigmoid(score / k)` against the results.
pub fn mse(samples: &[Sample], w: &[f64], k: f64) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    let s: f64 = samples
        .iter()
        .map(|s| {
            let e = sigmoid(dot(w, &s.x) / k) - s.y;
            e * e
        })
        .sum();
    s / samples.len() as f64
}

/// The scale `K` (score units per logit) that best fits `w`: a golden
/// section search over 10..5000 on a log scale.
pub fn fit_k(samples: &[Sample], w: &[f64]) -> f64 {
    let (mut lo, mut hi) = (10f64.ln(), 5000f64.ln());
    let g = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..60 {
        let a = hi - g * (hi - lo);
        let b = lo + g * (hi - lo);
        if mse(samples, w, a.exp()) < mse(samples, w, b.exp()) {
            hi = b;
        } else {
            lo = a;
        }
    }
    ((lo + hi) / 2.0).exp()
}

/// Which weights a fit may move: not the frozen ones, nor those that
/// count in too few samples to be measured (fewer than `min_samples`).
pub fn tunable(samples: &[Sample], model: Model, min_samples: usize) -> Vec<bool> {
    let mut seen = vec![0usize; model.dims()];
    for s in samples {
        for &(k, _) in &s.x {
            seen[k as usize] += 1;
        }
    }
    (0..model.dims())
        .map(|k| (k >= MASK_START || !frozen(k % WEIGHTS)) && seen[k] >= min_samples)
        .collect()
}

/// How a fit runs: Adam on the mean squared error, full batch, `epochs`
/// steps of size `lr` score units, plus `l2` times the mean squared change
/// from the start in hundreds of score units (keeps rarely seen weights
/// near the hand-set ones).
#[derive(Clone, Copy, Debug)]
pub struct FitOptions {
    pub epochs: usize,
    pub lr: f64,
    pub l2: f64,
}

/// Fit the weights marked in `free` from `start`. The tables' weights stay
/// non-negative (every shape is worth something to its owner); a threat
/// mask may be worth less than its points add up to.
pub fn fit(samples: &[Sample], start: &[f64], free: &[bool], k: f64, o: FitOptions) -> Vec<f64> {
    let FitOptions { epochs, lr, l2 } = o;
    let dims = start.len();
    let mut w = start.to_vec();
    let (mut m, mut v) = (vec![0.0; dims], vec![0.0; dims]);
    let (b1, b2, eps) = (0.9f64, 0.999f64, 1e-12);
    let n = samples.len().max(1) as f64;
    for t in 1..=epochs {
        let mut g = vec![0.0; dims];
        for s in samples {
            let p = sigmoid(dot(&w, &s.x) / k);
            let c = 2.0 * (p - s.y) * p * (1.0 - p) / k;
            for &(j, xj) in &s.x {
                g[j as usize] += c * xj;
            }
        }
        for j in 0..dims {
            if !free[j] {
                continue;
            }
            let gj = g[j] / n + 2.0 * l2 * (w[j] - start[j]) / 1e4 / dims as f64;
            m[j] = b1 * m[j] + (1.0 - b1) * gj;
            v[j] = b2 * v[j] + (1.0 - b2) * gj * gj;
            let mh = m[j] / (1.0 - b1.powi(t as i32));
            let vh = v[j] / (1.0 - b2.powi(t as i32));
            w[j] -= lr * mh / (vh.sqrt() + eps);
            if j < MASK_START {
                w[j] = w[j].max(0.0);
            }
        }
    }
    w
}

/// Round the fitted weights to the integers the engine uses without
/// losing the fit: a weight that counts about once a position or more
/// (pattern pairs count on many points) shifts every score by its
/// rounding error times its count, so those are rounded one at a time,
/// most counted first, each followed by `refit` steps of the others that
/// are still free; the rest are rounded at the end.
pub fn round_polish(
    samples: &[Sample],
    w: &[f64],
    free: &[bool],
    k: f64,
    o: FitOptions,
    refit: usize,
) -> Vec<f64> {
    let n = samples.len().max(1) as f64;
    let mut count = vec![0.0f64; w.len()];
    for s in samples {
        for &(j, v) in &s.x {
            count[j as usize] += v.abs();
        }
    }
    let mut order: Vec<usize> = (0..w.len())
        .filter(|&j| free[j] && count[j] / n >= 1.0)
        .collect();
    order.sort_by(|&a, &b| count[b].total_cmp(&count[a]));
    let mut w = w.to_vec();
    let mut still = free.to_vec();
    for j in order {
        w[j] = w[j].round();
        still[j] = false;
        if refit > 0 && still.iter().any(|&f| f) {
            w = fit(samples, &w, &still, k, FitOptions { epochs: refit, ..o });
        }
    }
    w.iter().map(|v| v.round()).collect()
}
