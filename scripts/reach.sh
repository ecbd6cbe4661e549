#!/usr/bin/env bash
# The reach benchmark (src/lab/bench/reach/).
#   scripts/reach.sh [ARGS]   run it: pbrain-sente bench reach ARGS (default:
#                             500 ms and the fixed node count, dev set)
#   scripts/reach.sh make DIR rebuild src/lab/bench/reach/reach.txt from fresh self-play:
#                             120 freestyle 15x15 games at 100 ms a move (two
#                             batches, seeds 1 and 2, default openings) into
#                             DIR, then sente-lab reach-make over their records.
# Self-play timing varies, so a remake gives other games; the file in the
# repository is what the figures in scripts/RESULTS.md were measured on.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
bin=target/release/pbrain-sente
if [[ "${1:-}" == "make" ]]; then
    dir=${2:?usage: scripts/reach.sh make DIR}
    mkdir -p "$dir"
    cp "$bin" "$dir/pbrain-sente"
    for seed in 1 2; do
        games=$((seed == 1 ? 40 : 80))
        target/release/sente-arena --engine1 "$dir/pbrain-sente" --engine2 "$dir/pbrain-sente" \
            --rule 0 --size 15 --turn 100 --games "$games" --concurrency 2 --seed "$seed" \
            --records "$dir/rec$seed" >"$dir/arena$seed.out"
    done
    target/release/sente-lab reach-make "$dir/rec1/games.txt" "$dir/rec2/games.txt" --rule 0 --size 15 \
        --ms 500 --jobs 2 --out src/lab/bench/reach/reach.txt
    exit 0
fi
"$bin" bench reach "$@"
