package io.github.memplan.solvers.lmem.timefold;

/**
 * A problem fact: buffers {@code a < b} that conflict whenever they share a bank (the
 * address-independent half of {@link io.github.memplan.core.lmem.LmemBanks}'s conflict rule).
 */
public record ConflictPair(int a, int b) {}
