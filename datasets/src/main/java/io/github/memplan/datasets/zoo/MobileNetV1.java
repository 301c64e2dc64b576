package io.github.memplan.datasets.zoo;

import io.github.memplan.core.ir.DType;
import io.github.memplan.core.ir.Graph;
import io.github.memplan.core.ir.ModelProvider;

/**
 * MobileNetV1 (width multiplier 1.0) for fp32 NCHW images: Howard, Zhu, Chen, Kalenichenko, Wang,
 * Weyand, Andreetto and Adam, "MobileNets: Efficient Convolutional Neural Networks for Mobile
 * Vision Applications", arXiv:1704.04861, 2017, Table 1: a full 3x3/2 conv to 32 channels, then 13
 * depthwise-separable layers (a 3x3 depthwise conv and a 1x1 pointwise conv, each followed by BN
 * and ReLU, as Figure 3), average pooling and a 1000-way fully connected layer. Convs have no bias
 * (BN follows every one); the fully connected layer has one.
 *
 * <p>Departures: global average pooling stands for Table 1's "Avg Pool 7x7", so that other input
 * sizes keep the classifier; the final softmax is left out, as for the zoo's other classifiers.
 * Padding is symmetric 1 for every 3x3 conv (PyTorch style; TensorFlow pads stride-2 layers
 * asymmetrically, which changes no shape here). 4,231,976 parameters: the trainable count of
 * Keras's {@code MobileNet(alpha=1.0)}; Tables 7 and 8 give 569 M mult-adds and 4.2 M parameters.
 *
 * <p>Names follow Keras's layer names with dots: {@code conv_dw_3}, {@code conv_dw_3.bn}, {@code
 * conv_dw_3.relu}, {@code conv_pw_3}, ..., {@code fc}.
 */
public final class MobileNetV1 implements ModelProvider {
  /** Table 1, one row per depthwise-separable layer: output channels of the 1x1 conv, stride. */
  private static final int[][] SEPARABLE = {
    {64, 1},
    {128, 2},
    {128, 1},
    {256, 2},
    {256, 1},
    {512, 2},
    {512, 1},
    {512, 1},
    {512, 1},
    {512, 1},
    {512, 1},
    {1024, 2},
    {1024, 1},
  };

  private final long batch;
  private final long size;

  /** The zoo entry: batch 1, 224x224. */
  public MobileNetV1() {
    this(1, 224);
  }

  public MobileNetV1(long batch, long size) {
    Inputs.check("mobilenetv1", batch, size);
    this.batch = batch;
    this.size = size;
  }

  @Override
  public String name() {
    return "mobilenetv1";
  }

  @Override
  public String description() {
    return Inputs.describe("MobileNetV1 1.0", batch, 3, size);
  }

  @Override
  public String citation() {
    return "Howard et al., MobileNets: Efficient Convolutional Neural Networks for Mobile Vision"
        + " Applications, arXiv:1704.04861, 2017, Table 1";
  }

  @Override
  public Graph build() {
    Graph.Builder b = Graph.builder(name());
    Layers l = new Layers(b, DType.F32);
    b.input("input", DType.F32, batch, 3, size, size);
    String x = convBnRelu(l, "conv1", "input", 32, 3, 2, 1);
    for (int i = 0; i < SEPARABLE.length; i++) {
      long in = l.shape(x).dim(1);
      x = convBnRelu(l, "conv_dw_" + (i + 1), x, in, 3, SEPARABLE[i][1], in);
      x = convBnRelu(l, "conv_pw_" + (i + 1), x, SEPARABLE[i][0], 1, 1, 1);
    }
    x = l.globalAvgPool("avgpool", x);
    x = l.flatten("flatten", x);
    x = l.gemm("fc", x, 1000);
    b.output(x);
    return b.build();
  }

  private static String convBnRelu(
      Layers l, String name, String x, long out, long kernel, long stride, long group) {
    String y = l.conv(name, x, out, kernel, stride, (kernel - 1) / 2, group, false);
    y = l.batchNorm(name + ".bn", y);
    return l.relu(name + ".relu", y);
  }
}
