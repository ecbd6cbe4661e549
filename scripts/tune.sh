#!/usr/bin/env bash
# Fit the evaluation weights to self-play games.
#
#   scripts/tune.sh [extra sente-lab tune options, e.g. --no-masks or --tied]
#
# Builds this checkout, writes GAMES/2 random unbalanced openings
# (sente-lab tune --make-openings, seeded), plays them twice each with
# colours swapped, Sente against itself at TURN ms a move, and fits the
# weights to the outcomes (sente-lab tune): it prints the positions
# used, the scale K, the error on the fitting set and on one game in ten
# held out, before and after, and the fitted arrays for
# src/brain/eval/weights.rs. A fitted set is only kept after an SPRT against
# the current weights (scripts/sprt.sh).
#
# Settings (environment variables, defaults in brackets):
#   OUT [tune-data]  folder for the openings and the records (games.txt)
#   GAMES [2000]  TURN ms [120]  SEED [1]  CONCURRENCY [1]
#   RULE [0]  SIZE [15]
#   RECORDS  extra games.txt files to fit on as well (space-separated)
set -euo pipefail

if [ "${1:-}" = -h ] || [ "${1:-}" = --help ]; then
  sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//'
  exit 0
fi
REPO=$(cd "$(dirname "$0")/.." && pwd)
OUT=${OUT:-tune-data}
GAMES=${GAMES:-2000}
TURN=${TURN:-120}
SEED=${SEED:-1}
CONCURRENCY=${CONCURRENCY:-1}
RULE=${RULE:-0}
SIZE=${SIZE:-15}
RECORDS=${RECORDS:-}

(cd "$REPO" && cargo build --release --quiet)
BIN=$REPO/target/release
mkdir -p "$OUT"
"$BIN/sente-lab" tune --make-openings $(( (GAMES + 1) / 2 )) --seed "$SEED" --size "$SIZE" \
  > "$OUT/openings.txt"
"$BIN/sente-arena" --engine1 "$BIN/pbrain-sente" --name1 a --engine2 "$BIN/pbrain-sente" --name2 b \
  --rule "$RULE" --size "$SIZE" --turn "$TURN" --match 0 --tolerance 1000 \
  --openings "$OUT/openings.txt" --games "$GAMES" --concurrency "$CONCURRENCY" \
  --records "$OUT/games" > "$OUT/arena.log"
tail -n 6 "$OUT/arena.log"
# shellcheck disable=SC2086
"$BIN/sente-lab" tune --rule "$RULE" --size "$SIZE" "$@" "$OUT/games/games.txt" $RECORDS
