//! The self-play data generator (`sente-lab datagen`): an offline tool
//! beside `tune`, outside the engine's path (nothing in `game`, `eval`,
//! `search` or `engine` imports it). It plays games of the engine against
//! itself under a node budget per move and writes them in the record format
//! of `record` (one game per line, each move with the search's score).
//!
//! Game `i` of a run depends only on the seed and `i` (its own random
//! numbers, a cleared table, one search thread, node limits): a run can be
//! split into shards (`--shard K/N` plays the games with `i % N == K-1`, in
//! order) and the shards' lines, taken in turn (`paste -d '\n'`), are the
//! whole run's. Each game starts from an opening (a file's, in turn, or a
//! random balanced one), then plays `--random-plies` exploration moves
//! (random among the search's few best, never one that lets a five
//! through), then the search's best moves until a five, a full board, the
//! move cap or a win the search has proven on two moves running.
//! `--eval net` plays with the rule's embedded net, `--net FILE` with any
//! weights file (an earlier round's, so its data can be rebuilt); the
//! header says which (`eval=`, `net=`). `--mix P`: in P % of the games one
//! side, drawn per game, plays with the other evaluation (classical against
//! the net, or the net against classical), for data beyond the net's own
//! play (header `mix=P`).
//!
//! `pbrain-sente datagen relabel …` (`relabel`) searches the positions of
//! stored games again, deeper, and writes them with the deep scores.

pub mod record;
pub mod relabel;

use std::io::Write;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{anyhow, bail, Context};

use crate::brain::engine::{Engine, EvalKind, Limits, SearchOptions};
use crate::brain::eval::net::QuantNet;
use crate::brain::game::rules::{finished, is_legal, is_win};
use crate::brain::game::zobrist::SplitMix64;
use crate::brain::game::Board;
use crate::brain::types::{Color, RuleSet, Score, MATE_BOUND};
use crate::cli::{num, parse_rule, value};
pub use record::{parse_line, read_file, GameRecord, RecordedMove};

/// Transposition table of each generating process.
pub const TABLE_BYTES: usize = 16 << 20;
/// An exploration move is drawn among this many of the search's best.
pub const EXPLORE_TOP: usize = 4;
/// ... and only among those scored at most this far below the best.
pub const EXPLORE_MARGIN: Score = 300;
/// A random opening is kept when a short search scores it within this
/// (else another is drawn, up to `OPENING_TRIES`). Sente's scores of the
/// arena's freestyle 15×15 suite (openings a strong engine judged within
/// ±150 of its own scale) spread over ±1000, half within 400; about one
/// random 3-5 stone opening in three passes.
pub const OPENING_BALANCE: Score = 400;
pub const OPENING_TRIES: usize = 20;
/// Node budget of the opening's balance check (at most the move budget).
pub const OPENING_CHECK_NODES: u64 = 4000;
/// A game is adjudicated when the search reports the same proven winner
/// on this many moves running.
pub const ADJUDICATE_PLIES: usize = 2;

/// What a run plays.
#[derive(Clone, Debug)]
pub struct Config {
    pub rules: RuleSet,
    pub size: usize,
    /// Node budget per move.
    pub nodes: u64,
    /// Games in the whole run (all shards).
    pub games: u64,
    pub seed: u64,
    /// (K, N): this process plays the games with `i % N == K-1`.
    pub shard: (usize, usize),
    /// Exploration moves right after the opening.
    pub random_plies: usize,
    /// Openings to play in turn (game `i` gets `i % len`); None: random.
    pub openings: Option<Vec<Vec<(usize, usize)>>>,
    /// Recorded moves at most; then the game is a draw.
    pub max_plies: usize,
    /// The searches' evaluation (`--eval net`: data from the net's own
    /// play, the next round of its training; classical unless asked, so a
    /// round's recipe means the same whatever the engine's default).
    pub eval: EvalKind,
    /// The net `--eval net` plays with and its file's FNV-1a 64
    /// (`--net FILE`: any round's weights, so a round's data can be rebuilt
    /// by the current binary); None: the embedded net of the rule.
    pub net: Option<(Arc<QuantNet>, u64)>,
    /// Percent of games in which one side (drawn per game) plays with the
    /// other evaluation: classical when the run's is the net, the rule's
    /// embedded net when it is classical (`--mix P`: a share of games away
    /// from the net's own play).
    pub mix: u32,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            rules: RuleSet::FREESTYLE,
            size: 15,
            nodes: 20_000,
            games: 100,
            seed: 1,
            shard: (1, 1),
            random_plies: 4,
            openings: None,
            max_plies: usize::MAX,
            eval: EvalKind::Classic,
            net: None,
            mix: 0,
        }
    }
}

