package io.github.memplan.datasets.zoo;

import io.github.memplan.core.ir.Graph;
import io.github.memplan.core.ir.Op;
import io.github.memplan.core.ir.OpKind;
import io.github.memplan.core.ir.Role;

/** Counting helpers for the zoo's tests. */
final class ZooGraphs {
  private ZooGraphs() {}

  static long count(Graph g, OpKind kind) {
    return g.ops().stream().filter(o -> o.kind() == kind).count();
  }

  /** Learned parameters read by the ops whose names start with {@code prefix}. */
  static long parametersUnder(Graph g, String prefix) {
    long n = 0;
    for (Op op : g.ops()) {
      if (op.name().startsWith(prefix)) {
        for (String in : op.inputs()) {
          if (g.tensor(in).role() == Role.WEIGHT) {
            n += g.tensor(in).shape().elements();
          }
        }
      }
    }
    return n;
  }
}
