#!/usr/bin/env python3
"""Validation of the NCCL-like collective model against measured nccl-tests tables (python3 stdlib only).

Runs `astrolabe collective-perf --json` for every row of every table in tests/data/nccl/ (the open
calibration set; the system from systems.json, the table's own sizes) and, for contrast, the same rows with
`--reference astra-sim`; then the same for tests/data/nccl_beyond/ (public tables nothing was calibrated
on), and the groups of beyond tables where net_efficiency fitted on one (`collective-perf --fit`) is run on
the others (TRANSFER). Prints per-table geomean errors; with --markdown FILE writes the generated part of
docs/validation.md, with --svg FILE the busbw-against-size plot of the open set (and FILE_beyond.svg of the
others).

Error conventions, per table and separately for sizes >= 1 MiB and < 1 MiB:
- issue 20's: the geometric mean of |p - m| / m (each row floored at 0.01 %).
- stricter: exp(mean |ln(p/m)|) - 1, the geometric mean of max(p/m, m/p) minus one.

usage: scripts/nccl_validation.py [--astrolabe build/release/astrolabe] [--data tests/data/nccl]
                                  [--beyond tests/data/nccl_beyond]
                                  [--markdown docs/validation.md] [--svg docs/images/nccl_validation.svg]
(--markdown keeps the hand-written part of the file above its "generated" marker.)
"""
import argparse
import csv
import json
import math
import os
import subprocess
import sys
import tempfile

MIB = 1 << 20


def measured_time_us(row):
    # A few beyond-set sources print only bandwidths (no time column); nccl-tests defines
    # algbw = size / time, so the time follows from the printed algbw (to its two decimals).
    if row["time_us"]:
        return float(row["time_us"])
    return int(row["size_bytes"]) / float(row["algbw_gbs"]) / 1e3


def load_table(path):
    with open(path) as f:
        return [(int(r["size_bytes"]), measured_time_us(r), float(r["busbw_gbs"])) for r in csv.DictReader(f)]


def simulate(exe, hw_path, op, table_path, reference):
    """One `collective-perf --measured` run per table: the model at the table's own sizes (an all-gather's
    are count x ranks x type bytes, not always powers of two), each row beside its measured time, and the
    tool's own per-range errors (checked against this script's below)."""
    cmd = [exe, "collective-perf", "--op", op, "--hardware", hw_path, "--measured", table_path, "--json"]
    if reference:
        cmd += ["--reference", "astra-sim"]
    out = json.loads(subprocess.run(cmd, check=True, capture_output=True, text=True).stdout)
    return {r["size_bytes"]: r for r in out["rows"]}, out["measured"]


def geomean_error(pairs):
    """exp(mean |ln(p/m)|) - 1: the geometric mean of max(p/m, m/p), minus one (the tests' metric)."""
    if not pairs:
        return None
    return math.exp(sum(abs(math.log(p / m)) for p, m in pairs) / len(pairs)) - 1


def geomean_rel(pairs):
    """Geometric mean of |p - m| / m (the convention of the issue's ASTRA-sim figures), floored at 0.01 %."""
    if not pairs:
        return None
    return math.exp(sum(math.log(max(abs(p - m) / m, 1e-4)) for p, m in pairs) / len(pairs))


def evaluate(exe, data):
    systems = json.load(open(os.path.join(data, "systems.json")))
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        for name in sorted(systems):
            entry = systems[name]
            hw_path = os.path.join(tmp, name + ".json")
            json.dump(entry["hardware"], open(hw_path, "w"))
            table_path = os.path.join(data, name + ".csv")
            rows = load_table(table_path)
            ours, ours_tool = simulate(exe, hw_path, entry["collective"], table_path, False)
            astra, astra_tool = simulate(exe, hw_path, entry["collective"], table_path, True)
            table = []
            for size, t, busbw in rows:
                o, a = ours[size], astra[size]
                table.append(dict(size=size, meas_us=t, meas_busbw=busbw, ours_us=o["time_us"],
                                  ours_busbw=o["busbw_gbs"], algo=o.get("algo", "") + "/" + o.get("proto", ""),
                                  astra_us=a["time_us"], astra_busbw=a["busbw_gbs"]))
            res = dict(name=name, op=entry["collective"], hw=entry["hardware"], rows=table)
            for tag, key in (("ours", "ours_us"), ("astra", "astra_us")):
                big = [(r[key], r["meas_us"]) for r in table if r["size"] >= MIB]
                small = [(r[key], r["meas_us"]) for r in table if r["size"] < MIB]
                res[tag + "_big"] = geomean_error(big)
                res[tag + "_small"] = geomean_error(small)
                res[tag + "_all"] = geomean_error(big + small)
                res[tag + "_big_rel"] = geomean_rel(big)
                res[tag + "_small_rel"] = geomean_rel(small)
                # The tool's --measured summary is the same two metrics (core/session/measured_compare.h).
                tool = ours_tool if tag == "ours" else astra_tool
                for rng, rows_of in (("large", big), ("small", small)):
                    if not rows_of:
                        continue
                    mine = (geomean_rel(rows_of), geomean_error(rows_of))
                    theirs = (tool[rng]["geomean_error"], tool[rng]["strict_error"])
                    if any(abs(x - y) > 1e-5 * max(1.0, abs(x)) for x, y in zip(mine, theirs)):
                        sys.exit("%s (%s, %s): the script's errors %s differ from collective-perf --measured's %s"
                                 % (name, tag, rng, mine, theirs))
            results.append(res)
    return results


