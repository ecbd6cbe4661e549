//! The protocol session: the one place where game state changes. It owns the
//! board, the manager's settings (rule, time limits, memory) and the
//! searcher, and turns each `Command` into `Response` lines.
//!
//! With pondering on (`INFO pondering 1`, or `INFO game_type 0` unless
//! pondering was set to 0) the searcher moves to a `Ponder` thread after each
//! answer; every command that needs the searcher or changes the board takes
//! it back first, and a TURN onto the predicted position finishes that search
//! instead of starting a new one (see `ponder`).
//!
//! Invariants kept here: every move we send is legal (on the board, empty,
//! and not forbidden to Black under renju) whatever the searcher returns; a
//! command answered with `ERROR` leaves the state as it was (a TURN whose
//! stone ends the game is the one exception: the stone stays, so TAKEBACK
//! can still undo it).

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Instant;

use super::command::{BoardStone, Command, Field, Info};
use super::legal::{fallback_move, finished, is_legal};
use super::ponder::{self, Ponder};
use super::response::Response;
use super::swap2;
use crate::game::board::EMPTY;
use crate::game::pattern;
use crate::game::rules::{forbidden_points, is_forbidden, is_win};
use crate::game::{Board, Pos};
use crate::search::{
    time, tt_bytes_for, Limits, SearchInfo, SearchOptions, SearchRequest, SearchResult, Searcher,
    DEFAULT_MEMORY,
};
use crate::types::{score_text, Color, Rule, RuleSet, Score};

/// Per-turn budget assumed for SWAP2 decisions when the manager gave none.
const DEFAULT_SWAP2_MS: u64 = 5_000;
/// `INFO time_left` at or above this means "untimed".
const UNLIMITED_TIME: i64 = i32::MAX as i64;

pub const ENGINE_NAME: &str = "Sente";
pub const ENGINE_AUTHOR: &str = "Sente developers";
pub const ENGINE_COUNTRY: &str = "International";

/// Everything INFO can set.
#[derive(Clone, Debug, Default)]
pub struct Settings {
    pub rules: RuleSet,
    pub timeout_turn: Option<u64>,
    pub timeout_match: Option<u64>,
    pub time_left: Option<i64>,
    /// Bytes; 0 means no limit given.
    pub max_memory: u64,
    /// `INFO game_type` (None: not given).
    pub game_type: Option<i64>,
    pub folder: Option<String>,
    pub thread_num: i64,
    pub max_depth: Option<u32>,
    pub max_nodes: Option<u64>,
    /// `INFO pondering` (None: not given, then game_type 0 decides).
    pub pondering: Option<bool>,
    pub caution_factor: i64,
    pub strength: i64,
}

impl Settings {
    /// Bytes the whole process may use (`INFO max_memory`, else the 350 MB
    /// Gomocup limit); the searcher sizes its tables from this.
    pub fn memory_budget(&self) -> usize {
        if self.max_memory == 0 {
            DEFAULT_MEMORY
        } else {
            usize::try_from(self.max_memory).unwrap_or(usize::MAX)
        }
    }

    /// Think on the opponent's time? When asked (`INFO pondering 1`), or
    /// against a human (`INFO game_type 0`) unless pondering was set to 0.
    /// Off by default: tournament managers suspend the brain anyway.
    pub fn ponder_enabled(&self) -> bool {
        self.pondering.unwrap_or(self.game_type == Some(0))
    }
}

/// Per-command context from the I/O layer.
#[derive(Clone, Debug)]
pub struct Ctx {
    /// Set by another thread (YXSTOP, END, EOF) to make the search answer now.
    pub stop: Arc<AtomicBool>,
    /// When the command's line was read: the move clock starts here.
    pub received: Instant,
}

impl Ctx {
    pub fn now() -> Ctx {
        Ctx {
            stop: Arc::new(AtomicBool::new(false)),
            received: Instant::now(),
        }
    }
}

pub struct Session {
    board: Option<Board>,
    settings: Settings,
    searcher: Option<Searcher>,
    searcher_bytes: usize,
    /// Search switches from the command line (A/B matches); defaults otherwise.
    options: SearchOptions,
    /// The search running on the opponent's time; it holds the searcher
    /// (`searcher` is None meanwhile).
    ponder: Option<Ponder>,
}

/// A move chosen by a search, checked legal.
struct Chosen {
    mv: Pos,
    score: Score,
    pv: Vec<Pos>,
    depth: u32,
}

/// Commands during which a ponder search may go on: they neither need the
/// searcher nor change the board. TURN and BOARD keep it too: they end in
/// `answer_move`, which decides between a hit and a miss.
fn keeps_ponder(cmd: &Command) -> bool {
    match cmd {
        Command::About
        | Command::ShowInfo
        | Command::ShowForbid
        | Command::Turn(..)
        | Command::Board {
            analysis: false, ..
        } => true,
        Command::Info(i) => {
            matches!(
                i,
                Info::TimeoutTurn(_)
                    | Info::TimeoutMatch(_)
                    | Info::TimeLeft(_)
                    | Info::GameType(_)
                    | Info::Folder(_)
                    | Info::Evaluate(..)
                    | Info::CautionFactor(_)
                    | Info::Strength(_)
                    | Info::Unknown(_)
            ) || matches!(i, Info::Pondering(v) if *v != 0)
        }
        _ => false,
    }
}

impl Default for Session {
    fn default() -> Self {
        Session::new()
    }
}

type Out<'a> = &'a mut dyn FnMut(Response);

fn err(s: impl Into<String>) -> Response {
    Response::Error(s.into())
}

const NO_BOARD: &str = "no board: send START first";

impl Session {
    pub fn new() -> Self {
        Session::with_options(SearchOptions::default())
    }

    /// A session whose searches use `options` (e.g. without the threat solver).
    pub fn with_options(options: SearchOptions) -> Self {
        Session {
            board: None,
            settings: Settings::default(),
            searcher: None,
            searcher_bytes: 0,
            options,
            ponder: None,
        }
    }

