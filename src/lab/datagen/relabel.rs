//! Deep labels for stored games (`sente-lab datagen relabel`): this file
//! owns the relabelling mode, its command line and its resumable output.
//! It replays each game of datagen record files and searches every
//! recorded position (the position before each recorded move) again with
//! a fresh single-thread search of `--nodes N` nodes, the same engine
//! setup `datagen` plays with (`TABLE_BYTES` table, node limit, no clock),
//! evaluating with the rule's default evaluation unless `--eval`/`--net`
//! say otherwise. It writes the same record format: each move keeps its
//! point and the game its result; the move's score becomes the deep
//! search's and its `best` flag says whether the recorded move is the deep
//! search's best move (so the policy fitter, which learns only from `best`
//! moves, learns the deep choices; the net trainer reads the score and
//! the result and needs nothing new). A position where the side to move
//! can make a five at once (or the game is over) keeps its record as it is.
//!
//! - Determinism: the table and the move-ordering history are cleared
//!   before every position, so a label is a function of the position, the
//!   node count and the net alone, whatever came before it; one thread.
//!   The same input, nodes and shard give the same bytes.
//! - Shards: `--shard K/N` takes the input games whose index (counted in
//!   order across the `--in` files) is `K-1` modulo `N`.
//! - Resuming: the output is appended one finished game line at a time
//!   (one write each). Run again with the same arguments, it checks the
//!   header and the games already there against the input (refusing a
//!   file that is not this run's), cuts a partial last line, and goes on
//!   after them: a kill loses at most the game in hand.
//!
//! The header is datagen's with `relabel=N` for `nodes=`, the evaluation
//! and the source files' names: `# sente-datagen v1 rule=R size=S
//! relabel=N shard=K/N eval=… source=A,B version=V`.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{anyhow, bail, Context};

use super::record::{read_file, GameRecord, FORMAT};
use super::{eval_note, limits, parse_shard, player};
use crate::brain::engine::legal::{legal_choice, Chosen};
use crate::brain::engine::{Engine, EvalKind};
use crate::brain::eval::net::QuantNet;
use crate::brain::game::rules::{finished, is_legal, is_win};
use crate::brain::game::Board;
use crate::brain::types::RuleSet;
use crate::cli::{num, parse_rule, value};

/// What a relabelling run does.
#[derive(Clone, Debug)]
pub struct Config {
    /// Node budget of each position's search.
    pub nodes: u64,
    /// (K, N): this process relabels the input games with `i % N == K-1`.
    pub shard: (usize, usize),
    /// The rule the input must be under (None: the first game's).
    pub rules: Option<RuleSet>,
    /// The searches' evaluation (`Auto`: the rule's default).
    pub eval: EvalKind,
    /// `--net FILE`: its weights and the file's FNV-1a 64.
    pub net: Option<(Arc<QuantNet>, u64)>,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            nodes: 50_000,
            shard: (1, 1),
            rules: None,
            eval: EvalKind::Auto,
            net: None,
        }
    }
}

/// What a run did (this process's games only).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Totals {
    /// Games of this shard in the input.
    pub games: u64,
    /// Of them, found already relabelled in the output (resumed).
    pub resumed: u64,
    /// Relabelled by this process.
    pub relabelled: u64,
    /// Positions searched by this process.
    pub searched: u64,
    /// Positions kept as recorded (a five to make).
    pub kept: u64,
    /// Searched positions whose recorded move is the deep search's best.
    pub agree: u64,
}

/// Can the side to move make a five at once (a legal one, under renju)?
pub(crate) fn five_to_make(board: &Board) -> bool {
    let me = board.to_move();
    board
        .empty_cells()
        .any(|p| is_win(board, p, me) && is_legal(board, p))
}

