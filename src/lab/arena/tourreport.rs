//! What a tournament writes and reads back: the table of played games with
//! its crosstable, points, terminations and ratings; the text summary; the
//! `--json` file, which carries every game (engines, colours, opening,
//! result, termination, moves, times) so that shards can be merged
//! (`tourmerge`); and the records (games.txt and a PSQ file per game).

use std::fmt::Write as _;
use std::fs;
use std::path::Path;

use super::clock::ClockUse;
use super::json::{self, quote, Value};
use super::ratings::{self, FitConfig, Outcome, Ratings};
use super::referee::Termination;
use super::report::{GameReport, Terminations};
use super::schedule::{EngineSpec, Format, Shard};
use crate::brain::types::Color;

/// One played game of a tournament.
#[derive(Clone, Debug)]
pub struct Played {
    /// The pairing's first and second engine (indices into the engines).
    pub a: usize,
    pub b: usize,
    /// Its colour-swapped pair's number in the schedule.
    pub pair: usize,
    /// The game, with `engine1_black` meaning "a plays Black".
    pub report: GameReport,
}

impl Played {
    /// The engines playing Black and White.
    pub fn colours(&self) -> (usize, usize) {
        if self.report.engine1_black {
            (self.a, self.b)
        } else {
            (self.b, self.a)
        }
    }

    /// The winner's and loser's engine, or None for a draw.
    pub fn winner_loser(&self) -> Option<(usize, usize)> {
        let (black, white) = self.colours();
        match self.report.outcome.winner {
            Some(Color::Black) => Some((black, white)),
            Some(Color::White) => Some((white, black)),
            None => None,
        }
    }
}

/// Counts of how an engine's games ended, in `Termination::ALL` order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EngineTerms {
    /// Games it won, by how they ended (timeout = the opponent's).
    pub won: [u64; 7],
    pub lost: [u64; 7],
    pub drawn: u64,
}

/// Time, moves and memory of one engine over the games.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EngineUse {
    pub moves: u64,
    pub time_ms: u64,
    pub longest_ms: u64,
    pub peak_memory: u64,
}

/// The engines, the pairings that meet, and the games played so far.
#[derive(Clone, Debug)]
pub struct Table {
    pub names: Vec<String>,
    pub pairings: Vec<(usize, usize)>,
    pub games: Vec<Played>,
}

fn term_index(t: Termination) -> usize {
    Termination::ALL.iter().position(|&x| x == t).unwrap_or(6)
}

impl Table {
    pub fn new(names: Vec<String>, pairings: Vec<(usize, usize)>) -> Table {
        Table {
            names,
            pairings,
            games: Vec::new(),
        }
    }

    pub fn add(&mut self, p: Played) {
        self.games.push(p);
    }

    /// Games in schedule order.
    pub fn sort(&mut self) {
        self.games.sort_by_key(|p| p.report.game);
    }

    /// Points and games of engine `i`.
    pub fn points(&self, i: usize) -> (f64, u64) {
        let mut pts = 0.0;
        let mut n = 0;
        for p in &self.games {
            if p.a == i {
                pts += p.report.score1();
                n += 1;
            } else if p.b == i {
                pts += 1.0 - p.report.score1();
                n += 1;
            }
        }
        (pts, n)
    }

    /// Wins, draws and losses of `i` against `j`.
    pub fn wdl(&self, i: usize, j: usize) -> (u64, u64, u64) {
        let (mut w, mut d, mut l) = (0, 0, 0);
        for p in &self.games {
            let s = if (p.a, p.b) == (i, j) {
                p.report.score1()
            } else if (p.a, p.b) == (j, i) {
                1.0 - p.report.score1()
            } else {
                continue;
            };
            if s > 0.75 {
                w += 1;
            } else if s < 0.25 {
                l += 1;
            } else {
                d += 1;
            }
        }
        (w, d, l)
    }

