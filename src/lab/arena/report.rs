//! What the arena writes: one result line per game, record files (a PSQ
//! file per game in Piskvork's layout, plus one line per game in
//! `games.txt`), the summary, and the `--json` object.

use std::fmt::Write as _;

use super::clock::ClockUse;
use super::game::GameOutcome;
use super::referee::Termination;
use super::stats::{Sprt, SprtState, Tally};
use crate::brain::types::Color;

/// The winner a `games.txt` result field names (`GameReport::result_text`):
/// `Some(None)` for a draw, `None` for text that is no result.
pub fn parse_result(text: &str) -> Option<Option<Color>> {
    match text {
        "1-0" => Some(Some(Color::Black)),
        "0-1" => Some(Some(Color::White)),
        "1/2-1/2" => Some(None),
        _ => None,
    }
}

/// One finished game as the match sees it.
#[derive(Clone, Debug)]
pub struct GameReport {
    pub game: usize,
    pub opening_line: usize,
    pub opening_text: String,
    pub engine1_black: bool,
    pub outcome: GameOutcome,
}

impl GameReport {
    /// Engine 1's points in this game.
    pub fn score1(&self) -> f64 {
        match self.outcome.winner {
            None => 0.5,
            Some(c) => {
                if (c == Color::Black) == self.engine1_black {
                    1.0
                } else {
                    0.0
                }
            }
        }
    }

    /// "1-0", "0-1" or "1/2-1/2", Black first.
    pub fn result_text(&self) -> &'static str {
        match self.outcome.winner {
            Some(Color::Black) => "1-0",
            Some(Color::White) => "0-1",
            None => "1/2-1/2",
        }
    }

    /// The per-game line printed on stdout.
    pub fn line(&self, names: [&str; 2], total: Option<usize>) -> String {
        let (b, w) = if self.engine1_black {
            (names[0], names[1])
        } else {
            (names[1], names[0])
        };
        let o = &self.outcome;
        let total = total.map(|t| format!("/{t}")).unwrap_or_default();
        let played = o.moves.len().saturating_sub(o.opening_len);
        format!(
            "game {}{total} opening {} [{}] black {b} white {w} result {} {} ({}) moves {played} time {}/{} ms memory {:.1}/{:.1} MB",
            self.game + 1,
            self.opening_line,
            self.opening_text,
            self.result_text(),
            o.termination,
            o.detail,
            o.time_ms[0],
            o.time_ms[1],
            o.memory[0] as f64 / 1048576.0,
            o.memory[1] as f64 / 1048576.0,
        )
    }

    /// The one-line record in `games.txt`: tab-separated fields, moves last.
    pub fn record_line(&self, names: [&str; 2]) -> String {
        let (b, w) = if self.engine1_black {
            (names[0], names[1])
        } else {
            (names[1], names[0])
        };
        let o = &self.outcome;
        let moves: Vec<String> = o.moves.iter().map(|(x, y)| format!("{x},{y}")).collect();
        format!(
            "{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}",
            self.game + 1,
            b,
            w,
            self.result_text(),
            o.termination,
            o.opening_len,
            o.detail.replace('\t', " "),
            moves.join(" ")
        )
    }

    /// A Piskvork PSQ record: header, one `x,y,ms` line per stone (1-based
    /// coordinates), then the two engines' names and the result.
    pub fn psq(&self, names: [&str; 2], width: usize, height: usize) -> String {
        let (b, w) = if self.engine1_black {
            (names[0], names[1])
        } else {
            (names[1], names[0])
        };
        let o = &self.outcome;
        let mut s = format!("Piskvorky {width}x{height}, 11:11, 0\n");
        for (i, (x, y)) in o.moves.iter().enumerate() {
            let ms = o.move_ms.get(i).copied().unwrap_or(0);
            let _ = writeln!(s, "{},{},{ms}", x + 1, y + 1);
        }
        let _ = writeln!(s, "{b}\n{w}");
        let _ = writeln!(
            s,
            "-1\n# result {} {} ({}) opening {} [{}]",
            self.result_text(),
            o.termination,
            o.detail,
            self.opening_line,
            self.opening_text
        );
        s
    }
}

/// Time, moves and memory per engine over a match (index 0 = engine 1).
#[derive(Clone, Debug, Default)]
pub struct EngineTotals {
    pub time_ms: [u64; 2],
    pub moves: [u64; 2],
    pub peak_memory: [u64; 2],
    /// Longest single move, as the referee timed it (request sent to answer read).
    pub longest_move_ms: [u64; 2],
    /// The game clock (ms, 0: none) and where each engine's time went.
    pub match_ms: u64,
    pub clock: [ClockUse; 2],
}

