package io.github.memplan.solvers.lmem.timefold;

import io.github.memplan.solvers.lmem.BankRule;

/**
 * The instance-wide facts the constraints read.
 *
 * @param capacity LMEM bytes of one lane
 * @param straddle how straddles count
 * @param conflict how conflicts count
 * @param conflictWeight the medium weight of one soft conflict: more than the buffer count, so that
 *     one conflict outweighs every possible straddle (weight 1 each)
 */
public record LmemLimits(
    long capacity, BankRule straddle, BankRule conflict, long conflictWeight) {}
