/**
 * Timefold Solver local search for the LMEM placement problem: a placement order (a planning list
 * variable) decoded by lowest-address placement under the bank rules, scored with ConstraintStreams
 * (overflow, conflicts, straddles, peak).
 */
package io.github.memplan.solvers.lmem.timefold;
