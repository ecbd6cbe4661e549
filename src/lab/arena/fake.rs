//! Tiny built-in engines for tests and baselines (`sente-arena --fake-engine
//! KIND[:N]`): a random mover that takes a five and blocks one, and
//! misbehaving variants that play N good moves and then overtime, crash,
//! print garbage, play off the board or on an occupied point, eat memory,
//! play a renju-forbidden point, or never answer (not even START); and a
//! slow mover (`slow:MS`) that spends game time; `search`, Sente's
//! library search behind this minimal protocol; and `planted`, whose
//! strength peaks at a known value of its parameter (`--param X=V`): the
//! planted problem the SPSA tuner is tested on. They speak just enough
//! protocol.

use std::io::{BufRead, Write};
use std::time::{Duration, Instant};

use crate::brain::engine::{Engine, Limits};
use crate::brain::game::rules::{is_forbidden, is_win};
use crate::brain::game::zobrist::SplitMix64;
use crate::brain::game::{Board, Pos};
use crate::brain::types::{Color, Rule, RuleSet};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Legal random moves near the stones; wins and blocks fives.
    Random,
    /// Sleeps far beyond any time limit instead of answering.
    Overtime,
    /// Exits without answering.
    Crash,
    /// Prints a line that is no move.
    Garbage,
    /// Answers a point off the board.
    Illegal,
    /// Answers an occupied point.
    Occupied,
    /// Allocates and touches 256 MB, then plays on.
    Memory,
    /// Never answers anything, START included, and ignores END.
    Silent,
    /// Sleeps N milliseconds before every (random) move: uses up game time.
    Slow,
    /// Sente's own search through the library (no protocol layer): a real
    /// opponent for the arena while the brain's protocol is elsewhere.
    Search,
    /// Plays a point forbidden to it (Black under renju) whenever one exists.
    Forbidden,
    /// The planted problem: plays the greedy one-ply move with probability
    /// `planted_strength(X)`, else a random one; strongest at `X = PLANTED_BEST`.
    Planted,
}

impl Kind {
    pub fn parse(s: &str) -> Option<(Kind, usize)> {
        let (name, n) = match s.split_once(':') {
            Some((a, b)) => (a, b.parse().ok()?),
            None => (s, 0),
        };
        let k = match name {
            "random" => Kind::Random,
            "overtime" => Kind::Overtime,
            "crash" => Kind::Crash,
            "garbage" => Kind::Garbage,
            "illegal" => Kind::Illegal,
            "occupied" => Kind::Occupied,
            "memory" => Kind::Memory,
            "silent" => Kind::Silent,
            "forbidden" => Kind::Forbidden,
            "slow" => Kind::Slow,
            "search" => Kind::Search,
            "planted" => Kind::Planted,
            _ => return None,
        };
        Some((k, n))
    }
}

struct Fake {
    kind: Kind,
    /// Good moves to play before misbehaving.
    good: usize,
    played: usize,
    board: Option<Board>,
    rules: RuleSet,
    /// Moves are drawn from a generator seeded by this and the position,
    /// so games are reproducible yet not correlated with each other.
    seed: u64,
    hog: Vec<u8>,
    /// Stones of a BOARD being read: (x, y, field).
    pending: Option<Vec<(i64, i64, u8)>>,
    /// INFO timeout_turn, timeout_match, time_left, max_memory.
    turn_ms: Option<u64>,
    match_ms: Option<u64>,
    time_left_ms: Option<i64>,
    memory: usize,
    engine: Option<Engine>,
    /// When the current request arrived.
    asked: Instant,
    /// The planted engine's parameter X.
    x: f64,
}

/// Run a fake engine on stdin/stdout until END or EOF; `x` is the planted
/// engine's parameter (the others ignore it).
pub fn run(kind: Kind, good: usize, seed: u64, x: f64) {
    let mut f = Fake {
        x,
        kind,
        good,
        played: 0,
        board: None,
        rules: RuleSet::FREESTYLE,
        seed,
        hog: Vec::new(),
        pending: None,
        turn_ms: None,
        match_ms: None,
        time_left_ms: None,
        memory: 0,
        engine: None,
        asked: Instant::now(),
    };
    let stdin = std::io::stdin();
    let mut out = std::io::stdout();
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        let line = line.trim().to_string();
        if line.is_empty() {
            continue;
        }
        if kind == Kind::Silent {
            continue;
        }
        f.asked = Instant::now();
        let reply = f.handle(&line);
        match reply {
            Reply::None => {}
            Reply::Line(s) => {
                let _ = writeln!(out, "{s}");
                let _ = out.flush();
            }
            Reply::Exit => return,
        }
    }
}

