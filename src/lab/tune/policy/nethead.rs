//! `pbrain-sente tune policy-head`: would a policy head on the value net's
//! per-cell features predict the searches' moves better than what the
//! search orders by now? (issue 44 item 6, its first measurement.)
//!
//! The net keeps, for every empty cell `p` and each colour, a clipped
//! accumulator `h_c(p)` (F values in [0, 1], `eval::net`): what a stone of
//! `c` there makes, as the net sees it. A policy head reads, per candidate,
//! `x = [h_stm(p), h_opp(p)]` (2F values) and gives a logit:
//!
//! - `linear`: `w · x`;
//! - `mlpK`: `w · x + Σ_k v_k · clamp(b_k + U_k · x, 0, 1)` (K hidden units);
//! - `ctx-mlpK`: the hidden units also read the position's pooled inputs
//!   (`[pool_stm, pool_opp]`, what the value head reads): the cell's
//!   features weighed by the whole board's;
//! - `pattern+…`: the same plus `α ·` the pattern policy's score
//!   (`search::policy`, in logits): what the net adds to it.
//!
//! Each is fitted by softmax regression over the candidates the tree
//! orders (the positions of `data::Samples`) to the chosen moves, and the
//! report gives, on held-out games, top-1 and top-3 agreement and the mean
//! negative log-likelihood beside the static ordering's and the pattern
//! policy's (its generated tables, as the search would use them). Nothing
//! here reaches the engine: a head that predicts no better than the
//! pattern policy (whose ordering lost games, RESULTS.md) is not worth a
//! place in the search.

use super::data::Samples;
use super::{agreement, load_games, split, subsets, unit_score};
use crate::brain::eval::net::{cell_h_f32, cell_keys, embedded_for, pooled_f32, NetWeights};
use crate::brain::game::board::Pos;
use crate::brain::game::zobrist::SplitMix64;
use crate::brain::search::movegen::Position;
use crate::brain::search::nethead::PolicyHead;
use crate::brain::search::policy::{table_weights, POLICY_UNIT};
use crate::cli::{num, parse_rule, value};

/// Candidates with their head inputs beside `Samples`: per candidate `2f`
/// bytes, `h · 255` rounded, the side to move's half first.
pub struct HeadData {
    pub s: Samples,
    pub f: usize,
    pub x: Vec<u8>,
    /// The pattern policy's score of each candidate, in logits: derived
    /// from `s.feats` by `derive_pattern` once the games are in.
    pub pat: Vec<f32>,
    /// Per position its pooled inputs (`eval::net::pooled_f32`, 2f values).
    pub pool: Vec<f32>,
    /// Per candidate its position.
    pub owner: Vec<u32>,
}

/// `h(p)` of colour `own` under `w`, scaled to bytes, appended to `out`.
fn push_h(
    w: &NetWeights,
    pos: &Position,
    p: Pos,
    own: crate::brain::types::Color,
    out: &mut Vec<u8>,
) {
    cell_h_f32(w, &cell_keys(&pos.ev, p, own), |_, h| {
        out.push((h * 255.0).round() as u8)
    });
}

impl HeadData {
    pub fn new(w: &NetWeights) -> HeadData {
        HeadData {
            s: Samples::default(),
            f: w.f,
            x: Vec::new(),
            pat: Vec::new(),
            pool: Vec::new(),
            owner: Vec::new(),
        }
    }

    /// Add game `g` (number `id`): `Samples::add_game` and each
    /// candidate's head inputs.
    pub fn add_game(
        &mut self,
        w: &NetWeights,
        g: &crate::lab::datagen::record::GameRecord,
        id: u32,
    ) {
        let (x, pool, owner) = (&mut self.x, &mut self.pool, &mut self.owner);
        let f2 = 2 * w.f;
        self.s.add_game_with(g, id, &mut |pos, p, k| {
            let stm = pos.stm();
            if k == 0 {
                pool.extend(pooled_f32(w, &pos.ev, pos.board, stm));
            }
            owner.push((pool.len() / f2 - 1) as u32);
            push_h(w, pos, p, stm, x);
            push_h(w, pos, p, stm.opposite(), x);
        });
    }

