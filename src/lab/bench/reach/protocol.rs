//! `sente-arena reach`: the reach benchmark (`bench::reach`, the positions
//! of `src/lab/bench/reach/reach.txt`) played by any Gomocup brain through the
//! protocol, so that an external engine can be measured on the same
//! positions as `pbrain-sente bench reach`. Each position gets a fresh
//! engine, set up as a manager sets up a game (`game::start_engine`: START,
//! INFO timeout_turn, timeout_match, max_memory, game_type, rule), then the
//! position as BOARD…DONE in move order (fields 1/2 from the side to move's
//! view, as `game` sends openings), and one move is awaited within the
//! turn time plus the tolerance. A tactical position is solved when the
//! move is in its answer set; an external engine's claims cannot be read,
//! so a quiet position only records the move and its time. The one-move
//! request (`ask_move`) also serves the depth report (`bench::depth`).

use std::fmt::Write as _;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use super::suite::{percentile, positions, Kind, ReachPos, Set, Which};
use crate::brain::types::RuleSet;
use crate::cli::{num, parse_bytes, value};
use crate::lab::arena::engine::Failure;
use crate::lab::arena::game::{
    failure_termination, send_board, start_engine, wait_within, GameConfig,
};
use crate::lab::arena::json::{number, quote};
use crate::lab::arena::referee::{Referee, Termination, Verdict};