    pub fn board(&self) -> Option<&Board> {
        self.board.as_ref()
    }

    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// Handle one command, collecting the answers (for tests).
    pub fn handle_vec(&mut self, cmd: Command) -> Vec<Response> {
        let mut v = Vec::new();
        self.handle(cmd, &Ctx::now(), &mut |r| v.push(r));
        v
    }

    /// Handle one command; answers (including MESSAGE lines while
    /// searching) go to `out` as they are produced.
    pub fn handle(&mut self, cmd: Command, ctx: &Ctx, out: Out) {
        if self.ponder.is_some() && !keeps_ponder(&cmd) {
            self.stop_ponder();
        }
        self.dispatch(cmd, ctx, out);
        if self.ponder.is_some() && !self.settings.ponder_enabled() {
            self.stop_ponder();
        }
    }

    /// Is a ponder search running (for tests)?
    pub fn pondering(&self) -> bool {
        self.ponder.is_some()
    }

    /// Stop the ponder search, if any, and take the searcher back (a
    /// searcher lost to a panic is rebuilt by `prepare`).
    fn stop_ponder(&mut self) {
        if let Some(p) = self.ponder.take() {
            log::debug!("ponder stopped at depth {}", p.depth());
            self.searcher = p.stop();
        }
    }

    fn dispatch(&mut self, cmd: Command, ctx: &Ctx, out: Out) {
        match cmd {
            Command::Start(n) => self.start(n, n, out),
            Command::RectStart(w, h) => self.start(w, h, out),
            Command::Restart => match &self.board {
                None => out(err(NO_BOARD)),
                Some(b) => {
                    let (w, h) = (b.width(), b.height());
                    self.start(w as i64, h as i64, out);
                    if let Some(s) = &mut self.searcher {
                        s.clear();
                    }
                }
            },
            Command::Begin => self.begin(ctx, out),
            Command::Turn(x, y) => self.turn(x, y, ctx, out),
            Command::Board { analysis, stones } => self.set_board(analysis, &stones, ctx, out),
            Command::Info(info) => self.info(info),
            Command::End | Command::Stop => {}
            Command::About => out(Response::About {
                name: ENGINE_NAME.into(),
                version: env!("CARGO_PKG_VERSION").into(),
                author: ENGINE_AUTHOR.into(),
                country: ENGINE_COUNTRY.into(),
            }),
            Command::Takeback(x, y) => self.takeback(x, y, out),
            Command::Play(x, y) => self.play(x, y, out),
            Command::Swap2Board(stones) => self.swap2(&stones, ctx, out),
            Command::NBest(n) => self.nbest(n, ctx, out),
            Command::ShowForbid => match &self.board {
                None => out(err(NO_BOARD)),
                Some(b) => {
                    let pts = forbidden_points(b).into_iter().map(|p| b.xy(p)).collect();
                    out(Response::Forbid(pts))
                }
            },
            Command::HashClear => {
                if let Some(s) = &mut self.searcher {
                    s.clear();
                }
            }
            Command::ShowInfo => {
                let s = &self.settings;
                out(Response::Message(format!(
                    "pattern tables ready {}/4",
                    pattern::tables_ready()
                )));
                out(Response::Message(format!(
                    "INFO MAX_THREAD_NUM {} threads {}",
                    crate::search::clamp_threads(i64::MAX),
                    self.threads()
                )));
                if let Some(p) = &self.ponder {
                    out(Response::Message(p.describe()));
                } else if s.ponder_enabled() {
                    out(Response::Message("ponder idle".into()));
                }
                out(Response::Message(format!(
                    "INFO MAX_HASH_SIZE {}",
                    tt_bytes_for(s.memory_budget()) >> 20
                )));
                out(Response::Message(format!(
                    "INFO rule {} timeout_turn {:?} timeout_match {:?} time_left {:?} max_memory {} max_depth {:?} max_node {:?}",
                    s.rules, s.timeout_turn, s.timeout_match, s.time_left, s.max_memory, s.max_depth, s.max_nodes
                )));
            }
        }
    }

    /// Search threads for the next search: `INFO thread_num` within the
    /// machine's cores and what the memory budget leaves room for.
    fn threads(&self) -> usize {
        let s = &self.settings;
        crate::search::clamp_threads(s.thread_num)
            .min(crate::search::threads_for_memory(s.memory_budget()))
    }

    /// Build what the searcher needs (tables sized for the memory budget,
    /// the rule's pattern table) now, so the first move's clock does not
    /// pay for it. Called on START and INFO rule/max_memory, and before
    /// every search.
    pub fn prepare(&mut self) {
        self.stop_ponder();
        let bytes = self.settings.memory_budget();
        if self.searcher.is_none() || self.searcher_bytes != bytes {
            self.searcher = None; // free the old tables first
            let mut searcher = Searcher::new(bytes);
            searcher.options = self.options;
            self.searcher = Some(searcher);
            self.searcher_bytes = bytes;
        }
        let threads = self.threads();
        if let Some(s) = &mut self.searcher {
            s.set_threads(threads);
        }
        pattern::table(self.settings.rules.rule);
    }

    fn start(&mut self, w: i64, h: i64, out: Out) {
        let (Ok(wu), Ok(hu)) = (usize::try_from(w), usize::try_from(h)) else {
            return out(err(format!("unsupported board size {w}x{h}")));
        };
        match Board::new(wu, hu, self.settings.rules) {
            Ok(b) => {
                self.board = Some(b);
                // Build every table before answering: managers suspend the
                // brain right after START and INFO, so anything still to
                // build would be charged to the first move's clock.
                self.prepare();
                crate::search::warm_up_tables_blocking();
                out(Response::Ok);
            }
            Err(e) => out(err(e.to_string())),
        }
    }

