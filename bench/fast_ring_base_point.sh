#!/bin/sh
# The ring fast path on the COSMIC-like search benchmark's base point: `astrolabe run --scenario` of the
# spec's `base` with the fast path on and off, alternating, RUNS times each; prints events, the fast-ring
# note and the process's CPU seconds and peak memory, and checks the two reports agree apart from the
# engine's counts and note. Run by hand, never as a timed test (docs/performance.md has the numbers).
#
#   bench/fast_ring_base_point.sh [ASTROLABE] [SPEC] [RUNS]
A=${1:-build/release/astrolabe}
SPEC=${2:-bench/search_cosmic_network.json}
RUNS=${3:-3}
OUT=$(mktemp -d) || exit 1
trap 'rm -rf "$OUT"' EXIT
python3 -c 'import json, sys; json.dump(json.load(open(sys.argv[1]))["base"], open(sys.argv[2], "w"))' \
    "$SPEC" "$OUT/base.json" || exit 1
i=0
while [ "$i" -lt "$RUNS" ]; do
    for mode in on off; do
        /usr/bin/time -f "%U %S %M" -o "$OUT/time" "$A" run --scenario "$OUT/base.json" --fast-ring "$mode" \
            --report "$OUT/$mode.json" --quiet || exit 1
        python3 - "$OUT/$mode.json" "$OUT/time" "$mode" <<'PY'
import json, sys
e = json.load(open(sys.argv[1]))["engine"]
user, system, kb = open(sys.argv[2]).read().split()
print(f"fast ring {sys.argv[3]:3}: {e['events']} events, {float(user) + float(system):.2f} CPU s, "
      f"{int(kb) // 1024} MB peak; {e['fast_ring'] or '(off by request)'}")
PY
    done
    i=$((i + 1))
done
python3 - "$OUT/on.json" "$OUT/off.json" <<'PY'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
for r in (a, b):
    for k in ("events", "peak_queue", "fast_ring", "wall_s", "events_per_s"):
        r["engine"].pop(k, None)
print("reports: " + ("the same apart from the engine's counts and note" if a == b else "DIFFERENT"))
PY