pub const USAGE: &str = "\
usage: sente-arena reach --engine CMD [--ms MS] [--set dev|held|all] [--tolerance MS]
                         [--memory BYTES] [--json FILE] [--engine-stderr]

  the reach benchmark (pbrain-sente bench reach's positions) through the protocol:
  a fresh engine per position, BOARD…DONE, one move within MS + tolerance; solved
  when the move is in the position's answer set
  --engine CMD      engine command (arguments allowed; shell syntax runs via sh -c)
  --ms MS           INFO timeout_turn [500]
  --set S           dev, held or all [dev]
  --tolerance MS    extra time before a timeout [1000]
  --memory BYTES    INFO max_memory (suffix K, M, G allowed), 0 = none [350M]
  --json FILE       write the summary and every position
";

/// The brain a protocol bench runs (`reach`, `depth`) and how: its
/// command, the tolerance past the turn time, `INFO max_memory`, and
/// whether its stderr is shown.
#[derive(Clone, Debug)]
pub struct Brain {
    pub engine: String,
    pub tolerance_ms: u64,
    pub memory: u64,
    pub stderr: bool,
}

impl Default for Brain {
    fn default() -> Self {
        Brain {
            engine: String::new(),
            tolerance_ms: 1000,
            memory: 350 << 20,
            stderr: false,
        }
    }
}

impl Brain {
    /// Take `a` if it is one of the brain's options (`--engine`,
    /// `--tolerance`, `--memory`, `--engine-stderr`; `val` gives its value):
    /// Ok(false) when it is none of them.
    pub fn option(
        &mut self,
        a: &str,
        val: impl FnOnce() -> Result<String, String>,
    ) -> Result<bool, String> {
        match a {
            "--engine" => self.engine = val()?,
            "--tolerance" => self.tolerance_ms = num("--tolerance", &val()?)?,
            "--memory" => self.memory = parse_bytes(&val()?)?,
            "--engine-stderr" => self.stderr = true,
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// An error unless `--engine` was given (`what`: the subcommand).
    pub fn check(&self, what: &str) -> Result<(), String> {
        if self.engine.trim().is_empty() {
            return Err(format!("{what}: --engine CMD is required"));
        }
        Ok(())
    }

    /// A game's set-up for one position: `size`×`size`, rule bits `rule`,
    /// `turn_ms` a move, no match time.
    pub fn game_config(&self, size: usize, rule: u32, turn_ms: u64) -> GameConfig {
        GameConfig {
            width: size,
            height: size,
            rules: RuleSet::from_bits(rule),
            turn_ms,
            match_ms: 0,
            tolerance_ms: self.tolerance_ms,
            memory: self.memory,
            stderr: self.stderr,
            ..GameConfig::default()
        }
    }
}

/// A `reach` run.
#[derive(Clone, Debug)]
pub struct ReachConfig {
    pub brain: Brain,
    pub ms: u64,
    pub which: Which,
    pub json: Option<PathBuf>,
}

/// Whether `args` ask for `reach`.
pub fn wants(args: &[String]) -> bool {
    args.first().map(String::as_str) == Some("reach")
}

/// Parse `reach …` (the arguments after the program name); None for help.
pub fn parse(args: &[String]) -> Result<Option<ReachConfig>, String> {
    let mut cfg = ReachConfig {
        brain: Brain::default(),
        ms: 500,
        which: Which::Dev,
        json: None,
    };
    let mut it = args.iter().skip(1);
    while let Some(a) = it.next() {
        if cfg.brain.option(a, || value(&mut it, a))? {
            continue;
        }
        let mut val = || value(&mut it, a);
        match a.as_str() {
            "--help" | "-h" => return Ok(None),
            "--ms" => cfg.ms = num("--ms", &val()?)?,
            "--set" => {
                let v = val()?;
                cfg.which = Which::parse(&v).ok_or_else(|| format!("bad --set {v:?}"))?;
            }
            "--json" => cfg.json = Some(PathBuf::from(val()?)),
            _ => return Err(format!("reach: unknown argument {a:?}")),
        }
    }
    cfg.brain.check("reach")?;
    if cfg.ms == 0 {
        return Err("reach: --ms must be positive".into());
    }
    Ok(Some(cfg))
}

/// How an engine answered one position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// A legal move (solved or not is judged separately).
    Moved,
    Timeout,
    Crash(String),
    Illegal(String),
    Memory(u64),
}

/// The result of one position.
#[derive(Clone, Debug)]
pub struct ReachAnswer {
    pub name: String,
    pub set: Set,
    pub kind: Kind,
    /// The move, when one came (legal or not).
    pub mv: Option<(i64, i64)>,
    /// Time to the answer (ms); the whole limit on a timeout.
    pub ms: f64,
    pub outcome: Outcome,
    /// A tactical position answered with a move of its answer set.
    pub solved: bool,
}

impl ReachAnswer {
    fn result(&self) -> &'static str {
        match (&self.outcome, self.kind, self.solved) {
            (Outcome::Moved, Kind::Win, true) => "solved",
            (Outcome::Moved, Kind::Win, false) => "-",
            (Outcome::Moved, Kind::Quiet, _) => "quiet",
            (Outcome::Timeout, _, _) => "TIMEOUT",
            (Outcome::Crash(_), _, _) => "CRASH",
            (Outcome::Illegal(_), _, _) => "ILLEGAL",
            (Outcome::Memory(_), _, _) => "MEMORY",
        }
    }
}

/// What a brain did with one position (`ask_move`).
#[derive(Clone, Debug)]
pub struct Asked {
    pub outcome: Outcome,
    /// The move, when one came (legal or not).
    pub mv: Option<(i64, i64)>,
    /// Time to the answer (ms); the time waited on a failure.
    pub ms: f64,
    /// The MESSAGE lines it sent while it thought (the last 50).
    pub messages: Vec<String>,
}

/// Ask a fresh engine (`engine`, set up by `gc` as a manager sets up a
/// game) for one move in the position `moves` (Black first): BOARD…DONE,
/// then one move within the turn time plus the tolerance, judged legal or
/// not by the referee.
pub fn ask_move(engine: &str, gc: &GameConfig, moves: &[(i64, i64)]) -> Asked {
    ask_move_with(engine, gc, moves, &[])
}

/// `ask_move` with `extra` lines sent after the manager's INFO settings
/// (such as `INFO max_node N`).
pub fn ask_move_with(
    engine: &str,
    gc: &GameConfig,
    moves: &[(i64, i64)],
    extra: &[String],
) -> Asked {
    let mut out = Asked {
        outcome: Outcome::Moved,
        mv: None,
        ms: 0.0,
        messages: Vec::new(),
    };
    let mut referee = match Referee::new(gc.width, gc.height, gc.rules) {
        Ok(r) => r,
        Err(e) => {
            out.outcome = Outcome::Crash(format!("bad position: {e}"));
            return out;
        }
    };
    if let Err(e) = referee.place_opening(moves) {
        out.outcome = Outcome::Crash(format!("bad position: {e}"));
        return out;
    }
    let mut e = match start_engine(gc, engine, "engine", extra) {
        Ok(e) => e,
        Err((t, d)) => {
            out.outcome = match t {
                Termination::Timeout => Outcome::Timeout,
                _ => Outcome::Crash(d),
            };
            return out;
        }
    };
    let limit = Duration::from_millis(gc.turn_ms + gc.tolerance_ms);
    let side = referee.to_move();
    e.messages.clear();
    let sent = (|| {
        // As a game with no match time: an unlimited time left.
        e.send(&format!("INFO time_left {}", i32::MAX))?;
        send_board(&mut e, &referee, side)
    })();
    let t0 = Instant::now();
    let answer = sent.and_then(|_| wait_within(&mut e, limit, gc.memory));
    out.messages = std::mem::take(&mut e.messages);
    e.quit(Duration::from_millis(gc.grace_ms));
    match answer {
        Err(f) => {
            out.ms = t0.elapsed().as_secs_f64() * 1000.0;
            out.outcome = match f {
                Failure::Timeout => Outcome::Timeout,
                Failure::Memory(b) => Outcome::Memory(b),
                f => {
                    let (t, d) = failure_termination(&f);
                    if t == Termination::Illegal {
                        Outcome::Illegal(d)
                    } else {
                        Outcome::Crash(d)
                    }
                }
            };
        }
        Ok(a) => {
            out.mv = Some((a.x, a.y));
            out.ms = a.elapsed.as_secs_f64() * 1000.0;
            if let Verdict::Forfeit(_, d) = referee.judge(a.x, a.y) {
                out.outcome = Outcome::Illegal(d);
            }
        }
    }
    out
}

/// Play one position: a fresh engine, the position, one move.
pub fn run_position(cfg: &ReachConfig, p: &ReachPos) -> ReachAnswer {
    let a = ask_move(
        &cfg.brain.engine,
        &cfg.brain.game_config(p.size, p.rule, cfg.ms),
        &p.moves,
    );
    let solved = a.outcome == Outcome::Moved
        && p.kind == Kind::Win
        && a.mv.is_some_and(|m| p.answers.contains(&m));
    ReachAnswer {
        name: p.name.clone(),
        set: p.set,
        kind: p.kind,
        mv: a.mv,
        ms: a.ms,
        outcome: a.outcome,
        solved,
    }
}

/// Counts of one set (or all).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SetSummary {
    pub positions: usize,
    pub wins: usize,
    pub solved: usize,
}

