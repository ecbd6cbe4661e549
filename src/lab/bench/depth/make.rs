//! Building the depth suite (`sente-lab depth-make`): middle-game
//! positions picked from arena records (`games.txt` lines) by a fixed rule,
//! so the same records always give the same file.
//!
//! Per game: the positions with `MIN_PLY..=MAX_PLY` stones, at least 2
//! after the opening and `END_MARGIN` before the game's end, in an order
//! fixed by a hash (FNV-1a) of rule, file, game and ply; the first
//! `PER_GAME` where neither side has a VCF (each search finishing without
//! one under `VCF_NODES`) and the solver finds no VCT for the side to move
//! within `VCT_NODES` (Sente answers a threat win at the root without
//! iterating) are kept. Per rule the kept positions,
//! ordered by a hash of their moves, are cut to `PER_RULE`.

use std::fmt::Write as _;
use std::sync::atomic::AtomicBool;

use super::suite::{rule_name, DepthPos};
use crate::brain::search::params::MAX_THREATS;
use crate::brain::search::threat::ThreatSolver;
use crate::brain::types::RuleSet;
use crate::lab::bench::reach::make::{fnv, no_threat_win, replay, write_or_print};
use crate::lab::bench::reach::suite::{parse_xy_list, xy_list};

/// The fewest stones of a position.
pub const MIN_PLY: usize = 16;
/// The most stones of a position.
pub const MAX_PLY: usize = 40;
/// Moves the game must still go on after a position.
pub const END_MARGIN: usize = 6;
/// Positions kept per game at most.
pub const PER_GAME: usize = 2;
/// Positions kept per rule at most.
pub const PER_RULE: usize = 16;
/// The budget of each "no VCF" check (which must finish under it).
pub const VCF_NODES: u64 = 200_000;
/// The budget of the "no VCT" check (none found within it).
pub const VCT_NODES: u64 = 200_000;

fn short(rule: u32) -> &'static str {
    match rule {
        0 => "fs",
        1 => "std",
        4 => "renju",
        _ => rule_name(rule),
    }
}

/// The positions one record line (`file`: its file's number) gives.
pub fn from_game(line: &str, file: usize, rule: u32, size: usize) -> Vec<DepthPos> {
    let f: Vec<&str> = line.split('\t').collect();
    if f.len() < 8 {
        return Vec::new();
    }
    let (game, opening) = (f[0], f[5].parse::<usize>().unwrap_or(0));
    let Ok(moves) = parse_xy_list(f[7]) else {
        return Vec::new();
    };
    let lo = MIN_PLY.max(opening + 2);
    let hi = MAX_PLY.min(moves.len().saturating_sub(END_MARGIN));
    let mut ks: Vec<usize> = (lo..=hi).collect();
    ks.sort_by_key(|k| fnv(&format!("{rule}/{file}/{game}/{k}")));
    let rules = RuleSet::from_bits(rule);
    let stop = AtomicBool::new(false);
    let mut out = Vec::new();
    for k in ks {
        if out.len() == PER_GAME {
            break;
        }
        let Some(mut b) = replay(&moves, k, rules, size) else {
            break;
        };
        let s = b.to_move();
        if no_threat_win(&mut b, s, false, VCF_NODES)
            && no_threat_win(&mut b, s.opposite(), false, VCF_NODES)
            && ThreatSolver::new()
                .vct(&mut b, s, MAX_THREATS, VCT_NODES, &stop)
                .is_none()
        {
            out.push(DepthPos {
                name: format!("{}-g{file}.{game}-{k}", short(rule)),
                rule,
                size,
                moves: moves[..k].to_vec(),
            });
        }
    }
    out
}

