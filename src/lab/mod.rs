//! The laboratory wing: the tools that measure and improve the engine, on
//! top of it. `arena` (matches, tournaments, the referee), `bench` (the
//! signature, speed and reach benchmarks), `datagen` (self-play training
//! data), `spsa` (the SPSA tuner of search parameters, on the arena) and
//! `tune` (the evaluation fitter, the net's trainer, the move policy's
//! fitter). They use the engine wing and the command-line helpers
//! of `crate::cli`; nothing in the engine wing uses them.

pub mod arena;
pub mod bench;
pub mod datagen;
pub mod spsa;
pub mod tune;
