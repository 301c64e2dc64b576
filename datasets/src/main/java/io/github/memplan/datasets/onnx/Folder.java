package io.github.memplan.datasets.onnx;

import io.github.memplan.core.ir.Attributes;
import io.github.memplan.core.ir.DType;
import io.github.memplan.core.ir.Op;
import io.github.memplan.core.ir.OpKind;
import io.github.memplan.core.ir.TensorType;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * Evaluates ops on known values, for the shape sub-graphs of exported models (Shape, Gather,
 * Unsqueeze, Concat, Slice, Cast, arithmetic on small integer tensors, ...). Semantics follow the
 * ONNX operator specification and its reference implementation (numpy): integer Div truncates
 * toward zero, Mod takes the divisor's sign unless {@code fmod=1}, integer results wrap to their
 * type. The output shapes are those {@link io.github.memplan.core.ir.ShapeInference} computed, so
 * the folder only moves and combines elements.
 */
final class Folder {
  private static final Set<OpKind> SUPPORTED =
      EnumSet.of(
          OpKind.IDENTITY,
          OpKind.RESHAPE,
          OpKind.FLATTEN,
          OpKind.SQUEEZE,
          OpKind.UNSQUEEZE,
          OpKind.CAST,
          OpKind.NEG,
          OpKind.ABS,
          OpKind.SQRT,
          OpKind.EXP,
          OpKind.LOG,
          OpKind.RECIPROCAL,
          OpKind.FLOOR,
          OpKind.CEIL,
          OpKind.ROUND,
          OpKind.SIGN,
          OpKind.RELU,
          OpKind.NOT,
          OpKind.ADD,
          OpKind.SUB,
          OpKind.MUL,
          OpKind.DIV,
          OpKind.POW,
          OpKind.MOD,
          OpKind.MAX,
          OpKind.MIN,
          OpKind.EQUAL,
          OpKind.LESS,
          OpKind.LESS_OR_EQUAL,
          OpKind.GREATER,
          OpKind.GREATER_OR_EQUAL,
          OpKind.AND,
          OpKind.OR,
          OpKind.XOR,
          OpKind.WHERE,
          OpKind.CONCAT,
          OpKind.SLICE,
          OpKind.GATHER,
          OpKind.TRANSPOSE,
          OpKind.EXPAND,
          OpKind.TILE,
          OpKind.SPLIT,
          OpKind.REDUCE_SUM,
          OpKind.REDUCE_PROD,
          OpKind.REDUCE_MAX,
          OpKind.REDUCE_MIN,
          OpKind.REDUCE_MEAN);

  private Folder() {}

  static boolean supports(OpKind kind) {
    return SUPPORTED.contains(kind);
  }

  /**
   * The values of {@code op}'s outputs.
   *
   * @param in the values of the op's inputs, in operand order
   * @param out the output types shape inference gave
   * @throws IllegalArgumentException on arithmetic faults (integer division by zero, indices out of
   *     range)
   */
  static List<OnnxValue> evaluate(Op op, List<OnnxValue> in, List<TensorType> out) {
    Attributes a = op.attributes();
    TensorType t = out.get(0);
    long[] dims = t.shape().dims();
    OnnxValue x = in.get(0);
    return switch (op.kind()) {
      case IDENTITY, RESHAPE, FLATTEN, SQUEEZE, UNSQUEEZE -> List.of(x.withDims(dims));
      case CAST -> List.of(x.cast(t.dtype()));
      case NEG, ABS, SQRT, EXP, LOG, RECIPROCAL, FLOOR, CEIL, ROUND, SIGN, RELU, NOT ->
          List.of(unary(op.kind(), x));
      case ADD,
          SUB,
          MUL,
          DIV,
          POW,
          MOD,
          MAX,
          MIN,
          EQUAL,
          LESS,
          LESS_OR_EQUAL,
          GREATER,
          GREATER_OR_EQUAL,
          AND,
          OR,
          XOR -> {
        OnnxValue acc = x;
        for (int i = 1; i < in.size(); i++) {
          acc = binary(op, acc, in.get(i));
        }
        yield List.of(acc);
      }
      case WHERE -> List.of(where(in.get(0), in.get(1), in.get(2), dims));
      case CONCAT -> List.of(concat(in, (int) axis(a.getInt("axis", 0), x.rank()), t));
      case SLICE -> List.of(slice(x, a, t));
      case GATHER -> List.of(gather(x, in.get(1), (int) axis(a.getInt("axis", 0), x.rank()), t));
      case TRANSPOSE -> List.of(transpose(x, a, t));
      case EXPAND -> List.of(select(x, broadcastMap(x.dims(), dims), dims));
      case TILE -> List.of(tile(x, t));
      case SPLIT -> split(x, (int) axis(a.getInt("axis", 0), x.rank()), out);
      case REDUCE_SUM, REDUCE_PROD, REDUCE_MAX, REDUCE_MIN, REDUCE_MEAN ->
          List.of(reduce(op.kind(), x, a, t));
      default -> throw new IllegalArgumentException("cannot fold " + op.kind());
    };
  }

