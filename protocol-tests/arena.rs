//! Arena integration tests: the real `sente-arena` binary referees games
//! against tiny misbehaving engines (its own `--fake-engine` kinds and the
//! shell engines in protocol-tests/engines/) and must score every forfeit
//! correctly, write the JSON contract, stop an SPRT, and never hang.

mod harness;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use harness::arena_args::{fake, ArenaArgs, ARENA};
use harness::{Engine, BIN as BRAIN};

/// No arena run in these tests may take longer than this (a hang fails).
const BOUND: Duration = Duration::from_secs(120);

fn temp_dir(tag: &str) -> PathBuf {
    harness::temp_dir("arena", tag)
}

struct Run {
    stdout: String,
    json: String,
    dir: PathBuf,
}

/// Run the arena with `args` plus a JSON file; fail if it runs past BOUND.
fn arena(args: ArenaArgs) -> Run {
    let args = args.to_vec();
    let dir = temp_dir("run");
    let json = dir.join("result.json");
    let o = harness::run_bounded(
        Command::new(ARENA).args(&args).arg("--json").arg(&json),
        BOUND,
    );
    let stdout = String::from_utf8_lossy(&o.stdout).into_owned();
    assert!(
        o.status.success(),
        "sente-arena failed: {} with {args:?}\n{stdout}\n{}",
        o.status,
        String::from_utf8_lossy(&o.stderr)
    );
    let json = std::fs::read_to_string(&json).expect("json written");
    Run { stdout, json, dir }
}

/// The integer value of `"key": N` in a flat JSON text.
fn json_int(json: &str, key: &str) -> i64 {
    let pat = format!("\"{key}\": ");
    let i = json
        .find(&pat)
        .unwrap_or_else(|| panic!("{key} missing in {json}"))
        + pat.len();
    let digits: String = json[i..]
        .chars()
        .take_while(|c| c.is_ascii_digit() || *c == '-')
        .collect();
    digits.parse().unwrap_or_else(|_| panic!("{key} in {json}"))
}

fn json_float(json: &str, key: &str) -> f64 {
    let pat = format!("\"{key}\": ");
    let i = json.find(&pat).unwrap() + pat.len();
    let t: String = json[i..]
        .chars()
        .take_while(|c| c.is_ascii_digit() || "-.".contains(*c))
        .collect();
    t.parse().unwrap()
}

fn openings_file(dir: &Path) -> String {
    harness::arena_args::openings_file(dir)
}

/// random (engine 1) against a misbehaving engine 2, two games (one pair):
/// engine 2 must lose both, by `term`.
fn forfeit_case(kind: &str, term: &str, extra: &[&str]) {
    forfeit_case_with(&fake(kind), term, extra)
}

