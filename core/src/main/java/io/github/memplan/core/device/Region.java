package io.github.memplan.core.device;

/** A byte range {@code [start, start + size)} of device DRAM. */
public record Region(String name, long start, long size) {
  public Region {
    if (start < 0 || size < 0) {
      throw new IllegalArgumentException("region " + name + ": negative start or size");
    }
  }

  public long end() {
    return start + size;
  }

  /** True when {@code [offset, offset + bytes)} lies inside this region. */
  public boolean contains(long offset, long bytes) {
    return offset >= start && bytes >= 0 && offset + bytes <= end();
  }
}
