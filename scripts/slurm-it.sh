#!/usr/bin/env bash
# The Slurm integration test of `memplan slurm` (issue 22), against a real Slurm: start one first
# with scripts/slurm-local.sh start (.ci/run does, and stops it after).
#   1. bad input (an unknown partition, --tasks 0, no sbatch on the PATH): one line, exit 1,
#      nothing submitted;
#   2. the suite experiments/src/test/resources/suites/slurm-it.yaml run unsharded, for reference;
#   3. the same suite submitted as 4 array tasks plus the merge job; one task is cancelled with
#      scancel while its shard is half done, `memplan slurm status` names it failed, `memplan slurm
#      resubmit` reruns it (and the merge job after it);
#   4. the merged results.csv equals the unsharded one byte for byte, time-ms rows aside, with
#      every run once and no row twice.
# Usage: scripts/slurm-it.sh [PARTITION]   (default: the cluster's default partition, else debug)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
suite="$root/experiments/src/test/resources/suites/slurm-it.yaml"
partition="${1:-$(sinfo -h -o %P 2>/dev/null | sed -n 's/\*$//p' | head -n 1)}"
partition="${partition:-debug}"
started=$(date +%s)
tmp="$(mktemp -d)"
out="$tmp/slurm"

say() { echo "slurm-it: $*"; }
fail() {
  echo "slurm-it: FAILED: $*" >&2
  for f in "$out"/slurm/logs/*.log; do
    [ -f "$f" ] && { echo "--- $f" >&2; tail -n 20 "$f" >&2; }
  done
  exit 1
}
cleanup() {
  # cancels whatever this test submitted and is still queued or running
  if [ -f "$out/slurm/job.json" ]; then
    ids="$(grep -oE '"(array|merge)" : "[0-9]+"' "$out/slurm/job.json" | grep -oE '[0-9]+' || true)"
    [ -z "$ids" ] || scancel $ids 2>/dev/null || true
  fi
  rm -rf "$tmp"
}
trap cleanup EXIT

mp() { "$root/memplan" "$@"; }
elapsed() { echo "$(($(date +%s) - started)) s"; }

command -v sbatch >/dev/null || fail "sbatch not found: start Slurm first (scripts/slurm-local.sh start)"
mp --version >/dev/null # builds the CLI jar when needed, before anything is timed
jobs_before="$(squeue -h --me -o %i | wc -l)"

# -- 1. bad input: one line on stderr, exit 1, nothing submitted
# expect_bad NAME MESSAGE CMD...: CMD fails with exit 1 and the one line "memplan: MESSAGE"
expect_bad() {
  local name="$1" message="$2"
  shift 2
  local rc=0
  "$@" >"$tmp/bad.out" 2>"$tmp/bad.err" || rc=$?
  [ "$rc" -eq 1 ] || fail "$name: exit $rc, not 1 ($(cat "$tmp/bad.err"))"
  [ "$(cat "$tmp/bad.err")" = "memplan: $message" ] || fail "$name: stderr was: $(cat "$tmp/bad.err")"
  [ ! -s "$tmp/bad.out" ] || fail "$name: printed $(cat "$tmp/bad.out")"
  say "bad input, $name: $(cat "$tmp/bad.err")"
}
partitions="$(sinfo -h -o %R | paste -sd, - | sed 's/,/, /g')"
expect_bad "unknown partition" "unknown partition 'no-such-partition' (sinfo lists: $partitions)" \
  mp slurm "$suite" --out "$tmp/bad" --tasks 4 --partition no-such-partition
expect_bad "--tasks 0" "--tasks must be >= 1, not 0" \
  mp slurm "$suite" --out "$tmp/bad" --tasks 0 --partition "$partition"
# no sbatch on the PATH: java alone on it, the jar as the launcher would run it
jar="$(ls -t "$root"/experiments/target/memplan-experiments-*-cli.jar | head -n 1)"
mkdir -p "$tmp/nobin"
ln -s "$(command -v java)" "$tmp/nobin/java"
expect_bad "no sbatch" \
  "sbatch not found on the PATH: memplan slurm submits with Slurm's sbatch (--dry-run writes the scripts only)" \
  env PATH="$tmp/nobin" java -cp "$jar:$(cat "$root/experiments/target/model-classpath.txt")" \
  io.github.memplan.experiments.cli.Main slurm "$suite" --out "$tmp/bad" --tasks 4
[ ! -e "$tmp/bad" ] || fail "bad input wrote $tmp/bad"
[ "$(squeue -h --me -o %i | wc -l)" -eq "$jobs_before" ] || fail "bad input submitted a job"

# -- 2. the reference: the suite unsharded
t0=$(date +%s)
mp run "$suite" --out "$tmp/ref" --jobs 2 >"$tmp/ref.log" 2>&1 || {
  cat "$tmp/ref.log" >&2
  fail "the unsharded run failed"
}
say "unsharded run: $(($(date +%s) - t0)) s"

# -- 3. the suite as 4 array tasks plus the merge job
t0=$(date +%s)
mp slurm "$suite" --out "$out" --tasks 4 --partition "$partition" --time 20 | tee "$tmp/submit.out"
array="$(sed -n 's/^array job \([0-9]*\):.*/\1/p' "$tmp/submit.out")"
[ -n "$array" ] || fail "no array job id printed"

# status_of K: shard K's line of memplan slurm status ("K  done/expected  status  job  slurm")
status() { mp slurm status "$out" 2>&1; }
# waits (up to $2 s) until the command $1 succeeds
wait_for() {
  local deadline=$(($(date +%s) + $2))
  until eval "$1"; do
    [ "$(date +%s)" -lt "$deadline" ] || fail "timed out waiting for: $1"$'\n'"$(status)"
    sleep 1
  done
}

# cancel one task while it runs with its shard part done: the first shard seen so
cancelled=""
half_done() {
  local line
  line="$(status | awk '$1 ~ /^[0-9]+$/ && $3 == "running" { split($2, r, "/"); if (r[1] > 0 && r[1] < r[2]) { print; exit } }')"
  [ -n "$line" ] || return 1
  cancelled="$line"
}
wait_for half_done 600
shard="$(awk '{print $1}' <<<"$cancelled")"
task="$(awk '{print $4}' <<<"$cancelled")"
scancel "$task"
say "cancelled task $task mid-run: shard $shard at $(awk '{print $2}' <<<"$cancelled") runs"
# the other tasks finish; the cancelled shard is then failed, and the merge job waits for ever
no_active_shard() { ! status | awk '$1 ~ /^[0-9]+$/ && ($3 == "running" || $3 == "queued") { f = 1 } END { exit !f }'; }
wait_for no_active_shard 600
status | tee "$tmp/status.out"
grep -qx "failed shards: $shard (rerun them with: memplan slurm resubmit $out)" "$tmp/status.out" ||
  fail "status does not name shard $shard failed"
[ ! -e "$out/results.csv" ] || fail "merged although shard $shard was cancelled"

mp slurm resubmit "$out" | tee "$tmp/resubmit.out"
grep -q "^resubmitted shard $shard: array job [0-9]* (tasks $((shard - 1)))$" "$tmp/resubmit.out" ||
  fail "resubmit did not rerun shard $shard alone"
merged() { status | grep -qE '^merge +[0-9]+/[0-9]+ +done '; }
merge_failed() { status | grep -qE '^merge +[0-9]+/[0-9]+ +failed '; }
wait_for 'merged || { merge_failed && fail "the merge job failed"; }' 600
status
say "on Slurm: $(($(date +%s) - t0)) s"

# -- 4. the merged results equal the unsharded ones, time-ms rows aside
python3 - "$tmp/ref/results.csv" "$out/results.csv" <<'PY' || fail "the merged results differ"
import csv, sys
ref, merged = (open(p, encoding="utf-8").read() for p in sys.argv[1:])
drop = lambda text: [l for l in text.splitlines(keepends=True) if ",time-ms," not in l]
rows = list(csv.DictReader(open(sys.argv[2], encoding="utf-8")))
keys = [(r["run"], r["metric"]) for r in rows]
runs = sorted({int(r["run"]) for r in rows})
assert len(keys) == len(set(keys)), "a row is there twice"
assert runs == list(range(len(runs))), f"runs missing: {sorted(set(range(max(runs) + 1)) - set(runs))}"
a, b = drop(ref), drop(merged)
if a != b:
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            print(f"line {i + 1}:\n  unsharded {x.rstrip()}\n  merged    {y.rstrip()}", file=sys.stderr)
            break
    print(f"{len(a)} lines unsharded, {len(b)} merged", file=sys.stderr)
    sys.exit(1)
print(f"slurm-it: merged results.csv equals the unsharded one: {len(runs)} runs, {len(b) - 1} rows"
      f" byte for byte ({len(rows)} rows with time-ms), none lost, none twice")
PY
say "OK in $(elapsed)"