fn forfeit_case_with(e2: &str, term: &str, extra: &[&str]) {
    let kind = e2;
    let dir = temp_dir("forfeit");
    let openings = openings_file(&dir);
    let r = arena(
        ArenaArgs::new(fake("random"), e2)
            .openings(&openings)
            .games(2)
            .turn(500)
            .tolerance(500)
            .opt("--start-timeout", 2000)
            .grace(200)
            .extend(extra),
    );
    assert_eq!(json_int(&r.json, "games"), 2, "{}", r.stdout);
    assert_eq!(json_int(&r.json, "wins1"), 2, "{kind}: {}", r.stdout);
    assert_eq!(json_int(&r.json, "wins2"), 0, "{}", r.stdout);
    assert_eq!(json_int(&r.json, term), 2, "{kind}: {}", r.stdout);
    assert_eq!(
        r.stdout.lines().filter(|l| l.starts_with("game ")).count(),
        2
    );
    let _ = std::fs::remove_dir_all(&r.dir);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn overtime_forfeits() {
    forfeit_case("overtime:1", "timeout", &[]);
}

#[test]
fn silent_engine_forfeits_at_start_and_is_killed() {
    // Never answers START and ignores END: a bounded loss.
    forfeit_case("silent", "timeout", &[]);
}

#[test]
fn crash_forfeits() {
    forfeit_case("crash:2", "crash", &[]);
}

#[test]
fn garbage_forfeits() {
    forfeit_case("garbage:1", "illegal", &[]);
}

#[test]
fn off_board_move_forfeits() {
    forfeit_case("illegal", "illegal", &[]);
}

#[test]
fn occupied_move_forfeits() {
    forfeit_case("occupied:2", "illegal", &[]);
}

#[test]
fn memory_hog_forfeits() {
    forfeit_case("memory:1", "memory", &["--memory", "64M"]);
}

#[test]
fn refused_start_forfeits() {
    // Shell syntax runs through sh -c; this engine answers START with ERROR.
    let e2 = "sh -c 'read line; echo \"ERROR size not supported\"; sleep 5'";
    forfeit_case_with(e2, "crash", &[]);
}

#[test]
fn game_time_runs_out() {
    // 300 ms a move against a 1 s game with 100 ms tolerance: the fourth
    // move gets only min(500, 100) + 100 ms and is lost on time.
    let dir = temp_dir("slow");
    let openings = openings_file(&dir);
    let r = arena(
        ArenaArgs::new(fake("random"), fake("slow:300"))
            .openings(&openings)
            .games(1)
            .turn(500)
            .opt("--match", 1000)
            .tolerance(100),
    );
    assert_eq!(json_int(&r.json, "wins1"), 1, "{}", r.stdout);
    assert_eq!(json_int(&r.json, "timeout"), 1, "{}", r.stdout);
    let line = r.stdout.lines().find(|l| l.starts_with("game 1")).unwrap();
    // Engine 2 is White in game 1: it made 3 moves before losing on time,
    // engine 1 four moves (3-stone opening, White to move first).
    assert!(line.contains(" moves 6 "), "{line}");
}

/// A league's clock scaled down: the JSON reports each engine's clock
/// left at every game's end and its time by move number, and the summary
/// says the same; without a game clock there is no clock key.
#[test]
fn league_clocks_report_where_the_time_went() {
    let dir = temp_dir("league");
    let openings = openings_file(&dir);
    let r = arena(
        ArenaArgs::new(fake("random"), fake("slow:20"))
            .openings(&openings)
            .games(2)
            .league("fastgame", 40),
    );
    assert_eq!(json_int(&r.json, "match_ms"), 3_000, "{}", r.json);
    let clock = &r.json[r.json.find("\"clock\"").expect("a clock key")..];
    let engine2 = &clock[clock.find("\"engine2\"").unwrap()..];
    let left = engine2.split("\"left_ms\": [").nth(1).unwrap();
    let left: Vec<u64> = left[..left.find(']').unwrap()]
        .split(", ")
        .map(|v| v.parse().unwrap())
        .collect();
    // Two games, each leaving the slow engine less than its 3 s (20 ms a move).
    assert_eq!(left.len(), 2, "{clock}");
    assert!(left.iter().all(|&l| l < 3_000 && l > 1_000), "{left:?}");
    assert!(engine2.contains("\"moves\": \"1-10\""), "{clock}");
    assert!(r.stdout.contains("clock left at the end"), "{}", r.stdout);
    let plain = arena(
        ArenaArgs::new(fake("random"), fake("random"))
            .openings(&openings)
            .games(1),
    );
    assert!(!plain.json.contains("clock"), "{}", plain.json);
}

#[test]
fn shell_engine_with_children_is_suspended_and_killed() {
    // A sh engine that starts a child and then never answers a move: the
    // arena must lose it on time and kill the whole process group.
    let dir = temp_dir("sh");
    let openings = openings_file(&dir);
    let pidfile = dir.join("child.pid");
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("protocol-tests/engines/spawner.sh");
    let e2 = format!("sh {} {}", script.display(), pidfile.display());
    let r = arena(
        ArenaArgs::new(fake("random"), e2)
            .openings(&openings)
            .games(1)
            .turn(300)
            .tolerance(300)
            .grace(100),
    );
    assert_eq!(json_int(&r.json, "wins1"), 1, "{}", r.stdout);
    assert_eq!(json_int(&r.json, "timeout"), 1, "{}", r.stdout);
    let pid = std::fs::read_to_string(&pidfile).expect("child pid written");
    let pid = pid.trim();
    // The child must be gone (or a zombie awaiting its reaper); give the
    // kernel a moment to finish it off.
    let mut stat = String::new();
    for _ in 0..200 {
        stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
        let state = stat
            .rsplit(')')
            .next()
            .and_then(|s| s.split_whitespace().next())
            .unwrap_or("");
        if stat.is_empty() || state == "Z" || state == "X" {
            return;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    panic!("child {pid} survived: {stat}");
}

#[test]
fn random_movers_play_full_games_with_records_and_pairs() {
    let dir = temp_dir("rand");
    let openings = openings_file(&dir);
    let records = dir.join("records");
    let e2 = format!("{} --seed 9", fake("random"));
    let r = arena(
        ArenaArgs::new(fake("random"), e2)
            .openings(&openings)
            .opt("--concurrency", 2)
            .opt("--records", records.display()),
    );
    // No --games: every opening twice.
    let games = json_int(&r.json, "games");
    assert_eq!(games, 4, "{}", r.stdout);
    let (w1, w2, d) = (
        json_int(&r.json, "wins1"),
        json_int(&r.json, "wins2"),
        json_int(&r.json, "draws"),
    );
    assert_eq!(w1 + w2 + d, 4);
    assert_eq!(
        json_int(&r.json, "five") + json_int(&r.json, "draw"),
        4,
        "{}",
        r.stdout
    );
    let score = json_float(&r.json, "score1");
    assert!((score - (w1 as f64 + 0.5 * d as f64) / 4.0).abs() < 1e-3);
    for key in [
        "elo",
        "elo_95",
        "crash",
        "timeout",
        "forbidden",
        "memory",
        "illegal",
    ] {
        assert!(r.json.contains(&format!("\"{key}\": ")), "{key}");
    }
    // Each opening played once with each colour.
    let mut seen = Vec::new();
    for l in r.stdout.lines().filter(|l| l.starts_with("game ")) {
        let opening = l
            .split(" opening ")
            .nth(1)
            .unwrap()
            .split(' ')
            .next()
            .unwrap();
        let black = l
            .split(" black ")
            .nth(1)
            .unwrap()
            .split(' ')
            .next()
            .unwrap();
        seen.push((opening.to_string(), black.to_string()));
    }
    seen.sort();
    seen.dedup();
    assert_eq!(seen.len(), 4, "{}", r.stdout);
    // Records: games.txt with 4 lines whose moves start with the opening,
    // and 4 PSQ files.
    let games_txt = std::fs::read_to_string(records.join("games.txt")).unwrap();
    assert_eq!(games_txt.lines().count(), 4);
    for l in games_txt.lines() {
        let moves = l.rsplit('\t').next().unwrap();
        assert!(moves.starts_with("7,7 8,"), "{l}");
    }
    let psq = std::fs::read_to_string(records.join("game-00001.psq")).unwrap();
    assert!(psq.starts_with("Piskvorky 15x15"));
    assert!(psq.lines().nth(1).unwrap().starts_with("8,8,"));
    assert!(r.stdout.contains("LOS"));
    assert!(r.stdout.contains("terminations: five"));
}

#[test]
fn sprt_stops_once_decided() {
    // A crasher loses every game: with no --games the SPRT must accept H1
    // after SPRT_MIN_GAMES games instead of playing 100,000. (The exact LLR
    // of n clean-sweep pairs is n ln(s1/s0): 0.60 a pair at 400 Elo, past
    // the bound after 5 pairs; at 10 Elo it would take 104 pairs.)
    let r = arena(
        ArenaArgs::new(fake("random"), fake("crash"))
            .turn(500)
            .opt("--sprt", "0,400")
            .grace(100),
    );
    let games = json_int(&r.json, "games");
    // One game at a time: none starts after the decision.
    assert_eq!(
        games as u64,
        sente::lab::arena::stats::SPRT_MIN_GAMES,
        "{}",
        r.stdout
    );
    assert!(r.stdout.contains("H1 accepted"), "{}", r.stdout);
}

#[test]
fn renju_games_with_pondering_engines() {
    // Under renju the random mover avoids Black's forbidden points; any
    // forfeit it made would show up here as "forbidden". With --ponder the
    // engines are never suspended and the games run the same way.
    let e2 = format!("{} --seed 3", fake("random"));
    let r = arena(
        ArenaArgs::new(fake("random"), e2)
            .rule("4")
            .games(2)
            .flag("--ponder"),
    );
    assert_eq!(json_int(&r.json, "games"), 2);
    assert_eq!(json_int(&r.json, "five") + json_int(&r.json, "draw"), 2);
    assert_eq!(json_int(&r.json, "forbidden"), 0, "{}", r.stdout);
    assert_eq!(json_int(&r.json, "illegal"), 0, "{}", r.stdout);
}

#[test]
fn rectangular_boards_use_rectstart_and_fill_up() {
    // 7×5 random games: RECTSTART must be understood, and full boards are
    // draws rather than hangs.
    let e2 = format!("{} --seed 4", fake("random"));
    let r = arena(
        ArenaArgs::new(fake("random"), e2)
            .opt("--size", "7x5")
            .games(4)
            .turn(1000),
    );
    assert_eq!(json_int(&r.json, "games"), 4);
    assert_eq!(
        json_int(&r.json, "five") + json_int(&r.json, "draw"),
        4,
        "{}",
        r.stdout
    );
    for l in r.stdout.lines().filter(|l| l.contains("result 1/2-1/2")) {
        assert!(l.contains(" moves 35 "), "{l}");
    }
}

#[test]
fn renju_forbidden_move_forfeits() {
    // After this opening Black to move has 7,7, a double three. The
    // "forbidden" engine plays it as Black and must lose the game.
    let dir = temp_dir("renju");
    let f = dir.join("renju.txt");
    std::fs::write(
        &f,
        "# board 15x15, rule 4\n5,7 0,0 6,7 2,0 7,5 4,0 7,6 6,0\n",
    )
    .unwrap();
    // Game 1 gives engine 1 Black; in game 2 engine 2 is Black.
    let r2 = arena(
        ArenaArgs::new(fake("random"), fake("forbidden"))
            .rule("renju")
            .openings(f.display().to_string())
            .games(2)
            .turn(1000),
    );
    assert_eq!(json_int(&r2.json, "forbidden"), 1, "{}", r2.stdout);
    let black2 = r2
        .stdout
        .lines()
        .find(|l| l.starts_with("game 2/"))
        .unwrap()
        .to_string();
    assert!(black2.contains("black fake-forbidden"), "{black2}");
    assert!(black2.contains("result 0-1 forbidden"), "{black2}");
    assert!(black2.contains("7,7 is forbidden"), "{black2}");
}

#[test]
fn library_search_beats_the_random_mover() {
    // `--fake-engine search` is Sente's search behind a minimal protocol;
    // it must finish both games of a pair within its time and win them.
    let dir = temp_dir("search");
    let openings = openings_file(&dir);
    let r = arena(
        ArenaArgs::new(fake("search"), fake("random"))
            .openings(&openings)
            .games(2)
            .turn(300)
            .tolerance(1000),
    );
    assert_eq!(json_int(&r.json, "wins1"), 2, "{}", r.stdout);
    assert_eq!(json_int(&r.json, "five"), 2, "{}", r.stdout);
}

/// Does the real brain answer ABOUT yet? (Its protocol lands from another
/// branch; until then it exits at once.)
fn brain_speaks() -> bool {
    let mut e = Engine::spawn();
    e.send("ABOUT").is_ok()
        && e.answer(Duration::from_secs(5))
            .is_ok_and(|l| l.starts_with("name="))
}

/// No game of the match ended in a forfeit.
fn assert_no_forfeit(r: &Run) {
    for key in ["timeout", "crash", "illegal", "forbidden", "memory"] {
        assert_eq!(json_int(&r.json, key), 0, "{key}: {}", r.stdout);
    }
}

#[test]
fn pbrain_sente_against_the_random_mover() {
    assert!(brain_speaks(), "pbrain-sente does not answer ABOUT");
    let r = arena(
        ArenaArgs::new(BRAIN, fake("random"))
            .games(2)
            .tolerance(1000),
    );
    assert_eq!(json_int(&r.json, "games"), 2);
    // Sente must at least never forfeit.
    assert_no_forfeit(&r);
}

#[test]
fn pbrain_sente_stays_within_max_memory() {
    // The referee measures the engine's private memory after every move and
    // forfeits it above the limit; Sente sizes its tables from INFO
    // max_memory, so a small limit must not cost a game.
    let r = arena(
        ArenaArgs::new(BRAIN, fake("random"))
            .games(2)
            .turn(500)
            .opt("--memory", "40M"),
    );
    assert_eq!(json_int(&r.json, "games"), 2);
    assert_no_forfeit(&r);
}
