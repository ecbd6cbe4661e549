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
//! `ordering`, the
//! table and memory sizing in `tt`, the time manager in `time`, VCF/VCT in
//! `threat`, the helpers in `smp`.

pub mod alphabeta;
mod deepening;
pub mod evalcache;
mod horizon;
mod iteration;
pub mod movegen;
pub mod ordering;
pub mod params;
pub mod picker;
pub mod position;
mod request;
mod root;
mod selectivity;
pub mod smp;
pub mod time;
pub mod tt;
pub mod tunable;
pub mod watchdog;

pub mod threat;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use crate::brain::eval::net::{embedded_net_for, QuantNet};
pub use crate::brain::eval::EvalKind;
use crate::brain::game::{Board, Pos};
use crate::brain::types::{Rule, Score};

pub use alphabeta::Cutoffs;
use alphabeta::{Tree, TreeLimits};
use evalcache::EvalCache;
use ordering::MoveOrder;
pub use params::MAX_THREADS;
use position::Position;
pub use smp::clamp_threads;
use smp::HelperState;
use threat::ThreatSolver;
pub use tt::{threads_for_memory, tt_bytes_for, DEFAULT_MEMORY};
use tt::{tt_bytes_for_threads, PendingTt, Tt, FIRST_TT_BYTES};
use watchdog::Watchdog;

use deepening::{complete_pv, Deepening};
pub use request::{RootEvent, RootEventKind, SearchInfo, SearchRequest};
use root::root_probe;
pub use root::{threat_budget, ThreatBudget};

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
    /// The main thread's cutoffs by move (ordering diagnostics).
    pub cutoffs: Cutoffs,
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
    /// The full table while it is built off this thread (a searcher built
    /// by `new_in_background`; `tt` is a small one meanwhile). The next
    /// search that finds it ready starts with it.
    pending: Option<PendingTt>,
    /// A full table of `tt_asked` bytes is wanted, its build not started
    /// yet (`start_table_build`).
    build_wanted: bool,
    /// Build new tables in the background (`new_in_background`)?
    background: bool,
    ord: MoveOrder,
    threat: ThreatSolver,
    /// The net's scores by position (`evalcache`), kept from search to
    /// search while the net, rules and board size stay.
    ecache: EvalCache,
    /// State of the helper threads (Lazy SMP): one per thread beyond the first.
    helpers: Vec<HelperState>,
    /// Helper threads started so far, and those still running (for tests:
    /// none may outlive the search that started it).
    helper_starts: std::sync::atomic::AtomicUsize,
    helpers_live: std::sync::atomic::AtomicUsize,
    pub stats: SearchStats,
    pub options: SearchOptions,
    /// The net `EvalKind::Net` evaluates with (None: the rule's embedded
    /// one, `eval::net::embedded_net_for`); the engine sets it
    /// (`Engine::set_net`).
    pub net: Option<Arc<QuantNet>>,
}

/// Switches for experiments (A/B matches); the defaults are what plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchOptions {
    /// Threat solver at the root (own VCF/VCT, opponent's VCF).
    pub root_threats: bool,
    /// The static evaluation: by default the rule's own (`EvalKind::Auto`:
    /// the learned net under every rule, `EvalKind::for_rule`), or either
    /// one forced (`--eval classic|net`; which net is the searcher's `net`).
    pub eval: EvalKind,
}

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions {
            root_threats: true,
            eval: EvalKind::Auto,
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
            for rule in crate::brain::types::Rule::ALL {
                let _ = crate::brain::game::pattern::table(rule);
            }
            if let Ok(b) = Board::square(5, crate::brain::types::RuleSet::default()) {
                let _ = crate::brain::eval::Evaluator::new(&b);
            }
        });
        if let Err(e) = spawned {
            log::warn!("could not start the table builder: {e}");
        }
    });
}

