package io.github.memplan.core.ir;

import java.util.Locale;

/**
 * Element types, with their storage size in bits and their ONNX {@code TensorProto.DataType} code
 * (the value of Cast's {@code to} attribute).
 */
public enum DType {
  F64(64, 11),
  F32(32, 1),
  F16(16, 10),
  BF16(16, 16),
  I64(64, 7),
  I32(32, 6),
  I16(16, 5),
  I8(8, 3),
  U8(8, 2),
  I4(4, 22),
  BOOL(8, 9);

  private final int bits;
  private final int onnxCode;

  DType(int bits, int onnxCode) {
    this.bits = bits;
    this.onnxCode = onnxCode;
  }

  public int bits() {
    return bits;
  }

  /** The ONNX {@code TensorProto.DataType} code, e.g. 1 for {@code FLOAT}. */
  public int onnxCode() {
    return onnxCode;
  }

  /** Whether values are floating point (F64, F32, F16, BF16). */
  public boolean isFloatingPoint() {
    return this == F64 || this == F32 || this == F16 || this == BF16;
  }

  /**
   * The type of ONNX {@code TensorProto.DataType} code {@code code}; codes memplan has no type for
   * (strings, unsigned 16/32/64-bit, complex, 8-bit floats, UINT4) fail naming the code.
   */
  public static DType fromOnnxCode(long code) {
    for (DType t : values()) {
      if (t.onnxCode == code) {
        return t;
      }
    }
    String name = code >= 0 && code < ONNX_NAMES.length ? " (" + ONNX_NAMES[(int) code] + ")" : "";
    throw new IllegalArgumentException(
        "ONNX element type " + code + name + " has no memplan dtype");
  }

  private static final String[] ONNX_NAMES = {
    "UNDEFINED",
    "FLOAT",
    "UINT8",
    "INT8",
    "UINT16",
    "INT16",
    "INT32",
    "INT64",
    "STRING",
    "BOOL",
    "FLOAT16",
    "DOUBLE",
    "UINT32",
    "UINT64",
    "COMPLEX64",
    "COMPLEX128",
    "BFLOAT16",
    "FLOAT8E4M3FN",
    "FLOAT8E4M3FNUZ",
    "FLOAT8E5M2",
    "FLOAT8E5M2FNUZ",
    "UINT4",
    "INT4",
    "FLOAT4E2M1"
  };

  /** Bytes of {@code elements} elements, rounded up to whole bytes. */
  public long bytes(long elements) {
    long totalBits = Math.multiplyExact(elements, (long) bits);
    return totalBits / 8 + (totalBits % 8 == 0 ? 0 : 1);
  }

  /** Parses a name such as {@code f32}, {@code float32}, {@code int8} (case-insensitive). */
  public static DType parse(String name) {
    String n = name.trim().toLowerCase(Locale.ROOT);
    return switch (n) {
      case "f64", "float64", "double" -> F64;
      case "f32", "float32", "float", "fp32" -> F32;
      case "f16", "float16", "half", "fp16" -> F16;
      case "bf16", "bfloat16" -> BF16;
      case "i64", "int64" -> I64;
      case "i32", "int32" -> I32;
      case "i16", "int16" -> I16;
      case "i8", "int8" -> I8;
      case "u8", "uint8" -> U8;
      case "i4", "int4" -> I4;
      case "bool" -> BOOL;
      default -> throw new IllegalArgumentException("unknown dtype '" + name + "'");
    };
  }
}
