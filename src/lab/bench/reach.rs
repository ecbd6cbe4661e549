//! `pbrain-sente bench reach`: how far the search reaches. Positions where
//! the side to move has a forced win (threat-space, proven by the VCT solver
//! with a large budget) that the engine does not play within 500 ms, and as
//! many quiet positions (no VCF/VCT for the side to move, no VCF for the
//! opponent), taken from self-play records (`scripts/reach.sh make`). The
//! answer set of a tactical position is every first move proven to win
//! (`answer_set`): those the solver starts a VCT with, and quiet ones after
//! which every reply, full width, leaves the solver a VCT. Each is searched through the `Engine` facade, one thread, a
//! fresh table, at a fixed time or a fixed node count; a tactical position
//! is solved when the move played is in its answer set, and its
//! time-to-solution is the time (and nodes) of the first iteration whose
//! best move is in the answer set and stays there to the end. A quiet
//! position is a false alarm when the search reports a win score.
//!
//! The positions live in `reach.txt` (compiled in), split into a `dev` half
//! for tuning and a `held` half that no tuning looks at; `bench reach-make`
//! rebuilds the file from arena records (the method is documented on
//! `make` and in the file's header).
//!
//! File format: `#` lines are comments; each position is one tab-separated
//! line `name set kind rule size proof moves answers`: `set` is `dev` or
//! `held`, `kind` `win` or `quiet`, `rule` the `INFO rule` bits, `moves`
//! the game's moves `x,y` separated by spaces (Black first), `answers` the
//! answer set (`x,y` separated by spaces; `-` for a quiet position), and
//! `proof` the solver nodes that proved the first answer (0 when quiet).

use std::time::Instant;

use super::BENCH_TT_BYTES;
use crate::brain::engine::{Limits, Report};
use crate::brain::game::{Board, Pos};
use crate::brain::types::{score_text, RuleSet, Score, MATE_BOUND};

/// The positions (see the module documentation for the format).
pub const REACH_TXT: &str = include_str!("reach.txt");

/// Time per position of the default run (ms).
pub const DEFAULT_MS: u64 = 500;
/// Node limit per position of the default run.
pub const DEFAULT_NODES: u64 = 1_000_000;

/// `reach-make`: a VCF within this many nodes makes a position too easy.
pub const EASY_VCF_NODES: u64 = 20_000;
/// `reach-make`: the large VCT budget that proves a position won.
pub const PROVE_VCT_NODES: u64 = 4_000_000;
/// `reach-make`: the budget per candidate first move of the answer set.
pub const ANSWER_NODES: u64 = 2_000_000;
/// `reach-make`: the budget per defender reply when a quiet first move is
/// proven full width (`wins_full_width`).
pub const REPLY_NODES: u64 = 200_000;
/// `reach-make` / `reach-claims`: the budget per reply at the second
/// level of `wins_deeper` (a mover move after which every reply leaves a
/// VCT).
pub const L2_NODES: u64 = 200_000;
/// `reach-make`: the budget of each "no win" check of a quiet position (the
/// check must also finish under it: an exhausted search proves nothing).
pub const QUIET_NODES: u64 = 1_000_000;
/// `reach-make`: tactical positions kept per game at most.
pub const WINS_PER_GAME: usize = 2;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Win,
    Quiet,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Set {
    Dev,
    Held,
}

/// Which positions a run uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Which {
    Dev,
    Held,
    All,
}

impl Which {
    /// Parse `dev`, `held` or `all`.
    pub fn parse(s: &str) -> Option<Which> {
        match s {
            "dev" => Some(Which::Dev),
            "held" => Some(Which::Held),
            "all" => Some(Which::All),
            _ => None,
        }
    }

    /// Whether a run of `self` takes a position of set `s`.
    pub fn takes(self, s: Set) -> bool {
        matches!(
            (self, s),
            (Which::All, _) | (Which::Dev, Set::Dev) | (Which::Held, Set::Held)
        )
    }
}

/// One position of the benchmark.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReachPos {
    pub name: String,
    pub set: Set,
    pub kind: Kind,
    pub rule: u32,
    pub size: usize,
    /// Solver nodes that proved the first answer (0 when quiet).
    pub proof: u64,
    pub moves: Vec<(i64, i64)>,
    pub answers: Vec<(i64, i64)>,
}

