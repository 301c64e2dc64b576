package io.github.memplan.core.group;

import io.github.memplan.core.chip.Chip;
import io.github.memplan.core.ir.DType;
import io.github.memplan.core.ir.Graph;
import io.github.memplan.core.ir.Macs;
import io.github.memplan.core.ir.Op;
import io.github.memplan.core.ir.OpKind;
import io.github.memplan.core.ir.Tensor;
import io.github.memplan.core.lmem.LmemBuffer;
import io.github.memplan.core.lmem.Timestep;
import java.util.List;
import java.util.Map;

/**
 * A roofline surrogate of TPU-MLIR's cycle model ({@code CycleCalculator.cpp}, {@code
 * reference/tpu-mlir.md} §2.9; the surrogate §6.2 suggests). All cycles are at the TIU clock.
 *
 * <p><b>Per op (TIU).</b> {@code tiu(op) = ceil(work / (NPU_NUM · EU))} where {@code EU = EU_BYTES
 * / dtype_bytes} elements per lane per cycle and {@code work} is the op's MACs ({@link Macs}) when
 * it has any, else its element ops: output elements × {@code kh·kw} for pools, input elements for
 * global pools, × 2 for BatchNorm, × 5 for Softmax and LayerNorm, × 1 otherwise. An activation
 * fused by the front end ({@code do_relu}, {@code core.frontend}) adds nothing: the conv, eltwise
 * and matmul instructions apply it to their results. In a group, an op's work in one iteration is
 * its work × (output slice elements / output elements).
 *
 * <p><b>Per transfer (GDMA).</b> {@code gdma(bytes) = ceil(bytes / DDR_GBps · TIU_MHz / 1000)}
 * (bytes at GB/s are nanoseconds). A transfer moves the tensor's actual slice in that iteration,
 * {@code n·c·h·w·dtype_bytes}; weights move whole.
 *
 * <p><b>Per group.</b> The loop runs {@code L = Π secs} iterations, c innermost, then w, h, n (as
 * codegen). With the 3-stage software pipeline there are {@code L + 2} steps; in step {@code t} a
 * transfer of stage {@code s} works on iteration {@code t - s} when {@code 0 <= t - s < L}, and TIU
 * ops (stage 1) on iteration {@code t - 1}. Each row of each step costs {@code max(Σ tiu, Σ gdma)}
 * (TIU and GDMA in parallel, a barrier between rows); held buffers are transferred in iteration 0
 * only ("held tensors counted once"). This is the filling / kernel / draining structure of §2.9's
 * formula for non-BM1684X chips ({@code total = filling + draining + max(L-3, 0) · kernel}),
 * evaluated step by step on actual slice sizes instead of the largest one, and it is applied to
 * every chip: the BM1684X-family simulation calls a closed backend library. A table without
 * pipeline stages (all stage 1, as v0) reduces to {@code Σ_iterations Σ_rows max(TIU, GDMA)}.
 *
 * <p><b>Global op.</b> {@code max(tiu(op), gdma(all its inputs, weights and outputs))}: a roofline
 * of compute against its full DDR traffic ({@code getGlobalLayerCycle} is closed).
 *
 * <p><b>DDR bytes.</b> A group's: every transfer it makes over all iterations (held once); a global
 * op's: its inputs, weights and outputs once.
 *
 * <p><b>Chip parameters.</b> {@link Chip#tiuMhz()} and {@link Chip#ddrGBps()} from the chip table.
 * Where the reference gives none they are <em>assumed</em>: TIU {@value #ASSUMED_TIU_MHZ} MHz
 * (BM1684X's and BM1690's clock), DDR {@value #ASSUMED_DDR_GBPS} GB/s (BM1690's 68.264 GB/s per
 * core rounded down; the reference states that no BM1684X DDR bandwidth is given anywhere); {@link
 * #assumptions(Chip)} says which were used. The TIU rate follows the result's dtype ({@code
 * EU_BYTES / dtype_bytes} elements per lane, so a graph lowered to BF16 or INT8 by {@code
 * core.frontend .Lowering} computes 2 or 4 times as fast as in F32); it is an assumption ({@link
 * #tiuRates}), named in every {@link #assumptions} string. An attention head ({@code
 * core.frontend}'s fusion) is rated by its input's dtype, since in INT8 its result is INT32.
 */
public final class RooflineCostModel implements CostModel {
  /** TIU clock used when the chip table gives none (assumed). */
  public static final double ASSUMED_TIU_MHZ = 1000;

  /** DDR bandwidth used when the chip table gives none (assumed). */
  public static final double ASSUMED_DDR_GBPS = 64;

  /** TIU clock of {@code chip} in MHz. */
  public static double tiuMhz(Chip chip) {
    return chip.tiuMhz().orElse(ASSUMED_TIU_MHZ);
  }

  /** DDR bandwidth of {@code chip} in GB/s. */
  public static double ddrGBps(Chip chip) {
    return chip.ddrGBps().orElse(ASSUMED_DDR_GBPS);
  }

