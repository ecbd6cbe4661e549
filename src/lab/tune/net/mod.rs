//! `sente-lab tune net`: the trainer of the evaluation network
//! (`eval::net`) on self-play records (`datagen::record`). `data`: records
//! to compressed positions, the held-out split, `K` and the targets;
//! `model`: the flat weights and the hand-written forward and backward
//! pass; `train`: minibatch Adam on threads, reproducible from the seed;
//! here: the command line and the report, and `sente-lab net-random`
//! (`main_random`), random weights in the same file format.
//!
//! Targets for the side to move: `lambda · sigmoid(score / K) + (1 −
//! lambda) · result` (a forced search score: 1 or 0 with `--mates`, else
//! the position is skipped), `K` the classical evaluation's scale fitted on
//! the quiet training positions and stored in the weights (so the net's
//! logit times `K` is on the classical scale). One game in `--holdout` is
//! held out, chosen by a hash of `--split-seed` and the game (not of the
//! training seed, so runs with other seeds are compared on the same
//! games; `--split-moves`: a hash of its moves alone, so the same games
//! are held out from a record and from its deep relabelling).
//! `--exclude-panel PANEL` leaves out every game that passes through a
//! position of that evaluation panel (`evalpanel`), so a net scored on the
//! panel did not train on the games it was drawn from; `--games-of
//! RECORDS` reads only the games that are also in those records (the
//! same stones in the same order), e.g. a source file's games that have
//! been relabelled so far. Each epoch prints the training loss, the held-out loss, and the
//! classical evaluation's loss on the same held-out positions (logit
//! `classic / K`), cross-entropy and squared error both, over all held-out
//! positions and over the quiet ones (where the search evaluates
//! statically); `--quiet-only` trains on quiet positions alone.
//!
//! `--form joint` trains the joint form (`eval::net::Form::Joint`: two
//! joint keys per cell and colour and a tempo term; weights file version
//! 2) on the same records; with `--init` a `Lines` file is widened to it
//! (its joint rows and tempo terms zero), so it starts from that net.
//! Without `--form` the form is `--init`'s, else `lines`.
//!
//! `--window R` (1..=4; 0, the default, is off) is an experiment of the
//! trainer alone: each cell also gets four line-window keys (per
//! direction, the `2R` cells around it, canonical under reversal:
//! `data::window_key`) into `4^(2R)` more embedding rows. The engine has
//! no such keys, so such a net is not written (`--out` is skipped) and
//! `--init` is refused.

mod data;
mod model;
mod train;

pub use data::*;
pub use model::*;
pub use train::*;

use crate::brain::eval::net::Form;
use crate::brain::types::RuleSet;
use crate::cli::{num, parse_rule, value};

const USAGE: &str = "usage: sente-lab tune net [--rule R] [--f N] [--h N] [--epochs N] [--batch N] [--lr X] [--lr-end X] [--wd X] [--lambda X] [--quiet-only] [--loss bce|mse] [--mates] [--seed S] [--threads T] [--holdout N] [--split-seed S] [--split-moves] [--exclude-panel PANEL]... [--games-of RECORDS]... [--k X] [--init FILE] [--out FILE] [--form lines|joint] [--window R] RECORDS...";

/// The command line's settings.
#[derive(Clone, Debug)]
struct Args {
    rules: RuleSet,
    f: usize,
    h: usize,
    lambda: f64,
    mates: bool,
    quiet_only: bool,
    holdout: u64,
    split_seed: u64,
    split_moves: bool,
    k: Option<f64>,
    init: Option<String>,
    out: String,
    /// The net's form (None: `--init`'s, else `Lines`).
    form: Option<Form>,
    /// Line-window radius (0: off).
    window: usize,
    train: TrainOptions,
    files: Vec<String>,
    exclude_panels: Vec<String>,
    games_of: Vec<String>,
}

