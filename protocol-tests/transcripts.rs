//! Manager transcripts replayed against the built binary, plus END/STOP
//! timing checks, piped input (a whole file of commands, then end of
//! input), and the command lines of the engine (`pbrain-sente`: the
//! protocol and the bench only) and of the laboratory (`sente-lab`).
//!
//! Transcript files live in `protocol-tests/transcripts/*.txt`. Format:
//! - `=== name` starts a case (a fresh engine process); `=== name [search]`
//!   marks a case that needs a real search (tactics), run by
//!   `tactical_transcripts`.
//! - `> text` sends text with CR LF; `>lf text` / `>cr text` end it with LF /
//!   CR only; `>long N` sends a line of N bytes; `>bytes 41 ff …` sends raw
//!   bytes then CR LF; `>eof` closes stdin.
//! - `< text` expects exactly that answer (MESSAGE/DEBUG lines are skipped).
//! - `< ~move`: a legal move (on the board, on a point no stone was sent
//!   to or answered on); `< ~oneof x,y …` / `< ~noneof x,y …`: a legal move
//!   in / not in the list; `< ~moves N`: N legal distinct moves on one line;
//!   `< ~swap3`: SWAP, one or two legal moves; `< ~swap5`: SWAP or one legal
//!   move; `< ~error` / `< ~unknown`: an ERROR / UNKNOWN line; `< ~prefix T`:
//!   a line starting with T; `< ~message`: the next line, not skipped, is a
//!   MESSAGE; `< ~silent`: nothing was answered (checked by sending ABOUT
//!   and expecting its answer next); `< ~hasmessage T` / `< ~nomessage T`:
//!   among everything printed until ABOUT (sent now) is answered, some / no
//!   MESSAGE line contains T (other lines are ignored); `< ~exit`: the
//!   process exits with status 0.
//! - `< ~realtime N`: a search's output up to its move (a legal one), whose
//!   `MESSAGE REALTIME` lines are in Yixin-Board's order (each `POS x,y`
//!   followed by its `DONE x,y` before any other realtime line, each
//!   `REFRESH` by a `BEST`), with at least one POS and one REFRESH and at
//!   most N POS lines (the rate limit).
//! - `< ~defend x,y …`: YXSEARCHDEFEND's output: at least one
//!   `MESSAGE defend i x,y ev S` line, every move listed among the given
//!   ones, and the answer the first of them (the board is not changed).
//! - `#` starts a comment line.
//!
//! `SENTE_ENGINE` (see the harness) runs them against another build;
//! `SENTE_TRANSCRIPTS=commands,board` keeps only the cases of those files.

mod harness;

use std::collections::HashSet;
use std::fs;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use harness::{engine_command, parse_point, run_bounded, Engine, ANSWER_TIMEOUT, LAB};

struct Case {
    file: String,
    name: String,
    needs_search: bool,
    lines: Vec<(usize, String)>,
}

fn load_cases() -> Vec<Case> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("protocol-tests/transcripts");
    let mut files: Vec<PathBuf> = fs::read_dir(&dir)
        .expect("transcripts dir")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    files.sort();
    let mut cases = Vec::new();
    for f in files {
        let text = fs::read_to_string(&f).unwrap();
        let fname = f.file_name().unwrap().to_string_lossy().to_string();
        for (i, line) in text.lines().enumerate() {
            let line = line.trim_end();
            if let Some(rest) = line.strip_prefix("===") {
                let rest = rest.trim();
                let needs_search = rest.ends_with("[search]");
                cases.push(Case {
                    file: fname.clone(),
                    name: rest.trim_end_matches("[search]").trim().to_string(),
                    needs_search,
                    lines: Vec::new(),
                });
            } else if line.trim().is_empty() || line.starts_with('#') {
                continue;
            } else {
                let c = cases
                    .last_mut()
                    .unwrap_or_else(|| panic!("{fname}:{}: line before the first ===", i + 1));
                c.lines.push((i + 1, line.to_string()));
            }
        }
    }
    cases
}

/// What the transcript has put on the board so far, to judge "legal move".
struct Tracker {
    width: i64,
    height: i64,
    stones: HashSet<(i64, i64)>,
    /// Inside BOARD/YXBOARD/SWAP2BOARD: stone lines add stones.
    collecting: bool,
    /// The stones before the last command: an ERROR answer restores them.
    before: HashSet<(i64, i64)>,
}

