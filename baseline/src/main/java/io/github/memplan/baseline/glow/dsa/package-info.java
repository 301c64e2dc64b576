/** Glow's linear (first-fit) allocator replayed over buffer lifetimes as a DSA planner. */
package io.github.memplan.baseline.glow.dsa;
