package io.github.memplan.datasets.tflite;

import java.util.Arrays;

/**
 * A tensor's affine quantization as the file stores it ({@code QuantizationParameters}): real =
 * scale × (q − zero point), one scale and zero point per tensor or one per slice along {@code
 * quantizedDimension}.
 *
 * @param scale the scales (one, or one per slice)
 * @param zeroPoint the zero points, as many as the scales
 * @param quantizedDimension the axis of per-slice parameters, in the file's (NHWC) axis order
 */
public record Quantization(double[] scale, long[] zeroPoint, int quantizedDimension) {
  public Quantization {
    scale = scale.clone();
    zeroPoint = zeroPoint.clone();
  }

  @Override
  public double[] scale() {
    return scale.clone();
  }

  @Override
  public long[] zeroPoint() {
    return zeroPoint.clone();
  }

  /** Whether the parameters are per slice (more than one scale). */
  public boolean perAxis() {
    return scale.length > 1;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Quantization q
        && Arrays.equals(scale, q.scale)
        && Arrays.equals(zeroPoint, q.zeroPoint)
        && quantizedDimension == q.quantizedDimension;
  }

  @Override
  public int hashCode() {
    return 31 * (31 * Arrays.hashCode(scale) + Arrays.hashCode(zeroPoint)) + quantizedDimension;
  }

  @Override
  public String toString() {
    return "scale "
        + Arrays.toString(scale)
        + " zero point "
        + Arrays.toString(zeroPoint)
        + (perAxis() ? " along axis " + quantizedDimension : "");
  }
}
