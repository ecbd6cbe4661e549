use super::errors::*;
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

// The SPRT's error rates by simulation (`errors`).

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
            colour_decided(s0, d).unwrap(),
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
            colour_decided(s1, d).unwrap(),
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
        colour_decided(s1, 0.04).unwrap(),
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

/// The `sprt --error-table` report: seven rows for each LLR, fewer when
/// elo1 is too far from ½ for the shares of decisive pairs.
#[test]
fn error_table_has_its_rows() {
    let t = error_table(&DEFAULT, 20);
    let rows: Vec<&str> = t.lines().skip(2).collect();
    assert_eq!(rows.len(), 14, "{t}");
    assert_eq!(rows.iter().filter(|r| r.contains("exact GSPRT")).count(), 7);
    assert!(rows.iter().all(|r| r.split('|').count() == 9), "{t}");
    let hard = Sprt {
        elo0: 0.0,
        elo1: 50.0,
        ..DEFAULT
    };
    // 50 Elo needs 14 % decisive pairs: only elo0's rows are left.
    let t = error_table(&hard, 5);
    assert_eq!(t.lines().skip(2).count(), 8, "{t}");
    assert!(t.lines().skip(2).all(|r| r.starts_with("| 0 |")), "{t}");
}
