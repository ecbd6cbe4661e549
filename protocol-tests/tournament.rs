//! Tournament tests: the real `sente-arena` binary runs round robins and
//! gauntlets of the built-in fake engines (random movers with different
//! seeds are deterministic: a move depends only on the seed and the
//! position), writes the crosstable, ratings, JSON, records and the HTML
//! report; the report replays games in a real headless browser; and three
//! shards run by GNU parallel merge back into the unsharded tournament.
//!
//! Chromium and GNU parallel come from Debian's packages: when one is
//! missing, its test installs it with scripts/ensure-tool.sh if `CI` is set
//! (CI machines start bare) and is skipped with a message otherwise.

mod harness;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::Duration;

use sente::lab::arena::json::{self, Value};

const ARENA: &str = env!("CARGO_BIN_EXE_sente-arena");
/// No command in these tests may take longer than this (a hang fails).
const BOUND: Duration = Duration::from_secs(120);

fn temp_dir(tag: &str) -> PathBuf {
    harness::temp_dir("tour", tag)
}

/// Run a command to its end within BOUND, output captured.
fn run_bounded(cmd: &mut Command) -> Output {
    harness::run_bounded(cmd, BOUND)
}

struct Run {
    stdout: String,
    stderr: String,
}

fn arena(args: &[String]) -> Run {
    let o = run_bounded(Command::new(ARENA).args(args));
    let r = Run {
        stdout: String::from_utf8_lossy(&o.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&o.stderr).into_owned(),
    };
    assert!(
        o.status.success(),
        "sente-arena {args:?} failed: {}\n{}\n{}",
        o.status,
        r.stdout,
        r.stderr
    );
    r
}

fn random(seed: u64) -> String {
    format!("{ARENA} --fake-engine random --seed {seed}")
}

fn openings_file(dir: &Path) -> String {
    harness::arena_args::openings_file(dir)
}

/// Arguments of the four-engine round robin: three random movers and one
/// that plays an off-board move after 8 good ones, 4 games per pairing.
fn four_engines(dir: &Path) -> Vec<String> {
    let mut a: Vec<String> = Vec::new();
    for (name, cmd) in [
        ("r1", random(1)),
        ("r2", random(2)),
        ("r3", random(3)),
        ("bad", format!("{ARENA} --fake-engine illegal:8")),
    ] {
        a.push("--engine".into());
        a.push(format!("{name}={cmd}"));
    }
    for s in [
        "--openings",
        &openings_file(dir),
        "--games",
        "4",
        "--turn",
        "3000",
        "--start-timeout",
        "5000",
        "--grace",
        "200",
        "--concurrency",
        "2",
    ] {
        a.push(s.to_string());
    }
    a
}

