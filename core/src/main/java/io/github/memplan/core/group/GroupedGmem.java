package io.github.memplan.core.group;

import io.github.memplan.core.chip.Chip;
import io.github.memplan.core.dsa.Alignment;
import io.github.memplan.core.dsa.Buffer;
import io.github.memplan.core.dsa.DsaInstance;
import io.github.memplan.core.ir.Graph;
import io.github.memplan.core.ir.Op;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The GMEM activation problem of a grouped graph ({@code reference/tpu-mlir.md} §1.2, §1.8): only
 * graph inputs, the outputs of global ops and the group outputs are "global neuron tensors"; a
 * group's intermediates live in LMEM. Following {@code core.gmem.GmemBuilder}'s conventions, step
 * {@code 0..I-1} define the graph inputs, then one step per global op or per group (reading its
 * group inputs, defining its group outputs), then a return step reading the graph outputs; a buffer
 * lives from its defining step to one past its last reading step, its size aligned to the chip's
 * GMEM alignment. Departure from {@code GmemBuilder}: no in-place aliasing of Reshape, Slice or
 * Concat (the instance carries no program).
 */
public final class GroupedGmem {
  private GroupedGmem() {}

  /** The GMEM activation instance of {@code grouping} of {@code graph} on {@code chip}. */
  public static DsaInstance build(Graph graph, Chip chip, Grouping grouping) {
    List<List<String>> reads = new ArrayList<>();
    List<List<String>> defs = new ArrayList<>();
    for (String in : graph.inputs()) {
      reads.add(List.of());
      defs.add(List.of(in));
    }
    Map<Integer, Group> byFirst = new HashMap<>();
    for (Group g : grouping.groups()) {
      byFirst.put(g.first(), g);
    }
    for (int i = 0; i < grouping.order().size(); i++) {
      Group g = byFirst.get(i);
      if (g != null) {
        GroupBoundary io = GroupBoundary.of(graph, grouping.ops(graph, g));
        reads.add(io.inputs());
        defs.add(io.outputs());
        i = g.last();
        continue;
      }
      Op op = graph.op(grouping.order().get(i));
      List<String> r = new ArrayList<>();
      for (String t : op.inputs()) {
        if (GroupBoundary.isActivation(graph, t)) {
          r.add(t);
        }
      }
      reads.add(r);
      defs.add(op.outputs());
    }
    reads.add(graph.outputs());
    defs.add(List.of());
    Map<String, int[]> life = new LinkedHashMap<>();
    for (int s = 0; s < defs.size(); s++) {
      for (String t : defs.get(s)) {
        life.putIfAbsent(t, new int[] {s, s + 1});
      }
      for (String t : reads.get(s)) {
        int[] l = life.get(t);
        if (l != null) {
          l[1] = Math.max(l[1], s + 1);
        }
      }
    }
    long align = chip.gmemAlignment();
    List<Buffer> buffers = new ArrayList<>();
    for (Map.Entry<String, int[]> e : life.entrySet()) {
      long bytes = graph.tensor(e.getKey()).bytes();
      if (bytes == 0) {
        continue;
      }
      buffers.add(
          Buffer.of(e.getKey(), e.getValue()[0], e.getValue()[1], Alignment.up(bytes, align))
              .withAlignment(align));
    }
    return DsaInstance.of(graph.name() + "@" + chip.name() + "/grouped", buffers);
  }
}
