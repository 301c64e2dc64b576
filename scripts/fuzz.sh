#!/usr/bin/env bash
# A bounded fuzzing pass over every reader a user feeds memplan: each Jazzer @FuzzTest in turn for
# SECONDS (default 30), then a table of executions and findings per target; exits 1 on a finding.
# A finding's input is written by Jazzer next to the target's corpus (src/test/resources/.../
# <Class>Inputs/<method>/crash-*): fix the reader and keep the file, the build replays it.
# Usage: scripts/fuzz.sh [SECONDS] [TARGET-SUBSTRING]   (e.g. scripts/fuzz.sh 60 GraphJson)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
secs="${1:-30}"
only="${2:-}"

# module, test class, method
targets=(
  "core io.github.memplan.core.dsa.MiniMallocCsvFuzzTest csv"
  "core io.github.memplan.core.lmem.LmemJsonFuzzTest json"
  "core io.github.memplan.core.device.DeviceTraceFilesFuzzTest trace"
  "datasets io.github.memplan.datasets.json.GraphJsonFuzzTest json"
  "datasets io.github.memplan.datasets.darknet.DarknetFuzzTest cfg"
  "datasets io.github.memplan.datasets.onnx.OnnxImporterFuzzTest model"
  "datasets io.github.memplan.datasets.tflite.TfliteImporterFuzzTest model"
  "experiments io.github.memplan.experiments.suite.SuiteParserFuzzTest yaml"
  "experiments io.github.memplan.experiments.cli.CliArgumentsFuzzTest argument"
)

logs="$(mktemp -d)"
trap 'rm -rf "$logs"' EXIT

# compile once (tests included); each target then runs offline, its module with the modules it
# depends on up to test-compile (so that they resolve to this tree's classes, not to whatever an
# earlier install left in the local repository), then surefire on the one target
./mvnw -B -ntp -pl core,datasets,experiments -am test-compile

rows=()
failed=0
for t in "${targets[@]}"; do
  read -r module class method <<<"$t"
  name="${class##*.}#$method"
  [[ -z "$only" || "$name" == *"$only"* ]] || continue
  log="$logs/${name//#/_}.log"
  echo "== fuzz: $name for ${secs}s"
  status=0
  # -Xmx bounds what a reader may allocate for an input of at most a few KB; each target's
  # @Timeout(10) becomes libFuzzer's per-input -timeout (a hang is a finding), and JUnit must not
  # apply it to the whole fuzzing run
  JAZZER_FUZZ=1 ./mvnw -B -ntp -o -pl "$module" -am test-compile surefire:test -Dspotless.skip \
    -Dtest="$class#$method" -Dsurefire.failIfNoSpecifiedTests=false \
    -Djazzer.max_duration="${secs}s" -DargLine=-Xmx1g \
    -Djunit.jupiter.execution.timeout.mode=disabled >"$log" 2>&1 || status=$?
  runs="$(grep -oE 'Done [0-9]+ runs' "$log" | tail -1 | grep -oE '[0-9]+' || true)"
  report="$module/target/surefire-reports/$class-output.txt"
  if [ "$status" -eq 0 ]; then
    rows+=("| $name | ${runs:-?} | 0 | |")
  else
    failed=1
    what="$(grep -hE '^== Java Exception:|^Caused by:' "$log" "$report" 2>/dev/null | head -1 | cut -c1-160 || true)"
    rows+=("| $name | ${runs:-?} | 1 | ${what:-build failed, see below} |")
    tail -60 "$log"
  fi
done

echo
echo "| target | executions | findings | finding |"
echo "|---|---:|---:|---|"
printf '%s\n' "${rows[@]}"
if [ "$failed" -ne 0 ]; then
  echo "fuzz: findings (their inputs are under src/test/resources/**/*FuzzTestInputs/)" >&2
  exit 1
fi
