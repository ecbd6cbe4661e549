# Shared by windows.sh and wine-test.sh; sourced, not run.
#
# CACHE              the private folder for the toolchain and the wine prefix
# LINUX_TARGET       cargo's target folder for the Linux build
# log MSG            a progress line on stderr, with the seconds since start
# need_debs PKG...   apt-get install those not installed (apt-get update once)

CACHE=${SENTE_WINDOWS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/sente-windows}

LINUX_TARGET=${CARGO_TARGET_DIR:-target}

log() { echo "== [${SECONDS}s] $*" >&2; }

as_root() {
  if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi
}

APT_UPDATED=0
apt_update_once() {
  if [ $APT_UPDATED = 0 ]; then
    log "apt-get update"
    as_root apt-get update -qq >&2
    APT_UPDATED=1
  fi
}

# Install the Debian packages among "$@" that are missing.
need_debs() {
  local missing=() p
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing+=("$p")
  done
  [ ${#missing[@]} = 0 ] && return
  apt_update_once
  log "apt-get install ${missing[*]}"
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
    "${missing[@]}" >&2
}

