//! A run's state file: the settings that fix the run (seed, schedule, pairs
//! per iteration, the parameters) and one line per iteration played (its
//! result, perturbation signs and θ after it). It is plain text, rewritten
//! whole (to a temporary file, then renamed) after every iteration, so a
//! run stopped at any point goes on from its last finished iteration, and
//! the numbers are written so that they read back exactly.

use std::path::Path;

use super::method::{self, Schedule};
use super::spec::{self, Param};

/// One iteration played.
#[derive(Clone, Debug, PartialEq)]
pub struct Record {
    pub k: usize,
    /// The mean per pair of θ+'s points less θ−'s.
    pub r: f64,
    pub delta: Vec<f64>,
    /// θ after the update.
    pub theta: Vec<f64>,
}

/// A run: its settings and its history.
#[derive(Clone, Debug, PartialEq)]
pub struct State {
    pub seed: u64,
    pub schedule: Schedule,
    /// Game pairs per iteration.
    pub pairs: usize,
    pub params: Vec<Param>,
    pub history: Vec<Record>,
}

const HEADER: &str =
    "# sente-arena spsa state (scripts/SPSA.md): the settings, then `iter K R SIGNS THETA...` per iteration";

impl State {
    pub fn new(params: Vec<Param>, schedule: Schedule, pairs: usize, seed: u64) -> State {
        State {
            seed,
            schedule,
            pairs,
            params,
            history: Vec::new(),
        }
    }

    /// θ now: after the last iteration, or the start values.
    pub fn theta(&self) -> Vec<f64> {
        match self.history.last() {
            Some(r) => r.theta.clone(),
            None => self.params.iter().map(|p| p.start).collect(),
        }
    }

    /// The next iteration's number.
    pub fn next_k(&self) -> usize {
        self.history.len()
    }

    pub fn finished(&self) -> bool {
        self.next_k() >= self.schedule.iters
    }

    /// The next iteration's perturbation signs.
    pub fn delta(&self) -> Vec<f64> {
        method::delta(self.seed, self.next_k(), self.params.len())
    }

    /// θ+ (`sign` 1) or θ− (`sign` −1) of the next iteration, as the engine
    /// gets them.
    pub fn point(&self, sign: f64) -> Vec<f64> {
        let k = self.next_k();
        method::perturbed(
            &self.schedule,
            &self.params,
            &self.theta(),
            k,
            &self.delta(),
            sign,
        )
    }

    /// Finish the next iteration with result `r`.
    pub fn apply(&mut self, r: f64) -> &Record {
        let (k, delta) = (self.next_k(), self.delta());
        let theta = method::update(&self.schedule, &self.params, &self.theta(), k, &delta, r);
        self.history.push(Record { k, r, delta, theta });
        self.history.last().expect("just pushed")
    }

    pub fn to_text(&self) -> String {
        let s = &self.schedule;
        let mut out = format!(
            "{HEADER}\nseed {}\niters {}\nA {}\nalpha {}\ngamma {}\npairs {}\n",
            self.seed, s.iters, s.big_a, s.alpha, s.gamma, self.pairs
        );
        for p in &self.params {
            out.push_str(&format!("param {}\n", p.file_line()));
        }
        for r in &self.history {
            let signs: String = r
                .delta
                .iter()
                .map(|&d| if d > 0.0 { '+' } else { '-' })
                .collect();
            let theta: Vec<String> = r.theta.iter().map(|t| format!("{t}")).collect();
            out.push_str(&format!(
                "iter {} {} {signs} {}\n",
                r.k,
                r.r,
                theta.join(" ")
            ));
        }
        out
    }

