//! Match statistics: W/D/L and pentanomial tallies, score, Elo difference
//! with a 95% interval, likelihood of superiority, and the sequential
//! probability ratio test (SPRT) that stops a match once it is decided.
//!
//! Elo uses the logistic model: an expected score `s` corresponds to
//! `-400 log10(1/s - 1)`. The SPRT is the generalised SPRT with the exact
//! multinomial log-likelihood ratio (each hypothesis' maximum-likelihood
//! distribution with the hypothesised mean score), on colour-swapped pairs
//! (pentanomial) once a pair is complete, on single games (trinomial)
//! before. A normal approximation of the LLR was overconfident when most
//! pairs split 1–1, as colour-decided gomoku openings make them.

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

    /// Mean score per game over the complete pairs and its standard error,
    /// the pair scores' standard deviation over √pairs. None without pairs,
    /// or when every pair scored the same: then the pairs show no spread
    /// to measure (all 1–1 is common early in a gomoku match), and the
    /// callers fall back to the games.
    ///
    /// Pairs rather than games because the two games of an opening are
    /// not independent: when the opening's colour decides, both are won by
    /// the same colour and the pair scores 1–1 whoever is stronger, so the
    /// per-game variance (about ¼) overstates the noise in the score many
    /// times over.
    fn pair_mean_se(&self) -> Option<(f64, f64)> {
        let n = self.pairs() as f64;
        if n == 0.0 {
            return None;
        }
        let weighted = |f: &dyn Fn(f64) -> f64| -> f64 {
            PAIR_SCORES
                .iter()
                .zip(&self.penta)
                .map(|(&a, &k)| k as f64 * f(a))
                .sum::<f64>()
                / n
        };
        let mean = weighted(&|a| a);
        let var = weighted(&|a| (a - mean).powi(2));
        if var <= 1e-15 {
            return None;
        }
        Some((mean, (var / n).sqrt()))
    }

    /// Half-width of the 95% interval of the Elo difference: from the pair
    /// scores' spread when complete pairs exist and differ, else from the
    /// games (for a clean sweep: the distance to the Elo of the score's
    /// Wilson bound).
    pub fn elo_95(&self) -> f64 {
        let n = self.games();
        if n == 0 {
            return 0.0;
        }
        let s = self.score();
        if let Some((s, se)) = self.pair_mean_se() {
            let hi = elo_from_score(self.clamped_score(s + Z95 * se));
            let lo = elo_from_score(self.clamped_score(s - Z95 * se));
            return (hi - lo) / 2.0;
        }
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

    /// Likelihood of superiority: the probability that engine 1 is stronger.
    /// From the pair scores, Φ((mean − ½) / se), when complete pairs exist
    /// and differ; else from wins and losses (draws carry no information
    /// there).
    pub fn los(&self) -> f64 {
        if let Some((s, se)) = self.pair_mean_se() {
            return 0.5 * (1.0 + erf((s - 0.5) / (se * std::f64::consts::SQRT_2)));
        }
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

/// The SPRT decides nothing before this many games. (The exact LLR below
/// cannot reach the default bounds this early anyway; the floor is a guard
/// for wide bounds such as [0, 400].)
pub const SPRT_MIN_GAMES: u64 = 20;

/// Score per game of each pentanomial bucket (pair points / 2).
pub const PAIR_SCORES: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];
/// Score of a loss, a draw and a win.
pub const GAME_SCORES: [f64; 3] = [0.0, 0.5, 1.0];

/// The maximum-likelihood distribution over the outcomes `values`
/// (ascending, sample counts `counts`) among those with mean `s`, where
/// `values[0] < s < values[last]`, returned as its Lagrange multiplier λ:
/// each observed outcome gets probability p̂ᵢ / (1 + λ(aᵢ − s)).
///
/// λ is the root of f(λ) = Σ nᵢ (aᵢ − s) / (1 + λ(aᵢ − s)), which decreases
/// on the interval that keeps every denominator positive,
/// (−1/(a_max − s), 1/(s − a_min)). When the extreme outcome on one side was
/// observed, f runs to ±∞ at that end and the root is inside. When it was
/// not, f may keep one sign up to that end: the mean `s` is then beyond what
/// the observed outcomes can make without help, and the likelihood is
/// highest with λ at the end, the leftover mass 1 − Σ pᵢ = λ f(λ) ≥ 0 on the
/// unobserved extreme outcome (its Karush–Kuhn–Tucker point). Example: 100
/// pairs all 1–1 and s = 0.5144 give p(½) = 2(1 − s), p(1) = 2s − 1.
fn mle_lambda(values: &[f64], counts: &[u64], s: f64) -> f64 {
    let (a_min, a_max) = (values[0], values[values.len() - 1]);
    let f = |lambda: f64| -> f64 {
        values
            .iter()
            .zip(counts)
            .filter(|(_, &n)| n > 0)
            .map(|(&a, &n)| n as f64 * (a - s) / (1.0 + lambda * (a - s)))
            .sum()
    };
    let (lo, hi) = (-1.0 / (a_max - s), 1.0 / (s - a_min));
    if counts[counts.len() - 1] == 0 && f(lo) <= 0.0 {
        return lo;
    }
    if counts[0] == 0 && f(hi) >= 0.0 {
        return hi;
    }
    // Bisection: f(a) > 0 ≥ f(b) throughout.
    let (mut a, mut b) = (lo, hi);
    for _ in 0..200 {
        let m = 0.5 * (a + b);
        if m <= a || m >= b || b - a < 1e-15 {
            break;
        }
        if f(m) > 0.0 {
            a = m;
        } else {
            b = m;
        }
    }
    0.5 * (a + b)
}

/// Log-likelihood ratio of the generalised SPRT for a multinomial sample:
/// the log of the largest likelihood among distributions with mean `s1`
/// over the largest among those with mean `s0`. With both maximisers in
/// the form p̂ᵢ / (1 + λ(aᵢ − s)), LLR = Σ nᵢ ln[(1 + λ₀(aᵢ − s0)) / (1 + λ₁(aᵢ − s1))].
pub fn llr_multinomial(values: &[f64], counts: &[u64], s0: f64, s1: f64) -> f64 {
    if counts.iter().all(|&n| n == 0) {
        return 0.0;
    }
    let l0 = mle_lambda(values, counts, s0);
    let l1 = mle_lambda(values, counts, s1);
    values
        .iter()
        .zip(counts)
        .filter(|(_, &n)| n > 0)
        .map(|(&a, &n)| n as f64 * ((l0 * (a - s0)).ln_1p() - (l1 * (a - s1)).ln_1p()))
        .sum()
}

/// Decision of an SPRT.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtState {
    Continue,
    /// H1 accepted: engine 1 is at least `elo1` stronger (a pass).
    AcceptH1,
    /// H0 accepted: engine 1 is at most `elo0` stronger (a fail).
    AcceptH0,
}

