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
//! for tuning and a `held` half that no tuning looks at; `sente-lab
//! reach-make` rebuilds the file from arena records (the method is documented on
//! `make` and in the file's header).
//!
//! - `suite`: the positions and their file format
//! - `run`: the suite searched in process (`bench reach`)
//! - `make`: the suite rebuilt from arena records (`sente-lab reach-make`),
//!   and the deeper proofs of claimed wins (`sente-lab reach-claims`)
//! - `protocol`: the suite played by any brain through the protocol
//!   (`sente-arena reach`)

pub mod make;
pub mod protocol;
pub mod run;
pub mod suite;

use run::{run, Limit};
use suite::{Which, DEFAULT_MS, DEFAULT_NODES};

/// `bench reach [--ms MS | --nodes N] [--set dev|held|all]` (`args`: the
/// words after `bench`, `reach` first).
pub fn main_reach(args: &[String]) -> i32 {
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