fn parse(args: &[String]) -> Result<Args, String> {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut a = Args {
        rules: RuleSet::FREESTYLE,
        f: 16,
        h: 16,
        lambda: 0.5,
        mates: false,
        quiet_only: false,
        holdout: 10,
        split_seed: 1,
        split_moves: false,
        k: None,
        init: None,
        out: "sente-net.bin".into(),
        form: None,
        window: 0,
        train: TrainOptions {
            epochs: 20,
            batch: 256,
            lr: 0.002,
            lr_end: f32::NAN,
            wd: 0.0,
            seed: 1,
            threads,
            loss: Loss::Bce,
        },
        files: Vec::new(),
        exclude_panels: Vec::new(),
        games_of: Vec::new(),
    };
    let mut it = args.iter();
    while let Some(o) = it.next() {
        let mut val = || value(&mut it, o);
        let t = &mut a.train;
        match o.as_str() {
            "--rule" => a.rules = parse_rule(&val()?)?,
            "--f" => a.f = num(o, &val()?)?,
            "--h" => a.h = num(o, &val()?)?,
            "--epochs" => t.epochs = num(o, &val()?)?,
            "--batch" => t.batch = num(o, &val()?)?,
            "--lr" => t.lr = num(o, &val()?)?,
            "--lr-end" => t.lr_end = num(o, &val()?)?,
            "--wd" => t.wd = num(o, &val()?)?,
            "--quiet-only" => a.quiet_only = true,
            "--seed" => t.seed = num(o, &val()?)?,
            "--threads" => t.threads = num::<usize>(o, &val()?)?.max(1),
            "--lambda" => a.lambda = num(o, &val()?)?,
            "--holdout" => a.holdout = num(o, &val()?)?,
            "--split-seed" => a.split_seed = num(o, &val()?)?,
            "--split-moves" => a.split_moves = true,
            "--exclude-panel" => a.exclude_panels.push(val()?),
            "--games-of" => a.games_of.push(val()?),
            "--k" => a.k = Some(num(o, &val()?)?),
            "--init" => a.init = Some(val()?),
            "--out" => a.out = val()?,
            "--window" => a.window = num(o, &val()?)?,
            "--form" => {
                let v = val()?;
                a.form = Some(
                    Form::parse(&v).ok_or_else(|| format!("--form: lines or joint, not {v:?}"))?,
                )
            }
            "--mates" => a.mates = true,
            "--loss" => {
                t.loss = match val()?.as_str() {
                    "bce" => Loss::Bce,
                    "mse" => Loss::Mse,
                    v => return Err(format!("--loss: bce or mse, not {v:?}")),
                }
            }
            f if f.starts_with("--") => return Err(format!("unknown option {f}")),
            f => a.files.push(f.to_string()),
        }
    }
    if a.train.lr_end.is_nan() {
        a.train.lr_end = a.train.lr;
    }
    if a.files.is_empty() {
        return Err("no record files".into());
    }
    if a.f == 0 || a.h == 0 || a.train.batch == 0 || !(0.0..=1.0).contains(&a.lambda) {
        return Err("--f, --h and --batch must be positive, --lambda in 0..1".into());
    }
    if a.window > MAX_WINDOW {
        return Err(format!("--window: 0..={MAX_WINDOW}, not {}", a.window));
    }
    Ok(a)
}

/// `sente-lab tune net …`; returns the exit status.
pub fn main_net(args: &[String]) -> i32 {
    let a = match parse(args) {
        Ok(a) => a,
        Err(e) => {
            eprintln!("tune net: {e}\n{USAGE}");
            return 2;
        }
    };
    println!("# sente-lab tune net {}", args.join(" "));
    match run(&a) {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("tune net: {e}");
            1
        }
    }
}

/// `sente-lab net-random FILE [F H SEED [FORM]]`: write random net weights
/// (`eval::net::random_of`, 16 16 36 lines by default; FORM `lines` or
/// `joint`) to FILE: a placeholder for the embedded weights
/// (`src/brain/eval/net/weights/`), or a file for tests of the loader and
/// of speed. Returns the exit status.
pub fn main_random(args: &[String]) -> i32 {
    const USE: &str = "usage: sente-lab net-random FILE [F H SEED [lines|joint]]";
    let Some(out) = args.first() else {
        eprintln!("{USE}");
        return 2;
    };
    let num = |i: usize, d: u64| args.get(i).and_then(|a| a.parse().ok()).unwrap_or(d);
    let (f, h, seed) = (num(1, 16) as usize, num(2, 16) as usize, num(3, 36));
    let form = match args.get(4).map(|v| Form::parse(v)) {
        None => Form::Lines,
        Some(Some(form)) => form,
        Some(None) => {
            eprintln!("{USE}");
            return 2;
        }
    };
    let w = crate::brain::eval::net::random_of(form, f, h, seed);
    if let Err(e) = w.check() {
        eprintln!("net-random: {e}");
        return 2;
    }
    match std::fs::write(out, w.to_bytes()) {
        Ok(()) => {
            println!(
                "wrote {out}: random({f}, {h}, {seed}), {} form",
                form.name()
            );
            0
        }
        Err(e) => {
            eprintln!("net-random: cannot write {out}: {e}");
            1
        }
    }
}

