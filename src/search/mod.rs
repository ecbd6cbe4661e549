//! Search: the searcher. Callers (the engine) hand it a board and a
//! `SearchRequest` (a time plan made by the engine, depth and node limits,
//! a stop flag) and get back a move, a score and a principal variation.
//!
//! `Searcher` owns what lives across searches (transposition table, move
//! ordering history, threat solver, helper threads' state). `search` runs
//! the *root probe* first (`root`: what needs no tree, such as a five,
//! a single forced block or a lost position; then the threat solver's VCF/VCT
//! for us, played at once, and the opponent's VCF, after which only moves that
//! defuse it stay) and then *iterative deepening* (`deepening`) with
//! aspiration windows over the root moves, Lazy SMP helpers beside it. The
//! tree walk is in `alphabeta`, move generation in `movegen`, ordering in
//! `ordering`, the table and memory sizing in `tt`, the time manager in
//! `time`, VCF/VCT in `threat`, the helpers in `smp`.

pub mod alphabeta;
mod deepening;
pub mod movegen;
pub mod ordering;
pub mod params;
mod root;
pub mod smp;
pub mod time;
pub mod tt;
pub mod watchdog;

pub mod threat;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

pub use crate::eval::EvalKind;
use crate::game::{Board, Pos};
use crate::types::Score;
use time::TimePlan;

use alphabeta::{Tree, TreeLimits};
use movegen::Position;
use ordering::Ordering as MoveOrdering;
use smp::HelperState;
pub use smp::{clamp_threads, MAX_THREADS};
use threat::ThreatSolver;
pub use tt::{threads_for_memory, tt_bytes_for, DEFAULT_MEMORY};
use tt::{tt_bytes_for_threads, Tt};
use watchdog::Watchdog;

use deepening::{complete_pv, Deepening};
use root::root_probe;
pub use root::{threat_budget, ThreatBudget};

/// One search job: a time plan (made by the engine's time manager,
/// `time::plan`), the depth and node limits, the stop flag and how many best
/// moves to rank.
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

/// Statistics of the last search (for bench and reports).
#[derive(Clone, Copy, Debug, Default)]
pub struct SearchStats {
    pub nodes: u64,
    pub depth: u32,
    pub seldepth: usize,
    pub tt_probes: u64,
    pub tt_hits: u64,
    pub elapsed: Duration,
}

/// Owns what lives across searches (transposition table, history).
pub struct Searcher {
    tt: Tt,
    /// Bytes the table was asked for (it rounds down to whole buckets).
    tt_asked: usize,
    /// The whole-process budget of a searcher built by `new`: the thread
    /// count and the table are sized from it together.
    memory: Option<usize>,
    ord: MoveOrdering,
    threat: ThreatSolver,
    /// State of the helper threads (Lazy SMP): one per thread beyond the first.
    helpers: Vec<HelperState>,
    /// Helper threads started so far, and those still running (for tests:
    /// none may outlive the search that started it).
    helper_starts: std::sync::atomic::AtomicUsize,
    helpers_live: std::sync::atomic::AtomicUsize,
    pub stats: SearchStats,
    pub options: SearchOptions,
}

/// Switches for experiments (A/B matches); the defaults are what plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchOptions {
    /// Threat solver at the root (own VCF/VCT, opponent's VCF).
    pub root_threats: bool,
    /// VCF at the horizon. Off: in self-play A/B matches (freestyle 15×15,
    /// 20 opening pairs each) the version with it scored 12–27–1 at 100 ms
    /// and 14–26 at 300 ms per move against the version without: the
    /// solver's cost per leaf outweighs what it finds.
    pub leaf_vcf: bool,
    /// The static evaluation: classical (default) or the learned net
    /// (`eval::net`), for A/B matches until one wins.
    pub eval: EvalKind,
}

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions {
            root_threats: true,
            leaf_vcf: false,
            eval: EvalKind::Classic,
        }
    }
}

