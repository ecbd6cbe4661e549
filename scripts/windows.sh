#!/usr/bin/env bash
# Build the engine for 64-bit Windows from Linux (Debian), and the release
# archives: target/dist/pbrain-sente64.exe, target/dist/pbrain-sente.zip (the
# Gomocup submission: the .exe and a short text file, flat) and
# target/dist/pbrain-sente-linux-x86_64.tar.gz (the Linux build). The last
# line of stdout is the .exe's path; progress goes to stderr.
#
# Usage: scripts/windows.sh [--test [GAMES]]
#   --test [GAMES]  then run the wine smoke test (scripts/wine-test.sh GAMES)
#
# What it needs, it installs: the MinGW-w64 linker and zip through apt (as
# root, or through sudo), and a Rust toolchain that can build the standard
# library for Windows, unpacked from Debian's rustc-web packages with
# `dpkg -x` into a private prefix under $SENTE_WINDOWS_CACHE (default
# ~/.cache/sente-windows), so the rustc in ~/.cargo and the system stay as
# they are. rustup cannot add targets here, so cargo builds std itself
# (-Zbuild-std, allowed on a stable compiler by RUSTC_BOOTSTRAP=1) for
# x86_64-win7-windows-gnu: unlike x86_64-pc-windows-gnu its std does not
# import bcryptprimitives.dll, so the .exe runs on Windows 7 to 11 and under
# wine 8. Reruns reuse the prefix and target/windows: a few seconds when
# nothing changed. Delete the cache folder to pick up newer packages.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
# shellcheck source=scripts/windows-common.sh
. scripts/windows-common.sh
TARGET=x86_64-win7-windows-gnu
DIST=$ROOT/target/dist
# The Debian packages that make the toolchain (cargo-web's own libraries
# come along when the system lacks them: see fetch_toolchain).
RUST_PKGS="rustc-web cargo-web rust-web-src libstd-rust-web-dev"

TEST=0
GAMES=
while [ $# -gt 0 ]; do
  case "$1" in
    --test)
      TEST=1
      if [ $# -gt 1 ] && [[ $2 =~ ^[0-9]+$ ]]; then GAMES=$2; shift; fi ;;
    -h|--help) sed -n '2,22p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "windows.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
  shift
done

# The oldest rustc that builds Sente: 1.87, for u64::is_multiple_of, which
# the search uses (edition 2021 needs only 1.56, every locked dependency
# asks for 1.71 at most, and the x86_64-win7-windows-gnu target is older
# too). With -Zbuild-std this rustc compiles the std source of rust-web-src,
# which must be the same release: check_toolchain compares the packages.
MIN_RUSTC=1.87

