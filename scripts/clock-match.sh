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
# The games are played in shards of $SHARD (shard k: openings shuffled by
# seed SEED+k), so a run stopped anywhere resumes: the same command again
# skips the shards already whole and replays an unfinished one. Results
# land in $OUT: static/ and adaptive/, a folder per shard (games.txt, PSQ
# records, the --json summary with its clock report: clock left at each
# game's end, time a move by move number; the arena's log), and
# compare.txt: the adaptive plan's points per game minus the static plan's
# on the same game, with its interval, over every game both have played.
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
#   SHARD       games per shard, even [20]
#   PLANS       the plans this run plays ["static adaptive"]; one plan alone
#               lets the other be played by a second run (later, or at once)
#   SEED        opening order: shard k uses SEED+k [7201]
#   SENTE       the tuning build to use [built here into $TARGET_DIR]
#   TARGET_DIR  cargo target dir for that build [target/tune]
#   OUT         results folder [clock-<league>-<scale>-<rule>-<size>]
#   QUICK=1     a smoke run: GAMES=2, SCALE=20
set -euo pipefail

case "${1:-}" in -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;; esac

REPO=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/common.sh
. "$REPO/scripts/common.sh"
ARENA=${ARENA:-$REPO/target/release/sente-arena}

# Both plans' games of every shard, renumbered in one sequence (shard k's
# game g is (k-1)*SHARD+g), compared game by game.
compare() {
  local out=$1 shard plan
  shard=$(cat "$out/shard-size")
  for plan in static adaptive; do
    for d in "$out/$plan"/shard-*; do
      [ -f "$d/games.txt" ] || continue
      k=${d##*/shard-}
      awk -F'\t' -v OFS='\t' -v off=$(( (10#$k - 1) * shard )) '{ $1 = $1 + off; print }' "$d/games.txt"
    done > "$out/$plan.games.txt"
  done
  {
    "$ARENA" --compare "$out/static.games.txt" "$out/adaptive.games.txt" --name sente
    for plan in static adaptive; do
      echo "$plan: Sente's clock left at the end (s): $(clock_left "$out/$plan")"
    done
  } | tee "$out/compare.txt"
}

# Sente's clock left at each game's end over a plan's shards: min, quartiles, max.
clock_left() {
  cat "$1"/shard-*/match.json 2>/dev/null \
    | grep -o '"engine1": {"left_ms": \[[^]]*\]' | sed 's/.*\[//; s/\]//' | tr ',' '\n' \
    | sort -n | awk 'NF { v[++n] = $1 / 1000 } END {
        if (n == 0) { print "no games"; exit }
        printf "%.1f / %.1f / %.1f / %.1f / %.1f (%d games)\n", v[1], v[int((n + 3) / 4)], v[int((n + 1) / 2)], v[int((3 * n + 1) / 4)], v[n], n
      }'
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
SHARD=${SHARD:-20}
if [ $(( SHARD % 2 )) != 0 ]; then echo "SHARD must be even (colour-swapped pairs)" >&2; exit 2; fi
SEED=${SEED:-7201}
TARGET_DIR=${TARGET_DIR:-$REPO/target/tune}
OUT=${OUT:-$PWD/clock-$LEAGUE-$SCALE-$(rule_name "$RULE")-$SIZE}

mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
if [ -f "$OUT/shard-size" ] && [ "$(cat "$OUT/shard-size")" != "$SHARD" ]; then
  echo "$OUT was played in shards of $(cat "$OUT/shard-size"), not $SHARD" >&2
  exit 2
fi
echo "$SHARD" > "$OUT/shard-size"
if [ -z "${SENTE:-}" ]; then
  echo "== building the tuning build into $TARGET_DIR" >&2
  (cd "$REPO" && CARGO_TARGET_DIR=$TARGET_DIR cargo build --release --quiet --features tune --bin pbrain-sente)
  cp "$TARGET_DIR/release/pbrain-sente" "$OUT/sente-tune"
  SENTE=$OUT/sente-tune
fi
[ -x "$ARENA" ] || (cd "$REPO" && cargo build --release --quiet --bin sente-arena)

SHARDS=$(( (GAMES + SHARD - 1) / SHARD ))
echo "== $LEAGUE / $SCALE, rule $RULE, ${SIZE}x$SIZE, $GAMES games a plan in $SHARDS shards, seed $SEED -> $OUT" >&2

# One plan's shards, in order; a whole shard is kept, a partial one replayed.
play() {
  local plan=$1 m=$2 k dir n
  for k in $(seq 1 "$SHARDS"); do
    dir=$OUT/$plan/shard-$(printf %03d "$k")
    n=$SHARD
    [ "$k" = "$SHARDS" ] && n=$(( GAMES - (SHARDS - 1) * SHARD ))
    if [ -f "$dir/done" ]; then continue; fi
    rm -rf "$dir"
    mkdir -p "$dir"
    "$ARENA" --engine1 "$SENTE --param TIME_ADAPTIVE=$m" --name1 sente \
      --engine2 "$OPPONENT" --name2 opponent --league "$LEAGUE" --clock-scale "$SCALE" \
      --rule "$RULE" --size "$SIZE" --openings "$SUITE" --games "$n" --seed $(( SEED + k )) \
      --concurrency 1 --records "$dir" --json "$dir/match.json" > "$dir/arena.log" 2>&1 || return 1
    touch "$dir/done"
    echo "$plan: shard $k/$SHARDS done" >&2
  done
}

pids=()
for plan in ${PLANS:-static adaptive}; do
  case $plan in
    static) play static 0 & pids+=($!) ;;
    adaptive) play adaptive 1 & pids+=($!) ;;
    *) echo "unknown plan $plan (static, adaptive)" >&2; exit 2 ;;
  esac
done
status=0
for p in "${pids[@]}"; do wait "$p" || status=1; done
compare "$OUT"
exit $status
