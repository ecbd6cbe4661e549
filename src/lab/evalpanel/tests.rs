//! A tiny panel from a tiny datagen run: drawn deterministically and
//! quiet, a planted VCF refused, labels resumed to the bytes of an
//! uninterrupted run, and the scorer putting a perfect evaluator above a
//! constant and a random one.

use std::collections::BTreeMap;
use std::path::PathBuf;

use super::make::{draw, quiet, Config as MakeConfig, SPACING};
use super::score::{score, spearman, Named};
use super::*;
use crate::brain::engine::EvalKind;
use crate::brain::game::zobrist::SplitMix64;
use crate::lab::datagen as dg;

/// Four freestyle games of datagen at 300 nodes, named as a file's.
fn games() -> Vec<(String, usize, GameRecord)> {
    dg::test_games(4, 3, 60)
        .into_iter()
        .enumerate()
        .map(|(i, g)| ("src.txt".to_string(), i + 1, g))
        .collect()
}

fn make_cfg(seed: u64) -> MakeConfig {
    MakeConfig {
        count: 7,
        seed,
        plies: (6, 40),
        per_game: 2,
        vcf_nodes: 5000,
        ..MakeConfig::default()
    }
}

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("sente-evalpanel-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn a_tiny_panel_is_drawn_deterministically_and_quiet() {
    let g = games();
    let a = draw(&make_cfg(1), &g).unwrap();
    assert_eq!(a, draw(&make_cfg(1), &g).unwrap());
    assert_ne!(a, draw(&make_cfg(2), &g).unwrap());
    assert_eq!(a.len(), 7, "4 games, 2 a game: 7 drawn");
    let mut per_game: BTreeMap<String, Vec<usize>> = BTreeMap::new();
    for e in &a {
        assert!((6..=40).contains(&e.stones()), "{}", e.format());
        assert!(quiet(&e.board().unwrap(), 5000, 0), "{}", e.format());
        // The result for the side to move is the game's, turned.
        let (_, gi, ply) = {
            let f: Vec<&str> = e.source.split(':').collect();
            (
                f[0],
                f[1].parse::<usize>().unwrap(),
                f[2].parse::<usize>().unwrap(),
            )
        };
        let src = &g[gi - 1].2;
        let black = ply % 2 == 0;
        assert_eq!(e.result, if black { src.result } else { 1.0 - src.result });
        assert_eq!(e.stones(), ply);
        let key = e.source.rsplit_once(':').unwrap().0.to_string();
        per_game.entry(key).or_default().push(ply);
        // The line reads back as itself.
        assert_eq!(Entry::parse(&e.format()).unwrap().as_ref(), Some(e));
    }
    for plies in per_game.values() {
        assert!(plies.len() <= 2);
        if let [p, q] = plies[..] {
            assert!(p.abs_diff(q) >= SPACING, "{plies:?}");
        }
    }
}

/// Black (to move or not) has an open three on row 7: a four makes an
/// open four, a VCF.
fn vcf_game(black_to_move: bool) -> GameRecord {
    let mut opening = vec![(5, 7), (5, 3), (6, 7), (12, 12), (7, 7), (0, 14)];
    if !black_to_move {
        opening.push((1, 1));
    }
    GameRecord {
        rules: RuleSet::FREESTYLE,
        size: 15,
        result: 1.0,
        opening,
        moves: vec![RecordedMove {
            x: 14,
            y: 14,
            score: 0,
            best: true,
        }],
    }
}

#[test]
fn the_quiet_filter_rejects_a_planted_vcf() {
    for black_to_move in [true, false] {
        let g = vcf_game(black_to_move);
        let b = board_of(g.rules, g.size, &g.opening).unwrap();
        assert!(!quiet(&b, 5000, 0), "black to move {black_to_move}");
        let cfg = MakeConfig {
            plies: (6, 7),
            ..make_cfg(1)
        };
        let drawn = draw(&cfg, &[("x".into(), 1, g)]).unwrap();
        assert!(drawn.is_empty(), "{drawn:?}");
    }
    // The control: the same stones without the open three are quiet.
    let mut g = vcf_game(true);
    g.opening[4] = (9, 9);
    let b = board_of(g.rules, g.size, &g.opening).unwrap();
    assert!(quiet(&b, 5000, 0));
    let cfg = MakeConfig {
        plies: (6, 7),
        ..make_cfg(1)
    };
    assert_eq!(draw(&cfg, &[("x".into(), 1, g)]).unwrap().len(), 1);
}

