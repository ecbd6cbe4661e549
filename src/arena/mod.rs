//! Referee and match runner: plays engines against each other as Gomocup
//! managers do (`sente-arena`), with opening suites, colour-swapped pairs,
//! Elo, LOS and SPRT.
//!
//! - `referee`: game state and the judgement of each move per rule
//! - `engine`: one engine process: pipes, reader thread, timeouts, suspension
//! - `memory`: memory of an engine and its children from /proc
//! - `game`: one game between two engines
//! - `openings`: opening files and the pair schedule
//! - `runner`: a whole match on N threads, SPRT stop
//! - `stats`: Elo, LOS, SPRT
//! - `report`: result lines, records, summary, JSON
//! - `fake`: tiny misbehaving engines for tests and a random baseline
//! - `cli`: the `sente-arena` command line
//! - `compare`: two matches on the same schedule compared game by game

pub mod cli;
pub mod compare;
pub mod engine;
pub mod fake;
pub mod game;
pub mod memory;
pub mod openings;
pub mod referee;
pub mod report;
pub mod runner;
pub mod stats;
