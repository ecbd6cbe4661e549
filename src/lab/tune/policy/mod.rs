//! `pbrain-sente tune policy`: fit the move policy (`search::policy`) to
//! the moves searches chose in self-play records (the datagen format), and
//! write its tables as `src/brain/search/policy_weights.rs`.
//!
//! `data`: records to positions (the candidates the tree orders, the chosen
//! move as the target); `fit`: softmax regression by minibatch Adam;
//! `codegen`: the generated file. Games are split, by a seeded hash of
//! their number, into a fitting set and a held-out set; the report gives,
//! on the held-out positions, how often the chosen move is the first
//! (top-1) or among the first three (top-3) candidates under today's
//! static ordering score (no killers, no history) and under the fitted
//! policy (its rounded tables: what the search would use), and the mean
//! negative log-likelihood.

pub mod codegen;
pub mod data;
pub mod fit;
pub mod nethead;

use crate::brain::search::policy::{table_weights, POLICY_UNIT, WEIGHTS};
use crate::cli::{num, value};

use crate::lab::datagen::record::{read_file, GameRecord};
use data::{held_out, target_rank, Samples};
use fit::{fit, nll, FitOptions};

/// Top-1 and top-3 agreement (fractions) of the chosen move over the
/// positions `idx` under `score` (a candidate's ordering score).
pub fn agreement(s: &Samples, idx: &[u32], score: impl Fn(usize) -> i64) -> (f64, f64) {
    let (mut t1, mut t3) = (0usize, 0usize);
    for &i in idx {
        let r = target_rank(s, i as usize, &score);
        t1 += (r == 0) as usize;
        t3 += (r < 3) as usize;
    }
    let n = idx.len().max(1) as f64;
    (t1 as f64 / n, t3 as f64 / n)
}

/// The weights in score units (rounded), as the search sums them.
pub fn to_units(w: &[f64]) -> Vec<i32> {
    w.iter()
        .map(|&v| (v * POLICY_UNIT as f64).round() as i32)
        .collect()
}

/// The policy score of candidate `c` under integer weights `u`.
pub fn unit_score(s: &Samples, c: usize, u: &[i32]) -> i64 {
    s.feats[c].iter().map(|&k| u[k as usize] as i64).sum()
}

/// Read the records of `files` in order and hand each game with its
/// number to `add`, which returns how many positions are held so far;
/// stops once that reaches `max_positions`. Returns the games added.
pub fn load_games(
    files: &[String],
    max_positions: usize,
    add: &mut dyn FnMut(&GameRecord, u32) -> usize,
) -> Result<u32, String> {
    let (mut games, mut held) = (0u32, 0usize);
    for f in files {
        let gs = read_file(f).map_err(|e| format!("{f}: {e}"))?;
        for g in &gs {
            if held >= max_positions {
                return Ok(games);
            }
            held = add(g, games);
            games += 1;
        }
    }
    Ok(games)
}

/// The positions of `s` split by their games into (fitting, held out):
/// about `percent` % of the games held out, chosen by `seed`.
pub fn split(s: &Samples, seed: u64, percent: u64) -> (Vec<u32>, Vec<u32>) {
    (0..s.len() as u32).partition(|&i| !held_out(s.game[i as usize], seed, percent))
}