    pub fn outcomes(&self) -> Vec<Outcome> {
        self.games
            .iter()
            .map(|p| Outcome {
                a: p.a,
                b: p.b,
                score_a: p.report.score1(),
            })
            .collect()
    }

    pub fn ratings(&self, fit: &FitConfig) -> Ratings {
        ratings::fit(self.names.len(), &self.outcomes(), &self.pairings, fit)
    }

    pub fn terminations(&self) -> Terminations {
        let mut t = Terminations::default();
        for p in &self.games {
            t.add(p.report.outcome.termination);
        }
        t
    }

    pub fn engine_terms(&self, i: usize) -> EngineTerms {
        let mut t = EngineTerms::default();
        for p in self.games.iter().filter(|p| p.a == i || p.b == i) {
            let k = term_index(p.report.outcome.termination);
            match p.winner_loser() {
                Some((w, _)) if w == i => t.won[k] += 1,
                Some(_) => t.lost[k] += 1,
                None => t.drawn += 1,
            }
        }
        t
    }

    /// Where engine `i`'s time went under a `match_ms` game clock.
    pub fn engine_clock(&self, i: usize, match_ms: u64) -> ClockUse {
        let mut c = ClockUse::default();
        for p in &self.games {
            let (black, white) = p.colours();
            for (colour, engine) in [(Color::Black, black), (Color::White, white)] {
                if engine == i {
                    c.add(&p.report.outcome, colour, match_ms);
                }
            }
        }
        c
    }

    pub fn engine_use(&self, i: usize) -> EngineUse {
        let mut u = EngineUse::default();
        for p in &self.games {
            let (black, white) = p.colours();
            let o = &p.report.outcome;
            for (colour, engine) in [(Color::Black, black), (Color::White, white)] {
                if engine != i {
                    continue;
                }
                u.time_ms += o.time_ms[colour.index()];
                u.peak_memory = u.peak_memory.max(o.memory[colour.index()]);
                // Stone k (0-based) is Black's when k is even.
                for k in (o.opening_len..o.moves.len())
                    .filter(|k| (k % 2 == 0) == (colour == Color::Black))
                {
                    u.moves += 1;
                    u.longest_ms = u.longest_ms.max(o.move_ms.get(k).copied().unwrap_or(0));
                }
            }
        }
        u
    }
}

/// Everything that fixes a tournament's schedule and conditions; the
/// shards of one tournament have equal settings.
#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    pub engines: Vec<EngineSpec>,
    pub format: Format,
    pub games_per_pair: usize,
    /// Games in the whole schedule (all shards).
    pub scheduled: usize,
    pub seed: Option<u64>,
    pub rule: u32,
    pub width: usize,
    pub height: usize,
    pub turn_ms: u64,
    pub match_ms: u64,
    pub tolerance_ms: u64,
    pub memory: u64,
    /// Openings in the suite (0 = empty board).
    pub openings: usize,
    pub anchor: String,
    pub anchor_elo: f64,
    pub prior: f64,
}

impl Settings {
    pub fn names(&self) -> Vec<String> {
        self.engines.iter().map(|e| e.name.clone()).collect()
    }

    /// The rating fit these settings ask for.
    pub fn fit(&self) -> Result<FitConfig, String> {
        let anchor = self
            .engines
            .iter()
            .position(|e| e.name == self.anchor)
            .ok_or_else(|| format!("anchor {:?} is not an engine", self.anchor))?;
        Ok(FitConfig {
            anchor,
            anchor_elo: self.anchor_elo,
            prior: self.prior,
        })
    }