/// What a run produced.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Totals {
    pub games: u64,
    pub positions: u64,
}

/// The random numbers of game `i`: a function of (seed, i) alone.
fn game_rng(seed: u64, i: u64) -> SplitMix64 {
    let mut r = SplitMix64::new(SplitMix64::new(seed).next_u64() ^ i);
    r.next_u64();
    r
}

/// Salt of the numbers that pick a game's mixed side (`mixed_side`).
const MIX_SALT: u64 = 0x6d69_7865_6473_6964;

/// The colour that plays game `i` with the other evaluation
/// (`Config::mix`), or None. Drawn from numbers of their own, a function
/// of (seed, i), so a run without the mix plays the games it always did.
pub fn mixed_side(cfg: &Config, i: u64) -> Option<Color> {
    if cfg.mix == 0 {
        return None;
    }
    let mut r = game_rng(cfg.seed ^ MIX_SALT, i);
    if r.below(100) >= u64::from(cfg.mix) {
        return None;
    }
    Some(if r.below(2) == 0 {
        Color::Black
    } else {
        Color::White
    })
}

/// A search of `nodes` nodes, no clock.
fn limits(nodes: u64) -> Limits {
    Limits {
        max_nodes: Some(nodes),
        ..Limits::default()
    }
}

/// Would the opponent make a five next move after `p` is played on `b`?
fn lets_five_through(b: &Board, p: crate::brain::game::Pos) -> bool {
    let me = b.to_move();
    if is_win(b, p, me) {
        return false;
    }
    let mut after = b.clone();
    after.play(p);
    let opp = me.opposite();
    let five = after
        .empty_cells()
        .any(|q| is_win(&after, q, opp) && is_legal(&after, q));
    five
}

/// A random opening: 3 to 5 stones, Black first, in the box of half-width
/// 3 around the centre (2 on boards under 9), kept when a short search
/// finds it balanced (the most balanced of `OPENING_TRIES` draws otherwise).
fn random_opening(
    engine: &mut Engine,
    cfg: &Config,
    rng: &mut SplitMix64,
) -> anyhow::Result<Vec<(usize, usize)>> {
    let c = cfg.size / 2;
    let half = if cfg.size >= 9 { 3 } else { 2 };
    let stop = Arc::new(AtomicBool::new(false));
    let mut best: Option<(Score, Vec<(usize, usize)>)> = None;
    for _ in 0..OPENING_TRIES {
        let n = 3 + rng.below(3) as usize;
        let mut pts: Vec<(usize, usize)> = Vec::new();
        while pts.len() < n {
            let p = (
                c - half + rng.below(2 * half as u64 + 1) as usize,
                c - half + rng.below(2 * half as u64 + 1) as usize,
            );
            if !pts.contains(&p) {
                pts.push(p);
            }
        }
        let board = place(cfg, &pts)?;
        engine.clear();
        let r = engine
            .search(
                &board,
                &limits(OPENING_CHECK_NODES.min(cfg.nodes)),
                &stop,
                &mut |_| {},
            )
            .ok_or_else(|| anyhow!("search failed"))?;
        let s = r.score.abs();
        if s <= OPENING_BALANCE {
            return Ok(pts);
        }
        if best.as_ref().is_none_or(|(b, _)| s < *b) {
            best = Some((s, pts));
        }
    }
    Ok(best.map(|b| b.1).unwrap_or_default())
}

/// The board with `stones` placed, Black first.
fn place(cfg: &Config, stones: &[(usize, usize)]) -> anyhow::Result<Board> {
    let mut b = Board::square(cfg.size, cfg.rules).map_err(|e| anyhow!("{e}"))?;
    for &(x, y) in stones {
        let c = b.to_move();
        b.try_make(x as i64, y as i64, c)
            .map_err(|e| anyhow!("opening {x},{y}: {e}"))?;
    }
    Ok(b)
}

/// Black's result when `c` wins.
fn win_for(c: Color) -> f32 {
    match c {
        Color::Black => 1.0,
        Color::White => 0.0,
    }
}