    /// Each candidate's pattern policy score (in logits) from its
    /// features under the generated tables: the sum the search makes
    /// (`policy::score`).
    pub fn derive_pattern(&mut self) {
        let units = table_weights();
        self.pat = (0..self.s.cell.len())
            .map(|c| unit_score(&self.s, c, &units) as f32 / POLICY_UNIT as f32)
            .collect();
    }

    fn xs(&self, c: usize) -> &[u8] {
        &self.x[c * 2 * self.f..(c + 1) * 2 * self.f]
    }
}

/// A head's form: hidden units and whether it adds the pattern score.
#[derive(Clone, Copy, Debug)]
pub struct Form {
    pub hidden: usize,
    pub pattern: bool,
    /// The hidden units read the position's pooled inputs too.
    pub context: bool,
}

impl Form {
    pub fn name(self) -> String {
        let core = if self.hidden == 0 {
            "linear".to_string()
        } else {
            format!(
                "{}mlp{}",
                if self.context { "ctx-" } else { "" },
                self.hidden
            )
        };
        if self.pattern {
            format!("pattern+{core}")
        } else {
            core
        }
    }

    /// Inputs of a hidden unit: the cell's 2f, and the pool's 2f with
    /// `context`.
    fn inputs(self, f: usize) -> usize {
        if self.context {
            4 * f
        } else {
            2 * f
        }
    }

    /// Parameters: α, w (2f), then per hidden unit U_k (`inputs`), b_k, v_k.
    fn len(self, f: usize) -> usize {
        1 + 2 * f + self.hidden * (self.inputs(f) + 2)
    }
}

/// The logit of candidate `c` under the head `p` (and, with `grad`, adds
/// `g ·` its gradient there).
fn head(d: &HeadData, form: Form, p: &[f32], c: usize, grad: Option<(&mut [f32], f32)>) -> f32 {
    let n = 2 * d.f;
    let ni = form.inputs(d.f);
    let mut inp = [0f32; 512];
    for (v, &b) in inp.iter_mut().zip(d.xs(c)) {
        *v = b as f32 / 255.0;
    }
    if form.context {
        let o = d.owner[c] as usize * n;
        inp[n..2 * n].copy_from_slice(&d.pool[o..o + n]);
    }
    let (x, inp) = (&inp[..n], &inp[..ni]);
    let alpha = if form.pattern { p[0] } else { 0.0 };
    let mut out = alpha * d.pat[c];
    let w = &p[1..1 + n];
    out += w.iter().zip(x).map(|(a, b)| a * b).sum::<f32>();
    let base = 1 + n;
    let mut acts = [0f32; 64];
    for (k, act) in acts.iter_mut().enumerate().take(form.hidden) {
        let o = base + k * (ni + 2);
        let a = p[o + ni]
            + p[o..o + ni]
                .iter()
                .zip(inp)
                .map(|(a, b)| a * b)
                .sum::<f32>();
        *act = a;
        out += p[o + ni + 1] * a.clamp(0.0, 1.0);
    }
    if let Some((gr, g)) = grad {
        if form.pattern {
            gr[0] += g * d.pat[c];
        }
        for (gw, xv) in gr[1..1 + n].iter_mut().zip(x) {
            *gw += g * xv;
        }
        for (k, &a) in acts.iter().enumerate().take(form.hidden) {
            let o = base + k * (ni + 2);
            gr[o + ni + 1] += g * a.clamp(0.0, 1.0);
            if a > 0.0 && a < 1.0 {
                let gv = g * p[o + ni + 1];
                for (gu, xv) in gr[o..o + ni].iter_mut().zip(inp) {
                    *gu += gv * xv;
                }
                gr[o + ni] += gv;
            }
        }
    }
    out
}

/// The logits of position `i`'s candidates under the head `p`, into `lg`;
/// returns their log-sum-exp (the softmax's log-normaliser).
fn logits(d: &HeadData, form: Form, p: &[f32], i: usize, lg: &mut Vec<f32>) -> f32 {
    lg.clear();
    lg.extend(d.s.range(i).map(|c| head(d, form, p, c, None)));
    let m = lg.iter().copied().fold(f32::MIN, f32::max);
    m + lg.iter().map(|v| (v - m).exp()).sum::<f32>().ln()
}

