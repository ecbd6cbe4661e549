//! The protocol session: turns each `Command` into calls on the `Engine`
//! and the engine's answers and reports into `Response` lines. It keeps
//! what the manager said with INFO (`Settings`) and hands the engine what
//! it needs of it: rule, memory, threads, pondering, and each move's
//! `Limits`. Decoding a BOARD's stones (`own_color`) and the MESSAGE line of
//! an iteration (`info_text`) are protocol matters and live here, as is
//! what `INFO show_detail` shows of a search (`realtime`); the position,
//! the searcher, pondering, SWAP2, the analysis controls (YXBLOCK, the move
//! limit, the first depth) and the legality guard are the engine's.
//!
//! With pondering on (`INFO pondering 1`, or `INFO game_type 0` unless
//! pondering was set to 0) the engine thinks after each answer; every
//! command that needs the searcher or changes the board stops that first
//! (`keeps_ponder` lists those that do not), and a TURN onto the predicted
//! position is answered from the ponder search.
//!
//! A command answered with `ERROR` leaves the state as it was (a TURN whose
//! stone ends the game is the one exception: the stone stays, so TAKEBACK
//! can still undo it).

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Instant;

use super::command::{BoardStone, Command, Field, Info};
use super::realtime::{Realtime, ShowDetail};
use super::response::Response;
use crate::brain::engine::{
    swap2, DrawResult, Engine, EngineOptions, Limits, Report, SearchInfo, Strength,
};
use crate::brain::game::board::EMPTY;
use crate::brain::game::pattern;
use crate::brain::game::rules::{finished, forbidden_points};
use crate::brain::game::{Board, CandidateRange};
use crate::brain::search::time::UNLIMITED_LEFT;
use crate::brain::types::{score_text, Color, Rule, RuleSet};

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
    /// `INFO show_detail`.
    pub show_detail: ShowDetail,
    /// `INFO time_increment` in ms (None: no increment).
    pub increment_ms: Option<u64>,
}

impl Settings {
    /// Think on the opponent's time? When asked (`INFO pondering 1`), or
    /// against a human (`INFO game_type 0`) unless pondering was set to 0.
    /// Off by default: tournament managers suspend the brain anyway.
    pub fn ponder_enabled(&self) -> bool {
        self.pondering.unwrap_or(self.game_type == Some(0))
    }

    /// The limits of a move whose command arrived at `start`.
    fn limits(&self, start: Instant) -> Limits {
        Limits {
            turn_ms: self.timeout_turn,
            match_ms: self.timeout_match,
            time_left_ms: self.time_left,
            max_depth: self.max_depth,
            max_nodes: self.max_nodes,
            increment_ms: self.increment_ms,
            start,
        }
    }
}

/// Per-command context from the I/O layer.
#[derive(Clone, Debug)]
pub struct Ctx {
    /// Set by another thread (YXSTOP, END) to make the search answer now.
    pub stop: Arc<AtomicBool>,
    /// When the command's line was read: the move clock starts here (or
    /// at the previous search's answer, if that came later: see `searches`).
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
    settings: Settings,
    engine: Engine,
    /// When the last command that searches (`searches`) was answered.
    answered: Option<Instant>,
}

/// Commands answered after a search: the sender waits for their answer.
/// One read before the previous such answer (queued behind it, as in piped
/// input) starts its clock at that answer, as if sent right after it.
fn searches(cmd: &Command) -> bool {
    matches!(
        cmd,
        Command::Begin
            | Command::Turn(..)
            | Command::Board {
                analysis: false,
                ..
            }
            | Command::Swap2Board(_)
            | Command::NBest(_)
            | Command::Balance { .. }
            | Command::SearchDefend
    )
}

/// Commands during which a ponder search may go on: they neither need the
/// searcher nor change the board. TURN and BOARD keep it too: they end in
/// `Engine::go`, which decides between a hit and a miss.
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
                    | Info::ShowDetail(_)
                    | Info::TimeIncrement(_)
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

