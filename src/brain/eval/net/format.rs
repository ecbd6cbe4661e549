//! The net's weights in floats (`NetWeights`), their file format ("SNET",
//! checksummed), the weights built into the binary (`weights/`) and
//! random weights for tests.

use anyhow::{bail, ensure, Result};

use super::keys::ROWS;
use crate::brain::eval::weights::EVAL_LIMIT;
use crate::brain::game::zobrist::SplitMix64;
use crate::brain::types::{Rule, Score};

/// The network's weights, in floats (what the trainer writes and the
/// engine quantizes at load).
#[derive(Clone, Debug, PartialEq)]
pub struct NetWeights {
    /// Features per cell and colour.
    pub f: usize,
    /// Hidden units of the head.
    pub h: usize,
    /// Score units per logit.
    pub k: f32,
    /// `rows() × f`, row-major.
    pub embed: Vec<f32>,
    /// `f`.
    pub bias: Vec<f32>,
    /// `h × 2f`, row-major; inputs `[pool_stm, pool_opp]`.
    pub w1: Vec<f32>,
    /// `h`.
    pub b1: Vec<f32>,
    /// `h`.
    pub w2: Vec<f32>,
    pub b2: f32,
}

/// The file's first four bytes.
pub const MAGIC: &[u8; 4] = b"SNET";
/// Format version written by `to_bytes`.
pub const VERSION: u32 = 1;
/// Largest `f` and `h` a file may declare (a few MB at most).
pub const MAX_DIM: usize = 1024;

/// FNV-1a, 64 bits: the file's checksum, and the fingerprint tools print
/// for a weights file (its hash as a whole).
pub fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

impl NetWeights {
    /// All zeros (outputs `b2` = 0 everywhere), with dimensions `f`, `h`.
    pub fn zeros(f: usize, h: usize, k: f32) -> NetWeights {
        NetWeights {
            f,
            h,
            k,
            embed: vec![0.0; ROWS * f],
            bias: vec![0.0; f],
            w1: vec![0.0; h * 2 * f],
            b1: vec![0.0; h],
            w2: vec![0.0; h],
            b2: 0.0,
        }
    }

    /// Do the vectors have the lengths the dimensions say, and are the
    /// dimensions within bounds and the numbers finite?
    pub fn check(&self) -> Result<()> {
        let (f, h) = (self.f, self.h);
        ensure!(
            (1..=MAX_DIM).contains(&f) && (1..=MAX_DIM).contains(&h),
            "net dimensions f={f} h={h} out of 1..={MAX_DIM}"
        );
        ensure!(self.embed.len() == ROWS * f, "embed length");
        ensure!(self.bias.len() == f, "bias length");
        ensure!(self.w1.len() == h * 2 * f, "w1 length");
        ensure!(self.b1.len() == h && self.w2.len() == h, "b1/w2 length");
        let all = [&self.embed, &self.bias, &self.w1, &self.b1, &self.w2];
        ensure!(
            all.iter().all(|v| v.iter().all(|x| x.is_finite()))
                && self.b2.is_finite()
                && self.k.is_finite()
                && self.k > 0.0,
            "net weights not finite (or k <= 0)"
        );
        Ok(())
    }

    /// The weights file: `SNET`, version, f, h, rows (u32 each), k, the
    /// arrays embed, bias, w1, b1, w2 and b2 (f32), all little-endian, then
    /// an FNV-1a 64 checksum of everything before it.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(24 + 4 * (ROWS * self.f + 3 * self.f * self.h) + 8);
        out.extend_from_slice(MAGIC);
        for v in [VERSION, self.f as u32, self.h as u32, ROWS as u32] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        out.extend_from_slice(&self.k.to_le_bytes());
        for arr in [&self.embed, &self.bias, &self.w1, &self.b1, &self.w2] {
            for x in arr.iter() {
                out.extend_from_slice(&x.to_le_bytes());
            }
        }
        out.extend_from_slice(&self.b2.to_le_bytes());
        let sum = fnv1a(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        out
    }

    /// Read a weights file written by `to_bytes` (checked: magic, version,
    /// dimensions, length, checksum, finite values).
    pub fn from_bytes(bytes: &[u8]) -> Result<NetWeights> {
        ensure!(
            bytes.len() >= 32 && &bytes[..4] == MAGIC,
            "not a net file (no SNET magic)"
        );
        let (body, tail) = bytes.split_at(bytes.len() - 8);
        let sum = u64::from_le_bytes(tail.try_into().expect("8 bytes"));
        ensure!(sum == fnv1a(body), "net file checksum mismatch");
        let u32_at = |i: usize| u32::from_le_bytes(body[i..i + 4].try_into().expect("4 bytes"));
        let version = u32_at(4);
        if version != VERSION {
            bail!("net file version {version}, expected {VERSION}");
        }
        let (f, h, rows) = (u32_at(8) as usize, u32_at(12) as usize, u32_at(16) as usize);
        ensure!(rows == ROWS, "net file has {rows} rows, expected {ROWS}");
        ensure!(
            (1..=MAX_DIM).contains(&f) && (1..=MAX_DIM).contains(&h),
            "net dimensions f={f} h={h} out of 1..={MAX_DIM}"
        );
        let floats = ROWS * f + f + 2 * f * h + 2 * h + 1;
        ensure!(
            body.len() == 24 + 4 * floats,
            "net file length {} for f={f} h={h}",
            bytes.len()
        );
        let mut at = 24;
        let mut take = |n: usize| -> Vec<f32> {
            let v = body[at..at + 4 * n]
                .chunks_exact(4)
                .map(|c| f32::from_le_bytes(c.try_into().expect("4 bytes")))
                .collect();
            at += 4 * n;
            v
        };
        let k = f32::from_le_bytes(body[20..24].try_into().expect("4 bytes"));
        let embed = take(ROWS * f);
        let bias = take(f);
        let w1 = take(h * 2 * f);
        let b1 = take(h);
        let w2 = take(h);
        let b2 = take(1)[0];
        let w = NetWeights {
            f,
            h,
            k,
            embed,
            bias,
            w1,
            b1,
            w2,
            b2,
        };
        w.check()?;
        Ok(w)
    }

