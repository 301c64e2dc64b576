package io.github.memplan.core.group;

/**
 * A slice of one axis: {@code len} indices from {@code idx} ({@code slice_info_t}'s {@code (idx,
 * len)} pair, {@code reference/tpu-mlir.md} §2.1).
 */
public record Range(long idx, long len) {
  public Range {
    if (idx < 0 || len <= 0) {
      throw new IllegalArgumentException("bad slice (" + idx + ", " + len + ")");
    }
  }

  /** One past the last index. */
  public long end() {
    return idx + len;
  }

  /** The smallest range covering both. */
  public Range hull(Range o) {
    long s = Math.min(idx, o.idx);
    return new Range(s, Math.max(end(), o.end()) - s);
  }

  /** Whether the two ranges share an index. */
  public boolean overlaps(Range o) {
    return idx < o.end() && o.idx < end();
  }

  @Override
  public String toString() {
    return "(" + idx + "," + len + ")";
  }
}
