//! The depth suite's positions and what both of its runs share: the file
//! format (below) and its parser, the iterations one search reports
//! (`Iter`, `push_iter`), the effective branching factor (`ebf`), and the
//! per-position lines, summary and TSV that `bench depth` and
//! `sente-arena depth` print alike.
//!
//! File format: `#` lines are comments; each position is one tab-separated
//! line `name rule size moves`: `rule` the `INFO rule` bits, `moves` the
//! game's moves `x,y` separated by spaces (Black first).

use std::fmt::Write as _;

use crate::brain::game::Board;
use crate::brain::types::RuleSet;
use crate::lab::bench::reach::suite::{board_of, parse_xy_list, percentile, xy_list};

/// The positions (see the module documentation for the format).
pub const POSITIONS_TXT: &str = include_str!("positions.txt");

/// Time limits of a default run (ms).
pub const DEFAULT_MS: [u64; 2] = [500, 2000];

/// The EBF is measured over at most this many plies, the last ones.
pub const EBF_PLIES: u32 = 4;

/// One position of the suite.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DepthPos {
    pub name: String,
    pub rule: u32,
    pub size: usize,
    pub moves: Vec<(i64, i64)>,
}

impl DepthPos {
    /// The position's board (side to move: whoever's turn the moves leave).
    pub fn board(&self) -> Result<Board, String> {
        board_of(&self.name, self.size, self.rule, &self.moves)
    }

    /// The position's line in `positions.txt`.
    pub fn line(&self) -> String {
        format!(
            "{}\t{}\t{}\t{}",
            self.name,
            self.rule,
            self.size,
            xy_list(&self.moves)
        )
    }
}

/// Parse a `positions.txt`.
pub fn parse(text: &str) -> Result<Vec<DepthPos>, String> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim_end();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let err = |what: &str| format!("depth line {}: {what}", i + 1);
        let f: Vec<&str> = line.split('\t').collect();
        if f.len() != 4 {
            return Err(err("expected 4 tab-separated fields"));
        }
        out.push(DepthPos {
            name: f[0].to_string(),
            rule: f[1].parse().map_err(|_| err("bad rule"))?,
            size: f[2].parse().map_err(|_| err("bad size"))?,
            moves: parse_xy_list(f[3]).map_err(|e| err(&e))?,
        });
    }
    Ok(out)
}

/// The compiled-in positions.
pub fn positions() -> Vec<DepthPos> {
    parse(POSITIONS_TXT).expect("src/lab/bench/depth/positions.txt parses")
}

/// The first `n` positions of each rule (all with None), in file order.
pub fn first_per_rule(ps: Vec<DepthPos>, n: Option<usize>) -> Vec<DepthPos> {
    let Some(n) = n else {
        return ps;
    };
    let mut taken: std::collections::BTreeMap<u32, usize> = Default::default();
    ps.into_iter()
        .filter(|p| {
            let count = taken.entry(p.rule).or_default();
            *count += 1;
            *count <= n
        })
        .collect()
}

/// The rule's name in reports (`Rule::name` of the `INFO rule` bits).
pub fn rule_name(rule: u32) -> &'static str {
    RuleSet::from_bits(rule).rule.name()
}

/// One completed iteration: its depth, the nodes searched since the search
/// began (cumulative, as both Sente and Rapfi report them), and the ms
/// since the search began.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Iter {
    pub depth: u32,
    pub nodes: u64,
    pub ms: f64,
}

/// Record `it` unless it repeats or goes back on the depth of the last one
/// (Sente reports its final choice again at the last depth, with the nodes
/// of the unfinished iteration added: the first report of a depth is the
/// one at its completion).
pub fn push_iter(iters: &mut Vec<Iter>, it: Iter) {
    if iters.last().is_none_or(|l| it.depth > l.depth) {
        iters.push(it);
    }
}

/// The effective branching factor of one search: with the last completed
/// iteration at depth `d` after `N(d)` nodes, and the earliest reported one
/// at depth `d0 >= d - EBF_PLIES` (`d0 < d`, `N(d0) > 0`),
/// `(N(d) / N(d0)) ^ (1 / (d - d0))`: the geometric mean of the growth of
/// the cumulative node count per added ply over the last `EBF_PLIES` plies
/// (fewer when fewer were reported). None with fewer than two iterations.
pub fn ebf(iters: &[Iter]) -> Option<f64> {
    let last = iters.last()?;
    let first = iters
        .iter()
        .find(|i| i.depth < last.depth && i.depth + EBF_PLIES >= last.depth && i.nodes > 0)?;
    let plies = (last.depth - first.depth) as f64;
    Some((last.nodes as f64 / first.nodes as f64).powf(1.0 / plies))
}

