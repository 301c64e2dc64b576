package io.github.memplan.core.group;

import java.util.Map;

/** What backward slicing of one group under one {@link ShapeSecs} gives. */
public sealed interface SliceResult {

  /**
   * Every activation of the group (inputs, intermediates, outputs) with its slices.
   *
   * @param slices per tensor name, in the group's op order of first appearance
   */
  record Sliced(Map<String, SliceInfo> slices) implements SliceResult {
    public Sliced {
      slices = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(slices));
    }
  }

  /**
   * Slicing failed.
   *
   * @param reason names the op or tensor at fault
   * @param noMore v0's {@code no_more} flag: larger secs cannot help (the h/2 rule failed)
   */
  record Failed(String reason, boolean noMore) implements SliceResult {}
}
