//! Temporary stand-ins for `crate::eval::net` and `crate::datagen::record`
//! (being written on the `net` and `datagen` branches) with the agreed
//! APIs, so the trainer builds and tests before those land. Removed at
//! the merge.

use crate::eval::weights::CLASSES;
use crate::eval::Evaluator;
use crate::game::board::{Board, Pos};
use crate::types::{Color, RuleSet};

pub const LINE_KEYS: usize = 144;
pub const POOL_DIV: f32 = 32.0;

pub fn rows() -> usize {
    LINE_KEYS + 2 * CLASSES
}

pub fn cell_keys(ev: &Evaluator, p: Pos, own: Color) -> [u16; 6] {
    let opp = own.opposite();
    let mut k = [0u16; 6];
    for (d, key) in k.iter_mut().take(4).enumerate() {
        *key = ev.pattern(p, own, d) as u16 * 12 + ev.pattern(p, opp, d) as u16;
    }
    k[4] = (LINE_KEYS + ev.class(p, own) as usize) as u16;
    k[5] = (LINE_KEYS + CLASSES + ev.class(p, opp) as usize) as u16;
    k
}

#[derive(Clone, Debug, PartialEq)]
pub struct NetWeights {
    pub f: usize,
    pub h: usize,
    pub k: f32,
    pub embed: Vec<f32>,
    pub bias: Vec<f32>,
    pub w1: Vec<f32>,
    pub b1: Vec<f32>,
    pub w2: Vec<f32>,
    pub b2: f32,
}

impl NetWeights {
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut v = Vec::new();
        v.extend((self.f as u32).to_le_bytes());
        v.extend((self.h as u32).to_le_bytes());
        v.extend(self.k.to_le_bytes());
        for t in [&self.embed, &self.bias, &self.w1, &self.b1, &self.w2] {
            for x in t.iter() {
                v.extend(x.to_le_bytes());
            }
        }
        v.extend(self.b2.to_le_bytes());
        v
    }

    pub fn from_bytes(b: &[u8]) -> anyhow::Result<NetWeights> {
        let mut at = 0;
        let mut word = || -> anyhow::Result<[u8; 4]> {
            let w = b.get(at..at + 4).ok_or_else(|| anyhow::anyhow!("short"))?;
            at += 4;
            Ok([w[0], w[1], w[2], w[3]])
        };
        let f = u32::from_le_bytes(word()?) as usize;
        let h = u32::from_le_bytes(word()?) as usize;
        let k = f32::from_le_bytes(word()?);
        let mut vec = |n: usize| -> anyhow::Result<Vec<f32>> {
            (0..n).map(|_| word().map(f32::from_le_bytes)).collect()
        };
        let embed = vec(rows() * f)?;
        let bias = vec(f)?;
        let w1 = vec(h * 2 * f)?;
        let b1 = vec(h)?;
        let w2 = vec(h)?;
        let b2 = vec(1)?[0];
        Ok(NetWeights {
            f,
            h,
            k,
            embed,
            bias,
            w1,
            b1,
            w2,
            b2,
        })
    }
}

#[cfg(test)]
pub fn forward_f32(w: &NetWeights, ev: &Evaluator, board: &Board, stm: Color) -> f32 {
    let f = w.f;
    let mut x = vec![0f32; 2 * f];
    for (s, c) in [stm, stm.opposite()].into_iter().enumerate() {
        for p in board.empty_cells() {
            let keys = cell_keys(ev, p, c);
            for i in 0..f {
                let mut acc = w.bias[i];
                for &k in &keys {
                    acc += w.embed[k as usize * f + i];
                }
                x[s * f + i] += acc.clamp(0.0, 1.0);
            }
        }
    }
    for v in &mut x {
        *v /= POOL_DIV;
    }
    let mut out = w.b2;
    for j in 0..w.h {
        let a: f32 = w.b1[j] + (0..2 * f).map(|i| w.w1[j * 2 * f + i] * x[i]).sum::<f32>();
        out += w.w2[j] * a.clamp(0.0, 1.0);
    }
    out
}

pub struct RecordedMove {
    pub x: usize,
    pub y: usize,
    pub score: i32,
    pub best: bool,
}

pub struct GameRecord {
    pub rules: RuleSet,
    pub size: usize,
    pub result: f32,
    pub opening: Vec<(usize, usize)>,
    pub moves: Vec<RecordedMove>,
}

fn xy(s: &str) -> anyhow::Result<(usize, usize)> {
    let (x, y) = s
        .split_once(',')
        .ok_or_else(|| anyhow::anyhow!("bad {s}"))?;
    Ok((x.parse()?, y.parse()?))
}

pub fn parse_line(line: &str) -> anyhow::Result<Option<GameRecord>> {
    let line = line.trim();
    if line.is_empty() || line.starts_with('#') {
        return Ok(None);
    }
    let f: Vec<&str> = line.split('\t').collect();
    anyhow::ensure!(f.len() == 5, "5 fields");
    let rules = crate::arena::cli::parse_rule(f[0]).map_err(anyhow::Error::msg)?;
    let opening = if f[3] == "-" {
        vec![]
    } else {
        f[3].split(' ').map(xy).collect::<anyhow::Result<_>>()?
    };
    let mut moves = Vec::new();
    for m in f[4].split(' ').filter(|m| !m.is_empty()) {
        let p: Vec<&str> = m.split(',').collect();
        anyhow::ensure!(p.len() == 4, "bad move {m}");
        moves.push(RecordedMove {
            x: p[0].parse()?,
            y: p[1].parse()?,
            score: p[2].parse()?,
            best: p[3] == "1",
        });
    }
    Ok(Some(GameRecord {
        rules,
        size: f[1].parse()?,
        result: f[2].parse()?,
        opening,
        moves,
    }))
}

pub fn read_file(path: impl AsRef<std::path::Path>) -> anyhow::Result<Vec<GameRecord>> {
    let text = std::fs::read_to_string(path)?;
    let mut v = Vec::new();
    for l in text.lines() {
        if let Some(g) = parse_line(l)? {
            v.push(g);
        }
    }
    Ok(v)
}

impl GameRecord {
    pub fn format(&self) -> String {
        let xy = |v: &[(usize, usize)]| {
            v.iter()
                .map(|(x, y)| format!("{x},{y}"))
                .collect::<Vec<_>>()
                .join(" ")
        };
        let opening = if self.opening.is_empty() {
            "-".into()
        } else {
            xy(&self.opening)
        };
        let moves = self
            .moves
            .iter()
            .map(|m| format!("{},{},{},{}", m.x, m.y, m.score, m.best as u8))
            .collect::<Vec<_>>()
            .join(" ");
        format!(
            "{}\t{}\t{}\t{}\t{}",
            self.rules.rule.name(),
            self.size,
            self.result,
            opening,
            moves
        )
    }

    pub fn replay(&self, mut f: impl FnMut(&Board, usize, &RecordedMove)) {
        let Ok(mut b) = Board::square(self.size, self.rules) else {
            return;
        };
        for &(x, y) in &self.opening {
            let c = b.to_move();
            if b.try_make(x as i64, y as i64, c).is_err() {
                return;
            }
        }
        for (i, m) in self.moves.iter().enumerate() {
            f(&b, i, m);
            let c = b.to_move();
            if b.try_make(m.x as i64, m.y as i64, c).is_err() {
                return;
            }
        }
    }
}