/// The engine's reports as MESSAGE lines, as much of them as `show`
/// asks for; iterations are shown on `view` (the board searched:
/// coordinates are the protocol's), realtime lines timed from `start`.
fn report_to<'a>(
    view: &'a Board,
    out: Out<'a>,
    show: ShowDetail,
    start: Instant,
) -> impl FnMut(Report) + 'a {
    let mut rt = Realtime::new(start);
    move |r: Report| match r {
        Report::Iteration(info) => {
            if show.detail {
                out(Response::Message(info_text(view, info)));
            }
            if show.realtime {
                for line in rt.iteration_lines(view, info) {
                    out(Response::Message(line));
                }
            }
        }
        Report::Root(ev) => {
            if show.realtime {
                if let Some(line) = rt.root_line(view, ev, Instant::now()) {
                    out(Response::Message(line));
                }
            }
        }
        Report::Note(text) => out(Response::Message(text)),
    }
}

impl Session {
    pub fn new() -> Self {
        Session::with_options(EngineOptions::default())
    }

    /// A session whose engine is built with `options` (e.g. without the
    /// threat solver, or with a net of its own).
    pub fn with_options(options: EngineOptions) -> Self {
        Session {
            settings: Settings::default(),
            engine: Engine::with_options(options),
            answered: None,
        }
    }

    pub fn board(&self) -> Option<&Board> {
        self.engine.board()
    }

    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// The engine behind the session (tests).
    pub fn engine(&self) -> &Engine {
        &self.engine
    }

    /// Handle one command, collecting the answers (for tests).
    pub fn handle_vec(&mut self, cmd: Command) -> Vec<Response> {
        let mut v = Vec::new();
        self.handle(cmd, &Ctx::now(), &mut |r| v.push(r));
        v
    }

    /// Handle one command; answers (including MESSAGE lines while
    /// searching) go to `out` as they are produced. A search's clock starts
    /// at `ctx.received`, or at the previous search's answer when that came
    /// later (commands piped in ahead: `searches`).
    pub fn handle(&mut self, cmd: Command, ctx: &Ctx, out: Out) {
        if self.engine.pondering() && !keeps_ponder(&cmd) {
            self.engine.stop_pondering();
        }
        let name = log::log_enabled!(log::Level::Debug).then(|| format!("{cmd:?}"));
        let searches = searches(&cmd);
        let read = ctx.received;
        let queued;
        let ctx = match self.answered {
            Some(t) if searches && t > ctx.received => {
                queued = Ctx {
                    stop: ctx.stop.clone(),
                    received: t,
                };
                &queued
            }
            _ => ctx,
        };
        self.dispatch(cmd, ctx, out);
        if searches {
            self.answered = Some(Instant::now());
        }
        self.engine.set_pondering(self.settings.ponder_enabled());
        if let Some(name) = name {
            // Where a first move's time goes: each command's own time, and
            // how long it waited to be read.
            log::debug!(
                "{:.60} done {} ms after it was read",
                name,
                read.elapsed().as_millis()
            );
        }
    }

    /// No command is waiting: start what can be built in the background
    /// (`Engine::background_work`). The protocol loop calls this before it
    /// blocks for the next line.
    pub fn idle(&mut self) {
        self.engine.background_work();
    }

    /// Is a ponder search running (for tests)?
    pub fn pondering(&self) -> bool {
        self.engine.pondering()
    }

