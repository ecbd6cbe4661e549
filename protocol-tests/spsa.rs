//! SPSA tuner integration tests: the real `sente-arena spsa` tunes the
//! planted fake engine (`--fake-engine planted`, strongest at X = 37)
//! through the arena's games: it must move X from 5 towards 37; a run
//! stopped and resumed, and an iteration played in shards and merged by
//! `spsa step`, must give exactly the uninterrupted run's state; bad
//! params files and a parameter the engine does not know end with a clear
//! error and status 2. And the engine's side: `pbrain-sente --param`
//! refuses unknown names, and in a release build every value.

mod harness;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use harness::arena_args::ARENA;

const BOUND: Duration = Duration::from_secs(120);

/// Eight openings from the freestyle suite.
const OPENINGS: &str = "9,9 6,9 6,6\n5,9 6,10 4,5 8,7\n7,9 6,7 6,5\n9,10 7,6 4,4 8,9\n\
                        7,5 9,5 8,7\n10,4 6,6 6,5 4,7\n7,8 7,9 9,6\n9,5 5,6 4,5 5,9\n";

fn setup(tag: &str, params: &str) -> PathBuf {
    let dir = harness::temp_dir("spsa", tag);
    std::fs::write(dir.join("params.txt"), params).unwrap();
    std::fs::write(dir.join("openings.txt"), OPENINGS).unwrap();
    dir
}

