//! Fitting the evaluation weights to game outcomes (`pbrain-sente tune`).
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

use std::fmt::Write as _;

use super::weights::{
    holds_pair, pattern_pairs, Class, CLASSES, MASK_PAIRS, OPP_CLASS_BONUS, OPP_PATTERN_PAIR,
    OPP_PATTERN_VALUE, OWN_CLASS_BONUS, OWN_PATTERN_PAIR, OWN_PATTERN_VALUE, PAIRS, PAIR_PATTERNS,
    TEMPO, THREAT_PAIR_FITTED,
};
use super::{nibble_pattern, threat_mask, Evaluator};
use crate::arena::cli::{num, parse_rule};
use crate::arena::report::parse_result;
use crate::game::board::Board;
use crate::game::pattern::Pattern;
use crate::search::{Limits, SearchRequest, Searcher};
use crate::types::{Color, RuleSet};

/// Number of weights per side: the line patterns, then the classes.
pub const PATTERNS: usize = OWN_PATTERN_VALUE.len();
pub const WEIGHTS: usize = PATTERNS + CLASSES;
/// Where the threat masks' bit-pair weights start in the mask model:
/// after both sides' tables.
const MASK_START: usize = 2 * WEIGHTS;
/// The tempo weight, after the bit pairs.
const TEMPO_INDEX: usize = MASK_START + PAIRS;
/// The pattern-pair weights, after the tempo: a `PAIR_PATTERNS` square
/// for the side to move's points, then one for the opponent's (only the
/// upper triangles are ever counted).
const PATTERN_PAIR_START: usize = TEMPO_INDEX + 1;
const PATTERN_PAIR_WEIGHTS: usize = PAIR_PATTERNS * PAIR_PATTERNS;

/// The index of bit pair `(i, j)`, `i <= j`, in `MASK_PAIRS`.
pub fn pair_index(i: usize, j: usize) -> usize {
    MASK_PAIRS
        .iter()
        .position(|&p| p == (i, j))
        .unwrap_or_else(|| panic!("({i}, {j}) is not a bit pair"))
}

/// The bit pairs a threat mask holds (both bits set), as `MASK_PAIRS`
/// indices.
pub fn pairs(mask: usize) -> impl Iterator<Item = usize> {
    MASK_PAIRS
        .iter()
        .enumerate()
        .filter(move |(_, &(i, j))| holds_pair(mask, i, j))
        .map(|(k, _)| k)
}

/// The side to move's (`own`) or the opponent's current weights as one
/// vector (patterns, then class bonuses).
pub fn current_weights(own: bool) -> [f64; WEIGHTS] {
    let (pv, cb) = if own {
        (&OWN_PATTERN_VALUE, &OWN_CLASS_BONUS)
    } else {
        (&OPP_PATTERN_VALUE, &OPP_CLASS_BONUS)
    };
    let mut w = [0.0; WEIGHTS];
    for (i, v) in pv.iter().enumerate() {
        w[i] = *v as f64;
    }
    for (i, v) in cb.iter().enumerate() {
        w[PATTERNS + i] = *v as f64;
    }
    w
}

/// The side to move's weight relative to the opponent's in the tied model.
const TIED_OWN: f64 = 1.25;

/// How a score is built from the weights.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Model {
    /// Separate pattern and class weights for the side to move's and the
    /// opponent's points (`WEIGHTS` each, side to move first): the
    /// engine's form in 0.4.0 and 0.5.0.
    Split,
    /// One weight per line pattern and per class, the side to move's counts
    /// weighing 10/8 (the engine's form before 0.4.0; for comparison).
    Tied,
    /// The engine's form since 0.7.0: `Split` plus a value per bit pair
    /// of the threat mask (`eval::threat_mask`: which threats each side
    /// holds; 0.6.0 had one value per mask), a tempo, and a value per two
    /// patterns on two lines of one point, for each side (after the two
    /// tables, in that order).
    Masks,
}

impl Model {
    pub fn dims(self) -> usize {
        match self {
            Model::Tied => WEIGHTS,
            Model::Split => MASK_START,
            Model::Masks => PATTERN_PAIR_START + 2 * PATTERN_PAIR_WEIGHTS,
        }
    }

