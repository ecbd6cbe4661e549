//! One arena game, run the way Gomocup managers run it: start both engines,
//! START and the INFO settings, suspend; before each move INFO time_left and
//! the request (BEGIN, TURN, or BOARD…DONE for an engine's first move after
//! an opening), resume, wait min(turn, time left) + tolerance, suspend;
//! judge the move; after the game END and a kill after a grace period.

use std::time::Duration;

use super::engine::{Answer, Engine, Failure};
use super::openings::Opening;
use super::referee::{Referee, Termination, Verdict};
use crate::brain::types::{Color, RuleSet};

/// Everything about the conditions of a game.
#[derive(Clone, Debug)]
pub struct GameConfig {
    pub width: usize,
    pub height: usize,
    pub rules: RuleSet,
    /// Per-move time in ms (0 = no per-move limit).
    pub turn_ms: u64,
    /// Per-game time in ms (0 = unlimited).
    pub match_ms: u64,
    pub tolerance_ms: u64,
    /// Memory limit in bytes (0 = none).
    pub memory: u64,
    pub ponder: bool,
    /// Time allowed for START to be answered.
    pub start_ms: u64,
    /// Time between END and the kill.
    pub grace_ms: u64,
    /// Show engines' stderr.
    pub stderr: bool,
    /// Directory handed to engines as `INFO folder`.
    pub folder: Option<String>,
}

impl Default for GameConfig {
    fn default() -> Self {
        GameConfig {
            width: 15,
            height: 15,
            rules: RuleSet::FREESTYLE,
            turn_ms: 1000,
            match_ms: 0,
            tolerance_ms: 1000,
            memory: 350 * 1024 * 1024,
            ponder: false,
            start_ms: 5000,
            grace_ms: 500,
            stderr: false,
            folder: None,
        }
    }
}

/// The outcome of one game, from the colours' side.
#[derive(Clone, Debug)]
pub struct GameOutcome {
    /// The winner, or None for a draw.
    pub winner: Option<Color>,
    pub termination: Termination,
    /// Human-readable detail ("8,7 is occupied", "exited (…)").
    pub detail: String,
    /// All stones in order, opening included.
    pub moves: Vec<(usize, usize)>,
    /// Milliseconds each stone took (0 for opening stones).
    pub move_ms: Vec<u64>,
    pub opening_len: usize,
    /// Thinking time used per colour (index by `Color::index`).
    pub time_ms: [u64; 2],
    /// Memory peak per colour in bytes.
    pub memory: [u64; 2],
}

/// Engine command and display name, per colour.
pub struct Players<'a> {
    pub black: (&'a str, &'a str),
    pub white: (&'a str, &'a str),
}

pub fn start_command(cfg: &GameConfig) -> String {
    if cfg.width == cfg.height {
        format!("START {}", cfg.width)
    } else {
        format!("RECTSTART {},{}", cfg.width, cfg.height)
    }
}

pub fn failure_termination(f: &Failure) -> (Termination, String) {
    match f {
        Failure::Timeout => (Termination::Timeout, "no answer in time".into()),
        Failure::Crash(s) => (Termination::Crash, s.clone()),
        Failure::Garbage(s) => (Termination::Illegal, format!("garbage output {s:?}")),
        Failure::Memory(b) => (Termination::Memory, format!("{b} bytes in use")),
    }
}

/// Start an engine: spawn, START, the INFO settings (then its own `extra`
/// INFO lines, e.g. a tournament's per-engine options); then suspend it.
pub fn start_engine(
    cfg: &GameConfig,
    cmd: &str,
    name: &str,
    extra: &[String],
) -> Result<Engine, (Termination, String)> {
    let mut e =
        Engine::spawn(cmd, name, cfg.ponder, cfg.stderr).map_err(|s| (Termination::Crash, s))?;
    let go = (|| {
        e.send(&start_command(cfg))?;
        e.wait_ok(Duration::from_millis(cfg.start_ms))?;
        e.send(&format!("INFO timeout_turn {}", cfg.turn_ms))?;
        e.send(&format!("INFO timeout_match {}", cfg.match_ms))?;
        e.send(&format!("INFO max_memory {}", cfg.memory))?;
        e.send("INFO game_type 1")?;
        if cfg.ponder {
            // Not suspended between moves: let it think on our time.
            e.send("INFO pondering 1")?;
        }
        e.send(&format!("INFO rule {}", cfg.rules.bits()))?;
        if let Some(f) = &cfg.folder {
            e.send(&format!("INFO folder {f}"))?;
        }
        for line in extra {
            e.send(line)?;
        }
        Ok(())
    })();
    match go {
        Ok(()) => {
            e.sample_memory();
            e.suspend();
            Ok(e)
        }
        Err(f) => {
            let (t, d) = failure_termination(&f);
            let d = if t == Termination::Timeout {
                "no OK to START in time".to_string()
            } else {
                d
            };
            Err((t, d))
        }
    }
}

/// Play one game from `opening`. Never panics, never hangs: every wait is
/// bounded and the engines are killed on every path out.
pub fn play(cfg: &GameConfig, players: &Players, opening: &Opening) -> GameOutcome {
    play_with_info(cfg, players, opening, [&[], &[]])
}

