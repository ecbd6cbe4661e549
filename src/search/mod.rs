//! Search: the searcher facade. Callers hand it a board and a request
//! (limits, stop flag) and get back a move, a score and a principal variation.
//!
//! `Searcher` owns what lives across searches (transposition table, move
//! ordering history, threat solver). A search first settles what needs no
//! tree (a five, a single forced block, a lost position), then asks the
//! threat solver for our VCF/VCT (played at once) and the opponent's VCF
//! (only moves that defuse it stay), then runs iterative deepening with
//! aspiration windows over the root moves. The tree walk is in `alphabeta`,
//! move generation in `movegen`, ordering in `ordering`, the table in `tt`,
//! the clock in `time`, VCF/VCT in `threat`.

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

use crate::game::{Board, Pos};
use crate::types::{is_mate_score, mate_in, mated_in, Score, INFINITE, MATE};

use alphabeta::{Tree, TreeLimits};
use movegen::{Gen, Position};
use ordering::{Ordering as MoveOrdering, MAX_PLY};
pub use smp::{clamp_threads, MAX_THREADS};
use smp::{HelperJob, HelperState};
use threat::ThreatSolver;
use tt::{Bound, Tt};
use watchdog::Watchdog;

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

/// Memory assumed when the manager gives none (Gomocup default: 350 MB).
pub const DEFAULT_MEMORY: usize = 350 << 20;
/// Memory kept aside for everything but the table (pattern tables, board,
/// buffers, the protocol).
const RESERVED_MEMORY: usize = 40 << 20;
/// Largest table we allocate, whatever the budget.
const MAX_TT_BYTES: usize = 1 << 30;

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

/// Bytes of transposition table for a whole-process memory budget.
pub fn tt_bytes_for(memory_bytes: usize) -> usize {
    tt_bytes_for_threads(memory_bytes, 1)
}

fn budget_of(memory_bytes: usize) -> usize {
    if memory_bytes == 0 {
        DEFAULT_MEMORY
    } else {
        memory_bytes
    }
}

/// Bytes of transposition table for a memory budget shared with
/// `threads` − 1 helper threads, each counted as `smp::HELPER_BYTES`.
pub fn tt_bytes_for_threads(memory_bytes: usize, threads: usize) -> usize {
    let helpers = threads.saturating_sub(1).saturating_mul(smp::HELPER_BYTES);
    (budget_of(memory_bytes)
        .saturating_sub(RESERVED_MEMORY)
        .saturating_sub(helpers)
        / 2)
    .clamp(64 << 10, MAX_TT_BYTES)
}

