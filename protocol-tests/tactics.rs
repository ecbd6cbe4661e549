//! Tactics suite for the threat-space solver (`search::threat`): generated
//! middle-game positions under every rule on 15×15 and 20×20 boards (some
//! played into a corner), checked against two references written here from
//! the rules module alone (`is_win`, `is_forbidden`; no pattern tables, no
//! solver code): a VCF reference and a threat-space VCT reference (`RefVct`,
//! whose notion of "a win within N threats" is documented on the type).
//!
//! - VCF wins: the reference computes the full set of winning first moves
//!   (up to `REF_DEPTH` free fours); the solver must find a win and start it
//!   with one of those moves, its line must replay as legal forced play, and
//!   after every move of the set and every block the solver must still win.
//! - VCT wins (no short VCF): `RefVct` computes the full set of winning
//!   first moves within `REF_VCT_THREATS` threats. The solver, asked for a
//!   VCT within the same bound, must find one starting in that set; and for
//!   every move of the set, after every legal defender reply (full width),
//!   the solver must still find a VCT within the remaining bound.
//! - No win: `RefVct` proves there is no VCT within the bound and the VCF
//!   reference proves there is no VCF at any depth; the solver must claim
//!   neither.
//!
//! Figures (positions, solve rate, false claims, median and 90th-percentile
//! solver time, nodes/s, sets checked, no-win proofs) go to stderr:
//! `cargo test --release --test tactics -- --nocapture`.

use std::collections::BTreeMap;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use sente::brain::game::rules::{is_forbidden, is_win};
use sente::brain::game::zobrist::SplitMix64;
use sente::brain::game::{Board, Pos};
use sente::brain::search::threat::ThreatSolver;
use sente::brain::types::{Color, Rule, RuleSet};

/// The suite's folder, `protocol-tests/tactics/`: a crate root's inline
/// module resolves its files there.
mod tactics {
    pub mod reference;
}
use tactics::reference::*;

const VCT_NODES: u64 = 1_000_000;

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
    vct_expected: usize,
    vct_solved: usize,
    none: usize,
    false_claims: usize,
    /// Positions skipped because a reference hit its node cap.
    ref_capped: usize,
    /// VCT wins whose full reference winning set was checked both ways.
    vct_sets: usize,
    /// Moves in those sets (each one checked against every reply).
    vct_set_moves: usize,
    /// Defender replies checked with the solver over all sets.
    replies_checked: usize,
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
    /// Seconds in the references and in the full-width set checks.
    ref_secs: f64,
    check_secs: f64,
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

