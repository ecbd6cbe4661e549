//! Tactics suite for the threat-space solver (`search::threat`): generated
//! middle-game positions under every rule on 15×15 and 20×20 boards (some
//! played into a corner), checked against a reference VCF written here from
//! the rules module alone (`is_win`, `is_forbidden`; no pattern tables).
//!
//! - VCF wins: the reference computes the full set of winning first moves
//!   (up to `REF_DEPTH` free fours); the solver must find a win and start it
//!   with one of those moves, and its line must replay as legal forced play.
//! - VCT wins (no short VCF): the solver's first move is checked against
//!   every legal reply of the defender, full width.
//! - No win: the reference proves there is no VCF at any depth; the solver
//!   must not claim one.
//!
//! Figures (solve rate, median and 90th-percentile solver time) go to stderr:
//! `cargo test --release --test tactics -- --nocapture`.

use std::collections::BTreeMap;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use sente::game::rules::{is_forbidden, is_win};
use sente::game::zobrist::SplitMix64;
use sente::game::{Board, Pos};
use sente::search::threat::ThreatSolver;
use sente::types::{Color, Rule, RuleSet};

/// Free attacker fours the reference looks through for the winning set.
const REF_DEPTH: u32 = 2;
/// Reference node cap; positions that need more are skipped.
const REF_NODES: u64 = 20_000;
const VCT_THREATS: u32 = 4;
const VCT_NODES: u64 = 100_000;

fn forbidden(b: &Board, c: Color, p: Pos) -> bool {
    c == Color::Black && is_forbidden(b, p)
}

fn win_points(b: &Board, c: Color) -> Vec<Pos> {
    b.empty_cells().filter(|&e| is_win(b, e, c)).collect()
}

/// Five points of `c` on the lines through `q` (within four cells).
fn local_wins(b: &Board, c: Color, q: Pos) -> Vec<Pos> {
    let mut out = Vec::new();
    for off in b.dirs() {
        for dist in (-4isize..=-1).chain(1..=4) {
            let e = q.offset(dist * off);
            if b.in_board(e) && b.is_empty(e) && is_win(b, e, c) && !out.contains(&e) {
                out.push(e);
            }
        }
    }
    out
}

struct Reference {
    nodes: u64,
}

impl Reference {
    /// Does attacker `a` (to move) win by continuous fours within `depth`
    /// free fours? None when the node cap was hit.
    fn vcf(&mut self, b: &mut Board, a: Color, depth: u32) -> Option<bool> {
        self.nodes += 1;
        if self.nodes > REF_NODES {
            return None;
        }
        if !win_points(b, a).is_empty() {
            return Some(true);
        }
        for q in self.candidates(b, a, depth)? {
            if self.wins_with(b, a, q, depth)? {
                return Some(true);
            }
        }
        Some(false)
    }

    /// The attacker's moves worth trying: the forced blocks when the
    /// defender has a five point, otherwise every four.
    fn candidates(&mut self, b: &mut Board, a: Color, depth: u32) -> Option<Vec<Pos>> {
        let dfive = win_points(b, a.opposite());
        if !dfive.is_empty() {
            return Some(dfive);
        }
        if depth == 0 {
            return Some(vec![]);
        }
        let mut out = vec![];
        for q in b.empty_cells().collect::<Vec<_>>() {
            if b.near_count(q) == 0 {
                continue;
            }
            b.make(q, a);
            if !local_wins(b, a, q).is_empty() {
                out.push(q);
            }
            b.unmake();
        }
        Some(out)
    }