    /// The sparse feature vector of the position for the side to move
    /// (index, value; indices ascending): the score is its dot product with
    /// the weights (before the clamp to `EVAL_LIMIT`).
    pub fn features(self, ev: &Evaluator, stm: Color) -> Vec<(u32, f64)> {
        let mut x = vec![0.0; self.dims()];
        for (color, own) in [(stm, true), (stm.opposite(), false)] {
            let ci = color.index();
            let (base, v) = match (self, own) {
                (Model::Split | Model::Masks, true) => (0, 1.0),
                (Model::Split | Model::Masks, false) => (WEIGHTS, -1.0),
                (Model::Tied, true) => (0, TIED_OWN),
                (Model::Tied, false) => (0, -1.0),
            };
            for c in ev.cells.iter().filter(|c| c.live) {
                if c.class[ci] == Class::Forbidden {
                    continue; // worth nothing, whatever its patterns
                }
                let pats = [0, 1, 2, 3].map(|d| nibble_pattern((c.code[ci] >> (4 * d)) & 15));
                for p in pats {
                    x[base + p as usize] += v;
                }
                x[base + PATTERNS + c.class[ci] as usize] += v;
                if self == Model::Masks {
                    let pp = PATTERN_PAIR_START + if own { 0 } else { PATTERN_PAIR_WEIGHTS };
                    for (a, b) in pattern_pairs(pats) {
                        x[pp + a * PAIR_PATTERNS + b] += v;
                    }
                }
            }
        }
        if self == Model::Masks {
            for k in pairs(threat_mask(ev, stm)) {
                x[MASK_START + k] = 1.0;
            }
            x[TEMPO_INDEX] = 1.0;
        }
        x.iter()
            .enumerate()
            .filter(|(_, v)| **v != 0.0)
            .map(|(i, v)| (i as u32, *v))
            .collect()
    }

    /// The engine's current weights in this model (tied: the opponent's
    /// tables, a starting point).
    pub fn current(self) -> Vec<f64> {
        match self {
            Model::Tied => current_weights(false).to_vec(),
            Model::Split => current_weights(true)
                .into_iter()
                .chain(current_weights(false))
                .collect(),
            Model::Masks => {
                let mut w = Model::Split.current();
                let mut mask = [0.0; PAIRS];
                for &(i, j, v) in THREAT_PAIR_FITTED.iter() {
                    mask[pair_index(i, j)] = v as f64;
                }
                w.extend(mask);
                w.push(TEMPO as f64);
                for t in [&OWN_PATTERN_PAIR, &OPP_PATTERN_PAIR] {
                    w.extend(t.iter().flatten().map(|&v| v as f64));
                }
                w
            }
        }
    }
}

/// Weights never tuned (index within one side's `WEIGHTS`): worthless
/// patterns (none, overline), the forbidden class (worth nothing by rule),
/// and fives (never on a quiet board).
fn frozen(k: usize) -> bool {
    k == Pattern::None as usize
        || k == Pattern::Overline as usize
        || k == Pattern::Five as usize
        || k == PATTERNS + Class::Forbidden as usize
        || k == PATTERNS + Class::None as usize
        || k == PATTERNS + Class::Five as usize
}

/// Would the search score this position statically at its horizon?
pub fn quiet(ev: &Evaluator, stm: Color) -> bool {
    let opp = stm.opposite();
    ev.fives(stm) == 0
        && ev.fives(opp) == 0
        && ev.open_fours(opp) == 0
        && !(ev.open_fours(stm) > 0 && ev.fours(opp) == 0)
}

/// One training position: features and the result for the side to move
/// (1 win, 0.5 draw, 0 loss).
#[derive(Clone, Debug)]
pub struct Sample {
    pub x: Vec<(u32, f64)>,
    pub y: f64,
    /// Which game it came from (held-out split by game).
    pub game: usize,
    /// The score of a fixed-depth search of the position, for the side to
    /// move, when the records were labelled (`--search-depth`).
    pub search: Option<f64>,
}

/// Search scores beyond this (mates, won threat lines) count as this.
const LABEL_CLAMP: f64 = 4000.0;

/// The score of a `depth`-ply search of `board` for the side to move,
/// clamped to `LABEL_CLAMP` (a label for `--search-depth`).
pub fn search_label(searcher: &mut Searcher, board: &mut Board, depth: u32) -> f64 {
    let req = SearchRequest::new(Limits {
        max_depth: Some(depth),
        ..Limits::default()
    });
    let r = searcher.search(board, &req, &mut |_| {});
    (r.score as f64).clamp(-LABEL_CLAMP, LABEL_CLAMP)
}

/// Mix search labels into the targets: a labelled sample's target becomes
/// `lambda · sigmoid(search / k) + (1 − lambda) · result`.
pub fn mix_labels(samples: &mut [Sample], k: f64, lambda: f64) {
    for s in samples.iter_mut() {
        if let Some(v) = s.search {
            s.y = lambda * sigmoid(v / k) + (1.0 - lambda) * s.y;
        }
    }
}