  // ---------------------------------------------------------------- elementwise

  private static OnnxValue unary(OpKind kind, OnnxValue x) {
    int n = x.size();
    if (x.isFloatingPoint()) {
      double[] v = x.doubles();
      for (int i = 0; i < n; i++) {
        double e = v[i];
        v[i] =
            switch (kind) {
              case NEG -> -e;
              case ABS -> Math.abs(e);
              case SQRT -> Math.sqrt(e);
              case EXP -> Math.exp(e);
              case LOG -> Math.log(e);
              case RECIPROCAL -> 1 / e;
              case FLOOR -> Math.floor(e);
              case CEIL -> Math.ceil(e);
              case ROUND -> Math.rint(e);
              case SIGN -> Math.signum(e);
              case RELU -> Math.max(e, 0);
              default -> throw new IllegalArgumentException("cannot fold " + kind + " on floats");
            };
      }
      return OnnxValue.ofDoubles(x.dtype(), x.dims(), v);
    }
    long[] v = x.longs();
    for (int i = 0; i < n; i++) {
      long e = v[i];
      v[i] =
          switch (kind) {
            case NEG -> -e;
            case ABS -> Math.abs(e);
            case SIGN -> Long.signum(e);
            case RELU -> Math.max(e, 0);
            case NOT -> e == 0 ? 1 : 0;
            case FLOOR, CEIL, ROUND -> e;
            default -> throw new IllegalArgumentException("cannot fold " + kind + " on integers");
          };
    }
    return OnnxValue.ofLongs(x.dtype(), x.dims(), v);
  }

  private static OnnxValue binary(Op op, OnnxValue x, OnnxValue y) {
    OpKind kind = op.kind();
    long[] dims = broadcast(x.dims(), y.dims());
    int[] mx = broadcastMap(x.dims(), dims);
    int[] my = broadcastMap(y.dims(), dims);
    int n = mx.length;
    boolean compare =
        switch (kind) {
          case EQUAL, LESS, LESS_OR_EQUAL, GREATER, GREATER_OR_EQUAL, AND, OR, XOR -> true;
          default -> false;
        };
    DType outType = compare ? DType.BOOL : x.dtype();
    if (x.isFloatingPoint() || y.isFloatingPoint()) {
      double[] v = new double[n];
      long[] b = compare ? new long[n] : null;
      for (int i = 0; i < n; i++) {
        double p = x.getDouble(mx[i]);
        double q = y.getDouble(my[i]);
        switch (kind) {
          case ADD -> v[i] = p + q;
          case SUB -> v[i] = p - q;
          case MUL -> v[i] = p * q;
          case DIV -> v[i] = p / q;
          case POW -> v[i] = Math.pow(p, q);
          case MOD -> v[i] = p % q;
          case MAX -> v[i] = Math.max(p, q);
          case MIN -> v[i] = Math.min(p, q);
          case EQUAL -> b[i] = p == q ? 1 : 0;
          case LESS -> b[i] = p < q ? 1 : 0;
          case LESS_OR_EQUAL -> b[i] = p <= q ? 1 : 0;
          case GREATER -> b[i] = p > q ? 1 : 0;
          case GREATER_OR_EQUAL -> b[i] = p >= q ? 1 : 0;
          default -> throw new IllegalArgumentException("cannot fold " + kind + " on floats");
        }
      }
      return compare ? OnnxValue.ofLongs(outType, dims, b) : OnnxValue.ofDoubles(outType, dims, v);
    }
    boolean fmod = op.attributes().getInt("fmod", 0) == 1;
    long[] v = new long[n];
    for (int i = 0; i < n; i++) {
      long p = x.getLong(mx[i]);
      long q = y.getLong(my[i]);
      v[i] =
          switch (kind) {
            case ADD -> p + q;
            case SUB -> p - q;
            case MUL -> p * q;
            case DIV -> {
              if (q == 0) {
                throw new IllegalArgumentException("integer division by zero");
              }
              yield p / q;
            }
            case MOD -> {
              if (q == 0) {
                throw new IllegalArgumentException("integer modulo by zero");
              }
              yield fmod ? p % q : Math.floorMod(p, q);
            }
            case POW -> (long) Math.pow(p, q);
            case MAX -> Math.max(p, q);
            case MIN -> Math.min(p, q);
            case EQUAL -> p == q ? 1 : 0;
            case LESS -> p < q ? 1 : 0;
            case LESS_OR_EQUAL -> p <= q ? 1 : 0;
            case GREATER -> p > q ? 1 : 0;
            case GREATER_OR_EQUAL -> p >= q ? 1 : 0;
            case AND -> (p != 0 && q != 0) ? 1 : 0;
            case OR -> (p != 0 || q != 0) ? 1 : 0;
            case XOR -> ((p != 0) != (q != 0)) ? 1 : 0;
            default -> throw new AssertionError(kind);
          };
    }
    return OnnxValue.ofLongs(outType, dims, v);
  }

