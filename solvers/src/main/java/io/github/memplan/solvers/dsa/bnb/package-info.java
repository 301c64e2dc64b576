/**
 * An exact branch-and-bound DSA planner in the spirit of MiniMalloc ({@code exact}): canonical
 * gravity placements, cross-section inference and a capacity loop that keeps proven bounds apart
 * from incumbents; window repair above 20,000 buffers.
 */
package io.github.memplan.solvers.dsa.bnb;
