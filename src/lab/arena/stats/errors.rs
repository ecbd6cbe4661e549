//! Monte-Carlo error rates of the SPRT on colour-decided pair
//! distributions: most openings are won by the same colour whichever engine
//! plays it, so most pairs split 1–1 and only a few per cent are decisive
//! (2–0 or 0–2). A test of the LLR is only as good as the error rates it
//! delivers there, so `simulate` plays many simulated SPRTs at a true Elo
//! of elo0 and of elo1 and counts the wrong decisions: the unit tests check
//! the rates, and `sente-arena sprt --error-table` prints them
//! (`error_table`, the table in scripts/RESULTS.md).

use std::fmt::Write;

use super::{score_from_elo, Sprt, SprtState, Tally, PAIR_SCORES, SPRT_MIN_GAMES};
use crate::brain::game::zobrist::SplitMix64;

/// The LLR this module replaced: the normal approximation with 0.1
/// pseudo-count per bucket, kept here to measure what it did.
pub fn llr_normal_old(sprt: &Sprt, counts: &[u64; 5]) -> f64 {
    let n: f64 = counts.iter().sum::<u64>() as f64;
    if n == 0.0 {
        return 0.0;
    }
    let c: Vec<f64> = counts.iter().map(|&k| k as f64 + 0.1).collect();
    let total: f64 = c.iter().sum();
    let mean = PAIR_SCORES.iter().zip(&c).map(|(v, k)| v * k).sum::<f64>() / total;
    let var = PAIR_SCORES
        .iter()
        .zip(&c)
        .map(|(v, k)| k * (v - mean).powi(2))
        .sum::<f64>()
        / total;
    let (s0, s1) = (score_from_elo(sprt.elo0), score_from_elo(sprt.elo1));
    n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var)
}

/// Which LLR a simulated SPRT uses.
#[derive(Clone, Copy, PartialEq)]
pub enum Llr {
    Exact,
    NormalOld,
}

/// Pair distribution with mean score `s` per game in which a fraction `d`
/// of the pairs is decisive (2–0 or 0–2) and the rest split 1–1.
/// None when a mean that far from ½ needs more decisive pairs than `d`.
pub fn colour_decided(s: f64, d: f64) -> Option<[f64; 5]> {
    let q = 0.5 + (s - 0.5) / d;
    (0.0..=1.0)
        .contains(&q)
        .then_some([d * (1.0 - q), 0.0, 1.0 - d, 0.0, d * q])
}

/// Outcome counts of `runs` simulated SPRTs: (H1 accepted, H0 accepted,
/// undecided at `max_pairs`), and the mean number of pairs played.
pub fn simulate(
    sprt: &Sprt,
    llr: Llr,
    p: [f64; 5],
    runs: u32,
    max_pairs: u64,
    seed: u64,
) -> (u32, u32, u32, f64) {
    let mut rng = SplitMix64::new(seed);
    let cdf: Vec<u64> = p
        .iter()
        .scan(0.0, |acc, &x| {
            *acc += x;
            Some((*acc * (u64::MAX as f64)) as u64)
        })
        .collect();
    let (lo, hi) = sprt.bounds();
    let (mut h1, mut h0, mut open, mut pairs_played) = (0, 0, 0, 0u64);
    for _ in 0..runs {
        let mut t = Tally::default();
        let mut state = SprtState::Continue;
        for _ in 0..max_pairs {
            let r = rng.next_u64();
            let i = cdf.iter().position(|&c| r < c).unwrap_or(4);
            t.penta[i] += 1;
            t.draws += 2; // only the number of games matters here
            pairs_played += 1;
            state = match llr {
                Llr::Exact => sprt.state(&t),
                Llr::NormalOld => {
                    let x = llr_normal_old(sprt, &t.penta);
                    if t.games() < SPRT_MIN_GAMES {
                        SprtState::Continue
                    } else if x >= hi {
                        SprtState::AcceptH1
                    } else if x <= lo {
                        SprtState::AcceptH0
                    } else {
                        SprtState::Continue
                    }
                }
            };
            if state != SprtState::Continue {
                break;
            }
        }
        match state {
            SprtState::AcceptH1 => h1 += 1,
            SprtState::AcceptH0 => h0 += 1,
            SprtState::Continue => open += 1,
        }
    }
    (h1, h0, open, pairs_played as f64 / runs as f64)
}

/// The defaults of scripts/sprt.sh.
pub const DEFAULT: Sprt = Sprt {
    elo0: 0.0,
    elo1: 10.0,
    alpha: 0.05,
    beta: 0.05,
};

/// The error-rate table of scripts/RESULTS.md (Markdown) for `sprt`:
/// `runs` simulated SPRTs (at most 100,000 pairs each) per row, at a true
/// Elo of elo0 and of elo1, with a few shares of decisive pairs each (those
/// a mean that far from ½ allows), under the old normal approximation and
/// the exact GSPRT.
pub fn error_table(sprt: &Sprt, runs: u32) -> String {
    let runs = runs.max(1);
    let s0 = score_from_elo(sprt.elo0);
    let s1 = score_from_elo(sprt.elo1);
    let mut out = String::from(
        "| true Elo | decisive pairs | LLR | H1 accepted | H0 accepted | undecided | mean pairs |\n\
         | --- | --- | --- | --- | --- | --- | --- |\n",
    );
    for (name, llr) in [
        ("normal approx. (old)", Llr::NormalOld),
        ("exact GSPRT", Llr::Exact),
    ] {
        for (elo, s, ds) in [
            (sprt.elo0, s0, &[0.01, 0.02, 0.04, 0.10][..]),
            (sprt.elo1, s1, &[0.03, 0.04, 0.10][..]),
        ] {
            for (k, &d) in ds.iter().enumerate() {
                let Some(p) = colour_decided(s, d) else {
                    continue;
                };
                let (h1, h0, open, mean) = simulate(sprt, llr, p, runs, 100_000, 100 + k as u64);
                let pct = |x: u32| 100.0 * x as f64 / runs as f64;
                let _ = writeln!(
                    out,
                    "| {elo} | {:.0} % | {name} | {:.1} % | {:.1} % | {:.1} % | {mean:.0} |",
                    100.0 * d,
                    pct(h1),
                    pct(h0),
                    pct(open)
                );
            }
        }
    }
    out
}
