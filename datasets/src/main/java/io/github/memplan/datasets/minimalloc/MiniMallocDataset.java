package io.github.memplan.datasets.minimalloc;

import io.github.memplan.core.dataset.ClasspathDataset;
import java.util.List;

/**
 * MiniMalloc's benchmark instances (google/minimalloc {@code benchmarks/}, commit {@code 9f5cf810},
 * Apache-2.0), shipped unchanged as resources with their license, a provenance note and SHA-256
 * sums: {@link Challenging} and {@link Examples}.
 */
public abstract class MiniMallocDataset extends ClasspathDataset {
  /** The resource directory of the files, their index and documents. */
  public static final String BASE = "io/github/memplan/datasets/minimalloc";

  private static final String CITATION =
      "google/minimalloc benchmarks/, commit 9f5cf810fec4494df473c23cffd0567989e81b69;"
          + " M. D. Moffitt, MiniMalloc: A Lightweight Memory Allocator for Hardware-Accelerated"
          + " Machine Learning, ASPLOS 2023";

  private final String set;

  MiniMallocDataset(String set) {
    super(MiniMallocDataset.class, BASE, set, List.of("LICENSE", "PROVENANCE.md"));
    this.set = set;
  }

  @Override
  public String name() {
    return "minimalloc/" + set;
  }

  @Override
  public String problem() {
    return "dsa";
  }

  @Override
  public String license() {
    return "Apache-2.0";
  }

  @Override
  public String citation() {
    return CITATION;
  }

  /** The eleven challenging instances A-K of the paper's evaluation, at capacity 2^20. */
  public static final class Challenging extends MiniMallocDataset {
    public Challenging() {
      super("challenging");
    }

    @Override
    public String description() {
      return "MiniMalloc's challenging benchmark A-K (154-454 buffers, capacity 2^20 in the"
          + " paper), the instances its ASPLOS 2023 evaluation solves";
    }
  }

  /** The small example of MiniMalloc's README. */
  public static final class Examples extends MiniMallocDataset {
    public Examples() {
      super("examples");
    }

    @Override
    public String description() {
      return "MiniMalloc's README example (5 buffers, capacity 12)";
    }
  }
}