/// The most search threads a memory budget allows: helpers may take at
/// most half of what is left after the reserve (the table keeps the rest),
/// so under 48 MB there is room for none.
pub fn threads_for_memory(memory_bytes: usize) -> usize {
    let spare = budget_of(memory_bytes).saturating_sub(RESERVED_MEMORY) / 2;
    (1 + spare / smp::HELPER_BYTES).min(MAX_THREADS)
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

    pub fn search(
        &mut self,
        board: &mut Board,
        req: &SearchRequest,
        on_info: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult {
        let limits = &req.limits;
        let empty = board.cell_count().saturating_sub(board.stone_count());
        let plan = time::plan(limits, empty);
        self.tt.new_search();
        self.ord.new_search();
        for h in self.helpers.iter_mut() {
            h.ord.new_search();
        }
        let multipv = req.multipv.max(1);
        let max_depth = limits
            .max_depth
            .map(|d| d.max(1) as i32)
            .unwrap_or(MAX_PLY as i32 - 8)
            .min(MAX_PLY as i32 - 8);
        let max_nodes = limits.max_nodes.filter(|&n| n > 0).unwrap_or(u64::MAX);
        let root_key = board.hash();

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
            .then(|| limits.start + Duration::from_millis(plan.hard_ms));
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
                start: limits.start,
                max_nodes,
                leaf_vcf_nodes: budget.leaf,
            },
        );
        let mut moves = Vec::new();
        let gen = tree.generate(&mut moves);
        let stm = tree.pos.stm();
        let immediate = match gen {
            Gen::Win(p) => Some((p, mate_in(1), vec![p])),
            Gen::Lost => {
                // Lost whatever we do: block one five if we may, else any legal move.
                let p = tree
                    .pos
                    .find_five(stm.opposite())
                    .filter(|&p| tree.pos.legal_for(p, stm))
                    .or_else(|| {
                        let mut near = Vec::new();
                        tree.pos.near_cells(&mut near);
                        near.into_iter().find(|&p| tree.pos.legal_for(p, stm))
                    })
                    .or_else(|| {
                        let cells: Vec<Pos> = tree.pos.board.empty_cells().collect();
                        cells.into_iter().find(|&p| tree.pos.legal_for(p, stm))
                    })
                    .or_else(|| tree.pos.board.empty_cells().next());
                p.map(|p| (p, mated_in(2), vec![p]))
            }
            Gen::Moves { .. } if moves.is_empty() => {
                // Renju: every near point forbidden; any legal cell will do.
                let cells: Vec<Pos> = tree.pos.board.empty_cells().collect();
                let p = cells
                    .iter()
                    .copied()
                    .find(|&p| tree.pos.legal_for(p, stm))
                    .or(cells.first().copied());
                p.map(|p| (p, 0, vec![p]))
            }
            Gen::Moves { .. } if moves.len() == 1 && multipv == 1 => {
                let s = tree.pos.ev.evaluate(stm);
                Some((moves[0], s, vec![moves[0]]))
            }
            Gen::Moves { .. } => root_threats(&mut tree, &mut moves, budget, stop),
        };
        if let Some((best, score, pv)) = immediate {
            let nodes = tree.nodes + tree.vcf_nodes;
            let info = SearchInfo {
                depth: 1,
                score,
                nodes,
                elapsed: limits.start.elapsed(),
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

        let hash_move = tree
            .tt
            .probe(root_key, 0)
            .map(|h| h.mv)
            .unwrap_or(Pos::NONE);
        let mut rms = RootMove::list(tree.order_root(&moves, hash_move));
        let mut done_depth = 0;
        // The PV of the last info reported, to report the final choice too
        // when it differs (a stopped iteration's move, a completed PV).
        let mut shown_pv: Vec<Pos> = Vec::new();
        let mut best_score = 0;
        let mut completed: Vec<RootMove> = rms.clone();
        let max_depth = max_depth.min(empty as i32);
        // Lazy SMP: helpers search the same root moves with the shared
        // table until the main thread is done; only the main thread's
        // result is played (so one thread gives exactly the old search).
        let helpers_stop = AtomicBool::new(false);
        let helper_nodes = std::sync::atomic::AtomicU64::new(0);
        let root_moves: Vec<Pos> = rms.iter().map(|r| r.mv).collect();
        let tt: &Tt = tree.tt;
        let (starts, live) = (&self.helper_starts, &self.helpers_live);
        std::thread::scope(|scope| {
            for (i, h) in self.helpers.iter_mut().enumerate() {
                // Each helper searches its own copy of the root position.
                let mut hb = tree.pos.board.clone();
                let job = HelperJob {
                    id: i + 1,
                    tt,
                    moves: &root_moves,
                    plan,
                    start: limits.start,
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
                let score = aspiration(&mut tree, &mut rms, depth, best_score, multipv);
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
                    elapsed: limits.start.elapsed(),
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
        let nodes = tree.nodes + tree.vcf_nodes + helper_nodes.load(Ordering::Relaxed);
        let seldepth = tree.seldepth;
        let (tt_probes, tt_hits) = (tree.tt_probes, tree.tt_hits);
        drop(tree);
        let mut best = completed[0].clone();
        complete_pv(&self.tt, board, &mut best.pv);
        if done_depth > 0 && best.pv != shown_pv {
            on_info(&SearchInfo {
                depth: done_depth as u32,
                score: best_score,
                nodes,
                elapsed: limits.start.elapsed(),
                pv: best.pv.clone(),
            });
        }
        let ranked = completed
            .iter()
            .take(multipv)
            .map(|r| (r.mv, r.score))
            .collect();
        self.stats = SearchStats {
            nodes,
            depth: done_depth as u32,
            seldepth,
            tt_probes,
            tt_hits,
            elapsed: limits.start.elapsed(),
        };
        SearchResult {
            best: best.mv,
            score: if done_depth > 0 { best_score } else { 0 },
            pv: best.pv,
            depth: done_depth as u32,
            nodes,
            ranked,
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
    let (mut alpha, mut beta) = if depth >= 4 && multipv == 1 && !is_mate_score(prev) {
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
    let delta = delta + delta / 2;
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
    let late = |tree: &Tree| !tree.plan.unlimited && tree.elapsed_ms() * 4 >= tree.plan.hard_ms;
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
            let each = (budget.defend / moves.len() as u64).max(100);
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
