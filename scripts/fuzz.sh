#!/usr/bin/env bash
# A bounded fuzzing pass over every reader a user feeds memplan: each Jazzer @FuzzTest in turn for
# SECONDS (default 30), then a table of executions and findings per target; exits 1 on a finding.
# A finding's input is written by Jazzer next to the target's corpus (src/test/resources/.../
# <Class>Inputs/<method>/crash-*): fix the reader and keep the file, the build replays it.
# Usage: scripts/fuzz.sh [SECONDS] [TARGET-SUBSTRING]   (e.g. scripts/fuzz.sh 60 GraphJson)
#
# By default libFuzzer draws a new random seed each pass, so every pass tries new inputs: that is
# how a developer hunts. FUZZ_SEED=S fixes the seed and caps each target at its executions in the
# table below (about 25 s each here), so that a pass is one fixed sequence of inputs, the one
# .ci/run runs: it passed here before it was put there, and a slower machine stops earlier on the
# same sequence (SECONDS still bounds each target). FUZZ_RUNS=N overrides the caps.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
secs="${1:-30}"
only="${2:-}"
seed="${FUZZ_SEED:-}"

# module, test class, method, executions of a seeded pass
targets=(
  "core io.github.memplan.core.dsa.MiniMallocCsvFuzzTest csv 500000"
  "core io.github.memplan.core.lmem.LmemJsonFuzzTest json 600000"
  "core io.github.memplan.core.device.DeviceTraceFilesFuzzTest trace 20000"
  "datasets io.github.memplan.datasets.json.GraphJsonFuzzTest json 100000"
  "datasets io.github.memplan.datasets.darknet.DarknetFuzzTest cfg 40000"
  "datasets io.github.memplan.datasets.onnx.OnnxImporterFuzzTest model 600000"
  "datasets io.github.memplan.datasets.tflite.TfliteImporterFuzzTest model 900000"
  "experiments io.github.memplan.experiments.suite.SuiteParserFuzzTest yaml 20000"
  "experiments io.github.memplan.experiments.cli.CliArgumentsFuzzTest argument 20000"
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
  read -r module class method runs_cap <<<"$t"
  name="${class##*.}#$method"
  [[ -z "$only" || "$name" == *"$only"* ]] || continue
  log="$logs/${name//#/_}.log"
  # a seeded pass: libFuzzer's -seed (Jazzer passes jazzer.internal.arg.1.. on, .0 is argv[0])
  # and an executions cap
  fixed=()
  generated="$module/.cifuzz-corpus/$class/$method"
  if [ -n "$seed" ]; then
    # the sequence starts from the seed corpus under src/test/resources alone, as on a clean
    # clone: the inputs an earlier pass generated are moved aside and put back after the target
    if [ -d "$generated" ]; then
      mkdir -p "$logs/generated/$class"
      mv "$generated" "$logs/generated/$class/$method"
    fi
    fixed=(-Djazzer.internal.arg.0=fuzz "-Djazzer.internal.arg.1=-seed=$seed"
      "-Djazzer.max_executions=${FUZZ_RUNS:-$runs_cap}")
    echo "== fuzz: $name, seed $seed, ${FUZZ_RUNS:-$runs_cap} executions, at most ${secs}s"
  else
    echo "== fuzz: $name for ${secs}s"
  fi
  status=0
  # -Xmx bounds what a reader may allocate for an input of at most a few KB; each target's
  # @Timeout(10) becomes libFuzzer's per-input -timeout (a hang is a finding), and JUnit must not
  # apply it to the whole fuzzing run
  JAZZER_FUZZ=1 ./mvnw -B -ntp -o -pl "$module" -am test-compile surefire:test -Dspotless.skip \
    -Dtest="$class#$method" -Dsurefire.failIfNoSpecifiedTests=false \
    -Djazzer.max_duration="${secs}s" -DargLine=-Xmx1g "${fixed[@]}" \
    -Djunit.jupiter.execution.timeout.mode=disabled >"$log" 2>&1 || status=$?
  if [ -n "$seed" ]; then
    rm -rf "$generated"
    if [ -d "$logs/generated/$class/$method" ]; then
      mv "$logs/generated/$class/$method" "$generated"
    fi
  fi
  runs="$(grep -oE 'Done [0-9]+ runs' "$log" | tail -1 | grep -oE '[0-9]+' || true)"
  # libFuzzer's last status line: edges covered (cov), features (ft), corpus entries (corp)
  cov="$(grep -oE 'DONE +cov: [0-9]+ ft: [0-9]+ corp: [0-9]+' "$log" | tail -1 \
    | sed -E 's/DONE +cov: ([0-9]+) ft: ([0-9]+) corp: ([0-9]+)/\1 \/ \2 \/ \3/' || true)"
  report="$module/target/surefire-reports/$class-output.txt"
  if [ "$status" -eq 0 ]; then
    rows+=("| $name | ${runs:-?} | ${cov:-?} | 0 | |")
  else
    failed=1
    what="$(grep -hE '^== Java Exception:|^Caused by:' "$log" "$report" 2>/dev/null | head -1 | cut -c1-160 || true)"
    rows+=("| $name | ${runs:-?} | ${cov:-?} | 1 | ${what:-build failed, see below} |")
    tail -60 "$log"
  fi
done

echo
echo "| target | executions | cov / ft / corp | findings | finding |"
echo "|---|---:|---:|---:|---|"
printf '%s\n' "${rows[@]}"
if [ "$failed" -ne 0 ]; then
  echo "fuzz: findings (their inputs are under src/test/resources/**/*FuzzTestInputs/)" >&2
  exit 1
fi
