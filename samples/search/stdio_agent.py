#!/usr/bin/env python3
"""An external search agent driving `astrolabe search --agent stdio` (docs/search.md).

A steepest-descent hill climber with random restarts, in about sixty lines: it starts Astrolabe once, sends
a batch of points (a JSON list of {knob path: value}) per line and reads one evaluation line back per
point. Any agent (ArchGym's, COSMIC's, a notebook) can talk to Astrolabe the same way.

    python3 samples/search/stdio_agent.py SPEC.json --out DIR [--budget 60] [--seed 1] [--astrolabe PATH]

It prints the best point and its step time; DIR holds the usual outputs (evaluations.jsonl, ...).
"""
import argparse
import json
import random
import subprocess
import sys


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("spec")
    ap.add_argument("--out", required=True)
    ap.add_argument("--budget", type=int, default=60)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--astrolabe", default="build/release/astrolabe")
    args = ap.parse_args()

    knobs = [(k["path"], k["values"]) for k in json.load(open(args.spec))["knobs"]]
    rng = random.Random(args.seed)
    proc = subprocess.Popen([args.astrolabe, "search", args.spec, "--agent", "stdio", "--budget", str(args.budget),
                             "--out", args.out, "--quiet"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    seen = {}  # point (as JSON text) -> objective, or None when infeasible

    def evaluate(points):
        """Sends a batch, returns the objective of each point (None: infeasible, error or over budget)."""
        proc.stdin.write(json.dumps(points) + "\n")
        proc.stdin.flush()
        out = []
        for p in points:
            answer = json.loads(proc.stdout.readline())
            objective = answer.get("metrics", {}).get("objective") if answer.get("status") == "ok" else None
            seen[json.dumps(p, sort_keys=True)] = objective
            out.append(objective)
        return out

    best, best_obj = None, None
    for _restart in range(1000):  # bounded: a small space may run out of new points before the budget
        if len(seen) >= args.budget:
            break
        # A random start, then moves to the best neighbour (one knob changed) while that improves.
        point = {path: rng.choice(values) for path, values in knobs}
        obj = evaluate([point])[0]
        while obj is not None and len(seen) < args.budget:
            neighbours = [dict(point, **{path: v}) for path, values in knobs for v in values if v != point[path]]
            neighbours = [n for n in neighbours if json.dumps(n, sort_keys=True) not in seen]
            neighbours = neighbours[: args.budget - len(seen)]
            if not neighbours:
                break
            results = [(o, n) for o, n in zip(evaluate(neighbours), neighbours) if o is not None]
            if not results or min(r[0] for r in results) >= obj:
                break
            obj, point = min(results, key=lambda r: r[0])
        if obj is not None and (best_obj is None or obj < best_obj):
            best, best_obj = point, obj
    proc.stdin.close()
    proc.wait()
    if best is None:
        print("no feasible point found", file=sys.stderr)
        return 1
    print(json.dumps({"best": best, "objective": best_obj, "evaluations": len(seen)}, sort_keys=True))
    return proc.returncode


if __name__ == "__main__":
    sys.exit(main())