/// Replay the records in `text` (arena `games.txt` lines) under `rules` on
/// a `size` board and collect the quiet positions of games that ended on
/// the board (five or draw; forfeits say nothing about the position).
/// Returns the samples and the number of games used.
pub fn samples_from_records(
    text: &str,
    rules: RuleSet,
    size: usize,
    model: Model,
    first_game: usize,
    mut label: Option<(&mut Searcher, u32)>,
) -> (Vec<Sample>, usize) {
    let mut out = Vec::new();
    let mut games = 0;
    for line in text.lines() {
        let f: Vec<&str> = line.split('\t').collect();
        if f.len() < 8 || !(f[4] == "five" || f[4] == "draw") {
            continue;
        }
        let Some(winner) = parse_result(f[3]) else {
            continue;
        };
        let Ok(opening_len) = f[5].parse::<usize>() else {
            continue;
        };
        let Ok(mut board) = Board::square(size, rules) else {
            return (out, games);
        };
        let mut ev = Evaluator::new(&board);
        if let Some((searcher, _)) = label.as_mut() {
            // Each game's labels depend on that game alone.
            searcher.clear();
        }
        let mut ok = true;
        let mut positions = Vec::new();
        for (i, mv) in f[7].split_whitespace().enumerate() {
            let xy: Vec<i64> = mv.split(',').filter_map(|v| v.parse().ok()).collect();
            let color = board.to_move();
            let played = match xy[..] {
                [x, y] => board.try_make(x, y, color).ok(),
                _ => None,
            };
            let Some(p) = played else {
                ok = false;
                break;
            };
            ev.update(&board, p);
            if i + 1 >= opening_len {
                let stm = board.to_move();
                if quiet(&ev, stm) {
                    let y = match winner {
                        None => 0.5,
                        Some(c) if c == stm => 1.0,
                        Some(_) => 0.0,
                    };
                    let search = label
                        .as_mut()
                        .map(|(searcher, depth)| search_label(searcher, &mut board, *depth));
                    positions.push(Sample {
                        x: model.features(&ev, stm),
                        y,
                        game: first_game + games,
                        search,
                    });
                }
            }
        }
        if ok {
            out.extend(positions);
            games += 1;
        }
    }
    (out, games)
}

/// `samples_from_records` with every position labelled by a
/// `depth`-ply search, the records split among `threads` threads (each
/// with its own searcher; games keep their numbers, so the held-out split
/// is the same whatever the thread count).
pub fn labelled_samples(
    text: &str,
    rules: RuleSet,
    size: usize,
    model: Model,
    first_game: usize,
    depth: u32,
    threads: usize,
) -> (Vec<Sample>, usize) {
    let lines: Vec<&str> = text.lines().collect();
    let per = lines.len().div_ceil(threads.max(1)).max(1);
    let parts: Vec<(Vec<Sample>, usize)> = std::thread::scope(|scope| {
        let handles: Vec<_> = lines
            .chunks(per)
            .map(|chunk| {
                let chunk = chunk.join("\n");
                scope.spawn(move || {
                    let mut searcher = Searcher::with_tt_bytes(16 << 20);
                    // Games are numbered from 0 inside a chunk:
                    // renumbered below, in order.
                    samples_from_records(
                        &chunk,
                        rules,
                        size,
                        model,
                        0,
                        Some((&mut searcher, depth)),
                    )
                })
            })
            .collect();
        handles
            .into_iter()
            // A worker's panic goes on as it would on one thread: a chunk
            // is never dropped in silence.
            .map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
            .collect()
    });
    let mut out = Vec::new();
    let mut games = 0;
    for (mut samples, g) in parts {
        for s in samples.iter_mut() {
            s.game += first_game + games;
        }
        out.extend(samples);
        games += g;
    }
    (out, games)
}

#[inline]
fn sigmoid(v: f64) -> f64 {
    1.0 / (1.0 + (-v).exp())
}

fn dot(w: &[f64], x: &[(u32, f64)]) -> f64 {
    x.iter().map(|&(i, v)| w[i as usize] * v).sum()
}

/// Mean squared error of `sigmoid(score / k)` against the results.
pub fn mse(samples: &[Sample], w: &[f64], k: f64) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    let s: f64 = samples
        .iter()
        .map(|s| {
            let e = sigmoid(dot(w, &s.x) / k) - s.y;
            e * e
        })
        .sum();
    s / samples.len() as f64
}

