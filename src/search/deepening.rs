//! Iterative deepening over the root moves: one aspiration-window
//! iteration per depth (`aspiration`, `root_iteration`, late root moves
//! reduced by `root_reduction`), Lazy SMP helpers searching beside the main
//! thread, the time plan deciding after each iteration whether to go on,
//! and a stopped iteration's beater adopted.

use std::sync::atomic::{AtomicBool, Ordering};

use super::alphabeta::{self, Tree};
use super::ordering::{self, MAX_PLY};
use super::smp::{HelperJob, HelperState};
use super::tt::{Bound, Tt};
use super::{params, SearchInfo, SearchRequest};
use crate::game::{Board, Pos};
use crate::types::{is_mate_score, Score, INFINITE, MATE};

/// One root move with its score from the last iteration that reached it.
#[derive(Clone, Debug)]
pub(super) struct RootMove {
    pub(super) mv: Pos,
    pub(super) score: Score,
    pub(super) pv: Vec<Pos>,
}

impl RootMove {
    /// Root moves in the given order, not searched yet.
    pub(super) fn list(order: Vec<Pos>) -> Vec<RootMove> {
        order
            .into_iter()
            .map(|mv| RootMove {
                mv,
                score: -INFINITE,
                pv: vec![mv],
            })
            .collect()
    }
}

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
            .unwrap_or(MAX_PLY as i32 - 8)
            .min(MAX_PLY as i32 - 8)
            .min(self.empty as i32);
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
                    eval: tree.pos.ev.kind(),
                    policy: tree.policy,
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
            for depth in 1..=max_depth {
                tree.root_beater = None;
                let score = aspiration(tree, &mut rms, depth, best_score, multipv);
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
                    .store(root_key, 0, depth, score, Bound::Exact, best.mv);
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
                if plan.instant || plan.stop_iterating(elapsed, last_iter) {
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
        if crate::game::rules::is_legal(board, hit.mv) {
            pv.push(hit.mv);
        }
    }
    board.unmake();
}

/// A stopped iteration's root move `beater` (move, score, PV) that beat
/// the first move searched: put it first in the last completed iteration's
/// list, the moves before it shifted down one. Returns its score, or None
/// (nothing changed) if it is not a root move there.
pub(super) fn adopt_beater(
    completed: &mut [RootMove],
    beater: (Pos, Score, Vec<Pos>),
) -> Option<Score> {
    let (mv, score, pv) = beater;
    let k = completed.iter().position(|r| r.mv == mv)?;
    completed[..=k].rotate_right(1);
    completed[0].score = score;
    completed[0].pv = pv;
    Some(score)
}

/// One iteration at `depth` with an aspiration window around the previous
/// score, widened on failure. None when the search was stopped.
pub(super) fn aspiration(
    tree: &mut Tree,
    rms: &mut [RootMove],
    depth: i32,
    prev: Score,
    multipv: usize,
) -> Option<Score> {
    let mut delta = params::ASPIRATION;
    let (mut alpha, mut beta) =
        if depth >= params::ASPIRATION_MIN_DEPTH && multipv == 1 && !is_mate_score(prev) {
            (prev - delta, prev + delta)
        } else {
            (-INFINITE, INFINITE)
        };
    loop {
        let s = root_iteration(tree, rms, depth, alpha, beta, multipv)?;
        match widen(alpha, beta, s, delta) {
            Some(w) => (alpha, beta, delta) = w,
            None => return Some(s),
        }
    }
}

/// The next aspiration window after a pass over (alpha, beta) returned `s`
/// with half-width `delta`: None when `s` lies inside (the iteration is
/// done), else the new (alpha, beta, delta). A fail low also pulls beta
/// down to the old window's middle (the score is below the old window, so
/// the re-search need not look above it); the width grows 1.5× a fail and
/// the window opens fully only past `params::ASPIRATION_OPEN` or on a mate score:
/// an open-window pass costs far more than a few narrow re-searches.
pub(super) fn widen(
    alpha: Score,
    beta: Score,
    s: Score,
    delta: Score,
) -> Option<(Score, Score, Score)> {
    let (mut alpha, mut beta) = if s <= alpha && alpha > -INFINITE {
        ((s - delta).max(-INFINITE), (alpha + beta) / 2)
    } else if s >= beta && beta < INFINITE {
        (alpha, (s + delta).min(INFINITE))
    } else {
        return None;
    };
    let delta = delta + delta / params::ASPIRATION_GROWTH_DIVISOR;
    if delta > params::ASPIRATION_OPEN || is_mate_score(s) {
        alpha = -INFINITE;
        beta = INFINITE;
    }
    Some((alpha, beta, delta))
}

/// Plies taken off the null-window search of the `i`-th root move (0-based)
/// at `depth`: late quiet moves are reduced as a PV node's are in the tree
/// (a move that beats alpha anyway is searched again at full depth); the
/// first `params::ROOT_LMR_FULL_MOVES`, tactical moves and shallow iterations never.
pub(super) fn root_reduction(depth: i32, i: usize, tactical: bool) -> i32 {
    if tactical || depth < params::ROOT_LMR_MIN_DEPTH || i < params::ROOT_LMR_FULL_MOVES {
        0
    } else {
        alphabeta::lmr_reduction(depth, i)
    }
}

/// One pass over the root moves at `depth` within (alpha, beta). Returns the
/// best score, or None when the search was stopped. Leaves the root moves
/// sorted best first; with `multipv` > 1 every move gets an exact score.
pub(super) fn root_iteration(
    tree: &mut Tree,
    rms: &mut [RootMove],
    depth: i32,
    alpha: Score,
    beta: Score,
    multipv: usize,
) -> Option<Score> {
    let mut best = -INFINITE;
    let mut a = alpha;
    let mut searched = 0;
    for (i, rm) in rms.iter_mut().enumerate() {
        let full = i == 0 || multipv > 1;
        let window_alpha = if multipv > 1 { alpha } else { a };
        // (`search_root_move` reduces only null-window searches.)
        let r = root_reduction(depth, i, ordering::is_tactical(&tree.pos, rm.mv));
        let s = tree.search_root_move(rm.mv, depth, window_alpha, beta, full, r);
        if tree.aborted {
            return None;
        }
        searched = i + 1;
        rm.score = s;
        if full || s > a {
            rm.pv = tree.root_pv();
        }
        if s > best {
            best = s;
        }
        if s > a {
            a = s;
            if i > 0 && multipv == 1 {
                tree.root_beater = Some((rm.mv, s, rm.pv.clone()));
            }
            if s >= beta && multipv == 1 {
                break;
            }
        }
    }
    for r in rms[searched..].iter_mut() {
        r.score = -INFINITE;
    }
    // Stable: among equal scores the earlier (better ordered) move stays first.
    rms.sort_by_key(|r| std::cmp::Reverse(r.score));
    Some(best)
}