/// Black has two open twos crossing at (7, 7): a double three there wins
/// by threes and fours (a VCT), with no four to make (no VCF). Black to
/// move; White's stones are far away.
const VCT_STONES: [(usize, usize); 8] = [
    (5, 7),
    (12, 12),
    (6, 7),
    (0, 14),
    (7, 5),
    (14, 0),
    (7, 6),
    (1, 13),
];

/// `VCT_STONES` with Black's (7, 5) moved to (7, 2): no double three.
fn calm_stones() -> Vec<(usize, usize)> {
    let mut stones = VCT_STONES.to_vec();
    stones[4] = (7, 2);
    stones
}

/// `VCT_STONES`, Black to move or (one more White stone) not.
fn vct_board(black_to_move: bool) -> Board {
    let mut stones = VCT_STONES.to_vec();
    if !black_to_move {
        stones.push((13, 1));
    }
    board_of(RuleSet::FREESTYLE, 15, &stones).unwrap()
}

#[test]
fn the_vct_test_rejects_a_planted_double_three() {
    for black_to_move in [true, false] {
        let b = vct_board(black_to_move);
        assert!(quiet(&b, 5000, 0), "no VCF: quiet without the VCT test");
        assert!(!quiet(&b, 5000, 20_000), "black to move {black_to_move}");
    }
    // The control: one of the twos moved apart, no double three.
    let b = board_of(RuleSet::FREESTYLE, 15, &calm_stones()).unwrap();
    assert!(quiet(&b, 5000, 20_000));
    let cfg = MakeConfig {
        plies: (8, 9),
        vct_nodes: 20_000,
        ..make_cfg(1)
    };
    let g = |opening: Vec<(usize, usize)>| GameRecord {
        rules: RuleSet::FREESTYLE,
        size: 15,
        result: 0.5,
        opening,
        moves: vec![RecordedMove {
            x: 10,
            y: 3,
            score: 0,
            best: true,
        }],
    };
    let planted = draw(&cfg, &[("x".into(), 1, g(VCT_STONES.to_vec()))]).unwrap();
    assert!(planted.is_empty(), "{planted:?}");
    assert_eq!(
        draw(&cfg, &[("x".into(), 1, g(calm_stones()))])
            .unwrap()
            .len(),
        1
    );
}

fn panel_file(dir: &std::path::Path) -> (Vec<Entry>, u64, PathBuf) {
    let panel = draw(&make_cfg(1), &games()).unwrap();
    let mut text = "# test panel\n".to_string();
    for e in &panel {
        text.push_str(&e.format());
        text.push('\n');
    }
    let path = dir.join("panel.txt");
    std::fs::write(&path, text).unwrap();
    let (p, h) = read_panel(&path).unwrap();
    assert_eq!(p, panel);
    (p, h, path)
}

fn label_cfg(shard: (usize, usize)) -> label::Config {
    label::Config {
        nodes: 300,
        shard,
        eval: EvalKind::Classic,
        net: None,
    }
}

