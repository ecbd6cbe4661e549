//! Iterative deepening over the root moves: one aspiration-window
//! iteration per depth (`iteration`), Lazy SMP helpers searching beside the
//! main thread, the time plan deciding after each iteration whether to go
//! on (from what the iterations have shown: `time::SearchProgress`), a
//! stopped iteration's beater adopted, and the PV completed. It starts at
//! the request's `start_depth` (INFO start_depth) and goes no deeper than
//! the moves left before the board or the move limit ends the game.

use std::sync::atomic::{AtomicBool, Ordering};

use super::alphabeta::Tree;
use super::iteration::{adopt_beater, aspiration, RootMove};
use super::ordering::MAX_PLY;
use super::request::{RootEvent, SearchInfo, SearchRequest};
use super::smp::{HelperJob, HelperState};
use super::time::SearchProgress;
use super::tt::{Bound, Tt};
use crate::brain::game::{Board, Pos};
use crate::brain::types::{is_mate_score, Score, MATE, ONE_PLY};

/// The deepest iteration: `MAX_PLY` less room for the extensions and the
/// four quiescence past the nominal depth (layout, not a tunable).
const MAX_DEPTH: i32 = MAX_PLY as i32 - 8;

/// What iterative deepening hands back.
pub(super) struct Deepened {
    /// The root moves of the last completed iteration, best first (with a
    /// stopped iteration's beater moved to the front).
    pub(super) completed: Vec<RootMove>,
    /// Depth of the last completed iteration (0: none completed).
    pub(super) depth: u32,
    pub(super) score: Score,
    pub(super) nodes: u64,
    /// The PV of the last iteration reported.
    pub(super) shown_pv: Vec<Pos>,
}

/// Iterative deepening over the root moves, with the Lazy SMP helpers
/// searching beside the main thread until it is done.
pub(super) struct Deepening<'a> {
    pub(super) req: &'a SearchRequest,
    /// Moves left before the game ends (empty cells, or the move limit).
    pub(super) empty: usize,
    pub(super) helpers: &'a mut Vec<HelperState>,
    pub(super) helper_starts: &'a std::sync::atomic::AtomicUsize,
    pub(super) helpers_live: &'a std::sync::atomic::AtomicUsize,
}

impl Deepening<'_> {
    pub(super) fn run(
        self,
        tree: &mut Tree,
        moves: &[Pos],
        on_info: &mut dyn FnMut(&SearchInfo),
        on_root: &mut dyn FnMut(RootEvent),
    ) -> Deepened {
        let req = self.req;
        let plan = req.plan;
        let multipv = req.multipv.max(1);
        let root_key = tree.pos.board.hash();
        let hash_move = tree
            .tt
            .probe(root_key, 0)
            .map(|h| h.mv)
            .unwrap_or(Pos::NONE);
        let mut rms = RootMove::list(tree.order_root(moves, hash_move));
        let mut done_depth = 0;
        // The PV of the last info reported, to report the final choice too
        // when it differs (a stopped iteration's move, a completed PV).
        let mut shown_pv: Vec<Pos> = Vec::new();
        let mut best_score = 0;
        let mut completed: Vec<RootMove> = rms.clone();
        let max_depth = req
            .max_depth
            .map(|d| d.max(1) as i32)
            .unwrap_or(MAX_DEPTH)
            .min(MAX_DEPTH)
            .min(self.empty as i32)
            .max(1);
        let first_depth = req
            .start_depth
            .map_or(1, |d| d.max(1) as i32)
            .min(max_depth);
        // Lazy SMP: helpers search the same root moves with the shared
        // table until the main thread is done; only the main thread's
        // result is played (so one thread gives exactly the old search).
        let helpers_stop = AtomicBool::new(false);
        let helper_nodes = std::sync::atomic::AtomicU64::new(0);
        let root_moves: Vec<Pos> = rms.iter().map(|r| r.mv).collect();
        let tt: &Tt = tree.tt;
        let (starts, live) = (self.helper_starts, self.helpers_live);
        std::thread::scope(|scope| {
            for (i, h) in self.helpers.iter_mut().enumerate() {
                // Each helper searches its own copy of the root position.
                let mut hb = tree.pos.board.clone();
                let job = HelperJob {
                    id: i + 1,
                    tt,
                    moves: &root_moves,
                    plan,
                    start: req.start,
                    max_depth,
                    stop: &helpers_stop,
                    nodes: &helper_nodes,
                    net: tree.pos.ev.net().cloned(),
                };
                let spawned = std::thread::Builder::new()
                    .name(format!("helper-{}", i + 1))
                    .spawn_scoped(scope, move || {
                        starts.fetch_add(1, Ordering::SeqCst);
                        live.fetch_add(1, Ordering::SeqCst);
                        job.run(h, &mut hb);
                        live.fetch_sub(1, Ordering::SeqCst);
                    });
                if let Err(e) = spawned {
                    log::warn!("could not start search helper {}: {e}", i + 1);
                }
            }
            let mut iter_start = tree.elapsed_ms();
            // What the time plan reads of the completed iterations.
            let mut progress = SearchProgress::default();
            for depth in first_depth..=max_depth {
                tree.root_beater = None;
                let prev = (depth > first_depth).then_some(best_score);
                let score = aspiration(tree, &mut rms, depth, prev, multipv, on_root);
                let Some(score) = score else {
                    // Stopped: a move that already beat the first one
                    // searched at this depth is played instead.
                    if let Some(b) = tree.root_beater.take() {
                        best_score = adopt_beater(&mut completed, b).unwrap_or(best_score);
                    }
                    break;
                };
                done_depth = depth;
                best_score = score;
                completed = rms.clone();
                let best = &rms[0];
                tree.tt
                    .store(root_key, 0, depth * ONE_PLY, score, Bound::Exact, best.mv);
                let info = SearchInfo {
                    depth: depth as u32,
                    score,
                    nodes: tree.nodes + tree.vcf_nodes + helper_nodes.load(Ordering::Relaxed),
                    elapsed: req.start.elapsed(),
                    pv: best.pv.clone(),
                };
                on_info(&info);
                shown_pv = info.pv.clone();
                let elapsed = tree.elapsed_ms();
                let last_iter = elapsed.saturating_sub(iter_start);
                iter_start = elapsed;
                progress.record(best.mv, score, last_iter);
                if plan.instant || plan.stop_iterating(elapsed, &progress) {
                    break;
                }
                // A proven result needs no deeper look (the PV reaches it).
                if is_mate_score(score) && (MATE - score.abs()) <= depth {
                    break;
                }
            }
            helpers_stop.store(true, Ordering::Relaxed);
        });
        Deepened {
            completed,
            depth: done_depth as u32,
            score: best_score,
            nodes: tree.nodes + tree.vcf_nodes + helper_nodes.load(Ordering::Relaxed),
            shown_pv,
        }
    }
}

/// A PV of our move alone (a stopped iteration's move whose refutation
/// search was cut short, a fail-high that was never searched with a full
/// window) gets the table's best reply to it, so that the reply can still
/// be shown and pondered on. Needs `board` at the root; leaves it there.
pub(super) fn complete_pv(tt: &Tt, board: &mut Board, pv: &mut Vec<Pos>) {
    let [m] = pv[..] else { return };
    if !board.in_board(m) || !board.is_empty(m) {
        return;
    }
    board.play(m);
    if let Some(hit) = tt.probe(board.hash(), 1) {
        if crate::brain::game::rules::is_legal(board, hit.mv) {
            pv.push(hit.mv);
        }
    }
    board.unmake();
}
