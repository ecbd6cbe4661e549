//! Command-line helpers shared by `pbrain-sente`'s front end (`main.rs`) and
//! the laboratory's tools: numbers, byte counts, rules, points, option
//! values, and the search switches and `--eval` values both accept. Neutral
//! ground: it uses the engine wing's types and options, and nothing in the
//! engine wing uses it (the engine reads no command line).

use std::sync::Arc;

use crate::brain::eval::net::{fnv1a, NetWeights, QuantNet};
use crate::brain::eval::EvalKind;
use crate::brain::search::SearchOptions;
use crate::brain::types::{Rule, RuleSet};

/// Parse a byte count with an optional K/M/G suffix (powers of 1024).
pub fn parse_bytes(s: &str) -> Result<u64, String> {
    let t = s.trim();
    let (num, mult) = match t.chars().last().map(|c| c.to_ascii_uppercase()) {
        Some('K') => (&t[..t.len() - 1], 1u64 << 10),
        Some('M') => (&t[..t.len() - 1], 1 << 20),
        Some('G') => (&t[..t.len() - 1], 1 << 30),
        _ => (t, 1),
    };
    num.parse::<u64>()
        .ok()
        .and_then(|n| n.checked_mul(mult))
        .ok_or_else(|| format!("bad byte count {s:?}"))
}

/// A rule by name (`freestyle`, `standard`/`exact`/`exactfive`, `renju`,
/// `caro`) or by the protocol's `INFO rule` bits (the continuous flag
/// dropped).
pub fn parse_rule(s: &str) -> Result<RuleSet, String> {
    let rule = match s.to_ascii_lowercase().as_str() {
        "freestyle" => Rule::Freestyle,
        "standard" | "exact" | "exactfive" => Rule::Standard,
        "renju" => Rule::Renju,
        "caro" => Rule::Caro,
        n => {
            let bits: u32 = n.parse().map_err(|_| format!("bad rule {s:?}"))?;
            let mut r = RuleSet::from_bits(bits);
            r.continuous = false;
            return Ok(r);
        }
    };
    Ok(RuleSet::from(rule))
}

/// The value after option `opt` on a command line, or an error naming it.
pub fn value<'a>(it: &mut impl Iterator<Item = &'a String>, opt: &str) -> Result<String, String> {
    it.next()
        .cloned()
        .ok_or_else(|| format!("{opt} needs a value"))
}

/// A point `x,y` (each coordinate trimmed); None if it is not two numbers
/// of type `T`. Protocol moves, openings, records and reach positions all
/// write points this way.
pub fn parse_point<T: std::str::FromStr>(tok: &str) -> Option<(T, T)> {
    let (x, y) = tok.split_once(',')?;
    Some((x.trim().parse().ok()?, y.trim().parse().ok()?))
}

/// Whitespace-separated points `x,y x,y …`, or an error naming the first bad
/// one.
pub fn parse_points<T: std::str::FromStr>(text: &str) -> Result<Vec<(T, T)>, String> {
    text.split_whitespace()
        .map(|t| parse_point(t).ok_or_else(|| format!("bad point {t:?}")))
        .collect()
}

/// Parse the value `v` of option `opt` as a number.
pub fn num<T: std::str::FromStr>(opt: &str, v: &str) -> Result<T, String> {
    v.parse().map_err(|_| format!("{opt}: bad number {v:?}"))
}

/// The value of `--eval` (`auto`, `classic` or `net`), or an error saying
/// what it takes.
pub fn eval_kind(v: Option<&str>) -> Result<EvalKind, String> {
    match v {
        Some(v) => EvalKind::parse(v)
            .ok_or_else(|| format!("--eval takes auto, classic or net, got {v:?}")),
        None => Err("--eval takes auto, classic or net".into()),
    }
}

/// The net in the weights file `path` (`--net FILE`), quantized, with the
/// file's FNV-1a 64 fingerprint (what `tune net` prints for it); an error
/// names the file and what is wrong with it.
pub fn load_net(path: &str) -> Result<(Arc<QuantNet>, u64), String> {
    let bytes = std::fs::read(path).map_err(|e| format!("--net {path}: {e}"))?;
    NetWeights::from_bytes(&bytes)
        .and_then(|w| QuantNet::new(&w))
        .map(|q| (Arc::new(q), fnv1a(&bytes)))
        .map_err(|e| format!("--net {path}: {e}"))
}

