//! `sente-arena oracle`: a stronger brain as the judge of an engine's moves.
//!
//! Positions are sampled from arena records (`games.txt`); on each, the
//! judge (in practice Rapfi-classical at a large node count) gives its move
//! and its value, the engine under test gives its move at a node count, and
//! when the two moves differ the judge values the position after the
//! engine's move. The engine's loss on the position is the judge's win
//! probability for the side to move less the one it gives after the
//! engine's move (`sigmoid(value / scale)`, a win 1, a loss 0); positions
//! the judge already scores as lost are skipped (nothing left to lose).
//! Every brain runs at a node count, so the machine's load changes
//! nothing, and the judge's answers are cached in a file, so a second
//! engine costs its own moves and the judge's look at the moves it alone
//! plays. Two runs over the same positions compare paired (`--compare`).
//! Where the loss is large, `--verify N` values the positions after both
//! moves again at N judge nodes: a judge that misjudges the position
//! itself charges every other move with its own mistake.
//!
//! This measures moves one at a time against the judge's opinion: it does
//! not see which positions an engine steers a game into, so games decide;
//! it is a cheap screen and a map of where the moves are lost (by ply).

use std::collections::HashMap;
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use super::reach::make::fnv;
use super::reach::protocol::{ask_move_with, Brain, Outcome};
use super::reach::suite::{parse_xy_list, xy_list};
use crate::cli::{num, value};
use crate::lab::arena::stats::Z95;

pub const USAGE: &str = "\
usage: sente-arena oracle --judge CMD --engine CMD --records GAMES.txt [--records …]
                          [--rule R] [--size N] [--nodes N] [--judge-nodes N]
                          [--positions N] [--min-ply P] [--max-ply P] [--step S]
                          [--seed S] [--scale K] [--verify N] [--verify-min POINTS]
                          [--cache FILE] [--jobs J] [--out FILE]
                          [--turn MS] [--tolerance MS] [--memory BYTES] [--engine-stderr]
       sente-arena oracle --compare A.tsv B.tsv

  a stronger brain judges an engine's moves: positions sampled from arena records
  (every S-th ply from P on, ordered by a hash with the seed, the first N); the
  judge's move and value (its last MESSAGE ev) on each, the engine's move, and
  when they differ the judge's value after the engine's move; the loss is the
  judge's win probability lost, sigmoid(ev / K), in points (100 = a whole game)
  --judge CMD        the judging brain (it must report `ev` in MESSAGE lines:
                     Sente, or Rapfi with message_mode = \"ucilike\")
  --engine CMD       the engine under test
  --records FILE     arena records (games.txt lines; moves in the 8th field)
  --rule R           INFO rule bits of the records [0]
  --size N           board size [15]
  --nodes N          INFO max_node for the engine [100000]
  --judge-nodes N    INFO max_node for the judge [500000]
  --positions N      positions sampled [500]
  --min-ply P        first ply sampled [8]
  --max-ply P        last ply sampled [none]
  --step S           every S-th ply of a game [3]
  --seed S           the sample's order [1]
  --scale K          the judge's sigmoid scale (Rapfi 200; Sente about 1400) [200]
  --verify N         a second look at N judge nodes where the loss is large: the
                     positions after the engine's and after the judge's move valued
                     afresh, the deeper loss reported beside the first (a judge that
                     misjudges the position blames the engine for it)
  --verify-min L     the losses (points) that get the second look [10]
  --cache FILE       the judge's answers, read and appended (TSV; keyed by rule, size,
                     judge nodes and position: one file per judge)
  --jobs J           positions at a time [1]
  --out FILE         one line per position (TSV), for --compare
  --turn MS          INFO timeout_turn of every query [60000]
  --compare A B      two --out files of one sample: the paired difference B - A
";

/// A value at or past this is a proven result (`+M`/`+W`: a win).
pub const DECIDED: i64 = 1_000_000;

