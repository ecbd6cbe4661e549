#!/usr/bin/env bash
# Clock match: the static time plan against the adaptive one (issue 72),
# each against the same opponent under a Gomocup league's game clock, on
# the same openings, seed and schedule, paired game by game.
#
#   OPPONENT=/path/to/pbrain-rapfi bash scripts/clock-match.sh
#   bash scripts/clock-match.sh --compare OUT    # the paired verdict again
#
# The two plans are one tuning build of this checkout (`--features tune`)
# run with `--param TIME_ADAPTIVE=0` and `=1`; both matches run at the same
# time, one game at a time each, so load falls on both plans alike (a
# two-core machine is then full: two engines think at once, never more).
# Results land in $OUT: static/ and adaptive/ (games.txt, PSQ records), the
# --json summaries with their clock report (clock left at each game's end,
# time a move by move number), the arena logs, and compare.txt: the
# adaptive plan's points per game minus the static plan's on the same game,
# with its interval.
#
# Settings (environment variables, defaults in brackets):
#   OPPONENT    command line of the opponent [required], e.g. Rapfi with its
#               classical evaluation (see the README's "Rapfi for sparring")
#   LEAGUE      fastgame | lower | final [fastgame]
#   SCALE       both limits divided by this [4: 1.25 s a move, 30 s a game]
#   RULE        0 freestyle, 1 standard, 4 renju, 8 caro [0]
#   SIZE        15 or 20 [15]
#   SUITE       opening file [$SHARED/openings/<rule><size>.txt]
#   GAMES       games per plan [200]
#   SEED        opening order [7201]
#   SENTE       the tuning build to use [built here into $TARGET_DIR]
#   TARGET_DIR  cargo target dir for that build [target/tune]
#   OUT         results folder [clock-<league>-<scale>-<UTC date and time>]
#   QUICK=1     a smoke run: GAMES=2, SCALE=20
set -euo pipefail

case "${1:-}" in -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;; esac

REPO=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/common.sh
. "$REPO/scripts/common.sh"
ARENA=${ARENA:-$REPO/target/release/sente-arena}

compare() {
  local out=$1
  "$ARENA" --compare "$out/static/games.txt" "$out/adaptive/games.txt" --name sente | tee "$out/compare.txt"
}

if [ "${1:-}" = --compare ]; then
  compare "${2:?usage: clock-match.sh --compare OUT}"
  exit 0
fi

SHARED=${SHARED:-$(find_shared "$REPO")}
if [ "${QUICK:-0}" = 1 ]; then
  GAMES=${GAMES:-2}
  SCALE=${SCALE:-20}
fi
OPPONENT=${OPPONENT:?set OPPONENT to the opponent engine command line}
LEAGUE=${LEAGUE:-fastgame}
SCALE=${SCALE:-4}
RULE=${RULE:-0}
SIZE=${SIZE:-15}
SUITE=${SUITE:-$SHARED/openings/$(rule_name "$RULE")$SIZE.txt}
GAMES=${GAMES:-200}
SEED=${SEED:-7201}
TARGET_DIR=${TARGET_DIR:-$REPO/target/tune}
OUT=${OUT:-$PWD/clock-$LEAGUE-$SCALE-$(date -u +%Y%m%d-%H%M%S)}

mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
if [ -z "${SENTE:-}" ]; then
  echo "== building the tuning build into $TARGET_DIR" >&2
  (cd "$REPO" && CARGO_TARGET_DIR=$TARGET_DIR cargo build --release --quiet --features tune --bin pbrain-sente)
  cp "$TARGET_DIR/release/pbrain-sente" "$OUT/sente-tune"
  SENTE=$OUT/sente-tune
fi
[ -x "$ARENA" ] || (cd "$REPO" && cargo build --release --quiet --bin sente-arena)

echo "== $LEAGUE / $SCALE, rule $RULE, ${SIZE}x$SIZE, $GAMES games a plan, seed $SEED -> $OUT" >&2
pids=()
for plan in static adaptive; do
  m=0
  [ "$plan" = adaptive ] && m=1
  "$ARENA" --engine1 "$SENTE --param TIME_ADAPTIVE=$m" --name1 sente \
    --engine2 "$OPPONENT" --name2 opponent --league "$LEAGUE" --clock-scale "$SCALE" \
    --rule "$RULE" --size "$SIZE" --openings "$SUITE" --games "$GAMES" --seed "$SEED" \
    --concurrency 1 --records "$OUT/$plan" --json "$OUT/$plan.json" > "$OUT/$plan.log" 2>&1 &
  pids+=($!)
done
status=0
for p in "${pids[@]}"; do wait "$p" || status=1; done
tail -n 3 "$OUT/static.log" "$OUT/adaptive.log"
compare "$OUT"
exit $status