/// The held-out positions `test` as the report's three rows: all, those
/// whose candidates answer no threat, and those that do.
pub fn subsets(s: &Samples, test: &[u32]) -> [(&'static str, Vec<u32>); 3] {
    let (forced, unforced) = test.iter().partition(|&&i| s.forced[i as usize]);
    [
        ("all", test.to_vec()),
        ("unforced", unforced),
        ("forced", forced),
    ]
}

/// Gaps (logits below the position's best policy score) the report
/// measures pruning at.
const GAPS: [i32; 7] = [2, 3, 4, 5, 6, 8, 10];

/// For each of `GAPS`: the share of the positions `idx` whose chosen move
/// is that far or more below the best candidate under `u`, and the mean
/// share of candidates that are.
pub fn gap_shares(s: &Samples, idx: &[u32], u: &[i32]) -> (Vec<f64>, Vec<f64>) {
    let (mut t, mut c) = (vec![0.0; GAPS.len()], vec![0.0; GAPS.len()]);
    for &i in idx {
        let r = s.range(i as usize);
        let sc: Vec<i64> = r.clone().map(|k| unit_score(s, k, u)).collect();
        let top = sc.iter().copied().max().unwrap_or(0);
        let tg = top - sc[s.target[i as usize] as usize];
        for (j, &g) in GAPS.iter().enumerate() {
            let g = (g * POLICY_UNIT) as i64;
            t[j] += (tg >= g) as u8 as f64;
            c[j] += sc.iter().filter(|&&v| top - v >= g).count() as f64 / sc.len() as f64;
        }
    }
    let n = idx.len().max(1) as f64;
    (
        t.iter().map(|v| v / n).collect(),
        c.iter().map(|v| v / n).collect(),
    )
}

const USAGE: &str = "usage: pbrain-sente tune policy [--epochs N] [--lr X] [--l2 X] [--batch N] [--seed S] [--holdout PCT] [--max-positions N] [--threads N] [--from-zero] [--out FILE] RECORDS.txt...";

/// `pbrain-sente tune policy …` (`args`: the words after `policy`).
/// Returns the process exit status.
pub fn main_policy(args: &[String]) -> i32 {
    let mut o = FitOptions {
        epochs: 30,
        lr: 0.05,
        l2: 1e-5,
        batch: 256,
        seed: 1,
        threads: 1,
    };
    let mut holdout = 10u64;
    // About 3 KB a position (60 candidates of 24 table entries): 1 M is 3 GB.
    let mut max_positions = 1_000_000usize;
    let mut out: Option<String> = None;
    let mut from_zero = false;
    let mut files = Vec::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut val = || value(&mut it, a);
        let r = match a.as_str() {
            "--epochs" => val().and_then(|v| num(a, &v)).map(|n| o.epochs = n),
            "--lr" => val().and_then(|v| num(a, &v)).map(|n| o.lr = n),
            "--l2" => val().and_then(|v| num(a, &v)).map(|n| o.l2 = n),
            "--batch" => val().and_then(|v| num(a, &v)).map(|n| o.batch = n),
            "--seed" => val().and_then(|v| num(a, &v)).map(|n| o.seed = n),
            "--threads" => val()
                .and_then(|v| num(a, &v))
                .map(|n: usize| o.threads = n.max(1)),
            "--holdout" => val()
                .and_then(|v| num(a, &v))
                .map(|n: u64| holdout = n.min(100)),
            "--max-positions" => val().and_then(|v| num(a, &v)).map(|n| max_positions = n),
            "--out" => val().map(|v| out = Some(v)),
            "--from-zero" => {
                from_zero = true;
                Ok(())
            }
            f if f.starts_with("--") => Err(format!("unknown option {f}")),
            f => {
                files.push(f.to_string());
                Ok(())
            }
        };
        if let Err(e) = r {
            eprintln!("tune policy: {e}\n{USAGE}");
            return 2;
        }
    }
    if files.is_empty() {
        eprintln!("{USAGE}");
        return 2;
    }
    let mut s = Samples::default();
    let games = match load_games(&files, max_positions, &mut |g, id| {
        s.add_game(g, id);
        s.len()
    }) {
        Ok(n) => n,
        Err(e) => {
            eprintln!("tune policy: {e}");
            return 1;
        }
    };
    let (train, test) = split(&s, o.seed, holdout);
    let cands = s.feats.len();
    println!(
        "games {games}, positions {} ({:.1} candidates each), {} for fitting, {} held out ({} games in {holdout} %)",
        s.len(),
        cands as f64 / s.len().max(1) as f64,
        train.len(),
        test.len(),
        test.iter().map(|&i| s.game[i as usize]).collect::<std::collections::BTreeSet<_>>().len(),
    );
    if train.is_empty() {
        eprintln!("tune policy: no positions to fit");
        return 1;
    }
    let start: Vec<f64> = if from_zero {
        vec![0.0; WEIGHTS]
    } else {
        table_weights()
            .iter()
            .map(|&u| u as f64 / POLICY_UNIT as f64)
            .collect()
    };
    let t0 = std::time::Instant::now();
    let w = fit(&s, &train, &start, o, |epoch, w| {
        if epoch % 5 == 0 || epoch == o.epochs {
            eprintln!(
                "epoch {epoch}: train nll {:.4}, held-out nll {:.4} ({:.0} s)",
                nll(&s, &train, w),
                nll(&s, &test, w),
                t0.elapsed().as_secs_f64()
            );
        }
    });
    let units = to_units(&w);
    let rounded: Vec<f64> = units
        .iter()
        .map(|&u| u as f64 / POLICY_UNIT as f64)
        .collect();
    let subsets = subsets(&s, &test);
    let mut about = vec![format!(
        "Fit: {games} games from {}, {} positions ({} held out), seed {}, {} epochs, lr {}, l2 {}.",
        files
            .iter()
            .map(|f| f.rsplit('/').next().unwrap_or(f))
            .collect::<Vec<_>>()
            .join(" "),
        s.len(),
        test.len(),
        o.seed,
        o.epochs,
        o.lr,
        o.l2
    )];
    println!(
        "{:<10} {:>9} {:>16} {:>16} {:>12}",
        "held-out", "positions", "static top1/top3", "policy top1/top3", "policy nll"
    );
    for (name, idx) in &subsets {
        let (a1, a3) = agreement(&s, idx, |c| s.stat[c] as i64);
        let (p1, p3) = agreement(&s, idx, |c| unit_score(&s, c, &units));
        let line = format!(
            "{:<10} {:>9} {:>7.1}% {:>6.1}% {:>7.1}% {:>6.1}% {:>12.4}",
            name,
            idx.len(),
            100.0 * a1,
            100.0 * a3,
            100.0 * p1,
            100.0 * p3,
            nll(&s, idx, &rounded)
        );
        println!("{line}");
        about.push(format!("Held out, {name}: {} positions, static top-1 {:.1} % top-3 {:.1} %, policy top-1 {:.1} % top-3 {:.1} %.", idx.len(), 100.0 * a1, 100.0 * a3, 100.0 * p1, 100.0 * p3));
    }
    // What pruning by policy gap would cost: the share of chosen moves and
    // of all candidates at least G logits below their position's best.
    let unforced = &subsets[1].1;
    println!(
        "gap G (logits)      {}",
        GAPS.map(|g| format!("{g:>6}")).join("")
    );
    let (targets, cands) = gap_shares(&s, unforced, &units);
    let row = |v: &[f64]| {
        v.iter()
            .map(|x| format!("{:>5.1}%", 100.0 * x))
            .collect::<String>()
    };
    println!("chosen move >= G    {}", row(&targets));
    println!("candidates >= G     {}", row(&cands));
    if let Some(path) = out {
        if let Err(e) = std::fs::write(&path, codegen::as_rust(&units, &about)) {
            eprintln!("tune policy: {path}: {e}");
            return 1;
        }
        println!("wrote {path}");
    }
    0
}
