# Shared by the match scripts (sprt.sh, strength.sh); sourced, not run.
#
# find_shared REPO   prints the shared/ folder (holding openings/) beside the
#                    repository root or beside one of its ancestors
# rule_name RULE     prints freestyle/standard/renju/caro for 0/1/4/8 or a name
# build_rev REPO WORK SIDE REV TARGET_DIR BIN
#                    builds BIN at git revision REV in a detached worktree
#                    WORK/SIDE and copies it to WORK/pbrain-SIDE
# remove_worktrees REPO WORK SIDE...   removes what build_rev added

find_shared() {
  local repo=$1 dir=$1
  while [ "$dir" != / ]; do
    if [ -d "$dir/../shared/openings" ]; then
      (cd "$dir/../shared" && pwd)
      return
    fi
    dir=$(dirname "$dir")
  done
  echo "$repo/../shared"
}

rule_name() {
  case "$1" in
    0|freestyle) echo freestyle ;;
    1|standard) echo standard ;;
    4|renju) echo renju ;;
    8|caro) echo caro ;;
    *) return 1 ;;
  esac
}

build_rev() {
  local repo=$1 work=$2 side=$3 rev=$4 target=$5 bin=$6
  echo "== building $side at $rev" >&2
  git -C "$repo" worktree add --detach --quiet "$work/$side" "$rev"
  (cd "$work/$side" && CARGO_TARGET_DIR=$target cargo build --release --quiet --bin "$bin")
  cp "$target/release/$bin" "$work/pbrain-$side"
}

remove_worktrees() {
  local repo=$1 work=$2
  shift 2
  local side
  for side in "$@"; do
    if [ -d "$work/$side" ]; then
      git -C "$repo" worktree remove --force "$work/$side" >/dev/null 2>&1 || true
    fi
  done
  git -C "$repo" worktree prune >/dev/null 2>&1 || true
}
