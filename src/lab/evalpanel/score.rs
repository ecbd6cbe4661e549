//! `sente-lab evalpanel score`: scores evaluators on a labelled panel, per
//! rule and game phase (stones on the board: `<=15`, `16-30`, `>30`, and
//! `all`), over the positions that have a deep label:
//!
//! - `ce_deep`: cross-entropy of `sigmoid(eval / K)` against
//!   `sigmoid(deep / K)` (lower is better; the `deep` row, the label
//!   scoring itself, is the floor: the targets' own entropy);
//! - `ce_result`: cross-entropy of `sigmoid(eval / K)` against the game's
//!   result for the side to move;
//! - `spearman`: rank correlation of the evaluation with the deep score.
//!
//! `--undecided` leaves out the positions whose deep label is a forced
//! result (a mate score): the panel's filter rejects a VCF but not a VCT,
//! and a static evaluation is not asked to see a forced win, so those
//! positions measure the label's reach more than the evaluator.
//!
//! `K` is the net trainer's scale (score units per logit, fitted by `tune
//! net` and stored in its weights): the rule's embedded net's `k()`, or
//! `--k`. Scores beyond `EVAL_LIMIT` (mates) are clipped to it. An
//! evaluator is any closure of (index, position, board) (`Named`); the
//! command's are the classical evaluation, the rule's embedded net and
//! weights files, each the static evaluation for the side to move of an
//! `Evaluator` built on the position as the search builds its own.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

use anyhow::{anyhow, bail, Context};

use super::label::parse_label;
use super::{read_panel, Entry};
use crate::brain::eval::net::{embedded_net_for, QuantNet};
use crate::brain::eval::weights::EVAL_LIMIT;
use crate::brain::eval::Evaluator;
use crate::brain::game::Board;
use crate::brain::types::{is_mate_score, Rule};
use crate::cli::{num, value};

/// An evaluator of panel positions: (index, position, its board) to a
/// score for the side to move, in engine units.
pub type EvalFn<'a> = Box<dyn Fn(usize, &Entry, &Board) -> f64 + 'a>;

/// A named evaluator.
pub struct Named<'a> {
    pub name: String,
    pub f: EvalFn<'a>,
}

/// The game phases, by stones on the board (inclusive bounds).
pub const PHASES: [(&str, usize, usize); 3] =
    [("<=15", 0, 15), ("16-30", 16, 30), (">30", 31, usize::MAX)];

/// One line of the table.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    pub evaluator: String,
    pub rule: String,
    pub phase: String,
    pub n: usize,
    pub k: f64,
    pub ce_deep: f64,
    pub ce_result: f64,
    pub spearman: f64,
}

fn sigmoid(v: f64) -> f64 {
    1.0 / (1.0 + (-v).exp())
}

fn clip(s: f64) -> f64 {
    s.clamp(-f64::from(EVAL_LIMIT), f64::from(EVAL_LIMIT))
}

/// Cross-entropy of the prediction `p` against the target `t` (both
/// probabilities; `p` kept off 0 and 1).
fn cross_entropy(p: f64, t: f64) -> f64 {
    let p = p.clamp(1e-9, 1.0 - 1e-9);
    -(t * p.ln() + (1.0 - t) * (1.0 - p).ln())
}

/// Ranks (1-based, ties given their mean rank).
fn ranks(v: &[f64]) -> Vec<f64> {
    let mut idx: Vec<usize> = (0..v.len()).collect();
    idx.sort_by(|&a, &b| v[a].total_cmp(&v[b]));
    let mut r = vec![0.0; v.len()];
    let mut i = 0;
    while i < idx.len() {
        let mut j = i;
        while j + 1 < idx.len() && v[idx[j + 1]] == v[idx[i]] {
            j += 1;
        }
        let mean = (i + j) as f64 / 2.0 + 1.0;
        for &k in &idx[i..=j] {
            r[k] = mean;
        }
        i = j + 1;
    }
    r
}

/// Spearman's rank correlation of `a` and `b` (the Pearson correlation of
/// their ranks); 0 when either is constant, NaN under two values.
pub fn spearman(a: &[f64], b: &[f64]) -> f64 {
    assert_eq!(a.len(), b.len());
    if a.len() < 2 {
        return f64::NAN;
    }
    let (ra, rb) = (ranks(a), ranks(b));
    let n = a.len() as f64;
    let (ma, mb) = (ra.iter().sum::<f64>() / n, rb.iter().sum::<f64>() / n);
    let (mut sab, mut saa, mut sbb) = (0.0, 0.0, 0.0);
    for (x, y) in ra.iter().zip(&rb) {
        sab += (x - ma) * (y - mb);
        saa += (x - ma) * (x - ma);
        sbb += (y - mb) * (y - mb);
    }
    if saa == 0.0 || sbb == 0.0 {
        return 0.0;
    }
    sab / (saa * sbb).sqrt()
}

