//! The `sente-arena` command line: parsing the contract options into a
//! `MatchConfig` (or a fake-engine mode), and the help text.

use std::path::PathBuf;

use super::game::GameConfig;
use super::openings::{self, Opening};
use super::runner::MatchConfig;
use super::stats::Sprt;
use crate::cli::{num, parse_bytes, parse_rule, value};

pub const USAGE: &str = "\
sente-arena: engine-vs-engine matches under a Gomocup-style referee

usage: sente-arena --engine1 CMD --engine2 CMD [options]
       sente-arena --fake-engine KIND[:N] [--seed S]
       sente-arena --compare BASE/games.txt NEW/games.txt [--name NAME]

  --engine1 CMD, --engine2 CMD  engine commands (arguments allowed; shell syntax runs via sh -c)
  --name1 NAME, --name2 NAME    names in results (default: from the commands)
  --rule R          0 freestyle, 1 standard (exactly five), 4 renju, 8 caro, or the name [0]
  --size N | WxH    board size [15]
  --turn MS         time per move, 0 = none [1000]
  --match MS        time per game, 0 = unlimited [0]
  --league L        a Gomocup league's clock: fastgame (5 s a move, 120 s a game),
                    lower (30 s / 180 s) or final (300 s / 1,000 s), 350 MB
  --clock-scale N   divide the league's turn and game clock by N [1]
  --tolerance MS    extra time before an overtime loss [1000]
  --memory BYTES    memory limit (suffix K, M, G allowed), 0 = none [350M]
  --openings FILE   opening suite; 'none' = empty board [shared/openings suite for rule and size]
  --games N         games to play [every opening twice per round]
  --rounds N        rounds over the opening suite [1]
  --concurrency N   games in parallel [1]
  --records DIR     write games.txt and one PSQ file per game
  --json FILE       write {games, wins1, wins2, draws, score1, elo, elo_95, terminations}
  --ponder          do not suspend the engine that is not on move, and send it
                    INFO pondering 1
  --sprt E0,E1      sequential test of logistic Elo E0 against E1 (expected score
                    1/(1+10^(-E/400)), not fishtest's normalized Elo): exact
                    GSPRT on colour-swapped pairs; stops when decided
  --alpha A, --beta B   SPRT error rates [0.05, 0.05]
  --seed S          shuffle the opening order with this seed (fake engines: move seed)
  --start-timeout MS    time to answer START [5000]
  --grace MS        time between END and the kill [500]
  --engine-stderr   show the engines' stderr
  --fake-engine KIND[:N]  run a built-in test engine: random, overtime, crash, garbage,
                    illegal, occupied, memory, silent, forbidden
                    (misbehaving after N good moves); slow:MS sleeps MS per move;
                    search: Sente's library search behind a minimal protocol;
                    planted: strongest at --param X=37 (the SPSA tuner's test)
  --param X=V       the planted engine's parameter
  --compare BASE NEW  compare two matches played on the same schedule (same
                    openings, --games and --seed) game by game: NAME's points
                    in each, and the paired difference with its 95 % interval
  --name NAME       the engine --compare scores [sente]
";

/// What the command line asks for.
#[derive(Debug)]
pub enum Mode {
    Help,
    Fake {
        kind: super::fake::Kind,
        good: usize,
        seed: u64,
        /// The planted engine's parameter (`--param X=V`).
        x: f64,
    },
    Match(Box<MatchConfig>),
    Compare {
        base: String,
        new: String,
        name: String,
    },
}

fn parse_size(s: &str) -> Result<(usize, usize), String> {
    let bad = || format!("bad size {s:?}");
    let (w, h) = match s.split_once(['x', 'X', ',']) {
        Some((w, h)) => (w.parse().map_err(|_| bad())?, h.parse().map_err(|_| bad())?),
        None => {
            let n = s.parse().map_err(|_| bad())?;
            (n, n)
        }
    };
    if !(5..=32).contains(&w) || !(5..=32).contains(&h) {
        return Err(format!("board size {w}x{h} out of 5..32"));
    }
    Ok((w, h))
}

/// A short name for an engine command: the fake kind, or the program's
/// file name.
pub fn name_for(cmd: &str) -> String {
    let words: Vec<&str> = cmd.split_whitespace().collect();
    if let Some(i) = words.iter().position(|w| *w == "--fake-engine") {
        if let Some(k) = words.get(i + 1) {
            return format!("fake-{k}");
        }
    }
    words
        .first()
        .map(|w| w.rsplit('/').next().unwrap_or(w).to_string())
        .unwrap_or_else(|| "engine".into())
}

/// Parse the arguments (without the program name).
pub fn parse(args: &[String]) -> Result<Mode, String> {
    let mut engines: [Option<String>; 2] = [None, None];
    let mut names: [Option<String>; 2] = [None, None];
    let mut game = GameConfig::default();
    let mut openings_arg: Option<String> = None;
    let mut games = None;
    let mut rounds = 1;
    let mut concurrency = 1;
    let mut records = None;
    let mut json = None;
    let mut sprt_bounds: Option<(f64, f64)> = None;
    let (mut alpha, mut beta) = (0.05, 0.05);
    let mut seed: Option<u64> = None;
    let mut fake: Option<String> = None;
    let mut compare: Option<(String, String)> = None;
    let mut compare_name: Option<String> = None;
    let mut fake_x: Option<f64> = None;
    let mut league: Option<super::clock::League> = None;
    let mut clock_scale: u64 = 1;
    let mut timed_by_hand = false;

    let mut it = args.iter();
    while let Some(opt) = it.next() {
        let mut val = || value(&mut it, opt);
        match opt.as_str() {
            "-h" | "--help" => return Ok(Mode::Help),
            "--engine1" => engines[0] = Some(val()?),
            "--engine2" => engines[1] = Some(val()?),
            "--name1" => names[0] = Some(val()?),
            "--name2" => names[1] = Some(val()?),
            "--rule" => game.rules = parse_rule(&val()?)?,
            "--size" => (game.width, game.height) = parse_size(&val()?)?,
            "--turn" => {
                game.turn_ms = num(opt, &val()?)?;
                timed_by_hand = true;
            }
            "--match" => {
                game.match_ms = num(opt, &val()?)?;
                timed_by_hand = true;
            }
            "--league" => league = Some(super::clock::League::parse(&val()?)?),
            "--clock-scale" => clock_scale = num(opt, &val()?)?,
            "--tolerance" => game.tolerance_ms = num(opt, &val()?)?,
            "--memory" => game.memory = parse_bytes(&val()?)?,
            "--openings" => openings_arg = Some(val()?),
            "--games" => games = Some(num(opt, &val()?)?),
            "--rounds" => rounds = num(opt, &val()?)?,
            "--concurrency" => concurrency = num(opt, &val()?)?,
            "--records" => records = Some(PathBuf::from(val()?)),
            "--json" => json = Some(PathBuf::from(val()?)),
            "--ponder" => game.ponder = true,
            "--sprt" => {
                let v = val()?;
                let (a, b) = v
                    .split_once(',')
                    .ok_or_else(|| format!("--sprt wants ELO0,ELO1, got {v:?}"))?;
                sprt_bounds = Some((num(opt, a.trim())?, num(opt, b.trim())?));
            }
            "--alpha" => alpha = num(opt, &val()?)?,
            "--beta" => beta = num(opt, &val()?)?,
            "--seed" => seed = Some(num(opt, &val()?)?),
            "--start-timeout" => game.start_ms = num(opt, &val()?)?,
            "--grace" => game.grace_ms = num(opt, &val()?)?,
            "--engine-stderr" => game.stderr = true,
            "--fake-engine" => fake = Some(val()?),
            "--param" => {
                let v = val()?;
                match v.split_once('=') {
                    Some(("X", x)) => fake_x = Some(num(opt, x.trim())?),
                    _ => return Err(format!("--param {v:?}: the planted engine has only X=V")),
                }
            }
            "--compare" => {
                let base = val()?;
                compare = Some((base, val()?));
            }
            "--name" => compare_name = Some(val()?),
            other => return Err(format!("unknown option {other:?} (see --help)")),
        }
    }

    if clock_scale == 0 {
        return Err("--clock-scale must be at least 1".into());
    }
    match league {
        Some(_) if timed_by_hand => {
            return Err(
                "--league sets the turn and the game clock: no --turn or --match with it".into(),
            )
        }
        Some(l) => l.apply(&mut game, clock_scale),
        None if clock_scale != 1 => return Err("--clock-scale goes with --league".into()),
        None => {}
    }
    if let Some((base, new)) = compare {
        return Ok(Mode::Compare {
            base,
            new,
            name: compare_name.unwrap_or_else(|| "sente".into()),
        });
    }
    if compare_name.is_some() {
        return Err(
            "--name only goes with --compare (a match names its engines with --name1, --name2)"
                .into(),
        );
    }
    if let Some(k) = fake {
        let (kind, good) =
            super::fake::Kind::parse(&k).ok_or_else(|| format!("unknown fake engine {k:?}"))?;
        return Ok(Mode::Fake {
            kind,
            good,
            seed: seed.unwrap_or(1),
            x: fake_x.unwrap_or(0.0),
        });
    }
    if fake_x.is_some() {
        return Err("--param only goes with --fake-engine planted".into());
    }
    let [Some(e1), Some(e2)] = engines else {
        return Err("--engine1 and --engine2 are required (see --help)".into());
    };
    if game.turn_ms == 0 && game.match_ms == 0 {
        log::warn!("no time limit: a silent engine is only lost after a day");
    }
    let sprt = match sprt_bounds {
        Some((elo0, elo1)) => {
            if elo1 <= elo0
                || elo1.is_nan()
                || elo0.is_nan()
                || !(0.0..0.5).contains(&alpha)
                || !(0.0..0.5).contains(&beta)
            {
                return Err("--sprt needs ELO0 < ELO1 and 0 < alpha, beta < 0.5".into());
            }
            if alpha <= 0.0 || beta <= 0.0 {
                return Err("--alpha and --beta must be positive".into());
            }
            Some(Sprt {
                elo0,
                elo1,
                alpha,
                beta,
            })
        }
        None => None,
    };
    let openings: Vec<Opening> = match openings_arg.as_deref() {
        Some("none") => Vec::new(),
        Some(f) => openings::load(std::path::Path::new(f))?,
        None => {
            let file = openings::default_file(game.rules.rule, game.width, game.height);
            match (openings::default_dir(), file) {
                (Some(dir), Some(file)) if dir.join(file).is_file() => {
                    openings::load(&dir.join(file))?
                }
                _ => {
                    log::warn!("no default opening suite found: games start on an empty board");
                    Vec::new()
                }
            }
        }
    };
    let mut n = [
        names[0].clone().unwrap_or_else(|| name_for(&e1)),
        names[1].clone().unwrap_or_else(|| name_for(&e2)),
    ];
    if n[0] == n[1] {
        n[0].push_str("#1");
        n[1].push_str("#2");
    }
    if concurrency == 0 {
        return Err("--concurrency must be at least 1".into());
    }
    Ok(Mode::Match(Box::new(MatchConfig {
        engines: [e1, e2],
        names: n,
        game,
        openings,
        games,
        rounds,
        concurrency,
        records,
        json,
        sprt,
        seed,
        sprt_max_games: 100_000,
    })))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::brain::types::Rule;

    use crate::cli::test_args as args;

    /// `--league` sets the turn, the game clock and the memory, scaled by
    /// `--clock-scale`; it refuses a hand-set turn or clock, and the scale
    /// goes only with a league.
    #[test]
    fn leagues_set_the_clock() {
        let base = "--engine1 a --engine2 b --openings none";
        let Ok(Mode::Match(m)) = parse(&args(&format!("{base} --league fastgame --clock-scale 4")))
        else {
            panic!()
        };
        assert_eq!((m.game.turn_ms, m.game.match_ms), (1_250, 30_000));
        assert_eq!(m.game.memory, 350 << 20);
        let Ok(Mode::Match(m)) = parse(&args(&format!("{base} --league lower --clock-scale 10")))
        else {
            panic!()
        };
        assert_eq!((m.game.turn_ms, m.game.match_ms), (3_000, 18_000));
        for bad in [
            "--league fastgame --turn 100",
            "--match 100 --league final",
            "--clock-scale 4",
            "--league final --clock-scale 0",
            "--league blitz",
        ] {
            assert!(parse(&args(&format!("{base} {bad}"))).is_err(), "{bad}");
        }
    }

    #[test]
    fn parses_the_contract() {
        let m = parse(&args(
            "--engine1 a --engine2 b --rule 4 --size 15 --turn 200 --match 5000 --tolerance 100 \
             --memory 64M --openings none --games 10 --concurrency 2 --json out.json --sprt 0,5 --alpha 0.1",
        ))
        .unwrap();
        let Mode::Match(m) = m else { panic!() };
        assert_eq!(m.game.rules.rule, Rule::Renju);
        assert_eq!((m.game.width, m.game.height), (15, 15));
        assert_eq!(m.game.turn_ms, 200);
        assert_eq!(m.game.match_ms, 5000);
        assert_eq!(m.game.tolerance_ms, 100);
        assert_eq!(m.game.memory, 64 << 20);
        assert_eq!(m.games, Some(10));
        assert_eq!(m.concurrency, 2);
        assert!(m.openings.is_empty());
        let s = m.sprt.unwrap();
        assert_eq!((s.elo0, s.elo1, s.alpha, s.beta), (0.0, 5.0, 0.1, 0.05));
        assert_eq!(m.names, ["a".to_string(), "b".to_string()]);
        let Ok(Mode::Match(m)) = parse(&args("--engine1 x/e --engine2 e --openings none")) else {
            panic!()
        };
        assert_eq!(m.names, ["e#1".to_string(), "e#2".to_string()]);
    }

    #[test]
    fn rejects_bad_arguments() {
        assert!(parse(&args("--engine1 a")).is_err());
        assert!(parse(&args("--engine1 a --engine2 b --turn x")).is_err());
        assert!(parse(&args("--engine1 a --engine2 b --bogus")).is_err());
        assert!(parse(&args("--engine1 a --engine2 b --size 40")).is_err());
        assert!(parse(&args("--engine1 a --engine2 b --sprt 5,0")).is_err());
        assert!(parse(&args("--engine1 a --engine2 b --openings none --turn")).is_err());
        assert!(matches!(parse(&args("--help")), Ok(Mode::Help)));
        let Ok(Mode::Compare { base, new, name }) = parse(&args("--compare a.txt b.txt --name x"))
        else {
            panic!("--compare")
        };
        assert_eq!(
            (base.as_str(), new.as_str(), name.as_str()),
            ("a.txt", "b.txt", "x")
        );
        assert!(matches!(
            parse(&args("--compare a.txt b.txt")),
            Ok(Mode::Compare { name, .. }) if name == "sente"
        ));
        assert!(parse(&args("--compare a.txt")).is_err());
        assert!(parse(&args("--engine1 a --engine2 b --name x")).is_err());
        assert!(matches!(
            parse(&args("--fake-engine crash:2")),
            Ok(Mode::Fake { good: 2, .. })
        ));
        assert!(matches!(
            parse(&args("--fake-engine planted --param X=12.5")),
            Ok(Mode::Fake { x, .. }) if x == 12.5
        ));
        assert!(parse(&args("--fake-engine planted --param Y=1")).is_err());
        assert!(parse(&args("--fake-engine planted --param X=a")).is_err());
        assert!(parse(&args("--engine1 a --engine2 b --param X=1")).is_err());
    }

    #[test]
    fn helpers() {
        assert_eq!(parse_size("20x15").unwrap(), (20, 15));
        assert_eq!(name_for("/x/y/pbrain-sente -v"), "pbrain-sente");
        assert_eq!(name_for("arena --fake-engine crash:3"), "fake-crash:3");
    }
}
