package io.github.memplan.core.frontend;

import io.github.memplan.core.chip.Chip;
import io.github.memplan.core.ir.Graph;
import io.github.memplan.core.ir.Op;
import io.github.memplan.core.solve.SwitchSet;
import java.util.Collections;
import java.util.EnumSet;
import java.util.Set;

/**
 * TPU-MLIR's front-end fusions before LayerGroup, on memplan's ONNX-level graph: {@link
 * Pass#ONNX_OPT} ({@link OnnxOpt}), {@link Pass#BN_TO_CONV} ({@link BatchNormToConv}), {@link
 * Pass#MATMUL_BIAS} ({@link MatMulWithBias}), {@link Pass#FUSE_RELU} ({@link FuseRelu}) and {@link
 * Pass#ATTENTION} ({@link AttentionFusion}), in that order. In TPU-MLIR they always run ({@code
 * onnx_opt} in the ONNX converter, {@code --canonicalize} in model_transform, {@code
 * --processor-optimize} in model_deploy, whose patterns depend on the chip: on BM1684 BatchNorm is
 * not folded into Conv), so {@link Options#ALL} is the default everywhere a graph is planned; each
 * can be switched off to measure what it changes.
 *
 * <p>A fused activation is recorded as TPU-MLIR records it: attributes {@value #DO_RELU} (1) and
 * {@value #RELU_LIMIT} (-1 for none, else the cap) on the producing op, which defines the
 * activation's output and takes its name.
 *
 * <p>Order: TPU-MLIR's greedy rewriter interleaves the canonicalization patterns; for these the
 * result does not depend on the order (a ReLU fused into a Scale before the Scale merges into the
 * Conv ends on the Conv, as here). {@code onnx_opt} runs before everything else, as here, and the
 * attention fusion, a processor-optimize pattern of {@code model_deploy}, after the
 * canonicalization of {@code model_transform} (it takes the projections' biases from {@code
 * MatMulWithBias}).
 */
public final class FrontEnd {
  private FrontEnd() {}

  /** Attribute set to 1 on an op with a fused ReLU (TPU-MLIR's {@code do_relu}). */
  public static final String DO_RELU = "do_relu";

  /** The fused ReLU's cap; -1 for none, 0 for an infinite Clip max (TPU-MLIR's). */
  public static final String RELU_LIMIT = "relu_limit";

  /** The passes, each switchable by its name. */
  public enum Pass {
    /**
     * Decomposed LayerNorm, GELU, HardSigmoid and HardSwish of an exported ONNX model as one op
     * ({@code onnx_opt}'s patterns).
     */
    ONNX_OPT("onnx-opt"),
    /**
     * Conv + BatchNorm: BatchNorm folded into the Conv ({@code TopBatchNormToScale}, then {@code
     * MergeScale2Conv}).
     */
    BN_TO_CONV("bn-to-conv"),
    /** MatMul + Add(weight): one MatMul with a bias ({@code MatMulWithBias}). */
    MATMUL_BIAS("matmul-bias"),
    /** ReLU and Clip(0, max) fused into their producer ({@code TopFuseRelu}). */
    FUSE_RELU("fuse-relu"),
    /**
     * A self-attention block as one Attention op per head, summed by Adds ({@code
     * ConvertMatMul2Attention} and its per-head lowering; BM1684X only).
     */
    ATTENTION("attention");

    private final String id;

    Pass(String id) {
      this.id = id;
    }

    /** The name on command lines and in suites, e.g. {@code bn-to-conv}. */
    public String id() {
      return id;
    }
  }

  /** What a pass is called in messages. */
  private static final String WHAT = "front-end pass";

  /** Which passes run. */
  public record Options(Set<Pass> passes) {
    /** Every pass (TPU-MLIR; the default). */
    public static final Options ALL = new Options(EnumSet.allOf(Pass.class));

    /** None: the graph as built or imported. */
    public static final Options NONE = new Options(EnumSet.noneOf(Pass.class));

    public Options {
      passes =
          Collections.unmodifiableSet(
              passes.isEmpty() ? EnumSet.noneOf(Pass.class) : EnumSet.copyOf(passes));
    }

    /**
     * {@code all}, {@code none}, a comma-separated list of pass names ({@code
     * bn-to-conv,fuse-relu}: only those), or {@code all} minus some ({@code all,-fuse-relu}).
     */
    public static Options parse(String spec) {
      return new Options(SwitchSet.parse(spec, EnumSet.allOf(Pass.class), Pass::id, WHAT));
    }

    public boolean isAll() {
      return passes.size() == Pass.values().length;
    }

    /** {@code all}, {@code none}, or the pass names in order, comma-separated. */
    @Override
    public String toString() {
      return SwitchSet.format(passes, EnumSet.allOf(Pass.class), Pass::id);
    }
  }

  /**
   * {@code graph} after the passes {@code options} switches on, in the order of {@link Pass}, as
   * TPU-MLIR runs them for {@code chip} (its processor-optimize patterns depend on the chip).
   */
  public static Graph apply(Graph graph, Chip chip, Options options) {
    Graph g = graph;
    for (Pass p : options.passes()) {
      g = pass(p).apply(g, chip);
    }
    return g;
  }

  /**
   * {@code graph} after the passes {@code options} switches on, then lowered to {@code quantize}
   * ({@link Lowering}): the one place every planned graph is made. Fails with one line when {@code
   * chip} lacks the mode (F32, the default, is the graph as imported on every chip).
   */
  public static Graph apply(Graph graph, Chip chip, Options options, Lowering.Quantize quantize) {
    return Lowering.apply(apply(graph, chip, options), chip, quantize);
  }

  /** {@code graph} after every pass, for {@code chip}. */
  public static Graph apply(Graph graph, Chip chip) {
    return apply(graph, chip, Options.ALL);
  }

  private static FrontEndPass pass(Pass p) {
    return switch (p) {
      case ONNX_OPT -> new OnnxOpt();
      case BN_TO_CONV -> new BatchNormToConv();
      case MATMUL_BIAS -> new MatMulWithBias();
      case FUSE_RELU -> new FuseRelu();
      case ATTENTION -> new AttentionFusion();
    };
  }

  /** Whether {@code op} has a fused ReLU ({@value #DO_RELU} set). */
  public static boolean doRelu(Op op) {
    return op.attributes().getInt(DO_RELU, 0) != 0;
  }
}
