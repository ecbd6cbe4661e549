#!/usr/bin/env bash
# Wine smoke test of the Windows build (scripts/windows.sh makes it): is
# target/dist/pbrain-sente64.exe the same engine as the Linux build?
#   1. `bench` prints the same node signature under wine as natively
#      (nodes/s of both are printed, and the time each takes to answer
#      START 20, wine's start-up included);
#   2. the protocol transcripts pass against the .exe (the harness runs
#      SENTE_ENGINE="wine EXE"; SENTE_TRANSCRIPTS=commands,board,… keeps
#      only those files, and then only protocol_transcripts runs);
#   3. GAMES refereed games (default 4; 0 skips them) of the .exe against
#      the Linux build under sente-arena, 500 ms a move (SENTE_WINE_TURN), 1000 ms tolerance,
#      350 MB, suspended between moves, with no timeout, crash, illegal
#      move or memory loss.
# Usage: scripts/wine-test.sh [GAMES [EXE]]   (SENTE_WINE_TURN=MS: time a move)
#
# wine (Debian's wine and wine64) is installed when missing. The wine prefix
# is private ($SENTE_WINDOWS_CACHE/wine, made once by `wineboot -u`); the
# wine session (wineserver and wine's own services) is started before the
# engines and ended afterwards, so no engine starts it and no helper holds
# an engine's pipes.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
# shellcheck source=scripts/windows-common.sh
. scripts/windows-common.sh
GAMES=${1:-4}
EXE=$(readlink -f "${2:-target/dist/pbrain-sente64.exe}")
[ -f "$EXE" ] || { echo "wine-test.sh: no $EXE (run scripts/windows.sh)" >&2; exit 1; }

need_debs wine wine64
export WINEPREFIX=$CACHE/wine WINEDEBUG=-all WINEARCH=win64 WINEDLLOVERRIDES="mscoree,mshtml="
if [ ! -f "$WINEPREFIX/.complete" ]; then
  log "making the wine prefix $WINEPREFIX"
  rm -rf "$WINEPREFIX"
  mkdir -p "$WINEPREFIX"
  wineboot -u </dev/null >/dev/null 2>&1
  wineserver -w
  touch "$WINEPREFIX/.complete"
fi
WORK=$(mktemp -d)
# shellcheck disable=SC2317
cleanup() {
  wineserver -k >/dev/null 2>&1 || true
  rm -rf "$WORK"
}
trap cleanup EXIT

log "building the Linux engine and sente-arena"
cargo build --release --locked --quiet --bin pbrain-sente --bin sente-arena
NATIVE=$(readlink -f "$LINUX_TARGET/release/pbrain-sente")
ARENA=$LINUX_TARGET/release/sente-arena

# Milliseconds from starting "$@" to its OK for START 20.
startup_ms() {
  local t0 t1 line
  t0=$(date +%s%N)
  coproc ENG { "$@" 2>/dev/null; }
  printf 'START 20\r\n' >&"${ENG[1]}"
  while IFS= read -r -t 60 line <&"${ENG[0]}"; do
    [[ $line == OK* ]] && break
  done
  t1=$(date +%s%N)
  printf 'END\r\n' >&"${ENG[1]}"
  wait "$ENG_PID" || true
  echo $(((t1 - t0) / 1000000))
}

log "start-up (ms to answer START 20)"
cold=$(startup_ms wine "$EXE")
wineserver -k >/dev/null 2>&1 || true
wineserver -w
# The session the rest runs in: started here with stdio closed, so that
# wine's services (which outlive every engine) hold no engine's pipes.
wineserver -p
wine wineboot </dev/null >/dev/null 2>&1
warm=$(startup_ms wine "$EXE")
native=$(startup_ms "$NATIVE")
echo "start-up: native $native ms, wine $warm ms (wine session running), $cold ms (first in a session)"

log "bench"
"$NATIVE" bench >"$WORK/native.txt" 2>&1
wine "$EXE" bench </dev/null >"$WORK/wine.txt" 2>&1
sig() { sed -n 's/^Nodes searched *: *//p' "$1" | tr -d '\r'; }
nps() { sed -n 's/^Nodes\/second *: *//p' "$1" | tr -d '\r'; }
echo "bench: native $(sig "$WORK/native.txt") nodes $(nps "$WORK/native.txt") nodes/s, wine $(sig "$WORK/wine.txt") nodes $(nps "$WORK/wine.txt") nodes/s"
if [ -z "$(sig "$WORK/native.txt")" ] || [ "$(sig "$WORK/native.txt")" != "$(sig "$WORK/wine.txt")" ]; then
  echo "wine-test.sh: the bench signatures differ" >&2
  exit 1
fi

log "protocol transcripts against SENTE_ENGINE=\"wine $EXE\""
filter=()
[ -n "${SENTE_TRANSCRIPTS:-}" ] && filter=(protocol_transcripts)
SENTE_ENGINE="wine $EXE" cargo test --locked --quiet --test transcripts -- "${filter[@]}"

if [ "$GAMES" -gt 0 ]; then
  log "$GAMES arena games: wine $EXE against $NATIVE"
  # The shared opening suites when the arena finds them (as it looks: up
  # from the working directory), else four openings of our own.
  openings=(--openings "$WORK/openings.txt")
  dir=$ROOT
  while [ "$dir" != / ]; do
    [ -d "$dir/shared/openings" ] && openings=()
    dir=$(dirname "$dir")
  done
  [ -n "${SENTE_OPENINGS:-}" ] && openings=()
  cat >"$WORK/openings.txt" <<'EOF'
# board 15x15, rule 0, wine smoke test openings
7,7 8,6 9,7
7,7 7,8 9,9
7,7 6,8 8,9
7,7 8,8 7,9
EOF
  "$ARENA" --engine1 "wine $EXE" --engine2 "$NATIVE" \
    --name1 wine --name2 native --games "$GAMES" --turn "${SENTE_WINE_TURN:-500}" --tolerance 1000 \
    --memory 350M "${openings[@]}" --json "$WORK/arena.json" | tee "$WORK/arena.txt"
  if ! grep -q "timeout 0, crash 0, illegal 0, forbidden 0, memory 0" "$WORK/arena.txt"; then
    echo "wine-test.sh: a game was lost by forfeit" >&2
    exit 1
  fi
fi
echo "wine-test.sh: ok"