    fn dispatch(&mut self, cmd: Command, ctx: &Ctx, out: Out) {
        match cmd {
            Command::Start(n) => self.start(n, n, out),
            Command::RectStart(w, h) => self.start(w, h, out),
            Command::Restart => match self.engine.restart() {
                Ok(()) => out(Response::Ok),
                Err(e) => out(err(e)),
            },
            Command::Begin => self.begin(ctx, out),
            Command::Turn(x, y) => match self.engine.opponent_move(x, y) {
                Ok(()) => self.answer_move(ctx, out),
                Err(e) => out(err(e)),
            },
            Command::Board { analysis, stones } => self.set_board(analysis, &stones, ctx, out),
            Command::Info(info) => self.info(info, out),
            Command::End | Command::Stop => {}
            Command::About => out(Response::About {
                name: ENGINE_NAME.into(),
                version: env!("CARGO_PKG_VERSION").into(),
                author: ENGINE_AUTHOR.into(),
                country: ENGINE_COUNTRY.into(),
            }),
            Command::Takeback(x, y) => match self.engine.takeback(x, y) {
                Ok(()) => out(Response::Ok),
                Err(e) => out(err(e)),
            },
            Command::Play(x, y) => match self.engine.force_move(x, y) {
                Ok(()) => out(Response::Move(x as usize, y as usize)),
                Err(e) => out(err(e)),
            },
            Command::Swap2Board(stones) => self.swap2(&stones, ctx, out),
            Command::NBest(n) => self.nbest(n, ctx, out),
            Command::Balance { two, bias } => self.balance(two, bias, ctx, out),
            Command::ShowForbid => match self.engine.board() {
                None => out(err(NO_BOARD)),
                Some(b) => {
                    let pts = forbidden_points(b).into_iter().map(|p| b.xy(p)).collect();
                    out(Response::Forbid(pts))
                }
            },
            Command::HashClear => self.engine.clear(),
            Command::Block { undo, moves } => self.block(undo, &moves, out),
            Command::BlockReset => {
                let mut a = self.engine.analysis().clone();
                a.excluded.clear();
                self.engine.set_analysis(a);
            }
            Command::SearchDefend => self.search_defend(ctx, out),
            Command::ShowHashUsage => {
                let permill = self.engine.hash_usage();
                out(Response::Message(format!(
                    "Transposition table full: {}.{}%",
                    permill / 10,
                    permill % 10
                )))
            }
            Command::ShowInfo => {
                let s = &self.settings;
                out(Response::Message(format!(
                    "pattern tables ready {}/4",
                    pattern::tables_ready()
                )));
                if let Some((now, building)) = self.engine.searcher_table() {
                    let building =
                        building.map_or(String::new(), |b| format!(", {} MB to build", b >> 20));
                    out(Response::Message(format!(
                        "transposition table {} MB{building}",
                        now >> 20
                    )));
                }
                out(Response::Message(format!(
                    "INFO MAX_THREAD_NUM {} threads {}",
                    Engine::max_threads(),
                    self.engine.threads()
                )));
                if let Some(status) = self.engine.ponder_status() {
                    out(Response::Message(status));
                } else if s.ponder_enabled() {
                    out(Response::Message("ponder idle".into()));
                }
                out(Response::Message(format!(
                    "INFO MAX_HASH_SIZE {}",
                    self.engine.table_mb()
                )));
                out(Response::Message(format!(
                    "INFO rule {} timeout_turn {:?} timeout_match {:?} time_left {:?} max_memory {} max_depth {:?} max_node {:?}",
                    s.rules, s.timeout_turn, s.timeout_match, s.time_left, s.max_memory, s.max_depth, s.max_nodes
                )));
                let a = self.engine.analysis();
                let caution = format!("{} ({})", a.range.caution(), a.range.describe());
                out(Response::Message(format!(
                    "INFO show_detail {} time_increment {:?} start_depth {:?} max_moves {:?} draw_result {:?} blocked {} caution_factor {caution} strength {}",
                    s.show_detail.code(), s.increment_ms, a.start_depth, a.max_moves, a.draw_result, a.excluded.len(), a.strength.level()
                )));
            }
        }
    }

    fn start(&mut self, w: i64, h: i64, out: Out) {
        match self.engine.new_game(w, h) {
            Ok(()) => out(Response::Ok),
            Err(e) => out(err(e)),
        }
    }