enum Reply {
    None,
    Line(String),
    Exit,
}

impl Fake {
    fn handle(&mut self, line: &str) -> Reply {
        if let Some(stones) = self.pending.as_mut() {
            if line.eq_ignore_ascii_case("DONE") {
                let stones = self.pending.take().unwrap_or_default();
                return self.load(&stones);
            }
            let v: Vec<i64> = line
                .split(',')
                .filter_map(|t| t.trim().parse().ok())
                .collect();
            if v.len() == 3 {
                stones.push((v[0], v[1], v[2] as u8));
            }
            return Reply::None;
        }
        let (cmd, arg) = line.split_once(' ').unwrap_or((line, ""));
        match cmd.to_ascii_uppercase().as_str() {
            "START" => self.start(arg.trim().parse().unwrap_or(0), None),
            "RECTSTART" => {
                let v: Vec<usize> = arg
                    .split(',')
                    .filter_map(|t| t.trim().parse().ok())
                    .collect();
                match v.as_slice() {
                    [w, h] => self.start(*w, Some(*h)),
                    _ => Reply::Line("ERROR bad RECTSTART".into()),
                }
            }
            "RESTART" => {
                if let Some(b) = &self.board {
                    self.board = Board::new(b.width(), b.height(), self.rules).ok();
                }
                Reply::Line("OK".into())
            }
            "INFO" => {
                let mut it = arg.split_whitespace();
                let key = it.next().unwrap_or("");
                let val = it.next().unwrap_or("");
                match key {
                    "rule" => {
                        self.rules = RuleSet::from_bits(val.parse().unwrap_or(0));
                        self.rules.continuous = false;
                        if let Some(b) = self.board.as_mut() {
                            b.set_rules(self.rules);
                        }
                    }
                    "timeout_turn" => self.turn_ms = val.parse().ok(),
                    "timeout_match" => self.match_ms = val.parse().ok(),
                    "time_left" => self.time_left_ms = val.parse().ok(),
                    "max_memory" => self.memory = val.parse().unwrap_or(0),
                    _ => {}
                }
                Reply::None
            }
            "BEGIN" => self.reply_move(),
            "TURN" => {
                let v: Vec<i64> = arg
                    .split(',')
                    .filter_map(|t| t.trim().parse().ok())
                    .collect();
                if let (Some(b), [x, y]) = (self.board.as_mut(), v.as_slice()) {
                    let c = b.to_move();
                    if b.try_make(*x, *y, c).is_err() {
                        return Reply::Line("ERROR bad TURN".into());
                    }
                }
                self.reply_move()
            }
            "BOARD" => {
                self.pending = Some(Vec::new());
                Reply::None
            }
            "ABOUT" => Reply::Line(format!(
                "name=\"fake-{:?}\", version=\"1\", author=\"sente arena\", country=\"-\"",
                self.kind
            )),
            "END" => Reply::Exit,
            _ => Reply::Line(format!("UNKNOWN {cmd}")),
        }
    }

    fn start(&mut self, w: usize, h: Option<usize>) -> Reply {
        match Board::new(w, h.unwrap_or(w), self.rules) {
            Ok(b) => {
                self.board = Some(b);
                Reply::Line("OK".into())
            }
            Err(e) => Reply::Line(format!("ERROR {e}")),
        }
    }

    /// A BOARD position: field 1 = ours, 2 = theirs; we are to move, so we
    /// are Black when both have as many stones.
    fn load(&mut self, stones: &[(i64, i64, u8)]) -> Reply {
        let Some(b) = self.board.as_ref() else {
            return Reply::Line("ERROR no START".into());
        };
        let mut nb = match Board::new(b.width(), b.height(), self.rules) {
            Ok(nb) => nb,
            Err(e) => return Reply::Line(format!("ERROR {e}")),
        };
        let own = stones.iter().filter(|s| s.2 == 1).count();
        let theirs = stones.iter().filter(|s| s.2 == 2).count();
        let me = if own == theirs {
            Color::Black
        } else {
            Color::White
        };
        for &(x, y, f) in stones {
            let c = if f == 1 { me } else { me.opposite() };
            if nb.try_make(x, y, c).is_err() {
                return Reply::Line("ERROR bad BOARD".into());
            }
        }
        nb.set_to_move(me);
        self.board = Some(nb);
        self.reply_move()
    }

