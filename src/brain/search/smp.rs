//! Lazy SMP: helper threads that search the main thread's root moves with
//! the shared transposition table, each with its own board copy, move
//! ordering and threat solver, until the main thread is done. Only the main
//! thread's result is played, so one thread is exactly the single-threaded
//! search (same bench signature); helpers make the table richer (varied
//! depths and move orders).
//!
//! `INFO thread_num N` (default 1, since managers give one core per engine
//! unless told; 0 or negative means 1; at most the machine's cores and
//! `MAX_THREADS`, 64) runs the main thread and N−1 helpers. Odd helpers search
//! one ply deeper, and each starts from its own rotation of the root move
//! order. Only the main thread runs the root threat search, reports and
//! chooses the move; when it is done it stops the helpers and joins them
//! before answering (END and the watchdog stop them as they stop the main
//! thread). The table takes no lock (see `search::tt`). Each helper counts
//! `HELPER_BYTES` (4 MB) of the memory budget, taken from the table's share;
//! helpers may use at most half of what the 40 MB reserve leaves (none under
//! 48 MB, so a 40 MB limit means one thread). `pbrain-sente bench threads`
//! compares the speed with one thread and with N.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

use crate::brain::game::{Board, Pos};

use super::alphabeta::{Tree, TreeLimits};
use super::evalcache::EvalCache;
use super::iteration::{aspiration, RootMove};
use super::ordering::MoveOrder;
use super::params;
use super::params::MAX_THREADS;
use super::position::Position;
use super::threat::ThreatSolver;
use super::time;
use super::tt::Tt;

/// What a helper thread keeps across searches: its own move ordering and a
/// threat solver (the tree needs one; helpers never run root threats).
pub(super) struct HelperState {
    pub(super) ord: MoveOrder,
    pub(super) threat: ThreatSolver,
    /// The helper's own net score cache (`evalcache`).
    pub(super) ecache: EvalCache,
}

/// Threads a `thread_num` request gets: at least 1, at most the machine's
/// parallelism and `MAX_THREADS`.
pub fn clamp_threads(requested: i64) -> usize {
    let cores = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1);
    (requested.max(1) as usize).min(cores).min(MAX_THREADS)
}

/// What a helper thread searches: the main thread's root moves, with the
/// shared table, until `stop`.
pub(super) struct HelperJob<'a> {
    pub(super) id: usize,
    pub(super) tt: &'a Tt,
    pub(super) moves: &'a [Pos],
    pub(super) plan: time::TimePlan,
    pub(super) start: Instant,
    pub(super) max_depth: i32,
    pub(super) stop: &'a AtomicBool,
    /// Nodes of all helpers, added after each iteration (for reports).
    pub(super) nodes: &'a AtomicU64,
    /// The main thread's net (None: the classical evaluation), which each
    /// helper's own evaluator uses.
    pub(super) net: Option<std::sync::Arc<crate::brain::eval::net::QuantNet>>,
}

impl HelperJob<'_> {
    /// Iterative deepening like the main thread's, but odd helpers run one
    /// ply ahead and each starts from its own rotation of the move order,
    /// so the threads fill the table with different parts of the tree.
    pub(super) fn run(self, st: &mut HelperState, board: &mut Board) {
        let mut tree = Tree::new(
            Position::with_net(board, self.net),
            self.tt,
            &mut st.ord,
            &mut st.threat,
            &mut st.ecache,
            TreeLimits {
                stop: self.stop,
                plan: self.plan,
                start: self.start,
                max_nodes: u64::MAX,
            },
        );
        let hash_move = self
            .tt
            .probe(tree.pos.board.hash(), 0)
            .map(|h| h.mv)
            .unwrap_or(Pos::NONE);
        let mut order = tree.order_root(self.moves, hash_move);
        let n = order.len();
        if n > 2 {
            // Helper 1 keeps the order; helper k moves k-1 of the later moves back.
            order[1..].rotate_left((self.id - 1) % (n - 1));
        }
        let mut rms = RootMove::list(order);
        let mut prev = Some(0);
        let mut reported = 0;
        let first = 1 + (self.id % 2) as i32 * params::HELPER_ODD_DEPTH_OFFSET();
        for depth in first..=self.max_depth {
            let Some(s) = aspiration(&mut tree, &mut rms, depth, prev, 1, &mut |_| {}) else {
                break;
            };
            prev = Some(s);
            let n = tree.nodes + tree.vcf_nodes;
            self.nodes.fetch_add(n - reported, Ordering::Relaxed);
            reported = n;
        }
        let n = tree.nodes + tree.vcf_nodes;
        self.nodes.fetch_add(n - reported, Ordering::Relaxed);
    }
}