impl Tracker {
    fn sent(&mut self, line: &str) {
        let up = line.trim().to_ascii_uppercase();
        let mut words = up.split_whitespace();
        let word = words.next().unwrap_or("");
        let arg: String = words.collect::<Vec<_>>().join("");
        let nums: Vec<i64> = arg.split(',').filter_map(|t| t.parse().ok()).collect();
        let letter = word.starts_with(|c: char| c.is_ascii_alphabetic());
        if self.collecting && letter && word != "DONE" {
            // The engine drops a list cut short by another command.
            self.collecting = false;
            self.stones = self.before.clone();
        }
        if !self.collecting {
            self.before = self.stones.clone();
        }
        if self.collecting {
            if word == "DONE" {
                self.collecting = false;
            } else {
                let nums: Vec<i64> = up
                    .split(',')
                    .filter_map(|t| t.trim().parse().ok())
                    .collect();
                if nums.len() >= 2 {
                    self.stones.insert((nums[0], nums[1]));
                }
            }
            return;
        }
        match word {
            "START" if nums.len() == 1 => {
                (self.width, self.height) = (nums[0], nums[0]);
                self.stones.clear();
            }
            "RECTSTART" if nums.len() == 2 => {
                (self.width, self.height) = (nums[0], nums[1]);
                self.stones.clear();
            }
            "RESTART" => self.stones.clear(),
            "TURN" | "PLAY" if nums.len() == 2 => {
                self.stones.insert((nums[0], nums[1]));
            }
            "TAKEBACK" if nums.len() == 2 => {
                self.stones.remove(&(nums[0], nums[1]));
            }
            "BOARD" | "YXBOARD" | "SWAP2BOARD" => {
                self.stones.clear();
                self.collecting = true;
            }
            _ => {}
        }
    }

    /// Check a legal move and record it.
    fn legal(&mut self, s: &str) -> Result<(i64, i64), String> {
        let (x, y) = parse_point(s).ok_or_else(|| format!("'{s}' is not a move"))?;
        if x >= self.width || y >= self.height {
            return Err(format!(
                "{x},{y} is outside the {}x{} board",
                self.width, self.height
            ));
        }
        if !self.stones.insert((x, y)) {
            return Err(format!("{x},{y} is occupied"));
        }
        Ok((x, y))
    }
}

fn points(list: &str) -> Result<Vec<(i64, i64)>, String> {
    list.split_whitespace()
        .map(|t| parse_point(t).ok_or_else(|| format!("bad point '{t}' in transcript")))
        .collect()
}

fn run_case(case: &Case) -> Result<(), String> {
    let mut e = Engine::spawn();
    let mut t = Tracker {
        width: 0,
        height: 0,
        stones: HashSet::new(),
        collecting: false,
        before: HashSet::new(),
    };
    let to = ANSWER_TIMEOUT;
    for (lineno, line) in &case.lines {
        let res = step(&mut e, &mut t, line, to);
        if let Err(msg) = res {
            return Err(format!(
                "{}:{} [{}] `{}`: {}\n--- last exchange:\n{}",
                case.file,
                lineno,
                case.name,
                line,
                msg,
                e.tail(12)
            ));
        }
    }
    Ok(())
}