/// An `oracle` run.
#[derive(Clone, Debug)]
pub struct OracleConfig {
    pub judge: Brain,
    pub engine: Brain,
    pub records: Vec<PathBuf>,
    pub rule: u32,
    pub size: usize,
    pub nodes: u64,
    pub judge_nodes: u64,
    pub positions: usize,
    pub min_ply: usize,
    /// Last ply sampled (`usize::MAX`: none).
    pub max_ply: usize,
    pub step: usize,
    pub seed: u64,
    pub scale: f64,
    /// Judge nodes of the second look (`--verify`), if any.
    pub verify_nodes: Option<u64>,
    /// Losses of at least this many points get the second look.
    pub verify_min: f64,
    pub cache: Option<PathBuf>,
    pub jobs: usize,
    pub out: Option<PathBuf>,
    pub turn_ms: u64,
}

/// What `oracle …` asks for.
#[derive(Clone, Debug)]
pub enum Mode {
    Help,
    Run(Box<OracleConfig>),
    Compare(PathBuf, PathBuf),
}

/// Whether `args` ask for `oracle`.
pub fn wants(args: &[String]) -> bool {
    args.first().map(String::as_str) == Some("oracle")
}

/// Parse `oracle …` (the arguments after the program name).
pub fn parse(args: &[String]) -> Result<Mode, String> {
    let mut cfg = OracleConfig {
        judge: Brain::default(),
        engine: Brain::default(),
        records: Vec::new(),
        rule: 0,
        size: 15,
        nodes: 100_000,
        judge_nodes: 500_000,
        positions: 500,
        min_ply: 8,
        max_ply: usize::MAX,
        step: 3,
        seed: 1,
        scale: 200.0,
        verify_nodes: None,
        verify_min: 10.0,
        cache: None,
        jobs: 1,
        out: None,
        turn_ms: 60_000,
    };
    let mut it = args.iter().skip(1);
    while let Some(a) = it.next() {
        if cfg.engine.option(a, || value(&mut it, a))? {
            continue;
        }
        let mut val = || value(&mut it, a);
        match a.as_str() {
            "--help" | "-h" => return Ok(Mode::Help),
            "--compare" => {
                let x = PathBuf::from(val()?);
                let y = PathBuf::from(value(&mut it, a)?);
                return Ok(Mode::Compare(x, y));
            }
            "--judge" => cfg.judge.engine = val()?,
            "--records" => cfg.records.push(PathBuf::from(val()?)),
            "--rule" => cfg.rule = num("--rule", &val()?)?,
            "--size" => cfg.size = num("--size", &val()?)?,
            "--nodes" => cfg.nodes = num("--nodes", &val()?)?,
            "--judge-nodes" => cfg.judge_nodes = num("--judge-nodes", &val()?)?,
            "--positions" => cfg.positions = num("--positions", &val()?)?,
            "--min-ply" => cfg.min_ply = num("--min-ply", &val()?)?,
            "--max-ply" => cfg.max_ply = num("--max-ply", &val()?)?,
            "--verify" => cfg.verify_nodes = Some(num("--verify", &val()?)?),
            "--verify-min" => cfg.verify_min = num("--verify-min", &val()?)?,
            "--step" => cfg.step = num("--step", &val()?)?,
            "--seed" => cfg.seed = num("--seed", &val()?)?,
            "--scale" => cfg.scale = num("--scale", &val()?)?,
            "--cache" => cfg.cache = Some(PathBuf::from(val()?)),
            "--jobs" => cfg.jobs = num("--jobs", &val()?)?,
            "--out" => cfg.out = Some(PathBuf::from(val()?)),
            "--turn" => cfg.turn_ms = num("--turn", &val()?)?,
            _ => return Err(format!("oracle: unknown argument {a:?}")),
        }
    }
    cfg.engine.check("oracle")?;
    if cfg.judge.engine.trim().is_empty() {
        return Err("oracle: --judge CMD is required".into());
    }
    if cfg.records.is_empty() {
        return Err("oracle: --records FILE is required".into());
    }
    if cfg.step == 0
        || cfg.jobs == 0
        || cfg.nodes == 0
        || cfg.judge_nodes == 0
        || cfg.verify_nodes == Some(0)
    {
        return Err(
            "oracle: --step, --jobs, --nodes, --judge-nodes and --verify must be positive".into(),
        );
    }
    if cfg.max_ply < cfg.min_ply {
        return Err("oracle: --max-ply is below --min-ply".into());
    }
    if cfg.verify_min.is_nan() {
        return Err("oracle: --verify-min must be a number".into());
    }
    if cfg.scale.is_nan() || cfg.scale <= 0.0 {
        return Err("oracle: --scale must be positive".into());
    }
    cfg.judge.tolerance_ms = cfg.engine.tolerance_ms;
    cfg.judge.memory = cfg.engine.memory;
    cfg.judge.stderr = cfg.engine.stderr;
    Ok(Mode::Run(Box::new(cfg)))
}

