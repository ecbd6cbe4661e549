//! Sente: a Gomoku/Renju engine for the Gomocup (Piskvork) protocol.
//!
//! The library holds everything; the binaries `pbrain-sente` and
//! `sente-arena` are thin front ends. Data flows one way: a protocol line
//! becomes a `protocol::Command`, the session turns it into calls on the
//! engine, which keeps the `game::Board` and the searcher and answers each
//! `go(limits)` with a legal move.
//!
//! # How the engine works
//!
//! - **Board and patterns** (`game::board`, `game::pattern`): each cell keeps,
//!   for each of the four directions, a 20-bit key of the ten cells around it
//!   on that line, updated on make/unmake; a table per rule maps a key to what
//!   a stone of either colour placed there makes on that line (five, overline,
//!   open or closed four, three, two, one). The moves the search considers are
//!   the *near cells*, the empty cells within distance 2 of a stone.
//! - **Rules** (`game::rules`): wins under each rule and renju's forbidden
//!   points, from the pattern look-ups plus the recursive check of each three.
//! - **Evaluation** (`eval`): incremental; the score sums, over empty cells,
//!   what a stone there would make for each side, with separate tables for the
//!   side to move's points and the opponent's, plus a value for the
//!   combination of threats the two sides hold. The weights are fitted to
//!   self-play outcomes (`pbrain-sente tune`).
//! - **Search** (`search`, `search::alphabeta`): iterative deepening,
//!   principal-variation search with aspiration windows, a transposition table,
//!   threat-aware move generation and ordering, late-move reductions and
//!   pruning of quiet moves, reverse futility pruning, singular extensions and
//!   a four-only quiescence at the horizon.
//! - **Threat search** (`search::threat`): VCF and VCT with counter-fours and
//!   renju forbidden points; at the root Sente plays its own VCF/VCT at once
//!   and, facing the opponent's VCF, keeps only moves that defuse it.
//! - **Time** (`search::time`, `search::watchdog`): a soft and a hard limit per
//!   move from the manager's limits, with safety margins. The engine makes
//!   each move's plan (the only caller of `time::plan`, for normal searches
//!   and ponder hits alike); the search keeps to it, and a watchdog thread
//!   raises the stop flag at the hard limit.
//! - **Threads** (`search::smp`): Lazy SMP over one shared, lock-free
//!   transposition table; one thread is exactly the single-threaded search.
//! - **Memory** (`search::tt`, `hugepages`): the table gets half of what
//!   `max_memory` leaves after a 40 MB reserve, written in full when it is
//!   built and backed by transparent huge pages where the kernel gives them.
//!
//! # Map of the code
//!
//! - `src/main.rs`: `pbrain-sente`, the protocol loop, or `bench` / `tune` /
//!   `datagen`.
//! - `src/bin/sente-arena.rs`: the arena's command line.
//! - `src/brain/engine/`: the engine facade. It owns the searcher, pondering
//!   (`engine/ponder.rs`), the SWAP2 strategy (`engine/swap2.rs`), time
//!   planning and the legality guard (`engine/legal.rs`); `go(limits) -> move`.
//! - `src/brain/protocol/`: command parsing, answers, the session that turns
//!   commands into engine calls, and the reader and writer I/O threads.
//! - `src/brain/game/`: the board (padded cells, incremental line keys, near cells,
//!   Zobrist key), pattern tables per rule, rules (wins, renju forbidden
//!   points).
//! - `src/brain/eval/`: the incremental pattern evaluation and its fitted weights
//!   (`eval/weights.rs`); the learned network (`eval/net/`: its form, weights
//!   file format and float reference, embedded weights in `eval/net/weights/`,
//!   its integer SIMD inference and accumulators, kept by the evaluator when
//!   `--eval net` selects it).
//! - `src/brain/search/`: the searcher (`mod.rs`), its root probe (`root.rs`) and
//!   iterative deepening (`deepening.rs`), the PVS tree (`alphabeta.rs`), transposition
//!   table (`tt.rs`), move generation and ordering, the learned move policy
//!   (`policy.rs`, tables generated into `policy_weights.rs`; its ordering,
//!   reductions and pruning are switches, off by default), the VCF/VCT threat solver
//!   (`threat.rs`), time manager (`time.rs`), watchdog, Lazy SMP helpers
//!   (`smp.rs`), and `params.rs`: every tunable of the search.
//! - `src/lab/tune/`: the offline evaluation fitter (`pbrain-sente tune`), which
//!   fits `eval/weights.rs` to arena records, the network's trainer
//!   (`tune/net/`, `pbrain-sente tune net`) on `datagen` records, and the
//!   move policy's fitter (`tune policy`, `tune/policy/`), which fits
//!   `search/policy_weights.rs` to the moves of self-play records.
//! - `src/lab/datagen/`: the self-play data generator (`pbrain-sente datagen`)
//!   and the record format its games are written in (`datagen/record.rs`),
//!   read by the net trainer and the policy fitter.
//! - `src/lab/arena/`: the referee and match runner (`sente-arena`).
//! - `src/lab/bench/`: the bench suite (`mod.rs`; its node count is the
//!   search's signature) and the reach benchmark (`reach.rs`, positions in
//!   `reach.txt`).
//! - `src/hugepages.rs`: transparent huge pages for the large tables (Linux).
//! - `src/types.rs`: colours, rules, scores.
//!
//! Dependencies run one way: `game` ← `eval` ← `search` ← `engine` ←
//! `protocol`; `bench`, `tune`, `datagen` and `arena` sit on top of the
//! engine as tools. Nothing in `game`, `eval`, `search` or `engine` imports
//! `protocol`, `arena`, `tune` or `datagen`, and inside `game` `geometry` ← `zobrist` ←
//! `board` ← `pattern` ← `rules` has no circle.
//!
//! Measured results (matches, SPRTs, fits, speeds) and the history of each
//! design choice are in `scripts/RESULTS.md`.

pub mod brain;
pub mod cli;
pub mod lab;

pub use brain::game::{Board, Pos};
pub use brain::types::{Color, Rule, RuleSet, Score};
