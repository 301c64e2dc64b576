/**
 * The runner: expands a suite into runs with stable indices, runs them in parallel under their
 * budgets (cancelling and recording {@code TIMEOUT} past a grace margin, {@code ERROR} for a run
 * that throws or returns an invalid solution), writes results.csv, anytime.csv and manifest.json,
 * and resumes, shards and merges.
 */
package io.github.memplan.experiments.run;
