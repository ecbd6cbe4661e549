//! What every bench run shares: the table size that is part of the
//! signature, and the search switches (and evaluation, and net: `--net
//! FILE`) this process's command line chose, set once by `main_bench` and
//! read by each bench engine (the reach suite's too); and one bench search
//! of a position, a fresh engine each (`fresh_search`, the reach and depth
//! suites').

use std::sync::{Arc, OnceLock};
use std::time::Instant;

use crate::brain::engine::{Engine, EvalKind, Limits, Report, SearchInfo, SearchOptions};
use crate::brain::eval::net::QuantNet;
use crate::brain::eval::Evaluator;
use crate::brain::game::Board;
use crate::brain::search::SearchResult;
use crate::brain::types::RuleSet;

/// Transposition table of each bench search (fixed: part of the signature).
pub const BENCH_TT_BYTES: usize = 16 << 20;

/// The search switches of this process's bench runs: default, or what
/// `main_bench` read from the command line (`crate::cli::search_switch`).
static OPTIONS: OnceLock<SearchOptions> = OnceLock::new();

/// The run's switches (default until `set_options`).
pub fn options() -> SearchOptions {
    OPTIONS.get().copied().unwrap_or_default()
}

/// Set the run's switches; the first call wins.
pub fn set_options(o: SearchOptions) {
    let _ = OPTIONS.set(o);
}

/// The net of this process's bench runs (`--net FILE`; none: each rule's
/// embedded one).
static NET: OnceLock<Arc<QuantNet>> = OnceLock::new();

/// The run's net (None: the embedded ones).
pub fn net() -> Option<Arc<QuantNet>> {
    NET.get().cloned()
}

/// Set the run's net; the first call wins.
pub fn set_net(q: Arc<QuantNet>) {
    let _ = NET.set(q);
}

/// A bench engine: a table of exactly `tt_bytes`, the run's switches and
/// net.
pub fn bench_engine(tt_bytes: usize) -> Engine {
    engine_with(tt_bytes, options())
}

/// A bench engine with a table of `tt_bytes`, the switches `o` and the
/// run's net.
pub fn engine_with(tt_bytes: usize, o: SearchOptions) -> Engine {
    let mut engine = Engine::with_table_bytes_and(tt_bytes, o);
    if let Some(q) = net() {
        engine.set_net(Some(q));
    }
    engine
}

/// An evaluator of `board` as a bench engine's search builds it: the
/// run's net where `eval` uses a net under the board's rule, else
/// `Evaluator::with_kind`.
pub fn evaluator(board: &Board, eval: EvalKind) -> Evaluator {
    match net() {
        Some(q) if eval.uses_net(board.rules().rule) => Evaluator::with_net(board, q),
        _ => Evaluator::with_kind(board, eval),
    }
}

/// Search `board` (rule bits `rule`) with a fresh bench engine: a table of
/// `BENCH_TT_BYTES`, one thread, the table built before the clock starts
/// (`limits` is called after that, so a time limit's clock starts with the
/// search). `on` gets each iteration report and the ms since the start.
/// Returns the result and the search's ms.
pub fn fresh_search(
    board: &Board,
    rule: u32,
    limits: impl FnOnce() -> Limits,
    on: &mut dyn FnMut(&SearchInfo, f64),
) -> (SearchResult, f64) {
    let mut engine = bench_engine(BENCH_TT_BYTES);
    engine.set_threads(1);
    engine.set_rules(RuleSet::from_bits(rule));
    engine.prepare(); // the table is built before the clock starts
    let stop = Default::default();
    let limits = limits();
    let t0 = Instant::now();
    let r = engine
        .search(board, &limits, &stop, &mut |rep| {
            if let Report::Iteration(info) = rep {
                on(info, t0.elapsed().as_secs_f64() * 1000.0);
            }
        })
        .expect("the bench search panicked");
    (r, t0.elapsed().as_secs_f64() * 1000.0)
}