  private static OnnxValue where(OnnxValue c, OnnxValue x, OnnxValue y, long[] dims) {
    int[] mc = broadcastMap(c.dims(), dims);
    int[] mx = broadcastMap(x.dims(), dims);
    int[] my = broadcastMap(y.dims(), dims);
    int n = mc.length;
    if (x.isFloatingPoint()) {
      double[] v = new double[n];
      for (int i = 0; i < n; i++) {
        v[i] = c.getLong(mc[i]) != 0 ? x.getDouble(mx[i]) : y.getDouble(my[i]);
      }
      return OnnxValue.ofDoubles(x.dtype(), dims, v);
    }
    long[] v = new long[n];
    for (int i = 0; i < n; i++) {
      v[i] = c.getLong(mc[i]) != 0 ? x.getLong(mx[i]) : y.getLong(my[i]);
    }
    return OnnxValue.ofLongs(x.dtype(), dims, v);
  }

  // ---------------------------------------------------------------- data movement

  private static OnnxValue concat(List<OnnxValue> in, int axis, TensorType t) {
    long[] dims = t.shape().dims();
    long outer = 1;
    for (int i = 0; i < axis; i++) {
      outer *= dims[i];
    }
    long inner = 1;
    for (int i = axis + 1; i < dims.length; i++) {
      inner *= dims[i];
    }
    int n = (int) elements(dims);
    int[] src = new int[n];
    int[] which = new int[n];
    int k = 0;
    for (long o = 0; o < outer; o++) {
      for (int j = 0; j < in.size(); j++) {
        long block = in.get(j).dims()[axis] * inner;
        for (long e = 0; e < block; e++) {
          which[k] = j;
          src[k++] = (int) (o * block + e);
        }
      }
    }
    return gatherFrom(in, which, src, t);
  }

  private static OnnxValue slice(OnnxValue x, Attributes a, TensorType t) {
    long[] d = x.dims();
    long[] starts = a.getInts("starts", null);
    long[] axes = a.getInts("axes", null);
    long[] steps = a.getInts("steps", null);
    long[] start = new long[d.length];
    long[] step = new long[d.length];
    java.util.Arrays.fill(step, 1);
    for (int i = 0; i < starts.length; i++) {
      int ax = axes == null ? i : (int) axis(axes[i], d.length);
      long st = steps == null ? 1 : steps[i];
      long dim = d[ax];
      long s = starts[i] < 0 ? starts[i] + dim : starts[i];
      s = st > 0 ? Math.max(0, Math.min(dim, s)) : Math.max(0, Math.min(dim - 1, s));
      start[ax] = s;
      step[ax] = st;
    }
    long[] outDims = t.shape().dims();
    long[] inStrides = strides(d);
    int n = (int) elements(outDims);
    int[] map = new int[n];
    long[] idx = new long[outDims.length];
    for (int i = 0; i < n; i++) {
      long flat = 0;
      for (int k = 0; k < idx.length; k++) {
        flat += (start[k] + idx[k] * step[k]) * inStrides[k];
      }
      map[i] = (int) flat;
      increment(idx, outDims);
    }
    return select(x, map, outDims);
  }

  private static OnnxValue gather(OnnxValue data, OnnxValue indices, int axis, TensorType t) {
    long[] d = data.dims();
    long outer = 1;
    for (int i = 0; i < axis; i++) {
      outer *= d[i];
    }
    long inner = 1;
    for (int i = axis + 1; i < d.length; i++) {
      inner *= d[i];
    }
    long dim = d[axis];
    int ni = indices.size();
    int[] map = new int[(int) (outer * ni * inner)];
    int k = 0;
    for (long o = 0; o < outer; o++) {
      for (int j = 0; j < ni; j++) {
        long ix = indices.getLong(j);
        if (ix < -dim || ix >= dim) {
          throw new IllegalArgumentException(
              "Gather index " + ix + " out of range for dim " + axis + " of size " + dim);
        }
        if (ix < 0) {
          ix += dim;
        }
        for (long e = 0; e < inner; e++) {
          map[k++] = (int) ((o * dim + ix) * inner + e);
        }
      }
    }
    return select(data, map, t.shape().dims());
  }

