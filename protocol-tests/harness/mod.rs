//! Test harness shared by the protocol tests: runs the built `pbrain-sente`
//! over pipes exactly as a manager does (CR LF line ends), reads its answers
//! on a thread so a hang turns into a timeout failure instead of a blocked
//! test, and checks that every line it prints is a valid protocol line.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

pub mod arena_args;

/// Run `cmd` to its end with no input, stdout and stderr captured (read on
/// threads, so a chatty child cannot block); fail the test if it runs
/// longer than `bound` (a hang fails instead of blocking the suite).
pub fn run_bounded(cmd: &mut Command, bound: Duration) -> std::process::Output {
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {cmd:?}: {e}"));
    let mut out = child.stdout.take().unwrap();
    let mut err = child.stderr.take().unwrap();
    let t_out = thread::spawn(move || {
        let mut v = Vec::new();
        std::io::Read::read_to_end(&mut out, &mut v).ok();
        v
    });
    let t_err = thread::spawn(move || {
        let mut v = Vec::new();
        std::io::Read::read_to_end(&mut err, &mut v).ok();
        v
    });
    let start = Instant::now();
    let status = loop {
        if let Some(st) = child.try_wait().unwrap() {
            break st;
        }
        if start.elapsed() > bound {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{cmd:?} still running after {bound:?}");
        }
        thread::sleep(Duration::from_millis(20));
    };
    std::process::Output {
        status,
        stdout: t_out.join().unwrap(),
        stderr: t_err.join().unwrap(),
    }
}

/// A fresh, empty folder for one test's files, unique per process, test
/// `tag` and call (`prefix` names the test file).
pub fn temp_dir(prefix: &str, tag: &str) -> std::path::PathBuf {
    use std::sync::atomic::{AtomicUsize, Ordering};
    static N: AtomicUsize = AtomicUsize::new(0);
    let d = std::env::temp_dir().join(format!(
        "sente-{prefix}-test-{}-{tag}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::SeqCst)
    ));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

pub const BIN: &str = env!("CARGO_BIN_EXE_pbrain-sente");

/// The laboratory's binary (fits, trains, generates data, rebuilds suites).
pub const LAB: &str = env!("CARGO_BIN_EXE_sente-lab");

/// The command that starts the engine under test: the binary cargo built,
/// or, when the environment sets `SENTE_ENGINE`, that command line (split
/// on whitespace: a runner and its arguments), so that the same tests check
/// another build of the engine, e.g. the Windows one under wine:
/// `SENTE_ENGINE="wine target/dist/pbrain-sente64.exe"`.
pub fn engine_command() -> Command {
    if let Ok(line) = std::env::var("SENTE_ENGINE") {
        let mut words = line.split_whitespace();
        if let Some(program) = words.next() {
            let mut c = Command::new(program);
            c.args(words);
            return c;
        }
    }
    Command::new(BIN)
}

/// Default time to wait for an answer: generous, so a busy machine does not
/// make tests flake, but a hang still fails.
pub const ANSWER_TIMEOUT: Duration = Duration::from_secs(20);

pub struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    rx: Receiver<Option<String>>,
    /// Every line received, for failure reports.
    pub transcript: Vec<String>,
    closed: bool,
    syncs: u64,
    /// How many lines of each kind arrived (move, OK, ERROR, UNKNOWN, …).
    pub counts: std::collections::BTreeMap<&'static str, usize>,
}

/// The kind of an output line, for statistics.
pub fn kind(line: &str) -> &'static str {
    for k in [
        "MESSAGE", "DEBUG", "ERROR", "UNKNOWN", "SUGGEST", "FORBID", "OK", "SWAP",
    ] {
        if line.starts_with(k) {
            return k;
        }
    }
    if line.starts_with("name=") {
        "ABOUT"
    } else if line.contains(' ') {
        "moves"
    } else {
        "move"
    }
}

/// Is `line` something a brain may print? (Answers, MESSAGE, DEBUG, …)
pub fn valid_output(line: &str) -> bool {
    const PREFIXES: [&str; 7] = [
        "MESSAGE", "DEBUG", "ERROR", "UNKNOWN", "SUGGEST ", "FORBID ", "name=\"",
    ];
    line == "OK"
        || line == "SWAP"
        || PREFIXES.iter().any(|p| line.starts_with(p))
        || (!line.is_empty() && line.split(' ').all(|m| parse_point(m).is_some()))
}

/// `x,y` with non-negative integers, nothing else.
pub fn parse_point(s: &str) -> Option<(i64, i64)> {
    let (x, y) = s.split_once(',')?;
    if x.is_empty() || y.is_empty() || !x.bytes().chain(y.bytes()).all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some((x.parse().ok()?, y.parse().ok()?))
}