/// A fresh single-thread search of `board` at `nodes` nodes by `engine`
/// (built by `datagen`'s `player`): the table and the move-ordering
/// history are cleared first, so the answer is a function of the
/// position, the node count and the net alone. Its legal choice (score for
/// the side to move), None when every cell is forbidden to Black; an error
/// when the search panicked. Shared with `evalpanel label`.
pub fn fresh_search(
    engine: &mut Engine,
    board: &Board,
    nodes: u64,
    stop: &Arc<AtomicBool>,
) -> anyhow::Result<Option<Chosen>> {
    engine.clear();
    let r = engine
        .search(board, &limits(nodes), stop, &mut |_| {})
        .ok_or_else(|| anyhow!("the search panicked"))?;
    Ok(legal_choice(board, &r))
}

/// Game `game` relabelled by `engine` at `nodes` nodes a position, and
/// what it did (searched, kept, agree).
pub fn relabel_game(
    engine: &mut Engine,
    nodes: u64,
    game: &GameRecord,
) -> anyhow::Result<(GameRecord, Totals)> {
    let stop = Arc::new(AtomicBool::new(false));
    let mut out = game.clone();
    let mut t = Totals::default();
    let mut err: Option<anyhow::Error> = None;
    game.replay(|board, i, m| {
        if err.is_some() {
            return;
        }
        if finished(board).is_some() || board.is_full() || five_to_make(board) {
            t.kept += 1;
            return;
        }
        let c = match fresh_search(engine, board, nodes, &stop) {
            Ok(Some(c)) => c,
            // Every cell forbidden to Black, where the recorded game
            // would have ended: keep such a position.
            Ok(None) => {
                t.kept += 1;
                return;
            }
            Err(e) => {
                err = Some(e.context(format!("move {}", i + 1)));
                return;
            }
        };
        let best = board.xy(c.mv) == (m.x, m.y);
        out.moves[i].score = c.score;
        out.moves[i].best = best;
        t.searched += 1;
        t.agree += u64::from(best);
    });
    match err {
        Some(e) => Err(e),
        None => Ok((out, t)),
    }
}

/// The output's header line (without newline).
pub fn header(cfg: &Config, rules: RuleSet, size: usize, sources: &[String]) -> String {
    let net = cfg.net.as_ref().map(|n| n.1);
    format!(
        "# {FORMAT} rule={} size={size} relabel={} shard={}/{} {} source={} version={}",
        rules.rule.name(),
        cfg.nodes,
        cfg.shard.0,
        cfg.shard.1,
        eval_note(cfg.eval, rules.rule, net),
        sources.join(","),
        env!("CARGO_PKG_VERSION")
    )
}

/// Does the relabelled `done` come from `src` (the same game, moves and
/// result; scores and flags may differ)?
fn same_game(done: &GameRecord, src: &GameRecord) -> bool {
    done.rules == src.rules
        && done.size == src.size
        && done.result == src.result
        && done.opening == src.opening
        && done.moves.len() == src.moves.len()
        && done
            .moves
            .iter()
            .zip(&src.moves)
            .all(|(a, b)| (a.x, a.y) == (b.x, b.y))
}

/// How many of `mine` the existing output `path` already holds, after
/// checking its header against `head` and its games against `mine`; a
/// partial last line (a kill mid-write) is cut off. 0 for a missing or
/// empty file.
/// The whole lines of a resumable output `path` (None: no such file),
/// after cutting off a partial last line (a kill mid-write); `who` names
/// the command in the note it prints then. Shared with `evalpanel label`.
pub fn whole_lines(path: &Path, who: &str) -> anyhow::Result<Option<String>> {
    let mut text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e).with_context(|| format!("cannot read {}", path.display())),
    };
    let whole = text.rfind('\n').map_or(0, |i| i + 1);
    if whole < text.len() {
        let f = std::fs::OpenOptions::new()
            .write(true)
            .open(path)
            .with_context(|| format!("cannot open {}", path.display()))?;
        f.set_len(whole as u64)
            .with_context(|| format!("cannot cut the partial line of {}", path.display()))?;
        eprintln!(
            "{who}: {}: cut a partial last line ({} bytes)",
            path.display(),
            text.len() - whole
        );
        text.truncate(whole);
    }
    Ok(Some(text))
}