impl EngineTotals {
    pub fn add(&mut self, r: &GameReport) {
        let o = &r.outcome;
        for colour in [Color::Black, Color::White] {
            let engine = if (colour == Color::Black) == r.engine1_black {
                0
            } else {
                1
            };
            self.time_ms[engine] += o.time_ms[colour.index()];
            self.clock[engine].add(o, colour, self.match_ms);
            self.peak_memory[engine] = self.peak_memory[engine].max(o.memory[colour.index()]);
            // Stone k (0-based) is Black's when k is even.
            let own =
                (o.opening_len..o.moves.len()).filter(|k| (k % 2 == 0) == (colour == Color::Black));
            for k in own {
                self.moves[engine] += 1;
                let ms = o.move_ms.get(k).copied().unwrap_or(0);
                self.longest_move_ms[engine] = self.longest_move_ms[engine].max(ms);
            }
        }
    }

    /// One summary line per engine.
    pub fn lines(&self, names: [&str; 2]) -> String {
        let mut s = String::new();
        for (i, name) in names.iter().enumerate() {
            let avg = self.time_ms[i] as f64 / self.moves[i].max(1) as f64;
            let _ = writeln!(
                s,
                "{}: {} moves, {:.1} ms per move, longest {} ms, peak memory {:.1} MB",
                name,
                self.moves[i],
                avg,
                self.longest_move_ms[i],
                self.peak_memory[i] as f64 / 1048576.0
            );
            if self.match_ms > 0 {
                s.push_str(&self.clock[i].line(name));
            }
        }
        s
    }
}

/// Counts per termination, in `Termination::ALL` order.
#[derive(Clone, Debug, Default)]
pub struct Terminations(pub [u64; 7]);

impl Terminations {
    pub fn add(&mut self, t: Termination) {
        if let Some(i) = Termination::ALL.iter().position(|&x| x == t) {
            self.0[i] += 1;
        }
    }

    pub fn get(&self, t: Termination) -> u64 {
        Termination::ALL
            .iter()
            .position(|&x| x == t)
            .map(|i| self.0[i])
            .unwrap_or(0)
    }
}

fn json_number(v: f64) -> String {
    if v.is_finite() {
        format!("{:.2}", v)
    } else {
        "null".to_string()
    }
}

/// The `--json` object; wins and score are engine 1's. Under a game clock
/// (`totals.match_ms` > 0) a `clock` key follows: per engine, the clock left
/// at each game's end and the time by move number (`ClockUse::json`).
pub fn json(t: &Tally, terms: &Terminations, totals: &EngineTotals) -> String {
    let mut s = format!(
        "{{\"games\": {}, \"wins1\": {}, \"wins2\": {}, \"draws\": {}, \"score1\": {}, \"elo\": {}, \"elo_95\": {}, \"terminations\": {{",
        t.games(),
        t.wins,
        t.losses,
        t.draws,
        format_args!("{:.4}", t.score()),
        json_number(t.elo()),
        json_number(t.elo_95()),
    );
    let parts: Vec<String> = Termination::ALL
        .iter()
        .map(|&x| format!("\"{}\": {}", x.name(), terms.get(x)))
        .collect();
    s.push_str(&parts.join(", "));
    s.push('}');
    if totals.match_ms > 0 {
        let _ = write!(
            s,
            ", \"clock\": {{\"match_ms\": {}, \"engine1\": {}, \"engine2\": {}}}",
            totals.match_ms,
            totals.clock[0].json(),
            totals.clock[1].json()
        );
    }
    s.push_str("}\n");
    s
}

/// The summary printed at the end of a match.
pub fn summary(
    names: [&str; 2],
    t: &Tally,
    terms: &Terminations,
    totals: &EngineTotals,
    sprt: Option<(&Sprt, SprtState)>,
) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "=== {} vs {} ===", names[0], names[1]);
    s.push_str(&tally_lines(t));
    let parts: Vec<String> = Termination::ALL
        .iter()
        .map(|&x| format!("{} {}", x.name(), terms.get(x)))
        .collect();
    let _ = writeln!(s, "terminations: {}", parts.join(", "));
    s.push_str(&totals.lines(names));
    if let Some((sprt, state)) = sprt {
        s.push_str(&sprt_line(sprt, t, state));
    }
    s
}

/// The summary's lines on the result: games, W/D/L and score; Elo ± 95 %
/// and LOS; the pairs, when there are any.
pub fn tally_lines(t: &Tally) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "games {}  W/D/L {}/{}/{}  score {:.1}/{} ({:.1}%)",
        t.games(),
        t.wins,
        t.draws,
        t.losses,
        t.wins as f64 + 0.5 * t.draws as f64,
        t.games(),
        100.0 * t.score()
    );
    let _ = writeln!(
        s,
        "elo {:+.1} +/- {:.1} (95%)  LOS {:.1}%",
        t.elo(),
        t.elo_95(),
        100.0 * t.los()
    );
    if t.pairs() > 0 {
        let p = t.penta;
        let _ = writeln!(
            s,
            "pairs {} (0, 1/2, 1, 3/2, 2 points): {} {} {} {} {}",
            t.pairs(),
            p[0],
            p[1],
            p[2],
            p[3],
            p[4]
        );
    }
    s
}

