package io.github.memplan.datasets.zoo;

import io.github.memplan.core.ir.DType;
import io.github.memplan.core.ir.Graph;
import io.github.memplan.core.ir.ModelProvider;

/**
 * VGG-16 (configuration D) for fp32 NCHW images: Simonyan and Zisserman, "Very Deep Convolutional
 * Networks for Large-Scale Image Recognition", ICLR 2015, Table 1 (column D) and Section 2.1: 13
 * 3x3/1 convs with padding 1 and bias, each followed by ReLU, in five blocks (64, 128, 256, 512,
 * 512 channels) closed by 2x2/2 max pooling, then fully connected layers 4096, 4096 (each + ReLU)
 * and 1000, with biases. Layout and names of {@code torchvision.models.vgg16} ({@code features.28},
 * {@code classifier.6}). Dropout is omitted (inference).
 *
 * <p>The first fully connected layer reads the 7x7x512 maps of a 224x224 input. For larger inputs
 * torchvision pools them to 7x7 first ({@code AdaptiveAvgPool2d(7)}); this builder does the same
 * with one AveragePool when the maps' side is a multiple of 7 (input 448, 672, ...) and rejects
 * other sizes, whose adaptive windows have no single-op ONNX form. 138,357,544 parameters, as
 * torchvision reports (Table 2: 138 M).
 */
public final class Vgg16 implements ModelProvider {
  /** Configuration D: output channels of each conv, 0 for a max pool. */
  private static final int[] CONFIG_D = {
    64, 64, 0, 128, 128, 0, 256, 256, 256, 0, 512, 512, 512, 0, 512, 512, 512, 0
  };

  private final long batch;
  private final long size;

  /** The zoo entry: batch 1, 224x224. */
  public Vgg16() {
    this(1, 224);
  }

  /**
   * @throws IllegalArgumentException unless {@code size / 32} is a multiple of 7
   */
  public Vgg16(long batch, long size) {
    Inputs.check("vgg16", batch, size);
    long pool5 = size / 32;
    if (pool5 == 0 || pool5 % 7 != 0) {
      throw new IllegalArgumentException(
          "vgg16: input size "
              + size
              + " gives "
              + pool5
              + "x"
              + pool5
              + " maps after pool5, not a multiple of 7 (use 224, 448, ...)");
    }
    this.batch = batch;
    this.size = size;
  }

  @Override
  public String name() {
    return "vgg16";
  }

  @Override
  public String description() {
    return Inputs.describe("VGG-16 (configuration D)", batch, 3, size);
  }

  @Override
  public String citation() {
    return "Simonyan and Zisserman, Very Deep Convolutional Networks for Large-Scale Image"
        + " Recognition, ICLR 2015, Table 1 (configuration D); torchvision vgg16 layout";
  }

  @Override
  public Graph build() {
    Graph.Builder b = Graph.builder(name());
    Layers l = new Layers(b, DType.F32);
    b.input("input", DType.F32, batch, 3, size, size);
    String x = "input";
    int index = 0;
    for (int channels : CONFIG_D) {
      if (channels == 0) {
        x = l.maxPool("features." + index, x, 2, 2, 0);
        index++;
      } else {
        x = l.conv("features." + index, x, channels, 3, 1, 1, 1, true);
        x = l.relu("features." + (index + 1), x);
        index += 2;
      }
    }
    long side = l.shape(x).dim(2);
    if (side != 7) {
      x = l.avgPool("avgpool", x, side / 7, side / 7, 0, true);
    }
    x = l.flatten("flatten", x);
    x = l.gemm("classifier.0", x, 4096);
    x = l.relu("classifier.1", x);
    x = l.gemm("classifier.3", x, 4096);
    x = l.relu("classifier.4", x);
    x = l.gemm("classifier.6", x, 1000);
    b.output(x);
    return b.build();
  }
}
