//! The evaluation panel (`sente-lab evalpanel`, issue 70 item 1): a judge
//! of evaluations before games. This module owns the panel and labels
//! file formats and the three commands:
//!
//! - `make` (`make.rs`): draws quiet positions (no five to make, no VCF
//!   for either side within a node budget) from game records, datagen's
//!   (`datagen::record`) or the arena's `games.txt`, deterministically from
//!   a seed, a few per game, spread over the game.
//! - `label` (`label.rs`): the deep label of each position, the score of a
//!   fresh single-thread search of N nodes (datagen relabel's
//!   `fresh_search`), appended a line at a time, resumable, sharded.
//! - `score` (`score.rs`): scores evaluators (classical, embedded nets,
//!   weights files, or any closure in tests) per rule and game phase by
//!   cross-entropy against the deep label and the game's result, and by
//!   Spearman rank correlation with the deep score.
//!
//! Panel file: `#` comment lines (the first says how it was made), then one
//! position per line, TAB-separated: rule, size, the game's result for the
//! side to move (1, 0 or 0.5), every stone in order Black first (`x,y`,
//! space-separated; opening and played moves alike), and where it came
//! from (`file:line:ply`, the game's line in its file). Labels file: a header line naming the panel (its
//! FNV-1a 64), the node count and the shard, then `index TAB score TAB x,y`
//! per position (the position's 0-based index among the panel's lines, the
//! deep score for the side to move, the deep search's move).

pub mod label;
pub mod make;
pub mod score;
#[cfg(test)]
mod tests;

use std::path::Path;

use anyhow::{anyhow, bail, Context};

use crate::brain::game::Board;
use crate::brain::types::{Color, RuleSet};
use crate::cli::{parse_point, parse_rule};
use crate::lab::arena::report::parse_result;
use crate::lab::datagen::{parse_line, GameRecord, RecordedMove};

/// The panel format's name, as its header says.
pub const PANEL_FORMAT: &str = "sente-evalpanel v1";
/// The labels format's name.
pub const LABELS_FORMAT: &str = "sente-evalpanel-labels v1";

/// One panel position.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    pub rules: RuleSet,
    pub size: usize,
    /// The game's result for the side to move: 1 won, 0 lost, 0.5 drawn.
    pub result: f32,
    /// Every stone, in order, Black first.
    pub moves: Vec<(usize, usize)>,
    /// Where it came from: `file:line:ply` (the game's line, 1-based).
    pub source: String,
}

fn result_text(r: f32) -> &'static str {
    if r >= 0.75 {
        "1"
    } else if r <= 0.25 {
        "0"
    } else {
        "0.5"
    }
}

/// A board of `rules` and `size` with `moves` played in turn.
pub fn board_of(rules: RuleSet, size: usize, moves: &[(usize, usize)]) -> anyhow::Result<Board> {
    let mut b = Board::square(size, rules).map_err(|e| anyhow!("{e}"))?;
    for &(x, y) in moves {
        let c = b.to_move();
        b.try_make(x as i64, y as i64, c)
            .map_err(|e| anyhow!("stone {x},{y}: {e}"))?;
    }
    Ok(b)
}

impl Entry {
    /// The position's board.
    pub fn board(&self) -> anyhow::Result<Board> {
        board_of(self.rules, self.size, &self.moves)
    }

    /// Stones on the board.
    pub fn stones(&self) -> usize {
        self.moves.len()
    }

    /// The line (no newline).
    pub fn format(&self) -> String {
        let moves: Vec<String> = self.moves.iter().map(|(x, y)| format!("{x},{y}")).collect();
        format!(
            "{}\t{}\t{}\t{}\t{}",
            self.rules.rule.name(),
            self.size,
            result_text(self.result),
            moves.join(" "),
            self.source
        )
    }

    /// Parse a line: None for a comment or a blank line.
    pub fn parse(line: &str) -> anyhow::Result<Option<Entry>> {
        let line = line.trim_end_matches(['\r', '\n']);
        if line.trim().is_empty() || line.starts_with('#') {
            return Ok(None);
        }
        let f: Vec<&str> = line.split('\t').collect();
        let [rule, size, result, moves, source] = f[..] else {
            bail!("want 5 tab-separated fields, got {}", f.len());
        };
        let e = Entry {
            rules: parse_rule(rule).map_err(|e| anyhow!(e))?,
            size: size.parse().with_context(|| format!("bad size {size:?}"))?,
            result: match result {
                "1" => 1.0,
                "0" => 0.0,
                "0.5" => 0.5,
                _ => bail!("bad result {result:?}"),
            },
            moves: moves
                .split_whitespace()
                .map(|t| parse_point(t).ok_or_else(|| anyhow!("bad point {t:?}")))
                .collect::<anyhow::Result<_>>()?,
            source: source.to_string(),
        };
        e.board()?;
        Ok(Some(e))
    }
}

