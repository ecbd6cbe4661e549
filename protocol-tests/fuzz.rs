//! Randomized protocol test: well over 100,000 random and mutated lines
//! (fixed-seed SplitMix64) fed to one engine process, then a few more
//! processes ended by END and by end of input. The engine must keep
//! answering (ABOUT every few hundred lines), print only valid protocol
//! lines, and never exit on its own.
//!
//! Lines are generated so that they never ask for long thinking: no END, no
//! `INFO timeout_turn` other than 0 (answer at once), no `INFO max_memory`
//! (each change reallocates the tables). Everything else goes, including
//! BOARD lists cut short, binary bytes and lines of 70,000 bytes.

mod harness;

use std::time::{Duration, Instant};

use harness::{Engine, ANSWER_TIMEOUT};
use sente::brain::game::zobrist::SplitMix64;
use sente::brain::protocol::command::Info;
use sente::brain::protocol::{parse, Command};

const MAIN_LINES: usize = 100_000;
const PING_EVERY: usize = 500;

struct Gen {
    rng: SplitMix64,
}

impl Gen {
    fn below(&mut self, n: u64) -> u64 {
        self.rng.below(n)
    }

    fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len() as u64) as usize]
    }

    /// A coordinate-like number: mostly on a board, sometimes off or huge.
    fn num(&mut self) -> String {
        match self.below(20) {
            0 => "-1".into(),
            1 => self
                .pick(&["99999999999999999999", "2147483648", "-0", "+3", "007"])
                .into(),
            2 => (self.below(40) + 20).to_string(),
            _ => self.below(20).to_string(),
        }
    }

    fn coord(&mut self) -> String {
        let (x, y) = (self.num(), self.num());
        match self.below(6) {
            0 => format!("{x} , {y}"),
            1 => format!("{x}, {y}"),
            _ => format!("{x},{y}"),
        }
    }

    /// A command as a manager might send it, with random arguments.
    fn template(&mut self) -> String {
        match self.below(30) {
            0 => format!("START {}", self.below(36)),
            1 => format!("RECTSTART {},{}", self.below(36), self.below(36)),
            2 => "RESTART".into(),
            3 | 4 => "BEGIN".into(),
            5..=9 => format!("TURN {}", self.coord()),
            10 => self.pick(&["BOARD", "YXBOARD", "SWAP2BOARD"]).into(),
            11 => "DONE".into(),
            12 | 13 => format!("{},{}", self.coord(), self.below(5)),
            14 => self.coord(),
            15 => {
                let key = self.pick(&[
                    "rule",
                    "game_type",
                    "time_left",
                    "timeout_match",
                    "thread_num",
                    "max_depth",
                    "max_node",
                    "pondering",
                    "caution_factor",
                    "strength",
                    "folder",
                    "usedatabase",
                ]);
                format!("INFO {key} {}", self.num())
            }
            16 => format!("INFO evaluate {}", self.coord()),
            17 => "INFO timeout_turn 0".into(),
            18 => "ABOUT".into(),
            19 => format!("TAKEBACK {}", self.coord()),
            20 => format!("PLAY {}", self.coord()),
            21 => self.pick(&["YXSTOP", "STOP"]).into(),
            22 => format!("YXNBEST {}", self.num()),
            23 => self
                .pick(&["YXSHOWFORBID", "YXHASHCLEAR", "YXSHOWINFO"])
                .into(),
            24 => format!(
                "INFO rule {}",
                self.pick(&["0", "1", "2", "3", "4", "5", "8", "9"])
            ),
            25 => format!("START {}", self.pick(&["15", "20", "5", "32"])),
            _ => format!("TURN {},{}", self.below(15), self.below(15)),
        }
    }

    fn mutate(&mut self, mut b: Vec<u8>) -> Vec<u8> {
        const NOISE: &[u8] = b",,  --0123456789\t;:.xX\xff\xc3\x80\x00";
        for _ in 0..=self.below(3) {
            let n = b.len() as u64;
            match self.below(8) {
                0 if n > 0 => {
                    let i = self.below(n) as usize;
                    b[i] = self.below(256) as u8;
                }
                1 => {
                    let i = self.below(n + 1) as usize;
                    let c = NOISE[self.below(NOISE.len() as u64) as usize];
                    b.insert(i, c);
                }
                2 if n > 0 => {
                    b.remove(self.below(n) as usize);
                }
                3 => b.truncate(self.below(n + 1) as usize),
                4 if n > 1 => {
                    let i = self.below(n) as usize;
                    let seg = b[i..].to_vec();
                    b.extend_from_slice(&seg);
                }
                5 => b.make_ascii_lowercase(),
                6 => {
                    let extra = self.template();
                    b.push(b' ');
                    b.extend_from_slice(extra.as_bytes());
                }
                _ => {
                    let i = self.below(n + 1) as usize;
                    b.splice(i..i, b"99999999999999999999".iter().copied());
                }
            }
        }
        b
    }

    fn garbage(&mut self) -> Vec<u8> {
        let n = self.below(40);
        if self.chance(50) {
            (0..n).map(|_| 32 + self.below(95) as u8).collect()
        } else {
            (0..n).map(|_| self.below(256) as u8).collect()
        }
    }

    /// One line's bytes (without line end), guaranteed harmless.
    fn line(&mut self) -> Vec<u8> {
        loop {
            let b = match self.below(10) {
                0..=3 => self.template().into_bytes(),
                4..=7 => {
                    let t = self.template().into_bytes();
                    self.mutate(t)
                }
                _ => self.garbage(),
            };
            if harmless(&b) {
                return b;
            }
        }
    }
}