    fn to_json(&self) -> String {
        let engines: Vec<String> = self
            .engines
            .iter()
            .map(|e| {
                let opts: Vec<String> = e
                    .options
                    .iter()
                    .map(|(k, v)| format!("[{}, {}]", quote(k), quote(v)))
                    .collect();
                format!(
                    "{{\"name\": {}, \"command\": {}, \"options\": [{}]}}",
                    quote(&e.name),
                    quote(&e.command),
                    opts.join(", ")
                )
            })
            .collect();
        let seed = match self.seed {
            None => "null".to_string(),
            // Beyond 2^53 a JSON number loses digits: write a string.
            Some(s) if s >= 1 << 53 => quote(&s.to_string()),
            Some(s) => s.to_string(),
        };
        format!(
            "{{\"format\": {}, \"engines\": [{}], \"games_per_pair\": {}, \"scheduled\": {}, \
             \"seed\": {seed}, \"rule\": {}, \"width\": {}, \"height\": {}, \"turn_ms\": {}, \
             \"match_ms\": {}, \"tolerance_ms\": {}, \"memory\": {}, \"openings\": {}, \
             \"anchor\": {}, \"anchor_elo\": {}, \"prior\": {}}}",
            quote(self.format.name()),
            engines.join(", "),
            self.games_per_pair,
            self.scheduled,
            self.rule,
            self.width,
            self.height,
            self.turn_ms,
            self.match_ms,
            self.tolerance_ms,
            self.memory,
            self.openings,
            quote(&self.anchor),
            self.anchor_elo,
            self.prior
        )
    }

    pub(super) fn from_json(v: &Value) -> Result<Settings, String> {
        let mut engines = Vec::new();
        for e in v.arr_field("engines")? {
            let mut options = Vec::new();
            for o in e.arr_field("options")? {
                match o.as_arr() {
                    Some([Value::Str(k), Value::Str(v)]) => options.push((k.clone(), v.clone())),
                    _ => return Err("an engine option is not [key, value]".into()),
                }
            }
            engines.push(EngineSpec {
                name: e.str_field("name")?.to_string(),
                command: e.str_field("command")?.to_string(),
                options,
            });
        }
        let format = Format::parse(v.str_field("format")?).ok_or("unknown \"format\"")?;
        let seed = match v.field("seed")? {
            Value::Null => None,
            Value::Str(s) => Some(s.parse().map_err(|_| "bad \"seed\"")?),
            n => Some(n.as_u64().ok_or("bad \"seed\"")?),
        };
        let num = |k: &str| -> Result<f64, String> {
            v.field(k)?
                .as_f64()
                .ok_or_else(|| format!("\"{k}\" is not a number"))
        };
        Ok(Settings {
            engines,
            format,
            games_per_pair: v.u64_field("games_per_pair")? as usize,
            scheduled: v.u64_field("scheduled")? as usize,
            seed,
            rule: v.u64_field("rule")? as u32,
            width: v.u64_field("width")? as usize,
            height: v.u64_field("height")? as usize,
            turn_ms: v.u64_field("turn_ms")?,
            match_ms: v.u64_field("match_ms")?,
            tolerance_ms: v.u64_field("tolerance_ms")?,
            memory: v.u64_field("memory")?,
            openings: v.u64_field("openings")? as usize,
            anchor: v.str_field("anchor")?.to_string(),
            anchor_elo: num("anchor_elo")?,
            prior: num("prior")?,
        })
    }
}

/// The PSQ file name of 0-based game `game`.
pub fn psq_name(game: usize) -> String {
    format!("game-{:05}.psq", game + 1)
}

/// games.txt in schedule order, and (with `psq`) a PSQ file per game.
pub fn write_records(
    dir: &Path,
    table: &Table,
    settings: &Settings,
    psq: bool,
) -> Result<(), String> {
    fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let mut lines = String::new();
    for p in &table.games {
        let names = [table.names[p.a].as_str(), table.names[p.b].as_str()];
        let _ = writeln!(lines, "{}", p.report.record_line(names));
        if psq {
            let text = p.report.psq(names, settings.width, settings.height);
            let f = dir.join(psq_name(p.report.game));
            fs::write(&f, text).map_err(|e| format!("{}: {e}", f.display()))?;
        }
    }
    let f = dir.join("games.txt");
    fs::write(&f, lines).map_err(|e| format!("{}: {e}", f.display()))
}

