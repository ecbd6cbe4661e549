//! Game clocks as the Gomocup leagues set them, and where an engine's time
//! went. `League`: the leagues' controls (a turn limit and a game clock) as
//! presets for `--league`, scaled down by `--clock-scale N` for quick
//! matches. `ClockUse`: per engine, the clock left when each game ended and
//! the time spent by its own move number, for the summary, the JSON and the
//! tournament report.

use std::fmt::Write;

use super::game::{GameConfig, GameOutcome};
use crate::brain::types::Color;

/// A Gomocup league's time control (the 2024 announcement; unchanged since
/// 2016): every league plays with 350 MB and the engine suspended between
/// moves, and the game clock is what binds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct League {
    pub name: &'static str,
    pub turn_ms: u64,
    pub match_ms: u64,
}

impl League {
    /// The leagues' controls: fastgame 5 s a move / 120 s a game, the lower
    /// groups 30 s / 180 s, the final leagues 300 s / 1,000 s.
    pub const ALL: [League; 3] = [
        League {
            name: "fastgame",
            turn_ms: 5_000,
            match_ms: 120_000,
        },
        League {
            name: "lower",
            turn_ms: 30_000,
            match_ms: 180_000,
        },
        League {
            name: "final",
            turn_ms: 300_000,
            match_ms: 1_000_000,
        },
    ];

    /// The league named `name` (case-insensitive).
    pub fn parse(name: &str) -> Result<League, String> {
        League::ALL
            .into_iter()
            .find(|l| l.name.eq_ignore_ascii_case(name.trim()))
            .ok_or_else(|| {
                let names: Vec<&str> = League::ALL.iter().map(|l| l.name).collect();
                format!("--league: one of {}, not {name:?}", names.join(", "))
            })
    }

    /// Set `game`'s turn and game clock to this league's, both divided by
    /// `scale` (1: the league's own).
    pub fn apply(self, game: &mut GameConfig, scale: u64) {
        let scale = scale.max(1);
        game.turn_ms = self.turn_ms / scale;
        game.match_ms = self.match_ms / scale;
        game.memory = 350 << 20;
    }
}

/// Own move numbers are counted in buckets of this many moves; the last
/// bucket holds every later move.
pub const BUCKET_MOVES: usize = 10;
/// Buckets: moves 1–10, 11–20, …, 51 and later.
pub const BUCKETS: usize = 6;

/// Where one engine's time went over a set of games.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ClockUse {
    /// The clock left (ms) when each timed game ended, in the order added.
    pub left_ms: Vec<u64>,
    /// Per bucket of own move numbers: the total ms and the moves.
    pub by_move: [(u64, u64); BUCKETS],
}

impl ClockUse {
    /// Add the moves `colour` played in `o`, a game under a `match_ms` game
    /// clock (0: none, and no clock left is recorded).
    pub fn add(&mut self, o: &GameOutcome, colour: Color, match_ms: u64) {
        if match_ms > 0 {
            self.left_ms
                .push(match_ms.saturating_sub(o.time_ms[colour.index()]));
        }
        // Stone k (0-based) is Black's when k is even.
        let own =
            (o.opening_len..o.moves.len()).filter(|k| (k % 2 == 0) == (colour == Color::Black));
        for (n, k) in own.enumerate() {
            let b = (n / BUCKET_MOVES).min(BUCKETS - 1);
            self.by_move[b].0 += o.move_ms.get(k).copied().unwrap_or(0);
            self.by_move[b].1 += 1;
        }
    }

    /// The clock left at the games' ends: minimum, quartiles and maximum
    /// (nearest rank), None without a timed game.
    pub fn left_quartiles(&self) -> Option<[u64; 5]> {
        let mut v = self.left_ms.clone();
        if v.is_empty() {
            return None;
        }
        v.sort_unstable();
        let at = |q: usize| v[(q * (v.len() - 1) + 2) / 4];
        Some([v[0], at(1), at(2), at(3), v[v.len() - 1]])
    }

    /// Mean ms a move in each bucket (None where the engine made no move).
    pub fn mean_by_move(&self) -> [Option<f64>; BUCKETS] {
        self.by_move
            .map(|(ms, n)| (n > 0).then(|| ms as f64 / n as f64))
    }

    /// The bucket labels: "1-10", …, "51+".
    pub fn bucket_label(b: usize) -> String {
        if b + 1 == BUCKETS {
            format!("{}+", b * BUCKET_MOVES + 1)
        } else {
            format!("{}-{}", b * BUCKET_MOVES + 1, (b + 1) * BUCKET_MOVES)
        }
    }

