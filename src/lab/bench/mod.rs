//! `pbrain-sente bench`: a fixed suite of positions (15×15 and 20×20, every
//! rule, opening to endgame) searched to a fixed depth with a fresh
//! fixed-size table each, one thread, no time limit. The total node count is
//! the signature: the same build gives the same number on every run.
//!
//! `bench [DEPTH]` runs the suite; `bench time MS` reports the depth each
//! position reaches in MS milliseconds; `bench eval` measures incremental
//! evaluation against from-scratch recomputation; `bench reach` runs the
//! reach benchmark (`reach`): forced wins the engine needs more than 500 ms
//! for, and quiet positions, at a fixed time and a fixed node count; `bench
//! depth` the depth and branching report (`depth`): the depth, nodes and
//! time of each iteration on middle-game positions at 500 ms and 2 s;
//! `bench first-move` how long fresh processes take to answer their first
//! moves (`first_move`). Each is a measurement of the engine; what makes
//! files (the reach and depth suites from arena records, random nets) is
//! `sente-lab`'s (`reach::make::main_make`, `reach::make::main_claims`,
//! `depth::make::main_make`).

pub mod depth;
mod first_move;
pub mod oracle;
pub mod reach;
pub mod setup;
mod threats;

use std::time::{Duration, Instant};

use crate::brain::engine::{EvalKind, Limits, SearchOptions};
use crate::brain::game::zobrist::SplitMix64;
use crate::brain::game::{Board, Pos};
use crate::brain::search::Cutoffs;
use crate::brain::types::{score_text, Rule, RuleSet};
use crate::cli::{eval_kind, search_switch, set_param};
use setup::BENCH_TT_BYTES;

/// Depth searched by `bench` without arguments.
pub const DEFAULT_DEPTH: u32 = 6;

/// One bench position: board size, `INFO rule` bits and moves (`x,y`,
/// Black first, alternating), or an ASCII board when `ascii` is set.
struct Spec {
    name: &'static str,
    size: usize,
    rule: u32,
    moves: &'static str,
    ascii: &'static str,
}

const fn mv(name: &'static str, size: usize, rule: u32, moves: &'static str) -> Spec {
    Spec {
        name,
        size,
        rule,
        moves,
        ascii: "",
    }
}

const fn art(name: &'static str, rule: u32, ascii: &'static str) -> Spec {
    Spec {
        name,
        size: 0,
        rule,
        moves: "",
        ascii,
    }
}

