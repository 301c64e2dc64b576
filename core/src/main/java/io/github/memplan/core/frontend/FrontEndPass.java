package io.github.memplan.core.frontend;

import io.github.memplan.core.chip.Chip;
import io.github.memplan.core.ir.Graph;

/** One rewrite of the front end, applied to the whole graph at once. */
interface FrontEndPass {
  /**
   * The graph with every match of the pattern rewritten for {@code chip} (the graph itself when
   * none).
   */
  Graph apply(Graph graph, Chip chip);
}
