//! Tests of the network trainer: the hand-written gradient against finite
//! differences, learning, reproducibility, agreement with the engine's
//! forward pass, the data pipeline, and the line-window keys.

use super::*;
use crate::brain::eval::net::{forward_f32, Form, NetWeights};
use crate::brain::eval::Evaluator;
use crate::brain::game::board::{Board, Pos, WALL};
use crate::brain::game::testutil::random_empty;
use crate::brain::game::zobrist::SplitMix64;
use crate::brain::types::{Color, Rule, RuleSet, MATE};
use crate::lab::datagen::record::{parse_line, GameRecord};

/// A random game as a record line: `stones` moves from the centre area,
/// random scores, result `result`.
fn game_line(rng: &mut SplitMix64, rule: Rule, size: usize, stones: usize, result: &str) -> String {
    let rules = RuleSet::from(rule);
    let mut b = Board::square(size, rules).unwrap();
    let mut moves = Vec::new();
    for _ in 0..stones {
        let p = random_empty(rng, &b).unwrap();
        let (x, y) = b.xy(p);
        let score = rng.below(1001) as i32 - 500;
        moves.push(format!("{x},{y},{score},{}", rng.below(2)));
        b.play(p);
    }
    format!("{}\t{size}\t{result}\t-\t{}", rule.name(), moves.join(" "))
}

/// `n` random 15×15 freestyle games of `stones` stones each (`game_line`).
fn freestyle_lines(rng: &mut SplitMix64, n: usize, stones: usize, result: &str) -> Vec<String> {
    (0..n)
        .map(|_| game_line(rng, Rule::Freestyle, 15, stones, result))
        .collect()
}

fn records(lines: &[String]) -> Vec<GameRecord> {
    lines
        .iter()
        .map(|l| parse_line(l).unwrap().unwrap())
        .collect()
}

fn opts(rule: Rule, threads: usize) -> DataOptions {
    DataOptions {
        rules: RuleSet::from(rule),
        holdout: 0,
        seed: 1,
        split_moves: false,
        mates: false,
        threads,
        window: 0,
    }
}

/// Random weights of `sh`, wider than the initialisation so that every
/// clamp is seen on both sides.
fn random_weights(sh: &Shape, seed: u64) -> Vec<f32> {
    let mut rng = SplitMix64::new(seed);
    let mut w = sh.init(seed);
    for v in &mut w {
        *v += ((rng.below(2001) as f32) - 1000.0) / 1000.0 * 0.4;
    }
    w
}

/// The joint form's joint rows and tempo terms (which `Shape::init`
/// leaves zero) uniform in ±0.3 (a `Lines` shape has none: unchanged).
fn spread(w: &mut [f32], sh: &Shape, seed: u64) {
    let mut rng = SplitMix64::new(seed);
    let (lines, rows) = (Form::Lines.rows() * sh.f, sh.rows * sh.f);
    let (t, n) = (sh.tempo_at(), sh.tempo);
    for r in [lines..rows, t..t + n] {
        for v in &mut w[r] {
            *v = ((rng.below(2001) as f32) - 1000.0) / 1000.0 * 0.3;
        }
    }
}

/// Which side of each clamp every unit is on: what finite differences
/// must not cross.
fn regions(sh: &Shape, w: &[f32], d: &Dataset) -> Vec<u8> {
    let mut s = Scratch::default();
    let mut r = Vec::new();
    for i in 0..d.len() {
        forward(sh, w, d.input(i), &mut s);
        let side = |v: &f32| (*v > 0.0) as u8 + (*v >= 1.0) as u8;
        r.extend(s.acc.iter().map(side));
        r.extend(s.a.iter().map(side));
    }
    r
}

