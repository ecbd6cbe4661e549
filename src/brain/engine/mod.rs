//! The engine: what plays, behind one facade that needs no manager. It owns
//! the game's board, the searcher (built for the memory and thread budget),
//! the time planning of every search (`time::plan` is called here and
//! nowhere else), pondering (`ponder`), the SWAP2 strategy (`swap2`) and the
//! one legality guard (`legal`): every move it answers with is legal.
//!
//! A caller sets the position (`new_game`, `opponent_move`, `set_board`,
//! `takeback`, `force_move`) and the options (`set_rules`, `set_memory`,
//! `set_threads`, `set_pondering`; `set_net`, which net `--eval net`
//! evaluates with), then asks for a move with
//! `go(limits, stop, on_report)`, which plays it on the board and returns it
//! with its score, depth and principal variation. `stop` (another thread's
//! flag) makes it answer at once. `start_pondering` after answering thinks
//! on the opponent's time; the next `go` turns that into a hit or a miss,
//! and anything else that needs the searcher stops it first
//! (`stop_pondering`). `analyse` ranks moves without playing (YXNBEST),
//! `swap2` decides a SWAP2 opening, `balance` the move (or pair) that
//! leaves a position nearest a given score (YXBALANCEONE/TWO), `defend`
//! lists the moves that keep the opponent from a forced win (YXSEARCHDEFEND), and `search` runs one plain
//! search of any board (bench, the arena's built-in engine, the evaluation
//! fitter). The analysis controls (`analysis`: moves left out, the first
//! depth, a move limit) go into every search it runs but a ponder search.
//!
//! Nothing here prints: iterations and notes go to the caller's `on_report`
//! (the protocol turns them into MESSAGE lines), logs to stderr.

pub mod analysis;
pub mod balance;
pub mod legal;
pub mod ponder;
pub mod strength;
pub mod swap2;

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Instant;

use crate::brain::eval::net::QuantNet;
use crate::brain::game::board::EMPTY;
use crate::brain::game::rules::is_win;
use crate::brain::game::{pattern, Board, Pos};
use crate::brain::search::params;
use crate::brain::search::time::TimePlan;
use crate::brain::search::{
    clamp_threads, threads_for_memory, time, tt_bytes_for, SearchRequest, SearchResult,
    SearchStats, Searcher, MAX_THREADS,
};
use crate::brain::types::{Color, Rule, RuleSet, Score, INFINITE};

pub use crate::brain::search::time::Limits;
pub use crate::brain::search::RootEvent;
pub use crate::brain::search::{
    EvalKind, RootEventKind, SearchInfo, SearchOptions, DEFAULT_MEMORY,
};
pub use analysis::{Analysis, DrawResult};
pub use legal::Chosen;
use legal::{choose, finished, is_legal, legal_choice};
use ponder::Ponder;
pub use strength::Strength;

/// What an engine is built with (`Engine::with_options`; the command
/// line's `pbrain-sente [SWITCHES] [--eval E] [--net FILE]`): the search
/// switches and the net `EvalKind::Net` evaluates with (None: the embedded
/// weights).
#[derive(Clone, Debug, Default)]
pub struct EngineOptions {
    pub search: SearchOptions,
    pub net: Option<Arc<QuantNet>>,
}

/// What a search tells its caller while it runs.
#[derive(Debug)]
pub enum Report<'a> {
    /// A completed iteration (and, at the end, the final choice when it
    /// differs from the last iteration shown).
    Iteration(&'a SearchInfo),
    /// The main thread entered or left a root move (live view).
    Root(RootEvent),
    /// A line for the user: a ponder hit or miss, no legal move, a SWAP2
    /// decision's grounds.
    Note(String),
}

/// YXSEARCHDEFEND's answer (`Engine::defend`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Defence {
    /// The moves that keep the opponent from a forced win, best first,
    /// each with its score (empty: every move loses).
    pub moves: Vec<(Pos, Score)>,
    /// The search's first choice, defence or not.
    pub best: (Pos, Score),
}

/// The callback that receives `Report`s.
pub type OnReport<'a> = dyn FnMut(Report) + 'a;

const NO_BOARD: &str = "no board: send START first";

pub struct Engine {
    board: Option<Board>,
    rules: RuleSet,
    searcher: Option<Searcher>,
    /// The table size the searcher was built for: from the memory budget,
    /// or exact (`with_table_bytes`).
    searcher_bytes: usize,
    /// Whole-process memory budget in bytes (0: the Gomocup default).
    memory: usize,
    /// An exact table size instead of one from the memory budget.
    table_bytes: Option<usize>,
    /// `INFO thread_num` as given.
    thread_num: i64,
    pondering: bool,
    /// Search switches from the command line (A/B matches).
    options: SearchOptions,
    /// The net `EvalKind::Net` evaluates with (None: the embedded one).
    net: Option<Arc<QuantNet>>,
    /// The search running on the opponent's time; it holds the searcher
    /// (`searcher` is None meanwhile).
    ponder: Option<Ponder>,
    /// What a GUI set for analysis (moves left out, first depth, move limit).
    analysis: Analysis,
}

impl Default for Engine {
    fn default() -> Self {
        Engine::new(SearchOptions::default())
    }
}

impl Engine {
    /// An engine whose searches use `options`; tables are sized from the
    /// memory budget (`set_memory`) when first needed.
    pub fn new(options: SearchOptions) -> Self {
        Engine {
            board: None,
            rules: RuleSet::default(),
            searcher: None,
            searcher_bytes: 0,
            memory: 0,
            table_bytes: None,
            thread_num: 1,
            pondering: false,
            options,
            net: None,
            ponder: None,
            analysis: Analysis::default(),
        }
    }