/// The table: for each evaluator, each rule of the panel and each phase
/// (then `all`), over the labelled positions (`labels`: index to deep
/// score); `k_of` gives each rule's scale.
pub fn score(
    panel: &[Entry],
    labels: &BTreeMap<usize, i32>,
    evals: &[Named],
    k_of: &dyn Fn(Rule) -> f64,
) -> anyhow::Result<Vec<Row>> {
    // (index, board) of the labelled positions, built once.
    let mut boards = Vec::new();
    for (&i, _) in labels.iter() {
        let e = panel
            .get(i)
            .ok_or_else(|| anyhow!("label of position {i}: the panel has {}", panel.len()))?;
        boards.push((i, e.board()?));
    }
    let mut rules: Vec<Rule> = boards.iter().map(|(i, _)| panel[*i].rules.rule).collect();
    rules.sort_by_key(|r| r.name());
    rules.dedup();
    let mut rows = Vec::new();
    for ev in evals {
        let values: Vec<f64> = boards
            .iter()
            .map(|(i, b)| clip((ev.f)(*i, &panel[*i], b)))
            .collect();
        for &rule in &rules {
            let k = k_of(rule);
            let all = ("all", 0, usize::MAX);
            for (phase, lo, hi) in PHASES.iter().copied().chain(std::iter::once(all)) {
                let (mut ce_d, mut ce_r) = (0.0, 0.0);
                let (mut xs, mut ys) = (Vec::new(), Vec::new());
                for ((i, _), &v) in boards.iter().zip(&values) {
                    let e = &panel[*i];
                    if e.rules.rule != rule || !(lo..=hi).contains(&e.stones()) {
                        continue;
                    }
                    let deep = clip(f64::from(labels[i]));
                    let p = sigmoid(v / k);
                    ce_d += cross_entropy(p, sigmoid(deep / k));
                    ce_r += cross_entropy(p, f64::from(e.result));
                    xs.push(v);
                    ys.push(deep);
                }
                let n = xs.len();
                if n == 0 {
                    continue;
                }
                rows.push(Row {
                    evaluator: ev.name.clone(),
                    rule: rule.name().to_string(),
                    phase: phase.to_string(),
                    n,
                    k,
                    ce_deep: ce_d / n as f64,
                    ce_result: ce_r / n as f64,
                    spearman: spearman(&xs, &ys),
                });
            }
        }
    }
    Ok(rows)
}

/// The labels whose deep score is not a forced result (`--undecided`).
pub fn undecided(labels: &BTreeMap<usize, i32>) -> BTreeMap<usize, i32> {
    labels
        .iter()
        .filter(|(_, &s)| !is_mate_score(s))
        .map(|(&i, &s)| (i, s))
        .collect()
}

/// The table as text.
pub fn table(rows: &[Row]) -> String {
    let w = rows
        .iter()
        .map(|r| r.evaluator.len())
        .max()
        .unwrap_or(9)
        .max(9);
    let mut s = format!(
        "{:<w$}  {:<9}  {:<5}  {:>6}  {:>7}  {:>8}  {:>9}  {:>8}\n",
        "evaluator", "rule", "phase", "n", "K", "ce_deep", "ce_result", "spearman"
    );
    for r in rows {
        s.push_str(&format!(
            "{:<w$}  {:<9}  {:<5}  {:>6}  {:>7.1}  {:>8.4}  {:>9.4}  {:>8.4}\n",
            r.evaluator, r.rule, r.phase, r.n, r.k, r.ce_deep, r.ce_result, r.spearman
        ));
    }
    s
}

fn json_num(v: f64) -> String {
    if v.is_finite() {
        format!("{v:.6}")
    } else {
        "null".into()
    }
}

/// The table as a JSON array of objects.
pub fn json(rows: &[Row]) -> String {
    let items: Vec<String> = rows
        .iter()
        .map(|r| {
            format!(
                "{{\"evaluator\":{:?},\"rule\":{:?},\"phase\":{:?},\"n\":{},\"k\":{},\"ce_deep\":{},\"ce_result\":{},\"spearman\":{}}}",
                r.evaluator,
                r.rule,
                r.phase,
                r.n,
                json_num(r.k),
                json_num(r.ce_deep),
                json_num(r.ce_result),
                json_num(r.spearman)
            )
        })
        .collect();
    format!("[\n  {}\n]\n", items.join(",\n  "))
}

