//! The tournament side of the `sente-arena` command line: `--engine
//! NAME=CMD` (repeated) or `--tournament FILE`, the tournament options, and
//! `sente-arena merge SHARD.json… --json FILE`. The game conditions
//! (rule, size, time, memory, openings, seed, concurrency, records, JSON)
//! are the two-engine match's options, parsed by `matchcli::parse` itself so the
//! two modes cannot drift apart.

use std::path::PathBuf;

use super::matchcli;
use super::ratings::FitConfig;
use super::schedule::{EngineSpec, Format, Shard};
use super::tournament::{self, TournamentConfig};
use super::{tourmerge, tourreport};
use crate::cli::{num, value};

pub const USAGE: &str = "\
tournaments of N engines:
       sente-arena --engine NAME=CMD --engine NAME=CMD ... [options]
       sente-arena --tournament FILE [options]
       sente-arena merge SHARD.json... --json FILE [--html FILE] [--records DIR]

  --engine NAME=CMD   an engine (repeat; NAME is optional: CMD alone is named
                    like --engine1's)
  --option NAME:KEY=VALUE   send engine NAME `INFO KEY VALUE` after the standard
                    settings (thread_num, max_node, ...); limits stay the same for all
  --tournament FILE   engines and options from a file: `[NAME]` starts an
                    engine, `command = CMD` is its command and any other
                    `KEY = VALUE` under it an INFO option; `KEY = VALUE` lines
                    before the first engine are options (format = gauntlet)
  --format F        round-robin (everyone meets everyone) or gauntlet (the first
                    engine against each other one) [round-robin]
  --games N         games per pairing [every opening twice per round]
  --html FILE       a self-contained report: crosstable, ratings plot,
                    terminations, every game replayable
  --shard K/N       play only the K-th of N shares of the schedule (whole
                    colour-swapped pairs); merge the shards' --json files
  --anchor NAME[=ELO]   the engine whose rating is fixed [the first, at 0]
  --prior D         virtual drawn games per pairing in the rating fit; 0 = pure
                    maximum likelihood (100 % scores have no finite rating) [1]
  --stop-width ELO  stop once every 95 % rating interval is narrower than ELO
  Game options (--rule, --size, --turn, --match, --tolerance, --memory,
  --openings, --rounds, --concurrency, --records, --json, --seed, --ponder,
  --start-timeout, --grace, --engine-stderr) are the match's. Results: a line
  per game on stdout, progress and standings on stderr, then the crosstable and
  the ratings; --json adds every game (the input of merge).
";

/// What a tournament command line asks for.
#[derive(Debug)]
pub enum TourMode {
    Run(Box<TournamentConfig>),
    Merge {
        files: Vec<PathBuf>,
        json: Option<PathBuf>,
        html: Option<PathBuf>,
        records: Option<PathBuf>,
        /// Overrides the shards' anchor.
        anchor: Option<(String, f64)>,
    },
}

/// Whether `args` ask for a tournament or a merge rather than a match.
pub fn wants(args: &[String]) -> bool {
    args.first().map(String::as_str) == Some("merge")
        || args.iter().any(|a| a == "--engine" || a == "--tournament")
}

fn check_name(name: &str) -> Result<(), String> {
    if name.trim().is_empty() || name.contains(['=', ':']) || name.chars().any(|c| c.is_control()) {
        return Err(format!(
            "bad engine name {name:?}: names are non-empty, without '=' or ':'"
        ));
    }
    Ok(())
}

/// `NAME=CMD`, or a bare CMD named as the match names its engines.
fn parse_engine(v: &str) -> Result<EngineSpec, String> {
    let (name, command) = match v.split_once('=') {
        Some((n, c)) if !n.trim().is_empty() && !n.contains(char::is_whitespace) => {
            (n.trim().to_string(), c.trim().to_string())
        }
        _ => (matchcli::name_for(v), v.trim().to_string()),
    };
    check_name(&name)?;
    if command.is_empty() {
        return Err(format!("--engine {v:?}: no command"));
    }
    Ok(EngineSpec {
        name,
        command,
        options: Vec::new(),
    })
}

fn parse_anchor(v: &str) -> Result<(String, f64), String> {
    match v.split_once('=') {
        Some((n, e)) => Ok((n.to_string(), num("--anchor", e.trim())?)),
        None => Ok((v.to_string(), 0.0)),
    }
}

/// An engine section of a tournament file: name, command, INFO options.
type Section = (String, Option<String>, Vec<(String, String)>);

/// A tournament file turned into the command-line arguments it stands for.
pub fn file_args(text: &str) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    let mut engine: Option<Section> = None;
    let flush = |e: Option<Section>, out: &mut Vec<String>| -> Result<(), String> {
        if let Some((name, cmd, opts)) = e {
            let cmd = cmd.ok_or_else(|| format!("engine [{name}] has no command"))?;
            out.push("--engine".into());
            out.push(format!("{name}={cmd}"));
            for (k, v) in opts {
                out.push("--option".into());
                out.push(format!("{name}:{k}={v}"));
            }
        }
        Ok(())
    };
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') || line.starts_with(';') {
            continue;
        }
        if let Some(rest) = line.strip_prefix('[') {
            let name = rest
                .strip_suffix(']')
                .ok_or_else(|| format!("line {}: [NAME] expected", i + 1))?
                .trim()
                .to_string();
            check_name(&name).map_err(|e| format!("line {}: {e}", i + 1))?;
            flush(engine.take(), &mut out)?;
            engine = Some((name, None, Vec::new()));
            continue;
        }
        let (k, v) = line
            .split_once('=')
            .map(|(k, v)| (k.trim().to_string(), v.trim().to_string()))
            .unwrap_or((line.to_string(), String::new()));
        if k.is_empty() || k.contains(char::is_whitespace) {
            return Err(format!("line {}: KEY = VALUE expected", i + 1));
        }
        match engine.as_mut() {
            Some((_, cmd, _)) if k == "command" => *cmd = Some(v),
            Some((_, _, opts)) => opts.push((k, v)),
            None => {
                if matches!(k.as_str(), "engine" | "tournament" | "engine1" | "engine2") {
                    return Err(format!("line {}: {k} is not a file option", i + 1));
                }
                out.push(format!("--{k}"));
                if !v.is_empty() {
                    out.push(v);
                }
            }
        }
    }
    flush(engine.take(), &mut out)?;
    Ok(out)
}