/// The value of the last `ev` a brain's MESSAGE lines report: an integer,
/// or `DECIDED` for a proven win (`+M…`, Rapfi; `+W…`, Sente) and
/// `-DECIDED` for a proven loss (`-M…`, `-L…`). None when no line has one.
pub fn last_ev(messages: &[String]) -> Option<i64> {
    let mut ev = None;
    for m in messages {
        let t: Vec<&str> = m.split_whitespace().collect();
        if let Some(i) = t.iter().position(|w| *w == "ev") {
            if let Some(v) = t.get(i + 1).and_then(|v| ev_value(v)) {
                ev = Some(v);
            }
        }
    }
    ev
}

fn ev_value(v: &str) -> Option<i64> {
    if let Ok(n) = v.parse::<i64>() {
        return Some(n.clamp(-DECIDED + 1, DECIDED - 1));
    }
    let mut c = v.chars();
    let sign = c.next()?;
    let kind = c.next()?;
    if !kind.is_ascii_alphabetic() {
        return None;
    }
    match sign {
        '+' => Some(DECIDED),
        '-' => Some(-DECIDED),
        _ => None,
    }
}

/// The side to move's win probability for a judge's value.
pub fn win_prob(v: i64, scale: f64) -> f64 {
    if v >= DECIDED {
        1.0
    } else if v <= -DECIDED {
        0.0
    } else {
        1.0 / (1.0 + (-(v as f64) / scale).exp())
    }
}

/// The positions of a sample: every `step`-th ply within `plies` of
/// every game (never the last two plies), each once, in the
/// order of a hash of the seed and the moves; the first `n`.
pub fn sample(
    records: &str,
    plies: std::ops::RangeInclusive<usize>,
    step: usize,
    seed: u64,
    n: usize,
) -> Vec<Vec<(i64, i64)>> {
    let mut seen = std::collections::HashSet::new();
    let mut all: Vec<(u64, Vec<(i64, i64)>)> = Vec::new();
    for line in records.lines() {
        let f: Vec<&str> = line.split('\t').collect();
        let Some(Ok(moves)) = f.get(7).map(|m| parse_xy_list(m)) else {
            continue;
        };
        let mut k = *plies.start();
        while k + 2 <= moves.len() && k <= *plies.end() {
            let p = moves[..k].to_vec();
            let s = xy_list(&p);
            if seen.insert(s.clone()) {
                all.push((fnv(&format!("{seed} {s}")), p));
            }
            k += step.max(1);
        }
    }
    all.sort_by_key(|a| a.0);
    all.into_iter().take(n).map(|(_, p)| p).collect()
}

/// The judge's answer on one position.
#[derive(Clone, Debug, PartialEq)]
struct Judged {
    mv: (i64, i64),
    ev: i64,
}

/// The judge's answers, kept in memory and appended to the cache file
/// (keyed by rule, size, the judge's nodes and the position, not by the
/// judge's command: a cache file belongs to one judge).
struct Judge<'a> {
    cfg: &'a OracleConfig,
    known: Mutex<HashMap<String, Judged>>,
    file: Option<Mutex<std::fs::File>>,
}

