#!/usr/bin/env bash
# The strength ladder: Sente's INFO strength levels, adjacent levels head to
# head (sente-arena, two engines a match: 0 against 20, 20 against 40, ...),
# each pair's Elo difference with its 95 % interval, and the cumulative scale
# from the lowest level. The README's strength-level table comes from its report.
#
#   scripts/strength-ladder.sh
#   ANCHOR=0 LEVELS="80 100" SHARDS=4 scripts/strength-ladder.sh   # one pair, 40 games at a time
#
# Every pair plays $GAMES games of the shared suite for the rule, each opening
# with both colours, in $SHARDS shares (sente-arena --shard); after each share
# the pair's difference is computed from all its games so far, and the pair
# stops as soon as its interval excludes 0 (levels that still overlap after
# every share do not separate: merge them, drop one from LEVELS, and pair its
# neighbours). The difference and interval are the higher level's score over
# colour-swapped pairs of games (the two games of one opening), as logistic Elo
# with a 95 % interval from the pair scores' spread. The cumulative scale adds
# the pairs' differences up from the lowest level (intervals added in
# quadrature). Low levels, whose depth cap ends a search before the clock does,
# play the same game again from the same opening and colour: a second round of
# the suite adds little there.
#
# Settings (environment variables, defaults in brackets):
#   LEVELS       [0 20 40 60 80 100] ascending; adjacent ones are paired
#   TURN         ms per move for every engine [1000: a GUI's game against a person]
#   GAMES        games per pair, even [160: the freestyle 15x15 suite's 80 openings twice]
#   SHARDS       shares a pair is played in, stopping once it separates [1]
#   MIN_SHARDS   shares played before the stop applies (narrower intervals) [1]
#   ANCHOR       1: the lowest level also plays the random mover, the scale's zero [1]
#   SEED         the opening order (sente-arena --seed) [69]
#   RULE         [0]   CONCURRENCY [1]   TOLERANCE [2000]
#   ENGINE       the engine [target/release/pbrain-sente, built if missing]
#   ARENA        the referee [target/release/sente-arena, built if missing]
#   OUT          results folder [ladder-<UTC date and time>]: one folder per pair
#                (the arena's JSON, log and game records of each share) and
#                ladder.txt, the report
set -euo pipefail

case "${1:-}" in -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;; esac

REPO=$(cd "$(dirname "$0")/.." && pwd)
LEVELS=${LEVELS:-0 20 40 60 80 100}
TURN=${TURN:-1000}
GAMES=${GAMES:-160}
SHARDS=${SHARDS:-1}
MIN_SHARDS=${MIN_SHARDS:-1}
ANCHOR=${ANCHOR:-1}
SEED=${SEED:-69}
RULE=${RULE:-0}
CONCURRENCY=${CONCURRENCY:-1}
TOLERANCE=${TOLERANCE:-2000}
OUT=${OUT:-$PWD/ladder-$(date -u +%Y%m%d-%H%M%S)}
if [ -z "${ENGINE:-}" ]; then
  (cd "$REPO" && cargo build --release --quiet --bin pbrain-sente)
  ENGINE=$REPO/target/release/pbrain-sente
fi
if [ -z "${ARENA:-}" ]; then
  ARENA=$REPO/target/release/sente-arena
  [ -x "$ARENA" ] || (cd "$REPO" && cargo build --release --quiet --bin sente-arena)
fi
mkdir -p "$OUT"
report() { echo "$*" | tee -a "$OUT/ladder.txt"; }

