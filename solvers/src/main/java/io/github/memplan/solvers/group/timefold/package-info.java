/**
 * Timefold Solver local search over layer-group cuts: one boolean cut per boundary between
 * consecutive ops of a base group, groups the maximal uncut runs, each priced by a range oracle.
 */
package io.github.memplan.solvers.group.timefold;