# Calibrating on a user's own table (`collective-perf --measured FILE --fit OUT`): net_efficiency fitted on
# one beyond-set table, then the other tables of the same cluster (or the same instance type) run with it.
# The model's own figures are never fitted so; this shows what a user's fit carries, and where it does not.
TRANSFER = [
    ("xxrjun_ex01_N10_G8_all_reduce", "same cluster and job",
     ["xxrjun_ex01_N10_G8_all_gather", "xxrjun_ex01_N10_G8_reduce_scatter", "xxrjun_ex01_N10_G8_all_to_all"]),
    ("nccltests309-gjaion_h100_4node_all_reduce", "same cluster",
     ["nccltests309-gjaion_h100_8node_all_reduce", "nccltests309-gjaion_h100_2node_all_reduce"]),
    ("crazyguitar_h100_2node_all_gather", "same cluster",
     ["crazyguitar_h100_4node_all_gather", "crazyguitar_h100_8node_all_gather",
      "crazyguitar_h100_16node_all_gather", "crazyguitar_h100_32node_all_gather"]),
    ("crazyguitar_h100_2node_all_reduce", "same cluster",
     ["crazyguitar_h100_4node_all_reduce", "crazyguitar_h100_8node_all_reduce",
      "crazyguitar_h100_16node_all_reduce", "crazyguitar_h100_2node_all_gather"]),
    ("keitaw-p5-run1_h100_2node_all_reduce", "same instance type (p5)",
     ["keitaw-tuner_h100_2node_all_reduce", "awsome-pcluster-obs-p5_h100_2node_all_reduce"]),
    ("a3bootcamp-a3mega_h100_2node_all_gather", "same instance type (a3-mega)",
     ["dstack-a3mega_h100_2node_all_gather", "gcp-a3mega-ztan_h100_2node_all_reduce"]),
]


def transfer(exe, data, beyond):
    """Per TRANSFER group: the fitted fraction, and each target's >= 1 MiB error (issue's convention) with
    its description as given and with the fitted net_efficiency added."""
    systems = json.load(open(os.path.join(data, "systems.json")))
    by_name = {r["name"]: r for r in beyond}
    out = []
    with tempfile.TemporaryDirectory() as tmp:
        for cal, relation, targets in TRANSFER:
            entry = systems[cal]
            hw_path = os.path.join(tmp, "cal.json")
            json.dump(entry["hardware"], open(hw_path, "w"))
            fitted_path = os.path.join(tmp, "fitted.json")
            cmd = [exe, "collective-perf", "--op", entry["collective"], "--hardware", hw_path, "--measured",
                   os.path.join(data, cal + ".csv"), "--fit", fitted_path, "--json"]
            done = subprocess.run(cmd, capture_output=True, text=True)
            if done.returncode == 2:  # refused: the table does not show the fraction (the reason is kept)
                out.append(dict(cal=cal, relation=relation, refused=done.stderr.strip().split(": ", 1)[-1].split(". ")[0],
                                rows=[]))
                continue
            done.check_returncode()
            fit = json.loads(done.stdout)["fit"]
            _, own_fitted = simulate(exe, fitted_path, entry["collective"], os.path.join(data, cal + ".csv"), False)
            rows = []
            for t in targets:
                hw = dict(systems[t]["hardware"], net_efficiency=fit["net_efficiency"])
                t_path = os.path.join(tmp, "target.json")
                json.dump(hw, open(t_path, "w"))
                _, tool = simulate(exe, t_path, systems[t]["collective"], os.path.join(data, t + ".csv"), False)
                rows.append((t, by_name[t]["ours_big_rel"], tool["large"]["geomean_error"]))
            out.append(dict(cal=cal, relation=relation, fit=fit, own=by_name[cal]["ours_big_rel"],
                            own_fitted=own_fitted["large"]["geomean_error"], rows=rows))
    return out


