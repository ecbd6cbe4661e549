//! `sente-arena`: referee and match runner between two pbrain engines.

fn main() {}