impl<'a> Judge<'a> {
    fn new(cfg: &'a OracleConfig) -> Result<Self, String> {
        let mut known = HashMap::new();
        let mut file = None;
        if let Some(path) = &cfg.cache {
            if let Ok(text) = std::fs::read_to_string(path) {
                for l in text.lines() {
                    let f: Vec<&str> = l.split('\t').collect();
                    if let [key, mv, ev] = f[..] {
                        let mv = parse_xy_list(mv).ok().and_then(|v| v.first().copied());
                        if let (Some(mv), Ok(ev)) = (mv, ev.parse()) {
                            known.insert(key.to_string(), Judged { mv, ev });
                        }
                    }
                }
            }
            let f = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .map_err(|e| format!("oracle: cannot open {}: {e}", path.display()))?;
            file = Some(Mutex::new(f));
        }
        Ok(Judge {
            cfg,
            known: Mutex::new(known),
            file,
        })
    }

    fn key(&self, moves: &[(i64, i64)], nodes: u64) -> String {
        let c = self.cfg;
        format!("{}|{}|{}|{}", c.rule, c.size, nodes, xy_list(moves))
    }

    /// The judge's move and value on `moves` at `nodes` (cached).
    fn judge(&self, moves: &[(i64, i64)], nodes: u64) -> Result<Judged, String> {
        let key = self.key(moves, nodes);
        if let Some(j) = self.known.lock().expect("no poisoning").get(&key) {
            return Ok(j.clone());
        }
        let (mv, messages) = ask(&self.cfg.judge, self.cfg, nodes, moves)?;
        let ev = last_ev(&messages).ok_or("the judge reported no ev")?;
        let j = Judged { mv, ev };
        if let Some(f) = &self.file {
            let mut f = f.lock().expect("no poisoning");
            let _ = writeln!(f, "{key}\t{},{}\t{ev}", mv.0, mv.1);
        }
        self.known
            .lock()
            .expect("no poisoning")
            .insert(key, j.clone());
        Ok(j)
    }
}

/// One move of `brain` at `nodes` on `moves`, with its MESSAGE lines.
fn ask(
    brain: &Brain,
    cfg: &OracleConfig,
    nodes: u64,
    moves: &[(i64, i64)],
) -> Result<((i64, i64), Vec<String>), String> {
    let gc = brain.game_config(cfg.size, cfg.rule, cfg.turn_ms);
    let a = ask_move_with(
        &brain.engine,
        &gc,
        moves,
        &[format!("INFO max_node {nodes}")],
    );
    match (a.outcome, a.mv) {
        (Outcome::Moved, Some(mv)) => Ok((mv, a.messages)),
        (o, _) => Err(format!("{o:?}")),
    }
}

/// One scored position.
#[derive(Clone, Debug)]
pub struct Scored {
    pub moves: Vec<(i64, i64)>,
    pub engine: (i64, i64),
    pub judge: (i64, i64),
    pub judge_ev: i64,
    /// The judge's value after the engine's move, from the side to move's
    /// view (its own value when the moves agree).
    pub after_ev: i64,
    pub loss: f64,
    /// The loss on the second look (`--verify`), where it was taken.
    pub deep_loss: Option<f64>,
}

/// Score one position: None when the judge scores it lost.
fn score(
    judge: &Judge,
    cfg: &OracleConfig,
    moves: &[(i64, i64)],
) -> Result<Option<Scored>, String> {
    let j = judge.judge(moves, cfg.judge_nodes)?;
    if j.ev <= -DECIDED {
        return Ok(None);
    }
    let (mv, _) = ask(&cfg.engine, cfg, cfg.nodes, moves)?;
    let after = |m: (i64, i64), nodes: u64| -> Result<i64, String> {
        let mut next = moves.to_vec();
        next.push(m);
        Ok(-judge.judge(&next, nodes)?.ev)
    };
    let after_ev = if mv == j.mv {
        j.ev
    } else {
        after(mv, cfg.judge_nodes)?
    };
    // 0 when the moves agree (after_ev is then the judge's own value).
    let loss = win_prob(j.ev, cfg.scale) - win_prob(after_ev, cfg.scale);
    // The second look values both moves' positions afresh, deeper: the
    // first look's value of the judge's own move comes from the search
    // that chose it, so a judge wrong about the position charges the
    // engine for its own mistake.
    let deep_loss = match cfg.verify_nodes {
        Some(n) if mv != j.mv && 100.0 * loss >= cfg.verify_min => {
            Some(win_prob(after(j.mv, n)?, cfg.scale) - win_prob(after(mv, n)?, cfg.scale))
        }
        _ => None,
    };
    Ok(Some(Scored {
        moves: moves.to_vec(),
        engine: mv,
        judge: j.mv,
        judge_ev: j.ev,
        after_ev,
        loss,
        deep_loss,
    }))
}

