#!/usr/bin/env bash
# Deep labels at scale (issue 70): games of today's engine, then every
# recorded position searched again at NODES nodes (`datagen relabel`,
# src/lab/datagen/relabel.rs), in the background, niced, resumable.
#
#   setsid nohup scripts/relabel.sh RULE &   start, or continue where it stopped
#   scripts/relabel.sh RULE --status    where the data is, how far it got
#   scripts/relabel.sh RULE --stop      stop a running driver and its jobs
#
# (a) The source: `datagen --rule RULE --eval net --nodes 5000` (the
#     binary's embedded net, 5,000 nodes a move, as the rounds of
#     scripts/nets.txt) on the rule's own seed, GAMES games, played as
#     CHUNKS shards (`--shard k/CHUNKS`) JOBS at a time; a chunk is written
#     to a .part file and renamed when whole, so a stop loses at most the
#     chunks in hand (about a minute each). The chunks, merged in game
#     order, are SRC/source.txt: the unsharded run, game for game.
# (b) The labels: JOBS processes `datagen relabel --in SRC/source.txt
#     --shard j/JOBS --nodes NODES --out SRC/deep-nNODES-j.txt` (scores of
#     fresh one-thread searches; each file appends a game at a time and
#     resumes after its last whole one). Progress: SRC/deep-nNODES-j.txt.err.
# SRC is DATA/RULE-sSEED. Its settings (SEED, GAMES, CHUNKS; JOBS of each
# NODES) are recorded at the first run; a rerun with other ones is refused
# (another SEED is another folder). For training: the deep files (each
# holds other games, so `cat` them or pass them all to `tune net`); the
# same positions with their 5,000-node labels are SRC/source.txt.
#
# Settings (environment variables, defaults in brackets):
#   RULE  freestyle, standard or renju (the first argument)
#   NODES [50000]  nodes a relabelling search
#   GAMES [freestyle 31000, standard 8400, renju 12000: about 1 M, 0.3 M
#         and 0.3 M positions (32.8, 36.5 and 25.8 a game at 5,000 nodes)]
#   SEED  [freestyle 911, standard 912, renju 913: seeds no round used]
#   DATA [net-data/deep]  JOBS [2]  NICE [19]  CHUNKS [64]
#   SENTE [target/release/sente-lab]  the lab binary (copy it elsewhere so
#         a rebuild does not change a running one; before 0.9.0 the
#         engine binary pbrain-sente had datagen); DATAGEN [datagen] the
#         subcommand (`$SENTE $DATAGEN …`, `$SENTE $DATAGEN relabel …`)
set -euo pipefail

REPO=$(cd "$(dirname "$0")/.." && pwd)
SENTE=${SENTE:-$REPO/target/release/sente-lab}
DATAGEN=${DATAGEN:-datagen}

if [ "${1:-}" = -h ] || [ "${1:-}" = --help ] || [ $# -lt 1 ] || [ $# -gt 2 ]; then
  sed -n '2,37p' "$0" | sed 's/^# \{0,1\}//'
  [ $# -ge 1 ] && exit 0
  exit 2
fi
RULE=$1
ACTION=${2:-run}
case "$ACTION" in
  run|--status|--stop) ;;
  *) echo "relabel.sh: unknown action $ACTION (--status, --stop or none)" >&2; exit 2 ;;
esac
case "$RULE" in
  freestyle) seed=911 games=31000 ;;
  standard) seed=912 games=8400 ;;
  renju) seed=913 games=12000 ;;
  *) echo "relabel.sh: RULE is freestyle, standard or renju, not $RULE" >&2; exit 2 ;;
esac
SEED=${SEED:-$seed}
GAMES=${GAMES:-$games}
NODES=${NODES:-50000}
JOBS=${JOBS:-2}
NICE=${NICE:-19}
CHUNKS=${CHUNKS:-64}
SRC_NODES=5000
DATA=${DATA:-net-data/deep}
mkdir -p "$DATA/$RULE-s$SEED"
DIR=$(cd "$DATA/$RULE-s$SEED" && pwd)
SOURCE=$DIR/source.txt

