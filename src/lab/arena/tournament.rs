//! Tournaments between N engines: round robin (every engine against every
//! other) or gauntlet (the first engine against each other one), every
//! opening played twice with colours swapped in each pairing, on the same
//! referee, limits and forfeit rules as a two-engine match (`game::play`).
//!
//! The schedule is a pure function of the settings and the seed: pair p of
//! every pairing is played before pair p + 1 of any, so standings stay
//! balanced while it runs, and `--shard K/N` plays the colour-swapped pairs
//! whose number is K − 1 modulo N. Games keep their schedule numbers, so
//! shards merge back into exactly the unsharded tournament
//! (`tourreport::merge`).

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

use super::game::{self, GameConfig, Players};
use super::html;
use super::openings::{self, Opening};
use super::pool::Pool;
use super::ratings::FitConfig;
use super::referee::Referee;
use super::report::{self, GameReport};
use super::schedule::{pairings, schedule, EngineSpec, Format, Scheduled, Shard};
use super::tourreport::{self, Played, Settings, Table};

/// A whole tournament.
#[derive(Clone, Debug)]
pub struct TournamentConfig {
    pub engines: Vec<EngineSpec>,
    pub format: Format,
    pub game: GameConfig,
    pub openings: Vec<Opening>,
    /// Games per pairing.
    pub games_per_pair: usize,
    pub concurrency: usize,
    pub records: Option<PathBuf>,
    pub json: Option<PathBuf>,
    pub html: Option<PathBuf>,
    pub seed: Option<u64>,
    pub shard: Option<Shard>,
    pub fit: FitConfig,
    /// Stop once every rating's 95 % interval is narrower than this (Elo,
    /// full width).
    pub stop_width: Option<f64>,
}

impl TournamentConfig {
    pub fn pairings(&self) -> Vec<(usize, usize)> {
        pairings(self.engines.len(), self.format)
    }

    /// The openings played (the empty board when the list is empty).
    pub fn opening_list(&self) -> Vec<Opening> {
        if self.openings.is_empty() {
            vec![Opening::empty()]
        } else {
            self.openings.clone()
        }
    }

    pub fn full_schedule(&self) -> Vec<Scheduled> {
        let order = openings::order(self.opening_list().len(), self.seed);
        schedule(&self.pairings(), self.games_per_pair, &order)
    }

    /// The games this run plays (all, or its shard's).
    pub fn my_schedule(&self) -> Vec<Scheduled> {
        let all = self.full_schedule();
        match self.shard {
            Some(s) => all.into_iter().filter(|g| s.takes(g)).collect(),
            None => all,
        }
    }

    pub fn settings(&self) -> Settings {
        Settings {
            engines: self.engines.clone(),
            format: self.format,
            games_per_pair: self.games_per_pair,
            scheduled: self.full_schedule().len(),
            seed: self.seed,
            rule: self.game.rules.bits(),
            width: self.game.width,
            height: self.game.height,
            turn_ms: self.game.turn_ms,
            match_ms: self.game.match_ms,
            tolerance_ms: self.game.tolerance_ms,
            memory: self.game.memory,
            openings: self.openings.len(),
            anchor: self.engines[self.fit.anchor].name.clone(),
            anchor_elo: self.fit.anchor_elo,
            prior: self.fit.prior,
        }
    }

    fn check(&self) -> Result<(), String> {
        if self.engines.len() < 2 {
            return Err("a tournament needs at least two engines".into());
        }
        for (i, e) in self.engines.iter().enumerate() {
            if self.engines[..i].iter().any(|o| o.name == e.name) {
                return Err(format!("two engines are named {:?}", e.name));
            }
        }
        if self.fit.anchor >= self.engines.len() {
            return Err("the anchor is not an engine of the tournament".into());
        }
        for o in &self.openings {
            let mut r = Referee::new(self.game.width, self.game.height, self.game.rules)?;
            r.place_opening(&o.stones)
                .map_err(|e| format!("opening on line {}: {e}", o.line))?;
        }
        Ok(())
    }
}

/// "1:02:03" or "2:03".
pub fn clock(secs: f64) -> String {
    let s = secs.max(0.0).round() as u64;
    if s >= 3600 {
        format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
    } else {
        format!("{}:{:02}", s / 60, s % 60)
    }
}

/// The stderr progress line after a game: games done of total, time used
/// and estimated time left, and the standings by points.
pub fn progress_line(table: &Table, total: usize, elapsed_s: f64) -> String {
    let done = table.games.len();
    let eta = if done > 0 && total > done {
        clock(elapsed_s / done as f64 * (total - done) as f64)
    } else {
        clock(0.0)
    };
    let pct = 100.0 * done as f64 / total.max(1) as f64;
    let mut idx: Vec<usize> = (0..table.names.len()).collect();
    let pts: Vec<(f64, u64)> = (0..table.names.len()).map(|i| table.points(i)).collect();
    idx.sort_by(|&x, &y| {
        let fx = pts[x].0 / pts[x].1.max(1) as f64;
        let fy = pts[y].0 / pts[y].1.max(1) as f64;
        fy.partial_cmp(&fx)
            .unwrap_or(std::cmp::Ordering::Equal)
            .then(x.cmp(&y))
    });
    let standings: Vec<String> = idx
        .iter()
        .map(|&i| format!("{} {}/{}", table.names[i], pts[i].0, pts[i].1))
        .collect();
    format!(
        "[{done}/{total} {pct:.0}% {} elapsed, {} left] {}",
        clock(elapsed_s),
        eta,
        standings.join(", ")
    )
}

