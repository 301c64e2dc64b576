package io.github.memplan.experiments.suite;

import java.util.function.Supplier;

/**
 * A named instance of a suite, loaded on its first run and kept for the runs after it (a load that
 * throws is not kept: the next run tries again, and fails the same way).
 *
 * @param <I> the instance type
 */
public final class SuiteInstance<I> {
  private final String name;
  private final Supplier<I> loader;
  private I loaded;

  /**
   * @param name the name in the results' instance column
   * @param loader builds the instance (may throw; the runs on it are then {@code ERROR})
   */
  public SuiteInstance(String name, Supplier<I> loader) {
    this.name = name;
    this.loader = loader;
  }

  /** The name in the results' instance column. */
  public String name() {
    return name;
  }

  /** Builds the instance afresh. */
  public Supplier<I> loader() {
    return loader;
  }

  /** The instance, built on the first call. */
  public synchronized I load() {
    if (loaded == null) {
      loaded = loader.get();
    }
    return loaded;
  }

  @Override
  public String toString() {
    return name;
  }
}