/// The scale `K` (score units per logit) that best fits `w`: a golden
/// section search over 10..5000 on a log scale.
pub fn fit_k(samples: &[Sample], w: &[f64]) -> f64 {
    let (mut lo, mut hi) = (10f64.ln(), 5000f64.ln());
    let g = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..60 {
        let a = hi - g * (hi - lo);
        let b = lo + g * (hi - lo);
        if mse(samples, w, a.exp()) < mse(samples, w, b.exp()) {
            hi = b;
        } else {
            lo = a;
        }
    }
    ((lo + hi) / 2.0).exp()
}

/// Which weights a fit may move: not the frozen ones, nor those that
/// count in too few samples to be measured (fewer than `min_samples`).
pub fn tunable(samples: &[Sample], model: Model, min_samples: usize) -> Vec<bool> {
    let mut seen = vec![0usize; model.dims()];
    for s in samples {
        for &(k, _) in &s.x {
            seen[k as usize] += 1;
        }
    }
    (0..model.dims())
        .map(|k| (k >= MASK_START || !frozen(k % WEIGHTS)) && seen[k] >= min_samples)
        .collect()
}

/// How a fit runs: Adam on the mean squared error, full batch, `epochs`
/// steps of size `lr` score units, plus `l2` times the mean squared change
/// from the start in hundreds of score units (keeps rarely seen weights
/// near the hand-set ones).
#[derive(Clone, Copy, Debug)]
pub struct FitOptions {
    pub epochs: usize,
    pub lr: f64,
    pub l2: f64,
}

/// Fit the weights marked in `free` from `start`. The tables' weights stay
/// non-negative (every shape is worth something to its owner); a threat
/// mask may be worth less than its points add up to.
pub fn fit(samples: &[Sample], start: &[f64], free: &[bool], k: f64, o: FitOptions) -> Vec<f64> {
    let FitOptions { epochs, lr, l2 } = o;
    let dims = start.len();
    let mut w = start.to_vec();
    let (mut m, mut v) = (vec![0.0; dims], vec![0.0; dims]);
    let (b1, b2, eps) = (0.9f64, 0.999f64, 1e-12);
    let n = samples.len().max(1) as f64;
    for t in 1..=epochs {
        let mut g = vec![0.0; dims];
        for s in samples {
            let p = sigmoid(dot(&w, &s.x) / k);
            let c = 2.0 * (p - s.y) * p * (1.0 - p) / k;
            for &(j, xj) in &s.x {
                g[j as usize] += c * xj;
            }
        }
        for j in 0..dims {
            if !free[j] {
                continue;
            }
            let gj = g[j] / n + 2.0 * l2 * (w[j] - start[j]) / 1e4 / dims as f64;
            m[j] = b1 * m[j] + (1.0 - b1) * gj;
            v[j] = b2 * v[j] + (1.0 - b2) * gj * gj;
            let mh = m[j] / (1.0 - b1.powi(t as i32));
            let vh = v[j] / (1.0 - b2.powi(t as i32));
            w[j] -= lr * mh / (vh.sqrt() + eps);
            if j < MASK_START {
                w[j] = w[j].max(0.0);
            }
        }
    }
    w
}

/// The weights as Rust arrays for `weights.rs`, rounded (split: the side
/// to move's tables, then the opponent's; masks: then the fitted bit pairs
/// whose value is not zero, the tempo and the pattern pairs).
pub fn as_rust(w: &[f64]) -> String {
    let mut s = String::new();
    let r = |v: f64| v.round() as i64;
    let (tables, rest) = w.split_at(w.len().min(MASK_START));
    for (i, part) in tables.chunks(WEIGHTS).enumerate() {
        let who = if w.len() > WEIGHTS {
            ["OWN_", "OPP_"][i.min(1)]
        } else {
            "TIED_"
        };
        let list = |vals: &[f64]| {
            vals.iter()
                .map(|&v| r(v).to_string())
                .collect::<Vec<_>>()
                .join(", ")
        };
        let _ = writeln!(
            s,
            "pub const {who}PATTERN_VALUE: [i32; {PATTERNS}] = [{}];",
            list(&part[..PATTERNS])
        );
        let _ = writeln!(
            s,
            "pub const {who}CLASS_BONUS: [i32; CLASSES] = [{}];",
            list(&part[PATTERNS..])
        );
    }
    if rest.len() < PAIRS + 1 + 2 * PATTERN_PAIR_WEIGHTS {
        return s;
    }
    let fitted: Vec<String> = MASK_PAIRS
        .iter()
        .zip(&rest[..PAIRS])
        .filter(|(_, v)| r(**v) != 0)
        .map(|(&(i, j), &v)| format!("({i}, {j}, {})", r(v)))
        .collect();
    let _ = writeln!(
        s,
        "pub const THREAT_PAIR_FITTED: [(usize, usize, i32); {}] = [{}];",
        fitted.len(),
        fitted.join(", ")
    );
    let _ = writeln!(s, "pub const TEMPO: i32 = {};", r(rest[PAIRS]));
    for (who, t) in ["OWN", "OPP"]
        .iter()
        .zip(rest[PAIRS + 1..].chunks(PATTERN_PAIR_WEIGHTS))
    {
        let rows: Vec<String> = t
            .chunks(PAIR_PATTERNS)
            .map(|row| {
                let v: Vec<String> = row.iter().map(|&v| r(v).to_string()).collect();
                format!("[{}]", v.join(", "))
            })
            .collect();
        let _ = writeln!(
            s,
            "pub const {who}_PATTERN_PAIR: [[i32; PAIR_PATTERNS]; PAIR_PATTERNS] = [{}];",
            rows.join(", ")
        );
    }
    s
}