/// Mean negative log-likelihood of the chosen moves of positions `idx`.
pub fn nll(d: &HeadData, form: Form, p: &[f32], idx: &[u32]) -> f64 {
    let mut sum = 0.0f64;
    let mut lg = Vec::new();
    for &i in idx {
        let lse = logits(d, form, p, i as usize, &mut lg);
        sum += (lse - lg[d.s.target[i as usize] as usize]) as f64;
    }
    sum / idx.len().max(1) as f64
}

/// Fit `form` on the positions `train` (minibatch Adam, seeded shuffles,
/// the rate falling linearly to a tenth).
pub fn fit(d: &HeadData, form: Form, train: &[u32], epochs: usize, lr: f32, seed: u64) -> Vec<f32> {
    let n = form.len(d.f);
    let mut rng = SplitMix64::new(seed);
    let mut p = vec![0f32; n];
    p[0] = if form.pattern { 1.0 } else { 0.0 };
    let (base, ni) = (1 + 2 * d.f, form.inputs(d.f));
    for k in 0..form.hidden {
        let o = base + k * (ni + 2);
        for v in &mut p[o..o + ni] {
            *v = (rng.below(2001) as f32 / 1000.0 - 1.0) * 0.3;
        }
        p[o + ni] = 0.2;
        p[o + ni + 1] = (rng.below(2001) as f32 / 1000.0 - 1.0) * 0.1;
    }
    let (mut m1, mut m2) = (vec![0f32; n], vec![0f32; n]);
    let (b1, b2, eps) = (0.9f32, 0.999f32, 1e-8f32);
    let batch = 256;
    let mut order = train.to_vec();
    let steps = epochs * order.len().div_ceil(batch);
    let mut t = 0usize;
    let mut grad = vec![0f32; n];
    let mut lg = Vec::new();
    for _ in 0..epochs {
        for i in (1..order.len()).rev() {
            let j = rng.below(i as u64 + 1) as usize;
            order.swap(i, j);
        }
        for chunk in order.chunks(batch) {
            grad.iter_mut().for_each(|g| *g = 0.0);
            for &i in chunk {
                let lse = logits(d, form, &p, i as usize, &mut lg);
                let tg = d.s.target[i as usize] as usize;
                for (k, c) in d.s.range(i as usize).enumerate() {
                    let g = ((lg[k] - lse).exp() - (k == tg) as u8 as f32) / chunk.len() as f32;
                    head(d, form, &p, c, Some((&mut grad, g)));
                }
            }
            t += 1;
            let rate = lr * (1.0 - 0.9 * t as f32 / steps as f32);
            for k in 0..n {
                m1[k] = b1 * m1[k] + (1.0 - b1) * grad[k];
                m2[k] = b2 * m2[k] + (1.0 - b2) * grad[k] * grad[k];
                let mh = m1[k] / (1.0 - b1.powi(t as i32));
                let vh = m2[k] / (1.0 - b2.powi(t as i32));
                p[k] -= rate * mh / (vh.sqrt() + eps);
            }
            if !form.pattern {
                p[0] = 0.0;
            }
        }
    }
    p
}

/// The fitted parameters `p` of `form` as the engine's head
/// (`search::nethead::PolicyHead`): the same logit on the same inputs
/// (a form without the pattern score gets α = 0, one without context
/// zero weights on the pool).
pub fn to_policy_head(f: usize, form: Form, p: &[f32]) -> PolicyHead {
    let (n, ni) = (2 * f, form.inputs(f));
    let mut params = vec![if form.pattern { p[0] } else { 0.0 }];
    params.extend_from_slice(&p[1..1 + n]);
    for k in 0..form.hidden {
        let o = 1 + n + k * (ni + 2);
        params.extend_from_slice(&p[o..o + ni]);
        params.extend(std::iter::repeat_n(0.0, 2 * n - ni));
        params.extend_from_slice(&p[o + ni..o + ni + 2]);
    }
    PolicyHead {
        f,
        hidden: form.hidden,
        params,
    }
}

