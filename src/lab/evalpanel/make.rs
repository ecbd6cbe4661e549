//! `sente-lab evalpanel make`: draws a panel's quiet positions from game
//! records. The games (of the wanted rule, in input order) are visited in
//! an order shuffled by the seed; in each, the candidate positions (the
//! position before each recorded move, with a stone count in `--plies`)
//! are tried in an order shuffled by the same generator, and up to
//! `--per-game` quiet ones at least `SPACING` plies apart are taken, until
//! `--count`. The panel lists them in the order drawn, so any prefix is a
//! random sample of it (a partly labelled panel can be scored).
//!
//! Quiet (`quiet`): the game is not over, the side to move has no five to
//! make, and neither side has a VCF: the threat solver proves none within
//! `--vcf-nodes` nodes for the side to move and for the opponent (as if it
//! were to move); a solve that runs out of nodes proves nothing, and the
//! position is not taken. With `--vct-nodes V` (0, the default, is off)
//! neither side may have a VCT the threat solver finds within `V` nodes
//! either (as if each were to move): a position where a side wins by
//! threes and fours is decided, not a question for an evaluation. A VCT
//! solve that runs out of nodes does not reject the position (a deep
//! enough VCT search runs out on most middle games).

use std::io::Write;
use std::path::Path;
use std::sync::atomic::AtomicBool;

use anyhow::{anyhow, bail, Context};

use super::{board_of, read_records, Entry, PANEL_FORMAT};
use crate::brain::game::rules::finished;
use crate::brain::game::zobrist::SplitMix64;
use crate::brain::game::Board;
use crate::brain::search::params::MAX_THREATS;
use crate::brain::search::threat::ThreatSolver;
use crate::brain::types::{Color, RuleSet};
use crate::cli::{num, parse_rule, value};
use crate::lab::bench::reach::make::no_threat_win;
use crate::lab::datagen::relabel::five_to_make;
use crate::lab::datagen::GameRecord;

/// Two positions of one game are at least this many plies apart.
pub const SPACING: usize = 6;

/// What `make` draws.
#[derive(Clone, Debug)]
pub struct Config {
    pub rules: RuleSet,
    pub count: usize,
    pub seed: u64,
    /// Stones on the board, inclusive.
    pub plies: (usize, usize),
    pub per_game: usize,
    /// Node budget of each VCF solve of the quiet test.
    pub vcf_nodes: u64,
    /// Node budget of each VCT solve (0: no VCT test).
    pub vct_nodes: u64,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            rules: RuleSet::FREESTYLE,
            count: 1000,
            seed: 1,
            plies: (6, 40),
            per_game: 2,
            vcf_nodes: 20_000,
            vct_nodes: 0,
        }
    }
}

/// Is `board` quiet: not over, no five to make, no VCF for either side
/// (proven absent within `vcf_nodes` nodes each) and, when `vct_nodes` is
/// not 0, no VCT for either side found within `vct_nodes` nodes each?
pub fn quiet(board: &Board, vcf_nodes: u64, vct_nodes: u64) -> bool {
    if finished(board).is_some() || board.is_full() || five_to_make(board) {
        return false;
    }
    let me = board.to_move();
    let mut b = board.clone();
    let sides = [me, me.opposite()];
    if !sides
        .iter()
        .all(|&side| no_threat_win(&mut b, side, false, vcf_nodes))
    {
        return false;
    }
    vct_nodes == 0 || !sides.iter().any(|&side| vct_found(&mut b, side, vct_nodes))
}

/// Does the threat solver find a VCT for `attacker` on `b` (as if it were
/// to move) within `budget` nodes?
fn vct_found(b: &mut Board, attacker: Color, budget: u64) -> bool {
    let stop = AtomicBool::new(false);
    ThreatSolver::new()
        .vct(b, attacker, MAX_THREATS, budget, &stop)
        .is_some()
}

/// Shuffle `v` in place (Fisher-Yates) with `rng`.
fn shuffle<T>(v: &mut [T], rng: &mut SplitMix64) {
    for i in (1..v.len()).rev() {
        let j = rng.below(i as u64 + 1) as usize;
        v.swap(i, j);
    }
}