fn step(e: &mut Engine, t: &mut Tracker, line: &str, to: Duration) -> Result<(), String> {
    if let Some(rest) = line.strip_prefix(">lf") {
        let rest = rest.trim_start();
        t.sent(rest);
        return e.send_bytes(format!("{rest}\n").as_bytes());
    }
    if let Some(rest) = line.strip_prefix(">cr") {
        let rest = rest.trim_start();
        t.sent(rest);
        return e.send_bytes(format!("{rest}\r").as_bytes());
    }
    if let Some(rest) = line.strip_prefix(">long ") {
        let n: usize = rest.trim().parse().map_err(|_| "bad >long")?;
        let mut b = vec![b'7'; n];
        b.extend_from_slice(b"\r\n");
        return e.send_bytes(&b);
    }
    if let Some(rest) = line.strip_prefix(">bytes ") {
        let mut b: Vec<u8> = rest
            .split_whitespace()
            .map(|h| u8::from_str_radix(h, 16).map_err(|_| format!("bad hex {h}")))
            .collect::<Result<_, _>>()?;
        b.extend_from_slice(b"\r\n");
        return e.send_bytes(&b);
    }
    if line.trim() == ">eof" {
        e.close_stdin();
        return Ok(());
    }
    if let Some(rest) = line.strip_prefix('>') {
        let rest = rest.strip_prefix(' ').unwrap_or(rest);
        t.sent(rest);
        return e.send(rest);
    }
    let Some(expect) = line.strip_prefix("< ") else {
        return Err("transcript line must start with > or <".into());
    };
    let expect = expect.trim();
    let Some(pred) = expect.strip_prefix('~') else {
        let got = e.answer(to)?;
        return if got == expect {
            Ok(())
        } else {
            Err(format!("expected '{expect}', got '{got}'"))
        };
    };
    let (name, arg) = pred.split_once(' ').unwrap_or((pred, ""));
    match name {
        "move" => t.legal(&e.answer(to)?).map(|_| ()),
        "oneof" | "noneof" => {
            let set = points(arg)?;
            let got = e.answer(to)?;
            let p = t.legal(&got)?;
            match (name == "oneof", set.contains(&p)) {
                (true, false) => Err(format!("{got} is not one of {arg}")),
                (false, true) => Err(format!("{got} is one of the excluded {arg}")),
                _ => Ok(()),
            }
        }
        "moves" => {
            let n: usize = arg.parse().map_err(|_| "bad ~moves count")?;
            let got = e.answer(to)?;
            let ms: Vec<&str> = got.split(' ').collect();
            if ms.len() != n {
                return Err(format!("expected {n} moves, got '{got}'"));
            }
            ms.iter().try_for_each(|m| t.legal(m).map(|_| ()))
        }
        "swap3" | "swap5" => {
            let got = e.answer(to)?;
            if got == "SWAP" {
                return Ok(());
            }
            let ms: Vec<&str> = got.split(' ').collect();
            let max = if name == "swap3" { 2 } else { 1 };
            if ms.len() > max {
                return Err(format!("too many moves in '{got}'"));
            }
            ms.iter().try_for_each(|m| t.legal(m).map(|_| ()))
        }
        "error" | "unknown" | "prefix" | "message" => {
            let prefix = match name {
                "error" => "ERROR ",
                "unknown" => "UNKNOWN ",
                "message" => "MESSAGE",
                _ => arg,
            };
            let got = if name == "message" || arg.starts_with("MESSAGE") {
                e.recv(to)?
            } else {
                e.answer(to)?
            };
            if got.starts_with(prefix) {
                if name == "error" {
                    t.stones = t.before.clone();
                }
                Ok(())
            } else {
                Err(format!(
                    "expected a line starting with '{prefix}', got '{got}'"
                ))
            }
        }
        "silent" => {
            e.send("ABOUT")?;
            let got = e.answer(to)?;
            if got.starts_with("name=\"Sente\"") {
                Ok(())
            } else {
                Err(format!("expected no answer, got '{got}'"))
            }
        }
        "hasmessage" | "nomessage" => {
            e.send("ABOUT")?;
            let mut found = None;
            loop {
                let l = e.recv(to)?;
                if l.starts_with("name=\"Sente\"") {
                    break;
                }
                if l.starts_with("MESSAGE") && l.contains(arg) && found.is_none() {
                    found = Some(l);
                }
            }
            match (name == "hasmessage", found) {
                (true, None) => Err(format!("no MESSAGE line containing '{arg}'")),
                (false, Some(l)) => Err(format!("unexpected '{l}'")),
                _ => Ok(()),
            }
        }
        "realtime" => {
            let max_pos: usize = arg.parse().map_err(|_| "bad ~realtime bound")?;
            let mut rt = Vec::new();
            let answer = loop {
                let l = e.recv(to)?;
                if let Some(r) = l.strip_prefix("MESSAGE REALTIME ") {
                    rt.push(r.to_string());
                } else if !l.starts_with("MESSAGE") && !l.starts_with("DEBUG") {
                    break l;
                }
            };
            check_realtime(&rt, max_pos)?;
            t.legal(&answer).map(|_| ())
        }
        "defend" => {
            let set = points(arg)?;
            let mut listed = Vec::new();
            let answer = loop {
                let l = e.recv(to)?;
                if let Some(r) = l.strip_prefix("MESSAGE defend ") {
                    let mv = r.split_whitespace().nth(1).unwrap_or("");
                    listed.push(parse_point(mv).ok_or_else(|| format!("bad line '{l}'"))?);
                } else if !l.starts_with("MESSAGE") && !l.starts_with("DEBUG") {
                    break l;
                }
            };
            let got = parse_point(&answer).ok_or_else(|| format!("'{answer}' is not a move"))?;
            if listed.is_empty() {
                return Err("no defence listed".into());
            }
            if let Some(p) = listed.iter().find(|p| !set.contains(p)) {
                return Err(format!(
                    "{},{} listed as a defence, not one of {arg}",
                    p.0, p.1
                ));
            }
            if got != listed[0] {
                return Err(format!("answer {answer} is not the first defence listed"));
            }
            Ok(())
        }
        "exit" => {
            let st = e.wait_exit(Duration::from_secs(5))?;
            if st.success() {
                Ok(())
            } else {
                Err(format!("exit status {st}"))
            }
        }
        _ => Err(format!("unknown predicate ~{name}")),
    }
}