log() { echo "$(date '+%F %T') $*" | tee -a "$DIR/log" >&2; }

# The games and positions of record files.
games_in() { cat "$@" 2>/dev/null | grep -vc '^#' || true; }
positions_in() { { cat "$@" 2>/dev/null | grep -v '^#' | cut -f5 | wc -w; } || true; }

# Games of shard $1/$2 of a run of $3 games.
shard_games() { echo $(( $3 >= $1 ? ($3 - $1) / $2 + 1 : 0 )); }

if [ "$ACTION" = --status ]; then
  echo "relabel $RULE: $DIR (seed $SEED, $GAMES games, $CHUNKS chunks)"
  if [ -f "$DIR/driver.pid" ] && kill -0 "$(cat "$DIR/driver.pid")" 2>/dev/null; then
    echo "  running: driver pid $(cat "$DIR/driver.pid")"
  else
    echo "  not running"
  fi
  if [ -f "$SOURCE" ]; then
    echo "  source: $(games_in "$SOURCE") games, $(positions_in "$SOURCE") positions ($SOURCE)"
  else
    n=$({ find "$DIR/src" -name 'src-*.txt' 2>/dev/null | wc -l; } || true)
    g=$(games_in "$DIR"/src/src-*.txt "$DIR"/src/src-*.part)
    echo "  source: $n/$CHUNKS chunks whole, $g/$GAMES games played"
  fi
  for s in "$DIR"/deep-n*.settings; do
    [ -f "$s" ] || continue
    n=$(sed -n 's/^NODES=//p' "$s")
    j=$(sed -n 's/^JOBS=//p' "$s")
    tg=0 tp=0
    for k in $(seq 1 "$j"); do
      f=$DIR/deep-n$n-$k.txt
      g=$(games_in "$f") p=$(positions_in "$f")
      tg=$((tg + g)) tp=$((tp + p))
      rate=$(grep -o '[0-9.]* positions/s' "$f.err" 2>/dev/null | tail -1 || true)
      echo "  $n nodes, shard $k/$j: $g/$(shard_games "$k" "$j" "$GAMES") games, $p positions${rate:+, $rate} ($f)"
    done
    echo "  $n nodes, all: $tg/$GAMES games, $tp positions"
  done
  exit 0
fi

if [ "$ACTION" = --stop ]; then
  if [ -f "$DIR/driver.pid" ] && kill -0 "$(cat "$DIR/driver.pid")" 2>/dev/null; then
    kill "$(cat "$DIR/driver.pid")"
    echo "relabel.sh: stopped the driver $(cat "$DIR/driver.pid") (its jobs stop with it)"
  else
    echo "relabel.sh: no driver running for $DIR"
  fi
  exit 0
fi

[ -x "$SENTE" ] || { echo "relabel.sh: no binary $SENTE (cargo build --release, or SENTE=...)" >&2; exit 2; }
SENTE=$(cd "$(dirname "$SENTE")" && pwd)/$(basename "$SENTE")

# One driver a folder: the lock is held while it or any of its jobs lives.
exec 9>"$DIR/lock"
if ! flock -n 9; then
  echo "relabel.sh: $DIR is being worked on already (scripts/relabel.sh $RULE --status)" >&2
  exit 1
fi
echo $$ >"$DIR/driver.pid"
stop_jobs() {
  local p
  for p in $(jobs -p); do kill "$p" 2>/dev/null || true; done
}
trap 'stop_jobs; log "stopped"; exit 143' TERM INT
trap 'stop_jobs' EXIT

# Settings file $1 must hold the lines given after it, or not exist yet.
settle() {
  local file=$1 want
  shift
  want=$(printf '%s\n' "$@")
  if [ -f "$file" ]; then
    if [ "$(cat "$file")" != "$want" ]; then
      echo "relabel.sh: $file was made with other settings:" >&2
      diff <(cat "$file") <(echo "$want") >&2 || true
      echo "run with those (or remove $DIR to start over)" >&2
      exit 2
    fi
  else
    echo "$want" >"$file"
  fi
}
settle "$DIR/source.settings" "RULE=$RULE" "SEED=$SEED" "GAMES=$GAMES" "CHUNKS=$CHUNKS" \
  "SRC_NODES=$SRC_NODES"
