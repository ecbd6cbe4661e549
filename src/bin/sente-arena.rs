//! `sente-arena`: referee and match runner between two pbrain engines,
//! tournaments of N engines (`--engine`, `merge`), the reach benchmark
//! through the protocol (`reach`), and, with
//! `--fake-engine`, the tiny test engines. All logic is in `sente::arena`;
//! this file only wires the command line to it.

use std::process::ExitCode;

use sente::arena::{cli, compare, fake, reach, runner, tourcli, tournament};

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    let args: Vec<String> = std::env::args().skip(1).collect();
    if reach::wants(&args) {
        return reach_main(&args);
    }
    if tourcli::wants(&args) && !args.iter().any(|a| a == "--help" || a == "-h") {
        return tour_main(&args);
    }
    match cli::parse(&args) {
        Ok(cli::Mode::Help) => {
            print!("{}\n{}\n{}", cli::USAGE, tourcli::USAGE, reach::USAGE);
            ExitCode::SUCCESS
        }
        Ok(cli::Mode::Fake { kind, good, seed }) => {
            fake::run(kind, good, seed);
            ExitCode::SUCCESS
        }
        Ok(cli::Mode::Compare { base, new, name }) => match compare::run(&base, &new, &name) {
            Ok(text) => {
                print!("{text}");
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("sente-arena: {e}");
                ExitCode::from(2)
            }
        },
        Ok(cli::Mode::Match(cfg)) => match runner::run(&cfg) {
            Ok(_) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("sente-arena: {e}");
                ExitCode::from(2)
            }
        },
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
    match done {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("sente-arena: {e}");
            ExitCode::from(2)
        }
    }
}

/// The reach benchmark through the protocol.
fn reach_main(args: &[String]) -> ExitCode {
    match reach::parse(args) {
        Ok(None) => {
            print!("{}", reach::USAGE);
            ExitCode::SUCCESS
        }
        Ok(Some(cfg)) => match reach::run(&cfg) {
            Ok(_) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("sente-arena: {e}");
                ExitCode::from(2)
            }
        },
        Err(e) => {
            eprintln!("sente-arena: {e}");
            ExitCode::from(2)
        }
    }
}
