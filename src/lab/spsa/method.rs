//! The SPSA method: the gain schedules, the random perturbation and the
//! update. With N iterations numbered k = 0 … N − 1 and, per parameter,
//! its `c_end` and `r_end` (`scripts/SPSA.md` derives them):
//!
//! - perturbation size `c_k = c_end · N^γ / (k + 1)^γ` (so `c_{N−1} = c_end`)
//! - gain `a_k = r_end · c_end² · (A + N)^α / (A + k + 1)^α`
//!   (so `a_{N−1} / c_end² = r_end`)
//! - Δ: a ±1 per parameter, drawn from the run seed and k alone
//! - θ± = θ ± c_k Δ, clamped to [min, max] and rounded for integer types
//!   when handed to the engine
//! - r: the mean over the iteration's pairs of θ+'s points less θ−'s (in
//!   [−2, 2]: a colour-swapped pair's wins less losses for θ+)
//! - θ ← clamp(θ + a_k · r · Δ / c_k)
//!
//! with α = 0.602, γ = 0.101 and A = N / 10 unless the run says otherwise.

use super::spec::Param;
use crate::brain::game::zobrist::SplitMix64;

/// The constants of a run's gain schedules.
#[derive(Clone, Debug, PartialEq)]
pub struct Schedule {
    /// N, the planned number of iterations.
    pub iters: usize,
    /// A, the stability constant of the gain.
    pub big_a: f64,
    pub alpha: f64,
    pub gamma: f64,
}

impl Schedule {
    /// The standard constants for N iterations.
    pub fn standard(iters: usize) -> Schedule {
        Schedule {
            iters,
            big_a: (iters as f64 / 10.0).round(),
            alpha: 0.602,
            gamma: 0.101,
        }
    }

    /// c_k for a parameter.
    pub fn c(&self, p: &Param, k: usize) -> f64 {
        p.c_end * (self.iters as f64 / (k + 1) as f64).powf(self.gamma)
    }

    /// a_k for a parameter.
    pub fn a(&self, p: &Param, k: usize) -> f64 {
        let n = self.iters as f64;
        p.r_end
            * p.c_end
            * p.c_end
            * ((self.big_a + n) / (self.big_a + k as f64 + 1.0)).powf(self.alpha)
    }
}

/// Iteration k's perturbation signs, one per parameter: a function of the
/// seed and k only, so shards and resumed runs draw the same.
pub fn delta(seed: u64, k: usize, n: usize) -> Vec<f64> {
    let mut rng = SplitMix64::new(seed ^ (k as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    (0..n)
        .map(|_| if rng.next_u64() >> 63 == 1 { 1.0 } else { -1.0 })
        .collect()
}

/// `f(parameter, θ_i, Δ_i)` for each parameter.
fn each(
    params: &[Param],
    theta: &[f64],
    delta: &[f64],
    f: impl Fn(&Param, f64, f64) -> f64,
) -> Vec<f64> {
    params
        .iter()
        .zip(theta.iter().zip(delta))
        .map(|(p, (&t, &d))| f(p, t, d))
        .collect()
}

/// The values θ + sign · c_k Δ as the engine gets them.
pub fn perturbed(
    s: &Schedule,
    ps: &[Param],
    theta: &[f64],
    k: usize,
    delta: &[f64],
    sign: f64,
) -> Vec<f64> {
    each(ps, theta, delta, |p, t, d| {
        p.engine_value(t + sign * s.c(p, k) * d)
    })
}

/// θ after iteration k with result r (the mean per pair of θ+'s points
/// less θ−'s).
pub fn update(
    s: &Schedule,
    ps: &[Param],
    theta: &[f64],
    k: usize,
    delta: &[f64],
    r: f64,
) -> Vec<f64> {
    each(ps, theta, delta, |p, t, d| {
        (t + s.a(p, k) * r * d / s.c(p, k)).clamp(p.min, p.max)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lab::spsa::spec;

    #[test]
    fn schedules_end_at_c_end_and_r_end() {
        let p = &spec::parse("X, 5, 0, 100, 4, 0.2").unwrap()[0];
        let s = Schedule::standard(200);
        assert_eq!(s.big_a, 20.0);
        assert!((s.c(p, 199) - 4.0).abs() < 1e-12);
        assert!((s.a(p, 199) / 16.0 - 0.2).abs() < 1e-12);
        assert!((s.c(p, 0) - 4.0 * 200f64.powf(0.101)).abs() < 1e-9);
        assert!((s.a(p, 0) - 0.2 * 16.0 * (220.0f64 / 21.0).powf(0.602)).abs() < 1e-9);
        assert!(s.c(p, 10) > s.c(p, 11) && s.a(p, 10) > s.a(p, 11));
    }

    #[test]
    fn delta_is_seeded_balanced_and_per_iteration() {
        assert_eq!(delta(7, 3, 5), delta(7, 3, 5));
        assert_ne!(delta(7, 3, 64), delta(7, 4, 64));
        assert_ne!(delta(7, 3, 64), delta(8, 3, 64));
        let all: Vec<f64> = (0..200).flat_map(|k| delta(1, k, 5)).collect();
        assert!(all.iter().all(|d| d.abs() == 1.0));
        let plus = all.iter().filter(|&&d| d > 0.0).count();
        assert!((400..600).contains(&plus), "{plus} of 1000");
    }

    #[test]
    fn update_moves_towards_the_winning_side_and_clamps() {
        let ps = spec::parse("X, 5, 0, 100, 4, 0.2\nY, 1.5, 1, 2, 0.1, 0.2\n").unwrap();
        let s = Schedule::standard(100);
        let theta = [5.0, 1.5];
        let d = [1.0, -1.0];
        let plus = perturbed(&s, &ps, &theta, 0, &d, 1.0);
        let minus = perturbed(&s, &ps, &theta, 0, &d, -1.0);
        assert_eq!(plus[0], (5.0 + s.c(&ps[0], 0)).round());
        assert_eq!(minus[0], 0.0, "clamped at min");
        assert!(plus[1] < 1.5 && minus[1] > 1.5);
        // θ+ won: X goes up (Δ = +1), Y down (Δ = −1).
        let t = update(&s, &ps, &theta, 0, &d, 1.0);
        let step = s.a(&ps[0], 0) / s.c(&ps[0], 0);
        assert!((t[0] - (5.0 + step)).abs() < 1e-12);
        assert!(t[1] < 1.5);
        // θ− won: the other way; no result: no move.
        let t = update(&s, &ps, &theta, 0, &d, -2.0);
        assert!(t[0] < 5.0 && t[1] > 1.5);
        assert_eq!(update(&s, &ps, &theta, 0, &d, 0.0), theta.to_vec());
        let far = update(&s, &ps, &theta, 0, &d, 1e9);
        assert_eq!(far, vec![100.0, 1.0], "clamped to the range");
    }
}
