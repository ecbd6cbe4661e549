//! The engine wing: everything `pbrain-sente` needs to play a game, and
//! nothing else. Layers from the bottom: `types` and `hugepages`, then
//! `game` ← `eval` ← `search` ← `engine` ← `protocol`. Nothing here reads a
//! command line (that is `main.rs` and `crate::cli`) or imports the
//! laboratory (`crate::lab`).

pub mod engine;
pub mod eval;
pub mod game;
pub mod hugepages;
pub mod protocol;
pub mod search;
pub mod types;