/// Build the pattern tables of every rule (and the evaluator's) on a
/// background thread, so the first timed search does not pay for them.
/// Later callers of the same table simply wait for it (`OnceLock`).
pub fn warm_up_tables() {
    static STARTED: std::sync::Once = std::sync::Once::new();
    STARTED.call_once(|| {
        let spawned = std::thread::Builder::new().name("tables".into()).spawn(|| {
            for rule in crate::types::Rule::ALL {
                let _ = crate::game::pattern::table(rule);
            }
            if let Ok(b) = Board::square(5, crate::types::RuleSet::default()) {
                let _ = crate::eval::Evaluator::new(&b);
            }
        });
        if let Err(e) = spawned {
            log::warn!("could not start the table builder: {e}");
        }
    });
}

/// Build every rule's pattern table and the evaluator's tables now, on two
/// threads (about 0.2 s). For the protocol to call before answering START:
/// managers suspend the brain right after START/INFO, so anything left to
/// build lazily is paid for by the first move's clock.
pub fn warm_up_tables_blocking() {
    let rules = crate::types::Rule::ALL;
    std::thread::scope(|s| {
        s.spawn(|| {
            for rule in &rules[..2] {
                let _ = crate::game::pattern::table(*rule);
            }
        });
        for rule in &rules[2..] {
            let _ = crate::game::pattern::table(*rule);
        }
    });
    if let Ok(b) = Board::square(5, crate::types::RuleSet::default()) {
        let _ = crate::eval::Evaluator::new(&b);
    }
}

impl Searcher {
    /// A searcher whose tables use about `memory_bytes` in all
    /// (0: the 350 MB default).
    pub fn new(memory_bytes: usize) -> Self {
        warm_up_tables();
        let mut s = Searcher::with_tt_bytes(tt_bytes_for(memory_bytes));
        s.memory = Some(memory_bytes);
        s
    }

    /// A searcher with a transposition table of exactly about `bytes`.
    pub fn with_tt_bytes(bytes: usize) -> Self {
        Searcher {
            tt: Tt::new(bytes),
            tt_asked: bytes,
            memory: None,
            ord: MoveOrdering::default(),
            threat: ThreatSolver::new(),
            helpers: Vec::new(),
            helper_starts: Default::default(),
            helpers_live: Default::default(),
            stats: SearchStats::default(),
            options: SearchOptions::default(),
        }
    }

    /// Search with `n` threads (1: no helpers, deterministic). Callers clamp
    /// `n` (see `clamp_threads`); it is capped at `MAX_THREADS` here too,
    /// and for a searcher built from a memory budget (`new`) at what the
    /// budget allows (`threads_for_memory`): the table then gives up the
    /// helpers' share (`tt_bytes_for_threads`), reallocated (empty) only
    /// when the thread count changes.
    pub fn set_threads(&mut self, n: usize) {
        let mut n = n.clamp(1, MAX_THREADS);
        if let Some(memory) = self.memory {
            n = n.min(threads_for_memory(memory));
            let bytes = tt_bytes_for_threads(memory, n);
            if bytes != self.tt_asked {
                self.tt = Tt::new(64); // free the old table first
                self.tt = Tt::new(bytes);
                self.tt_asked = bytes;
            }
        }
        let helpers = n - 1;
        self.helpers.truncate(helpers);
        while self.helpers.len() < helpers {
            self.helpers.push(HelperState {
                ord: MoveOrdering::default(),
                threat: ThreatSolver::new(),
            });
        }
    }

    pub fn threads(&self) -> usize {
        self.helpers.len() + 1
    }

    /// (helper threads started so far, helper threads running now).
    pub fn helper_counts(&self) -> (usize, usize) {
        (
            self.helper_starts.load(Ordering::SeqCst),
            self.helpers_live.load(Ordering::SeqCst),
        )
    }

    /// Forget everything learnt (YXHASHCLEAR, new game).
    pub fn clear(&mut self) {
        self.tt.clear();
        self.ord.clear();
        self.threat.clear();
        for h in self.helpers.iter_mut() {
            h.ord.clear();
            h.threat.clear();
        }
    }

    pub fn tt_bytes(&self) -> usize {
        self.tt.bytes()
    }