settle "$DIR/deep-n$NODES.settings" "NODES=$NODES" "JOBS=$JOBS"
sum=$(cksum <"$SENTE" | cut -d' ' -f1)
if [ -f "$DIR/binary" ] && [ "$(cat "$DIR/binary")" != "$sum" ]; then
  log "warning: $SENTE is not the binary of the first run (cksum $sum, was $(cat "$DIR/binary"))"
fi
[ -f "$DIR/binary" ] || echo "$sum" >"$DIR/binary"
# Linux shares the CPU fairly between sessions (autogroups) whatever the
# nice values inside them: a run in a session of its own (setsid) lowers
# that session's weight as well, or it takes a full share from the
# matches of every other session. (Never another session's: from a
# terminal the weight would be the terminal's.)
session=$(cut -d')' -f2 /proc/$$/stat 2>/dev/null | awk '{ print $4 }')
if [ "$session" = "$$" ] && [ -w /proc/self/autogroup ]; then
  echo "$NICE" 2>/dev/null >/proc/self/autogroup && log "session weight: nice $NICE"
fi
log "start: $SENTE, $RULE seed $SEED, $GAMES games, relabel at $NODES nodes, $JOBS jobs, nice $NICE"

# (a) The source, chunk by chunk; worker $1 of JOBS plays chunks $1, $1+JOBS, ...
# (It runs in a subshell: a stop passes to the datagen in hand.)
gen_worker() {
  local k f child=
  trap '[ -n "$child" ] && kill "$child" 2>/dev/null; exit 143' TERM
  for k in $(seq "$1" "$JOBS" "$CHUNKS"); do
    f=$DIR/src/src-$(printf %03d "$k").txt
    [ -f "$f" ] && continue
    # shellcheck disable=SC2086 # DATAGEN may be several words
    nice -n "$NICE" "$SENTE" $DATAGEN --rule "$RULE" --eval net --nodes "$SRC_NODES" \
      --seed "$SEED" --games "$GAMES" --shard "$k/$CHUNKS" --quiet --out "$f.part" &
    child=$!
    if ! wait "$child"; then
      log "source chunk $k/$CHUNKS: datagen failed"
      exit 1
    fi
    child=
    mv "$f.part" "$f"
    log "source chunk $k/$CHUNKS: $(games_in "$f") games"
  done
}
if [ ! -f "$SOURCE" ]; then
  mkdir -p "$DIR/src"
  for j in $(seq 1 "$JOBS"); do gen_worker "$j" & done
  fail=0
  for p in $(jobs -p); do wait "$p" || fail=1; done
  [ $fail = 0 ] || { log "the source is not whole: a datagen job failed or was stopped"; exit 1; }
  # The chunks' headers, then their games taken in turn: game order.
  paste -d '\n' "$DIR"/src/src-???.txt | grep -v '^$' >"$SOURCE.part"
  got=$(games_in "$SOURCE.part")
  [ "$got" = "$GAMES" ] || { log "source: $got games, not $GAMES"; exit 1; }
  mv "$SOURCE.part" "$SOURCE"
  log "source: $GAMES games, $(positions_in "$SOURCE") positions in $SOURCE"
fi

# (b) The deep labels.
for j in $(seq 1 "$JOBS"); do
  # shellcheck disable=SC2086 # DATAGEN may be several words
  nice -n "$NICE" "$SENTE" $DATAGEN relabel --in "$SOURCE" --nodes "$NODES" \
    --shard "$j/$JOBS" --out "$DIR/deep-n$NODES-$j.txt" 2>>"$DIR/deep-n$NODES-$j.txt.err" &
done
fail=0
for p in $(jobs -p); do wait "$p" || fail=1; done
if [ $fail = 1 ]; then
  log "a relabel job failed: see $DIR/deep-n$NODES-*.err"
  exit 1
fi
log "done: $(positions_in "$DIR"/deep-n"$NODES"-*.txt) positions at $NODES nodes in $DIR/deep-n$NODES-*.txt"
