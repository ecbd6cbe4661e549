//! Sente: a Gomoku/Renju engine for the Gomocup (Piskvork) protocol.
//!
//! The library holds everything; the binaries are thin front ends:
//! `pbrain-sente` is the engine a manager loads (the protocol and the
//! bench), `sente-arena` plays matches and tournaments, and `sente-lab`
//! makes things (fits, trains, generates data, rebuilds suites). Data flows one way: a protocol line
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
//!   self-play outcomes (`sente-lab tune`).
//! - **Search** (`search`, `search::alphabeta`): iterative deepening,
//!   principal-variation search with aspiration windows, a transposition table,
//!   threat-aware move generation and ordering, late-move reductions and
//!   pruning of quiet moves, reverse futility pruning, singular extensions and
//!   a four-only quiescence at the horizon.
//! - **Threat search** (`search::threat`): VCF and VCT with counter-fours and
//!   renju forbidden points; at the root Sente plays its own VCF/VCT at once
//!   and, facing the opponent's VCF, keeps only moves that defuse it.
//! - **Time** (`search::time`, `search::watchdog`): a soft and a hard limit per
//!   move from the manager's limits, with safety margins; with
//!   `TIME_ADAPTIVE` the soft limit follows the search (best-move stability
//!   and changes, a falling score, the game's phase). The engine makes
//!   each move's plan (the only caller of `time::plan`, for normal searches
//!   and ponder hits alike); the search keeps to it, and a watchdog thread
//!   raises the stop flag at the hard limit.
//! - **Threads** (`search::smp`): Lazy SMP over one shared, lock-free
//!   transposition table; one thread is exactly the single-threaded search.
//! - **Memory** (`search::tt`, `hugepages`): the table gets half of what
//!   `max_memory` leaves after a 40 MB reserve, built (written in full) on a
//!   thread of its own when the protocol is idle, a 16 MB table serving
//!   meanwhile, and backed by transparent huge pages where the kernel gives
//!   them.
//!
//! # Design
//!
//! The design in detail, with the history of its choices (the README's
//! description as it stood at 0.8.2, moved here; what each choice gained is
//! measured in `scripts/RESULTS.md`). Where each part lives: "Map of the code"
//! below.
//!
//! - **Board and patterns** (`src/brain/game/`). Each cell keeps, for each of
//!   the four directions, a 20-bit key of the ten cells around it on that
//!   line, updated on make/unmake. A table per rule (built once, before START
//!   is answered) maps a key to what a stone of either colour placed there
//!   makes on that line: five, overline, open or closed four, three, two, one.
//!   Renju forbidden points follow from those look-ups plus the recursive
//!   check of each three. The moves the search considers are the *near cells*,
//!   the empty cells within distance 2 of a stone: make/unmake only flip the
//!   stone's bit in a 64-bit word per row, and the near cells are those bits
//!   spread two rows and two columns each way, computed a row at a time when
//!   asked, in board order (since 0.8.2; before, a list and a count per cell
//!   were kept up to date on every make and unmake, 14 % of the search's
//!   time).
//! - **Evaluation** (`src/brain/eval/`) is incremental: after a move only the
//!   cells within five on its four lines are re-evaluated, and only in that
//!   line's direction. A randomized test checks it against a full
//!   recomputation under every rule; it is 6–8× faster than recomputing
//!   (`pbrain-sente bench eval`). The search's make pushes the cells it
//!   changes on an undo stack and its unmake pops them back instead of
//!   recomputing (a test checks push/pop against fresh evaluations). One table
//!   load gives a line's codes for both colours (a byte each, turned into the
//!   combination tables' nibble without a branch), applied as read (since
//!   0.8.2; before, a changed line was looked up twice). The score is the sum
//!   over empty cells of what a stone there would make for each side (a value
//!   per line shape plus a bonus per combined threat), with separate tables
//!   for the side to move's points and the opponent's; the weights are fitted
//!   to self-play outcomes (`sente-lab tune`: "Tuning the evaluation" in
//!   `scripts/ARENA.md`), which gave +63 Elo over the hand-set ones, and +30
//!   to +40 more with the separate tables. Since 0.6.0 the score also adds a
//!   fitted value for the *threat mask*: per side, whether it has a four-three
//!   (or double-four) point, a double-three point, any point that makes a
//!   four, two or more points that make an open three, and a point that makes
//!   two open twos (`brain::eval::threat_mask`, O(1) from the per-class
//!   counters). Point values add up; threats do not (a four-three point is
//!   worth little if the opponent can answer with fours of its own), and the
//!   mask lets the fit say so: +131 ± 69 Elo with four bits a side and the
//!   tables refitted beside it, +35 ± 34 more for the fifth bit. Since 0.7.0 a
//!   mask's value is the sum of fitted values of the *bit pairs* it holds
//!   (each bit alone and each two bits together, 55 values, so rare masks get
//!   a value too, where 0.6.0 fitted only the 34 common masks and left the
//!   rest at 0), plus a tempo, and each point adds a fitted value for every
//!   two of its four lines whose shapes are both between a blocked two and an
//!   open four (*pattern pairs*, 21 values per side: a point with two open
//!   threes is not worth twice one, a four with an open three beside it more
//!   than the two). Those corrections can be negative, and so can a point's
//!   value: the combination tables pack each point's two values as signed
//!   28-bit fields (a test checks all 65,536 line combinations of both
//!   tables). The pair form with its refit gained +68 ± 51 Elo over 0.6.0 (the
//!   SPRT log in `scripts/RESULTS.md`).
//! - **Search** (`src/brain/search/`: `deepening.rs`, `alphabeta.rs`, `tt.rs`,
//!   `movegen.rs`, `ordering.rs`, `params.rs`): iterative deepening,
//!   principal-variation search with aspiration windows (±60 around the last
//!   score from depth 4; a fail widens the window 1.5× and a fail low also
//!   lowers beta to the old window's middle, so a shaky score costs a few
//!   narrow re-searches rather than one open-window pass, which had cost up to
//!   five times the rest of an iteration; since 0.7.2), a transposition table
//!   (our own Zobrist keys, side to move included; full-key check, depth,
//!   bound, ply-adjusted mate scores, best move, generation; replacement keeps
//!   deep and current entries), hash move, threat ordering, killers and
//!   history (the table bucket of each position is prefetched while its move's
//!   evaluation is updated, since 0.7.9), late-move reductions and pruning of
//!   quiet moves only. Move generation is threat-aware: facing a four only the
//!   blocks (or our own five) are searched, facing an open three only its
//!   defences or our own fours. Renju: Black never considers a forbidden
//!   point. "Quiet" means that neither side makes a double three or more
//!   there: at depth d at most 2 + d²/2 quiet moves are tried (twice at PV
//!   nodes), and the reduction grows with ln(depth)·ln(move number). Since
//!   0.7.3 the root reduces too: from depth 4, root moves after the first four
//!   that are quiet get a PV node's reduction on their null-window search and
//!   are searched again at full depth if they beat the best so far (the same
//!   late-move search as inside the tree). Reverse futility pruning: at depth
//!   4 or less (3 before 0.7.5) a non-PV node whose static score beats beta by
//!   120 a remaining ply, with no four or open three of the opponent's to
//!   answer, fails high without a search. Singular extension (since 0.8.0): in
//!   a node below the root with 6 or more plies left to search, when the table
//!   holds a hash move whose stored score (exact or a lower bound, from a
//!   search at most two plies shallower, no mate) is S, the node's other moves
//!   are first searched to half the depth with a null window at S − 16·depth;
//!   if none reaches it, the hash move is singular and is searched a ply
//!   deeper; if one does and that bound is already at least beta, the node
//!   fails high at once (a second move as good as the first). The test search
//!   leaves the hash move out, stores nothing in the table and skips reverse
//!   futility, and extensions stop at twice the root's depth. In a node
//!   without threats the hash move is searched before the others are even
//!   generated, and only the first 8 moves are sorted until more are needed.
//!   At the horizon a threat is not guessed at: facing a four (its block) or
//!   an open three (its defences and our fours) the side to move gets a
//!   one-ply search, and an open four it can make against no four of the
//!   opponent is scored as a win. Otherwise (since 0.7.7) a four quiescence:
//!   the static score stands when it reaches beta, when the side has no four
//!   to make, or when it is 300 or more below alpha; in between each four is
//!   tried, strongest first, and the opponent's forced block (and any
//!   counter-four) is searched as above, at most two fours deep in a line;
//!   past those two, only a four that makes a second threat (a four-three, a
//!   double four or an open four, which end most short VCF lines) is still
//!   tried (since 0.7.9). It costs under 1 % more bench nodes and finds, at
//!   depth 12, the move Rapfi played in three of five early positions that
//!   0.7.5 lost (none before; 0.7.5 needed depth 14). The SPRT log under
//!   Strength in `scripts/RESULTS.md` lists what was tried.
//! - **Threat search** (`src/brain/search/threat/`): VCF (continuous fours)
//!   and VCT (fours and threes) with counter-four handling, renju forbidden
//!   points on both sides, caro and neutral stones, and its own table. Under
//!   renju a White defence may also be a move off the three's lines that makes
//!   Black's winning point forbidden through the recursive three rule; the
//!   solver tries those. At the root Sente plays its own VCF/VCT at once and,
//!   if the opponent has a VCF, keeps only moves that defuse it. `bash
//!   scripts/tactics.sh` prints the tactics-suite solve rate, median and
//!   90th-percentile times and the solver's speed.
//! - **Time** (`src/brain/search/time.rs`, `src/brain/search/watchdog.rs`):
//!   from `timeout_turn`, `timeout_match` and `time_left` the time manager
//!   computes a soft limit (no new iteration after it) and a hard limit (the
//!   search stops), keeping a margin of max(40 ms, 10 %) of the turn and
//!   max(50 ms, 5 %) of the game clock and never spending more than a third of
//!   the time left on one move. With a game clock the soft limit is half the
//!   move's share of the clock, and after each iteration the search goes on
//!   only while one more iteration as long as the last could still end before
//!   the hard limit (the next one is usually longer): time not spent is saved
//!   for later moves. With a turn limit alone, or one tighter than the clock's
//!   share, whose unused time is lost, the search iterates until the hard
//!   limit stops it (since 0.8.1; before, it stopped when one more iteration
//!   as long as the last would not fit). When the hard limit stops an
//!   iteration, a root move that had already beaten the first move searched at
//!   that depth is played instead of the last completed iteration's choice.
//!   Moves with a single legal reply, or whose result is proven, still answer
//!   at once. A watchdog thread raises the stop flag at the hard limit, so no
//!   part of the search can overrun on a busy machine. `timeout_turn 0`
//!   answers at once; `max_depth` and `max_node` are honoured. Measured with
//!   two games at once on 2 cores (Sente against itself), the longest move was
//!   76 ms at a 100 ms limit and 940 ms at 1 s; since Sente uses its turn
//!   (0.7.4), 66 ms and 904 ms. Against Rapfi at 500 ms (hard limit 450 ms),
//!   0.8.1's longest moves were 458, 454 and 455 ms (freestyle, standard,
//!   renju), as 0.8.0's; 0.8.2's 457, 462 and 453 ms, 459 ms on 20×20, and
//!   1,808 ms at 2 s (hard limit 1,800 ms), in 560 games with no time forfeit.
//! - **Threads** (`src/brain/search/smp.rs`): `INFO thread_num N` (default 1,
//!   since managers give one core per engine unless told; 0 or negative means
//!   1; at most the machine's cores and 64) runs Lazy SMP: the main thread and
//!   N−1 helpers search the same root moves with one shared transposition
//!   table. The table takes no lock: its words are atomics and each entry's
//!   key is stored XORed with its data, so an entry torn by two writers fails
//!   the key check. Each helper has its own board copy, move ordering and
//!   threat solver; odd helpers search one ply deeper and each starts from its
//!   own rotation of the root move order. Only the main thread runs the root
//!   threat search, reports and chooses the move, so one thread is exactly the
//!   single-threaded search (same bench signature); when it is done it stops
//!   the helpers and joins them before answering (END and the watchdog stop
//!   them as they stop the main thread).
//! - **Memory** (`src/brain/search/tt.rs`, `src/brain/hugepages.rs`): the
//!   transposition table gets half of what `max_memory` leaves after a 40 MB
//!   reserve (default 350 MB in all: a 155 MB table). Every page of a new
//!   table is written when it is built, so the operating system maps them
//!   then: left to page faults, they made a fresh process's first 500 ms
//!   search a third slower ("Measured figures" in `scripts/RESULTS.md`).
//!   Building a large table takes 50–800 ms on a loaded machine, and some
//!   managers (qpiskvork) start the first move's clock without waiting for
//!   START or INFO to be answered: with the table built at START and again at
//!   `INFO max_memory`, a fresh process took 3.4–7.4 s to answer BEGIN at 1 GB
//!   on a loaded machine. So START and `INFO max_memory` only free the old
//!   table and give the searcher a 16 MB one (`FIRST_TT_BYTES`); the full
//!   table is built on a thread of its own once no command is waiting
//!   (`tt::PendingTt`, throttled to leave the processor to a search), and
//!   the next search that finds it ready uses it (`pbrain-sente bench
//!   first-move` times this; "First-move latency" in the results log). START
//!   builds only the rule's pattern table. On Linux the
//!   table, the pattern tables and the evaluator's combination tables ask for
//!   transparent huge pages (`madvise`, `src/brain/hugepages.rs`, before their
//!   first write; the small tables start on a 2 MiB boundary): with 4 KiB
//!   pages nearly every probe of a 155 MB table also missed the TLB. Where the
//!   kernel gives none (THP off, other systems) nothing changes but the speed;
//!   the memory used is the same (the arena's measured peak: 165–166 MB before
//!   and after). Each helper thread counts 4 MB, taken from the table's share;
//!   helpers may use at most half of what the reserve leaves (none under 48
//!   MB, so a 40 MB limit means one thread). `YXHASHCLEAR` clears the table.
//!   The arena test runs Sente under a 40 MB limit.
//!
//! # Map of the code
//!
//! Two wings and the ground between them. The binaries sit on top:
//!
//! - `src/main.rs`: `pbrain-sente`, the engine and nothing else: the
//!   protocol loop (with its switches), `bench` (the measurements of
//!   `lab/bench/`), `--help`, `--version`. The lab's old spellings here
//!   answer with their new command and status 2.
//! - `src/bin/sente-arena.rs`: the arena's command line: matches,
//!   tournaments, SPRTs, SPSA, reach, depth and the oracle through the
//!   protocol.
//! - `src/bin/sente-lab.rs`: the laboratory's makers: `tune` and `tune net`
//!   (fitting, training), `datagen`, `reach-make`, `reach-claims`,
//!   `depth-make` (the bench's suites from arena records), `net-random`.
//!
//! **The engine wing, `src/brain/`**: what plays a game, and nothing else.
//!
//! - `brain/protocol/`: command parsing, answers, the session that turns
//!   commands into engine calls, and the reader and writer I/O threads.
//! - `brain/engine/`: the engine facade. It owns the searcher, pondering
//!   (`engine/ponder.rs`), the SWAP2 strategy (`engine/swap2.rs`), time
//!   planning and the legality guard (`engine/legal.rs`); `go(limits) -> move`.
//! - `brain/search/`: the searcher (`mod.rs`), its root probe (`root.rs`),
//!   iterative deepening (`deepening.rs`) and the root iteration it shares
//!   with the Lazy SMP helpers (`iteration.rs`, `smp.rs`), the PVS tree
//!   (`alphabeta.rs`), transposition table (`tt.rs`), move generation and
//!   ordering, the VCF/VCT threat solver (`threat/`), time manager
//!   (`time.rs`), watchdog, and `params.rs`: every tunable of the search,
//!   constants in the release build and settable at run time in a tuning
//!   build (`--features tune`, `pbrain-sente --param NAME=V`; `tunable.rs`).
//! - `brain/eval/`: the incremental pattern evaluation and its fitted weights
//!   (`eval/weights.rs`); the learned network (`eval/net/`: its form, weights
//!   file format and float reference, embedded weights in `eval/net/weights/`,
//!   its integer SIMD inference, one kernel generic over the instruction set,
//!   and accumulators, kept by the evaluator when `--eval net` selects it; the
//!   engine facade says which net is loaded).
//! - `brain/game/`: the board (padded cells, incremental line keys, near
//!   cells, Zobrist key), pattern tables per rule, rules (wins, renju
//!   forbidden points).
//! - `brain/types.rs`: colours, rules, scores; `brain/hugepages.rs`:
//!   transparent huge pages for the large tables (Linux).
//!
//! **Between the wings, `src/cli.rs`**: the command-line helpers that
//! `main.rs` and the laboratory share (numbers, byte counts, rules, points,
//! the search switches and `--eval`). The engine reads no command line.
//!
//! **The laboratory wing, `src/lab/`**: the tools that measure and improve
//! the engine.
//!
//! - `lab/arena/`: the referee, the match runner and tournaments
//!   (`sente-arena`), their statistics, ratings and reports.
//! - `lab/bench/`: the bench suite (`mod.rs`; its node count is the
//!   search's signature) and the reach benchmark (`bench/reach/`: its
//!   positions in `reach.txt`, run in process, rebuilt from arena records
//!   by `sente-lab reach-make`, or played by any brain through the protocol with `sente-arena reach`),
//!   and the depth and branching report (`bench/depth/`: middle games from
//!   games against Rapfi in `positions.txt`, rebuilt by `sente-lab
//!   depth-make`; `bench depth` in process,
//!   `sente-arena depth` through any brain's MESSAGE lines).
//! - `lab/datagen/`: the self-play data generator (`sente-lab datagen`)
//!   and the record format its games are written in (`datagen/record.rs`),
//!   read by the net trainer.
//! - `lab/spsa/`: the SPSA tuner of search parameters (`sente-arena
//!   spsa`): game pairs on the arena with the values passed as `--param
//!   NAME=V`, its state file, shards and the params.rs block
//!   (`scripts/SPSA.md`).
//! - `lab/tune/`: the offline evaluation fitter (`sente-lab tune`), which
//!   fits `eval/weights.rs` to arena records, and the network's trainer
//!   (`tune/net/`, `sente-lab tune net`) on `datagen` records.
//!
//! Dependencies run one way, and a test keeps them so
//! (`protocol-tests/layering.rs`): inside the engine wing `types` ←
//! `game` ← `eval` ← `search` ← `engine` ← `protocol`; then `cli`; then
//! the laboratory, `arena` ← `bench`, `datagen`, `spsa` ← `tune`. No room imports a
//! room beside or above it, and no two files import each other, directly
//! or round a circle.
//!
//! # Tests
//!
//! A module's unit tests are its child module `tests`, under `#[cfg(test)]`:
//! inline (`mod tests { … }` at the end of the file) in a file module, or
//! `tests.rs` beside `mod.rs` in a folder module when they are long (longer
//! still: children of `tests`, as `search/threat/tests/long.rs`). No
//! `#[path]` attributes. Tests that run the binaries or cross modules are
//! the integration tests in `protocol-tests/`, one file per Cargo `[[test]]`,
//! sharing `protocol-tests/harness/`. Every test can fail: a figure that is
//! only printed (speed, strength, error rates) is a `pbrain-sente bench …`
//! or `sente-arena …` subcommand, not a test.
//!
//! Measured results (matches, SPRTs, fits, speeds) and the history of each
//! design choice are in `scripts/RESULTS.md`.

pub mod brain;
pub mod cli;
pub mod lab;

pub use brain::game::{Board, Pos};
pub use brain::types::{Color, Rule, RuleSet, Score};
