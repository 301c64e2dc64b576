package io.github.memplan.core.ir;

import java.util.Locale;

/** Element types, with their storage size in bits. */
public enum DType {
  F64(64),
  F32(32),
  F16(16),
  BF16(16),
  I64(64),
  I32(32),
  I16(16),
  I8(8),
  U8(8),
  I4(4),
  BOOL(8);

  private final int bits;

  DType(int bits) {
    this.bits = bits;
  }

  public int bits() {
    return bits;
  }

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