/// The panel drawn from `games` (each with its source's name and its
/// line there) under `cfg`; games of other rules are passed over.
pub fn draw(cfg: &Config, games: &[(String, usize, GameRecord)]) -> anyhow::Result<Vec<Entry>> {
    let (lo, hi) = cfg.plies;
    let mut rng = SplitMix64::new(cfg.seed);
    let mut order: Vec<usize> = (0..games.len())
        .filter(|&i| games[i].2.rules == cfg.rules)
        .collect();
    shuffle(&mut order, &mut rng);
    let mut out = Vec::new();
    for gi in order {
        if out.len() >= cfg.count {
            break;
        }
        let (name, index, g) = &games[gi];
        let stones = g.stones();
        // Position before recorded move i: opening + i stones.
        let mut cands: Vec<usize> = (0..g.moves.len())
            .map(|i| g.opening.len() + i)
            .filter(|p| (lo..=hi).contains(p))
            .collect();
        shuffle(&mut cands, &mut rng);
        let mut taken: Vec<usize> = Vec::new();
        for p in cands {
            if taken.len() >= cfg.per_game.min(cfg.count - out.len()) {
                break;
            }
            if taken.iter().any(|&q| q.abs_diff(p) < SPACING) {
                continue;
            }
            let board = board_of(g.rules, g.size, &stones[..p])?;
            if quiet(&board, cfg.vcf_nodes, cfg.vct_nodes) {
                taken.push(p);
            }
        }
        taken.sort_unstable();
        for p in taken {
            let black = p % 2 == 0;
            debug_assert_eq!(
                black,
                board_of(g.rules, g.size, &stones[..p])?.to_move() == Color::Black
            );
            out.push(Entry {
                rules: g.rules,
                size: g.size,
                result: if black { g.result } else { 1.0 - g.result },
                moves: stones[..p].to_vec(),
                source: format!("{name}:{index}:{p}"),
            });
        }
    }
    Ok(out)
}

/// The panel's header line.
pub fn header(cfg: &Config, size: usize, sources: &[String], drawn: usize) -> String {
    format!(
        "# {PANEL_FORMAT} rule={} size={size} count={} drawn={drawn} seed={} plies={}..{} per-game={} vcf-nodes={}{} source={} version={}",
        cfg.rules.rule.name(),
        cfg.count,
        cfg.seed,
        cfg.plies.0,
        cfg.plies.1,
        cfg.per_game,
        cfg.vcf_nodes,
        if cfg.vct_nodes > 0 {
            format!(" vct-nodes={}", cfg.vct_nodes)
        } else {
            String::new()
        },
        sources.join(","),
        env!("CARGO_PKG_VERSION")
    )
}

fn parse_plies(v: &str) -> Result<(usize, usize), String> {
    let bad = || format!("--plies: want A..B, got {v:?}");
    let (a, b) = v.split_once("..").ok_or_else(bad)?;
    let (a, b) = (a.parse().map_err(|_| bad())?, b.parse().map_err(|_| bad())?);
    if a > b {
        return Err(bad());
    }
    Ok((a, b))
}

/// `sente-lab evalpanel make …`.
pub fn main_make(args: &[String]) -> anyhow::Result<()> {
    let mut cfg = Config::default();
    let mut size = 15;
    let mut rule_given = false;
    let mut out: Option<String> = None;
    let mut inputs: Vec<String> = Vec::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut val = || value(&mut it, a);
        let r: Result<(), String> = match a.as_str() {
            "--rule" => val().and_then(|v| parse_rule(&v)).map(|r| {
                cfg.rules = r;
                rule_given = true;
            }),
            "--count" => val().and_then(|v| num(a, &v)).map(|n| cfg.count = n),
            "--seed" => val().and_then(|v| num(a, &v)).map(|n| cfg.seed = n),
            "--plies" => val().and_then(|v| parse_plies(&v)).map(|p| cfg.plies = p),
            "--per-game" => val().and_then(|v| num(a, &v)).map(|n| cfg.per_game = n),
            "--vcf-nodes" => val().and_then(|v| num(a, &v)).map(|n| cfg.vcf_nodes = n),
            "--vct-nodes" => val().and_then(|v| num(a, &v)).map(|n| cfg.vct_nodes = n),
            "--size" => val().and_then(|v| num(a, &v)).map(|n| size = n),
            "--out" => val().map(|v| out = Some(v)),
            f if f.starts_with("--") => Err(format!("unknown argument {f:?}\n{}", super::USAGE)),
            f => {
                inputs.push(f.to_string());
                Ok(())
            }
        };
        r.map_err(|e| anyhow!(e))?;
    }
    if !rule_given {
        bail!("make: --rule R is needed (arena records do not say theirs)");
    }
    let out = out.ok_or_else(|| anyhow!("make: --out PANEL.txt is needed"))?;
    if inputs.is_empty() {
        bail!("make: give the record files");
    }
    let mut games = Vec::new();
    let mut names = Vec::new();
    for f in &inputs {
        let path = Path::new(f);
        let name = path
            .file_name()
            .map_or(f.clone(), |n| n.to_string_lossy().into_owned());
        for (line, g) in read_records(path, cfg.rules, size)? {
            games.push((name.clone(), line, g));
        }
        names.push(name);
    }
    let panel = draw(&cfg, &games)?;
    if panel.len() < cfg.count {
        eprintln!(
            "make: only {} quiet positions drawn of {} asked ({} games)",
            panel.len(),
            cfg.count,
            games.len()
        );
    }
    let mut text = header(&cfg, size, &names, panel.len()) + "\n";
    for e in &panel {
        text.push_str(&e.format());
        text.push('\n');
    }
    let mut f = std::fs::File::create(&out).with_context(|| format!("cannot create {out}"))?;
    f.write_all(text.as_bytes())?;
    eprintln!(
        "make: {} positions from {} games into {out}",
        panel.len(),
        games.len()
    );
    Ok(())
}
