//! Monte-Carlo checks of the SPRT's error rates on colour-decided pair
//! distributions: most openings are won by the same colour whichever engine
//! plays it, so most pairs split 1–1 and only a few per cent are decisive
//! (2–0 or 0–2). A test of the LLR is only as good as the error rates it
//! delivers there, so these tests play many simulated SPRTs at a true Elo of
//! elo0 and of elo1 and count the wrong decisions.

use super::*;
use crate::brain::game::zobrist::SplitMix64;

/// The LLR this module replaced: the normal approximation with 0.1
/// pseudo-count per bucket, kept here to measure what it did.
fn llr_normal_old(sprt: &Sprt, counts: &[u64; 5]) -> f64 {
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

#[derive(Clone, Copy, PartialEq)]
enum Llr {
    Exact,
    NormalOld,
}

/// Pair distribution with mean score `s` per game in which a fraction `d`
/// of the pairs is decisive (2–0 or 0–2) and the rest split 1–1.
fn colour_decided(s: f64, d: f64) -> [f64; 5] {
    let q = 0.5 + (s - 0.5) / d;
    assert!(
        (0.0..=1.0).contains(&q),
        "mean {s} needs more than {d} decisive pairs"
    );
    [d * (1.0 - q), 0.0, 1.0 - d, 0.0, d * q]
}

/// Outcome counts of `runs` simulated SPRTs: (H1 accepted, H0 accepted,
/// undecided at `max_pairs`), and the mean number of pairs played.
fn simulate(
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
const DEFAULT: Sprt = Sprt {
    elo0: 0.0,
    elo1: 10.0,
    alpha: 0.05,
    beta: 0.05,
};

#[test]
fn exact_sprt_error_rates_on_colour_decided_pairs() {
    // 600 runs per case: an error rate of 5 % is counted as 30 ± 5.3, so
    // the 2 × nominal limit (60) is 5.6 standard deviations away from the
    // nominal rate, while a rate like the old test's 19–33 % (114-198) would
    // fail by far. (10 Elo takes at least 2.9 % decisive pairs: each pair
    // moves the mean by at most ½.)
    let runs = 600;
    let s0 = score_from_elo(DEFAULT.elo0);
    let s1 = score_from_elo(DEFAULT.elo1);
    for (seed, d) in [(1, 0.01), (2, 0.04)] {
        let (h1, h0, open, _) = simulate(
            &DEFAULT,
            Llr::Exact,
            colour_decided(s0, d),
            runs,
            20_000,
            seed,
        );
        assert!(open <= runs / 100, "elo0, {d}: {open} undecided");
        assert!(h0 > 0);
        let alpha = h1 as f64 / runs as f64;
        assert!(
            alpha <= 2.0 * DEFAULT.alpha,
            "elo0, {d} decisive: type I error {alpha}"
        );
    }
    for (seed, d) in [(3, 0.03), (4, 0.04)] {
        let (h1, h0, open, _) = simulate(
            &DEFAULT,
            Llr::Exact,
            colour_decided(s1, d),
            runs,
            20_000,
            seed,
        );
        assert!(open <= runs / 100, "elo1, {d}: {open} undecided");
        assert!(h1 > 0);
        let beta = h0 as f64 / runs as f64;
        assert!(
            beta <= 2.0 * DEFAULT.beta,
            "elo1, {d} decisive: type II error {beta}"
        );
    }
}

#[test]
fn the_simulation_catches_the_old_normal_approximation() {
    // The same harness on the replaced LLR: at a true elo1 with 4 %
    // decisive pairs it accepted H0 far more often than β = 5 %.
    let runs = 600;
    let s1 = score_from_elo(DEFAULT.elo1);
    let (_, h0, _, _) = simulate(
        &DEFAULT,
        Llr::NormalOld,
        colour_decided(s1, 0.04),
        runs,
        20_000,
        4,
    );
    let beta = h0 as f64 / runs as f64;
    assert!(beta > 2.0 * DEFAULT.beta, "old type II error {beta}");
    // And all-1–1 pairs were "enough" for H0 after 42 pairs.
    let (lo, _) = DEFAULT.bounds();
    let first = (1..200u64)
        .find(|&k| llr_normal_old(&DEFAULT, &[0, 0, k, 0, 0]) <= lo)
        .unwrap();
    assert_eq!(first, 42);
}

/// The table in scripts/RESULTS.md: `cargo test --lib sprt_error_table --
/// --ignored --nocapture` (a few minutes).
#[test]
#[ignore]
fn sprt_error_table() {
    let runs = 5000;
    let s0 = score_from_elo(DEFAULT.elo0);
    let s1 = score_from_elo(DEFAULT.elo1);
    println!(
        "| true Elo | decisive pairs | LLR | H1 accepted | H0 accepted | undecided | mean pairs |"
    );
    println!("| --- | --- | --- | --- | --- | --- | --- |");
    for (name, llr) in [
        ("normal approx. (old)", Llr::NormalOld),
        ("exact GSPRT", Llr::Exact),
    ] {
        for (elo, s, ds) in [
            (DEFAULT.elo0, s0, &[0.01, 0.02, 0.04, 0.10][..]),
            (DEFAULT.elo1, s1, &[0.03, 0.04, 0.10][..]),
        ] {
            for (k, &d) in ds.iter().enumerate() {
                let (h1, h0, open, mean) = simulate(
                    &DEFAULT,
                    llr,
                    colour_decided(s, d),
                    runs,
                    100_000,
                    100 + k as u64,
                );
                let pct = |x: u32| 100.0 * x as f64 / runs as f64;
                println!(
                    "| {elo} | {:.0} % | {name} | {:.1} % | {:.1} % | {:.1} % | {mean:.0} |",
                    100.0 * d,
                    pct(h1),
                    pct(h0),
                    pct(open)
                );
            }
        }
    }
}
