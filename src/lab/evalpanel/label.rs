//! `sente-lab evalpanel label`: the deep label of each panel position, the
//! score (side to move's view) of a fresh single-thread search of
//! `--nodes` nodes, datagen relabel's `fresh_search` with datagen's engine
//! (table and history cleared per position: a label depends on the
//! position, the nodes and the net alone). `--shard K/N` takes the
//! positions whose index is `K-1` modulo `N`. The output is appended a
//! line at a time; run again with the same arguments it checks the header
//! (the panel's hash, nodes, shard, evaluation) and the indices already
//! there, cuts a partial last line and goes on after them.

use std::io::Write;
use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{anyhow, bail, Context};

use super::{read_panel, Entry, LABELS_FORMAT};
use crate::brain::engine::{Engine, EvalKind};
use crate::brain::eval::net::QuantNet;
use crate::brain::types::RuleSet;
use crate::cli::{num, value};
use crate::lab::datagen::relabel::{fresh_search, whole_lines};
use crate::lab::datagen::{parse_shard, player};

/// What a labelling run does.
#[derive(Clone, Debug)]
pub struct Config {
    pub nodes: u64,
    pub shard: (usize, usize),
    pub eval: EvalKind,
    /// `--net FILE`: its weights and the file's FNV-1a 64.
    pub net: Option<(Arc<QuantNet>, u64)>,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            nodes: 500_000,
            shard: (1, 1),
            eval: EvalKind::Auto,
            net: None,
        }
    }
}

/// The labels' header line for the panel of hash `panel`.
pub fn header(cfg: &Config, panel: u64) -> String {
    let net = match &cfg.net {
        Some((_, h)) => format!(" net={h:016x}"),
        None => String::new(),
    };
    format!(
        "# {LABELS_FORMAT} panel={panel:016x} nodes={} shard={}/{} eval={}{net} version={}",
        cfg.nodes,
        cfg.shard.0,
        cfg.shard.1,
        cfg.eval.name(),
        env!("CARGO_PKG_VERSION")
    )
}

/// One labels line: (index, score, move).
pub fn parse_label(line: &str) -> anyhow::Result<Option<(usize, i32)>> {
    let line = line.trim_end_matches(['\r', '\n']);
    if line.trim().is_empty() || line.starts_with('#') {
        return Ok(None);
    }
    let f: Vec<&str> = line.split('\t').collect();
    let [i, s, _] = f[..] else {
        bail!("want 3 tab-separated fields, got {}", f.len());
    };
    Ok(Some((
        i.parse().with_context(|| format!("bad index {i:?}"))?,
        s.parse().with_context(|| format!("bad score {s:?}"))?,
    )))
}

/// How many of `mine` (the shard's indices) `path` already labels, after
/// checking its header and indices; a partial last line is cut off.
fn resume_point(path: &Path, head: &str, mine: &[usize]) -> anyhow::Result<usize> {
    let Some(text) = whole_lines(path, "label")? else {
        return Ok(0);
    };
    let mut lines = text.lines();
    let Some(first) = lines.next() else {
        return Ok(0);
    };
    if first != head {
        bail!(
            "{} holds another run (its header:\n  {first}\nthis run's:\n  {head})",
            path.display()
        );
    }
    let mut n = 0;
    for (j, line) in lines.enumerate() {
        let Some((i, _)) =
            parse_label(line).with_context(|| format!("{}:{}", path.display(), j + 2))?
        else {
            continue;
        };
        if mine.get(n) != Some(&i) {
            bail!(
                "{}:{}: index {i} is not this shard's next",
                path.display(),
                j + 2
            );
        }
        n += 1;
    }
    Ok(n)
}

/// What a run did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Totals {
    pub positions: usize,
    pub resumed: usize,
    pub labelled: usize,
}