/// Round the fitted weights to the integers the engine uses without
/// losing the fit: a weight that counts about once a position or more
/// (pattern pairs count on many points) shifts every score by its
/// rounding error times its count, so those are rounded one at a time,
/// most counted first, each followed by `refit` steps of the others that
/// are still free; the rest are rounded at the end.
pub fn round_polish(
    samples: &[Sample],
    w: &[f64],
    free: &[bool],
    k: f64,
    o: FitOptions,
    refit: usize,
) -> Vec<f64> {
    let n = samples.len().max(1) as f64;
    let mut count = vec![0.0f64; w.len()];
    for s in samples {
        for &(j, v) in &s.x {
            count[j as usize] += v.abs();
        }
    }
    let mut order: Vec<usize> = (0..w.len())
        .filter(|&j| free[j] && count[j] / n >= 1.0)
        .collect();
    order.sort_by(|&a, &b| count[b].total_cmp(&count[a]));
    let mut w = w.to_vec();
    let mut still = free.to_vec();
    for j in order {
        w[j] = w[j].round();
        still[j] = false;
        if refit > 0 && still.iter().any(|&f| f) {
            w = fit(samples, &w, &still, k, FitOptions { epochs: refit, ..o });
        }
    }
    w.iter().map(|v| v.round()).collect()
}

/// Random openings for tuning games, one per line in the arena's format:
/// 3 to 5 stones in the 7×7 box around the centre of a `size` board, Black
/// first, colours alternating, none repeated. Unbalanced on purpose: the
/// fit wants positions that are won and lost, not only even ones.
pub fn random_openings(count: usize, size: usize, seed: u64) -> Vec<String> {
    let mut rng = crate::game::zobrist::SplitMix64::new(seed);
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

/// `pbrain-sente tune [--rule R] [--size N] [--epochs N] [--lr X] [--l2 X] [--tied] GAMES... | --make-openings N [--seed S] [--size N]`
/// Returns the process exit status.
pub fn main_tune(args: &[String]) -> i32 {
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
        let mut val = || {
            it.next()
                .cloned()
                .ok_or_else(|| format!("{a} needs a value"))
        };
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
            "usage: pbrain-sente tune [--rule R] [--size N] [--epochs N] [--lr X] [--l2 X] [--no-masks | --tied] [--search-depth D [--lambda X] [--threads N]] GAMES.txt... | --make-openings N [--seed S] [--size N]"
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
    use crate::game::board::EMPTY;
    use crate::game::testutil::random_empty;
    use crate::game::zobrist::SplitMix64;

    /// The features times the current weights give the evaluator's score.
    #[test]
    fn features_reproduce_the_evaluation() {
        let mut rng = SplitMix64::new(99);
        let mut checks = 0;
        for rule in crate::types::Rule::ALL {
            let rules = RuleSet {
                rule,
                continuous: false,
            };
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
                    let limit = super::super::weights::EVAL_LIMIT as f64;
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
        assert_eq!(pairs(super::super::weights::MASKS - 1).count(), PAIRS);
    }

    /// The engine's table of mask values is the tempo plus the sum of the
    /// mask's bit pairs, as the tuner's features count them.
    #[test]
    fn mask_values_sum_their_pairs() {
        let w = Model::Masks.current();
        for m in 0..super::super::weights::MASKS {
            let v: f64 = pairs(m).map(|k| w[MASK_START + k]).sum::<f64>() + w[TEMPO_INDEX];
            assert_eq!(
                super::super::weights::THREAT_MASK_VALUE[m] as f64,
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
        let mut s = Searcher::with_tt_bytes(1 << 20);
        // Black to move makes five on the row: a won score, clamped.
        assert_eq!(search_label(&mut s, &mut b, 3), LABEL_CLAMP);
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