/// An exploration move: (move, the search's score, is it the search's
/// best), drawn uniformly among the search's `EXPLORE_TOP` best that score
/// within `EXPLORE_MARGIN` of the best, are not proven lost and let no five
/// through; the best move when the search has proven a result or none
/// qualifies. None when the search found no legal move.
fn explore(
    engine: &mut Engine,
    cfg: &Config,
    board: &Board,
    rng: &mut SplitMix64,
    stop: &Arc<AtomicBool>,
) -> Option<(crate::brain::game::Pos, Score, bool)> {
    engine.set_board(board.clone());
    let ranked = engine
        .analyse(EXPLORE_TOP, &limits(cfg.nodes), stop, &mut |_| {})
        .ok()?;
    let (top, top_score) = *ranked.first()?;
    let pool: Vec<_> = if top_score.abs() >= MATE_BOUND {
        Vec::new() // a proven result: play it out
    } else {
        ranked
            .iter()
            .filter(|&&(p, s)| {
                s > -MATE_BOUND && s >= top_score - EXPLORE_MARGIN && !lets_five_through(board, p)
            })
            .map(|&(p, _)| p)
            .collect()
    };
    let mv = match pool.len() {
        0 => top,
        n => pool[rng.below(n as u64) as usize],
    };
    Some((mv, top_score, mv == top))
}

/// Play game `i` of the run (the tables are cleared first); `other` plays
/// the mixed side's moves (`mixed_side`) when the run mixes.
pub fn play_game(
    engine: &mut Engine,
    mut other: Option<&mut Engine>,
    cfg: &Config,
    i: u64,
) -> anyhow::Result<GameRecord> {
    let mut rng = game_rng(cfg.seed, i);
    let opening = match &cfg.openings {
        Some(list) if !list.is_empty() => list[(i % list.len() as u64) as usize].clone(),
        _ => random_opening(engine, cfg, &mut rng)?,
    };
    let mut board = place(cfg, &opening)?;
    engine.clear();
    let mixed = mixed_side(cfg, i);
    if mixed.is_some() {
        other
            .as_deref_mut()
            .ok_or_else(|| anyhow!("a mixed game needs the other engine"))?
            .clear();
    }
    let stop = Arc::new(AtomicBool::new(false));
    let mut rec = GameRecord {
        rules: cfg.rules,
        size: cfg.size,
        result: 0.5,
        opening,
        moves: Vec::new(),
    };
    if let Some((c, _)) = finished(&board) {
        rec.result = win_for(c);
        return Ok(rec);
    }
    // (winner the search has proven, on how many moves running)
    let mut proven: Option<(Color, usize)> = None;
    loop {
        if board.is_full() || rec.moves.len() >= cfg.max_plies {
            rec.result = 0.5;
            break;
        }
        let me = board.to_move();
        let mover: &mut Engine = match (&mut other, mixed) {
            (Some(o), Some(c)) if c == me => o,
            _ => &mut *engine,
        };
        let explored = if rec.moves.len() < cfg.random_plies {
            explore(mover, cfg, &board, &mut rng, &stop)
        } else {
            None
        };
        let (mv, score, best) = match explored {
            Some(e) => e,
            None => {
                let c = mover
                    .choose_move(&board, &limits(cfg.nodes), &stop, &mut |_| {})
                    .map_err(|e| anyhow!(e))?;
                if !c.legal {
                    // Renju: every empty cell is forbidden to Black, who loses.
                    rec.result = win_for(Color::White);
                    break;
                }
                (c.mv, c.score, true)
            }
        };
        let (x, y) = board.xy(mv);
        rec.moves.push(RecordedMove { x, y, score, best });
        board.play(mv);
        if !cfg.rules.continuous && is_win(&board, mv, me) {
            rec.result = win_for(me);
            break;
        }
        proven = if score.abs() >= MATE_BOUND {
            let w = if score > 0 { me } else { me.opposite() };
            match proven {
                Some((c, n)) if c == w => Some((w, n + 1)),
                _ => Some((w, 1)),
            }
        } else {
            None
        };
        if let Some((w, n)) = proven {
            if n >= ADJUDICATE_PLIES {
                rec.result = win_for(w);
                break;
            }
        }
    }
    Ok(rec)
}

/// Progress on stderr every few seconds.
struct Progress {
    start: Instant,
    last: Instant,
    every: Option<Duration>,
    total: u64,
}

