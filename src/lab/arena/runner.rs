//! The match runner: schedules colour-swapped pairs over the openings, plays
//! them on N worker threads, prints a result line per game as it finishes,
//! writes the records, keeps the tally (games and pairs), stops early when
//! the SPRT decides, and ends with the summary and the JSON file.

use std::collections::HashMap;
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use super::game::{self, GameConfig, Players};
use super::openings::{self, Opening};
use super::pool::Pool;
use super::referee::Referee;
use super::report::{self, EngineTotals, GameReport, Terminations};
use super::stats::{Sprt, SprtState, Tally};

/// A whole match.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    pub engines: [String; 2],
    pub names: [String; 2],
    pub game: GameConfig,
    pub openings: Vec<Opening>,
    /// Games to play; None = every opening twice per round (or, with an
    /// SPRT, until it decides).
    pub games: Option<usize>,
    pub rounds: usize,
    pub concurrency: usize,
    pub records: Option<PathBuf>,
    pub json: Option<PathBuf>,
    pub sprt: Option<Sprt>,
    /// Shuffle the opening order with this seed.
    pub seed: Option<u64>,
    /// Cap on games when an SPRT runs without `games`.
    pub sprt_max_games: usize,
}

/// What a finished match reports back.
#[derive(Clone, Debug)]
pub struct MatchResult {
    pub tally: Tally,
    pub terminations: Terminations,
    pub sprt: Option<SprtState>,
    pub reports: Vec<GameReport>,
}

impl MatchConfig {
    /// Games to schedule.
    pub fn total_games(&self) -> usize {
        match (self.games, self.sprt.is_some()) {
            (Some(g), _) => g,
            (None, true) => self.sprt_max_games,
            (None, false) => 2 * self.openings.len().max(1) * self.rounds.max(1),
        }
    }

    /// Check that every opening fits the board and leaves a game to play.
    pub fn check_openings(&self) -> Result<(), String> {
        for o in &self.openings {
            let mut r = Referee::new(self.game.width, self.game.height, self.game.rules)?;
            r.place_opening(&o.stones)
                .map_err(|e| format!("opening on line {}: {e}", o.line))?;
        }
        Ok(())
    }
}

/// Play the match, printing result lines and the summary on stdout.
pub fn run(cfg: &MatchConfig) -> Result<MatchResult, String> {
    cfg.check_openings()?;
    let openings: Vec<Opening> = if cfg.openings.is_empty() {
        vec![Opening::empty()]
    } else {
        cfg.openings.clone()
    };
    let order = openings::order(openings.len(), cfg.seed);
    let total = cfg.total_games();
    let mut records = report::open_records(cfg.records.as_deref())?;
    let names = [cfg.names[0].as_str(), cfg.names[1].as_str()];

    // The main thread hands out game numbers one at a time, after it has
    // counted the previous result, so no game starts once the SPRT decides.
    let mut pool = {
        let (order, openings, cfg) = (order.clone(), openings.clone(), cfg.clone());
        Pool::start("arena", cfg.concurrency, total, move |g, dir: &Path| {
            let slot = openings::slot(g, &order);
            let opening = &openings[slot.opening];
            let (e1, e2) = (
                (cfg.engines[0].as_str(), cfg.names[0].as_str()),
                (cfg.engines[1].as_str(), cfg.names[1].as_str()),
            );
            let players = if slot.engine1_black {
                Players {
                    black: e1,
                    white: e2,
                }
            } else {
                Players {
                    black: e2,
                    white: e1,
                }
            };
            let mut gcfg = cfg.game.clone();
            if gcfg.folder.is_none() {
                let _ = fs::create_dir_all(dir);
                gcfg.folder = Some(dir.display().to_string());
            }
            let outcome = game::play(&gcfg, &players, opening);
            GameReport {
                game: g,
                opening_line: opening.line,
                opening_text: opening.text(),
                engine1_black: slot.engine1_black,
                outcome,
            }
        })?
    };

    let mut tally = Tally::default();
    let mut terms = Terminations::default();
    let mut totals = EngineTotals {
        match_ms: cfg.game.match_ms,
        ..EngineTotals::default()
    };
    let mut reports: Vec<GameReport> = Vec::new();
    let mut half_pairs: HashMap<usize, f64> = HashMap::new();
    let mut decision = cfg.sprt.map(|_| SprtState::Continue);
    let stdout = std::io::stdout();
    let shown_total = (cfg.games.is_some() || cfg.sprt.is_none()).then_some(total);
    while let Some(rep) = pool.result() {
        let s1 = rep.score1();
        tally.add_game(s1);
        terms.add(rep.outcome.termination);
        totals.add(&rep);
        let pair = rep.game / 2;
        if let Some(other) = half_pairs.remove(&pair) {
            tally.add_pair(other + s1);
        } else {
            half_pairs.insert(pair, s1);
        }
        let mut line = rep.line(names, shown_total);
        if let Some(sprt) = &cfg.sprt {
            let st = sprt.state(&tally);
            line.push_str(&format!(" | llr {:.3}", sprt.llr(&tally)));
            if decision == Some(SprtState::Continue) && st != SprtState::Continue {
                decision = Some(st);
                line.push_str(&format!(" | SPRT: {}", st.text()));
            }
        }
        let decided = matches!(decision, Some(d) if d != SprtState::Continue);
        if !decided {
            pool.feed();
        }
        {
            let mut out = stdout.lock();
            let _ = writeln!(out, "{line}");
            let _ = out.flush();
        }
        if let (Some(f), Some(dir)) = (records.as_mut(), &cfg.records) {
            let _ = writeln!(f, "{}", rep.record_line(names));
            let _ = f.flush();
            let psq = rep.psq(names, cfg.game.width, cfg.game.height);
            let _ = fs::write(dir.join(format!("game-{:05}.psq", rep.game + 1)), psq);
        }
        reports.push(rep);
    }
    pool.finish();

    let sprt_line = cfg.sprt.as_ref().map(|s| {
        let st = match decision {
            Some(d) if d != SprtState::Continue => d,
            _ => s.state(&tally),
        };
        (s, st)
    });
    print!(
        "{}",
        report::summary(names, &tally, &terms, &totals, sprt_line)
    );
    if let Some(path) = &cfg.json {
        fs::write(path, report::json(&tally, &terms, &totals))
            .map_err(|e| format!("{}: {e}", path.display()))?;
    }
    reports.sort_by_key(|r| r.game);
    Ok(MatchResult {
        tally,
        terminations: terms,
        sprt: decision,
        reports,
    })
}
