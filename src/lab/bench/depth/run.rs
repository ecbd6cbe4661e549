//! `pbrain-sente bench depth` in process: each position searched through
//! the `Engine` facade as the other benches search (`setup::fresh_search`:
//! one thread, a fresh table built before the clock starts, the run's
//! switches and evaluation), each completed iteration's depth, nodes and
//! time recorded from the engine's reports.

use std::time::Instant;

use super::suite::{header, line_text, push_iter, summary_text, DepthLine, DepthPos, Iter};
use crate::lab::bench::reach::run::Limit;
use crate::lab::bench::setup::fresh_search;

/// Search `p` within `limit` and record its iterations.
pub fn search_line(p: &DepthPos, limit: Limit) -> DepthLine {
    let board = p.board().expect("depth position");
    let mut iters = Vec::new();
    fresh_search(&board, p.rule, || limit.limits(), &mut |info, ms| {
        push_iter(
            &mut iters,
            Iter {
                depth: info.depth,
                nodes: info.nodes,
                ms,
            },
        )
    });
    DepthLine {
        name: p.name.clone(),
        rule: p.rule,
        limit: limit.text(),
        iters,
        failure: None,
    }
}

/// Search every position at each limit, printing a line each and a summary
/// per limit; returns every line.
pub fn run(ps: &[DepthPos], limits: &[Limit]) -> Vec<DepthLine> {
    let mut all = Vec::new();
    for (j, &limit) in limits.iter().enumerate() {
        if j > 0 {
            println!();
        }
        println!(
            "depth: {} positions, {}, in process",
            ps.len(),
            limit.text()
        );
        println!("{}", header());
        let t0 = Instant::now();
        let mut lines = Vec::new();
        for p in ps {
            let l = search_line(p, limit);
            println!("{}", line_text(&l));
            lines.push(l);
        }
        print!("{}", summary_text(&limit.text(), &lines));
        println!("Run time        : {:.1} s", t0.elapsed().as_secs_f64());
        all.extend(lines);
    }
    all
}

#[cfg(test)]
mod tests {
    use super::super::suite::positions;
    use super::*;

    /// Three positions (one per rule) at a small node budget: iterations
    /// are reported in increasing depth with non-decreasing nodes and time,
    /// and a node-limited search is deterministic.
    #[test]
    fn iterations_are_monotone_and_deterministic() {
        let ps = positions();
        for rule in [0, 1, 4] {
            let p = ps.iter().find(|p| p.rule == rule).unwrap();
            let a = search_line(p, Limit::Nodes(20_000));
            assert!(a.iters.len() >= 2, "{}: {:?}", p.name, a.iters);
            for w in a.iters.windows(2) {
                assert!(w[1].depth > w[0].depth, "{}: {:?}", p.name, a.iters);
                assert!(w[1].nodes >= w[0].nodes, "{}: {:?}", p.name, a.iters);
                assert!(w[1].ms >= w[0].ms, "{}: {:?}", p.name, a.iters);
            }
            assert!(a.last().unwrap().nodes <= 20_000 + 5_000, "{:?}", a.iters);
            let b = search_line(p, Limit::Nodes(20_000));
            let nodes = |l: &DepthLine| {
                l.iters
                    .iter()
                    .map(|i| (i.depth, i.nodes))
                    .collect::<Vec<_>>()
            };
            assert_eq!(nodes(&a), nodes(&b));
            assert!(super::super::suite::ebf(&a.iters).unwrap() > 1.0);
        }
    }
}
