//! Ratings for N engines fitted jointly from every game: the Bradley–Terry
//! (logistic Elo) model, where engine i scores against engine j with
//! probability p = 1 / (1 + 10^((r_j − r_i) / 400)) and a draw counts as
//! half a point each way. The ratings maximise the log-likelihood
//!
//!   L(r) = Σ over pairs {i, j}  s_ij ln p_ij + (n_ij − s_ij) ln (1 − p_ij)
//!
//! (n_ij games, s_ij points of i) with one engine held at a fixed Elo (the
//! anchor), by Newton's method. The 95 % intervals come from the observed
//! Fisher information, the negated Hessian of L at the optimum: its inverse
//! is the covariance of the free ratings, so each interval is ±1.96 σ
//! relative to the anchor (whose own σ is 0), and the likelihood of
//! superiority of a over b is Φ((r_a − r_b) / σ(r_a − r_b)), which does not
//! depend on the anchor.
//!
//! A score of 100 % or 0 % has no finite maximum, so by default every
//! scheduled pairing carries `prior` virtual drawn games (1 by default, as
//! Elo tools commonly add a few virtual draws). This pulls extreme results
//! slightly towards each other and keeps the fit defined from the first
//! game; with `prior` 0 it is the pure maximum-likelihood fit, and ratings
//! that diverge come out as NaN (`null` in JSON).

/// ln(10) / 400: Elo points to natural logistic units.
const BETA: f64 = std::f64::consts::LN_10 / 400.0;

/// One game's contribution: engines `a` and `b`, `a`'s points (0, ½, 1).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Outcome {
    pub a: usize,
    pub b: usize,
    pub score_a: f64,
}

/// How the fit is pinned and regularised.
#[derive(Clone, Debug, PartialEq)]
pub struct FitConfig {
    /// The engine whose rating is fixed.
    pub anchor: usize,
    /// Its rating.
    pub anchor_elo: f64,
    /// Virtual drawn games per scheduled pairing.
    pub prior: f64,
}

impl Default for FitConfig {
    fn default() -> Self {
        FitConfig {
            anchor: 0,
            anchor_elo: 0.0,
            prior: 1.0,
        }
    }
}

/// The fitted ratings.
#[derive(Clone, Debug)]
pub struct Ratings {
    /// Elo per engine (NaN where the fit does not exist).
    pub elo: Vec<f64>,
    /// Half width of the 95 % interval per engine (0 for the anchor).
    pub elo_95: Vec<f64>,
    /// Covariance of the ratings (Elo²); anchor row and column are 0.
    pub cov: Vec<Vec<f64>>,
    /// Newton iterations used.
    pub iterations: usize,
}

impl Ratings {
    /// Likelihood that engine `a` is stronger than engine `b`.
    pub fn los(&self, a: usize, b: usize) -> f64 {
        let d = self.elo[a] - self.elo[b];
        let var = self.cov[a][a] + self.cov[b][b] - 2.0 * self.cov[a][b];
        if !d.is_finite() || !var.is_finite() {
            return f64::NAN;
        }
        if var <= 0.0 {
            return if d > 0.0 {
                1.0
            } else if d < 0.0 {
                0.0
            } else {
                0.5
            };
        }
        normal_cdf(d / var.sqrt())
    }

    /// Engine indices from the highest rating down (ties: lower index first;
    /// NaN last).
    pub fn order(&self) -> Vec<usize> {
        let mut idx: Vec<usize> = (0..self.elo.len()).collect();
        idx.sort_by(|&x, &y| {
            let (a, b) = (self.elo[x], self.elo[y]);
            match (a.is_nan(), b.is_nan()) {
                (true, true) => x.cmp(&y),
                (true, false) => std::cmp::Ordering::Greater,
                (false, true) => std::cmp::Ordering::Less,
                _ => b
                    .partial_cmp(&a)
                    .unwrap_or(std::cmp::Ordering::Equal)
                    .then(x.cmp(&y)),
            }
        });
        idx
    }
}