    /// Does the four (or forced block) `q` win?
    fn wins_with(&mut self, b: &mut Board, a: Color, q: Pos, depth: u32) -> Option<bool> {
        let d = a.opposite();
        if forbidden(b, a, q) {
            return Some(false);
        }
        let free = win_points(b, d).is_empty();
        if is_win(b, q, a) {
            return Some(true);
        }
        b.make(q, a);
        let res = (|| {
            if !win_points(b, d).is_empty() {
                return Some(false);
            }
            let af = win_points(b, a);
            if af.is_empty() {
                return Some(false);
            }
            for w in af {
                if forbidden(b, d, w) {
                    continue;
                }
                b.make(w, d);
                let r = self.vcf(b, a, depth - free as u32);
                b.unmake();
                if !r? {
                    return Some(false);
                }
            }
            Some(true)
        })();
        b.unmake();
        res
    }

    /// Every winning first move within `depth` free fours.
    fn winning_moves(&mut self, b: &mut Board, a: Color, depth: u32) -> Option<Vec<Pos>> {
        if let Some(&p) = win_points(b, a).first() {
            return Some(vec![p]);
        }
        let mut out = vec![];
        for q in self.candidates(b, a, depth)? {
            if self.wins_with(b, a, q, depth)? {
                out.push(q);
            }
        }
        Some(out)
    }
}

/// Replay a solver line: attacker moves legal, defender moves forced
/// blocks, ends in a five (or a renju four Black cannot block).
fn replay(b: &Board, a: Color, line: &[Pos], vcf: bool) -> Result<(), String> {
    let mut b = b.clone();
    let d = a.opposite();
    for (i, &m) in line.iter().enumerate() {
        if !b.in_board(m) || !b.is_empty(m) {
            return Err(format!("move {i} not on an empty cell"));
        }
        let last = i + 1 == line.len();
        if i % 2 == 0 {
            if forbidden(&b, a, m) {
                return Err(format!("move {i} forbidden"));
            }
            if is_win(&b, m, a) {
                return if last {
                    Ok(())
                } else {
                    Err("play after a five".into())
                };
            }
            b.make(m, a);
            let w = win_points(&b, a);
            if vcf && w.is_empty() {
                return Err(format!("move {i} is no four"));
            }
            if last {
                let ok = b.rules().rule == Rule::Renju
                    && d == Color::Black
                    && !w.is_empty()
                    && w.iter().all(|&p| forbidden(&b, d, p));
                return if ok {
                    Ok(())
                } else {
                    Err("line ends without a win".into())
                };
            }
        } else {
            if !win_points(&b, d).is_empty() {
                return Err(format!("defender had a five before move {i}"));
            }
            let w = win_points(&b, a);
            if !w.is_empty() && !w.contains(&m) {
                return Err(format!("defender move {i} is not a block"));
            }
            b.make(m, d);
        }
    }
    Err("empty line".into())
}

/// A game-like position: `n` moves, each within two cells of earlier stones,
/// legal for the rule and with nobody having won.
fn random_position(rng: &mut SplitMix64, size: usize, rule: Rule, corner: bool) -> Option<Board> {
    let rules = RuleSet {
        rule,
        continuous: false,
    };
    let mut b = Board::square(size, rules).ok()?;
    let (cx, cy) = if corner {
        (2 + rng.below(3) as i64, 2 + rng.below(3) as i64)
    } else {
        let c = size as i64 / 2;
        (c - 2 + rng.below(5) as i64, c - 2 + rng.below(5) as i64)
    };
    let n = 12 + rng.below(16) as usize;
    let first = b.pos(cx, cy)?;
    b.play(first);
    let mut tries = 0;
    while b.move_count() < n {
        tries += 1;
        if tries > 2000 {
            return None;
        }
        let empties: Vec<Pos> = b.empty_cells().filter(|&p| b.near_count(p) > 0).collect();
        let p = empties[rng.below(empties.len() as u64) as usize];
        let c = b.to_move();
        if forbidden(&b, c, p) || is_win(&b, p, c) {
            continue;
        }
        b.play(p);
    }
    Some(b)
}

