//! Pondering over pipes, as a manager that does not suspend the brain sees
//! it: a predicted reply is a hit (answered from the running search, with a
//! MESSAGE saying so), any other reply a miss (a legal move for the new
//! board), TAKEBACK during pondering, END and end of input while pondering,
//! and nothing of the ponder search printed between moves. YXSHOWINFO's
//! `ponder …` line is the hook that tells the test how far the ponder search
//! got, so nothing here depends on sleeping.
//!
//! Timing bounds are generous (the manager's own: the turn limit plus its
//! 1 s tolerance); what is asserted exactly is the hit or miss itself.

mod harness;

use std::collections::HashSet;
use std::time::{Duration, Instant};

use harness::{parse_point, Engine, ANSWER_TIMEOUT};

const TURN_MS: u64 = 2_000;
/// Managers wait for the turn limit plus this before calling it a loss.
const TOLERANCE_MS: u64 = 1_000;

struct Game {
    e: Engine,
    stones: HashSet<(i64, i64)>,
    probes: u64,
}

impl Game {
    fn new(settings: &[&str]) -> Game {
        let mut e = Engine::spawn();
        e.setup(&[&["START 15"], settings].concat()).unwrap();
        Game {
            e,
            stones: HashSet::new(),
            probes: 0,
        }
    }

    /// Every line up to the next answer: (MESSAGE lines, answer).
    fn answer(&mut self) -> (Vec<String>, String) {
        let mut msgs = Vec::new();
        loop {
            let l = self.e.recv(ANSWER_TIMEOUT).unwrap_or_else(|m| {
                panic!("{m}\n{}", self.e.tail(12));
            });
            if l.starts_with("MESSAGE") || l.starts_with("DEBUG") {
                msgs.push(l);
            } else {
                return (msgs, l);
            }
        }
    }

    /// Record a move, checking it is on the 15×15 board and free.
    fn place(&mut self, mv: &str) {
        let (x, y) = parse_point(mv).unwrap_or_else(|| panic!("'{mv}' is not a move"));
        assert!(x < 15 && y < 15, "{mv} is off the board");
        assert!(self.stones.insert((x, y)), "{mv} is occupied");
    }

    /// Send a move of the opponent and return (MESSAGE lines, our answer,
    /// time to the answer); the answer is checked legal.
    fn turn(&mut self, mv: &str) -> (Vec<String>, String, Duration) {
        self.place(mv);
        let t = Instant::now();
        self.e.send(&format!("TURN {mv}")).unwrap();
        let (msgs, answer) = self.answer();
        let dt = t.elapsed();
        self.place(&answer);
        (msgs, answer, dt)
    }

    /// YXSHOWINFO's lines; also checks that nothing else was printed since
    /// the last answer (the ponder search must stay silent).
    fn show_info(&mut self) -> Vec<String> {
        self.probes += 1;
        let word = format!("PROBE{}", self.probes);
        self.e.send("YXSHOWINFO").unwrap();
        self.e.send(&word).unwrap();
        let mut lines = Vec::new();
        loop {
            let l = self.e.recv(ANSWER_TIMEOUT).unwrap();
            if l.starts_with("UNKNOWN") && l.contains(&word) {
                return lines;
            }
            assert!(
                l.starts_with("MESSAGE") && !l.contains(" pv "),
                "printed while pondering: '{l}'"
            );
            lines.push(l);
        }
    }

    /// YXSHOWINFO's `ponder MOVE depth N STATE` line, if any.
    fn ponder_line(&mut self) -> Option<String> {
        self.show_info()
            .into_iter()
            .find(|l| l.starts_with("MESSAGE ponder"))
    }

