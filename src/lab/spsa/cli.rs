//! The `sente-arena spsa` command line: a run (new or resumed from its
//! state file), a shard of the next iteration (`--shard K/N --out PART`),
//! the parts merged into the update (`spsa step`), and the report of a
//! state file (`--print`). The game conditions are the match's options,
//! parsed by `matchcli::parse` itself, as the tournament does.

use std::path::{Path, PathBuf};

use super::method::Schedule;
use super::output;
use super::play::{self, Games};
use super::spec;
use super::state::State;
use crate::cli::{num, value};
use crate::lab::arena::matchcli;
use crate::lab::arena::schedule::Shard;

pub const USAGE: &str = "\
SPSA tuning of search parameters (scripts/SPSA.md):
       sente-arena spsa --state FILE --params FILE --engine CMD [options]
       sente-arena spsa --state FILE --engine CMD --shard K/N --out PART [options]
       sente-arena spsa step --state FILE PART...
       sente-arena spsa --state FILE --print

  --state FILE      the run's state: created from --params, else resumed
                    (settings, every iteration's result and values) [required]
  --params FILE     the tuned parameters, a line each:
                    NAME, start, min, max, c_end, r_end[, TYPE]
  --engine CMD      the tuned engine; it gets --param NAME=V for each one
  --opponent CMD    play θ+ and θ− each against this engine (the same openings)
                    instead of against each other
  --nodes N         INFO max_node N to the tuned engine (--turn stays the limit)
  --opponent-nodes N   INFO max_node N to the opponent: with --nodes, games
                    no busy machine biases (Rapfi honours it too)
  --iters N         iterations of the schedule [100]
  --pairs-per-iter K   colour-swapped game pairs per iteration [8]
  --seed S          the run's seed: perturbations and opening order [1]
  --A X, --alpha X, --gamma X   schedule constants [N/10, 0.602, 0.101]
  --stop-after M    play at most M iterations now (0: just create the state)
  --shard K/N       play the K-th of N shares of the next iteration's pairs
                    and write them to --out PART; `spsa step` merges the parts
                    and updates the state
  --print           print the trajectory and the params.rs block and stop
  Game options (--rule, --size, --turn, --match, --tolerance, --memory,
  --openings, --concurrency, --start-timeout, --grace, --engine-stderr) are
  the match's. A line per iteration on stdout; at the end the trajectory and
  the params.rs block.
";

/// What an spsa command line asks for.
#[derive(Debug)]
pub enum SpsaMode {
    Run {
        games: Box<Games>,
        state: Box<State>,
        path: PathBuf,
        stop_after: Option<usize>,
        /// A shard of the next iteration and its part file.
        shard: Option<(Shard, PathBuf)>,
    },
    Step {
        path: PathBuf,
        parts: Vec<PathBuf>,
    },
    Print {
        path: PathBuf,
    },
}

/// Whether `args` ask for the tuner.
pub fn wants(args: &[String]) -> bool {
    args.first().map(String::as_str) == Some("spsa")
}

/// The run's settings from the command line, checked against the state
/// file's when it exists.
struct RunArgs {
    params: Option<PathBuf>,
    iters: Option<usize>,
    pairs: Option<usize>,
    big_a: Option<f64>,
    alpha: Option<f64>,
    gamma: Option<f64>,
}

fn state_for(path: &Path, a: &RunArgs, seed: Option<u64>) -> Result<State, String> {
    if path.exists() {
        let st = State::load(path)?;
        let differs = |what: &str| {
            Err(format!(
                "{}: the run has another {what}; start a new state file to change it",
                path.display()
            ))
        };
        if let Some(p) = &a.params {
            if spec::load(p)? != st.params {
                return differs("parameter list");
            }
        }
        let s = &st.schedule;
        if a.iters.is_some_and(|n| n != s.iters) {
            return differs("--iters");
        }
        if a.pairs.is_some_and(|n| n != st.pairs) {
            return differs("--pairs-per-iter");
        }
        if seed.is_some_and(|x| x != st.seed) {
            return differs("--seed");
        }
        if a.big_a.is_some_and(|x| x != s.big_a)
            || a.alpha.is_some_and(|x| x != s.alpha)
            || a.gamma.is_some_and(|x| x != s.gamma)
        {
            return differs("schedule (--A, --alpha, --gamma)");
        }
        return Ok(st);
    }
    let Some(p) = &a.params else {
        return Err(format!(
            "{} does not exist: a new run needs --params FILE",
            path.display()
        ));
    };
    let params = spec::load(p)?;
    let iters = a.iters.unwrap_or(100);
    let pairs = a.pairs.unwrap_or(8);
    if iters == 0 || pairs == 0 {
        return Err("--iters and --pairs-per-iter must be at least 1".into());
    }
    let mut s = Schedule::standard(iters);
    s.big_a = a.big_a.unwrap_or(s.big_a);
    s.alpha = a.alpha.unwrap_or(s.alpha);
    s.gamma = a.gamma.unwrap_or(s.gamma);
    if !(s.big_a >= 0.0 && s.alpha > 0.0 && s.gamma >= 0.0) {
        return Err("--A must be 0 or more, --alpha positive, --gamma 0 or more".into());
    }
    Ok(State::new(params, s, pairs, seed.unwrap_or(1)))
}

/// Parse the arguments after `spsa`.
pub fn parse(args: &[String]) -> Result<SpsaMode, String> {
    if args.first().map(String::as_str) == Some("step") {
        let mut path = None;
        let mut parts = Vec::new();
        let mut it = args[1..].iter();
        while let Some(a) = it.next() {
            match a.as_str() {
                "--state" => path = Some(PathBuf::from(value(&mut it, a)?)),
                s if s.starts_with("--") => return Err(format!("spsa step: unknown option {s:?}")),
                s => parts.push(PathBuf::from(s)),
            }
        }
        let path = path.ok_or("spsa step needs --state FILE")?;
        if parts.is_empty() {
            return Err("spsa step needs the part files".into());
        }
        return Ok(SpsaMode::Step { path, parts });
    }
    let mut ra = RunArgs {
        params: None,
        iters: None,
        pairs: None,
        big_a: None,
        alpha: None,
        gamma: None,
    };
    let (mut path, mut engine, mut opponent, mut nodes) = (None, None, None, None::<u64>);
    let mut opponent_nodes = None::<u64>;
    let (mut stop_after, mut shard, mut out, mut print) = (None, None, None, false);
    let mut rest: Vec<String> = Vec::new();
    let mut it = args.iter();
    while let Some(opt) = it.next() {
        let mut val = || value(&mut it, opt);
        match opt.as_str() {
            "--state" => path = Some(PathBuf::from(val()?)),
            "--params" => ra.params = Some(PathBuf::from(val()?)),
            "--engine" => engine = Some(val()?),
            "--opponent" => opponent = Some(val()?),
            "--nodes" => nodes = Some(num(opt, &val()?)?),
            "--opponent-nodes" => opponent_nodes = Some(num(opt, &val()?)?),
            "--iters" => ra.iters = Some(num(opt, &val()?)?),
            "--pairs-per-iter" => ra.pairs = Some(num(opt, &val()?)?),
            "--A" => ra.big_a = Some(num(opt, &val()?)?),
            "--alpha" => ra.alpha = Some(num(opt, &val()?)?),
            "--gamma" => ra.gamma = Some(num(opt, &val()?)?),
            "--stop-after" => stop_after = Some(num(opt, &val()?)?),
            "--shard" => shard = Some(Shard::parse(&val()?)?),
            "--out" => out = Some(PathBuf::from(val()?)),
            "--print" => print = true,
            "--engine1" | "--engine2" | "--name1" | "--name2" | "--games" | "--rounds"
            | "--sprt" | "--beta" | "--json" | "--records" | "--fake-engine" | "--compare"
            | "--ponder" => return Err(format!("{opt} does not go with spsa (see --help)")),
            _ => rest.push(opt.clone()),
        }
    }
    let path = path.ok_or("spsa needs --state FILE")?;
    if print {
        return Ok(SpsaMode::Print { path });
    }
    // The game conditions: the match's own parser, with placeholder engines.
    rest.extend(["--engine1", "-", "--engine2", "-"].map(String::from));
    let m = match matchcli::parse(&rest)? {
        matchcli::Mode::Match(m) => m,
        _ => return Err("unexpected options for spsa (see --help)".into()),
    };
    let state = state_for(&path, &ra, m.seed)?;
    let engine = engine.ok_or("spsa needs --engine CMD")?;
    if opponent_nodes.is_some() && opponent.is_none() {
        return Err("--opponent-nodes needs --opponent CMD".into());
    }
    let max_node = |n: Option<u64>| -> Vec<String> {
        n.map(|n| format!("INFO max_node {n}"))
            .into_iter()
            .collect()
    };
    let shard = match (shard, out) {
        (Some(s), Some(o)) => Some((s, o)),
        (None, None) => None,
        _ => return Err("--shard and --out go together".into()),
    };
    Ok(SpsaMode::Run {
        games: Box::new(Games {
            engine,
            opponent,
            game: m.game,
            openings: m.openings,
            concurrency: m.concurrency,
            info: max_node(nodes),
            opponent_info: max_node(opponent_nodes),
        }),
        state: Box::new(state),
        path,
        stop_after,
        shard,
    })
}

/// The end of a run: the trajectory and the params.rs block.
fn report(st: &State) -> String {
    format!(
        "{}\n{}",
        output::trajectory(st, 40),
        output::params_block(st)
    )
}

/// Do what the command line asked.
pub fn run(mode: SpsaMode) -> Result<(), String> {
    match mode {
        SpsaMode::Print { path } => {
            print!("{}", report(&State::load(&path)?));
            Ok(())
        }
        SpsaMode::Step { path, parts } => {
            let mut st = State::load(&path)?;
            if st.finished() {
                return Err(format!("{}: the run is finished", path.display()));
            }
            let texts = parts
                .iter()
                .map(|p| {
                    std::fs::read_to_string(p)
                        .map(|t| (p.display().to_string(), t))
                        .map_err(|e| format!("cannot read {}: {e}", p.display()))
                })
                .collect::<Result<Vec<_>, String>>()?;
            let pairs = play::merge_parts(&st, &texts)?;
            let faults = pairs.iter().map(|p| p.faults).sum();
            let rec = st.apply(play::result(&pairs)).clone();
            st.save(&path)?;
            println!("{}", output::iteration_line(&st, &rec, faults));
            if st.finished() {
                print!("{}", report(&st));
            }
            Ok(())
        }
        SpsaMode::Run {
            games,
            mut state,
            path,
            stop_after,
            shard,
        } => {
            // Shards only read the state (several may start at once).
            if shard.is_none() {
                state.save(&path)?;
            } else if !path.exists() {
                return Err(format!(
                    "{}: a shard needs the run's state file (create it with --stop-after 0)",
                    path.display()
                ));
            }
            if state.finished() {
                print!("{}", report(&state));
                return Ok(());
            }
            if stop_after == Some(0) {
                return Ok(());
            }
            games.probe(&state)?;
            if let Some((s, out)) = shard {
                let pairs = play::shard_pairs(state.pairs, Some(s));
                let results = games.play(&state, &pairs)?;
                return std::fs::write(&out, play::part_text(&state, &results))
                    .map_err(|e| format!("cannot write {}: {e}", out.display()));
            }
            let all = play::shard_pairs(state.pairs, None);
            let mut played = 0;
            while !state.finished() && stop_after.is_none_or(|m| played < m) {
                let results = games.play(&state, &all)?;
                let faults = results.iter().map(|p| p.faults).sum();
                let rec = state.apply(play::result(&results)).clone();
                state.save(&path)?;
                println!("{}", output::iteration_line(&state, &rec, faults));
                played += 1;
            }
            if state.finished() {
                print!("{}", report(&state));
            }
            Ok(())
        }
    }
}