/// What a run found.
#[derive(Clone, Debug, Default)]
pub struct Report {
    pub scored: Vec<Scored>,
    /// Positions the judge scored as lost (skipped).
    pub lost: usize,
    /// Positions where a brain gave no move or the judge no value.
    pub failed: usize,
}

/// Run the sample.
pub fn run(cfg: &OracleConfig) -> Result<Report, String> {
    let mut records = String::new();
    for r in &cfg.records {
        records += &std::fs::read_to_string(r)
            .map_err(|e| format!("oracle: cannot read {}: {e}", r.display()))?;
        records.push('\n');
    }
    let positions = sample(
        &records,
        cfg.min_ply..=cfg.max_ply,
        cfg.step,
        cfg.seed,
        cfg.positions,
    );
    if positions.is_empty() {
        return Err("oracle: no positions in the records".into());
    }
    let judge = Judge::new(cfg)?;
    let next = AtomicUsize::new(0);
    let done = Mutex::new(Vec::new());
    std::thread::scope(|sc| {
        for _ in 0..cfg.jobs {
            sc.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(p) = positions.get(i) else {
                    break;
                };
                let r = score(&judge, cfg, p);
                if let Err(e) = &r {
                    log::warn!("oracle: position {} skipped: {e}", xy_list(p));
                }
                done.lock().expect("no poisoning").push((i, r));
            });
        }
    });
    let mut done = done.into_inner().expect("no poisoning");
    done.sort_by_key(|d| d.0);
    let mut rep = Report::default();
    for (_, r) in done {
        match r {
            Ok(Some(s)) => rep.scored.push(s),
            Ok(None) => rep.lost += 1,
            Err(_) => rep.failed += 1,
        }
    }
    if let Some(out) = &cfg.out {
        std::fs::write(out, tsv(&rep.scored))
            .map_err(|e| format!("oracle: cannot write {}: {e}", out.display()))?;
    }
    print!("{}", summary(cfg, &rep));
    Ok(rep)
}

/// Mean and half-width of the 95 % interval, both in points (×100).
fn mean_ci(v: &[f64]) -> (f64, f64) {
    let n = v.len() as f64;
    if v.is_empty() {
        return (0.0, 0.0);
    }
    let mean = v.iter().sum::<f64>() / n;
    if v.len() < 2 {
        return (100.0 * mean, 0.0);
    }
    let var = v.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / (n - 1.0);
    (100.0 * mean, 100.0 * Z95 * (var / n).sqrt())
}

