/**
 * Glow's memory allocators: the linear (first-fit) allocator replayed over lifetimes as a DSA
 * planner, and the Glow/Esperanto host runtime's device memory manager (linear, pool, bidirectional
 * and combined allocators, best fit and buddy for comparison) with a trace simulator.
 */
package io.github.memplan.baseline.glow;
