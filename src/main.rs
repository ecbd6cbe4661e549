//! `pbrain-sente`: the Gomocup brain binary. Thin: logging to stderr, then the
//! protocol loop (default) or a subcommand.
//!
//! `pbrain-sente [SWITCHES] [--eval auto|classic|net] [--net FILE]`: the protocol
//! loop; the switches (`sente::cli::search_switch`) turn search features off
//! or on for A/B matches in the arena (and in `bench`).
//! `pbrain-sente bench …`: the bench (see `sente::lab::bench`).
//! `pbrain-sente tune …`: fit the evaluation weights to arena records
//! (see `sente::lab::tune`). `pbrain-sente datagen …`: self-play training data
//! (see `sente::lab::datagen`). `--help` and `--version` print to stdout and
//! exit; an unknown argument is reported on stderr with status 2.

use sente::brain::engine::{EngineOptions, EvalKind};
use sente::brain::search::params;
use sente::cli::{eval_kind, load_net, search_switch};

fn main() -> anyhow::Result<()> {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("bench") {
        std::process::exit(sente::lab::bench::main_bench(&args[1..]));
    }
    if args.first().map(String::as_str) == Some("tune") {
        std::process::exit(sente::lab::tune::main_tune(&args[1..]));
    }
    if args.first().map(String::as_str) == Some("datagen") {
        std::process::exit(sente::lab::datagen::main_datagen(&args[1..]));
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
       pbrain-sente bench [DEPTH | time MS | threads [MS [N]] | pages [DEPTH [MB]] | eval [ROUNDS]] [SWITCHES] [--eval auto|classic|net]
                                                    bench; its node count is the signature
       pbrain-sente bench reach [--ms MS | --nodes N] [--set dev|held|all] [SWITCHES] [--eval auto|classic|net]
                                                    forced wins beyond 500 ms, and quiet positions
       pbrain-sente bench reach-make GAMES.txt... [--rule R] [--size N] [--out FILE]
                                                    rebuild src/lab/bench/reach/reach.txt from arena records
       pbrain-sente bench threats                   the threat solver's speed
       pbrain-sente bench depth [--ms MS]... [--per-rule N] [--out FILE] [SWITCHES] [--eval auto|classic|net]
                                                    depth, nodes and branching per iteration, middle games
       pbrain-sente bench depth-make --rule R GAMES.txt... [--out FILE]
                                                    rebuild the depth report's positions from arena records
       pbrain-sente bench net-random FILE [F H SEED]  write random net weights (for tests)
       (every bench also takes --param NAME=V in a tuning build: cargo build --features tune)
       pbrain-sente tune …                          fit evaluation weights to match records
       pbrain-sente tune net …                      train the evaluation network on datagen records
       pbrain-sente datagen [--rule R] [--size N] [--nodes N] [--games G] [--seed S]
                    [--shard K/N] [--out FILE] [--random-plies P] [--openings FILE]
                    [--max-plies M] [--quiet]       self-play games as training data
       pbrain-sente --help | --version
SWITCHES (search features for A/B tests):
  --no-threats    no threat solver (VCF/VCT) at the root
  --eval E        static evaluation: auto (default: the learned net in freestyle,
                  standard and renju, classical under caro), classic or net (every rule)
  --net FILE      the net's weights from FILE instead of the built-in ones (implies --eval net)
  --param NAME=V  set a search parameter of src/brain/search/params.rs (repeatable;
                  a tuning build only: cargo build --release --features tune);
                  --param list lists them
Logs go to stderr; RUST_LOG=debug shows the search.";