/// The suite. Move lists come from the shared opening suites continued by
/// self-play; the names say suite and number of stones.
const POSITIONS: &[Spec] = &[
    mv("fs15-4", 15, 0, "5,9 6,10 4,5 8,7"),
    mv("fs15-6", 15, 0, "5,9 6,10 4,5 8,7 4,6 4,4"),
    mv("fs15-10", 15, 0, "5,9 6,10 4,5 8,7 4,6 4,4 4,9 6,9 5,7 6,8"),
    mv("fs15-13", 15, 0, "5,9 6,10 4,5 8,7 4,6 4,4 4,9 6,9 5,7 6,8 6,7 6,11 6,12"),
    mv("fs15b-3", 15, 0, "7,9 6,7 6,5"),
    mv("fs15b-8", 15, 0, "7,9 6,7 6,5 5,7 4,7 5,6 4,5 5,5"),
    mv("fs15b-13", 15, 0, "7,9 6,7 6,5 5,7 4,7 5,6 4,5 5,5 5,8 9,10 5,4 3,6 4,6"),
    mv("fs15b-18", 15, 0, "7,9 6,7 6,5 5,7 4,7 5,6 4,5 5,5 5,8 9,10 5,4 3,6 4,6 4,4 7,8 8,8 7,7 7,6"),
    mv("fs20-3", 20, 0, "7,9 8,8 8,11"),
    mv("fs20-5", 20, 0, "7,9 8,8 8,11 8,7 7,10"),
    mv("fs20-9", 20, 0, "7,9 8,8 8,11 8,7 7,10 8,6 8,9 6,9 6,11"),
    mv("fs20-12", 20, 0, "7,9 8,8 8,11 8,7 7,10 8,6 8,9 6,9 6,11 8,5 8,4 9,8"),
    mv("std15-3", 15, 1, "7,6 6,7 9,5"),
    mv("std15-8", 15, 1, "7,6 6,7 9,5 7,5 9,6 6,6 9,7 9,8"),
    mv("std15-12", 15, 1, "7,6 6,7 9,5 7,5 9,6 6,6 9,7 9,8 10,6 8,4 9,3 9,4"),
    mv("std15-16", 15, 1, "7,6 6,7 9,5 7,5 9,6 6,6 9,7 9,8 10,6 8,4 9,3 9,4 10,4 5,7 4,8 7,7"),
    mv("renju15-3", 15, 4, "7,7 10,8 8,10"),
    mv("renju15-9", 15, 4, "7,7 10,8 8,10 9,7 11,9 9,8 8,8 9,9 9,10"),
    mv("renju15-14", 15, 4, "7,7 10,8 8,10 9,7 11,9 9,8 8,8 9,9 9,10 8,6 8,11 8,9 7,10 6,10"),
    mv("renju15-19", 15, 4, "7,7 10,8 8,10 9,7 11,9 9,8 8,8 9,9 9,10 8,6 8,11 8,9 7,10 6,10 6,9 6,4 7,5 5,8 11,8"),
    mv("caro15-3", 15, 8, "8,9 8,8 9,8"),
    mv("caro15-11", 15, 8, "8,9 8,8 9,8 10,7 9,10 10,11 11,10 9,7 10,10 12,10 8,7"),
    mv("caro15-18", 15, 8, "8,9 8,8 9,8 10,7 9,10 10,11 11,10 9,7 10,10 12,10 8,7 10,9 7,10 8,10 6,11 5,12 7,9 10,6"),
    mv("caro15-23", 15, 8, "8,9 8,8 9,8 10,7 9,10 10,11 11,10 9,7 10,10 12,10 8,7 10,9 7,10 8,10 6,11 5,12 7,9 10,6 10,4 7,11 7,8 5,9 5,10"),
    art(
        "fs20-continuous",
        2,
        "
        . . . . . . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . . . . . . .
        . . . . . # # # # # . . . . . . . . . .
        . . . . . . . . . . . . . . . . . . . .
        . . . . . . . X O . . . . . . . . . . .
        . . . . . . O X X . . . . . . . . . . .
        . . . . . . . O X O . . . . . . . . . .
        . . . . . . . . O X . . . . . . . . . .
        . . . . . . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . . . . . . .",
    ),
    art(
        "renju15-forbid",
        4,
        "
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . X . . . . . . .
        . . . . . . . X . . . . . . .
        . . . . . X X . O . . . . . .
        . . . . . . . O X . . . . . .
        . . . . . . O . . O . . . . .
        . . . . . . . . . . . . . . .
        . . . . . O . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .",
    ),
];

/// Build a bench position's board.
fn board_of(spec: &Spec) -> Board {
    let rules = RuleSet::from_bits(spec.rule);
    if !spec.ascii.is_empty() {
        return Board::from_ascii(spec.ascii, rules).expect("bench board");
    }
    let mut b = Board::square(spec.size, rules).expect("bench size");
    for t in spec.moves.split_whitespace() {
        let (x, y) = t.split_once(',').expect("x,y");
        let (x, y) = (x.parse().expect("x"), y.parse().expect("y"));
        let p = b.pos(x, y).expect("on board");
        b.play(p);
    }
    b
}

/// Number of positions in the suite.
pub fn position_count() -> usize {
    POSITIONS.len()
}

