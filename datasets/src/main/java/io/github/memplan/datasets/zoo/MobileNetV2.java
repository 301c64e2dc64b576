package io.github.memplan.datasets.zoo;

import io.github.memplan.core.ir.DType;
import io.github.memplan.core.ir.Graph;
import io.github.memplan.core.ir.ModelProvider;

/**
 * MobileNetV2 (width 1.0) for 1x3x224x224 fp32 images: Sandler, Howard, Zhu, Zhmoginov and Chen,
 * "MobileNetV2: Inverted Residuals and Linear Bottlenecks", CVPR 2018, Table 2, in torchvision's
 * layout ({@code torchvision.models.mobilenet_v2}): a 3x3/2 conv to 32 channels, then the (t, c, n,
 * s) bottleneck table, each block an optional 1x1 expansion (factor t) + BN + ReLU6, a 3x3
 * depthwise conv + BN + ReLU6 and a linear 1x1 projection + BN, with a residual sum when the stride
 * is 1 and the channel count is unchanged; then a 1x1 conv to 1280 + BN + ReLU6, global average
 * pooling and a 1000-way fully connected layer with bias. Convs have no bias. The classifier's
 * dropout is omitted (inference).
 *
 * <p>3,504,872 parameters, as torchvision reports. Names follow torchvision's state dict ({@code
 * features.2.conv.1.0} is block 2's depthwise conv); the residual sum is {@code features.N.add}.
 */
public final class MobileNetV2 implements ModelProvider {
  /** Table 2: expansion t, output channels c, repeats n, first stride s. */
  private static final int[][] BOTTLENECKS = {
    {1, 16, 1, 1},
    {6, 24, 2, 2},
    {6, 32, 3, 2},
    {6, 64, 4, 2},
    {6, 96, 3, 1},
    {6, 160, 3, 2},
    {6, 320, 1, 1},
  };

  @Override
  public String name() {
    return "mobilenetv2";
  }

  @Override
  public String description() {
    return "MobileNetV2 1.0, 1x3x224x224, fp32";
  }

  @Override
  public String citation() {
    return "Sandler et al., MobileNetV2: Inverted Residuals and Linear Bottlenecks, CVPR 2018,"
        + " Table 2; torchvision mobilenet_v2 layout";
  }

  @Override
  public Graph build() {
    Graph.Builder b = Graph.builder(name());
    Layers l = new Layers(b, DType.F32);
    b.input("input", DType.F32, 1, 3, 224, 224);
    String x = convBnRelu6(l, "features.0", "input", 32, 3, 2, 1);
    int index = 1;
    for (int[] row : BOTTLENECKS) {
      int t = row[0];
      int c = row[1];
      int n = row[2];
      int s = row[3];
      for (int i = 0; i < n; i++) {
        x = invertedResidual(l, "features." + index, x, c, i == 0 ? s : 1, t);
        index++;
      }
    }
    x = convBnRelu6(l, "features." + index, x, 1280, 1, 1, 1);
    x = l.globalAvgPool("avgpool", x);
    x = l.flatten("flatten", x);
    x = l.gemm("classifier.1", x, 1000);
    b.output(x);
    return b.build();
  }

  /** torchvision's Conv2dNormActivation: {@code <name>.0} conv, {@code .1} BN, {@code .2} ReLU6. */
  private static String convBnRelu6(
      Layers l, String name, String x, long out, long kernel, long stride, long group) {
    String y = l.conv(name + ".0", x, out, kernel, stride, (kernel - 1) / 2, group, false);
    y = l.batchNorm(name + ".1", y);
    return l.relu6(name + ".2", y);
  }

  private static String invertedResidual(
      Layers l, String name, String x, long out, long stride, long expansion) {
    long in = l.shape(x).dim(1);
    long hidden = in * expansion;
    String y = x;
    int k = 0;
    if (expansion != 1) {
      y = convBnRelu6(l, name + ".conv." + k++, y, hidden, 1, 1, 1);
    }
    y = convBnRelu6(l, name + ".conv." + k++, y, hidden, 3, stride, hidden);
    y = l.conv(name + ".conv." + k++, y, out, 1, 1, 0, 1, false);
    y = l.batchNorm(name + ".conv." + k, y);
    if (stride == 1 && in == out) {
      y = l.add(name + ".add", x, y);
    }
    return y;
  }
}