def transfer_markdown(groups):
    out = ["## Calibrated on a sibling table (`collective-perf --fit`)", "",
           "net_efficiency fitted on the first table of each group (its rows mostly moving bytes), then the",
           "group's other tables run with it; errors at >= 1 MiB, issue 20's convention. The model's own",
           "figures stay as calibrated on the open set; this is what a user's fit on their cluster carries.", "",
           "| fitted on | relation | net_efficiency | its own error, as described -> fitted | table run with it | error as described | with the fit |",
           "|---|---|---:|---:|---|---:|---:|"]
    for g in groups:
        if "refused" in g:
            out.append("| `%s` | %s | not fitted: %s | | | | |" % (g["cal"], g["relation"], g["refused"]))
            continue
        first = True
        for t, before, after in g["rows"]:
            head = ("`%s` | %s | %.3f (was %.3f) | %s -> %s" % (
                g["cal"], g["relation"], g["fit"]["net_efficiency"], g["fit"]["previous"], pct(g["own"]),
                pct(g["own_fitted"]))) if first else " | | |"
            out.append("| %s | `%s` | %s | %s |" % (head, t, pct(before), pct(after)))
            first = False
    return out + [""]


def spread(results):
    """Groups of tables (open and beyond) that describe the same system and collective: how far apart the
    measurements themselves are on their common sizes (strict convention, symmetric in the two tables), next
    to the model's own strict error on each. One description gets one prediction, so on a pair whose
    measurements are s apart the model is off by at least about s / 2 on one of the two: where s is above
    twice the target, no model of the description meets it on both, and the miss is the clusters', not the
    model's."""
    groups = {}
    for r in results:
        key = (r["op"], json.dumps(r["hw"], sort_keys=True))
        groups.setdefault(key, []).append(r)
    out = []
    for (op, _), tables in sorted(groups.items()):
        if len(tables) < 2:
            continue
        pairs = []
        for i, a in enumerate(tables):
            for b in tables[i + 1:]:
                ta = {x["size"]: x["meas_us"] for x in a["rows"]}
                tb = {x["size"]: x["meas_us"] for x in b["rows"]}
                common = sorted(set(ta) & set(tb))
                big = [(ta[s], tb[s]) for s in common if s >= MIB]
                small = [(ta[s], tb[s]) for s in common if s < MIB]
                pairs.append((a["name"], b["name"], len(big), geomean_error(big), len(small), geomean_error(small)))
        out.append(dict(op=op, tables=[(t["name"], t["ours_big"], t["ours_small"]) for t in tables], pairs=pairs))
    return out


def spread_markdown(groups):
    out = ["## How far apart the machines are: one description, several measured tables", "",
           "Tables (open and beyond) whose systems are described identically and measure the same collective,",
           "compared with each other on their common sizes (strict convention, exp(mean |ln(a/b)|) - 1, symmetric).",
           "A description gets one prediction, so where two tables are s apart the model is off by at least about",
           "s / 2 on one of them: above 10 % (>= 1 MiB) or 30 % (< 1 MiB) no model of the description meets the",
           "target on both, and the miss belongs to the clusters. Below that, a miss on all of them is the model's.", "",
           "| op | table | ours >= 1 MiB | ours < 1 MiB | against | common rows >= 1 MiB | apart | rows < 1 MiB | apart |",
           "|---|---|---:|---:|---|---:|---:|---:|---:|"]
    for g in groups:
        errs = {n: (big, small) for n, big, small in g["tables"]}
        for a, b, nb, sb, ns, ss in g["pairs"]:
            out.append("| %s | `%s` | %s | %s | `%s` (%s, %s) | %d | %s | %d | %s |" % (
                g["op"], a, pct(errs[a][0]), pct(errs[a][1]), b, pct(errs[b][0]), pct(errs[b][1]), nb, pct(sb), ns,
                pct(ss)))
    return out + [""]