/// Result of one bench position.
#[derive(Clone, Debug)]
pub struct BenchLine {
    pub name: &'static str,
    pub nodes: u64,
    pub depth: u32,
    pub score: i32,
    pub best: (usize, usize),
    pub elapsed: Duration,
    pub tt_hit_rate: f64,
    /// The main thread's beta cutoffs by move (ordering diagnostics).
    pub cutoffs: Cutoffs,
}

#[derive(Clone, Debug)]
pub struct BenchReport {
    pub lines: Vec<BenchLine>,
    /// The signature: total nodes over the suite.
    pub total_nodes: u64,
    pub elapsed: Duration,
}

impl BenchReport {
    /// Nodes per second of the searches alone: each position's table is
    /// built, and its pages mapped, before its clock starts (on huge
    /// pages that set-up costs more, and it is no part of the search's
    /// speed; `elapsed` still counts it).
    pub fn nps(&self) -> f64 {
        let secs: f64 = self.lines.iter().map(|l| l.elapsed.as_secs_f64()).sum();
        self.total_nodes as f64 / secs.max(1e-9)
    }

    pub fn tt_hit_rate(&self) -> f64 {
        let n = self.lines.len().max(1) as f64;
        self.lines.iter().map(|l| l.tt_hit_rate).sum::<f64>() / n
    }

    /// The cutoffs over the suite.
    pub fn cutoffs(&self) -> Cutoffs {
        let mut c = Cutoffs::default();
        self.lines.iter().for_each(|l| c.add(&l.cutoffs));
        c
    }
}

fn run_one(
    spec: &Spec,
    limits: Limits,
    threads: usize,
    tt_bytes: usize,
    eval: EvalKind,
) -> BenchLine {
    let board = board_of(spec);
    let options = SearchOptions {
        eval,
        ..setup::options()
    };
    let mut engine = setup::engine_with(tt_bytes, options);
    engine.set_threads(threads as i64);
    engine.prepare(); // the table is built before the clock starts
    let t0 = Instant::now();
    let stop = Default::default();
    let r = engine
        .search(&board, &limits, &stop, &mut |_| {})
        .expect("the bench search panicked");
    let st = engine.stats();
    BenchLine {
        name: spec.name,
        nodes: r.nodes,
        depth: r.depth,
        score: r.score,
        best: if r.best.is_none() {
            (0, 0)
        } else {
            board.xy(r.best)
        },
        elapsed: t0.elapsed(),
        tt_hit_rate: st.tt_hits as f64 / st.tt_probes.max(1) as f64,
        cutoffs: st.cutoffs,
    }
}

/// Search every position with the limits `limits` makes (fresh table each).
fn run_all(limits: impl Fn() -> Limits, threads: usize, eval: EvalKind) -> BenchReport {
    run_all_with(limits, threads, BENCH_TT_BYTES, eval)
}

/// `run_all` with a table of `tt_bytes` for each position.
fn run_all_with(
    limits: impl Fn() -> Limits,
    threads: usize,
    tt_bytes: usize,
    eval: EvalKind,
) -> BenchReport {
    // Build the pattern tables (and the net) first so they are not timed.
    for s in POSITIONS {
        let _ = setup::evaluator(&board_of(s), eval);
    }
    let t0 = Instant::now();
    let lines: Vec<BenchLine> = POSITIONS
        .iter()
        .map(|s| run_one(s, limits(), threads, tt_bytes, eval))
        .collect();
    BenchReport {
        total_nodes: lines.iter().map(|l| l.nodes).sum(),
        lines,
        elapsed: t0.elapsed(),
    }
}

/// Search every position to `depth` (the signature run, with each rule's
/// own evaluation, `EvalKind::Auto`, as the engine plays by default).
pub fn run_bench(depth: u32) -> BenchReport {
    run_bench_eval(depth, EvalKind::Auto)
}

/// `run_bench` with the evaluation `eval`.
pub fn run_bench_eval(depth: u32, eval: EvalKind) -> BenchReport {
    run_all(
        || Limits {
            max_depth: Some(depth),
            ..Limits::default()
        },
        1,
        eval,
    )
}