pub(super) fn xy_list(v: &[(i64, i64)]) -> String {
    let s: Vec<String> = v.iter().map(|(x, y)| format!("{x},{y}")).collect();
    s.join(" ")
}

pub(super) fn parse_xy_list(s: &str) -> Result<Vec<(i64, i64)>, String> {
    if s == "-" {
        return Ok(Vec::new());
    }
    crate::cli::parse_points(s)
}

impl ReachPos {
    /// The position's board (side to move: whoever's turn the moves leave).
    pub fn board(&self) -> Result<Board, String> {
        let mut b = Board::square(self.size, RuleSet::from_bits(self.rule))
            .map_err(|e| format!("{}: {e:?}", self.name))?;
        for &(x, y) in &self.moves {
            let p = b
                .pos(x, y)
                .ok_or_else(|| format!("{}: {x},{y} off the board", self.name))?;
            if !b.is_empty(p) {
                return Err(format!("{}: {x},{y} is taken", self.name));
            }
            b.play(p);
        }
        Ok(b)
    }

    /// The answer set as cells of `b` (this position's board).
    pub fn answer_cells(&self, b: &Board) -> Vec<Pos> {
        self.answers
            .iter()
            .filter_map(|&(x, y)| b.pos(x, y))
            .collect()
    }

    /// The position's line in `reach.txt`.
    pub fn line(&self) -> String {
        format!(
            "{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}",
            self.name,
            match self.set {
                Set::Dev => "dev",
                Set::Held => "held",
            },
            match self.kind {
                Kind::Win => "win",
                Kind::Quiet => "quiet",
            },
            self.rule,
            self.size,
            self.proof,
            xy_list(&self.moves),
            if self.answers.is_empty() {
                "-".to_string()
            } else {
                xy_list(&self.answers)
            }
        )
    }
}

/// Parse a `reach.txt`.
pub fn parse(text: &str) -> Result<Vec<ReachPos>, String> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim_end();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let f: Vec<&str> = line.split('\t').collect();
        let err = |what: &str| format!("reach line {}: {what}", i + 1);
        if f.len() != 8 {
            return Err(err("expected 8 tab-separated fields"));
        }
        let set = match f[1] {
            "dev" => Set::Dev,
            "held" => Set::Held,
            _ => return Err(err("set is dev or held")),
        };
        let kind = match f[2] {
            "win" => Kind::Win,
            "quiet" => Kind::Quiet,
            _ => return Err(err("kind is win or quiet")),
        };
        out.push(ReachPos {
            name: f[0].to_string(),
            set,
            kind,
            rule: f[3].parse().map_err(|_| err("bad rule"))?,
            size: f[4].parse().map_err(|_| err("bad size"))?,
            proof: f[5].parse().map_err(|_| err("bad proof"))?,
            moves: parse_xy_list(f[6]).map_err(|e| err(&e))?,
            answers: parse_xy_list(f[7]).map_err(|e| err(&e))?,
        });
    }
    Ok(out)
}

/// The compiled-in positions.
pub fn positions() -> Vec<ReachPos> {
    parse(REACH_TXT).expect("src/lab/bench/reach.txt parses")
}

/// What one search is limited by.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    Ms(u64),
    Nodes(u64),
}

impl Limit {
    fn limits(self) -> Limits {
        match self {
            // As `bench time`: a turn limit whose hard limit is about `ms`.
            Limit::Ms(ms) => Limits {
                turn_ms: Some(ms + ms / 9 + 31),
                ..Limits::default()
            },
            Limit::Nodes(n) => Limits {
                max_nodes: Some(n),
                ..Limits::default()
            },
        }
    }

    fn text(self) -> String {
        match self {
            Limit::Ms(ms) => format!("{ms} ms"),
            Limit::Nodes(n) => format!("{n} nodes"),
        }
    }
}

/// The result of one position.
#[derive(Clone, Debug)]
pub struct ReachLine {
    pub name: String,
    pub kind: Kind,
    pub best: (usize, usize),
    pub score: Score,
    pub depth: u32,
    /// The move played is in the answer set (tactical positions).
    pub solved: bool,
    /// Time and nodes to solution; the whole search's when unsolved.
    pub ms: f64,
    pub nodes: u64,
    /// A win score on a quiet position.
    pub false_alarm: bool,
    /// A win score on a tactical position with a move outside its answer
    /// set (a win the solver could not prove from that move, or a wrong
    /// claim).
    pub other_claim: bool,
}