    /// An engine with `options`' switches and net.
    pub fn with_options(options: EngineOptions) -> Self {
        let mut e = Engine::new(options.search);
        e.set_net(options.net);
        e
    }

    /// An engine with a transposition table of exactly about `bytes` and
    /// no memory cap on its threads (bench: the same table whatever the
    /// budget).
    pub fn with_table_bytes(bytes: usize) -> Self {
        Engine::with_table_bytes_and(bytes, SearchOptions::default())
    }

    /// `with_table_bytes` whose searches use `options` (bench `--eval`).
    pub fn with_table_bytes_and(bytes: usize, options: SearchOptions) -> Self {
        Engine {
            table_bytes: Some(bytes),
            ..Engine::new(options)
        }
    }

    // ---- options ----

    /// Whole-process memory budget in bytes (0: the 350 MB default). The
    /// searcher is rebuilt for it by the next `prepare`.
    pub fn set_memory(&mut self, bytes: usize) {
        self.memory = bytes;
    }

    /// The memory budget in force (the default when none was given).
    pub fn memory_budget(&self) -> usize {
        crate::brain::search::tt::budget_of(self.memory)
    }

    /// `INFO thread_num`: search threads, within the machine's cores and
    /// what the memory budget leaves room for (`threads`).
    pub fn set_threads(&mut self, thread_num: i64) {
        self.thread_num = thread_num;
    }

    /// The most search threads this machine allows (`INFO MAX_THREAD_NUM`).
    pub fn max_threads() -> usize {
        clamp_threads(i64::MAX)
    }

    /// Search threads for the next search.
    pub fn threads(&self) -> usize {
        match self.table_bytes {
            Some(_) => (self.thread_num.max(1) as usize).min(MAX_THREADS),
            None => clamp_threads(self.thread_num).min(threads_for_memory(self.memory_budget())),
        }
    }

    /// Think on the opponent's time after each answer? Turning it off
    /// stops a running ponder search.
    pub fn set_pondering(&mut self, on: bool) {
        self.pondering = on;
        if !on {
            self.stop_pondering();
        }
    }

    pub fn rules(&self) -> RuleSet {
        self.rules
    }

    /// The analysis controls in force.
    pub fn analysis(&self) -> &Analysis {
        &self.analysis
    }

    /// New analysis controls for every search from now on (stops pondering:
    /// the ponder search was started under the old ones).
    pub fn set_analysis(&mut self, analysis: Analysis) {
        if analysis != self.analysis {
            self.stop_pondering();
            self.analysis = analysis;
            if let Some(b) = &mut self.board {
                b.set_candidate_range(self.analysis.range);
            }
        }
    }

    /// Make `b` the engine's position, with the candidate range in force.
    fn install(&mut self, mut b: Board) {
        b.set_candidate_range(self.analysis.range);
        self.board = Some(b);
    }

    /// Per mille of the transposition table holding this search's entries
    /// (YXSHOWHASHUSAGE; 0 before the first search).
    pub fn hash_usage(&self) -> u32 {
        self.searcher.as_ref().map_or(0, |s| s.hashfull())
    }

    /// The rule for the board and every search from now on.
    pub fn set_rules(&mut self, rules: RuleSet) {
        self.rules = rules;
        if let Some(b) = &mut self.board {
            b.set_rules(rules);
            self.prepare();
        }
    }

    pub fn options(&self) -> SearchOptions {
        self.options
    }

    /// Search switches for every search from now on.
    pub fn set_options(&mut self, options: SearchOptions) {
        self.stop_pondering();
        self.options = options;
        if let Some(s) = &mut self.searcher {
            s.options = options;
        }
    }

    /// The net `EvalKind::Net` evaluates with from now on (None: the
    /// embedded weights, `eval::net::embedded_net`).
    pub fn set_net(&mut self, net: Option<Arc<QuantNet>>) {
        self.stop_pondering();
        if let Some(s) = &mut self.searcher {
            s.net = net.clone();
        }
        self.net = net;
    }

    /// The net `EvalKind::Net` evaluates with (None: the embedded one).
    pub fn net(&self) -> Option<&Arc<QuantNet>> {
        self.net.as_ref()
    }

    /// Megabytes of transposition table the memory budget gives.
    pub fn table_mb(&self) -> usize {
        tt_bytes_for(self.memory_budget()) >> 20
    }

    /// Statistics of the last search (bench).
    pub fn stats(&self) -> SearchStats {
        self.searcher.as_ref().map(|s| s.stats).unwrap_or_default()
    }

    /// Build what searching needs (tables sized for the memory budget, the
    /// rule's pattern table) now, so that no move's clock pays for it.
    /// Stops pondering. Called on a new game, a new rule or memory budget,
    /// and before every search. A table sized from the memory budget is
    /// built in the background (`Searcher::new_in_background`): managers
    /// start a move's clock without waiting for START or INFO to be dealt
    /// with, and mapping a large table takes up to a second on a loaded
    /// machine; the first searches use a small table until it is ready.
    pub fn prepare(&mut self) {
        self.stop_pondering();
        let bytes = self.table_bytes.unwrap_or_else(|| self.memory_budget());
        if self.searcher.is_none() || self.searcher_bytes != bytes {
            self.searcher = None; // free the old tables first
            let mut searcher = match self.table_bytes {
                Some(b) => Searcher::with_tt_bytes(b),
                None => Searcher::new_in_background(bytes, self.threads()),
            };
            searcher.options = self.options;
            searcher.net = self.net.clone();
            self.searcher = Some(searcher);
            self.searcher_bytes = bytes;
        }
        let threads = self.threads();
        if let Some(s) = &mut self.searcher {
            s.set_threads(threads);
        }
        pattern::table(self.rules.rule);
    }