    /// One line for the summary: the clock left, and the ms a move by move
    /// number.
    pub fn line(&self, name: &str) -> String {
        let mut s = format!("{name}: ");
        match self.left_quartiles() {
            Some(q) => {
                let _ = write!(
                    s,
                    "clock left at the end {:.1} / {:.1} / {:.1} / {:.1} / {:.1} s (min, quartiles, max; {} games)",
                    q[0] as f64 / 1000.0,
                    q[1] as f64 / 1000.0,
                    q[2] as f64 / 1000.0,
                    q[3] as f64 / 1000.0,
                    q[4] as f64 / 1000.0,
                    self.left_ms.len()
                );
            }
            None => s.push_str("no game clock"),
        }
        s.push_str("; ms a move by move number:");
        for (b, m) in self.mean_by_move().iter().enumerate() {
            if let Some(m) = m {
                let _ = write!(s, " {} {:.0}", Self::bucket_label(b), m);
            }
        }
        s.push('\n');
        s
    }

    /// The JSON object: `{"left_ms": [...], "left_quartiles_ms": [...] or
    /// null, "by_move": [{"moves": "1-10", "count": N, "mean_ms": X}, ...]}`.
    pub fn json(&self) -> String {
        let left: Vec<String> = self.left_ms.iter().map(u64::to_string).collect();
        let quart = match self.left_quartiles() {
            Some(q) => format!("[{}, {}, {}, {}, {}]", q[0], q[1], q[2], q[3], q[4]),
            None => "null".into(),
        };
        let buckets: Vec<String> = self
            .by_move
            .iter()
            .enumerate()
            .map(|(b, &(ms, n))| {
                let mean = if n > 0 {
                    format!("{:.1}", ms as f64 / n as f64)
                } else {
                    "null".into()
                };
                format!(
                    "{{\"moves\": \"{}\", \"count\": {n}, \"mean_ms\": {mean}}}",
                    Self::bucket_label(b)
                )
            })
            .collect();
        format!(
            "{{\"left_ms\": [{}], \"left_quartiles_ms\": {quart}, \"by_move\": [{}]}}",
            left.join(", "),
            buckets.join(", ")
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lab::arena::referee::Termination;

    fn outcome(move_ms: Vec<u64>, time_ms: [u64; 2], opening_len: usize) -> GameOutcome {
        let n = move_ms.len();
        GameOutcome {
            winner: None,
            termination: Termination::Draw,
            detail: String::new(),
            moves: vec![(0, 0); n],
            move_ms,
            opening_len,
            time_ms,
            memory: [0; 2],
        }
    }

    #[test]
    fn leagues_and_their_scaled_clocks() {
        let mut g = GameConfig::default();
        League::parse("FastGame").unwrap().apply(&mut g, 4);
        assert_eq!((g.turn_ms, g.match_ms), (1_250, 30_000));
        League::parse("lower").unwrap().apply(&mut g, 10);
        assert_eq!((g.turn_ms, g.match_ms), (3_000, 18_000));
        League::parse("final").unwrap().apply(&mut g, 1);
        assert_eq!(
            (g.turn_ms, g.match_ms, g.memory),
            (300_000, 1_000_000, 350 << 20)
        );
        assert!(League::parse("blitz").unwrap_err().contains("fastgame"));
    }

    /// Black's moves are the even stones after the opening: with a 1-stone
    /// opening White plays stones 1, 3, … The clock left is the game clock
    /// less the colour's time; moves past 50 share the last bucket.
    #[test]
    fn clock_left_and_time_by_move_number() {
        // 3 opening stones, then 120 moves of 10 ms (Black) and 20 ms (White).
        let mut ms = vec![0; 3];
        ms.extend((3..123).map(|k| if k % 2 == 0 { 10 } else { 20 }));
        let o = outcome(ms, [600, 1_200], 3);
        let (mut black, mut white) = (ClockUse::default(), ClockUse::default());
        black.add(&o, Color::Black, 30_000);
        white.add(&o, Color::White, 30_000);
        white.add(&outcome(vec![0, 5], [0, 5], 0), Color::White, 0);
        assert_eq!(black.left_ms, vec![29_400]);
        assert_eq!(white.left_ms, vec![28_800], "an untimed game adds no clock");
        assert_eq!(black.by_move[0], (100, 10));
        assert_eq!(black.by_move[BUCKETS - 1], (100, 10));
        assert_eq!(white.by_move[0], (205, 11));
        assert_eq!(white.mean_by_move()[1], Some(20.0));
        let total: u64 = black.by_move.iter().map(|b| b.1).sum();
        assert_eq!(total, 60);
        assert_eq!(ClockUse::bucket_label(0), "1-10");
        assert_eq!(ClockUse::bucket_label(BUCKETS - 1), "51+");
        assert!(
            black.line("b").contains("29.4 / 29.4"),
            "{}",
            black.line("b")
        );
        assert!(black.json().contains("\"left_ms\": [29400]"));
        assert!(ClockUse::default()
            .json()
            .contains("\"left_quartiles_ms\": null"));
    }

    #[test]
    fn quartiles_by_nearest_rank() {
        let c = ClockUse {
            left_ms: vec![5, 1, 4, 2, 3],
            ..ClockUse::default()
        };
        assert_eq!(c.left_quartiles(), Some([1, 2, 3, 4, 5]));
        assert_eq!(ClockUse::default().left_quartiles(), None);
    }
}