/// The result of one position at one limit.
#[derive(Clone, Debug, PartialEq)]
pub struct DepthLine {
    pub name: String,
    pub rule: u32,
    /// The limit searched under: "500 ms", "20000 nodes".
    pub limit: String,
    pub iters: Vec<Iter>,
    /// What went wrong, when something did (a timeout, a crash).
    pub failure: Option<String>,
}

impl DepthLine {
    /// The last completed iteration.
    pub fn last(&self) -> Option<Iter> {
        self.iters.last().copied()
    }
}

/// The medians of one group of positions (a rule, or all).
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    pub label: String,
    pub positions: usize,
    /// Nearest-rank medians over the positions with an iteration: the
    /// depth and nodes of the last completed iteration, and its ms.
    pub depth: u32,
    pub nodes: u64,
    pub ms: f64,
    /// Nearest-rank median of `ebf` over the positions that have one.
    pub ebf: Option<f64>,
    /// Positions with no completed iteration reported.
    pub empty: usize,
}

fn row(label: &str, lines: &[&DepthLine]) -> Row {
    let last: Vec<Iter> = lines.iter().filter_map(|l| l.last()).collect();
    let depths: Vec<u32> = last.iter().map(|i| i.depth).collect();
    let nodes: Vec<u64> = last.iter().map(|i| i.nodes).collect();
    let ms: Vec<f64> = last.iter().map(|i| i.ms).collect();
    let ebfs: Vec<f64> = lines.iter().filter_map(|l| ebf(&l.iters)).collect();
    Row {
        label: label.to_string(),
        positions: lines.len(),
        depth: percentile(&depths, 0.5).unwrap_or(0),
        nodes: percentile(&nodes, 0.5).unwrap_or(0),
        ms: percentile(&ms, 0.5).unwrap_or(0.0),
        ebf: percentile(&ebfs, 0.5),
        empty: lines.len() - last.len(),
    }
}

/// One row per rule present (in the order of first appearance), then all.
pub fn summarize(lines: &[DepthLine]) -> Vec<Row> {
    let mut rules: Vec<u32> = Vec::new();
    for l in lines {
        if !rules.contains(&l.rule) {
            rules.push(l.rule);
        }
    }
    let mut rows: Vec<Row> = rules
        .iter()
        .map(|&r| {
            let ls: Vec<&DepthLine> = lines.iter().filter(|l| l.rule == r).collect();
            row(rule_name(r), &ls)
        })
        .collect();
    rows.push(row("all", &lines.iter().collect::<Vec<_>>()));
    rows
}

/// The header of the per-position lines.
pub fn header() -> String {
    format!(
        "{:<16} {:<9} {:>8} {:>4} {:>11} {:>7} {:>5}  iterations (depth:nodes)",
        "position", "rule", "limit", "dep", "nodes", "ms", "ebf"
    )
}

/// The per-position line: the last completed iteration, the EBF and the
/// series of iterations.
pub fn line_text(l: &DepthLine) -> String {
    let last = l.last();
    let series: Vec<String> = l
        .iters
        .iter()
        .map(|i| format!("{}:{}", i.depth, i.nodes))
        .collect();
    let mut s = format!(
        "{:<16} {:<9} {:>8} {:>4} {:>11} {:>7.0} {:>5}  {}",
        l.name,
        rule_name(l.rule),
        l.limit,
        last.map_or(0, |i| i.depth),
        last.map_or(0, |i| i.nodes),
        last.map_or(0.0, |i| i.ms),
        ebf(&l.iters).map_or("-".to_string(), |e| format!("{e:.2}")),
        series.join(" ")
    );
    if let Some(f) = &l.failure {
        let _ = write!(s, "  ({f})");
    }
    s
}

/// The summary of one limit's lines.
pub fn summary_text(limit: &str, lines: &[DepthLine]) -> String {
    let mut t = String::new();
    let _ = writeln!(
        t,
        "Summary at {limit} (medians over positions; last completed iteration; EBF over the last {EBF_PLIES} plies)"
    );
    let _ = writeln!(
        t,
        "{:<10} {:>9} {:>6} {:>11} {:>7} {:>6}",
        "rule", "positions", "depth", "nodes", "ms", "EBF"
    );
    for r in summarize(lines) {
        let _ = write!(
            t,
            "{:<10} {:>9} {:>6} {:>11} {:>7.0} {:>6}",
            r.label,
            r.positions,
            r.depth,
            r.nodes,
            r.ms,
            r.ebf.map_or("-".to_string(), |e| format!("{e:.2}"))
        );
        if r.empty > 0 {
            let _ = write!(t, "  ({} without an iteration)", r.empty);
        }
        t.push('\n');
    }
    let failed = lines.iter().filter(|l| l.failure.is_some()).count();
    if failed > 0 {
        let _ = writeln!(t, "Failures        : {failed}");
    }
    t
}

