//! The reach suite's positions: the file format (below), its parser, the
//! compiled-in `reach.txt` split into a `dev` and a `held` half, the
//! budgets the suite was made with, and the percentiles its reports use.
//!
//! File format: `#` lines are comments; each position is one tab-separated
//! line `name set kind rule size proof moves answers`: `set` is `dev` or
//! `held`, `kind` `win` or `quiet`, `rule` the `INFO rule` bits, `moves`
//! the game's moves `x,y` separated by spaces (Black first), `answers` the
//! answer set (`x,y` separated by spaces; `-` for a quiet position), and
//! `proof` the solver nodes that proved the first answer (0 when quiet).

use crate::brain::game::{Board, Pos};
use crate::brain::types::RuleSet;

/// The positions (see the module documentation for the format).
pub const REACH_TXT: &str = include_str!("reach.txt");

/// Time per position of the default run (ms).
pub const DEFAULT_MS: u64 = 500;
/// Node limit per position of the default run.
pub const DEFAULT_NODES: u64 = 1_000_000;

/// `reach-make`: a VCF within this many nodes makes a position too easy.
pub const EASY_VCF_NODES: u64 = 20_000;
/// `reach-make`: the large VCT budget that proves a position won.
pub const PROVE_VCT_NODES: u64 = 4_000_000;
/// `reach-make`: the budget per candidate first move of the answer set.
pub const ANSWER_NODES: u64 = 2_000_000;
/// `reach-make`: the budget per defender reply when a quiet first move is
/// proven full width (`wins_full_width`).
pub const REPLY_NODES: u64 = 200_000;
/// `reach-make` / `reach-claims`: the budget per reply at the second
/// level of `wins_deeper` (a mover move after which every reply leaves a
/// VCT).
pub const L2_NODES: u64 = 200_000;
/// `reach-make`: the budget of each "no win" check of a quiet position (the
/// check must also finish under it: an exhausted search proves nothing).
pub const QUIET_NODES: u64 = 1_000_000;
/// `reach-make`: tactical positions kept per game at most.
pub const WINS_PER_GAME: usize = 2;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Win,
    Quiet,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Set {
    Dev,
    Held,
}

/// Which positions a run uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Which {
    Dev,
    Held,
    All,
}

impl Which {
    /// Parse `dev`, `held` or `all`.
    pub fn parse(s: &str) -> Option<Which> {
        match s {
            "dev" => Some(Which::Dev),
            "held" => Some(Which::Held),
            "all" => Some(Which::All),
            _ => None,
        }
    }

    /// Whether a run of `self` takes a position of set `s`.
    pub fn takes(self, s: Set) -> bool {
        matches!(
            (self, s),
            (Which::All, _) | (Which::Dev, Set::Dev) | (Which::Held, Set::Held)
        )
    }
}

/// One position of the benchmark.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReachPos {
    pub name: String,
    pub set: Set,
    pub kind: Kind,
    pub rule: u32,
    pub size: usize,
    /// Solver nodes that proved the first answer (0 when quiet).
    pub proof: u64,
    pub moves: Vec<(i64, i64)>,
    pub answers: Vec<(i64, i64)>,
}

/// The board of a position `name`: `size`×`size`, rule bits `rule`,
/// `moves` played in order (Black first); an error names the position.
pub(crate) fn board_of(
    name: &str,
    size: usize,
    rule: u32,
    moves: &[(i64, i64)],
) -> Result<Board, String> {
    let mut b =
        Board::square(size, RuleSet::from_bits(rule)).map_err(|e| format!("{name}: {e:?}"))?;
    for &(x, y) in moves {
        let p = b
            .pos(x, y)
            .ok_or_else(|| format!("{name}: {x},{y} off the board"))?;
        if !b.is_empty(p) {
            return Err(format!("{name}: {x},{y} is taken"));
        }
        b.play(p);
    }
    Ok(b)
}

pub(crate) fn xy_list(v: &[(i64, i64)]) -> String {
    let s: Vec<String> = v.iter().map(|(x, y)| format!("{x},{y}")).collect();
    s.join(" ")
}

pub(crate) fn parse_xy_list(s: &str) -> Result<Vec<(i64, i64)>, String> {
    if s == "-" {
        return Ok(Vec::new());
    }
    crate::cli::parse_points(s)
}

impl ReachPos {
    /// The position's board (side to move: whoever's turn the moves leave).
    pub fn board(&self) -> Result<Board, String> {
        board_of(&self.name, self.size, self.rule, &self.moves)
    }

    /// The answer set as cells of `b` (this position's board).
    pub fn answer_cells(&self, b: &Board) -> Vec<Pos> {
        self.answers
            .iter()
            .filter_map(|&(x, y)| b.pos(x, y))
            .collect()
    }

    /// The position's line in `reach.txt`.
    pub fn line(&self) -> String {
        format!(
            "{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}",
            self.name,
            match self.set {
                Set::Dev => "dev",
                Set::Held => "held",
            },
            match self.kind {
                Kind::Win => "win",
                Kind::Quiet => "quiet",
            },
            self.rule,
            self.size,
            self.proof,
            xy_list(&self.moves),
            if self.answers.is_empty() {
                "-".to_string()
            } else {
                xy_list(&self.answers)
            }
        )
    }
}

