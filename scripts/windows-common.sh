# shellcheck shell=bash disable=SC2034 # CACHE and LINUX_TARGET are for the scripts that source this
# Shared by windows.sh and wine-test.sh; sourced, not run.
#
# CACHE              the private folder for the toolchain and the wine prefix
# LINUX_TARGET       cargo's target folder for the Linux build
# log MSG            a progress line on stderr, with the seconds since start
# need_debs PKG...   apt-get install those not installed (apt-get update once)
# need_candidates PKG...  fail with one message unless apt can get every PKG
# die MSG            that message on stderr, then exit 1

CACHE=${SENTE_WINDOWS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/sente-windows}

LINUX_TARGET=${CARGO_TARGET_DIR:-target}

log() { echo "== [${SECONDS}s] $*" >&2; }

as_root() {
  if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi
}

die() { printf 'error: %s\n' "$*" >&2; exit 1; }

# apt-get update, once. Its exit status is not fatal: one index that cannot
# be fetched (a mirror in mid-sync, a suite that is down) makes it fail
# while the other lists are fresh. need_candidates then decides whether what
# the script needs can still be had.
APT_UPDATED=0
apt_update_once() {
  if [ $APT_UPDATED = 0 ]; then
    log "apt-get update"
    local rc=0
    as_root apt-get update -qq >&2 || rc=$?
    if [ $rc != 0 ]; then
      log "warning: apt-get update failed (exit $rc; its messages are above); going on with the package lists apt has"
    fi
    APT_UPDATED=1
  fi
}

# Exit with one message naming every package among "$@" that apt has no
# candidate for (not in any list apt has, or not installable from them).
need_candidates() {
  local missing=() p cand
  for p in "$@"; do
    cand=$(apt-cache policy "$p" 2>/dev/null | sed -n 's/^ *Candidate: *//p')
    if [ -z "$cand" ] || [ "$cand" = "(none)" ]; then missing+=("$p"); fi
  done
  [ ${#missing[@]} = 0 ] && return
  die "apt has no installable version of: ${missing[*]}. They are in Debian 12 (bookworm) main; check the apt sources (/etc/apt/sources.list, /etc/apt/sources.list.d/) and the 'apt-get update' messages above, fix the index that failed, then rerun."
}

# Install the Debian packages among "$@" that are missing.
need_debs() {
  local missing=() p
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing+=("$p")
  done
  [ ${#missing[@]} = 0 ] && return
  apt_update_once
  need_candidates "${missing[@]}"
  log "apt-get install ${missing[*]}"
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
    "${missing[@]}" >&2
}
