#!/usr/bin/env bash
# Train the evaluation network (src/brain/eval/net/) from a seed and a data
# command: self-play records from scripts/datagen.sh (or existing record
# files), then `sente-lab tune net`, whose report (train and held-out
# loss, the classical evaluation's loss on the same held-out positions,
# positions/s) goes to stdout and OUT.log, and whose last line names the
# weights file and its FNV-1a 64 hash.
#
#   scripts/train-net.sh [extra sente-lab tune net options, e.g. --epochs 40 --quiet-only]
#
# The recipe is reproducible: the records depend only on (RULE, SIZE, NODES,
# GAMES, SEED) (scripts/datagen.sh), the held-out games on --split-seed [1],
# the initial weights and the batches on TSEED; THREADS changes nothing.
# Copy the weights to src/brain/eval/net/weights/freestyle.bin to embed them.
#
# Settings (environment variables, defaults in brackets):
#   RECORDS  existing record files (space-separated): no datagen
#   RULE [freestyle]  SIZE [15]  NODES [20000]  GAMES [1000]  SEED [1]
#            scripts/datagen.sh's settings (JOBS, SHARDS, SSHLOGIN too)
#   DATA [net-data/RULE-NODES-GAMES-SEED.txt]  where datagen writes
#   OUT [net.bin]  the weights; the report goes to OUT.log
#   TSEED [1]  the trainer's seed (initial weights, batches)   THREADS [all cores]
set -euo pipefail

if [ "${1:-}" = -h ] || [ "${1:-}" = --help ]; then
  sed -n '2,22p' "$0" | sed 's/^# \{0,1\}//'
  exit 0
fi
REPO=$(cd "$(dirname "$0")/.." && pwd)
RULE=${RULE:-freestyle}
NODES=${NODES:-20000}
GAMES=${GAMES:-1000}
SEED=${SEED:-1}
OUT=${OUT:-net.bin}
TSEED=${TSEED:-1}
THREADS=${THREADS:-$(nproc)}
(cd "$REPO" && cargo build --release --quiet --bin sente-lab)
BIN=$REPO/target/release/sente-lab

if [ -z "${RECORDS:-}" ]; then
  DATA=${DATA:-net-data/$RULE-$NODES-$GAMES-$SEED.txt}
  mkdir -p "$(dirname "$DATA")"
  if [ ! -s "$DATA" ]; then
    RULE=$RULE NODES=$NODES GAMES=$GAMES SEED=$SEED OUT=$DATA BIN=$BIN \
      bash "$REPO/scripts/datagen.sh"
  else
    echo "train-net: using the existing $DATA" >&2
  fi
  RECORDS=$DATA
fi
# shellcheck disable=SC2086 # RECORDS is a list of files
"$BIN" tune net --rule "$RULE" --seed "$TSEED" --threads "$THREADS" --out "$OUT" "$@" $RECORDS |
  tee "$OUT.log"