fn load(path: &Path) -> Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    json::parse(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn s(v: &Value, key: &str) -> String {
    v.str_field(key).unwrap().to_string()
}

/// The game fields that must agree between runs of a deterministic
/// schedule (times and memory are measurements and may not).
fn game_key(g: &Value) -> String {
    [
        "game",
        "pair",
        "a",
        "b",
        "black",
        "white",
        "opening_line",
        "opening",
        "result",
        "termination",
        "detail",
        "opening_len",
        "moves",
    ]
    .iter()
    .map(|k| match g.field(k).unwrap() {
        Value::Str(x) => x.clone(),
        v => format!("{}", v.as_f64().unwrap()),
    })
    .collect::<Vec<_>>()
    .join("|")
}

#[test]
fn round_robin_of_four_engines() {
    let dir = temp_dir("rr");
    let json_path = dir.join("t.json");
    let records = dir.join("records");
    let log = dir.join("r1-input.log");
    let mut args = four_engines(&dir);
    // r1 goes through `tee` to log what the arena sends it, to see its own
    // INFO option arrive (shell syntax runs through sh -c).
    args[1] = format!("r1=tee -a {} | {}", log.display(), random(1));
    args.extend(
        [
            "--option",
            "r1:max_node=1234",
            "--json",
            json_path.to_str().unwrap(),
            "--records",
            records.to_str().unwrap(),
        ]
        .map(String::from),
    );
    let r = arena(&args);
    let v = load(&json_path);
    let names: Vec<String> = v
        .arr_field("engines")
        .unwrap()
        .iter()
        .map(|x| x.as_str().unwrap().to_string())
        .collect();
    assert_eq!(names, ["r1", "r2", "r3", "bad"]);
    assert_eq!(v.u64_field("games").unwrap(), 24, "{}", r.stdout);
    // Crosstable: both directions of every pair add up to its 4 games.
    let cross = v.field("crosstable").unwrap();
    for a in &names {
        for b in &names {
            if a == b {
                continue;
            }
            let ab = cross.get(a).and_then(|r| r.get(b)).and_then(Value::as_f64);
            let ba = cross.get(b).and_then(|r| r.get(a)).and_then(Value::as_f64);
            assert_eq!(ab.unwrap() + ba.unwrap(), 4.0, "{a} vs {b}");
        }
    }
    // The misbehaving engine loses most of its 12 games by its off-board
    // move (a random opponent may lose to it or make five first).
    let et = v.field("engine_terminations").unwrap().get("bad").unwrap();
    let illegal = et.field("lost").unwrap().u64_field("illegal").unwrap();
    assert!(illegal >= 8, "{illegal}");
    assert_eq!(
        v.field("terminations")
            .unwrap()
            .u64_field("illegal")
            .unwrap(),
        illegal
    );
    let bad_points: f64 = ["r1", "r2", "r3"]
        .iter()
        .map(|o| cross.get("bad").unwrap().get(o).unwrap().as_f64().unwrap())
        .sum();
    assert!(bad_points <= 12.0 - illegal as f64, "{bad_points}");
    // Ratings: all four, the anchor (r1) at 0, bad last with a finite
    // interval, LOS between neighbours.
    let ratings = v.arr_field("ratings").unwrap();
    assert_eq!(ratings.len(), 4);
    assert_eq!(s(&ratings[3], "name"), "bad");
    for rt in ratings {
        let elo = rt.field("elo").unwrap().as_f64().unwrap();
        let e95 = rt.field("elo_95").unwrap().as_f64().unwrap();
        if s(rt, "name") == "r1" {
            assert_eq!((elo, e95), (0.0, 0.0));
        } else {
            assert!(e95 > 0.0 && e95 < 1000.0, "{e95}");
        }
    }
    let los = ratings[2].field("los_next").unwrap().as_f64().unwrap();
    assert!(los > 0.5 && los <= 1.0, "{los}");
    // Text: crosstable and ratings on stdout, a line per game.
    assert_eq!(
        r.stdout.lines().filter(|l| l.starts_with("game ")).count(),
        24
    );
    assert!(r.stdout.contains("crosstable"), "{}", r.stdout);
    assert!(r.stdout.contains("ratings (Bradley-Terry"), "{}", r.stdout);
    // Progress: a line per game on stderr with done/total, time left and
    // the standings.
    let progress: Vec<&str> = r.stderr.lines().filter(|l| l.starts_with('[')).collect();
    assert_eq!(progress.len(), 24, "{}", r.stderr);
    assert!(progress[23].starts_with("[24/24 100%"), "{}", progress[23]);
    assert!(progress[0].contains(" left] "), "{}", progress[0]);
    for name in &names {
        let standing = progress[23].split(&format!("{name} ")).nth(1).unwrap_or("");
        assert!(standing.contains("/12"), "{}", progress[23]);
    }
    // Records: games.txt in schedule order and a PSQ per game.
    let games_txt = std::fs::read_to_string(records.join("games.txt")).unwrap();
    let numbers: Vec<usize> = games_txt
        .lines()
        .map(|l| l.split('\t').next().unwrap().parse().unwrap())
        .collect();
    assert_eq!(numbers, (1..=24).collect::<Vec<_>>());
    let psq = std::fs::read_dir(&records)
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .file_name()
                .to_string_lossy()
                .ends_with(".psq")
        })
        .count();
    assert_eq!(psq, 24);
    // r1's own option reached r1 (and only as an INFO line).
    let sent = std::fs::read_to_string(&log).unwrap();
    assert!(sent.contains("INFO max_node 1234"), "{sent}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn gauntlet_from_a_file_stops_on_interval_width() {
    let dir = temp_dir("gauntlet");
    let file = dir.join("t.ini");
    std::fs::write(
        &file,
        format!(
            "# a gauntlet\nformat = gauntlet\ngames = 40\nopenings = {}\n\n[hero]\ncommand = {}\n\n[x]\ncommand = {}\n\n[y]\ncommand = {}\n",
            openings_file(&dir),
            random(7),
            random(8),
            random(9)
        ),
    )
    .unwrap();
    let json_path = dir.join("g.json");
    let args: Vec<String> = [
        "--tournament",
        file.to_str().unwrap(),
        "--stop-width",
        "5000",
        "--anchor",
        "x=1000",
        "--json",
        json_path.to_str().unwrap(),
    ]
    .map(String::from)
    .to_vec();
    let r = arena(&args);
    let v = load(&json_path);
    // Every interval is narrower than 5000 Elo once each pairing has played
    // a pair: 2 pairings × 2 games, then the stop.
    assert_eq!(v.u64_field("games").unwrap(), 4, "{}", r.stdout);
    assert_eq!(v.u64_field("scheduled").unwrap(), 80);
    assert!(
        r.stdout.contains("stopped: every 95 % interval"),
        "{}",
        r.stdout
    );
    // A gauntlet: x and y never meet.
    let cross = v.field("crosstable").unwrap();
    assert!(cross.get("x").unwrap().get("y").is_none());
    assert!(cross.get("x").unwrap().get("hero").is_some());
    assert_eq!(s(v.field("settings").unwrap(), "format"), "gauntlet");
    let x = v
        .arr_field("ratings")
        .unwrap()
        .iter()
        .find(|r| s(r, "name") == "x")
        .unwrap();
    assert_eq!(x.field("elo").unwrap().as_f64(), Some(1000.0));
    let _ = std::fs::remove_dir_all(&dir);
}