    /// Wait until the ponder search has completed `depth` iterations (or
    /// ended); returns its line.
    fn wait_ponder_depth(&mut self, depth: u32) -> String {
        let t = Instant::now();
        loop {
            let line = self.ponder_line().expect("pondering");
            let d: u32 = line
                .split_whitespace()
                .skip_while(|w| *w != "depth")
                .nth(1)
                .and_then(|w| w.parse().ok())
                .unwrap_or(0);
            if d >= depth || line.ends_with("finished") {
                return line;
            }
            assert!(t.elapsed() < Duration::from_secs(60), "stuck: {line}");
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

/// The PV of the last search-info MESSAGE.
fn last_pv(msgs: &[String]) -> Vec<String> {
    let line = msgs
        .iter()
        .rev()
        .find(|l| l.contains(" pv "))
        .unwrap_or_else(|| panic!("no search info in {msgs:?}"));
    line.split(" pv ")
        .nth(1)
        .unwrap()
        .split_whitespace()
        .map(String::from)
        .collect()
}

fn pondering_game() -> (Game, Vec<String>) {
    let turn = format!("INFO timeout_turn {TURN_MS}");
    let mut g = Game::new(&[&turn, "INFO pondering 1"]);
    let (msgs, answer, _) = g.turn("7,7");
    let pv = last_pv(&msgs);
    assert_eq!(pv[0], answer);
    (g, pv)
}

#[test]
fn ponder_hits_answer_from_the_running_search() {
    let (mut g, mut pv) = pondering_game();
    let mut hits = 0;
    for _ in 0..3 {
        assert!(pv.len() >= 2, "no predicted reply in {pv:?}");
        let line = g.wait_ponder_depth(2);
        assert!(
            line.contains(&pv[1]),
            "pondering on {} expected: {line}",
            pv[1]
        );
        let (msgs, answer, dt) = g.turn(&pv[1].clone());
        let hit = msgs.iter().find(|m| m.starts_with("MESSAGE ponder hit"));
        assert!(hit.is_some(), "no hit on {}: {msgs:?}", pv[1]);
        assert!(
            dt < Duration::from_millis(TURN_MS + TOLERANCE_MS),
            "hit answered after {dt:?}"
        );
        hits += 1;
        pv = last_pv(&msgs);
        assert_eq!(pv[0], answer, "the PV shown is the answer's");
    }
    assert_eq!(hits, 3);
}

#[test]
fn ponder_miss_answers_for_the_new_board() {
    let (mut g, pv) = pondering_game();
    g.wait_ponder_depth(1);
    // A reply that is not the predicted one (and free).
    let other = ["0,0", "14,14", "0,14", "14,0"]
        .into_iter()
        .find(|m| pv.get(1).map(String::as_str) != Some(*m) && pv[0] != *m)
        .unwrap();
    let (msgs, _, dt) = g.turn(other);
    assert!(
        msgs.iter().any(|m| m.starts_with("MESSAGE ponder miss")),
        "{msgs:?}"
    );
    assert!(dt < Duration::from_millis(TURN_MS + TOLERANCE_MS));
    // And the game goes on, pondering again.
    assert!(g.ponder_line().is_some());
}

#[test]
fn takeback_during_pondering_undoes_the_moves() {
    let (mut g, pv) = pondering_game();
    g.wait_ponder_depth(1);
    for mv in [pv[0].as_str(), "7,7"] {
        g.e.send(&format!("TAKEBACK {mv}")).unwrap();
        assert_eq!(g.answer().1, "OK");
    }
    g.stones.clear();
    assert_eq!(g.ponder_line(), Some("MESSAGE ponder idle".into()));
    // The empty board again: both points are free for the next moves.
    g.e.send("BEGIN").unwrap();
    let (_, answer) = g.answer();
    g.place(&answer);
}

#[test]
fn end_while_pondering_exits_at_once() {
    let (mut g, _) = pondering_game();
    g.wait_ponder_depth(1);
    let dt = g.e.end_timed("while pondering");
    assert!(dt < Duration::from_secs(1), "END took {dt:?}");
}

/// End of input lets the commands already read finish their searches, but
/// a ponder search is no command: it is stopped at once, as by END.
#[test]
fn end_of_input_while_pondering_exits_cleanly() {
    let (mut g, _) = pondering_game();
    g.wait_ponder_depth(1);
    let t0 = Instant::now();
    g.e.close_stdin();
    let st = g.e.wait_exit(Duration::from_secs(5)).unwrap();
    let dt = t0.elapsed();
    eprintln!("end of input while pondering: exited after {dt:?}");
    assert!(st.success(), "{st}");
    assert!(dt < Duration::from_secs(1), "end of input took {dt:?}");
}

#[test]
fn pondering_off_prints_nothing_about_it() {
    // A tournament setting, and an explicit 0 against a human.
    for settings in [
        &["INFO timeout_turn 300", "INFO game_type 1"][..],
        &[
            "INFO timeout_turn 300",
            "INFO pondering 0",
            "INFO game_type 0",
        ][..],
    ] {
        let mut g = Game::new(settings);
        let mut pv: Vec<String> = vec![];
        for mv in ["7,7", "pv", "pv"] {
            let mv = if mv == "pv" && pv.len() >= 2 {
                pv[1].clone()
            } else if mv == "pv" {
                ["0,0", "14,14"][g.stones.len() % 2].to_string()
            } else {
                mv.to_string()
            };
            let (msgs, _, _) = g.turn(&mv);
            assert!(
                !msgs.iter().any(|m| m.contains("ponder")),
                "{settings:?}: {msgs:?}"
            );
            pv = last_pv(&msgs);
            assert_eq!(g.ponder_line(), None, "{settings:?}");
        }
    }
}