/// A panel file's text parsed: its positions in order.
pub fn parse_panel(text: &str) -> anyhow::Result<Vec<Entry>> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if let Some(e) = Entry::parse(line).with_context(|| format!("line {}", i + 1))? {
            out.push(e);
        }
    }
    Ok(out)
}

/// A panel file: its positions and the FNV-1a 64 of its bytes (the labels
/// name it).
pub fn read_panel(path: &Path) -> anyhow::Result<(Vec<Entry>, u64)> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    let panel = parse_panel(&text).with_context(|| path.display().to_string())?;
    Ok((panel, crate::brain::eval::net::fnv1a(text.as_bytes())))
}

/// An arena `games.txt` line as a game record under `rules` on a `size`
/// board (the line does not say): the opening's stones, then the played
/// moves (score 0). None for a game that did not end on the board (a
/// forfeit, a crash: the result says nothing of the position) or a line
/// that is not a record.
pub fn arena_game(line: &str, rules: RuleSet, size: usize) -> Option<GameRecord> {
    let f: Vec<&str> = line.split('\t').collect();
    if f.len() < 8 || !(f[4] == "five" || f[4] == "draw") {
        return None;
    }
    let result = match parse_result(f[3])? {
        Some(Color::Black) => 1.0,
        Some(Color::White) => 0.0,
        None => 0.5,
    };
    let opening_len: usize = f[5].parse().ok()?;
    let stones: Vec<(usize, usize)> = f[7]
        .split_whitespace()
        .map(parse_point)
        .collect::<Option<_>>()?;
    let cut = opening_len.min(stones.len());
    let g = GameRecord {
        rules,
        size,
        result,
        opening: stones[..cut].to_vec(),
        moves: stones[cut..]
            .iter()
            .map(|&(x, y)| RecordedMove {
                x,
                y,
                score: 0,
                best: false,
            })
            .collect(),
    };
    g.final_board().ok().map(|_| g)
}

/// The games of a record file, each with its 1-based line number:
/// datagen's format (5 fields a line) or the arena's `games.txt` (8; read
/// under `rules` on a `size` board, games that did not end on the board
/// skipped).
pub fn read_records(
    path: &Path,
    rules: RuleSet,
    size: usize,
) -> anyhow::Result<Vec<(usize, GameRecord)>> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let at = || format!("{}:{}", path.display(), i + 1);
        if line.split('\t').count() >= 8 {
            out.extend(arena_game(line, rules, size).map(|g| (i + 1, g)));
        } else if let Some(g) = parse_line(line).with_context(at)? {
            out.push((i + 1, g));
        }
    }
    Ok(out)
}

const USAGE: &str = "usage: sente-lab evalpanel make --rule R --count N [--seed S] [--plies A..B] [--per-game M] [--vcf-nodes V] [--vct-nodes V] [--size S] --out PANEL.txt RECORDS...
       sente-lab evalpanel label --panel PANEL.txt --out LABELS.txt [--nodes N (500000)] [--shard K/N] [--eval auto|classic|net] [--net FILE] [--quiet]
       sente-lab evalpanel score --panel PANEL.txt --labels LABELS.txt... [--eval classic|net]... [--net FILE]... [--k K] [--undecided] [--json FILE]";

/// `sente-lab evalpanel …`; returns the process exit status.
pub fn main_evalpanel(args: &[String]) -> i32 {
    let rest = args.get(1..).unwrap_or(&[]);
    let r = match args.first().map(String::as_str) {
        Some("make") => make::main_make(rest),
        Some("label") => label::main_label(rest),
        Some("score") => score::main_score(rest),
        Some("--help" | "-h") => {
            println!("{USAGE}");
            return 0;
        }
        _ => {
            eprintln!("{USAGE}");
            return 2;
        }
    };
    match r {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("evalpanel: {e:#}");
            1
        }
    }
}