/// Standard normal distribution function (Abramowitz–Stegun 7.1.26 erf,
/// absolute error below 1.5e-7: plenty for a percentage).
pub fn normal_cdf(z: f64) -> f64 {
    let x = z.abs() / std::f64::consts::SQRT_2;
    let t = 1.0 / (1.0 + 0.327_591_1 * x);
    let poly = t
        * (0.254_829_592
            + t * (-0.284_496_736
                + t * (1.421_413_741 + t * (-1.453_152_027 + t * 1.061_405_429))));
    let erf = 1.0 - poly * (-x * x).exp();
    if z >= 0.0 {
        0.5 * (1.0 + erf)
    } else {
        0.5 * (1.0 - erf)
    }
}

fn logistic(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// Fit ratings for `n` engines from `games`; `pairings` lists the scheduled
/// pairs that get the prior's virtual draws.
pub fn fit(n: usize, games: &[Outcome], pairings: &[(usize, usize)], cfg: &FitConfig) -> Ratings {
    // Games and points per unordered pair, in an n×n table (i < j).
    let mut games_ij = vec![vec![0.0f64; n]; n];
    let mut score_ij = vec![vec![0.0f64; n]; n];
    let mut add = |a: usize, b: usize, games: f64, score_a: f64| {
        if a == b || a >= n || b >= n {
            return;
        }
        let (i, j, s) = if a < b {
            (a, b, score_a)
        } else {
            (b, a, games - score_a)
        };
        games_ij[i][j] += games;
        score_ij[i][j] += s;
    };
    for g in games {
        add(g.a, g.b, 1.0, g.score_a);
    }
    if cfg.prior > 0.0 {
        for &(a, b) in pairings {
            add(a, b, cfg.prior, cfg.prior / 2.0);
        }
    }
    let nan = Ratings {
        elo: vec![f64::NAN; n],
        elo_95: vec![f64::NAN; n],
        cov: vec![vec![f64::NAN; n]; n],
        iterations: 0,
    };
    if n == 0 || cfg.anchor >= n {
        return nan;
    }
    let free: Vec<usize> = (0..n).filter(|&i| i != cfg.anchor).collect();
    let pos = |i: usize| free.iter().position(|&f| f == i);
    let mut r = vec![0.0f64; n]; // natural units, anchor at 0

    let loglik = |r: &[f64]| -> f64 {
        let mut l = 0.0;
        for i in 0..n {
            for j in i + 1..n {
                if games_ij[i][j] > 0.0 {
                    let x = r[i] - r[j];
                    // ln p = −ln(1 + e^−x), computed stably.
                    let lp = -softplus(-x);
                    let lq = -softplus(x);
                    l += score_ij[i][j] * lp + (games_ij[i][j] - score_ij[i][j]) * lq;
                }
            }
        }
        l
    };
    // Gradient and information (negated Hessian) over the free ratings.
    let derivs = |r: &[f64]| -> (Vec<f64>, Vec<Vec<f64>>) {
        let m = free.len();
        let mut g = vec![0.0; m];
        let mut h = vec![vec![0.0; m]; m];
        for i in 0..n {
            for j in i + 1..n {
                let nij = games_ij[i][j];
                if nij <= 0.0 {
                    continue;
                }
                let p = logistic(r[i] - r[j]);
                let resid = score_ij[i][j] - nij * p;
                let w = nij * p * (1.0 - p);
                let (pi, pj) = (pos(i), pos(j));
                if let Some(a) = pi {
                    g[a] += resid;
                    h[a][a] += w;
                }
                if let Some(b) = pj {
                    g[b] -= resid;
                    h[b][b] += w;
                }
                if let (Some(a), Some(b)) = (pi, pj) {
                    h[a][b] -= w;
                    h[b][a] -= w;
                }
            }
        }
        (g, h)
    };

    let mut iterations = 0;
    let mut converged = free.is_empty();
    let mut l = loglik(&r);
    while !converged && iterations < 200 {
        iterations += 1;
        let (g, h) = derivs(&r);
        let Some(step) = solve(&h, &g) else {
            return nan;
        };
        // Damped Newton: halve the step until the likelihood does not drop.
        let mut t = 1.0;
        let mut next = r.clone();
        loop {
            for (k, &i) in free.iter().enumerate() {
                next[i] = r[i] + t * step[k];
            }
            let ln = loglik(&next);
            if ln >= l - 1e-12 || t < 1e-6 {
                l = ln;
                break;
            }
            t *= 0.5;
        }
        let moved = free
            .iter()
            .map(|&i| (next[i] - r[i]).abs())
            .fold(0.0, f64::max);
        r = next;
        converged = moved < 1e-10;
        if r.iter().any(|x| x.abs() > 60.0) {
            // Beyond ±10 000 Elo: the maximum is at infinity.
            return nan;
        }
    }
    if !converged {
        return nan;
    }
    let (_, h) = derivs(&r);
    let Some(inv) = invert(&h) else {
        return nan;
    };
    let scale = 1.0 / BETA;
    let mut cov = vec![vec![0.0; n]; n];
    for (a, &i) in free.iter().enumerate() {
        for (b, &j) in free.iter().enumerate() {
            cov[i][j] = inv[a][b] * scale * scale;
        }
    }
    let elo: Vec<f64> = r.iter().map(|x| cfg.anchor_elo + x * scale).collect();
    let elo_95 = (0..n)
        .map(|i| 1.959_964 * cov[i][i].max(0.0).sqrt())
        .collect();
    Ratings {
        elo,
        elo_95,
        cov,
        iterations,
    }
}

fn softplus(x: f64) -> f64 {
    if x > 30.0 {
        x
    } else {
        x.exp().ln_1p()
    }
}

/// Cholesky factor of a symmetric positive definite matrix, or None.
fn cholesky(a: &[Vec<f64>]) -> Option<Vec<Vec<f64>>> {
    let m = a.len();
    let mut l = vec![vec![0.0; m]; m];
    for i in 0..m {
        for j in 0..=i {
            let s = a[i][j] - (0..j).map(|k| l[i][k] * l[j][k]).sum::<f64>();
            if i == j {
                if s <= 1e-12 * (1.0 + a[i][i].abs()) {
                    return None;
                }
                l[i][i] = s.sqrt();
            } else {
                l[i][j] = s / l[j][j];
            }
        }
    }
    Some(l)
}

fn solve_cholesky(l: &[Vec<f64>], b: &[f64]) -> Vec<f64> {
    let m = l.len();
    let mut y = vec![0.0; m];
    for i in 0..m {
        let s = b[i] - (0..i).map(|k| l[i][k] * y[k]).sum::<f64>();
        y[i] = s / l[i][i];
    }
    let mut x = vec![0.0; m];
    for i in (0..m).rev() {
        let s = y[i] - (i + 1..m).map(|k| l[k][i] * x[k]).sum::<f64>();
        x[i] = s / l[i][i];
    }
    x
}

/// x with A x = b for a positive definite A (None: singular, e.g. an
/// engine with no games against the rest).
fn solve(a: &[Vec<f64>], b: &[f64]) -> Option<Vec<f64>> {
    let l = cholesky(a)?;
    Some(solve_cholesky(&l, b))
}

fn invert(a: &[Vec<f64>]) -> Option<Vec<Vec<f64>>> {
    let m = a.len();
    let l = cholesky(a)?;
    let mut inv = vec![vec![0.0; m]; m];
    for c in 0..m {
        let mut e = vec![0.0; m];
        e[c] = 1.0;
        let col = solve_cholesky(&l, &e);
        for r in 0..m {
            inv[r][c] = col[r];
        }
    }
    Some(inv)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn games(a: usize, b: usize, wins: usize, draws: usize, losses: usize) -> Vec<Outcome> {
        let mut v = Vec::new();
        v.extend((0..wins).map(|_| Outcome { a, b, score_a: 1.0 }));
        v.extend((0..draws).map(|_| Outcome { a, b, score_a: 0.5 }));
        v.extend((0..losses).map(|_| Outcome { a, b, score_a: 0.0 }));
        v
    }

    fn pure(anchor: usize) -> FitConfig {
        FitConfig {
            anchor,
            anchor_elo: 0.0,
            prior: 0.0,
        }
    }

    #[test]
    fn two_engines_match_the_closed_form() {
        // 60 % for engine 1: Elo difference −400 log10(1/0.6 − 1).
        let g = games(1, 0, 50, 20, 30);
        let r = fit(2, &g, &[(0, 1)], &pure(0));
        let expect = -400.0 * (1.0f64 / 0.6 - 1.0).log10();
        assert!((r.elo[1] - expect).abs() < 1e-6, "{:?}", r.elo);
        assert_eq!(r.elo[0], 0.0);
        assert_eq!(r.elo_95[0], 0.0);
        // σ from the information n p (1 − p) β².
        let sd = 1.0 / (100.0 * 0.6 * 0.4f64).sqrt() / BETA;
        assert!((r.elo_95[1] - 1.959964 * sd).abs() < 1e-6);
        assert!(r.los(1, 0) > 0.97 && r.los(1, 0) < 1.0);
        assert!((r.los(1, 0) + r.los(0, 1) - 1.0).abs() < 1e-9);
        assert_eq!(r.order(), vec![1, 0]);
    }

    #[test]
    fn joint_fit_uses_every_game_and_the_anchor_only_shifts() {
        // A beats B 70 %, B beats C 70 %, A beats C 80 %.
        let mut g = games(0, 1, 7, 0, 3);
        g.extend(games(1, 2, 7, 0, 3));
        g.extend(games(0, 2, 8, 0, 2));
        let pairs = [(0, 1), (0, 2), (1, 2)];
        let r = fit(3, &g, &pairs, &pure(0));
        assert!(r.elo[1] < 0.0 && r.elo[2] < r.elo[1]);
        // The gradient vanishes at the optimum: expected points = points.
        for i in 0..3 {
            let (mut exp, mut got) = (0.0, 0.0);
            for o in &g {
                let (me, other, s) = if o.a == i {
                    (o.a, o.b, o.score_a)
                } else if o.b == i {
                    (o.b, o.a, 1.0 - o.score_a)
                } else {
                    continue;
                };
                exp += logistic(BETA * (r.elo[me] - r.elo[other]));
                got += s;
            }
            assert!((exp - got).abs() < 1e-6, "engine {i}: {exp} vs {got}");
        }
        let shifted = fit(
            3,
            &g,
            &pairs,
            &FitConfig {
                anchor: 2,
                anchor_elo: 1000.0,
                prior: 0.0,
            },
        );
        for i in 0..3 {
            let d = shifted.elo[i] - r.elo[i];
            assert!((d - (1000.0 - r.elo[2])).abs() < 1e-6);
        }
        assert!((shifted.los(0, 1) - r.los(0, 1)).abs() < 1e-9);
        assert_eq!(shifted.elo_95[2], 0.0);
        assert!(shifted.elo_95[0] > 0.0);
    }

    #[test]
    fn perfect_scores_need_the_prior() {
        let g = games(0, 1, 10, 0, 0);
        let r = fit(2, &g, &[(0, 1)], &pure(0));
        assert!(r.elo[1].is_nan());
        let r = fit(2, &g, &[(0, 1)], &FitConfig::default());
        // 10.5 of 11 points.
        let expect = -400.0 * (11.0f64 / 10.5 - 1.0).log10();
        assert!((r.elo[0] - r.elo[1] - expect).abs() < 1e-6);
        // No games: everything at the anchor, wide intervals.
        let r = fit(3, &[], &[(0, 1), (0, 2)], &FitConfig::default());
        assert_eq!(r.elo, vec![0.0, 0.0, 0.0]);
        assert!(r.elo_95[1] > 500.0);
        // An engine nobody played: no fit.
        let r = fit(3, &games(0, 1, 1, 1, 1), &[(0, 1)], &FitConfig::default());
        assert!(r.elo[2].is_nan());
    }

    #[test]
    fn normal_cdf_values() {
        assert!((normal_cdf(0.0) - 0.5).abs() < 1e-9);
        assert!((normal_cdf(1.959964) - 0.975).abs() < 1e-6);
        assert!((normal_cdf(-1.0) - 0.158655).abs() < 1e-6);
    }
}
