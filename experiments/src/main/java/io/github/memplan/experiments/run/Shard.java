package io.github.memplan.experiments.run;

/**
 * Shard {@code k} of {@code n}: the runs whose index mod {@code n} is {@code k - 1}.
 *
 * @param k the shard, from 1
 * @param n the number of shards
 */
public record Shard(int k, int n) {
  public static final Shard ALL = new Shard(1, 1);

  public Shard {
    if (n < 1 || k < 1 || k > n) {
      throw new IllegalArgumentException("shard must be k/n with 1 <= k <= n, not " + k + "/" + n);
    }
  }

  /** Parses {@code k/n}. */
  public static Shard parse(String text) {
    String[] p = text.strip().split("/");
    try {
      if (p.length == 2) {
        return new Shard(Integer.parseInt(p[0]), Integer.parseInt(p[1]));
      }
    } catch (NumberFormatException e) {
      // falls through
    }
    throw new IllegalArgumentException("shard must be k/n (e.g. 2/4), not '" + text + "'");
  }

  public boolean contains(int runIndex) {
    return runIndex % n == k - 1;
  }

  @Override
  public String toString() {
    return k + "/" + n;
  }
}