# The higher engine's W-D-L, pair count, pentanomial, score and Elo ± 95 % over
# the games.txt files given; the last line is "elo half-width" (or "inf inf").
pair_elo() {
  awk -v hi="$1" 'BEGIN { FS = "\t" }
    FNR == 1 { f++ }
    {
      split($8, mv, " "); key = f; for (i = 1; i <= $6; i++) key = key " " mv[i]
      if ($4 == "1-0") p = ($2 == hi); else if ($4 == "0-1") p = ($3 == hi); else p = 0.5
      if (p == 1) w++; else if (p == 0) l++; else d++
      sum[key] += p; cnt[key]++
    }
    END {
      for (k in sum) if (cnt[k] == 2) { s = sum[k] / 2; pen[sum[k] * 2]++; n++; m += s; ss += s * s }
      if (n == 0) { print "no complete pair"; print "inf inf"; exit }
      m /= n; var = ss / n - m * m; se = sqrt(var / n)
      if (m <= 0 || m >= 1) { e = "inf"; h = "inf"; shown = (m >= 1 ? "+inf" : "-inf") }
      else {
        e = -400 * log(1 / m - 1) / log(10); if (e > -0.5 && e < 0.5) e = 0; h = 1.96 * se * 400 / log(10) / (m * (1 - m))
        shown = sprintf("%+.0f ± %.0f", e, h)
      }
      printf "%d games, W-D-L %d-%d-%d, pairs %d (pentanomial %d/%d/%d/%d/%d), score %.1f %%, Elo %s\n",
        w + d + l, w, d, l, n, pen[0], pen[1], pen[2], pen[3], pen[4], 100 * (w + d / 2) / (w + d + l), shown
      print e, h
    }' "${@:2}"
}

# play_pair HI DIR ARENA-ENGINE-ARGS...: one pair in shares, HI the higher engine's name.
play_pair() {
  local hiname=$1 dir=$2 k result line
  shift 2
  mkdir -p "$dir"
  for k in $(seq 1 "$SHARDS"); do
    "$ARENA" "$@" --rule "$RULE" --turn "$TURN" --tolerance "$TOLERANCE" --games "$GAMES" \
      --shard "$k/$SHARDS" --concurrency "$CONCURRENCY" --seed "$SEED" \
      --json "$dir/share$k.json" --records "$dir/share$k" \
      >"$dir/share$k.log" 2>"$dir/share$k.progress"
    result=$(pair_elo "$hiname" "$dir"/share*/games.txt)
    line=$(echo "$result" | tail -n 1)
    report "  after share $k/$SHARDS: $(echo "$result" | head -n 1)"
    read -r e h <<<"$line"
    [ "$k" -ge "$MIN_SHARDS" ] || continue
    if [ "$e" = inf ] || awk -v e="$e" -v h="$h" 'BEGIN { exit !(e - h > 0 || e + h < 0) }'; then
      echo "$line" >"$dir/elo"; return
    fi
  done
  echo "$line" >"$dir/elo"
  report "  no separation in $GAMES games: merge the two levels (drop one from LEVELS)"
}

report "strength ladder: levels $LEVELS, rule $RULE, $TURN ms a move, up to $GAMES games a pair in $SHARDS share(s), seed $SEED"
report "engine $ENGINE"
set -- $LEVELS
if [ "$ANCHOR" = 1 ]; then
  report "level $1 against the random mover:"
  play_pair "level$1" "$OUT/random-$1" \
    --engine "random=$ARENA --fake-engine random" \
    --engine "level$1=$ENGINE" --option "level$1:strength=$1"
fi
prev=$1; shift
for l in "$@"; do
  report "level $prev against level $l:"
  play_pair "level$l" "$OUT/$prev-$l" \
    --engine "level$prev=$ENGINE" --option "level$prev:strength=$prev" \
    --engine "level$l=$ENGINE" --option "level$l:strength=$l"
  prev=$l
done

report "cumulative scale (the lowest level = 0; Elo ± 95 %):"
set -- $LEVELS
total=0; var=0
report "  level $1: 0"
prev=$1; shift
for l in "$@"; do
  read -r e h <"$OUT/$prev-$l/elo"
  if [ "$e" = inf ]; then total=inf; fi
  if [ "$total" = inf ]; then report "  level $l: no finite difference (a pair scored 100 %)"
  else
    read -r total var <<<"$(awk -v t="$total" -v v="$var" -v e="$e" -v h="$h" 'BEGIN { print t + e, v + h * h }')"
    report "  level $l: $(awk -v t="$total" -v v="$var" 'BEGIN { printf "%+.0f ± %.0f", t, sqrt(v) }')"
  fi
  prev=$l
done