    /// Search `board` (left as it was) for the side to move under `req`,
    /// reporting each completed iteration to `on_info`. First the root
    /// probe settles what needs no tree (a five, a lost position, a single
    /// move, a threat-solver win) and drops root moves that let the
    /// opponent's VCF through; then iterative deepening searches the rest.
    pub fn search(
        &mut self,
        board: &mut Board,
        req: &SearchRequest,
        on_info: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult {
        let empty = board.cell_count().saturating_sub(board.stone_count());
        let plan = req.plan;
        self.tt.new_search();
        self.ord.new_search();
        for h in self.helpers.iter_mut() {
            h.ord.new_search();
        }
        let max_nodes = req.max_nodes.filter(|&n| n > 0).unwrap_or(u64::MAX);

        if board.is_full() || empty == 0 {
            return SearchResult {
                best: Pos::NONE,
                score: 0,
                pv: vec![],
                depth: 0,
                nodes: 0,
                ranked: vec![],
            };
        }

        let mut budget = threat_budget(&plan, max_nodes);
        if !self.options.root_threats {
            budget.vcf = 0;
            budget.vct = 0;
            budget.defend = 0;
        }
        if !self.options.leaf_vcf {
            budget.leaf = 0;
        }
        // The hard deadline is enforced by a timer thread raising the flag
        // every part of the search polls (the solver has only node budgets).
        let deadline = (!plan.unlimited && !plan.instant)
            .then(|| req.start + Duration::from_millis(plan.hard_ms));
        let watchdog = Watchdog::start(req.stop.clone(), deadline);
        let stop = watchdog.flag();
        let pos = Position::with_eval(board, self.options.eval);
        let mut tree = Tree::new(
            pos,
            &self.tt,
            &mut self.ord,
            &mut self.threat,
            TreeLimits {
                stop,
                plan,
                start: req.start,
                max_nodes,
                leaf_vcf_nodes: budget.leaf,
            },
        );
        let mut moves = Vec::new();
        if let Some((best, score, pv)) =
            root_probe(&mut tree, &mut moves, req.multipv.max(1), budget, stop)
        {
            let nodes = tree.nodes + tree.vcf_nodes;
            let info = SearchInfo {
                depth: 1,
                score,
                nodes,
                elapsed: req.start.elapsed(),
                pv: pv.clone(),
            };
            on_info(&info);
            self.stats = SearchStats {
                nodes,
                depth: 1,
                elapsed: info.elapsed,
                ..SearchStats::default()
            };
            return SearchResult {
                best,
                score,
                pv,
                depth: 1,
                nodes,
                ranked: vec![(best, score)],
            };
        }
        let deepening = Deepening {
            req,
            empty,
            helpers: &mut self.helpers,
            helper_starts: &self.helper_starts,
            helpers_live: &self.helpers_live,
        };
        let out = deepening.run(&mut tree, &moves, on_info);
        let seldepth = tree.seldepth;
        let (tt_probes, tt_hits) = (tree.tt_probes, tree.tt_hits);
        drop(tree);
        let mut best = out.completed[0].clone();
        complete_pv(&self.tt, board, &mut best.pv);
        if out.depth > 0 && best.pv != out.shown_pv {
            on_info(&SearchInfo {
                depth: out.depth,
                score: out.score,
                nodes: out.nodes,
                elapsed: req.start.elapsed(),
                pv: best.pv.clone(),
            });
        }
        let ranked = out
            .completed
            .iter()
            .take(req.multipv.max(1))
            .map(|r| (r.mv, r.score))
            .collect();
        self.stats = SearchStats {
            nodes: out.nodes,
            depth: out.depth,
            seldepth,
            tt_probes,
            tt_hits,
            elapsed: req.start.elapsed(),
        };
        SearchResult {
            best: best.mv,
            score: if out.depth > 0 { out.score } else { 0 },
            pv: best.pv,
            depth: out.depth,
            nodes: out.nodes,
            ranked,
        }
    }
}

#[cfg(test)]
mod tests;