    fn info(&mut self, info: Info, out: Out) {
        let s = &mut self.settings;
        let mut analysis = self.engine.analysis().clone();
        let nonneg = |v: i64| u64::try_from(v).ok();
        match info {
            // A negative time makes no sense: keep what we had.
            Info::TimeoutTurn(v) if v < 0 => log::warn!("INFO timeout_turn {v}: ignored"),
            Info::TimeoutTurn(v) => s.timeout_turn = nonneg(v),
            Info::TimeoutMatch(v) => s.timeout_match = nonneg(v).filter(|&v| v > 0),
            Info::TimeLeft(v) => s.time_left = (v < UNLIMITED_LEFT).then_some(v),
            Info::MaxMemory(v) => {
                s.max_memory = nonneg(v).unwrap_or(0);
                self.engine
                    .set_memory(usize::try_from(s.max_memory).unwrap_or(usize::MAX));
                if self.engine.board().is_some() {
                    self.engine.prepare();
                }
            }
            Info::GameType(v) => s.game_type = Some(v),
            Info::Rule(v) => match u32::try_from(v) {
                Ok(bits) => {
                    s.rules = RuleSet::from_bits(bits);
                    self.engine.set_rules(s.rules);
                }
                Err(_) => log::warn!("INFO rule {v}: ignored"),
            },
            Info::Evaluate(x, y) => log::debug!("INFO evaluate {x},{y}"),
            Info::Folder(f) => s.folder = Some(f),
            Info::ThreadNum(v) => {
                s.thread_num = v;
                self.engine.set_threads(v);
            }
            Info::MaxDepth(v) => s.max_depth = u32::try_from(v).ok().filter(|&d| d > 0),
            Info::MaxNode(v) => s.max_nodes = nonneg(v).filter(|&n| n > 0),
            Info::Pondering(v) => s.pondering = Some(v != 0),
            Info::CautionFactor(v) => match CandidateRange::from_caution(v) {
                Some(range) => analysis.range = range,
                None => out(err(format!(
                    "INFO caution_factor {v}: expected 0 to {}",
                    CandidateRange::ALL.len() - 1
                ))),
            },
            Info::ShowDetail(v) => match ShowDetail::from_code(v) {
                Some(d) => s.show_detail = d,
                None => out(err(format!("INFO show_detail {v}: expected 0 to 3"))),
            },
            Info::TimeIncrement(v) if v < 0 => out(err(format!(
                "INFO time_increment {v}: must not be negative"
            ))),
            Info::TimeIncrement(v) => s.increment_ms = nonneg(v).filter(|&v| v > 0),
            // 0 or less: no limit (Yixin-Board's convention).
            Info::MaxMoves(v) => analysis.max_moves = usize::try_from(v).ok().filter(|&m| m > 0),
            Info::DrawResult(v) => match DrawResult::from_code(v) {
                Some(d) => analysis.draw_result = d,
                None => out(err(format!("INFO draw_result {v}: expected 0, 1 or 2"))),
            },
            Info::StartDepth(v) => {
                analysis.start_depth = u32::try_from(v).ok().filter(|&d| d > 1);
            }
            Info::Strength(v) => match Strength::new(v) {
                Some(level) => analysis.strength = level,
                None => out(err(format!("INFO strength {v}: expected 0 to 100"))),
            },
            Info::Unknown(k) => log::debug!("INFO {k}: unknown key ignored"),
        }
        self.engine.set_analysis(analysis);
    }

    /// YXBLOCK / YXBLOCKUNDO: add the moves to, or take them from, the
    /// moves every search leaves out. A move off the board is an error and
    /// changes nothing; nothing is answered otherwise.
    fn block(&mut self, undo: bool, moves: &[(i64, i64)], out: Out) {
        let name = if undo { "YXBLOCKUNDO" } else { "YXBLOCK" };
        let Some(b) = self.engine.board() else {
            return out(err(NO_BOARD));
        };
        let mut cells = Vec::with_capacity(moves.len());
        for &(x, y) in moves {
            match b.pos(x, y) {
                Some(_) => cells.push((x as usize, y as usize)),
                None => return out(err(format!("{name}: {x},{y} is outside the board"))),
            }
        }
        let mut a = self.engine.analysis().clone();
        for c in cells {
            if undo {
                a.excluded.retain(|&e| e != c);
            } else if !a.excluded.contains(&c) {
                a.excluded.push(c);
            }
        }
        self.engine.set_analysis(a);
    }

