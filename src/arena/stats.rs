//! Match statistics: W/D/L and pentanomial tallies, score, Elo difference
//! with a 95% interval, likelihood of superiority, and the sequential
//! probability ratio test (SPRT) that stops a match once it is decided.
//!
//! Elo uses the logistic model: an expected score `s` corresponds to
//! `-400 log10(1/s - 1)`. The SPRT is the generalised SPRT with a normal
//! approximation of the log-likelihood ratio, on game results (trinomial) or
//! on colour-swapped pairs (pentanomial, preferred when pairs are complete).

/// Results counted from engine 1's side.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Tally {
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    /// Pairs (the two games of one opening) by engine 1's pair score:
    /// index 0 = 0, 1 = ½, 2 = 1, 3 = 1½, 4 = 2 points.
    pub penta: [u64; 5],
}

/// z for a two-sided 95% interval.
pub const Z95: f64 = 1.959_963_984_540_054;

impl Tally {
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    pub fn pairs(&self) -> u64 {
        self.penta.iter().sum()
    }

    /// Add one game: `score` is engine 1's points (0, 0.5 or 1).
    pub fn add_game(&mut self, score: f64) {
        if score > 0.75 {
            self.wins += 1;
        } else if score < 0.25 {
            self.losses += 1;
        } else {
            self.draws += 1;
        }
    }

    /// Add a finished pair: engine 1's total points over both games (0..=2).
    pub fn add_pair(&mut self, points: f64) {
        let i = (points * 2.0).round().clamp(0.0, 4.0) as usize;
        self.penta[i] += 1;
    }

    /// Engine 1's mean score per game (0.5 when no game was played).
    pub fn score(&self) -> f64 {
        let n = self.games();
        if n == 0 {
            return 0.5;
        }
        (self.wins as f64 + 0.5 * self.draws as f64) / n as f64
    }

    /// Per-game variance of engine 1's score.
    fn game_variance(&self) -> f64 {
        let n = self.games() as f64;
        if n == 0.0 {
            return 0.0;
        }
        let s = self.score();
        (self.wins as f64 * (1.0 - s).powi(2)
            + self.draws as f64 * (0.5 - s).powi(2)
            + self.losses as f64 * s.powi(2))
            / n
    }

    /// Score clamped away from 0 and 1 by half a game, so that a clean sweep
    /// still gives a finite Elo figure.
    fn clamped_score(&self, s: f64) -> f64 {
        let n = self.games().max(1) as f64;
        let eps = 0.5 / n;
        s.clamp(eps.min(0.5), (1.0 - eps).max(0.5))
    }

    /// Elo difference of engine 1 over engine 2.
    pub fn elo(&self) -> f64 {
        elo_from_score(self.clamped_score(self.score()))
    }

    /// Half-width of the 95% interval of the Elo difference (for a clean
    /// sweep: the distance to the Elo of the score's Wilson bound).
    pub fn elo_95(&self) -> f64 {
        let n = self.games();
        if n == 0 {
            return 0.0;
        }
        let s = self.score();
        if self.wins == n || self.losses == n {
            // A clean sweep has no spread: use the Wilson bound of the score,
            // 1 / (1 + z²/n) away from the certain result. For n ≤ 3 that
            // bound lies on the other side of ½ (its Elo has the other sign),
            // so the distance is |elo| − elo(bound), not a difference of
            // absolute values; and the bound is not clamped (one game's
            // clamp would pull it to ½).
            let bound = 1.0 / (1.0 + Z95 * Z95 / n as f64);
            return self.elo().abs() - elo_from_score(bound);
        }
        let se = (self.game_variance() / n as f64).sqrt();
        let hi = elo_from_score(self.clamped_score(s + Z95 * se));
        let lo = elo_from_score(self.clamped_score(s - Z95 * se));
        (hi - lo) / 2.0
    }

    /// Likelihood of superiority: the probability that engine 1 is stronger,
    /// from wins and losses (draws carry no information here).
    pub fn los(&self) -> f64 {
        let (w, l) = (self.wins as f64, self.losses as f64);
        if w + l == 0.0 {
            return 0.5;
        }
        0.5 * (1.0 + erf((w - l) / (2.0 * (w + l)).sqrt()))
    }
}

/// Elo difference for a mean score `s` in (0, 1).
pub fn elo_from_score(s: f64) -> f64 {
    -400.0 * (1.0 / s - 1.0).log10()
}