    pub fn parse(text: &str) -> Result<State, String> {
        let mut kv = std::collections::HashMap::new();
        let mut params_text = String::new();
        let mut iters: Vec<(usize, &str)> = Vec::new();
        for (i, raw) in text.lines().enumerate() {
            let line = raw.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let (key, rest) = line.split_once(' ').unwrap_or((line, ""));
            match key {
                "param" => {
                    params_text.push_str(rest);
                    params_text.push('\n');
                }
                "iter" => iters.push((i + 1, rest)),
                "seed" | "iters" | "A" | "alpha" | "gamma" | "pairs" => {
                    kv.insert(key, rest.trim());
                }
                _ => return Err(format!("line {}: unknown entry {key:?}", i + 1)),
            }
        }
        fn get<T: std::str::FromStr>(
            kv: &std::collections::HashMap<&str, &str>,
            key: &str,
        ) -> Result<T, String> {
            let v = kv.get(key).ok_or_else(|| format!("no `{key}` line"))?;
            v.parse().map_err(|_| format!("bad {key} {v:?}"))
        }
        let params = spec::parse(&params_text).map_err(|e| format!("parameters: {e}"))?;
        let mut st = State::new(
            params,
            Schedule {
                iters: get(&kv, "iters")?,
                big_a: get(&kv, "A")?,
                alpha: get(&kv, "alpha")?,
                gamma: get(&kv, "gamma")?,
            },
            get(&kv, "pairs")?,
            get(&kv, "seed")?,
        );
        let n = st.params.len();
        for (line, rest) in iters {
            let bad = |what: &str| format!("line {line}: {what}");
            let f: Vec<&str> = rest.split_whitespace().collect();
            if f.len() != 3 + n {
                return Err(bad(
                    "an iteration needs K R SIGNS and a value per parameter",
                ));
            }
            let k: usize = f[0].parse().map_err(|_| bad("bad iteration number"))?;
            if k != st.next_k() {
                return Err(bad(&format!("iteration {k} where {} was due", st.next_k())));
            }
            let r: f64 = f[1].parse().map_err(|_| bad("bad result"))?;
            let delta: Vec<f64> = f[2]
                .chars()
                .map(|c| if c == '+' { 1.0 } else { -1.0 })
                .collect();
            if delta != st.delta() || f[2].len() != n {
                return Err(bad("the signs are not this run's (another seed?)"));
            }
            let theta = f[3..]
                .iter()
                .map(|t| t.parse::<f64>().map_err(|_| bad("bad value")))
                .collect::<Result<Vec<f64>, String>>()?;
            st.history.push(Record { k, r, delta, theta });
        }
        Ok(st)
    }

    pub fn load(path: &Path) -> Result<State, String> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        State::parse(&text).map_err(|e| format!("{}: {e}", path.display()))
    }

    /// Write the file whole: a temporary file beside it (named by this
    /// process), then a rename, so a reader never sees half a file.
    pub fn save(&self, path: &Path) -> Result<(), String> {
        let tmp = path.with_extension(format!("tmp{}", std::process::id()));
        std::fs::write(&tmp, self.to_text())
            .and_then(|_| std::fs::rename(&tmp, path))
            .map_err(|e| format!("cannot write {}: {e}", path.display()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run() -> State {
        let ps = spec::parse("X, 5, 0, 100, 4, 0.2\nY, 2.2, 1, 4, 0.2, 0.002, f32\n").unwrap();
        State::new(ps, Schedule::standard(30), 4, 9)
    }

    /// The text reads back exactly, mid-run, and goes on the same.
    #[test]
    fn round_trip_and_resume() {
        let mut a = run();
        for k in 0..7 {
            a.apply([0.5, -1.25, 2.0, 0.0][k % 4] / 3.0);
        }
        let back = State::parse(&a.to_text()).unwrap();
        assert_eq!(back, a);
        let mut b = back;
        for st in [&mut a, &mut b] {
            st.apply(0.75);
            st.apply(-1.0 / 7.0);
        }
        assert_eq!(a, b);
        assert_eq!(a.next_k(), 9);
        let dir = std::env::temp_dir().join(format!("sente-spsa-state-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let f = dir.join("state.txt");
        a.save(&f).unwrap();
        assert_eq!(State::load(&f).unwrap(), a);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn refuses_damaged_files() {
        let mut a = run();
        a.apply(1.0);
        a.apply(-1.0);
        let text = a.to_text();
        let cut_value = match text.trim_end().rsplit_once(' ') {
            Some((head, _)) => format!("{head}\n"),
            None => unreachable!(),
        };
        let skipped = text.replace("iter 1 ", "iter 2 ");
        let other_seed = text.replace("seed 9", "seed 10");
        for (t, want) in [
            (skipped, "due"),
            (other_seed, "signs"),
            (text.replace("pairs 4\n", ""), "no `pairs`"),
            (text.replace("seed 9", "bogus 9"), "unknown entry"),
            (cut_value, "iteration needs"),
        ] {
            let e = State::parse(&t).unwrap_err();
            assert!(e.contains(want), "{e}");
        }
    }
}
