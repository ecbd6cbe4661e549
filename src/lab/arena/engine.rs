//! One engine process seen from the manager: spawned in its own process
//! group with piped stdin/stdout, a reader thread turning its output into
//! lines, time-limited waits for `OK` and for moves, suspension between
//! moves (SIGSTOP/SIGCONT through the `kill` command, to the whole group),
//! memory sampling, and END followed by a kill after a grace period.
//! Dropping an `Engine` always kills what is left of it.

use std::io::{BufReader, Read, Write};
#[cfg(unix)]
use std::os::unix::process::CommandExt;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{sync_channel, Receiver, RecvTimeoutError, TryRecvError};
use std::thread;
use std::time::{Duration, Instant};

use super::memory;

/// Longest line we keep from an engine; the rest of it is dropped.
const MAX_LINE: usize = 64 * 1024;
/// How often a wait looks at the process and its memory.
const POLL: Duration = Duration::from_millis(100);

/// What the reader thread saw; a line carries the moment it was read, so a
/// busy referee judges an answer by when it came, not by when it looked.
enum Event {
    Line(String, Instant),
    Eof,
}

/// Why an engine lost while we waited for it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Failure {
    Timeout,
    Crash(String),
    /// Output that is neither a move nor a line the protocol allows.
    Garbage(String),
    /// Memory over the limit (bytes seen).
    Memory(u64),
}

/// What an engine answered to a move request.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    pub x: i64,
    pub y: i64,
    pub elapsed: Duration,
}

pub struct Engine {
    pub name: String,
    child: Child,
    pid: i32,
    stdin: Option<ChildStdin>,
    rx: Receiver<Event>,
    ponder: bool,
    suspended: bool,
    eof: bool,
    /// Highest memory sample (bytes), engine and children.
    pub peak_memory: u64,
    /// MESSAGE lines received (the last few).
    pub messages: Vec<String>,
}

/// Split a command line: a plain one on whitespace, one with shell syntax
/// through `sh -c`.
pub fn command_for(cmd: &str) -> Command {
    let shelly = cmd.chars().any(|c| "'\"|&;<>()$`\\*?~{}".contains(c));
    if shelly {
        let mut c = Command::new("sh");
        c.arg("-c").arg(cmd);
        c
    } else {
        let mut parts = cmd.split_whitespace();
        let mut c = Command::new(parts.next().unwrap_or(""));
        c.args(parts);
        c
    }
}

/// Send a signal to a whole process group with the `kill` command.
fn signal_group(pgid: i32, sig: &str) {
    let _ = Command::new("kill")
        .arg("-s")
        .arg(sig)
        .arg("--")
        .arg(format!("-{pgid}"))
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status();
}

/// A protocol line parsed as a move: `x,y` with integer coordinates.
pub fn parse_move(line: &str) -> Option<(i64, i64)> {
    crate::cli::parse_point(line)
}

impl Engine {
    /// Start `cmd` (suspension applies unless `ponder`). The engine's stderr
    /// goes to ours when `stderr` is set, else nowhere.
    pub fn spawn(cmd: &str, name: &str, ponder: bool, stderr: bool) -> Result<Engine, String> {
        let mut c = command_for(cmd);
        c.stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(if stderr {
                Stdio::inherit()
            } else {
                Stdio::null()
            });
        // Its own process group, so that suspension and the final kill
        // reach the engine's children too. The arena is a Unix program
        // (groups, signals, /proc); elsewhere it only has to compile, for
        // the library holds it and the engine is built for Windows.
        #[cfg(unix)]
        c.process_group(0);
        let mut child = c
            .spawn()
            .map_err(|e| format!("cannot start {cmd:?}: {e}"))?;
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().ok_or("no stdout pipe")?;
        let (tx, rx) = sync_channel(4096);
        thread::Builder::new()
            .name(format!("read-{name}"))
            .spawn(move || {
                let mut r = BufReader::new(stdout);
                let mut buf = [0u8; 4096];
                let mut line: Vec<u8> = Vec::new();
                loop {
                    let n = match r.read(&mut buf) {
                        Ok(0) | Err(_) => break,
                        Ok(n) => n,
                    };
                    for &b in &buf[..n] {
                        if b == b'\n' || b == b'\r' {
                            if !line.is_empty() {
                                let s = String::from_utf8_lossy(&line).into_owned();
                                line.clear();
                                if tx.send(Event::Line(s, Instant::now())).is_err() {
                                    return;
                                }
                            }
                        } else if line.len() < MAX_LINE {
                            line.push(b);
                        }
                    }
                }
                if !line.is_empty() {
                    let s = String::from_utf8_lossy(&line).into_owned();
                    let _ = tx.send(Event::Line(s, Instant::now()));
                }
                let _ = tx.send(Event::Eof);
            })
            .map_err(|e| e.to_string())?;
        let pid = child.id() as i32;
        Ok(Engine {
            name: name.to_string(),
            child,
            pid,
            stdin,
            rx,
            ponder,
            suspended: false,
            eof: false,
            peak_memory: 0,
            messages: Vec::new(),
        })
    }

