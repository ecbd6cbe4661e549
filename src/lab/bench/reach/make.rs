//! Building the reach set (`sente-lab reach-make`): arena records
//! replayed, each winner's positions proven by the VCT solver with a large
//! budget, kept when the engine misses the win at the given time, their
//! answer sets (`answer_set`) and as many quiet positions, split into `dev`
//! and `held` by a hash of the moves. The file format and the runner are
//! in `reach`.

use std::fmt::Write as _;
use std::sync::atomic::AtomicBool;

use super::run::*;
use super::suite::*;
use crate::brain::game::rules;
use crate::brain::game::{Board, Pos};
use crate::brain::search::params::MAX_THREATS;
use crate::brain::search::threat::ThreatSolver;
use crate::brain::types::{Color, RuleSet};

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
    let renju = b.rules().rule == crate::brain::types::Rule::Renju;
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
pub(crate) fn no_threat_win(b: &mut Board, attacker: Color, vct: bool, budget: u64) -> bool {
    let stop = AtomicBool::new(false);
    let mut s = ThreatSolver::new();
    let r = if vct {
        s.vct(b, attacker, MAX_THREATS, budget, &stop)
    } else {
        s.vcf(b, attacker, budget, &stop)
    };
    r.is_none() && s.nodes() < budget
}

