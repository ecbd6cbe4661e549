//! `sente-arena depth`: the depth suite (`positions.txt`) played through
//! the protocol by any Gomocup brain, reading the depth, nodes and time of
//! each iteration from the MESSAGE lines it sends while it thinks, so that
//! another engine's figures can be set beside `pbrain-sente bench depth`'s.
//! Each position gets a fresh engine and one move request
//! (`reach::protocol::ask_move`: START, the INFO settings, BOARD…DONE).
//!
//! Two MESSAGE formats are read (`parse_message`): Sente's, and Rapfi's
//! `ucilike` message mode (`message_mode = "ucilike"` in its config.toml;
//! its default `normal` and `brief` modes report no nodes per iteration).

use std::path::PathBuf;
use std::time::Instant;

use super::suite::{
    first_per_rule, header, line_text, positions, push_iter, summary_text, tsv, DepthLine,
    DepthPos, Iter, DEFAULT_MS,
};
use crate::cli::{num, value};
use crate::lab::bench::reach::protocol::{ask_move, Brain, Outcome};

pub const USAGE: &str = "\
usage: sente-arena depth --engine CMD [--ms MS[,MS…]] [--per-rule N] [--tolerance MS]
                         [--memory BYTES] [--out FILE] [--engine-stderr]

  the depth suite (pbrain-sente bench depth's positions) through the protocol: a
  fresh engine per position, BOARD…DONE, one move; the depth, nodes and time of
  each iteration read from its MESSAGE lines (Sente's format, or Rapfi's with
  message_mode = \"ucilike\"), then the same summary as bench depth
  --engine CMD      engine command (arguments allowed; shell syntax runs via sh -c)
  --ms MS[,MS…]     INFO timeout_turn, one run each [500,2000]
  --per-rule N      only the first N positions of each rule [all]
  --tolerance MS    extra time before a timeout [1000]
  --memory BYTES    INFO max_memory (suffix K, M, G allowed), 0 = none [350M]
  --out FILE        write every iteration as TSV
";

/// A `depth` run.
#[derive(Clone, Debug)]
pub struct DepthConfig {
    pub brain: Brain,
    pub ms: Vec<u64>,
    /// Only the first N positions of each rule.
    pub per_rule: Option<usize>,
    pub out: Option<PathBuf>,
}

/// Whether `args` ask for `depth`.
pub fn wants(args: &[String]) -> bool {
    args.first().map(String::as_str) == Some("depth")
}

/// Parse `depth …` (the arguments after the program name); None for help.
pub fn parse(args: &[String]) -> Result<Option<DepthConfig>, String> {
    let mut cfg = DepthConfig {
        brain: Brain::default(),
        ms: Vec::new(),
        per_rule: None,
        out: None,
    };
    let mut it = args.iter().skip(1);
    while let Some(a) = it.next() {
        if cfg.brain.option(a, || value(&mut it, a))? {
            continue;
        }
        let mut val = || value(&mut it, a);
        match a.as_str() {
            "--help" | "-h" => return Ok(None),
            "--ms" => {
                for v in val()?.split(',') {
                    cfg.ms.push(num("--ms", v)?);
                }
            }
            "--per-rule" => cfg.per_rule = Some(num::<usize>("--per-rule", &val()?)?),
            "--out" => cfg.out = Some(PathBuf::from(val()?)),
            _ => return Err(format!("depth: unknown argument {a:?}")),
        }
    }
    cfg.brain.check("depth")?;
    if cfg.ms.is_empty() {
        cfg.ms = DEFAULT_MS.to_vec();
    }
    if cfg.ms.contains(&0) {
        return Err("depth: --ms must be positive".into());
    }
    Ok(Some(cfg))
}

/// A node count as a brain writes it: digits, or Rapfi's abbreviation
/// with K, M, G or T (thousands, millions, …, rounded down by Rapfi).
fn count(s: &str) -> Option<u64> {
    let (digits, scale) = match s.chars().last()? {
        'K' | 'k' => (&s[..s.len() - 1], 1_000),
        'M' | 'm' => (&s[..s.len() - 1], 1_000_000),
        'G' | 'g' => (&s[..s.len() - 1], 1_000_000_000),
        'T' | 't' => (&s[..s.len() - 1], 1_000_000_000_000),
        _ => (s, 1),
    };
    digits.parse::<u64>().ok()?.checked_mul(scale)
}

/// One iteration from a MESSAGE line: Sente's
/// `MESSAGE depth D ev E nodes N nps S time T pv …`, or Rapfi's `ucilike`
/// `MESSAGE depth D-SEL ev E n N n/ms S tm T pv …` (N possibly abbreviated,
/// `count`). Anything else (no depth, nodes or time before the PV) is None.
pub fn parse_message(line: &str) -> Option<Iter> {
    let t: Vec<&str> = line.split_whitespace().collect();
    let t = match t.first() {
        Some(h) if h.eq_ignore_ascii_case("MESSAGE") => &t[1..],
        _ => &t[..],
    };
    if t.first() != Some(&"depth") {
        return None;
    }
    let depth = t.get(1)?.split('-').next()?.parse().ok()?;
    let (mut nodes, mut ms) = (None, None);
    for kv in t[2..].chunks(2) {
        match kv {
            ["pv", ..] => break,
            ["nodes" | "n", v] => nodes = count(v),
            ["time" | "tm", v] => ms = v.parse::<f64>().ok(),
            ["multipv", _] => return None,
            _ => {}
        }
    }
    Some(Iter {
        depth,
        nodes: nodes?,
        ms: ms?,
    })
}

/// The iterations a brain's MESSAGE lines report, in order (`push_iter`).
pub fn iterations(messages: &[String]) -> Vec<Iter> {
    let mut iters = Vec::new();
    for it in messages.iter().filter_map(|m| parse_message(m)) {
        push_iter(&mut iters, it);
    }
    iters
}

/// Play one position at `ms` through the protocol.
pub fn run_position(cfg: &DepthConfig, p: &DepthPos, ms: u64) -> DepthLine {
    let gc = cfg.brain.game_config(p.size, p.rule, ms);
    let a = ask_move(&cfg.brain.engine, &gc, &p.moves);
    DepthLine {
        name: p.name.clone(),
        rule: p.rule,
        limit: format!("{ms} ms"),
        iters: iterations(&a.messages),
        failure: (a.outcome != Outcome::Moved).then(|| format!("{:?}", a.outcome)),
    }
}

/// Run every position at each limit, printing a line each and a summary
/// per limit; write the TSV when asked.
pub fn run(cfg: &DepthConfig) -> Result<Vec<DepthLine>, String> {
    let ps = first_per_rule(positions(), cfg.per_rule);
    let mut all = Vec::new();
    for (j, &ms) in cfg.ms.iter().enumerate() {
        if j > 0 {
            println!();
        }
        println!(
            "depth: {} positions, {ms} ms + {} ms tolerance, engine {}",
            ps.len(),
            cfg.brain.tolerance_ms,
            cfg.brain.engine
        );
        println!("{}", header());
        let t0 = Instant::now();
        let mut lines = Vec::new();
        for p in &ps {
            let l = run_position(cfg, p, ms);
            println!("{}", line_text(&l));
            lines.push(l);
        }
        print!("{}", summary_text(&format!("{ms} ms"), &lines));
        println!("Run time        : {:.1} s", t0.elapsed().as_secs_f64());
        all.extend(lines);
    }
    if let Some(f) = &cfg.out {
        std::fs::write(f, tsv(&cfg.brain.engine, &all))
            .map_err(|e| format!("cannot write {}: {e}", f.display()))?;
    }
    Ok(all)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::test_args as args;

    #[test]
    fn parses() {
        assert!(wants(&args("depth --engine x")));
        assert!(!wants(&args("reach --engine x")));
        let c = parse(&args(
            "depth --engine e --ms 200,1000 --memory 1M --out f.tsv",
        ))
        .unwrap()
        .unwrap();
        assert_eq!(
            (c.brain.engine.as_str(), c.ms.clone(), c.brain.memory),
            ("e", vec![200, 1000], 1 << 20)
        );
        let c = parse(&args("depth --engine e --per-rule 3"))
            .unwrap()
            .unwrap();
        assert_eq!((c.ms.clone(), c.per_rule), (DEFAULT_MS.to_vec(), Some(3)));
        assert!(parse(&args("depth --help")).unwrap().is_none());
        assert!(parse(&args("depth")).is_err());
        assert!(parse(&args("depth --engine e --ms 0")).is_err());
        assert!(parse(&args("depth --engine e --ms x")).is_err());
        assert!(parse(&args("depth --engine e --bogus")).is_err());
    }

    /// Sente's line, as `protocol::session::info_text` writes it.
    #[test]
    fn reads_sentes_message() {
        let l = "MESSAGE depth 9 ev 35 nodes 183412 nps 401340 time 457 pv 7,7 8,8";
        assert_eq!(
            parse_message(l),
            Some(Iter {
                depth: 9,
                nodes: 183_412,
                ms: 457.0
            })
        );
    }

    /// Lines captured from Rapfi (classical 220723, `message_mode =
    /// "ucilike"`, 500 ms) on the freestyle position 7,7 8,8 7,8 8,7.
    #[test]
    fn reads_rapfis_message() {
        let lines = [
            "MESSAGE depth 8-11 ev 240 n 1030 n/ms 1030 tm 1 pv H10 H7 I10 G8 G10 F10 H11 H12 F9",
            "MESSAGE depth 14-23 ev 323 n 32K n/ms 632 tm 51 pv H7 H6 I7 G8 K7 J7 J6 K5 I5 L8 G9 F10",
        ];
        assert_eq!(
            parse_message(lines[0]),
            Some(Iter {
                depth: 8,
                nodes: 1030,
                ms: 1.0
            })
        );
        assert_eq!(
            parse_message(lines[1]),
            Some(Iter {
                depth: 14,
                nodes: 32_000,
                ms: 51.0
            })
        );
        assert_eq!(count("12M"), Some(12_000_000));
        assert_eq!(count("K"), None);
        // Rapfi's normal mode has no nodes per iteration; other MESSAGE
        // lines are no iterations.
        for other in [
            "MESSAGE Depth 14-23 | Eval 323 | Time 51ms | H7 H6 I7",
            "MESSAGE Speed 632K | Depth 14-23 | Eval 323 | Node 32K | Time 51ms",
            "MESSAGE Load config from config.toml",
            "MESSAGE depth 3-4 multipv 2 ev 1 n 90 n/ms 9 tm 1 pv 7,7",
            "MESSAGE depth 4 ev 1 pv 7,7 nodes 9 time 1",
            "MESSAGE ponder hit",
        ] {
            assert_eq!(parse_message(other), None, "{other}");
        }
    }

    #[test]
    fn iterations_keep_the_first_report_of_each_depth() {
        let m: Vec<String> = [
            "MESSAGE depth 1 ev 0 nodes 10 nps 0 time 1 pv 7,7",
            "MESSAGE hello",
            "MESSAGE depth 2 ev 0 nodes 50 nps 0 time 2 pv 7,7",
            "MESSAGE depth 2 ev 0 nodes 90 nps 0 time 3 pv 8,8",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        let v = iterations(&m);
        assert_eq!(
            v.iter().map(|i| (i.depth, i.nodes)).collect::<Vec<_>>(),
            [(1, 10), (2, 50)]
        );
    }
}
