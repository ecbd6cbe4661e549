//! The network as the trainer sees it: all weights in one flat `f32`
//! vector (`Shape` gives the layout), conversion to and from
//! `net::NetWeights`, the seeded initialisation, and the forward and
//! backward pass of one compressed position, written out by hand.
//!
//! Forward, per side s (side to move, then the opponent) and distinct
//! cell c with count n: `acc = bias + Σ embed[key]` over its six keys
//! (eight in the joint form: `data::joint_rows`; and, with the
//! experimental line window, `+ Σ embed[rows + wkey]` over its four window
//! keys: `data::window_key`), `pool_s = Σ n · clamp(acc, 0, 1) /
//! POOL_DIV`; then `a = W1 [pool_stm, pool_opp] + b1`, `z = clamp(a, 0,
//! 1)`, `out = w2 · z + b2` (in the joint form `+ tempo[t]`, `t` the
//! position's tempo index), the logit of the side to move's expected
//! result. The clamps pass gradient only strictly inside (0, 1).

use super::data::{joint_rows, window_rows, Input};
use crate::brain::eval::net::{Form, NetWeights, POOL_DIV};
use crate::brain::game::zobrist::SplitMix64;

/// Sizes of the net: its form, embedding rows (the form's `rows`, then
/// the window keys' `win`, none without the window), features per row
/// `f`, hidden `h`, and the tempo table's entries (`tempo`, none in
/// `Lines`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    pub form: Form,
    pub rows: usize,
    pub win: usize,
    pub f: usize,
    pub h: usize,
    pub tempo: usize,
}

impl Shape {
    pub fn new(f: usize, h: usize) -> Shape {
        Shape::with_window(f, h, 0)
    }
    /// With the window keys of radius `r` (`window_rows(r)` more rows).
    pub fn with_window(f: usize, h: usize, r: usize) -> Shape {
        Shape::of(Form::Lines, f, h, r)
    }
    /// Of the form `form`, with the window keys of radius `r`.
    pub fn of(form: Form, f: usize, h: usize, r: usize) -> Shape {
        Shape {
            form,
            rows: form.rows(),
            win: window_rows(r),
            f,
            h,
            tempo: form.tempo(),
        }
    }
    pub fn bias(&self) -> usize {
        (self.rows + self.win) * self.f
    }
    pub fn w1(&self) -> usize {
        self.bias() + self.f
    }
    pub fn b1(&self) -> usize {
        self.w1() + self.h * 2 * self.f
    }
    pub fn w2(&self) -> usize {
        self.b1() + self.h
    }
    pub fn b2(&self) -> usize {
        self.w2() + self.h
    }
    /// The tempo table (after `b2`; none in `Lines`).
    pub fn tempo_at(&self) -> usize {
        self.b2() + 1
    }
    /// Number of weights.
    pub fn len(&self) -> usize {
        self.tempo_at() + self.tempo
    }

    pub fn is_empty(&self) -> bool {
        false
    }

    /// The flat weights as the engine's weights, with scale `k`. Not with
    /// the window (the engine has no window keys).
    pub fn to_weights(&self, w: &[f32], k: f32) -> NetWeights {
        assert_eq!(self.win, 0, "the engine's weights have no window rows");
        NetWeights {
            form: self.form,
            f: self.f,
            h: self.h,
            k,
            embed: w[..self.bias()].to_vec(),
            bias: w[self.bias()..self.w1()].to_vec(),
            w1: w[self.w1()..self.b1()].to_vec(),
            b1: w[self.b1()..self.w2()].to_vec(),
            w2: w[self.w2()..self.b2()].to_vec(),
            b2: w[self.b2()],
            tempo: w[self.tempo_at()..self.len()].to_vec(),
        }
    }

    /// The engine's weights as a shape and flat weights.
    pub fn of_weights(n: &NetWeights) -> (Shape, Vec<f32>) {
        let s = Shape::of(n.form, n.f, n.h, 0);
        let mut w = Vec::with_capacity(s.len());
        for t in [&n.embed, &n.bias, &n.w1, &n.b1, &n.w2] {
            w.extend_from_slice(t);
        }
        w.push(n.b2);
        w.extend_from_slice(&n.tempo);
        (s, w)
    }