/// Search every position for `ms` milliseconds (depth reached per position).
pub fn run_timed(ms: u64, eval: EvalKind) -> BenchReport {
    run_timed_threads(ms, 1, eval)
}

/// `run_timed` with `threads` search threads (Lazy SMP).
pub fn run_timed_threads(ms: u64, threads: usize, eval: EvalKind) -> BenchReport {
    // A turn limit whose hard limit, after the time manager's margin, is about `ms`.
    run_all(
        || Limits {
            turn_ms: Some(ms + ms / 9 + 31),
            ..Limits::default()
        },
        threads,
        eval,
    )
}

/// `bench pages [DEPTH [MB]]`: the depth bench with a table of MB
/// megabytes (a game's size by default), with the table on 4 KiB pages
/// and on huge pages (`hugepages`), alternately `rounds` times each,
/// every search with `eval` (each position's rule's own by default).
/// Returns the nodes/s of each round, small pages first in each pair.
pub fn pages_speed(depth: u32, mb: usize, rounds: usize, eval: EvalKind) -> Vec<(f64, f64)> {
    let limits = || Limits {
        max_depth: Some(depth),
        ..Limits::default()
    };
    (0..rounds)
        .map(|_| {
            let mut pair = [0.0; 2];
            for (i, huge) in [false, true].into_iter().enumerate() {
                crate::brain::hugepages::set_enabled(huge);
                pair[i] = run_all_with(limits, 1, mb << 20, eval).nps();
            }
            crate::brain::hugepages::set_enabled(true);
            (pair[0], pair[1])
        })
        .collect()
}

/// Mean depth over the positions.
fn mean_depth(r: &BenchReport) -> f64 {
    r.lines.iter().map(|l| l.depth as f64).sum::<f64>() / r.lines.len().max(1) as f64
}

/// Timing of incremental against from-scratch evaluation.
#[derive(Clone, Copy, Debug)]
pub struct EvalSpeed {
    pub updates: u64,
    pub incremental_ns: f64,
    pub scratch_ns: f64,
}

impl EvalSpeed {
    pub fn speedup(&self) -> f64 {
        self.scratch_ns / self.incremental_ns.max(1e-9)
    }
}

/// Make and unmake random near moves on every bench position, keeping the
/// evaluation (`eval`) current incrementally, then by recomputing it from
/// scratch.
pub fn eval_speed(rounds: usize, eval: EvalKind) -> EvalSpeed {
    let boards: Vec<Board> = POSITIONS.iter().map(board_of).collect();
    let mut rng = SplitMix64::new(2024);
    let mut plans: Vec<Vec<Pos>> = Vec::new();
    for b in &boards {
        let near: Vec<Pos> = b.empty_cells().filter(|&p| b.near_count(p) > 0).collect();
        let picks = if near.is_empty() {
            Vec::new()
        } else {
            (0..rounds)
                .map(|_| near[rng.below(near.len() as u64) as usize])
                .collect()
        };
        plans.push(picks);
    }
    let mut check = 0i64;
    let t0 = Instant::now();
    let mut updates = 0u64;
    for (b, picks) in boards.iter().zip(&plans) {
        let mut b = b.clone();
        let mut ev = setup::evaluator(&b, eval);
        for &p in picks {
            b.play(p);
            ev.update(&b, p);
            check += ev.evaluate(b.to_move()) as i64;
            b.unmake();
            ev.update(&b, p);
            updates += 2;
        }
    }
    let incremental = t0.elapsed();
    let t1 = Instant::now();
    let mut check2 = 0i64;
    for (b, picks) in boards.iter().zip(&plans) {
        let mut b = b.clone();
        for &p in picks {
            b.play(p);
            let ev = setup::evaluator(&b, eval);
            check2 += ev.evaluate(b.to_move()) as i64;
            b.unmake();
            let _ = std::hint::black_box(setup::evaluator(&b, eval));
        }
    }
    let scratch = t1.elapsed();
    assert_eq!(check, check2, "incremental and scratch evaluations agree");
    EvalSpeed {
        updates,
        incremental_ns: incremental.as_nanos() as f64 / updates.max(1) as f64,
        scratch_ns: scratch.as_nanos() as f64 / updates.max(1) as f64,
    }
}