    pub fn pid(&self) -> i32 {
        self.pid
    }

    /// Send one line, CR LF terminated, flushed.
    pub fn send(&mut self, line: &str) -> Result<(), Failure> {
        log::debug!("{} <- {line}", self.name);
        let Some(stdin) = self.stdin.as_mut() else {
            return Err(Failure::Crash("stdin closed".into()));
        };
        stdin
            .write_all(line.as_bytes())
            .and_then(|_| stdin.write_all(b"\r\n"))
            .and_then(|_| stdin.flush())
            .map_err(|e| Failure::Crash(format!("write failed: {e}")))
    }

    pub fn suspend(&mut self) {
        if !self.ponder && !self.suspended {
            self.signal("STOP");
            self.suspended = true;
        }
    }

    pub fn resume(&mut self) {
        if self.suspended {
            self.signal("CONT");
            self.suspended = false;
        }
    }

    /// Signal the engine's process group. Once the leader has been reaped
    /// its number could in principle be reused, so then only a group that
    /// still has members is signalled.
    fn signal(&mut self, sig: &str) {
        let reaped = !matches!(self.child.try_wait(), Ok(None));
        if !reaped || memory::group_has_members(self.pid) {
            signal_group(self.pid, sig);
        }
    }

    /// Take a memory sample; returns it (0 when unknown).
    pub fn sample_memory(&mut self) -> u64 {
        let b = memory::family_bytes(self.pid).unwrap_or(0);
        self.peak_memory = self.peak_memory.max(b);
        b
    }

    fn exited(&mut self) -> Option<String> {
        match self.child.try_wait() {
            Ok(Some(st)) => Some(format!("exited ({st})")),
            Ok(None) => None,
            Err(e) => Some(format!("wait failed: {e}")),
        }
    }

    /// Wait until `deadline` for the next meaningful line; returns it with
    /// the moment it was read. MESSAGE lines are kept, DEBUG lines logged,
    /// both skipped. Lines read before the deadline count even when this
    /// thread only gets to them later (a busy machine). `memory_limit`
    /// (0 = none) is checked while waiting.
    fn next_line(
        &mut self,
        deadline: Instant,
        memory_limit: u64,
    ) -> Result<(String, Instant), Failure> {
        let mut next_sample = Instant::now() + POLL;
        loop {
            let event = match self.rx.try_recv() {
                Ok(ev) => Some(ev),
                Err(e) => {
                    // Nothing queued: only now do the deadline and a closed
                    // output decide (a queued line was read in time or not).
                    if e == TryRecvError::Disconnected {
                        self.eof = true;
                    }
                    let now = Instant::now();
                    if now >= deadline {
                        return Err(Failure::Timeout);
                    }
                    if self.eof {
                        return Err(Failure::Crash(
                            self.exited().unwrap_or_else(|| "closed its output".into()),
                        ));
                    }
                    match self.rx.recv_timeout((deadline - now).min(POLL)) {
                        Ok(ev) => Some(ev),
                        Err(RecvTimeoutError::Disconnected) => {
                            self.eof = true;
                            None
                        }
                        Err(RecvTimeoutError::Timeout) => None,
                    }
                }
            };
            match event {
                Some(Event::Line(l, at)) => {
                    if at >= deadline {
                        return Err(Failure::Timeout);
                    }
                    log::debug!("{} -> {l}", self.name);
                    let t = l.trim();
                    let head = t
                        .split_whitespace()
                        .next()
                        .unwrap_or("")
                        .to_ascii_uppercase();
                    match head.as_str() {
                        "MESSAGE" => {
                            if self.messages.len() >= 50 {
                                self.messages.remove(0);
                            }
                            self.messages.push(t.to_string());
                        }
                        "DEBUG" => log::debug!("{}: {t}", self.name),
                        _ => return Ok((t.to_string(), at)),
                    }
                    continue;
                }
                Some(Event::Eof) => self.eof = true,
                None => {}
            }
            if Instant::now() >= next_sample {
                next_sample = Instant::now() + POLL;
                if let Some(why) = self.exited() {
                    // Drain what it wrote before dying.
                    if let Ok(Event::Line(l, at)) = self.rx.try_recv() {
                        if at < deadline
                            && (parse_move(&l).is_some() || l.trim().eq_ignore_ascii_case("OK"))
                        {
                            return Ok((l.trim().to_string(), at));
                        }
                    }
                    return Err(Failure::Crash(why));
                }
                let m = self.sample_memory();
                if memory_limit > 0 && m > memory_limit {
                    return Err(Failure::Memory(m));
                }
            }
        }
    }