# Is the toolchain in $1 usable? Runs its rustc and cargo, compares rustc's
# version with MIN_RUSTC and the packages' versions with one another, and
# asks ldd for shared libraries that cannot be found. Prints nothing and
# returns 0 when all is well; otherwise sets TOOLCHAIN_PROBLEM to what is
# wrong and TOOLCHAIN_FIX to what to do, and returns 1.
# Debian 12 gets newer rustc-web packages through its security suite.
SECURITY_FIX="let apt see Debian's security suite, where newer rustc-web packages come: 'Suites: bookworm-security' in /etc/apt/sources.list.d/debian.sources (URIs: http://deb.debian.org/debian-security) or 'deb http://deb.debian.org/debian-security bookworm-security main' in /etc/apt/sources.list, then 'apt-get update'; 'apt-cache policy rustc-web' should then offer $MIN_RUSTC or newer."
TOOLCHAIN_PROBLEM=
TOOLCHAIN_FIX=
check_toolchain() {
  local prefix=$1 f v missing=() libs
  TOOLCHAIN_PROBLEM=
  # Missing libraries first: they are why rustc or cargo would not start.
  for f in "$prefix/usr/bin/rustc" "$prefix/usr/bin/cargo" \
      "$prefix"/usr/lib/x86_64-linux-gnu/librustc_driver-*.so; do
    [ -e "$f" ] || continue
    libs=$("$prefix/run" ldd "$f" 2>/dev/null | awk '/not found/ { print $1 }') || true
    [ -n "$libs" ] && mapfile -t -O "${#missing[@]}" missing <<< "$libs"
  done
  if [ ${#missing[@]} != 0 ]; then
    TOOLCHAIN_PROBLEM="shared libraries not found: $(printf '%s\n' "${missing[@]}" | sort -u | tr '\n' ' ')(ldd on its rustc and cargo)."
    TOOLCHAIN_FIX="install the Debian packages that hold them ('apt-file search NAME' names them; libpcre.so.3 is in libpcre3), or $SECURITY_FIX"
    return 1
  fi
  # The unpacked programs by their paths: PATH would fall back on the system's.
  for f in rustc cargo; do
    if [ ! -x "$prefix/usr/bin/$f" ] || ! "$prefix/run" "$prefix/usr/bin/$f" -V >/dev/null 2>&1; then
      TOOLCHAIN_PROBLEM="'usr/bin/$f -V' fails: $("$prefix/run" "$prefix/usr/bin/$f" -V 2>&1 | head -1)"
      TOOLCHAIN_FIX=$SECURITY_FIX
      return 1
    fi
  done
  v=$("$prefix/run" "$prefix/usr/bin/rustc" -V)
  if [[ ! $v =~ ^rustc\ ([0-9]+\.[0-9]+\.[0-9]+) ]] ||
      [ "$(printf '%s\n' "$MIN_RUSTC" "${BASH_REMATCH[1]}" | sort -V | head -1)" != "$MIN_RUSTC" ]; then
    TOOLCHAIN_PROBLEM="its rustc is too old or of unknown version ('$v'); Sente needs $MIN_RUSTC or newer."
    TOOLCHAIN_FIX=$SECURITY_FIX
    return 1
  fi
  if [ -f "$prefix/.versions" ] && [ "$(awk '{ print $2 }' "$prefix/.versions" | sort -u | wc -l)" != 1 ]; then
    TOOLCHAIN_PROBLEM="its packages are of different versions ($(tr '\n' ' ' < "$prefix/.versions")); -Zbuild-std needs rust-web-src of the compiler's own release."
    TOOLCHAIN_FIX="wait until 'apt-cache policy $RUST_PKGS' shows one version for all four (a mirror in mid-sync can mix them)."
    return 1
  fi
}

# Unpack rustc-web, cargo-web and the std source into $CACHE/rust, with the
# shared libraries they need that this system lacks (apt works out which:
# it downloads, into a private folder, what installing them would add).
# Then check it (check_toolchain), so that a toolchain that cannot build
# stops the script here, before the long build, with one message.
fetch_toolchain() {
  local prefix=$CACHE/rust
  if [ -f "$prefix/.complete" ] && check_toolchain "$prefix"; then
    return
  fi
  [ -f "$prefix/.complete" ] && log "the toolchain in $prefix fails its check ($TOOLCHAIN_PROBLEM); fetching it again"
  apt_update_once
  # shellcheck disable=SC2086 # RUST_PKGS is a list
  need_candidates $RUST_PKGS
  log "fetching $RUST_PKGS into $prefix"
  rm -rf "$prefix" "$CACHE/debs"
  mkdir -p "$CACHE/debs/partial" "$prefix"
  # --download-only installs nothing; the private archive folder keeps the
  # system's apt cache out of it (the sandbox user could not write there).
  # shellcheck disable=SC2086 # RUST_PKGS is a list
  as_root apt-get install -y -qq --download-only --no-install-recommends \
    -o Dir::Cache::archives="$CACHE/debs" -o APT::Sandbox::User=root $RUST_PKGS >&2
  local deb p
  for deb in "$CACHE"/debs/*.deb; do
    dpkg -x "$deb" "$prefix"
  done
  # The versions of the toolchain's own packages, for check_toolchain.
  for p in $RUST_PKGS; do
    for deb in "$CACHE"/debs/"${p}"_*.deb; do
      [ -f "$deb" ] && echo "$p $(dpkg-deb -f "$deb" Version)" >> "$prefix/.versions"
    done
  done
  rm -rf "$CACHE/debs"
  # A runner that puts the prefix's programs and libraries first, so the
  # unpacked cargo and rustc find their own shared libraries (some, such as
  # libpcre3's, unpack under lib/ rather than usr/lib/).
  cat > "$prefix/run" <<'EOF'
#!/bin/sh
P=$(dirname "$(readlink -f "$0")")
PATH=$P/usr/bin:$PATH
LD_LIBRARY_PATH=$P/usr/lib/x86_64-linux-gnu:$P/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export PATH LD_LIBRARY_PATH
exec "$@"
EOF
  chmod +x "$prefix/run"
  if ! check_toolchain "$prefix"; then
    die "the Rust toolchain unpacked from Debian's packages into $prefix cannot build Sente: $TOOLCHAIN_PROBLEM
  What to do: $TOOLCHAIN_FIX
  Then rerun (a toolchain that fails this check is fetched again)."
  fi
  "$prefix/run" rustc -V >&2
  "$prefix/run" cargo -V >&2
  touch "$prefix/.complete"
}

need_debs gcc-mingw-w64-x86-64 zip
fetch_toolchain
RUN=$CACHE/rust/run

VERSION=$(sed -n 's/^version = "\(.*\)"$/\1/p' Cargo.toml | head -1)
log "building pbrain-sente $VERSION for $TARGET"
# Windows build: its own target folder, the toolchain's rustc and cargo, std
# built from source, MinGW's gcc as the linker, no debug info, stripped.
RUSTC_BOOTSTRAP=1 \
  RUSTFLAGS='' \
  CARGO_TARGET_DIR="$ROOT/target/windows" \
  CARGO_PROFILE_RELEASE_DEBUG=0 \
  CARGO_PROFILE_RELEASE_STRIP=true \
  CARGO_TARGET_X86_64_WIN7_WINDOWS_GNU_LINKER=x86_64-w64-mingw32-gcc \
  "$RUN" cargo build --release --locked --bin pbrain-sente --target $TARGET \
  -Zbuild-std=std,panic_abort >&2
EXE=$ROOT/target/windows/$TARGET/release/pbrain-sente.exe

log "building the Linux binary"
cargo build --release --locked --bin pbrain-sente >&2

mkdir -p "$DIST"
rm -rf "$DIST/zip" "$DIST/linux"
mkdir -p "$DIST/zip" "$DIST/linux"
cp "$EXE" "$DIST/pbrain-sente64.exe"
cp "$EXE" "$DIST/zip/pbrain-sente64.exe"
strip -o "$DIST/linux/pbrain-sente" "$LINUX_TARGET/release/pbrain-sente"

DATE=$(date -u +%Y-%m-%d)
COMMIT=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
git diff --quiet HEAD 2>/dev/null || COMMIT="$COMMIT (modified)"
readme() {
  # CR LF line ends: the zip is for Windows.
  sed 's/$/\r/' <<EOF
Sente $VERSION - a Gomoku/Renju brain for the Gomocup (Piskvork) protocol
Built $DATE from commit $COMMIT; $1

Files: $2

Board sizes: 5 to 32 (START, RECTSTART); 15 and 20 as in the Gomocup leagues.
Rules (INFO rule): 0 freestyle, 1 standard (exactly five), 4 renju,
8 caro; bit 2 (continuous game) is accepted as well.
INFO keys read: timeout_turn, timeout_match, time_left, max_memory (the
tables are sized to stay within it; default 350 MB), game_type, rule,
thread_num (default 1; at most the machine's cores, fewer when max_memory
is small), max_depth, max_node, pondering (off unless asked for, or
game_type 0), show_detail, max_moves, draw_result, time_increment,
start_depth, strength (0-100, default 100: full strength) and
caution_factor (0-5). Accepted and ignored: folder, evaluate and unknown
keys.
Other commands: START, RECTSTART, RESTART, BEGIN, TURN, BOARD, END, ABOUT,
TAKEBACK, PLAY, SWAP2BOARD, and the Yixin-Board YXSTOP/STOP, YXNBEST,
YXSHOWFORBID, YXHASHCLEAR, YXSHOWHASHUSAGE, YXBOARD, YXSHOWINFO,
YXBLOCK, YXBLOCKUNDO, YXBLOCKRESET, YXSEARCHDEFEND, YXBALANCEONE and
YXBALANCETWO.
The brain writes no files (not even in the INFO folder) and prints
nothing but protocol lines on stdout.
EOF
}
readme "64-bit Windows (7 to 11), no DLLs needed beyond the system's." \
  "pbrain-sente64.exe" > "$DIST/zip/pbrain-sente.txt"
readme "64-bit Linux (x86-64, glibc)." "pbrain-sente" | tr -d '\r' > "$DIST/linux/pbrain-sente.txt"

log "packing"
rm -f "$DIST/pbrain-sente.zip" "$DIST/pbrain-sente-linux-x86_64.tar.gz"
# -j: flat, the files at the zip's root; -X: no Unix extra fields.
(cd "$DIST/zip" && zip -q -X -j "$DIST/pbrain-sente.zip" pbrain-sente64.exe pbrain-sente.txt)
tar -C "$DIST/linux" -czf "$DIST/pbrain-sente-linux-x86_64.tar.gz" pbrain-sente pbrain-sente.txt
rm -rf "$DIST/zip" "$DIST/linux"
ls -l "$DIST" >&2

if [ $TEST = 1 ]; then
  bash scripts/wine-test.sh ${GAMES:+"$GAMES"} >&2
fi
echo "$DIST/pbrain-sente.zip"
echo "$DIST/pbrain-sente-linux-x86_64.tar.gz"
echo "$DIST/pbrain-sente64.exe"