/// Parse a tournament or merge command line (without the program name).
pub fn parse(args: &[String]) -> Result<TourMode, String> {
    if args.first().map(String::as_str) == Some("merge") {
        return parse_merge(&args[1..]);
    }
    // Expand tournament files in place.
    let mut expanded: Vec<String> = Vec::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        if a == "--tournament" {
            let f = it.next().ok_or("--tournament needs a file")?;
            let text = std::fs::read_to_string(f).map_err(|e| format!("cannot read {f}: {e}"))?;
            expanded.extend(file_args(&text).map_err(|e| format!("{f}: {e}"))?);
        } else {
            expanded.push(a.clone());
        }
    }

    let mut engines: Vec<EngineSpec> = Vec::new();
    let mut options: Vec<(String, String, String)> = Vec::new();
    let mut format = Format::RoundRobin;
    let mut html = None;
    let mut shard = None;
    let mut stop_width = None;
    let mut anchor: Option<(String, f64)> = None;
    let mut prior: f64 = 1.0;
    let mut rest: Vec<String> = Vec::new();
    let mut it = expanded.iter();
    while let Some(opt) = it.next() {
        let mut val = || value(&mut it, opt);
        match opt.as_str() {
            "--engine" => engines.push(parse_engine(&val()?)?),
            "--option" => {
                let v = val()?;
                let bad = || format!("--option wants NAME:KEY=VALUE, got {v:?}");
                let (name, kv) = v.split_once(':').ok_or_else(bad)?;
                let (k, value) = kv.split_once('=').ok_or_else(bad)?;
                if k.trim().is_empty() || k.contains(char::is_whitespace) {
                    return Err(bad());
                }
                options.push((
                    name.trim().to_string(),
                    k.trim().to_string(),
                    value.trim().to_string(),
                ));
            }
            "--format" => {
                let v = val()?;
                format = Format::parse(&v)
                    .ok_or_else(|| format!("--format: round-robin or gauntlet, not {v:?}"))?;
            }
            "--html" => html = Some(PathBuf::from(val()?)),
            "--shard" => shard = Some(Shard::parse(&val()?)?),
            "--stop-width" => {
                let w: f64 = num(opt, &val()?)?;
                if w.is_nan() || w <= 0.0 {
                    return Err("--stop-width must be positive".into());
                }
                stop_width = Some(w);
            }
            "--anchor" => anchor = Some(parse_anchor(&val()?)?),
            "--prior" => {
                prior = num(opt, &val()?)?;
                if !(prior >= 0.0 && prior.is_finite()) {
                    return Err("--prior must be 0 or more".into());
                }
            }
            "--engine1" | "--engine2" | "--name1" | "--name2" | "--compare" | "--name"
            | "--fake-engine" => {
                return Err(format!("{opt} does not go with --engine / --tournament"));
            }
            "--sprt" | "--alpha" | "--beta" => {
                return Err(format!(
                    "{opt}: the SPRT is for two engines (--engine1/--engine2); tournaments stop with --stop-width"
                ));
            }
            _ => rest.push(opt.clone()),
        }
    }
    if engines.len() < 2 {
        return Err("a tournament needs at least two --engine".into());
    }
    for (name, k, v) in options {
        let e = engines
            .iter_mut()
            .find(|e| e.name == name)
            .ok_or_else(|| format!("--option: no engine named {name:?}"))?;
        e.options.push((k, v));
    }
    for (i, e) in engines.iter().enumerate() {
        if engines[..i].iter().any(|o| o.name == e.name) {
            return Err(format!(
                "two engines are named {:?}: name them (--engine NAME=CMD)",
                e.name
            ));
        }
    }
    // The game conditions: the match's own parser, with placeholder engines.
    let mut margs = rest;
    margs.extend(["--engine1", "-", "--engine2", "-"].map(String::from));
    let m = match matchcli::parse(&margs)? {
        matchcli::Mode::Match(m) => m,
        _ => return Err("unexpected options for a tournament (see --help)".into()),
    };
    let games_per_pair = m.total_games();
    if games_per_pair == 0 {
        return Err("--games must be at least 1".into());
    }
    let fit = match &anchor {
        Some((name, elo)) => FitConfig {
            anchor: engines
                .iter()
                .position(|e| &e.name == name)
                .ok_or_else(|| format!("--anchor: no engine named {name:?}"))?,
            anchor_elo: *elo,
            prior,
        },
        None => FitConfig {
            prior,
            ..FitConfig::default()
        },
    };
    if stop_width.is_some() && shard.is_some() {
        return Err("--stop-width needs the whole tournament: it cannot go with --shard".into());
    }
    Ok(TourMode::Run(Box::new(TournamentConfig {
        engines,
        format,
        game: m.game,
        openings: m.openings,
        games_per_pair,
        concurrency: m.concurrency,
        records: m.records,
        json: m.json,
        html,
        seed: m.seed,
        shard,
        fit,
        stop_width,
    })))
}

