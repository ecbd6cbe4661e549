//! `sente-arena reach`: the reach benchmark through the protocol. The real
//! binary drives the built brain and the arena's random fake engine over
//! the dev positions; the summary must parse, its counts must add up with
//! the per-position lines, and every answer must be a legal point of its
//! position.

mod harness;

use std::process::Command;
use std::time::Duration;

use harness::arena_args::{fake, ARENA};
use harness::BIN as BRAIN;
use sente::lab::bench::reach::suite::{positions, Kind, ReachPos, Set};

/// No reach run in these tests may take longer than this (a hang fails).
const BOUND: Duration = Duration::from_secs(90);

/// Run `sente-arena reach --engine ENGINE --ms MS --set dev --json FILE`.
fn reach(engine: &str, ms: u64) -> (String, String) {
    let dir = harness::temp_dir("reach", "run");
    let json = dir.join("reach.json");
    let o = harness::run_bounded(
        Command::new(ARENA)
            .args(["reach", "--engine", engine, "--ms", &ms.to_string()])
            .args(["--set", "dev", "--tolerance", "1000", "--json"])
            .arg(&json),
        BOUND,
    );
    let stdout = String::from_utf8_lossy(&o.stdout).into_owned();
    assert!(
        o.status.success(),
        "sente-arena reach failed: {}\n{stdout}\n{}",
        o.status,
        String::from_utf8_lossy(&o.stderr)
    );
    let json = std::fs::read_to_string(&json).expect("json written");
    (stdout, json)
}

/// The per-position lines: (position, move, result), checked against the
/// dev positions one for one.
fn position_lines<'a>(out: &'a str, dev: &[ReachPos]) -> Vec<(&'a str, &'a str, &'a str)> {
    let lines: Vec<(&str, &str, &str)> = out
        .lines()
        .filter_map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            (f.len() >= 6 && dev.iter().any(|p| p.name == f[0])).then(|| (f[0], f[3], f[4]))
        })
        .collect();
    let names: Vec<&str> = lines.iter().map(|l| l.0).collect();
    let want: Vec<&str> = dev.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, want, "one line per dev position, in order:\n{out}");
    lines
}

/// `Solved (dev )   : K/N at …` → (K, N).
fn solved(out: &str) -> (usize, usize) {
    let l = out
        .lines()
        .find(|l| l.starts_with("Solved (dev"))
        .unwrap_or_else(|| panic!("no dev summary in\n{out}"));
    let frac = l
        .split(':')
        .nth(1)
        .unwrap()
        .split_whitespace()
        .next()
        .unwrap();
    let (k, n) = frac.split_once('/').unwrap();
    (k.parse().unwrap(), n.parse().unwrap())
}

/// `Failures        : T timeouts, C crashes, I illegal, M memory` → [T, C, I, M].
fn failures(out: &str) -> Vec<usize> {
    let l = out
        .lines()
        .find(|l| l.starts_with("Failures"))
        .unwrap_or_else(|| panic!("no failure line in\n{out}"));
    l.split(':')
        .nth(1)
        .unwrap()
        .split(',')
        .map(|t| t.split_whitespace().next().unwrap().parse().unwrap())
        .collect()
}

fn json_count(json: &str, key: &str) -> usize {
    let v = sente::lab::arena::json::parse(json).expect("the JSON parses");
    v.u64_field(key)
        .unwrap_or_else(|e| panic!("{key}: {e} in {json}")) as usize
}

/// The summary agrees with the lines; every move is legal. Returns the
/// number solved.
fn check(out: &str, json: &str) -> usize {
    let dev: Vec<ReachPos> = positions()
        .into_iter()
        .filter(|p| p.set == Set::Dev)
        .collect();
    let lines = position_lines(out, &dev);
    let wins = dev.iter().filter(|p| p.kind == Kind::Win).count();
    let (k, n) = solved(out);
    assert_eq!(n, wins, "{out}");
    assert!(k <= n, "{out}");
    let fails = failures(out);
    assert_eq!(fails, vec![0, 0, 0, 0], "no engine failed:\n{out}");
    let mut counted = 0;
    for ((name, mv, result), p) in lines.iter().zip(&dev) {
        let (x, y) = mv.split_once(',').expect("a move x,y");
        let (x, y): (i64, i64) = (x.parse().unwrap(), y.parse().unwrap());
        let b = p.board().unwrap();
        let c = b
            .pos(x, y)
            .unwrap_or_else(|| panic!("{name}: {x},{y} off the board"));
        assert!(b.is_empty(c), "{name}: {x},{y} is taken");
        let in_set = p.answers.contains(&(x, y));
        match (p.kind, *result) {
            (Kind::Win, "solved") => {
                assert!(in_set, "{name}: solved outside the answer set");
                counted += 1;
            }
            (Kind::Win, "-") => assert!(!in_set, "{name}: an answer not counted"),
            (Kind::Quiet, "quiet") => {}
            r => panic!("{name}: unexpected {r:?}"),
        }
    }
    assert_eq!(counted, k, "the solved count matches the lines:\n{out}");
    assert!(
        out.contains(&format!("({} legal answers)", dev.len())),
        "{out}"
    );
    let v = sente::lab::arena::json::parse(json).expect("the JSON parses");
    let d = v.field("dev").unwrap();
    assert_eq!(d.u64_field("solved"), Ok(k as u64));
    assert_eq!(d.u64_field("wins"), Ok(n as u64));
    assert_eq!(json_count(json, "answered"), dev.len());
    assert_eq!(v.arr_field("positions").unwrap().len(), dev.len());
    k
}

#[test]
fn the_brain_through_the_protocol() {
    let (out, json) = reach(BRAIN, 200);
    check(&out, &json);
}

#[test]
fn a_random_engine_solves_few() {
    let (out, json) = reach(&fake("random"), 200);
    let k = check(&out, &json);
    let wins = positions()
        .iter()
        .filter(|p| p.set == Set::Dev && p.kind == Kind::Win)
        .count();
    // Answer sets hold a handful of cells of ~200 empty ones.
    assert!(k * 3 < wins, "random solved {k}/{wins}:\n{out}");
}
