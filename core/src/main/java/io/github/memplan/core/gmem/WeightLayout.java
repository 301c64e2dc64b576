package io.github.memplan.core.gmem;

import java.util.List;

/**
 * The coefficient region: every weight and constant placed one after the other, each starting on
 * the chip's weight alignment. There is no reuse.
 *
 * @param slots one per stored tensor, in graph order
 * @param totalBytes the padded size of the region ({@code coeff_size})
 * @param rawBytes the sum of the unpadded sizes
 */
public record WeightLayout(List<WeightSlot> slots, long totalBytes, long rawBytes) {
  public WeightLayout {
    slots = List.copyOf(slots);
  }

  /** Bytes lost to alignment padding. */
  public long paddingBytes() {
    return totalBytes - rawBytes;
  }
}