/// `sente-arena spsa ARGS` in `dir` with the planted engine and the
/// openings: (status, stdout, stderr).
fn spsa(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let engine = format!("{ARENA} --fake-engine planted");
    let mut cmd = Command::new(ARENA);
    cmd.current_dir(dir).arg("spsa");
    if args.first() != Some(&"step") {
        cmd.args([
            "--engine",
            &engine,
            "--openings",
            "openings.txt",
            "--turn",
            "2000",
        ]);
    }
    let o = harness::run_bounded(cmd.args(args), BOUND);
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

fn ok<S: AsRef<str>>(dir: &Path, args: &[S]) -> String {
    let args: Vec<&str> = args.iter().map(AsRef::as_ref).collect();
    let (code, out, err) = spsa(dir, &args);
    assert_eq!(code, 0, "spsa {args:?}: {out}\n{err}");
    out
}

/// `spsa ARGS` must end with status 2 and `want` in its message.
fn refused<S: AsRef<str>>(dir: &Path, args: &[S], want: &str) {
    let args: Vec<&str> = args.iter().map(AsRef::as_ref).collect();
    let (code, out, err) = spsa(dir, &args);
    assert_eq!(code, 2, "spsa {args:?}: {out}\n{err}");
    assert!(err.contains(want), "spsa {args:?}: {err}");
}

/// `spsa step` of run b.txt with the part files of these shard numbers.
fn step(shards: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = ["step", "--state", "b.txt"].map(String::from).to_vec();
    v.extend(shards.iter().map(|k| format!("part-{k}.txt")));
    v
}

fn state(dir: &Path, name: &str) -> String {
    std::fs::read_to_string(dir.join(name)).unwrap()
}

#[test]
fn tunes_the_planted_engine_towards_its_optimum() {
    let dir = setup("planted", "X, 5, 0, 100, 3, 0.5\n");
    let out = ok(
        &dir,
        &[
            "--state",
            "s.txt",
            "--params",
            "params.txt",
            "--iters",
            "100",
            "--pairs-per-iter",
            "6",
            "--concurrency",
            "2",
            "--stop-after",
            "10",
        ],
    );
    assert_eq!(
        out.lines().filter(|l| l.starts_with("iter ")).count(),
        10,
        "{out}"
    );
    let printed = ok(&dir, &["--state", "s.txt", "--print"]);
    let value: f64 = printed
        .lines()
        .find_map(|l| l.strip_prefix("    X: i32 = "))
        .and_then(|v| v.trim_end_matches(';').parse().ok())
        .unwrap_or_else(|| panic!("no params.rs line: {printed}"));
    assert!(
        printed.contains("    // SPSA: 10 of 100 iterations, 6 pairs each, seed 1"),
        "{printed}"
    );
    assert!(value >= 20.0, "X went from 5 to {value} only:\n{printed}");
}

#[test]
fn resumed_and_sharded_runs_match_the_uninterrupted_one() {
    let dir = setup("resume", "X, 30, 0, 100, 4, 0.3\n");
    let common = [
        "--params",
        "params.txt",
        "--iters",
        "20",
        "--pairs-per-iter",
        "3",
        "--seed",
        "7",
    ];
    // Four iterations in one go.
    let mut a = vec!["--state", "a.txt", "--stop-after", "4"];
    a.extend(common);
    ok(&dir, &a);
    // Two, then one more resumed (the params file may be left out)...
    let mut b = vec!["--state", "b.txt", "--stop-after", "2"];
    b.extend(common);
    ok(&dir, &b);
    ok(&dir, &["--state", "b.txt", "--stop-after", "1"]);
    // ... then the fourth in three shards, merged by step.
    for k in 1..=3 {
        let (shard, part) = (format!("{k}/3"), format!("part-{k}.txt"));
        ok(
            &dir,
            &["--state", "b.txt", "--shard", &shard, "--out", &part],
        );
    }
    let b3 = state(&dir, "b.txt");
    assert_eq!(b3.lines().filter(|l| l.starts_with("iter ")).count(), 3);
    refused(&dir, &step(&["1", "3"]), "pairs missing from the parts: 1");
    refused(&dir, &step(&["1", "1", "2"]), "in two parts");
    ok(&dir, &step(&["1", "2", "3"]));
    assert_eq!(state(&dir, "b.txt"), state(&dir, "a.txt"));
    // The parts were for iteration 4: once it is done they are refused.
    refused(
        &dir,
        &step(&["1", "2", "3"]),
        "not this run's next iteration",
    );
    // Changing the run's settings on resume is refused.
    refused(
        &dir,
        &["--state", "b.txt", "--iters", "30"],
        "another --iters",
    );
    refused(
        &dir,
        &[
            "--state",
            "c.txt",
            "--params",
            "params.txt",
            "--shard",
            "1/2",
            "--out",
            "p.txt",
        ],
        "a shard needs the run's state file",
    );
}

#[test]
fn bad_input_is_a_clear_error() {
    let cases: [(&str, &[&str], &str); 5] = [
        ("X, 5, 0, 100, 3\n", &[], "params.txt: line 1: expected"),
        ("X, 5, 100, 0, 3, 0.5\n", &[], "min 100 > max 0"),
        ("Y, 5, 0, 100, 3, 0.5\n", &[], "does not start"),
        (
            "X, 5, 0, 100, 3, 0.5\n",
            &["--games", "4"],
            "--games does not go with spsa",
        ),
        (
            "X, 5, 0, 100, 3, 0.5\n",
            &["--pairs-per-iter", "0"],
            "at least 1",
        ),
    ];
    for (i, (params, extra, want)) in cases.into_iter().enumerate() {
        let dir = setup(&format!("bad{i}"), params);
        let mut args = vec!["--state", "s.txt", "--params", "params.txt"];
        args.extend(extra);
        refused(&dir, &args, want);
    }
    let dir = setup("nostate", "X, 5, 0, 100, 3, 0.5\n");
    refused(&dir, &["--state", "none.txt"], "a new run needs --params");
}

#[test]
fn the_release_engine_refuses_params() {
    let run = |args: &[&str]| {
        let o = harness::run_bounded(Command::new(harness::BIN).args(args), BOUND);
        (
            o.status.code(),
            String::from_utf8_lossy(&o.stderr).into_owned(),
            String::from_utf8_lossy(&o.stdout).into_owned(),
        )
    };
    let (code, err, _) = run(&["--param", "NO_SUCH_PARAM=1"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("unknown parameter \"NO_SUCH_PARAM\""), "{err}");
    let (code, err, _) = run(&["--param", "RFP_MARGIN=100"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("fixed"), "{err}");
    let (code, _, out) = run(&["--param", "list"]);
    assert_eq!(code, Some(0));
    assert!(out.lines().any(|l| l == "RFP_MARGIN 120"), "{out}");
    // The tuner stops before any game when the engine refuses its values.
    let dir = setup("release", "RFP_MARGIN, 120, 40, 300, 10, 0.002\n");
    let o = harness::run_bounded(
        Command::new(ARENA).current_dir(&dir).args([
            "spsa",
            "--state",
            "s.txt",
            "--params",
            "params.txt",
            "--engine",
            harness::BIN,
            "--openings",
            "openings.txt",
        ]),
        BOUND,
    );
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("does not start"), "{err}");
}

/// Against a fixed opponent each pair is four games, θ+'s two and θ−'s two
/// on the same opening: here θ+ (X = 35, near the best) must outscore θ−
/// (X = 5) against the planted engine at X = 20.
#[test]
fn a_fixed_opponent_plays_both_sides() {
    let dir = setup("opponent", "X, 20, 0, 100, 12, 0.3\n");
    let opponent = format!("{ARENA} --fake-engine planted --param X=20");
    let new = "--state s.txt --params params.txt --iters 10 --pairs-per-iter 4 --stop-after 0";
    ok(&dir, &new.split(' ').collect::<Vec<_>>());
    let shard = ["--state", "s.txt", "--shard", "1/1", "--out", "part.txt"];
    ok(&dir, &[&shard[..], &["--opponent", &opponent]].concat());
    let part = state(&dir, "part.txt");
    let pairs: Vec<(f64, f64)> = part
        .lines()
        .filter_map(|l| l.strip_prefix("pair "))
        .map(|l| {
            let f: Vec<f64> = l.split_whitespace().map(|x| x.parse().unwrap()).collect();
            (f[1], f[2])
        })
        .collect();
    assert_eq!(pairs.len(), 4, "{part}");
    assert!(pairs
        .iter()
        .all(|&(p, m)| (0.0..=2.0).contains(&p) && (0.0..=2.0).contains(&m)));
    let (plus, minus) = pairs
        .iter()
        .fold((0.0, 0.0), |(a, b), &(p, m)| (a + p, b + m));
    assert!(plus >= minus + 3.0, "θ+ {plus} against θ− {minus}:\n{part}");
    assert!(
        pairs.iter().any(|&(p, m)| p + m != 2.0),
        "not self-play: {part}"
    );
}

/// `--opponent-nodes N` reaches the opponent as `INFO max_node N` (and
/// `--nodes` only the tuned engine); without `--opponent` it is refused.
#[test]
fn the_opponent_gets_its_own_node_limit() {
    let dir = setup("opponent-nodes", "X, 20, 0, 100, 12, 0.3\n");
    let log = dir.join("opponent.log");
    let opponent = format!(
        "tee -a '{}' | {ARENA} --fake-engine planted --param X=20",
        log.display()
    );
    let new = "--state s.txt --params params.txt --iters 10 --pairs-per-iter 1 --stop-after 0";
    ok(&dir, &new.split(' ').collect::<Vec<_>>());
    let shard = ["--state", "s.txt", "--shard", "1/1", "--out", "part.txt"];
    let limits = ["--nodes", "555", "--opponent-nodes", "777"];
    ok(
        &dir,
        &[&shard[..], &limits[..], &["--opponent", &opponent]].concat(),
    );
    let seen = std::fs::read_to_string(&log).unwrap();
    assert_eq!(seen.matches("INFO max_node 777").count(), 4, "{seen}");
    assert!(!seen.contains("max_node 555"), "{seen}");
    refused(
        &dir,
        &[&shard[..], &["--opponent-nodes", "777"]].concat(),
        "--opponent-nodes needs --opponent",
    );
}
