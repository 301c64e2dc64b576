#!/bin/sh
# Executes every notebook in notebooks/ against the results folder DIR (results.csv, anytime.csv):
# the executed copies go to DIR/notebooks/, the figures to DIR/figures/. Needs Debian's
# python3-pandas, python3-matplotlib, jupyter-nbconvert and python3-ipykernel.
set -eu
if [ $# -ne 1 ]; then
  echo "usage: $0 DIR" >&2
  exit 2
fi
dir=$(cd "$1" && pwd)
[ -f "$dir/results.csv" ] || { echo "$0: $dir/results.csv: no such file" >&2; exit 1; }
here=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$dir/notebooks"
for nb in "$here"/notebooks/*.ipynb; do
  echo "running $(basename "$nb")" >&2
  MEMPLAN_RESULTS="$dir" MPLBACKEND=Agg jupyter nbconvert --to notebook --execute \
    --ExecutePreprocessor.timeout=600 --output-dir "$dir/notebooks" "$nb"
done
