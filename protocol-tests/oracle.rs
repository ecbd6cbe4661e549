//! `sente-arena oracle`: a brain judging another's moves through the
//! protocol. With the built brain as judge, the same brain at the same node
//! count plays the judge's own move everywhere (loss 0), the arena's random
//! engine loses points, `--compare` pairs the two runs, a rerun with a
//! judge that cannot start is answered from the cache alone, and the
//! second look (`--verify`) values the random engine's large losses again.

#[path = "harness/mod.rs"]
mod harness;

use std::path::Path;
use std::process::Command;
use std::time::Duration;

use harness::arena_args::{fake, ARENA};
use harness::BIN as BRAIN;

/// No oracle run in these tests may take longer than this (a hang fails).
const BOUND: Duration = Duration::from_secs(120);

/// One of our own arena games (freestyle 15×15, 31 moves).
const GAME: &str = "1\trapfi\tsente\t1-0\tfive\t4\trapfi made five\t\
10,10 8,9 8,4 6,6 9,9 7,6 8,10 8,6 9,6 9,10 7,8 10,8 9,7 9,8 8,8 4,6 5,6 7,7 10,6 11,5 \
9,5 7,3 9,11 7,4 7,5 12,8 7,9 6,10 6,8 5,7 10,12";

fn oracle(judge: &str, engine: &str, dir: &Path, out: &str, extra: &[&str]) -> String {
    let o = harness::run_bounded(
        Command::new(ARENA)
            .args(["oracle", "--judge", judge, "--engine", engine, "--records"])
            .arg(dir.join("games.txt"))
            .args([
                "--nodes",
                "3000",
                "--judge-nodes",
                "3000",
                "--scale",
                "1400",
            ])
            .args(["--min-ply", "6", "--step", "3", "--memory", "64M"])
            .arg("--cache")
            .arg(dir.join("cache.tsv"))
            .arg("--out")
            .arg(dir.join(out))
            .args(extra),
        BOUND,
    );
    let stdout = String::from_utf8_lossy(&o.stdout).into_owned();
    assert!(
        o.status.success(),
        "sente-arena oracle failed: {}\n{stdout}\n{}",
        o.status,
        String::from_utf8_lossy(&o.stderr)
    );
    stdout
}

/// The mean loss the summary reports (points a move).
fn mean_loss(out: &str) -> f64 {
    let rest = out.split("mean loss ").nth(1).expect("a mean loss line");
    rest.split_whitespace().next().unwrap().parse().unwrap()
}

fn scored(out: &str) -> usize {
    let rest = out.split("positions ").nth(1).expect("a positions line");
    rest.split_whitespace().next().unwrap().parse().unwrap()
}

#[test]
fn the_judge_agrees_with_itself_and_not_with_a_random_engine() {
    let dir = harness::temp_dir("oracle", "run");
    std::fs::write(dir.join("games.txt"), format!("{GAME}\n")).unwrap();

    let same = oracle(BRAIN, BRAIN, &dir, "same.tsv", &[]);
    let n = scored(&same);
    assert!(n >= 4, "too few positions scored:\n{same}");
    assert!(same.contains("the judge's move 100.0 %"), "{same}");
    assert_eq!(mean_loss(&same), 0.0, "{same}");

    let random = oracle(BRAIN, &fake("random"), &dir, "random.tsv", &[]);
    assert_eq!(scored(&random), n, "the same positions:\n{random}");
    assert!(
        mean_loss(&random) > 1.0,
        "a random mover loses points:\n{random}"
    );

    let o = harness::run_bounded(
        Command::new(ARENA)
            .args(["oracle", "--compare"])
            .arg(dir.join("same.tsv"))
            .arg(dir.join("random.tsv")),
        BOUND,
    );
    let cmp = String::from_utf8_lossy(&o.stdout).into_owned();
    assert!(o.status.success(), "{cmp}");
    assert!(cmp.contains(&format!("{n} positions")), "{cmp}");
    let diff: f64 = cmp
        .split("loss ")
        .nth(1)
        .and_then(|r| r.split_whitespace().next())
        .and_then(|v| v.parse().ok())
        .expect("a difference");
    assert!(diff > 1.0, "{cmp}");

    // Every answer the judge gave is cached: a judge that cannot even start
    // is never asked again when the engine plays the judge's moves.
    let cached = oracle("/nonexistent/judge", BRAIN, &dir, "again.tsv", &[]);
    assert_eq!(scored(&cached), n, "{cached}");
    assert_eq!(mean_loss(&cached), 0.0, "{cached}");

    // The second look: every position where the random mover lost a point
    // or more is valued again at twice the judge's nodes, and there too it
    // loses. Its first losses are the cached run's.
    let looked = oracle(
        BRAIN,
        &fake("random"),
        &dir,
        "looked.tsv",
        &["--verify", "6000", "--verify-min", "1"],
    );
    assert!(looked.contains("second look at 6000 nodes"), "{looked}");
    let rows = std::fs::read_to_string(dir.join("looked.tsv")).unwrap();
    let (mut due, mut deep) = (0, Vec::new());
    for r in rows.lines().skip(1) {
        let f: Vec<&str> = r.split('\t').collect();
        let loss: f64 = f[6].parse().unwrap();
        if (loss - 0.01).abs() < 1e-5 {
            continue; // the threshold itself, rounded in the file
        }
        if f[2] != f[3] && loss >= 0.01 {
            due += 1;
            deep.push(f[7].parse::<f64>().expect("a second look"));
        } else {
            assert_eq!(f[7], "", "no second look below --verify-min: {r}");
        }
    }
    assert!(due >= 2, "{rows}");
    let mean = deep.iter().sum::<f64>() / deep.len() as f64;
    assert!(
        mean > 0.01,
        "the random mover loses on the second look too: {rows}"
    );
}