    /// Start what can be built off the protocol thread: the transposition
    /// table sized for the memory budget, if the searcher is waiting for it
    /// (`Searcher::start_table_build`). The session calls this when no
    /// command is waiting, and pondering before it starts. (Other rules'
    /// pattern tables are built when a rule is set: building them all
    /// beside the first search only took its processor time.)
    pub fn background_work(&mut self) {
        if let Some(s) = &mut self.searcher {
            s.start_table_build();
        }
    }

    /// Forget what the searcher learnt (YXHASHCLEAR).
    pub fn clear(&mut self) {
        self.stop_pondering();
        if let Some(s) = &mut self.searcher {
            s.clear();
        }
    }

    // ---- the position ----

    pub fn board(&self) -> Option<&Board> {
        self.board.as_ref()
    }

    /// An empty `w`×`h` board under the current rule, with the rule's
    /// pattern table and the evaluator's tables built before this returns
    /// (managers may suspend the brain right after START). The large
    /// transposition table and the other rules' pattern tables are left to
    /// `background_work`: a manager that does not wait for START to be
    /// answered (qpiskvork) runs the first move's clock meanwhile.
    pub fn new_game(&mut self, w: i64, h: i64) -> Result<(), String> {
        let (Ok(wu), Ok(hu)) = (usize::try_from(w), usize::try_from(h)) else {
            return Err(format!("unsupported board size {w}x{h}"));
        };
        let b = Board::new(wu, hu, self.rules).map_err(|e| e.to_string())?;
        self.install(b);
        self.prepare();
        crate::brain::search::warm_up_eval_tables();
        Ok(())
    }

    /// The same board size again, empty, and nothing learnt kept.
    pub fn restart(&mut self) -> Result<(), String> {
        let b = self.board.as_ref().ok_or(NO_BOARD)?;
        let (w, h) = (b.width() as i64, b.height() as i64);
        self.new_game(w, h)?;
        if let Some(s) = &mut self.searcher {
            s.clear();
        }
        Ok(())
    }

    /// Replace the position (BOARD, YXBOARD); the caller built and checked it.
    pub fn set_board(&mut self, board: Board) {
        self.install(board);
    }

    /// The opponent's stone at (x, y), for the side to move. An error
    /// leaves the board as it was, except that a stone ending the game
    /// stays (TAKEBACK can still undo it).
    pub fn opponent_move(&mut self, x: i64, y: i64) -> Result<(), String> {
        let b = self.board.as_mut().ok_or(NO_BOARD)?;
        if let Some((c, p)) = finished(b) {
            let (px, py) = b.xy(p);
            return Err(format!("game is over: {c:?} has five at {px},{py}"));
        }
        let color = b.to_move();
        let p = b.try_make(x, y, color).map_err(|e| format!("TURN: {e}"))?;
        if color == Color::Black && b.rules().rule == crate::brain::types::Rule::Renju {
            let mut before = b.clone();
            before.unmake();
            if crate::brain::game::rules::is_forbidden(&before, p) {
                log::warn!("TURN {x},{y}: the opponent played a forbidden point");
            }
        }
        if !b.rules().continuous && is_win(b, p, color) {
            return Err(format!("game is over: {x},{y} completes a five"));
        }
        if b.is_full() {
            return Err("board is full: the game is a draw".into());
        }
        Ok(())
    }

    /// Remove the last stone, which must be at (x, y).
    pub fn takeback(&mut self, x: i64, y: i64) -> Result<(), String> {
        let b = self.board.as_mut().ok_or(NO_BOARD)?;
        let p = b
            .pos(x, y)
            .ok_or_else(|| format!("TAKEBACK: {x},{y} is outside the board"))?;
        match b.last_move() {
            Some(m) if m.pos == p => {
                b.unmake();
                Ok(())
            }
            _ if b.cell(p) == EMPTY => Err(format!("TAKEBACK: no stone at {x},{y}")),
            _ => Err(format!("TAKEBACK: {x},{y} is not the last move")),
        }
    }

    /// Our stone at (x, y), imposed by the manager (PLAY).
    pub fn force_move(&mut self, x: i64, y: i64) -> Result<(), String> {
        let b = self.board.as_mut().ok_or(NO_BOARD)?;
        let color = b.to_move();
        b.try_make(x, y, color)
            .map(|_| ())
            .map_err(|e| format!("PLAY: {e}"))
    }

    // ---- thinking ----

    /// The time manager's plan for a move on `board` within `limits`: the
    /// only place a plan is made, for a search and a ponder hit alike.
    fn plan(board: &Board, limits: &Limits) -> TimePlan {
        let empty = board.cell_count().saturating_sub(board.stone_count());
        time::plan(limits, empty, board.stone_count())
    }