/// The path of `tool`, installing it when CI is set; None (skip) when it
/// is missing outside CI.
fn tool(name: &str, test: &str) -> Option<String> {
    let find = || {
        let o = Command::new("sh")
            .arg("-c")
            .arg(format!("command -v {name}"))
            .output()
            .ok()?;
        let p = String::from_utf8_lossy(&o.stdout).trim().to_string();
        (o.status.success() && !p.is_empty()).then_some(p)
    };
    if let Some(p) = find() {
        return Some(p);
    }
    let ci = std::env::var("CI")
        .map(|v| !v.is_empty() && v != "0" && v != "false")
        .unwrap_or(false);
    if !ci {
        // Straight to the stderr handle: libtest captures eprintln! of a
        // passing test, and a skip must be seen.
        use std::io::Write;
        let _ = writeln!(
            std::io::stderr(),
            "SKIPPED {test}: {name} is not installed (run scripts/ensure-tool.sh {name}; with CI set the test installs it)"
        );
        return None;
    }
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/ensure-tool.sh");
    let st = Command::new("bash")
        .arg(&script)
        .arg(name)
        .status()
        .expect("run ensure-tool.sh");
    assert!(st.success(), "CI: installing {name} failed");
    Some(find().unwrap_or_else(|| panic!("CI: {name} still missing after the install")))
}

