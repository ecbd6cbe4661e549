//! The protocol loop's threads and pipes: a reader thread turning stdin bytes
//! into lines, a controller (the calling thread) that parses them and acts
//! at once on END and YXSTOP/STOP, a worker thread that owns the `Session`
//! and searches (and may leave a ponder search running between commands:
//! the session stops it when the next command needs it, and at end of
//! input; when no command is waiting it tells the session, which starts
//! building the transposition table then), and one writer that prints a
//! line and flushes.
//!
//! Lines end with LF, CR LF or CR. A line longer than `MAX_LINE` bytes is
//! skipped to its end and reported as an error; bytes that are not UTF-8 make
//! an error line too. Everything else the worker answers in arrival order.
//!
//! End of input (`pbrain-sente < cmds.txt`, or a manager closing the pipe)
//! stops nothing: every command already read is answered in full, each
//! search under its own limits (timeout_turn, timeout_match, time_left) as
//! if the commands had been typed one after another (a search read before
//! the previous search answered starts its clock at that answer, see
//! `Session::handle`), and then the process exits. A ponder search is no
//! command: it ends with the session, at once. END still stops any search
//! and exits within `END_GRACE`; YXSTOP/STOP still stop at once.

use std::io::{self, BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{channel, Receiver, Sender, TryRecvError};
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

use super::command::{Command, ParseError, Parser};
use super::response::Response;
use super::session::{Ctx, Session};
use crate::brain::engine::EngineOptions;

/// Longest accepted input line in bytes (a BOARD line is ~10 bytes).
pub const MAX_LINE: usize = 64 * 1024;

/// How long END waits for the worker to finish answering earlier commands
/// (their searches are stopped first) before the process exits anyway.
/// Normally the worker is idle and END exits at once; in a burst such as
/// `START 15`, `BEGIN`, `END` piped in one write, START builds the rule's
/// pattern table (it used to build every table, about 0.2 s idle but 0.8 s and
/// more on two cores shared with builds, where 0.8 s of grace cut off `OK`
/// and the move), and a script deserves its answers.
/// Managers kill a brain about half a second to a second after END, which
/// costs nothing once the game is over.
pub const END_GRACE: Duration = Duration::from_millis(2_000);

/// What the reader thread hands on.
#[derive(Debug, PartialEq, Eq)]
pub enum Input {
    Line(String),
    Bad(ParseError),
    Eof,
}

/// Splits a byte stream into lines (LF, CR LF or CR), capping their length.
pub struct LineSplitter<R: BufRead> {
    inner: R,
    /// The previous line ended in CR: a following LF belongs to it.
    after_cr: bool,
}

impl<R: BufRead> LineSplitter<R> {
    pub fn new(inner: R) -> Self {
        LineSplitter {
            inner,
            after_cr: false,
        }
    }

    /// The next line, or `Input::Eof` at the end (or on a read error).
    pub fn next_input(&mut self) -> Input {
        let mut buf: Vec<u8> = Vec::new();
        let mut len = 0usize;
        let mut any = false;
        loop {
            let chunk = match self.inner.fill_buf() {
                Ok(c) => c,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(_) => return Input::Eof,
            };
            if chunk.is_empty() {
                return if any { finish(buf, len) } else { Input::Eof };
            }
            let mut start = 0;
            if self.after_cr {
                self.after_cr = false;
                if chunk[0] == b'\n' {
                    start = 1;
                }
            }
            let rest = &chunk[start..];
            match rest.iter().position(|&c| c == b'\n' || c == b'\r') {
                Some(i) => {
                    if buf.len() + i <= MAX_LINE {
                        buf.extend_from_slice(&rest[..i]);
                    }
                    len += i;
                    self.after_cr = rest[i] == b'\r';
                    self.inner.consume(start + i + 1);
                    return finish(buf, len);
                }
                None => {
                    let n = rest.len();
                    if buf.len() + n <= MAX_LINE {
                        buf.extend_from_slice(rest);
                    }
                    len += n;
                    any = any || n > 0;
                    self.inner.consume(start + n);
                }
            }
        }
    }
}

fn finish(buf: Vec<u8>, len: usize) -> Input {
    if len > MAX_LINE {
        return Input::Bad(ParseError::TooLong(len));
    }
    match String::from_utf8(buf) {
        Ok(s) => Input::Line(s),
        Err(_) => Input::Bad(ParseError::NotUtf8),
    }
}

/// Print one protocol line and flush. stdout's lock keeps lines whole.
pub fn emit(r: &Response) {
    let mut out = io::stdout().lock();
    let _ = writeln!(out, "{r}");
    let _ = out.flush();
}

/// Work for the session thread, in arrival order.
enum Job {
    Run(Command, Ctx),
    Reply(Response),
    /// END: everything before it is answered; say so on the sender.
    Drained(Sender<()>),
}

fn worker(rx: Receiver<Job>, options: EngineOptions) {
    let mut session = Session::with_options(options);
    loop {
        let job = match rx.try_recv() {
            Ok(job) => job,
            Err(TryRecvError::Empty) => {
                // Nothing waiting (a manager's burst of START, INFO and the
                // first move is over): build what was left for later.
                session.idle();
                match rx.recv() {
                    Ok(job) => job,
                    Err(_) => break,
                }
            }
            Err(TryRecvError::Disconnected) => break,
        };
        match job {
            Job::Run(cmd, ctx) => session.handle(cmd, &ctx, &mut |r| emit(&r)),
            Job::Reply(r) => emit(&r),
            Job::Drained(done) => {
                let _ = done.send(());
            }
        }
    }
}

/// Run the protocol on stdin/stdout until END or end of input.
pub fn run(options: EngineOptions) -> anyhow::Result<()> {
    let (in_tx, in_rx) = channel::<Input>();
    thread::Builder::new().name("stdin".into()).spawn(move || {
        let stdin = io::stdin();
        let mut lines = LineSplitter::new(stdin.lock());
        loop {
            let input = lines.next_input();
            let eof = input == Input::Eof;
            if in_tx.send(input).is_err() || eof {
                break;
            }
        }
    })?;
    let (job_tx, job_rx) = channel::<Job>();
    let worker = thread::Builder::new()
        .name("session".into())
        .spawn(move || worker(job_rx, options))?;
    control(in_rx, job_tx);
    let _ = worker.join();
    io::stdout().lock().flush()?;
    Ok(())
}

/// The controller: parse lines, keep END and STOP out of the queue, hand
/// everything else to the worker in order. Returns at end of input without
/// stopping anything: the caller then waits for the worker to answer every
/// command already queued.
fn control(in_rx: Receiver<Input>, job_tx: Sender<Job>) {
    let mut parser = Parser::new();
    // Stop flags of jobs handed to the worker and maybe not finished yet.
    let mut live: Vec<Arc<AtomicBool>> = Vec::new();
    let stop_all = |live: &mut Vec<Arc<AtomicBool>>| {
        for f in live.drain(..) {
            f.store(true, Ordering::Relaxed);
        }
    };
    for input in in_rx {
        let received = Instant::now();
        let results = match input {
            // The commands read so far are answered in full, each search
            // within its own limits: the worker ends when the queue is
            // empty and the sender is dropped (a ponder search, which no
            // command asked for, ends with the session).
            Input::Eof => return,
            Input::Bad(e) => vec![Err(e)],
            Input::Line(l) => parser.feed(&l),
        };
        for res in results {
            let job = match res {
                Ok(Command::End) => {
                    log::debug!("END");
                    // Stop any search, give the worker a moment to answer
                    // what came before END, then leave whatever it is doing.
                    stop_all(&mut live);
                    let (done_tx, done_rx) = channel();
                    if job_tx.send(Job::Drained(done_tx)).is_ok() {
                        let _ = done_rx.recv_timeout(END_GRACE);
                    }
                    // Take the writer lock so no half line is cut off.
                    let mut out = io::stdout().lock();
                    let _ = out.flush();
                    std::process::exit(0);
                }
                Ok(Command::Stop) => {
                    stop_all(&mut live);
                    // The session hears it too, in order, to stop a ponder
                    // search (it answers nothing).
                    Job::Run(
                        Command::Stop,
                        Ctx {
                            stop: Arc::new(AtomicBool::new(true)),
                            received,
                        },
                    )
                }
                Ok(cmd) => {
                    live.retain(|f| Arc::strong_count(f) > 1);
                    let ctx = Ctx {
                        stop: Arc::new(AtomicBool::new(false)),
                        received,
                    };
                    live.push(ctx.stop.clone());
                    Job::Run(cmd, ctx)
                }
                Err(e) if e.is_unknown() => Job::Reply(Response::Unknown(e.to_string())),
                Err(e) => Job::Reply(Response::Error(e.to_string())),
            };
            if job_tx.send(job).is_err() {
                return;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn split(bytes: &[u8]) -> Vec<Input> {
        let mut s = LineSplitter::new(io::BufReader::with_capacity(7, bytes));
        let mut v = Vec::new();
        loop {
            let i = s.next_input();
            if i == Input::Eof {
                return v;
            }
            v.push(i);
        }
    }

    fn line(s: &str) -> Input {
        Input::Line(s.into())
    }

    #[test]
    fn line_endings() {
        assert_eq!(
            split(b"START 15\r\nTURN 1,2\nABOUT\rEND"),
            vec![
                line("START 15"),
                line("TURN 1,2"),
                line("ABOUT"),
                line("END")
            ]
        );
        // CR then LF split across buffer refills, and an empty line.
        assert_eq!(
            split(b"ABCDEF\r\n\r\nX\r\rY\n"),
            vec![line("ABCDEF"), line(""), line("X"), line(""), line("Y")]
        );
    }

    #[test]
    fn long_and_invalid_lines() {
        let mut data = vec![b'A'; MAX_LINE + 10];
        data.extend_from_slice(b"\r\nOK\r\n\xff\xfe\r\nABOUT\r\n");
        let v = split(&data);
        assert_eq!(v.len(), 4);
        assert_eq!(v[0], Input::Bad(ParseError::TooLong(MAX_LINE + 10)));
        assert_eq!(v[1], line("OK"));
        assert_eq!(v[2], Input::Bad(ParseError::NotUtf8));
        assert_eq!(v[3], line("ABOUT"));
    }
}