/// Expected score for an Elo difference.
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The error function, by its Maclaurin series for small arguments and a
/// continued fraction for erfc beyond; accurate to about 1e-12.
pub fn erf(x: f64) -> f64 {
    if x < 0.0 {
        return -erf(-x);
    }
    if x < 2.5 {
        // erf x = 2/sqrt(pi) * sum (-1)^n x^(2n+1) / (n! (2n+1))
        let mut term = x;
        let mut sum = x;
        let x2 = x * x;
        let mut n = 0.0;
        while term.abs() > 1e-17 * sum.abs() {
            n += 1.0;
            term *= -x2 / n;
            sum += term / (2.0 * n + 1.0);
        }
        return sum * 2.0 / std::f64::consts::PI.sqrt();
    }
    // erfc x = exp(-x²)/sqrt(pi) * 1/(x + (1/2)/(x + 1/(x + (3/2)/(x + ...))))
    let mut f = x;
    for k in (1..60).rev() {
        f = x + (k as f64 / 2.0) / f;
    }
    1.0 - (-x * x).exp() / std::f64::consts::PI.sqrt() / f
}

/// Pseudo-count added to every result bucket of the SPRT: a weak prior that
/// keeps the variance estimate from collapsing on a few identical results.
/// (With 1e-3, five colour-swapped pairs that each split 1–1, common in
/// freestyle where the opening colour decides, gave a variance near zero and
/// an LLR of −9: H0 "accepted" after 10 games.)
pub const REGULARIZE: f64 = 0.1;
/// The SPRT decides nothing before this many games.
pub const SPRT_MIN_GAMES: u64 = 20;

/// Decision of an SPRT.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtState {
    Continue,
    /// H1 accepted: engine 1 is at least `elo1` stronger (a pass).
    AcceptH1,
    /// H0 accepted: engine 1 is at most `elo0` stronger (a fail).
    AcceptH0,
}

/// An SPRT of H0: elo = elo0 against H1: elo = elo1.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
}

impl Sprt {
    /// (lower, upper) bounds of the log-likelihood ratio.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// Log-likelihood ratio: pentanomial when complete pairs exist,
    /// trinomial otherwise.
    pub fn llr(&self, t: &Tally) -> f64 {
        if t.pairs() > 0 {
            self.llr_pentanomial(t)
        } else {
            self.llr_trinomial(t)
        }
    }