/// The DOM of `url` after its scripts ran, from headless Chromium.
fn dump_dom(chromium: &str, url: &str, profile: &Path) -> String {
    let o = run_bounded(Command::new(chromium).args([
        "--headless",
        "--disable-gpu",
        "--no-sandbox",
        "--no-first-run",
        &format!("--user-data-dir={}", profile.display()),
        "--virtual-time-budget=5000",
        "--dump-dom",
        url,
    ]));
    assert!(o.status.success(), "chromium failed on {url}");
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// The attributes of every `<tag …>` element in `html`.
fn elements(html: &str, tag: &str) -> Vec<BTreeMap<String, String>> {
    let mut out = Vec::new();
    let open = format!("<{tag} ");
    let mut rest = html;
    while let Some(i) = rest.find(&open) {
        let body = &rest[i + open.len()..];
        let end = body.find('>').unwrap_or(body.len());
        let mut attrs = BTreeMap::new();
        let mut a = &body[..end];
        while let Some(eq) = a.find("=\"") {
            let key = a[..eq].trim().trim_start_matches('/').to_string();
            let after = &a[eq + 2..];
            let close = after.find('"').unwrap_or(after.len());
            attrs.insert(key, after[..close].to_string());
            a = &after[(close + 1).min(after.len())..];
        }
        out.push(attrs);
        rest = &body[end..];
    }
    out
}

/// The stones the page shows: (x, y, move number, is black).
fn shown_stones(dom: &str) -> Vec<(usize, usize, usize, bool)> {
    let mut v: Vec<_> = elements(dom, "circle")
        .into_iter()
        .filter(|a| a.contains_key("data-n"))
        .map(|a| {
            (
                a["data-x"].parse().unwrap(),
                a["data-y"].parse().unwrap(),
                a["data-n"].parse().unwrap(),
                a["class"].split(' ').any(|c| c == "black"),
            )
        })
        .collect();
    v.sort_by_key(|s| s.2);
    v
}

fn status(dom: &str) -> (usize, usize) {
    let st = elements(dom, "span")
        .into_iter()
        .find(|a| a.get("id").map(String::as_str) == Some("status"))
        .expect("#status in the DOM");
    (
        st["data-game"].parse().unwrap(),
        st["data-ply"].parse().unwrap(),
    )
}

/// The first `ply` stones of game `number` in the tournament JSON.
fn record_stones(v: &Value, number: u64, ply: usize) -> Vec<(usize, usize, usize, bool)> {
    let g = v
        .arr_field("games_list")
        .unwrap()
        .iter()
        .find(|g| g.u64_field("game").unwrap() == number)
        .unwrap();
    g.str_field("moves")
        .unwrap()
        .split_whitespace()
        .take(ply)
        .enumerate()
        .map(|(i, m)| {
            let (x, y) = m.split_once(',').unwrap();
            (x.parse().unwrap(), y.parse().unwrap(), i + 1, i % 2 == 0)
        })
        .collect()
}

#[test]
fn html_report_replays_games_in_a_headless_browser() {
    let Some(chromium) = tool(
        "chromium",
        "html_report_replays_games_in_a_headless_browser",
    ) else {
        return;
    };
    let dir = temp_dir("html");
    let json_path = dir.join("t.json");
    let html = dir.join("report.html");
    let mut args: Vec<String> = Vec::new();
    for (n, seed) in [("a", 11), ("b", 12), ("c<&>", 13)] {
        args.push("--engine".into());
        args.push(format!("{n}={}", random(seed)));
    }
    args.extend(
        [
            "--openings",
            &openings_file(&dir),
            "--games",
            "2",
            "--turn",
            "3000",
            "--json",
            json_path.to_str().unwrap(),
            "--html",
            html.to_str().unwrap(),
        ]
        .map(String::from),
    );
    arena(&args);
    let v = load(&json_path);
    let page = std::fs::read_to_string(&html).unwrap();
    // Self-contained: no stylesheet, script or image fetched from anywhere.
    assert!(!page.contains("<link"));
    assert!(!page.contains(" src="));
    assert_eq!(
        page.matches("http").count(),
        page.matches("http://www.w3.org/2000/svg").count(),
        "only the SVG namespace may name a URL"
    );
    // The names are escaped, the tables and the plot are there.
    assert!(page.contains("c&lt;&amp;&gt;") && !page.contains("c<&>"));
    for id in [
        "crosstable",
        "ratings",
        "ratingplot",
        "terminations",
        "board",
        "games",
    ] {
        assert!(page.contains(&format!("id=\"{id}\"")), "#{id} missing");
    }
    let url = format!("file://{}", html.display());
    let profile = dir.join("profile");
    // Game 3 after 10 stones (3 of them the opening's).
    let dom = dump_dom(&chromium, &format!("{url}#game=3&ply=10"), &profile);
    assert_eq!(status(&dom), (3, 10));
    assert_eq!(shown_stones(&dom), record_stones(&v, 3, 10));
    // The buttons and keys go through the page's own handlers.
    let dom = dump_dom(
        &chromium,
        &format!("{url}#game=3&ply=10&click=next,next,prev&keys=ArrowRight,ArrowRight"),
        &profile,
    );
    assert_eq!(status(&dom), (3, 13));
    assert_eq!(shown_stones(&dom), record_stones(&v, 3, 13));
    let dom = dump_dom(
        &chromium,
        &format!("{url}#game=5&ply=4&keys=ArrowDown"),
        &profile,
    );
    let last = record_stones(&v, 6, 1000);
    assert_eq!(status(&dom), (6, last.len()), "the next game, at its end");
    assert_eq!(shown_stones(&dom), last);
    let dom = dump_dom(
        &chromium,
        &format!("{url}#game=2&ply=7&click=first"),
        &profile,
    );
    assert_eq!(status(&dom), (2, 0));
    assert!(shown_stones(&dom).is_empty());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn three_shards_by_gnu_parallel_merge_into_the_whole_tournament() {
    let Some(parallel) = tool(
        "parallel",
        "three_shards_by_gnu_parallel_merge_into_the_whole_tournament",
    ) else {
        return;
    };
    let dir = temp_dir("shards");
    let base = four_engines(&dir);
    let whole = dir.join("whole.json");
    let whole_rec = dir.join("whole-records");
    let mut args = base.clone();
    args.extend(
        [
            "--json",
            whole.to_str().unwrap(),
            "--records",
            whole_rec.to_str().unwrap(),
        ]
        .map(String::from),
    );
    arena(&args);

    // Three shards at once, as `parallel` would spread them over hosts.
    let mut cmd = Command::new(&parallel);
    cmd.args(["--will-cite", "--halt", "now,fail=1", "-j3", "-q", ARENA]);
    cmd.args(&base);
    cmd.args(["--shard", "{}/3", "--json"])
        .arg(dir.join("shard-{}.json"))
        .args(["--records"])
        .arg(dir.join("shard-{}"))
        .args([":::", "1", "2", "3"]);
    let o = run_bounded(&mut cmd);
    assert!(
        o.status.success(),
        "parallel failed: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    let shard_files: Vec<PathBuf> = (1..=3)
        .map(|k| dir.join(format!("shard-{k}.json")))
        .collect();
    let mut counts = Vec::new();
    for f in &shard_files {
        let v = load(f);
        counts.push(v.u64_field("games").unwrap());
        // A shard carries whole colour-swapped pairs.
        let mut pairs: BTreeMap<u64, usize> = BTreeMap::new();
        for g in v.arr_field("games_list").unwrap() {
            *pairs.entry(g.u64_field("pair").unwrap()).or_default() += 1;
        }
        assert!(pairs.values().all(|&c| c == 2), "{pairs:?}");
    }
    assert_eq!(counts.iter().sum::<u64>(), 24, "{counts:?}");
    assert!(counts.iter().all(|&c| c == 8), "{counts:?}");

    let merged = dir.join("merged.json");
    let merged_rec = dir.join("merged-records");
    let mut margs = vec!["merge".to_string()];
    margs.extend(shard_files.iter().rev().map(|f| f.display().to_string()));
    margs.extend(
        [
            "--json",
            merged.to_str().unwrap(),
            "--html",
            dir.join("merged.html").to_str().unwrap(),
            "--records",
            merged_rec.to_str().unwrap(),
        ]
        .map(String::from),
    );
    let m = arena(&margs);
    assert!(m.stdout.contains("24 of 24 games"), "{}", m.stdout);
    let (w, mv) = (load(&whole), load(&merged));
    // Game for game: engines, colours, opening, result, termination, moves.
    let keys = |v: &Value| -> Vec<String> {
        v.arr_field("games_list")
            .unwrap()
            .iter()
            .map(game_key)
            .collect()
    };
    assert_eq!(keys(&w).len(), 24);
    assert_eq!(keys(&w), keys(&mv));
    // And the same tables.
    for k in [
        "engines",
        "games",
        "crosstable",
        "pairings",
        "ratings",
        "terminations",
        "engine_terminations",
        "settings",
    ] {
        assert_eq!(w.get(k), mv.get(k), "{k} differs");
    }
    assert_eq!(mv.get("shard"), Some(&Value::Null));
    // The records too (games.txt has no times; the PSQ files do).
    let txt = |d: &Path| std::fs::read_to_string(d.join("games.txt")).unwrap();
    assert_eq!(txt(&whole_rec), txt(&merged_rec));
    for n in [1, 24] {
        let name = format!("game-{n:05}.psq");
        let moves = |d: &Path| -> Vec<String> {
            std::fs::read_to_string(d.join(&name))
                .unwrap()
                .lines()
                .map(|l| l.rsplitn(2, ',').last().unwrap().to_string())
                .collect()
        };
        assert_eq!(moves(&whole_rec), moves(&merged_rec), "{name}");
    }
    // A merge refuses shards of another tournament.
    let mut other = base.clone();
    other.extend(["--seed", "5", "--shard", "1/3", "--json"].map(String::from));
    let alien = dir.join("alien.json");
    other.push(alien.display().to_string());
    arena(&other);
    let o = run_bounded(
        Command::new(ARENA)
            .arg("merge")
            .arg(&shard_files[1])
            .arg(&alien)
            .arg("--json")
            .arg(dir.join("x.json")),
    );
    assert!(
        !o.status.success(),
        "merged shards of different tournaments"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