def pct(x):
    return "-" if x is None else "%.1f %%" % (100 * x)


def human(size):
    for unit, div in (("G", 1 << 30), ("M", 1 << 20), ("K", 1 << 10)):
        if size >= div:
            return "%g%s" % (size / div, unit)
    return str(size)


def summary_tables(results):
    out = ["Issue 20's convention (geometric mean of |p - m| / m; targets 5 % at >= 1 MiB, 15 % below):", "",
           "| table | op | rows | ours >= 1 MiB | ours < 1 MiB | ASTRA-sim >= 1 MiB | ASTRA-sim < 1 MiB |",
           "|---|---|---|---|---|---|---|"]
    for r in results:
        out.append("| `%s` | %s | %d | %s | %s | %s | %s |" % (r["name"], r["op"], len(r["rows"]), pct(r["ours_big_rel"]),
                   pct(r["ours_small_rel"]), pct(r["astra_big_rel"]), pct(r["astra_small_rel"])))
    out.append("")
    out.append("The same rows with the stricter convention, exp(mean |ln(p/m)|) - 1:")
    out.append("")
    out.append("| table | ours >= 1 MiB | ours < 1 MiB | ASTRA-sim >= 1 MiB | ASTRA-sim < 1 MiB |")
    out.append("|---|---|---|---|---|")
    for r in results:
        out.append("| `%s` | %s | %s | %s | %s |" % (r["name"], pct(r["ours_big"]), pct(r["ours_small"]),
                   pct(r["astra_big"]), pct(r["astra_small"])))
    out.append("")
    return out


def row_tables(results):
    out = []
    for r in results:
        out.append("### `%s`" % r["name"])
        out.append("")
        out.append("| size | measured us | ours us | ours err | algo/proto | ASTRA-sim us | ASTRA-sim err | measured busbw | ours busbw |")
        out.append("|---|---|---|---|---|---|---|---|---|")
        for x in r["rows"]:
            e1 = max(x["ours_us"] / x["meas_us"], x["meas_us"] / x["ours_us"]) - 1
            e2 = max(x["astra_us"] / x["meas_us"], x["meas_us"] / x["astra_us"]) - 1
            out.append("| %s | %.2f | %.2f | %.1f %% | %s | %.2f | %.1f %% | %.2f | %.2f |" % (
                human(x["size"]), x["meas_us"], x["ours_us"], 100 * e1, x["algo"], x["astra_us"], 100 * e2,
                x["meas_busbw"], x["ours_busbw"]))
        out.append("")
    return out


def markdown(results, beyond, groups, spreads):
    out = ["## The open set", ""] + summary_tables(results)
    if beyond:
        out += ["## Beyond the open set (nothing calibrated on these but the host's cost per queued send and receive, on msft-superbench's all-to-all)", ""] + summary_tables(beyond)
    if groups:
        out += transfer_markdown(groups)
    if spreads:
        out += spread_markdown(spreads)
    out += ["## Per size: the open set", ""] + row_tables(results)
    if beyond:
        out += ["## Per size: beyond the open set", ""] + row_tables(beyond)
    return "\n".join(out) + "\n"


COLORS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf", "#7f7f7f",
          "#bcbd22", "#393b79", "#637939"]


