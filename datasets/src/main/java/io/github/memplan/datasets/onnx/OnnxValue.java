package io.github.memplan.datasets.onnx;

import ai.onnx.proto.OnnxMl.TensorProto;
import com.google.protobuf.ByteString;
import io.github.memplan.core.ir.DType;
import io.github.memplan.core.ir.Shape;
import io.github.memplan.core.ir.TensorType;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * A tensor value known while importing: a stored constant or the result of folding. Integer and
 * BOOL elements are held as {@code long}s (wrapped to their type's range, BOOL as 0/1), floating
 * point elements as {@code double}s rounded to their type's precision. Immutable.
 */
final class OnnxValue {
  /** Values are materialised only up to this many elements (shape arithmetic is tiny). */
  static final long MAX_ELEMENTS = 1 << 20;

  private final DType dtype;
  private final long[] dims;
  private final long[] ints;
  private final double[] floats;

  private OnnxValue(DType dtype, long[] dims, long[] ints, double[] floats) {
    this.dtype = dtype;
    this.dims = dims;
    this.ints = ints;
    this.floats = floats;
  }

  static OnnxValue ofLongs(DType dtype, long[] dims, long[] values) {
    checkCount(dims, values.length);
    if (dtype.isFloatingPoint()) {
      double[] d = new double[values.length];
      for (int i = 0; i < d.length; i++) {
        d[i] = round(dtype, values[i]);
      }
      return new OnnxValue(dtype, dims.clone(), null, d);
    }
    long[] v = new long[values.length];
    for (int i = 0; i < v.length; i++) {
      v[i] = wrap(dtype, values[i]);
    }
    return new OnnxValue(dtype, dims.clone(), v, null);
  }

  static OnnxValue ofDoubles(DType dtype, long[] dims, double[] values) {
    checkCount(dims, values.length);
    if (!dtype.isFloatingPoint()) {
      long[] v = new long[values.length];
      for (int i = 0; i < v.length; i++) {
        v[i] = wrap(dtype, toLong(dtype, values[i]));
      }
      return new OnnxValue(dtype, dims.clone(), v, null);
    }
    double[] d = new double[values.length];
    for (int i = 0; i < d.length; i++) {
      d[i] = round(dtype, values[i]);
    }
    return new OnnxValue(dtype, dims.clone(), null, d);
  }

  static OnnxValue scalar(DType dtype, long value) {
    return ofLongs(dtype, new long[0], new long[] {value});
  }

  static OnnxValue vector(long... values) {
    return ofLongs(DType.I64, new long[] {values.length}, values);
  }

  DType dtype() {
    return dtype;
  }

  long[] dims() {
    return dims.clone();
  }

  int rank() {
    return dims.length;
  }

  TensorType type() {
    return new TensorType(Shape.of(dims), dtype);
  }

  int size() {
    return ints != null ? ints.length : floats.length;
  }

  boolean isFloatingPoint() {
    return floats != null;
  }

  long getLong(int i) {
    return ints != null ? ints[i] : toLong(DType.I64, floats[i]);
  }

  double getDouble(int i) {
    return ints != null ? ints[i] : floats[i];
  }

  long[] longs() {
    if (ints != null) {
      return ints.clone();
    }
    long[] out = new long[floats.length];
    for (int i = 0; i < out.length; i++) {
      out[i] = toLong(DType.I64, floats[i]);
    }
    return out;
  }

  double[] doubles() {
    if (floats != null) {
      return floats.clone();
    }
    return Arrays.stream(ints).asDoubleStream().toArray();
  }

  /** The same elements under other dims (Reshape, Squeeze, Unsqueeze, Flatten, Identity). */
  OnnxValue withDims(long[] newDims) {
    checkCount(newDims, size());
    return new OnnxValue(dtype, newDims.clone(), ints, floats);
  }

  /** This value converted to {@code to}, as ONNX Cast does. */
  OnnxValue cast(DType to) {
    if (ints != null) {
      if (to == DType.BOOL) {
        long[] b = new long[ints.length];
        for (int i = 0; i < b.length; i++) {
          b[i] = ints[i] != 0 ? 1 : 0;
        }
        return ofLongs(to, dims, b);
      }
      return ofLongs(to, dims, ints);
    }
    if (to == DType.BOOL) {
      long[] b = new long[floats.length];
      for (int i = 0; i < b.length; i++) {
        b[i] = floats[i] != 0 ? 1 : 0;
      }
      return ofLongs(to, dims, b);
    }
    return ofDoubles(to, dims, floats);
  }

  @Override
  public String toString() {
    String body = ints != null ? Arrays.toString(ints) : Arrays.toString(floats);
    if (body.length() > 80) {
      body = body.substring(0, 77) + "...";
    }
    return dtype + Arrays.toString(dims) + " " + body;
  }

  // ---------------------------------------------------------------- decoding

  /**
   * The value of a stored tensor; {@code null} when it has more than {@link #MAX_ELEMENTS} elements
   * or lives in external data (its dims are known, its values are not needed for planning).
   *
   * @throws UnsupportedOnnxException for element types memplan has no dtype for
   * @throws IllegalArgumentException when the data does not match the dims
   */
  static OnnxValue decode(TensorProto t, String what) {
    DType dtype = dtypeOf(t.getDataType(), what);
    long[] dims = t.getDimsList().stream().mapToLong(Long::longValue).toArray();
    long n = 1;
    for (long d : dims) {
      if (d < 0) {
        throw new IllegalArgumentException(what + " has negative dims " + Arrays.toString(dims));
      }
      n = Math.multiplyExact(n, d);
    }
    if (n > MAX_ELEMENTS
        || t.getDataLocation() == TensorProto.DataLocation.EXTERNAL
        || t.getExternalDataCount() > 0) {
      return null;
    }
    int count = (int) n;
    if (t.hasRawData()) {
      return fromRaw(dtype, dims, count, t.getRawData(), what);
    }
    switch (dtype) {
      case F32 -> {
        checkStored(what, count, t.getFloatDataCount());
        double[] v = new double[count];
        for (int i = 0; i < count; i++) {
          v[i] = t.getFloatData(i);
        }
        return ofDoubles(dtype, dims, v);
      }
      case F64 -> {
        checkStored(what, count, t.getDoubleDataCount());
        double[] v = new double[count];
        for (int i = 0; i < count; i++) {
          v[i] = t.getDoubleData(i);
        }
        return ofDoubles(dtype, dims, v);
      }
      case I64 -> {
        checkStored(what, count, t.getInt64DataCount());
        long[] v = new long[count];
        for (int i = 0; i < count; i++) {
          v[i] = t.getInt64Data(i);
        }
        return ofLongs(dtype, dims, v);
      }
      case I32, I16, I8, U8, BOOL -> {
        checkStored(what, count, t.getInt32DataCount());
        long[] v = new long[count];
        for (int i = 0; i < count; i++) {
          v[i] = t.getInt32Data(i);
        }
        return ofLongs(dtype, dims, v);
      }
      case F16, BF16 -> {
        checkStored(what, count, t.getInt32DataCount());
        double[] v = new double[count];
        for (int i = 0; i < count; i++) {
          v[i] = fromBits16(dtype, t.getInt32Data(i));
        }
        return ofDoubles(dtype, dims, v);
      }
      case I4 -> throw new UnsupportedOnnxException(what + ": INT4 data outside raw_data");
    }
    throw new AssertionError(dtype);
  }

  private static OnnxValue fromRaw(
      DType dtype, long[] dims, int count, ByteString raw, String what) {
    long expected = dtype.bytes(count);
    if (raw.size() != expected) {
      throw new IllegalArgumentException(
          what
              + " has "
              + raw.size()
              + " bytes of raw data but "
              + Arrays.toString(dims)
              + " "
              + dtype
              + " needs "
              + expected);
    }
    ByteBuffer b = raw.asReadOnlyByteBuffer().order(ByteOrder.LITTLE_ENDIAN);
    if (dtype.isFloatingPoint()) {
      double[] v = new double[count];
      for (int i = 0; i < count; i++) {
        v[i] =
            switch (dtype) {
              case F32 -> b.getFloat();
              case F64 -> b.getDouble();
              default -> fromBits16(dtype, b.getShort() & 0xFFFF);
            };
      }
      return ofDoubles(dtype, dims, v);
    }
    long[] v = new long[count];
    for (int i = 0; i < count; i++) {
      v[i] =
          switch (dtype) {
            case I64 -> b.getLong();
            case I32 -> b.getInt();
            case I16 -> b.getShort();
            case I8 -> b.get();
            case U8, BOOL -> b.get() & 0xFF;
            case I4 -> {
              int packed = b.get(i / 2);
              int nibble = (i % 2 == 0 ? packed : packed >> 4) & 0xF;
              yield nibble >= 8 ? nibble - 16 : nibble;
            }
            default -> throw new AssertionError(dtype);
          };
    }
    return ofLongs(dtype, dims, v);
  }

  static DType dtypeOf(long onnxCode, String what) {
    try {
      return DType.fromOnnxCode(onnxCode);
    } catch (IllegalArgumentException e) {
      throw new UnsupportedOnnxException(what + ": " + e.getMessage());
    }
  }

  private static void checkStored(String what, int expected, int actual) {
    if (expected != actual) {
      throw new IllegalArgumentException(
          what + " stores " + actual + " values but its dims give " + expected);
    }
  }

  private static void checkCount(long[] dims, int count) {
    long n = 1;
    for (long d : dims) {
      n *= d;
    }
    if (n != count) {
      throw new IllegalArgumentException(
          count + " values do not fill dims " + Arrays.toString(dims));
    }
  }

  // ---------------------------------------------------------------- element conversions

  /** Two's-complement wrap to the type's range, as a cast to a narrower C integer does. */
  static long wrap(DType dtype, long v) {
    return switch (dtype) {
      case I64 -> v;
      case I32 -> (int) v;
      case I16 -> (short) v;
      case I8 -> (byte) v;
      case U8 -> v & 0xFF;
      case I4 -> ((v & 0xF) ^ 8) - 8;
      case BOOL -> v != 0 ? 1 : 0;
      default -> throw new AssertionError(dtype);
    };
  }

  /**
   * Float to integer conversion: truncation toward zero, NaN to 0, saturating at the long range.
   */
  static long toLong(DType dtype, double v) {
    if (dtype == DType.BOOL) {
      return v != 0 ? 1 : 0;
    }
    return Double.isNaN(v) ? 0 : (long) v;
  }

  static double round(DType dtype, double v) {
    return switch (dtype) {
      case F64 -> v;
      case F32 -> (float) v;
      case F16 -> fromBits16(DType.F16, toHalfBits((float) v));
      case BF16 -> fromBits16(DType.BF16, toBf16Bits((float) v));
      default -> throw new AssertionError(dtype);
    };
  }

  static double fromBits16(DType dtype, int bits) {
    if (dtype == DType.BF16) {
      return Float.intBitsToFloat((bits & 0xFFFF) << 16);
    }
    int sign = (bits & 0x8000) << 16;
    int exp = (bits >> 10) & 0x1F;
    int mant = bits & 0x3FF;
    if (exp == 0x1F) {
      return Float.intBitsToFloat(sign | 0x7F800000 | (mant << 13));
    }
    if (exp == 0) {
      // subnormal: mant * 2^-24
      float f = mant * 0x1p-24f;
      return sign != 0 ? -f : f;
    }
    return Float.intBitsToFloat(sign | ((exp - 15 + 127) << 23) | (mant << 13));
  }

  /** IEEE binary16 bits of {@code f}, rounding to nearest even. */
  static int toHalfBits(float f) {
    int bits = Float.floatToRawIntBits(f);
    int sign = (bits >>> 16) & 0x8000;
    int exp = (bits >>> 23) & 0xFF;
    int mant = bits & 0x7FFFFF;
    if (exp == 0xFF) {
      return sign | 0x7C00 | (mant != 0 ? 0x200 : 0);
    }
    int e = exp - 127 + 15;
    if (e >= 0x1F) {
      return sign | 0x7C00;
    }
    if (e <= 0) {
      if (e < -10) {
        return sign;
      }
      mant |= 0x800000;
      int shift = 14 - e;
      int half = mant >> shift;
      int rest = mant & ((1 << shift) - 1);
      int mid = 1 << (shift - 1);
      if (rest > mid || (rest == mid && (half & 1) != 0)) {
        half++;
      }
      return sign | half;
    }
    int half = (e << 10) | (mant >> 13);
    int rest = mant & 0x1FFF;
    if (rest > 0x1000 || (rest == 0x1000 && (half & 1) != 0)) {
      half++;
    }
    return sign | half;
  }

  /** bfloat16 bits of {@code f}, rounding to nearest even. */
  static int toBf16Bits(float f) {
    int bits = Float.floatToRawIntBits(f);
    if (Float.isNaN(f)) {
      return (bits >>> 16) | 0x40;
    }
    int rounding = 0x7FFF + ((bits >>> 16) & 1);
    return (bits + rounding) >>> 16;
  }
}
