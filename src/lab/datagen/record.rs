//! The self-play record format (`sente-datagen v1`), shared by the data
//! generator, the net trainer and the policy fitter: one game per text
//! line, five TAB-separated fields (rule, size, result for Black, opening,
//! moves with the search's score and a best-move flag); `#` lines are
//! comments. This file owns the parser, the writer and the replay that
//! turns a record into training positions. Std only.

use std::path::Path;

use anyhow::{anyhow, bail, Context};

use crate::brain::game::Board;
use crate::brain::types::{RuleSet, Score};
use crate::cli::parse_rule;

/// The format's name and version, as the header line writes it.
pub const FORMAT: &str = "sente-datagen v1";

/// One recorded move: the point played, the search's score of the
/// position before it (side to move's view, engine units, mates as the
/// search returns them) and whether it was the search's best move (false:
/// an exploration move, not a policy target).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RecordedMove {
    pub x: usize,
    pub y: usize,
    pub score: i32,
    pub best: bool,
}

/// One game.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRecord {
    pub rules: RuleSet,
    pub size: usize,
    /// From Black's point of view: 1 Black won, 0 White won, 0.5 a draw
    /// (board full or move cap).
    pub result: f32,
    /// Stones placed before the recorded moves, Black first, colours
    /// alternating.
    pub opening: Vec<(usize, usize)>,
    pub moves: Vec<RecordedMove>,
}

/// The generator's header line (a comment).
pub fn header(rules: RuleSet, size: usize, nodes: u64, seed: u64, shard: (usize, usize)) -> String {
    format!(
        "# {FORMAT} rule={} size={size} nodes={nodes} seed={seed} shard={}/{} version={}",
        rules.rule.name(),
        shard.0,
        shard.1,
        env!("CARGO_PKG_VERSION")
    )
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

fn parse_point(tok: &str) -> anyhow::Result<(usize, usize)> {
    crate::cli::parse_point(tok).ok_or_else(|| anyhow!("bad point {tok:?}"))
}

fn parse_move(tok: &str) -> anyhow::Result<RecordedMove> {
    let f: Vec<&str> = tok.split(',').collect();
    let [x, y, score, best] = f[..] else {
        bail!("bad move {tok:?}: want x,y,score,best");
    };
    let bad = || format!("bad move {tok:?}");
    Ok(RecordedMove {
        x: x.parse().with_context(bad)?,
        y: y.parse().with_context(bad)?,
        score: score.parse::<Score>().with_context(bad)?,
        best: match best {
            "1" => true,
            "0" => false,
            _ => bail!("bad move {tok:?}: best must be 0 or 1"),
        },
    })
}

/// Parse one line: None for a comment or a blank line; an error when a
/// game line is malformed or does not replay (a point off the board or
/// taken twice).
pub fn parse_line(line: &str) -> anyhow::Result<Option<GameRecord>> {
    let line = line.trim_end_matches(['\r', '\n']);
    if line.trim().is_empty() || line.starts_with('#') {
        return Ok(None);
    }
    let f: Vec<&str> = line.split('\t').collect();
    let [rule, size, result, opening, moves] = f[..] else {
        bail!("want 5 tab-separated fields, got {}", f.len());
    };
    let rules = parse_rule(rule).map_err(|e| anyhow!(e))?;
    let size: usize = size.parse().with_context(|| format!("bad size {size:?}"))?;
    let result = match result {
        "1" => 1.0,
        "0" => 0.0,
        "0.5" => 0.5,
        _ => bail!("bad result {result:?}: want 1, 0 or 0.5"),
    };
    let opening = match opening {
        "-" => Vec::new(),
        o => o
            .split_whitespace()
            .map(parse_point)
            .collect::<anyhow::Result<_>>()?,
    };
    let moves = moves
        .split_whitespace()
        .map(parse_move)
        .collect::<anyhow::Result<_>>()?;
    let rec = GameRecord {
        rules,
        size,
        result,
        opening,
        moves,
    };
    rec.final_board()?;
    Ok(Some(rec))
}

/// Every game in a file (comments and blank lines skipped); an error names
/// the first bad line.
pub fn read_file(path: impl AsRef<Path>) -> anyhow::Result<Vec<GameRecord>> {
    let path = path.as_ref();
    let text =
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if let Some(r) =
            parse_line(line).with_context(|| format!("{}:{}", path.display(), i + 1))?
        {
            out.push(r);
        }
    }
    Ok(out)
}

impl GameRecord {
    /// Every stone in order, the opening's first (Black first).
    pub fn stones(&self) -> Vec<(usize, usize)> {
        self.opening
            .iter()
            .copied()
            .chain(self.moves.iter().map(|m| (m.x, m.y)))
            .collect()
    }

    /// The game as one line (no newline).
    pub fn format(&self) -> String {
        let opening = if self.opening.is_empty() {
            "-".to_string()
        } else {
            self.opening
                .iter()
                .map(|(x, y)| format!("{x},{y}"))
                .collect::<Vec<_>>()
                .join(" ")
        };
        let moves = self
            .moves
            .iter()
            .map(|m| format!("{},{},{},{}", m.x, m.y, m.score, u8::from(m.best)))
            .collect::<Vec<_>>()
            .join(" ");
        format!(
            "{}\t{}\t{}\t{opening}\t{moves}",
            self.rules.rule.name(),
            self.size,
            result_text(self.result)
        )
    }