fn parse_merge(args: &[String]) -> Result<TourMode, String> {
    let mut files = Vec::new();
    let (mut json, mut html, mut records, mut anchor) = (None, None, None, None);
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut val = || value(&mut it, a);
        match a.as_str() {
            "--json" => json = Some(PathBuf::from(val()?)),
            "--html" => html = Some(PathBuf::from(val()?)),
            "--records" => records = Some(PathBuf::from(val()?)),
            "--anchor" => anchor = Some(parse_anchor(&val()?)?),
            o if o.starts_with("--") => return Err(format!("merge: unknown option {o:?}")),
            f => files.push(PathBuf::from(f)),
        }
    }
    if files.is_empty() {
        return Err("merge needs the shards' JSON files".into());
    }
    Ok(TourMode::Merge {
        files,
        json,
        html,
        records,
        anchor,
    })
}

/// Run a merge: read the shards, print the summary, write the outputs.
pub fn merge(
    files: &[PathBuf],
    json: Option<&std::path::Path>,
    html: Option<&std::path::Path>,
    records: Option<&std::path::Path>,
    anchor: Option<(String, f64)>,
) -> Result<String, String> {
    let (table, mut settings, notes) = tourmerge::merge(files)?;
    if let Some((name, elo)) = anchor {
        if !settings.engines.iter().any(|e| e.name == name) {
            return Err(format!("--anchor: no engine named {name:?}"));
        }
        settings.anchor = name;
        settings.anchor_elo = elo;
    }
    let fit = settings.fit()?;
    for n in &notes {
        eprintln!("merge: {n}");
    }
    if let Some(dir) = records {
        tourreport::write_records(dir, &table, &settings, true)?;
    }
    tournament::write_outputs(&table, &settings, None, &fit, json, html)?;
    Ok(tourreport::summary(&table, &settings, None, &fit))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    fn run(v: &[&str]) -> Result<TournamentConfig, String> {
        let a: Vec<String> = v.iter().map(|s| s.to_string()).collect();
        match parse(&a)? {
            TourMode::Run(c) => Ok(*c),
            TourMode::Merge { .. } => Err("merge".into()),
        }
    }

    #[test]
    fn parses_engines_and_options() {
        let c = run(&[
            "--engine",
            "a=prog --x=1",
            "--engine",
            "/bin/b -q",
            "--engine",
            "c=c",
            "--option",
            "a:thread_num=2",
            "--format",
            "gauntlet",
            "--games",
            "4",
            "--openings",
            "none",
            "--size",
            "10",
            "--anchor",
            "c=1500",
            "--html",
            "r.html",
            "--shard",
            "2/3",
        ])
        .unwrap();
        assert_eq!(c.engines.len(), 3);
        assert_eq!(c.engines[0].name, "a");
        assert_eq!(c.engines[0].command, "prog --x=1");
        assert_eq!(c.engines[0].info_lines(), vec!["INFO thread_num 2"]);
        assert_eq!(c.engines[1].name, "b");
        assert_eq!(c.engines[1].command, "/bin/b -q");
        assert_eq!(c.format, Format::Gauntlet);
        assert_eq!(c.games_per_pair, 4);
        assert_eq!(c.game.width, 10);
        assert_eq!((c.fit.anchor, c.fit.anchor_elo), (2, 1500.0));
        assert_eq!(c.shard, Some(Shard { index: 2, count: 3 }));
        assert_eq!(c.full_schedule().len(), 8);
        // Default games: every opening twice.
        let c = run(&["--engine", "a=a", "--engine", "b=b", "--openings", "none"]).unwrap();
        assert_eq!(c.games_per_pair, 2);
    }

    #[test]
    fn rejects_what_does_not_fit() {
        for bad in [
            "--engine a=a",
            "--engine a=a --engine a=b",
            "--engine a=a --engine b=b --sprt 0,5",
            "--engine a=a --engine b=b --engine1 x",
            "--engine a=a --engine b=b --format swiss",
            "--engine a=a --engine b=b --option c:x=1",
            "--engine a=a --engine b=b --option a:x",
            "--engine a=a --engine b=b --anchor z",
            "--engine a=a --engine b=b --shard 4/3",
            "--engine a=a --engine b=b --stop-width 20 --shard 1/2",
            "--engine a=a --engine b=b --games 0",
            "--engine a=a --engine b=b --bogus",
            "merge",
            "merge a.json --bogus",
        ] {
            assert!(parse(&args(bad)).is_err(), "{bad}");
        }
        assert!(wants(&args("merge a.json")));
        assert!(wants(&args("--games 2 --engine a=b")));
        assert!(!wants(&args("--engine1 a --engine2 b")));
        let Ok(TourMode::Merge { files, json, .. }) =
            parse(&args("merge a.json b.json --json m.json"))
        else {
            panic!()
        };
        assert_eq!(files.len(), 2);
        assert_eq!(json, Some(PathBuf::from("m.json")));
    }

    #[test]
    fn tournament_file() {
        let text = "# a tournament\nformat = gauntlet\ngames = 6\n\n[sente]\ncommand = ./pbrain-sente\nthread_num = 1\n\n[random]\ncommand = arena --fake-engine random\n";
        let a = file_args(text).unwrap();
        assert_eq!(
            a,
            args("--format gauntlet --games 6 --engine")
                .into_iter()
                .chain([
                    "sente=./pbrain-sente".to_string(),
                    "--option".into(),
                    "sente:thread_num=1".into(),
                    "--engine".into(),
                    "random=arena --fake-engine random".into()
                ])
                .collect::<Vec<_>>()
        );
        assert!(file_args("[x]\nthread_num = 1\n").is_err(), "no command");
        assert!(file_args("[x\n").is_err());
        assert!(file_args("engine = y\n").is_err());
    }
}