    fn reply_move(&mut self) -> Reply {
        let Some(b) = self.board.as_ref() else {
            return Reply::Line("ERROR no START".into());
        };
        if self.kind == Kind::Slow {
            std::thread::sleep(Duration::from_millis(self.good as u64));
        }
        let misbehave = self.played >= self.good;
        self.played += 1;
        if misbehave {
            match self.kind {
                Kind::Random | Kind::Silent | Kind::Slow | Kind::Search | Kind::Planted => {}
                Kind::Overtime => std::thread::sleep(Duration::from_secs(600)),
                Kind::Crash => std::process::exit(3),
                Kind::Garbage => return Reply::Line("I think 7 comma 7".into()),
                Kind::Illegal => return Reply::Line(format!("{},{}", b.width(), 0)),
                Kind::Occupied => {
                    if let Some(m) = b.last_move() {
                        let (x, y) = b.xy(m.pos);
                        return Reply::Line(format!("{x},{y}"));
                    }
                }
                Kind::Forbidden => {
                    if b.to_move() == Color::Black && b.rules().rule == Rule::Renju {
                        if let Some(p) = b.empty_cells().find(|&p| forbidden(b, p)) {
                            let (x, y) = b.xy(p);
                            return Reply::Line(format!("{x},{y}"));
                        }
                    }
                }
                Kind::Memory => {
                    if self.hog.is_empty() {
                        self.hog = vec![1u8; 256 << 20];
                        for i in (0..self.hog.len()).step_by(4096) {
                            self.hog[i] = (i & 0xff) as u8;
                        }
                    }
                }
            }
        }
        let mut rng = SplitMix64::new(self.seed ^ b.hash());
        let mut p = if self.kind == Kind::Planted {
            planted_move(b, self.x, &mut rng)
        } else {
            choose(b, &mut rng)
        };
        if self.kind == Kind::Search {
            p = self.search().unwrap_or(p);
        }
        let Some(b) = self.board.as_ref() else {
            return Reply::Line("ERROR no START".into());
        };
        let (x, y) = b.xy(p);
        if let Some(b) = self.board.as_mut() {
            b.play(p);
        }
        Reply::Line(format!("{x},{y}"))
    }
}

impl Fake {
    /// The library search's move for the side to move, within the limits
    /// the manager sent.
    fn search(&mut self) -> Option<Pos> {
        // A small table: this is a test opponent for fast time controls.
        let memory = if self.memory == 0 {
            64 << 20
        } else {
            self.memory.min(64 << 20)
        };
        let engine = self.engine.get_or_insert_with(|| {
            let mut e = Engine::default();
            e.set_memory(memory);
            e
        });
        let limits = Limits {
            turn_ms: self.turn_ms,
            match_ms: self.match_ms,
            time_left_ms: self.time_left_ms,
            start: self.asked,
            ..Limits::default()
        };
        let board = self.board.as_mut()?;
        let stop = Default::default();
        let c = engine
            .choose_move(board, &limits, &stop, &mut |_| {})
            .ok()?;
        Some(c.mv)
    }
}

/// A random legal move: a winning point if there is one, else a point that
/// stops the opponent's five, else a random point near the stones (any
/// empty point on an empty board), avoiding Black's forbidden points.
pub fn choose(b: &Board, rng: &mut SplitMix64) -> Pos {
    let me = b.to_move();
    let allowed = |p: Pos| {
        !(me == Color::Black && b.rules().rule == Rule::Renju && forbidden(b, p))
            || is_win(b, p, me)
    };
    let empties: Vec<Pos> = b.empty_cells().collect();
    if let Some(&p) = empties.iter().find(|&&p| is_win(b, p, me)) {
        return p;
    }
    if let Some(&p) = empties
        .iter()
        .find(|&&p| is_win(b, p, me.opposite()) && allowed(p))
    {
        return p;
    }
    let near: Vec<Pos> = empties
        .iter()
        .copied()
        .filter(|&p| b.near_count(p) > 0 && allowed(p))
        .collect();
    let pool: Vec<Pos> = if near.is_empty() {
        empties.iter().copied().filter(|&p| allowed(p)).collect()
    } else {
        near
    };
    if pool.is_empty() {
        return empties.first().copied().unwrap_or(Pos::NONE);
    }
    pool[rng.below(pool.len() as u64) as usize]
}

/// Where the planted engine is strongest.
pub const PLANTED_BEST: f64 = 37.0;
/// How fast its strength falls away from the best value.
pub const PLANTED_WIDTH: f64 = 30.0;

/// The planted engine's chance of playing its greedy move:
/// `exp(-((x - PLANTED_BEST) / PLANTED_WIDTH)^2)`.
pub fn planted_strength(x: f64) -> f64 {
    (-((x - PLANTED_BEST) / PLANTED_WIDTH).powi(2)).exp()
}

