package io.github.memplan.solvers.group;

import io.github.memplan.core.chip.Chip;
import io.github.memplan.core.group.Axis;
import io.github.memplan.core.group.GroupBoundary;
import io.github.memplan.core.group.GroupType;
import io.github.memplan.core.group.Nchw;
import io.github.memplan.core.group.OpSemantics;
import io.github.memplan.core.group.ShapeSecs;
import io.github.memplan.core.group.ShapeSecsBounds;
import io.github.memplan.core.group.Slicing;
import io.github.memplan.core.ir.Graph;
import io.github.memplan.core.ir.Op;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Every shape secs a group search considers for one candidate group: the space that TPU-MLIR's
 * quick search ({@code reference/tpu-mlir.md} §2.6) walks a path through, enumerated whole.
 *
 * <ul>
 *   <li>within {@code get_group_max_secs} ({@link
 *       io.github.memplan.core.group.ShapeSecsBounds#maxSecs}) of the group's {@link GroupType} (C
 *       above 1 only in GROUP_MM and GROUP_SMALL_C groups), in the type's layout;
 *   <li>per axis only the smallest secs for each distinct vector of largest output slices {@code
 *       ceil(len / secs)} over the group outputs ({@code len} in units of {@code n_align} for N, of
 *       NPU_NUM channels for C): a larger secs with the same largest output slices sizes the
 *       outputs' buffers the same and only adds loops, so it is left out;
 *   <li>W as today allows it: only where the max secs allow W (BM1684X family, {@code w ·
 *       dtype_bytes > DMA_ALGN_BYTES}), and, as {@code assign_dhwsecs} demands ({@link
 *       ShapeSecsBounds#canSplitW}), with every group output's w slice, {@code ceil(w / wsecs) ·
 *       dtype_bytes}, at least 256 bytes while {@code hsecs · wsecs} is below the max hsecs;
 *   <li>at most {@code maxIterations} loops ({@code nsecs · csecs · hsecs · wsecs}), a cap of the
 *       search (documented by the planner that sets it); {@link #truncated} says whether it cut the
 *       space.
 * </ul>
 *
 * Sorted by loops, then nsecs, csecs, hsecs, wsecs: deterministic.
 *
 * @param secs the candidates
 * @param truncated whether the loop cap excluded a candidate
 */
public record SecsSpace(List<ShapeSecs> secs, boolean truncated) {
  public SecsSpace {
    secs = List.copyOf(secs);
  }

  /** The space of the group {@code ops} of type {@code type} under the max secs {@code max}. */
  public static SecsSpace of(
      Graph graph, List<Op> ops, Chip chip, GroupType type, ShapeSecs max, int maxIterations) {
    List<String> outs = GroupBoundary.of(graph, ops).outputs();
    long[][] len = new long[4][outs.size()];
    for (int o = 0; o < outs.size(); o++) {
      Nchw s = type.view(graph, outs.get(o), chip);
      len[0][o] = OpSemantics.ceilDiv(s.n(), Slicing.nAlign(graph, outs.get(o), chip));
      len[1][o] = OpSemantics.ceilDiv(s.c(), chip.lanes());
      len[2][o] = s.h();
      len[3][o] = s.w();
    }
    List<Integer> ns = distinct(len[0], max.secs(Axis.N));
    List<Integer> cs = distinct(len[1], max.secs(Axis.C));
    List<Integer> hs = distinct(len[2], max.secs(Axis.H));
    List<Integer> ws = distinct(len[3], max.secs(Axis.W));
    List<ShapeSecs> out = new ArrayList<>();
    boolean truncated = false;
    for (int n : ns) {
      for (int c : cs) {
        for (int h : hs) {
          for (int w : ws) {
            if (!ShapeSecsBounds.canSplitW(graph, chip, type, outs, (long) h * w, max.hsecs(), w)) {
              continue;
            }
            if ((long) n * c * h * w > maxIterations) {
              truncated = true;
              continue;
            }
            out.add(new ShapeSecs(n, c, h, w));
          }
        }
      }
    }
    out.sort(
        Comparator.comparingLong(ShapeSecs::loops)
            .thenComparingInt(ShapeSecs::nsecs)
            .thenComparingInt(ShapeSecs::csecs)
            .thenComparingInt(ShapeSecs::hsecs)
            .thenComparingInt(ShapeSecs::wsecs));
    return new SecsSpace(out, truncated);
  }

  /** Secs 1..max, the smallest for each distinct vector {@code ceil(len[o] / secs)}. */
  private static List<Integer> distinct(long[] len, int max) {
    List<Integer> out = new ArrayList<>();
    Set<List<Long>> seen = new HashSet<>();
    for (int k = 1; k <= max; k++) {
      Long[] key = new Long[len.length];
      for (int o = 0; o < len.length; o++) {
        key[o] = OpSemantics.ceilDiv(len[o], k);
      }
      if (seen.add(Arrays.asList(key))) {
        out.add(k);
      }
    }
    return out;
  }
}