fn run(a: &Args) -> anyhow::Result<()> {
    let o = &a.train;
    let t0 = std::time::Instant::now();
    let d = DataOptions {
        rules: a.rules,
        holdout: a.holdout,
        seed: a.split_seed,
        split_moves: a.split_moves,
        mates: a.mates,
        threads: o.threads,
        window: a.window,
    };
    let mut filter = GameFilter::default();
    filter.exclude_panels(&a.exclude_panels)?;
    filter.only_games_of(&a.games_of)?;
    let (mut train_set, mut held, st, excluded) = load(&a.files, &d, &filter)?;
    if filter.panel_len() > 0 || filter.only_len().is_some() {
        println!(
            "{excluded} games left out:{}{}",
            if filter.panel_len() > 0 {
                format!(
                    " those through one of the {} positions of {};",
                    filter.panel_len(),
                    a.exclude_panels.join(", ")
                )
            } else {
                String::new()
            },
            filter.only_len().map_or(String::new(), |n| format!(
                " those not among the {n} games of {}",
                a.games_of.join(", ")
            ))
        );
    }
    let cells = |d: &Dataset| d.cells.len() as f64 / d.len().max(1) as f64;
    println!(
        "rule {}: {} games ({} held out, {} of other rules skipped), positions {} train / {} held out, {} forced scores {}; {:.1} distinct cells a position (both sides); read in {:.1} s",
        a.rules,
        st.games,
        st.held_games,
        st.other_rules,
        train_set.len(),
        held.len(),
        st.mates_skipped,
        if a.mates { "kept" } else { "skipped" },
        cells(&train_set),
        t0.elapsed().as_secs_f64()
    );
    let stored = |d: &Dataset| d.cells.len();
    let mem = |d: &Dataset| {
        d.cells.len() * std::mem::size_of::<Cell>()
            + d.win.len() * std::mem::size_of::<Window>()
            + d.len() * std::mem::size_of::<Position>()
    };
    let storage = format!(
        "cells stored {} train / {} held out, {:.1} MB of positions and cells",
        stored(&train_set),
        stored(&held),
        (mem(&train_set) + mem(&held)) as f64 / 1e6
    );
    log::info!("{storage}");
    if a.window > 0 {
        println!(
            "line window radius {}: {} window rows; {storage}",
            a.window,
            window_rows(a.window)
        );
    }
    if a.quiet_only {
        train_set.pos.retain(|p| p.quiet);
        println!("training on the {} quiet positions only", train_set.len());
    }
    anyhow::ensure!(!train_set.is_empty(), "no training positions");
    let (sh, mut w, k) = match &a.init {
        Some(f) => {
            anyhow::ensure!(
                a.window == 0,
                "--init with --window {}: a weights file has no window rows",
                a.window
            );
            let mut n = crate::brain::eval::net::NetWeights::from_bytes(&std::fs::read(f)?)?;
            match (a.form, n.form) {
                (Some(Form::Joint), Form::Lines) => n = n.to_joint(),
                (Some(Form::Lines), Form::Joint) => {
                    anyhow::bail!("--form lines with --init {f}, a net of the joint form")
                }
                _ => {}
            }
            let (sh, w) = Shape::of_weights(&n);
            (sh, w, a.k.unwrap_or(n.k as f64))
        }
        None => {
            let form = a.form.unwrap_or(Form::Lines);
            let sh = Shape::of(form, a.f, a.h, a.window);
            (
                sh,
                sh.init(o.seed),
                a.k.unwrap_or_else(|| fit_k(&train_set)),
            )
        }
    };
    train_set.label(k, a.lambda);
    held.label(k, a.lambda);
    let classic = classic_losses(&held, k);
    println!(
        "K {k:.1}; targets {} sigmoid(score/K) + {} result; net {} form, f {} h {} ({} weights), {:?} loss, batch {}, lr {} to {}, wd {}, seed {}, {} threads",
        a.lambda,
        1.0 - a.lambda,
        sh.form.name(),
        sh.f,
        sh.h,
        sh.len(),
        o.loss,
        o.batch,
        o.lr,
        o.lr_end,
        o.wd,
        o.seed,
        o.threads
    );
    let row = |l: &SetLosses| {
        format!(
            "{:.5}  {:.5}   {:.5}  {:.5}",
            l.all.bce, l.all.mse, l.quiet.bce, l.quiet.mse
        )
    };
    let quiet = held.pos.iter().filter(|p| p.quiet).count();
    println!("held out: {} positions, {quiet} quiet", held.len());
    println!("epoch  train bce   mse       held bce   mse       quiet bce  mse       pos/s  pos/s/thread");
    println!("classical                   {}", row(&classic));
    train(&sh, &mut w, &train_set, o, |e, w| {
        let h = net_losses(&sh, w, &held, o.threads);
        println!(
            "{:5}  {:.5}  {:.5}   {}   {:.0}  {:.0}",
            e.epoch,
            e.train.bce,
            e.train.mse,
            row(&h),
            e.rate,
            e.rate / o.threads as f64
        );
    });
    println!("classical                   {}", row(&classic));
    if a.window > 0 {
        println!(
            "weights not written: the engine's weights file has no window rows (--window {}); {} skipped",
            a.window, a.out
        );
        return Ok(());
    }
    let bytes = sh.to_weights(&w, k as f32).to_bytes();
    std::fs::write(&a.out, &bytes).map_err(|e| anyhow::anyhow!("{}: {e}", a.out))?;
    println!(
        "weights {} ({} bytes) fnv1a64 {:016x}",
        a.out,
        bytes.len(),
        fnv1a(&bytes)
    );
    Ok(())
}

#[cfg(test)]
mod tests;
