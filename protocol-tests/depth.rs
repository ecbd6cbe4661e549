//! `sente-arena depth`: the depth report through the protocol. The real
//! binary drives the built brain over the first position of each rule at a
//! small turn time: every position must report iterations read from the
//! brain's MESSAGE lines, deeper and with more nodes one after the other;
//! the summary must have a row per rule and one for all; the TSV must hold
//! exactly the iterations the lines show. The arena's random fake engine
//! sends no search MESSAGE lines: its positions must show none.

#[path = "harness/mod.rs"]
mod harness;

use std::process::Command;
use std::time::Duration;

use harness::arena_args::{fake, ARENA};
use harness::BIN as BRAIN;

/// No depth run in these tests may take longer than this (a hang fails).
const BOUND: Duration = Duration::from_secs(90);

/// Run `sente-arena depth --engine ENGINE --ms 600 --per-rule 1 --out FILE`:
/// 600 ms, not less: a fresh engine builds its rule's tables at START, and
/// on two loaded cores that took the whole of a 150 ms turn (no iteration).
/// (stdout, TSV).
fn depth(engine: &str) -> (String, String) {
    let dir = harness::temp_dir("depth", "run");
    let tsv = dir.join("depth.tsv");
    let o = harness::run_bounded(
        Command::new(ARENA)
            .args([
                "depth",
                "--engine",
                engine,
                "--ms",
                "600",
                "--per-rule",
                "1",
            ])
            .args(["--memory", "64M", "--tolerance", "2000", "--out"])
            .arg(&tsv),
        BOUND,
    );
    let stdout = String::from_utf8_lossy(&o.stdout).into_owned();
    assert!(
        o.status.success(),
        "sente-arena depth failed: {}\n{stdout}\n{}",
        o.status,
        String::from_utf8_lossy(&o.stderr)
    );
    let tsv = std::fs::read_to_string(&tsv).expect("TSV written");
    (stdout, tsv)
}

/// The per-position lines' iteration series `depth:nodes`, one per rule.
fn series(out: &str) -> Vec<(String, Vec<(u32, u64)>)> {
    out.lines()
        .filter(|l| ["fs-", "std-", "renju-"].iter().any(|p| l.starts_with(p)))
        .map(|l| {
            let name = l.split_whitespace().next().unwrap().to_string();
            let it = l
                .split_whitespace()
                .filter_map(|t| {
                    let (d, n) = t.split_once(':')?;
                    Some((d.parse().ok()?, n.parse().ok()?))
                })
                .collect();
            (name, it)
        })
        .collect()
}

/// The summary row of `label`: its positions column.
fn row_positions(out: &str, label: &str) -> Option<usize> {
    out.lines()
        .find(|l| l.split_whitespace().next() == Some(label))?
        .split_whitespace()
        .nth(1)?
        .parse()
        .ok()
}

#[test]
fn the_brain_reports_its_iterations_through_the_protocol() {
    let (out, tsv) = depth(BRAIN);
    let lines = series(&out);
    assert_eq!(lines.len(), 3, "one line per rule:\n{out}");
    let mut total = 0;
    for (name, it) in &lines {
        assert!(it.len() >= 2, "{name}: too few iterations:\n{out}");
        for w in it.windows(2) {
            assert!(w[1].0 > w[0].0 && w[1].1 >= w[0].1, "{name}: {it:?}");
        }
        total += it.len();
        // The TSV holds the same iterations.
        let rows: Vec<(u32, u64)> = tsv
            .lines()
            .filter(|r| r.split('\t').nth(2) == Some(name.as_str()))
            .map(|r| {
                let f: Vec<&str> = r.split('\t').collect();
                (f[4].parse().unwrap(), f[5].parse().unwrap())
            })
            .collect();
        assert_eq!(&rows, it, "{name}: TSV and line differ\n{tsv}");
    }
    assert_eq!(tsv.lines().count(), 1 + total, "{tsv}");
    for rule in ["freestyle", "standard", "renju"] {
        assert_eq!(row_positions(&out, rule), Some(1), "{rule}:\n{out}");
    }
    assert_eq!(row_positions(&out, "all"), Some(3), "{out}");
    assert!(!out.contains("Failures"), "{out}");
}

#[test]
fn an_engine_without_search_messages_reports_none() {
    let (out, tsv) = depth(&fake("random"));
    let lines = series(&out);
    assert_eq!(lines.len(), 3, "{out}");
    assert!(lines.iter().all(|(_, it)| it.is_empty()), "{out}");
    assert!(out.contains("(1 without an iteration)"), "{out}");
    assert_eq!(tsv.lines().count(), 1, "{tsv}");
}
