package io.github.memplan.solvers.group.timefold;

import java.util.OptionalLong;

/**
 * The problem fact the constraints read: the {@link RangeOracle} and the prefix sums of the ops'
 * global costs, so that a run's saving (its ops' global costs minus its group cost) costs two array
 * reads and one memoised oracle call.
 */
public final class CutCosts {
  private final RangeOracle oracle;
  private final long[] prefix;

  public CutCosts(RangeOracle oracle) {
    this.oracle = oracle;
    this.prefix = new long[oracle.size() + 1];
    for (int i = 0; i < oracle.size(); i++) {
      prefix[i + 1] = Math.addExact(prefix[i], oracle.globalCost(i));
    }
  }

  /** The cost with every op global. */
  public long allGlobal() {
    return prefix[prefix.length - 1];
  }

  /** The global costs of the run's ops, summed. */
  public long globalSum(Run r) {
    return prefix[r.last() + 1] - prefix[r.first()];
  }

  /** The run's group cost, empty when no secs make it valid. */
  public OptionalLong groupCost(Run r) {
    return oracle.groupCost(r.first(), r.last());
  }

  /** Whether the run makes no valid group. */
  public boolean invalid(Run r) {
    return groupCost(r).isEmpty();
  }

  /** What grouping the run saves against running its ops alone (negative when it costs more). */
  public long saving(Run r) {
    OptionalLong c = groupCost(r);
    return c.isEmpty() ? 0 : globalSum(r) - c.getAsLong();
  }

  RangeOracle oracle() {
    return oracle;
  }
}