    /// Seeded initial weights: embedding rows uniform in ±0.1 around a
    /// bias of 0.25 (cells start inside the clamp), the first layer
    /// uniform in ±0.5/√(2f) with bias 0.5 (hidden units start inside
    /// theirs), the output layer uniform in ±1/√h, output bias 0. Window
    /// rows start at zero and draw nothing: a net with the window starts
    /// as the same seed's net without it (random rows for four more keys
    /// widen the cells' spread, and runs died in the clamps). So do the
    /// joint form's joint rows and its tempo terms: a joint net starts as
    /// the same seed's `Lines` net.
    pub fn init(&self, seed: u64) -> Vec<f32> {
        let mut rng = SplitMix64::new(seed ^ 0x6e65_745f_696e_6974);
        let mut u = |a: f32| ((rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32 * 2.0 - 1.0) * a;
        let mut w = vec![0f32; self.len()];
        for v in &mut w[..Form::Lines.rows() * self.f] {
            *v = u(0.1);
        }
        w[self.bias()..self.w1()].fill(0.25);
        let a1 = 0.5 / ((2 * self.f) as f32).sqrt();
        for v in &mut w[self.w1()..self.b1()] {
            *v = u(a1);
        }
        w[self.b1()..self.w2()].fill(0.5);
        let a2 = 1.0 / (self.h as f32).sqrt();
        for v in &mut w[self.w2()..self.b2()] {
            *v = u(a2);
        }
        w
    }
}

/// Per-thread working memory of one pass.
#[derive(Clone, Debug, Default)]
pub struct Scratch {
    /// Each distinct cell's `acc` (f per cell), side to move's then the
    /// opponent's.
    pub(crate) acc: Vec<f32>,
    /// `[pool_stm, pool_opp]`.
    x: Vec<f32>,
    /// First layer before the clamp.
    pub(crate) a: Vec<f32>,
    dx: Vec<f32>,
    /// One cell's gradient with respect to its `acc`.
    dacc: Vec<f32>,
}

/// Forward pass of one position (its two sides' cells and, if `sh` has
/// window rows, their window keys): the logit. Keeps what `backward` needs
/// in `s`.
pub fn forward<'a>(sh: &Shape, w: &[f32], input: impl Into<Input<'a>>, s: &mut Scratch) -> f32 {
    let input = input.into();
    match (sh.win > 0, sh.form) {
        (true, Form::Lines) => forward_with::<true, false>(sh, w, input, s),
        (false, Form::Lines) => forward_with::<false, false>(sh, w, input, s),
        (true, Form::Joint) => forward_with::<true, true>(sh, w, input, s),
        (false, Form::Joint) => forward_with::<false, true>(sh, w, input, s),
    }
}

/// `forward`, with (`WIN`) or without the window keys, in the joint form
/// (`JOINT`) or not.
#[inline(always)]
fn forward_with<const WIN: bool, const JOINT: bool>(
    sh: &Shape,
    w: &[f32],
    input: Input,
    s: &mut Scratch,
) -> f32 {
    let f = sh.f;
    let sides = input.sides;
    let n = sides.0.len() + sides.1.len();
    if WIN {
        assert_eq!(input.win.len(), n, "window keys missing");
    }
    s.acc.resize(n * f, 0.0);
    s.x.clear();
    s.x.resize(2 * f, 0.0);
    let bias = &w[sh.bias()..sh.w1()];
    let embed = &w[..sh.bias()];
    for (i, cell) in sides.0.iter().chain(sides.1).enumerate() {
        let side = (i >= sides.0.len()) as usize;
        let acc = &mut s.acc[i * f..(i + 1) * f];
        acc.copy_from_slice(bias);
        for &k in &cell.keys {
            let row = &embed[k as usize * f..(k as usize + 1) * f];
            for (a, r) in acc.iter_mut().zip(row) {
                *a += r;
            }
        }
        if JOINT {
            for k in joint_rows(cell) {
                let row = &embed[k * f..(k + 1) * f];
                for (a, r) in acc.iter_mut().zip(row) {
                    *a += r;
                }
            }
        }
        if WIN {
            for &k in &input.win[i] {
                let k = sh.rows + k as usize;
                let row = &embed[k * f..(k + 1) * f];
                for (a, r) in acc.iter_mut().zip(row) {
                    *a += r;
                }
            }
        }
        let cnt = cell.n as f32;
        for (p, a) in s.x[side * f..(side + 1) * f].iter_mut().zip(acc.iter()) {
            *p += cnt * a.clamp(0.0, 1.0);
        }
    }
    for v in &mut s.x {
        *v /= POOL_DIV;
    }
    s.a.clear();
    let mut out = w[sh.b2()];
    for j in 0..sh.h {
        let row = &w[sh.w1() + j * 2 * f..sh.w1() + (j + 1) * 2 * f];
        let a = w[sh.b1() + j] + row.iter().zip(&s.x).map(|(u, v)| u * v).sum::<f32>();
        s.a.push(a);
        out += w[sh.w2() + j] * a.clamp(0.0, 1.0);
    }
    if JOINT {
        out += w[sh.tempo_at() + input.tempo as usize];
    }
    out
}

