#!/bin/sh
# Search throughput: evaluations/s and peak memory of one `astrolabe search` in a fresh folder. Run by hand,
# never as a timed test (docs/search.md, Speed, has the numbers of this machine).
#
#   bench/search_bench.sh [ASTROLABE] [SPEC] [AGENT] [BUDGET] [JOBS]
#
# Defaults: build/release/astrolabe, bench/search_cosmic_network.json (GPT-3 175B on 1024 NPUs, 4-D network,
# collective and network knobs: every point reuses the generated traces), random, 8, 2. The per-worker memory
# is the process peak divided by the workers: each worker holds one generated workload and one simulation.
A=${1:-build/release/astrolabe}
SPEC=${2:-bench/search_cosmic_network.json}
AGENT=${3:-random}
BUDGET=${4:-8}
JOBS=${5:-2}
OUT=$(mktemp -d) || exit 1
trap 'rm -rf "$OUT"' EXIT
/usr/bin/time -f "%M" -o "$OUT/rss" "$A" search "$SPEC" --agent "$AGENT" --budget "$BUDGET" --jobs "$JOBS" \
    --out "$OUT/run" --quiet || exit 1
num() { sed -n "s/^  \"$1\": \([0-9.e+]*\),*$/\1/p" "$OUT/run/summary.json"; }
rss_kb=$(cat "$OUT/rss")
echo "spec $SPEC, agent $AGENT, budget $BUDGET, jobs $JOBS"
echo "evaluations $(num evaluations) (simulated $(num simulated), infeasible $(num infeasible), errors $(num errors))"
echo "wall $(num wall_s) s, $(num evaluations_per_s) simulated evaluations/s"
awk -v kb="$rss_kb" -v j="$JOBS" 'BEGIN { printf "peak memory %.0f MB, about %.0f MB per worker\n", kb / 1024, kb / 1024 / j }'
