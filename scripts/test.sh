#!/usr/bin/env bash
# The whole test suite: unit tests, protocol transcripts, fuzz, self-play,
# arena and tactics. This is the README's test command and what CI runs;
# extra arguments go to cargo test. The Windows build's smoke test under
# wine is `scripts/windows.sh --test` (scripts/WINDOWS.md).
set -euo pipefail
cd "$(dirname "$0")/.."
cargo test --all-targets "$@"
# The tuning build (`--features tune`: search parameters set at run time,
# scripts/SPSA.md): its parameter tests, which the release build skips.
cargo test --features tune --lib "$@" -- tunable cli::