/// Every iteration as TSV: `engine limit position rule depth nodes ms`.
pub fn tsv(engine: &str, lines: &[DepthLine]) -> String {
    let mut t = String::from("engine\tlimit\tposition\trule\tdepth\tnodes\tms\n");
    for l in lines {
        for i in &l.iters {
            let _ = writeln!(
                t,
                "{engine}\t{}\t{}\t{}\t{}\t{}\t{:.1}",
                l.limit,
                l.name,
                rule_name(l.rule),
                i.depth,
                i.nodes,
                i.ms
            );
        }
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::brain::game::rules;

    fn it(depth: u32, nodes: u64) -> Iter {
        Iter {
            depth,
            nodes,
            ms: depth as f64,
        }
    }

    #[test]
    fn positions_parse_and_are_legal_middle_games() {
        let ps = positions();
        assert!(ps.len() >= 42, "{} positions", ps.len());
        let mut names = std::collections::HashSet::new();
        for rule in [0, 1, 4] {
            let n = ps.iter().filter(|p| p.rule == rule).count();
            assert!(n >= 14, "rule {rule}: {n} positions");
        }
        for p in &ps {
            assert!(names.insert(p.name.clone()), "duplicate {}", p.name);
            assert_eq!(parse(&p.line()).unwrap(), vec![p.clone()]);
            let b = p.board().unwrap();
            assert!(
                (16..=40).contains(&b.history().len()),
                "{}: not a middle game",
                p.name
            );
            for m in b.history() {
                assert!(rules::winner_at(&b, m.pos).is_none(), "{} is over", p.name);
            }
        }
        let few = first_per_rule(ps.clone(), Some(2));
        assert_eq!(few.len(), 6);
        assert_eq!(few.iter().filter(|p| p.rule == 4).count(), 2);
        assert_eq!(first_per_rule(ps.clone(), None), ps);
        assert!(parse("a\t0\t15").is_err());
        assert!(parse("a\tx\t15\t7,7").is_err());
        assert!(parse("# only a comment\n").unwrap().is_empty());
    }

    /// A planted series: nodes ×3 per ply from depth 3, so the EBF over the
    /// last 4 plies is 3 whatever came before; one ply gives its ratio.
    #[test]
    fn ebf_is_the_growth_per_ply_over_the_last_plies() {
        let mut v = vec![it(1, 7), it(2, 50)];
        let mut n = 100;
        for d in 3..=9 {
            v.push(it(d, n));
            n *= 3;
        }
        assert!((ebf(&v).unwrap() - 3.0).abs() < 1e-9);
        assert_eq!(ebf(&v[..1]), None);
        assert!((ebf(&[it(4, 10), it(5, 25)]).unwrap() - 2.5).abs() < 1e-9);
        // A skipped depth counts its plies: 10 -> 1000 over 2 plies.
        assert!((ebf(&[it(4, 10), it(6, 1000)]).unwrap() - 10.0).abs() < 1e-9);
    }

    #[test]
    fn repeated_depths_keep_the_first_report() {
        let mut v = Vec::new();
        for i in [it(1, 5), it(2, 9), it(2, 30), it(1, 40), it(3, 50)] {
            push_iter(&mut v, i);
        }
        assert_eq!(v, vec![it(1, 5), it(2, 9), it(3, 50)]);
    }

    #[test]
    fn summary_takes_medians_per_rule_and_overall() {
        let l = |rule, iters: Vec<Iter>| DepthLine {
            name: "p".into(),
            rule,
            limit: "500 ms".into(),
            iters,
            failure: None,
        };
        let lines = [
            l(0, vec![it(3, 10), it(4, 20)]),                // ebf 2
            l(0, vec![it(5, 10), it(6, 40)]),                // ebf 4
            l(0, vec![it(7, 10), it(8, 30)]),                // ebf 3
            l(4, vec![it(2, 10), it(3, 1000), it(4, 9000)]), // ebf 30
            l(4, vec![]),
        ];
        let rows = summarize(&lines);
        assert_eq!(rows.len(), 3);
        assert_eq!(
            (
                rows[0].label.as_str(),
                rows[0].positions,
                rows[0].depth,
                rows[0].nodes
            ),
            ("freestyle", 3, 6, 30)
        );
        assert!((rows[0].ebf.unwrap() - 3.0).abs() < 1e-9);
        assert_eq!((rows[1].label.as_str(), rows[1].empty), ("renju", 1));
        assert!((rows[1].ebf.unwrap() - 30.0).abs() < 1e-9);
        assert_eq!(
            (rows[2].positions, rows[2].depth, rows[2].nodes),
            (5, 4, 30)
        );
        let t = summary_text("500 ms", &lines);
        assert!(
            t.contains("renju") && t.contains("(1 without an iteration)"),
            "{t}"
        );
        assert_eq!(tsv("e", &lines).lines().count(), 1 + 9);
    }
}