/// Summary of a run.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Summary {
    pub dev: SetSummary,
    pub held: SetSummary,
    pub all: SetSummary,
    /// Answer times of every position answered with a legal move.
    pub median_ms: f64,
    pub p90_ms: f64,
    pub answered: usize,
    pub timeouts: usize,
    pub crashes: usize,
    pub illegal: usize,
    pub memory: usize,
    pub secs: f64,
}

pub fn summarize(lines: &[ReachAnswer], secs: f64) -> Summary {
    let count = |f: &dyn Fn(&ReachAnswer) -> bool| {
        let l: Vec<&ReachAnswer> = lines.iter().filter(|l| f(l)).collect();
        SetSummary {
            positions: l.len(),
            wins: l.iter().filter(|l| l.kind == Kind::Win).count(),
            solved: l.iter().filter(|l| l.solved).count(),
        }
    };
    let ms: Vec<f64> = lines
        .iter()
        .filter(|l| l.outcome == Outcome::Moved)
        .map(|l| l.ms)
        .collect();
    Summary {
        dev: count(&|l| l.set == Set::Dev),
        held: count(&|l| l.set == Set::Held),
        all: count(&|_| true),
        median_ms: percentile(&ms, 0.5).unwrap_or(0.0),
        p90_ms: percentile(&ms, 0.9).unwrap_or(0.0),
        answered: ms.len(),
        timeouts: lines
            .iter()
            .filter(|l| l.outcome == Outcome::Timeout)
            .count(),
        crashes: lines
            .iter()
            .filter(|l| matches!(l.outcome, Outcome::Crash(_)))
            .count(),
        illegal: lines
            .iter()
            .filter(|l| matches!(l.outcome, Outcome::Illegal(_)))
            .count(),
        memory: lines
            .iter()
            .filter(|l| matches!(l.outcome, Outcome::Memory(_)))
            .count(),
        secs,
    }
}

