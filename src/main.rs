//! `pbrain-sente`: the Gomocup brain binary, the file a tournament manager
//! loads, and only the engine. Thin: logging to stderr, then the protocol
//! loop (default) or the bench.
//!
//! `pbrain-sente [SWITCHES] [--eval auto|classic|net] [--net FILE] [--param
//! NAME=V]`: the protocol loop; the switches (`sente::cli::search_switch`)
//! turn search features off or on for A/B matches in the arena (and in
//! `bench`). `pbrain-sente bench …`: the engine's measurements (the
//! signature, speed, reach, depth, the threat solver, first-move latency;
//! see `sente::lab::bench`). `--help` and `--version` print to stdout and
//! exit; an unknown argument is reported on stderr with status 2.
//!
//! What makes things is the laboratory's binary `sente-lab` (fitting and
//! training, self-play data, rebuilding the bench's suites, random nets):
//! the old spellings here (`pbrain-sente tune …`, `datagen …`, `bench
//! reach-make …`) answer with the new command on stderr and status 2
//! (`MOVED`), never the protocol loop.

use sente::brain::engine::{EngineOptions, EvalKind};
use sente::brain::search::params;
use sente::cli::{eval_kind, load_net, search_switch};

fn main() -> anyhow::Result<()> {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let Some(msg) = moved(&args) {
        eprintln!("{msg}");
        std::process::exit(2);
    }
    if args.first().map(String::as_str) == Some("bench") {
        std::process::exit(sente::lab::bench::main_bench(&args[1..]));
    }
    let mut options = EngineOptions::default();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        if search_switch(&mut options.search, a) {
            continue;
        }
        match a.as_str() {
            "--eval" => match eval_kind(it.next().map(String::as_str)) {
                Ok(k) => options.search.eval = k,
                Err(e) => {
                    eprintln!("pbrain-sente: {e}\n{USAGE}");
                    std::process::exit(2);
                }
            },
            "--net" => {
                let Some(path) = it.next() else {
                    eprintln!("pbrain-sente: --net takes a weights file\n{USAGE}");
                    std::process::exit(2);
                };
                // The engine gets the net with its options: no process-wide
                // state.
                match load_net(path) {
                    Ok((q, _)) => options.net = Some(q),
                    Err(e) => {
                        eprintln!("pbrain-sente: {e}");
                        std::process::exit(2);
                    }
                }
                options.search.eval = EvalKind::Net;
            }
            "--param" => {
                let v = it.next().map(String::as_str).unwrap_or("");
                if v == "list" {
                    print!("{}", param_list());
                    return Ok(());
                }
                if let Err(e) = sente::cli::set_param(v) {
                    eprintln!("pbrain-sente: {e}");
                    std::process::exit(2);
                }
            }
            // Not the protocol loop: a person at a terminal asked.
            "--help" | "-h" => {
                println!("{USAGE}");
                return Ok(());
            }
            "--version" | "-V" => {
                println!("pbrain-sente {}", env!("CARGO_PKG_VERSION"));
                return Ok(());
            }
            other => {
                // A plain message and status 2, not an error with a backtrace.
                eprintln!("pbrain-sente: unknown argument '{other}'\n{USAGE}");
                std::process::exit(2);
            }
        }
    }
    sente::brain::protocol::io::run(options)
}

/// The laboratory's commands this binary carried until 0.9.0, by their old
/// words (the first word, or `bench` and one of its words), and the
/// `sente-lab` command each is now.
const MOVED: &[(&str, &str)] = &[
    ("tune net", "tune net"),
    ("tune", "tune"),
    ("datagen", "datagen"),
    ("bench reach-make", "reach-make"),
    ("bench reach-claims", "reach-claims"),
    ("bench depth-make", "depth-make"),
    ("bench net-random", "net-random"),
];

/// The message for a command line that asks for a moved command, naming
/// its new spelling; None for any other. After `bench` the moved word may
/// follow switches, as the bench read them.
fn moved(args: &[String]) -> Option<String> {
    let first = args.first()?.as_str();
    MOVED.iter().find_map(|&(old, new)| {
        let hit = match old.split_once(' ') {
            Some(("bench", word)) => first == "bench" && args[1..].iter().any(|a| a == word),
            Some((a, b)) => first == a && args.get(1).is_some_and(|x| x == b),
            None => first == old,
        };
        hit.then(|| {
            format!(
                "pbrain-sente: `{old}` moved to the laboratory: sente-lab {new} …\n\
                 (pbrain-sente is the engine: the protocol, bench, --help, --version)"
            )
        })
    })
}

/// `--param list`: each tunable parameter with its value, and whether this
/// build can set them.
fn param_list() -> String {
    let mut out = String::new();
    for t in params::TUNABLES {
        out.push_str(&format!("{} {}\n", t.name, t.default));
    }
    if !cfg!(feature = "tune") {
        out.push_str("# fixed in this build: --param NAME=V needs cargo build --features tune\n");
    }
    out
}

const USAGE: &str = "\
usage: pbrain-sente [SWITCHES] [--eval auto|classic|net] [--net FILE]
                                                    the Gomocup protocol on stdin/stdout
       pbrain-sente bench [DEPTH | time MS | threads [MS [N]] | pages [DEPTH [MB]] | eval [ROUNDS]] [SWITCHES] [--eval auto|classic|net] [--net FILE]
                                                    bench; its node count is the signature
       pbrain-sente bench reach [--ms MS | --nodes N] [--set dev|held|all] [SWITCHES] [--eval auto|classic|net]
                                                    forced wins beyond 500 ms, and quiet positions
       pbrain-sente bench depth [--ms MS]... [--per-rule N] [--out FILE] [SWITCHES] [--eval auto|classic|net]
                                                    depth, nodes and branching per iteration, middle games
       pbrain-sente bench threats                   the threat solver's speed
       pbrain-sente bench first-move [--engine PATH]... [--rounds N] [--turn MS]
                                                    how long fresh processes take to answer their first moves
       (every bench also takes --param NAME=V in a tuning build: cargo build --features tune)
       pbrain-sente --help | --version
SWITCHES (search features for A/B tests):
  --no-threats    no threat solver (VCF/VCT) at the root
  --eval E        static evaluation: auto (default: the learned net, each rule's own),
                  classic or net (every rule)
  --net FILE      the net's weights from FILE instead of the built-in ones (implies --eval net)
  --param NAME=V  set a search parameter of src/brain/search/params.rs (repeatable;
                  a tuning build only: cargo build --release --features tune);
                  --param list lists them
Logs go to stderr; RUST_LOG=debug shows the search.
Fitting, training, self-play data and rebuilding the bench's suites are the
laboratory's: sente-lab --help.";