    /// Discard output nobody asked for (a second move, late lines) so that
    /// it is not taken as the answer to the next request.
    pub fn drain(&mut self) {
        while let Ok(ev) = self.rx.try_recv() {
            match ev {
                Event::Line(l, _) => {
                    let head = l
                        .split_whitespace()
                        .next()
                        .unwrap_or("")
                        .to_ascii_uppercase();
                    if head == "MESSAGE" || head == "DEBUG" {
                        log::debug!("{}: {l}", self.name);
                    } else {
                        log::warn!("{}: unrequested output {l:?} ignored", self.name);
                    }
                }
                Event::Eof => self.eof = true,
            }
        }
    }

    /// Wait for `OK` after START (anything else is a refusal).
    pub fn wait_ok(&mut self, limit: Duration) -> Result<(), Failure> {
        let deadline = Instant::now() + limit;
        let (l, _) = self.next_line(deadline, 0)?;
        if l.eq_ignore_ascii_case("OK") {
            Ok(())
        } else {
            Err(Failure::Crash(format!("START refused: {l:?}")))
        }
    }

    /// Resume the engine, wait up to `limit` for a move, suspend it again.
    /// The request lines must already have been sent. `SUGGEST x,y` is
    /// answered with `PLAY x,y` as Piskvork does.
    pub fn wait_move(&mut self, limit: Duration, memory_limit: u64) -> Result<Answer, Failure> {
        self.resume();
        let start = Instant::now();
        let deadline = start + limit;
        let r = loop {
            match self.next_line(deadline, memory_limit) {
                Ok((l, at)) => {
                    if let Some((x, y)) = parse_move(&l) {
                        break Ok(Answer {
                            x,
                            y,
                            elapsed: at.saturating_duration_since(start),
                        });
                    }
                    let upper = l.to_ascii_uppercase();
                    if upper.starts_with("ERROR") || upper.starts_with("UNKNOWN") {
                        // Allowed protocol lines; a move may still follow.
                        log::info!("{}: {l}", self.name);
                        continue;
                    }
                    if let Some(rest) = upper.strip_prefix("SUGGEST") {
                        if let Some((x, y)) = parse_move(rest) {
                            if let Err(e) = self.send(&format!("PLAY {x},{y}")) {
                                break Err(e);
                            }
                            continue;
                        }
                    }
                    let mut shown = l.clone();
                    shown.truncate(60);
                    break Err(Failure::Garbage(shown));
                }
                Err(e) => break Err(e),
            }
        };
        self.suspend();
        r
    }

