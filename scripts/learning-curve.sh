#!/usr/bin/env bash
# The net's learning curve on deep labels (issue 70 items 2 and 5): a net
# trained from scratch on the first SIZE positions of a relabelling
# (scripts/relabel.sh), once on the deep labels and once on the same
# games' 5,000-node labels, each scored on the evaluation panel (every
# position, and the undecided ones alone).
#
#   scripts/learning-curve.sh SIZE...     e.g. 250000 500000 1000000
#
# The first SIZE positions are the relabelled games in source order (the
# shards' files interleaved, whole games until SIZE positions), so a
# larger SIZE holds a smaller one and a rerun on more data cuts the same
# games. The games the panel was drawn from are left out
# (`tune net --exclude-panel`); the held-out games are chosen by their
# moves alone (`--split-moves`), so both labellings hold out the same
# games; the shallow labels are read from the source records for exactly
# the cut's games (`--games-of`). A net already trained is not trained
# again: the script resumes.
#
# Settings (environment variables, defaults in brackets):
#   RULE [freestyle]  SEED [911]  NODES [50000]  JOBS [2]  DATA [net-data/deep]
#         the relabelling to read: DATA/RULE-sSEED/deep-nNODES-{1..JOBS}.txt
#         and its source.txt (scripts/relabel.sh's layout)
#   OUT [net-data/curve]  where the cuts, nets, logs and curve.txt go
#   PANEL [scripts/panels/freestyle-2000]  PANEL.txt and PANEL.labels.txt
#   LABELS ["deep shallow"]; deep-mates and shallow-mates train with
#         `--mates` (a forced score a target of 1 or 0, not skipped)
#   FORMS ["lines"] (add joint for the joint form)
#   TRAIN ["--f 32 --h 32 --epochs 20 --lr 0.003 --lr-end 0.0003 --seed 1
#         --threads 1"]: the fifth round's (scripts/nets.txt)
#   SENTE [target/release/sente-lab]
set -euo pipefail

REPO=$(cd "$(dirname "$0")/.." && pwd)
if [ $# -lt 1 ] || [ "${1:-}" = -h ] || [ "${1:-}" = --help ]; then
  sed -n '2,31p' "$0" | sed 's/^# \{0,1\}//'
  [ $# -ge 1 ] && exit 0
  exit 2
fi
RULE=${RULE:-freestyle}
SEED=${SEED:-911}
NODES=${NODES:-50000}
JOBS=${JOBS:-2}
DATA=${DATA:-net-data/deep}
OUT=${OUT:-net-data/curve}
PANEL=${PANEL:-$REPO/scripts/panels/freestyle-2000}
LABELS=${LABELS:-deep shallow}
FORMS=${FORMS:-lines}
TRAIN=${TRAIN:---f 32 --h 32 --epochs 20 --lr 0.003 --lr-end 0.0003 --seed 1 --threads 1}
SENTE=${SENTE:-$REPO/target/release/sente-lab}

SRC=$DATA/$RULE-s$SEED
[ -f "$SRC/source.txt" ] || { echo "learning-curve.sh: no $SRC/source.txt (scripts/relabel.sh $RULE makes it)" >&2; exit 1; }
shards=()
for j in $(seq 1 "$JOBS"); do
  f=$SRC/deep-n$NODES-$j.txt
  [ -f "$f" ] || { echo "learning-curve.sh: no $f" >&2; exit 1; }
  shards+=("$f")
done
for f in "$PANEL.txt" "$PANEL.labels.txt"; do
  [ -f "$f" ] || { echo "learning-curve.sh: no panel file $f" >&2; exit 1; }
done
[ -x "$SENTE" ] || { echo "learning-curve.sh: build first (cargo build --release): no $SENTE" >&2; exit 1; }
DIR=$OUT/$RULE-s$SEED-n$NODES
mkdir -p "$DIR"

# cut SIZE FILE: the first games in source order holding SIZE positions.
# Each shard's file but the last whole game of a running relabelling is
# read (its last line may still be written).
cut_games() {
  local size=$1 out=$2 tmp=$2.part
  local lists=() j=0
  for f in "${shards[@]}"; do
    j=$((j + 1))
    grep -v '^#' "$f" | head -n -1 > "$tmp.$j"
    lists+=("$tmp.$j")
  done
  # (awk stops reading at SIZE: the writers' broken pipe is expected)
  { head -n 1 "${shards[0]}"
    paste -d '\n' "${lists[@]}" | grep -v '^$' |
      awk -F'\t' -v size="$size" '{ n += split($5, a, " "); print } n >= size { exit }' || true
  } > "$tmp"
  rm -f "${lists[@]}"
  local got
  got=$(grep -v '^#' "$tmp" | cut -f5 | wc -w)
  if [ "$got" -lt "$size" ]; then
    rm -f "$tmp"
    echo "learning-curve.sh: the relabelling holds only $got positions, fewer than $size" >&2
    return 1
  fi
  mv "$tmp" "$out"
}

nets=()
for size in "$@"; do
  cut=$DIR/cut-$size.txt
  [ -f "$cut" ] || cut_games "$size" "$cut"
  echo "== $size: $(grep -vc '^#' "$cut") games, $(grep -v '^#' "$cut" | cut -f5 | wc -w) positions ($cut)" >&2
  for label in $LABELS; do
    case "$label" in
      deep) input=("$cut") ;;
      shallow) input=(--games-of "$cut" "$SRC/source.txt") ;;
      deep-mates) input=(--mates "$cut") ;;
      shallow-mates) input=(--mates --games-of "$cut" "$SRC/source.txt") ;;
      *) echo "learning-curve.sh: LABELS are deep, shallow, deep-mates and shallow-mates, not $label" >&2; exit 2 ;;
    esac
    for form in $FORMS; do
      net=$DIR/$size-$label-$form.bin
      if [ ! -f "$net" ]; then
        echo "== training $net" >&2
        # shellcheck disable=SC2086
        "$SENTE" tune net --rule "$RULE" $TRAIN --form "$form" --split-moves \
          --exclude-panel "$PANEL.txt" --out "$net.part" "${input[@]}" > "$DIR/$size-$label-$form.log"
        mv "$net.part" "$net"
      fi
      nets+=(--net "$net")
    done
  done
done

{
  echo "# panel $PANEL: every position"
  "$SENTE" evalpanel score --panel "$PANEL.txt" --labels "$PANEL.labels.txt" --eval classic --eval net "${nets[@]}"
  echo "# panel $PANEL: the undecided positions"
  "$SENTE" evalpanel score --panel "$PANEL.txt" --labels "$PANEL.labels.txt" --eval classic --eval net "${nets[@]}" --undecided
} > "$DIR/curve.txt"
grep -E '^#|[[:space:]]all[[:space:]]' "$DIR/curve.txt"