impl SprtState {
    /// How match lines and summaries print the decision.
    pub fn text(self) -> &'static str {
        match self {
            SprtState::Continue => "continue",
            SprtState::AcceptH1 => "H1 accepted (pass)",
            SprtState::AcceptH0 => "H0 accepted (fail)",
        }
    }
}

/// An SPRT of H0: elo = elo0 against H1: elo = elo1, both logistic Elo
/// (expected score 1 / (1 + 10^(−elo/400)) per game).
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
    /// trinomial otherwise (before the first pair completes). A game whose
    /// partner is still running counts once its pair is complete.
    pub fn llr(&self, t: &Tally) -> f64 {
        if t.pairs() > 0 {
            self.llr_pentanomial(t)
        } else {
            self.llr_trinomial(t)
        }
    }

    fn scores(&self) -> (f64, f64) {
        (score_from_elo(self.elo0), score_from_elo(self.elo1))
    }

    /// Exact GSPRT LLR on single games: scores 0, ½, 1.
    pub fn llr_trinomial(&self, t: &Tally) -> f64 {
        let (s0, s1) = self.scores();
        llr_multinomial(&GAME_SCORES, &[t.losses, t.draws, t.wins], s0, s1)
    }

    /// Exact GSPRT LLR on pairs: each pair's mean score is 0, ¼, ½, ¾ or 1.
    pub fn llr_pentanomial(&self, t: &Tally) -> f64 {
        let (s0, s1) = self.scores();
        llr_multinomial(&PAIR_SCORES, &t.penta, s0, s1)
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

    fn sprt(elo0: f64, elo1: f64) -> Sprt {
        Sprt {
            elo0,
            elo1,
            alpha: 0.05,
            beta: 0.05,
        }
    }

    fn pairs(penta: [u64; 5]) -> Tally {
        let mut t = Tally::default();
        for (i, &n) in penta.iter().enumerate() {
            for _ in 0..n {
                // The two games of a pair: i half-points for engine 1.
                t.add_game([0.0, 0.5, 1.0, 1.0, 1.0][i]);
                t.add_game([0.0, 0.0, 0.0, 0.5, 1.0][i]);
                t.add_pair(i as f64 / 2.0);
            }
        }
        assert_eq!(t.penta, penta);
        t
    }

    #[test]
    fn sprt_bounds_and_trinomial_llr_known_values() {
        let sprt = sprt(0.0, 10.0);
        let (lo, hi) = sprt.bounds();
        assert!(close(lo, -2.944_438_979_166_44, 1e-9));
        assert!(close(hi, 2.944_438_979_166_44, 1e-9));
        let s1 = score_from_elo(10.0);
        assert!(close(s1, 0.514_387_184_165_998_7, 1e-12));
        // The bounds are logistic Elo, and the help says so.
        assert!(crate::lab::arena::matchcli::USAGE.contains("logistic Elo E0 against E1"));
        // Reference values: a zooming grid search over the distributions
        // with the hypothesised mean, in Python, independent of the λ form.
        // 60 W 20 D 20 L (the normal approximation said 1.7337).
        let t = tally(60, 20, 20);
        assert!(
            close(sprt.llr(&t), 1.389_822_163_939, 1e-9),
            "{}",
            sprt.llr(&t)
        );
        assert_eq!(sprt.state(&t), SprtState::Continue);
        // Three times as many games of the same shape: LLR triples, H1.
        let t3 = tally(180, 60, 60);
        assert!(close(sprt.llr(&t3), 3.0 * sprt.llr(&t), 1e-9));
        assert_eq!(sprt.state(&t3), SprtState::AcceptH1);
        // The mirror image is rejected.
        assert_eq!(sprt.state(&tally(60, 60, 180)), SprtState::AcceptH0);
        // No information: LLR 0.
        assert_eq!(sprt.llr(&tally(0, 0, 0)), 0.0);
        // All draws: H1's best distribution must put 2 s1 − 1 on wins, so
        // each draw weighs ln 2(1 − s1) against H1.
        let want = 9.0 * (2.0 * (1.0 - s1)).ln();
        assert!(close(sprt.llr(&tally(0, 9, 0)), want, 1e-12));
        assert!(close(want, -0.262_768_205_472_7, 1e-9));
        // A clean sweep: the best distributions put s on wins and 1 − s on
        // losses, LLR = n ln(s1/s0), far from the bound at 10 Elo...
        let want = 19.0 * (s1 / 0.5).ln();
        assert!(close(sprt.llr(&tally(19, 0, 0)), want, 1e-12));
        assert!(close(want, 0.538_995_040_952, 1e-9));
        // ... and beyond it at 400 Elo, but nothing is decided before
        // SPRT_MIN_GAMES games.
        let wide = Sprt {
            elo1: 400.0,
            ..sprt
        };
        assert!(close(wide.llr(&tally(10, 0, 0)), 5.978_370_007_556, 1e-9));
        assert_eq!(wide.state(&tally(19, 0, 0)), SprtState::Continue);
        assert_eq!(wide.state(&tally(20, 0, 0)), SprtState::AcceptH1);
    }

    #[test]
    fn pentanomial_llr_known_values() {
        // Reference values from the same independent grid search.
        let cases: [([u64; 5], f64, f64, f64); 4] = [
            ([2, 10, 20, 14, 4], -5.0, 5.0, 0.479_355_866_341),
            ([0, 3, 40, 5, 0], 0.0, 10.0, 0.216_364_482),
            // Only ½ and 1 seen: H0 puts its leftover mass on 0.
            ([0, 0, 40, 0, 3], 0.0, 10.0, 1.219_830_882_155),
            // Mean below ½, s1 above every observed outcome but 0.5: H1's
            // best distribution puts mass on the unobserved 1.
            ([1, 0, 30, 0, 0], 0.0, 10.0, -0.905_090_485_517),
        ];
        for (penta, e0, e1, want) in cases {
            let got = sprt(e0, e1).llr(&pairs(penta));
            assert!(close(got, want, 1e-8), "{penta:?}: {got} want {want}");
        }
        // Pairs take over from games as soon as one is complete.
        let t = pairs([2, 10, 20, 14, 4]);
        let s = sprt(-5.0, 5.0);
        assert_eq!(s.llr(&t), s.llr_pentanomial(&t));
        assert_ne!(s.llr(&t), s.llr_trinomial(&t));
    }

    /// The maximiser is feasible and no feasible neighbour does better.
    #[test]
    fn mle_is_the_constrained_maximum() {
        let mut rng = crate::brain::game::zobrist::SplitMix64::new(7);
        let unit = |rng: &mut crate::brain::game::zobrist::SplitMix64| {
            (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64
        };
        for case in 0..400 {
            let counts: [u64; 5] = std::array::from_fn(|_| {
                // Many zeros, so the boundary cases come up often.
                if rng.below(3) == 0 {
                    0
                } else {
                    rng.below(30)
                }
            });
            if counts.iter().sum::<u64>() == 0 {
                continue;
            }
            let s = 0.05 + 0.9 * unit(&mut rng);
            let lambda = mle_lambda(&PAIR_SCORES, &counts, s);
            let n: f64 = counts.iter().sum::<u64>() as f64;
            let mut p = [0.0; 5];
            for i in 0..5 {
                if counts[i] > 0 {
                    let d = 1.0 + lambda * (PAIR_SCORES[i] - s);
                    assert!(d > 0.0, "case {case}");
                    p[i] = counts[i] as f64 / n / d;
                }
            }
            // Leftover mass goes to an unobserved extreme outcome.
            let left = 1.0 - p.iter().sum::<f64>();
            assert!(left > -1e-9, "case {case}: {counts:?} s {s}: {left}");
            if left > 1e-12 {
                let i = if lambda > 0.0 { 0 } else { 4 };
                assert_eq!(counts[i], 0, "case {case}");
                p[i] += left;
            }
            let mean: f64 = (0..5).map(|i| p[i] * PAIR_SCORES[i]).sum();
            assert!(
                close(mean, s, 1e-9),
                "case {case}: {counts:?} s {s}: mean {mean}"
            );
            let ll = |q: &[f64; 5]| -> f64 {
                (0..5)
                    .filter(|&i| counts[i] > 0)
                    .map(|i| counts[i] as f64 * q[i].ln())
                    .sum()
            };
            let best = ll(&p);
            // Move mass ε between three outcomes so that the sum and the
            // mean stay put: from i and k to j between them, or back.
            for _ in 0..30 {
                let mut idx = [rng.below(5), rng.below(5), rng.below(5)].map(|x| x as usize);
                idx.sort();
                let [i, j, k] = idx;
                if i == j || j == k {
                    continue;
                }
                let (ai, aj, ak) = (PAIR_SCORES[i], PAIR_SCORES[j], PAIR_SCORES[k]);
                // weights wi + wk = 1 with wi ai + wk ak = aj
                let wk = (aj - ai) / (ak - ai);
                let eps = 1e-3 * if rng.below(2) == 0 { 1.0 } else { -1.0 };
                let mut q = p;
                q[j] += eps;
                q[i] -= eps * (1.0 - wk);
                q[k] -= eps * wk;
                if q.iter().any(|&x| x < 0.0) {
                    continue;
                }
                assert!(ll(&q) <= best + 1e-9, "case {case}: {counts:?} s {s}");
            }
        }
    }

    #[test]
    fn identical_pairs_need_about_a_hundred_pairs() {
        // Every opening won by the same colour in both games: 1 point a pair.
        // H0 (elo 0) fits them exactly; H1's best distribution must put
        // 2 s1 − 1 of its mass on 2–0 pairs, so each 1–1 pair weighs
        // ln 2(1 − s1) = −0.0292 against H1. With the defaults of
        // scripts/sprt.sh ([0, 10], α = β = 0.05) H0 is accepted after 101
        // pairs; fishtest's 1e-3 pseudo-count on empty buckets makes it
        // 102, and the old normal approximation said 42.
        let sprt = sprt(0.0, 10.0);
        let (lo, _) = sprt.bounds();
        let per_pair = (2.0 * (1.0 - score_from_elo(10.0))).ln();
        assert!(close(per_pair, -0.029_197, 1e-6));
        let mut t = Tally::default();
        let mut accepted = None;
        for k in 1..=200 {
            t.add_game(1.0);
            t.add_game(0.0);
            t.add_pair(1.0);
            assert!(close(sprt.llr(&t), k as f64 * per_pair, 1e-9));
            if accepted.is_none() && sprt.state(&t) == SprtState::AcceptH0 {
                accepted = Some(k);
            }
        }
        assert_eq!(accepted, Some(101));
        assert!(sprt.llr(&pairs([0, 0, 100, 0, 0])) > lo);
        assert!(sprt.llr(&pairs([0, 0, 101, 0, 0])) <= lo);
    }

    #[test]
    fn interval_and_los_from_pairs() {
        // Reference values computed in Python from the pair scores:
        // [2, 10, 20, 14, 4]: mean 0.54, variance 0.0584, se 0.034176.
        let t = pairs([2, 10, 20, 14, 4]);
        assert!(close(t.elo_95(), 47.137_550_010, 1e-6), "{}", t.elo_95());
        assert!(close(t.los(), 0.879_082_289_382, 1e-9), "{}", t.los());
        // Colour-decided: 96 pairs 1–1, three 2–0, one 0–2. The games alone
        // (102 W, 98 L) say ±48.5 Elo and LOS 61 %; the pairs know that a
        // 1–1 pair has no spread: mean 0.51, se 0.00995.
        let t = pairs([1, 0, 96, 0, 3]);
        assert_eq!((t.wins, t.losses), (102, 98));
        let games = tally(102, 0, 98);
        assert!(close(games.elo_95(), 48.473_324_531, 1e-6));
        assert!(close(games.los(), 0.611_351_294_605, 1e-9));
        assert!(close(t.elo_95(), 13.563_274_166, 1e-6), "{}", t.elo_95());
        assert!(close(t.los(), 0.842_560_679_332, 1e-9), "{}", t.los());
        // Games 2k and 2k+1 split 1–1 every time: no spread among the
        // pairs, so the interval and LOS fall back to the games'.
        let t = pairs([0, 0, 30, 0, 0]);
        assert!(close(t.elo_95(), tally(30, 0, 30).elo_95(), 1e-12));
        assert!(t.elo_95() > 50.0);
        assert_eq!(t.los(), 0.5);
        // A clean sweep in pairs is a clean sweep in games: Wilson bound.
        let t = pairs([0, 0, 0, 0, 5]);
        assert!(close(t.elo_95(), tally(10, 0, 0).elo_95(), 1e-12));
        assert!(close(t.los(), tally(10, 0, 0).los(), 1e-12));
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

#[cfg(test)]
#[path = "stats_tests.rs"]
mod simulation;