/// The backward pass's gradient of the logit equals central finite
/// differences for every weight whose perturbation stays on the same side
/// of every clamp, and every group of weights has gradients large enough
/// that dropping its term fails the check; cells with the window keys of
/// radius `window` (0: none), a net of the form `form` (the joint form's
/// joint rows and tempo terms their own groups).
fn check_gradient(form: Form, window: usize) {
    let mut rng = SplitMix64::new(5);
    let line = game_line(&mut rng, Rule::Freestyle, 9, 14, "1");
    let g = records(&[line]);
    let o = DataOptions {
        window,
        ..opts(Rule::Freestyle, 1)
    };
    let (d, _, _) = positions(&g, &o);
    // One position with several stones, its cells repeated (counts > 1).
    let mut one = Dataset::with_window(window);
    let b = {
        let mut b = Board::square(9, RuleSet::FREESTYLE).unwrap();
        g[0].replay(|board, i, _| {
            if i == 10 {
                b = board.clone();
            }
        });
        b
    };
    one.push(&b, 1.0, 0);
    assert!(d.len() == 14 && one.cells.iter().any(|c| c.n > 1));
    let sh = Shape::of(form, 3, 4, window);
    assert_eq!(sh.rows, form.rows());
    let mut w = random_weights(&sh, 11);
    if form == Form::Joint {
        // Joint rows and tempo terms of the order of the others.
        spread(&mut w, &sh, 12);
    }
    let base = regions(&sh, &w, &one);
    assert!(base.contains(&0) && base.contains(&1) && base.contains(&2));
    let mut s = Scratch::default();
    let mut g = vec![0f32; sh.len()];
    forward(&sh, &w, one.input(0), &mut s);
    backward(&sh, &w, one.input(0), 1.0, &mut s, &mut g);
    let eps = 1e-3f32;
    let rows = sh.rows * sh.f;
    let lines = Form::Lines.rows() * sh.f;
    let mut groups = vec![
        ("embed", 0, lines),
        ("bias", sh.bias(), sh.w1()),
        ("w1", sh.w1(), sh.b1()),
        ("b1", sh.b1(), sh.w2()),
        ("w2", sh.w2(), sh.b2()),
        ("b2", sh.b2(), sh.len()),
    ];
    if window > 0 {
        groups.push(("window", rows, sh.bias()));
    }
    if form == Form::Joint {
        groups.push(("joint", lines, rows));
        // The tempo term this position reads (the others have none).
        let t = sh.tempo_at() + one.pos[0].tempo as usize;
        groups.push(("tempo", t, t + 1));
        assert_eq!(sh.len(), sh.tempo_at() + 256);
    }
    let mut checked = 0;
    for (name, lo, hi) in groups {
        let mut largest = 0f32;
        for j in lo..hi {
            let (mut wp, mut wm) = (w.clone(), w.clone());
            wp[j] += eps;
            wm[j] -= eps;
            if regions(&sh, &wp, &one) != base || regions(&sh, &wm, &one) != base {
                continue; // across a kink: no derivative to compare
            }
            let num = (forward(&sh, &wp, one.input(0), &mut s)
                - forward(&sh, &wm, one.input(0), &mut s))
                / (2.0 * eps);
            assert!(
                (num - g[j]).abs() <= 2e-3 + 1e-2 * g[j].abs(),
                "{name}[{}]: backward {} finite differences {num}",
                j - lo,
                g[j]
            );
            largest = largest.max(g[j].abs());
            checked += 1;
        }
        assert!(
            largest > 0.02,
            "{name}: no gradient large enough to check ({largest})"
        );
    }
    assert!(checked > sh.len() / 10, "{checked}");
}

#[test]
fn backward_matches_finite_differences() {
    check_gradient(Form::Lines, 0);
    // The losses' derivatives with respect to the logit.
    for (z, y) in [(0.3f32, 0.8f32), (-1.5, 0.0), (2.0, 1.0)] {
        let h = 1e-3f64;
        let num_b = (bce(z as f64 + h, y as f64) - bce(z as f64 - h, y as f64)) / (2.0 * h);
        let num_m = (mse(z as f64 + h, y as f64) - mse(z as f64 - h, y as f64)) / (2.0 * h);
        assert!((Loss::Bce.dz(z, y) as f64 - num_b).abs() < 1e-4);
        assert!((Loss::Mse.dz(z, y) as f64 - num_m).abs() < 1e-4);
    }
}