impl Engine {
    pub fn spawn() -> Engine {
        let mut child = engine_command()
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .env("RUST_LOG", "off")
            .spawn()
            .expect("start the engine (pbrain-sente or SENTE_ENGINE)");
        let stdout = child.stdout.take().expect("stdout");
        let stdin = child.stdin.take();
        let (tx, rx) = channel();
        thread::spawn(move || {
            let mut r = BufReader::new(stdout);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match r.read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => {
                        let _ = tx.send(None);
                        return;
                    }
                    Ok(_) => {
                        let s = String::from_utf8_lossy(&buf)
                            .trim_end_matches(['\r', '\n'])
                            .to_string();
                        if tx.send(Some(s)).is_err() {
                            return;
                        }
                    }
                }
            }
        });
        Engine {
            child,
            stdin,
            rx,
            transcript: Vec::new(),
            closed: false,
            syncs: 0,
            counts: Default::default(),
        }
    }

    pub fn send_bytes(&mut self, bytes: &[u8]) -> Result<(), String> {
        let w = self.stdin.as_mut().ok_or("stdin already closed")?;
        w.write_all(bytes)
            .and_then(|_| w.flush())
            .map_err(|e| format!("write to engine failed: {e}"))
    }

    /// Send one line with the manager's CR LF.
    pub fn send(&mut self, line: &str) -> Result<(), String> {
        self.transcript.push(format!("> {line}"));
        let mut b = line.as_bytes().to_vec();
        b.extend_from_slice(b"\r\n");
        self.send_bytes(&b)
    }

    pub fn close_stdin(&mut self) {
        self.stdin = None;
    }

    /// The next line the engine prints, whatever it is.
    pub fn recv(&mut self, timeout: Duration) -> Result<String, String> {
        if self.closed {
            return Err("engine output closed".into());
        }
        match self.rx.recv_timeout(timeout) {
            Ok(Some(l)) => {
                self.transcript.push(format!("< {l}"));
                *self.counts.entry(kind(&l)).or_default() += 1;
                if !valid_output(&l) {
                    return Err(format!("invalid protocol line from engine: {l:?}"));
                }
                Ok(l)
            }
            Ok(None) | Err(RecvTimeoutError::Disconnected) => {
                self.closed = true;
                Err("engine closed its output (exited?)".into())
            }
            Err(RecvTimeoutError::Timeout) => Err(format!("no answer within {timeout:?}")),
        }
    }

    /// The next answer, skipping MESSAGE and DEBUG lines.
    pub fn answer(&mut self, timeout: Duration) -> Result<String, String> {
        let deadline = Instant::now() + timeout;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let l = self.recv(left)?;
            if !(l.starts_with("MESSAGE") || l.starts_with("DEBUG")) {
                return Ok(l);
            }
        }
    }

    /// Skip everything the engine still has to say about earlier lines: send
    /// a unique unknown word and wait for the UNKNOWN line that names it.
    pub fn sync(&mut self, timeout: Duration) -> Result<(), String> {
        self.syncs += 1;
        let word = format!("SYNC{}", self.syncs);
        self.send(&word)?;
        let deadline = Instant::now() + timeout;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let l = self.recv(left)?;
            if l.starts_with("UNKNOWN") && l.contains(&format!("'{word}'")) {
                return Ok(());
            }
        }
    }

    /// Sync, then send ABOUT and expect its answer next.
    pub fn ping(&mut self, timeout: Duration) -> Result<(), String> {
        self.sync(timeout)?;
        self.send("ABOUT")?;
        let l = self.answer(timeout)?;
        if l.starts_with("name=\"Sente\"") {
            Ok(())
        } else {
            Err(format!("ABOUT answered '{l}'"))
        }
    }

    /// Send `lines` (one START or RECTSTART among INFO lines, which answer
    /// nothing) and expect START's OK.
    pub fn setup<S: AsRef<str>>(&mut self, lines: &[S]) -> Result<(), String> {
        for l in lines {
            self.send(l.as_ref())?;
        }
        match self.answer(ANSWER_TIMEOUT)? {
            ok if ok == "OK" => Ok(()),
            other => Err(format!("START answered '{other}'")),
        }
    }

    /// A fresh engine set up with `settings` (see `setup`) that has started
    /// the search `go` asks for (TURN, BEGIN or a BOARD block) and printed
    /// its first line, a MESSAGE: an iteration finished, the search is under
    /// way. Give it a long turn time and it is still searching.
    pub fn searching(settings: &[&str], go: &[&str]) -> Engine {
        let mut e = Engine::spawn();
        e.setup(settings).unwrap();
        for l in go {
            e.send(l).unwrap();
        }
        let first = e.recv(ANSWER_TIMEOUT).unwrap();
        assert!(
            first.starts_with("MESSAGE"),
            "expected search info, got {first}\n{}",
            e.tail(12)
        );
        e
    }

    /// Send END and time the exit, which must be clean; `what` names the
    /// moment in the printed figure.
    pub fn end_timed(&mut self, what: &str) -> Duration {
        let t0 = Instant::now();
        self.send("END").unwrap();
        let st = self.wait_exit(Duration::from_secs(5)).unwrap();
        let dt = t0.elapsed();
        eprintln!("END {what}: {dt:?}");
        assert!(st.success(), "exit status {st}");
        dt
    }

    /// Wait for the process to exit by itself.
    pub fn wait_exit(&mut self, timeout: Duration) -> Result<ExitStatus, String> {
        let deadline = Instant::now() + timeout;
        loop {
            match self.child.try_wait() {
                Ok(Some(st)) => return Ok(st),
                Ok(None) if Instant::now() >= deadline => {
                    return Err(format!("engine still running after {timeout:?}"))
                }
                Ok(None) => thread::sleep(Duration::from_millis(2)),
                Err(e) => return Err(e.to_string()),
            }
        }
    }

    pub fn is_running(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }

    /// The last lines exchanged, for failure messages.
    pub fn tail(&self, n: usize) -> String {
        let k = self.transcript.len().saturating_sub(n);
        self.transcript[k..].join("\n")
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
