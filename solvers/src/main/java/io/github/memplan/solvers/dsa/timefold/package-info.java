/**
 * Timefold Solver local search for the DSA problem ({@code timefold}): a placement order (a
 * planning list variable) decoded by lowest-offset placement, scored with ConstraintStreams.
 */
package io.github.memplan.solvers.dsa.timefold;
