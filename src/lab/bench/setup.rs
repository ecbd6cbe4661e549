//! What every bench run shares: the table size that is part of the
//! signature, and the search switches (and evaluation) this process's
//! command line chose, set once by `main_bench` and read by each bench
//! engine (the reach suite's too).

use std::sync::OnceLock;

use crate::brain::engine::{Engine, SearchOptions};

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

/// A bench engine: a table of exactly `tt_bytes`, the run's switches.
pub fn bench_engine(tt_bytes: usize) -> Engine {
    Engine::with_table_bytes_and(tt_bytes, options())
}