/// The run's summary.
pub fn summary(cfg: &OracleConfig, rep: &Report) -> String {
    let s = &rep.scored;
    let loss: Vec<f64> = s.iter().map(|x| x.loss).collect();
    let (m, ci) = mean_ci(&loss);
    let won = s.iter().filter(|x| x.judge_ev >= DECIDED).count();
    let thrown = s
        .iter()
        .filter(|x| x.judge_ev >= DECIDED && x.after_ev < DECIDED)
        .count();
    let same = s.iter().filter(|x| x.engine == x.judge).count();
    let pct = |k: usize| 100.0 * k as f64 / s.len().max(1) as f64;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "oracle: engine at {} nodes, judge at {} nodes (scale {})",
        cfg.nodes, cfg.judge_nodes, cfg.scale
    );
    let _ = writeln!(
        out,
        "positions {} scored ({} won for the side to move), {} lost skipped, {} failed",
        s.len(),
        won,
        rep.lost,
        rep.failed
    );
    let _ = writeln!(
        out,
        "mean loss {m:.2} ± {ci:.2} points a move; the judge's move {:.1} %; \
         losses over 10 points {}, over 25 {}; wins not kept {thrown}",
        pct(same),
        loss.iter().filter(|&&l| l > 0.10).count(),
        loss.iter().filter(|&&l| l > 0.25).count(),
    );
    let _ = writeln!(out, "by ply: {}", by_ply(s, |x| x.loss));
    if let Some(n) = cfg.verify_nodes {
        let looked: Vec<&Scored> = s.iter().filter(|x| x.deep_loss.is_some()).collect();
        let first: Vec<f64> = looked.iter().map(|x| x.loss).collect();
        let deep: Vec<f64> = looked.iter().filter_map(|x| x.deep_loss).collect();
        let all: Vec<f64> = s.iter().map(|x| x.deep_loss.unwrap_or(x.loss)).collect();
        let (m, ci) = mean_ci(&all);
        let _ = writeln!(
            out,
            "second look at {n} nodes: {} positions losing {} points or more: {:.2} points a \
             move at first, {:.2} on the second look; all positions so: mean loss {m:.2} ± {ci:.2}",
            looked.len(),
            cfg.verify_min,
            mean_ci(&first).0,
            mean_ci(&deep).0,
        );
        let _ = writeln!(
            out,
            "by ply, second look: {}",
            by_ply(s, |x| x.deep_loss.unwrap_or(x.loss))
        );
    }
    out
}

/// Mean losses by ply: plies 0–9 in twos (the moves right after the
/// opening are where most is lost), then tens, then 40 and over.
fn by_ply(s: &[Scored], loss: impl Fn(&Scored) -> f64) -> String {
    let mut by: Vec<(usize, Vec<f64>)> = Vec::new();
    for x in s {
        let ply = x.moves.len();
        let b = if ply < 10 {
            ply / 2 * 2
        } else {
            (ply / 10).min(4) * 10
        };
        match by.iter_mut().find(|(k, _)| *k == b) {
            Some((_, v)) => v.push(loss(x)),
            None => by.push((b, vec![loss(x)])),
        }
    }
    by.sort_by_key(|(k, _)| *k);
    let parts: Vec<String> = by
        .iter()
        .map(|(k, v)| {
            let (m, _) = mean_ci(v);
            let label = match *k {
                k if k >= 40 => "40+".to_string(),
                k if k < 10 => format!("{k}-{}", k + 1),
                k => format!("{k}-{}", k + 9),
            };
            format!("{label}: {} at {m:.2}", v.len())
        })
        .collect();
    parts.join("; ")
}

/// One line per scored position.
pub fn tsv(s: &[Scored]) -> String {
    let mut out = String::from("moves\tply\tengine\tjudge\tjudge_ev\tafter_ev\tloss\tdeep_loss\n");
    for x in s {
        let deep = x.deep_loss.map_or(String::new(), |d| format!("{d:.6}"));
        let _ = writeln!(
            out,
            "{}\t{}\t{},{}\t{},{}\t{}\t{}\t{:.6}\t{deep}",
            xy_list(&x.moves),
            x.moves.len(),
            x.engine.0,
            x.engine.1,
            x.judge.0,
            x.judge.1,
            x.judge_ev,
            x.after_ev,
            x.loss
        );
    }
    out
}

/// `--compare A B`: the paired difference B − A over the positions both
/// scored, in points a move, and how many moves differ.
pub fn compare(a: &str, b: &str) -> Result<String, String> {
    let read = |t: &str| -> HashMap<String, (String, f64)> {
        t.lines()
            .skip(1)
            .filter_map(|l| {
                let f: Vec<&str> = l.split('\t').collect();
                Some((
                    f.first()?.to_string(),
                    (f.get(2)?.to_string(), f.get(6)?.parse().ok()?),
                ))
            })
            .collect()
    };
    let (ra, rb) = (read(a), read(b));
    let mut d = Vec::new();
    let mut differ = 0;
    for (k, (ma, la)) in &ra {
        if let Some((mb, lb)) = rb.get(k) {
            d.push(lb - la);
            differ += usize::from(ma != mb);
        }
    }
    if d.is_empty() {
        return Err("oracle: the two files share no position".into());
    }
    let (m, ci) = mean_ci(&d);
    Ok(format!(
        "B - A: {} positions ({differ} with different moves), loss {m:+.2} ± {ci:.2} points a move\n",
        d.len()
    ))
}

