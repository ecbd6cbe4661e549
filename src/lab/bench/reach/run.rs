//! Running the reach suite in process: each position searched through the
//! `Engine` facade (one thread, a fresh table) at a fixed time or node
//! count, judged against its answer set, and the summary printed.

use std::time::Instant;

use super::suite::*;
use crate::brain::engine::Limits;
use crate::brain::game::{Board, Pos};
use crate::brain::types::{score_text, Score, MATE_BOUND};
use crate::lab::bench::setup::fresh_search;

/// What one search is limited by.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    Ms(u64),
    Nodes(u64),
}

impl Limit {
    pub(crate) fn limits(self) -> Limits {
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

    pub(crate) fn text(self) -> String {
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
    let mut iters = Vec::new();
    let (r, ms) = fresh_search(&board, p.rule, || limit.limits(), &mut |info, ms| {
        iters.push((info.pv.first().copied(), ms, info.nodes))
    });
    Searched {
        ms,
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
