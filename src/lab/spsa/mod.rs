//! The SPSA tuner (`sente-arena spsa`): simultaneous perturbation
//! stochastic approximation over many search parameters at once, each
//! iteration a few game pairs of θ + c·Δ against θ − c·Δ (or each against
//! a fixed opponent) played by the arena. The method, formulas and how to
//! run it: `scripts/SPSA.md`.
//!
//! - `spec`: the params file, one tuned parameter a line
//! - `method`: the gain schedules, the perturbation and the update
//! - `state`: the run's state file (settings and every iteration), so a run
//!   stops and goes on
//! - `play`: an iteration's game pairs on the arena, whole or a shard
//! - `output`: iteration lines, the trajectory table, the params.rs block
//! - `cli`: the `sente-arena spsa` command line and its modes
//! - `tests`: the planted problem tuned in-process

pub mod cli;
pub mod method;
pub mod output;
pub mod play;
pub mod spec;
pub mod state;

#[cfg(test)]
mod tests;