    /// The score of a logit: `round(out · k)` within `EVAL_LIMIT`.
    #[inline]
    pub fn score(&self, out: f32) -> Score {
        let s = (out * self.k).round();
        (s.clamp(-(EVAL_LIMIT as f32), EVAL_LIMIT as f32)) as Score
    }
}

/// The weights built into the binary, one file per rule with a net of its
/// own (`weights/`). Freestyle's is the fifth round: `sente-lab tune net
/// --rule freestyle --f 32 --h 32 --epochs 20 --lr 0.003 --lr-end 0.0003
/// --seed 1 --threads 1` on 46,107 games of the third-round net's own play
/// at 5,000 nodes a move (data seeds 707-709; fnv1a64 e8b07bba83b26d1a).
/// Renju's starts from it and is trained on 9,167 renju games of its play
/// (`--init`; fnv1a64 6667f9078a60412f). Standard's trained the same way
/// played worse than the freestyle net, which standard and caro use.
/// Recipes, exact game counts and figures: `scripts/RESULTS.md`, "The
/// net's fifth round" and "Nets per rule".
pub const EMBEDDED: &[u8] = include_bytes!("weights/freestyle.bin");
pub const EMBEDDED_RENJU: &[u8] = include_bytes!("weights/renju.bin");

/// The embedded files, in the order `embedded_file` numbers them.
pub const EMBEDDED_FILES: [&[u8]; 2] = [EMBEDDED, EMBEDDED_RENJU];

/// Which embedded file `rule`'s searches use: renju its own, every other
/// rule freestyle's (measured better in standard than a net trained on
/// standard's games from it).
pub fn embedded_file(rule: Rule) -> usize {
    match rule {
        Rule::Freestyle | Rule::Standard | Rule::Caro => 0,
        Rule::Renju => 1,
    }
}

/// The embedded weights of `rule` (`embedded_file`), parsed (the engine
/// quantizes each file once, `quant::embedded_net_for`; a damaged file
/// fails every build's tests: `embedded_weights_load`).
pub fn embedded_for(rule: Rule) -> NetWeights {
    NetWeights::from_bytes(EMBEDDED_FILES[embedded_file(rule)])
        .expect("eval/net/weights/ holds valid net files")
}

/// Random weights for tests and the placeholder file: embeddings and bias
/// of the order of the clipped range, a head that gives logits of order
/// one on ordinary boards; `k` the classical scale (772).
pub fn random(f: usize, h: usize, seed: u64) -> NetWeights {
    let mut rng = SplitMix64::new(seed);
    let mut uni = |lo: f32, hi: f32| {
        let u = (rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32;
        lo + (hi - lo) * u
    };
    let mut w = NetWeights::zeros(f, h, 772.0);
    w.embed.iter_mut().for_each(|x| *x = uni(-0.4, 0.4));
    w.bias.iter_mut().for_each(|x| *x = uni(-0.1, 0.4));
    let a = 0.6 / (2.0 * f as f32).sqrt();
    w.w1.iter_mut().for_each(|x| *x = uni(-a, a));
    w.b1.iter_mut().for_each(|x| *x = uni(-0.5, 0.5));
    w.w2.iter_mut().for_each(|x| *x = uni(-1.0, 1.0));
    w.b2 = uni(-0.1, 0.1);
    w
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_round_trip_and_damage_is_refused() {
        let w = random(16, 8, 7);
        let bytes = w.to_bytes();
        assert_eq!(&bytes[..4], MAGIC);
        let back = NetWeights::from_bytes(&bytes).unwrap();
        assert_eq!(back, w);
        // Any flipped byte is caught (checksum, or a header check).
        for i in [0, 5, 9, 20, 100, bytes.len() / 2, bytes.len() - 1] {
            let mut bad = bytes.clone();
            bad[i] ^= 0x10;
            assert!(NetWeights::from_bytes(&bad).is_err(), "byte {i}");
        }
        assert!(NetWeights::from_bytes(&bytes[..bytes.len() - 4]).is_err());
        let mut other = random(16, 8, 8);
        assert_ne!(other, w);
        other.k = -1.0;
        assert!(NetWeights::from_bytes(&other.to_bytes()).is_err());
    }

    #[test]
    fn embedded_weights_load() {
        assert_eq!(embedded_for(Rule::Freestyle).to_bytes(), EMBEDDED);
        for rule in Rule::ALL {
            let w = embedded_for(rule);
            assert!(w.check().is_ok());
            let file = EMBEDDED_FILES[embedded_file(rule)];
            assert_eq!(w.to_bytes(), file, "{rule:?}");
            assert!(file.len() < 4 << 20, "a few MB at most");
        }
        // Each rule with a file of its own gets that file, not another's.
        assert_eq!(embedded_file(Rule::Freestyle), 0);
        assert_eq!(embedded_file(Rule::Renju), 1);
        for (i, a) in EMBEDDED_FILES.iter().enumerate() {
            for b in &EMBEDDED_FILES[i + 1..] {
                assert_ne!(
                    a, b,
                    "two rules embed the same weights: share a file instead"
                );
            }
        }
    }
}
