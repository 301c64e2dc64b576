package io.github.memplan.core.group;

/**
 * Estimated cost of a group or a global op.
 *
 * @param cycles TIU-clock cycles
 * @param ddrBytes bytes moved between DDR and LMEM
 */
public record GroupCost(long cycles, long ddrBytes) {
  public GroupCost plus(GroupCost o) {
    return new GroupCost(Math.addExact(cycles, o.cycles), Math.addExact(ddrBytes, o.ddrBytes));
  }
}
