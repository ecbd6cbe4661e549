//! `pbrain-sente bench threats`: the threat solver's speed (it was an
//! ignored unit test that only printed). The 19-four ladder's VCF; per
//! rule, the pattern table's build time and VCF and VCT(6) node rates on
//! 200 random middle-game positions; then VCTs of 8 or more threats on
//! game-like positions (15×15, every rule): time and nodes per solve, at
//! most 90 s. Correctness is the unit tests' and the tactics suite's.

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use crate::brain::game::pattern::{table, PatternTable};
use crate::brain::game::rules::is_win;
use crate::brain::game::testutil::{ladder, Area, Colours, RandomBoard, LADDER_DIRS, LADDER_FOURS};
use crate::brain::game::zobrist::SplitMix64;
use crate::brain::game::Board;
use crate::brain::search::threat::ThreatSolver;
use crate::brain::types::{Color, Rule, RuleSet};

/// Print the report; returns the exit code.
pub fn main_threats() -> i32 {
    ladder_and_rules();
    long_vct();
    0
}

fn ladder_and_rules() {
    let mut b = ladder(LADDER_FOURS, LADDER_DIRS, [true; 4]).expect("the ladder fits");
    let _ = table(Rule::Freestyle);
    let mut solver = ThreatSolver::new();
    let t0 = Instant::now();
    let l = solver.vcf(&mut b, Color::Black, 10_000_000, &AtomicBool::new(false));
    println!(
        "ladder VCF of {LADDER_FOURS} fours: {} plies, {} nodes, {:?}",
        l.map_or(0, |l| l.len()),
        solver.nodes(),
        t0.elapsed()
    );
    let mut rng = SplitMix64::new(4242);
    for rule in Rule::ALL {
        let t0 = Instant::now();
        let _ = PatternTable::build(rule);
        println!("{} pattern table built in {:?}", rule.name(), t0.elapsed());
        let _ = table(rule);
        let mut slowest = 0.0f64;
        let mut solver = ThreatSolver::new();
        let (mut nodes, mut found, mut vnodes, mut vfound) = (0u64, 0, 0u64, 0);
        let (mut t_vcf, mut t_vct) = (0.0, 0.0);
        let mut longest = 0;
        let gen = RandomBoard::square(15, RuleSet::from(rule))
            .stones(20, 50)
            .area(Area::Centre(9))
            .colours(Colours::WhiteEvery(2))
            .no_five();
        for _ in 0..200 {
            let Some(mut b) = gen.board(&mut rng) else {
                continue;
            };
            let stop = AtomicBool::new(false);
            let t0 = Instant::now();
            let r = solver.vcf(&mut b, Color::Black, 1_000_000, &stop);
            t_vcf += t0.elapsed().as_secs_f64();
            slowest = slowest.max(t0.elapsed().as_secs_f64());
            nodes += solver.nodes();
            if let Some(l) = &r {
                found += 1;
                longest = longest.max(l.len());
            }
            let t0 = Instant::now();
            let r = solver.vct(&mut b, Color::Black, 6, 200_000, &stop);
            t_vct += t0.elapsed().as_secs_f64();
            vnodes += solver.nodes();
            vfound += r.is_some() as usize;
        }
        println!(
            "{}: slowest VCF call {:.2} ms",
            rule.name(),
            slowest * 1000.0
        );
        println!(
            "{}: VCF {found} found, longest {longest} plies, {nodes} nodes, {:.0} nodes/s; VCT(6) {vfound} found, {vnodes} nodes, {:.0} nodes/s, {:.2}s",
            rule.name(),
            nodes as f64 / t_vcf,
            vnodes as f64 / t_vct,
            t_vct
        );
    }
}

/// Whether `c` has a five point on `b`.
fn can_win(b: &Board, c: Color) -> bool {
    b.empty_cells().any(|e| is_win(b, e, c))
}

fn long_vct() {
    let stop = AtomicBool::new(false);
    let mut rng = SplitMix64::new(0x8_7C7);
    let mut solver = ThreatSolver::new();
    for rule in Rule::ALL {
        let _ = table(rule);
    }
    let (mut times, mut nodes, mut secs) = (Vec::new(), 0u64, 0.0f64);
    let (mut tried, mut longest) = (0, 0);
    // Bounded report: at most 90 s of wall time on a busy machine.
    let start = Instant::now();
    while times.len() < 10 && tried < 600 && start.elapsed().as_secs() < 90 {
        tried += 1;
        let rule = Rule::ALL[tried % 4];
        // A game-like position: 20 to 39 stones within two cells of
        // earlier ones, legal for the rule, nobody has won.
        let Some(mut b) = RandomBoard::square(15, RuleSet::from(rule))
            .stones(20, 40)
            .area(Area::Near(5))
            .legal_only()
            .board(&mut rng)
        else {
            continue;
        };
        let a = b.to_move();
        if can_win(&b, a) || can_win(&b, a.opposite()) {
            continue;
        }
        solver.clear();
        if solver.vcf(&mut b, a, 1_000_000, &stop).is_some() {
            continue; // a VCF, not the VCT measured here
        }
        solver.clear();
        let t0 = Instant::now();
        let r = solver.vct(&mut b, a, 12, 400_000, &stop);
        let dt = t0.elapsed().as_secs_f64();
        let Some(l) = r else { continue };
        let threats = l.len().div_ceil(2);
        if threats < 8 {
            continue;
        }
        longest = longest.max(threats);
        times.push(dt * 1000.0);
        nodes += solver.nodes();
        secs += dt;
    }
    times.sort_by(|x, y| x.total_cmp(y));
    if times.is_empty() {
        println!("VCT of 8+ threats: none found in {tried} positions");
        return;
    }
    let pct = |q: f64| times[((times.len() - 1) as f64 * q) as usize];
    println!(
        "VCT of 8+ threats: {} positions (of {tried} tried), longest {longest} threats; \
         median {:.1} ms, p90 {:.1} ms, max {:.1} ms; {:.0} nodes/s",
        times.len(),
        pct(0.5),
        pct(0.9),
        pct(1.0),
        nodes as f64 / secs.max(1e-9)
    );
}
