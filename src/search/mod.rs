//! Search: the searcher facade. Callers hand it a board and a request
//! (limits, stop flag) and get back a move, a score and a principal variation.

pub mod threat;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::game::{Board, Pos};
use crate::types::Score;

/// Everything the manager told us that bounds one search.
#[derive(Clone, Debug)]
pub struct Limits {
    /// `INFO timeout_turn` in ms (None: not given; Some(0): answer at once).
    pub turn_ms: Option<u64>,
    /// `INFO timeout_match` in ms (None or 0: unlimited).
    pub match_ms: Option<u64>,
    /// `INFO time_left` in ms, if the game is timed.
    pub time_left_ms: Option<i64>,
    /// `INFO max_depth`.
    pub max_depth: Option<u32>,
    /// `INFO max_node`.
    pub max_nodes: Option<u64>,
    /// When the request arrived (the clock starts here, not when search starts).
    pub start: Instant,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            turn_ms: None,
            match_ms: None,
            time_left_ms: None,
            max_depth: None,
            max_nodes: None,
            start: Instant::now(),
        }
    }
}

/// One search job.
#[derive(Clone, Debug)]
pub struct SearchRequest {
    pub limits: Limits,
    /// Set by another thread (END, YXSTOP) to stop at once.
    pub stop: Arc<AtomicBool>,
    /// Number of best moves wanted (YXNBEST); 1 for normal play.
    pub multipv: usize,
}

impl SearchRequest {
    pub fn new(limits: Limits) -> Self {
        SearchRequest {
            limits,
            stop: Arc::new(AtomicBool::new(false)),
            multipv: 1,
        }
    }

    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }
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

#[derive(Clone, Debug)]
pub struct SearchResult {
    /// The move to play; `Pos::NONE` only when the board is full.
    pub best: Pos,
    pub score: Score,
    pub pv: Vec<Pos>,
    pub depth: u32,
    pub nodes: u64,
    /// For YXNBEST: (move, score) best first; at least `best`.
    pub ranked: Vec<(Pos, Score)>,
}

/// Owns what lives across searches (transposition table, history).
pub struct Searcher {}

impl Searcher {
    /// A searcher whose tables use about `memory_bytes` in all.
    pub fn new(_memory_bytes: usize) -> Self {
        Searcher {}
    }

    pub fn clear(&mut self) {}

    pub fn search(
        &mut self,
        board: &mut Board,
        _req: &SearchRequest,
        _on_info: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult {
        // Placeholder until the real search lands: the empty cell nearest the centre.
        let (cx, cy) = (board.width() as i64 / 2, board.height() as i64 / 2);
        let best = board
            .empty_cells()
            .min_by_key(|&p| {
                let (x, y) = board.xy(p);
                (x as i64 - cx).abs().max((y as i64 - cy).abs())
            })
            .unwrap_or(Pos::NONE);
        SearchResult {
            best,
            score: 0,
            pv: vec![best],
            depth: 0,
            nodes: 0,
            ranked: vec![(best, 0)],
        }
    }
}