fn set_name(s: Set) -> &'static str {
    match s {
        Set::Dev => "dev",
        Set::Held => "held",
    }
}

fn kind_name(k: Kind) -> &'static str {
    match k {
        Kind::Win => "win",
        Kind::Quiet => "quiet",
    }
}

/// The per-position line.
pub fn line_text(l: &ReachAnswer) -> String {
    let mv = l.mv.map_or("-".to_string(), |(x, y)| format!("{x},{y}"));
    let mut s = format!(
        "{:<12} {:<4} {:<5} {:>8} {:<8} {:>7.0}",
        l.name,
        set_name(l.set),
        kind_name(l.kind),
        mv,
        l.result(),
        l.ms
    );
    match &l.outcome {
        Outcome::Crash(d) | Outcome::Illegal(d) => {
            let _ = write!(s, "  ({d})");
        }
        Outcome::Memory(b) => {
            let _ = write!(s, "  ({b} bytes)");
        }
        _ => {}
    }
    s
}

/// The summary text.
pub fn summary_text(cfg: &ReachConfig, s: &Summary) -> String {
    let mut t = String::new();
    let both = s.dev.positions > 0 && s.held.positions > 0;
    for (name, c) in [("(dev)", &s.dev), ("(held)", &s.held), ("(all)", &s.all)] {
        if c.positions > 0 && (name != "(all)" || both) {
            let _ = writeln!(
                t,
                "Solved {name:<9}: {}/{} at {} ms ({} positions, {} quiet)",
                c.solved,
                c.wins,
                cfg.ms,
                c.positions,
                c.positions - c.wins
            );
        }
    }
    let _ = writeln!(
        t,
        "Answer time     : median {:.0} ms, p90 {:.0} ms ({} legal answers)",
        s.median_ms, s.p90_ms, s.answered
    );
    let _ = writeln!(
        t,
        "Failures        : {} timeouts, {} crashes, {} illegal, {} memory",
        s.timeouts, s.crashes, s.illegal, s.memory
    );
    let _ = writeln!(t, "Run time        : {:.1} s", s.secs);
    t
}

/// The JSON of a run.
pub fn json_text(cfg: &ReachConfig, s: &Summary, lines: &[ReachAnswer]) -> String {
    let set = |c: &SetSummary| {
        format!(
            "{{\"positions\": {}, \"wins\": {}, \"solved\": {}}}",
            c.positions, c.wins, c.solved
        )
    };
    let mut t = String::from("{\n");
    let _ = writeln!(t, "  \"engine\": {},", quote(&cfg.brain.engine));
    let _ = writeln!(t, "  \"ms\": {},", cfg.ms);
    let _ = writeln!(t, "  \"tolerance_ms\": {},", cfg.brain.tolerance_ms);
    let _ = writeln!(t, "  \"dev\": {},", set(&s.dev));
    let _ = writeln!(t, "  \"held\": {},", set(&s.held));
    let _ = writeln!(t, "  \"all\": {},", set(&s.all));
    let _ = writeln!(t, "  \"median_ms\": {},", number(s.median_ms, 1));
    let _ = writeln!(t, "  \"p90_ms\": {},", number(s.p90_ms, 1));
    let _ = writeln!(t, "  \"answered\": {},", s.answered);
    let _ = writeln!(t, "  \"timeouts\": {},", s.timeouts);
    let _ = writeln!(t, "  \"crashes\": {},", s.crashes);
    let _ = writeln!(t, "  \"illegal\": {},", s.illegal);
    let _ = writeln!(t, "  \"memory\": {},", s.memory);
    t.push_str("  \"positions\": [\n");
    for (i, l) in lines.iter().enumerate() {
        let mv =
            l.mv.map_or("null".to_string(), |(x, y)| quote(&format!("{x},{y}")));
        let _ = write!(
            t,
            "    {{\"name\": {}, \"set\": \"{}\", \"kind\": \"{}\", \"move\": {mv}, \"result\": {}, \"ms\": {}}}",
            quote(&l.name),
            set_name(l.set),
            kind_name(l.kind),
            quote(l.result()),
            number(l.ms, 1)
        );
        t.push_str(if i + 1 < lines.len() { ",\n" } else { "\n" });
    }
    t.push_str("  ]\n}\n");
    t
}

