#!/usr/bin/env bash
# Rebuild an embedded net from nothing but the repository and the seeds:
# its recipe in scripts/nets.txt names the commit that played the data, the
# datagen runs, the starting weights and the trainer's options, and the
# weights' fnv1a64; this script runs it and checks the hash.
#
#   scripts/net-recipe.sh NAME      rebuild net NAME (freestyle, renju, …)
#   scripts/net-recipe.sh --list    the recipes and their hashes
#
# It builds the recipe's commit in a worktree (WORK/build-REV; the binary
# is kept for the next run), plays the data runs JOBS at a time (a data
# file already in WORK with all its games is kept), trains, prints
# `NAME: fnv1a64 H: ok`
# (status 0) or `… expected E: MISMATCH` (status 1). The freestyle net is
# about 50,000 games (~1 h 10 on two idle cores) and 10 minutes of
# training; renju's 9,167 games and 2 minutes.
#
# The binary that plays and trains is the recipe's commit's laboratory:
# `sente-lab` where that commit has src/bin/sente-lab.rs, else
# `pbrain-sente`, which carried `datagen` and `tune net` until 0.9.0 (every
# recipe in nets.txt so far predates sente-lab). Both take the same words
# after their name (`datagen ARGS`, `tune net ARGS`), so only the binary
# differs; it is kept as WORK/pbrain-REV or WORK/lab-REV.
#
# Settings (environment variables, defaults in brackets):
#   WORK [net-recipe]  data, binaries and the weights (WORK/NAME.bin)
#   JOBS [number of cores]  data runs at once
#   BIN   use this binary instead of building the recipe's commit: a
#         sente-lab, or a pbrain-sente from before sente-lab (0.9.0)
#   PREFIX  play only the first PREFIX games of each run's shard (into
#         WORK/prefix-P/) and stop before training: a quick check that the
#         data still comes out the same. With COMPARE=DIR each file is
#         compared with the start of the same-named file in DIR.
#   EMBED [0]  1: copy the weights to the recipe's embed path when they match
#   RECIPES [scripts/nets.txt]
set -euo pipefail