/// The realtime lines of one search (without `MESSAGE REALTIME `) in
/// Yixin-Board's order, at most `max_pos` POS lines.
fn check_realtime(lines: &[String], max_pos: usize) -> Result<(), String> {
    let mut open: Option<&str> = None;
    let mut after_refresh = false;
    let (mut pos, mut refresh) = (0, 0);
    for l in lines {
        let (kind, mv) = l.split_once(' ').unwrap_or((l.as_str(), ""));
        if kind != "REFRESH" && parse_point(mv).is_none() {
            return Err(format!("bad realtime line '{l}'"));
        }
        if after_refresh && kind != "BEST" {
            return Err(format!("REFRESH followed by '{l}', not BEST"));
        }
        after_refresh = false;
        match (kind, open) {
            ("DONE", Some(m)) if m == mv => open = None,
            (_, Some(m)) => return Err(format!("'{l}' while POS {m} is open")),
            ("POS", None) => {
                open = Some(mv);
                pos += 1;
            }
            ("REFRESH", None) => {
                after_refresh = true;
                refresh += 1;
            }
            ("LOST" | "BEST", None) => {}
            _ => return Err(format!("unexpected realtime line '{l}'")),
        }
    }
    if pos == 0 || refresh == 0 {
        return Err(format!("{pos} POS and {refresh} REFRESH lines: {lines:?}"));
    }
    if pos > max_pos {
        return Err(format!("{pos} POS lines, more than {max_pos}"));
    }
    Ok(())
}