  /** Which parameters of {@code chip} are assumed rather than taken from the chip table. */
  public static String assumptions(Chip chip) {
    StringBuilder sb = new StringBuilder();
    if (chip.tiuMhz().isEmpty()) {
      sb.append("TIU clock assumed ").append(ASSUMED_TIU_MHZ).append(" MHz");
    }
    if (chip.ddrGBps().isEmpty()) {
      sb.append(sb.length() > 0 ? "; " : "")
          .append("DDR bandwidth assumed ")
          .append(ASSUMED_DDR_GBPS)
          .append(" GB/s");
    }
    return sb.append(sb.length() > 0 ? "; " : "").append(tiuRates(chip)).toString();
  }

  /**
   * The assumed TIU peak rates per dtype, {@code NPU_NUM · EU_BYTES / dtype_bytes} element ops (or
   * MACs) per cycle: the reference gives no per-dtype rate, so this one is memplan's assumption,
   * e.g. on BM1684X {@code TIU peak assumed NPU_NUM·EU_BYTES/dtype_bytes per cycle: F32 1024,
   * BF16/F16 2048, INT8 4096}.
   */
  public static String tiuRates(Chip chip) {
    return "TIU peak assumed NPU_NUM·EU_BYTES/dtype_bytes per cycle: F32 "
        + tiuRate(chip, DType.F32)
        + ", BF16/F16 "
        + tiuRate(chip, DType.F16)
        + ", INT8 "
        + tiuRate(chip, DType.I8);
  }

  /** Element ops (or MACs) per TIU cycle on {@code chip} for results of {@code dtype}. */
  public static long tiuRate(Chip chip, DType dtype) {
    long bytes = Math.max(1, dtype.bits() / 8);
    return chip.lanes() * Math.max(1, chip.euBytes() / bytes);
  }

  /** TIU cycles of the whole op. */
  public long tiuCycles(Graph graph, Op op, Chip chip) {
    return tiuCycles(graph, op, chip, 1.0);
  }

  private static long tiuCycles(Graph graph, Op op, Chip chip, double fraction) {
    return tiuCycles(work(graph, op), fraction, tiuRate(graph, op, chip));
  }

  /**
   * TIU cycles of {@code fraction} of an op's {@code work} at {@code rate}: exactly what {@link
   * #terms} counts for a slice whose share of the op's output is {@code fraction}.
   */
  static long tiuCycles(double work, double fraction, long rate) {
    return (long) Math.ceil(work * fraction / (double) rate);
  }

  /** The op's TIU work per cycle. */
  static long tiuRate(Graph graph, Op op, Chip chip) {
    Tensor out = graph.tensor(op.outputs().get(0));
    // an INT8 attention head multiplies INT8 operands into an INT32 result: its input's rate
    DType rated =
        op.kind() == OpKind.ATTENTION ? graph.tensor(op.inputs().get(0)).dtype() : out.dtype();
    return tiuRate(chip, rated);
  }

  /** MACs, or element ops for ops without MACs (see the class comment). */
  static double work(Graph graph, Op op) {
    long macs = Macs.of(graph, op);
    if (macs > 0) {
      return macs;
    }
    long outElems = graph.tensor(op.outputs().get(0)).shape().elements();
    return switch (op.kind()) {
      case MAX_POOL, AVERAGE_POOL -> {
        long[] k = op.attributes().getInts("kernel_shape", new long[] {1});
        long area = 1;
        for (long x : k) {
          area *= x;
        }
        yield (double) outElems * area;
      }
      case GLOBAL_AVERAGE_POOL, GLOBAL_MAX_POOL ->
          graph.tensor(op.inputs().get(0)).shape().elements();
      case BATCH_NORMALIZATION -> 2.0 * outElems;
      case SOFTMAX, LAYER_NORMALIZATION -> 5.0 * outElems;
      default -> outElems;
    };
  }

  /** GDMA cycles (at the TIU clock) to move {@code bytes} between DDR and LMEM. */
  public long gdmaCycles(long bytes, Chip chip) {
    return (long) Math.ceil(gdmaTime(bytes, chip));
  }

  /** {@link #gdmaCycles} before rounding up: a row moving several transfers rounds their sum. */
  public double gdmaTime(long bytes, Chip chip) {
    return bytes / ddrGBps(chip) * tiuMhz(chip) / 1000.0;
  }

  @Override
  public GroupCost globalOp(Graph graph, Op op, Chip chip) {
    long bytes = 0;
    for (String t : op.inputs()) {
      if (!t.isEmpty()) {
        bytes += graph.tensor(t).bytes();
      }
    }
    for (String t : op.outputs()) {
      bytes += graph.tensor(t).bytes();
    }
    return new GroupCost(Math.max(tiuCycles(graph, op, chip), gdmaCycles(bytes, chip)), bytes);
  }