pub(crate) fn fnv(s: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for c in s.bytes() {
        h ^= c as u64;
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

pub(crate) fn replay(moves: &[(i64, i64)], k: usize, rules: RuleSet, size: usize) -> Option<Board> {
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
pub(super) fn make_game(
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
    let winner = crate::lab::arena::report::parse_result(f[3]);
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
                                  // The engine's own move, when it claims a win the set lacks:
                                  // the deeper full-width proof (`wins_deeper`) may cover it.
            if !set.contains(&searched.best)
                && crate::brain::types::is_mate_score(searched.score)
                && searched.score > 0
                && matches!(
                    wins_deeper(
                        &b,
                        searched.best,
                        REPLY_NODES,
                        ANSWER_NODES,
                        L2_NODES,
                        240.0
                    ),
                    Deeper::Proven { .. }
                )
            {
                set.push(searched.best);
            }
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

/// `sente-lab reach-make`: positions from arena records (`games.txt` lines),
/// for the rule `rule` on `size`×`size`, the 500 ms check at `ms`.
///
/// Tactical: in each decisive game, going back from the end over the
/// positions where the winner is to move, every one where the VCT solver
/// (`PROVE_VCT_NODES`, up to `MAX_THREATS` threats) proves a win, until the
/// first where it does not; positions with a VCF within `EASY_VCF_NODES`
/// are dropped as too easy. The answer set (`answer_set`: threat first
/// moves with `ANSWER_NODES` each, quiet ones full width with
/// `REPLY_NODES` per reply) starts with the solver's own first move, whose
/// proof must hold with a fresh table (its nodes are the `proof` field),
/// plus the engine's move at `ms` when it claims a win outside the set and
/// `wins_deeper` proves it (`sente-lab reach-claims` does this for an existing
/// file at several limits). The engine then
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
        "# Reach benchmark positions (bench reach); made by `sente-lab reach-make`\n\
         # (see src/lab/bench/reach/make.rs) from self-play records: tactical positions\n\
         # proven won by the VCT solver ({PROVE_VCT_NODES} nodes) that the engine misses in\n\
         # {ms} ms; answer sets = every first move the solver starts a VCT with\n\
         # ({ANSWER_NODES} nodes each) and every other near cell after which every reply\n\
         # leaves a VCT ({REPLY_NODES} nodes each), and the engine's own move when it\n\
         # claims a win and `wins_deeper` proves it; quiet positions without VCF/VCT for\n\
         # the side to move nor VCF for the opponent.\n\
         # Fields (tab-separated): name set kind rule size proof moves answers"
    );
    for p in &all {
        let _ = writeln!(out, "{}", p.line());
    }
    out
}

/// `sente-lab reach-make RECORDS… [--rule R] [--size N] [--ms MS] [--out FILE]`.
pub fn main_make(args: &[String]) -> i32 {
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
        eprintln!("usage: sente-lab reach-make GAMES.txt... [--rule R] [--size N] [--ms MS] [--jobs N] [--out FILE]");
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
    write_or_print(out.as_deref(), &made)
}

/// A made file: written to `out`, or printed when there is none. Returns
/// the exit code.
pub(crate) fn write_or_print(out: Option<&str>, text: &str) -> i32 {
    match out {
        Some(path) => {
            if let Err(e) = std::fs::write(path, text) {
                eprintln!("{path}: {e}");
                return 1;
            }
        }
        None => print!("{text}"),
    }
    0
}

/// The outcome of `wins_deeper` for one move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Deeper {
    /// Proven: every reply leaves a VCT; `level2` replies needed a mover
    /// move after which every reply leaves a VCT in turn.
    Proven { level2: usize },
    /// A reply the proof could not get past (a five, or neither a VCT nor a
    /// level-2 move within the budgets: not a proof of no win).
    Stuck { reply: Pos, five: bool },
    /// The wall-clock bound ran out.
    OutOfTime,
}

/// Does the side to move win with `m`? A stronger (and slower) sound check
/// than `wins_full_width`, for moves the engine claims a win with: after
/// `m`, every legal reply `r` (full width; a reply that makes five refutes
/// `m`) must leave the mover a VCT within `reply_budget` nodes, or failing
/// that within `deep_budget`, or failing that one more level: some near
/// cell `m2` after which every reply (full width again) leaves a VCT within
/// `l2_budget` nodes. Gives up after `secs` seconds of wall clock.
pub fn wins_deeper(
    b: &Board,
    m: Pos,
    reply_budget: u64,
    deep_budget: u64,
    l2_budget: u64,
    secs: f64,
) -> Deeper {
    let t0 = std::time::Instant::now();
    let a = b.to_move();
    let d = a.opposite();
    let renju = b.rules().rule == crate::brain::types::Rule::Renju;
    if !b.is_empty(m) || (renju && a == Color::Black && rules::is_forbidden(b, m)) {
        return Deeper::Stuck {
            reply: m,
            five: false,
        };
    }
    if rules::is_win(b, m, a) {
        return Deeper::Proven { level2: 0 };
    }
    let stop = AtomicBool::new(false);
    let mut b = b.clone();
    b.make(m, a);
    // Near replies first: the likeliest refutations.
    let mut replies: Vec<Pos> = b.candidates().collect();
    let near = replies.clone();
    replies.extend(b.empty_cells().filter(|p| !near.contains(p)));
    let mut solver = ThreatSolver::new();
    let mut deep = ThreatSolver::new();
    let mut level2 = 0;
    for r in replies {
        if t0.elapsed().as_secs_f64() > secs {
            return Deeper::OutOfTime;
        }
        if renju && d == Color::Black && rules::is_forbidden(&b, r) {
            continue;
        }
        if rules::is_win(&b, r, d) {
            return Deeper::Stuck {
                reply: r,
                five: true,
            };
        }
        b.make(r, d);
        let mut won = solver
            .vct(&mut b, a, MAX_THREATS, reply_budget, &stop)
            .is_some()
            || deep
                .vct(&mut b, a, MAX_THREATS, deep_budget, &stop)
                .is_some();
        if !won {
            let cells: Vec<Pos> = b.candidates().collect();
            won = cells.into_iter().any(|m2| {
                t0.elapsed().as_secs_f64() <= secs && wins_full_width(&b, m2, &[], l2_budget)
            });
            level2 += 1;
        }
        b.unmake();
        if !won {
            return if t0.elapsed().as_secs_f64() > secs {
                Deeper::OutOfTime
            } else {
                Deeper::Stuck {
                    reply: r,
                    five: false,
                }
            };
        }
    }
    Deeper::Proven { level2 }
}

/// `sente-lab reach-claims [--ms MS | --nodes N]… [--secs S] [--jobs N]
/// [--out FILE]`: every tactical position searched at each limit (default
/// 500 ms, 200000 nodes, 1000000 nodes, 2000 ms; one at a time), the moves
/// played with a win score outside the answer set collected, and each
/// tried by `wins_deeper` (200000 / 2000000 nodes per reply, level 2 at
/// `--l2` nodes (default `L2_NODES`), `S` seconds per move, `N` moves at a
/// time). With `--out`, the
/// reach file with the proven moves added to their answer sets.
pub fn main_claims(args: &[String]) -> i32 {
    let mut limits = Vec::new();
    let (mut secs, mut jobs, mut out, mut l2) = (300.0f64, 2usize, None, L2_NODES);
    let mut i = 0;
    while i < args.len() {
        let v = args.get(i + 1);
        let n = v.and_then(|v| v.parse::<u64>().ok());
        match (args[i].as_str(), n) {
            ("--ms", Some(n)) => limits.push(Limit::Ms(n)),
            ("--nodes", Some(n)) => limits.push(Limit::Nodes(n)),
            ("--secs", Some(n)) => secs = n as f64,
            ("--jobs", Some(n)) => jobs = n.max(1) as usize,
            ("--l2", Some(n)) => l2 = n,
            ("--out", _) if v.is_some() => out = v.cloned(),
            _ => {
                eprintln!("usage: sente-lab reach-claims [--ms MS | --nodes N]... [--secs S] [--l2 N] [--jobs N] [--out FILE]");
                return 2;
            }
        }
        i += 2;
    }
    if limits.is_empty() {
        limits = vec![
            Limit::Ms(500),
            Limit::Nodes(200_000),
            Limit::Nodes(1_000_000),
            Limit::Ms(2000),
        ];
    }
    let mut ps = positions();
    // (position index, move, limits that claimed it)
    let mut claims: Vec<(usize, Pos, Vec<String>)> = Vec::new();
    for (pi, p) in ps.iter().enumerate() {
        if p.kind != Kind::Win {
            continue;
        }
        for &l in &limits {
            let s = search(p, l);
            let line = s.judge(&p.name, p.kind, &p.answer_cells(&s.board));
            let claimed = line.other_claim
                || (!line.solved && crate::brain::types::is_mate_score(s.score) && s.score > 0);
            if !claimed {
                continue;
            }
            let tag = match l {
                Limit::Ms(ms) => format!("{ms}ms"),
                Limit::Nodes(n) => format!("{n}n"),
            };
            eprintln!("{}: {:?} claims {},{}", p.name, l, line.best.0, line.best.1);
            match claims.iter_mut().find(|c| c.0 == pi && c.1 == s.best) {
                Some(c) => c.2.push(tag),
                None => claims.push((pi, s.best, vec![tag])),
            }
        }
    }
    let next = std::sync::atomic::AtomicUsize::new(0);
    let done = std::sync::Mutex::new(Vec::new());
    std::thread::scope(|sc| {
        for _ in 0..jobs {
            sc.spawn(|| loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some((pi, m, _)) = claims.get(i) else {
                    break;
                };
                let b = ps[*pi].board().expect("reach position");
                let t = std::time::Instant::now();
                let r = wins_deeper(&b, *m, REPLY_NODES, ANSWER_NODES, l2, secs);
                eprintln!(
                    "{} {:?}: {:?} ({:.0} s)",
                    ps[*pi].name,
                    b.xy(*m),
                    r,
                    t.elapsed().as_secs_f64()
                );
                done.lock().expect("no poisoning").push((i, r));
            });
        }
    });
    let mut done = done.into_inner().expect("no poisoning");
    done.sort_by_key(|d| d.0);
    let mut added: Vec<(usize, (i64, i64))> = Vec::new();
    for (i, r) in &done {
        let (pi, m, tags) = &claims[*i];
        let b = ps[*pi].board().expect("reach position");
        let (x, y) = b.xy(*m);
        let what = match r {
            Deeper::Proven { level2 } => {
                added.push((*pi, (x as i64, y as i64)));
                format!("PROVEN ({level2} replies by level 2)")
            }
            Deeper::Stuck { reply, five } => {
                let (rx, ry) = b.xy(*reply);
                if *five {
                    format!("REFUTED: reply {rx},{ry} makes five")
                } else {
                    // After m and the reply: is the mover's VCT search
                    // complete without a win (still no proof of no win)?
                    let mut c = b.clone();
                    c.make(*m, c.to_move());
                    c.make(*reply, c.to_move());
                    let a = c.to_move();
                    let none = no_threat_win(&mut c, a, true, PROVE_VCT_NODES);
                    format!(
                        "not proven: stuck at reply {rx},{ry} ({})",
                        if none {
                            "the mover's VCT search ends without a win there"
                        } else {
                            "VCT search out of nodes there"
                        }
                    )
                }
            }
            Deeper::OutOfTime => format!("not proven: out of time ({secs} s)"),
        };
        println!("{}\t{x},{y}\t{}\t{what}", ps[*pi].name, tags.join(","));
    }
    if let Some(path) = out {
        let mut notes = Vec::new();
        for &(pi, m) in &added {
            if !ps[pi].answers.contains(&m) {
                ps[pi].answers.push(m);
            }
            notes.push(format!("{} {},{}", ps[pi].name, m.0, m.1));
        }
        let mut text = String::new();
        for l in REACH_TXT.lines().filter(|l| l.starts_with('#')) {
            let _ = writeln!(text, "{l}");
        }
        if !notes.is_empty() {
            let _ = writeln!(
                text,
                "# Added by `sente-lab reach-claims --out` (`wins_deeper`: every\n\
                 # reply leaves a VCT within {ANSWER_NODES} nodes, or a mover move after which\n\
                 # every reply leaves one within {l2}): {}",
                notes.join(", ")
            );
        }
        for p in &ps {
            let _ = writeln!(text, "{}", p.line());
        }
        if let Err(e) = std::fs::write(&path, text) {
            eprintln!("{path}: {e}");
            return 1;
        }
    }
    0
}
