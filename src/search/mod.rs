//! Search: the searcher. Callers (the engine) hand it a board and a
//! `SearchRequest` (a time plan made by the engine, depth and node limits,
//! a stop flag) and get back a move, a score and a principal variation.
//!
//! `Searcher` owns what lives across searches (transposition table, move
//! ordering history, threat solver, helper threads' state). `search` runs
//! the *root probe* first (`root_probe`: what needs no tree, such as a five,
//! a single forced block or a lost position; then the threat solver's VCF/VCT
//! for us, played at once, and the opponent's VCF, after which only moves that
//! defuse it stay) and then *iterative deepening* (`Deepening::run`) with
//! aspiration windows over the root moves, Lazy SMP helpers beside it. The
//! tree walk is in `alphabeta`, move generation in `movegen`, ordering in
//! `ordering`, the table and memory sizing in `tt`, the time manager in
//! `time`, VCF/VCT in `threat`, the helpers in `smp`.

pub mod alphabeta;
pub mod movegen;
pub mod ordering;
pub mod params;
pub mod smp;
pub mod time;
pub mod tt;
pub mod watchdog;

pub mod threat;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::game::rules::fallback_move;
use crate::game::{Board, Pos};
use crate::types::{is_mate_score, mate_in, mated_in, Score, INFINITE, MATE};
use time::TimePlan;

use alphabeta::{Tree, TreeLimits};
use movegen::{Gen, Position};
use ordering::{Ordering as MoveOrdering, MAX_PLY};
pub use smp::{clamp_threads, MAX_THREADS};
use smp::{HelperJob, HelperState};
use threat::ThreatSolver;
pub use tt::{threads_for_memory, tt_bytes_for, DEFAULT_MEMORY};
use tt::{tt_bytes_for_threads, Bound, Tt};
use watchdog::Watchdog;

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

/// One root move with its score from the last iteration that reached it.
#[derive(Clone, Debug)]
struct RootMove {
    mv: Pos,
    score: Score,
    pv: Vec<Pos>,
}

impl RootMove {
    /// Root moves in the given order, not searched yet.
    fn list(order: Vec<Pos>) -> Vec<RootMove> {
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
}

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions {
            root_threats: true,
            leaf_vcf: false,
        }
    }
}

/// Node budgets of the threat solver for one search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ThreatBudget {
    /// Our VCF at the root.
    pub vcf: u64,
    /// Our VCT at the root (0: skipped).
    pub vct: u64,
    /// The opponent's VCF at the root, and all the re-checks after each of
    /// our moves together (0: skipped).
    pub defend: u64,
    /// VCF at each horizon node where the side to move has a four.
    pub leaf: u64,
}

/// Threats searched at the root before the main search get at most about a
/// fifth of the move's time (the solver visits some 300k nodes a second).
pub fn threat_budget(plan: &time::TimePlan, max_nodes: u64) -> ThreatBudget {
    let b = threat_budget_for_time(plan);
    // Under a node limit the solver takes at most an eighth of it per call.
    let cap = |n: u64| n.min(max_nodes / params::THREAT_NODE_SHARE);
    ThreatBudget {
        vcf: cap(b.vcf),
        vct: cap(b.vct),
        defend: cap(b.defend),
        leaf: cap(b.leaf),
    }
}