/// `play`, sending Black `info[0]` and White `info[1]` (whole protocol
/// lines, `INFO key value`) after the standard settings. The referee's
/// limits stay the same for both.
pub fn play_with_info(
    cfg: &GameConfig,
    players: &Players,
    opening: &Opening,
    info: [&[String]; 2],
) -> GameOutcome {
    let mut referee = match Referee::new(cfg.width, cfg.height, cfg.rules) {
        Ok(r) => r,
        Err(e) => return aborted(e),
    };
    if let Err(e) = referee.place_opening(&opening.stones) {
        return aborted(e);
    }
    let mut out = GameOutcome {
        winner: None,
        termination: Termination::Draw,
        detail: String::new(),
        moves: Vec::new(),
        move_ms: vec![0; opening.stones.len()],
        opening_len: opening.stones.len(),
        time_ms: [0; 2],
        memory: [0; 2],
    };

    let specs = [players.black, players.white];
    let mut engines: Vec<Engine> = Vec::with_capacity(2);
    for (i, (cmd, name)) in specs.iter().enumerate() {
        match start_engine(cfg, cmd, name, info[i]) {
            Ok(e) => engines.push(e),
            Err((t, d)) => {
                let loser = if i == 0 { Color::Black } else { Color::White };
                out.winner = Some(loser.opposite());
                out.termination = t;
                out.detail = format!("{name}: {d}");
                for e in &mut engines {
                    e.quit(Duration::from_millis(cfg.grace_ms));
                    out.memory[0] = e.peak_memory;
                }
                out.moves = referee.moves();
                return out;
            }
        }
    }

    // Which engines have been told the position (after that: TURN only).
    let mut synced = [false; 2];
    loop {
        if referee.board().is_full() {
            out.winner = None;
            out.termination = Termination::Draw;
            out.detail = "board full".into();
            break;
        }
        let side = referee.to_move();
        let i = side.index();
        let used = out.time_ms[i];
        let time_left: i64 = if cfg.match_ms > 0 {
            cfg.match_ms as i64 - used as i64
        } else {
            i32::MAX as i64
        };
        let mut limit = if cfg.turn_ms > 0 {
            cfg.turn_ms
        } else {
            u64::MAX / 4
        };
        if cfg.match_ms > 0 {
            limit = limit.min(time_left.max(0) as u64);
        }
        if limit >= u64::MAX / 4 {
            // Neither limit set: a day is still bounded.
            limit = 86_400_000;
        }
        let limit = Duration::from_millis(limit + cfg.tolerance_ms);

        let e = &mut engines[i];
        e.drain();
        let sent = (|| {
            e.send(&format!("INFO time_left {time_left}"))?;
            let stones = referee.board().stone_count();
            if !synced[i] {
                if stones == 0 {
                    e.send("BEGIN")?;
                } else if stones == 1 && referee.opening_len() == 0 {
                    let (x, y) = referee.last_move().unwrap_or((0, 0));
                    e.send(&format!("TURN {x},{y}"))?;
                } else {
                    send_board(e, &referee, side)?;
                }
            } else {
                let (x, y) = referee.last_move().unwrap_or((0, 0));
                e.send(&format!("TURN {x},{y}"))?;
            }
            Ok(())
        })();
        let answer = sent.and_then(|_| wait_within(e, limit, cfg.memory));
        synced[i] = true;
        match answer {
            Err(f) => {
                let (t, d) = failure_termination(&f);
                if t == Termination::Timeout {
                    out.time_ms[i] += limit.as_millis() as u64;
                }
                out.winner = Some(side.opposite());
                out.termination = t;
                out.detail = format!("{}: {d}", e.name);
                break;
            }
            Ok(a) => {
                let ms = a.elapsed.as_millis() as u64;
                out.time_ms[i] += ms;
                match referee.judge(a.x, a.y) {
                    Verdict::Continue => out.move_ms.push(ms),
                    Verdict::Win => {
                        out.move_ms.push(ms);
                        out.winner = Some(side);
                        out.termination = Termination::Five;
                        out.detail = format!("{} made five", e.name);
                        break;
                    }
                    Verdict::Draw => {
                        out.move_ms.push(ms);
                        out.winner = None;
                        out.termination = Termination::Draw;
                        out.detail = "board full".into();
                        break;
                    }
                    Verdict::Forfeit(t, d) => {
                        out.winner = Some(side.opposite());
                        out.termination = t;
                        out.detail = format!("{}: {d}", e.name);
                        break;
                    }
                }
            }
        }
    }

    // END to both first, so their grace periods overlap.
    for e in &mut engines {
        e.resume();
        let _ = e.send("END");
    }
    for (i, e) in engines.iter_mut().enumerate() {
        e.quit(Duration::from_millis(cfg.grace_ms));
        out.memory[i] = e.peak_memory;
    }
    out.moves = referee.moves();
    out
}

fn aborted(why: String) -> GameOutcome {
    GameOutcome {
        winner: None,
        termination: Termination::Draw,
        detail: format!("not played: {why}"),
        moves: Vec::new(),
        move_ms: Vec::new(),
        opening_len: 0,
        time_ms: [0; 2],
        memory: [0; 2],
    }
}
/// The engine's answer within `limit`, and its memory (with its children)
/// within `memory` bytes (0: no limit) once it has answered.
pub fn wait_within(e: &mut Engine, limit: Duration, memory: u64) -> Result<Answer, Failure> {
    let a = e.wait_move(limit, memory)?;
    let m = e.sample_memory();
    if memory > 0 && m > memory {
        Err(Failure::Memory(m))
    } else {
        Ok(a)
    }
}

/// The referee's position as BOARD…DONE for the engine playing `side`:
/// every stone in move order (renju needs it), 1 its own, 2 the opponent's.
pub fn send_board(e: &mut Engine, referee: &Referee, side: Color) -> Result<(), Failure> {
    e.send("BOARD")?;
    let b = referee.board();
    for m in b.history() {
        let (x, y) = b.xy(m.pos);
        let own = if m.stone == side.cell() { 1 } else { 2 };
        e.send(&format!("{x},{y},{own}"))?;
    }
    e.send("DONE")
}