#[derive(Default)]
struct Tally {
    vcf_expected: usize,
    vcf_solved: usize,
    vct: usize,
    none: usize,
    false_claims: usize,
    times_ms: Vec<f64>,
    renju_forbidden_lines: usize,
    counter_four_lines: usize,
    /// Wins by attacker colour (Black, White).
    wins_by_color: [usize; 2],
    /// Win positions per category (rule, size, colour and kind, edge,
    /// counter-four, renju forbidden points).
    cats: BTreeMap<String, usize>,
    /// Solver nodes and seconds over the timed calls.
    nodes: u64,
    secs: f64,
}

impl Tally {
    fn count(&mut self, cat: String) {
        *self.cats.entry(cat).or_default() += 1;
    }

    /// Record a solved win in every category it belongs to.
    fn win(&mut self, b: &Board, a: Color, kind: &str, corner: bool, line: &[Pos]) {
        self.wins_by_color[a.index()] += 1;
        let (rule, size) = (b.rules().rule, b.width());
        self.count(format!("rule {rule:?}"));
        self.count(format!("size {size}"));
        self.count(format!("{a:?} {kind}"));
        self.count(format!("{rule:?} {size} {kind}"));
        if corner {
            self.count("near an edge".into());
        }
        if has_counter_four(b, a, line) {
            self.counter_four_lines += 1;
            self.count("counter-four".into());
        }
        if line_uses_forbidden(b, a, line) {
            self.renju_forbidden_lines += 1;
            self.count("renju forbidden".into());
        }
    }
}

/// Run one solver call, recording its time and nodes.
fn timed<T>(
    tally: &mut Tally,
    solver: &mut ThreatSolver,
    f: impl FnOnce(&mut ThreatSolver) -> T,
) -> T {
    let t0 = Instant::now();
    let r = f(solver);
    let dt = t0.elapsed().as_secs_f64();
    tally.times_ms.push(dt * 1000.0);
    tally.secs += dt;
    tally.nodes += solver.nodes();
    r
}

/// Does `a`'s threat `q` (already on the board, defender to move) survive
/// every legal defender reply? The check behind every VCT claim.
fn survives_all_replies(
    solver: &mut ThreatSolver,
    b: &mut Board,
    a: Color,
    stop: &AtomicBool,
) -> Result<(), String> {
    let d = a.opposite();
    if !win_points(b, a).is_empty() {
        return Ok(()); // a four: the replay already checked the forced block
    }
    for m in b.empty_cells().collect::<Vec<_>>() {
        if forbidden(b, d, m) {
            continue;
        }
        b.make(m, d);
        let r = solver.vct(b, a, VCT_THREATS, VCT_NODES, stop);
        b.unmake();
        if r.is_none() {
            return Err(format!("reply {:?} refutes the first threat", b.xy(m)));
        }
    }
    Ok(())
}

/// Does the line contain a defender move that was itself a four?
fn has_counter_four(b: &Board, a: Color, line: &[Pos]) -> bool {
    let mut b = b.clone();
    for (i, &m) in line.iter().enumerate() {
        let c = if i % 2 == 0 { a } else { a.opposite() };
        if is_win(&b, m, c) {
            break;
        }
        b.make(m, c);
        if i % 2 == 1 && !local_wins(&b, c, m).is_empty() {
            return true;
        }
    }
    false
}

fn line_uses_forbidden(b: &Board, a: Color, line: &[Pos]) -> bool {
    if b.rules().rule != Rule::Renju {
        return false;
    }
    let mut b = b.clone();
    let mut any = false;
    for (i, &m) in line.iter().enumerate() {
        let c = if i % 2 == 0 { a } else { a.opposite() };
        if is_win(&b, m, c) {
            break;
        }
        b.make(m, c);
        // A White four whose block is forbidden, or Black avoiding one.
        any |= win_points(&b, a)
            .iter()
            .any(|&p| forbidden(&b, Color::Black, p))
            || (c == Color::Black
                && b.empty_cells()
                    .any(|p| b.near_count(p) > 0 && is_forbidden(&b, p)));
    }
    any
}