/// The gradient check with the window keys of radius 2.
#[test]
fn backward_matches_finite_differences_with_window() {
    check_gradient(Form::Lines, 2);
}

/// The gradient check in the joint form (joint rows, tempo terms).
#[test]
fn backward_matches_finite_differences_in_the_joint_form() {
    check_gradient(Form::Joint, 0);
}

/// Synthetic positions whose targets a random "teacher" net gives: the
/// student learns them.
fn teacher_set(seed: u64, games: usize) -> (Dataset, Shape) {
    let mut rng = SplitMix64::new(seed);
    let lines = freestyle_lines(&mut rng, games, 12, "0.5");
    let (mut d, _, _) = positions(&records(&lines), &opts(Rule::Freestyle, 2));
    let sh = Shape::new(4, 4);
    let teacher = random_weights(&sh, seed + 1);
    let mut s = Scratch::default();
    let z: Vec<f32> = (0..d.len())
        .map(|i| forward(&sh, &teacher, d.sides(i), &mut s))
        .collect();
    let mean = z.iter().sum::<f32>() / z.len() as f32;
    for (p, z) in d.pos.iter_mut().zip(z) {
        p.y = data::sigmoid(3.0 * (z - mean) as f64) as f32;
    }
    (d, sh)
}

fn options(threads: usize, seed: u64, epochs: usize) -> TrainOptions {
    TrainOptions {
        epochs,
        batch: 48,
        lr: 0.01,
        lr_end: 0.005,
        wd: 0.01,
        seed,
        threads,
        loss: Loss::Bce,
    }
}

#[test]
fn training_lowers_the_loss() {
    let (d, sh) = teacher_set(21, 16);
    let mut w = sh.init(3);
    let before = net_losses(&sh, &w, &d, 1);
    let mut epochs = 0;
    train(&sh, &mut w, &d, &options(2, 3, 30), |_, _| epochs += 1);
    let after = net_losses(&sh, &w, &d, 2);
    assert_eq!(epochs, 30);
    assert!(
        after.all.mse < before.all.mse * 0.6 && after.all.bce < before.all.bce,
        "{before:?} -> {after:?}"
    );
}

fn trained_bytes(d: &Dataset, sh: &Shape, threads: usize, seed: u64) -> Vec<u8> {
    let mut w = sh.init(seed);
    train(sh, &mut w, d, &options(threads, seed, 3), |_, _| ());
    sh.to_weights(&w, 321.0).to_bytes()
}

/// The same seed gives the same weights, byte for byte, on any number of
/// threads; another seed gives other weights.
#[test]
fn training_is_reproducible() {
    let (d, sh) = teacher_set(8, 6);
    let one = trained_bytes(&d, &sh, 1, 4);
    assert_eq!(one, trained_bytes(&d, &sh, 1, 4));
    assert_eq!(one, trained_bytes(&d, &sh, 3, 4));
    assert_ne!(one, trained_bytes(&d, &sh, 1, 5));
    // And the weights file reads back to the same flat weights.
    let n = NetWeights::from_bytes(&one).unwrap();
    let (sh2, w2) = Shape::of_weights(&n);
    assert_eq!((sh2, n.k), (sh, 321.0));
    assert_eq!(sh2.to_weights(&w2, 321.0).to_bytes(), one);
}