fn print_report(r: &BenchReport) {
    println!(
        "{:<22} {:>3} {:>7} {:>8} {:>12} {:>9} {:>6}",
        "position", "dep", "score", "move", "nodes", "ms", "tthit"
    );
    for l in &r.lines {
        println!(
            "{:<22} {:>3} {:>7} {:>8} {:>12} {:>9} {:>5.1}%",
            l.name,
            l.depth,
            score_text(l.score),
            format!("{},{}", l.best.0, l.best.1),
            l.nodes,
            l.elapsed.as_millis(),
            l.tt_hit_rate * 100.0
        );
    }
    println!("===========================");
    println!("Total time (ms) : {}", r.elapsed.as_millis());
    println!("Nodes searched  : {}", r.total_nodes);
    println!("Nodes/second    : {:.0}", r.nps());
    println!("TT hit rate     : {:.1}%", r.tt_hit_rate() * 100.0);
    let c = r.cutoffs();
    let all = c.by.iter().sum::<u64>().max(1) as f64;
    let pc = |n: u64| n as f64 * 100.0 / all;
    println!(
        "Cutoffs         : {} ({:.1}% by the table's or the first move: table {:.1}%, first {:.1}%, 2nd-4th {:.1}%, later {:.1}%); {} fail-low nodes, {:.1} moves each",
        c.by.iter().sum::<u64>(),
        c.first_share() * 100.0,
        pc(c.by[0]),
        pc(c.by[1]),
        pc(c.by[2]),
        pc(c.by[3]),
        c.fail_low,
        c.fail_low_moves as f64 / c.fail_low.max(1) as f64
    );
}