/// The summary's SPRT line: hypotheses, LLR, bounds and `state`.
pub fn sprt_line(sprt: &Sprt, t: &Tally, state: SprtState) -> String {
    let (lo, hi) = sprt.bounds();
    format!(
        "SPRT elo0 {} elo1 {} alpha {} beta {}: LLR {:.3} [{:.3}, {:.3}] {}\n",
        sprt.elo0,
        sprt.elo1,
        sprt.alpha,
        sprt.beta,
        sprt.llr(t),
        lo,
        hi,
        state.text()
    )
}

/// Create the records folder and its `games.txt` (a line per game), when
/// `--records` asked for them.
pub fn open_records(dir: Option<&std::path::Path>) -> Result<Option<std::fs::File>, String> {
    let Some(dir) = dir else { return Ok(None) };
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    std::fs::File::create(dir.join("games.txt"))
        .map(Some)
        .map_err(|e| format!("{}: {e}", dir.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn report(winner: Option<Color>, engine1_black: bool) -> GameReport {
        GameReport {
            game: 0,
            opening_line: 4,
            opening_text: "7,7 8,8 9,9".into(),
            engine1_black,
            outcome: GameOutcome {
                winner,
                termination: Termination::Five,
                detail: "x".into(),
                moves: vec![(7, 7), (8, 8), (9, 9), (0, 0)],
                move_ms: vec![0, 0, 0, 12],
                opening_len: 3,
                time_ms: [0, 12],
                memory: [0, 0],
            },
        }
    }

    #[test]
    fn scores_follow_colours() {
        assert_eq!(report(Some(Color::Black), true).score1(), 1.0);
        assert_eq!(report(Some(Color::Black), false).score1(), 0.0);
        assert_eq!(report(Some(Color::White), false).score1(), 1.0);
        assert_eq!(report(None, false).score1(), 0.5);
    }

    #[test]
    fn result_text_parses_back() {
        for winner in [Some(Color::Black), Some(Color::White), None] {
            let text = report(winner, true).result_text();
            assert_eq!(parse_result(text), Some(winner), "{text}");
        }
        assert_eq!(parse_result("2-0"), None);
        assert_eq!(parse_result(""), None);
    }

    #[test]
    fn json_has_exactly_the_contract_keys() {
        let t = Tally {
            wins: 3,
            draws: 1,
            losses: 0,
            penta: [0; 5],
        };
        let mut terms = Terminations::default();
        terms.add(Termination::Five);
        terms.add(Termination::Timeout);
        let j = json(&t, &terms, &EngineTotals::default());
        assert!(!j.contains("clock"), "no clock key without a game clock");
        assert!(j.starts_with(
            "{\"games\": 4, \"wins1\": 3, \"wins2\": 0, \"draws\": 1, \"score1\": 0.8750"
        ));
        assert!(j.contains("\"terminations\": {\"five\": 1, \"timeout\": 1, \"crash\": 0, \"illegal\": 0, \"forbidden\": 0, \"memory\": 0, \"draw\": 0}}"));
    }

    #[test]
    fn psq_is_one_based() {
        let r = report(Some(Color::White), true);
        let p = r.psq(["a", "b"], 15, 15);
        let lines: Vec<&str> = p.lines().collect();
        assert_eq!(lines[0], "Piskvorky 15x15, 11:11, 0");
        assert_eq!(lines[1], "8,8,0");
        assert_eq!(lines[4], "1,1,12");
        assert_eq!(lines[5], "a");
        assert_eq!(lines[6], "b");
        let rec = r.record_line(["a", "b"]);
        assert!(rec.ends_with("7,7 8,8 9,9 0,0"));
        assert!(r.line(["a", "b"], Some(2)).contains("result 0-1 five"));
        // One played stone (index 3): White's, engine 2's here.
        let mut tot = EngineTotals::default();
        tot.add(&r);
        assert_eq!(tot.moves, [0, 1]);
        assert_eq!(tot.time_ms, [0, 12]);
        assert_eq!(tot.longest_move_ms, [0, 12]);
        // Colours swapped: the same stone is engine 1's now, and the longest
        // move is a maximum over games, not a sum.
        let mut r2 = report(Some(Color::White), false);
        r2.outcome.move_ms[3] = 7;
        tot.add(&r2);
        assert_eq!(tot.longest_move_ms, [7, 12]);
        assert!(tot.lines(["a", "b"]).contains("longest 12 ms"));
    }
}
