//! Reading a tournament back: the `--json` file of a run or a shard parsed
//! into its table and settings (`load`), and shards merged into the
//! tournament they are parts of (`merge`): same schedule, no shard twice,
//! the same crosstable, ratings, JSON, report and records as one run.

use std::fs;
use std::path::PathBuf;

use super::game::GameOutcome;
use super::json::{self, Value};
use super::referee::Termination;
use super::report::{parse_result, GameReport};
use super::schedule::Shard;
use super::tourreport::{Played, Settings, Table};
use crate::cli::parse_points;

fn pair_u64(v: &Value, key: &str) -> Result<[u64; 2], String> {
    match v.arr_field(key)? {
        [a, b] => Ok([
            a.as_u64().ok_or_else(|| format!("bad \"{key}\""))?,
            b.as_u64().ok_or_else(|| format!("bad \"{key}\""))?,
        ]),
        _ => Err(format!("\"{key}\" is not a pair")),
    }
}

/// One entry of `games_list` back into a played game.
fn parse_game(v: &Value, names: &[String]) -> Result<Played, String> {
    let idx = |key: &str| -> Result<usize, String> {
        let n = v.str_field(key)?;
        names
            .iter()
            .position(|x| x == n)
            .ok_or_else(|| format!("unknown engine {n:?}"))
    };
    let (a, b) = (idx("a")?, idx("b")?);
    let black = idx("black")?;
    let number = v.u64_field("game")? as usize;
    if number == 0 {
        return Err("game numbers start at 1".into());
    }
    let result = v.str_field("result")?;
    let winner = parse_result(result).ok_or_else(|| format!("bad result {result:?}"))?;
    let tname = v.str_field("termination")?;
    let termination = Termination::ALL
        .iter()
        .copied()
        .find(|t| t.name() == tname)
        .ok_or_else(|| format!("bad termination {tname:?}"))?;
    let move_ms = v
        .arr_field("move_ms")?
        .iter()
        .map(|m| m.as_u64().ok_or("bad \"move_ms\""))
        .collect::<Result<Vec<u64>, _>>()?;
    Ok(Played {
        a,
        b,
        pair: v.u64_field("pair")? as usize,
        report: GameReport {
            game: number - 1,
            opening_line: v.u64_field("opening_line")? as usize,
            opening_text: v.str_field("opening")?.to_string(),
            engine1_black: black == a,
            outcome: GameOutcome {
                winner,
                termination,
                detail: v.str_field("detail")?.to_string(),
                moves: parse_points(v.str_field("moves")?)?,
                move_ms,
                opening_len: v.u64_field("opening_len")? as usize,
                time_ms: pair_u64(v, "time_ms")?,
                memory: pair_u64(v, "memory")?,
            },
        },
    })
}

/// A tournament JSON file read back: its settings, shard and games.
pub struct Loaded {
    pub settings: Settings,
    pub shard: Option<Shard>,
    pub games: Vec<Played>,
}

pub fn load(text: &str) -> Result<Loaded, String> {
    let v = json::parse(text)?;
    let settings = Settings::from_json(v.field("settings")?)?;
    let shard = match v.field("shard")? {
        Value::Null => None,
        Value::Str(s) => Some(Shard::parse(s)?),
        _ => return Err("bad \"shard\"".into()),
    };
    let names = settings.names();
    let games = v
        .arr_field("games_list")?
        .iter()
        .enumerate()
        .map(|(i, g)| parse_game(g, &names).map_err(|e| format!("games_list[{i}]: {e}")))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Loaded {
        settings,
        shard,
        games,
    })
}

/// Merge shard files into one table: the settings must agree, no game may
/// come twice; missing games are reported in the returned notes.
pub fn merge(paths: &[PathBuf]) -> Result<(Table, Settings, Vec<String>), String> {
    let mut settings: Option<Settings> = None;
    let mut games: Vec<Played> = Vec::new();
    let mut notes = Vec::new();
    let mut shards: Vec<Shard> = Vec::new();
    for path in paths {
        let text =
            fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let l = load(&text).map_err(|e| format!("{}: {e}", path.display()))?;
        match &settings {
            None => settings = Some(l.settings),
            Some(s) if *s != l.settings => {
                return Err(format!(
                    "{}: its settings differ from {}'s: not shards of one tournament",
                    path.display(),
                    paths[0].display()
                ))
            }
            Some(_) => {}
        }
        if let Some(sh) = l.shard {
            if shards.contains(&sh) {
                return Err(format!(
                    "{}: shard {} given twice",
                    path.display(),
                    sh.text()
                ));
            }
            shards.push(sh);
        }
        games.extend(l.games);
    }
    let settings = settings.ok_or("merge needs at least one file")?;
    games.sort_by_key(|p| p.report.game);
    for w in games.windows(2) {
        if w[0].report.game == w[1].report.game {
            return Err(format!("game {} comes twice", w[0].report.game + 1));
        }
    }
    if games.len() != settings.scheduled {
        notes.push(format!(
            "incomplete: {} of {} scheduled games",
            games.len(),
            settings.scheduled
        ));
    }
    let names = settings.names();
    let pairs = super::schedule::pairings(names.len(), settings.format);
    let mut table = Table::new(names, pairs);
    table.games = games;
    Ok((table, settings, notes))
}
