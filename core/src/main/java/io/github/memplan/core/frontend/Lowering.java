package io.github.memplan.core.frontend;

import io.github.memplan.core.chip.Chip;
import io.github.memplan.core.ir.DType;
import io.github.memplan.core.ir.Graph;
import io.github.memplan.core.ir.Op;
import io.github.memplan.core.ir.OpKind;
import io.github.memplan.core.ir.Role;
import io.github.memplan.core.ir.Tensor;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * TPU-MLIR's lowering from the Top to the Tpu dialect at one precision ({@code model_deploy
 * --quantize F32|BF16|F16|INT8}, pass {@code --convert-top-to-tpu}, {@code
 * lib/Conversion/TopToTpu/}), reduced to what planning sees: the element type of every tensor. It
 * runs after the front end ({@link FrontEnd}), as in TPU-MLIR, where the Top-level fusions run
 * before lowering ({@code FuseRelu} refuses INT8 storage, so it must see the F32 graph).
 *
 * <p>Each op is lowered to one dtype ({@link #opDType}); its floating-point results take it.
 * Integer tensors (indices, shapes, masks) keep their type; weights take their consumer's type (the
 * widest when several read them), a bias of an INT8 Conv or MatMul INT32. The per-op decisions
 * follow TPU-MLIR's own patterns for each chip family, each rule citing the file, function and
 * commit it was read at:
 *
 * <ul>
 *   <li><b>BM168x</b> (bm1684x and every chip but CV18xx): {@link Bm168xLowering}, TPU-MLIR's
 *       {@code lib/Conversion/TopToTpu/BM1684X/*.cpp}. In INT8 most ops are INT8, but LayerNorm, an
 *       embedding Gather, a reduction, a Concat with a weight, a Clip that is no ReLU, a Resize
 *       that is no Upsample, a Softmax off axis 1 and a MatMul with a weight on the left fall back
 *       to F16, a Div by an activation and a Conv whose filter is an activation to F32. On bm1684x
 *       in BF16 and F16 GELU, Sigmoid, SiLU, Tanh, Sqrt, Div and Reciprocal stay F32, in F16 the
 *       average pools and HardSigmoid too; LSTM is F32 in every mode. Transpose, Slice, Pad and
 *       Concat take the mode's type whatever their input's; Reshape, Flatten, Squeeze, Unsqueeze,
 *       Tile and Expand take their input's ({@code ForwardTypePattern}).
 *   <li><b>CV18xx</b> (BF16 and INT8 only, {@link Quantize#check}): {@link Cv18xxLowering},
 *       TPU-MLIR's {@code lib/Conversion/TopToTpu/CV18xx/*.cpp}. In BF16 every op is BF16; in INT8
 *       LayerNorm, Softmax, a MatMul whose right operand is not a weight, an Add, Sub, Mul or
 *       Concat with a weight operand, a Div by an activation and an embedding Gather fall back to
 *       BF16.
 * </ul>
 *
 * <p><b>Attention</b> ({@link OpKind#ATTENTION}, {@link AttentionFusion}): {@code
 * lib/Conversion/TopToTpu/BM1684X/Attention.cpp} at 0050c8e5e3 lowers it to F16 in F32 mode ({@code
 * LoweringF32} calls {@code lowering_multi_attention_float<Float16Type>}), to BF16 or F16 in those
 * modes (weights and biases cloned to that type), and in INT8 to an INT32 result with INT8 weights
 * and INT32 biases ({@code lowering_attention_int}); the Adds that sum the heads take the heads'
 * type, and in INT8 an attention block's sum of heads is requantised to INT8 ({@link
 * AttentionRequant}). So an F32 plan of a graph with attention ops lowers those ops (and only
 * those) to F16.
 *
 * <p>Departures, all conservative or unverifiable here: TPU-MLIR inserts a {@code tpu.Cast} where a
 * producer's type differs from what its consumer was lowered to (and one after the F32 input and
 * before the F32 output); memplan inserts none: an input takes the widest type its readers were
 * lowered to, an output keeps its producer's, and a consumer reads its producer's type. F32 mode is
 * the graph as imported (with its attention heads in F16): the BF16 fallbacks of some {@code
 * LoweringF32} on MARS3 and SGTPUV8 are not applied. Calibration-dependent fallbacks (asymmetric
 * mode, {@code --quantize_table}) are not modelled, as memplan runs symmetric INT8 without a
 * calibration table; the family tables list their own departures.
 */
public final class Lowering {
  private Lowering() {}

  /** The precision of {@code model_deploy --quantize}. */
  public enum Quantize {
    F32(DType.F32),
    BF16(DType.BF16),
    F16(DType.F16),
    INT8(DType.I8);

    private final DType dtype;

    Quantize(DType dtype) {
      this.dtype = dtype;
    }

    /** The element type ops are lowered to in this mode. */
    public DType dtype() {
      return dtype;
    }

    /**
     * The mode named {@code name} (case-insensitive); an unknown name fails with one line naming it
     * and the allowed ones.
     */
    public static Quantize parse(String name) {
      String n = name.trim().toUpperCase(Locale.ROOT);
      for (Quantize q : values()) {
        if (q.name().equals(n)) {
          return q;
        }
      }
      throw new IllegalArgumentException(
          "unknown --quantize value '" + name + "' (allowed: F32, BF16, F16, INT8)");
    }

    /** The modes {@code chip} compiles: CV18xx BF16 and INT8, the others all four. */
    public static List<Quantize> allowed(Chip chip) {
      return chip.isCv18xx() ? List.of(BF16, INT8) : List.of(values());
    }

    /** Fails with one line naming this mode and the chip's allowed ones when the chip lacks it. */
    public void check(Chip chip) {
      List<Quantize> ok = allowed(chip);
      if (!ok.contains(this)) {
        List<String> names = new ArrayList<>();
        for (Quantize q : ok) {
          names.add(q.name());
        }
        throw new IllegalArgumentException(
            "--quantize "
                + name()
                + " is not supported on "
                + chip.name()
                + " (allowed: "
                + String.join(", ", names)
                + ")");
      }
    }
  }

  /**
   * {@code graph} lowered to {@code quantize} for {@code chip}; the graph itself for F32, the
   * default on every chip: on CV18xx, which compiles no F32, that is the graph as imported, as
   * memplan planned it before precisions existed (an explicit F32 request is refused by the caller
   * through {@link Quantize#check}). A mode other than F32 the chip lacks fails with one line.
   */
  public static Graph apply(Graph graph, Chip chip, Quantize quantize) {
    if (quantize == Quantize.F32
        && graph.ops().stream().noneMatch(op -> op.kind() == OpKind.ATTENTION)) {
      return graph;
    }
    if (quantize != Quantize.F32) {
      quantize.check(chip);
    }
    if (quantize == Quantize.INT8) {
      graph = AttentionRequant.apply(graph);
    }
    Map<String, DType> types = new HashMap<>();
    Map<String, DType> opTypes = new HashMap<>();
    for (Op op : graph.ops()) {
      DType d = opDType(graph, op, chip, quantize, types);
      opTypes.put(op.name(), d);
      for (String out : op.outputs()) {
        if (graph.tensor(out).dtype().isFloatingPoint()) {
          types.put(out, d);
        }
      }
    }
    for (Op op : graph.ops()) {
      DType d = opTypes.get(op.name());
      for (int k = 0; k < op.inputs().size(); k++) {
        String in = op.inputs().get(k);
        if (in.isEmpty()) {
          continue;
        }
        Tensor t = graph.tensor(in);
        if (!t.dtype().isFloatingPoint() || graph.producer(in).isPresent()) {
          continue;
        }
        DType want = d;
        if (t.role() != Role.INPUT && k == 2 && d == DType.I8 && hasBias(op)) {
          want = DType.I32;
        }
        if (op.kind() == OpKind.ATTENTION && quantize == Quantize.INT8) {
          want = t.shape().rank() == 1 ? DType.I32 : DType.I8;
        }
        types.merge(in, want, Lowering::wider);
      }
    }
    return graph.withDTypes(types);
  }

  private static boolean hasBias(Op op) {
    return switch (op.kind()) {
      case CONV, CONV_TRANSPOSE, MAT_MUL, GEMM -> true;
      default -> false;
    };
  }

  /** The wider of two types (F32 over F16/BF16 over INT8); {@code a} on a tie. */
  static DType wider(DType a, DType b) {
    return b.bits() > a.bits() ? b : a;
  }

  /**
   * The dtype TPU-MLIR lowers {@code op} to on {@code chip} in mode {@code quantize} (see the class
   * comment); {@code lowered} holds the types of the tensors lowered so far.
   */
  static DType opDType(
      Graph graph, Op op, Chip chip, Quantize quantize, Map<String, DType> lowered) {
    DType mode = quantize.dtype();
    if (op.kind() == OpKind.ATTENTION) {
      return switch (quantize) {
        case F32 -> chip.isCv18xx() ? DType.BF16 : DType.F16;
        case INT8 -> DType.I32;
        default -> mode;
      };
    }
    if (op.kind() == OpKind.ADD && op.attributes().getInt(AttentionFusion.FUSE, 0) != 0) {
      return lowered.getOrDefault(op.inputs().get(0), mode);
    }
    if (quantize == Quantize.F32) {
      return DType.F32;
    }
    return chip.isCv18xx()
        ? Cv18xxLowering.opDType(graph, op, quantize, lowered)
        : Bm168xLowering.opDType(graph, op, chip, quantize, lowered);
  }

  /**
   * The type of {@code op}'s data input (operand 0) as lowered so far when an op produced it, else
   * {@code mode}: the type of a data-movement op.
   */
  static DType inputType(Graph graph, Op op, DType mode, Map<String, DType> lowered) {
    String in = op.inputs().get(0);
    Tensor t = graph.tensor(in);
    if (t.dtype().isFloatingPoint() && graph.producer(in).isPresent()) {
      return lowered.getOrDefault(in, mode);
    }
    return mode;
  }

  /** Whether {@code tensor} is a weight or constant that no op produces. */
  static boolean isStored(Graph graph, String tensor) {
    return graph.producer(tensor).isEmpty() && graph.tensor(tensor).role().isStored();
  }
}
