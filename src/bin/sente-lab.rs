//! `sente-lab`: the laboratory's tools that make things, so that the engine
//! binary (`pbrain-sente`) is only the engine: fitting the classical
//! evaluation (`tune`), training the net (`tune net`), self-play training
//! data (`datagen`, every word its own dispatcher takes), the evaluation
//! panel (`evalpanel`), rebuilding the
//! bench's suites from arena records (`reach-make`, `reach-claims`,
//! `depth-make`) and random net weights (`net-random`). Measurements of the
//! engine stay `pbrain-sente bench …`; matches, SPRTs and SPSA are
//! `sente-arena`'s. All logic is in `sente::lab`; this file only wires the
//! command line to it.

use std::process::ExitCode;

use sente::lab::bench::{depth, reach};
use sente::lab::{datagen, evalpanel, tune};

/// One command: its name, its arguments in short, what it does, and its
/// entry (given the words after the name; returns the exit status).
struct Command {
    name: &'static str,
    args: &'static str,
    what: &'static str,
    run: fn(&[String]) -> i32,
}

/// The commands, in `--help`'s order.
const COMMANDS: &[Command] = &[
    Command {
        name: "tune",
        args: "GAMES.txt… | net RECORDS…",
        what: "fit the classical evaluation to arena records; `net`: train the net on datagen's",
        run: tune::main_tune,
    },
    Command {
        name: "datagen",
        args: "[--games G] [--nodes N] …",
        what: "self-play games as training data (datagen --help: every option)",
        run: datagen::main_datagen,
    },
    Command {
        name: "reach-make",
        args: "GAMES.txt… [--ms MS] [--out FILE]",
        what: "rebuild the reach suite (bench reach's positions) from arena records",
        run: reach::make::main_make,
    },
    Command {
        name: "reach-claims",
        args: "[--ms MS | --nodes N]… [--out FILE]",
        what: "prove the wins the engine claims outside the reach suite's answers",
        run: reach::make::main_claims,
    },
    Command {
        name: "depth-make",
        args: "--rule R GAMES.txt… [--out FILE]",
        what: "rebuild the depth report's positions from arena records",
        run: depth::make::main_make,
    },
    Command {
        name: "evalpanel",
        args: "make | label | score …",
        what: "the evaluation panel: draw quiet positions, label them deep, score evaluators",
        run: evalpanel::main_evalpanel,
    },
    Command {
        name: "net-random",
        args: "FILE [F H SEED [lines|joint]]",
        what: "write random net weights (for tests)",
        run: tune::net::main_random,
    },
];

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(first) = args.first() else {
        eprintln!("{}", usage());
        return ExitCode::from(2);
    };
    match first.as_str() {
        "--help" | "-h" | "help" => {
            print!("{}", usage());
            ExitCode::SUCCESS
        }
        "--version" | "-V" => {
            println!("sente-lab {}", env!("CARGO_PKG_VERSION"));
            ExitCode::SUCCESS
        }
        name => match COMMANDS.iter().find(|c| c.name == name) {
            Some(c) => ExitCode::from(u8::try_from((c.run)(&args[1..])).unwrap_or(1)),
            None => {
                eprintln!(
                    "sente-lab: unknown command '{name}' (sente-lab --help lists them; \
                     the engine's measurements are pbrain-sente bench …, matches sente-arena …)"
                );
                ExitCode::from(2)
            }
        },
    }
}

/// `--help`: every command on one line.
fn usage() -> String {
    let mut s = String::from("usage: sente-lab COMMAND [ARGS…]\n");
    let head = |c: &Command| format!("{} {}", c.name, c.args);
    let width = COMMANDS
        .iter()
        .map(|c| head(c).chars().count())
        .max()
        .unwrap_or(0);
    for c in COMMANDS {
        s.push_str(&format!("  {:<width$}  {}\n", head(c), c.what));
    }
    s.push_str(
        "  --help | --version\n\
         Every option: scripts/ARENA.md, or a command's usage (printed on a wrong argument).\n\
         The engine and its measurements are pbrain-sente's (pbrain-sente bench …);\n\
         matches, tournaments, SPRTs and SPSA are sente-arena's.\n",
    );
    s
}
