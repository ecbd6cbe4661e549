//! An iteration's games on the arena: each pair of the iteration plays one
//! opening twice with colours swapped, θ+ against θ− (self-play) or each of
//! θ+ and θ− against the fixed opponent on the same opening (4 games), with
//! the arena's referee (`game::play_with_info`), pool and opening schedule.
//! The tuned engine gets the values as `--param NAME=V` on its command
//! line. A shard plays the pairs whose number is K − 1 modulo N and writes
//! them to a part file; the parts of an iteration merge into its result.

use std::path::Path;

use super::spec::Param;
use super::state::State;
use crate::lab::arena::game::{self, GameConfig, Players};
use crate::lab::arena::openings::{self, Opening};
use crate::lab::arena::pool::Pool;
use crate::lab::arena::referee::Termination;
use crate::lab::arena::schedule::Shard;

/// How an iteration's games are played.
#[derive(Clone, Debug)]
pub struct Games {
    /// The tuned engine's command, before the `--param` arguments.
    pub engine: String,
    /// The fixed opponent, or None for self-play.
    pub opponent: Option<String>,
    pub game: GameConfig,
    /// The opening suite (the empty board when empty).
    pub openings: Vec<Opening>,
    pub concurrency: usize,
    /// Protocol lines for the tuned engine after the standard settings
    /// (`INFO max_node N`).
    pub info: Vec<String>,
    /// Protocol lines for the opponent after the standard settings
    /// (`INFO max_node N`).
    pub opponent_info: Vec<String>,
}

/// One pair's points: θ+'s and θ−'s, and games not ended by a five or a
/// full board (timeouts, crashes, illegal moves...).
#[derive(Clone, Debug, PartialEq)]
pub struct PairResult {
    pub pair: usize,
    pub plus: f64,
    pub minus: f64,
    pub faults: usize,
}

impl PairResult {
    pub fn r(&self) -> f64 {
        self.plus - self.minus
    }
}

/// The tuned engine's command for the values `v`.
pub fn command(engine: &str, params: &[Param], v: &[f64]) -> String {
    let mut cmd = engine.trim().to_string();
    for (p, &x) in params.iter().zip(v) {
        cmd.push_str(&format!(" --param {}={}", p.name, p.text(x)));
    }
    cmd
}

/// The iteration's result from its pairs: the mean of θ+'s points less
/// θ−'s, summed in pair order.
pub fn result(pairs: &[PairResult]) -> f64 {
    let mut sorted: Vec<&PairResult> = pairs.iter().collect();
    sorted.sort_by_key(|p| p.pair);
    sorted.iter().map(|p| p.r()).sum::<f64>() / pairs.len().max(1) as f64
}

impl Games {
    /// Games per pair.
    fn per_pair(&self) -> usize {
        if self.opponent.is_some() {
            4
        } else {
            2
        }
    }

    /// Start the engine at the next iteration's θ+ and θ− once and stop it:
    /// a bad command or a parameter the engine does not know ends the run
    /// before any game.
    pub fn probe(&self, st: &State) -> Result<(), String> {
        let mut cmds = vec![
            command(&self.engine, &st.params, &st.point(1.0)),
            command(&self.engine, &st.params, &st.point(-1.0)),
        ];
        cmds.extend(self.opponent.clone());
        for cmd in cmds {
            match game::start_engine(&self.game, &cmd, "probe", &[]) {
                Ok(mut e) => e.quit(std::time::Duration::from_millis(self.game.grace_ms)),
                Err((_, d)) => return Err(format!("{cmd:?} does not start: {d}")),
            }
        }
        Ok(())
    }

