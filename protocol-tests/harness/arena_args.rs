//! The command line of one `sente-arena` run, built once: engine 1 against
//! engine 2, no opening file and 1 s a move unless a test says otherwise,
//! and whatever else a test needs chained on.

use std::fmt::Display;

pub const ARENA: &str = env!("CARGO_BIN_EXE_sente-arena");

/// One of the arena's own misbehaving engines (`--fake-engine KIND`).
pub fn fake(kind: &str) -> String {
    format!("{ARENA} --fake-engine {kind}")
}

#[derive(Clone, Debug)]
pub struct ArenaArgs {
    engine1: String,
    engine2: String,
    openings: String,
    turn_ms: u64,
    /// A league's clock and its scale, in place of `--turn`.
    league: Option<(String, u64)>,
    more: Vec<String>,
}

impl ArenaArgs {
    /// `--engine1 E1 --engine2 E2 --openings none --turn 1000`.
    pub fn new(engine1: impl Into<String>, engine2: impl Into<String>) -> Self {
        ArenaArgs {
            engine1: engine1.into(),
            engine2: engine2.into(),
            openings: "none".into(),
            turn_ms: 1000,
            league: None,
            more: Vec::new(),
        }
    }

    /// An opening file (or `none`).
    pub fn openings(mut self, file: impl Into<String>) -> Self {
        self.openings = file.into();
        self
    }

    /// Time per move, ms.
    pub fn turn(mut self, ms: u64) -> Self {
        self.turn_ms = ms;
        self
    }

    /// A Gomocup league's clock divided by `scale` (`--league`,
    /// `--clock-scale`) instead of `--turn`.
    pub fn league(mut self, name: &str, scale: u64) -> Self {
        self.league = Some((name.into(), scale));
        self
    }

    pub fn games(self, n: u32) -> Self {
        self.opt("--games", n)
    }

    /// Lateness forgiven on a move, ms.
    pub fn tolerance(self, ms: u64) -> Self {
        self.opt("--tolerance", ms)
    }

    /// Time an engine gets to exit after END, ms.
    pub fn grace(self, ms: u64) -> Self {
        self.opt("--grace", ms)
    }

    pub fn rule(self, rule: &str) -> Self {
        self.opt("--rule", rule)
    }

    /// Any other option with its value: `--memory 64M`.
    pub fn opt(mut self, name: &str, value: impl Display) -> Self {
        self.more.push(name.into());
        self.more.push(value.to_string());
        self
    }

    /// An option without a value: `--ponder`.
    pub fn flag(mut self, name: &str) -> Self {
        self.more.push(name.into());
        self
    }

    /// Words added as they are (a test's extra options).
    pub fn extend(mut self, words: &[&str]) -> Self {
        self.more.extend(words.iter().map(|w| w.to_string()));
        self
    }

    /// The arguments, in order.
    pub fn to_vec(&self) -> Vec<String> {
        let mut v = vec![
            "--engine1".to_string(),
            self.engine1.clone(),
            "--engine2".into(),
            self.engine2.clone(),
            "--openings".into(),
            self.openings.clone(),
        ];
        match &self.league {
            Some((name, scale)) => v.extend([
                "--league".into(),
                name.clone(),
                "--clock-scale".into(),
                scale.to_string(),
            ]),
            None => v.extend(["--turn".into(), self.turn_ms.to_string()]),
        }
        v.extend(self.more.iter().cloned());
        v
    }
}

/// Two short openings on 15×15 freestyle, written to `dir/openings.txt`;
/// returns the file's path.
pub fn openings_file(dir: &std::path::Path) -> String {
    let f = dir.join("openings.txt");
    std::fs::write(
        &f,
        "# board 15x15, rule 0, test openings\n7,7 8,8 6,8\n7,7 8,7 5,5 6,9\n",
    )
    .unwrap();
    f.display().to_string()
}
