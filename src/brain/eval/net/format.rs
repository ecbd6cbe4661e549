//! The net's weights in floats (`NetWeights`), their file format ("SNET",
//! checksummed; version 1 the `Lines` form, version 2 the joint form), the
//! weights built into the binary (`weights/`) and random weights for
//! tests.

use anyhow::{bail, ensure, Result};

use super::keys::Form;
use crate::brain::eval::weights::EVAL_LIMIT;
use crate::brain::game::zobrist::SplitMix64;
use crate::brain::types::{Rule, Score};

/// The network's weights, in floats (what the trainer writes and the
/// engine quantizes at load).
#[derive(Clone, Debug, PartialEq)]
pub struct NetWeights {
    /// Which keys the cells have (`Lines`: the embedded nets' form).
    pub form: Form,
    /// Features per cell and colour.
    pub f: usize,
    /// Hidden units of the head.
    pub h: usize,
    /// Score units per logit.
    pub k: f32,
    /// `form.rows() × f`, row-major.
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
    /// `form.tempo()`: the term added to the output per tempo index
    /// (`joint::tempo_index`; empty in `Lines`).
    pub tempo: Vec<f32>,
}

/// The file's first four bytes.
pub const MAGIC: &[u8; 4] = b"SNET";
/// Format version `to_bytes` writes for the `Lines` form (the embedded
/// nets' files)...
pub const VERSION: u32 = 1;
/// ... and for the joint form (the same fields, `rows` the joint form's,
/// then the tempo table's `Form::tempo` floats before the checksum).
pub const VERSION_JOINT: u32 = 2;

/// The form of a file version, and the version of a form.
fn form_of(version: u32) -> Option<Form> {
    match version {
        VERSION => Some(Form::Lines),
        VERSION_JOINT => Some(Form::Joint),
        _ => None,
    }
}