/// Entry point for `pbrain-sente bench [DEPTH | time MS | threads [MS [N]] | pages [DEPTH [MB]] | eval | threats | reach … | depth …] [--eval auto|classic|net] [--net FILE]`;
/// `args` are the words after `bench`. Returns the process exit code.
/// `--eval classic|net` runs the depth, time, threads, eval, reach and depth-report benches with
/// that evaluation under every rule (the signature is the default's, `auto`: each rule's own).
pub fn main_bench(args: &[String]) -> i32 {
    let mut eval = EvalKind::Auto;
    let mut o = SearchOptions::default();
    let mut rest = Vec::new();
    let mut it = args.iter().filter(|a| !search_switch(&mut o, a));
    while let Some(a) = it.next() {
        if a == "--eval" {
            match eval_kind(it.next().map(String::as_str)) {
                Ok(k) => eval = k,
                Err(e) => {
                    eprintln!("pbrain-sente bench: {e}");
                    return 2;
                }
            }
        } else if a == "--net" {
            // The net every bench engine evaluates with, where its rule
            // uses one (the node count changes with the net).
            match it.next().map(|v| crate::cli::load_net(v)) {
                Some(Ok((q, hash))) => {
                    println!("Net file        : fnv1a64 {hash:016x}");
                    setup::set_net(q);
                }
                Some(Err(e)) => {
                    eprintln!("pbrain-sente bench: {e}");
                    return 2;
                }
                None => {
                    eprintln!("pbrain-sente bench: --net takes a weights file");
                    return 2;
                }
            }
        } else if a == "--param" {
            let v = it.next().map(String::as_str).unwrap_or("");
            if let Err(e) = set_param(v) {
                eprintln!("pbrain-sente bench: {e}");
                return 2;
            }
            println!("Parameter       : {v}");
        } else {
            rest.push(a.clone());
        }
    }
    if eval != EvalKind::Classic {
        let q = setup::net().unwrap_or_else(crate::brain::eval::net::embedded_net);
        let scope = match eval {
            EvalKind::Auto => {
                let nets: Vec<&str> = Rule::ALL
                    .into_iter()
                    .filter(|&r| eval.uses_net(r))
                    .map(Rule::name)
                    .collect();
                format!(" under {}; classical elsewhere", nets.join(", "))
            }
            _ => String::new(),
        };
        println!(
            "Evaluation      : net f={} h={} {} form, kernel {}{scope}",
            q.f,
            q.hidden(),
            q.form().name(),
            q.kernel().name()
        );
    }
    drop(it);
    let switches = o;
    // `bench reach` builds its engines from OPTIONS: the evaluation too.
    o.eval = eval;
    setup::set_options(o);
    if switches != SearchOptions::default() {
        println!("Switches        : {switches:?}");
    }
    let args = &rest[..];
    let first = args.first().map(String::as_str);
    if eval != EvalKind::Auto && matches!(first, Some("threats" | "first-move")) {
        eprintln!(
            "pbrain-sente bench: --eval applies to the depth, time, threads, pages, eval, reach and depth benches"
        );
        return 2;
    }
    match first {
        None => {
            let r = run_bench_eval(DEFAULT_DEPTH, eval);
            print_report(&r);
            0
        }
        Some("time") => {
            let ms = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(1_000);
            let r = run_timed(ms, eval);
            print_report(&r);
            println!("Mean depth in {ms} ms: {:.1}", mean_depth(&r));
            0
        }
        Some("threads") => {
            // Timed runs with 1 and N threads, side by side. Node counts
            // with helpers are not deterministic: the signature is the
            // single-thread depth bench.
            let ms = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(500);
            let n: usize = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(2);
            let n = n.clamp(1, crate::brain::search::MAX_THREADS);
            let one = run_timed_threads(ms, 1, eval);
            let many = run_timed_threads(ms, n, eval);
            println!(
                "{:<8} {:>12} {:>12} {:>10}",
                "threads", "nodes", "nodes/s", "mean depth"
            );
            for (t, r) in [(1, &one), (n, &many)] {
                println!(
                    "{:<8} {:>12} {:>12.0} {:>10.2}",
                    t,
                    r.total_nodes,
                    r.nps(),
                    mean_depth(r)
                );
            }
            println!("Speed ratio     : {:.2}x", many.nps() / one.nps().max(1e-9));
            0
        }
        Some("pages") => {
            let depth = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(11u32);
            let mb = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(155usize);
            let rounds = pages_speed(depth.clamp(1, 60), mb.clamp(1, 4096), 3, eval);
            println!(
                "{:<8} {:>14} {:>14} {:>7}",
                "round", "4 KiB pages", "huge pages", "ratio"
            );
            for (i, (small, huge)) in rounds.iter().enumerate() {
                println!(
                    "{:<8} {:>14.0} {:>14.0} {:>6.2}x",
                    i + 1,
                    small,
                    huge,
                    huge / small.max(1e-9)
                );
            }
            let n = rounds.len().max(1) as f64;
            let (s, h) = rounds
                .iter()
                .fold((0.0, 0.0), |(a, b), (x, y)| (a + x / n, b + y / n));
            println!(
                "Nodes/s, mean   : {s:.0} on 4 KiB pages, {h:.0} on huge pages: {:.2}x",
                h / s.max(1e-9)
            );
            0
        }
        Some("reach") => reach::main_reach(args),
        Some("depth") => depth::main_depth(args),
        Some("threats") => threats::main_threats(),
        Some("first-move") => first_move::main_first_move(args),
        Some("eval") => {
            let rounds = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(20_000);
            let e = eval_speed(rounds, eval);
            println!("Updates         : {}", e.updates);
            println!("Incremental (ns): {:.0}", e.incremental_ns);
            println!("From scratch(ns): {:.0}", e.scratch_ns);
            println!("Speed-up        : {:.1}x", e.speedup());
            0
        }
        Some(d) => match d.parse::<u32>() {
            Ok(depth) if (1..=60).contains(&depth) => {
                let r = run_bench_eval(depth, eval);
                print_report(&r);
                0
            }
            _ => {
                eprintln!("usage: pbrain-sente bench [DEPTH | time MS | threads [MS [N]] | pages [DEPTH [MB]] | eval [ROUNDS] | threats | reach [--ms MS | --nodes N] [--set dev|held|all] | depth [--ms MS]... [--out FILE] | first-move [--engine PATH]... [--rounds N] [--turn MS]] [--eval auto|classic|net] [--net FILE]");
                2
            }
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::brain::eval::Evaluator;
    use crate::brain::game::testutil::pick;
    use crate::brain::types::Color;

    /// `bench pages` times the same searches both ways: every round has
    /// two positive rates, and afterwards huge pages are asked for again.
    #[test]
    fn pages_speed_times_both_ways() {
        let rounds = pages_speed(2, 3, 2, EvalKind::Classic);
        assert_eq!(rounds.len(), 2);
        assert!(
            rounds.iter().all(|&(s, h)| s > 0.0 && h > 0.0),
            "{rounds:?}"
        );
        assert!(crate::brain::hugepages::enabled());
    }

    #[test]
    fn suite_is_large_and_varied() {
        assert!(position_count() >= 20);
        let mut sizes = std::collections::HashSet::new();
        let mut rules = std::collections::HashSet::new();
        for s in POSITIONS {
            let b = board_of(s);
            sizes.insert(b.width());
            rules.insert(b.rules().rule);
            assert!(!b.is_full());
            // No position is already won.
            for m in b.history() {
                assert!(
                    crate::brain::game::rules::winner_at(&b, m.pos).is_none(),
                    "{}",
                    s.name
                );
            }
        }
        assert!(sizes.contains(&15) && sizes.contains(&20));
        assert_eq!(rules.len(), 4);
    }

    #[test]
    fn shallow_bench_is_deterministic() {
        let a = run_bench(2);
        let b = run_bench(2);
        assert_eq!(a.total_nodes, b.total_nodes);
        assert!(a.total_nodes > 0);
        let per_a: Vec<u64> = a.lines.iter().map(|l| l.nodes).collect();
        let per_b: Vec<u64> = b.lines.iter().map(|l| l.nodes).collect();
        assert_eq!(per_a, per_b);
    }

    /// `bench eval`'s walk (the same seed, so the same near moves on every
    /// bench position), checked move by move: after each make and each
    /// unmake the incrementally updated evaluator must equal one built from
    /// scratch, state and score for both colours. Then the timed run must
    /// have made exactly those updates.
    #[test]
    fn eval_speed_runs_and_agrees() {
        const ROUNDS: usize = 20;
        let mut rng = SplitMix64::new(2024);
        let mut updates = 0u64;
        let agree = |ev: &Evaluator, b: &Board, what: &str| {
            let fresh = Evaluator::new(b);
            assert!(ev.same_as(&fresh), "incremental != scratch {what}\n{b}");
            for color in [Color::Black, Color::White] {
                assert_eq!(ev.evaluate(color), fresh.evaluate(color), "{what}\n{b}");
            }
        };
        for s in POSITIONS {
            let mut b = board_of(s);
            let near: Vec<Pos> = b.empty_cells().filter(|&p| b.near_count(p) > 0).collect();
            let mut ev = Evaluator::new(&b);
            for _ in 0..ROUNDS {
                let Some(p) = pick(&mut rng, &near) else {
                    break;
                };
                b.play(p);
                ev.update(&b, p);
                agree(&ev, &b, &format!("after {} plays {p:?}", s.name));
                b.unmake();
                ev.update(&b, p);
                agree(&ev, &b, &format!("after {} takes {p:?} back", s.name));
                updates += 2;
            }
        }
        assert!(updates > 0);
        let e = eval_speed(ROUNDS, EvalKind::Classic);
        assert_eq!(e.updates, updates);
        assert!(e.incremental_ns > 0.0 && e.scratch_ns > 0.0, "{e:?}");
    }
}
