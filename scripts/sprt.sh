#!/usr/bin/env bash
# SPRT between two git revisions of Sente.
#
#   scripts/sprt.sh BASE NEW [extra sente-arena options]
#
# Builds pbrain-sente at BASE and at NEW side by side (git worktrees in a
# temporary directory, cargo build --release), builds sente-arena from the
# current checkout, and runs an SPRT of NEW (engine 1) against BASE
# (engine 2) at a fast time control from the default opening suite. The
# arena prints one line per game and a summary; the exit status is 0 when
# the test finished (passed or failed) and the JSON lands in $JSON.
#
# Settings (environment variables, defaults in brackets):
#   SHARED       folder holding openings/        [<repo>/../shared, or beside an ancestor]
#   OPENINGS     opening file                    [$SHARED/openings/<rule><size>.txt]
#   RULE [0]  SIZE [15]  TURN ms [200]  MATCH ms [10000]  TOLERANCE ms [300]
#   MEMORY [350M]  ELO0 [0]  ELO1 [10]  ALPHA [0.05]  BETA [0.05]
#   CONCURRENCY [1]  GAMES (cap; default: until the SPRT decides)
#   JSON [sprt-BASE-NEW.json in the current directory]
#   TARGET_DIR   cargo target dir for the two builds (reuse it to save time)
#   BIN [pbrain-sente]  binary built at each revision; BIN_ARGS its arguments
#                (e.g. BIN=sente-arena BIN_ARGS="--fake-engine search" pits the
#                library search of the two revisions without the protocol layer)
#   KEEP=1       keep the temporary directory
set -euo pipefail

if [ $# -lt 2 ]; then
  sed -n '2,24p' "$0" | sed 's/^# \{0,1\}//'
  exit 2
fi
BASE=$1
NEW=$2
shift 2

REPO=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/common.sh
. "$REPO/scripts/common.sh"
SHARED=${SHARED:-$(find_shared "$REPO")}
RULE=${RULE:-0}
SIZE=${SIZE:-15}
TURN=${TURN:-200}
MATCH=${MATCH:-10000}
TOLERANCE=${TOLERANCE:-300}
MEMORY=${MEMORY:-350M}
ELO0=${ELO0:-0}
ELO1=${ELO1:-10}
ALPHA=${ALPHA:-0.05}
BETA=${BETA:-0.05}
CONCURRENCY=${CONCURRENCY:-1}
BIN=${BIN:-pbrain-sente}
BIN_ARGS=${BIN_ARGS:-}

RULE_NAME=$(rule_name "$RULE") || { echo "sprt.sh: unknown RULE $RULE" >&2; exit 2; }
OPENINGS=${OPENINGS:-$SHARED/openings/$RULE_NAME$SIZE.txt}
if [ ! -f "$OPENINGS" ]; then
  echo "sprt.sh: no opening file $OPENINGS (set SHARED or OPENINGS)" >&2
  exit 2
fi

base_rev=$(git -C "$REPO" rev-parse --verify "$BASE^{commit}")
new_rev=$(git -C "$REPO" rev-parse --verify "$NEW^{commit}")
JSON=${JSON:-$PWD/sprt-${base_rev:0:8}-${new_rev:0:8}.json}

WORK=$(mktemp -d "${TMPDIR:-/tmp}/sente-sprt.XXXXXX")
TARGET_DIR=${TARGET_DIR:-$WORK/target}
cleanup() {
  remove_worktrees "$REPO" "$WORK" base new
  if [ "${KEEP:-0}" != 1 ]; then rm -rf "$WORK"; else echo "kept $WORK" >&2; fi
}
trap cleanup EXIT

build_rev "$REPO" "$WORK" base "$base_rev" "$TARGET_DIR" "$BIN"
build_rev "$REPO" "$WORK" new "$new_rev" "$TARGET_DIR" "$BIN"

echo "== building sente-arena from the current checkout" >&2
(cd "$REPO" && cargo build --release --quiet --bin sente-arena)
ARENA=$REPO/target/release/sente-arena

games_opt=()
if [ -n "${GAMES:-}" ]; then games_opt=(--games "$GAMES"); fi

echo "== SPRT new ${new_rev:0:8} vs base ${base_rev:0:8}: elo0 $ELO0 elo1 $ELO1 alpha $ALPHA beta $BETA, turn $TURN ms, game $MATCH ms, $OPENINGS" >&2
"$ARENA" \
  --engine1 "$WORK/pbrain-new $BIN_ARGS" --name1 "new-${new_rev:0:8}" \
  --engine2 "$WORK/pbrain-base $BIN_ARGS" --name2 "base-${base_rev:0:8}" \
  --rule "$RULE" --size "$SIZE" --turn "$TURN" --match "$MATCH" --tolerance "$TOLERANCE" \
  --memory "$MEMORY" --openings "$OPENINGS" --concurrency "$CONCURRENCY" \
  --sprt "$ELO0,$ELO1" --alpha "$ALPHA" --beta "$BETA" --json "$JSON" \
  "${games_opt[@]}" "$@"
echo "== JSON: $JSON" >&2
