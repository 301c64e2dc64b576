#!/usr/bin/env bash
# Every GMEM planner on every zoo model (until the experiments issue brings suites): one JSON
# line per (model, planner) into OUT.jsonl, then a Markdown table of peak / max-load lower bound.
# Usage: scripts/gmem-baselines.sh [CHIP] [OUT.jsonl]    (defaults: bm1684x, gmem-baselines.jsonl)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
chip="${1:-bm1684x}"
out="${2:-gmem-baselines.jsonl}"
tmp="$(mktemp)"
trap 'rm -f "$tmp"' EXIT
for model in $("$root/memplan" list models | awk '{print $1}'); do
  "$root/memplan" gmem --model "$model" --chip "$chip" --planner all --json >>"$tmp"
done
mv "$tmp" "$out"
trap - EXIT
python3 - "$out" <<'PY'
import json, sys
rows, planners = {}, []
for line in open(sys.argv[1]):
    j = json.loads(line)
    if j["planner"] not in planners:
        planners.append(j["planner"])
    rows.setdefault(j["model"], {})[j["planner"]] = j
print("| model | LB (bytes) | " + " | ".join(planners) + " |")
print("|---|---:|" + "---:|" * len(planners))
for model, by in rows.items():
    lb = next(iter(by.values())).get("lowerBound")
    cells = []
    for p in planners:
        j = by.get(p)
        cells.append("%.3f" % j["ratio"] if j and j.get("ratio") is not None else (j or {}).get("status", "-"))
    print("| %s | %s | %s |" % (model, lb, " | ".join(cells)))
PY