if [ "${1:-}" = -h ] || [ "${1:-}" = --help ] || [ $# -ne 1 ]; then
  sed -n '2,35p' "$0" | sed 's/^# \{0,1\}//'
  [ $# -eq 1 ] && exit 0
  exit 2
fi
REPO=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/common.sh
source "$REPO/scripts/common.sh"
RECIPES=${RECIPES:-$REPO/scripts/nets.txt}
WORK=${WORK:-net-recipe}
JOBS=${JOBS:-$(nproc)}
EMBED=${EMBED:-0}

# The lines of recipe $1 (comments and blank lines dropped), keyword first.
recipe() {
  awk -v want="$1" '
    /^[ \t]*(#|$)/ { next }
    $1 == "net" { inside = ($2 == want); next }
    inside { sub(/^[ \t]+/, ""); print }' "$RECIPES"
}

if [ "$1" = --list ]; then
  for name in $(awk '$1 == "net" { print $2 }' "$RECIPES"); do
    printf '%-12s %s\n' "$name" "$(recipe "$name" | awk '$1 == "expect" { print $2 }')"
  done
  exit 0
fi
NAME=$1
LINES=$(recipe "$NAME")
if [ -z "$LINES" ]; then
  echo "net-recipe: no recipe named $NAME in $RECIPES (--list shows them)" >&2
  exit 2
fi
field() { awk -v k="$1" '$1 == k { $1 = ""; sub(/^ /, ""); print }' <<<"$LINES"; }
REV=$(field rev)
EXPECT=$(field expect)
TRAIN=$(field train)
INIT=$(field init)
EMBED_PATH=$(field embed)
if [ -z "$REV" ] || [ -z "$EXPECT" ] || [ -z "$TRAIN" ]; then
  echo "net-recipe: recipe $NAME needs rev, train and expect lines" >&2
  exit 2
fi
mkdir -p "$WORK"
WORK=$(cd "$WORK" && pwd)

if [ -z "${BIN:-}" ]; then
  # The laboratory's binary at REV (see the header).
  if git -C "$REPO" cat-file -e "$REV:src/bin/sente-lab.rs" 2>/dev/null; then
    LAB_BIN=sente-lab BIN=$WORK/lab-$REV
  else
    LAB_BIN=pbrain-sente BIN=$WORK/pbrain-$REV
  fi
  if [ ! -x "$BIN" ]; then
    remove_worktrees "$REPO" "$WORK" "build-$REV"
    build_rev "$REPO" "$WORK" "build-$REV" "$REV" "$WORK/target" "$LAB_BIN"
    mv "$WORK/pbrain-build-$REV" "$BIN"
    remove_worktrees "$REPO" "$WORK" "build-$REV"
  fi
fi

# Games shard K of N plays of a G-game run: those with i % N == K-1.
shard_games() { echo $(((${3} - ${1} + ${2}) / ${2})); }
records() { grep -vc '^#' "$1" 2>/dev/null || true; }

DATA_DIR=$WORK
[ -n "${PREFIX:-}" ] && DATA_DIR=$WORK/prefix-$PREFIX
mkdir -p "$DATA_DIR"
files=()
pids=()
status=0
while read -r line; do
  [ -z "$line" ] && continue
  out=${line##*> }
  args=${line% > *}
  read -r -a argv <<<"$args"
  games=0 k=1 n=1
  for ((i = 0; i < ${#argv[@]}; i++)); do
    case "${argv[i]}" in
      --games) games=${argv[i + 1]} ;;
      --shard) k=${argv[i + 1]%/*} n=${argv[i + 1]#*/} ;;
    esac
  done
  want=$(shard_games "$k" "$n" "$games")
  if [ -n "${PREFIX:-}" ] && [ "$PREFIX" -lt "$want" ]; then
    for ((i = 0; i < ${#argv[@]}; i++)); do
      [ "${argv[i]}" = --games ] && argv[i + 1]=$((PREFIX * n))
    done
    want=$PREFIX
  fi
  files+=("$DATA_DIR/$out")
  if [ "$(records "$DATA_DIR/$out")" = "$want" ]; then
    echo "net-recipe: $out: $want games already there" >&2
    continue
  fi
  while [ "$(jobs -rp | wc -l)" -ge "$JOBS" ]; do wait -n || status=1; done
  echo "net-recipe: datagen ${argv[*]} > $out" >&2
  "$BIN" datagen "${argv[@]}" --quiet --out "$DATA_DIR/$out" &
  pids+=($!)
done < <(field data)
for p in "${pids[@]}"; do wait "$p" || status=1; done
if [ "$status" -ne 0 ]; then
  echo "net-recipe: a datagen run failed" >&2
  exit 1
fi

if [ -n "${PREFIX:-}" ]; then
  if [ -n "${COMPARE:-}" ]; then
    for f in "${files[@]}"; do
      b=$(basename "$f")
      n=$(records "$f")
      if diff -q <(grep -v '^#' "$f") <(grep -v '^#' "$COMPARE/$b" | head -n "$n") >/dev/null; then
        echo "$b: first $n games: same"
      else
        echo "$b: first $n games: DIFFERENT from $COMPARE/$b"
        status=1
      fi
    done
  fi
  exit "$status"
fi

init_args=()
if [ -n "$INIT" ]; then
  case "$INIT" in
    git:*)
      spec=${INIT#git:}
      git -C "$REPO" show "$spec" >"$WORK/init-$NAME.bin"
      ;;
    *)
      if [ -s "$WORK/$INIT.bin" ]; then
        cp "$WORK/$INIT.bin" "$WORK/init-$NAME.bin"
      else
        path=$(recipe "$INIT" | awk '$1 == "embed" { print $2 }')
        git -C "$REPO" show "$REV:$path" >"$WORK/init-$NAME.bin"
      fi
      ;;
  esac
  init_args=(--init "$WORK/init-$NAME.bin")
fi
read -r -a targs <<<"$TRAIN"
"$BIN" tune net "${targs[@]}" "${init_args[@]}" --out "$WORK/$NAME.bin" "${files[@]}" |
  tee "$WORK/$NAME.log"
got=$(tail -n 1 "$WORK/$NAME.log" | sed -n 's/.*fnv1a64 \([0-9a-f]\{16\}\).*/\1/p')
if [ "$got" != "$EXPECT" ]; then
  echo "$NAME: fnv1a64 ${got:-none} expected $EXPECT: MISMATCH"
  exit 1
fi
echo "$NAME: fnv1a64 $got: ok"
if [ "$EMBED" = 1 ] && [ -n "$EMBED_PATH" ]; then
  cp "$WORK/$NAME.bin" "$REPO/$EMBED_PATH"
  echo "net-recipe: copied to $EMBED_PATH" >&2
fi
