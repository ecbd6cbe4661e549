//! `sente-lab evalpanel` end to end: a tiny datagen run and an arena
//! record become a panel (the same bytes twice from one seed), its
//! positions are labelled at a small node count, and `score` prints the
//! table (the deep label, the classical evaluation and the net, per
//! phase) and writes it as JSON.

#[path = "harness/mod.rs"]
mod harness;

use std::process::Command;
use std::time::Duration;

use harness::{run_bounded, temp_dir, LAB};

const BOUND: Duration = Duration::from_secs(120);

fn lab(args: &[&str]) -> String {
    let out = run_bounded(Command::new(LAB).args(args), BOUND);
    assert!(
        out.status.success(),
        "sente-lab {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn make_label_and_score_a_tiny_panel() {
    let dir = temp_dir("evalpanel", "tiny");
    let p = |f: &str| dir.join(f).display().to_string();
    lab(&[
        "datagen",
        "--games",
        "4",
        "--nodes",
        "300",
        "--seed",
        "3",
        "--quiet",
        "--out",
        &p("src.txt"),
    ]);
    // An arena record (games.txt): a freestyle game Black won by a five.
    let moves = "7,7 8,8 7,8 8,7 6,9 9,6 5,10 10,5 7,9 7,10 6,8 9,9 4,11";
    std::fs::write(
        p("games.txt"),
        format!("1\ta\tb\t1-0\tfive\t3\t-\t{moves}\n2\ta\tb\t0-1\tforfeit\t3\t-\t{moves}\n"),
    )
    .unwrap();
    let make = |out: &str| {
        lab(&[
            "evalpanel",
            "make",
            "--rule",
            "freestyle",
            "--count",
            "8",
            "--seed",
            "1",
            "--plies",
            "6..40",
            "--per-game",
            "2",
            "--out",
            &p(out),
            &p("src.txt"),
            &p("games.txt"),
        ]);
        std::fs::read_to_string(p(out)).unwrap()
    };
    let panel = make("panel.txt");
    assert_eq!(panel, make("again.txt"));
    assert!(
        panel.starts_with("# sente-evalpanel v1 rule=freestyle size=15 count=8"),
        "{panel}"
    );
    let lines: Vec<&str> = panel.lines().filter(|l| !l.starts_with('#')).collect();
    assert!(!lines.is_empty() && lines.len() <= 8, "{panel}");
    // The forfeited game is never drawn.
    assert!(lines
        .iter()
        .all(|l| !l.ends_with(":2:6") && !l.contains("games.txt:2:")));
    lab(&[
        "evalpanel",
        "label",
        "--panel",
        &p("panel.txt"),
        "--nodes",
        "300",
        "--eval",
        "classic",
        "--quiet",
        "--out",
        &p("labels.txt"),
    ]);
    let labels = std::fs::read_to_string(p("labels.txt")).unwrap();
    assert_eq!(labels.lines().count(), lines.len() + 1, "{labels}");
    let table = lab(&[
        "evalpanel",
        "score",
        "--panel",
        &p("panel.txt"),
        "--labels",
        &p("labels.txt"),
        "--json",
        &p("panel.json"),
    ]);
    for name in ["deep", "classic", "net", "all", "<=15"] {
        assert!(table.contains(name), "{name}: {table}");
    }
    let json = std::fs::read_to_string(p("panel.json")).unwrap();
    assert!(
        json.contains("\"evaluator\":\"deep\",\"rule\":\"freestyle\",\"phase\":\"all\""),
        "{json}"
    );
    assert!(lab(&["--help"]).contains("evalpanel"));
    std::fs::remove_dir_all(&dir).unwrap();
}