  /**
   * The terms of {@link #group}'s sum, for a search that moves transfers between rows and
   * re-evaluates only the rows it changes: {@code tiu[row][step]} the TIU cycles of a row in a
   * pipeline step, {@code bytes[buffer][step]} the bytes the buffer's transfer moves in a step (0
   * outside its stage's iterations, and after iteration 0 when held). A row costs {@code Σ_step
   * max(tiu[row][step], gdmaCycles(Σ_{buffers b of the row} bytes[b][step]))}.
   */
  public record Terms(long[][] tiu, long[][] bytes) {
    /** Number of pipeline steps ({@code loops + 2}). */
    public int steps() {
      return tiu.length == 0 ? 0 : tiu[0].length;
    }
  }

  /** The {@link Terms} of a group (arguments as {@link #group}). */
  public Terms terms(
      Graph graph,
      List<Op> ops,
      Chip chip,
      ShapeSecs secs,
      Map<String, SliceInfo> slices,
      GroupTimesteps table) {
    int[] counts = new int[Axis.values().length];
    java.util.Arrays.fill(counts, 1);
    for (SliceInfo si : slices.values()) {
      for (Axis a : Axis.values()) {
        counts[a.ordinal()] = Math.max(counts[a.ordinal()], si.get(a).size());
      }
    }
    int loops = 1;
    for (int c : counts) {
      loops = Math.multiplyExact(loops, c);
    }
    List<LmemBuffer> buffers = table.lmem().buffers();
    List<Timestep> rows = table.lmem().timesteps();
    long[][] tiu = new long[rows.size()][loops + 2];
    for (int r = 0; r < rows.size(); r++) {
      for (int it = 0; it < loops; it++) {
        for (Timestep.TiuOp top : rows.get(r).tiu()) {
          Op op = graph.op(top.op());
          String out = op.outputs().get(0);
          tiu[r][it + 1] +=
              tiuCycles(graph, op, chip, fraction(graph, out, slices.get(out), counts, it));
        }
      }
    }
    long[][] bytes = new long[buffers.size()][loops + 2];
    for (Timestep row : rows) {
      for (int b : row.gdma()) {
        int stage = table.stages().get(b);
        String tensor = table.tensors().get(b);
        for (int itb = 0; itb < loops; itb++) {
          if (buffers.get(b).held() && itb > 0) {
            break;
          }
          bytes[b][itb + stage] =
              sliceBytes(graph, tensor, slices.get(tensor), counts, itb, buffers.get(b));
        }
      }
    }
    return new Terms(tiu, bytes);
  }

  @Override
  public GroupCost group(
      Graph graph,
      List<Op> ops,
      Chip chip,
      ShapeSecs secs,
      Map<String, SliceInfo> slices,
      GroupTimesteps table) {
    Terms terms = terms(graph, ops, chip, secs, slices, table);
    List<Timestep> rows = table.lmem().timesteps();
    long cycles = 0;
    long ddr = 0;
    for (int t = 0; t < terms.steps(); t++) {
      for (int r = 0; r < rows.size(); r++) {
        long gdmaBytes = 0;
        for (int b : rows.get(r).gdma()) {
          gdmaBytes += terms.bytes()[b][t];
        }
        ddr += gdmaBytes;
        cycles += Math.max(terms.tiu()[r][t], gdmaCycles(gdmaBytes, chip));
      }
    }
    return new GroupCost(cycles, ddr);
  }

  /** Bytes of {@code tensor}'s slice in iteration {@code it}; whole tensor for weights. */
  private static long sliceBytes(
      Graph graph, String tensor, SliceInfo si, int[] counts, int it, LmemBuffer b) {
    Tensor t = graph.tensor(tensor);
    if (b.kind() == LmemBuffer.Kind.WEIGHT || si == null) {
      return t.bytes();
    }
    long elems = 1;
    for (Range r : slice(si, counts, it)) {
      elems *= r.len();
    }
    return t.dtype().bytes(elems);
  }

  /**
   * The share of {@code out} that iteration {@code it} computes: its slice's elements over the
   * tensor's, whatever layout the slices are in (a GROUP_SMALL_C group slices a view of its own,
   * {@link io.github.memplan.core.group.GroupType#view}).
   */
  private static double fraction(Graph graph, String out, SliceInfo si, int[] counts, int it) {
    if (si == null) {
      return 1.0;
    }
    long elems = 1;
    for (Range r : slice(si, counts, it)) {
      elems *= r.len();
    }
    return (double) elems / graph.tensor(out).shape().elements();
  }

  /** The slice (n, c, h, w) in iteration {@code it}: c innermost, then w, h, n outermost. */
  private static List<Range> slice(SliceInfo si, int[] counts, int it) {
    int ic = it % counts[Axis.C.ordinal()];
    int rest = it / counts[Axis.C.ordinal()];
    int iw = rest % counts[Axis.W.ordinal()];
    rest /= counts[Axis.W.ordinal()];
    int ih = rest % counts[Axis.H.ordinal()];
    int in = rest / counts[Axis.H.ordinal()];
    return List.of(pick(si.n(), in), pick(si.c(), ic), pick(si.h(), ih), pick(si.w(), iw));
  }

  private static Range pick(List<Range> l, int i) {
    return l.size() == 1 ? l.get(0) : l.get(i);
  }
}
