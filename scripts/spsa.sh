#!/usr/bin/env bash
# SPSA tuning of search parameters with GNU parallel (scripts/SPSA.md):
# each iteration's game pairs are cut into SHARDS shares played at once
# (`sente-arena spsa --shard K/SHARDS --out PART`, on this machine or over
# SSHLOGIN's hosts), then `sente-arena spsa step` merges them into the
# update and the state file; until the schedule's last iteration. Stopped,
# it goes on from the state file's last finished iteration when run again.
#
#   scripts/spsa.sh [extra sente-arena game options, e.g. --rule 4]
#
# Settings (environment variables, defaults in brackets):
#   PARAMS    the params file (a new run only)    STATE [spsa-state.txt]
#   ITERS [100] iterations   PAIRS [16] game pairs per iteration   SEED [1]
#   TURN [1000] ms a move (the limit)   NODES  a node budget a move for the
#            tuned engine (INFO max_node) [none: the time limit]
#   OPPONENT  a fixed opponent's command (θ+ and θ− each play it) [self-play]
#   OPPONENT_NODES  a node budget a move for the opponent [its time limit]
#   SHARDS [number of cores, at most PAIRS] shares of an iteration, run at once
#   SSHLOGIN  hosts for parallel's --sshlogin, e.g. ":,8/host1" (":" is this
#            machine); each host sees this checkout, its binaries and the
#            state file's folder at the same paths (a shared file system)
#   ENGINE [this checkout's tuning build, built first:
#           target/tune/release/pbrain-sente]   ARENA [target/release/sente-arena]
set -euo pipefail

if [ "${1:-}" = -h ] || [ "${1:-}" = --help ]; then
  sed -n '2,24p' "$0" | sed 's/^# \{0,1\}//'
  exit 0
fi
REPO=$(cd "$(dirname "$0")/.." && pwd)
STATE=$(realpath -m "${STATE:-spsa-state.txt}")
ITERS=${ITERS:-100}
PAIRS=${PAIRS:-16}
SEED=${SEED:-1}
TURN=${TURN:-1000}
SHARDS=${SHARDS:-$(nproc)}
[ "$SHARDS" -gt "$PAIRS" ] && SHARDS=$PAIRS
SSHLOGIN=${SSHLOGIN:-}
if [ -z "${ENGINE:-}" ]; then
  (cd "$REPO" && cargo build --release --quiet --features tune --target-dir target/tune --bin pbrain-sente)
  ENGINE=$REPO/target/tune/release/pbrain-sente
fi
if [ -z "${ARENA:-}" ]; then
  (cd "$REPO" && cargo build --release --quiet --bin sente-arena)
  ARENA=$REPO/target/release/sente-arena
fi
PARALLEL=$("$REPO/scripts/ensure-tool.sh" parallel | awk '{print $2}')

game=(--engine "$ENGINE" --turn "$TURN" ${NODES:+--nodes "$NODES"} ${OPPONENT:+--opponent "$OPPONENT"} ${OPPONENT_NODES:+--opponent-nodes "$OPPONENT_NODES"} "$@")
if [ ! -f "$STATE" ]; then
  [ -n "${PARAMS:-}" ] || { echo "spsa.sh: a new run needs PARAMS=FILE" >&2; exit 2; }
  "$ARENA" spsa --state "$STATE" --params "$PARAMS" --iters "$ITERS" \
    --pairs-per-iter "$PAIRS" --seed "$SEED" --stop-after 0 "${game[@]}"
fi
DIR=$STATE.parts
where=()
[ -n "$SSHLOGIN" ] && where=(--sshlogin "$SSHLOGIN" --workdir "$DIR")
mkdir -p "$DIR"
# Iterations played and planned, from the state file.
done_iters() { grep -c '^iter ' "$STATE" || true; }
planned=$(awk '$1 == "iters" { print $2 }' "$STATE")
played=0
while [ "$(done_iters)" -lt "$planned" ]; do
  rm -f "$DIR"/part-*.txt
  # One job per shard; a shard that fails stops the run before the step.
  "$PARALLEL" -q -j "$SHARDS" "${where[@]}" --halt now,fail=1 \
    "$ARENA" spsa --state "$STATE" --shard {}/"$SHARDS" --out "$DIR"/part-{}.txt \
    --concurrency 1 "${game[@]}" ::: $(seq "$SHARDS")
  # The step prints the iteration's line, and the report after the last.
  "$ARENA" spsa step --state "$STATE" "$DIR"/part-*.txt
  played=1
done
[ "$played" = 1 ] || "$ARENA" spsa --state "$STATE" --print