fn threat_budget_for_time(plan: &time::TimePlan) -> ThreatBudget {
    if plan.instant {
        return ThreatBudget {
            vcf: params::INSTANT_VCF_NODES,
            vct: 0,
            defend: 0,
            leaf: 0,
        };
    }
    if plan.unlimited {
        // Depth- or node-limited (bench, analysis): fixed, deterministic.
        return ThreatBudget {
            vcf: params::UNLIMITED_VCF_NODES,
            vct: params::UNLIMITED_VCT_NODES,
            defend: params::UNLIMITED_DEFEND_NODES,
            leaf: params::LEAF_VCF_NODES,
        };
    }
    // About a tenth of the hard limit each at ~300k solver nodes a second,
    // less when the machine is busy.
    let ms = plan.hard_ms;
    ThreatBudget {
        vcf: (ms * params::VCF_NODES_PER_MS).clamp(params::VCF_MIN_NODES, params::VCF_MAX_NODES),
        vct: if ms >= params::VCT_MIN_MS {
            (ms * params::VCT_NODES_PER_MS).min(params::VCT_MAX_NODES)
        } else {
            0
        },
        defend: (ms * params::DEFEND_NODES_PER_MS)
            .clamp(params::DEFEND_MIN_NODES, params::DEFEND_MAX_NODES),
        leaf: params::LEAF_VCF_NODES,
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
        let pos = Position::new(board);
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

/// The root probe: what needs no tree. Generates the root moves into
/// `moves` and returns the move to play at once (with its score and PV)
/// when the position decides it: a five to make, a lost position (block
/// one five if we may; the game's fallback otherwise), no near move (renju:
/// every near point forbidden), a single move, or a win of the threat
/// solver. Otherwise the opponent's VCF, if any, leaves only the moves that
/// defuse it, and iterative deepening takes over.
fn root_probe(
    tree: &mut Tree,
    moves: &mut Vec<Pos>,
    multipv: usize,
    budget: ThreatBudget,
    stop: &AtomicBool,
) -> Option<(Pos, Score, Vec<Pos>)> {
    let gen = tree.generate(moves);
    let stm = tree.pos.stm();
    match gen {
        Gen::Win(p) => Some((p, mate_in(1), vec![p])),
        Gen::Lost => {
            // Lost whatever we do: block one five if we may, else any move.
            let p = tree
                .pos
                .find_five(stm.opposite())
                .filter(|&p| tree.pos.legal_for(p, stm))
                .or_else(|| fallback_move(tree.pos.board));
            p.map(|p| (p, mated_in(2), vec![p]))
        }
        Gen::Moves { .. } if moves.is_empty() => {
            // Renju: every near point forbidden; any legal cell will do.
            fallback_move(tree.pos.board).map(|p| (p, 0, vec![p]))
        }
        Gen::Moves { .. } if moves.len() == 1 && multipv == 1 => {
            let s = tree.pos.ev.evaluate(stm);
            Some((moves[0], s, vec![moves[0]]))
        }
        Gen::Moves { .. } => root_threats(tree, moves, budget, stop),
    }
}

/// What iterative deepening hands back.
struct Deepened {
    /// The root moves of the last completed iteration, best first (with a
    /// stopped iteration's beater moved to the front).
    completed: Vec<RootMove>,
    /// Depth of the last completed iteration (0: none completed).
    depth: u32,
    score: Score,
    nodes: u64,
    /// The PV of the last iteration reported.
    shown_pv: Vec<Pos>,
}

/// Iterative deepening over the root moves, with the Lazy SMP helpers
/// searching beside the main thread until it is done.
struct Deepening<'a> {
    req: &'a SearchRequest,
    empty: usize,
    helpers: &'a mut Vec<HelperState>,
    helper_starts: &'a std::sync::atomic::AtomicUsize,
    helpers_live: &'a std::sync::atomic::AtomicUsize,
}

impl Deepening<'_> {
    fn run(self, tree: &mut Tree, moves: &[Pos], on_info: &mut dyn FnMut(&SearchInfo)) -> Deepened {
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
fn complete_pv(tt: &Tt, board: &mut Board, pv: &mut Vec<Pos>) {
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
fn adopt_beater(completed: &mut [RootMove], beater: (Pos, Score, Vec<Pos>)) -> Option<Score> {
    let (mv, score, pv) = beater;
    let k = completed.iter().position(|r| r.mv == mv)?;
    completed[..=k].rotate_right(1);
    completed[0].score = score;
    completed[0].pv = pv;
    Some(score)
}

/// One iteration at `depth` with an aspiration window around the previous
/// score, widened on failure. None when the search was stopped.
fn aspiration(
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
fn widen(alpha: Score, beta: Score, s: Score, delta: Score) -> Option<(Score, Score, Score)> {
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

/// Threats at the root: our VCF, then our VCT, win at once; if the opponent
/// has a VCF, keep only the moves after which it has none (all of them when
/// none does). Returns the move to play when a win was found.
fn root_threats(
    tree: &mut Tree,
    moves: &mut Vec<Pos>,
    budget: ThreatBudget,
    stop: &std::sync::atomic::AtomicBool,
) -> Option<(Pos, Score, Vec<Pos>)> {
    let stm = tree.pos.stm();
    let opp = stm.opposite();
    let win = |tree: &Tree, line: Vec<Pos>| {
        // Trust the solver only with a move we may play.
        let first = line[0];
        (tree.pos.board.in_board(first)
            && tree.pos.board.is_empty(first)
            && tree.pos.legal_for(first, stm))
        .then(|| (first, mate_in(line.len()), line))
    };
    if budget.vcf > 0 {
        let line = tree.threat.vcf(tree.pos.board, stm, budget.vcf, stop);
        tree.vcf_nodes += tree.threat.nodes();
        if let Some(w) = line.filter(|l| !l.is_empty()).and_then(|l| win(tree, l)) {
            return Some(w);
        }
    }
    // The solver only sees node budgets; keep its share of the clock small.
    let late = |tree: &Tree| {
        !tree.plan.unlimited
            && tree.elapsed_ms() * params::ROOT_THREAT_TIME_SHARE >= tree.plan.hard_ms
    };
    if budget.vct > 0 && !late(tree) {
        let line = tree
            .threat
            .vct(tree.pos.board, stm, threat::MAX_THREATS, budget.vct, stop);
        tree.vcf_nodes += tree.threat.nodes();
        if let Some(w) = line.filter(|l| !l.is_empty()).and_then(|l| win(tree, l)) {
            return Some(w);
        }
    }
    if budget.defend > 0 && moves.len() > 1 && !late(tree) {
        let theirs = tree.threat.vcf(tree.pos.board, opp, budget.defend, stop);
        tree.vcf_nodes += tree.threat.nodes();
        if theirs.is_some() {
            let mut safe = Vec::new();
            let each = (budget.defend / moves.len() as u64).max(params::DEFEND_MIN_NODES_PER_MOVE);
            for &m in moves.iter() {
                if late(tree) {
                    // Out of time for this: unchecked moves count as safe.
                    safe.push(m);
                    continue;
                }
                tree.pos.make(m);
                let r = tree.threat.vcf(tree.pos.board, opp, each, stop);
                tree.vcf_nodes += tree.threat.nodes();
                tree.pos.unmake();
                if r.is_none() {
                    safe.push(m);
                }
            }
            log::debug!(
                "opponent VCF: {} of {} moves defuse it",
                safe.len(),
                moves.len()
            );
            if !safe.is_empty() {
                *moves = safe;
            }
        }
    }
    None
}

/// Plies taken off the null-window search of the `i`-th root move (0-based)
/// at `depth`: late quiet moves are reduced as a PV node's are in the tree
/// (a move that beats alpha anyway is searched again at full depth); the
/// first `params::ROOT_LMR_FULL_MOVES`, tactical moves and shallow iterations never.
fn root_reduction(depth: i32, i: usize, tactical: bool) -> i32 {
    if tactical || depth < params::ROOT_LMR_MIN_DEPTH || i < params::ROOT_LMR_FULL_MOVES {
        0
    } else {
        alphabeta::lmr_reduction(depth, i)
    }
}

/// One pass over the root moves at `depth` within (alpha, beta). Returns the
/// best score, or None when the search was stopped. Leaves the root moves
/// sorted best first; with `multipv` > 1 every move gets an exact score.
fn root_iteration(
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

#[cfg(test)]
mod tests;
