#!/usr/bin/env bash
# The bench signature check (CI runs it): build the release binary, run
# `pbrain-sente bench` and compare its node count with the value recorded in
# scripts/bench-signature. A commit that changes the search updates that file
# and says so in its message (`Bench: N`); any other difference fails here.
set -euo pipefail
cd "$(dirname "$0")/.."
expected=$(tr -d '[:space:]' < scripts/bench-signature)
cargo build --release --quiet --bin pbrain-sente
actual=$(./target/release/pbrain-sente bench | awk -F: '/^Nodes searched/ { gsub(/ /, "", $2); print $2 }')
if [ -z "$actual" ]; then
  echo "bench printed no node count" >&2
  exit 1
fi
if [ "$actual" != "$expected" ]; then
  echo "bench signature $actual, recorded $expected (scripts/bench-signature):" >&2
  echo "a search change must update the file and say 'Bench: $actual' in its commit" >&2
  exit 1
fi
echo "bench signature $actual matches scripts/bench-signature"