/// The form named `name` (`Form::name`'s names, hidden units as given).
fn parse_form(name: &str) -> Option<Form> {
    let (pattern, core) = match name.strip_prefix("pattern+") {
        Some(c) => (true, c),
        None => (false, name),
    };
    let (context, core) = match core.strip_prefix("ctx-") {
        Some(c) => (true, c),
        None => (false, core),
    };
    let hidden = if core == "linear" && !context {
        0
    } else {
        core.strip_prefix("mlp")?
            .parse()
            .ok()
            .filter(|&k| k > 0 && k <= 64)?
    };
    Some(Form {
        hidden,
        pattern,
        context,
    })
}

const USAGE: &str = "usage: pbrain-sente tune policy-head [--rule R] [--net FILE] [--epochs N] [--lr X] [--hidden K] [--seed S] [--holdout PCT] [--max-positions N] [--form NAME --out HEAD] RECORDS.txt...
  --form NAME  fit only this form (linear, mlpK, ctx-mlpK, each optionally pattern+...)
  --out HEAD   write the fitted head for pbrain-sente --policy-head (needs --form)";

/// `pbrain-sente tune policy-head …` (`args`: the words after
/// `policy-head`). Returns the process exit status.
pub fn main_head(args: &[String]) -> i32 {
    let (mut epochs, mut lr, mut hidden, mut seed) = (6usize, 0.01f32, 16usize, 1u64);
    let (mut holdout, mut max_positions) = (10u64, 150_000usize);
    let mut rule = crate::brain::types::Rule::Freestyle;
    let mut net_path: Option<String> = None;
    let (mut only, mut out_path): (Option<Form>, Option<String>) = (None, None);
    let mut files = Vec::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut val = || value(&mut it, a);
        let r = match a.as_str() {
            "--rule" => val().and_then(|v| parse_rule(&v)).map(|r| rule = r.rule),
            "--net" => val().map(|v| net_path = Some(v)),
            "--epochs" => val().and_then(|v| num(a, &v)).map(|n| epochs = n),
            "--lr" => val().and_then(|v| num(a, &v)).map(|n| lr = n),
            "--hidden" => val()
                .and_then(|v| num(a, &v))
                .map(|n: usize| hidden = n.min(64)),
            "--seed" => val().and_then(|v| num(a, &v)).map(|n| seed = n),
            "--holdout" => val()
                .and_then(|v| num(a, &v))
                .map(|n: u64| holdout = n.min(100)),
            "--max-positions" => val().and_then(|v| num(a, &v)).map(|n| max_positions = n),
            "--form" => val().and_then(|v| {
                parse_form(&v)
                    .map(|f| only = Some(f))
                    .ok_or_else(|| format!("--form: no form {v:?}"))
            }),
            "--out" => val().map(|v| out_path = Some(v)),
            f if f.starts_with("--") => Err(format!("unknown option {f}")),
            f => {
                files.push(f.to_string());
                Ok(())
            }
        };
        if let Err(e) = r {
            eprintln!("tune policy-head: {e}\n{USAGE}");
            return 2;
        }
    }
    if files.is_empty() || (out_path.is_some() && only.is_none()) {
        eprintln!("{USAGE}");
        return 2;
    }
    let w = match &net_path {
        Some(path) => match std::fs::read(path)
            .map_err(|e| e.to_string())
            .and_then(|b| NetWeights::from_bytes(&b).map_err(|e| e.to_string()))
        {
            Ok(w) => w,
            Err(e) => {
                eprintln!("tune policy-head: --net {path}: {e}");
                return 1;
            }
        },
        None => embedded_for(rule),
    };
    if 2 * w.f > 256 {
        eprintln!("tune policy-head: the net is too wide ({} > 128)", w.f);
        return 1;
    }
    let mut d = HeadData::new(&w);
    let games = match load_games(&files, max_positions, &mut |g, id| {
        d.add_game(&w, g, id);
        d.s.len()
    }) {
        Ok(n) => n,
        Err(e) => {
            eprintln!("tune policy-head: {e}");
            return 1;
        }
    };
    d.derive_pattern();
    let (train, test) = split(&d.s, seed, holdout);
    println!(
        "games {games}, positions {} ({:.1} candidates each), {} fitted, {} held out; net f {}",
        d.s.len(),
        d.s.cell.len() as f64 / d.s.len().max(1) as f64,
        train.len(),
        test.len(),
        d.f
    );
    if train.is_empty() || test.is_empty() {
        eprintln!("tune policy-head: too few positions");
        return 1;
    }
    let subsets = subsets(&d.s, &test);
    let units = table_weights();
    let row = |name: &str, score: &dyn Fn(usize) -> i64, loss: &dyn Fn(&[u32]) -> f64| {
        let mut line = format!("{name:<20}");
        for (_, idx) in &subsets {
            let (a1, a3) = agreement(&d.s, idx, score);
            line += &format!(
                " {:>5.1}% {:>5.1}% {:>6.3}",
                100.0 * a1,
                100.0 * a3,
                loss(idx)
            );
        }
        println!("{line}");
    };
    println!(
        "{:<20} {:>21} {:>21} {:>21}",
        "held out: top1 top3 nll",
        format!("all ({})", subsets[0].1.len()),
        format!("unforced ({})", subsets[1].1.len()),
        format!("forced ({})", subsets[2].1.len())
    );
    row("static ordering", &|c| d.s.stat[c] as i64, &|_| f64::NAN);
    let pat_form = Form {
        hidden: 0,
        pattern: true,
        context: false,
    };
    let mut pat_only = vec![0f32; pat_form.len(d.f)];
    pat_only[0] = 1.0;
    row("pattern policy", &|c| unit_score(&d.s, c, &units), &|idx| {
        nll(&d, pat_form, &pat_only, idx)
    });
    let form = |hidden, pattern, context| Form {
        hidden,
        pattern,
        context,
    };
    let forms = match only {
        Some(f) => vec![f],
        None => vec![
            form(0, false, false),
            form(hidden, false, false),
            form(hidden, false, true),
            form(0, true, false),
            form(hidden, true, false),
            form(hidden, true, true),
        ],
    };
    for form in forms {
        let t0 = std::time::Instant::now();
        let p = fit(&d, form, &train, epochs, lr, seed);
        let score = |c: usize| (head(&d, form, &p, c, None) * 4096.0) as i64;
        row(&form.name(), &score, &|idx| nll(&d, form, &p, idx));
        eprintln!(
            "{}: fitted in {:.0} s, train nll {:.4}{}",
            form.name(),
            t0.elapsed().as_secs_f64(),
            nll(&d, form, &p, &train),
            if form.pattern {
                format!(", alpha {:.3}", p[0])
            } else {
                String::new()
            }
        );
        if let Some(path) = &out_path {
            let text = to_policy_head(d.f, form, &p).to_text();
            if let Err(e) = std::fs::write(path, text) {
                eprintln!("tune policy-head: --out {path}: {e}");
                return 1;
            }
            eprintln!("wrote {path}");
        }
    }
    0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lab::datagen::record::parse_line;

    /// A short game's candidates under a random net of width 4 (`seed`).
    fn game_data(seed: u64) -> HeadData {
        let w = crate::brain::eval::net::random(4, 4, seed);
        let mut d = HeadData::new(&w);
        let g = parse_line("freestyle\t15\t1\t7,7 8,8\t7,8,10,1 9,9,-5,1 6,6,0,1")
            .unwrap()
            .unwrap();
        d.add_game(&w, &g, 0);
        d.derive_pattern();
        d
    }

    /// `n` parameters in [-1, 1] from `seed`.
    fn random_params(n: usize, seed: u64) -> Vec<f32> {
        let mut rng = SplitMix64::new(seed);
        (0..n)
            .map(|_| rng.below(2001) as f32 / 1000.0 - 1.0)
            .collect()
    }

    /// The analytic gradient of a candidate's logit agrees with finite
    /// differences, for every form.
    #[test]
    fn head_gradient_matches_finite_differences() {
        let d = game_data(7);
        assert!(d.s.len() >= 2);
        assert_eq!(d.pat.len(), d.s.cell.len());
        assert_eq!(d.x.len(), d.s.cell.len() * 2 * d.f);
        assert!(
            d.x.iter().any(|&b| b > 0 && b < 255),
            "some clipped value inside (0, 1)"
        );
        let forms = [(0, false, false), (3, true, false), (3, false, true)];
        for (hidden, pattern, context) in forms {
            let form = Form {
                hidden,
                pattern,
                context,
            };
            let n = form.len(d.f);
            let p = random_params(n, 3);
            for c in [0, 3] {
                let mut gr = vec![0f32; n];
                head(&d, form, &p, c, Some((&mut gr, 1.0)));
                for k in 0..n {
                    let mut q = p.clone();
                    q[k] += 1e-2;
                    let up = head(&d, form, &q, c, None);
                    q[k] -= 2e-2;
                    let dn = head(&d, form, &q, c, None);
                    let fd = (up - dn) / 2e-2;
                    assert!(
                        (fd - gr[k]).abs() < 2e-2,
                        "{} param {k}: {fd} vs {}",
                        form.name(),
                        gr[k]
                    );
                }
            }
        }
    }

    /// The engine's head made from fitted parameters gives the fitter's
    /// logit on the same inputs, for every form; form names parse back.
    #[test]
    fn the_engine_head_equals_the_fitters_on_its_inputs() {
        let d = game_data(9);
        for (hidden, pattern, context) in [
            (0, false, false),
            (3, true, false),
            (3, true, true),
            (2, false, true),
        ] {
            let form = Form {
                hidden,
                pattern,
                context,
            };
            let back = parse_form(&form.name()).unwrap();
            assert_eq!(
                (back.hidden, back.pattern, back.context),
                (hidden, pattern, context)
            );
            let p = random_params(form.len(d.f), 4);
            let h = to_policy_head(d.f, form, &p);
            assert_eq!(h.params.len(), PolicyHead::len(d.f, hidden));
            let mut ctx = Vec::new();
            for c in 0..d.s.cell.len() {
                let x: Vec<f32> = d.xs(c).iter().map(|&b| b as f32 / 255.0).collect();
                let o = d.owner[c] as usize * 2 * d.f;
                h.context(&d.pool[o..o + 2 * d.f], &mut ctx);
                let (want, got) = (head(&d, form, &p, c, None), h.logit(&x, d.pat[c], &ctx));
                assert!((want - got).abs() < 1e-4, "{}: {want} {got}", form.name());
            }
        }
        assert!(parse_form("mlp0").is_none() && parse_form("ctx-linear").is_none());
    }

    /// A head learns a planted rule: on random candidates, the chosen move
    /// is the one with the largest first input; the fitted linear head
    /// ranks it first far more often than chance.
    #[test]
    fn fit_learns_a_planted_choice() {
        let f = 2;
        let mut s = Samples::default();
        s.starts.push(0);
        let (mut x, mut pat) = (Vec::new(), Vec::new());
        let mut rng = SplitMix64::new(5);
        for i in 0..400u32 {
            let mut best = (0, 0u8);
            for c in 0..6u16 {
                let v: Vec<u8> = (0..2 * f).map(|_| rng.below(256) as u8).collect();
                if v[0] > best.1 {
                    best = (c, v[0]);
                }
                x.extend(v);
                pat.push(0.0);
                s.feats.push([0; crate::brain::search::policy::ACTIVE]);
                s.cell.push(c);
                s.stat.push(0);
            }
            s.starts.push(s.cell.len() as u32);
            s.target.push(best.0);
            s.game.push(i);
            s.forced.push(false);
        }
        let owner = (0..400u32).flat_map(|i| [i; 6]).collect();
        let pool = vec![0.0; 400 * 2 * f];
        let d = HeadData {
            s,
            f,
            x,
            pat,
            pool,
            owner,
        };
        let idx: Vec<u32> = (0..400).collect();
        let form = Form {
            hidden: 0,
            pattern: false,
            context: false,
        };
        let p = fit(&d, form, &idx, 100, 0.1, 1);
        let (t1, _) = agreement(&d.s, &idx, |c| {
            (head(&d, form, &p, c, None) * 4096.0) as i64
        });
        assert!(t1 > 0.8, "top-1 {t1}");
        assert!(nll(&d, form, &p, &idx) < (6f64).ln() * 0.6);
    }
}