    /// YXSEARCHDEFEND: each move that keeps the opponent from a forced win
    /// as a MESSAGE line (`defend i x,y ev S`, best first), then the best of
    /// them as the answer; when every move loses, a MESSAGE says so and the
    /// search's choice is the answer. The board is not changed.
    fn search_defend(&mut self, ctx: &Ctx, out: Out) {
        let Some(view) = self.engine.board().cloned() else {
            return out(err(NO_BOARD));
        };
        let limits = self.settings.limits(ctx.received);
        let show = self.settings.show_detail;
        let found = {
            let mut report = report_to(&view, out, show, ctx.received);
            self.engine.defend(&limits, &ctx.stop, &mut report)
        };
        let (defences, best) = match found {
            Ok(f) => (f.moves, f.best),
            Err(e) => return out(err(e)),
        };
        for (i, &(p, s)) in defences.iter().enumerate() {
            let (x, y) = view.xy(p);
            out(Response::Message(format!(
                "defend {} {x},{y} ev {}",
                i + 1,
                score_text(s)
            )));
        }
        let answer = match defences.first() {
            Some(&(p, _)) => p,
            None => {
                out(Response::Message(
                    "defend none: every move loses to a forced win".into(),
                ));
                best.0
            }
        };
        let (x, y) = view.xy(answer);
        out(Response::Move(x, y))
    }

    /// Search, play our move on the board and answer it.
    fn answer_move(&mut self, ctx: &Ctx, out: Out) {
        let Some(view) = self.engine.board().cloned() else {
            return out(err(NO_BOARD));
        };
        let limits = self.settings.limits(ctx.received);
        let chosen = {
            let mut report = report_to(&view, out, self.settings.show_detail, ctx.received);
            self.engine.go(&limits, &ctx.stop, &mut report)
        };
        match chosen {
            Ok(c) => {
                let (x, y) = view.xy(c.mv);
                // Timed before answering: a manager may suspend us right after.
                let ms = ctx.received.elapsed().as_millis();
                out(Response::Move(x, y));
                log::info!("move {x},{y} depth {} in {ms} ms", c.depth);
                let s = &self.settings;
                self.engine.start_pondering(&c, s.max_depth, s.max_nodes);
            }
            Err(e) => out(err(e)),
        }
    }

    fn begin(&mut self, ctx: &Ctx, out: Out) {
        match self.engine.board() {
            None => out(err(NO_BOARD)),
            Some(b) if b.stone_count() != 0 => out(err("BEGIN: the board is not empty")),
            Some(_) => self.answer_move(ctx, out),
        }
    }

    /// Build the position a BOARD describes; see `own_color` for colours.
    fn build_board(&self, stones: &[BoardStone]) -> Result<Board, String> {
        let cur = self.engine.board().ok_or(NO_BOARD)?;
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
            self.engine.set_board(b);
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
        self.engine.set_board(b);
        self.answer_move(ctx, out)
    }

