//! `pbrain-sente bench first-move`: how long a fresh engine process takes
//! to answer its first moves when a manager does not wait for START to be
//! answered (qpiskvork, and any manager whose clock starts when it writes
//! BEGIN): the engine is started and sent, at once, `START 15`,
//! `INFO timeout_turn T`, `INFO max_memory M`, `INFO game_type 0`,
//! `INFO rule 0` and `BEGIN`. Reported per engine, memory budget (350 MB and
//! 1 GB) and load (idle, and two busy threads of this process at its own
//! priority): the ms from the start of the process to the answer to BEGIN
//! (an empty board: setup only), the ms to the answer to the `TURN` that
//! follows (the first real search), and the process's peak resident memory
//! (Linux only). Engines and rounds alternate, so several builds compared
//! in one run share the machine's load.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};

use crate::cli::value;

/// Memory budgets measured: the Gomocup default and qpiskvork's.
const MEMORY: [u64; 2] = [350 << 20, 1 << 30];

/// What one fresh process did.
#[derive(Clone, Copy, Debug, Default)]
struct Round {
    /// ms from the process's start to its answer to BEGIN.
    begin_ms: f64,
    /// ms from writing the TURN to its answer.
    turn_ms: f64,
    /// Peak resident memory in MB (None: not known on this system).
    peak_mb: Option<f64>,
}

struct Config {
    engines: Vec<String>,
    rounds: usize,
    turn_ms: u64,
}

fn parse(args: &[String]) -> Result<Config, String> {
    let mut cfg = Config {
        engines: Vec::new(),
        rounds: 5,
        turn_ms: 500,
    };
    let mut it = args.iter().skip(1);
    // A number above zero, or the error `what`.
    fn positive<T: std::str::FromStr + PartialOrd + Default>(
        v: &str,
        what: &str,
    ) -> Result<T, String> {
        v.parse()
            .ok()
            .filter(|n| *n > T::default())
            .ok_or_else(|| what.to_string())
    }
    while let Some(a) = it.next() {
        match a.as_str() {
            "--engine" => cfg.engines.push(value(&mut it, a)?),
            "--rounds" => {
                cfg.rounds = positive(&value(&mut it, a)?, "--rounds takes a positive number")?
            }
            "--turn" => {
                cfg.turn_ms = positive(&value(&mut it, a)?, "--turn takes a positive number of ms")?
            }
            _ => return Err(format!("unknown argument {a:?}")),
        }
    }
    if cfg.engines.is_empty() {
        let me = std::env::current_exe().map_err(|e| format!("this program's path: {e}"))?;
        cfg.engines.push(me.to_string_lossy().into_owned());
    }
    Ok(cfg)
}

/// Peak resident memory of process `pid` in MB (Linux: `VmHWM`).
fn peak_mb(pid: u32) -> Option<f64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024.0)
}

/// A move answer (`x,y`), not a MESSAGE, DEBUG or OK line.
fn is_move(line: &str) -> bool {
    let t = line.trim();
    !t.is_empty() && t.split(',').count() == 2 && t.split(',').all(|v| v.parse::<u32>().is_ok())
}

/// One fresh process of `engine` with `memory` bytes.
fn round(engine: &str, memory: u64, turn_ms: u64) -> Result<Round, String> {
    let t0 = Instant::now();
    let mut child = Command::new(engine)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("{engine}: {e}"))?;
    let mut stdin = child.stdin.take().ok_or("no stdin")?;
    let stdout = child.stdout.take().ok_or("no stdout")?;
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let mut send = |s: &str| writeln!(stdin, "{s}").and_then(|_| stdin.flush());
    let script = format!(
        "START 15\nINFO timeout_turn {turn_ms}\nINFO max_memory {memory}\nINFO game_type 0\nINFO rule 0\nBEGIN"
    );
    send(&script).map_err(|e| format!("{engine}: {e}"))?;
    let wait_move = |what: &str| -> Result<String, String> {
        loop {
            match rx.recv_timeout(Duration::from_secs(60)) {
                Ok(l) if is_move(&l) => return Ok(l),
                Ok(l) if l.starts_with("ERROR") => return Err(format!("{engine}: {what}: {l}")),
                Ok(_) => {}
                Err(_) => return Err(format!("{engine}: no answer to {what}")),
            }
        }
    };
    let result = (|| {
        let first = wait_move("BEGIN")?;
        let begin_ms = t0.elapsed().as_secs_f64() * 1000.0;
        // A reply next to our stone: the engine's first real search.
        let (x, y) = first.trim().split_once(',').unwrap_or(("7", "7"));
        let (x, y): (u32, u32) = (x.parse().unwrap_or(7), y.parse().unwrap_or(7));
        let reply = format!("TURN {},{}", x.saturating_sub(1), y + 1);
        let t1 = Instant::now();
        send(&reply).map_err(|e| format!("{engine}: {e}"))?;
        wait_move(&reply)?;
        let turn_ms = t1.elapsed().as_secs_f64() * 1000.0;
        Ok(Round {
            begin_ms,
            turn_ms,
            peak_mb: peak_mb(child.id()),
        })
    })();
    let _ = send("END");
    let deadline = Instant::now() + Duration::from_secs(5);
    while Instant::now() < deadline {
        if let Ok(Some(_)) = child.try_wait() {
            return result;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let _ = child.kill();
    let _ = child.wait();
    result
}

/// Two threads spinning at this process's priority until dropped.
struct Load {
    stop: Arc<AtomicBool>,
    threads: Vec<std::thread::JoinHandle<()>>,
}

impl Load {
    fn start(n: usize) -> Load {
        let stop = Arc::new(AtomicBool::new(false));
        let threads = (0..n)
            .map(|_| {
                let stop = stop.clone();
                std::thread::spawn(move || {
                    let mut x = 1u64;
                    while !stop.load(Ordering::Relaxed) {
                        for _ in 0..10_000 {
                            x = std::hint::black_box(x.wrapping_mul(6364136223846793005) + 1);
                        }
                    }
                })
            })
            .collect();
        Load { stop, threads }
    }
}

impl Drop for Load {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        for t in self.threads.drain(..) {
            let _ = t.join();
        }
    }
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v.get(v.len() / 2).copied().unwrap_or(0.0)
}