fn pct(x: f64) -> String {
    if x.is_finite() {
        format!("{:.1} %", 100.0 * x)
    } else {
        "-".into()
    }
}

fn half(x: f64) -> String {
    // 3.5, 4 — points without a trailing ".0".
    if x.fract() == 0.0 {
        format!("{x:.0}")
    } else {
        format!("{x:.1}")
    }
}

/// "five 3, timeout 1" for the non-zero counts.
fn term_list(counts: &[u64; 7]) -> String {
    let parts: Vec<String> = Termination::ALL
        .iter()
        .zip(counts)
        .filter(|(_, &n)| n > 0)
        .map(|(t, n)| format!("{} {n}", t.name()))
        .collect();
    if parts.is_empty() {
        String::new()
    } else {
        format!(" ({})", parts.join(", "))
    }
}

/// The text summary: crosstable, pairings, ratings with intervals and LOS,
/// terminations and engine use.
pub fn summary(
    table: &Table,
    settings: &Settings,
    shard: Option<Shard>,
    fit: &FitConfig,
) -> String {
    let n = table.names.len();
    let mut s = String::new();
    let shard_text = shard
        .map(|sh| format!(", shard {}", sh.text()))
        .unwrap_or_default();
    let _ = writeln!(
        s,
        "=== {} of {n} engines: {} of {} games{shard_text} ===",
        settings.format.name(),
        table.games.len(),
        settings.scheduled
    );
    let r = table.ratings(fit);
    let order = r.order();
    let w = table
        .names
        .iter()
        .map(|x| x.len())
        .max()
        .unwrap_or(4)
        .max(4);
    let cell = 9;
    let _ = writeln!(
        s,
        "crosstable (points of the row's engine against the column's / games):"
    );
    let mut head = format!("{:>3}  {:<w$}", "", "");
    for k in 0..order.len() {
        let _ = write!(head, " {:>cell$}", k + 1);
    }
    let _ = writeln!(s, "{head}    points");
    for (rank, &i) in order.iter().enumerate() {
        let mut line = format!("{:>3}  {:<w$}", rank + 1, table.names[i]);
        for &j in &order {
            let met = table
                .pairings
                .iter()
                .any(|&(a, b)| (a, b) == (i, j) || (a, b) == (j, i));
            let c = if i == j {
                "x".to_string()
            } else if !met {
                "".to_string()
            } else {
                let (ww, d, l) = table.wdl(i, j);
                format!("{}/{}", half(ww as f64 + 0.5 * d as f64), ww + d + l)
            };
            let _ = write!(line, " {c:>cell$}");
        }
        let (p, g) = table.points(i);
        let _ = writeln!(s, "{line}    {}/{g}", half(p));
    }
    let _ = writeln!(s, "pairings (first engine's wins-draws-losses):");
    for &(a, b) in &table.pairings {
        let (ww, d, l) = table.wdl(a, b);
        let g = ww + d + l;
        let sc = ww as f64 + 0.5 * d as f64;
        let _ = writeln!(
            s,
            "  {:<w$} - {:<w$}  {g} games  {ww}-{d}-{l}  {}/{g} ({})",
            table.names[a],
            table.names[b],
            half(sc),
            pct(sc / g.max(1) as f64)
        );
    }
    let prior = if fit.prior > 0.0 {
        format!(", {} virtual draw(s) per pairing", fit.prior)
    } else {
        String::new()
    };
    let _ = writeln!(
        s,
        "ratings (Bradley-Terry fit of all games, {} = {}{prior}; 95 % intervals; LOS over the next):",
        table.names[fit.anchor], fit.anchor_elo
    );
    let _ = writeln!(
        s,
        "{:>4}  {:<w$}  {:>8}  {:>7}  {:>9}  {:>8}",
        "rank", "name", "elo", "+/-95%", "points", "LOS"
    );
    for (rank, &i) in order.iter().enumerate() {
        let (p, g) = table.points(i);
        let los = order
            .get(rank + 1)
            .map(|&j| pct(r.los(i, j)))
            .unwrap_or_default();
        let line = format!(
            "{:>4}  {:<w$}  {:>8.1}  {:>7.1}  {:>9}  {:>8}",
            rank + 1,
            table.names[i],
            r.elo[i],
            r.elo_95[i],
            format!("{}/{g}", half(p)),
            los
        );
        let _ = writeln!(s, "{}", line.trim_end());
    }
    let t = table.terminations();
    let parts: Vec<String> = Termination::ALL
        .iter()
        .map(|&x| format!("{} {}", x.name(), t.get(x)))
        .collect();
    let _ = writeln!(s, "terminations: {}", parts.join(", "));
    for (i, name) in table.names.iter().enumerate() {
        let et = table.engine_terms(i);
        let u = table.engine_use(i);
        let _ = writeln!(
            s,
            "{name}: won {}{}, lost {}{}, drawn {}; {} moves, {:.1} ms per move, longest {} ms, peak memory {:.1} MB",
            et.won.iter().sum::<u64>(),
            term_list(&et.won),
            et.lost.iter().sum::<u64>(),
            term_list(&et.lost),
            et.drawn,
            u.moves,
            u.time_ms as f64 / u.moves.max(1) as f64,
            u.longest_ms,
            u.peak_memory as f64 / 1048576.0
        );
        if settings.match_ms > 0 {
            s.push_str(&table.engine_clock(i, settings.match_ms).line(name));
        }
    }
    s
}