fn resume_point(path: &Path, head: &str, mine: &[&GameRecord]) -> anyhow::Result<usize> {
    let Some(text) = whole_lines(path, "relabel")? else {
        return Ok(0);
    };
    let mut lines = text.lines();
    let Some(first) = lines.next() else {
        return Ok(0);
    };
    if first != head {
        bail!(
            "{} holds another run (its header:\n  {first}\nthis run's:\n  {head})\n\
             run again with the same arguments, or give another --out",
            path.display()
        );
    }
    let mut n = 0;
    for (j, line) in lines.enumerate() {
        let at = || format!("{}:{}", path.display(), j + 2);
        let Some(rec) = super::parse_line(line).with_context(at)? else {
            continue;
        };
        let Some(src) = mine.get(n) else {
            bail!("{}: more games than this shard's input has", at());
        };
        if !same_game(&rec, src) {
            bail!(
                "{}: not the relabelling of this shard's input game {} (another input?)",
                at(),
                n + 1
            );
        }
        n += 1;
    }
    Ok(n)
}

/// Progress on stderr every `every`.
struct Progress {
    start: Instant,
    last: Instant,
    every: Option<Duration>,
}

impl Progress {
    fn tick(&mut self, t: &Totals, force: bool) {
        let Some(every) = self.every else { return };
        if !force && self.last.elapsed() < every {
            return;
        }
        self.last = Instant::now();
        let secs = self.start.elapsed().as_secs_f64().max(1e-3);
        let left = t.games - t.resumed - t.relabelled;
        let eta = if t.relabelled > 0 {
            secs / t.relabelled as f64 * left as f64
        } else {
            f64::NAN
        };
        eprintln!(
            "relabel: {}/{} games ({} resumed), {} positions searched, {} kept, \
             {:.1} % agree, {:.2} positions/s, {:.0} s, ETA {:.0} s",
            t.resumed + t.relabelled,
            t.games,
            t.resumed,
            t.searched,
            t.kept,
            100.0 * t.agree as f64 / t.searched.max(1) as f64,
            t.searched as f64 / secs,
            secs,
            eta
        );
    }
}

/// Relabel this shard's games of `games` (the input files' games in order;
/// `sources` their files' names, for the header) into `out`, resuming
/// after the games it already holds.
pub fn run(
    cfg: &Config,
    games: &[GameRecord],
    sources: &[String],
    out: &Path,
    progress: Option<Duration>,
) -> anyhow::Result<Totals> {
    let (k, n) = cfg.shard;
    if n == 0 || k == 0 || k > n {
        bail!("bad shard {k}/{n}");
    }
    if cfg.nodes == 0 {
        bail!("--nodes must be at least 1");
    }
    let first = games
        .first()
        .ok_or_else(|| anyhow!("no games in the input"))?;
    let rules = cfg.rules.unwrap_or(first.rules);
    let size = first.size;
    if let Some((i, g)) = games
        .iter()
        .enumerate()
        .find(|(_, g)| g.rules != rules || g.size != size)
    {
        bail!(
            "input game {} is {} {}x{}, not {} {size}x{size}: one rule and size a run",
            i + 1,
            g.rules,
            g.size,
            g.size,
            rules
        );
    }
    let mine: Vec<&GameRecord> = games
        .iter()
        .enumerate()
        .filter(|(i, _)| i % n == k - 1)
        .map(|(_, g)| g)
        .collect();
    let head = header(cfg, rules, size, sources);
    let done = resume_point(out, &head, &mine)?;
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(out)
        .with_context(|| format!("cannot open {}", out.display()))?;
    if file.metadata()?.len() == 0 {
        file.write_all(format!("{head}\n").as_bytes())?;
        file.flush()?;
    }
    let mut engine = player(rules, cfg.eval);
    engine.set_net(cfg.net.as_ref().map(|(q, _)| q.clone()));
    let mut t = Totals {
        games: mine.len() as u64,
        resumed: done as u64,
        ..Totals::default()
    };
    let now = Instant::now();
    let mut p = Progress {
        start: now,
        last: now,
        every: progress,
    };
    for (j, g) in mine.iter().enumerate().skip(done) {
        let (rec, d) = relabel_game(&mut engine, cfg.nodes, g)
            .with_context(|| format!("input game {}", (k - 1) + j * n + 1))?;
        // One write a game: a kill leaves whole lines or a partial last one.
        file.write_all(format!("{}\n", rec.format()).as_bytes())
            .with_context(|| format!("cannot write {}", out.display()))?;
        file.flush()?;
        t.relabelled += 1;
        t.searched += d.searched;
        t.kept += d.kept;
        t.agree += d.agree;
        p.tick(&t, false);
    }
    p.tick(&t, true);
    Ok(t)
}

