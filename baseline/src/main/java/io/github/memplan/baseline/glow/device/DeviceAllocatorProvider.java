package io.github.memplan.baseline.glow.device;

import io.github.memplan.core.device.DeviceProblem;
import io.github.memplan.core.device.DeviceRun;
import io.github.memplan.core.solve.BasePlannerProvider;

/**
 * Registers each device allocator of {@link DeviceAllocators} as a planner of the device problem
 * ({@link DeviceAllocatorPlanner}), under its allocator id; none takes parameters. The four the
 * seed {@code glow-esperanto-memory-management.rst} describes are marked "(seed)"; {@code best-fit}
 * and {@code buddy} are not in it and run under the same simulator for comparison.
 */
public abstract class DeviceAllocatorProvider
    extends BasePlannerProvider<DeviceProblem, DeviceRun> {
  private static final String SEED = "seed glow-esperanto-memory-management.rst";

  private static final String LIFETIMES =
      "every placeholder lives from its inference's start to its finish";

  /** The citation of an allocator the seed describes in {@code section}. */
  private static String seed(String section) {
    return SEED + " (" + section + "); departure: " + LIFETIMES;
  }

  /** The citation of an allocator the seed does not describe. */
  private static String comparison() {
    return "not in the " + SEED + "; for comparison under its lifetimes (" + LIFETIMES + ")";
  }

  private DeviceAllocatorProvider(String id, String description, String citation) {
    super(id, DeviceProblem.class, description, citation, config -> new DeviceAllocatorPlanner(id));
  }

  /** {@code linear}. */
  public static final class Linear extends DeviceAllocatorProvider {
    public Linear() {
      super(
          "linear",
          "First free region big enough, one allocator for code and data (seed).",
          seed("Linear Memory Allocator"));
    }
  }

  /** {@code pool}. */
  public static final class Pool extends DeviceAllocatorProvider {
    public Pool() {
      super(
          "pool",
          "Linear allocator for code and constants, per-network placeholder pools (seed).",
          seed("Pool Memory Allocator"));
    }
  }

  /** {@code bidirectional}. */
  public static final class Bidirectional extends DeviceAllocatorProvider {
    public Bidirectional() {
      super(
          "bidirectional",
          "Code and constants grow up, placeholders grow down until they collide (seed).",
          seed("Bidirectional Memory Allocator"));
    }
  }

  /** {@code combined}. */
  public static final class Combined extends DeviceAllocatorProvider {
    public Combined() {
      super(
          "combined",
          "Code region linear; data region: constants linear up, placeholder pools down (seed).",
          seed("Memory Allocator Implementations, MemoryManagerInternals"));
    }
  }

  /** {@code best-fit}. */
  public static final class BestFit extends DeviceAllocatorProvider {
    public BestFit() {
      super(
          "best-fit",
          "Smallest free region big enough, code and data together (not in the seed).",
          comparison());
    }
  }

  /** {@code buddy}. */
  public static final class Buddy extends DeviceAllocatorProvider {
    public Buddy() {
      super(
          "buddy",
          "Binary buddy system, 4 KiB minimum block, code and data together (not in the seed).",
          comparison());
    }
  }
}