/// One search of a position, before it is judged against an answer set.
pub(super) struct Searched {
    pub(super) board: Board,
    /// (first move, ms, nodes) of each iteration reported.
    pub(super) iters: Vec<(Option<Pos>, f64, u64)>,
    pub(super) best: Pos,
    pub(super) score: Score,
    pub(super) depth: u32,
    pub(super) ms: f64,
    pub(super) nodes: u64,
}

/// Search `p` within `limit` (one thread, a fresh table).
pub(super) fn search(p: &ReachPos, limit: Limit) -> Searched {
    let board = p.board().expect("reach position");
    let mut engine = super::bench_engine(BENCH_TT_BYTES);
    engine.set_threads(1);
    engine.set_rules(RuleSet::from_bits(p.rule));
    engine.prepare(); // the table is built before the clock starts
    let stop = Default::default();
    let mut iters = Vec::new();
    let limits = limit.limits();
    let t0 = Instant::now();
    let r = engine
        .search(&board, &limits, &stop, &mut |rep| {
            if let Report::Iteration(info) = rep {
                iters.push((
                    info.pv.first().copied(),
                    t0.elapsed().as_secs_f64() * 1000.0,
                    info.nodes,
                ));
            }
        })
        .expect("the reach search panicked");
    Searched {
        ms: t0.elapsed().as_secs_f64() * 1000.0,
        board,
        iters,
        best: r.best,
        score: r.score,
        depth: r.depth,
        nodes: r.nodes,
    }
}

impl Searched {
    /// Judged against `answers` (empty: a quiet position).
    pub(super) fn judge(&self, name: &str, kind: Kind, answers: &[Pos]) -> ReachLine {
        let solved = kind == Kind::Win && answers.contains(&self.best);
        let (mut ms, mut nodes) = (self.ms, self.nodes);
        if solved {
            // The first iteration from which every one names an answer move.
            let first = self
                .iters
                .iter()
                .rposition(|(m, _, _)| !m.is_some_and(|m| answers.contains(&m)))
                .map_or(0, |i| i + 1);
            if let Some(&(_, t, n)) = self.iters.get(first) {
                (ms, nodes) = (t, n);
            }
        }
        ReachLine {
            name: name.to_string(),
            kind,
            best: if self.best.is_none() {
                (0, 0)
            } else {
                self.board.xy(self.best)
            },
            score: self.score,
            depth: self.depth,
            solved,
            ms,
            nodes,
            false_alarm: kind == Kind::Quiet && self.score >= MATE_BOUND,
            other_claim: kind == Kind::Win && !solved && self.score >= MATE_BOUND,
        }
    }
}

/// Search one position within `limit` (one thread, a fresh table) and
/// judge it. An unsolved tactical position counts as the limit in the
/// limit's unit (ms or nodes), even when the search stopped sooner (a
/// search that claims a win stops early), and as the whole search in the
/// other unit.
pub fn run_position(p: &ReachPos, limit: Limit) -> ReachLine {
    let s = search(p, limit);
    let answers = p.answer_cells(&s.board);
    let mut l = s.judge(&p.name, p.kind, &answers);
    if l.kind == Kind::Win && !l.solved {
        match limit {
            Limit::Ms(ms) => l.ms = ms as f64,
            Limit::Nodes(n) => l.nodes = n,
        }
    }
    l
}

/// Nearest-rank percentile `q` (0..=1) of `v`.
pub fn percentile<T: Copy + PartialOrd>(v: &[T], q: f64) -> Option<T> {
    if v.is_empty() {
        return None;
    }
    let mut s = v.to_vec();
    s.sort_by(|a, b| a.partial_cmp(b).expect("no NaN"));
    let rank = ((q * s.len() as f64).ceil() as usize).clamp(1, s.len());
    Some(s[rank - 1])
}

/// Summary of a run.
#[derive(Clone, Debug)]
pub struct ReachSummary {
    pub wins: usize,
    pub solved: usize,
    pub median_ms: f64,
    pub p90_ms: f64,
    pub median_nodes: u64,
    pub p90_nodes: u64,
    pub quiet: usize,
    pub false_alarms: usize,
    /// Unsolved tactical positions with a win score (`ReachLine::other_claim`).
    pub other_claims: usize,
    pub secs: f64,
}