const USAGE: &str = "usage: sente-lab datagen relabel --in FILE... --out FILE [--nodes N (50000)] [--shard K/N] [--rule R] [--eval auto|classic|net] [--net FILE] [--quiet]";

/// `sente-lab datagen relabel …`; returns the process exit status.
pub fn main_relabel(args: &[String]) -> i32 {
    let mut cfg = Config::default();
    let mut inputs: Vec<String> = Vec::new();
    let mut out: Option<String> = None;
    let mut quiet = false;
    let mut it = args.iter().peekable();
    while let Some(a) = it.next() {
        let r = match a.as_str() {
            "--in" => {
                let before = inputs.len();
                while let Some(f) = it.next_if(|f| !f.starts_with("--")) {
                    inputs.push(f.clone());
                }
                if inputs.len() == before {
                    Err("--in needs at least one file".to_string())
                } else {
                    Ok(())
                }
            }
            "--out" => value(&mut it, a).map(|v| out = Some(v)),
            "--nodes" => value(&mut it, a)
                .and_then(|v| num(a, &v))
                .map(|n| cfg.nodes = n),
            "--shard" => value(&mut it, a)
                .and_then(|v| parse_shard(&v))
                .map(|s| cfg.shard = s),
            "--rule" => value(&mut it, a)
                .and_then(|v| parse_rule(&v))
                .map(|r| cfg.rules = Some(r)),
            "--eval" => {
                crate::cli::eval_kind(value(&mut it, a).ok().as_deref()).map(|k| cfg.eval = k)
            }
            "--net" => value(&mut it, a)
                .and_then(|v| crate::cli::load_net(&v))
                .map(|n| {
                    cfg.net = Some(n);
                    cfg.eval = EvalKind::Net;
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
            eprintln!("relabel: {e}");
            return 2;
        }
    }
    let Some(out) = out else {
        eprintln!("relabel: --out FILE is needed (the run resumes from it)\n{USAGE}");
        return 2;
    };
    if inputs.is_empty() {
        eprintln!("relabel: --in FILE... is needed\n{USAGE}");
        return 2;
    }
    let mut games = Vec::new();
    for f in &inputs {
        match read_file(f) {
            Ok(g) => games.extend(g),
            Err(e) => {
                eprintln!("relabel: {e:#}");
                return 1;
            }
        }
    }
    let sources: Vec<String> = inputs
        .iter()
        .map(|f| {
            PathBuf::from(f)
                .file_name()
                .map_or_else(|| f.clone(), |n| n.to_string_lossy().into_owned())
        })
        .collect();
    let progress = (!quiet).then_some(Duration::from_secs(30));
    match run(&cfg, &games, &sources, Path::new(&out), progress) {
        Ok(t) => {
            if !quiet {
                eprintln!(
                    "relabel: done: {} games in {out} ({} this run, {} resumed)",
                    t.games, t.relabelled, t.resumed
                );
            }
            0
        }
        Err(e) => {
            eprintln!("relabel: {e:#}");
            1
        }
    }
}

#[cfg(test)]
mod tests {
    //! A small run relabelled at a small node count: the games stay
    //! theirs, the scores are the deep searches', a run resumes to the
    //! bytes of an uninterrupted one, shards make the whole, and what the
    //! input said its scores were plays no part.

    use super::*;
    use crate::brain::types::MATE_BOUND;
    use crate::lab::datagen::{self as dg, parse_line, RecordedMove};

    /// Three short freestyle games of datagen at 300 nodes.
    fn source() -> Vec<GameRecord> {
        dg::test_games(3, 5, 14)
    }

    fn cfg(nodes: u64, shard: (usize, usize)) -> Config {
        Config {
            nodes,
            shard,
            eval: EvalKind::Classic,
            ..Config::default()
        }
    }

    /// A fresh scratch folder of this test.
    fn scratch(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("sente-relabel-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    fn games_of(text: &str) -> Vec<GameRecord> {
        text.lines()
            .filter_map(|l| parse_line(l).unwrap())
            .collect()
    }

    /// Relabel `games` into a new file of `dir`; its text.
    fn relabel_text(dir: &Path, name: &str, c: &Config, games: &[GameRecord]) -> String {
        let out = dir.join(name);
        let src = ["src.txt".to_string()];
        run(c, games, &src, &out, None).unwrap();
        std::fs::read_to_string(&out).unwrap()
    }

    #[test]
    fn a_small_run_keeps_the_games_and_changes_the_scores() {
        let src = source();
        let dir = scratch("small");
        let text = relabel_text(&dir, "deep.txt", &cfg(900, (1, 1)), &src);
        let first = text.lines().next().unwrap();
        assert!(
            first.starts_with(
                "# sente-datagen v1 rule=freestyle size=15 relabel=900 shard=1/1 \
                 eval=classic source=src.txt version="
            ),
            "{first}"
        );
        let deep = games_of(&text);
        assert_eq!(deep.len(), src.len());
        let mut changed = 0;
        for (d, s) in deep.iter().zip(&src) {
            assert!(same_game(d, s));
            changed += d.moves.iter().zip(&s.moves).filter(|(a, b)| a != b).count();
        }
        // 900 nodes is not 300: some scores or choices differ.
        assert!(changed > 0, "nothing changed");
        // The same arguments, the same bytes.
        assert_eq!(
            text,
            relabel_text(&dir, "again.txt", &cfg(900, (1, 1)), &src)
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// Nonsense planted in the input's scores and flags plays no part: the
    /// output is the one of the true input, and its scores are the
    /// searches' own (each move's is that of a fresh search of its
    /// position).
    #[test]
    fn planted_scores_are_replaced() {
        let src = source();
        let planted: Vec<GameRecord> = src
            .iter()
            .map(|g| {
                let mut g = g.clone();
                for m in &mut g.moves {
                    m.score = 4321;
                    m.best = false;
                }
                g
            })
            .collect();
        let dir = scratch("planted");
        let c = cfg(500, (1, 1));
        let true_text = relabel_text(&dir, "true.txt", &c, &src);
        let planted_text = relabel_text(&dir, "planted.txt", &c, &planted);
        assert_eq!(true_text, planted_text);
        let deep = games_of(&planted_text);
        let scores: Vec<i32> = deep
            .iter()
            .flat_map(|g| g.moves.iter().map(|m| m.score))
            .collect();
        assert!(scores.iter().all(|&s| s != 4321), "{scores:?}");
        assert!(deep.iter().flat_map(|g| &g.moves).any(|m| m.best));
        // Spot check: the second game's fourth position, searched alone.
        let g = &src[1];
        let mut engine = player(g.rules, EvalKind::Classic);
        let stop = Arc::new(AtomicBool::new(false));
        let mut alone = None;
        g.replay(|b, i, m| {
            if i == 3 {
                let r = engine.search(b, &limits(500), &stop, &mut |_| {}).unwrap();
                let c = legal_choice(b, &r).unwrap();
                alone = Some((c.score, b.xy(c.mv) == (m.x, m.y)));
            }
        });
        let m = deep[1].moves[3];
        assert_eq!(Some((m.score, m.best)), alone);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// A run killed mid-game (a partial last line) or between games goes
    /// on to the bytes of the uninterrupted run.
    #[test]
    fn resume_after_truncation() {
        let src = source();
        let dir = scratch("resume");
        let c = cfg(400, (1, 1));
        let whole = relabel_text(&dir, "whole.txt", &c, &src);
        let lines: Vec<&str> = whole.split_inclusive('\n').collect();
        assert_eq!(lines.len(), 4);
        let out = dir.join("cut.txt");
        let names = ["src.txt".to_string()];
        for keep in [
            lines[0].len() - 5,                                   // in the header
            lines[0].len(),                                       // the header only
            lines[0].len() + lines[1].len() + lines[2].len() / 2, // in game 2
            lines[0].len() + lines[1].len() + lines[2].len(),     // after game 2
            whole.len(),                                          // all done
        ] {
            std::fs::write(&out, &whole[..keep]).unwrap();
            let t = run(&c, &src, &names, &out, None).unwrap();
            assert_eq!(
                std::fs::read_to_string(&out).unwrap(),
                whole,
                "cut at {keep}"
            );
            assert_eq!(t.games, 3);
            assert_eq!(t.resumed + t.relabelled, 3);
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// Another run's file is refused, not appended to.
    #[test]
    fn another_runs_output_is_refused() {
        let src = source();
        let dir = scratch("refuse");
        let out = dir.join("deep.txt");
        let names = ["src.txt".to_string()];
        run(&cfg(300, (1, 1)), &src[..2], &names, &out, None).unwrap();
        let before = std::fs::read_to_string(&out).unwrap();
        // Other nodes: another header.
        let e = run(&cfg(301, (1, 1)), &src, &names, &out, None).unwrap_err();
        assert!(format!("{e:#}").contains("holds another run"), "{e:#}");
        // The same header over other games.
        let e = run(&cfg(300, (1, 1)), &src[1..], &names, &out, None).unwrap_err();
        assert!(format!("{e:#}").contains("not the relabelling"), "{e:#}");
        assert_eq!(std::fs::read_to_string(&out).unwrap(), before);
        // The same run, with its input grown by a game: goes on.
        let t = run(&cfg(300, (1, 1)), &src, &names, &out, None).unwrap();
        assert_eq!((t.resumed, t.relabelled), (2, 1));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// Shards 1/2 and 2/2, taken in turn, are the 1/1 run's games.
    #[test]
    fn shards_make_the_whole() {
        let src = source();
        let dir = scratch("shards");
        let whole = games_of(&relabel_text(&dir, "all.txt", &cfg(400, (1, 1)), &src));
        let a = games_of(&relabel_text(&dir, "a.txt", &cfg(400, (1, 2)), &src));
        let b = games_of(&relabel_text(&dir, "b.txt", &cfg(400, (2, 2)), &src));
        assert_eq!((a.len(), b.len()), (2, 1));
        assert_eq!(whole, vec![a[0].clone(), b[0].clone(), a[1].clone()]);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// A position whose side to move has a five to make keeps its record.
    #[test]
    fn a_five_to_make_is_kept() {
        // Black's four on row 7; White answers elsewhere; Black's move 5
        // is played from a position with a five to make.
        let mv = |x, y, score| RecordedMove {
            x,
            y,
            score,
            best: false,
        };
        let g = GameRecord {
            rules: RuleSet::FREESTYLE,
            size: 15,
            result: 1.0,
            opening: vec![(3, 7), (3, 3), (4, 7), (12, 12), (5, 7), (0, 14)],
            moves: vec![mv(6, 7, 77), mv(14, 0, 88), mv(7, 7, 99)],
        };
        let (deep, t) = relabel_game(&mut player(g.rules, EvalKind::Classic), 300, &g).unwrap();
        assert_eq!((t.searched, t.kept), (2, 1));
        assert_eq!(deep.moves[2], g.moves[2]);
        // White to move against an open four: lost, and the search sees it.
        assert!(deep.moves[1].score <= -MATE_BOUND, "{:?}", deep.moves[1]);
    }
}