impl Progress {
    fn tick(&mut self, done: &Totals, force: bool) {
        let Some(every) = self.every else { return };
        if !force && self.last.elapsed() < every {
            return;
        }
        self.last = Instant::now();
        let secs = self.start.elapsed().as_secs_f64().max(1e-3);
        let rate = done.positions as f64 / secs;
        let eta = if done.games > 0 {
            secs / done.games as f64 * self.total.saturating_sub(done.games) as f64
        } else {
            f64::NAN
        };
        eprintln!(
            "datagen: {}/{} games, {} positions, {:.1} positions/s, {:.0} s, ETA {:.0} s",
            done.games, self.total, done.positions, rate, secs, eta
        );
    }
}

/// A generating engine: its own `TABLE_BYTES` table, evaluating with
/// `eval` under `rules` (the rule's embedded net for the net).
pub(crate) fn player(rules: RuleSet, eval: EvalKind) -> Engine {
    let mut e = Engine::with_table_bytes_and(
        TABLE_BYTES,
        SearchOptions {
            eval,
            ..SearchOptions::default()
        },
    );
    e.set_rules(rules);
    e
}

/// Play this shard's games in order, writing the header and one line per
/// game to `out` (flushed after each game). `progress`: report on stderr
/// this often.
pub fn run(
    cfg: &Config,
    out: &mut dyn Write,
    progress: Option<Duration>,
) -> anyhow::Result<Totals> {
    let (k, n) = cfg.shard;
    if n == 0 || k == 0 || k > n {
        bail!("bad shard {k}/{n}");
    }
    Board::square(cfg.size, cfg.rules).map_err(|e| anyhow!("{e}"))?;
    if cfg.mix > 100 {
        bail!("mix {} is over 100 %", cfg.mix);
    }
    let mut engine = player(cfg.rules, cfg.eval);
    engine.set_net(cfg.net.as_ref().map(|(q, _)| q.clone()));
    let mut other = (cfg.mix > 0).then(|| {
        let eval = if cfg.eval.uses_net(cfg.rules.rule) {
            EvalKind::Classic
        } else {
            EvalKind::Net
        };
        player(cfg.rules, eval)
    });
    writeln!(
        out,
        "{} {}",
        record::header(cfg.rules, cfg.size, cfg.nodes, cfg.seed, cfg.shard),
        eval_text(cfg)
    )?;
    let mine: Vec<u64> = (0..cfg.games)
        .filter(|i| i % n as u64 == (k - 1) as u64)
        .collect();
    let now = Instant::now();
    let mut p = Progress {
        start: now,
        last: now,
        every: progress,
        total: mine.len() as u64,
    };
    let mut done = Totals::default();
    for i in mine {
        let rec =
            play_game(&mut engine, other.as_mut(), cfg, i).with_context(|| format!("game {i}"))?;
        writeln!(out, "{}", rec.format())?;
        out.flush()?;
        done.games += 1;
        done.positions += rec.moves.len() as u64;
        p.tick(&done, false);
    }
    p.tick(&done, true);
    Ok(done)
}

/// The header's note of what the games were played with: `eval=classic`,
/// `eval=net net=embedded` or `eval=net net=<the file's fnv1a64>`.
fn eval_text(cfg: &Config) -> String {
    let eval = eval_note(cfg.eval, cfg.rules.rule, cfg.net.as_ref().map(|n| n.1));
    match cfg.mix {
        0 => eval,
        m => format!("{eval} mix={m}"),
    }
}

/// `eval=classic`, `eval=net net=embedded` or `eval=net net=<fnv1a64>`:
/// what searches with `eval` under `rule` evaluate with (`net`: the hash
/// of a `--net` file).
pub(crate) fn eval_note(
    eval: EvalKind,
    rule: crate::brain::types::Rule,
    net: Option<u64>,
) -> String {
    match (eval.uses_net(rule), net) {
        (true, None) => "eval=net net=embedded".into(),
        (true, Some(h)) => format!("eval=net net={h:016x}"),
        (false, _) => "eval=classic".into(),
    }
}

pub(crate) fn parse_shard(v: &str) -> Result<(usize, usize), String> {
    let bad = || format!("--shard: want K/N with 1 <= K <= N, got {v:?}");
    let (k, n) = v.split_once('/').ok_or_else(bad)?;
    let (k, n): (usize, usize) = (k.parse().map_err(|_| bad())?, n.parse().map_err(|_| bad())?);
    if k == 0 || k > n {
        return Err(bad());
    }
    Ok((k, n))
}

const USAGE: &str = "usage: sente-lab datagen [--rule R] [--size N] [--nodes N] [--games G] [--seed S] [--shard K/N] [--out FILE] [--random-plies P] [--openings FILE] [--max-plies M] [--eval classic|net] [--net FILE] [--mix PERCENT] [--quiet]
       sente-lab datagen relabel --in FILE... --out FILE [--nodes N] [--shard K/N] … (deep labels for stored games: datagen relabel --help)";

