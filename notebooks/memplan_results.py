"""Load a memplan results folder (results.csv, anytime.csv) with pandas.

The same conventions as the Java report (experiments.report): a run counts only when it has its
time-ms row; a planner's label is its id followed by its parameters; the value of a cell is the
median over the replicates that solved (status OPTIMAL or FEASIBLE); "better" follows the
direction column that each metric declares.
"""
import os
from pathlib import Path

import pandas as pd

DEFAULT = Path(__file__).resolve().parent.parent / "experiments/src/test/resources/report/small"
PRIMARY = ["peak-bytes", "total-cycles"]
SOLVED = {"OPTIMAL", "FEASIBLE"}


def results_dir():
    """The folder named by $MEMPLAN_RESULTS, else the small test fixture."""
    return Path(os.environ.get("MEMPLAN_RESULTS", DEFAULT))


def figures_dir():
    """$MEMPLAN_RESULTS/figures, or notebooks/figures for the built-in fixture."""
    if "MEMPLAN_RESULTS" in os.environ:
        d = results_dir() / "figures"
    else:
        d = Path(__file__).resolve().parent / "figures"
    d.mkdir(parents=True, exist_ok=True)
    return d


def load_results(folder=None):
    folder = Path(folder) if folder else results_dir()
    df = pd.read_csv(
        folder / "results.csv",
        dtype={"params": str, "message": str, "instance": str, "planner": str},
        keep_default_na=False,
        na_values={"value": [""]},
    )
    key = ["run", "problem", "instance", "planner", "seed", "replicate"]
    timed = df.loc[df["metric"] == "time-ms", key].drop_duplicates()
    df = df.merge(timed, on=key)
    df["label"] = df["planner"].where(df["params"] == "", df["planner"] + " " + df["params"])
    return df


def primary_metric(df, problem):
    metrics = sorted(df.loc[df["problem"] == problem, "metric"].unique())
    for m in PRIMARY:
        if m in metrics:
            return m
    return next(m for m in metrics if m != "time-ms" and not m.startswith("lower-bound"))


def medians(df, problem, metric=None):
    """(metric, direction, instance x label table of medians over solved replicates)."""
    metric = metric or primary_metric(df, problem)
    rows = df[(df["problem"] == problem) & (df["metric"] == metric)]
    direction = rows["direction"].iloc[0]
    labels = list(dict.fromkeys(rows["label"]))
    instances = list(dict.fromkeys(rows["instance"]))
    solved = rows[rows["status"].isin(SOLVED)]
    table = solved.groupby(["instance", "label"])["value"].median().unstack("label")
    return metric, direction, table.reindex(index=instances, columns=labels)


def lower_bounds(df, problem, unit):
    """Per instance, the strongest lower-bound* value in the metric's unit, or None."""
    rows = df[(df["problem"] == problem) & df["metric"].str.startswith("lower-bound")
              & (df["unit"] == unit)].dropna(subset=["value"])
    if rows.empty:
        return None
    first = sorted(rows["metric"].unique())[0]
    return rows[rows["metric"] == first].groupby("instance")["value"].max()


def ratios_to_best(table, direction):
    """Dolan-More ratios: value / best (best / value when higher is better); inf when missing."""
    if direction == "lower":
        best = table.min(axis=1)
        r = table.div(best, axis=0)
    else:
        best = table.max(axis=1)
        r = 1.0 / table.div(best, axis=0)
    return r.fillna(float("inf"))


def load_anytime(folder=None):
    folder = Path(folder) if folder else results_dir()
    f = folder / "anytime.csv"
    if not f.exists():
        return None
    df = pd.read_csv(f, dtype={"params": str, "note": str, "instance": str},
                     keep_default_na=False, na_values={"best_objective": [""], "best_bound": [""]})
    df["label"] = df["planner"].where(df["params"] == "", df["planner"] + " " + df["params"])
    return df
