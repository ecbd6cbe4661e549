//! Search parameters: every tunable of search, time manager and threat
//! budgets; an SPRT candidate touches this file only.
//!
//! Each value is named where it is used (`params::NAME`) and keeps the
//! exact arithmetic it had inline: integer divisors stay divisors, so
//! `x / DIV` here is the same `x / 2` it was. Changing a number changes
//! the bench signature; record the new one in the commit.

use crate::types::Score;

// Aspiration windows (root iterations).

/// Half-width of the first aspiration window around the previous score.
pub const ASPIRATION: Score = 60;
/// Window half-width past which a failing iteration is searched open.
pub const ASPIRATION_OPEN: Score = 4_000;

// Root late-move reductions.

/// Root moves searched at full depth before late quiet ones are reduced.
pub const ROOT_LMR_FULL_MOVES: usize = 4;
/// First iteration depth at which late quiet root moves are reduced.
pub const ROOT_LMR_MIN_DEPTH: i32 = 4;

// Threat-solver node budgets (`threat_budget`, per search).

/// Under a node limit, the most one solver call takes: `max_nodes / THIS`.
pub const THREAT_NODE_SHARE: u64 = 8;
/// `timeout_turn 0`: our VCF at the root (no VCT, no defence, no leaf VCF).
pub const INSTANT_VCF_NODES: u64 = 3_000;
/// Depth- or node-limited search (bench, analysis): our VCF at the root.
pub const UNLIMITED_VCF_NODES: u64 = 20_000;
/// Depth- or node-limited search: our VCT at the root.
pub const UNLIMITED_VCT_NODES: u64 = 20_000;
/// Depth- or node-limited search: the opponent's VCF and its re-checks.
pub const UNLIMITED_DEFEND_NODES: u64 = 20_000;
/// VCF nodes per horizon call (timed or not; only with `leaf_vcf` on).
pub const LEAF_VCF_NODES: u64 = 100;
/// Timed search: our VCF nodes per ms of the hard limit.
pub const VCF_NODES_PER_MS: u64 = 30;
/// Timed search: least VCF nodes at the root.
pub const VCF_MIN_NODES: u64 = 500;
/// Timed search: most VCF nodes at the root.
pub const VCF_MAX_NODES: u64 = 200_000;
/// Timed search: no root VCT under this hard limit (ms).
pub const VCT_MIN_MS: u64 = 300;
/// Timed search: our VCT nodes per ms of the hard limit.
pub const VCT_NODES_PER_MS: u64 = 30;
/// Timed search: most VCT nodes at the root.
pub const VCT_MAX_NODES: u64 = 300_000;
/// Timed search: the opponent's VCF (and re-checks) nodes per ms.
pub const DEFEND_NODES_PER_MS: u64 = 15;
/// Timed search: least nodes for the opponent's VCF and its re-checks.
pub const DEFEND_MIN_NODES: u64 = 500;
/// Timed search: most nodes for the opponent's VCF and its re-checks.
pub const DEFEND_MAX_NODES: u64 = 150_000;
