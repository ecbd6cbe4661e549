//! The laboratory wing: the tools that measure and improve the engine, on
//! top of it. `arena` (matches, tournaments, the referee), `bench` (the
//! signature, speed and reach benchmarks, and the makers of their suites),
//! `datagen` (self-play training data), `evalpanel` (the judge of
//! evaluations on deep-labelled quiet positions), `spsa` (the SPSA tuner of search
//! parameters, on the arena) and `tune` (the evaluation fitter and the
//! net's trainer, which reads panels to keep their games out of a
//! training: it sits above `evalpanel`). They use the engine wing and the command-line helpers
//! of `crate::cli`; nothing in the engine wing uses them.
//!
//! Three binaries front them. `pbrain-sente` (`src/main.rs`) is the engine
//! and carries only the measurements: `bench` (`bench::main_bench`).
//! `sente-arena` (`src/bin/sente-arena.rs`) plays: matches, tournaments,
//! SPRTs, SPSA, and the reach, depth and oracle runs through the protocol.
//! `sente-lab` (`src/bin/sente-lab.rs`) makes: `tune` and `tune net`
//! (`tune::main_tune`), `datagen` (`datagen::main_datagen`, with every word
//! its own dispatcher takes), `reach-make` and `reach-claims`
//! (`bench::reach::make`), `depth-make` (`bench::depth::make`),
//! `evalpanel` (`evalpanel::main_evalpanel`) and `net-random`
//! (`tune::net::main_random`).

pub mod arena;
pub mod bench;
pub mod datagen;
pub mod evalpanel;
pub mod spsa;
pub mod tune;
