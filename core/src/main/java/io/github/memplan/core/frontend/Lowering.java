package io.github.memplan.core.frontend;

import io.github.memplan.core.chip.Chip;
import io.github.memplan.core.ir.DType;
import io.github.memplan.core.ir.Graph;
import io.github.memplan.core.ir.Op;
import io.github.memplan.core.ir.OpKind;
import io.github.memplan.core.ir.Role;
import io.github.memplan.core.ir.Tensor;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * TPU-MLIR's lowering from the Top to the Tpu dialect at one precision ({@code model_deploy
 * --quantize F32|BF16|F16|INT8}, pass {@code --convert-top-to-tpu}, {@code
 * lib/Conversion/TopToTpu/}), reduced to what planning sees: the element type of every tensor. It
 * runs after the front end ({@link FrontEnd}), as in TPU-MLIR, where the Top-level fusions run
 * before lowering ({@code FuseRelu} refuses INT8 storage, so it must see the F32 graph).
 *
 * <p>Each op is lowered to one dtype ({@link #opDType}); its floating-point results take it. The
 * per-op decisions, checked against TPU-MLIR's source:
 *
 * <ul>
 *   <li><b>INT8.</b> An attention block's sum of heads is requantised to INT8 ({@link
 *       AttentionRequant}). Conv, MatMul/Gemm (filter INT8, bias INT32: {@code
 *       lib/Conversion/TopToTpu/BM1684X/MatMul.cpp}, {@code MatMulLowering::LoweringINT8}, at
 *       016639d101), Add ({@code BM1684X/Add.cpp}, {@code AddLowering::LoweringINT8}: INT8 when
 *       symmetric, the default), GELU (a lookup table, {@code BM1684X/GELU.cpp} at 11594358ea) and
 *       every other op go to INT8, except: LayerNorm, lowered as F16 ({@code BM1684X/LayerNorm.cpp}
 *       at 016639d101, {@code LoweringINT8} calls {@code LoweringF16}); Softmax, INT8 only when its
 *       axis is 1 of a tensor of rank at most 4, else F16 ({@code BM1684X/Softmax.cpp} at
 *       d50059d620); a MatMul whose left operand is a weight, F16 (MatMul.cpp above).
 *   <li><b>BF16, F16.</b> Every op in that type, except: GELU stays F32 on BM1684X and BM1690
 *       (GELU.cpp above, {@code LoweringBF16}/{@code LoweringF16}); Softmax stays F32 when its axis
 *       is longer than {@code LMEM_BANK_BYTES / 2} (Softmax.cpp above, {@code axis_dim_too_large});
 *       LayerNorm in BF16 stays F32 on BM1688 ({@code isBM1686()}, LayerNorm.cpp above).
 *   <li><b>Data movement</b> (Reshape, Flatten, Squeeze, Unsqueeze, Transpose, Slice, Split, Pad,
 *       Concat, Expand, Tile, Gather, Identity) takes the type of its data input, as their lowering
 *       copies the input's (quantised) type.
 *   <li>Integer tensors (indices, shapes, masks) keep their type; weights take their consumer's
 *       type (the widest when several read them), a bias of an INT8 Conv or MatMul INT32.
 * </ul>
 *
 * <p><b>Attention</b> ({@link OpKind#ATTENTION}, {@link AttentionFusion}): {@code
 * lib/Conversion/TopToTpu/BM1684X/Attention.cpp} at 0050c8e5e3 lowers it to F16 in F32 mode ({@code
 * LoweringF32} calls {@code lowering_multi_attention_float<Float16Type>}), to BF16 or F16 in those
 * modes (weights and biases cloned to that type), and in INT8 to an INT32 result with INT8 weights
 * and INT32 biases ({@code lowering_attention_int}); the Adds that sum the heads take the heads'
 * type. So an F32 plan of a graph with attention ops lowers those ops (and only those) to F16.
 *
 * <p>Chips: CV18xx compiles BF16 and INT8 only ({@link Quantize#check}) and TPU-MLIR lowers it with
 * its own patterns ({@code lib/Conversion/TopToTpu/CV18xx/*.cpp}), whose per-op rules, with their
 * sources and departures, are in {@link Cv18xxLowering}: in BF16 every op is BF16; in INT8
 * LayerNorm, Softmax, a MatMul whose right operand is not a weight, an Add, Sub, Mul or Concat with
 * a weight operand, a Div by an activation and an embedding Gather fall back to BF16, and
 * Transpose, Slice and Concat are INT8 whatever their input's type. The rules above are the BM1684X
 * ones, used on BM1684 and the other BM168x chips.
 *
 * <p>Departures, all conservative or unverifiable here: TPU-MLIR inserts a {@code tpu.Cast} where a
 * producer's type differs from what its consumer was lowered to (and one after the F32 input and
 * before the F32 output); memplan inserts none: an input takes the widest type its readers were
 * lowered to, an output keeps its producer's, and a consumer reads its producer's type. Ops whose
 * BM1684X INT8 lowering was not read here (the activations, Div, Sub, Mul, the pools) are taken as
 * INT8, the path most of {@code BM1684X/*.cpp} take; calibration-dependent fallbacks (asymmetric
 * mode, {@code --quantize_table}, MatMul's F32 fallback for a non-zero input zero point) are not
 * modelled, as memplan runs symmetric INT8 without a calibration table. BM1684's own lowering
 * directory ({@code lib/Conversion/TopToTpu/BM1684/}) is not followed op by op.
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

  /** Ops that move data and take the type of their data input. */
  static final Set<OpKind> DATA_MOVEMENT =
      EnumSet.of(
          OpKind.RESHAPE,
          OpKind.FLATTEN,
          OpKind.SQUEEZE,
          OpKind.UNSQUEEZE,
          OpKind.TRANSPOSE,
          OpKind.SLICE,
          OpKind.SPLIT,
          OpKind.PAD,
          OpKind.CONCAT,
          OpKind.EXPAND,
          OpKind.TILE,
          OpKind.GATHER,
          OpKind.IDENTITY);

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
    if (chip.isCv18xx()) {
      return Cv18xxLowering.opDType(graph, op, quantize, lowered);
    }
    if (DATA_MOVEMENT.contains(op.kind())) {
      return inputType(graph, op, mode, lowered);
    }
    String name = chip.name();
    if (quantize == Quantize.INT8) {
      return switch (op.kind()) {
        case LAYER_NORMALIZATION -> DType.F16;
        case SOFTMAX -> softmaxInt8Ok(graph, op) ? mode : DType.F16;
        case MAT_MUL, GEMM -> isStored(graph, op.inputs().get(0)) ? DType.F16 : mode;
        default -> mode;
      };
    }
    return switch (op.kind()) {
      case GELU -> name.equals("bm1684x") || name.equals("bm1690") ? DType.F32 : mode;
      case SOFTMAX -> softmaxAxisTooLong(graph, op, chip) ? DType.F32 : mode;
      case LAYER_NORMALIZATION ->
          quantize == Quantize.BF16 && name.equals("bm1688") ? DType.F32 : mode;
      default -> mode;
    };
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

  private static int softmaxAxis(Graph graph, Op op) {
    return graph
        .tensor(op.outputs().get(0))
        .shape()
        .normalizeAxis((int) op.attributes().getInt("axis", -1));
  }

  /** Softmax's INT8 lowering: axis 1 of a tensor of rank at most 4 (not LogSoftmax). */
  private static boolean softmaxInt8Ok(Graph graph, Op op) {
    int rank = graph.tensor(op.outputs().get(0)).shape().rank();
    return rank <= 4 && softmaxAxis(graph, op) == 1;
  }

  /** {@code axis_dim_too_large}: the softmax axis is longer than {@code LMEM_BANK_BYTES / 2}. */
  private static boolean softmaxAxisTooLong(Graph graph, Op op, Chip chip) {
    long dim = graph.tensor(op.outputs().get(0)).shape().dim(softmaxAxis(graph, op));
    return dim > chip.bankBytes() / 2;
  }
}
