#!/bin/sh
# samples/search/hardware.json end to end: a search whose knobs are a hardware description's (NICs per node
# and their speed) and the parallelism, objective pareto (step time against network cost).
#  1. grid covers the space: 4 NIC counts x 3 speeds x 4 (tp, dp) splits of 32 GPUs = 48 points, all simulated;
#  2. the first point's network cost is the hand-derived one (docs/search.md, the network cost model): 4 x 8
#     H100, NVLink a Switch of 8 at 450 GB/s (2 links + 1 port per GPU at the spec's price 1), one 100 Gb/s
#     NIC per node, so 100 / 8 / 8 = 1.5625 GB/s per GPU on a Switch of 4 (2 links + 1 port at price 8):
#     32 x (450 x 3 + 1.5625 x 24) = 44400;
#  3. pure data parallelism (tp 1, dp 32) is faster with 8 x 400 Gb/s per node than with 1 x 100;
#  4. best.scenario.json run alone gives the logged best step time exactly.
# usage: search_hardware_sample.sh ASTROLABE SPEC WORKDIR
set -u
A=$1
SPEC=$2
W=$3
rm -rf "$W" && mkdir -p "$W"
fail() { echo "FAIL: $*" >&2; exit 1; }
field() { sed -n "s/^  \"$2\": \([0-9]*\),*$/\1/p" "$1"; }
line() { sed -n "$(($2 + 1))p" "$1"; }
step() { echo "$1" | sed -n 's/.*"step_time_ns":\([0-9]*\),.*/\1/p'; }

"$A" search "$SPEC" --agent grid --budget 1000 --jobs 2 --out "$W/g" --quiet || fail "grid run"
[ "$(wc -l < "$W/g/evaluations.jsonl")" -eq 48 ] || fail "1: 48 evaluations expected"
[ "$(field "$W/g/summary.json" simulated)" = 48 ] || fail "1: 48 simulations expected"

first=$(line "$W/g/evaluations.jsonl" 0)
echo "$first" | grep -q '"hardware.nics_per_node":1,"hardware.nic_gbps":100,"workload.generate.tp":1,' ||
  fail "2: the first point should be 1 x 100 Gb/s, tp 1: $first"
echo "$first" | grep -q '"network_cost":44400.0,' || fail "2: network cost 44400 expected: $first"

last_dp=$(line "$W/g/evaluations.jsonl" 44)
echo "$last_dp" | grep -q '"hardware.nics_per_node":8,"hardware.nic_gbps":400,"workload.generate.tp":1,' ||
  fail "3: point 44 should be 8 x 400 Gb/s, tp 1: $last_dp"
[ "$(step "$last_dp")" -lt "$(step "$first")" ] || fail "3: 8 x 400 Gb/s should beat 1 x 100 with tp 1"

best=$(sed -n 's/^      "step_time_ns": \([0-9]*\)$/\1/p' "$W/g/summary.json")
[ -n "$best" ] || fail "4: no best step time in summary.json"
(cd "$W" && "$A" run --scenario g/best.scenario.json --report best.report.json --quiet) || fail "4: best run"
grep -q "\"total_ns\": $best," "$W/best.report.json" || fail "4: best.scenario.json does not give $best ns"
echo "ok"
