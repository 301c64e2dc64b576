#!/usr/bin/env python3
"""The delta tables of experiments/suites/layergroup-pieces.yaml (docs/layer-grouping.md, "Pieces").

Reads a results.csv of that suite and prints Markdown: per metric (total cycles, global ops,
groups, the lower bound on cycles), one table of the front-end passes and one of the pieces, a
column per model and precision. The base row gives the base's value; every other row the change
relative to its base, in %:

  - a front-end row (every piece off, instance suffix -fe-PASSES) against the same passes without
    the last one named (-fe-bn-to-conv against -fe-none, -fe-matmul-bias,attention against
    -fe-matmul-bias);
  - a piece row (every pass on, label tpumlir-dp-only-PIECE) against tpumlir-dp-pieces-none;
  - a leave-one-out row (label tpumlir-dp-without-PIECE, pieces all,-PIECE) against every piece;
  - "everything" (every pass and piece on) against every pass and piece off, in the front-end
    table, and against every pass on with no piece in the pieces table.

A table where no row but the base moves is cut to its base row.

A run that did not end FEASIBLE or OPTIMAL fails the script: its numbers are not comparable.

Usage: scripts/pieces-table.py RESULTS.csv
"""

import csv
import sys

METRICS = [
    ("total-cycles", "total cycles"),
    ("global-ops", "global ops"),
    ("groups", "groups"),
    ("lower-bound-cycles", "lower bound (cycles)"),
]
PRECISIONS = ["F32", "BF16", "F16", "INT8"]


def parse_instance(name):
    """MODEL@CHIP[-fe-PASSES][-bf16|-f16|-int8] -> (model, chip, passes, precision)."""
    model, rest = name.split("@", 1)
    precision = "F32"
    for p in PRECISIONS[1:]:
        if rest.endswith("-" + p.lower()):
            precision = p
            rest = rest[: -len(p) - 1]
    passes = "all"
    if "-fe-" in rest:
        rest, passes = rest.split("-fe-", 1)
    return model, rest, passes, precision


def pieces_of(params):
    for kv in params.split(";"):
        if kv.startswith("pieces="):
            return kv[len("pieces="):]
    return "all"


def load(path):
    """(model, precision, passes, pieces) -> {metric: value}."""
    runs = {}
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            if row["problem"] != "group":
                continue
            model, _chip, passes, precision = parse_instance(row["instance"])
            key = (model, precision, passes, pieces_of(row["params"]))
            if row["status"] not in ("FEASIBLE", "OPTIMAL"):
                sys.exit(f"pieces-table: run {row['run']} {key} ended {row['status']}: {row['message']}")
            if row["value"] != "":
                runs.setdefault(key, {})[row["metric"]] = float(row["value"])
    return runs


def change(value, base):
    if value is None or base is None:
        return "·"
    if value == base:
        return "0"
    if base == 0:
        return f"0 → {value:.0f}"
    pct = 100.0 * (value - base) / base
    if abs(pct) < 0.01:
        return f"{pct:+.4f}%"
    return f"{pct:+.2f}%" if abs(pct) < 10 else f"{pct:+.1f}%"


def table(title, columns, rows, runs, metric):
    """rows: (label, key of (passes, pieces), key of its base or None for an absolute row)."""
    out = [f"{title}", "", "| | " + " | ".join(f"{m} {p}" for m, p in columns) + " |"]
    out.append("|---|" + "---:|" * len(columns))
    for label, key, base in rows:
        cells = []
        for model, precision in columns:
            v = runs.get((model, precision) + key, {}).get(metric)
            if base is None:
                cells.append("·" if v is None else f"{v:.0f}")
            else:
                b = runs.get((model, precision) + base, {}).get(metric)
                cells.append(change(v, b))
        if any(c != "·" for c in cells):
            out.append(f"| {label} | " + " | ".join(cells) + " |")
    def cells_of(line):
        return [c.strip() for c in line.strip().strip("|").split("|")][1:]

    moved = [line for line in out[5:] if any(c not in ("0", "·") for c in cells_of(line))]
    if not moved:
        out = out[:5] + ["", "(no other row moves it)"]
    return "\n".join(out) + "\n"


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: scripts/pieces-table.py RESULTS.csv")
    runs = load(sys.argv[1])
    order = []
    for model, precision, _, _ in runs:
        if (model, precision) not in order:
            order.append((model, precision))
    fe_passes = []
    piece_names = []
    for _, _, passes, pieces in runs:
        if pieces == "none" and passes not in ("none", "all") and passes not in fe_passes:
            fe_passes.append(passes)
        if passes == "all" and pieces not in ("none", "all") and pieces not in piece_names:
            piece_names.append(pieces)
    alone = [p for p in piece_names if not p.startswith("all,-")]
    without = [p for p in piece_names if p.startswith("all,-")]
    fe_columns = [c for c in order if (c + ("none", "none")) in runs]
    piece_columns = [c for c in order if (c + ("all", "none")) in runs]
    for metric, name in METRICS:
        rows = [("every pass and piece off", ("none", "none"), None)]
        for passes in fe_passes:
            parts = passes.split(",")
            base = ",".join(parts[:-1]) or "none"
            label = f"+ {parts[-1]}" + (f" (on {base})" if base != "none" else "")
            rows.append((label, (passes, "none"), (base, "none")))
        rows.append(("everything on", ("all", "all"), ("none", "none")))
        print(table(f"**Front-end passes, every piece off: {name}**", fe_columns, rows, runs, metric))
        rows = [("every pass on, no piece", ("all", "none"), None)]
        for piece in alone:
            rows.append((f"+ {piece}", ("all", piece), ("all", "none")))
        rows.append(("every piece", ("all", "all"), ("all", "none")))
        for piece in without:
            rows.append((f"every piece but {piece[5:]}", ("all", piece), ("all", "all")))
        print(table(f"**Pieces, every pass on: {name}**", piece_columns, rows, runs, metric))


if __name__ == "__main__":
    main()