pub fn summarize(lines: &[ReachLine], secs: f64) -> ReachSummary {
    let wins: Vec<&ReachLine> = lines.iter().filter(|l| l.kind == Kind::Win).collect();
    let ms: Vec<f64> = wins.iter().map(|l| l.ms).collect();
    let nodes: Vec<u64> = wins.iter().map(|l| l.nodes).collect();
    ReachSummary {
        wins: wins.len(),
        solved: wins.iter().filter(|l| l.solved).count(),
        median_ms: percentile(&ms, 0.5).unwrap_or(0.0),
        p90_ms: percentile(&ms, 0.9).unwrap_or(0.0),
        median_nodes: percentile(&nodes, 0.5).unwrap_or(0),
        p90_nodes: percentile(&nodes, 0.9).unwrap_or(0),
        quiet: lines.len() - wins.len(),
        false_alarms: lines.iter().filter(|l| l.false_alarm).count(),
        other_claims: lines.iter().filter(|l| l.other_claim).count(),
        secs,
    }
}

/// Run every position of `which` within `limit`, printing a line each and
/// the summary.
pub fn run(which: Which, limit: Limit) -> ReachSummary {
    let ps: Vec<ReachPos> = positions()
        .into_iter()
        .filter(|p| which.takes(p.set))
        .collect();
    println!(
        "reach: {} positions ({which:?}), {}",
        ps.len(),
        limit.text()
    );
    println!(
        "{:<12} {:<5} {:>8} {:>7} {:>4} {:<8} {:>9} {:>11}",
        "position", "kind", "move", "score", "dep", "result", "ms", "nodes"
    );
    let t0 = Instant::now();
    let mut lines = Vec::new();
    for p in &ps {
        let l = run_position(p, limit);
        let result = match (l.kind, l.solved, l.false_alarm) {
            (Kind::Win, true, _) => "solved",
            (Kind::Win, false, _) if l.other_claim => "claim",
            (Kind::Win, false, _) => "-",
            (Kind::Quiet, _, true) => "ALARM",
            (Kind::Quiet, _, false) => "ok",
        };
        println!(
            "{:<12} {:<5} {:>8} {:>7} {:>4} {:<8} {:>9.0} {:>11}",
            l.name,
            if l.kind == Kind::Win { "win" } else { "quiet" },
            format!("{},{}", l.best.0, l.best.1),
            score_text(l.score),
            l.depth,
            result,
            l.ms,
            l.nodes
        );
        lines.push(l);
    }
    let s = summarize(&lines, t0.elapsed().as_secs_f64());
    println!(
        "Solved          : {}/{} at {} ({:?})",
        s.solved,
        s.wins,
        limit.text(),
        which
    );
    println!(
        "Time to solution: median {:.0} ms, p90 {:.0} ms (unsolved count as the limit)",
        s.median_ms, s.p90_ms
    );
    println!(
        "Nodes to sol.   : median {}, p90 {}",
        s.median_nodes, s.p90_nodes
    );
    println!(
        "Other claims    : {} unsolved with a win score for a move outside the answer set",
        s.other_claims
    );
    println!("False alarms    : {}/{} quiet", s.false_alarms, s.quiet);
    println!("Run time        : {:.1} s", s.secs);
    s
}