/// Does no piece of `b` (the engine splits at CR and LF) end the process or
/// ask for a long search?
fn harmless(b: &[u8]) -> bool {
    b.split(|&c| c == b'\r' || c == b'\n').all(|piece| {
        let Ok(s) = std::str::from_utf8(piece) else {
            return true;
        };
        !matches!(
            parse(s),
            Ok(Command::End)
                | Ok(Command::Info(Info::MaxMemory(_)))
                | Ok(Command::Info(Info::TimeoutTurn(1..)))
        )
    })
}

fn setup(e: &mut Engine) {
    e.setup(&["INFO max_memory 1", "INFO timeout_turn 0", "START 15"])
        .unwrap();
}

/// Feed `count` lines, pinging now and then; returns lines sent.
fn feed(e: &mut Engine, g: &mut Gen, count: usize) -> usize {
    let mut sent = 0;
    let mut long_lines = 0;
    while sent < count {
        let mut b = if sent % 9_973 == 9_972 {
            long_lines += 1;
            vec![b'9'; 70_000]
        } else {
            g.line()
        };
        b.extend_from_slice(b"\r\n");
        e.send_bytes(&b)
            .unwrap_or_else(|err| panic!("after {sent} lines: {err}\n{}", e.tail(20)));
        sent += 1;
        if sent % PING_EVERY == 0 {
            e.ping(ANSWER_TIMEOUT)
                .unwrap_or_else(|err| panic!("after {sent} lines: {err}\n{}", e.tail(20)));
            assert!(e.is_running(), "engine exited after {sent} lines");
            // Keep the answer log small; it is only for failure reports.
            let keep = e.transcript.len().saturating_sub(40);
            e.transcript.drain(..keep);
        }
    }
    assert!(long_lines > 0 || count < 9_973);
    sent
}

#[test]
fn hundred_thousand_lines_keep_one_process_alive() {
    let t0 = Instant::now();
    let mut g = Gen {
        rng: SplitMix64::new(0x5EED_F022),
    };
    let mut e = Engine::spawn();
    setup(&mut e);
    let sent = feed(&mut e, &mut g, MAIN_LINES);
    e.ping(ANSWER_TIMEOUT).unwrap();
    // Still a working brain after all that.
    e.setup(&["INFO rule 0", "START 15", "INFO timeout_turn 100"])
        .unwrap();
    e.send("TURN 7,7").unwrap();
    let mv = e.answer(ANSWER_TIMEOUT).unwrap();
    assert!(harness::parse_point(&mv).is_some(), "not a move: {mv}");
    e.send("END").unwrap();
    assert!(e.wait_exit(Duration::from_secs(5)).unwrap().success());
    eprintln!(
        "fuzz: {sent} lines to one process in {:?}; answers: {:?}",
        t0.elapsed(),
        e.counts
    );
    // The stream must have reached the interesting paths, not only errors.
    for k in ["move", "OK", "ERROR", "UNKNOWN", "ABOUT", "FORBID"] {
        assert!(
            e.counts.get(k).copied().unwrap_or(0) > 10,
            "too few {k} answers"
        );
    }
    assert!(sent >= 100_000);
}

#[test]
fn restarted_processes_end_cleanly() {
    let mut g = Gen {
        rng: SplitMix64::new(0xF022_0002),
    };
    let mut total = 0;
    for round in 0..3 {
        let mut e = Engine::spawn();
        setup(&mut e);
        total += feed(&mut e, &mut g, 3_000);
        e.ping(ANSWER_TIMEOUT).unwrap();
        match round {
            0 => e.send("END").unwrap(),
            1 => e.close_stdin(),
            _ => {
                // END in the middle of a BOARD list still ends the process.
                e.send("BOARD").unwrap();
                e.send("1,1,1").unwrap();
                e.send("END").unwrap();
            }
        }
        let st = e.wait_exit(Duration::from_secs(5)).unwrap();
        assert!(st.success(), "round {round}: exit status {st}");
    }
    eprintln!("fuzz: {total} lines over 3 restarted processes");
}

#[test]
fn generator_is_deterministic_and_harmless() {
    let mut a = Gen {
        rng: SplitMix64::new(1),
    };
    let mut b = Gen {
        rng: SplitMix64::new(1),
    };
    for _ in 0..1000 {
        let l = a.line();
        assert_eq!(l, b.line());
        assert!(harmless(&l));
    }
    assert!(!harmless(b"END"));
    assert!(!harmless(b"ABOUT\rend"));
    assert!(!harmless(b"INFO timeout_turn 5000"));
    assert!(harmless(b"INFO timeout_turn 0"));
}