  private static OnnxValue transpose(OnnxValue x, Attributes a, TensorType t) {
    long[] d = x.dims();
    long[] perm = a.getInts("perm", null);
    if (perm == null) {
      perm = new long[d.length];
      for (int i = 0; i < d.length; i++) {
        perm[i] = d.length - 1 - i;
      }
    }
    long[] outDims = t.shape().dims();
    long[] inStrides = strides(d);
    int n = (int) elements(outDims);
    int[] map = new int[n];
    long[] idx = new long[outDims.length];
    for (int i = 0; i < n; i++) {
      long flat = 0;
      for (int k = 0; k < idx.length; k++) {
        flat += idx[k] * inStrides[(int) perm[k]];
      }
      map[i] = (int) flat;
      increment(idx, outDims);
    }
    return select(x, map, outDims);
  }

  private static OnnxValue tile(OnnxValue x, TensorType t) {
    long[] d = x.dims();
    long[] outDims = t.shape().dims();
    long[] inStrides = strides(d);
    int n = (int) elements(outDims);
    int[] map = new int[n];
    long[] idx = new long[outDims.length];
    for (int i = 0; i < n; i++) {
      long flat = 0;
      for (int k = 0; k < idx.length; k++) {
        flat += (idx[k] % d[k]) * inStrides[k];
      }
      map[i] = (int) flat;
      increment(idx, outDims);
    }
    return select(x, map, outDims);
  }

  private static List<OnnxValue> split(OnnxValue x, int axis, List<TensorType> out) {
    List<OnnxValue> pieces = new ArrayList<>();
    long offset = 0;
    for (TensorType t : out) {
      long size = t.shape().dim(axis);
      Attributes a =
          Attributes.builder()
              .put("starts", offset)
              .put("ends", offset + size)
              .put("axes", axis)
              .build();
      pieces.add(slice(x, a, t));
      offset += size;
    }
    return pieces;
  }

  private static OnnxValue reduce(OpKind kind, OnnxValue x, Attributes a, TensorType t) {
    long[] d = x.dims();
    long[] axes = a.getInts("axes", new long[0]);
    boolean noop = a.getInt("noop_with_empty_axes", 0) == 1;
    if (axes.length == 0 && noop) {
      return x;
    }
    boolean[] reduced = new boolean[d.length];
    for (int i = 0; i < d.length; i++) {
      reduced[i] = axes.length == 0;
    }
    for (long ax : axes) {
      reduced[(int) axis(ax, d.length)] = true;
    }
    // output flat index of every input element: the kept dims, in order
    long[] keptDims = new long[d.length];
    for (int i = 0; i < d.length; i++) {
      keptDims[i] = reduced[i] ? 1 : d[i];
    }
    long[] keptStrides = strides(keptDims);
    int outN = (int) elements(keptDims);
    double[] acc = new double[outN];
    long[] count = new long[outN];
    boolean[] seen = new boolean[outN];
    long[] idx = new long[d.length];
    int n = x.size();
    for (int i = 0; i < n; i++) {
      int o = 0;
      for (int k = 0; k < d.length; k++) {
        if (!reduced[k]) {
          o += (int) (idx[k] * keptStrides[k]);
        }
      }
      double e = x.getDouble(i);
      if (!seen[o]) {
        acc[o] = e;
        seen[o] = true;
      } else {
        acc[o] =
            switch (kind) {
              case REDUCE_SUM, REDUCE_MEAN -> acc[o] + e;
              case REDUCE_PROD -> acc[o] * e;
              case REDUCE_MAX -> Math.max(acc[o], e);
              case REDUCE_MIN -> Math.min(acc[o], e);
              default -> throw new AssertionError(kind);
            };
      }
      count[o]++;
      increment(idx, d);
    }
    for (int o = 0; o < outN; o++) {
      if (!seen[o]) {
        // reducing an empty axis: the identity of the reduction
        acc[o] =
            switch (kind) {
              case REDUCE_SUM -> 0;
              case REDUCE_PROD -> 1;
              case REDUCE_MAX -> Double.NEGATIVE_INFINITY;
              case REDUCE_MIN -> Double.POSITIVE_INFINITY;
              default -> Double.NaN;
            };
      } else if (kind == OpKind.REDUCE_MEAN) {
        acc[o] /= count[o];
      }
    }
    if (x.isFloatingPoint()) {
      return OnnxValue.ofDoubles(x.dtype(), t.shape().dims(), acc);
    }
    long[] v = new long[outN];
    for (int o = 0; o < outN; o++) {
      v[o] = (long) acc[o];
    }
    if (kind == OpKind.REDUCE_SUM || kind == OpKind.REDUCE_PROD) {
      // exact integer arithmetic (doubles lose int64 precision beyond 2^53)
      java.util.Arrays.fill(v, kind == OpKind.REDUCE_SUM ? 0 : 1);
      java.util.Arrays.fill(idx, 0);
      for (int i = 0; i < n; i++) {
        int o = 0;
        for (int k = 0; k < d.length; k++) {
          if (!reduced[k]) {
            o += (int) (idx[k] * keptStrides[k]);
          }
        }
        v[o] = kind == OpKind.REDUCE_SUM ? v[o] + x.getLong(i) : v[o] * x.getLong(i);
        increment(idx, d);
      }
    }
    return OnnxValue.ofLongs(x.dtype(), t.shape().dims(), v);
  }