#[test]
fn label_resumes_after_truncation_and_shards_make_the_whole() {
    let dir = scratch("label");
    let (panel, hash, _) = panel_file(&dir);
    let whole_path = dir.join("whole.txt");
    let t = label::run(&label_cfg((1, 1)), &panel, hash, &whole_path, None).unwrap();
    assert_eq!((t.positions, t.labelled), (7, 7));
    let whole = std::fs::read_to_string(&whole_path).unwrap();
    let lines: Vec<&str> = whole.split_inclusive('\n').collect();
    assert_eq!(lines.len(), 8);
    let cut_path = dir.join("cut.txt");
    for keep in [
        lines[0].len() - 3,
        lines[0].len(),
        lines[0].len() + lines[1].len() + 2,
        lines[..4].concat().len(),
        whole.len(),
    ] {
        std::fs::write(&cut_path, &whole[..keep]).unwrap();
        let t = label::run(&label_cfg((1, 1)), &panel, hash, &cut_path, None).unwrap();
        assert_eq!(
            std::fs::read_to_string(&cut_path).unwrap(),
            whole,
            "cut at {keep}"
        );
        assert_eq!(t.resumed + t.labelled, 7);
    }
    // Another panel's labels are refused.
    let e = label::run(&label_cfg((1, 1)), &panel, hash ^ 1, &cut_path, None).unwrap_err();
    assert!(format!("{e:#}").contains("another run"), "{e:#}");
    // Shards 1/2 and 2/2 label what the whole run does.
    let mut files = Vec::new();
    for k in 1..=2 {
        let p = dir.join(format!("s{k}.txt"));
        label::run(&label_cfg((k, 2)), &panel, hash, &p, None).unwrap();
        files.push(p.display().to_string());
    }
    let merged = score::read_labels(&files).unwrap();
    assert_eq!(
        merged,
        score::read_labels(&[whole_path.display().to_string()]).unwrap()
    );
    assert_eq!(merged.len(), 7);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn spearman_of_identical_orders_is_one() {
    let a = [3.0, -1.0, 7.0, 7.0, 0.5, 100.0];
    assert!((spearman(&a, &a) - 1.0).abs() < 1e-12);
    let monotone: Vec<f64> = a.iter().map(|v| v * 10.0 + 5.0).collect();
    assert!((spearman(&a, &monotone) - 1.0).abs() < 1e-12);
    let reversed: Vec<f64> = a.iter().map(|v| -v).collect();
    assert!((spearman(&a, &reversed) + 1.0).abs() < 1e-12);
    assert_eq!(spearman(&a, &[1.0; 6]), 0.0);
}

#[test]
fn undecided_leaves_out_exactly_the_forced_labels() {
    use crate::brain::types::{mate_in, mated_in, MATE_BOUND};
    let labels: BTreeMap<usize, i32> = [
        (0, 120),
        (1, mate_in(7)),
        (2, -3000),
        (3, mated_in(12)),
        (4, MATE_BOUND - 1),
        (5, -MATE_BOUND),
    ]
    .into_iter()
    .collect();
    let kept = score::undecided(&labels);
    assert_eq!(kept.keys().copied().collect::<Vec<_>>(), vec![0, 2, 4]);
    assert_eq!(kept[&2], -3000);
}

#[test]
fn the_scorer_ranks_a_perfect_evaluator_first() {
    let dir = scratch("score");
    let (panel, hash, _) = panel_file(&dir);
    let path = dir.join("labels.txt");
    label::run(&label_cfg((1, 1)), &panel, hash, &path, None).unwrap();
    let labels = score::read_labels(&[path.display().to_string()]).unwrap();
    let noise: Vec<f64> = {
        let mut r = SplitMix64::new(9);
        (0..panel.len())
            .map(|_| r.below(4001) as f64 - 2000.0)
            .collect()
    };
    let evals = [
        Named {
            name: "perfect".into(),
            f: Box::new(|i, _, _| f64::from(labels[&i])),
        },
        Named {
            name: "constant".into(),
            f: Box::new(|_, _, _| 0.0),
        },
        Named {
            name: "random".into(),
            f: Box::new(|i, _, _| noise[i]),
        },
        Named {
            name: "classic".into(),
            f: Box::new(|_, _, b| score::static_eval(b, None)),
        },
    ];
    let rows = score(&panel, &labels, &evals, &|_| 1000.0).unwrap();
    let all = |name: &str| {
        rows.iter()
            .find(|r| r.evaluator == name && r.phase == "all")
            .unwrap()
            .clone()
    };
    let (p, c, r) = (all("perfect"), all("constant"), all("random"));
    assert_eq!(p.n, 7);
    assert!((p.spearman - 1.0).abs() < 1e-12, "{p:?}");
    assert!(p.ce_deep < c.ce_deep && p.ce_deep < r.ce_deep, "{rows:?}");
    assert_eq!(c.spearman, 0.0);
    // Phases split the positions.
    let phases: usize = rows
        .iter()
        .filter(|r| r.evaluator == "perfect" && r.phase != "all")
        .map(|r| r.n)
        .sum();
    assert_eq!(phases, 7);
    let text = score::table(&rows);
    assert!(
        text.contains("perfect") && text.contains("freestyle"),
        "{text}"
    );
    assert!(score::json(&rows).starts_with("[\n  {\"evaluator\":\"perfect\""));
    std::fs::remove_dir_all(&dir).unwrap();
}