/// The joint form trains too: the loss falls, the same seed gives the
/// same bytes on any number of threads, and the weights file (version 2)
/// reads back to the same shape and weights.
#[test]
fn training_in_the_joint_form_learns_and_is_reproducible() {
    let (d, lines) = teacher_set(21, 16);
    let sh = Shape::of(Form::Joint, lines.f, lines.h, 0);
    let mut w = sh.init(3);
    // It starts as the same seed's `Lines` net.
    let lw = lines.init(3);
    let mut s = Scratch::default();
    assert_eq!(
        forward(&sh, &w, d.input(0), &mut s),
        forward(&lines, &lw, d.input(0), &mut s)
    );
    let before = net_losses(&sh, &w, &d, 1);
    train(&sh, &mut w, &d, &options(2, 3, 30), |_, _| ());
    let after = net_losses(&sh, &w, &d, 2);
    assert!(
        after.all.mse < before.all.mse * 0.6 && after.all.bce < before.all.bce,
        "{before:?} -> {after:?}"
    );
    // The joint rows and the tempo terms moved.
    let lines_end = Form::Lines.rows() * sh.f;
    assert!(w[lines_end..sh.bias()].iter().any(|&v| v != 0.0));
    assert!(w[sh.tempo_at()..].iter().any(|&v| v != 0.0));
    let one = trained_bytes(&d, &sh, 1, 4);
    assert_eq!(one, trained_bytes(&d, &sh, 3, 4));
    assert_eq!(
        u32::from_le_bytes(one[4..8].try_into().unwrap()),
        crate::brain::eval::net::VERSION_JOINT
    );
    let n = NetWeights::from_bytes(&one).unwrap();
    let (sh2, w2) = Shape::of_weights(&n);
    assert_eq!(sh2, sh);
    assert_eq!(sh2.to_weights(&w2, 321.0).to_bytes(), one);
}

/// The trainer's forward pass on compressed cells gives the engine's
/// `forward_f32` on the board, under every rule, in both forms.
#[test]
fn forward_matches_the_engine() {
    for form in Form::ALL {
        forward_matches_the_engine_in(form);
    }
}

fn forward_matches_the_engine_in(form: Form) {
    let mut rng = SplitMix64::new(77);
    let sh = Shape::of(form, 8, 6, 0);
    let mut w = random_weights(&sh, 9);
    // Joint rows and tempo terms start at zero: give them values.
    spread(&mut w, &sh, 10);
    let net = sh.to_weights(&w, 300.0);
    assert_eq!(net.form, form);
    let mut s = Scratch::default();
    let mut checks = 0;
    for rule in Rule::ALL {
        let rules = RuleSet::from(rule);
        let mut b = Board::square(15, rules).unwrap();
        for m in 0..40 {
            let mut d = Dataset::default();
            d.push(&b, 0.5, 0);
            let (own, opp) = d.sides(0);
            let cells: u32 = own.iter().map(|c| c.n as u32).sum();
            assert_eq!(cells as usize, 225 - m);
            assert_eq!(opp.iter().map(|c| c.n as u32).sum::<u32>(), cells);
            let mine = forward(&sh, &w, d.input(0), &mut s);
            let engine = forward_f32(&net, &Evaluator::new(&b), &b, b.to_move());
            assert!(
                (mine - engine).abs() <= 1e-4 * (1.0 + engine.abs()),
                "{rule:?} move {m}: {mine} vs {engine}"
            );
            checks += 1;
            b.play(random_empty(&mut rng, &b).unwrap());
        }
    }
    assert_eq!(checks, 160);
}

