#!/usr/bin/env bash
# Make sure the tools the tournament tests drive are installed, installing
# the Debian package when one is missing (CI machines start bare):
#
#   scripts/ensure-tool.sh chromium     the headless browser for the report test
#   scripts/ensure-tool.sh parallel     GNU parallel for the shard test
#
# Prints "TOOL PATH" for each tool on stdout and what it did on stderr, with
# the install time. Exits 1 when a tool is still missing afterwards (no apt,
# not root and no sudo, no network).
set -uo pipefail

apt_install() {
  local pkg=$1 sudo=
  if [ "$(id -u)" != 0 ]; then
    if command -v sudo >/dev/null 2>&1; then sudo="sudo -n"; else
      echo "ensure-tool: not root and no sudo: cannot install $pkg" >&2
      return 1
    fi
  fi
  if ! command -v apt-get >/dev/null 2>&1; then
    echo "ensure-tool: no apt-get: install $pkg by hand" >&2
    return 1
  fi
  export DEBIAN_FRONTEND=noninteractive
  # An index older than the mirror's packages makes installs 404: refresh
  # once, then retry the install once after another refresh.
  $sudo apt-get update -qq >&2 || true
  $sudo apt-get install -y -qq --no-install-recommends "$pkg" >&2 ||
    { $sudo apt-get update -qq >&2 && $sudo apt-get install -y -qq --no-install-recommends "$pkg" >&2; }
}

find_tool() {
  case $1 in
    chromium) command -v chromium || command -v chromium-browser || command -v google-chrome ;;
    *) command -v "$1" ;;
  esac
}

status=0
for tool in "$@"; do
  case $tool in
    chromium | parallel) ;;
    *) echo "ensure-tool: unknown tool $tool (chromium, parallel)" >&2; status=1; continue ;;
  esac
  path=$(find_tool "$tool")
  if [ -z "$path" ]; then
    start=$(date +%s)
    echo "ensure-tool: installing $tool ..." >&2
    apt_install "$tool"
    path=$(find_tool "$tool")
    echo "ensure-tool: $tool install took $(( $(date +%s) - start )) s" >&2
  fi
  if [ -z "$path" ]; then
    echo "ensure-tool: $tool is missing" >&2
    status=1
  else
    echo "$tool $path"
  fi
done
exit $status
