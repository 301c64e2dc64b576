/**
 * An exact branch-and-bound DSA planner in the spirit of MiniMalloc: canonical gravity placements,
 * cross-section inference and a capacity loop that keeps proven bounds apart from incumbents.
 */
package io.github.memplan.solvers.exact;