/// Parse a `reach.txt`.
pub fn parse(text: &str) -> Result<Vec<ReachPos>, String> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim_end();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let f: Vec<&str> = line.split('\t').collect();
        let err = |what: &str| format!("reach line {}: {what}", i + 1);
        if f.len() != 8 {
            return Err(err("expected 8 tab-separated fields"));
        }
        let set = match f[1] {
            "dev" => Set::Dev,
            "held" => Set::Held,
            _ => return Err(err("set is dev or held")),
        };
        let kind = match f[2] {
            "win" => Kind::Win,
            "quiet" => Kind::Quiet,
            _ => return Err(err("kind is win or quiet")),
        };
        out.push(ReachPos {
            name: f[0].to_string(),
            set,
            kind,
            rule: f[3].parse().map_err(|_| err("bad rule"))?,
            size: f[4].parse().map_err(|_| err("bad size"))?,
            proof: f[5].parse().map_err(|_| err("bad proof"))?,
            moves: parse_xy_list(f[6]).map_err(|e| err(&e))?,
            answers: parse_xy_list(f[7]).map_err(|e| err(&e))?,
        });
    }
    Ok(out)
}

/// The compiled-in positions.
pub fn positions() -> Vec<ReachPos> {
    parse(REACH_TXT).expect("src/lab/bench/reach/reach.txt parses")
}

/// Nearest-rank percentile `q` (0..=1) of `v`.
pub fn percentile<T: Copy + PartialOrd>(v: &[T], q: f64) -> Option<T> {
    if v.is_empty() {
        return None;
    }
    let mut s = v.to_vec();
    s.sort_by(|a, b| a.partial_cmp(b).expect("no NaN"));
    let rank = ((q * s.len() as f64).ceil() as usize).clamp(1, s.len());
    Some(s[rank - 1])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::brain::game::rules;
    use crate::brain::search::params::MAX_THREATS;
    use crate::brain::search::threat::ThreatSolver;
    use crate::brain::types::Color;
    use crate::brain::types::Rule;
    use std::sync::atomic::AtomicBool;

    #[test]
    fn reach_file_parses_and_is_legal() {
        let ps = positions();
        assert!(!ps.is_empty());
        let mut names = std::collections::HashSet::new();
        for p in &ps {
            assert!(names.insert(p.name.clone()), "duplicate {}", p.name);
            assert_eq!(parse(&p.line()).unwrap(), vec![p.clone()]);
            let b = p.board().unwrap();
            assert!(!b.is_full(), "{}", p.name);
            for m in b.history() {
                assert!(rules::winner_at(&b, m.pos).is_none(), "{} is over", p.name);
            }
            let cells = p.answer_cells(&b);
            assert_eq!(
                cells.len(),
                p.answers.len(),
                "{}: answer off the board",
                p.name
            );
            for &m in &cells {
                assert!(b.is_empty(m), "{}: answer on a stone", p.name);
                let renju = b.rules().rule == Rule::Renju;
                assert!(
                    !(renju && b.to_move() == Color::Black && rules::is_forbidden(&b, m)),
                    "{}: forbidden answer",
                    p.name
                );
            }
            match p.kind {
                Kind::Win => assert!(!p.answers.is_empty() && p.proof > 0, "{}", p.name),
                Kind::Quiet => assert!(p.answers.is_empty(), "{}", p.name),
            }
        }
        // Both halves hold both kinds, and the kinds are balanced.
        for set in [Set::Dev, Set::Held] {
            for kind in [Kind::Win, Kind::Quiet] {
                assert!(ps.iter().any(|p| p.set == set && p.kind == kind));
            }
        }
        let wins = ps.iter().filter(|p| p.kind == Kind::Win).count();
        assert_eq!(wins * 2, ps.len());
    }

    /// The two cheapest tactical proofs, redone: the solver, asked for a
    /// VCT starting with the first answer move, finds one within the nodes
    /// the file records (the solver is deterministic with a fresh table).
    #[test]
    fn reach_answers_win_for_the_solver() {
        let mut ps: Vec<ReachPos> = positions()
            .into_iter()
            .filter(|p| p.kind == Kind::Win)
            .collect();
        ps.sort_by_key(|p| p.proof);
        let stop = AtomicBool::new(false);
        for p in ps.iter().take(2) {
            let mut b = p.board().unwrap();
            let m = p.answer_cells(&b)[0];
            let a = b.to_move();
            let line = ThreatSolver::new().vct_starting_with(
                &mut b,
                a,
                m,
                MAX_THREATS,
                p.proof + 1,
                &stop,
            );
            let line = line.unwrap_or_else(|| panic!("{}: no win after the answer", p.name));
            assert_eq!(line[0], m);
            // The line is a real sequence: every move on an empty cell.
            for &q in &line {
                assert!(b.is_empty(q));
                b.play(q);
            }
        }
    }

    #[test]
    fn percentiles_are_nearest_rank() {
        let v = [5.0, 1.0, 3.0, 2.0, 4.0];
        assert_eq!(percentile(&v, 0.5), Some(3.0));
        assert_eq!(percentile(&v, 0.9), Some(5.0));
        assert_eq!(percentile::<f64>(&[], 0.5), None);
    }
}