/// Records become one position per recorded move, with the result and
/// score for the side to move; held-out games go whole to the held-out
/// set; other rules and (by default) forced scores are skipped.
#[test]
fn records_become_positions() {
    let mut rng = SplitMix64::new(3);
    let mut lines: Vec<String> = (0..60)
        .map(|i| game_line(&mut rng, Rule::Freestyle, 15, 5 + i % 7, "1"))
        .collect();
    lines.push(game_line(&mut rng, Rule::Renju, 15, 9, "0"));
    let g = records(&lines);
    let mut o = opts(Rule::Freestyle, 1);
    let (all, none, st) = positions(&g, &o);
    assert_eq!((st.games, st.other_rules, none.len()), (60, 1, 0));
    let moves: usize = g[..60].iter().map(|r| r.moves.len()).sum();
    assert_eq!(all.len(), moves);
    // Black won: Black to move (even move index) has result 1.
    let first = &g[0];
    for (i, p) in all.pos[..first.moves.len()].iter().enumerate() {
        assert_eq!(p.result, if i % 2 == 0 { 1.0 } else { 0.0 });
        assert_eq!(p.score, first.moves[i].score);
    }
    // Three threads build the same sets.
    o.threads = 3;
    assert_eq!(positions(&g, &o).0, all);
    // One game in ten or so held out, whole games, same split every time.
    o.holdout = 10;
    let (train_set, held, st) = positions(&g, &o);
    assert!((2..=12).contains(&st.held_games), "{}", st.held_games);
    assert_eq!(train_set.len() + held.len(), all.len());
    let held_moves: usize = g[..60]
        .iter()
        .filter(|r| held_out(r, 1, 10, false))
        .map(|r| r.moves.len())
        .sum();
    assert_eq!(held.len(), held_moves);
    o.seed = 2;
    assert_ne!(positions(&g, &o).1, held, "another seed, another split");
    // Relabelled (other scores, best flags and result): the text split
    // moves games across, the moves-only split holds out the same games.
    let relabelled: Vec<GameRecord> = g
        .iter()
        .map(|r| {
            let mut r = r.clone();
            r.result = 1.0 - r.result;
            for m in &mut r.moves {
                m.score = m.score / 2 + 7;
                m.best = !m.best;
            }
            r
        })
        .collect();
    let split = |gs: &[GameRecord], moves_only| -> Vec<bool> {
        gs.iter().map(|r| held_out(r, 1, 4, moves_only)).collect()
    };
    assert_ne!(split(&g, false), split(&relabelled, false));
    assert_eq!(split(&g, true), split(&relabelled, true));
    assert!(split(&g, true).iter().any(|&h| h) && !split(&g, true).iter().all(|&h| h));
    o.seed = 1;
    o.split_moves = true;
    let (_, held_r, st_r) = positions(&relabelled, &o);
    let (_, held_s, st_s) = positions(&g, &o);
    assert_eq!(st_r.held_games, st_s.held_games);
    assert_eq!(held_r.len(), held_s.len());
    o.split_moves = false;
    // A forced score is skipped, or kept with target 1 / 0.
    let mut r = records(&lines[..1]);
    r[0].moves[1].score = -(MATE - 3);
    o.holdout = 0;
    let (d, _, st) = positions(&r, &o);
    assert_eq!((d.len(), st.mates_skipped), (r[0].moves.len() - 1, 1));
    o.mates = true;
    let (mut d, _, _) = positions(&r, &o);
    d.label(300.0, 0.5);
    assert_eq!(d.pos[1].y, 0.0);
    let p = d.pos[0];
    let want = 0.5 * data::sigmoid(p.score as f64 / 300.0) + 0.5 * p.result as f64;
    assert!((p.y as f64 - want).abs() < 1e-6);
}

/// `fit_k` finds the scale of results drawn from `sigmoid(classic / 250)`.
#[test]
fn fit_k_recovers_a_planted_scale() {
    let mut rng = SplitMix64::new(12);
    let mut d = Dataset::default();
    for _ in 0..20000 {
        let classic = rng.below(2001) as i32 - 1000;
        let p = data::sigmoid(classic as f64 / 250.0);
        let result = ((rng.below(1 << 20) as f64) < p * (1 << 20) as f64) as u8 as f32;
        d.pos.push(Position {
            start: 0,
            own: 0,
            opp: 0,
            y: result,
            result,
            score: 0,
            classic,
            quiet: true,
            tempo: 0,
        });
    }
    let k = fit_k(&d);
    assert!((k - 250.0).abs() < 25.0, "{k}");
}

/// The window code of `p` for `own`, direction `d`, radius `r`, read cell
/// by cell (offsets `-r..-1`, `+1..+r`, two bits each from the lowest),
/// forward and reversed.
fn window_by_hand(b: &Board, p: Pos, own: Color, d: usize, r: usize) -> (u32, u32) {
    let step = b.dirs()[d];
    let codes: Vec<u32> = (-(r as isize)..=r as isize)
        .filter(|&k| k != 0)
        .map(|k| {
            let q = p.offset(k * step);
            let c = b.cell(q);
            if !b.in_board(q) || c == WALL {
                3
            } else if c == 0 {
                0
            } else if c == own.cell() {
                1
            } else {
                2
            }
        })
        .collect();
    let number = |it: &mut dyn Iterator<Item = &u32>| {
        it.enumerate()
            .fold(0u32, |n, (slot, &c)| n | c << (2 * slot))
    };
    (number(&mut codes.iter()), number(&mut codes.iter().rev()))
}