/// Play the tournament (or this run's shard of it): a result line per game
/// on stdout and a progress line on stderr, then the crosstable and
/// ratings on stdout and the files asked for.
pub fn run(cfg: &TournamentConfig) -> Result<Table, String> {
    cfg.check()?;
    if cfg.stop_width.is_some() && cfg.shard.is_some() {
        return Err("--stop-width needs the whole tournament: it cannot go with --shard".into());
    }
    let openings = cfg.opening_list();
    let mine = cfg.my_schedule();
    let total = mine.len();
    let settings = cfg.settings();
    let names: Vec<String> = cfg.engines.iter().map(|e| e.name.clone()).collect();
    let info: Vec<Vec<String>> = cfg.engines.iter().map(|e| e.info_lines()).collect();
    let mut records = report::open_records(cfg.records.as_deref())?;

    // As in the two-engine runner: the main thread hands out one game at a
    // time, so nothing new starts once the stop rule fires.
    let mut pool = {
        let (mine, openings, info) = (mine.clone(), openings.clone(), info.clone());
        let cfg = cfg.clone();
        Pool::start("tour", cfg.concurrency, total, move |k, dir: &Path| {
            let s = mine[k];
            let opening = &openings[s.opening];
            let (ea, eb) = (&cfg.engines[s.a], &cfg.engines[s.b]);
            let a = (ea.command.as_str(), ea.name.as_str());
            let b = (eb.command.as_str(), eb.name.as_str());
            let (players, inf) = if s.a_black {
                (
                    Players { black: a, white: b },
                    [&info[s.a][..], &info[s.b][..]],
                )
            } else {
                (
                    Players { black: b, white: a },
                    [&info[s.b][..], &info[s.a][..]],
                )
            };
            let mut gcfg = cfg.game.clone();
            if gcfg.folder.is_none() {
                let _ = fs::create_dir_all(dir);
                gcfg.folder = Some(dir.display().to_string());
            }
            let outcome = game::play_with_info(&gcfg, &players, opening, inf);
            Played {
                a: s.a,
                b: s.b,
                pair: s.pair,
                report: GameReport {
                    game: s.game,
                    opening_line: opening.line,
                    opening_text: opening.text(),
                    engine1_black: s.a_black,
                    outcome,
                },
            }
        })?
    };
    let start = Instant::now();
    let mut table = Table::new(names.clone(), cfg.pairings());
    let mut stopped: Option<String> = None;
    let stdout = std::io::stdout();
    let stderr = std::io::stderr();
    let whole = settings.scheduled;
    while let Some(p) = pool.result() {
        let pair_names = [names[p.a].as_str(), names[p.b].as_str()];
        let line = p.report.line(pair_names, Some(whole));
        if let (Some(f), Some(dir)) = (records.as_mut(), &cfg.records) {
            let _ = writeln!(f, "{}", p.report.record_line(pair_names));
            let _ = f.flush();
            let psq = p.report.psq(pair_names, cfg.game.width, cfg.game.height);
            let _ = fs::write(dir.join(tourreport::psq_name(p.report.game)), psq);
        }
        table.add(p);
        if let (Some(w), None) = (cfg.stop_width, &stopped) {
            let r = table.ratings(&cfg.fit);
            let widest = (0..names.len())
                .filter(|&i| i != cfg.fit.anchor)
                .map(|i| 2.0 * r.elo_95[i])
                .fold(0.0, f64::max);
            // At least one full pair of every pairing first.
            let min_games = 2 * cfg.pairings().len();
            if table.games.len() >= min_games && widest < w {
                stopped = Some(format!(
                    "stopped: every 95 % interval is narrower than {w} Elo (widest {widest:.1})"
                ));
            }
        }
        if stopped.is_none() {
            pool.feed();
        }
        {
            let mut out = stdout.lock();
            let _ = writeln!(out, "{line}");
            let _ = out.flush();
        }
        {
            let mut err = stderr.lock();
            let shown_total = if stopped.is_some() {
                pool.sent()
            } else {
                total
            };
            let _ = writeln!(
                err,
                "{}",
                progress_line(&table, shown_total, start.elapsed().as_secs_f64())
            );
        }
    }
    pool.finish();
    table.sort();
    if let (Some(f), Some(dir)) = (records.take(), &cfg.records) {
        // Rewritten in schedule order, as a merge of shards writes it.
        drop(f);
        tourreport::write_records(dir, &table, &settings, false)?;
    }
    let mut text = tourreport::summary(&table, &settings, cfg.shard, &cfg.fit);
    if let Some(s) = &stopped {
        text.push_str(s);
        text.push('\n');
    }
    print!("{text}");
    let _ = std::io::stdout().flush();
    eprintln!(
        "tournament: {} games in {}",
        table.games.len(),
        clock(start.elapsed().as_secs_f64())
    );
    write_outputs(
        &table,
        &settings,
        cfg.shard,
        &cfg.fit,
        cfg.json.as_deref(),
        cfg.html.as_deref(),
    )?;
    Ok(table)
}

/// Write the JSON and the HTML report, where asked.
pub fn write_outputs(
    table: &Table,
    settings: &Settings,
    shard: Option<Shard>,
    fit: &FitConfig,
    json_path: Option<&Path>,
    html_path: Option<&Path>,
) -> Result<(), String> {
    if let Some(path) = json_path {
        fs::write(path, tourreport::json(table, settings, shard, fit))
            .map_err(|e| format!("{}: {e}", path.display()))?;
    }
    if let Some(path) = html_path {
        fs::write(path, html::report(table, settings, shard, fit))
            .map_err(|e| format!("{}: {e}", path.display()))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clock_format() {
        assert_eq!(clock(5.2), "0:05");
        assert_eq!(clock(3723.0), "1:02:03");
    }
}