fn counts_json(counts: &[u64; 7]) -> String {
    let parts: Vec<String> = Termination::ALL
        .iter()
        .zip(counts)
        .map(|(t, n)| format!("\"{}\": {n}", t.name()))
        .collect();
    format!("{{{}}}", parts.join(", "))
}

fn game_json(p: &Played, names: &[String]) -> String {
    let (black, white) = p.colours();
    let o = &p.report.outcome;
    let moves: Vec<String> = o.moves.iter().map(|(x, y)| format!("{x},{y}")).collect();
    let ms: Vec<String> = o.move_ms.iter().map(|m| m.to_string()).collect();
    format!(
        "{{\"game\": {}, \"pair\": {}, \"a\": {}, \"b\": {}, \"black\": {}, \"white\": {}, \
         \"opening_line\": {}, \"opening\": {}, \"result\": {}, \"termination\": {}, \
         \"detail\": {}, \"opening_len\": {}, \"moves\": {}, \"move_ms\": [{}], \
         \"time_ms\": [{}, {}], \"memory\": [{}, {}]}}",
        p.report.game + 1,
        p.pair,
        quote(&names[p.a]),
        quote(&names[p.b]),
        quote(&names[black]),
        quote(&names[white]),
        p.report.opening_line,
        quote(&p.report.opening_text),
        quote(p.report.result_text()),
        quote(o.termination.name()),
        quote(&o.detail),
        o.opening_len,
        quote(&moves.join(" ")),
        ms.join(", "),
        o.time_ms[0],
        o.time_ms[1],
        o.memory[0],
        o.memory[1]
    )
}

