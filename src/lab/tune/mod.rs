//! The evaluation fitter (`sente-lab tune`): an offline tool beside the
//! arena, outside the engine's path (nothing in `eval`, `game`, `search` or
//! `engine` imports it). `model`: features and weights; `samples`: records
//! to training positions; `fit`: the optimiser; `codegen`: Rust arrays for
//! `eval/weights.rs`; `net`: the evaluation network's trainer
//! (`sente-lab tune net`); here: the command line and the tuning
//! openings.
//!
//! Fitting the evaluation weights to game outcomes.
//!
//! The static evaluation is linear in its weights: a point's value is the
//! sum of its four line patterns' values plus its class's bonus, with one
//! set of tables for the side to move's points (`OWN_…`) and one for the
//! opponent's (`OPP_…`), and the score is the side to move's sum minus
//! the opponent's. So every position reduces to one feature vector (per
//! weight: how often it counts) and the score is its dot product with the
//! weights. The tuner replays arena records (`games.txt`), keeps the
//! positions the search would evaluate statically (no five threat on the
//! board, no open three of the opponent, no open four to make unopposed),
//! and fits the weights so that `sigmoid(score / K)` predicts the game's
//! result for the side to move (least squares, Adam, full batch). `K` is
//! first fitted with the current weights and then kept, so the scale of
//! the scores stays what the search's margins expect. One game in ten is
//! held out and its error reported before and after.

pub(crate) use std::fmt::Write as _;

pub(crate) use crate::brain::engine::{Engine, Limits};
pub(crate) use crate::brain::eval::weights::{
    holds_pair, pattern_pairs, Class, CLASSES, MASK_PAIRS, OPP_CLASS_BONUS, OPP_PATTERN_PAIR,
    OPP_PATTERN_VALUE, OWN_CLASS_BONUS, OWN_PATTERN_PAIR, OWN_PATTERN_VALUE, PAIRS, PAIR_PATTERNS,
    TEMPO, THREAT_PAIR_FITTED,
};
pub(crate) use crate::brain::eval::{threat_mask, Evaluator};
pub(crate) use crate::brain::game::board::Board;
pub(crate) use crate::brain::game::pattern::Pattern;
pub(crate) use crate::brain::types::{Color, RuleSet};
pub(crate) use crate::cli::{num, parse_rule, value};
pub(crate) use crate::lab::arena::report::parse_result;

mod codegen;
mod fit;
mod model;
pub mod net;
mod samples;

pub use codegen::*;
pub use fit::*;
pub use model::*;
pub use samples::*;

/// Random openings for tuning games, one per line in the arena's format:
/// 3 to 5 stones in the 7×7 box around the centre of a `size` board, Black
/// first, colours alternating, none repeated. Unbalanced on purpose: the
/// fit wants positions that are won and lost, not only even ones.
pub fn random_openings(count: usize, size: usize, seed: u64) -> Vec<String> {
    let mut rng = crate::brain::game::zobrist::SplitMix64::new(seed);
    let c = (size / 2) as i64;
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    let mut tries = 0;
    while out.len() < count && tries < count * 100 {
        tries += 1;
        let n = 3 + rng.below(3) as usize;
        let mut pts: Vec<(i64, i64)> = Vec::new();
        while pts.len() < n {
            let p = (c - 3 + rng.below(7) as i64, c - 3 + rng.below(7) as i64);
            if !pts.contains(&p) {
                pts.push(p);
            }
        }
        let line = pts
            .iter()
            .map(|(x, y)| format!("{x},{y}"))
            .collect::<Vec<_>>()
            .join(" ");
        if seen.insert(line.clone()) {
            out.push(line);
        }
    }
    out
}

