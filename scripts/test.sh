#!/usr/bin/env bash
# The whole test suite: unit tests, protocol transcripts, fuzz, self-play,
# arena and tactics. This is the README's test command and what CI runs.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo test --all-targets "$@"
