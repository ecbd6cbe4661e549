//! The optimiser: minibatch Adam over the training positions, the
//! gradient of each batch computed on several threads and summed in a
//! fixed order, and the losses of a set.
//!
//! A batch is cut into chunks of `CHUNK` positions; each chunk's gradient
//! is summed on its own (by whichever thread holds it) and the chunks'
//! gradients are added in chunk order, so a run depends on its seed and
//! options but not on the thread count. The threads are started once a
//! run and get each batch over a channel. A chunk's gradient of the
//! window rows (`--window`) comes back sparse: only the rows its cells
//! use.

use super::data::{window_rows, Dataset};
use super::model::{backward, bce, forward, mse, Loss, Scratch, Shape};
use crate::brain::game::zobrist::SplitMix64;
use std::sync::mpsc::{channel, Receiver, Sender};
use std::sync::Arc;

/// Positions per chunk: the unit of work of a thread and of the fixed
/// summation order.
pub const CHUNK: usize = 16;

/// Run `f(chunk, scratch)` for chunks `0..n` on up to `threads` threads
/// (contiguous runs of chunks per thread); results in chunk order.
pub fn par_chunks<R: Send>(
    n: usize,
    threads: usize,
    f: impl Fn(usize, &mut Scratch) -> R + Sync,
) -> Vec<R> {
    let threads = threads.clamp(1, n.max(1));
    if threads == 1 {
        let mut s = Scratch::default();
        return (0..n).map(|c| f(c, &mut s)).collect();
    }
    let per = n.div_ceil(threads);
    let f = &f;
    std::thread::scope(|sc| {
        let hs: Vec<_> = (0..threads)
            .map(|t| {
                sc.spawn(move || {
                    let mut s = Scratch::default();
                    (t * per..((t + 1) * per).min(n))
                        .map(|c| f(c, &mut s))
                        .collect::<Vec<R>>()
                })
            })
            .collect();
        hs.into_iter()
            .flat_map(|h| h.join().expect("trainer thread"))
            .collect()
    })
}

/// Mean losses of a set of positions.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Losses {
    pub bce: f64,
    pub mse: f64,
}

/// Sums of losses, all positions and the quiet ones.
#[derive(Clone, Copy, Debug, Default)]
struct Sums {
    all: (f64, f64, usize),
    quiet: (f64, f64, usize),
}

impl Sums {
    fn add(&mut self, z: f64, y: f64, quiet: bool) {
        let (b, m) = (bce(z, y), mse(z, y));
        for (t, on) in [(&mut self.all, true), (&mut self.quiet, quiet)] {
            if on {
                t.0 += b;
                t.1 += m;
                t.2 += 1;
            }
        }
    }

    fn merge(mut self, o: Sums) -> Sums {
        for (t, u) in [(&mut self.all, o.all), (&mut self.quiet, o.quiet)] {
            t.0 += u.0;
            t.1 += u.1;
            t.2 += u.2;
        }
        self
    }

    fn means(&self) -> SetLosses {
        let m = |t: (f64, f64, usize)| Losses {
            bce: t.0 / t.2.max(1) as f64,
            mse: t.1 / t.2.max(1) as f64,
        };
        SetLosses {
            all: m(self.all),
            quiet: m(self.quiet),
        }
    }
}

/// Mean losses on a set and on its quiet positions (those the search
/// scores statically, where an evaluation is used).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SetLosses {
    pub all: Losses,
    pub quiet: Losses,
}

/// The net's losses on `d`.
pub fn net_losses(sh: &Shape, w: &[f32], d: &Dataset, threads: usize) -> SetLosses {
    check_window(sh, d);
    par_chunks(d.len().div_ceil(CHUNK), threads, |c, s| {
        let mut sums = Sums::default();
        for i in c * CHUNK..((c + 1) * CHUNK).min(d.len()) {
            let z = forward(sh, w, d.input(i), s) as f64;
            sums.add(z, d.pos[i].y as f64, d.pos[i].quiet);
        }
        sums
    })
    .into_iter()
    .fold(Sums::default(), Sums::merge)
    .means()
}

/// The net's window rows must be those of the set's window radius.
fn check_window(sh: &Shape, d: &Dataset) {
    assert_eq!(
        sh.win,
        window_rows(d.window),
        "net and positions disagree on the window radius {}",
        d.window
    );
}

/// The classical evaluation's losses on `d`: logit `classic / k`.
pub fn classic_losses(d: &Dataset, k: f64) -> SetLosses {
    let mut sums = Sums::default();
    for p in &d.pos {
        sums.add(p.classic as f64 / k, p.y as f64, p.quiet);
    }
    sums.means()
}