/// Does `a`'s move `q` keep the win, as the solver sees it from the
/// defender's side? After `q`, every legal defender reply (only the blocks
/// when `q` is a four; none legal: won) must leave the solver a VCT of at
/// most `threats` threats. Returns the number of replies checked.
fn survives_all_replies(
    solver: &mut ThreatSolver,
    b: &mut Board,
    a: Color,
    q: Pos,
    threats: u32,
    stop: &AtomicBool,
) -> Result<usize, String> {
    let d = a.opposite();
    if forbidden(b, a, q) {
        return Err(format!("{:?} is forbidden", b.xy(q)));
    }
    if is_win(b, q, a) {
        return Ok(0);
    }
    b.make(q, a);
    let res = (|| {
        if !win_points(b, d).is_empty() {
            return Err(format!("{:?} leaves the defender a five", b.xy(q)));
        }
        let blocks = win_points(b, a);
        let replies: Vec<Pos> = if blocks.is_empty() {
            b.empty_cells().collect()
        } else {
            blocks
        };
        let mut n = 0;
        for m in replies {
            if forbidden(b, d, m) {
                continue;
            }
            n += 1;
            b.make(m, d);
            let r = solver.vct(b, a, threats, VCT_NODES, stop);
            b.unmake();
            if r.is_none() {
                return Err(format!(
                    "after {:?}, reply {:?} refutes it for the solver",
                    b.xy(q),
                    b.xy(m)
                ));
            }
        }
        Ok(n)
    })();
    b.unmake();
    res
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
    let xy = |b: &Board, s: &[Pos]| s.iter().map(|&p| b.xy(p)).collect::<Vec<_>>();
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
                let t_ref = Instant::now();
                let mut reference = Reference { nodes: 0 };
                let set = reference.winning_moves(&mut b, a, REF_DEPTH);
                tally.ref_secs += t_ref.elapsed().as_secs_f64();
                let Some(set) = set else {
                    tally.ref_capped += 1;
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
                if vct >= 8 && none >= 7 {
                    continue;
                }
                // No short VCF: the reference VCT's full winning set.
                let t_ref = Instant::now();
                let mut rv = RefVct::new(&b);
                let vct_set = rv.winning_moves(&mut b, a, REF_VCT_THREATS);
                tally.ref_secs += t_ref.elapsed().as_secs_f64();
                let Some(vct_set) = vct_set else {
                    tally.ref_capped += 1;
                    continue;
                };
                if vct_set.is_empty() {
                    if none >= 7 {
                        continue;
                    }
                    // No win: no VCT within the bound (just proven) and no
                    // VCF at any depth.
                    let t_ref = Instant::now();
                    let mut deep = Reference { nodes: 0 };
                    let no_vcf = deep.vcf(&mut b, a, 60);
                    tally.ref_secs += t_ref.elapsed().as_secs_f64();
                    match no_vcf {
                        None => {
                            tally.ref_capped += 1;
                            continue;
                        }
                        Some(true) => continue, // a long VCF: not a no-win position
                        Some(false) => {}
                    }
                    solver.clear();
                    let t0 = Instant::now();
                    let line = solver.vcf(&mut b, a, 1_000_000, &stop);
                    let mut nodes = solver.nodes();
                    solver.clear();
                    let vline = solver.vct(&mut b, a, REF_VCT_THREATS, VCT_NODES, &stop);
                    nodes += solver.nodes();
                    let dt = t0.elapsed().as_secs_f64();
                    tally.times_ms.push(dt * 1000.0);
                    tally.secs += dt;
                    tally.nodes += nodes;
                    if let Some(l) = line.or(vline) {
                        tally.false_claims += 1;
                        eprintln!(
                            "tactics: FALSE CLAIM {:?} (reference: no VCF, no VCT within \
                             {REF_VCT_THREATS})\n{b:?}",
                            xy(&b, &l)
                        );
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
                vct += 1;
                tally.vct_expected += 1;
                solver.clear();
                let line = timed(&mut tally, &mut solver, |s| {
                    s.vct(&mut b, a, REF_VCT_THREATS, VCT_NODES, &stop)
                });
                let Some(line) = line else {
                    eprintln!(
                        "tactics: MISSED VCT, reference set {:?}\n{b:?}",
                        xy(&b, &vct_set)
                    );
                    continue;
                };
                replay(&b, a, &line, false).unwrap_or_else(|e| panic!("{e}: {line:?}\n{b:?}"));
                // Both ways: the solver's first move is in the reference's
                // full winning set (its win is within the same bound), and
                // every move of that set wins for the solver too, against
                // every defender reply.
                assert!(
                    vct_set.contains(&line[0]),
                    "{:?} not in {:?}: {:?}\n{b:?}",
                    b.xy(line[0]),
                    xy(&b, &vct_set),
                    xy(&b, &line)
                );
                let t_check = Instant::now();
                for &q in &vct_set {
                    let n =
                        survives_all_replies(&mut solver, &mut b, a, q, REF_VCT_THREATS - 1, &stop)
                            .unwrap_or_else(|e| panic!("set {:?}: {e}\n{b:?}", xy(&b, &vct_set)));
                    tally.replies_checked += n;
                }
                tally.check_secs += t_check.elapsed().as_secs_f64();
                tally.vct_sets += 1;
                tally.vct_set_moves += vct_set.len();
                tally.vct_solved += 1;
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
    let wins = tally.vcf_expected + tally.vct_expected;
    let solved = tally.vcf_solved + tally.vct_solved;
    eprintln!(
        "tactics: {} positions ({} VCF, {} VCT, {} without a win); solve rate {}/{} \
         ({:.1}%); false claims {}; median {:.2} ms, p90 {:.2} ms per position",
        wins + tally.none,
        tally.vcf_expected,
        tally.vct_expected,
        tally.none,
        solved,
        wins,
        100.0 * solved as f64 / wins.max(1) as f64,
        tally.false_claims,
        pct(0.5),
        pct(0.9),
    );
    eprintln!(
        "tactics: wins for Black {}, for White {}; {} lines with counter-fours, {} renju \
         lines near forbidden points",
        tally.wins_by_color[0],
        tally.wins_by_color[1],
        tally.counter_four_lines,
        tally.renju_forbidden_lines,
    );
    eprintln!(
        "tactics: reference VCT (within {} threats): {} VCT wins checked against their full \
         winning sets (average {:.2} moves, {} defender replies re-solved); {} no-win \
         positions proven (no VCT within {}, no VCF at all); {} positions skipped at a \
         reference node cap (at most {})",
        REF_VCT_THREATS,
        tally.vct_sets,
        tally.vct_set_moves as f64 / tally.vct_sets.max(1) as f64,
        tally.replies_checked,
        tally.none,
        REF_VCT_THREATS,
        tally.ref_capped,
        MAX_REF_CAPPED,
    );
    eprintln!(
        "tactics: solver {} nodes in {:.3} s = {:.0} nodes/s",
        tally.nodes,
        tally.secs,
        tally.nodes as f64 / tally.secs.max(1e-9)
    );
    eprintln!(
        "tactics: time in the references {:.1} s, in the full-width set checks {:.1} s",
        tally.ref_secs, tally.check_secs
    );
    for (cat, n) in &tally.cats {
        eprintln!("tactics: category {cat}: {n}");
    }
    assert_eq!(tally.false_claims, 0);
    assert_eq!(solved, wins, "unsolved win positions");
    assert_eq!(tally.vct_sets, tally.vct_expected);
    assert!(
        tally.ref_capped <= MAX_REF_CAPPED,
        "{} capped",
        tally.ref_capped
    );
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
    assert!(wins >= 150);
    assert!(tally.none >= 50);
    assert!(tally.wins_by_color.iter().all(|&n| n >= 40));
}