    /// Send END, wait up to `grace` for the process to exit, then kill it.
    pub fn quit(&mut self, grace: Duration) {
        self.resume();
        let _ = self.send("END");
        let deadline = Instant::now() + grace;
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                break;
            }
            thread::sleep(Duration::from_millis(10));
        }
        self.kill();
    }

    /// Kill the whole group and reap the process.
    pub fn kill(&mut self) {
        self.stdin = None;
        // The whole group (children may outlive a dead leader), then the
        // leader itself, then reap it.
        self.signal("KILL");
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.kill();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_moves() {
        assert_eq!(parse_move("7,8"), Some((7, 8)));
        assert_eq!(parse_move(" 7 , 8 "), Some((7, 8)));
        assert_eq!(parse_move("-1,20"), Some((-1, 20)));
        assert_eq!(parse_move("7,x"), None);
        assert_eq!(parse_move("hello"), None);
        assert_eq!(parse_move("7,8,1"), None);
    }

    #[test]
    fn shell_syntax_goes_through_sh() {
        let c = command_for("engine --flag 3");
        assert_eq!(c.get_program(), "engine");
        assert_eq!(c.get_args().count(), 2);
        let c = command_for("cd /tmp && engine");
        assert_eq!(c.get_program(), "sh");
    }

    #[test]
    fn talks_to_a_shell_engine_and_times_out() {
        // `cat` echoes: a move line comes back as a move.
        let mut e = Engine::spawn("cat", "cat", false, false).unwrap();
        e.send("3,4").unwrap();
        let a = e.wait_move(Duration::from_secs(20), 0).unwrap();
        assert_eq!((a.x, a.y), (3, 4));
        // MESSAGE lines are skipped, garbage is reported.
        e.send("MESSAGE hi").unwrap();
        e.send("foo bar").unwrap();
        assert_eq!(
            e.wait_move(Duration::from_secs(20), 0),
            Err(Failure::Garbage("foo bar".into()))
        );
        assert_eq!(e.messages, vec!["MESSAGE hi".to_string()]);
        // Nothing sent: a timeout.
        assert_eq!(
            e.wait_move(Duration::from_millis(200), 0),
            Err(Failure::Timeout)
        );
        e.quit(Duration::from_millis(100));
    }

    fn proc_state(pid: i32) -> String {
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
        stat.rsplit(')')
            .next()
            .and_then(|s| s.split_whitespace().next())
            .unwrap_or("")
            .to_string()
    }

    #[test]
    fn an_answer_read_in_time_counts_even_when_the_referee_looks_late() {
        // `cat` answers at once; the referee only gets to its queue after
        // the deadline (a busy machine). The line was read in time: no loss.
        let mut e = Engine::spawn("cat", "cat", false, false).unwrap();
        let deadline = Instant::now() + Duration::from_millis(2_000);
        e.send("5,6").unwrap();
        // Wait until the reader thread has surely read it, then past the deadline.
        std::thread::sleep(Duration::from_millis(2_300));
        let (l, at) = e.next_line(deadline, 0).unwrap();
        assert_eq!(l, "5,6");
        assert!(at < deadline);
        // Nothing more within a deadline already gone: a timeout.
        assert_eq!(e.next_line(deadline, 0), Err(Failure::Timeout));
        e.quit(Duration::from_millis(100));
    }

    #[test]
    fn an_engine_that_closes_its_output_is_a_crash_at_once() {
        // Still alive, but its output is gone: no answer can come. The wait
        // must end on the closed output, not when the process exits later.
        let mut e = Engine::spawn("exec >&-; sleep 5", "closer", false, false).unwrap();
        let deadline = Instant::now() + Duration::from_secs(20);
        assert_eq!(
            e.next_line(deadline, 0),
            Err(Failure::Crash("closed its output".into()))
        );
        e.quit(Duration::from_millis(100));
    }

    #[test]
    fn suspension_stops_the_process_unless_pondering() {
        if !std::path::Path::new("/proc/self/stat").exists() {
            return;
        }
        let mut e = Engine::spawn("sleep 30", "sleep", false, false).unwrap();
        e.suspend();
        // The signal is delivered by the time `kill` returns; allow a moment.
        let mut state = String::new();
        for _ in 0..100 {
            state = proc_state(e.pid());
            if state == "T" {
                break;
            }
            thread::sleep(Duration::from_millis(10));
        }
        assert_eq!(state, "T");
        e.resume();
        for _ in 0..100 {
            state = proc_state(e.pid());
            if state != "T" {
                break;
            }
            thread::sleep(Duration::from_millis(10));
        }
        assert_ne!(state, "T");
        e.kill();
        let mut p = Engine::spawn("sleep 30", "sleep", true, false).unwrap();
        p.suspend();
        thread::sleep(Duration::from_millis(50));
        assert_ne!(proc_state(p.pid()), "T");
    }

    #[test]
    fn a_dead_engine_is_a_crash() {
        let mut e = Engine::spawn("true", "true", false, false).unwrap();
        let r = e.wait_move(Duration::from_secs(20), 0);
        assert!(matches!(r, Err(Failure::Crash(_))), "{r:?}");
        assert!(Engine::spawn("/nonexistent/engine", "x", false, false).is_err());
    }
}
