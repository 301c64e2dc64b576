package io.github.memplan.core.group;

import io.github.memplan.core.chip.Chip;
import io.github.memplan.core.ir.Graph;
import io.github.memplan.core.ir.Op;
import java.util.List;

/**
 * Slicing plus timestep table of one candidate group under one {@link ShapeSecs}: what a grouping
 * planner hands to an LMEM planner, and what {@link GroupingValidator} re-derives.
 */
public sealed interface GroupCandidate {

  /** A sliced candidate with its table. */
  record Built(SliceResult.Sliced slices, GroupTimesteps timesteps) implements GroupCandidate {}

  /** Slicing failed. */
  record Rejected(SliceResult.Failed failure) implements GroupCandidate {}

  /**
   * Slices {@code ops} under {@code secs} and {@code rules} and builds the table with {@code
   * method}.
   */
  static GroupCandidate build(
      String name,
      Graph graph,
      List<Op> ops,
      Chip chip,
      ShapeSecs secs,
      SliceRules rules,
      TimestepMethod method) {
    SliceResult r = Slicing.slice(graph, ops, chip, secs, rules);
    if (r instanceof SliceResult.Failed f) {
      return new Rejected(f);
    }
    SliceResult.Sliced s = (SliceResult.Sliced) r;
    return new Built(s, method.build(name, graph, ops, chip, secs, s.slices()));
  }
}