/// The planted engine's move: the greedy one-ply move with probability
/// `planted_strength(x)`, else `choose`'s random one (which still takes
/// and blocks fives). The generator's draws depend on `x` too, so that two
/// values differ in more than the threshold.
pub fn planted_move(b: &Board, x: f64, rng: &mut SplitMix64) -> Pos {
    let mut rng = SplitMix64::new(rng.next_u64() ^ x.to_bits());
    let u = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
    if u < planted_strength(x) {
        greedy(b, &mut rng)
    } else {
        choose(b, &mut rng)
    }
}

/// A one-ply greedy move: a five, else a block of the opponent's five, else
/// the near point that lengthens the own and the opponent's lines through
/// it the most (own lines weigh more), ties drawn at random.
fn greedy(b: &Board, rng: &mut SplitMix64) -> Pos {
    let random = choose(b, rng);
    let me = b.to_move();
    if is_win(b, random, me) || is_win(b, random, me.opposite()) {
        return random;
    }
    let renju_black = me == Color::Black && b.rules().rule == Rule::Renju;
    let mut best = (0u64, 0u64, random);
    for p in b.empty_cells() {
        if b.near_count(p) == 0 || (renju_black && forbidden(b, p)) {
            continue;
        }
        let score: u64 = (0..4)
            .map(|d| {
                let own = b.run_length(p, d, me.cell()).min(5) as u32;
                let theirs = b.run_length(p, d, me.opposite().cell()).min(5) as u32;
                3 * 8u64.pow(own) + 2 * 8u64.pow(theirs)
            })
            .sum();
        let tie = rng.next_u64();
        if (score, tie) > (best.0, best.1) {
            best = (score, tie, p);
        }
    }
    best.2
}

/// A game between two planted engines inside this process (no referee, no
/// processes; freestyle or standard, where nothing is forbidden): Black
/// plays with `x[0]`, White with `x[1]`, from the opening's stones. The
/// winner, or None when the board fills (or the opening does not fit).
pub fn planted_game(
    size: usize,
    rules: RuleSet,
    opening: &[(i64, i64)],
    x: [f64; 2],
    seed: u64,
) -> Option<Color> {
    let mut b = Board::new(size, size, rules).ok()?;
    for (i, &(px, py)) in opening.iter().enumerate() {
        let c = if i % 2 == 0 {
            Color::Black
        } else {
            Color::White
        };
        b.try_make(px, py, c).ok()?;
    }
    while !b.is_full() {
        let me = b.to_move();
        let mut rng = SplitMix64::new(seed ^ b.hash());
        let p = planted_move(&b, x[me.index()], &mut rng);
        if is_win(&b, p, me) {
            return Some(me);
        }
        b.play(p);
    }
    None
}

fn forbidden(b: &Board, p: Pos) -> bool {
    is_forbidden(b, p) || (0..4).any(|d| b.run_length(p, d, Color::Black.cell()) > 5)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_parse() {
        assert_eq!(Kind::parse("random"), Some((Kind::Random, 0)));
        assert_eq!(Kind::parse("crash:3"), Some((Kind::Crash, 3)));
        assert_eq!(Kind::parse("crash:x"), None);
        assert_eq!(Kind::parse("nope"), None);
    }

    #[test]
    fn random_mover_takes_and_blocks_fives() {
        let mut rng = SplitMix64::new(1);
        let b = Board::from_ascii(
            "...............
             .XXXX..........
             ...............
             .OOOO..........
             ...............",
            RuleSet::FREESTYLE,
        )
        .unwrap();
        // Black to move: wins at 0,1 or 5,1.
        for _ in 0..20 {
            let (x, y) = b.xy(choose(&b, &mut rng));
            assert!(y == 1 && (x == 0 || x == 5), "{x},{y}");
        }
        let b = Board::from_ascii(
            "...............
             .XXX...........
             ...............
             .OOOO..........
             ......X........",
            RuleSet::FREESTYLE,
        )
        .unwrap();
        for _ in 0..20 {
            let (x, y) = b.xy(choose(&b, &mut rng));
            assert!(y == 3 && (x == 0 || x == 5), "{x},{y}");
        }
    }

    #[test]
    fn random_mover_plays_near_stones() {
        let mut rng = SplitMix64::new(2);
        let mut b = Board::square(15, RuleSet::FREESTYLE).unwrap();
        b.play(b.pos(7, 7).unwrap());
        for _ in 0..50 {
            let (x, y) = b.xy(choose(&b, &mut rng));
            assert!(x.abs_diff(7) <= 2 && y.abs_diff(7) <= 2);
        }
    }
}