/// `sente-lab datagen …`; returns the process exit status.
pub fn main_datagen(args: &[String]) -> i32 {
    if args.first().map(String::as_str) == Some("relabel") {
        return relabel::main_relabel(&args[1..]);
    }
    let mut cfg = Config::default();
    let mut out_path: Option<String> = None;
    let mut openings_path: Option<String> = None;
    let mut quiet = false;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut val = || value(&mut it, a);
        let r = match a.as_str() {
            "--rule" => val().and_then(|v| parse_rule(&v)).map(|r| cfg.rules = r),
            "--size" => val().and_then(|v| num(a, &v)).map(|n| cfg.size = n),
            "--nodes" => val().and_then(|v| num(a, &v)).map(|n| cfg.nodes = n),
            "--games" => val().and_then(|v| num(a, &v)).map(|n| cfg.games = n),
            "--seed" => val().and_then(|v| num(a, &v)).map(|n| cfg.seed = n),
            "--shard" => val().and_then(|v| parse_shard(&v)).map(|s| cfg.shard = s),
            "--out" => val().map(|v| out_path = Some(v)),
            "--random-plies" => val().and_then(|v| num(a, &v)).map(|n| cfg.random_plies = n),
            "--openings" => val().map(|v| openings_path = Some(v)),
            "--max-plies" => val().and_then(|v| num(a, &v)).map(|n| cfg.max_plies = n),
            "--eval" => crate::cli::eval_kind(val().ok().as_deref()).map(|k| cfg.eval = k),
            "--net" => val().and_then(|v| crate::cli::load_net(&v)).map(|n| {
                cfg.net = Some(n);
                cfg.eval = EvalKind::Net;
            }),
            "--mix" => val().and_then(|v| num(a, &v)).and_then(|m: u32| {
                if m <= 100 {
                    cfg.mix = m;
                    Ok(())
                } else {
                    Err(format!("--mix: a percentage, 0 to 100, got {m}"))
                }
            }),
            "--quiet" => {
                quiet = true;
                Ok(())
            }
            "--help" | "-h" => {
                println!("{USAGE}");
                return 0;
            }
            other => Err(format!("unknown argument {other:?}\n{USAGE}")),
        };
        if let Err(e) = r {
            eprintln!("datagen: {e}");
            return 2;
        }
    }
    if let Some(path) = &openings_path {
        match crate::lab::arena::openings::load(std::path::Path::new(path)) {
            Ok(list) => {
                let conv: Result<Vec<Vec<(usize, usize)>>, _> = list
                    .iter()
                    .map(|o| {
                        o.stones
                            .iter()
                            .map(|&(x, y)| Ok((usize::try_from(x)?, usize::try_from(y)?)))
                            .collect::<Result<Vec<_>, std::num::TryFromIntError>>()
                    })
                    .collect();
                match conv {
                    Ok(c) => cfg.openings = Some(c),
                    Err(_) => {
                        eprintln!("datagen: {path}: negative coordinate");
                        return 2;
                    }
                }
            }
            Err(e) => {
                eprintln!("datagen: {e}");
                return 2;
            }
        }
    }
    let progress = (!quiet).then_some(Duration::from_secs(5));
    let result = match &out_path {
        Some(p) => std::fs::File::create(p)
            .with_context(|| format!("cannot create {p}"))
            .and_then(|f| run(&cfg, &mut std::io::BufWriter::new(f), progress)),
        None => run(&cfg, &mut std::io::stdout().lock(), progress),
    };
    match result {
        Ok(_) => 0,
        Err(e) => {
            eprintln!("datagen: {e:#}");
            1
        }
    }
}

/// Freestyle games of datagen at 300 nodes a move, parsed back (for the
/// tests of the tools that read records): `games` of them, seed `seed`, at
/// most `max_plies` recorded moves each.
#[cfg(test)]
pub(crate) fn test_games(games: u64, seed: u64, max_plies: usize) -> Vec<GameRecord> {
    let cfg = Config {
        nodes: 300,
        games,
        seed,
        max_plies,
        ..Config::default()
    };
    let mut out = Vec::new();
    run(&cfg, &mut out, None).unwrap();
    String::from_utf8(out)
        .unwrap()
        .lines()
        .filter_map(|l| parse_line(l).unwrap())
        .collect()
}

#[cfg(test)]
mod tests;