/// Add to `g` the gradient of a loss whose derivative with respect to the
/// logit is `dout`, for the position `forward` last saw with `s`.
pub fn backward<'a>(
    sh: &Shape,
    w: &[f32],
    input: impl Into<Input<'a>>,
    dout: f32,
    s: &mut Scratch,
    g: &mut [f32],
) {
    let input = input.into();
    match (sh.win > 0, sh.form) {
        (true, Form::Lines) => backward_with::<true, false>(sh, w, input, dout, s, g),
        (false, Form::Lines) => backward_with::<false, false>(sh, w, input, dout, s, g),
        (true, Form::Joint) => backward_with::<true, true>(sh, w, input, dout, s, g),
        (false, Form::Joint) => backward_with::<false, true>(sh, w, input, dout, s, g),
    }
}

/// `backward`, with (`WIN`) or without the window keys, in the joint form
/// (`JOINT`) or not.
#[inline(always)]
fn backward_with<const WIN: bool, const JOINT: bool>(
    sh: &Shape,
    w: &[f32],
    input: Input,
    dout: f32,
    s: &mut Scratch,
    g: &mut [f32],
) {
    let f = sh.f;
    let sides = input.sides;
    if WIN {
        assert_eq!(input.win.len(), sides.0.len() + sides.1.len());
    }
    g[sh.b2()] += dout;
    if JOINT {
        g[sh.tempo_at() + input.tempo as usize] += dout;
    }
    s.dx.clear();
    s.dx.resize(2 * f, 0.0);
    for j in 0..sh.h {
        let a = s.a[j];
        g[sh.w2() + j] += dout * a.clamp(0.0, 1.0);
        if a <= 0.0 || a >= 1.0 {
            continue;
        }
        let da = dout * w[sh.w2() + j];
        g[sh.b1() + j] += da;
        let r = sh.w1() + j * 2 * f;
        for (i, (gw, &x)) in g[r..r + 2 * f].iter_mut().zip(&s.x).enumerate() {
            *gw += da * x;
            s.dx[i] += da * w[r + i];
        }
    }
    for v in &mut s.dx {
        *v /= POOL_DIV;
    }
    s.dacc.resize(f, 0.0);
    let dacc = &mut s.dacc;
    let (embed_g, rest) = g.split_at_mut(sh.bias());
    let bias_g = &mut rest[..f];
    for (i, cell) in sides.0.iter().chain(sides.1).enumerate() {
        let side = (i >= sides.0.len()) as usize;
        let acc = &s.acc[i * f..(i + 1) * f];
        let dp = &s.dx[side * f..(side + 1) * f];
        let cnt = cell.n as f32;
        for ((d, &a), &p) in dacc.iter_mut().zip(acc).zip(dp) {
            *d = if a > 0.0 && a < 1.0 { cnt * p } else { 0.0 };
        }
        for (b, d) in bias_g.iter_mut().zip(dacc.iter()) {
            *b += d;
        }
        for &k in &cell.keys {
            let row = &mut embed_g[k as usize * f..(k as usize + 1) * f];
            for (r, d) in row.iter_mut().zip(dacc.iter()) {
                *r += d;
            }
        }
        if JOINT {
            for k in joint_rows(cell) {
                let row = &mut embed_g[k * f..(k + 1) * f];
                for (r, d) in row.iter_mut().zip(dacc.iter()) {
                    *r += d;
                }
            }
        }
        if WIN {
            for &k in &input.win[i] {
                let k = sh.rows + k as usize;
                let row = &mut embed_g[k * f..(k + 1) * f];
                for (r, d) in row.iter_mut().zip(dacc.iter()) {
                    *r += d;
                }
            }
        }
    }
}

/// Which loss the optimiser follows (both are always reported).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Loss {
    /// Binary cross-entropy of `sigmoid(out)` against the target.
    Bce,
    /// Squared error of `sigmoid(out)` against the target.
    Mse,
}

/// Binary cross-entropy of `sigmoid(z)` against `y`, computed stably:
/// `softplus(z) - y z`.
#[inline]
pub fn bce(z: f64, y: f64) -> f64 {
    z.max(0.0) + (-z.abs()).exp().ln_1p() - y * z
}

/// Squared error of `sigmoid(z)` against `y`.
#[inline]
pub fn mse(z: f64, y: f64) -> f64 {
    let e = super::data::sigmoid(z) - y;
    e * e
}

impl Loss {
    /// The loss's derivative with respect to the logit `z`.
    #[inline]
    pub fn dz(self, z: f32, y: f32) -> f32 {
        let p = 1.0 / (1.0 + (-z).exp());
        match self {
            Loss::Bce => p - y,
            Loss::Mse => 2.0 * (p - y) * p * (1.0 - p),
        }
    }
}
