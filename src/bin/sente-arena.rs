//! `sente-arena`: referee and match runner between two pbrain engines,
//! tournaments of N engines (`--engine`, `merge`), the reach benchmark
//! and the depth report through the protocol (`reach`, `depth`), a stronger brain judging
//! an engine's moves (`oracle`), re-scoring a played result (`sprt`),
//! SPSA tuning (`spsa`), and, with
//! `--fake-engine`, the tiny test engines. All logic is in `sente::lab::arena`;
//! this file only wires the command line to it.

use std::process::ExitCode;

use sente::lab::arena::{compare, fake, matchcli, runner, sprtcli, tourcli, tournament};
use sente::lab::bench::depth::protocol as depth;
use sente::lab::bench::oracle;
use sente::lab::bench::reach::protocol as reach;
use sente::lab::spsa::cli as spsa;

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    let args: Vec<String> = std::env::args().skip(1).collect();
    if spsa::wants(&args) {
        if args.iter().any(|a| a == "--help" || a == "-h") {
            print!("{}", spsa::USAGE);
            return ExitCode::SUCCESS;
        }
        return exit(spsa::parse(&args[1..]).and_then(spsa::run));
    }
    if reach::wants(&args) {
        return reach_main(&args);
    }
    if depth::wants(&args) {
        return exit(match depth::parse(&args) {
            Ok(None) => {
                print!("{}", depth::USAGE);
                Ok(())
            }
            Ok(Some(cfg)) => depth::run(&cfg).map(|_| ()),
            Err(e) => Err(e),
        });
    }
    if oracle::wants(&args) {
        return exit(match oracle::parse(&args) {
            Ok(oracle::Mode::Help) => {
                print!("{}", oracle::USAGE);
                Ok(())
            }
            Ok(oracle::Mode::Run(cfg)) => oracle::run(&cfg).map(|_| ()),
            Ok(oracle::Mode::Compare(a, b)) => {
                oracle::compare_files(&a, &b).map(|text| print!("{text}"))
            }
            Err(e) => Err(e),
        });
    }
    if sprtcli::wants(&args) {
        return exit(match sprtcli::parse(&args) {
            Ok(None) => {
                print!("{}", sprtcli::USAGE);
                Ok(())
            }
            Ok(Some(r)) => {
                print!("{}", sprtcli::report(&r));
                Ok(())
            }
            Err(e) => Err(e),
        });
    }
    if tourcli::wants(&args) && !args.iter().any(|a| a == "--help" || a == "-h") {
        return tour_main(&args);
    }
    let done = match matchcli::parse(&args) {
        Ok(matchcli::Mode::Help) => {
            print!(
                "{}\n{}\n{}\n{}\n{}\n{}\n{}",
                matchcli::USAGE,
                tourcli::USAGE,
                reach::USAGE,
                depth::USAGE,
                oracle::USAGE,
                sprtcli::USAGE,
                spsa::USAGE
            );
            Ok(())
        }
        Ok(matchcli::Mode::Fake {
            kind,
            good,
            seed,
            x,
        }) => {
            fake::run(kind, good, seed, x);
            Ok(())
        }
        Ok(matchcli::Mode::Compare { base, new, name }) => {
            compare::run(&base, &new, &name).map(|text| print!("{text}"))
        }
        Ok(matchcli::Mode::Match(cfg)) => runner::run(&cfg).map(|_| ()),
        Err(e) => Err(e),
    };
    exit(done)
}

/// Status 0, or the error on stderr and status 2.
fn exit(done: Result<(), String>) -> ExitCode {
    match done {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("sente-arena: {e}");
            ExitCode::from(2)
        }
    }
}

/// A tournament, or a merge of tournament shards.
fn tour_main(args: &[String]) -> ExitCode {
    let done = match tourcli::parse(args) {
        Ok(tourcli::TourMode::Run(cfg)) => tournament::run(&cfg).map(|_| ()),
        Ok(tourcli::TourMode::Merge {
            files,
            json,
            html,
            records,
            anchor,
        }) => tourcli::merge(
            &files,
            json.as_deref(),
            html.as_deref(),
            records.as_deref(),
            anchor,
        )
        .map(|text| print!("{text}")),
        Err(e) => Err(e),
    };
    exit(done)
}

/// The reach benchmark through the protocol.
fn reach_main(args: &[String]) -> ExitCode {
    exit(match reach::parse(args) {
        Ok(None) => {
            print!("{}", reach::USAGE);
            Ok(())
        }
        Ok(Some(cfg)) => reach::run(&cfg).map(|_| ()),
        Err(e) => Err(e),
    })
}