/// Apply the search switch `flag` to `o`; false if it is not one:
/// `--no-threats` (no threat solver at the root).
pub fn search_switch(o: &mut SearchOptions, flag: &str) -> bool {
    match flag {
        "--no-threats" => o.root_threats = false,
        _ => return false,
    }
    true
}

/// `--param NAME=V`: set the search parameter NAME (`search::params`) to
/// V; an error for a malformed value, an unknown name, a value its type
/// cannot hold, or a build whose parameters are fixed (only a tuning build,
/// `--features tune`, sets them).
pub fn set_param(v: &str) -> Result<(), String> {
    match v.split_once('=') {
        Some((name, x)) => match x.trim().parse::<f64>() {
            Ok(x) => crate::brain::search::params::set(name.trim(), x),
            Err(_) => Err(format!("--param {v}: the value is no number")),
        },
        None => Err(format!("--param wants NAME=V or list, got {v:?}")),
    }
}

/// A command line split on whitespace (parser tests).
#[cfg(test)]
pub fn test_args(s: &str) -> Vec<String> {
    s.split_whitespace().map(String::from).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn points_parse_in_the_callers_types() {
        assert_eq!(parse_points::<usize>("7,8 0,14"), Ok(vec![(7, 8), (0, 14)]));
        assert_eq!(
            parse_points::<i64>(" -1,2  3,4 "),
            Ok(vec![(-1, 2), (3, 4)])
        );
        assert_eq!(parse_points::<usize>(""), Ok(vec![]));
        // Negative coordinates are no usize; a bad point is named.
        assert_eq!(
            parse_points::<usize>("7,8 -1,2"),
            Err("bad point \"-1,2\"".to_string())
        );
        assert!(parse_points::<i64>("7,8,9").is_err() && parse_points::<i64>("7").is_err());
    }

    #[test]
    fn numbers_bytes_and_rules() {
        assert_eq!(parse_bytes("350M").unwrap(), 350 << 20);
        assert_eq!(parse_bytes("1000").unwrap(), 1000);
        assert!(parse_bytes("x").is_err());
        assert_eq!(parse_rule("caro").unwrap().rule, Rule::Caro);
        assert_eq!(parse_rule("1").unwrap().rule, Rule::Standard);
        assert_eq!(num::<u32>("--games", "12"), Ok(12));
        assert!(num::<u32>("--games", "x").unwrap_err().contains("--games"));
        let a = test_args("--x 3");
        let mut it = a.iter().skip(1);
        assert_eq!(value(&mut it, "--x"), Ok("3".to_string()));
        assert!(value(&mut it, "--x").is_err());
    }

    #[test]
    fn eval_option_values() {
        assert_eq!(eval_kind(Some("classic")), Ok(EvalKind::Classic));
        assert_eq!(eval_kind(Some("net")), Ok(EvalKind::Net));
        let bad = eval_kind(Some("nnue")).unwrap_err();
        assert!(bad.contains("\"nnue\""), "{bad}");
        assert!(eval_kind(None).is_err());
        assert_eq!(eval_kind(Some("auto")), Ok(EvalKind::Auto));
        for k in [EvalKind::Auto, EvalKind::Classic, EvalKind::Net] {
            assert_eq!(eval_kind(Some(k.name())), Ok(k));
        }
    }

    #[test]
    fn param_values() {
        assert!(set_param("LMR_GRAIN").unwrap_err().contains("NAME=V"));
        assert!(set_param("LMR_GRAIN=x").unwrap_err().contains("no number"));
        assert!(set_param("NO_SUCH_PARAM=1")
            .unwrap_err()
            .contains("unknown"));
        // The release build refuses every value; the tuning build takes it
        // (and the value stays the default here, so no other test sees a change).
        let r = set_param("LMR_GRAIN=16");
        assert_eq!(r.is_ok(), cfg!(feature = "tune"), "{r:?}");
    }

    #[test]
    fn search_switches() {
        let mut o = SearchOptions::default();
        assert!(o.root_threats);
        assert!(search_switch(&mut o, "--no-threats") && !o.root_threats);
        // The experiments' switches are gone (tag experiments-2026-12).
        for gone in ["--leaf-vcf", "--policy", "--policy-order", "--no-such"] {
            assert!(!search_switch(&mut o, gone), "{gone}");
        }
    }
}
