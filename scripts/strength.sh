#!/usr/bin/env bash
# Strength report: Sente (this checkout) against its previous release and
# against an external engine (Rapfi with its classical evaluation is the
# reference we use), on the shared opening suites at two time controls.
#
#   scripts/strength.sh
#
# Every match is a sente-arena run (engine 1 = Sente, each opening twice with
# colours swapped). Results land in $OUT: one folder per match (games.txt,
# PSQ records, the --json summary, the arena's log) and report.md, a table
# of games, W-D-L, score, Elo ± 95 %, terminations and Sente's own forfeits.
#
# Settings (environment variables, defaults in brackets):
#   BASE        previous release, a git revision [v0.6.0 = f899b58]; BASE=none skips it
#   OPPONENT    command line of the external engine [none: skipped], e.g.
#               OPPONENT=/opt/rapfi/pbrain-rapfi (Rapfi reads config.toml and
#               its classical model from the binary's folder; we never download
#               or build it: see the README's Strength section)
#   OPPONENT_NAME  its name in the results [rapfi-classical]
#   SUITES      opening files of $SHARED/openings, without .txt
#               [freestyle15 freestyle20 standard15 renju15]
#   TURNS       ms per move [500 2000]
#   MATCH       ms per game, 0 = unlimited [0]
#   GAMES       games per match [every opening twice]
#   CONCURRENCY games at once [1: the honest setting on a 2-core machine]
#   TOLERANCE [1000]  MEMORY [350M]  SHARED [<repo>/../shared]
#   TARGET_DIR  cargo target dir for the BASE build (reuse it to save time)
#   OUT         results folder [strength-<UTC date and time>]
#   QUICK=1     a smoke run: SUITES=freestyle15 TURNS=200 GAMES=4
set -euo pipefail

case "${1:-}" in -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;; esac

REPO=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/common.sh
. "$REPO/scripts/common.sh"
SHARED=${SHARED:-$(find_shared "$REPO")}
if [ "${QUICK:-0}" = 1 ]; then
  SUITES=${SUITES:-freestyle15}
  TURNS=${TURNS:-200}
  GAMES=${GAMES:-4}
fi
BASE=${BASE:-f899b58}
OPPONENT=${OPPONENT:-}
OPPONENT_NAME=${OPPONENT_NAME:-rapfi-classical}
SUITES=${SUITES:-freestyle15 freestyle20 standard15 renju15}
TURNS=${TURNS:-500 2000}
MATCH=${MATCH:-0}
GAMES=${GAMES:-}
CONCURRENCY=${CONCURRENCY:-1}
TOLERANCE=${TOLERANCE:-1000}
MEMORY=${MEMORY:-350M}
OUT=${OUT:-$PWD/strength-$(date -u +%Y%m%d-%H%M%S)}

mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
WORK=$(mktemp -d "${TMPDIR:-/tmp}/sente-strength.XXXXXX")
TARGET_DIR=${TARGET_DIR:-$WORK/target}
cleanup() {
  remove_worktrees "$REPO" "$WORK" base
  rm -rf "$WORK"
}
trap cleanup EXIT

echo "== building Sente and sente-arena from the current checkout" >&2
(cd "$REPO" && cargo build --release --quiet --bin pbrain-sente --bin sente-arena)
cp "$REPO/target/release/pbrain-sente" "$WORK/pbrain-new"
ARENA=$REPO/target/release/sente-arena
new_rev=$(git -C "$REPO" rev-parse --short=8 HEAD 2>/dev/null || echo worktree)
if ! git -C "$REPO" diff --quiet HEAD 2>/dev/null; then new_rev="$new_rev+dirty"; fi

opponents=()
if [ "$BASE" != none ]; then
  base_rev=$(git -C "$REPO" rev-parse --verify "$BASE^{commit}")
  build_rev "$REPO" "$WORK" base "$base_rev" "$TARGET_DIR" pbrain-sente
  opponents+=("sente-${base_rev:0:8}|$WORK/pbrain-base")
fi
if [ -n "$OPPONENT" ]; then
  opponents+=("$OPPONENT_NAME|$OPPONENT")
fi
if [ ${#opponents[@]} -eq 0 ]; then
  echo "strength.sh: nothing to play against (BASE=none and no OPPONENT)" >&2
  exit 2
fi

# Sente's own forfeits in a games.txt (tab-separated: game, black, white,
# result, termination, ...): games it lost other than to a five.
sente_forfeits() { # games.txt name
  awk -F'\t' -v me="$2" '
    $5 != "five" && $5 != "draw" &&
    (($4 == "0-1" && $2 == me) || ($4 == "1-0" && $3 == me)) { n++ }
    END { print n + 0 }' "$1"
}
json_field() { # file key
  grep -o "\"$2\": [-0-9.null]*" "$1" | head -1 | sed 's/.*: //'
}

report=$OUT/report.md
{
  echo "# Sente strength report"
  echo
  echo "Sente $new_rev, $(date -u +%Y-%m-%d), $(nproc) cores, concurrency $CONCURRENCY,"
  echo "tolerance $TOLERANCE ms, memory $MEMORY, game time ${MATCH} ms (0 = unlimited)."
  echo "W-D-L and score are Sente's. Forfeits: Sente's games lost to anything but a five."
  echo
  echo "| opponent | suite | ms/move | games | W-D-L | score | Elo ± 95 % | five/draw/timeout/crash/illegal/forbidden/memory | Sente forfeits |"
  echo "|---|---|---|---|---|---|---|---|---|"
} >"$report"

for opp in "${opponents[@]}"; do
  oname=${opp%%|*}
  ocmd=${opp#*|}
  for suite in $SUITES; do
    rule=$(rule_name "${suite%%[0-9]*}") || { echo "strength.sh: bad suite $suite" >&2; exit 2; }
    size=${suite##*[a-z]}
    openings=$SHARED/openings/$suite.txt
    [ -f "$openings" ] || { echo "strength.sh: no opening file $openings" >&2; exit 2; }
    for turn in $TURNS; do
      dir=$OUT/$oname-$suite-$turn
      mkdir -p "$dir"
      games_opt=()
      if [ -n "$GAMES" ]; then games_opt=(--games "$GAMES"); fi
      echo "== sente-$new_rev vs $oname, $suite, $turn ms/move" >&2
      "$ARENA" \
        --engine1 "$WORK/pbrain-new" --name1 sente \
        --engine2 "$ocmd" --name2 "$oname" \
        --rule "$rule" --size "$size" --turn "$turn" --match "$MATCH" \
        --tolerance "$TOLERANCE" --memory "$MEMORY" --openings "$openings" \
        --concurrency "$CONCURRENCY" --records "$dir" --json "$dir/result.json" \
        "${games_opt[@]}" | tee "$dir/arena.log" >&2
      j=$dir/result.json
      terms=""
      for t in five draw timeout crash illegal forbidden memory; do
        terms="$terms${terms:+/}$(json_field "$j" "$t")"
      done
      printf '| %s | %s | %s | %s | %s-%s-%s | %.1f %% | %s ± %s | %s | %s |\n' \
        "$oname" "$suite" "$turn" "$(json_field "$j" games)" \
        "$(json_field "$j" wins1)" "$(json_field "$j" draws)" "$(json_field "$j" wins2)" \
        "$(awk -v s="$(json_field "$j" score1)" 'BEGIN { print s * 100 }')" \
        "$(json_field "$j" elo)" "$(json_field "$j" elo_95)" "$terms" \
        "$(sente_forfeits "$dir/games.txt" sente)" >>"$report"
    done
  done
done
echo >&2
cat "$report"
