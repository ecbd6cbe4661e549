#!/usr/bin/env bash
# Tactics report for the threat solver (src/brain/search/threat/), release build:
# the tactics suite (solve rate, median and 90th-percentile time per position,
# false claims, nodes/s, positions per category), then the speed figures
# (19-four ladder VCF, VCF/VCT node rates per rule, VCTs of 8+ threats).
# Usage: scripts/tactics.sh [--quick]   (--quick: the suite only)
set -euo pipefail
cd "$(dirname "$0")/.."
cargo test --release --quiet --test tactics -- --nocapture 2>&1 | grep -E '^tactics|test result|panicked'
if [[ "${1:-}" != "--quick" ]]; then
    cargo build --release --quiet
    ./target/release/pbrain-sente bench threats
fi