    /// Play the next iteration's pairs `pairs` (numbers below `st.pairs`).
    pub fn play(&self, st: &State, pairs: &[usize]) -> Result<Vec<PairResult>, String> {
        let openings = if self.openings.is_empty() {
            vec![Opening::empty()]
        } else {
            self.openings.clone()
        };
        let order = openings::order(openings.len(), Some(st.seed));
        let k = st.next_k();
        let cmds = [
            command(&self.engine, &st.params, &st.point(1.0)),
            command(&self.engine, &st.params, &st.point(-1.0)),
        ];
        let per = self.per_pair();
        let (jobs, first) = (pairs.to_vec(), k * st.pairs);
        let me = self.clone();
        // Job g: pair jobs[g / per]; in self-play game 0 has θ+ Black and
        // game 1 θ− Black; against the opponent games 0, 1 are θ+'s (Black,
        // White) and 2, 3 θ−'s. The result: θ+'s points (self-play) or
        // the tuned side's, with the fault flag.
        let mut pool = Pool::start(
            "spsa",
            self.concurrency,
            jobs.len() * per,
            move |g, dir: &Path| {
                let (j, i) = (jobs[g / per], g % per);
                let opening = &openings[openings::slot(2 * (first + j), &order).opening];
                let tuned = (cmds[i / 2 % 2].as_str(), ["theta+", "theta-"][i / 2 % 2]);
                let (black, white, infos) = match &me.opponent {
                    None if i == 0 => (
                        (cmds[0].as_str(), "theta+"),
                        (cmds[1].as_str(), "theta-"),
                        [&me.info[..], &me.info[..]],
                    ),
                    None => (
                        (cmds[1].as_str(), "theta-"),
                        (cmds[0].as_str(), "theta+"),
                        [&me.info[..], &me.info[..]],
                    ),
                    Some(o) if i % 2 == 0 => (
                        tuned,
                        (o.as_str(), "opponent"),
                        [&me.info[..], &me.opponent_info[..]],
                    ),
                    Some(o) => (
                        (o.as_str(), "opponent"),
                        tuned,
                        [&me.opponent_info[..], &me.info[..]],
                    ),
                };
                let mut gcfg = me.game.clone();
                if gcfg.folder.is_none() {
                    let _ = std::fs::create_dir_all(dir);
                    gcfg.folder = Some(dir.display().to_string());
                }
                let out = game::play_with_info(&gcfg, &Players { black, white }, opening, infos);
                let fault = !matches!(out.termination, Termination::Five | Termination::Draw);
                if fault {
                    log::warn!(
                        "iteration {k} pair {j}: {:?}: {}",
                        out.termination,
                        out.detail
                    );
                }
                // The side whose points count: θ+ in self-play, else the tuned one.
                let tuned_black = match &me.opponent {
                    None => i == 0,
                    Some(_) => i % 2 == 0,
                };
                let points = match out.winner {
                    None => 0.5,
                    Some(c) if (c == crate::brain::types::Color::Black) == tuned_black => 1.0,
                    Some(_) => 0.0,
                };
                (g, points, fault)
            },
        )?;
        let mut out: Vec<PairResult> = pairs
            .iter()
            .map(|&pair| PairResult {
                pair,
                plus: 0.0,
                minus: 0.0,
                faults: 0,
            })
            .collect();
        while let Some((g, points, fault)) = pool.result() {
            pool.feed();
            let (slot, i) = (&mut out[g / per], g % per);
            slot.faults += usize::from(fault);
            match (&self.opponent, i) {
                (None, _) => {
                    slot.plus += points;
                    slot.minus += 1.0 - points;
                }
                (Some(_), 0 | 1) => slot.plus += points,
                (Some(_), _) => slot.minus += points,
            }
        }
        pool.finish();
        Ok(out)
    }
}

/// A shard's pairs of an iteration with `pairs` pairs.
pub fn shard_pairs(pairs: usize, shard: Option<Shard>) -> Vec<usize> {
    (0..pairs)
        .filter(|j| shard.is_none_or(|s| j % s.count == s.index - 1))
        .collect()
}

/// A part file: the iteration, the run's seed and pair count, and a line
/// per pair played.
pub fn part_text(st: &State, results: &[PairResult]) -> String {
    let mut out = format!(
        "# sente-arena spsa part: pairs of one iteration (merge with `sente-arena spsa step`)\n\
         part iter {} seed {} pairs {}\n",
        st.next_k(),
        st.seed,
        st.pairs
    );
    for r in results {
        out.push_str(&format!(
            "pair {} {} {} {}\n",
            r.pair, r.plus, r.minus, r.faults
        ));
    }
    out
}

/// The parts of the next iteration merged: every pair once, from this run.
pub fn merge_parts(st: &State, texts: &[(String, String)]) -> Result<Vec<PairResult>, String> {
    let want = format!(
        "part iter {} seed {} pairs {}",
        st.next_k(),
        st.seed,
        st.pairs
    );
    let mut got: Vec<Option<PairResult>> = vec![None; st.pairs];
    for (name, text) in texts {
        let mut header = false;
        for line in text.lines().map(str::trim) {
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            if line.starts_with("part ") {
                if line != want {
                    return Err(format!(
                        "{name}: {line:?} is not this run's next iteration ({want:?})"
                    ));
                }
                header = true;
                continue;
            }
            let bad = || format!("{name}: bad line {line:?}");
            let f: Vec<&str> = line.split_whitespace().collect();
            if !header || f.len() != 5 || f[0] != "pair" {
                return Err(bad());
            }
            let pair: usize = f[1].parse().map_err(|_| bad())?;
            let r = PairResult {
                pair,
                plus: f[2].parse().map_err(|_| bad())?,
                minus: f[3].parse().map_err(|_| bad())?,
                faults: f[4].parse().map_err(|_| bad())?,
            };
            let slot = got.get_mut(pair).ok_or_else(bad)?;
            if slot.is_some() {
                return Err(format!("{name}: pair {pair} is in two parts"));
            }
            *slot = Some(r);
        }
        if !header {
            return Err(format!("{name}: not a part file"));
        }
    }
    let missing: Vec<String> = (0..st.pairs)
        .filter(|&j| got[j].is_none())
        .map(|j| j.to_string())
        .collect();
    if !missing.is_empty() {
        return Err(format!(
            "pairs missing from the parts: {}",
            missing.join(" ")
        ));
    }
    Ok(got.into_iter().flatten().collect())
}
