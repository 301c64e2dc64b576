#!/usr/bin/env python3
"""Markdown tables from the JSON lines of scripts/dsa-search-bench.sh."""
import json
import statistics
import sys
from collections import defaultdict

# MiniMalloc's median seconds to decide capacity 2^20 on a 2-core machine (issue 5) and what it
# proves when minimising: the optimum, or the open interval for D and J.
MINIMALLOC = {"A": 14.5, "B": 11.7, "C": 1.8, "D": 10.6, "E": 10.2, "F": 19.2, "G": 3.3,
              "H": 4.9, "I": 10.5, "J": 4.0, "K": 1.5}
KNOWN = {"A": "1,048,576", "B": "1,048,576", "C": "1,039,360", "D": "[986,112, 1,031,168]",
         "E": "1,048,576", "F": "1,048,576", "G": "1,048,576", "H": "1,048,576", "I": "1,048,576",
         "J": "[989,184, 1,041,408]", "K": "1,048,576"}

rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]


def secs(j):
    return j["millis"] / 1000.0 if j.get("millis") is not None else float("nan")


def fmt(x):
    return "{:,}".format(x) if isinstance(x, int) else ("-" if x is None else str(x))


dec = defaultdict(list)
mini = {}
for j in rows:
    inst = j.get("instance", "")[:1]
    if j.get("part") == "decide":
        dec[(inst, j["planner"])].append(j)
    elif j.get("part") == "minimise":
        mini[(inst, j["planner"])] = j
if dec:
    print("## MiniMalloc challenging: deciding capacity 2^20 (median of runs)\n")
    print("| inst | planner | status | runs | median s | MiniMalloc s | ratio |")
    print("|---|---|---|---:|---:|---:|---:|")
    ratios = defaultdict(list)
    for (inst, p), js in sorted(dec.items()):
        med = statistics.median(secs(j) for j in js)
        st = "/".join(sorted({j["status"] for j in js}))
        r = med / MINIMALLOC[inst] if inst in MINIMALLOC else float("nan")
        ratios[p].append(r)
        print(f"| {inst} | {p} | {st} | {len(js)} | {med:.3f} | {MINIMALLOC.get(inst, '-')} | {r:.4f} |")
    for p, rs in ratios.items():
        print(f"\n{p}: geometric mean ratio {statistics.geometric_mean(rs):.4f}, max {max(rs):.4f}")
    print()
if mini:
    print("## MiniMalloc challenging: minimising the peak\n")
    print("| inst | planner | status | peak | proven bound | known | s |")
    print("|---|---|---|---:|---:|---|---:|")
    for (inst, p), j in sorted(mini.items()):
        print(f"| {inst} | {p} | {j['status']} | {fmt(j.get('peakBytes'))} | "
              f"{fmt(j.get('plannerLowerBound'))} | {KNOWN.get(inst, '-')} | {secs(j):.2f} |")
    print()
zoo = [j for j in rows if j.get("part") == "zoo"]
if zoo:
    print("## Zoo GMEM instances\n")
    by = defaultdict(list)
    for j in zoo:
        by[j["planner"]].append(j)
    print("| planner | runs | OPTIMAL | peak = max-load | max s | median s | slowest |")
    print("|---|---:|---:|---:|---:|---:|---|")
    for p, js in sorted(by.items()):
        opt = sum(j["status"] == "OPTIMAL" for j in js)
        tight = sum(j.get("peakBytes") is not None and j.get("peakBytes") == j.get("lowerBound") for j in js)
        slow = max(js, key=secs)
        print(f"| {p} | {len(js)} | {opt} | {tight} | {secs(slow):.2f} | "
              f"{statistics.median(secs(j) for j in js):.3f} | {slow['model']} on {slow['chip']} |")
    others = [j for j in zoo if j["status"] != "OPTIMAL"]
    for j in others:
        print(f"\nnot optimal: {j['model']} on {j['chip']} with {j['planner']}: {j['status']} "
              f"peak {fmt(j.get('peakBytes'))} bound {fmt(j.get('plannerLowerBound'))}")
    print()
scale = [j for j in rows if j.get("part") == "scale"]
if scale:
    print("## Generated instances (memplan dsa --generate N --generate-seed S)\n")
    print("| buffers | seed | planner | status | peak / max-load | s |")
    print("|---:|---:|---|---|---:|---:|")
    for j in sorted(scale, key=lambda j: (int(j["n"]), j["instance"], j["planner"])):
        ratio = j.get("ratio")
        print(f"| {int(j['n']):,} | {j['instance'].rsplit('-s', 1)[1]} | {j['planner']} | {j['status']} | "
              f"{'-' if ratio is None else f'{ratio:.4f}'} | {secs(j):.2f} |")
training = [j for j in rows if j.get("part") == "training"]
if training:
    print("## Training-step traces (memplan dsa --generate N --generate-kind training)\n")
    print("Solve: the planner's own time; wall: the whole process (JVM start, reading the CSV,"
          " validation). Over max-load: (peak / max-load bound - 1), in percent.\n")
    print("| trace | planner | limit | status | solve ms | wall ms | over max-load |")
    print("|---|---|---|---|---:|---:|---:|")
    for j in sorted(training, key=lambda j: (j["model"], int(j["n"]), j["planner"])):
        peak, lb = j.get("peakBytes"), j.get("lowerBound")
        over = "-" if not peak or not lb else f"{(peak / lb - 1) * 100:.3f}%"
        solve = "-" if j.get("millis") is None else f"{j['millis']:.0f}"
        print(f"| {j['instance']} | {j['planner']} | {j['limit']} | {j['status']} | {solve} | "
              f"{j['wall_ms']} | {over} |")