/// `--compare A B` on two files.
pub fn compare_files(a: &Path, b: &Path) -> Result<String, String> {
    let read =
        |p: &Path| std::fs::read_to_string(p).map_err(|e| format!("oracle: {}: {e}", p.display()));
    compare(&read(a)?, &read(b)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    fn msgs(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn the_last_ev_is_read_in_both_formats() {
        let rapfi = msgs(&[
            "MESSAGE depth 7-6 ev 689 n 971 n/ms 971 tm 1 pv D7",
            "MESSAGE depth 8-11 ev -42 n 987 n/ms 987 tm 1 pv G9",
        ]);
        assert_eq!(last_ev(&rapfi), Some(-42));
        let sente = msgs(&["depth 1 ev -548 nodes 35 nps 397 time 88 pv 7,9"]);
        assert_eq!(last_ev(&sente), Some(-548));
        assert_eq!(
            last_ev(&msgs(&["MESSAGE depth 34-9 ev +M13 n 876K"])),
            Some(DECIDED)
        );
        assert_eq!(last_ev(&msgs(&["depth 9 ev +W7 nodes 1"])), Some(DECIDED));
        assert_eq!(last_ev(&msgs(&["depth 9 ev -L4 nodes 1"])), Some(-DECIDED));
        // A later line without a value keeps the earlier one; none at all is None.
        let mixed = msgs(&[
            "depth 3 ev 12 nodes 5",
            "MESSAGE hello",
            "depth 4 ev ?? nodes 9",
        ]);
        assert_eq!(last_ev(&mixed), Some(12));
        assert_eq!(last_ev(&msgs(&["MESSAGE nothing here"])), None);
    }

    #[test]
    fn win_probability_is_the_sigmoid_with_proven_ends() {
        assert_eq!(win_prob(DECIDED, 200.0), 1.0);
        assert_eq!(win_prob(-DECIDED, 200.0), 0.0);
        assert!((win_prob(0, 200.0) - 0.5).abs() < 1e-12);
        let p = win_prob(200, 200.0);
        assert!((p - 1.0 / (1.0 + (-1.0f64).exp())).abs() < 1e-12);
        assert!((win_prob(-200, 200.0) - (1.0 - p)).abs() < 1e-12);
    }

    #[test]
    fn the_sample_takes_every_step_once_and_depends_on_the_seed() {
        let moves: Vec<String> = (0..20).map(|i| format!("{},{}", i % 15, i / 15)).collect();
        let line = format!("1\ta\tb\t1-0\tfive\t4\tx\t{}", moves.join(" "));
        let rec = format!("{line}\n{line}\nnot a record\n");
        // The sampled positions' plies, in the sample's order.
        let plies = |range, step, seed| -> Vec<usize> {
            sample(&rec, range, step, seed, 100)
                .iter()
                .map(|p| p.len())
                .collect()
        };
        // plies 8, 11, 14, 17 (18 = 20 - 2 is the last allowed); the copy adds none
        let mut all = plies(8..=usize::MAX, 3, 1);
        all.sort();
        assert_eq!(all, vec![8, 11, 14, 17]);
        assert_eq!(sample(&rec, 8..=usize::MAX, 3, 1, 2).len(), 2);
        let (a, b) = (plies(8..=usize::MAX, 1, 1), plies(8..=usize::MAX, 1, 2));
        assert_eq!(a.len(), b.len());
        assert_ne!(a, b, "the seed orders the sample");
        // --max-ply stops the walk: plies 8 and 11 of each game
        let mut capped = plies(8..=13, 3, 1);
        capped.sort();
        assert_eq!(capped, vec![8, 11]);
    }

    fn scored(ply: usize, loss: f64, deep: Option<f64>) -> Scored {
        Scored {
            moves: (0..ply as i64).map(|i| (i % 15, i / 15)).collect(),
            engine: (1, 1),
            judge: (2, 2),
            judge_ev: 0,
            after_ev: -100,
            loss,
            deep_loss: deep,
        }
    }

    /// The second look's figures come from the positions it looked at, the
    /// others keep their first loss, and the plies below ten go in twos.
    #[test]
    fn the_summary_reports_the_second_look_beside_the_first() {
        let Mode::Run(mut cfg) = parse(&args(
            "oracle --judge j --engine e --records r --verify 900 --verify-min 20",
        ))
        .unwrap() else {
            panic!("a run")
        };
        assert_eq!((cfg.verify_nodes, cfg.verify_min), (Some(900), 20.0));
        let rep = Report {
            scored: vec![
                scored(4, 0.50, Some(0.10)),
                scored(5, 0.30, Some(0.50)),
                scored(8, 0.05, None),
                scored(25, 0.01, None),
            ],
            ..Report::default()
        };
        let t = summary(&cfg, &rep);
        assert!(t.contains("mean loss 21.50"), "{t}");
        assert!(
            t.contains("by ply: 4-5: 2 at 40.00; 8-9: 1 at 5.00; 20-29: 1 at 1.00"),
            "{t}"
        );
        assert!(
            t.contains("2 positions losing 20 points or more: 40.00 points a move at first, 30.00 on the second look"),
            "{t}"
        );
        assert!(t.contains("all positions so: mean loss 16.50"), "{t}");
        assert!(t.contains("by ply, second look: 4-5: 2 at 30.00;"), "{t}");
        let rows = tsv(&rep.scored);
        assert!(rows.lines().next().unwrap().ends_with("\tloss\tdeep_loss"));
        assert!(
            rows.lines()
                .nth(1)
                .unwrap()
                .ends_with("\t0.500000\t0.100000"),
            "{rows}"
        );
        assert!(
            rows.lines().nth(3).unwrap().ends_with("\t0.050000\t"),
            "{rows}"
        );
        // Without --verify no second-look line.
        cfg.verify_nodes = None;
        assert!(!summary(&cfg, &rep).contains("second look"));
    }

    #[test]
    fn compare_pairs_by_position() {
        let a = "moves\tply\tengine\tjudge\tjudge_ev\tafter_ev\tloss\n\
                 1,1 2,2\t2\t3,3\t3,3\t10\t10\t0.0\n\
                 1,1 2,3\t2\t4,4\t3,3\t10\t-50\t0.1\n";
        let b = "moves\tply\tengine\tjudge\tjudge_ev\tafter_ev\tloss\n\
                 1,1 2,3\t2\t3,3\t3,3\t10\t10\t0.0\n\
                 1,1 2,2\t2\t5,5\t3,3\t10\t-90\t0.3\n\
                 9,9 2,2\t2\t5,5\t3,3\t10\t-90\t0.9\n";
        let t = compare(a, b).unwrap();
        assert!(t.contains("2 positions (2 with different moves)"), "{t}");
        assert!(t.contains("loss +10.00"), "{t}");
        assert!(compare(a, "moves\n").is_err());
    }

    #[test]
    fn parse_needs_both_brains_and_records() {
        assert!(parse(&args("oracle --engine e --records r")).is_err());
        assert!(parse(&args("oracle --judge j --records r")).is_err());
        assert!(parse(&args("oracle --judge j --engine e")).is_err());
        assert!(parse(&args("oracle --judge j --engine e --records r --step 0")).is_err());
        assert!(parse(&args("oracle --judge j --engine e --records r --verify 0")).is_err());
        assert!(parse(&args("oracle --judge j --engine e --records r --max-ply 7")).is_err());
        assert!(parse(&args(
            "oracle --judge j --engine e --records r --min-ply 3 --max-ply 7"
        ))
        .is_ok());
        match parse(&args(
            "oracle --judge j --engine e --records r --nodes 7 --jobs 2",
        ))
        .unwrap()
        {
            Mode::Run(c) => assert_eq!((c.nodes, c.jobs, c.judge.engine.as_str()), (7, 2, "j")),
            m => panic!("{m:?}"),
        }
        assert!(matches!(
            parse(&args("oracle --compare a b")).unwrap(),
            Mode::Compare(_, _)
        ));
    }
}