  // ---------------------------------------------------------------- index helpers

  private static OnnxValue select(OnnxValue x, int[] map, long[] dims) {
    if (x.isFloatingPoint()) {
      double[] v = new double[map.length];
      for (int i = 0; i < v.length; i++) {
        v[i] = x.getDouble(map[i]);
      }
      return OnnxValue.ofDoubles(x.dtype(), dims, v);
    }
    long[] v = new long[map.length];
    for (int i = 0; i < v.length; i++) {
      v[i] = x.getLong(map[i]);
    }
    return OnnxValue.ofLongs(x.dtype(), dims, v);
  }

  private static OnnxValue gatherFrom(List<OnnxValue> in, int[] which, int[] src, TensorType t) {
    long[] dims = t.shape().dims();
    if (t.dtype().isFloatingPoint()) {
      double[] v = new double[src.length];
      for (int i = 0; i < v.length; i++) {
        v[i] = in.get(which[i]).getDouble(src[i]);
      }
      return OnnxValue.ofDoubles(t.dtype(), dims, v);
    }
    long[] v = new long[src.length];
    for (int i = 0; i < v.length; i++) {
      v[i] = in.get(which[i]).getLong(src[i]);
    }
    return OnnxValue.ofLongs(t.dtype(), dims, v);
  }

  /**
   * For every element of {@code outDims}, the flat index of the broadcast element of {@code in}.
   */
  private static int[] broadcastMap(long[] inDims, long[] outDims) {
    int n = (int) elements(outDims);
    int[] map = new int[n];
    int off = outDims.length - inDims.length;
    long[] inStrides = strides(inDims);
    long[] idx = new long[outDims.length];
    for (int i = 0; i < n; i++) {
      long flat = 0;
      for (int k = 0; k < inDims.length; k++) {
        if (inDims[k] != 1) {
          flat += idx[off + k] * inStrides[k];
        }
      }
      map[i] = (int) flat;
      increment(idx, outDims);
    }
    return map;
  }

  private static long[] broadcast(long[] a, long[] b) {
    int r = Math.max(a.length, b.length);
    long[] out = new long[r];
    for (int i = 0; i < r; i++) {
      long x = i < r - a.length ? 1 : a[i - (r - a.length)];
      long y = i < r - b.length ? 1 : b[i - (r - b.length)];
      if (x != y && x != 1 && y != 1) {
        throw new IllegalArgumentException("shapes do not broadcast: " + x + " vs " + y);
      }
      out[i] = x == 1 ? y : x;
    }
    return out;
  }

  private static void increment(long[] idx, long[] dims) {
    for (int k = idx.length - 1; k >= 0; k--) {
      if (++idx[k] < dims[k]) {
        return;
      }
      idx[k] = 0;
    }
  }

  private static long[] strides(long[] dims) {
    long[] s = new long[dims.length];
    long acc = 1;
    for (int i = dims.length - 1; i >= 0; i--) {
      s[i] = acc;
      acc *= dims[i];
    }
    return s;
  }

  private static long elements(long[] dims) {
    long n = 1;
    for (long d : dims) {
      n *= d;
    }
    return n;
  }

  private static long axis(long axis, int rank) {
    return axis < 0 ? axis + rank : axis;
  }
}
