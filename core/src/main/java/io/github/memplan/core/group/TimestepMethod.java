package io.github.memplan.core.group;

import io.github.memplan.core.chip.Chip;
import io.github.memplan.core.ir.Graph;
import io.github.memplan.core.ir.Op;
import java.util.List;
import java.util.Map;

/**
 * How a group's timestep table and LMEM buffers are built from its ops and slices: v0's consecutive
 * assignment ({@link V0Timesteps}) or today's nearest assignment with the 3-stage software pipeline
 * and held coefficients ({@code reference/tpu-mlir.md} §2.8). Implementations are registered as
 * {@code META-INF/services/io.github.memplan.core.group.TimestepMethod} and found by {@link
 * #get(String)}, so that a {@link Grouping} names its method and the {@link GroupingValidator}
 * rebuilds each group's table from scratch. Implementations are stateless.
 */
public interface TimestepMethod {

  /** Stable id, e.g. {@code v0}. */
  String id();

  /**
   * The timestep table and buffers of the group {@code ops} sliced as {@code slices} under {@code
   * secs}; deterministic.
   *
   * @param name the LMEM instance's name
   */
  GroupTimesteps build(
      String name,
      Graph graph,
      List<Op> ops,
      Chip chip,
      ShapeSecs secs,
      Map<String, SliceInfo> slices);

  /**
   * The variant of this method named {@code id}, with some of its pieces switched off ({@link
   * Pieces}; {@link Timesteps2026#variant}), or empty: by default a method has no variants.
   */
  default java.util.Optional<TimestepMethod> variant(String id) {
    return java.util.Optional.empty();
  }

  /**
   * Whether every table of this method folds the first op's loads into the last row and the last
   * op's stores into the first (the 3-stage software pipeline, §2.8(b)), so that they live across
   * the loop boundary; {@link GroupingBound} uses it (its section 5). False by default.
   */
  default boolean foldsAcrossIterations() {
    return false;
  }

  /** The registered method {@code id}, or a registered method's variant; fails naming the ids. */
  static TimestepMethod get(String id) {
    List<TimestepMethod> all = all();
    for (TimestepMethod m : all) {
      if (m.id().equals(id)) {
        return m;
      }
      java.util.Optional<TimestepMethod> v = m.variant(id);
      if (v.isPresent()) {
        return v.get();
      }
    }
    throw new IllegalArgumentException(
        "unknown timestep method '"
            + id
            + "' (known: "
            + String.join(", ", all.stream().map(TimestepMethod::id).toList())
            + ", and today's variants today-no-PIECE...)");
  }

  /** Every registered method, sorted by id. */
  static List<TimestepMethod> all() {
    List<TimestepMethod> out = new java.util.ArrayList<>();
    java.util.ServiceLoader.load(TimestepMethod.class, TimestepMethod.class.getClassLoader())
        .forEach(out::add);
    out.sort(java.util.Comparator.comparing(TimestepMethod::id));
    return out;
  }
}