    /// Walk the game: build the board, play the opening, then call `f`
    /// with the position before each recorded move (its side to move is
    /// the move's player), the move's index and the move, and play it.
    /// Panics if a stone cannot be placed (off the board or on a stone),
    /// which `parse_line` never lets through; `final_board` reports the
    /// same as an error.
    pub fn replay(&self, mut f: impl FnMut(&Board, usize, &RecordedMove)) {
        if let Err(e) = self.walk(&mut f) {
            panic!("record does not replay: {e}");
        }
    }

    /// The board after the last recorded move, or why the game does not
    /// replay.
    pub fn final_board(&self) -> anyhow::Result<Board> {
        self.walk(&mut |_, _, _| {})
    }

    fn walk(&self, f: &mut dyn FnMut(&Board, usize, &RecordedMove)) -> anyhow::Result<Board> {
        let mut board = Board::square(self.size, self.rules).map_err(|e| anyhow!("{e}"))?;
        for &(x, y) in &self.opening {
            let c = board.to_move();
            board
                .try_make(x as i64, y as i64, c)
                .map_err(|e| anyhow!("opening {x},{y}: {e}"))?;
        }
        for (i, m) in self.moves.iter().enumerate() {
            f(&board, i, m);
            let c = board.to_move();
            board
                .try_make(m.x as i64, m.y as i64, c)
                .map_err(|e| anyhow!("move {} ({},{}): {e}", i + 1, m.x, m.y))?;
        }
        Ok(board)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::brain::types::{Color, Rule, MATE};

    fn sample() -> GameRecord {
        GameRecord {
            rules: RuleSet::from(Rule::Renju),
            size: 15,
            result: 0.0,
            opening: vec![(7, 7), (8, 8), (6, 8)],
            moves: vec![
                RecordedMove {
                    x: 9,
                    y: 9,
                    score: -35,
                    best: false,
                },
                RecordedMove {
                    x: 6,
                    y: 6,
                    score: 120,
                    best: true,
                },
                RecordedMove {
                    x: 10,
                    y: 10,
                    score: -(MATE - 7),
                    best: true,
                },
            ],
        }
    }

    #[test]
    fn round_trip() {
        let r = sample();
        let line = r.format();
        assert_eq!(line.split('\t').count(), 5, "{line}");
        assert_eq!(
            line,
            "renju\t15\t0\t7,7 8,8 6,8\t9,9,-35,0 6,6,120,1 10,10,-29993,1"
        );
        assert_eq!(parse_line(&line).unwrap(), Some(r.clone()));
        let mut draw = r;
        draw.result = 0.5;
        draw.opening.clear();
        draw.rules = RuleSet::FREESTYLE;
        let line = draw.format();
        assert!(line.starts_with("freestyle\t15\t0.5\t-\t"), "{line}");
        assert_eq!(parse_line(&line).unwrap(), Some(draw));
    }

    #[test]
    fn comments_blank_lines_and_errors() {
        let h = header(RuleSet::FREESTYLE, 15, 20000, 7, (2, 3));
        assert!(h.starts_with(
            "# sente-datagen v1 rule=freestyle size=15 nodes=20000 seed=7 shard=2/3 version="
        ));
        assert_eq!(parse_line(&h).unwrap(), None);
        assert_eq!(parse_line("").unwrap(), None);
        assert_eq!(
            parse_line("freestyle\t15\t1\t-\t")
                .unwrap()
                .unwrap()
                .moves
                .len(),
            0
        );
        for bad in [
            "freestyle\t15\t1\t-",            // 4 fields
            "nope\t15\t1\t-\t",               // rule
            "freestyle\tx\t1\t-\t",           // size
            "freestyle\t15\t2\t-\t",          // result
            "freestyle\t15\t1\t7;7\t",        // point
            "freestyle\t15\t1\t-\t7,7,0",     // move fields
            "freestyle\t15\t1\t-\t7,7,0,2",   // best flag
            "freestyle\t15\t1\t-\t15,0,0,1",  // off the board
            "freestyle\t15\t1\t7,7\t7,7,0,1", // taken twice
        ] {
            assert!(parse_line(bad).is_err(), "{bad:?}");
        }
    }

    /// `replay` shows each position before its move, with that move's
    /// player to move, and ends where `final_board` does.
    #[test]
    fn replay_positions() {
        let r = sample();
        let mut seen = Vec::new();
        r.replay(|b, i, m| {
            let p = b.pos(m.x as i64, m.y as i64).unwrap();
            assert!(b.is_empty(p));
            assert_eq!(b.stone_count(), r.opening.len() + i);
            seen.push((i, b.to_move(), *m));
        });
        assert_eq!(
            seen.iter().map(|s| s.1).collect::<Vec<_>>(),
            [Color::White, Color::Black, Color::White]
        );
        assert_eq!(seen.iter().map(|s| s.2).collect::<Vec<_>>(), r.moves);
        let b = r.final_board().unwrap();
        assert_eq!(b.stone_count(), 6);
        assert_eq!(b.rules(), r.rules);
    }

    #[test]
    fn read_file_names_the_bad_line() {
        let dir = std::env::temp_dir().join(format!("sente-record-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("games.txt");
        let good = sample().format();
        std::fs::write(&path, format!("# header\n{good}\n\n{good}\n")).unwrap();
        assert_eq!(read_file(&path).unwrap(), vec![sample(), sample()]);
        std::fs::write(&path, format!("{good}\nfreestyle\t15\t1\n")).unwrap();
        let e = format!("{:#}", read_file(&path).unwrap_err());
        assert!(e.contains("games.txt:2"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