    /// The search request for `limits` on `board`, under its plan and the
    /// analysis controls.
    fn request(
        &self,
        board: &Board,
        limits: &Limits,
        multipv: usize,
        stop: &Arc<AtomicBool>,
    ) -> SearchRequest {
        // A level below full strength searches shallower, scores its
        // candidates exactly and gives the threat solver less.
        let strength = self.analysis.strength;
        let max_depth = match (limits.max_depth, strength.max_depth()) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        SearchRequest {
            plan: Engine::plan(board, limits),
            start: limits.start,
            max_depth,
            max_nodes: limits.max_nodes,
            stop: stop.clone(),
            multipv: multipv.max(strength.candidates()),
            excluded: self.analysis.excluded_on(board),
            start_depth: self.analysis.start_depth,
            moves_left: self.analysis.moves_left(board),
            threat_percent: if strength.is_full() {
                100
            } else {
                strength.threat_percent()
            },
        }
    }

    /// Run the searcher on a copy of `board` (so a search bug can never
    /// corrupt the game). None when the search panicked (the searcher is
    /// rebuilt by the next `prepare`).
    fn think(
        &mut self,
        board: &Board,
        limits: &Limits,
        multipv: usize,
        stop: &Arc<AtomicBool>,
        on: &mut OnReport,
    ) -> Option<SearchResult> {
        self.prepare();
        let req = self.request(board, limits, multipv, stop);
        let searcher = self.searcher.as_mut()?;
        let mut copy = board.clone();
        let result = catch_unwind(AssertUnwindSafe(|| {
            // Both callbacks report to `on`, one at a time.
            let on = std::cell::RefCell::new(on);
            searcher.search_observed(
                &mut copy,
                &req,
                &mut |info: &SearchInfo| (on.borrow_mut())(Report::Iteration(info)),
                &mut |ev: RootEvent| (on.borrow_mut())(Report::Root(ev)),
            )
        }));
        match result {
            Ok(r) => Some(r),
            Err(_) => {
                log::error!("search panicked; playing a fallback move");
                self.searcher = None;
                None
            }
        }
    }

    /// One plain search of any `board` (the engine's own stays as it is):
    /// the searcher's raw result, or None if it panicked.
    pub fn search(
        &mut self,
        board: &Board,
        limits: &Limits,
        stop: &Arc<AtomicBool>,
        on: &mut OnReport,
    ) -> Option<SearchResult> {
        self.think(board, limits, 1, stop, on)
    }

    /// A legal move for the side to move on `board` (not the engine's own,
    /// which stays as it is), searched within `limits`. Errors when the
    /// game is over or the board full.
    pub fn choose_move(
        &mut self,
        board: &Board,
        limits: &Limits,
        stop: &Arc<AtomicBool>,
        on: &mut OnReport,
    ) -> Result<Chosen, String> {
        if board.is_full() {
            return Err("board is full: the game is a draw".into());
        }
        if let Some((c, p)) = finished(board) {
            let (x, y) = board.xy(p);
            return Err(format!("game is over: {c:?} has five at {x},{y}"));
        }
        // Past the move limit a manager that goes on gets moves still: a
        // refusal would forfeit the game.
        if let Some(why) = self.analysis.limit_reached(board) {
            on(Report::Note(why));
        }
        let result = self.think(board, limits, 1, stop, on);
        let mut chosen = choose(board, result.as_ref()).ok_or("no legal move left")?;
        // Below full strength: one of the best few, by their scores.
        if let Some((p, score)) = result
            .as_ref()
            .and_then(|r| self.analysis.strength.pick(board, &r.ranked))
            .filter(|&(p, _)| p != chosen.mv && is_legal(board, p))
        {
            chosen = Chosen {
                mv: p,
                score,
                pv: vec![p],
                depth: chosen.depth,
                legal: true,
            };
        }
        if !chosen.legal {
            // Under renju every cell left is forbidden to Black. Any answer
            // loses, but a move ends the game at once by the rules, where
            // silence would be a time forfeit.
            let (x, y) = board.xy(chosen.mv);
            on(Report::Note(format!(
                "no legal move: every empty cell is forbidden to Black; playing {x},{y}"
            )));
        }
        Ok(chosen)
    }

    /// Our move on the engine's board, within `limits` (their `start` is
    /// when the request arrived: the clock runs from there). A ponder hit
    /// finishes the ponder search instead of starting a new one. The move
    /// is played on the board before it is returned.
    pub fn go(
        &mut self,
        limits: &Limits,
        stop: &Arc<AtomicBool>,
        on: &mut OnReport,
    ) -> Result<Chosen, String> {
        let board = self.board.clone().ok_or(NO_BOARD)?;
        let chosen = match self.ponder_answer(&board, limits, stop, on) {
            Some(c) => c,
            None => self.choose_move(&board, limits, stop, on)?,
        };
        if let Some(b) = &mut self.board {
            b.play(chosen.mv);
        }
        Ok(chosen)
    }

    /// The `n` best moves on the engine's board, best first, without
    /// playing any (YXNBEST). At least one unless the board is full.
    pub fn analyse(
        &mut self,
        n: usize,
        limits: &Limits,
        stop: &Arc<AtomicBool>,
        on: &mut OnReport,
    ) -> Result<Vec<(Pos, Score)>, String> {
        let board = self.board.clone().ok_or(NO_BOARD)?;
        if board.is_full() {
            return Err("board is full: the game is a draw".into());
        }
        if let Some(why) = self.analysis.limit_reached(&board) {
            on(Report::Note(why));
        }
        self.rank(&board, n, limits, stop, on)
    }