fn run_all(search: bool) {
    // A comma-separated list of transcript files (without `.txt`) to keep.
    let only: Option<Vec<String>> = std::env::var("SENTE_TRANSCRIPTS")
        .ok()
        .map(|s| s.split(',').map(|f| format!("{}.txt", f.trim())).collect());
    let cases: Vec<Case> = load_cases()
        .into_iter()
        .filter(|c| c.needs_search == search)
        .filter(|c| only.as_ref().is_none_or(|o| o.contains(&c.file)))
        .collect();
    assert!(!cases.is_empty(), "no transcripts found");
    // Two workers: each case is its own process, and most of a case's time
    // is the engine starting up.
    let mut failures: Vec<String> = std::thread::scope(|s| {
        let (even, odd): (Vec<_>, Vec<_>) = cases.iter().enumerate().partition(|(i, _)| i % 2 == 0);
        let hs: Vec<_> = [even, odd]
            .into_iter()
            .map(|part| {
                s.spawn(move || {
                    part.into_iter()
                        .filter_map(|(_, c)| run_case(c).err())
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        hs.into_iter().flat_map(|h| h.join().unwrap()).collect()
    });
    failures.sort();
    eprintln!(
        "{} transcripts ({} lines), {} failed",
        cases.len(),
        cases.iter().map(|c| c.lines.len()).sum::<usize>(),
        failures.len()
    );
    assert!(failures.is_empty(), "\n{}", failures.join("\n\n"));
}

#[test]
fn protocol_transcripts() {
    run_all(false);
}

/// Cases that need a real search to find the tactical answer (win in one,
/// block a four, avoid a forbidden point by choice rather than by the
/// legality guard).
#[test]
fn tactical_transcripts() {
    run_all(true);
}

/// END in the middle of a long search: the process must be gone quickly.
/// The bound is generous (the protocol allows ~1 s before a kill); the
/// measured figure is printed.
#[test]
fn end_mid_search_exits_quickly() {
    let mut e = Engine::searching(
        &[
            "START 20",
            "INFO timeout_turn 60000",
            "INFO timeout_match 0",
            "INFO time_left 2147483647",
        ],
        &[
            "BOARD", "10,10,2", "11,11,1", "9,11,2", "12,12,1", "10,9,2", "DONE",
        ],
    );
    std::thread::sleep(Duration::from_millis(100));
    // Was the move already answered? Then this measures END when idle.
    let mut mid_search = true;
    while let Ok(l) = e.recv(Duration::from_millis(1)) {
        if parse_point(&l).is_some() {
            mid_search = false;
        }
    }
    let dt = e.end_timed(&format!("latency (mid-search: {mid_search})"));
    assert!(dt < Duration::from_secs(1), "END took {dt:?}");
}

/// A script that pipes a whole session in one write, END included, still
/// gets its answers: END stops the search but lets the session answer what
/// came before it (START's table build on a cold process included) before
/// the process exits. The old 25 ms grace printed nothing at all here. With
/// stdin closed right after END (a file piped in) END still stops the
/// search at once: the end of input after it changes nothing.
#[test]
fn end_in_a_burst_answers_what_came_before() {
    for close in [false, true] {
        let mut e = Engine::spawn();
        e.send_bytes(b"START 15\r\nINFO timeout_turn 60000\r\nTURN 7,7\r\nABOUT\r\nEND\r\n")
            .unwrap();
        if close {
            e.close_stdin();
        }
        let t0 = Instant::now();
        let st = e.wait_exit(Duration::from_secs(5)).unwrap();
        let dt = t0.elapsed();
        eprintln!("burst with END answered and exited after {dt:?} (stdin closed: {close})");
        assert!(st.success(), "exit status {st}");
        assert_eq!(e.answer(ANSWER_TIMEOUT).unwrap(), "OK");
        let mv = e.answer(ANSWER_TIMEOUT).unwrap();
        let (x, y) = parse_point(&mv).unwrap_or_else(|| panic!("not a move: {mv}"));
        assert!(x < 15 && y < 15 && (x, y) != (7, 7), "bad move {mv}");
        let about = e.answer(ANSWER_TIMEOUT).unwrap();
        assert!(about.starts_with("name=\"Sente\""), "ABOUT gave {about}");
        // The search was cut short, not run to its 60 s limit (the grace for
        // answering what came before END is 2 s at most).
        assert!(dt < Duration::from_secs(3), "END took {dt:?}");
    }
}

/// Everything the engine prints until it exits (within `bound`), as its
/// answers, each with the deepest `MESSAGE depth N` line printed before it
/// (0 when none).
fn answers_until_exit(e: &mut Engine, bound: Duration) -> Vec<(u32, String)> {
    let deadline = Instant::now() + bound;
    let mut answers = Vec::new();
    let mut depth = 0;
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        match e.recv(left) {
            Ok(l) if l.starts_with("MESSAGE") || l.starts_with("DEBUG") => {
                let d = l
                    .strip_prefix("MESSAGE depth ")
                    .and_then(|r| r.split(' ').next()?.parse().ok());
                depth = depth.max(d.unwrap_or(0));
            }
            Ok(l) => answers.push((std::mem::take(&mut depth), l)),
            Err(err) if err.contains("closed") => return answers,
            Err(err) => panic!("{err}\n{}", e.tail(12)),
        }
    }
}

/// A file of commands piped in (`pbrain-sente < cmds.txt`): at the end of
/// input every command already read is answered in full, each search under
/// its own time limit, as if typed one after the other, and then the
/// process exits. It used to stop every queued search at once: both moves
/// came at depth 1 and YXBALANCEONE answered `ERROR stopped`. The second
/// TURN, read long before the first one's answer, still gets its own
/// second (its clock starts at that answer).
#[test]
fn piped_file_is_answered_in_full_at_end_of_input() {
    let mut e = Engine::spawn();
    e.send_bytes(
        b"START 15\r\nINFO timeout_turn 1000\r\nTURN 7,7\r\nTURN 3,3\r\nYXBALANCEONE 0\r\n",
    )
    .unwrap();
    e.close_stdin();
    let t0 = Instant::now();
    let answers = answers_until_exit(&mut e, Duration::from_secs(30));
    let st = e.wait_exit(Duration::from_secs(5)).unwrap();
    eprintln!(
        "piped file answered and exited after {:?}: {answers:?}",
        t0.elapsed()
    );
    assert!(st.success(), "exit status {st}");
    let lines: Vec<&str> = answers.iter().map(|(_, l)| l.as_str()).collect();
    assert_eq!(lines.len(), 4, "{answers:?}\n{}", e.tail(12));
    assert_eq!(lines[0], "OK");
    let mut taken = HashSet::from([(7, 7), (3, 3)]);
    for (i, what) in [(1, "TURN 7,7"), (2, "TURN 3,3"), (3, "YXBALANCEONE 0")] {
        let (depth, mv) = &answers[i];
        let p = parse_point(mv).unwrap_or_else(|| panic!("{what} answered '{mv}', not a move"));
        assert!(
            p.0 < 15 && p.1 < 15 && taken.insert(p),
            "{what}: bad move {mv}"
        );
        assert!(
            *depth > 1,
            "{what} answered {mv} after depth {depth}: cut short"
        );
    }
}

/// YXSTOP during a long search makes the engine answer a legal move now.
#[test]
fn stop_answers_now() {
    let mut e = Engine::searching(
        &[
            "START 15",
            "INFO timeout_turn 60000",
            "INFO time_left 2147483647",
        ],
        &["TURN 7,7"],
    );
    std::thread::sleep(Duration::from_millis(100));
    // INFO while thinking: accepted now, applied to the next search.
    e.send("INFO timeout_turn 200").unwrap();
    let t0 = Instant::now();
    e.send("YXSTOP").unwrap();
    let mv = e.answer(Duration::from_secs(5)).unwrap();
    let dt = t0.elapsed();
    eprintln!("YXSTOP answered {mv} after {dt:?}");
    let (x, y) = parse_point(&mv).unwrap_or_else(|| panic!("not a move: {mv}"));
    assert!(x < 15 && y < 15 && (x, y) != (7, 7));
    // The next search uses the 200 ms sent during the last one (with the
    // old 60 s limit this would time out).
    let t1 = Instant::now();
    e.send("TURN 3,3").unwrap();
    let mv2 = e.answer(Duration::from_secs(15)).unwrap();
    assert!(parse_point(&mv2).is_some(), "not a move: {mv2}");
    eprintln!(
        "next TURN with the new timeout answered after {:?}",
        t1.elapsed()
    );
    e.ping(ANSWER_TIMEOUT).unwrap();
    e.send("END").unwrap();
    assert!(e.wait_exit(Duration::from_secs(5)).unwrap().success());
}

/// End of input during a search: the search is not stopped but runs to its
/// own time limit, its move is answered, and the process exits with status
/// 0. (It used to answer at once.)
#[test]
fn eof_mid_search_finishes_the_search_and_exits() {
    let mut e = Engine::searching(
        &[
            "INFO max_memory 67108864",
            "START 15",
            "INFO timeout_turn 3000",
        ],
        &["TURN 7,7"],
    );
    let t0 = Instant::now();
    e.close_stdin();
    let mv = e.answer(Duration::from_secs(10)).unwrap();
    let dt = t0.elapsed();
    assert!(parse_point(&mv).is_some(), "not a move: {mv}");
    let st = e.wait_exit(Duration::from_secs(5)).unwrap();
    eprintln!(
        "EOF mid-search: answered after {dt:?}, exited after {:?}",
        t0.elapsed()
    );
    assert!(st.success(), "exit status {st}");
    // The turn's hard limit is 2.7 s from TURN; the first iteration was
    // printed before stdin was closed.
    assert!(
        dt > Duration::from_secs(1),
        "answered after {dt:?}: stopped"
    );
}

/// The command line outside the protocol: `--help` and `--version` answer
/// on stdout and exit 0 without waiting for input; an unknown argument is
/// one plain line and the usage on stderr, status 2, nothing on stdout (no
/// error backtrace, even with RUST_BACKTRACE set).
#[test]
fn command_line_help_version_and_unknown_argument() {
    use std::process::Stdio;
    let run = |arg: &str| {
        engine_command()
            .arg(arg)
            .env("RUST_BACKTRACE", "1")
            .stdin(Stdio::null())
            .output()
            .unwrap()
    };
    for arg in ["--help", "-h"] {
        let o = run(arg);
        let out = String::from_utf8_lossy(&o.stdout);
        assert!(o.status.success(), "{arg}: {:?}", o.status);
        assert!(out.starts_with("usage: pbrain-sente"), "{arg}: {out}");
        assert!(
            out.contains("--no-threats") && out.contains("bench"),
            "{out}"
        );
    }
    for arg in ["--version", "-V"] {
        let o = run(arg);
        assert!(o.status.success(), "{arg}: {:?}", o.status);
        assert_eq!(
            String::from_utf8_lossy(&o.stdout).trim(),
            format!("pbrain-sente {}", env!("CARGO_PKG_VERSION"))
        );
    }
    let o = run("--bogus");
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(o.stdout.is_empty(), "stdout: {:?}", o.stdout);
    assert!(
        err.starts_with("pbrain-sente: unknown argument '--bogus'"),
        "{err}"
    );
    assert!(
        err.contains("usage:") && !err.contains("backtrace"),
        "{err}"
    );
}

/// `pbrain-sente --help` names the engine's commands only: every usage
/// line is the protocol loop, a bench or `--help | --version`, and none of
/// the laboratory's commands (`sente-lab`'s) appears.
#[test]
fn engine_help_lists_only_engine_and_bench_commands() {
    let o = engine_command().arg("--help").output().unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{:?}", o.status);
    let commands: Vec<&str> = out
        .lines()
        .filter_map(|l| {
            let l = l
                .trim_start()
                .strip_prefix("usage:")
                .unwrap_or(l)
                .trim_start();
            l.strip_prefix("pbrain-sente ")
        })
        .map(|rest| rest.split_whitespace().next().unwrap_or(""))
        .collect();
    assert!(commands.len() >= 5, "{out}");
    for c in &commands {
        assert!(
            ["[SWITCHES]", "bench", "--help"].contains(c),
            "pbrain-sente {c} in --help:\n{out}"
        );
    }
    for lab in [
        "pbrain-sente tune",
        "tune net",
        "datagen",
        "reach-make",
        "reach-claims",
        "depth-make",
        "net-random",
    ] {
        assert!(!out.contains(lab), "{lab} in --help:\n{out}");
    }
    assert!(out.contains("sente-lab --help"), "{out}");
}

/// The laboratory's old spellings in the engine answer with the command
/// that replaced them, on stderr with status 2: never the protocol loop
/// (which would exit 0 at the end of its empty input) nor a silent failure.
#[test]
fn moved_lab_commands_name_their_sente_lab_command() {
    let cases: &[(&[&str], &str)] = &[
        (&["tune"], "sente-lab tune"),
        (
            &["tune", "net", "--epochs", "1", "x.txt"],
            "sente-lab tune net",
        ),
        (&["tune", "--make-openings", "3"], "sente-lab tune"),
        (&["datagen", "--games", "1"], "sente-lab datagen"),
        (
            &["bench", "reach-make", "games.txt"],
            "sente-lab reach-make",
        ),
        (&["bench", "reach-claims"], "sente-lab reach-claims"),
        (
            &["bench", "depth-make", "--rule", "0"],
            "sente-lab depth-make",
        ),
        (
            &["bench", "--no-threats", "net-random", "f"],
            "sente-lab net-random",
        ),
    ];
    for (args, new) in cases {
        let o = run_bounded(engine_command().args(*args), Duration::from_secs(20));
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(o.stdout.is_empty(), "{args:?}: stdout {:?}", o.stdout);
        let first = err.lines().next().unwrap_or("");
        assert!(
            first.starts_with(&format!("pbrain-sente: `{}", args[0]))
                && first.contains(&format!("` moved to the laboratory: {new} ")),
            "{args:?}: {err}"
        );
    }
}

/// `sente-lab`: `--help` lists every command on a line of its own and
/// `--version` the version, both on stdout with status 0; an unknown
/// command or none is an error with status 2. Each command is reached:
/// `net-random` writes a net the engine loads, `tune --make-openings`
/// prints openings, `datagen --help` its usage, and the others, given
/// wrong arguments, their own usage (status 2).
#[test]
fn lab_command_line_reaches_every_command() {
    let lab = |args: &[&str]| {
        let o = run_bounded(
            std::process::Command::new(LAB).args(args),
            Duration::from_secs(60),
        );
        (
            o.status.code(),
            String::from_utf8_lossy(&o.stdout).into_owned(),
            String::from_utf8_lossy(&o.stderr).into_owned(),
        )
    };
    let (code, out, err) = lab(&["--help"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.starts_with("usage: sente-lab COMMAND"), "{out}");
    for c in [
        "tune",
        "datagen",
        "reach-make",
        "reach-claims",
        "depth-make",
        "net-random",
    ] {
        let lines = out
            .lines()
            .filter(|l| l.starts_with(&format!("  {c} ")))
            .count();
        assert_eq!(lines, 1, "{c}:\n{out}");
    }
    assert!(out.contains("| net RECORDS"), "tune net:\n{out}");
    let (code, out, _) = lab(&["--version"]);
    assert_eq!(code, Some(0));
    assert_eq!(
        out.trim(),
        format!("sente-lab {}", env!("CARGO_PKG_VERSION"))
    );
    for bad in [&["bench"][..], &["--bogus"], &[]] {
        let (code, out, err) = lab(bad);
        assert_eq!(code, Some(2), "{bad:?}: {err}");
        assert!(out.is_empty(), "{bad:?}: {out}");
        match bad.first() {
            Some(w) => assert!(
                err.starts_with(&format!("sente-lab: unknown command '{w}'")),
                "{err}"
            ),
            None => assert!(err.starts_with("usage: sente-lab"), "{err}"),
        }
    }

    let dir = std::env::temp_dir().join(format!("sente-lab-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let net = dir.join("random.bin");
    let (code, out, err) = lab(&["net-random", net.to_str().unwrap(), "4", "4", "7"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.starts_with("wrote "), "{out}");
    // The engine takes the file as its net (a bad file is status 2).
    let o = run_bounded(
        std::process::Command::new(harness::BIN).args(["--net", net.to_str().unwrap()]),
        Duration::from_secs(20),
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    // A net of the joint form too: the bench searches with it (and says
    // so); an unknown form is refused.
    let joint = dir.join("joint.bin");
    let (code, out, err) = lab(&[
        "net-random",
        joint.to_str().unwrap(),
        "4",
        "4",
        "7",
        "joint",
    ]);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("joint form"), "{out}");
    let o = run_bounded(
        std::process::Command::new(harness::BIN).args([
            "bench",
            "3",
            "--net",
            joint.to_str().unwrap(),
        ]),
        Duration::from_secs(60),
    );
    let bench = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(bench.contains("f=4 h=4 joint form"), "{bench}");
    assert!(bench.contains("Nodes searched"), "{bench}");
    let (code, _, _) = lab(&[
        "net-random",
        joint.to_str().unwrap(),
        "4",
        "4",
        "7",
        "bogus",
    ]);
    assert_eq!(code, Some(2));
    let _ = std::fs::remove_dir_all(&dir);

    let (code, out, err) = lab(&["tune", "--make-openings", "3", "--seed", "5"]);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(
        out.lines().filter(|l| !l.starts_with('#')).count(),
        3,
        "{out}"
    );
    let (code, out, err) = lab(&["datagen", "--help"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("sente-lab datagen"), "{out}");
    for (args, usage) in [
        (&["tune"][..], "usage: sente-lab tune "),
        (&["tune", "net"], "usage: sente-lab tune net "),
        (&["reach-make"], "usage: sente-lab reach-make "),
        (
            &["reach-claims", "--bogus"],
            "usage: sente-lab reach-claims ",
        ),
        (&["depth-make"], "usage: sente-lab depth-make "),
        (&["net-random"], "usage: sente-lab net-random "),
    ] {
        let (code, _, err) = lab(args);
        assert_eq!(code, Some(2), "{args:?}: {err}");
        assert!(err.contains(usage), "{args:?}: {err}");
    }
}
