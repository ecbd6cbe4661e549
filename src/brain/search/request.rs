//! What a search is asked and what it reports while it runs: the job
//! (`SearchRequest`: a time plan, limits, the stop flag, the analysis
//! controls), the progress after each iteration (`SearchInfo`) and the root
//! moves' events for a GUI's live view (`RootEvent`).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::time::TimePlan;
use crate::brain::game::Pos;
use crate::brain::types::Score;

/// One search job: a time plan (made by the engine's time manager,
/// `time::plan`), the depth and node limits, the stop flag, how many best
/// moves to rank, and the analysis controls (root moves to leave out, the
/// first depth, a move limit).
#[derive(Clone, Debug)]
pub struct SearchRequest {
    /// Soft and hard limits, in ms from `start`.
    pub plan: TimePlan,
    /// When the clock started (the manager's command arrived, not when the
    /// search began).
    pub start: Instant,
    /// `INFO max_depth`.
    pub max_depth: Option<u32>,
    /// `INFO max_node`.
    pub max_nodes: Option<u64>,
    /// Set by another thread (END, YXSTOP) to stop at once.
    pub stop: Arc<AtomicBool>,
    /// Number of best moves wanted (YXNBEST); 1 for normal play.
    pub multipv: usize,
    /// Root moves to leave out (YXBLOCK). A five, a single move or a
    /// threat-solver win that is one of them is not played at once; if
    /// every root move is left out, the list is searched as it is.
    pub excluded: Vec<Pos>,
    /// The first iteration's depth (INFO start_depth; None: 1).
    pub start_depth: Option<u32>,
    /// Moves left before the game ends by a move limit (INFO max_moves;
    /// None: none): iterations go no deeper.
    pub moves_left: Option<usize>,
    /// The threat solver's share of its node budgets, in percent (100:
    /// all; a strength level below full strength gives it less).
    pub threat_percent: u64,
}

impl SearchRequest {
    /// A request under `plan`, its clock started at `start`.
    pub fn planned(
        plan: TimePlan,
        start: Instant,
        max_depth: Option<u32>,
        max_nodes: Option<u64>,
    ) -> Self {
        SearchRequest {
            plan,
            start,
            max_depth,
            max_nodes,
            stop: Arc::new(AtomicBool::new(false)),
            multipv: 1,
            excluded: Vec::new(),
            start_depth: None,
            moves_left: None,
            threat_percent: 100,
        }
    }

    /// No clock: only the depth or node limit (or the stop flag) ends it.
    pub fn untimed(max_depth: Option<u32>, max_nodes: Option<u64>) -> Self {
        SearchRequest::planned(TimePlan::UNLIMITED, Instant::now(), max_depth, max_nodes)
    }

    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }
}

/// What the main thread's root loop is doing with one root move, for a
/// GUI's live view (`Searcher::search_observed`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RootEventKind {
    /// About to search the move.
    Searching,
    /// Finished searching it.
    Done,
    /// It is proven lost (after `Done`).
    Lost,
    /// It is the best so far of this iteration (after `Done`).
    Best,
}

/// One root move's event, at the iteration `depth`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RootEvent {
    pub kind: RootEventKind,
    pub mv: Pos,
    pub depth: u32,
}

/// Progress report after each completed iteration.
#[derive(Clone, Debug)]
pub struct SearchInfo {
    pub depth: u32,
    pub score: Score,
    pub nodes: u64,
    pub elapsed: Duration,
    pub pv: Vec<Pos>,
}
