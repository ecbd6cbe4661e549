//! `pbrain-sente`: the Gomocup brain binary. Thin: logging to stderr, then the
//! protocol loop (default) or a subcommand.
//!
//! `pbrain-sente [--no-threats] [--leaf-vcf]`: the protocol loop; the flags
//! switch search features off or on for A/B matches in the arena.
//! `pbrain-sente bench …`: the bench (see `sente::bench`).
//! `pbrain-sente tune …`: fit the evaluation weights to arena records
//! (see `sente::eval::tune`).

use sente::search::SearchOptions;

fn main() -> anyhow::Result<()> {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("bench") {
        std::process::exit(sente::bench::main_bench(&args[1..]));
    }
    if args.first().map(String::as_str) == Some("tune") {
        std::process::exit(sente::eval::tune::main_tune(&args[1..]));
    }
    let mut options = SearchOptions::default();
    for a in &args {
        match a.as_str() {
            "--no-threats" => options.root_threats = false,
            "--leaf-vcf" => options.leaf_vcf = true,
            other => anyhow::bail!(
                "unknown argument '{other}' (usage: pbrain-sente [--no-threats] [--leaf-vcf] | bench … | tune …)"
            ),
        }
    }
    sente::protocol::io::run(options)
}
