//! Sente: a Gomoku/Renju engine for the Gomocup (Piskvork) protocol.
//!
//! The library holds everything; the binaries `pbrain-sente` and
//! `sente-arena` are thin front ends. Data flows one way: a protocol line
//! becomes a `protocol::Command`, the session updates its `game::Board`, the
//! searcher gets a `search::SearchRequest` and returns a `search::SearchResult`.

pub mod arena;
pub mod bench;
pub mod engine;
pub mod eval;
pub mod game;
pub mod hugepages;
pub mod protocol;
pub mod search;
pub mod tune;
pub mod types;

pub use game::{Board, Pos};
pub use types::{Color, Rule, RuleSet, Score};
