package io.github.memplan.core.group;

import io.github.memplan.core.chip.Chip;
import io.github.memplan.core.ir.Graph;
import io.github.memplan.core.ir.Op;
import io.github.memplan.core.ir.OpKind;
import io.github.memplan.core.ir.Shape;
import io.github.memplan.core.ir.Tensor;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The type of a layer group ({@code group_type_t}, {@code reference/tpu-mlir.md} §2.1, §2.2), set
 * by today's LayerGroup for every candidate group ({@code set_group_type} in {@code
 * GroupMethod.cpp}) and deciding which axes may be split and how tensors are laid out in LMEM.
 *
 * <pre>
 * set_group_type: one op -&gt; NORMAL; (a 3-D op -&gt; GROUP_3D: not modelled, rank 5 stays global)
 *   CV18xx or BM1684 -&gt; NORMAL; can_be_group_small_c -&gt; SMALL_C; can_be_group_mm -&gt; MM; else NORMAL
 * can_be_group_small_c: every op is an Ar op (same-shape binary), Active, Cast, LayerNorm, MulConst,
 *   MatMul, Softmax, Reshape, Lut or BinaryShift; a Reshape of rank &lt;= 5 keeping dims 0 and 1,
 *   rank &gt; 2 both sides, N·C·H not a multiple of NPU_NUM and (4-D) H unchanged; LayerNorm and
 *   Softmax on the last axis; a MatMul without hdim_is_batch; then per op (operand 0's shape s):
 *   4-D with s0·s1·s2 % NPU_NUM == 0 passes; 3-D with s0 &gt; 4 and s1 == 197 passes; otherwise
 *   4-D with s2 &gt; s1 and s1 &lt; NPU_NUM / 2, else not SMALL_C
 * can_be_group_mm (not on CV184X or SGTPUV8): every op is Active, Add, Cast, LayerNorm, MulConst,
 *   MatMul, Mul, Reshape, Softmax, Attention, RMSNorm, MulShift, Where, BatchNormBwd, Lut,
 *   BinaryConstShift, BinaryShift, AddConst, Reduce, Clip, Div, Rope or Concat; LayerNorm and
 *   Softmax on the last axis; a Reshape keeping dims 0 and 1, rank &gt; 2 both sides; a MatMul not
 *   transposed on both sides
 * group_type_check: a MatMul with a 4-D left operand whose C &lt; H and a 2-D right operand needs
 *   SMALL_C
 * </pre>
 *
 * <p>Layouts ({@link #view}, {@code module::getNCHW} with a group type): NORMAL and MM the usual
 * left-aligned 4-D view ({@link Nchw#of}); SMALL_C moves H onto the lanes, {@code {n·c, h, w, 1}}
 * for a 4-D tensor, or {@code {n·c·h / NPU_NUM, NPU_NUM, w, 1}} when NPU_NUM divides {@code n·c·h};
 * 3-D {@code {1, s0·s1, s2, 1}}; 2-D {@code {1, s0, s1, 1}}; 1-D {@code {1, 1, s0, 1}}.
 *
 * <p>Read in {@code GroupMethod.cpp} ({@code can_be_group_small_c}, {@code can_be_group_mm}, {@code
 * set_group_type}, {@code group_type_check}) and {@code lib/Support/Module.cpp} ({@code getNCHW})
 * of {@code sophgo/tpu-mlir}, the stored versions whose {@code can_be_group_small_c} calls {@code
 * module::isTpuArOp} ({@code reference/tpu-mlir.md} reads 36e3c625a).
 *
 * <p>memplan's ONNX-level kinds stand for TPU-MLIR's ops as follows (memplan's mapping, decided
 * here): Add, Sub, Mul, Div, Max and Min of two activations (or of a non-scalar weight) are the Ar
 * ops ({@code isTpuArOp}, whose definition was not read: taken as these six); with a one-element
 * weight operand they are the Const ops (AddConst, SubConst, MulConst, MaxConst, MinConst), and Div
 * by one is MulConst (by the reciprocal), as is Neg (by -1); the element-wise activations (Sigmoid,
 * HardSigmoid, HardSwish, SiLU, Tanh, GELU, Erf, Exp, Log, Sqrt, Abs, Floor, Ceil, Round, Sign) are
 * Active (Lut in INT8, in both lists alike); Cast, QuantizeLinear and DequantizeLinear are Cast;
 * Reshape, Flatten, Squeeze and Unsqueeze are Reshape; MatMul, MatMulInteger and Gemm are MatMul
 * (never {@code hdim_is_batch}, which only TPU-MLIR's fused permutes set); the Reduce kinds are
 * Reduce. Relu, LeakyRelu, Reciprocal, the comparisons and every kind with a kernel are none of
 * these.
 */
public enum GroupType {
  /** {@code GROUP_NORMAL}: N, H and W may be split, never C. */
  NORMAL,
  /** {@code GROUP_SMALL_C}: element-wise groups with few channels, H moved onto the lanes. */
  SMALL_C,
  /** {@code GROUP_MM}: transformer groups, C split in units of NPU_NUM channels. */
  MM;

  /** TPU-MLIR's op classes that the type rules name. */
  private enum Cls {
    AR,
    CONST_ADD,
    CONST_SUB,
    CONST_MUL,
    CONST_MAX,
    CONST_MIN,
    ACTIVE,
    CAST,
    LAYER_NORM,
    SOFTMAX,
    MATMUL,
    RESHAPE,
    CONCAT,
    WHERE,
    REDUCE,
    CLIP,
    ATTENTION,
    OTHER
  }

  /** Sigmoid .. Sign in {@link OpKind}'s order, without Neg and Reciprocal. */
  private static final Set<OpKind> ACTIVE = active();

  private static Set<OpKind> active() {
    Set<OpKind> s = EnumSet.range(OpKind.SIGMOID, OpKind.SIGN);
    s.removeAll(EnumSet.of(OpKind.NEG, OpKind.RECIPROCAL));
    return s;
  }

  private static Cls cls(Graph graph, Op op) {
    OpKind k = OpSemantics.kind(op);
    if (ACTIVE.contains(k)) {
      return Cls.ACTIVE;
    }
    if (k.category() == OpKind.Category.REDUCE && k != OpKind.ARG_MAX && k != OpKind.ARG_MIN) {
      return Cls.REDUCE;
    }
    return switch (k) {
      case ADD, SUB, MUL, DIV, MAX, MIN -> {
        if (!scalarWeightOperand(graph, op)) {
          yield Cls.AR;
        }
        yield switch (k) {
          case ADD -> Cls.CONST_ADD;
          case SUB -> Cls.CONST_SUB;
          case MAX -> Cls.CONST_MAX;
          case MIN -> Cls.CONST_MIN;
          default -> Cls.CONST_MUL; // Mul, and Div by the reciprocal
        };
      }
      case NEG -> Cls.CONST_MUL;
      case CAST, QUANTIZE_LINEAR, DEQUANTIZE_LINEAR -> Cls.CAST;
      case LAYER_NORMALIZATION -> Cls.LAYER_NORM;
      case SOFTMAX -> Cls.SOFTMAX;
      case MAT_MUL, GEMM -> Cls.MATMUL;
      case RESHAPE, FLATTEN, SQUEEZE, UNSQUEEZE -> Cls.RESHAPE;
      case CONCAT -> Cls.CONCAT;
      case WHERE -> Cls.WHERE;
      case CLIP -> Cls.CLIP;
      case ATTENTION -> Cls.ATTENTION;
      default -> Cls.OTHER;
    };
  }

  /** A binary op whose second operand is a stored tensor of one element (a Const op). */
  private static boolean scalarWeightOperand(Graph graph, Op op) {
    if (op.inputs().size() != 2 || op.inputs().get(1).isEmpty()) {
      return false;
    }
    Tensor t = graph.tensor(op.inputs().get(1));
    return t.role().isStored() && t.shape().elements() == 1;
  }

  /** {@code set_group_type} of the group {@code ops} on {@code chip}. */
  public static GroupType of(Graph graph, List<Op> ops, Chip chip) {
    if (ops.size() == 1) {
      return NORMAL;
    }
    if (chip.isCv18xx() || chip.name().equals("bm1684")) {
      return NORMAL;
    }
    if (smallC(graph, ops, chip)) {
      return SMALL_C;
    }
    if (mm(graph, ops, chip)) {
      return MM;
    }
    return NORMAL;
  }

  private static long[] in0(Graph graph, Op op) {
    return graph.tensor(op.inputs().get(0)).shape().dims();
  }

  private static long[] out0(Graph graph, Op op) {
    return graph.tensor(op.outputs().get(0)).shape().dims();
  }

  /** The op's axis attribute normalised to operand 0's rank (LayerNorm and Softmax: last). */
  private static boolean onLastAxis(Graph graph, Op op) {
    Shape s = graph.tensor(op.inputs().get(0)).shape();
    int axis = s.normalizeAxis((int) op.attributes().getInt("axis", -1));
    return axis == s.rank() - 1;
  }

  private static boolean keepsDims01(long[] i, long[] o) {
    return i.length > 2 && o.length > 2 && i[0] == o[0] && i[1] == o[1];
  }

  /** Whether every op of {@code ops} may be in a GROUP_SMALL_C group ({@link #of} on more ops). */
  static boolean smallC(Graph graph, List<Op> ops, Chip chip) {
    long npu = chip.lanes();
    for (Op op : ops) {
      Cls c = cls(graph, op);
      if (c != Cls.AR
          && c != Cls.ACTIVE
          && c != Cls.CAST
          && c != Cls.LAYER_NORM
          && c != Cls.CONST_MUL
          && c != Cls.MATMUL
          && c != Cls.SOFTMAX
          && c != Cls.RESHAPE) {
        return false;
      }
      long[] s = in0(graph, op);
      switch (c) {
        case RESHAPE -> {
          long[] o = out0(graph, op);
          if (s.length > 5 || o.length > 5 || !keepsDims01(s, o)) {
            return false;
          }
          if (s.length == 4 && s[0] * s[1] * s[2] % npu == 0) {
            return false;
          }
          if (s.length == 4 && o[2] != s[2]) {
            return false;
          }
        }
        case LAYER_NORM, SOFTMAX -> {
          if (!onLastAxis(graph, op)) {
            return false;
          }
        }
        case AR -> {
          if (!Arrays.equals(s, graph.tensor(op.inputs().get(1)).shape().dims())) {
            return false;
          }
        }
        default -> {} // MatMul: hdim_is_batch is never set here
      }
      if (s.length == 4 && s[0] * s[1] * s[2] % npu == 0) {
        continue;
      }
      if (s.length == 3 && s[0] > 4 && s[1] == 197) {
        continue;
      }
      if (!(s.length == 4 && s[2] > s[1] && s[1] < npu / 2)) {
        return false;
      }
    }
    return true;
  }

  /** Whether every op of {@code ops} may be in a GROUP_MM group ({@link #of} on more ops). */
  static boolean mm(Graph graph, List<Op> ops, Chip chip) {
    if (chip.name().equals("cv184x") || chip.name().equals("sgtpuv8")) {
      return false;
    }
    for (Op op : ops) {
      Cls c = cls(graph, op);
      boolean listed =
          switch (c) {
            case ACTIVE,
                CAST,
                LAYER_NORM,
                CONST_MUL,
                MATMUL,
                RESHAPE,
                SOFTMAX,
                WHERE,
                CONST_ADD,
                REDUCE,
                CLIP,
                CONCAT,
                ATTENTION ->
                true;
            // of the Ar ops only Add, Mul and Div are listed
            case AR -> {
              OpKind k = OpSemantics.kind(op);
              yield k == OpKind.ADD || k == OpKind.MUL || k == OpKind.DIV;
            }
            default -> false;
          };
      if (!listed) {
        return false;
      }
      switch (c) {
        case LAYER_NORM, SOFTMAX -> {
          if (!onLastAxis(graph, op)) {
            return false;
          }
        }
        case RESHAPE -> {
          if (!keepsDims01(in0(graph, op), out0(graph, op))) {
            return false;
          }
        }
        case MATMUL -> {
          if (op.attributes().getInt("transA", 0) != 0
              && op.attributes().getInt("transB", 0) != 0) {
            return false;
          }
        }
        default -> {}
      }
    }
    return true;
  }

  /**
   * Whether {@code op} may be in a GROUP_MM group on {@code chip}: its own conditions of {@code
   * can_be_group_mm} hold (a group is MM only when every op's do, and it has more than one op).
   */
  public static boolean mayJoinMm(Graph graph, Op op, Chip chip) {
    return !chip.isCv18xx() && !chip.name().equals("bm1684") && mm(graph, List.of(op), chip);
  }

  /**
   * {@code group_type_check}: why the group {@code ops} of type {@code type} is refused, or empty.
   * A MatMul with a 4-D left operand whose C is below its H and a 2-D right operand is local only
   * in a SMALL_C group.
   */
  public static Optional<String> check(Graph graph, List<Op> ops, GroupType type) {
    for (Op op : ops) {
      if (cls(graph, op) != Cls.MATMUL || op.inputs().size() < 2) {
        continue;
      }
      long[] l = in0(graph, op);
      long[] r = graph.tensor(op.inputs().get(1)).shape().dims();
      if (l.length == 4 && l[1] < l[2] && r.length == 2 && type != SMALL_C) {
        return Optional.of(
            "MatMul "
                + op.label()
                + " (4-D x 2-D with C < H) needs a GROUP_SMALL_C group, not "
                + type);
      }
    }
    return Optional.empty();
  }

  /** The local layout of {@code shape} in a group of this type ({@code getNCHW}). */
  public Nchw view(Shape shape, Chip chip) {
    if (this != SMALL_C) {
      return Nchw.of(shape);
    }
    long[] d = shape.dims();
    long npu = chip.lanes();
    return switch (d.length) {
      case 0 -> new Nchw(1, 1, 1, 1);
      case 1 -> new Nchw(1, 1, d[0], 1);
      case 2 -> new Nchw(1, d[0], d[1], 1);
      case 3 -> new Nchw(1, d[0] * d[1], d[2], 1);
      case 4 ->
          d[0] * d[1] * d[2] % npu == 0
              ? new Nchw(d[0] * d[1] * d[2] / npu, npu, d[3], 1)
              : new Nchw(d[0] * d[1], d[2], d[3], 1);
      default -> throw new IllegalArgumentException("no 4-D view of shape " + shape);
    };
  }

  /** The layout of the tensor {@code t} in a group of this type. */
  public Nchw view(Graph graph, String t, Chip chip) {
    return view(graph.tensor(t).shape(), chip);
  }
}