/// `sente-lab tune net …`: the network trainer (`net`). Otherwise
/// `sente-lab tune [--rule R] [--size N] [--epochs N] [--lr X] [--l2 X] [--tied] GAMES... | --make-openings N [--seed S] [--size N]`
/// Returns the process exit status.
pub fn main_tune(args: &[String]) -> i32 {
    if args.first().map(String::as_str) == Some("net") {
        return net::main_net(&args[1..]);
    }
    let mut rules = RuleSet::FREESTYLE;
    let mut size = 15usize;
    let mut o = FitOptions {
        epochs: 2000,
        lr: 0.5,
        l2: 0.0,
    };
    let mut model = Model::Masks;
    let mut make_openings: Option<usize> = None;
    let mut seed = 1u64;
    let mut search_depth = 0u32;
    let mut lambda = 0.5f64;
    let mut threads = 1usize;
    let mut files = Vec::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut val = || value(&mut it, a);
        let r = match a.as_str() {
            "--rule" => val().and_then(|v| parse_rule(&v)).map(|r| rules = r),
            "--size" => val().and_then(|v| num(a, &v)).map(|n| size = n),
            "--epochs" => val().and_then(|v| num(a, &v)).map(|n| o.epochs = n),
            "--lr" => val().and_then(|v| num(a, &v)).map(|n| o.lr = n),
            "--l2" => val().and_then(|v| num(a, &v)).map(|n| o.l2 = n),
            "--make-openings" => val()
                .and_then(|v| num(a, &v))
                .map(|n| make_openings = Some(n)),
            "--seed" => val().and_then(|v| num(a, &v)).map(|n| seed = n),
            "--search-depth" => val().and_then(|v| num(a, &v)).map(|n| search_depth = n),
            "--lambda" => val().and_then(|v| num(a, &v)).map(|n| lambda = n),
            "--threads" => val()
                .and_then(|v| num(a, &v))
                .map(|n: usize| threads = n.max(1)),
            "--no-masks" => {
                model = Model::Split;
                Ok(())
            }
            "--tied" => {
                model = Model::Tied;
                Ok(())
            }
            f => {
                files.push(f.to_string());
                Ok(())
            }
        };
        if let Err(e) = r {
            eprintln!("tune: {e}");
            return 2;
        }
    }
    if let Some(n) = make_openings {
        println!("# {n} random 3-5 stone openings in the 7x7 box around the centre (seed {seed}); unbalanced, for tuning games");
        for line in random_openings(n, size, seed) {
            println!("{line}");
        }
        return 0;
    }
    if files.is_empty() {
        eprintln!(
            "usage: sente-lab tune [--rule R] [--size N] [--epochs N] [--lr X] [--l2 X] [--no-masks | --tied] [--search-depth D [--lambda X] [--threads N]] GAMES.txt... | --make-openings N [--seed S] [--size N]"
        );
        return 2;
    }
    let mut samples = Vec::new();
    let mut games = 0;
    for f in &files {
        match std::fs::read_to_string(f) {
            Ok(text) => {
                let (s, g) = if search_depth > 0 {
                    labelled_samples(&text, rules, size, model, games, search_depth, threads)
                } else {
                    samples_from_records(&text, rules, size, model, games, None)
                };
                samples.extend(s);
                games += g;
            }
            Err(e) => {
                eprintln!("tune: {f}: {e}");
                return 1;
            }
        }
    }
    let (mut train, mut test): (Vec<Sample>, Vec<Sample>) =
        samples.into_iter().partition(|s| s.game % 10 != 9);
    println!(
        "games {games}, quiet positions {} for fitting, {} held out",
        train.len(),
        test.len()
    );
    if train.is_empty() {
        eprintln!("tune: no positions");
        return 1;
    }
    let w0 = model.current();
    let k = fit_k(&train, &w0);
    let free = tunable(&train, model, train.len() / 200);
    println!("K {k:.1}");
    if search_depth > 0 {
        // K stays the one fitted to the results: the labels are scores on
        // the same scale, turned into expected results with it.
        mix_labels(&mut train, k, lambda);
        mix_labels(&mut test, k, lambda);
        println!("targets: {lambda} depth-{search_depth} search label, the rest the result");
    }
    println!(
        "current: train mse {:.5}, held-out mse {:.5}",
        mse(&train, &w0, k),
        mse(&test, &w0, k)
    );
    let w = fit(&train, &w0, &free, k, o);
    println!(
        "fitted:  train mse {:.5}, held-out mse {:.5}",
        mse(&train, &w, k),
        mse(&test, &w, k)
    );
    if model == Model::Masks {
        let n = free[MASK_START..TEMPO_INDEX].iter().filter(|&&f| f).count();
        let p = free[PATTERN_PAIR_START..].iter().filter(|&&f| f).count();
        println!(
            "threat-mask bit pairs seen often enough to fit: {n} of {PAIRS}; pattern pairs: {p}"
        );
    }
    let w = round_polish(&train, &w, &free, k, o, o.epochs / 20);
    println!(
        "rounded: train mse {:.5}, held-out mse {:.5}",
        mse(&train, &w, k),
        mse(&test, &w, k)
    );
    print!("{}", as_rust(&w));
    0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::brain::game::board::EMPTY;
    use crate::brain::game::testutil::random_empty;
    use crate::brain::game::zobrist::SplitMix64;

    /// The features times the current weights give the evaluator's score.
    #[test]
    fn features_reproduce_the_evaluation() {
        let mut rng = SplitMix64::new(99);
        let mut checks = 0;
        for rule in crate::brain::types::Rule::ALL {
            let rules = RuleSet::from(rule);
            let mut b = Board::square(15, rules).unwrap();
            for _ in 0..60 {
                b.play(random_empty(&mut rng, &b).unwrap());
                if b.cells().iter().any(|&q| b.cell(q) == EMPTY) {
                    let ev = Evaluator::new(&b);
                    let stm = b.to_move();
                    let e = ev.evaluate(stm) as f64;
                    // Integer sums on both sides: equal exactly, up to the
                    // evaluator's clamp.
                    let x = Model::Masks.features(&ev, stm);
                    let limit = crate::brain::eval::weights::EVAL_LIMIT as f64;
                    assert_eq!(dot(&Model::Masks.current(), &x).clamp(-limit, limit), e);
                    checks += 1;
                }
            }
        }
        assert!(checks > 100);
    }

    /// On results drawn from a known weight vector the fit lowers the error
    /// and moves the weights towards it.
    #[test]
    fn fitting_recovers_a_planted_weight() {
        let mut rng = SplitMix64::new(7);
        let mut truth = current_weights(false);
        truth[5] = 60.0; // Flex2 worth much more than its current 14
        let mut samples = Vec::new();
        for g in 0..4000 {
            let x: Vec<(u32, f64)> = (2..10).map(|k| (k, rng.below(21) as f64 - 10.0)).collect();
            let p = sigmoid(dot(&truth, &x) / 300.0);
            let y = if (rng.below(1_000_000) as f64) < p * 1e6 {
                1.0
            } else {
                0.0
            };
            samples.push(Sample {
                x,
                y,
                game: g,
                search: None,
            });
        }
        let w0 = current_weights(false).to_vec();
        let free = tunable(&samples, Model::Tied, 10);
        assert!(!free[0] && free[5]);
        let o = FitOptions {
            epochs: 1500,
            lr: 1.0,
            l2: 0.0,
        };
        let w = fit(&samples, &w0, &free, 300.0, o);
        assert!(mse(&samples, &w, 300.0) < mse(&samples, &w0, 300.0));
        assert!((w[5] - 60.0).abs() < (w0[5] - 60.0).abs() / 2.0, "{}", w[5]);
    }

    /// `pair_index` inverts `MASK_PAIRS`, and `pairs` lists exactly the
    /// pairs of set bits.
    #[test]
    fn bit_pairs_fill_their_indices() {
        for (k, &(i, j)) in MASK_PAIRS.iter().enumerate() {
            assert!(i <= j);
            assert_eq!(pair_index(i, j), k);
        }
        let m = 0b10_0000_0101; // bits 0, 2 and 9
        let got: Vec<(usize, usize)> = pairs(m).map(|k| MASK_PAIRS[k]).collect();
        assert_eq!(got, vec![(0, 0), (0, 2), (0, 9), (2, 2), (2, 9), (9, 9)]);
        assert_eq!(pairs(0).count(), 0);
        assert_eq!(pairs(crate::brain::eval::weights::MASKS - 1).count(), PAIRS);
    }

    /// The engine's table of mask values is the tempo plus the sum of the
    /// mask's bit pairs, as the tuner's features count them.
    #[test]
    fn mask_values_sum_their_pairs() {
        let w = Model::Masks.current();
        for m in 0..crate::brain::eval::weights::MASKS {
            let v: f64 = pairs(m).map(|k| w[MASK_START + k]).sum::<f64>() + w[TEMPO_INDEX];
            assert_eq!(
                crate::brain::eval::weights::THREAT_MASK_VALUE[m] as f64,
                v,
                "mask {m:#x}"
            );
        }
    }

    /// Rounding with refits loses less of the fit than rounding alone when
    /// a weight counts many times a position.
    #[test]
    fn rounding_polish_keeps_the_fit() {
        let mut rng = SplitMix64::new(31);
        let mut samples = Vec::new();
        for g in 0..3000 {
            // Weight 2 counts 20 to 40 times, so its rounding error is
            // multiplied; weight 3 counts 0 to 2 times and can absorb it.
            let a = 20.0 + rng.below(21) as f64;
            let b = rng.below(3) as f64;
            let x = vec![(2u32, a), (3u32, b)];
            let p = sigmoid((a * 3.4 + b * 40.0 - 120.0) / 100.0);
            samples.push(Sample {
                x,
                y: p,
                game: g,
                search: None,
            });
        }
        let start: Vec<f64> = vec![0.0, 0.0, 3.4, 40.0];
        let free = vec![false, false, true, true];
        let o = FitOptions {
            epochs: 400,
            lr: 0.5,
            l2: 0.0,
        };
        let naive: Vec<f64> = start.iter().map(|v| v.round()).collect();
        let polished = round_polish(&samples, &start, &free, 100.0, o, 400);
        assert!(polished.iter().all(|v| v.fract() == 0.0), "{polished:?}");
        assert!(
            mse(&samples, &polished, 100.0) < mse(&samples, &naive, 100.0),
            "{polished:?}"
        );
    }

    #[test]
    fn random_openings_are_distinct_and_legal() {
        let lines = random_openings(300, 15, 5);
        assert_eq!(lines.len(), 300);
        let set: std::collections::HashSet<_> = lines.iter().collect();
        assert_eq!(set.len(), 300);
        for l in &lines {
            let mut b = Board::square(15, RuleSet::FREESTYLE).unwrap();
            for mv in l.split(' ') {
                let xy: Vec<i64> = mv.split(',').map(|v| v.parse().unwrap()).collect();
                assert!((4..=10).contains(&xy[0]) && (4..=10).contains(&xy[1]));
                let c = b.to_move();
                b.try_make(xy[0], xy[1], c).unwrap();
            }
        }
        assert_eq!(random_openings(10, 15, 5), lines[..10].to_vec());
    }

    #[test]
    fn records_give_quiet_positions_with_results() {
        // Black wins on the row; positions alternate sides, so both labels
        // appear, and the final five is not quiet.
        let line = "1\tA\tB\t1-0\tfive\t1\t-\t7,7 0,0 8,7 0,1 9,7 0,2 10,7 0,4 11,7";
        let (s, g) = samples_from_records(line, RuleSet::FREESTYLE, 15, Model::Tied, 0, None);
        assert_eq!(g, 1);
        assert!(!s.is_empty() && s.len() < 9);
        assert!(s.iter().any(|x| x.y == 1.0) && s.iter().any(|x| x.y == 0.0));
        assert!(s.iter().all(|x| x.search.is_none()));
        let (s, g) = samples_from_records(
            &line.replace("five", "timeout"),
            RuleSet::FREESTYLE,
            15,
            Model::Tied,
            0,
            None,
        );
        assert_eq!((s.len(), g), (0, 0));
    }

    #[test]
    fn search_labels_do_not_depend_on_the_thread_count() {
        let text = "1\tA\tB\t1-0\tfive\t1\t-\t7,7 0,0 8,7 0,1 9,7 0,2 10,7 0,4 11,7\n\
                    2\tB\tA\t0-1\tfive\t2\t-\t7,7 7,8 8,8 6,7 9,9 10,10 8,6 9,7 6,8 5,9 8,7 8,9 8,5\n\
                    3\tA\tB\t1-0\tfive\t3\t-\t7,7 6,6 8,8 9,9 6,8 8,6 7,6 7,8 5,9 4,10 6,7 6,9 5,7";
        let one = labelled_samples(text, RuleSet::FREESTYLE, 15, Model::Tied, 10, 3, 1);
        let three = labelled_samples(text, RuleSet::FREESTYLE, 15, Model::Tied, 10, 3, 3);
        assert_eq!(one.1, 3);
        assert_eq!(one.1, three.1);
        let key = |v: &(Vec<Sample>, usize)| -> Vec<(usize, f64, Option<f64>)> {
            v.0.iter().map(|s| (s.game, s.y, s.search)).collect()
        };
        assert_eq!(key(&one), key(&three));
        assert!(one.0.iter().all(|s| s.search.is_some()));
        let games: std::collections::BTreeSet<usize> = one.0.iter().map(|s| s.game).collect();
        assert_eq!(games.into_iter().collect::<Vec<_>>(), vec![10, 11, 12]);
        // A label is the search score of that position, for its side to move.
        let mut b = Board::square(15, RuleSet::FREESTYLE).unwrap();
        for (x, y) in [
            (7, 7),
            (0, 0),
            (8, 7),
            (0, 1),
            (9, 7),
            (0, 2),
            (10, 7),
            (0, 4),
        ] {
            let c = b.to_move();
            b.try_make(x, y, c).unwrap();
        }
        let mut s = Engine::with_table_bytes(1 << 20);
        // Black to move makes five on the row: a won score, clamped.
        assert_eq!(search_label(&mut s, &b, 3), LABEL_CLAMP);
    }

    #[test]
    fn labels_mix_into_the_targets() {
        let mut v = vec![
            Sample {
                x: vec![],
                y: 1.0,
                game: 0,
                search: Some(0.0),
            },
            Sample {
                x: vec![],
                y: 0.0,
                game: 0,
                search: None,
            },
        ];
        mix_labels(&mut v, 400.0, 0.25);
        assert!((v[0].y - (0.25 * 0.5 + 0.75)).abs() < 1e-12);
        assert_eq!(v[1].y, 0.0);
    }
}