fn version_of(form: Form) -> u32 {
    match form {
        Form::Lines => VERSION,
        Form::Joint => VERSION_JOINT,
    }
}
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
    /// All zeros (outputs `b2` = 0 everywhere), with dimensions `f`, `h`
    /// (the `Lines` form).
    pub fn zeros(f: usize, h: usize, k: f32) -> NetWeights {
        NetWeights::zeros_of(Form::Lines, f, h, k)
    }

    /// All zeros, of the form `form`.
    pub fn zeros_of(form: Form, f: usize, h: usize, k: f32) -> NetWeights {
        NetWeights {
            form,
            f,
            h,
            k,
            embed: vec![0.0; form.rows() * f],
            bias: vec![0.0; f],
            w1: vec![0.0; h * 2 * f],
            b1: vec![0.0; h],
            w2: vec![0.0; h],
            b2: 0.0,
            tempo: vec![0.0; form.tempo()],
        }
    }

    /// These weights in the joint form: the same net (its joint rows and
    /// tempo terms zero), to train on from (`tune net --init --form
    /// joint`). A joint net stays as it is.
    pub fn to_joint(&self) -> NetWeights {
        if self.form == Form::Joint {
            return self.clone();
        }
        let mut w = NetWeights::zeros_of(Form::Joint, self.f, self.h, self.k);
        w.embed[..self.embed.len()].copy_from_slice(&self.embed);
        w.bias.clone_from(&self.bias);
        w.w1.clone_from(&self.w1);
        w.b1.clone_from(&self.b1);
        w.w2.clone_from(&self.w2);
        w.b2 = self.b2;
        w
    }

    /// Do the vectors have the lengths the dimensions say, and are the
    /// dimensions within bounds and the numbers finite?
    pub fn check(&self) -> Result<()> {
        let (f, h) = (self.f, self.h);
        ensure!(
            (1..=MAX_DIM).contains(&f) && (1..=MAX_DIM).contains(&h),
            "net dimensions f={f} h={h} out of 1..={MAX_DIM}"
        );
        ensure!(self.embed.len() == self.form.rows() * f, "embed length");
        ensure!(self.tempo.len() == self.form.tempo(), "tempo length");
        ensure!(self.bias.len() == f, "bias length");
        ensure!(self.w1.len() == h * 2 * f, "w1 length");
        ensure!(self.b1.len() == h && self.w2.len() == h, "b1/w2 length");
        let all = [
            &self.embed,
            &self.bias,
            &self.w1,
            &self.b1,
            &self.w2,
            &self.tempo,
        ];
        ensure!(
            all.iter().all(|v| v.iter().all(|x| x.is_finite()))
                && self.b2.is_finite()
                && self.k.is_finite()
                && self.k > 0.0,
            "net weights not finite (or k <= 0)"
        );
        Ok(())
    }

    /// The weights file: `SNET`, version (the form's), f, h, rows (u32
    /// each), k, the arrays embed, bias, w1, b1, w2 and b2 (f32), in the
    /// joint form then the tempo table, all little-endian, then an FNV-1a
    /// 64 checksum of everything before it.
    pub fn to_bytes(&self) -> Vec<u8> {
        let rows = self.form.rows();
        let mut out = Vec::with_capacity(24 + 4 * (rows * self.f + 3 * self.f * self.h) + 8);
        out.extend_from_slice(MAGIC);
        let version = version_of(self.form);
        for v in [version, self.f as u32, self.h as u32, rows as u32] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        out.extend_from_slice(&self.k.to_le_bytes());
        for arr in [&self.embed, &self.bias, &self.w1, &self.b1, &self.w2] {
            for x in arr.iter() {
                out.extend_from_slice(&x.to_le_bytes());
            }
        }
        out.extend_from_slice(&self.b2.to_le_bytes());
        for x in &self.tempo {
            out.extend_from_slice(&x.to_le_bytes());
        }
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
        let Some(form) = form_of(version) else {
            bail!("net file version {version}, expected {VERSION} or {VERSION_JOINT}");
        };
        let (f, h, rows) = (u32_at(8) as usize, u32_at(12) as usize, u32_at(16) as usize);
        let want = form.rows();
        ensure!(
            rows == want,
            "net file ({} form) has {rows} rows, expected {want}",
            form.name()
        );
        ensure!(
            (1..=MAX_DIM).contains(&f) && (1..=MAX_DIM).contains(&h),
            "net dimensions f={f} h={h} out of 1..={MAX_DIM}"
        );
        let floats = rows * f + f + 2 * f * h + 2 * h + 1 + form.tempo();
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
        let embed = take(rows * f);
        let bias = take(f);
        let w1 = take(h * 2 * f);
        let b1 = take(h);
        let w2 = take(h);
        let b2 = take(1)[0];
        let tempo = take(form.tempo());
        let w = NetWeights {
            form,
            f,
            h,
            k,
            embed,
            bias,
            w1,
            b1,
            w2,
            b2,
            tempo,
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
/// (`--init`; fnv1a64 6667f9078a60412f). Caro's is trained the same way
/// on 9,000 caro games of the freestyle net's play (fnv1a64
/// 8a83c76f63c66465). Standard's trained the same way played worse than
/// the freestyle net, which standard uses. Recipes, exact game counts and
/// figures: `scripts/RESULTS.md`, "The net's fifth round", "Nets per
/// rule" and "A net for caro".
pub const EMBEDDED: &[u8] = include_bytes!("weights/freestyle.bin");
pub const EMBEDDED_RENJU: &[u8] = include_bytes!("weights/renju.bin");
pub const EMBEDDED_CARO: &[u8] = include_bytes!("weights/caro.bin");

/// The embedded files, in the order `embedded_file` numbers them.
pub const EMBEDDED_FILES: [&[u8]; 3] = [EMBEDDED, EMBEDDED_RENJU, EMBEDDED_CARO];

/// Which embedded file `rule`'s searches use: renju and caro their own,
/// freestyle and standard freestyle's (measured better in standard than a
/// net trained on standard's games from it).
pub fn embedded_file(rule: Rule) -> usize {
    match rule {
        Rule::Freestyle | Rule::Standard => 0,
        Rule::Renju => 1,
        Rule::Caro => 2,
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
/// one on ordinary boards; `k` the classical scale (772). The `Lines`
/// form.
pub fn random(f: usize, h: usize, seed: u64) -> NetWeights {
    random_of(Form::Lines, f, h, seed)
}

/// `random` of the form `form` (the joint form's joint rows drawn as the
/// others, after them; then its tempo terms in ±0.5).
pub fn random_of(form: Form, f: usize, h: usize, seed: u64) -> NetWeights {
    let mut rng = SplitMix64::new(seed);
    let mut uni = |lo: f32, hi: f32| {
        let u = (rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32;
        lo + (hi - lo) * u
    };
    let mut w = NetWeights::zeros_of(form, f, h, 772.0);
    w.embed.iter_mut().for_each(|x| *x = uni(-0.4, 0.4));
    w.bias.iter_mut().for_each(|x| *x = uni(-0.1, 0.4));
    let a = 0.6 / (2.0 * f as f32).sqrt();
    w.w1.iter_mut().for_each(|x| *x = uni(-a, a));
    w.b1.iter_mut().for_each(|x| *x = uni(-0.5, 0.5));
    w.w2.iter_mut().for_each(|x| *x = uni(-1.0, 1.0));
    w.b2 = uni(-0.1, 0.1);
    w.tempo.iter_mut().for_each(|x| *x = uni(-0.5, 0.5));
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

    /// The joint form's file: version 2, its rows and tempo table, read
    /// back whole; damage refused; `Lines` files keep version 1; a file
    /// whose version and rows disagree is refused.
    #[test]
    fn joint_files_round_trip() {
        let w = random_of(Form::Joint, 16, 8, 7);
        assert_eq!(w.embed.len(), Form::Joint.rows() * 16);
        assert_eq!(w.tempo.len(), 256);
        let bytes = w.to_bytes();
        let version = |b: &[u8]| u32::from_le_bytes(b[4..8].try_into().unwrap());
        assert_eq!(version(&bytes), VERSION_JOINT);
        assert_eq!(version(&random(16, 8, 7).to_bytes()), VERSION);
        let back = NetWeights::from_bytes(&bytes).unwrap();
        assert_eq!(back, w);
        for i in [5, 17, 100, bytes.len() - 20, bytes.len() - 1] {
            let mut bad = bytes.clone();
            bad[i] ^= 0x10;
            assert!(NetWeights::from_bytes(&bad).is_err(), "byte {i}");
        }
        // A version-1 header on joint rows (checksum made good) is refused.
        let mut lied = bytes[..bytes.len() - 8].to_vec();
        lied[4..8].copy_from_slice(&VERSION.to_le_bytes());
        let sum = fnv1a(&lied);
        lied.extend_from_slice(&sum.to_le_bytes());
        assert!(NetWeights::from_bytes(&lied).is_err());
        // Random `Lines` weights carry no tempo table, and the joint
        // form's first rows are drawn as theirs.
        let l = random(16, 8, 7);
        assert_eq!(l.form, Form::Lines);
        assert!(l.tempo.is_empty());
        assert_eq!(l.embed[..], w.embed[..l.embed.len()]);
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
        assert_eq!(embedded_file(Rule::Caro), 2);
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
