package io.github.memplan.core.gmem;

/**
 * Where one weight lives in the coefficient region.
 *
 * @param tensor the weight or constant tensor
 * @param offset its offset from the start of the region
 * @param bytes its unpadded size
 */
public record WeightSlot(String tensor, long offset, long bytes) {}