#[test]
fn tactics_suite() {
    let stop = AtomicBool::new(false);
    let mut rng = SplitMix64::new(0x07AC_71C5);
    let mut tally = Tally::default();
    let mut solver = ThreatSolver::new();
    for rule in Rule::ALL {
        for size in [15usize, 20] {
            let (mut vcf, mut vct, mut none) = (0, 0, 0);
            let mut attempts = 0;
            while (vcf < 12 || vct < 8 || none < 7) && attempts < 3000 {
                attempts += 1;
                let corner = attempts % 4 == 0;
                let Some(mut b) = random_position(&mut rng, size, rule, corner) else {
                    continue;
                };
                let a = b.to_move();
                // Only real puzzles: no five on the board for either side.
                if !win_points(&b, a).is_empty() || !win_points(&b, a.opposite()).is_empty() {
                    continue;
                }
                let mut reference = Reference { nodes: 0 };
                let Some(set) = reference.winning_moves(&mut b, a, REF_DEPTH) else {
                    continue;
                };
                if !set.is_empty() {
                    if vcf >= 12 {
                        continue;
                    }
                    vcf += 1;
                    tally.vcf_expected += 1;
                    solver.clear();
                    let line = timed(&mut tally, &mut solver, |s| {
                        s.vcf(&mut b, a, 1_000_000, &stop)
                    });
                    let line = line.unwrap_or_else(|| panic!("missed VCF {set:?}\n{b:?}"));
                    replay(&b, a, &line, true).unwrap_or_else(|e| panic!("{e}: {line:?}\n{b:?}"));
                    // The solver may find a longer win than the reference
                    // looks for; a short one must start in the winning set.
                    if line.len() <= 2 * REF_DEPTH as usize + 1 {
                        assert!(
                            set.contains(&line[0]),
                            "{:?} not in {set:?}\n{b:?}",
                            line[0]
                        );
                    }
                    // Every move of the full winning set must win for the
                    // solver too, when played first.
                    for &q in &set {
                        if is_win(&b, q, a) {
                            continue;
                        }
                        b.make(q, a);
                        let blocks = win_points(&b, a);
                        for &w in &blocks {
                            if forbidden(&b, a.opposite(), w) {
                                continue;
                            }
                            b.make(w, a.opposite());
                            let r = solver.vcf(&mut b, a, 1_000_000, &stop);
                            b.unmake();
                            assert!(r.is_some(), "winning move {:?} missed\n{b:?}", b.xy(q));
                        }
                        b.unmake();
                    }
                    tally.vcf_solved += 1;
                    tally.win(&b, a, "VCF", corner, &line);
                    continue;
                }
                // No short VCF. Exhaustive reference for "no VCF at all".
                let mut deep = Reference { nodes: 0 };
                let no_vcf = deep.vcf(&mut b, a, 60) == Some(false);
                if no_vcf && none < 7 {
                    solver.clear();
                    let line = timed(&mut tally, &mut solver, |s| {
                        s.vcf(&mut b, a, 1_000_000, &stop)
                    });
                    if let Some(l) = line {
                        tally.false_claims += 1;
                        panic!("false VCF claim {l:?}\n{b:?}");
                    }
                    // No VCT either: any VCT the solver claims must hold
                    // against every reply; a claim that does is a VCT win
                    // and the position is not counted as one without.
                    solver.clear();
                    let vline = timed(&mut tally, &mut solver, |s| {
                        s.vct(&mut b, a, VCT_THREATS, VCT_NODES, &stop)
                    });
                    if let Some(l) = vline {
                        replay(&b, a, &l, false).unwrap_or_else(|e| {
                            tally.false_claims += 1;
                            panic!("false VCT claim ({e}): {l:?}\n{b:?}")
                        });
                        b.make(l[0], a);
                        let ok = survives_all_replies(&mut solver, &mut b, a, &stop);
                        b.unmake();
                        ok.unwrap_or_else(|e| panic!("false VCT claim ({e}): {l:?}\n{b:?}"));
                        continue;
                    }
                    none += 1;
                    tally.none += 1;
                    tally.count(format!("none {rule:?} {size}"));
                    continue;
                }
                if vct >= 8 {
                    continue;
                }
                solver.clear();
                let line = timed(&mut tally, &mut solver, |s| {
                    s.vct(&mut b, a, VCT_THREATS, VCT_NODES, &stop)
                });
                let Some(line) = line else {
                    tally.times_ms.pop();
                    continue;
                };
                replay(&b, a, &line, false).unwrap_or_else(|e| panic!("{e}: {line:?}\n{b:?}"));
                b.make(line[0], a);
                let ok = survives_all_replies(&mut solver, &mut b, a, &stop);
                b.unmake();
                ok.unwrap_or_else(|e| panic!("{e}: {line:?}\n{b:?}"));
                vct += 1;
                tally.vct += 1;
                tally.win(&b, a, "VCT", corner, &line);
            }
            assert!(
                vcf >= 12 && vct >= 8 && none >= 7,
                "{rule:?} {size}: {vcf} {vct} {none}"
            );
        }
    }
    let mut t = tally.times_ms.clone();
    t.sort_by(|x, y| x.partial_cmp(y).unwrap());
    let pct = |q: f64| t[((t.len() - 1) as f64 * q) as usize];
    eprintln!(
        "tactics: {} positions ({} VCF, {} VCT, {} without a win); VCF solve rate {}/{}; \
         false claims {}; median {:.2} ms, p90 {:.2} ms; wins for Black {}, for White {}; \
         {} lines with counter-fours, {} renju lines near forbidden points",
        tally.vcf_expected + tally.vct + tally.none,
        tally.vcf_expected,
        tally.vct,
        tally.none,
        tally.vcf_solved,
        tally.vcf_expected,
        tally.false_claims,
        pct(0.5),
        pct(0.9),
        tally.wins_by_color[0],
        tally.wins_by_color[1],
        tally.counter_four_lines,
        tally.renju_forbidden_lines,
    );
    eprintln!(
        "tactics: solver {} nodes in {:.3} s = {:.0} nodes/s",
        tally.nodes,
        tally.secs,
        tally.nodes as f64 / tally.secs.max(1e-9)
    );
    for (cat, n) in &tally.cats {
        eprintln!("tactics: category {cat}: {n}");
    }
    assert_eq!(tally.vcf_solved, tally.vcf_expected);
    assert_eq!(tally.false_claims, 0);
    // Every listed category is covered explicitly.
    let cat = |k: &str| tally.cats.get(k).copied().unwrap_or(0);
    for rule in Rule::ALL {
        assert!(cat(&format!("rule {rule:?}")) >= 40, "{rule:?}");
        for size in [15, 20] {
            assert!(
                cat(&format!("{rule:?} {size} VCF")) >= 12,
                "{rule:?} {size}"
            );
            assert!(cat(&format!("{rule:?} {size} VCT")) >= 8, "{rule:?} {size}");
            assert!(
                cat(&format!("none {rule:?} {size}")) >= 7,
                "{rule:?} {size}"
            );
        }
    }
    for k in ["Black VCF", "White VCF", "Black VCT", "White VCT"] {
        assert!(cat(k) >= 20, "{k}: {}", cat(k));
    }
    assert!(cat("size 15") >= 75 && cat("size 20") >= 75);
    assert!(cat("near an edge") >= 20, "edge {}", cat("near an edge"));
    assert!(
        cat("counter-four") >= 3,
        "counter-four {}",
        cat("counter-four")
    );
    assert!(
        cat("renju forbidden") >= 5,
        "forbidden {}",
        cat("renju forbidden")
    );
    assert!(tally.vcf_expected + tally.vct >= 150);
    assert!(tally.none >= 50);
    assert!(tally.wins_by_color.iter().all(|&n| n >= 40));
}