/// How a training run goes.
#[derive(Clone, Copy, Debug)]
pub struct TrainOptions {
    pub epochs: usize,
    pub batch: usize,
    pub lr: f32,
    /// The step size falls linearly from `lr` to this over the epochs.
    pub lr_end: f32,
    /// Decoupled weight decay (per step, times the step size) of the
    /// embedding and the two layers' weights (not the biases).
    pub wd: f32,
    pub seed: u64,
    pub threads: usize,
    pub loss: Loss,
}

/// What one epoch measured.
#[derive(Clone, Copy, Debug)]
pub struct Epoch {
    pub epoch: usize,
    /// Mean loss over the epoch's batches (weights moving meanwhile).
    pub train: Losses,
    /// Positions trained per second of wall time.
    pub rate: f64,
}

/// Adam's state.
struct Adam {
    m: Vec<f32>,
    v: Vec<f32>,
    t: i32,
}

impl Adam {
    fn step(&mut self, w: &mut [f32], g: &[f32], lr: f32) {
        let (b1, b2, eps) = (0.9f32, 0.999f32, 1e-8f32);
        self.t += 1;
        let c1 = 1.0 - b1.powi(self.t);
        let c2 = 1.0 - b2.powi(self.t);
        for (((w, &g), m), v) in w.iter_mut().zip(g).zip(&mut self.m).zip(&mut self.v) {
            *m = b1 * *m + (1.0 - b1) * g;
            *v = b2 * *v + (1.0 - b2) * g * g;
            *w -= lr * (*m / c1) / ((*v / c2).sqrt() + eps);
        }
    }
}

/// Add to `g` the gradient of the loss summed over positions `idx` of
/// `d`; returns the sums of both losses.
fn chunk_gradient(
    sh: &Shape,
    w: &[f32],
    d: &Dataset,
    idx: &[u32],
    loss: Loss,
    s: &mut Scratch,
    g: &mut [f32],
) -> (f64, f64) {
    let mut l = (0.0, 0.0);
    for &i in idx {
        let i = i as usize;
        let input = d.input(i);
        let z = forward(sh, w, input, s);
        let y = d.pos[i].y;
        l.0 += bce(z as f64, y as f64);
        l.1 += mse(z as f64, y as f64);
        backward(sh, w, input, loss.dz(z, y), s, g);
    }
    l
}

/// One batch for the workers: the weights and the positions.
struct Task {
    w: Arc<Vec<f32>>,
    idx: Arc<Vec<u32>>,
}

/// A chunk's gradient and loss sums: the gradient of every weight but the
/// window rows in `dense` (`Shape`'s layout with those rows cut out: all
/// the weights without the window), and of the window rows the chunk's
/// cells use, `rows` (ascending) with their `f` values each in `vals`; a
/// dense gradient of 4^(2R) rows a chunk would cost more than the chunk.
struct ChunkGrad {
    dense: Vec<f32>,
    rows: Vec<u16>,
    vals: Vec<f32>,
    loss: (f64, f64),
}

impl ChunkGrad {
    /// A gradient without window rows.
    fn dense(dense: Vec<f32>, loss: (f64, f64)) -> ChunkGrad {
        ChunkGrad {
            dense,
            rows: Vec::new(),
            vals: Vec::new(),
            loss,
        }
    }

    /// The gradient in `full` (all weights, window rows included) of the
    /// positions `idx`, taken out of it: `full` is left zero.
    fn take(sh: &Shape, full: &mut [f32], d: &Dataset, idx: &[u32], loss: (f64, f64)) -> Self {
        let (lo, hi, f) = (sh.rows * sh.f, sh.bias(), sh.f);
        let mut rows: Vec<u16> = Vec::new();
        for &i in idx {
            rows.extend(d.input(i as usize).win.iter().flatten());
        }
        rows.sort_unstable();
        rows.dedup();
        let mut vals = Vec::with_capacity(rows.len() * f);
        for &k in &rows {
            let row = &mut full[lo + k as usize * f..lo + (k as usize + 1) * f];
            vals.extend_from_slice(row);
            row.fill(0.0);
        }
        let mut dense = Vec::with_capacity(sh.len() - (hi - lo));
        dense.extend_from_slice(&full[..lo]);
        dense.extend_from_slice(&full[hi..]);
        full[..lo].fill(0.0);
        full[hi..].fill(0.0);
        ChunkGrad {
            dense,
            rows,
            vals,
            loss,
        }
    }
}

/// A worker's answer: the chunks it took, each with its gradient.
type Done = Vec<(usize, ChunkGrad)>;

