#!/usr/bin/env bash
# The strength ladder: Sente's INFO strength levels rated against fixed
# references in one round robin (sente-arena), ratings fitted jointly
# (Bradley–Terry, the tournament code), anchored on the random mover at 0.
# The README's strength-level table comes from this script's report.
#
#   scripts/strength-ladder.sh
#
# Engines: the levels in $LEVELS (INFO strength N; 100 is full strength),
# plus the references: the built-in random mover, Sente capped at depth 1, 2
# and 4 (INFO max_depth). Every pairing plays $GAMES games (colour-swapped
# openings of the shared suite for the rule), so each level meets the other
# nine engines: 9 × $GAMES games a level.
#
# Settings (environment variables, defaults in brackets):
#   LEVELS       [0 20 40 60 80 100]
#   GAMES        games per pairing [12]
#   TURN         ms per move for every engine [100]
#   RULE         [0]   CONCURRENCY [2]   TOLERANCE [2000]
#   ENGINE       the engine [target/release/pbrain-sente, built if missing]
#   OUT          results folder [ladder-<UTC date and time>]: ladder.json,
#                ladder.html, the arena's log (crosstable and ratings)
set -euo pipefail

case "${1:-}" in -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;; esac

REPO=$(cd "$(dirname "$0")/.." && pwd)
LEVELS=${LEVELS:-0 20 40 60 80 100}
GAMES=${GAMES:-12}
TURN=${TURN:-100}
RULE=${RULE:-0}
CONCURRENCY=${CONCURRENCY:-2}
TOLERANCE=${TOLERANCE:-2000}
OUT=${OUT:-$PWD/ladder-$(date -u +%Y%m%d-%H%M%S)}
if [ -z "${ENGINE:-}" ]; then
  (cd "$REPO" && cargo build --release --quiet --bin pbrain-sente --bin sente-arena)
  ENGINE=$REPO/target/release/pbrain-sente
fi
ARENA=$REPO/target/release/sente-arena
[ -x "$ARENA" ] || (cd "$REPO" && cargo build --release --quiet --bin sente-arena)
mkdir -p "$OUT"

args=(--engine "random=$ARENA --fake-engine random")
for d in 1 2 4; do
  args+=(--engine "depth$d=$ENGINE" --option "depth$d:max_depth=$d")
done
for l in $LEVELS; do
  args+=(--engine "level$l=$ENGINE" --option "level$l:strength=$l")
done

"$ARENA" "${args[@]}" --rule "$RULE" --turn "$TURN" --games "$GAMES" \
  --concurrency "$CONCURRENCY" --tolerance "$TOLERANCE" --anchor random \
  --json "$OUT/ladder.json" --html "$OUT/ladder.html" 2>"$OUT/progress.log" | tee "$OUT/ladder.log"
