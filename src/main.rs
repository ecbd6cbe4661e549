//! `pbrain-sente`: the Gomocup brain binary. Thin: logging to stderr, then the
//! protocol loop (default) or a subcommand.

fn main() {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
}
