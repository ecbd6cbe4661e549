//! `pbrain-sente`: the Gomocup brain binary. Thin: logging to stderr, then the
//! protocol loop (default) or a subcommand.

fn main() -> anyhow::Result<()> {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        None => sente::protocol::io::run(),
        Some("bench") => std::process::exit(sente::bench::main_bench(&args[1..])),
        Some(other) => {
            anyhow::bail!("unknown subcommand '{other}' (run without arguments for the protocol)")
        }
    }
}
