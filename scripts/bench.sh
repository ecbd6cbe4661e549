#!/usr/bin/env bash
# Build the release binary and print the bench signature and speed.
# Usage: scripts/bench.sh [DEPTH | time MS | eval]
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
exec ./target/release/pbrain-sente bench "$@"
