package io.github.memplan.datasets.zoo;

import io.github.memplan.core.ir.DType;
import io.github.memplan.core.ir.Graph;
import io.github.memplan.core.ir.ModelProvider;

/**
 * The original U-Net: Ronneberger, Fischer and Brox, "U-Net: Convolutional Networks for Biomedical
 * Image Segmentation", MICCAI 2015, Figure 1 and Section 2, for one-channel fp32 images (572x572 ->
 * 388x388, two classes). Contracting path: four levels of two unpadded 3x3 convs + ReLU (64, 128,
 * 256, 512 channels) each followed by 2x2/2 max pooling, then two 3x3 convs + ReLU with 1024
 * channels. Expanding path, four times: a 2x2/2 up-convolution (ConvTranspose) halving the
 * channels, the contracting level's feature map center-cropped to the same size (Slice) and
 * concatenated before it on channels, and two unpadded 3x3 convs + ReLU. A final 1x1 conv maps the
 * 64 channels to the two classes. Every conv and up-conv has a bias; there is no BN, and the
 * paper's dropout at the end of the contracting path is omitted (inference), as is the softmax of
 * its loss.
 *
 * <p>31,030,658 parameters (the paper states none; this is the sum over Figure 1's layers). Only
 * sizes that keep every pooled map even are accepted, 16k + 124 with k >= 4 (188, 204, ..., 572,
 * ...); the output is then 184 pixels smaller (k x k at the bottom, 388x388 for 572x572).
 *
 * <p>Names: {@code down1.conv1}, {@code down1.relu1}, {@code down1.conv2}, {@code down1.relu2},
 * {@code down1.pool}, ... {@code down5.relu2} (1024 channels), then {@code up4.upconv}, {@code
 * up4.crop}, {@code up4.concat}, {@code up4.conv1}, ... {@code up1.relu2} and {@code final}; level
 * n of the expanding path joins level n of the contracting one.
 */
public final class UNet implements ModelProvider {
  private static final long[] WIDTHS = {64, 128, 256, 512, 1024};

  private final long batch;
  private final long size;

  /** The zoo entry: batch 1, 1x572x572. */
  public UNet() {
    this(1, 572);
  }

  /**
   * @throws IllegalArgumentException unless {@code size} is 16k + 124, k >= 4
   */
  public UNet(long batch, long size) {
    Inputs.check("unet", batch, size);
    if (size < 188 || (size - 124) % 16 != 0) {
      throw new IllegalArgumentException(
          "unet: input size "
              + size
              + " is not 16k + 124 with k >= 4 (188, 204, ..., 572, ...): smaller inputs vanish"
              + " in the valid convolutions, others leave an odd map before a 2x2 pooling");
    }
    this.batch = batch;
    this.size = size;
  }

  @Override
  public String name() {
    return "unet";
  }

  @Override
  public String description() {
    return Inputs.describe("U-Net (valid convolutions, 2 classes)", batch, 1, size);
  }

  @Override
  public String citation() {
    return "Ronneberger et al., U-Net: Convolutional Networks for Biomedical Image Segmentation,"
        + " MICCAI 2015, Figure 1";
  }

  @Override
  public Graph build() {
    Graph.Builder b = Graph.builder(name());
    Layers l = new Layers(b, DType.F32);
    b.input("input", DType.F32, batch, 1, size, size);
    String[] skips = new String[WIDTHS.length - 1];
    String x = "input";
    for (int level = 0; level < WIDTHS.length; level++) {
      x = doubleConv(l, "down" + (level + 1), x, WIDTHS[level]);
      if (level < skips.length) {
        skips[level] = x;
        x = l.maxPool("down" + (level + 1) + ".pool", x, 2, 2, 0);
      }
    }
    for (int level = skips.length - 1; level >= 0; level--) {
      String name = "up" + (level + 1);
      x = l.convTranspose(name + ".upconv", x, WIDTHS[level], 2, 2, true);
      long target = l.shape(x).dim(2);
      long offset = (l.shape(skips[level]).dim(2) - target) / 2;
      String crop =
          l.slice(
              name + ".crop",
              skips[level],
              new long[] {2, 3},
              new long[] {offset, offset},
              new long[] {offset + target, offset + target});
      x = l.concat(name + ".concat", 1, crop, x);
      x = doubleConv(l, name, x, WIDTHS[level]);
    }
    x = l.conv("final", x, 2, 1, 1, 0, 1, true);
    b.output(x);
    return b.build();
  }

  private static String doubleConv(Layers l, String name, String x, long width) {
    String y = l.conv(name + ".conv1", x, width, 3, 1, 0, 1, true);
    y = l.relu(name + ".relu1", y);
    y = l.conv(name + ".conv2", y, width, 3, 1, 0, 1, true);
    return l.relu(name + ".relu2", y);
  }
}
