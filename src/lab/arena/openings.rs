//! Opening suites: parsing the `shared/openings` format (one opening per
//! line, `x,y` points separated by spaces, Black first, `#` comments), the
//! default suite per rule and board size, and the schedule that plays each
//! opening twice with colours swapped.

use std::path::{Path, PathBuf};

use crate::brain::game::zobrist::SplitMix64;
use crate::brain::types::Rule;

/// One opening: stones in play order, Black first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// 1-based line number in its file (0 for the empty opening).
    pub line: usize,
    pub stones: Vec<(i64, i64)>,
}

impl Opening {
    pub fn empty() -> Opening {
        Opening {
            line: 0,
            stones: Vec::new(),
        }
    }

    /// The stones as the file writes them.
    pub fn text(&self) -> String {
        if self.stones.is_empty() {
            return "-".to_string();
        }
        self.stones
            .iter()
            .map(|(x, y)| format!("{x},{y}"))
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// Parse an opening file's text.
pub fn parse(text: &str) -> Result<Vec<Opening>, String> {
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut stones = Vec::new();
        for tok in line.split_whitespace() {
            let point = crate::cli::parse_point(tok)
                .ok_or_else(|| format!("line {}: bad point {tok:?}", i + 1))?;
            stones.push(point);
        }
        out.push(Opening {
            line: i + 1,
            stones,
        });
    }
    if out.is_empty() {
        return Err("no openings in file".to_string());
    }
    Ok(out)
}

pub fn load(path: &Path) -> Result<Vec<Opening>, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    parse(&text).map_err(|e| format!("{}: {e}", path.display()))
}

/// File name of the default suite for a rule and board, if one exists.
pub fn default_file(rule: Rule, width: usize, height: usize) -> Option<&'static str> {
    match (rule, width, height) {
        (Rule::Freestyle, 15, 15) => Some("freestyle15.txt"),
        (Rule::Freestyle, 20, 20) => Some("freestyle20.txt"),
        (Rule::Standard, 15, 15) => Some("standard15.txt"),
        (Rule::Renju, 15, 15) => Some("renju15.txt"),
        (Rule::Caro, 15, 15) => Some("caro15.txt"),
        _ => None,
    }
}

/// Where the shared opening suites live: `$SENTE_OPENINGS`, else a
/// `shared/openings` folder beside the working directory or beside any
/// ancestor of the executable (the repository sits next to `shared/`).
pub fn default_dir() -> Option<PathBuf> {
    if let Ok(d) = std::env::var("SENTE_OPENINGS") {
        return Some(PathBuf::from(d));
    }
    let mut starts = Vec::new();
    if let Ok(cwd) = std::env::current_dir() {
        starts.push(cwd);
    }
    if let Ok(exe) = std::env::current_exe() {
        starts.push(exe);
    }
    for start in starts {
        for dir in start.ancestors() {
            let cand = dir.join("shared").join("openings");
            if cand.is_dir() {
                return Some(cand);
            }
        }
    }
    None
}

/// One scheduled game: which opening, and whether engine 1 plays Black.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Slot {
    /// 0-based game number.
    pub game: usize,
    /// Index into the opening list.
    pub opening: usize,
    /// Pair number: the two games of one opening share it.
    pub pair: usize,
    pub engine1_black: bool,
}

/// The order in which openings are played: file order, or shuffled by seed.
pub fn order(count: usize, seed: Option<u64>) -> Vec<usize> {
    let mut idx: Vec<usize> = (0..count).collect();
    if let Some(seed) = seed {
        let mut rng = SplitMix64::new(seed);
        for i in (1..idx.len()).rev() {
            let j = rng.below(i as u64 + 1) as usize;
            idx.swap(i, j);
        }
    }
    idx
}

/// Game `game` of the schedule: pairs walk the opening order cyclically,
/// engine 1 takes Black in the first game of each pair.
pub fn slot(game: usize, order: &[usize]) -> Slot {
    let pair = game / 2;
    Slot {
        game,
        opening: order[pair % order.len()],
        pair,
        engine1_black: game & 1 == 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_shared_format() {
        let text = "# board 15x15, rule 0\n# comment\n9,9 6,9 6,6\n\n5,9 6,10 4,5 8,7\r\n";
        let o = parse(text).unwrap();
        assert_eq!(o.len(), 2);
        assert_eq!(o[0].stones, vec![(9, 9), (6, 9), (6, 6)]);
        assert_eq!(o[0].line, 3);
        assert_eq!(o[1].stones.len(), 4);
        assert_eq!(o[1].text(), "5,9 6,10 4,5 8,7");
        assert!(parse("# only comments\n").is_err());
        assert!(parse("1,2 3\n").is_err());
        assert!(parse("1,a\n").is_err());
    }

    #[test]
    fn pairs_swap_colours_and_cycle() {
        let ord = order(3, None);
        assert_eq!(ord, vec![0, 1, 2]);
        let s: Vec<Slot> = (0..8).map(|g| slot(g, &ord)).collect();
        assert_eq!(s[0].opening, 0);
        assert!(s[0].engine1_black);
        assert_eq!(s[1].opening, 0);
        assert!(!s[1].engine1_black);
        assert_eq!(s[1].pair, 0);
        assert_eq!(s[2].opening, 1);
        assert_eq!(s[6].opening, 0);
        assert_eq!(s[7].pair, 3);
    }

    #[test]
    fn seeded_order_is_a_permutation_and_deterministic() {
        let a = order(80, Some(7));
        let b = order(80, Some(7));
        assert_eq!(a, b);
        let mut sorted = a.clone();
        sorted.sort();
        assert_eq!(sorted, (0..80).collect::<Vec<_>>());
        assert_ne!(a, order(80, Some(8)));
    }

    #[test]
    fn default_files() {
        assert_eq!(default_file(Rule::Renju, 15, 15), Some("renju15.txt"));
        assert_eq!(
            default_file(Rule::Freestyle, 20, 20),
            Some("freestyle20.txt")
        );
        assert_eq!(default_file(Rule::Caro, 20, 20), None);
    }
}