/// Hand-computed window keys of a drawn position (an off-board cell, both
/// colours, the reversal taken where it is smaller), and `window_key`
/// against a cell-by-cell reading on every empty cell, direction, colour
/// and radius of random positions, small boards included.
#[test]
fn window_keys_are_the_cells_around() {
    let b = Board::from_ascii(
        "
        X O . . . . .
        . . . . . . .
        . . . . . . .
        . . . . . . .
        . . . . . . .
        . . . . . . O
        . . . . X . .",
        RuleSet::FREESTYLE,
    )
    .unwrap();
    let at = |x, y| b.pos(x, y).unwrap();
    // (2,0) across, radius 3: offsets -3..-1 are off, X, O; then three
    // empties. Black: 3 + 1·4 + 2·16 = 39 (reversed 3456); White: 3 +
    // 2·4 + 1·16 = 27.
    assert_eq!(window_key(&b, at(2, 0), Color::Black, 0, 3), 39);
    assert_eq!(window_key(&b, at(2, 0), Color::White, 0, 3), 27);
    // (5,6) across, radius 2: empty, X, then empty, off. Forward for
    // Black 1·4 + 3·64 = 196, reversed (off, empty, X, empty) 3 + 1·16 =
    // 19: the key is the reversed reading; White's 3 + 2·16 = 35.
    assert_eq!(window_key(&b, at(5, 6), Color::Black, 0, 2), 19);
    assert_eq!(window_key(&b, at(5, 6), Color::White, 0, 2), 35);
    // (5,6) down, radius 1: empty above, off below: min(3·4, 3) = 3.
    assert_eq!(window_key(&b, at(5, 6), Color::Black, 1, 1), 3);
    // (6,6), the corner, along the anti-diagonal (offset +1 is (5,7)),
    // radius 1: (7,5) and (5,7) are both off the board: 3 + 3·4 = 15.
    assert_eq!(window_key(&b, at(6, 6), Color::White, 3, 1), 15);
    assert_eq!(window_rows(4), 65536);
    assert_eq!(window_rows(0), 0);

    let mut rng = SplitMix64::new(31);
    for (size, stones) in [(5, 9), (9, 30), (15, 60), (32, 90)] {
        let mut b = Board::square(size, RuleSet::FREESTYLE).unwrap();
        for i in 0..stones {
            let p = random_empty(&mut rng, &b).unwrap();
            if i % 23 == 7 {
                b.make_neutral(p);
            } else {
                b.play(p);
            }
        }
        for p in b.empty_cells() {
            for own in [Color::Black, Color::White] {
                for r in 1..=MAX_WINDOW {
                    let keys = window_keys(&b, p, own, r);
                    for (d, &k) in keys.iter().enumerate() {
                        let (f, back) = window_by_hand(&b, p, own, d, r);
                        assert_eq!(k as u32, f.min(back), "{p:?} {own:?} {d} {r}");
                        assert!((k as usize) < window_rows(r));
                    }
                }
            }
        }
    }
}