/// The suite from `(rule, records)` groups (`records`: one or more
/// `games.txt` texts of that rule on `size`×`size`), as the file's text.
pub fn make(groups: &[(u32, Vec<String>)], size: usize) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "# Depth and branching positions (bench depth, sente-arena depth); made by\n\
         # `sente-lab depth-make` (src/lab/bench/depth/make.rs) from arena\n\
         # records: per game the first {PER_GAME} positions, in a hashed order, with\n\
         # {MIN_PLY} to {MAX_PLY} stones, after the opening and {END_MARGIN} moves before the end,\n\
         # where neither side has a VCF ({VCF_NODES} nodes) nor the side to move a VCT\n\
         # within {VCT_NODES} nodes;\n\
         # {PER_RULE} per rule at most.\n\
         # Fields (tab-separated): name rule size moves"
    );
    let mut file = 0;
    for (rule, texts) in groups {
        let mut ps = Vec::new();
        for text in texts {
            file += 1;
            for line in text.lines() {
                ps.extend(from_game(line, file, *rule, size));
            }
        }
        ps.sort_by_key(|p| fnv(&xy_list(&p.moves)));
        ps.truncate(PER_RULE);
        ps.sort_by(|a, b| a.name.cmp(&b.name));
        for p in &ps {
            let _ = writeln!(out, "{}", p.line());
        }
    }
    out
}

pub const USAGE: &str =
    "usage: sente-lab depth-make --rule R GAMES.txt... [--rule R GAMES.txt...] [--size N] [--out FILE]";

/// `sente-lab depth-make …` (`args`: the words after `depth-make`).
pub fn main_make(args: &[String]) -> i32 {
    let mut groups: Vec<(u32, Vec<String>)> = Vec::new();
    let (mut size, mut out) = (15usize, None);
    let mut i = 0;
    while i < args.len() {
        let v = args.get(i + 1);
        match (args[i].as_str(), v) {
            ("--rule", Some(v)) if v.parse::<u32>().is_ok() => {
                groups.push((v.parse().expect("checked"), Vec::new()))
            }
            ("--size", Some(v)) if v.parse::<usize>().is_ok() => size = v.parse().expect("checked"),
            ("--out", Some(v)) => out = Some(v.clone()),
            (f, _) if !f.starts_with("--") && !groups.is_empty() => {
                match std::fs::read_to_string(f) {
                    Ok(t) => groups.last_mut().expect("checked").1.push(t),
                    Err(e) => {
                        eprintln!("{f}: {e}");
                        return 1;
                    }
                }
                i += 1;
                continue;
            }
            _ => {
                eprintln!("{USAGE}");
                return 2;
            }
        }
        i += 2;
    }
    if groups.is_empty() || groups.iter().any(|g| g.1.is_empty()) {
        eprintln!("{USAGE}");
        return 2;
    }
    write_or_print(out.as_deref(), &make(&groups, size))
}

#[cfg(test)]
mod tests {
    use super::super::suite::parse;
    use super::*;

    /// A record made of a compiled-in position and 10 more moves along the
    /// board's edge, twice: the same text gives the same file, the positions
    /// are prefixes of the game within the ply bounds, and at most
    /// `PER_GAME` come from each game.
    #[test]
    fn make_is_deterministic_and_keeps_its_bounds() {
        let p = super::super::suite::positions()
            .into_iter()
            .find(|p| p.rule == 0)
            .unwrap();
        let mut moves = p.moves.clone();
        for i in 0..10 {
            moves.push((i, 14 - (i % 2)));
        }
        let line = format!("7\ta\tb\t1-0\tfive\t4\t\t{}", xy_list(&moves));
        let text = format!("{line}\n{line}\n");
        let made = make(&[(0, vec![text.clone()])], 15);
        assert_eq!(made, make(&[(0, vec![text])], 15));
        let ps = parse(&made).unwrap();
        assert!(!ps.is_empty() && ps.len() <= 2 * PER_GAME, "{made}");
        for q in &ps {
            assert!((MIN_PLY..=MAX_PLY).contains(&q.moves.len()));
            assert!(q.moves.len() + END_MARGIN <= moves.len());
            assert_eq!(q.moves[..], moves[..q.moves.len()]);
        }
        assert_eq!(from_game("not a record", 1, 0, 15), vec![]);
    }
}