def svg(results):
    """Small multiples: one panel per table, busbw (GB/s) against size (log2), measured vs predicted."""
    cols, pw, ph, pad = 3, 330, 210, 46
    rows_n = (len(results) + cols - 1) // cols
    width, height = cols * pw, rows_n * ph + 40
    s = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="sans-serif" font-size="10">' % (width, height),
         '<rect width="100%" height="100%" fill="white"/>',
         '<text x="10" y="18" font-size="11">busbw (GB/s) against size: measured (dots), Astrolabe NCCL-like model '
         '(blue line, geomean |p-m|/m), ASTRA-sim HGX-H100-validated (grey dashes, clipped); x: size, log scale</text>']
    for i, r in enumerate(results):
        x0, y0 = (i % cols) * pw + pad, (i // cols) * ph + 40
        w, h = pw - pad - 14, ph - 52
        sizes = [x["size"] for x in r["rows"]]
        lo, hi = math.log2(min(sizes)), math.log2(max(sizes))
        hi = max(hi, lo + 1)
        # Scaled to the measurements and our model; ASTRA-sim's curve is clipped at the top where it overshoots.
        ymax = max(max(x["meas_busbw"], x["ours_busbw"]) for x in r["rows"]) * 1.15 or 1
        fx = lambda sz: x0 + (math.log2(sz) - lo) / (hi - lo) * w
        fy = lambda v: y0 + h - min(v, ymax) / ymax * h
        s.append('<rect x="%d" y="%d" width="%d" height="%d" fill="none" stroke="#999"/>' % (x0, y0, w, h))
        s.append('<text x="%d" y="%d" font-size="10">%s</text>' % (x0, y0 - 4, r["name"]))
        for frac in (0, 0.5, 1):
            v = ymax * frac
            s.append('<text x="%d" y="%d" text-anchor="end">%.0f</text>' % (x0 - 3, fy(v) + 3, v))
        s.append('<text x="%d" y="%d">%s</text>' % (x0, y0 + h + 12, human(min(sizes))))
        s.append('<text x="%d" y="%d" text-anchor="end">%s</text>' % (x0 + w, y0 + h + 12, human(max(sizes))))
        for key, style in (("astra_busbw", 'stroke="#888" stroke-dasharray="4,3"'), ("ours_busbw", 'stroke="#1f77b4"')):
            pts = " ".join("%.1f,%.1f" % (fx(x["size"]), fy(x[key])) for x in r["rows"])
            s.append('<polyline fill="none" stroke-width="1.5" %s points="%s"/>' % (style, pts))
        for x in r["rows"]:
            s.append('<circle cx="%.1f" cy="%.1f" r="2.2" fill="#d62728"/>' % (fx(x["size"]), fy(x["meas_busbw"])))
        s.append('<text x="%d" y="%d" fill="#1f77b4">error %s (&gt;= 1 MiB), %s (&lt; 1 MiB)</text>' % (x0 + 4, y0 + 12, pct(r["ours_big_rel"]), pct(r["ours_small_rel"])))
    s.append("</svg>")
    return "\n".join(s) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--astrolabe", default="build/release/astrolabe")
    ap.add_argument("--data", default="tests/data/nccl")
    ap.add_argument("--beyond", default="tests/data/nccl_beyond", help="tables nothing was calibrated on ('' = none)")
    ap.add_argument("--markdown")
    ap.add_argument("--svg")
    a = ap.parse_args()
    results = evaluate(a.astrolabe, a.data)
    beyond = evaluate(a.astrolabe, a.beyond) if a.beyond else []
    groups = transfer(a.astrolabe, a.beyond, beyond) if a.beyond else []
    spreads = spread(results + beyond)
    print("%-52s %-19s %-19s (issue's convention, then strict)" % ("table", ">= 1 MiB", "< 1 MiB"))
    for r in results + beyond:
        print("%-52s %8s %8s  %8s %8s" % (r["name"], pct(r["ours_big_rel"]), pct(r["ours_big"]),
                                          pct(r["ours_small_rel"]), pct(r["ours_small"])))
    for g in groups:
        if "refused" in g:
            print("not fitted on %s: %s" % (g["cal"], g["refused"]))
            continue
        print("fitted on %s: net_efficiency %.3f" % (g["cal"], g["fit"]["net_efficiency"]))
        for t, before, after in g["rows"]:
            print("  %-50s %8s -> %8s" % (t, pct(before), pct(after)))
    for g in spreads:
        print("one description, %d tables (%s): measured tables apart (strict, >= 1 MiB / < 1 MiB)" % (len(g["tables"]), g["op"]))
        for x, y, nb, sb, ns, ss in g["pairs"]:
            print("  %-44s %-44s %8s %8s" % (x[:44], y[:44], pct(sb), pct(ss)))
    if a.markdown:
        # Everything above the marker is hand-written and kept; everything below is regenerated.
        marker = "<!-- generated by scripts/nccl_validation.py: do not edit below -->"
        head = ""
        if os.path.exists(a.markdown):
            text = open(a.markdown).read()
            # No marker yet: the whole file is the hand-written part.
            head = text[: text.index(marker)] if marker in text else text.rstrip("\n") + "\n\n"
        open(a.markdown, "w").write(head + marker + "\n\n" + markdown(results, beyond, groups, spreads))
    if a.svg:
        open(a.svg, "w").write(svg(results))
        if beyond:  # the same plot for the tables beyond the open set, next to it
            open(a.svg.replace(".svg", "_beyond.svg"), "w").write(svg(beyond))
    return 0


if __name__ == "__main__":
    sys.exit(main())