    fn info(&mut self, info: Info) {
        let s = &mut self.settings;
        let nonneg = |v: i64| u64::try_from(v).ok();
        match info {
            // A negative time makes no sense: keep what we had.
            Info::TimeoutTurn(v) if v < 0 => log::warn!("INFO timeout_turn {v}: ignored"),
            Info::TimeoutTurn(v) => s.timeout_turn = nonneg(v),
            Info::TimeoutMatch(v) => s.timeout_match = nonneg(v).filter(|&v| v > 0),
            Info::TimeLeft(v) => s.time_left = (v < UNLIMITED_TIME).then_some(v),
            Info::MaxMemory(v) => {
                s.max_memory = nonneg(v).unwrap_or(0);
                if self.board.is_some() {
                    self.prepare();
                }
            }
            Info::GameType(v) => s.game_type = Some(v),
            Info::Rule(v) => match u32::try_from(v) {
                Ok(bits) => {
                    s.rules = RuleSet::from_bits(bits);
                    if let Some(b) = &mut self.board {
                        b.set_rules(s.rules);
                        self.prepare();
                    }
                }
                Err(_) => log::warn!("INFO rule {v}: ignored"),
            },
            Info::Evaluate(x, y) => log::debug!("INFO evaluate {x},{y}"),
            Info::Folder(f) => s.folder = Some(f),
            Info::ThreadNum(v) => s.thread_num = v,
            Info::MaxDepth(v) => s.max_depth = u32::try_from(v).ok().filter(|&d| d > 0),
            Info::MaxNode(v) => s.max_nodes = nonneg(v).filter(|&n| n > 0),
            Info::Pondering(v) => s.pondering = Some(v != 0),
            Info::CautionFactor(v) => s.caution_factor = v,
            Info::Strength(v) => s.strength = v,
            Info::Unknown(k) => log::debug!("INFO {k}: unknown key ignored"),
        }
    }

    fn limits(&self, start: Instant) -> Limits {
        let s = &self.settings;
        Limits {
            turn_ms: s.timeout_turn,
            match_ms: s.timeout_match,
            time_left_ms: s.time_left,
            max_depth: s.max_depth,
            max_nodes: s.max_nodes,
            start,
        }
    }