    /// LLR of the normal approximation for results `values` seen
    /// `counts` times. Every count gets a pseudo-count of `REGULARIZE` so
    /// that a one-sided sample (all wins) still has a variance.
    fn llr_buckets(&self, values: &[f64], counts: &[u64]) -> f64 {
        let n: f64 = counts.iter().sum::<u64>() as f64;
        if n == 0.0 {
            return 0.0;
        }
        let c: Vec<f64> = counts.iter().map(|&k| k as f64 + REGULARIZE).collect();
        let total: f64 = c.iter().sum();
        let mean = values.iter().zip(&c).map(|(v, k)| v * k).sum::<f64>() / total;
        let var = values
            .iter()
            .zip(&c)
            .map(|(v, k)| k * (v - mean).powi(2))
            .sum::<f64>()
            / total;
        if var <= 0.0 {
            return 0.0;
        }
        let s0 = score_from_elo(self.elo0);
        let s1 = score_from_elo(self.elo1);
        n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var)
    }

    /// LLR on single games: scores 0, ½, 1.
    pub fn llr_trinomial(&self, t: &Tally) -> f64 {
        self.llr_buckets(&[0.0, 0.5, 1.0], &[t.losses, t.draws, t.wins])
    }

    /// LLR on pairs: each pair's mean score is 0, ¼, ½, ¾ or 1.
    pub fn llr_pentanomial(&self, t: &Tally) -> f64 {
        self.llr_buckets(&[0.0, 0.25, 0.5, 0.75, 1.0], &t.penta)
    }

    /// The decision, never before `SPRT_MIN_GAMES` games.
    pub fn state(&self, t: &Tally) -> SprtState {
        if t.games() < SPRT_MIN_GAMES {
            return SprtState::Continue;
        }
        let llr = self.llr(t);
        let (lo, hi) = self.bounds();
        if llr >= hi {
            SprtState::AcceptH1
        } else if llr <= lo {
            SprtState::AcceptH0
        } else {
            SprtState::Continue
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tally(w: u64, d: u64, l: u64) -> Tally {
        Tally {
            wins: w,
            draws: d,
            losses: l,
            penta: [0; 5],
        }
    }

    fn close(a: f64, b: f64, eps: f64) -> bool {
        (a - b).abs() < eps
    }

    #[test]
    fn erf_matches_known_values() {
        assert!(close(erf(0.0), 0.0, 1e-15));
        assert!(close(erf(0.5), 0.520_499_877_813_046_5, 1e-12));
        assert!(close(erf(1.0), 0.842_700_792_949_714_9, 1e-12));
        assert!(close(erf(2.0), 0.995_322_265_018_952_7, 1e-12));
        assert!(close(erf(3.0), 0.999_977_909_503_001_4, 1e-12));
        assert!(close(erf(-1.0), -0.842_700_792_949_714_9, 1e-12));
    }

    #[test]
    fn elo_of_known_scores() {
        assert!(close(tally(5, 0, 5).elo(), 0.0, 1e-9));
        // 75%: 400 log10(3)
        assert!(close(tally(3, 0, 1).elo(), 190.848_501_887_865, 1e-6));
        assert!(close(tally(1, 0, 3).elo(), -190.848_501_887_865, 1e-6));
        // draws count half: 6 W, 4 D, 0 L = 80% -> 400 log10(4)
        assert!(close(tally(6, 4, 0).elo(), 240.823_996_531_185, 1e-6));
        assert!(close(score_from_elo(elo_from_score(0.3)), 0.3, 1e-12));
        // a clean sweep stays finite and positive
        let sweep = tally(10, 0, 0).elo();
        assert!(sweep.is_finite() && sweep > 400.0);
    }

    #[test]
    fn elo_interval_known_value() {
        // 60 W, 20 D, 20 L: s = 0.7, per-game var = 0.6*0.09 + 0.2*0.04 + 0.2*0.49 = 0.16
        // se = 0.04, s± = 0.7 ± 0.078398559; half-width of the Elo interval:
        let t = tally(60, 20, 20);
        let se = 0.04;
        let want = (elo_from_score(0.7 + Z95 * se) - elo_from_score(0.7 - Z95 * se)) / 2.0;
        assert!(close(t.elo_95(), want, 1e-9));
        assert!(close(want, 66.0134, 1e-3), "{want}");
        assert_eq!(tally(0, 0, 0).elo_95(), 0.0);
        // 10-0: Wilson bound 1/(1+z²/10) = 0.72246; clamped score 0.95.
        let sweep = tally(10, 0, 0);
        let want = elo_from_score(0.95) - elo_from_score(1.0 / (1.0 + Z95 * Z95 / 10.0));
        assert!(close(sweep.elo_95(), want, 1e-9));
        assert!(close(want, 511.5 - 166.0, 1.0), "{want}");
        assert!(close(tally(0, 0, 10).elo_95(), want, 1e-9));
        // n ≤ 3: the Wilson bound 1/(1+z²/n) is below ½ (0.2066, 0.3424,
        // 0.4385), so the interval reaches below zero Elo: the half-width is
        // the shown Elo plus the bound's distance below zero. (The old
        // difference of absolute values gave 0, 77.5 and 236.6.)
        for (n, shown) in [(1, 0.5), (2, 0.75), (3, 5.0 / 6.0)] {
            let bound = 1.0 / (1.0 + Z95 * Z95 / n as f64);
            assert!(bound < 0.5);
            let want = elo_from_score(shown) - elo_from_score(bound);
            assert!(close(tally(n, 0, 0).elo_95(), want, 1e-9), "n {n}");
            assert!(close(tally(0, 0, n).elo_95(), want, 1e-9), "n {n}");
            assert!(tally(n, 0, 0).elo() - tally(n, 0, 0).elo_95() < 0.0);
        }
        // Values checked with Python math.
        assert!(close(tally(1, 0, 0).elo_95(), 233.80, 0.01));
        assert!(close(tally(2, 0, 0).elo_95(), 304.23, 0.01));
        assert!(close(tally(3, 0, 0).elo_95(), 322.54, 0.01));
    }

    #[test]
    fn los_known_values() {
        assert!(close(tally(10, 3, 10).los(), 0.5, 1e-12));
        // W-L = 10, W+L = 10: 0.5 (1 + erf(10 / sqrt 20))
        assert!(close(tally(10, 0, 0).los(), 0.999_217_298_870_998_7, 1e-9));
        // 60 W 40 L: erf(20/sqrt(200)) = erf(1.41421356)
        assert!(close(tally(60, 7, 40).los(), 0.977_249_868_051_8, 1e-9));
        assert!(tally(40, 0, 60).los() < 0.05);
    }

    #[test]
    fn sprt_bounds_and_llr_known_values() {
        let sprt = Sprt {
            elo0: 0.0,
            elo1: 10.0,
            alpha: 0.05,
            beta: 0.05,
        };
        let (lo, hi) = sprt.bounds();
        assert!(close(lo, -2.944_438_979_166_44, 1e-9));
        assert!(close(hi, 2.944_438_979_166_44, 1e-9));
        // 60 W 20 D 20 L: n = 100, mean 0.7, var 0.16;
        // s0 = 0.5, s1 = 1/(1+10^(-1/40)) (values checked with Python math)
        let t = tally(60, 20, 20);
        let s1 = 1.0 / (1.0 + 10f64.powf(-10.0 / 400.0));
        assert!(close(s1, 0.514_387_184_165_998_7, 1e-12));
        let want = 100.0 * (s1 - 0.5) * (1.4 - 0.5 - s1) / (2.0 * 0.16);
        // (the pseudo-counts move the figure by well under 1 %)
        assert!(close(sprt.llr(&t), want, 0.02 * want));
        assert!(close(want, 1.733_713_311_929, 1e-9), "{want}");
        assert_eq!(sprt.state(&t), SprtState::Continue);
        // Twice as many games of the same shape: LLR doubles, H1 accepted.
        let t2 = tally(120, 40, 40);
        assert!(close(sprt.llr(&t2), 2.0 * want, 0.04 * want));
        assert_eq!(sprt.state(&t2), SprtState::AcceptH1);
        // The mirror image is rejected.
        assert_eq!(sprt.state(&tally(40, 40, 120)), SprtState::AcceptH0);
        // No information: LLR 0.
        assert_eq!(sprt.llr(&tally(0, 0, 0)), 0.0);
        // All draws: the engines look equal, evidence for H0 (elo 0).
        assert!(sprt.llr(&tally(0, 9, 0)) < 0.0);
        // A clean sweep has a variance thanks to the pseudo-counts, but
        // nothing is decided before SPRT_MIN_GAMES games.
        assert!(sprt.llr(&tally(19, 0, 0)) > hi);
        assert_eq!(sprt.state(&tally(19, 0, 0)), SprtState::Continue);
        assert_eq!(sprt.state(&tally(20, 0, 0)), SprtState::AcceptH1);
    }

    #[test]
    fn identical_pairs_do_not_decide_early() {
        let sprt = Sprt {
            elo0: 0.0,
            elo1: 15.0,
            alpha: 0.05,
            beta: 0.05,
        };
        let (lo, _) = sprt.bounds();
        // Every opening won by the same colour in both games: 1 point a pair.
        let mut t = Tally::default();
        for _ in 0..10 {
            t.add_game(1.0);
            t.add_game(0.0);
            t.add_pair(1.0);
        }
        assert_eq!(t.penta, [0, 0, 10, 0, 0]);
        let llr = sprt.llr(&t);
        assert!(llr < 0.0 && llr > lo / 4.0, "llr {llr}");
        assert_eq!(sprt.state(&t), SprtState::Continue);
        // Hundreds of such pairs are real evidence that nothing changed.
        for _ in 0..190 {
            t.add_game(1.0);
            t.add_game(0.0);
            t.add_pair(1.0);
        }
        assert_eq!(sprt.state(&t), SprtState::AcceptH0);
    }

    #[test]
    fn sprt_pentanomial_known_value() {
        let sprt = Sprt {
            elo0: -5.0,
            elo1: 5.0,
            alpha: 0.05,
            beta: 0.05,
        };
        let mut t = Tally::default();
        // pairs: 10 at 0.5 each side... scores 0, .25, .5, .75, 1
        for (i, n) in [2u64, 10, 20, 14, 4].into_iter().enumerate() {
            for _ in 0..n {
                t.add_pair(i as f64 / 2.0);
            }
        }
        assert_eq!(t.penta, [2, 10, 20, 14, 4]);
        // The normal-approximation LLR over the pair scores, each bucket
        // with its pseudo-count.
        let n: f64 = 50.0;
        let c = [2.0, 10.0, 20.0, 14.0, 4.0].map(|k: f64| k + REGULARIZE);
        let v = [0.0, 0.25, 0.5, 0.75, 1.0];
        let total = n + 5.0 * REGULARIZE;
        let mean: f64 = (0..5).map(|i| c[i] * v[i]).sum::<f64>() / total;
        let var: f64 = (0..5).map(|i| c[i] * (v[i] - mean).powi(2)).sum::<f64>() / total;
        let s0 = score_from_elo(-5.0);
        let s1 = score_from_elo(5.0);
        let want = n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var);
        assert!(close(sprt.llr(&t), want, 1e-9));
        assert!(close(want, 0.482_358_517, 1e-6), "{want}"); // checked in Python
        assert!(sprt.llr(&t) > 0.0);
        assert!(close(s0 + s1, 1.0, 1e-12));
    }

    #[test]
    fn add_game_buckets() {
        let mut t = Tally::default();
        for s in [1.0, 0.5, 0.0, 1.0] {
            t.add_game(s);
        }
        assert_eq!((t.wins, t.draws, t.losses), (2, 1, 1));
        assert!(close(t.score(), 0.625, 1e-12));
    }
}
