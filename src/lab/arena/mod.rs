//! Referee and match runner: plays engines against each other as Gomocup
//! managers do (`sente-arena`), with opening suites, colour-swapped pairs,
//! Elo, LOS and SPRT.
//!
//! - `referee`: game state and the judgement of each move per rule
//! - `engine`: one engine process: pipes, reader thread, timeouts, suspension
//! - `memory`: memory of an engine and its children from /proc
//! - `game`: one game between two engines
//! - `clock`: the Gomocup leagues' clocks, and where an engine's time went
//! - `openings`: opening files and the pair schedule
//! - `pool`: worker threads playing games handed out one at a time
//! - `runner`: a whole match on N threads, SPRT stop
//! - `stats`: Elo, LOS, SPRT
//! - `report`: result lines, records, summary, JSON
//! - `fake`: tiny misbehaving engines for tests and a random baseline
//! - `matchcli`: the `sente-arena` command line for a match (helpers shared
//!   with the other tools are in `crate::cli`)
//! - `compare`: two matches on the same schedule compared game by game
//! - `schedule`: a tournament's engines, pairings, schedule and shards
//! - `tournament`: N engines, round robin or gauntlet, played and written
//! - `ratings`: joint Bradley–Terry ratings, intervals, LOS
//! - `tourreport`: crosstable, summary, tournament JSON, records
//! - `tourmerge`: a tournament's JSON read back, shards merged
//! - `html`: the self-contained tournament report with a game viewer
//! - `tourcli`: the tournament and merge command lines
//! - `json`: a small JSON reader for the merge
//! - `sprtcli`: a played result re-scored (`sente-arena sprt`)

pub mod clock;
pub mod compare;
pub mod engine;
pub mod fake;
pub mod game;
pub mod html;
pub mod json;
pub mod matchcli;
pub mod memory;
pub mod openings;
pub mod pool;
pub mod ratings;
pub mod referee;
pub mod report;
pub mod runner;
pub mod schedule;
pub mod sprtcli;
pub mod stats;
pub mod tourcli;
pub mod tourmerge;
pub mod tournament;
pub mod tourreport;