    /// Run the searcher on a copy of `board` (so a search bug can never
    /// corrupt the game), reporting each iteration as a MESSAGE line.
    fn think(
        &mut self,
        board: &Board,
        limits: Limits,
        multipv: usize,
        ctx: &Ctx,
        out: Out,
    ) -> Option<SearchResult> {
        self.prepare();
        let searcher = self.searcher.as_mut()?;
        let req = SearchRequest {
            limits,
            stop: ctx.stop.clone(),
            multipv: multipv.max(1),
        };
        let mut copy = board.clone();
        let view = board.clone();
        let result = catch_unwind(AssertUnwindSafe(|| {
            searcher.search(&mut copy, &req, &mut |info: &SearchInfo| {
                out(Response::Message(info_text(&view, info)))
            })
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

    /// Search `board` for the side to move and return a legal move.
    fn best_move(
        &mut self,
        board: &Board,
        limits: Limits,
        ctx: &Ctx,
        out: Out,
    ) -> Result<(Pos, Score), String> {
        self.search_move(board, limits, ctx, out)
            .map(|c| (c.mv, c.score))
    }

    /// `best_move` with the principal variation and depth.
    fn search_move(
        &mut self,
        board: &Board,
        limits: Limits,
        ctx: &Ctx,
        out: Out,
    ) -> Result<Chosen, String> {
        if board.is_full() {
            return Err("board is full: the game is a draw".into());
        }
        if let Some((c, p)) = finished(board) {
            let (x, y) = board.xy(p);
            return Err(format!("game is over: {c:?} has five at {x},{y}"));
        }
        let result = self.think(board, limits, 1, ctx, out);
        if let Some(r) = &result {
            if let Some(c) = legal_choice(board, r) {
                return Ok(c);
            }
            log::warn!("search returned no legal move ({:?}); falling back", r.best);
        }
        match fallback_move(board) {
            Some(p) => Ok(Chosen {
                mv: p,
                score: 0,
                pv: vec![p],
                depth: 0,
            }),
            // Empty cells but no legal one: under renju every cell left is
            // forbidden to Black. Any answer loses, but a move ends the game
            // at once by the rules, where silence would be a time forfeit.
            None => match board.empty_cells().next() {
                Some(p) => {
                    let (x, y) = board.xy(p);
                    out(Response::Message(format!(
                        "no legal move: every empty cell is forbidden to Black; playing {x},{y}"
                    )));
                    Ok(Chosen {
                        mv: p,
                        score: 0,
                        pv: vec![p],
                        depth: 0,
                    })
                }
                None => Err("no legal move left".into()),
            },
        }
    }

    /// On a ponder hit (the board is the position the ponder search is
    /// looking at), finish that search under this move's time plan and
    /// return its move. On anything else stop the ponder search (its table
    /// entries stay) and return None: the caller searches as usual.
    fn ponder_answer(
        &mut self,
        board: &Board,
        limits: &Limits,
        ctx: &Ctx,
        out: Out,
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
                ctx.received.elapsed().as_millis()
            );
            out(Response::Message(text));
            return None;
        }
        let empty = board.cell_count().saturating_sub(board.stone_count());
        let plan = time::plan(limits, empty);
        let (searcher, result, report) = p.finish_hit(plan, ctx.received, &ctx.stop);
        self.searcher = searcher;
        let chosen = result.as_ref().and_then(|r| legal_choice(board, r))?;
        let r = result.as_ref()?;
        out(Response::Message(info_text(
            board,
            &SearchInfo {
                depth: r.depth,
                score: r.score,
                nodes: r.nodes,
                elapsed: ctx.received.elapsed(),
                pv: r.pv.clone(),
            },
        )));
        let (x, y) = predicted.unwrap_or_default();
        let text = format!(
            "ponder hit: {x},{y} depth {} (depth {} after {} ms pondering), {} ms on this move",
            report.depth, report.depth_at_hit, report.ponder_ms, report.turn_ms
        );
        log::info!("{text}");
        out(Response::Message(text));
        Some(chosen)
    }

    /// Ponder after our move `ours` (already on the board), predicting the
    /// reply from `pv`.
    fn start_ponder(&mut self, ours: Pos, pv: &[Pos]) {
        let Some(board) = &self.board else { return };
        let target = ponder::target(board, ours, pv);
        let s = &self.settings;
        log::debug!("pondering {target:?}");
        self.ponder = Ponder::start(&mut self.searcher, board, target, s.max_depth, s.max_nodes);
    }

    /// Search, play our move on the board and answer it.
    fn answer_move(&mut self, ctx: &Ctx, out: Out) {
        let Some(board) = self.board.clone() else {
            return out(err(NO_BOARD));
        };
        let limits = self.limits(ctx.received);
        let chosen = match self.ponder_answer(&board, &limits, ctx, out) {
            Some(c) => Ok(c),
            None => self.search_move(&board, limits, ctx, out),
        };
        match chosen {
            Ok(c) => {
                let b = self.board.as_mut().expect("board checked above");
                b.play(c.mv);
                let (x, y) = b.xy(c.mv);
                // Timed before answering: a manager may suspend us right after.
                let ms = ctx.received.elapsed().as_millis();
                out(Response::Move(x, y));
                log::info!("move {x},{y} depth {} in {ms} ms", c.depth);
                if self.settings.ponder_enabled() {
                    self.start_ponder(c.mv, &c.pv);
                }
            }
            Err(e) => out(err(e)),
        }
    }

    fn begin(&mut self, ctx: &Ctx, out: Out) {
        match &self.board {
            None => out(err(NO_BOARD)),
            Some(b) if b.stone_count() != 0 => out(err("BEGIN: the board is not empty")),
            Some(_) => self.answer_move(ctx, out),
        }
    }

    fn turn(&mut self, x: i64, y: i64, ctx: &Ctx, out: Out) {
        let Some(b) = &mut self.board else {
            return out(err(NO_BOARD));
        };
        if let Some((c, p)) = finished(b) {
            let (px, py) = b.xy(p);
            return out(err(format!("game is over: {c:?} has five at {px},{py}")));
        }
        let color = b.to_move();
        let p = match b.try_make(x, y, color) {
            Ok(p) => p,
            Err(e) => return out(err(format!("TURN: {e}"))),
        };
        if color == Color::Black && b.rules().rule == Rule::Renju {
            let mut before = b.clone();
            before.unmake();
            if is_forbidden(&before, p) {
                log::warn!("TURN {x},{y}: the opponent played a forbidden point");
            }
        }
        if !b.rules().continuous && is_win(b, p, color) {
            return out(err(format!("game is over: {x},{y} completes a five")));
        }
        if b.is_full() {
            return out(err("board is full: the game is a draw"));
        }
        self.answer_move(ctx, out)
    }

    fn takeback(&mut self, x: i64, y: i64, out: Out) {
        let Some(b) = &mut self.board else {
            return out(err(NO_BOARD));
        };
        let Some(p) = b.pos(x, y) else {
            return out(err(format!("TAKEBACK: {x},{y} is outside the board")));
        };
        match b.last_move() {
            Some(m) if m.pos == p => {
                b.unmake();
                out(Response::Ok)
            }
            _ if b.cell(p) == EMPTY => out(err(format!("TAKEBACK: no stone at {x},{y}"))),
            _ => out(err(format!("TAKEBACK: {x},{y} is not the last move"))),
        }
    }

    fn play(&mut self, x: i64, y: i64, out: Out) {
        let Some(b) = &mut self.board else {
            return out(err(NO_BOARD));
        };
        let color = b.to_move();
        match b.try_make(x, y, color) {
            Ok(_) => out(Response::Move(x as usize, y as usize)),
            Err(e) => out(err(format!("PLAY: {e}"))),
        }
    }

    /// Build the position a BOARD describes; see `own_color` for colours.
    fn build_board(&self, stones: &[BoardStone]) -> Result<Board, String> {
        let cur = self.board.as_ref().ok_or(NO_BOARD)?;
        let mut b = Board::new(cur.width(), cur.height(), self.settings.rules)
            .map_err(|e| e.to_string())?;
        for s in stones {
            let p = b
                .pos(s.x, s.y)
                .ok_or_else(|| format!("BOARD: {},{} is outside the board", s.x, s.y))?;
            if b.cell(p) != EMPTY {
                return Err(format!("BOARD: {},{} is given twice", s.x, s.y));
            }
            b.make_neutral(p); // placeholder, to catch duplicates
        }
        let own = own_color(stones, self.settings.rules);
        let mut b = Board::new(cur.width(), cur.height(), self.settings.rules)
            .map_err(|e| e.to_string())?;
        for s in stones {
            let p = b.pos(s.x, s.y).expect("checked above");
            match s.field {
                Field::Own => b.make(p, own),
                Field::Opponent => b.make(p, own.opposite()),
                Field::Neutral => b.make_neutral(p),
            }
        }
        b.set_to_move(own);
        Ok(b)
    }

    fn set_board(&mut self, analysis: bool, stones: &[BoardStone], ctx: &Ctx, out: Out) {
        let b = match self.build_board(stones) {
            Ok(b) => b,
            Err(e) => return out(err(e)),
        };
        if analysis {
            self.board = Some(b);
            return;
        }
        if b.is_full() {
            return out(err("BOARD: the board is full"));
        }
        if let Some((c, p)) = finished(&b) {
            let (x, y) = b.xy(p);
            return out(err(format!(
                "BOARD: game is over: {c:?} has five at {x},{y}"
            )));
        }
        self.board = Some(b);
        self.answer_move(ctx, out)
    }

    /// Limits for one of `parts` short searches sharing this turn's budget.
    fn share_limits(&self, ctx: &Ctx, parts: u64) -> Limits {
        let s = &self.settings;
        let mut budget = s.timeout_turn.unwrap_or(DEFAULT_SWAP2_MS);
        if let Some(left) = s.time_left {
            budget = budget.min(u64::try_from(left.max(0)).unwrap_or(0) / 8);
        }
        let spent = ctx.received.elapsed().as_millis() as u64;
        let budget = (budget * 8 / 10).saturating_sub(spent);
        Limits {
            turn_ms: Some(budget / parts.max(1)),
            match_ms: None,
            time_left_ms: None,
            max_depth: s.max_depth,
            max_nodes: s.max_nodes,
            start: Instant::now(),
        }
    }

    fn swap2(&mut self, stones: &[(i64, i64)], ctx: &Ctx, out: Out) {
        let Some(cur) = &self.board else {
            return out(err(NO_BOARD));
        };
        let mut b = match Board::new(cur.width(), cur.height(), self.settings.rules) {
            Ok(b) => b,
            Err(e) => return out(err(e.to_string())),
        };
        for &(x, y) in stones {
            let c = b.to_move();
            if let Err(e) = b.try_make(x, y, c) {
                return out(err(format!("SWAP2BOARD: {e}")));
            }
        }
        let mut probe = |pos: &Board, parts: u64| {
            let limits = self.share_limits(ctx, parts);
            self.best_move(pos, limits, ctx, out)
        };
        match swap2::decide(b, &mut probe) {
            Ok(d) => {
                out(Response::Message(d.note));
                let answer = match d.answer {
                    swap2::Answer::Swap => Response::Swap,
                    swap2::Answer::Moves(ms) if ms.len() == 1 => {
                        let (x, y) = d.board.xy(ms[0]);
                        Response::Move(x, y)
                    }
                    swap2::Answer::Moves(ms) => {
                        Response::Moves(ms.iter().map(|&p| d.board.xy(p)).collect())
                    }
                };
                self.board = Some(d.board);
                out(answer)
            }
            Err(e) => out(err(e)),
        }
    }

    /// YXNBEST n: the n best moves as MESSAGE lines, then the best one as the
    /// answer. The board is not changed (analysis).
    fn nbest(&mut self, n: i64, ctx: &Ctx, out: Out) {
        let Some(board) = self.board.clone() else {
            return out(err(NO_BOARD));
        };
        if n < 1 {
            return out(err(format!("YXNBEST: count {n} must be at least 1")));
        }
        if board.is_full() {
            return out(err("board is full: the game is a draw"));
        }
        let empties = board.empty_cells().count();
        let n = (n as usize).min(empties);
        let limits = self.limits(ctx.received);
        let result = self.think(&board, limits, n, ctx, out);
        let mut ranked: Vec<(Pos, Score)> = result
            .map(|r| r.ranked)
            .unwrap_or_default()
            .into_iter()
            .filter(|&(p, _)| is_legal(&board, p))
            .collect();
        ranked.truncate(n);
        if ranked.is_empty() {
            match fallback_move(&board) {
                Some(p) => ranked.push((p, 0)),
                None => return out(err("no legal move left")),
            }
        }
        for (i, &(p, s)) in ranked.iter().enumerate() {
            let (x, y) = board.xy(p);
            out(Response::Message(format!(
                "nbest {} {x},{y} ev {}",
                i + 1,
                score_text(s)
            )));
        }
        let (x, y) = board.xy(ranked[0].0);
        out(Response::Move(x, y))
    }
}

/// The first legal move among the result's best move, ranked moves and PV.
fn legal_choice(board: &Board, r: &SearchResult) -> Option<Chosen> {
    let candidates = std::iter::once(r.best)
        .chain(r.ranked.iter().map(|&(p, _)| p))
        .chain(r.pv.first().copied());
    for p in candidates {
        if is_legal(board, p) {
            let pv = if r.pv.first() == Some(&p) {
                r.pv.clone()
            } else {
                vec![p]
            };
            return Some(Chosen {
                mv: p,
                score: r.score,
                pv,
                depth: r.depth,
            });
        }
    }
    None
}

/// The colour of the brain's stones (field 1) in a BOARD. The brain is to
/// move. Under renju the stones come in move order, so the first stone is
/// Black's; otherwise (or if that order does not fit the counts) the counts
/// decide: equal counts → the brain is Black, one more opponent stone → the
/// brain is White.
pub fn own_color(stones: &[BoardStone], rules: RuleSet) -> Color {
    let own = stones.iter().filter(|s| s.field == Field::Own).count();
    let opp = stones.iter().filter(|s| s.field == Field::Opponent).count();
    let fits = |c: Color| match c {
        Color::Black => own == opp,
        Color::White => opp == own + 1,
    };
    if rules.rule == Rule::Renju {
        if let Some(first) = stones.iter().find(|s| s.field != Field::Neutral) {
            let c = if first.field == Field::Own {
                Color::Black
            } else {
                Color::White
            };
            if fits(c) {
                return c;
            }
        }
    }
    if fits(Color::Black) {
        Color::Black
    } else if fits(Color::White) {
        Color::White
    } else {
        log::warn!("BOARD with {own} own and {opp} opponent stones: colours guessed");
        if own >= opp {
            Color::Black
        } else {
            Color::White
        }
    }
}

/// One MESSAGE line per search iteration.
pub fn info_text(board: &Board, info: &SearchInfo) -> String {
    let ms = info.elapsed.as_millis() as u64;
    let nps = (info.nodes * 1000)
        .checked_div(ms)
        .unwrap_or(info.nodes * 1000);
    let pv: Vec<String> = info
        .pv
        .iter()
        .filter(|p| board.in_board(**p))
        .map(|&p| {
            let (x, y) = board.xy(p);
            format!("{x},{y}")
        })
        .collect();
    format!(
        "depth {} ev {} nodes {} nps {} time {} pv {}",
        info.depth,
        score_text(info.score),
        info.nodes,
        nps,
        ms,
        pv.join(" ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::command::parse;

    #[test]
    fn command_line_search_options_reach_the_searcher() {
        let off = SearchOptions {
            root_threats: false,
            ..SearchOptions::default()
        };
        let mut s = Session::with_options(off);
        s.handle_vec(Command::Info(Info::MaxMemory(8 << 20)));
        s.handle_vec(Command::Start(15));
        assert_eq!(s.searcher.as_ref().map(|x| x.options), Some(off));
        // A new table size builds a new searcher: the options stay.
        s.handle_vec(Command::Info(Info::MaxMemory(16 << 20)));
        assert_eq!(s.searcher.as_ref().map(|x| x.options), Some(off));
    }

    /// A session with small tables, so tests do not allocate 150 MB each.
    fn small() -> Session {
        let mut s = Session::new();
        s.handle_vec(Command::Info(Info::MaxMemory(8 << 20)));
        s
    }

    fn run(s: &mut Session, line: &str) -> Vec<String> {
        s.handle_vec(parse(line).unwrap())
            .into_iter()
            .map(|r| r.to_string())
            .filter(|l| !l.starts_with("MESSAGE"))
            .collect()
    }

    fn stones(list: &[(i64, i64, Field)]) -> Vec<BoardStone> {
        list.iter()
            .map(|&(x, y, field)| BoardStone { x, y, field })
            .collect()
    }

    /// Game 7 of the 0.7.6 renju strength run against Rapfi (Sente Black), in
    /// move order: 224 stones, only 4,3 empty.
    const RENJU_FULL_BUT_ONE: &str = "7,7 7,6 5,10 8,6 8,5 9,6 6,6 8,8 9,8 10,6 11,6 9,7 11,5 10,8 11,9 11,7 9,5 7,5 6,4 8,9 \
         8,10 10,5 10,7 11,4 12,3 12,5 10,3 7,10 7,8 6,5 6,9 4,11 6,10 12,6 13,5 6,11 5,12 5,11 \
         7,11 12,8 12,7 4,12 11,3 9,3 13,3 14,3 13,4 13,2 10,9 13,9 14,10 11,8 10,2 9,1 5,9 4,8 4,9 \
         3,9 2,11 5,7 13,7 13,6 2,10 3,10 3,8 7,4 6,12 5,13 5,4 2,7 8,3 4,10 1,7 4,5 5,5 4,6 8,12 \
         9,13 4,4 3,3 11,10 12,11 9,12 7,12 3,5 2,6 2,5 3,6 1,6 1,8 0,9 2,9 0,7 10,11 11,11 11,12 \
         9,10 10,13 14,9 11,13 8,13 14,8 13,8 5,3 7,2 2,3 6,3 9,0 6,7 6,8 9,4 13,10 9,14 1,2 8,14 \
         8,11 11,2 12,1 10,1 14,5 8,2 9,2 14,6 12,4 6,1 5,0 8,4 8,1 6,2 6,0 5,2 4,2 3,4 2,4 5,1 7,3 \
         1,3 4,13 4,14 12,10 12,12 7,0 8,0 1,5 0,6 0,8 3,13 13,13 12,13 9,11 10,14 7,14 2,12 0,4 \
         3,7 10,4 3,0 2,14 10,0 14,2 12,14 11,14 14,1 2,1 0,10 1,11 2,0 1,10 3,2 0,1 13,12 1,12 1,9 \
         0,3 0,2 1,13 1,14 4,1 8,7 13,1 3,11 0,12 14,7 14,4 12,0 4,0 0,14 6,13 1,1 4,7 2,2 14,12 \
         1,4 13,0 7,1 0,0 2,8 1,0 0,5 11,0 12,9 3,12 3,1 13,11 12,2 2,13 5,8 14,0 10,10 10,12 5,6 \
         0,11 0,13 5,14 7,13 11,1 9,9 3,14 14,13 6,14 14,14 13,14 7,9 14,11";

    /// A renju game (the arena's record, Sente Black) filled but for 4,3,
    /// which is forbidden to Black: the answer is that cell, announced.
    #[test]
    fn black_without_a_legal_move_plays_the_forbidden_cell() {
        let mut s = small();
        run(&mut s, "START 15");
        run(&mut s, "INFO rule 4");
        run(&mut s, "INFO timeout_turn 200");
        let list: Vec<(i64, i64, Field)> = RENJU_FULL_BUT_ONE
            .split_whitespace()
            .enumerate()
            .map(|(i, m)| {
                let (x, y) = m.split_once(',').unwrap();
                let f = if i % 2 == 0 {
                    Field::Own
                } else {
                    Field::Opponent
                };
                (x.parse().unwrap(), y.parse().unwrap(), f)
            })
            .collect();
        assert_eq!(list.len(), 224);
        assert_eq!(s.settings.rules.rule, crate::types::Rule::Renju);
        let all: Vec<String> = s
            .handle_vec(Command::Board {
                analysis: false,
                stones: stones(&list),
            })
            .into_iter()
            .map(|r| r.to_string())
            .collect();
        let b = s.board().unwrap();
        let p = b.pos(4, 3).unwrap();
        assert!(b.is_full(), "the last cell was played: {all:?}");
        assert_eq!(all.last().map(String::as_str), Some("4,3"), "{all:?}");
        assert!(
            all.iter().any(|l| l.starts_with("MESSAGE no legal move")),
            "{all:?}"
        );
        assert!(!b.is_empty(p));
    }

    #[test]
    fn needs_start() {
        let mut s = small();
        assert!(run(&mut s, "TURN 1,1")[0].starts_with("ERROR"));
        assert!(run(&mut s, "BEGIN")[0].starts_with("ERROR"));
        assert!(run(&mut s, "RESTART")[0].starts_with("ERROR"));
        assert_eq!(run(&mut s, "START 4")[0].split(' ').next(), Some("ERROR"));
        assert_eq!(run(&mut s, "START 15"), vec!["OK"]);
    }

    #[test]
    fn bad_turns_leave_state_unchanged() {
        let mut s = small();
        run(&mut s, "START 15");
        let mv = run(&mut s, "TURN 7,7");
        assert_eq!(mv.len(), 1);
        let before = s.board().unwrap().hash();
        assert!(run(&mut s, "TURN 7,7")[0].starts_with("ERROR"));
        assert!(run(&mut s, "TURN 15,0")[0].starts_with("ERROR"));
        assert!(run(&mut s, "TURN -1,0")[0].starts_with("ERROR"));
        assert!(run(&mut s, "TAKEBACK 7,7")[0].starts_with("ERROR"));
        assert_eq!(s.board().unwrap().hash(), before);
        let (x, y) = {
            let v: Vec<usize> = mv[0].split(',').map(|t| t.parse().unwrap()).collect();
            (v[0], v[1])
        };
        assert_eq!(run(&mut s, &format!("TAKEBACK {x},{y}")), vec!["OK"]);
        assert_eq!(run(&mut s, "TAKEBACK 7,7"), vec!["OK"]);
        assert_eq!(s.board().unwrap().stone_count(), 0);
    }

    #[test]
    fn board_colours() {
        let r = RuleSet::default();
        let renju = RuleSet::from_bits(4);
        use Field::*;
        assert_eq!(own_color(&stones(&[]), r), Color::Black);
        assert_eq!(own_color(&stones(&[(7, 7, Opponent)]), r), Color::White);
        assert_eq!(
            own_color(&stones(&[(7, 7, Own), (8, 8, Opponent)]), r),
            Color::Black
        );
        assert_eq!(
            own_color(
                &stones(&[(7, 7, Opponent), (8, 8, Own), (9, 9, Opponent)]),
                renju
            ),
            Color::White
        );
        // Renju order that contradicts the counts: counts win.
        assert_eq!(
            own_color(
                &stones(&[(7, 7, Own), (8, 8, Opponent), (9, 9, Opponent)]),
                renju
            ),
            Color::White
        );
    }

    #[test]
    fn board_command_plays_for_the_right_side() {
        let mut s = small();
        run(&mut s, "START 15");
        let out = s.handle_vec(Command::Board {
            analysis: false,
            stones: stones(&[(7, 7, Field::Opponent)]),
        });
        assert!(matches!(out.last(), Some(Response::Move(..))));
        let b = s.board().unwrap();
        assert_eq!(b.stone_count(), 2);
        assert_eq!(b.cell(b.pos(7, 7).unwrap()), Color::Black.cell());
        assert_eq!(b.to_move(), Color::Black);
        // Duplicate stones: error, board unchanged.
        let h = b.hash();
        let out = s.handle_vec(Command::Board {
            analysis: false,
            stones: stones(&[(1, 1, Field::Own), (1, 1, Field::Opponent)]),
        });
        assert!(matches!(out[..], [Response::Error(_)]));
        assert_eq!(s.board().unwrap().hash(), h);
    }

    #[test]
    fn swap2_answers_have_the_right_shape() {
        let mut s = small();
        run(&mut s, "START 15");
        run(&mut s, "INFO timeout_turn 100");
        let out = s.handle_vec(Command::Swap2Board(vec![]));
        match out.last() {
            Some(Response::Moves(m)) => assert_eq!(m.len(), 3),
            o => panic!("{o:?}"),
        }
        let out = s.handle_vec(Command::Swap2Board(vec![(7, 7), (8, 8), (6, 8)]));
        assert!(matches!(
            out.last(),
            Some(Response::Swap | Response::Move(..) | Response::Moves(_))
        ));
        if let Some(Response::Moves(m)) = out.last() {
            assert_eq!(m.len(), 2);
        }
        let out = s.handle_vec(Command::Swap2Board(vec![(7, 7), (7, 7), (6, 8)]));
        assert!(matches!(out[..], [Response::Error(_)]));
    }

    #[test]
    fn forbid_and_nbest() {
        let mut s = small();
        run(&mut s, "INFO timeout_turn 100");
        run(&mut s, "INFO rule 4");
        run(&mut s, "START 15");
        assert_eq!(run(&mut s, "YXSHOWFORBID"), vec!["FORBID ."]);
        let out = run(&mut s, "YXNBEST 3");
        assert_eq!(out.len(), 1);
        assert_eq!(s.board().unwrap().stone_count(), 0);
    }

    #[test]
    fn pondering_is_off_unless_asked_or_against_a_human() {
        let mut st = Settings::default();
        assert!(!st.ponder_enabled());
        st.game_type = Some(1);
        assert!(!st.ponder_enabled());
        st.game_type = Some(0);
        assert!(st.ponder_enabled());
        st.pondering = Some(false);
        assert!(!st.ponder_enabled(), "an explicit 0 wins over game_type 0");
        st.game_type = Some(2);
        st.pondering = Some(true);
        assert!(st.ponder_enabled());
        let mut s = small();
        run(&mut s, "INFO pondering 7");
        assert_eq!(s.settings().pondering, Some(true));
        run(&mut s, "INFO pondering 0");
        assert_eq!(s.settings().pondering, Some(false));
    }

    /// The MESSAGE lines of one command, and its answer.
    fn run_all(s: &mut Session, line: &str) -> (Vec<String>, String) {
        let mut lines: Vec<String> = s
            .handle_vec(parse(line).unwrap())
            .into_iter()
            .map(|r| r.to_string())
            .collect();
        let answer = lines.pop().unwrap_or_default();
        (lines, answer)
    }

    /// The PV of the last search-info MESSAGE.
    fn last_pv(messages: &[String]) -> Vec<String> {
        let line = messages
            .iter()
            .rev()
            .find(|l| l.contains(" pv "))
            .expect("a search-info line");
        let pv = line.split(" pv ").nth(1).unwrap();
        pv.split_whitespace().map(String::from).collect()
    }

    /// Wait (polling YXSHOWINFO) until the ponder search has ended by itself.
    fn wait_ponder_finished(s: &mut Session) {
        let t = Instant::now();
        loop {
            let (msgs, _) = run_all(s, "YXSHOWINFO");
            if msgs
                .iter()
                .any(|m| m.contains("ponder") && m.ends_with("finished"))
            {
                return;
            }
            assert!(
                t.elapsed().as_secs() < 60,
                "ponder never finished: {msgs:?}"
            );
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
    }

    #[test]
    fn ponder_runs_between_moves_and_commands_stop_it() {
        let mut s = small();
        run(&mut s, "INFO max_depth 3");
        run(&mut s, "START 15");
        let first = run(&mut s, "TURN 7,7");
        assert!(!s.pondering(), "off by default");
        run(&mut s, "INFO game_type 0");
        // Any empty cell will do for the opponent's second move.
        let second = if first[0] == "9,9" {
            "TURN 5,5"
        } else {
            "TURN 9,9"
        };
        let mv = run(&mut s, second);
        assert!(s.pondering(), "game_type 0 turns it on");
        for keep in ["INFO time_left 5000", "INFO timeout_turn 900", "ABOUT"] {
            run(&mut s, keep);
            assert!(s.pondering(), "{keep} must not stop pondering");
        }
        assert_eq!(run(&mut s, &format!("TAKEBACK {}", mv[0])), vec!["OK"]);
        assert!(!s.pondering());
        let out = s.handle_vec(Command::Board {
            analysis: false,
            stones: stones(&[
                (7, 7, Field::Opponent),
                (9, 9, Field::Opponent),
                (8, 8, Field::Own),
            ]),
        });
        assert!(matches!(out.last(), Some(Response::Move(..))));
        assert!(s.pondering());
        for stop in [
            "INFO rule 1",
            "YXHASHCLEAR",
            "RESTART",
            "YXSTOP",
            "YXNBEST 2",
            "INFO max_memory 9000000",
            "INFO pondering 0",
        ] {
            // Each of these stops a ponder search; start one again first.
            run(&mut s, "INFO pondering 1");
            if !s.pondering() {
                run(&mut s, "RESTART");
                run(&mut s, "TURN 7,7");
            }
            assert!(s.pondering(), "before {stop}");
            run(&mut s, stop);
            assert!(!s.pondering(), "{stop} must stop pondering");
        }
        // Off again: no ponder after a move.
        run(&mut s, "RESTART");
        run(&mut s, "TURN 7,7");
        assert!(!s.pondering());
    }

    #[test]
    fn ponder_hit_answers_from_the_ponder_search_and_miss_searches_again() {
        let mut s = small();
        run(&mut s, "INFO max_depth 4");
        run(&mut s, "INFO pondering 1");
        run(&mut s, "START 15");
        let (msgs, answer) = run_all(&mut s, "TURN 7,7");
        let pv = last_pv(&msgs);
        assert_eq!(pv[0], answer);
        assert!(pv.len() >= 2, "a depth-4 PV has a reply: {pv:?}");
        wait_ponder_finished(&mut s);
        let (msgs, answer) = run_all(&mut s, &format!("TURN {}", pv[1]));
        let hit = msgs
            .iter()
            .find(|m| m.starts_with("MESSAGE ponder hit"))
            .unwrap_or_else(|| panic!("no hit: {msgs:?}"));
        // The finished depth-4 ponder search is the answer: no new search.
        assert!(
            hit.contains(&format!("{} depth 4 (depth 4 after", pv[1])),
            "{hit}"
        );
        assert!(!msgs.iter().any(|m| m.contains("miss")));
        let b = s.board().unwrap();
        assert_eq!(b.stone_count(), 4);
        let (x, y) = b.xy(b.last_move().unwrap().pos);
        assert_eq!(answer, format!("{x},{y}"));
        // A miss: any other move stops the ponder search and searches anew.
        let pv = last_pv(&msgs);
        let other = ["0,0", "14,14", "0,14"]
            .into_iter()
            .find(|m| pv.get(1).map(String::as_str) != Some(*m))
            .unwrap();
        let (msgs, answer) = run_all(&mut s, &format!("TURN {other}"));
        assert!(
            msgs.iter().any(|m| m.starts_with("MESSAGE ponder miss")),
            "{msgs:?}"
        );
        let b = s.board().unwrap();
        assert_eq!(b.stone_count(), 6);
        let (x, y) = b.xy(b.last_move().unwrap().pos);
        assert_eq!(answer, format!("{x},{y}"));
        assert!(s.pondering());
    }

    #[test]
    fn a_forced_answer_without_a_pv_reply_still_predicts_one() {
        let mut s = small();
        run(&mut s, "INFO timeout_turn 300");
        run(&mut s, "INFO pondering 1");
        run(&mut s, "START 15");
        // The opponent's four on row 7 is blocked at 2,7: we must take 7,7,
        // a forced move whose PV has no reply in it.
        use Field::*;
        let out = s.handle_vec(Command::Board {
            analysis: false,
            stones: stones(&[
                (3, 7, Opponent),
                (4, 7, Opponent),
                (5, 7, Opponent),
                (6, 7, Opponent),
                (2, 7, Own),
                (10, 10, Own),
                (11, 3, Own),
            ]),
        });
        assert_eq!(out.last().map(|r| r.to_string()), Some("7,7".into()));
        let pv = last_pv(&out.iter().map(|r| r.to_string()).collect::<Vec<_>>());
        assert_eq!(pv, vec!["7,7".to_string()]);
        // The ponder search guesses the reply, then searches after it.
        let t = Instant::now();
        let line = loop {
            let (msgs, _) = run_all(&mut s, "YXSHOWINFO");
            let line = msgs
                .into_iter()
                .find(|m| m.starts_with("MESSAGE ponder"))
                .expect("pondering");
            if !line.contains("depth 0") {
                break line;
            }
            assert!(t.elapsed().as_secs() < 60, "{line}");
            std::thread::sleep(std::time::Duration::from_millis(5));
        };
        let reply = line.split_whitespace().nth(2).unwrap().to_string();
        assert!(reply.contains(','), "a predicted reply, not {line}");
        let (msgs, _) = run_all(&mut s, &format!("TURN {reply}"));
        assert!(
            msgs.iter().any(|m| m.starts_with("MESSAGE ponder hit")),
            "{msgs:?}"
        );
    }

    #[test]
    fn memory_budget() {
        let mut st = Settings::default();
        assert_eq!(st.memory_budget(), DEFAULT_MEMORY);
        st.max_memory = 100 << 20;
        assert_eq!(st.memory_budget(), 100 << 20);
        let mut s = Session::new();
        s.handle_vec(parse("INFO max_memory 83886080").unwrap());
        assert_eq!(s.settings().memory_budget(), 80 << 20);
        s.handle_vec(parse("INFO max_memory 0").unwrap());
        assert_eq!(s.settings().memory_budget(), DEFAULT_MEMORY);
    }

    #[test]
    fn thread_num_reaches_the_searcher_within_memory() {
        let cores = crate::search::clamp_threads(i64::MAX);
        let mut s = Session::new();
        run(&mut s, "INFO max_memory 83886080");
        run(&mut s, "INFO thread_num 2");
        run(&mut s, "START 15");
        assert_eq!(s.searcher.as_ref().unwrap().threads(), 2.min(cores));
        run(&mut s, "INFO thread_num 0");
        run(&mut s, "START 15");
        assert_eq!(s.searcher.as_ref().map(|x| x.threads()), Some(1));
        // 40 MB leaves no room for helpers, whatever is asked.
        run(&mut s, "INFO max_memory 41943040");
        run(&mut s, "INFO thread_num 64");
        run(&mut s, "START 15");
        assert_eq!(s.searcher.as_ref().unwrap().threads(), 1);
    }
}