/// A position and its mirror image (left to right) give the same
/// multiset of window keys, each colour and radius; read forward only,
/// they do not.
#[test]
fn window_keys_are_the_same_in_a_mirror() {
    let mut rng = SplitMix64::new(17);
    let mut b = Board::square(11, RuleSet::FREESTYLE).unwrap();
    for _ in 0..24 {
        b.play(random_empty(&mut rng, &b).unwrap());
    }
    let text = b.to_string();
    let mirrored: String = text
        .lines()
        .map(|l| l.split(' ').rev().collect::<Vec<_>>().join(" ") + "\n")
        .collect();
    let m = Board::from_ascii(&mirrored, RuleSet::FREESTYLE).unwrap();
    assert_ne!(b.to_string(), m.to_string());
    let multiset = |b: &Board, own: Color, r: usize, canonical: bool| {
        let mut v: Vec<u32> = b
            .empty_cells()
            .flat_map(|p| {
                (0..4).map(move |d| match canonical {
                    true => window_key(b, p, own, d, r) as u32,
                    false => window_by_hand(b, p, own, d, r).0,
                })
            })
            .collect();
        v.sort_unstable();
        v
    };
    for own in [Color::Black, Color::White] {
        for r in 1..=MAX_WINDOW {
            assert_eq!(multiset(&b, own, r, true), multiset(&m, own, r, true));
            assert_ne!(multiset(&b, own, r, false), multiset(&m, own, r, false));
        }
    }
}

/// With the window on and its rows all zero, the net computes what it
/// computes without the window: the compressed window cells only split
/// the plain ones.
#[test]
fn zero_window_rows_change_nothing() {
    let mut rng = SplitMix64::new(41);
    let lines = freestyle_lines(&mut rng, 4, 20, "1");
    let g = records(&lines);
    let plain = positions(&g, &opts(Rule::Freestyle, 1)).0;
    let o = DataOptions {
        window: 3,
        ..opts(Rule::Freestyle, 2)
    };
    let win = positions(&g, &o).0;
    assert_eq!(win.win.len(), win.cells.len());
    assert!(win.cells.len() > plain.cells.len());
    let (sh, sw) = (Shape::new(6, 5), Shape::with_window(6, 5, 3));
    let w = random_weights(&sh, 3);
    let mut ww = w[..sh.bias()].to_vec();
    ww.resize(sw.bias(), 0.0);
    ww.extend_from_slice(&w[sh.bias()..]);
    assert_eq!(ww.len(), sw.len());
    let mut s = Scratch::default();
    for i in 0..plain.len() {
        let (own, opp) = win.sides(i);
        let n = |c: &[Cell]| c.iter().map(|c| c.n as u32).sum::<u32>();
        assert_eq!((n(own), n(opp)), (n(plain.sides(i).0), n(plain.sides(i).1)));
        let a = forward(&sh, &w, plain.sides(i), &mut s);
        let b = forward(&sw, &ww, win.input(i), &mut s);
        assert!((a - b).abs() <= 1e-4 * (1.0 + a.abs()), "{i}: {a} vs {b}");
    }
    let (l, lw) = (
        net_losses(&sh, &w, &plain, 2),
        net_losses(&sw, &ww, &win, 2),
    );
    assert!((l.all.bce - lw.all.bce).abs() < 1e-5, "{l:?} vs {lw:?}");
}

/// With the window (its rows' gradient sparse per chunk), training
/// still lowers the loss and gives the same weights on any number of
/// threads.
#[test]
fn training_with_window_is_reproducible_and_learns() {
    let (plain, sh0) = teacher_set(21, 16);
    let mut rng = SplitMix64::new(21);
    let lines = freestyle_lines(&mut rng, 16, 12, "0.5");
    let o = DataOptions {
        window: 2,
        ..opts(Rule::Freestyle, 2)
    };
    let (mut d, _, _) = positions(&records(&lines), &o);
    // The teacher's targets, the same positions.
    assert_eq!(d.len(), plain.len());
    for (p, q) in d.pos.iter_mut().zip(&plain.pos) {
        p.y = q.y;
    }
    let sh = Shape::with_window(sh0.f, sh0.h, 2);
    let run = |threads: usize, epochs: usize| {
        let mut w = sh.init(3);
        train(&sh, &mut w, &d, &options(threads, 3, epochs), |_, _| ());
        w
    };
    let one = run(1, 3);
    assert_eq!(one, run(3, 3));
    let before = net_losses(&sh, &sh.init(3), &d, 1);
    let after = net_losses(&sh, &run(2, 30), &d, 2);
    assert!(
        after.all.mse < before.all.mse * 0.6 && after.all.bce < before.all.bce,
        "{before:?} -> {after:?}"
    );
}

