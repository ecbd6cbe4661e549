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

use std::fmt::Write as _;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use super::BENCH_TT_BYTES;
use crate::engine::{Engine, Limits, Report};
use crate::game::rules;
use crate::game::{Board, Pos};
use crate::search::params::MAX_THREATS;
use crate::search::threat::ThreatSolver;
use crate::types::{score_text, Color, RuleSet, Score, MATE_BOUND};

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

fn xy_list(v: &[(i64, i64)]) -> String {
    let s: Vec<String> = v.iter().map(|(x, y)| format!("{x},{y}")).collect();
    s.join(" ")
}

fn parse_xy_list(s: &str) -> Result<Vec<(i64, i64)>, String> {
    if s == "-" {
        return Ok(Vec::new());
    }
    s.split_whitespace()
        .map(|t| {
            let (x, y) = t.split_once(',').ok_or_else(|| format!("not x,y: {t}"))?;
            Ok((
                x.parse().map_err(|_| format!("bad x in {t}"))?,
                y.parse().map_err(|_| format!("bad y in {t}"))?,
            ))
        })
        .collect()
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
    parse(REACH_TXT).expect("src/bench/reach.txt parses")
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
struct Searched {
    board: Board,
    /// (first move, ms, nodes) of each iteration reported.
    iters: Vec<(Option<Pos>, f64, u64)>,
    best: Pos,
    score: Score,
    depth: u32,
    ms: f64,
    nodes: u64,
}

/// Search `p` within `limit` (one thread, a fresh table).
fn search(p: &ReachPos, limit: Limit) -> Searched {
    let board = p.board().expect("reach position");
    let mut engine = Engine::with_table_bytes(BENCH_TT_BYTES);
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
    fn judge(&self, name: &str, kind: Kind, answers: &[Pos]) -> ReachLine {
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

/// Every first move proven to win for the side to move, each within the
/// budgets: the moves from which the solver proves a VCT
/// (`ThreatSolver::vct_starting_with`, `budget` nodes each; one table for
/// all, whose entries are "no win here" facts), then every other near cell
/// that `wins_full_width` proves (`reply_budget` nodes per reply). Every
/// near cell is tried, so the set is complete up to the solver's threat
/// model and the budgets.
pub fn answer_set(b: &Board, budget: u64, reply_budget: u64) -> Vec<Pos> {
    let a = b.to_move();
    let stop = AtomicBool::new(false);
    let mut b = b.clone();
    let cells: Vec<Pos> = b.candidates().collect();
    let mut solver = ThreatSolver::new();
    let mut set: Vec<Pos> = cells
        .iter()
        .copied()
        .filter(|&m| {
            solver
                .vct_starting_with(&mut b, a, m, MAX_THREATS, budget, &stop)
                .is_some()
        })
        .collect();
    let threat_set = set.clone();
    for m in cells {
        if !threat_set.contains(&m) && wins_full_width(&b, m, &threat_set, reply_budget) {
            set.push(m);
        }
    }
    set
}

/// Does the side to move win with `m`, proven full width? After `m`, every
/// legal reply of the opponent (every empty cell; Black's forbidden points
/// skipped under renju) must leave the mover a VCT the solver finds within
/// `reply_budget` nodes; a reply that makes five refutes `m`. Replies on
/// `first` (the known winning first moves) are tried first, as they are
/// the likeliest refutations. This is how quiet winning moves, which the
/// solver never starts a VCT with, enter an answer set.
pub fn wins_full_width(b: &Board, m: Pos, first: &[Pos], reply_budget: u64) -> bool {
    let a = b.to_move();
    let d = a.opposite();
    let renju = b.rules().rule == crate::types::Rule::Renju;
    if !b.is_empty(m) || (renju && a == Color::Black && rules::is_forbidden(b, m)) {
        return false;
    }
    if rules::is_win(b, m, a) {
        return true;
    }
    let stop = AtomicBool::new(false);
    let mut b = b.clone();
    b.make(m, a);
    let mut replies: Vec<Pos> = first.iter().copied().filter(|&p| b.is_empty(p)).collect();
    replies.extend(b.empty_cells().filter(|p| !first.contains(p)));
    let mut solver = ThreatSolver::new();
    replies.into_iter().all(|r| {
        if renju && d == Color::Black && rules::is_forbidden(&b, r) {
            return true;
        }
        if rules::is_win(&b, r, d) {
            return false;
        }
        b.make(r, d);
        let won = solver
            .vct(&mut b, a, MAX_THREATS, reply_budget, &stop)
            .is_some();
        b.unmake();
        won
    })
}

/// The nodes a fresh solver needs to prove a VCT starting with `m` (None:
/// not within `budget`).
pub fn proof_nodes(b: &Board, m: Pos, budget: u64) -> Option<u64> {
    let a = b.to_move();
    let mut b = b.clone();
    let mut solver = ThreatSolver::new();
    let stop = AtomicBool::new(false);
    solver
        .vct_starting_with(&mut b, a, m, MAX_THREATS, budget, &stop)
        .map(|_| solver.nodes())
}

/// A proven "no threat win" for `attacker`: the solver's search finished
/// under `budget` nodes without finding one.
fn no_threat_win(b: &mut Board, attacker: Color, vct: bool, budget: u64) -> bool {
    let stop = AtomicBool::new(false);
    let mut s = ThreatSolver::new();
    let r = if vct {
        s.vct(b, attacker, MAX_THREATS, budget, &stop)
    } else {
        s.vcf(b, attacker, budget, &stop)
    };
    r.is_none() && s.nodes() < budget
}

fn fnv(s: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for c in s.bytes() {
        h ^= c as u64;
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

fn replay(moves: &[(i64, i64)], k: usize, rules: RuleSet, size: usize) -> Option<Board> {
    let mut b = Board::square(size, rules).ok()?;
    for &(x, y) in &moves[..k] {
        let p = b.pos(x, y)?;
        if !b.is_empty(p) {
            return None;
        }
        b.play(p);
    }
    Some(b)
}

/// `make`'s work on one record line: its tactical positions and at most
/// one quiet one.
fn make_game(
    line: &str,
    rule: u32,
    size: usize,
    ms: u64,
    log: &(dyn Fn(&str) + Sync),
) -> (Vec<ReachPos>, Vec<ReachPos>) {
    let rules = RuleSet::from_bits(rule);
    let mut wins: Vec<ReachPos> = Vec::new();
    let mut quiet: Vec<ReachPos> = Vec::new();
    let stop = AtomicBool::new(false);
    let f: Vec<&str> = line.split('\t').collect();
    if f.len() < 8 {
        return (wins, quiet);
    }
    let game = f[0];
    let winner = crate::arena::report::parse_result(f[3]);
    let opening: usize = f[5].parse().unwrap_or(0);
    let Ok(moves) = parse_xy_list(f[7]) else {
        return (wins, quiet);
    };
    let n = moves.len();
    let pos_of = |k: usize, kind: Kind, proof: u64, answers: Vec<(i64, i64)>| ReachPos {
        name: format!("g{game}-{k}"),
        set: Set::Dev,
        kind,
        rule,
        size,
        proof,
        moves: moves[..k].to_vec(),
        answers,
    };
    // Tactical.
    if let Some(Some(w)) = winner {
        let mut proven = Vec::new();
        let mut k = n.saturating_sub(1);
        loop {
            // Black moves at even k (k stones on the board).
            let to_move = if k % 2 == 0 {
                Color::Black
            } else {
                Color::White
            };
            if k < opening || to_move != w {
                if k == 0 {
                    break;
                }
                k -= 1;
                continue;
            }
            let Some(mut b) = replay(&moves, k, rules, size) else {
                break;
            };
            let mut s = ThreatSolver::new();
            let line = s.vct(&mut b, w, MAX_THREATS, PROVE_VCT_NODES, &stop);
            let Some(line) = line else {
                break;
            };
            let mut s = ThreatSolver::new();
            if s.vcf(&mut b, w, EASY_VCF_NODES, &stop).is_none() {
                proven.push((k, line[0]));
            }
            if k < 2 {
                break;
            }
            k -= 2;
        }
        let mut kept = 0;
        for &(k, first) in proven.iter().rev() {
            if kept == WINS_PER_GAME {
                break;
            }
            let b = replay(&moves, k, rules, size).expect("replayed before");
            let name = format!("g{game}-{k}");
            let Some(proof) = proof_nodes(&b, first, ANSWER_NODES) else {
                log(&format!(
                    "{name}: solver's first move not re-proved; skipped"
                ));
                continue;
            };
            // The engine first, judged against what is proven so far
            // (the solver's move, and the engine's own if it wins): a
            // larger set only solves sooner, so "too easy" is final.
            let probe = pos_of(k, Kind::Win, proof, Vec::new());
            let searched = search(&probe, Limit::Ms(ms));
            let mut known = vec![first];
            if searched.best != first
                && (proof_nodes(&b, searched.best, ANSWER_NODES).is_some()
                    || wins_full_width(&b, searched.best, &[first], REPLY_NODES))
            {
                known.push(searched.best);
            }
            let early = searched.judge(&name, Kind::Win, &known);
            if early.solved && early.ms <= ms as f64 / 2.0 {
                log(&format!(
                    "{name}: engine solves at {:.0} ms: too easy",
                    early.ms
                ));
                continue;
            }
            let mut set = answer_set(&b, ANSWER_NODES, REPLY_NODES);
            set.retain(|&m| m != first);
            set.insert(0, first); // the first answer is the recorded proof's
            let l = searched.judge(&name, Kind::Win, &set);
            let keep = !l.solved || l.ms > ms as f64 / 2.0;
            let answers: Vec<(i64, i64)> = set
                .iter()
                .map(|&m| {
                    let (x, y) = b.xy(m);
                    (x as i64, y as i64)
                })
                .collect();
            log(&format!(
                "{name}: answers {} (proof {proof} nodes), engine {} {:.0} ms: {}",
                xy_list(&answers),
                if l.solved { "solved at" } else { "missed in" },
                l.ms,
                if keep { "kept" } else { "too easy" }
            ));
            if keep {
                wins.push(pos_of(k, Kind::Win, proof, answers));
                kept += 1;
            }
        }
    }
    // Quiet.
    let lo = opening + 4;
    let hi = n.saturating_sub(12);
    let mut ks: Vec<usize> = (lo..hi).collect();
    ks.sort_by_key(|k| fnv(&format!("{game}/{k}")));
    for k in ks {
        let Some(mut b) = replay(&moves, k, rules, size) else {
            break;
        };
        let s = b.to_move();
        if no_threat_win(&mut b, s, false, QUIET_NODES)
            && no_threat_win(&mut b, s, true, QUIET_NODES)
            && no_threat_win(&mut b, s.opposite(), false, QUIET_NODES)
        {
            log(&format!("g{game}-{k}: quiet"));
            quiet.push(pos_of(k, Kind::Quiet, 0, Vec::new()));
            break;
        }
    }
    (wins, quiet)
}

/// `bench reach-make`: positions from arena records (`games.txt` lines),
/// for the rule `rule` on `size`×`size`, the 500 ms check at `ms`.
///
/// Tactical: in each decisive game, going back from the end over the
/// positions where the winner is to move, every one where the VCT solver
/// (`PROVE_VCT_NODES`, up to `MAX_THREATS` threats) proves a win, until the
/// first where it does not; positions with a VCF within `EASY_VCF_NODES`
/// are dropped as too easy. The answer set (`answer_set`: threat first
/// moves with `ANSWER_NODES` each, quiet ones full width with
/// `REPLY_NODES` per reply) starts with the solver's own first move, whose
/// proof must hold with a fresh table (its nodes are the `proof` field). The engine then
/// searches the position for `ms` ms (as `bench reach`); the position is
/// kept, earliest first and at most `WINS_PER_GAME` per game, when the
/// engine does not play an answer move or reaches one only after half the
/// time.
///
/// Quiet: per game, positions at least 4 moves after the opening and 12
/// before the end, in an order fixed by a hash of the game and ply; the
/// first where the side to move has neither VCF nor VCT and the opponent no
/// VCF, each check finishing under `QUIET_NODES`. Quiet positions are then
/// cut to the number of tactical ones (by hash order).
///
/// Split: within each kind, positions sorted by a hash (FNV-1a) of their
/// moves go alternately to `dev` and `held`.
pub fn make(
    records: &str,
    rule: u32,
    size: usize,
    ms: u64,
    jobs: usize,
    log: &(dyn Fn(&str) + Sync),
) -> String {
    let lines: Vec<&str> = records.lines().collect();
    let next = std::sync::atomic::AtomicUsize::new(0);
    let done = std::sync::Mutex::new(Vec::new());
    std::thread::scope(|sc| {
        for _ in 0..jobs.max(1) {
            sc.spawn(|| loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some(line) = lines.get(i) else {
                    break;
                };
                let r = make_game(line, rule, size, ms, log);
                done.lock().expect("no poisoning").push((i, r));
            });
        }
    });
    let mut done = done.into_inner().expect("no poisoning");
    done.sort_by_key(|d| d.0);
    let mut wins: Vec<ReachPos> = Vec::new();
    let mut quiet: Vec<ReachPos> = Vec::new();
    for (_, (w, q)) in done {
        wins.extend(w);
        quiet.extend(q);
    }
    quiet.sort_by_key(|p| fnv(&xy_list(&p.moves)));
    quiet.truncate(wins.len());
    let mut all = Vec::new();
    for mut group in [wins, quiet] {
        group.sort_by_key(|p| fnv(&xy_list(&p.moves)));
        for (i, p) in group.iter_mut().enumerate() {
            p.set = if i % 2 == 0 { Set::Dev } else { Set::Held };
        }
        group.sort_by(|a, b| a.name.cmp(&b.name));
        all.extend(group);
    }
    let mut out = String::new();
    let _ = writeln!(
        out,
        "# Reach benchmark positions (bench reach); made by `pbrain-sente bench reach-make`\n\
         # (see src/bench/reach.rs, `make`) from self-play records: tactical positions\n\
         # proven won by the VCT solver ({PROVE_VCT_NODES} nodes) that the engine misses in\n\
         # {ms} ms; answer sets = every first move the solver starts a VCT with\n\
         # ({ANSWER_NODES} nodes each) and every other near cell after which every reply\n\
         # leaves a VCT ({REPLY_NODES} nodes each); quiet positions without VCF/VCT for\n\
         # the side to move nor VCF for the opponent.\n\
         # Fields (tab-separated): name set kind rule size proof moves answers"
    );
    for p in &all {
        let _ = writeln!(out, "{}", p.line());
    }
    out
}

/// `bench reach-make RECORDS… [--rule R] [--size N] [--ms MS] [--out FILE]`.
fn main_make(args: &[String]) -> i32 {
    let mut files = Vec::new();
    let (mut rule, mut size, mut ms, mut out, mut jobs) = (0u32, 15usize, DEFAULT_MS, None, 1);
    let mut i = 0;
    while i < args.len() {
        let v = args.get(i + 1);
        match args[i].as_str() {
            "--rule" => rule = v.and_then(|v| v.parse().ok()).unwrap_or(0),
            "--size" => size = v.and_then(|v| v.parse().ok()).unwrap_or(15),
            "--ms" => ms = v.and_then(|v| v.parse().ok()).unwrap_or(DEFAULT_MS),
            "--out" => out = v.cloned(),
            "--jobs" => jobs = v.and_then(|v| v.parse().ok()).unwrap_or(1),
            f => {
                files.push(f.to_string());
                i += 1;
                continue;
            }
        }
        i += 2;
    }
    if files.is_empty() {
        eprintln!("usage: pbrain-sente bench reach-make GAMES.txt... [--rule R] [--size N] [--ms MS] [--jobs N] [--out FILE]");
        return 2;
    }
    let mut text = String::new();
    for (i, f) in files.iter().enumerate() {
        match std::fs::read_to_string(f) {
            // Game numbers gain the file's number: "2.17" is file 2's game 17.
            Ok(t) => {
                for l in t.lines() {
                    let _ = writeln!(text, "{}.{l}", i + 1);
                }
            }
            Err(e) => {
                eprintln!("{f}: {e}");
                return 1;
            }
        }
    }
    let made = make(&text, rule, size, ms, jobs, &|s| eprintln!("{s}"));
    match out {
        Some(path) => {
            if let Err(e) = std::fs::write(&path, &made) {
                eprintln!("{path}: {e}");
                return 1;
            }
        }
        None => print!("{made}"),
    }
    0
}

/// `bench reach [--ms MS | --nodes N] [--set dev|held|all]` and
/// `bench reach-make …` (`args`: the words after `bench`, the subcommand
/// first).
pub fn main_reach(args: &[String]) -> i32 {
    if args.first().map(String::as_str) == Some("reach-make") {
        return main_make(&args[1..]);
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
    use crate::types::Rule;

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