/// Label this shard's positions of `panel` (hash `hash`) into `out`,
/// resuming after those it holds; progress on stderr every `progress`.
pub fn run(
    cfg: &Config,
    panel: &[Entry],
    hash: u64,
    out: &Path,
    progress: Option<Duration>,
) -> anyhow::Result<Totals> {
    let (k, n) = cfg.shard;
    if n == 0 || k == 0 || k > n {
        bail!("bad shard {k}/{n}");
    }
    if cfg.nodes == 0 {
        bail!("--nodes must be at least 1");
    }
    let mine: Vec<usize> = (0..panel.len()).filter(|i| i % n == k - 1).collect();
    let head = header(cfg, hash);
    let done = resume_point(out, &head, &mine)?;
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(out)
        .with_context(|| format!("cannot open {}", out.display()))?;
    if file.metadata()?.len() == 0 {
        file.write_all(format!("{head}\n").as_bytes())?;
    }
    let stop = Arc::new(AtomicBool::new(false));
    let mut engines: Vec<(RuleSet, Engine)> = Vec::new();
    let start = Instant::now();
    let mut last = start;
    let mut t = Totals {
        positions: mine.len(),
        resumed: done,
        labelled: 0,
    };
    for &i in &mine[done..] {
        let e = &panel[i];
        let board = e.board()?;
        let j = match engines.iter().position(|(r, _)| *r == e.rules) {
            Some(j) => j,
            None => {
                let mut en = player(e.rules, cfg.eval);
                en.set_net(cfg.net.as_ref().map(|(q, _)| q.clone()));
                engines.push((e.rules, en));
                engines.len() - 1
            }
        };
        let c = fresh_search(&mut engines[j].1, &board, cfg.nodes, &stop)
            .with_context(|| format!("position {i}"))?
            .ok_or_else(|| anyhow!("position {i}: no legal move"))?;
        let (x, y) = board.xy(c.mv);
        file.write_all(format!("{i}\t{}\t{x},{y}\n", c.score).as_bytes())
            .with_context(|| format!("cannot write {}", out.display()))?;
        file.flush()?;
        t.labelled += 1;
        if let Some(every) = progress {
            if last.elapsed() >= every || t.resumed + t.labelled == t.positions {
                last = Instant::now();
                let secs = start.elapsed().as_secs_f64().max(1e-3);
                let rate = t.labelled as f64 / secs * 60.0;
                eprintln!(
                    "label: {}/{} positions ({} resumed), {rate:.1} positions/min, {secs:.0} s, ETA {:.0} min",
                    t.resumed + t.labelled,
                    t.positions,
                    t.resumed,
                    (t.positions - t.resumed - t.labelled) as f64 / rate.max(1e-9)
                );
            }
        }
    }
    Ok(t)
}

/// `sente-lab evalpanel label …`.
pub fn main_label(args: &[String]) -> anyhow::Result<()> {
    let mut cfg = Config::default();
    let mut panel: Option<String> = None;
    let mut out: Option<String> = None;
    let mut quiet = false;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut val = || value(&mut it, a);
        let r: Result<(), String> = match a.as_str() {
            "--panel" => val().map(|v| panel = Some(v)),
            "--out" => val().map(|v| out = Some(v)),
            "--nodes" => val().and_then(|v| num(a, &v)).map(|n| cfg.nodes = n),
            "--shard" => val().and_then(|v| parse_shard(&v)).map(|s| cfg.shard = s),
            "--eval" => crate::cli::eval_kind(val().ok().as_deref()).map(|k| cfg.eval = k),
            "--net" => val().and_then(|v| crate::cli::load_net(&v)).map(|n| {
                cfg.net = Some(n);
                cfg.eval = EvalKind::Net;
            }),
            "--quiet" => {
                quiet = true;
                Ok(())
            }
            f => Err(format!("unknown argument {f:?}\n{}", super::USAGE)),
        };
        r.map_err(|e| anyhow!(e))?;
    }
    let panel = panel.ok_or_else(|| anyhow!("label: --panel PANEL.txt is needed"))?;
    let out = out.ok_or_else(|| anyhow!("label: --out LABELS.txt is needed"))?;
    let (entries, hash) = read_panel(Path::new(&panel))?;
    let progress = (!quiet).then_some(Duration::from_secs(60));
    let t = run(&cfg, &entries, hash, Path::new(&out), progress)?;
    if !quiet {
        eprintln!(
            "label: done: {} positions in {out} ({} this run, {} resumed)",
            t.positions, t.labelled, t.resumed
        );
    }
    Ok(())
}
