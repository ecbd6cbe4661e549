//! `pbrain-sente bench depth`: a depth and branching report (a diagnostic,
//! not a target). Middle-game positions from games against Rapfi under
//! freestyle, standard and renju (`positions.txt`, compiled in) are each
//! searched at 500 ms and 2 s; each completed iteration's depth, nodes and
//! time are recorded, and per rule and overall the report gives the median
//! depth reached, the median nodes, and the median effective branching
//! factor (`suite::ebf`: the growth of nodes per added ply over the last
//! plies). `sente-arena depth` runs the same positions through the protocol
//! to any brain and reads its MESSAGE lines, so that Rapfi's figures can be
//! read beside ours.
//!
//! - `suite`: the positions, their file format, the EBF and the report
//! - `run`: the suite searched in process (`bench depth`)
//! - `make`: the suite rebuilt from arena records (`sente-lab depth-make`)
//! - `protocol`: the suite played by any brain (`sente-arena depth`)

pub mod make;
pub mod protocol;
pub mod run;
pub mod suite;

use crate::lab::bench::reach::run::Limit;
use suite::{first_per_rule, positions, tsv, DEFAULT_MS};

pub const USAGE: &str = "usage: pbrain-sente bench depth [--ms MS]... [--per-rule N] [--out FILE] [--eval auto|classic|net] [SWITCHES]";

/// `bench depth [--ms MS]... [--per-rule N] [--out FILE]` (the first N
/// positions of each rule; TSV of every iteration to FILE) (`args`: the
/// words after `bench`, `depth` first).
pub fn main_depth(args: &[String]) -> i32 {
    let mut limits = Vec::new();
    let (mut out, mut per_rule) = (None, None);
    let mut i = 1;
    while i < args.len() {
        let v = args.get(i + 1);
        match (args[i].as_str(), v) {
            ("--ms", Some(v)) if v.parse::<u64>().is_ok_and(|m| m > 0) => {
                limits.push(Limit::Ms(v.parse().expect("checked")))
            }
            ("--out", Some(v)) => out = Some(v.clone()),
            ("--per-rule", Some(v)) if v.parse::<usize>().is_ok() => {
                per_rule = Some(v.parse().expect("checked"))
            }
            _ => {
                eprintln!("{USAGE}");
                return 2;
            }
        }
        i += 2;
    }
    if limits.is_empty() {
        limits = DEFAULT_MS.iter().map(|&ms| Limit::Ms(ms)).collect();
    }
    let lines = run::run(&first_per_rule(positions(), per_rule), &limits);
    if let Some(path) = out {
        if let Err(e) = std::fs::write(&path, tsv("sente", &lines)) {
            eprintln!("{path}: {e}");
            return 1;
        }
    }
    0
}