    fn swap2(&mut self, stones: &[(i64, i64)], ctx: &Ctx, out: Out) {
        let Some(view) = self.engine.board().cloned() else {
            return out(err(NO_BOARD));
        };
        let limits = self.settings.limits(ctx.received);
        let decision = {
            let mut report = report_to(&view, out, self.settings.show_detail, ctx.received);
            self.engine.swap2(stones, &limits, &ctx.stop, &mut report)
        };
        match decision {
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
                out(answer)
            }
            Err(e) => out(err(e)),
        }
    }

    /// YXBALANCEONE s / YXBALANCETWO s: the move (or our move and the
    /// opponent's) after which the position is closest to `s` for the side
    /// to move now; they are played on the board, as in Rapfi.
    fn balance(&mut self, two: bool, bias: i64, ctx: &Ctx, out: Out) {
        let Some(view) = self.engine.board().cloned() else {
            return out(err(NO_BOARD));
        };
        let limits = self.settings.limits(ctx.received);
        let decision = {
            let mut report = report_to(&view, out, self.settings.show_detail, ctx.received);
            self.engine
                .balance(two, bias, &limits, &ctx.stop, &mut report)
        };
        match decision {
            Ok(d) => {
                out(Response::Message(d.note));
                let mut ms: Vec<_> = d.moves.iter().map(|&p| d.board.xy(p)).collect();
                out(if ms.len() == 1 {
                    let (x, y) = ms.remove(0);
                    Response::Move(x, y)
                } else {
                    Response::Moves(ms)
                })
            }
            Err(e) => out(err(e)),
        }
    }

    /// YXNBEST n: the n best moves as MESSAGE lines, then the best one as the
    /// answer. The board is not changed (analysis).
    fn nbest(&mut self, n: i64, ctx: &Ctx, out: Out) {
        let Some(view) = self.engine.board().cloned() else {
            return out(err(NO_BOARD));
        };
        if n < 1 {
            return out(err(format!("YXNBEST: count {n} must be at least 1")));
        }
        let limits = self.settings.limits(ctx.received);
        let ranked = {
            let mut report = report_to(&view, out, self.settings.show_detail, ctx.received);
            self.engine
                .analyse(n as usize, &limits, &ctx.stop, &mut report)
        };
        let ranked = match ranked {
            Ok(r) => r,
            Err(e) => return out(err(e)),
        };
        for (i, &(p, s)) in ranked.iter().enumerate() {
            let (x, y) = view.xy(p);
            out(Response::Message(format!(
                "nbest {} {x},{y} ev {}",
                i + 1,
                score_text(s)
            )));
        }
        let (x, y) = view.xy(ranked[0].0);
        out(Response::Move(x, y))
    }
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
    use crate::brain::engine::{SearchOptions, DEFAULT_MEMORY};
    use crate::brain::protocol::command::parse;

    #[test]
    fn command_line_options_and_net_reach_the_searcher() {
        let off = SearchOptions {
            root_threats: false,
            eval: crate::brain::engine::EvalKind::Net,
        };
        let w = crate::brain::eval::net::random(16, 8, 5);
        let net = Arc::new(crate::brain::eval::net::QuantNet::new(&w).unwrap());
        let mut s = Session::with_options(EngineOptions {
            search: off,
            net: Some(net.clone()),
        });
        s.handle_vec(Command::Info(Info::MaxMemory(8 << 20)));
        s.handle_vec(Command::Start(15));
        assert_eq!(s.engine().searcher_options(), Some(off));
        let used = s.engine().searcher_net(Rule::Freestyle).unwrap();
        assert!(Arc::ptr_eq(&used, &net));
        // A new table size builds a new searcher: the options and net stay.
        s.handle_vec(Command::Info(Info::MaxMemory(16 << 20)));
        assert_eq!(s.engine().searcher_options(), Some(off));
        let used = s.engine().searcher_net(Rule::Freestyle).unwrap();
        assert!(Arc::ptr_eq(&used, &net));
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
        assert_eq!(s.settings.rules.rule, crate::brain::types::Rule::Renju);
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

    /// Two searches read at the same moment (piped in ahead): the second
    /// starts its clock when the first answers, not when it was read (its
    /// whole turn would be gone: it answered after depth 1).
    #[test]
    fn a_search_queued_behind_another_gets_its_own_time() {
        let mut s = Session::new();
        for l in [
            "INFO max_memory 9000000",
            "START 15",
            "INFO timeout_turn 300",
        ] {
            run(&mut s, l);
        }
        let ctx = Ctx::now();
        let mut deepest = |line: &str| {
            let mut depth = 0;
            let mut answer = String::new();
            s.handle(parse(line).unwrap(), &ctx, &mut |r| match r {
                Response::Message(m) => {
                    let d = m
                        .strip_prefix("depth ")
                        .and_then(|r| r.split(' ').next()?.parse().ok());
                    depth = depth.max(d.unwrap_or(0));
                }
                other => answer = other.to_string(),
            });
            (depth, answer)
        };
        for turn in ["TURN 7,7", "TURN 3,3"] {
            let (depth, answer) = deepest(turn);
            assert!(depth > 1, "{turn}: {answer} after depth {depth}");
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
        let mut s = Session::new();
        assert_eq!(s.engine().memory_budget(), DEFAULT_MEMORY);
        s.handle_vec(parse("INFO max_memory 104857600").unwrap());
        assert_eq!(s.engine().memory_budget(), 100 << 20);
        s.handle_vec(parse("INFO max_memory 83886080").unwrap());
        assert_eq!(s.engine().memory_budget(), 80 << 20);
        s.handle_vec(parse("INFO max_memory 0").unwrap());
        assert_eq!(s.engine().memory_budget(), DEFAULT_MEMORY);
    }

    /// Bad analysis input is an ERROR and changes nothing; good input
    /// reaches the engine's analysis controls.
    #[test]
    fn analysis_controls_reach_the_engine_and_bad_values_change_nothing() {
        let mut s = small();
        assert!(run(&mut s, "INFO max_moves 40").is_empty());
        assert!(run(&mut s, "INFO start_depth 5").is_empty());
        assert!(run(&mut s, "INFO draw_result 2").is_empty());
        let before = s.engine().analysis().clone();
        assert_eq!(before.max_moves, Some(40));
        assert_eq!(before.start_depth, Some(5));
        for bad in [
            "INFO draw_result 5",
            "INFO show_detail -1",
            "INFO caution_factor 7",
        ] {
            assert!(run(&mut s, bad)[0].starts_with("ERROR"), "{bad}");
        }
        assert_eq!(s.engine().analysis(), &before);
        assert_eq!(s.settings().show_detail, ShowDetail::default());
        assert_eq!(s.engine().analysis().range, CandidateRange::Square2);
        // YXBLOCK needs a board, and takes all its moves or none.
        let block = |moves: Vec<(i64, i64)>| Command::Block { undo: false, moves };
        assert!(matches!(
            s.handle_vec(block(vec![(1, 1)]))[..],
            [Response::Error(_)]
        ));
        run(&mut s, "START 15");
        assert!(matches!(
            s.handle_vec(block(vec![(1, 1), (15, 1)]))[..],
            [Response::Error(_)]
        ));
        assert!(s.engine().analysis().excluded.is_empty());
        assert!(s.handle_vec(block(vec![(1, 1), (2, 2), (1, 1)])).is_empty());
        assert_eq!(s.engine().analysis().excluded, vec![(1, 1), (2, 2)]);
        s.handle_vec(Command::Block {
            undo: true,
            moves: vec![(1, 1)],
        });
        assert_eq!(s.engine().analysis().excluded, vec![(2, 2)]);
        run(&mut s, "YXBLOCKRESET");
        assert!(s.engine().analysis().excluded.is_empty());
        run(&mut s, "INFO max_moves 0");
        assert_eq!(s.engine().analysis().max_moves, None);
    }

    /// INFO caution_factor widens the cells every search considers: with
    /// every cell within two of the only stone left out (YXBLOCK), range 0
    /// has nothing else and plays one of them anyway; ranges 1–5 answer
    /// with a cell they add (lines to 3: three away on a line; square 3:
    /// three away; …), before or after START, and the board keeps it.
    #[test]
    fn caution_factor_sets_the_cells_the_search_considers() {
        let play = |caution: Option<i64>, before_start: bool| -> (i64, i64) {
            let mut s = small();
            let info = caution.map(|c| format!("INFO caution_factor {c}"));
            if before_start {
                info.iter().for_each(|l| assert!(run(&mut s, l).is_empty()));
            }
            run(&mut s, "START 15");
            run(&mut s, "INFO max_depth 2");
            if !before_start {
                info.iter().for_each(|l| assert!(run(&mut s, l).is_empty()));
            }
            let near: Vec<(i64, i64)> = (5..=9)
                .flat_map(|x| (5..=9).map(move |y| (x, y)))
                .filter(|&c| c != (7, 7))
                .collect();
            assert!(s
                .handle_vec(Command::Block {
                    undo: false,
                    moves: near
                })
                .is_empty());
            let range = s.engine().board().unwrap().candidate_range();
            assert_eq!(range, s.engine().analysis().range);
            assert_eq!(caution.unwrap_or(0), range.caution());
            let out = run(&mut s, "TURN 7,7");
            let (x, y) = out[0].split_once(',').expect("a move");
            (x.parse::<i64>().unwrap() - 7, y.parse::<i64>().unwrap() - 7)
        };
        let dist = |(dx, dy): (i64, i64)| dx.abs().max(dy.abs());
        for before in [true, false] {
            assert!(dist(play(None, before)) <= 2);
            assert!(dist(play(Some(0), before)) <= 2);
            let (dx, dy) = play(Some(1), before);
            assert!(dist((dx, dy)) == 3 && (dx == 0 || dy == 0 || dx.abs() == dy.abs()));
            assert_eq!(dist(play(Some(2), before)), 3);
            assert_eq!(dist(play(Some(3), before)), 3);
            assert!((3..=4).contains(&dist(play(Some(4), before))));
            assert!(dist(play(Some(5), before)) >= 3);
        }
    }

    /// START and INFO max_memory leave the full table to be built when the
    /// protocol is idle, with a small one meanwhile; the full one has the
    /// size the budget gives, a new budget replaces it, and the tables in
    /// use never exceed the budget less its reserve.
    #[test]
    fn the_table_is_built_off_the_clock_at_the_budget_s_size() {
        use crate::brain::search::tt::{tt_bytes_for, FIRST_TT_BYTES, RESERVED_MEMORY};
        let mut s = Session::new();
        run(&mut s, "START 15");
        let default = tt_bytes_for(DEFAULT_MEMORY);
        assert_eq!(
            s.engine().searcher_table(),
            Some((FIRST_TT_BYTES, Some(default)))
        );
        for mb in [1024usize, 100, 350, 60] {
            run(&mut s, &format!("INFO max_memory {}", mb << 20));
            let full = tt_bytes_for(mb << 20);
            let (now, pending) = s.engine().searcher_table().expect("a searcher");
            if full > FIRST_TT_BYTES {
                assert_eq!((now, pending), (FIRST_TT_BYTES, Some(full)), "{mb} MB");
                assert!(now + full <= (mb << 20) - RESERVED_MEMORY, "{mb} MB");
            } else {
                assert_eq!((now, pending), (full, None), "{mb} MB");
            }
            s.idle();
            s.engine.wait_for_table();
            assert_eq!(s.engine().searcher_table(), Some((full, None)), "{mb} MB");
        }
        // The same budget again keeps the table; a search with a table
        // still to be built answers from the small one.
        run(&mut s, "INFO max_memory 104857600");
        let (_, pending) = s.engine().searcher_table().unwrap();
        assert_eq!(pending, Some(tt_bytes_for(100 << 20)));
        run(&mut s, "INFO max_memory 104857600");
        assert_eq!(s.engine().searcher_table().unwrap().1, pending);
        run(&mut s, "INFO max_depth 2");
        assert!(run(&mut s, "TURN 7,7")[0].contains(','));
        s.idle();
        s.engine.wait_for_table();
        assert_eq!(
            s.engine().searcher_table(),
            Some((tt_bytes_for(100 << 20), None))
        );
        // YXHASHCLEAR starts an empty table of the same size.
        run(&mut s, "YXHASHCLEAR");
        assert_eq!(
            s.engine().searcher_table(),
            Some((FIRST_TT_BYTES, Some(tt_bytes_for(100 << 20))))
        );
    }

    #[test]
    fn thread_num_reaches_the_searcher_within_memory() {
        let cores = Engine::max_threads();
        let mut s = Session::new();
        run(&mut s, "INFO max_memory 83886080");
        run(&mut s, "INFO thread_num 2");
        run(&mut s, "START 15");
        assert_eq!(s.engine().searcher_threads(), Some(2.min(cores)));
        run(&mut s, "INFO thread_num 0");
        run(&mut s, "START 15");
        assert_eq!(s.engine().searcher_threads(), Some(1));
        // 40 MB leaves no room for helpers, whatever is asked.
        run(&mut s, "INFO max_memory 41943040");
        run(&mut s, "INFO thread_num 64");
        run(&mut s, "START 15");
        assert_eq!(s.engine().searcher_threads(), Some(1));
    }
}
