/**
 * What every OR-Tools CP-SAT model of memplan shares: loading the native library once and a solve
 * that honours the run's budget and cancellation.
 */
package io.github.memplan.solvers.ortools;