/// The `--json` object: the contract keys (`engines`, `games`,
/// `crosstable`, `ratings`, `terminations`) and what a merge or a report
/// needs (`settings`, `shard`, `pairings`, `engine_terminations`,
/// `games_list`).
pub fn json(table: &Table, settings: &Settings, shard: Option<Shard>, fit: &FitConfig) -> String {
    let names = &table.names;
    let r = table.ratings(fit);
    let order = r.order();
    let mut s = String::from("{\n");
    let list: Vec<String> = names.iter().map(|n| quote(n)).collect();
    let _ = writeln!(s, "\"engines\": [{}],", list.join(", "));
    let _ = writeln!(s, "\"format\": {},", quote(settings.format.name()));
    let _ = writeln!(s, "\"games\": {},", table.games.len());
    let _ = writeln!(s, "\"scheduled\": {},", settings.scheduled);
    let _ = writeln!(
        s,
        "\"shard\": {},",
        shard.map(|sh| quote(&sh.text())).unwrap_or("null".into())
    );
    let _ = writeln!(s, "\"settings\": {},", settings.to_json());
    if settings.match_ms > 0 {
        let clocks: Vec<String> = (0..names.len())
            .map(|i| {
                let c = table.engine_clock(i, settings.match_ms);
                format!("{}: {}", quote(&names[i]), c.json())
            })
            .collect();
        let _ = writeln!(s, "\"clock\": {{{}}},", clocks.join(",\n  "));
    }
    // crosstable: A → B → A's points against B, for the engines that meet.
    let rows: Vec<String> = (0..names.len())
        .map(|i| {
            let cells: Vec<String> = (0..names.len())
                .filter(|&j| {
                    table
                        .pairings
                        .iter()
                        .any(|&(a, b)| (a, b) == (i, j) || (a, b) == (j, i))
                })
                .map(|j| {
                    let (w, d, _) = table.wdl(i, j);
                    format!("{}: {}", quote(&names[j]), w as f64 + 0.5 * d as f64)
                })
                .collect();
            format!("{}: {{{}}}", quote(&names[i]), cells.join(", "))
        })
        .collect();
    let _ = writeln!(s, "\"crosstable\": {{{}}},", rows.join(", "));
    let pairs: Vec<String> = table
        .pairings
        .iter()
        .map(|&(a, b)| {
            let (w, d, l) = table.wdl(a, b);
            format!(
                "{{\"a\": {}, \"b\": {}, \"games\": {}, \"wins\": {w}, \"draws\": {d}, \"losses\": {l}, \"score\": {}}}",
                quote(&names[a]),
                quote(&names[b]),
                w + d + l,
                w as f64 + 0.5 * d as f64
            )
        })
        .collect();
    let _ = writeln!(s, "\"pairings\": [{}],", pairs.join(", "));
    let rat: Vec<String> = order
        .iter()
        .enumerate()
        .map(|(rank, &i)| {
            let (p, g) = table.points(i);
            let los = order
                .get(rank + 1)
                .map(|&j| json::number(r.los(i, j), 4))
                .unwrap_or("null".into());
            format!(
                "{{\"rank\": {}, \"name\": {}, \"elo\": {}, \"elo_95\": {}, \"points\": {p}, \"games\": {g}, \"los_next\": {los}}}",
                rank + 1,
                quote(&names[i]),
                json::number(r.elo[i], 2),
                json::number(r.elo_95[i], 2),
            )
        })
        .collect();
    let _ = writeln!(s, "\"ratings\": [{}],", rat.join(",\n  "));
    let _ = writeln!(
        s,
        "\"rating_model\": {{\"model\": \"bradley-terry\", \"anchor\": {}, \"anchor_elo\": {}, \"prior_draws_per_pairing\": {}, \"interval\": \"95% from the observed Fisher information\"}},",
        quote(&names[fit.anchor]),
        fit.anchor_elo,
        fit.prior
    );
    let _ = writeln!(
        s,
        "\"terminations\": {},",
        counts_json(&table.terminations().0)
    );
    let et: Vec<String> = (0..names.len())
        .map(|i| {
            let t = table.engine_terms(i);
            format!(
                "{}: {{\"won\": {}, \"lost\": {}, \"drawn\": {}}}",
                quote(&names[i]),
                counts_json(&t.won),
                counts_json(&t.lost),
                t.drawn
            )
        })
        .collect();
    let _ = writeln!(s, "\"engine_terminations\": {{{}}},", et.join(", "));
    let games: Vec<String> = table.games.iter().map(|p| game_json(p, names)).collect();
    let _ = writeln!(s, "\"games_list\": [\n  {}\n]", games.join(",\n  "));
    s.push_str("}\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lab::arena::game::GameOutcome;
    use crate::lab::arena::tourmerge::{load, merge};

    fn settings() -> Settings {
        Settings {
            engines: vec![
                EngineSpec {
                    name: "a <x>".into(),
                    command: "prog --x \"y\"".into(),
                    options: vec![("thread_num".into(), "1".into())],
                },
                EngineSpec {
                    name: "b".into(),
                    command: "b".into(),
                    options: vec![],
                },
                EngineSpec {
                    name: "c".into(),
                    command: "c".into(),
                    options: vec![],
                },
            ],
            format: Format::RoundRobin,
            games_per_pair: 2,
            scheduled: 6,
            seed: Some(u64::MAX),
            rule: 4,
            width: 15,
            height: 15,
            turn_ms: 100,
            match_ms: 0,
            tolerance_ms: 1000,
            memory: 350 << 20,
            openings: 2,
            anchor: "b".into(),
            anchor_elo: 1500.0,
            prior: 1.0,
        }
    }

    fn played(game: usize, a: usize, b: usize, a_black: bool, winner: Option<Color>) -> Played {
        Played {
            a,
            b,
            pair: game / 2,
            report: GameReport {
                game,
                opening_line: 3,
                opening_text: "7,7 8,8".into(),
                engine1_black: a_black,
                outcome: GameOutcome {
                    winner,
                    termination: if winner.is_some() {
                        Termination::Timeout
                    } else {
                        Termination::Draw
                    },
                    detail: "x \"q\"\tz".into(),
                    moves: vec![(7, 7), (8, 8), (0, 0), (14, 14)],
                    move_ms: vec![0, 0, 5, 7],
                    opening_len: 2,
                    time_ms: [5, 7],
                    memory: [1 << 20, 2 << 20],
                },
            },
        }
    }

    fn table() -> Table {
        let mut t = Table::new(
            settings().names(),
            crate::lab::arena::schedule::pairings(3, Format::RoundRobin),
        );
        t.add(played(0, 0, 1, true, Some(Color::Black)));
        t.add(played(1, 0, 1, false, Some(Color::Black)));
        t.add(played(2, 0, 2, true, None));
        t.add(played(3, 0, 2, false, Some(Color::White)));
        t.add(played(4, 1, 2, true, Some(Color::White)));
        t
    }

    #[test]
    fn crosstable_points_and_terminations() {
        let t = table();
        assert_eq!(t.wdl(0, 1), (1, 0, 1));
        assert_eq!(t.wdl(0, 2), (1, 1, 0));
        assert_eq!(t.wdl(2, 0), (0, 1, 1));
        assert_eq!(t.wdl(2, 1), (1, 0, 0));
        assert_eq!(t.points(0), (2.5, 4));
        assert_eq!(t.points(2), (1.5, 3));
        let e = t.engine_terms(0);
        assert_eq!(e.won[1], 2);
        assert_eq!(e.lost[1], 1);
        assert_eq!(e.drawn, 1);
        // Engine 0 plays Black in games 0 and 2, White in 1 and 3: the
        // stones at indices 2 (Black) and 3 (White) are its in turn.
        let u = t.engine_use(0);
        assert_eq!(u.moves, 4);
        assert_eq!(u.time_ms, 5 + 7 + 5 + 7);
        assert_eq!(u.longest_ms, 7);
        let text = summary(&t, &settings(), None, &settings().fit().unwrap());
        assert!(text.contains("5 of 6 games"), "{text}");
        assert!(text.contains("timeout 4"), "{text}");
        assert!(!text.contains("clock left"), "no game clock: {text}");
    }

    /// Under a game clock the summary, the JSON and the HTML report say
    /// where each engine's time went; engine 0 used 24 ms of 1 s over 4
    /// games (5 or 7 ms a game).
    #[test]
    fn a_game_clock_reports_the_clock_left() {
        let t = table();
        let s = Settings {
            match_ms: 1_000,
            ..settings()
        };
        let c = t.engine_clock(0, s.match_ms);
        assert_eq!(c.left_ms.len(), 4);
        assert_eq!(c.left_ms.iter().sum::<u64>(), 4_000 - 24);
        assert_eq!(c.by_move[0], (24, 4));
        let fit = s.fit().unwrap();
        assert!(summary(&t, &s, None, &fit).contains("clock left at the end"));
        let v = json::parse(&json(&t, &s, None, &fit)).expect("valid JSON");
        let clock = v.field("clock").expect("a clock key");
        assert!(clock.get("a <x>").is_some());
        let html = super::super::html::report(&t, &s, None, &fit);
        assert!(html.contains("<h2>Clock</h2>"));
        assert!(!super::super::html::report(&t, &settings(), None, &fit).contains("<h2>Clock</h2>"));
    }

    #[test]
    fn json_round_trips_through_load_and_merge() {
        let t = table();
        let s = settings();
        let fit = s.fit().unwrap();
        let text = json(&t, &s, Some(Shard { index: 1, count: 2 }), &fit);
        let v = json::parse(&text).expect("valid JSON");
        assert_eq!(v.u64_field("games").unwrap(), 5);
        let cross = v.field("crosstable").unwrap();
        assert_eq!(
            cross
                .get("a <x>")
                .and_then(|r| r.get("c"))
                .and_then(|x| x.as_f64()),
            Some(1.5)
        );
        let ratings = v.arr_field("ratings").unwrap();
        assert_eq!(ratings.len(), 3);
        let anchor = ratings
            .iter()
            .find(|r| r.str_field("name").unwrap() == "b")
            .unwrap();
        assert_eq!(anchor.field("elo").unwrap().as_f64(), Some(1500.0));
        let l = load(&text).unwrap();
        assert_eq!(l.settings, s);
        assert_eq!(l.shard, Some(Shard { index: 1, count: 2 }));
        assert_eq!(l.games.len(), 5);
        for (x, y) in l.games.iter().zip(&t.games) {
            assert_eq!((x.a, x.b, x.pair), (y.a, y.b, y.pair));
            assert_eq!(game_json(x, &t.names), game_json(y, &t.names));
        }
        // Two halves merge back into the whole.
        let dir = std::env::temp_dir().join(format!("sente-tourreport-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let mut h1 = table();
        h1.games.retain(|p| p.pair % 2 == 0);
        let mut h2 = table();
        h2.games.retain(|p| p.pair % 2 == 1);
        let f1 = dir.join("1.json");
        let f2 = dir.join("2.json");
        fs::write(&f1, json(&h1, &s, Some(Shard { index: 1, count: 2 }), &fit)).unwrap();
        fs::write(&f2, json(&h2, &s, Some(Shard { index: 2, count: 2 }), &fit)).unwrap();
        let (m, ms, notes) = merge(&[f2.clone(), f1.clone()]).unwrap();
        assert_eq!(ms, s);
        assert_eq!(
            notes,
            vec!["incomplete: 5 of 6 scheduled games".to_string()]
        );
        assert_eq!(json(&m, &ms, None, &fit), json(&t, &s, None, &fit));
        assert!(
            merge(&[f1.clone(), f1.clone()]).is_err(),
            "same shard twice"
        );
        let mut other = s.clone();
        other.seed = Some(1);
        fs::write(
            &f2,
            json(&h2, &other, Some(Shard { index: 2, count: 2 }), &fit),
        )
        .unwrap();
        assert!(merge(&[f1, f2]).is_err(), "different settings");
        let _ = fs::remove_dir_all(&dir);
    }
}