    /// The best `n` legal moves of `board` (at least one), best first, with
    /// their exact scores for the side to move.
    fn rank(
        &mut self,
        board: &Board,
        n: usize,
        limits: &Limits,
        stop: &Arc<AtomicBool>,
        on: &mut OnReport,
    ) -> Result<Vec<(Pos, Score)>, String> {
        let n = n.max(1).min(board.empty_cells().count());
        let result = self.think(board, limits, n, stop, on);
        let mut ranked: Vec<(Pos, Score)> = result
            .map(|r| r.ranked)
            .unwrap_or_default()
            .into_iter()
            .filter(|&(p, _)| is_legal(board, p))
            .collect();
        ranked.truncate(n);
        if ranked.is_empty() {
            match choose(board, None) {
                Some(c) if c.legal => ranked.push((c.mv, 0)),
                _ => return Err("no legal move left".into()),
            }
        }
        Ok(ranked)
    }

    /// The moves that keep the opponent from a forced win on the engine's
    /// board (YXSEARCHDEFEND), best first, each with its search score (the
    /// list is empty when every move loses), and the move the search ranks
    /// first whatever it is. Every root move is searched to an exact score
    /// within `limits` (those the opponent's VCF refutes never reach the
    /// list); a move is kept when its score is not a loss and the threat
    /// solver finds no VCF or VCT for the opponent after it. The board is
    /// not changed.
    pub fn defend(
        &mut self,
        limits: &Limits,
        stop: &Arc<AtomicBool>,
        on: &mut OnReport,
    ) -> Result<Defence, String> {
        let board = self.board.clone().ok_or(NO_BOARD)?;
        let ranked = self.analyse(board.cell_count(), limits, stop, on)?;
        let best = ranked[0];
        let nodes = params::UNLIMITED_VCT_NODES();
        let Some(searcher) = self.searcher.as_mut() else {
            return Ok(Defence {
                moves: Vec::new(),
                best,
            });
        };
        let defences = ranked
            .into_iter()
            .filter(|&(_, s)| !(s < 0 && crate::brain::types::is_mate_score(s)))
            .filter(|&(p, _)| searcher.forced_win_after(&board, p, nodes, stop).is_none())
            .collect();
        Ok(Defence {
            moves: defences,
            best,
        })
    }

    /// Limits for one of `parts` short searches sharing this turn's budget
    /// (SWAP2 probes): 80 % of the turn (or of an eighth of the clock) less
    /// what is spent, split evenly.
    fn share_limits(limits: &Limits, parts: u64) -> Limits {
        let mut budget = limits.turn_ms.unwrap_or(params::SWAP2_DEFAULT_TURN_MS());
        if let Some(left) = limits.time_left_ms {
            budget =
                budget.min(u64::try_from(left.max(0)).unwrap_or(0) / params::SWAP2_CLOCK_DIVISOR());
        }
        let spent = limits.start.elapsed().as_millis() as u64;
        let budget = (budget * params::SWAP2_TURN_TENTHS() / 10).saturating_sub(spent);
        Limits {
            turn_ms: Some(budget / parts.max(1)),
            match_ms: None,
            time_left_ms: None,
            max_depth: limits.max_depth,
            max_nodes: limits.max_nodes,
            increment_ms: None,
            start: Instant::now(),
        }
    }

    /// Limits for one of the balance searches (`balance::Rank`): its part
    /// of what is left of the turn's budget as in `share_limits`, with the
    /// turn's safety margin added back so that the search may take the
    /// whole part (the budget already keeps a fifth of the turn back, and
    /// the many small parts would otherwise lose most of themselves to
    /// the margin's 40 ms floor); a node limit is split the same way,
    /// `used` nodes being spent already.
    fn balance_limits(limits: &Limits, parts: u64, used: u64) -> Limits {
        let mut l = Engine::share_limits(limits, parts);
        l.turn_ms = l.turn_ms.map(|t| t + time::turn_margin(t));
        l.max_nodes = limits
            .max_nodes
            .map(|n| (n.saturating_sub(used) / parts.max(1)).max(1));
        l
    }

    /// YXBALANCEONE (`two` false) / YXBALANCETWO: the move(s) after which
    /// the engine's board is closest to `bias` for the side to move now
    /// (`balance`); the board becomes the position after them.
    pub fn balance(
        &mut self,
        two: bool,
        bias: i64,
        limits: &Limits,
        stop: &Arc<AtomicBool>,
        on: &mut OnReport,
    ) -> Result<balance::Balanced, String> {
        let board = self.board.clone().ok_or(NO_BOARD)?;
        if board.is_full() {
            return Err("board is full: the game is a draw".into());
        }
        let mut nodes = 0;
        let mut rank = |pos: &Board, n: usize, parts: u64| {
            if stop.load(std::sync::atomic::Ordering::Relaxed) {
                return Err("stopped".to_string());
            }
            if pos.is_full() || finished(pos).is_some() {
                return Err("the game is over".to_string());
            }
            let l = Engine::balance_limits(limits, parts, nodes);
            let n = n.max(1).min(pos.empty_cells().count());
            let result = self.think(pos, &l, n, stop, on);
            nodes += self.stats().nodes;
            // Only exact scores: a search stopped before its first
            // iteration ranks its moves unsearched.
            let ranked: Vec<(Pos, Score)> = result
                .map(|r| r.ranked)
                .unwrap_or_default()
                .into_iter()
                .filter(|&(p, s)| s.abs() < INFINITE && is_legal(pos, p))
                .take(n)
                .collect();
            if ranked.is_empty() {
                return Err("no move scored".to_string());
            }
            Ok(ranked)
        };
        let d = if two {
            balance::two(board, bias, &mut rank)?
        } else {
            balance::one(board, bias, &mut rank)?
        };
        self.install(d.board.clone());
        Ok(d)
    }