/// Worker `t` of `threads`: for each task, the gradients of chunks `t`,
/// `t + threads`, ... of the batch.
fn worker(
    t: usize,
    threads: usize,
    sh: &Shape,
    d: &Dataset,
    loss: Loss,
    tasks: Receiver<Task>,
    done: Sender<Done>,
) {
    let mut s = Scratch::default();
    // With the window, the gradient of all weights in one buffer, zero
    // between chunks.
    let mut full = vec![0f32; if sh.win > 0 { sh.len() } else { 0 }];
    while let Ok(task) = tasks.recv() {
        let n = task.idx.len();
        let out: Done = (t..n.div_ceil(CHUNK))
            .step_by(threads)
            .map(|c| {
                let idx = &task.idx[c * CHUNK..((c + 1) * CHUNK).min(n)];
                if sh.win == 0 {
                    let mut g = vec![0f32; sh.len()];
                    let l = chunk_gradient(sh, &task.w, d, idx, loss, &mut s, &mut g);
                    return (c, ChunkGrad::dense(g, l));
                }
                let l = chunk_gradient(sh, &task.w, d, idx, loss, &mut s, &mut full);
                (c, ChunkGrad::take(sh, &mut full, d, idx, l))
            })
            .collect();
        drop(task); // the weights are the main thread's again
        if done.send(out).is_err() {
            break;
        }
    }
}

/// Train `w` on `d`; `report` hears each epoch. The threads live for the
/// whole run; each batch goes to all of them (a channel each way per
/// thread, so a failing thread stops the run instead of hanging it).
pub fn train(
    sh: &Shape,
    w: &mut [f32],
    d: &Dataset,
    o: &TrainOptions,
    mut report: impl FnMut(&Epoch, &[f32]),
) {
    check_window(sh, d);
    let threads = o.threads.max(1);
    let mut adam = Adam {
        m: vec![0.0; w.len()],
        v: vec![0.0; w.len()],
        t: 0,
    };
    let mut order: Vec<u32> = (0..d.len() as u32).collect();
    let mut rng = SplitMix64::new(o.seed ^ 0x7472_6169_6e5f_7368);
    let decayed = [0..sh.bias(), sh.w1()..sh.b1(), sh.w2()..sh.b2()];
    let mut weights = Arc::new(w.to_vec());
    std::thread::scope(|scope| {
        let mut workers = Vec::new();
        for t in 0..threads {
            let (task_tx, task_rx) = channel();
            let (done_tx, done_rx) = channel();
            scope.spawn(move || worker(t, threads, sh, d, o.loss, task_rx, done_tx));
            workers.push((task_tx, done_rx));
        }
        let mut g = vec![0f32; sh.len()];
        for epoch in 1..=o.epochs {
            let start = std::time::Instant::now();
            let lr = o.lr + (o.lr_end - o.lr) * (epoch - 1) as f32 / (o.epochs.max(2) - 1) as f32;
            for i in (1..order.len()).rev() {
                order.swap(i, rng.below(i as u64 + 1) as usize);
            }
            let mut sums = (0.0, 0.0);
            for batch in order.chunks(o.batch.max(1)) {
                let idx = Arc::new(batch.to_vec());
                for (tx, _) in &workers {
                    let task = Task {
                        w: Arc::clone(&weights),
                        idx: Arc::clone(&idx),
                    };
                    tx.send(task).expect("trainer thread gone");
                }
                let mut parts: Vec<Option<ChunkGrad>> =
                    (0..batch.len().div_ceil(CHUNK)).map(|_| None).collect();
                for (_, rx) in &workers {
                    for (c, part) in rx.recv().expect("trainer thread failed") {
                        parts[c] = Some(part);
                    }
                }
                // Chunk order, whatever thread summed each chunk.
                g.fill(0.0);
                let (lo, hi, f) = (sh.rows * sh.f, sh.bias(), sh.f);
                for p in parts.into_iter().map(|p| p.expect("every chunk")) {
                    for (a, b) in g[..lo].iter_mut().zip(&p.dense[..lo]) {
                        *a += b;
                    }
                    for (a, b) in g[hi..].iter_mut().zip(&p.dense[lo..]) {
                        *a += b;
                    }
                    for (&k, v) in p.rows.iter().zip(p.vals.chunks_exact(f)) {
                        let r = lo + k as usize * f;
                        for (a, b) in g[r..r + f].iter_mut().zip(v) {
                            *a += b;
                        }
                    }
                    sums.0 += p.loss.0;
                    sums.1 += p.loss.1;
                }
                let n = batch.len() as f32;
                g.iter_mut().for_each(|v| *v /= n);
                let w = Arc::make_mut(&mut weights);
                adam.step(w, &g, lr);
                if o.wd > 0.0 {
                    for r in decayed.iter().cloned() {
                        w[r].iter_mut().for_each(|v| *v -= lr * o.wd * *v);
                    }
                }
            }
            let secs = start.elapsed().as_secs_f64().max(1e-9);
            let n = d.len().max(1) as f64;
            let e = Epoch {
                epoch,
                train: Losses {
                    bce: sums.0 / n,
                    mse: sums.1 / n,
                },
                rate: d.len() as f64 / secs,
            };
            report(&e, &weights);
        }
        drop(workers); // the threads see their channels close and end
    });
    w.copy_from_slice(&weights);
}