/// `bench reach [--ms MS | --nodes N] [--set dev|held|all]` and
/// `bench reach-make …` (`args`: the words after `bench`, the subcommand
/// first).
pub fn main_reach(args: &[String]) -> i32 {
    if args.first().map(String::as_str) == Some("reach-make") {
        return super::reach_make::main_make(&args[1..]);
    }
    if args.first().map(String::as_str) == Some("reach-claims") {
        return super::reach_make::main_claims(&args[1..]);
    }
    let mut limits = Vec::new();
    let mut which = Which::Dev;
    let mut i = 1;
    while i < args.len() {
        let v = args.get(i + 1).map(String::as_str);
        match (args[i].as_str(), v) {
            ("--ms", Some(v)) if v.parse::<u64>().is_ok() => {
                limits.push(Limit::Ms(v.parse().expect("checked")))
            }
            ("--nodes", Some(v)) if v.parse::<u64>().is_ok() => {
                limits.push(Limit::Nodes(v.parse().expect("checked")))
            }
            ("--set", Some("dev")) => which = Which::Dev,
            ("--set", Some("held")) => which = Which::Held,
            ("--set", Some("all")) => which = Which::All,
            _ => {
                eprintln!(
                    "usage: pbrain-sente bench reach [--ms MS | --nodes N] [--set dev|held|all]"
                );
                return 2;
            }
        }
        i += 2;
    }
    if limits.is_empty() {
        limits = vec![Limit::Ms(DEFAULT_MS), Limit::Nodes(DEFAULT_NODES)];
    }
    for (j, &l) in limits.iter().enumerate() {
        if j > 0 {
            println!();
        }
        run(which, l);
    }
    0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::brain::game::rules;
    use crate::brain::search::params::MAX_THREATS;
    use crate::brain::search::threat::ThreatSolver;
    use crate::brain::types::Color;
    use crate::brain::types::Rule;
    use std::sync::atomic::AtomicBool;

    #[test]
    fn reach_file_parses_and_is_legal() {
        let ps = positions();
        assert!(!ps.is_empty());
        let mut names = std::collections::HashSet::new();
        for p in &ps {
            assert!(names.insert(p.name.clone()), "duplicate {}", p.name);
            assert_eq!(parse(&p.line()).unwrap(), vec![p.clone()]);
            let b = p.board().unwrap();
            assert!(!b.is_full(), "{}", p.name);
            for m in b.history() {
                assert!(rules::winner_at(&b, m.pos).is_none(), "{} is over", p.name);
            }
            let cells = p.answer_cells(&b);
            assert_eq!(
                cells.len(),
                p.answers.len(),
                "{}: answer off the board",
                p.name
            );
            for &m in &cells {
                assert!(b.is_empty(m), "{}: answer on a stone", p.name);
                let renju = b.rules().rule == Rule::Renju;
                assert!(
                    !(renju && b.to_move() == Color::Black && rules::is_forbidden(&b, m)),
                    "{}: forbidden answer",
                    p.name
                );
            }
            match p.kind {
                Kind::Win => assert!(!p.answers.is_empty() && p.proof > 0, "{}", p.name),
                Kind::Quiet => assert!(p.answers.is_empty(), "{}", p.name),
            }
        }
        // Both halves hold both kinds, and the kinds are balanced.
        for set in [Set::Dev, Set::Held] {
            for kind in [Kind::Win, Kind::Quiet] {
                assert!(ps.iter().any(|p| p.set == set && p.kind == kind));
            }
        }
        let wins = ps.iter().filter(|p| p.kind == Kind::Win).count();
        assert_eq!(wins * 2, ps.len());
    }

    /// The two cheapest tactical proofs, redone: the solver, asked for a
    /// VCT starting with the first answer move, finds one within the nodes
    /// the file records (the solver is deterministic with a fresh table).
    #[test]
    fn reach_answers_win_for_the_solver() {
        let mut ps: Vec<ReachPos> = positions()
            .into_iter()
            .filter(|p| p.kind == Kind::Win)
            .collect();
        ps.sort_by_key(|p| p.proof);
        let stop = AtomicBool::new(false);
        for p in ps.iter().take(2) {
            let mut b = p.board().unwrap();
            let m = p.answer_cells(&b)[0];
            let a = b.to_move();
            let line = ThreatSolver::new().vct_starting_with(
                &mut b,
                a,
                m,
                MAX_THREATS,
                p.proof + 1,
                &stop,
            );
            let line = line.unwrap_or_else(|| panic!("{}: no win after the answer", p.name));
            assert_eq!(line[0], m);
            // The line is a real sequence: every move on an empty cell.
            for &q in &line {
                assert!(b.is_empty(q));
                b.play(q);
            }
        }
    }

    #[test]
    fn percentiles_are_nearest_rank() {
        let v = [5.0, 1.0, 3.0, 2.0, 4.0];
        assert_eq!(percentile(&v, 0.5), Some(3.0));
        assert_eq!(percentile(&v, 0.9), Some(5.0));
        assert_eq!(percentile::<f64>(&[], 0.5), None);
    }
}