/// The labels of `files` merged (index to deep score); an index labelled
/// twice must say the same.
pub fn read_labels(files: &[String]) -> anyhow::Result<BTreeMap<usize, i32>> {
    let mut out = BTreeMap::new();
    for f in files {
        let text = std::fs::read_to_string(f).with_context(|| format!("cannot read {f}"))?;
        // A partial last line (a run in progress) is left out.
        let whole = text.rfind('\n').map_or(0, |i| i + 1);
        for (j, line) in text[..whole].lines().enumerate() {
            let Some((i, s)) = parse_label(line).with_context(|| format!("{f}:{}", j + 1))? else {
                continue;
            };
            if let Some(old) = out.insert(i, s) {
                if old != s {
                    bail!(
                        "{f}:{}: position {i} labelled {old} elsewhere, {s} here",
                        j + 1
                    );
                }
            }
        }
    }
    Ok(out)
}

/// The static evaluation for the side to move with `net` (None: the
/// classical one), as the search's `Evaluator` builds it.
pub fn static_eval(board: &Board, net: Option<Arc<QuantNet>>) -> f64 {
    f64::from(Evaluator::with_optional_net(board, net).evaluate(board.to_move()))
}

/// The classical evaluation.
fn classic() -> Named<'static> {
    Named {
        name: "classic".into(),
        f: Box::new(|_, _, b| static_eval(b, None)),
    }
}

/// Each rule's embedded net.
fn embedded() -> Named<'static> {
    Named {
        name: "net".into(),
        f: Box::new(|_, _, b| static_eval(b, Some(embedded_net_for(b.rules().rule)))),
    }
}

/// `sente-lab evalpanel score …`.
pub fn main_score(args: &[String]) -> anyhow::Result<()> {
    let mut panel: Option<String> = None;
    let mut label_files: Vec<String> = Vec::new();
    let mut evals: Vec<Named> = Vec::new();
    let mut k: Option<f64> = None;
    let mut json_out: Option<String> = None;
    let mut only_undecided = false;
    let mut it = args.iter().peekable();
    while let Some(a) = it.next() {
        let r: Result<(), String> = match a.as_str() {
            "--panel" => value(&mut it, a).map(|v| panel = Some(v)),
            "--labels" => {
                while let Some(f) = it.next_if(|f| !f.starts_with("--")) {
                    label_files.push(f.clone());
                }
                Ok(())
            }
            "--eval" => match value(&mut it, a).as_deref() {
                Ok("classic") => {
                    evals.push(classic());
                    Ok(())
                }
                Ok("net") => {
                    evals.push(embedded());
                    Ok(())
                }
                _ => Err("--eval takes classic or net".into()),
            },
            "--net" => value(&mut it, a).and_then(|v| {
                let (q, _) = crate::cli::load_net(&v)?;
                let name = Path::new(&v)
                    .file_name()
                    .map_or(v.clone(), |n| n.to_string_lossy().into_owned());
                evals.push(Named {
                    name: format!("net:{name}"),
                    f: Box::new(move |_, _, b| static_eval(b, Some(q.clone()))),
                });
                Ok(())
            }),
            "--k" => value(&mut it, a)
                .and_then(|v| num(a, &v))
                .map(|v| k = Some(v)),
            "--json" => value(&mut it, a).map(|v| json_out = Some(v)),
            "--undecided" => {
                only_undecided = true;
                Ok(())
            }
            f => Err(format!("unknown argument {f:?}\n{}", super::USAGE)),
        };
        r.map_err(|e| anyhow!(e))?;
    }
    let panel = panel.ok_or_else(|| anyhow!("score: --panel PANEL.txt is needed"))?;
    if label_files.is_empty() {
        bail!("score: --labels LABELS.txt... is needed");
    }
    if evals.is_empty() {
        evals = vec![classic(), embedded()];
    }
    let (entries, _) = read_panel(Path::new(&panel))?;
    let mut labels = read_labels(&label_files)?;
    let forced = if only_undecided {
        let all = labels.len();
        labels = undecided(&labels);
        Some(all - labels.len())
    } else {
        None
    };
    let deep = |i: usize| f64::from(labels[&i]);
    let mut all = vec![Named {
        name: "deep".into(),
        f: Box::new(move |i, _, _| deep(i)),
    }];
    all.extend(evals);
    let k_of = |r: Rule| k.unwrap_or_else(|| f64::from(embedded_net_for(r).k()));
    let rows = score(&entries, &labels, &all, &k_of)?;
    println!(
        "# {} of {} positions labelled{}; K: the rule's embedded net's scale",
        labels.len(),
        entries.len(),
        forced.map_or(String::new(), |f| format!(
            " and undecided ({f} forced results left out)"
        ))
    );
    print!("{}", table(&rows));
    if let Some(j) = json_out {
        std::fs::write(&j, json(&rows)).with_context(|| format!("cannot write {j}"))?;
    }
    Ok(())
}