/// `bench first-move [--engine PATH]... [--rounds N] [--turn MS]`.
pub fn main_first_move(args: &[String]) -> i32 {
    let cfg = match parse(args) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("pbrain-sente bench first-move: {e}\nusage: pbrain-sente bench first-move [--engine PATH]... [--rounds N] [--turn MS]");
            return 2;
        }
    };
    println!(
        "{:<40} {:>6} {:>5} {:>16} {:>16} {:>8}",
        "engine", "MB", "load", "BEGIN med/max", "TURN med/max", "peak MB"
    );
    for busy in [0usize, 2] {
        let _load = (busy > 0).then(|| Load::start(busy));
        for memory in MEMORY {
            let mut rounds = vec![Vec::new(); cfg.engines.len()];
            for _ in 0..cfg.rounds {
                for (i, e) in cfg.engines.iter().enumerate() {
                    match round(e, memory, cfg.turn_ms) {
                        Ok(r) => rounds[i].push(r),
                        Err(err) => {
                            eprintln!("pbrain-sente bench first-move: {err}");
                            return 1;
                        }
                    }
                }
            }
            for (e, rs) in cfg.engines.iter().zip(&rounds) {
                let mut b: Vec<f64> = rs.iter().map(|r| r.begin_ms).collect();
                let mut t: Vec<f64> = rs.iter().map(|r| r.turn_ms).collect();
                let bmax = b.iter().copied().fold(0.0, f64::max);
                let tmax = t.iter().copied().fold(0.0, f64::max);
                let peak = rs
                    .iter()
                    .filter_map(|r| r.peak_mb)
                    .fold(None, |m: Option<f64>, p| Some(m.map_or(p, |m| m.max(p))));
                let name: String = e
                    .chars()
                    .rev()
                    .take(40)
                    .collect::<Vec<_>>()
                    .into_iter()
                    .rev()
                    .collect();
                println!(
                    "{:<40} {:>6} {:>5} {:>7.0} / {:>6.0} {:>7.0} / {:>6.0} {:>8}",
                    name,
                    memory >> 20,
                    busy,
                    median(&mut b),
                    bmax,
                    median(&mut t),
                    tmax,
                    peak.map_or("-".into(), |p| format!("{p:.0}"))
                );
            }
        }
    }
    0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_are_told_from_other_lines() {
        assert!(is_move("7,7"));
        assert!(is_move("10,3\r"));
        for other in ["OK", "MESSAGE depth 3", "7,7,1", "x,7", "", "DEBUG 1,2 3"] {
            assert!(!is_move(other), "{other}");
        }
    }

    #[test]
    fn bad_arguments_are_refused() {
        let args = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert!(parse(&args(&["first-move", "--rounds", "0"])).is_err());
        assert!(parse(&args(&["first-move", "--turn"])).is_err());
        assert!(parse(&args(&["first-move", "--what"])).is_err());
        let c = parse(&args(&[
            "first-move",
            "--engine",
            "a",
            "--engine",
            "b",
            "--rounds",
            "3",
        ]))
        .unwrap();
        assert_eq!((c.engines.len(), c.rounds, c.turn_ms), (2, 3, 500));
    }
}