    /// Decide a SWAP2 opening whose stones (0, 3 or 5, in move order) are
    /// given; the engine's board becomes the position after our answer.
    pub fn swap2(
        &mut self,
        stones: &[(i64, i64)],
        limits: &Limits,
        stop: &Arc<AtomicBool>,
        on: &mut OnReport,
    ) -> Result<swap2::Decision, String> {
        let cur = self.board.as_ref().ok_or(NO_BOARD)?;
        let mut b = Board::new(cur.width(), cur.height(), self.rules).map_err(|e| e.to_string())?;
        b.set_candidate_range(self.analysis.range);
        for &(x, y) in stones {
            let c = b.to_move();
            b.try_make(x, y, c)
                .map_err(|e| format!("SWAP2BOARD: {e}"))?;
        }
        let mut probe = |pos: &Board, parts: u64| {
            let l = Engine::share_limits(limits, parts);
            self.choose_move(pos, &l, stop, on).map(|c| (c.mv, c.score))
        };
        let d = swap2::decide(b, &mut probe)?;
        self.install(d.board.clone());
        Ok(d)
    }

    // ---- pondering ----

    /// Is a ponder search running?
    pub fn pondering(&self) -> bool {
        self.ponder.is_some()
    }

    /// What the ponder search is doing, for YXSHOWINFO (None: not pondering).
    pub fn ponder_status(&self) -> Option<String> {
        self.ponder.as_ref().map(|p| p.describe())
    }

    /// Stop the ponder search, if any, and take the searcher back (with
    /// its table; a searcher lost to a panic is rebuilt by `prepare`).
    pub fn stop_pondering(&mut self) {
        if let Some(p) = self.ponder.take() {
            log::debug!("ponder stopped at depth {}", p.depth());
            self.searcher = p.stop();
        }
    }

    /// After answering with `ours` (already on the board): ponder on the
    /// reply its PV predicts, if pondering is on. `max_depth`/`max_nodes`
    /// are the manager's limits.
    pub fn start_pondering(
        &mut self,
        ours: &Chosen,
        max_depth: Option<u32>,
        max_nodes: Option<u64>,
    ) {
        // Below full strength there is nothing to gain from pondering (and
        // a ponder hit would answer at full strength).
        if !self.pondering || !self.analysis.strength.is_full() {
            return;
        }
        self.stop_pondering();
        let Some(board) = &self.board else { return };
        let target = ponder::target(board, ours.mv, &ours.pv);
        if let Some(s) = &mut self.searcher {
            s.start_table_build();
        }
        log::debug!("pondering {target:?}");
        self.ponder = Ponder::start(&mut self.searcher, board, target, max_depth, max_nodes);
    }

    /// On a ponder hit (`board` is the position the ponder search is
    /// looking at), finish that search under this move's time plan and
    /// return its move. On anything else stop the ponder search (its table
    /// entries stay) and return None: the caller searches as usual.
    fn ponder_answer(
        &mut self,
        board: &Board,
        limits: &Limits,
        stop: &Arc<AtomicBool>,
        on: &mut OnReport,
    ) -> Option<Chosen> {
        let p = self.ponder.take()?;
        let predicted = p.predicted().map(|q| board.xy(q));
        // A hit needs one completed iteration; before that the ponder search
        // has hardly begun and a fresh search with this move's budgets (the
        // threat solver's above all) is the better start.
        if !p.is_hit(board) || p.depth() == 0 {
            let depth = p.depth();
            self.searcher = p.stop();
            let text = match predicted {
                Some((x, y)) => format!("ponder miss: predicted {x},{y} (depth {depth})"),
                None => format!("ponder miss: no prediction (depth {depth})"),
            };
            log::info!(
                "{text}, stopped {} ms after the move arrived",
                limits.start.elapsed().as_millis()
            );
            on(Report::Note(text));
            return None;
        }
        let plan = Engine::plan(board, limits);
        let (searcher, result, report) = p.finish_hit(plan, limits.start, stop);
        self.searcher = searcher;
        let r = result.as_ref()?;
        let chosen = legal_choice(board, r)?;
        on(Report::Iteration(&SearchInfo {
            depth: r.depth,
            score: r.score,
            nodes: r.nodes,
            elapsed: limits.start.elapsed(),
            pv: r.pv.clone(),
        }));
        let (x, y) = predicted.unwrap_or_default();
        let text = format!(
            "ponder hit: {x},{y} depth {} (depth {} after {} ms pondering), {} ms on this move",
            report.depth, report.depth_at_hit, report.ponder_ms, report.turn_ms
        );
        log::info!("{text}");
        on(Report::Note(text));
        Some(chosen)
    }

    /// The searcher's helper-thread counts (tests: none may outlive a search).
    pub fn helper_counts(&self) -> Option<(usize, usize)> {
        self.searcher.as_ref().map(|s| s.helper_counts())
    }

    /// The searcher's table: (bytes in use, bytes of the one being built
    /// in the background, if any) (tests, bench).
    pub fn searcher_table(&self) -> Option<(usize, Option<usize>)> {
        self.searcher
            .as_ref()
            .map(|s| (s.tt_bytes(), s.pending_tt_bytes()))
    }

    /// Wait until a table being built in the background is in use (tests).
    pub fn wait_for_table(&mut self) {
        self.stop_pondering();
        if let Some(s) = &mut self.searcher {
            s.wait_for_table();
        }
    }

    /// Threads the searcher was set to (tests).
    pub fn searcher_threads(&self) -> Option<usize> {
        self.searcher.as_ref().map(|s| s.threads())
    }