/// Build the evaluator's tables now (a few ms), for the protocol to call
/// before answering START; the rule's pattern table is built by the
/// engine's `prepare`, the other rules' by `warm_up_tables` when the
/// protocol is idle.
pub fn warm_up_eval_tables() {
    if let Ok(b) = Board::square(5, crate::brain::types::RuleSet::default()) {
        let _ = crate::brain::eval::Evaluator::new(&b);
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

    /// `new` for the protocol: the table, sized for `memory_bytes` shared
    /// with `threads` threads (`set_threads`), is built on a thread of its
    /// own (`tt::PendingTt`) once `start_table_build` is called, and so is
    /// every later one (a new size, `clear`); until it is ready the
    /// searcher searches with a small table. Nothing here waits for a
    /// large table to be mapped, and the other rules' pattern tables are
    /// left to `warm_up_tables`.
    pub fn new_in_background(memory_bytes: usize, threads: usize) -> Self {
        let mut s = Searcher::with_tt_bytes(0);
        s.memory = Some(memory_bytes);
        s.background = true;
        s.set_threads(threads);
        s
    }

    /// A searcher with a transposition table of exactly about `bytes`.
    pub fn with_tt_bytes(bytes: usize) -> Self {
        Searcher {
            tt: Tt::new(bytes),
            tt_asked: bytes,
            memory: None,
            pending: None,
            build_wanted: false,
            background: false,
            ord: MoveOrder::default(),
            threat: ThreatSolver::new(),
            ecache: EvalCache::new(),
            helpers: Vec::new(),
            helper_starts: Default::default(),
            helpers_live: Default::default(),
            stats: SearchStats::default(),
            options: SearchOptions::default(),
            net: None,
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
                self.rebuild_table(bytes);
            }
        }
        let helpers = n - 1;
        self.helpers.truncate(helpers);
        while self.helpers.len() < helpers {
            self.helpers.push(HelperState {
                ord: MoveOrder::default(),
                threat: ThreatSolver::new(),
                ecache: EvalCache::new(),
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

    /// A new, empty table of about `bytes` in place of the current one,
    /// which is freed first (with any table still being built): built here,
    /// or, for a searcher built by `new_in_background` and a table larger
    /// than `FIRST_TT_BYTES`, by `start_table_build`, with a small table
    /// meanwhile.
    fn rebuild_table(&mut self, bytes: usize) {
        self.pending = None;
        self.build_wanted = false;
        self.tt = Tt::new(64);
        self.tt_asked = bytes;
        if self.background && bytes > FIRST_TT_BYTES {
            self.tt = Tt::new(FIRST_TT_BYTES);
            self.build_wanted = true;
        } else {
            self.tt = Tt::new(bytes);
        }
    }

    /// Start building the full table on a thread of its own, if one is
    /// wanted (the engine calls this when the protocol is idle: a manager's
    /// burst of START, INFO and the first move is dealt with first, and a
    /// size changed by a later INFO is not built twice). Where no thread
    /// can be started the table is built here.
    pub fn start_table_build(&mut self) {
        if std::mem::take(&mut self.build_wanted) {
            self.pending = PendingTt::start(self.tt_asked);
            if self.pending.is_none() {
                self.tt = Tt::new(64);
                self.tt = Tt::new(self.tt_asked);
            }
        }
    }

    /// Start using the table built in the background if it is ready (or,
    /// with `wait`, once it is, starting its build if need be).
    fn adopt_table(&mut self, wait: bool) {
        if wait {
            self.start_table_build();
        }
        if self.pending.as_ref().is_some_and(|p| wait || p.is_ready()) {
            if let Some(tt) = self.pending.take().and_then(PendingTt::take) {
                self.tt = tt;
            } else {
                log::warn!("the table builder failed; building the table here");
                self.tt = Tt::new(64);
                self.tt = Tt::new(self.tt_asked);
            }
        }
    }

    /// Wait for a table being built in the background and start using it
    /// (tests, bench).
    pub fn wait_for_table(&mut self) {
        self.adopt_table(true);
    }

    /// Bytes of the full table still to be built or being built in the
    /// background (None: the table in use is the full one).
    pub fn pending_tt_bytes(&self) -> Option<usize> {
        match &self.pending {
            Some(p) => Some(p.bytes()),
            None => self.build_wanted.then_some(self.tt_asked),
        }
    }

    /// Forget everything learnt (YXHASHCLEAR, new game): the table is
    /// zeroed here, or rebuilt in the background for a searcher built by
    /// `new_in_background` (zeroing a large table takes as long as
    /// building it).
    pub fn clear(&mut self) {
        if self.background && self.pending_tt_bytes().is_none() && self.tt_asked > FIRST_TT_BYTES {
            self.rebuild_table(self.tt_asked);
        } else {
            self.tt.clear();
        }
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

    /// Per mille of the table holding the last search's entries (sampled).
    pub fn hashfull(&self) -> u32 {
        self.tt.hashfull()
    }

    /// The net a search under `rule` evaluates with: None where the
    /// options' evaluation resolves to classical under `rule`, else `net`
    /// or the rule's embedded one.
    pub fn eval_net(&self, rule: Rule) -> Option<Arc<QuantNet>> {
        self.options
            .eval
            .uses_net(rule)
            .then(|| self.net.clone().unwrap_or_else(|| embedded_net_for(rule)))
    }

    /// The opponent's forced win (a VCF, else a VCT, within `nodes` solver
    /// nodes each) after the side to move plays `mv` on `board`; None when
    /// the solver finds none (YXSEARCHDEFEND's check of each defence).
    pub fn forced_win_after(
        &mut self,
        board: &Board,
        mv: Pos,
        nodes: u64,
        stop: &AtomicBool,
    ) -> Option<Vec<Pos>> {
        let mut b = board.clone();
        let opp = b.to_move().opposite();
        b.play(mv);
        let found = |line: Option<Vec<Pos>>| line.filter(|l| !l.is_empty());
        found(self.threat.vcf(&mut b, opp, nodes, stop)).or_else(|| {
            found(
                self.threat
                    .vct(&mut b, opp, threat::MAX_THREATS, nodes, stop),
            )
        })
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
        self.search_observed(board, req, on_info, &mut |_| {})
    }

    /// `search`, telling `on_root` of each root move the main thread
    /// enters and leaves during iterative deepening (`RootEvent`).
    pub fn search_observed(
        &mut self,
        board: &mut Board,
        req: &SearchRequest,
        on_info: &mut dyn FnMut(&SearchInfo),
        on_root: &mut dyn FnMut(RootEvent),
    ) -> SearchResult {
        let empty = board.cell_count().saturating_sub(board.stone_count());
        self.new_search();
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
        let plan = req.plan;
        let max_nodes = req.max_nodes.filter(|&n| n > 0).unwrap_or(u64::MAX);
        let budget = self.budget_for(req, max_nodes);
        // The hard deadline is enforced by a timer thread raising the flag
        // every part of the search polls (the solver has only node budgets).
        let deadline = (!plan.unlimited && !plan.instant)
            .then(|| req.start + Duration::from_millis(plan.hard_ms));
        let watchdog = Watchdog::start(req.stop.clone(), deadline);
        let stop = watchdog.flag();
        let net = self.eval_net(board.rules().rule);
        let pos = Position::with_net(board, net);
        let mut tree = Tree::new(
            pos,
            &self.tt,
            &mut self.ord,
            &mut self.threat,
            &mut self.ecache,
            TreeLimits {
                stop,
                plan,
                start: req.start,
                max_nodes,
            },
        );
        let mut moves = Vec::new();
        let excluded = &req.excluded;
        let multipv = req.multipv.max(1);
        if let Some(found) = root_probe(&mut tree, &mut moves, multipv, budget, stop, excluded) {
            let nodes = tree.nodes + tree.vcf_nodes;
            return self.probed(found, nodes, req, on_info);
        }
        let deepening = Deepening {
            req,
            empty: req.moves_left.map_or(empty, |m| m.min(empty)),
            helpers: &mut self.helpers,
            helper_starts: &self.helper_starts,
            helpers_live: &self.helpers_live,
        };
        let out = deepening.run(&mut tree, &moves, on_info, on_root);
        let stats = SearchStats {
            nodes: out.nodes,
            depth: out.depth,
            seldepth: tree.seldepth,
            tt_probes: tree.tt_probes,
            tt_hits: tree.tt_hits,
            cutoffs: tree.cutoffs,
            elapsed: Duration::ZERO,
        };
        drop(tree);
        self.deepened(board, req, out, stats, on_info)
    }

    /// A search's start: the table built in the background adopted if
    /// ready, a new generation, the killers forgotten and history faded
    /// (the helpers' too).
    fn new_search(&mut self) {
        self.adopt_table(false);
        self.tt.new_search();
        self.ord.new_search();
        for h in self.helpers.iter_mut() {
            h.ord.new_search();
        }
    }

    /// The threat solver's budgets for `req`: by its plan and node limit,
    /// its share (a strength level's), none with the root threats off.
    fn budget_for(&self, req: &SearchRequest, max_nodes: u64) -> ThreatBudget {
        let mut budget = threat_budget(&req.plan, max_nodes);
        if req.threat_percent < 100 {
            let share = |n: u64| n / 100 * req.threat_percent;
            budget.vcf = share(budget.vcf);
            budget.vct = share(budget.vct);
            budget.defend = share(budget.defend);
        }
        if !self.options.root_threats {
            budget.vcf = 0;
            budget.vct = 0;
            budget.defend = 0;
        }
        budget
    }

    /// The result of a search the root probe settled: `(best, score, pv)`
    /// after `nodes` (the solver's), reported as a depth-1 iteration.
    fn probed(
        &mut self,
        (best, score, pv): (Pos, Score, Vec<Pos>),
        nodes: u64,
        req: &SearchRequest,
        on_info: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult {
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
        SearchResult {
            best,
            score,
            pv,
            depth: 1,
            nodes,
            ranked: vec![(best, score)],
        }
    }

    /// The result of iterative deepening: the best move's PV completed from
    /// the table (and reported again if that changed it), the ranked moves,
    /// and the statistics (`stats`, its time taken now).
    fn deepened(
        &mut self,
        board: &mut Board,
        req: &SearchRequest,
        out: deepening::Deepened,
        stats: SearchStats,
        on_info: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult {
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
            elapsed: req.start.elapsed(),
            ..stats
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
