#!/usr/bin/env bash
# The DSA search benchmark of issue 5 (until the experiments issue brings suites): one JSON line per
# run into DIR/runs.jsonl, then Markdown tables in DIR/report.md. Times are the planners' own solve
# times ("millis": the instance is read and the JVM started before the clock runs).
#   parts decide, minimise: MiniMalloc's challenging A-K (the shipped dataset minimalloc/challenging):
#     deciding capacity 2^20 (median of REPS runs) beside MiniMalloc's published medians on a
#     2-core machine; minimising the peak within LIMIT;
#   part zoo: every zoo model's GMEM instance on bm1684x and cv183x, minimised by exact;
#   part scale: generated instances (memplan dsa --generate) of 1k, 10k and 100k buffers, seeds 1-3;
#   part training: training-step traces (memplan dsa --generate N --generate-kind training) of
#     resnet50 (20k, 60k, 100k buffers) and bert-base (60k), exported once as MiniMalloc CSV into
#     DIR/traces, each planner run on the CSV as a whole process: its solve time ("millis") and its
#     wall time ("wall_ms", JVM start, reading and validation included) side by side with the peak
#     over the max-load bound. For the side-by-side table of issue 20 use PLANNERS
#     "exact greedy tflm cpsat timefold" (greedy: the best greedy start of the search planners).
# Usage: scripts/dsa-search-bench.sh [DIR] [PLANNERS] [PARTS] [LIMIT] [REPS]
#   defaults: dsa-bench, "exact", "decide minimise zoo scale", 60s, 3
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
dir="${1:-dsa-bench}"
planners="${2:-exact}"
parts="${3:-decide minimise zoo scale}"
limit="${4:-60s}"
reps="${5:-3}"
mkdir -p "$dir"
runs="$dir/runs.jsonl"
: >"$runs"
mp() { "$root/memplan" "$@" 2>/dev/null || true; }
# adds key=value fields to the JSON line on stdin; a run that printed none becomes an ERROR line
tag() {
  python3 -c '
import json, sys
text = sys.stdin.read().strip()
j = json.loads(text) if text.startswith("{") else {"status": "ERROR", "message": "no JSON output"}
j.update(dict(a.split("=", 1) for a in sys.argv[1:]))
print(json.dumps(j))' "$@"
}

for part in $parts; do
  case "$part" in
    decide | minimise)
      for name in A B C D E F G H I J K; do
        f="minimalloc:$name"
        name="$name.1048576"
        for p in $planners; do
          if [ "$part" = minimise ]; then
            mp dsa --instance "$f" --planner "$p" --time-limit "$limit" --json \
              | tag part=minimise planner="$p" instance="$name" >>"$runs"
            continue
          fi
          mode=()
          [ "$p" = exact ] && mode=(--param mode=decide)
          for r in $(seq "$reps"); do
            mp dsa --instance "$f" --planner "$p" "${mode[@]}" --capacity 1MiB --time-limit "$limit" --json \
              | tag part=decide rep="$r" planner="$p" instance="$name" >>"$runs"
          done
        done
      done
      ;;
    zoo)
      for m in $("$root/memplan" list models | awk '{print $1}'); do
        for chip in bm1684x cv183x; do
          for p in $planners; do
            mp gmem --model "$m" --chip "$chip" --planner "$p" --time-limit "$limit" --json \
              | tag part=zoo model="$m" chip="$chip" planner="$p" >>"$runs"
          done
        done
      done
      ;;
    scale)
      for n in 1000 10000 100000; do
        for s in 1 2 3; do
          for p in $planners; do
            mp dsa --generate "$n" --generate-seed "$s" --planner "$p" --time-limit "$limit" --json \
              | tag part=scale n="$n" instance="trace-$n-s$s" planner="$p" >>"$runs"
          done
        done
      done
      ;;
    training)
      mkdir -p "$dir/traces"
      for spec in resnet50:20000 resnet50:60000 resnet50:100000 bert-base:60000; do
        model="${spec%%:*}"
        n="${spec##*:}"
        csv="$dir/traces/training-$model-$n.csv"
        [ -s "$csv" ] || "$root/memplan" dsa --generate "$n" --generate-kind training \
          --generate-model "$model" --export "$csv" >/dev/null
        for p in $planners; do
          t0=$(date +%s%N)
          out="$(mp dsa --instance "$csv" --planner "$p" --time-limit "$limit" --json)"
          wall=$((($(date +%s%N) - t0) / 1000000))
          printf '%s\n' "$out" \
            | tag part=training n="$n" model="$model" instance="training-$model-$n" planner="$p" \
              wall_ms="$wall" limit="$limit" >>"$runs"
        done
      done
      ;;
    *) echo "unknown part '$part' (decide, minimise, zoo, scale, training)" >&2; exit 2 ;;
  esac
done
python3 "$root/scripts/dsa-search-report.py" "$runs" >"$dir/report.md"
cat "$dir/report.md"
