#!/bin/sh
# End-to-end checks of `astrolabe search` on tests/data/search/tiny.json (108 points, 28 feasible):
#  1. the log is byte-identical with --jobs 1 and --jobs 2 (results are taken in proposal order);
#  2. a re-run in the same folder simulates nothing (summary: simulated 0, cached 20) and leaves the log as is;
#  3. a search killed mid-way (the log cut to 7 lines and half a line) resumes to the same log as an
#     uninterrupted one, simulating only the lost points;
#  4. a larger budget continues the search: the log equals a fresh search with that budget;
#  5. best.scenario.json run alone with `astrolabe run --scenario` gives the logged best step time exactly;
#  6. --agent stdio answers each point with its log line, a repeat with the same line, a bad point with an error;
#  7. the evaluator's reuse of generated traces changes nothing: grid (neighbouring points share a workload)
#     and the same points through stdio ordered by the network knobs (the workload changes at every point)
#     log the same results.
# usage: search_cli.sh ASTROLABE SPEC WORKDIR
set -u
A=$1
SPEC=$2
W=$3
rm -rf "$W" && mkdir -p "$W"
fail() { echo "FAIL: $*" >&2; exit 1; }
field() { sed -n "s/^  \"$2\": \([0-9]*\),*$/\1/p" "$1"; }

"$A" search "$SPEC" --agent random --budget 20 --seed 3 --jobs 1 --out "$W/j1" --quiet || fail "jobs 1 run"
"$A" search "$SPEC" --agent random --budget 20 --seed 3 --jobs 2 --out "$W/j2" --quiet || fail "jobs 2 run"
cmp "$W/j1/evaluations.jsonl" "$W/j2/evaluations.jsonl" || fail "1: --jobs 1 and --jobs 2 logs differ"
[ "$(wc -l < "$W/j1/evaluations.jsonl")" -eq 20 ] || fail "1: 20 lines expected"

cp "$W/j2/evaluations.jsonl" "$W/before.jsonl"
"$A" search "$SPEC" --agent random --budget 20 --seed 3 --jobs 2 --out "$W/j2" --quiet || fail "re-run"
cmp "$W/before.jsonl" "$W/j2/evaluations.jsonl" || fail "2: the re-run changed the log"
[ "$(field "$W/j2/summary.json" simulated)" = 0 ] || fail "2: the re-run simulated something"
[ "$(field "$W/j2/summary.json" cached)" = 20 ] || fail "2: 20 cached evaluations expected"

mkdir -p "$W/killed"
cp "$W/j2/spec.fingerprint.json" "$W/killed/"
head -7 "$W/before.jsonl" > "$W/killed/evaluations.jsonl"
sed -n 8p "$W/before.jsonl" | cut -c1-40 | tr -d '\n' >> "$W/killed/evaluations.jsonl"
"$A" search "$SPEC" --agent random --budget 20 --seed 3 --jobs 2 --out "$W/killed" --quiet || fail "resume"
cmp "$W/before.jsonl" "$W/killed/evaluations.jsonl" || fail "3: the resumed log differs"
[ "$(field "$W/killed/summary.json" cached)" = 7 ] || fail "3: 7 cached evaluations expected"
[ "$(field "$W/killed/summary.json" simulated)" -le 13 ] || fail "3: at most 13 new simulations expected"

"$A" search "$SPEC" --agent random --budget 26 --seed 3 --jobs 2 --out "$W/j2" --quiet || fail "longer run"
"$A" search "$SPEC" --agent random --budget 26 --seed 3 --jobs 1 --out "$W/fresh26" --quiet || fail "fresh 26"
cmp "$W/fresh26/evaluations.jsonl" "$W/j2/evaluations.jsonl" || fail "4: continued and fresh logs differ"
[ "$(field "$W/j2/summary.json" cached)" = 20 ] || fail "4: the first 20 should come from the log"

best=$(sed -n 's/^      "step_time_ns": \([0-9]*\)$/\1/p' "$W/j2/summary.json")
[ -n "$best" ] || fail "5: no best step time in summary.json"
(cd "$W" && "$A" run --scenario j2/best.scenario.json --report best.report.json --quiet) || fail "5: best scenario run"
grep -q "\"total_ns\": $best," "$W/best.report.json" || fail "5: best.scenario.json does not give $best ns"

out=$(printf '%s\n%s\n%s\n' \
  '{"workload.generate.dp":2,"workload.generate.tp":2,"workload.generate.pp":2,"network.topology[1]":"Ring","network.bandwidth[1]":25}' \
  '[{"workload.generate.dp":2,"workload.generate.tp":2,"workload.generate.pp":2,"network.topology[1]":"Ring","network.bandwidth[1]":25}]' \
  '{"workload.generate.dp":3}' | "$A" search "$SPEC" --agent stdio --out "$W/stdio" --quiet) || fail "6: stdio run"
[ "$(echo "$out" | wc -l)" -eq 3 ] || fail "6: 3 answer lines expected, got: $out"
l1=$(echo "$out" | sed -n 1p)
l2=$(echo "$out" | sed -n 2p)
[ "$l1" = "$l2" ] || fail "6: a repeated point should get the same line"
echo "$l1" | grep -q '"status":"ok"' || fail "6: the point should simulate: $l1"
echo "$out" | sed -n 3p | grep -q "3 is not one of its values" || fail "6: a bad value should be named"
[ "$(wc -l < "$W/stdio/evaluations.jsonl")" -eq 1 ] || fail "6: one logged point expected"
"$A" search "$SPEC" --agent grid --budget 1000 --jobs 1 --out "$W/grid" --quiet || fail "7: grid"
sed 's/.*"knobs":\({[^}]*}\).*/\1/' "$W/grid/evaluations.jsonl" | sort -t, -k4 > "$W/points"
[ "$(wc -l < "$W/points")" -eq 28 ] || fail "7: 28 feasible points expected"
"$A" search "$SPEC" --agent stdio --budget 1000 --jobs 1 --out "$W/shuffled" --quiet < "$W/points" > "$W/answers" || fail "7: stdio"
sed 's/^{"index":[0-9]*,//' "$W/grid/evaluations.jsonl" | sort > "$W/a"
sed 's/^{"index":[0-9]*,//' "$W/answers" | sort > "$W/b"
cmp "$W/a" "$W/b" || fail "7: results depend on the evaluation order"
echo "search CLI checks passed"
