#!/usr/bin/env bash
# The bench: build the release engine and run `pbrain-sente bench`, which
# prints the signature (the total node count of 26 fixed searches) and the
# speed.
#
#   scripts/bench.sh [DEPTH | time MS | eval | …]   pbrain-sente bench ARGS
#   scripts/bench.sh --check    the signature check CI runs: the node count
#                               must equal scripts/bench-signature
#
# A commit that changes the search updates scripts/bench-signature and says
# so in its message (`Bench: N`); any other difference fails the check.
set -euo pipefail
cd "$(dirname "$0")/.."
case "${1:-}" in
  -h|--help) sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
esac
if [ "${1:-}" != --check ]; then
  cargo build --release --quiet
  exec ./target/release/pbrain-sente bench "$@"
fi
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
