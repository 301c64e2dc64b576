/**
 * The DSA problem as an OR-Tools CP-SAT model ({@code cpsat}): offsets as variables over fixed
 * lifetimes, the peak minimised, warm started from a greedy placement.
 */
package io.github.memplan.solvers.dsa.cpsat;
