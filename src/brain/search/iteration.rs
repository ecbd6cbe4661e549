//! One iteration over the root moves, shared by the main thread's
//! iterative deepening (`deepening`) and the Lazy SMP helpers (`smp`): the
//! root move list (`RootMove`), the aspiration window around the previous
//! score (`aspiration`, `widen`), the pass over the root moves
//! (`root_iteration`, late root moves reduced by `root_reduction`), and a
//! stopped iteration's beater (`adopt_beater`). The pass tells a watcher
//! which root move it enters and leaves and what it found (`RootEvent`,
//! for a GUI's live view); the helpers pass one that ignores it.

use super::alphabeta::Tree;
use super::ordering;
use super::params;
use super::request::{RootEvent, RootEventKind};
use super::selectivity;
use crate::brain::game::Pos;
use crate::brain::types::{is_mate_score, Depth, Score, INFINITE, ONE_PLY};

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
/// score (`prev`; None: no previous iteration, an open window), widened on
/// failure. None when the search was stopped. `watch` hears of each root
/// move entered and left (`RootEvent`).
pub(super) fn aspiration(
    tree: &mut Tree,
    rms: &mut [RootMove],
    depth: i32,
    prev: Option<Score>,
    multipv: usize,
    watch: &mut dyn FnMut(RootEvent),
) -> Option<Score> {
    let mut delta = params::ASPIRATION();
    let (mut alpha, mut beta) = match prev {
        Some(prev)
            if depth >= params::ASPIRATION_MIN_DEPTH() && multipv == 1 && !is_mate_score(prev) =>
        {
            (prev - delta, prev + delta)
        }
        _ => (-INFINITE, INFINITE),
    };
    loop {
        let s = root_iteration(tree, rms, depth, alpha, beta, multipv, watch)?;
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
    let delta = delta + delta / params::ASPIRATION_GROWTH_DIVISOR();
    if delta > params::ASPIRATION_OPEN() || is_mate_score(s) {
        alpha = -INFINITE;
        beta = INFINITE;
    }
    Some((alpha, beta, delta))
}

/// Plies taken off the null-window search of the `i`-th root move (0-based)
/// at `depth`: late quiet moves are reduced as a PV node's are in the tree
/// (a move that beats alpha anyway is searched again at full depth); the
/// first `params::ROOT_LMR_FULL_MOVES`, tactical moves and shallow iterations never.
pub(super) fn root_reduction(depth: i32, i: usize, tactical: bool) -> Depth {
    if tactical || depth < params::ROOT_LMR_MIN_DEPTH() || i < params::ROOT_LMR_FULL_MOVES() {
        0
    } else {
        selectivity::lmr_reduction(depth * ONE_PLY, i)
    }
}

/// One pass over the root moves at `depth` within (alpha, beta). Returns the
/// best score, or None when the search was stopped. Leaves the root moves
/// sorted best first; with `multipv` > 1 every move gets an exact score.
/// `watch` hears, for each root move, that it is entered, then left (also
/// when the search stops in it), then (if so) that it is proven lost or the
/// new best.
pub(super) fn root_iteration(
    tree: &mut Tree,
    rms: &mut [RootMove],
    depth: i32,
    alpha: Score,
    beta: Score,
    multipv: usize,
    watch: &mut dyn FnMut(RootEvent),
) -> Option<Score> {
    let event = |kind, mv| RootEvent {
        kind,
        mv,
        depth: depth as u32,
    };
    let mut best = -INFINITE;
    let mut a = alpha;
    let mut searched = 0;
    for (i, rm) in rms.iter_mut().enumerate() {
        let full = i == 0 || multipv > 1;
        let window_alpha = if multipv > 1 { alpha } else { a };
        // (`search_root_move` reduces only null-window searches.)
        let r = root_reduction(depth, i, ordering::is_tactical(&tree.pos, rm.mv));
        watch(event(RootEventKind::Searching, rm.mv));
        let s = tree.search_root_move(rm.mv, depth * ONE_PLY, window_alpha, beta, full, r);
        watch(event(RootEventKind::Done, rm.mv));
        if tree.aborted {
            return None;
        }
        // A mated score is an upper bound at worst: the move loses.
        if s < 0 && is_mate_score(s) {
            watch(event(RootEventKind::Lost, rm.mv));
        } else if s > a || i == 0 {
            watch(event(RootEventKind::Best, rm.mv));
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