#[test]
fn exclude_panel_leaves_out_exactly_the_games_through_a_panel_position() {
    use crate::lab::evalpanel::Entry;
    let mut rng = SplitMix64::new(77);
    let lines = freestyle_lines(&mut rng, 6, 12, "1");
    let g = records(&lines);
    let dir = std::env::temp_dir().join(format!("sente-exclude-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let rec = dir.join("games.txt");
    std::fs::write(&rec, format!("# test\n{}\n", lines.join("\n"))).unwrap();
    let stones = |r: &GameRecord, n: usize| -> Vec<(usize, usize)> {
        r.moves[..n].iter().map(|m| (m.x, m.y)).collect()
    };
    let entry = |rules: RuleSet, moves: Vec<(usize, usize)>| Entry {
        rules,
        size: 15,
        result: 1.0,
        moves,
        source: "x:1:1".into(),
    };
    // Game 2's position after 7 stones; the same stones under renju (not
    // this rule), and game 4's first 5 stones in another order (not a
    // position of game 4).
    let mut swapped = stones(&g[4], 5);
    swapped.swap(0, 2);
    let panel = [
        entry(RuleSet::FREESTYLE, stones(&g[2], 7)),
        entry(RuleSet::from(Rule::Renju), stones(&g[3], 7)),
        entry(RuleSet::FREESTYLE, swapped),
    ];
    let path = dir.join("panel.txt");
    let text: String = panel.iter().map(|e| e.format() + "\n").collect();
    std::fs::write(&path, format!("# panel\n{text}")).unwrap();
    let mut ex = GameFilter::default();
    ex.exclude_panels(&[path.display().to_string()]).unwrap();
    assert_eq!((ex.panel_len(), ex.only_len()), (3, None));
    let held: Vec<bool> = g.iter().map(|r| ex.on_panel(r)).collect();
    assert_eq!(held, [false, false, true, false, false, false]);
    let o = opts(Rule::Freestyle, 1);
    let files = [rec.display().to_string()];
    let (all, _, st_all, none) = load(&files, &o, &GameFilter::default()).unwrap();
    let (kept, _, st, left) = load(&files, &o, &ex).unwrap();
    assert_eq!((none, left), (0, 1));
    assert_eq!((st_all.games, st.games), (6, 5));
    assert_eq!(kept.len(), all.len() - g[2].moves.len());
    // --games-of: games 1, 2 and 5 relabelled (other best flags), plus
    // one game not in the file; with the panel, game 2 still goes.
    let mut relabelled = vec![lines[1].clone(), lines[2].clone(), lines[5].clone()];
    relabelled.push(game_line(&mut rng, Rule::Freestyle, 15, 12, "0"));
    let relabelled: Vec<String> = relabelled.iter().map(|l| l.replace(",0 ", ",1 ")).collect();
    let rel = dir.join("relabelled.txt");
    std::fs::write(&rel, relabelled.join("\n") + "\n").unwrap();
    ex.only_games_of(&[rel.display().to_string()]).unwrap();
    assert_eq!(ex.only_len(), Some(4));
    let mut kept = g.clone();
    assert_eq!(ex.retain(&mut kept), 4);
    assert_eq!(kept, [g[1].clone(), g[5].clone()]);
    let (_, _, st, left) = load(&files, &o, &ex).unwrap();
    assert_eq!((st.games, left), (2, 4));
    // A game twice in the records but once in the list is read once.
    let twice = dir.join("twice.txt");
    std::fs::write(
        &twice,
        format!("{}\n{}\n{}\n", lines[1], lines[1], lines[0]),
    )
    .unwrap();
    let (_, _, st, left) = load(&[twice.display().to_string()], &o, &ex).unwrap();
    assert_eq!((st.games, left), (1, 2));
    std::fs::remove_dir_all(&dir).unwrap();
}