    /// The options the searcher runs with (tests).
    pub fn searcher_options(&self) -> Option<SearchOptions> {
        self.searcher.as_ref().map(|s| s.options)
    }

    /// The net the searcher's next search under `rule` evaluates with
    /// (tests; None under the classical evaluation or without a searcher).
    pub fn searcher_net(&self, rule: Rule) -> Option<Arc<QuantNet>> {
        self.searcher.as_ref().and_then(|s| s.eval_net(rule))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn small() -> Engine {
        let mut e = Engine::default();
        e.set_memory(8 << 20);
        e
    }

    fn depth(d: u32) -> Limits {
        Limits {
            max_depth: Some(d),
            ..Limits::default()
        }
    }

    /// With an open three to play, the best move wins; YXBALANCEONE 0
    /// answers a move whose score is nearer even than the best move's, and
    /// YXBALANCETWO 0 two moves on empty cells, both played on the board.
    #[test]
    fn a_balance_move_is_nearer_even_than_the_best() {
        let mut board = Board::square(15, RuleSet::FREESTYLE).unwrap();
        for (x, y) in [(5, 7), (10, 10), (6, 7), (11, 12), (7, 7), (12, 3)] {
            board.play(board.pos(x, y).unwrap());
        }
        let mut e = small();
        let stop = Arc::new(AtomicBool::new(false));
        let best = e
            .choose_move(&board, &depth(4), &stop, &mut |_| {})
            .unwrap();
        e.set_board(board.clone());
        let d = e.balance(false, 0, &depth(4), &stop, &mut |_| {}).unwrap();
        assert!(
            d.score.abs() < best.score.abs(),
            "balance {} best {}",
            d.score,
            best.score
        );
        assert_eq!(e.board().unwrap().stone_count(), 7);
        e.set_board(board.clone());
        let d = e.balance(true, 0, &depth(4), &stop, &mut |_| {}).unwrap();
        assert_eq!(d.moves.len(), 2);
        assert!(d.moves.iter().all(|&p| board.cell(p) == EMPTY));
        assert_ne!(d.moves[0], d.moves[1]);
        assert_eq!(e.board().unwrap().stone_count(), 8);
    }

    /// A balance asked for with the stop raised answers nothing and leaves
    /// the board as it was.
    #[test]
    fn a_stopped_balance_changes_nothing() {
        let mut board = Board::square(15, RuleSet::FREESTYLE).unwrap();
        for (x, y) in [(7, 7), (8, 8), (8, 6)] {
            board.play(board.pos(x, y).unwrap());
        }
        let mut e = small();
        e.set_board(board.clone());
        let stop = Arc::new(AtomicBool::new(true));
        for two in [false, true] {
            assert!(e.balance(two, 0, &depth(4), &stop, &mut |_| {}).is_err());
            assert_eq!(e.board().unwrap().hash(), board.hash());
        }
    }

    /// The net given to the engine (`with_options`, `set_net`) is the one
    /// its searches evaluate with: a random net searches a different tree
    /// from the embedded one, which is what no net means; `set_net` on a
    /// built searcher takes effect too.
    #[test]
    fn the_net_given_is_the_one_searched_with() {
        use crate::brain::eval::net::{embedded_net, random};
        let mut board = Board::square(15, RuleSet::FREESTYLE).unwrap();
        for (x, y) in [(7, 7), (8, 8), (8, 6), (6, 8)] {
            board.play(board.pos(x, y).unwrap());
        }
        let net_search = SearchOptions {
            eval: EvalKind::Net,
            ..SearchOptions::default()
        };
        let search = |e: &mut Engine| {
            e.clear();
            let r = e
                .search(&board, &depth(4), &Default::default(), &mut |_| {})
                .unwrap();
            (r.nodes, r.score, r.best)
        };
        let mut e = Engine::with_options(EngineOptions {
            search: net_search,
            net: None,
        });
        e.set_memory(8 << 20);
        let embedded = search(&mut e);
        assert!(Arc::ptr_eq(
            &e.searcher_net(Rule::Freestyle).unwrap(),
            &embedded_net()
        ));
        let q = Arc::new(QuantNet::new(&random(16, 16, 36)).unwrap());
        let mut e = Engine::with_options(EngineOptions {
            search: net_search,
            net: Some(q.clone()),
        });
        e.set_memory(8 << 20);
        let other = search(&mut e);
        assert!(Arc::ptr_eq(&e.searcher_net(Rule::Freestyle).unwrap(), &q));
        assert_ne!(other, embedded, "the random net searches its own tree");
        e.set_net(None);
        assert_eq!(search(&mut e), embedded);
        e.set_net(Some(q));
        assert_eq!(search(&mut e), other);
    }

    /// Without a net given, a search under each rule evaluates with that
    /// rule's embedded net: the same tree as that net given explicitly, and
    /// (where the rule has a file of its own) not the freestyle net's tree.
    #[test]
    fn each_rule_searches_with_its_own_embedded_net() {
        use crate::brain::eval::net::{embedded_file, embedded_net_for};
        for rule in Rule::ALL {
            let mut board = Board::square(15, RuleSet::from(rule)).unwrap();
            for (x, y) in [(7, 7), (8, 8), (8, 6), (6, 8), (9, 7)] {
                board.play(board.pos(x, y).unwrap());
            }
            let search = |net: Option<Arc<QuantNet>>| {
                let mut e = Engine::with_options(EngineOptions {
                    search: SearchOptions {
                        eval: EvalKind::Net,
                        ..SearchOptions::default()
                    },
                    net,
                });
                e.set_memory(8 << 20);
                let r = e
                    .search(&board, &depth(4), &Default::default(), &mut |_| {})
                    .unwrap();
                (r.nodes, r.score, r.best)
            };
            let own = search(None);
            assert_eq!(own, search(Some(embedded_net_for(rule))), "{rule:?}");
            if embedded_file(rule) != embedded_file(Rule::Freestyle) {
                let free = search(Some(embedded_net_for(Rule::Freestyle)));
                assert_ne!(own, free, "{rule:?} searched with the freestyle net");
            }
        }
    }

    /// By default (`EvalKind::Auto`) each rule plays with its own
    /// evaluation, `EvalKind::for_rule`: the same tree as that evaluation
    /// asked for by name, the net's in freestyle (continuous game too),
    /// standard, renju and caro; `--eval classic` and `--eval net` hold
    /// under every rule.
    #[test]
    fn by_default_each_rule_plays_with_its_own_evaluation() {
        let rulesets = Rule::ALL
            .into_iter()
            .map(RuleSet::from)
            .chain([RuleSet::from_bits(2)]);
        for rules in rulesets {
            let rule = rules.rule;
            let mut board = Board::square(15, rules).unwrap();
            for (x, y) in [(7, 7), (8, 8), (8, 6), (6, 8), (9, 7)] {
                board.play(board.pos(x, y).unwrap());
            }
            let search = |eval: EvalKind| {
                let mut e = Engine::with_options(EngineOptions {
                    search: SearchOptions {
                        eval,
                        ..SearchOptions::default()
                    },
                    net: None,
                });
                e.set_memory(8 << 20);
                let r = e
                    .search(&board, &depth(4), &Default::default(), &mut |_| {})
                    .unwrap();
                let net = e.searcher_net(rule).is_some();
                (r.nodes, r.score, r.best, net)
            };
            assert_eq!(SearchOptions::default().eval, EvalKind::Auto);
            let auto = search(EvalKind::Auto);
            let (classic, net) = (search(EvalKind::Classic), search(EvalKind::Net));
            assert!(!classic.3 && net.3, "{rules:?}");
            assert_ne!(
                classic, net,
                "{rules:?}: the two evaluations search one tree"
            );
            assert_eq!(auto, net, "{rules:?}");
            assert_eq!(EvalKind::Auto.resolve(rule), EvalKind::for_rule(rule));
        }
    }

    /// A manager-free game: position calls and `go` alternate, every move
    /// is legal and lands on the engine's board, TAKEBACK undoes it.
    #[test]
    fn a_game_without_a_manager() {
        let mut e = small();
        assert!(e.go(&depth(2), &Default::default(), &mut |_| {}).is_err());
        e.new_game(15, 15).unwrap();
        e.opponent_move(7, 7).unwrap();
        let mut iterations = 0;
        let c = e
            .go(&depth(3), &Default::default(), &mut |r| {
                if let Report::Iteration(_) = r {
                    iterations += 1
                }
            })
            .unwrap();
        assert!(iterations >= 1);
        assert!(c.legal && c.depth >= 1 && c.pv.first() == Some(&c.mv));
        let b = e.board().unwrap();
        assert_eq!(b.stone_count(), 2);
        assert_eq!(b.last_move().map(|m| m.pos), Some(c.mv));
        let (x, y) = b.xy(c.mv);
        assert!(e.opponent_move(x as i64, y as i64).is_err(), "occupied");
        e.takeback(x as i64, y as i64).unwrap();
        assert_eq!(e.board().unwrap().stone_count(), 1);
        assert!(e.takeback(7, 8).is_err());
    }

    /// `choose_move` refuses a finished game; `analyse` ranks distinct
    /// legal moves without touching the board.
    #[test]
    fn finished_games_and_ranked_moves() {
        let mut e = small();
        e.new_game(15, 15).unwrap();
        for (x, y) in [
            (7, 7),
            (0, 0),
            (8, 7),
            (0, 1),
            (9, 7),
            (0, 2),
            (10, 7),
            (0, 3),
        ] {
            e.opponent_move(x, y).unwrap();
        }
        let before = e.board().unwrap().hash();
        let ranked = e
            .analyse(3, &depth(2), &Default::default(), &mut |_| {})
            .unwrap();
        assert_eq!(e.board().unwrap().hash(), before);
        assert!(!ranked.is_empty() && ranked.len() <= 3);
        let b = e.board().unwrap().clone();
        for (i, &(p, _)) in ranked.iter().enumerate() {
            assert!(is_legal(&b, p));
            assert!(ranked[..i].iter().all(|&(q, _)| q != p), "distinct");
        }
        // Black has four in a row with both ends open: the best move wins.
        assert!(is_win(&b, ranked[0].0, Color::Black));
        e.opponent_move(11, 7).unwrap_err(); // the five ends the game
        let c = e.choose_move(
            &e.board().unwrap().clone(),
            &depth(2),
            &Default::default(),
            &mut |_| {},
        );
        assert!(c.is_err(), "{c:?}");
    }

    /// Threads and tables follow the memory budget; an exact table ignores it.
    #[test]
    fn threads_follow_the_memory_budget() {
        let mut e = small();
        e.set_threads(8);
        assert_eq!(e.threads(), 1, "8 MB leaves no room for helpers");
        let mut x = Engine::with_table_bytes(1 << 20);
        x.set_threads(2);
        assert_eq!(x.threads(), 2);
        x.prepare();
        assert_eq!(x.searcher_threads(), Some(2));
    }
}