/// Run every position of the configured set, printing a line each and the
/// summary; write the JSON when asked.
pub fn run(cfg: &ReachConfig) -> Result<Summary, String> {
    let ps: Vec<ReachPos> = positions()
        .into_iter()
        .filter(|p| cfg.which.takes(p.set))
        .collect();
    println!(
        "reach: {} positions ({:?}), {} ms + {} ms tolerance, engine {}",
        ps.len(),
        cfg.which,
        cfg.ms,
        cfg.brain.tolerance_ms,
        cfg.brain.engine
    );
    println!(
        "{:<12} {:<4} {:<5} {:>8} {:<8} {:>7}",
        "position", "set", "kind", "move", "result", "ms"
    );
    let t0 = Instant::now();
    let mut lines = Vec::new();
    for p in &ps {
        let l = run_position(cfg, p);
        println!("{}", line_text(&l));
        lines.push(l);
    }
    let s = summarize(&lines, t0.elapsed().as_secs_f64());
    print!("{}", summary_text(cfg, &s));
    if let Some(f) = &cfg.json {
        std::fs::write(f, json_text(cfg, &s, &lines))
            .map_err(|e| format!("cannot write {}: {e}", f.display()))?;
    }
    Ok(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::cli::test_args as args;

    #[test]
    fn parses() {
        assert!(wants(&args("reach --engine x")));
        assert!(!wants(&args("--engine x")));
        let c = parse(&args("reach --engine e --ms 200 --set all --memory 1M"))
            .unwrap()
            .unwrap();
        assert_eq!(
            (c.brain.engine.as_str(), c.ms, c.which, c.brain.memory),
            ("e", 200, Which::All, 1 << 20)
        );
        assert!(parse(&args("reach --help")).unwrap().is_none());
        assert!(parse(&args("reach")).is_err());
        assert!(parse(&args("reach --engine e --set x")).is_err());
        assert!(parse(&args("reach --engine e --bogus")).is_err());
    }

    #[test]
    fn summarizes() {
        let l = |set, kind, outcome, solved, ms| ReachAnswer {
            name: "p".into(),
            set,
            kind,
            mv: Some((7, 7)),
            ms,
            outcome,
            solved,
        };
        let lines = [
            l(Set::Dev, Kind::Win, Outcome::Moved, true, 10.0),
            l(Set::Dev, Kind::Quiet, Outcome::Moved, false, 20.0),
            l(Set::Held, Kind::Win, Outcome::Timeout, false, 900.0),
            l(
                Set::Held,
                Kind::Win,
                Outcome::Illegal("x".into()),
                false,
                5.0,
            ),
        ];
        let s = summarize(&lines, 1.0);
        assert_eq!(
            s.dev,
            SetSummary {
                positions: 2,
                wins: 1,
                solved: 1
            }
        );
        assert_eq!((s.held.wins, s.held.solved, s.all.positions), (2, 0, 4));
        assert_eq!((s.answered, s.timeouts, s.illegal, s.crashes), (2, 1, 1, 0));
        assert_eq!((s.median_ms, s.p90_ms), (10.0, 20.0));
        let cfg = parse(&args("reach --engine e")).unwrap().unwrap();
        let j = crate::lab::arena::json::parse(&json_text(&cfg, &s, &lines)).unwrap();
        assert_eq!(j.u64_field("timeouts"), Ok(1));
        assert_eq!(j.arr_field("positions").unwrap().len(), 4);
    }
}
