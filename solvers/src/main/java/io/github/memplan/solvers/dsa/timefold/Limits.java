package io.github.memplan.solvers.dsa.timefold;

/**
 * The instance-wide facts the constraints read.
 *
 * @param capacity the instance's capacity ({@code Long.MAX_VALUE} when unbounded)
 * @param peakCount whether the secondary soft term (buffers ending at the peak) is on
 */
public record Limits(long capacity, boolean peakCount) {}
