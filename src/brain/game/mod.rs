//! The game itself: board, Zobrist keys, line patterns and rules.

pub mod board;
pub mod geometry;
pub mod pattern;
pub mod rules;
#[cfg_attr(not(test), allow(dead_code))]
pub(crate) mod testutil;
pub mod zobrist;

pub use board::{Board, BoardError, CandidateRange, Move, Pos};
