#!/usr/bin/env bash
# Self-play training data: SHARDS processes of `sente-lab datagen`, each
# playing every SHARDS-th game of one seeded run, JOBS at a time (GNU
# parallel), then merged into one record file (format: src/lab/datagen/record.rs).
#
#   scripts/datagen.sh [extra sente-lab datagen options, e.g. --random-plies 6]
#
# Game i depends only on (SEED, i): the merged file is the unsharded run,
# game for game and in the same order (the shards' lines taken in turn,
# `paste -d '\n'`), whatever JOBS, SHARDS or hosts played it. Each shard's
# games and its progress on stderr are in OUT.d/shard-K.txt and .txt.err
# (`tail -f OUT.d/*.err` to watch). For training the order does not matter:
# `cat` of shard files (or of whole runs with other seeds) is as good.
#
# Settings (environment variables, defaults in brackets):
#   RULE [freestyle]  SIZE [15]  NODES [20000] node budget a move
#   GAMES [1000] games in all  SEED [1]  OUT [datagen.txt]
#   JOBS [number of cores] processes at once (on each host)
#   SHARDS [JOBS, or 4*JOBS per host with SSHLOGIN] shards the run is cut into
#   SSHLOGIN  hosts for parallel's --sshlogin, e.g. ":,host1,8/host2" (":" is
#            this machine); the binary must be at the same path on each
#   BIN [this checkout's target/release/sente-lab, built first]
set -euo pipefail

if [ "${1:-}" = -h ] || [ "${1:-}" = --help ]; then
  sed -n '2,22p' "$0" | sed 's/^# \{0,1\}//'
  exit 0
fi
REPO=$(cd "$(dirname "$0")/.." && pwd)
RULE=${RULE:-freestyle}
SIZE=${SIZE:-15}
NODES=${NODES:-20000}
GAMES=${GAMES:-1000}
SEED=${SEED:-1}
OUT=${OUT:-datagen.txt}
JOBS=${JOBS:-$(nproc)}
SSHLOGIN=${SSHLOGIN:-}
if [ -n "$SSHLOGIN" ]; then
  HOSTS=$(tr ',' '\n' <<<"$SSHLOGIN" | grep -c .)
  SHARDS=${SHARDS:-$((4 * JOBS * HOSTS))}
else
  SHARDS=${SHARDS:-$JOBS}
fi
if [ -z "${BIN:-}" ]; then
  (cd "$REPO" && cargo build --release --quiet --bin sente-lab)
  BIN=$REPO/target/release/sente-lab
fi
PARALLEL=$("$REPO/scripts/ensure-tool.sh" parallel | awk '{print $2}')

DIR=$OUT.d
rm -rf "$DIR"
mkdir -p "$DIR"
where=()
[ -n "$SSHLOGIN" ] && where=(--sshlogin "$SSHLOGIN")
start=$(date +%s)
echo "datagen: $GAMES games, $RULE ${SIZE}x$SIZE, $NODES nodes a move, seed $SEED," \
  "$SHARDS shards, $JOBS at once${SSHLOGIN:+ on $SSHLOGIN} -> $OUT" >&2
# One job per shard; its stdout (the records) and stderr (progress) land
# in $DIR/shard-KKKK.txt and .txt.err on this machine, wherever it ran.
"$PARALLEL" -j "$JOBS" "${where[@]}" --halt now,fail=1 \
  --results "$DIR/shard-{=\$_=sprintf(\"%04d\",\$_)=}.txt" \
  "$BIN" datagen --rule "$RULE" --size "$SIZE" --nodes "$NODES" --games "$GAMES" \
  --seed "$SEED" --shard "{}/$SHARDS" "$@" ::: $(seq 1 "$SHARDS") >/dev/null
# Merge: the shards' headers first, then their games taken in turn (shard
# K holds games K-1, K-1+SHARDS, ...), which is the unsharded order.
paste -d '\n' "$DIR"/shard-????.txt | grep -v '^$' >"$OUT"
games=$(grep -vc '^#' "$OUT" || true)
positions=$(grep -v '^#' "$OUT" | cut -f5 | wc -w)
secs=$(($(date +%s) - start))
echo "datagen: $games games, $positions positions in ${secs}s -> $OUT" >&2
