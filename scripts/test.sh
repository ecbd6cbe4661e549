#!/usr/bin/env bash
# The whole test suite: unit tests, protocol transcripts, fuzz, self-play,
# arena and tactics. This is the README's test command and what CI runs.
#
# scripts/test.sh --windows [GAMES] instead builds the Windows engine and
# its archives (scripts/windows.sh) and runs the wine smoke test on it
# (scripts/wine-test.sh: bench signature, transcripts, GAMES arena games,
# default 4). It installs what it needs; about 6 minutes on a fresh 2-core
# machine, under a minute once built. Run it before a release and after
# touching anything platform-specific (process handling, I/O, huge pages,
# prefetch, threads, timing).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${1:-}" = --windows ]; then
  shift
  bash scripts/windows.sh >/dev/null
  exec bash scripts/wine-test.sh "$@"
fi
cargo test --all-targets "$@"
# The tuning build (`--features tune`: search parameters set at run time,
# scripts/SPSA.md): its parameter tests, which the release build skips.
cargo test --features tune --lib "$@" -- tunable cli::
