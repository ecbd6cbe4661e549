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
//! `errors` measures the SPRT's error rates by simulation.

pub mod errors;

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
mod tests;
