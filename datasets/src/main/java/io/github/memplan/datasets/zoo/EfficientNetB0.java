package io.github.memplan.datasets.zoo;

import io.github.memplan.core.ir.DType;
import io.github.memplan.core.ir.Graph;
import io.github.memplan.core.ir.ModelProvider;

/**
 * EfficientNet-B0 for fp32 NCHW images: Tan and Le, "EfficientNet: Rethinking Model Scaling for
 * Convolutional Neural Networks", ICML 2019, Table 1, in torchvision's layout ({@code
 * torchvision.models.efficientnet_b0}): a 3x3/2 conv to 32 channels + BN + swish, seven stages of
 * MBConv blocks (MBConv1 k3 16 x1, MBConv6 k3 24 x2, k5 40 x2, k3 80 x3, k5 112 x3, k5 192 x4, k3
 * 320 x1, strides 1, 2, 2, 2, 1, 2, 1 on each stage's first block), a 1x1 conv to 1280 + BN +
 * swish, global average pooling and a 1000-way fully connected layer. Swish is ONNX's Silu.
 *
 * <p>An MBConv block (Sandler et al. 2018 with squeeze-and-excitation, Hu et al. 2018): a 1x1
 * expansion conv + BN + swish (absent when the expansion is 1), a k x k depthwise conv + BN +
 * swish, squeeze-and-excitation (global average pool, 1x1 conv with bias down to a quarter of the
 * block's input channels, swish, 1x1 conv with bias back up, sigmoid, multiplied into the
 * features), a 1x1 projection conv + BN without activation, and the residual sum when the stride is
 * 1 and the channels are unchanged. Other convs have no bias; depthwise convs pad (k - 1) / 2 on
 * every side (TensorFlow's reference pads stride-2 convs asymmetrically; shapes are the same).
 *
 * <p>Inference: dropout and stochastic depth are identities and are left out. 5,288,548 parameters,
 * as torchvision reports (Table 2: 5.3 M).
 *
 * <p>Names follow torchvision's state dict: {@code features.2.0.block.0.0} is stage 3's first
 * expansion conv, {@code features.2.0.block.2.fc1} its squeeze conv, {@code classifier.1} the
 * classifier; the excitation product is {@code features.2.0.block.2.mul} and a residual sum {@code
 * features.2.1.add}.
 */
public final class EfficientNetB0 implements ModelProvider {
  /** Table 1, stages 2-8: expansion, kernel, stride, output channels, layers. */
  private static final int[][] STAGES = {
    {1, 3, 1, 16, 1},
    {6, 3, 2, 24, 2},
    {6, 5, 2, 40, 2},
    {6, 3, 2, 80, 3},
    {6, 5, 1, 112, 3},
    {6, 5, 2, 192, 4},
    {6, 3, 1, 320, 1},
  };

  private final long batch;
  private final long size;

  /** The zoo entry: batch 1, 224x224. */
  public EfficientNetB0() {
    this(1, 224);
  }

  public EfficientNetB0(long batch, long size) {
    Inputs.check("efficientnet-b0", batch, size);
    this.batch = batch;
    this.size = size;
  }

  @Override
  public String name() {
    return "efficientnet-b0";
  }

  @Override
  public String description() {
    return Inputs.describe("EfficientNet-B0", batch, 3, size);
  }

  @Override
  public String citation() {
    return "Tan and Le, EfficientNet: Rethinking Model Scaling for Convolutional Neural Networks,"
        + " ICML 2019, Table 1; torchvision efficientnet_b0 layout";
  }

  @Override
  public Graph build() {
    Graph.Builder b = Graph.builder(name());
    Layers l = new Layers(b, DType.F32);
    b.input("input", DType.F32, batch, 3, size, size);
    String x = convBnSilu(l, "features.0", "input", 32, 3, 2, 1);
    for (int s = 0; s < STAGES.length; s++) {
      int[] st = STAGES[s];
      for (int i = 0; i < st[4]; i++) {
        String name = "features." + (s + 1) + "." + i;
        x = mbConv(l, name, x, st[0], st[1], i == 0 ? st[2] : 1, st[3]);
      }
    }
    x = convBnSilu(l, "features.8", x, 1280, 1, 1, 1);
    x = l.globalAvgPool("avgpool", x);
    x = l.flatten("flatten", x);
    x = l.gemm("classifier.1", x, 1000);
    b.output(x);
    return b.build();
  }

  private static String mbConv(
      Layers l, String name, String x, long expansion, long kernel, long stride, long out) {
    long in = l.shape(x).dim(1);
    long hidden = in * expansion;
    String block = name + ".block.";
    int k = 0;
    String y = x;
    if (expansion != 1) {
      y = convBnSilu(l, block + k++, y, hidden, 1, 1, 1);
    }
    y = convBnSilu(l, block + k++, y, hidden, kernel, stride, hidden);
    y = squeezeExcitation(l, block + k++, y, Math.max(1, in / 4));
    y = l.conv(block + k + ".0", y, out, 1, 1, 0, 1, false);
    y = l.batchNorm(block + k + ".1", y);
    if (stride == 1 && in == out) {
      y = l.add(name + ".add", y, x);
    }
    return y;
  }

  private static String squeezeExcitation(Layers l, String name, String x, long squeeze) {
    long channels = l.shape(x).dim(1);
    String s = l.globalAvgPool(name + ".avgpool", x);
    s = l.conv(name + ".fc1", s, squeeze, 1, 1, 0, 1, true);
    s = l.silu(name + ".activation", s);
    s = l.conv(name + ".fc2", s, channels, 1, 1, 0, 1, true);
    s = l.sigmoid(name + ".scale_activation", s);
    return l.mul(name + ".mul", s, x);
  }

  /** torchvision's Conv2dNormActivation with SiLU: {@code .0} conv, {@code .1} BN, {@code .2}. */
  private static String convBnSilu(
      Layers l, String name, String x, long out, long kernel, long stride, long group) {
    String y = l.conv(name + ".0", x, out, kernel, stride, (kernel - 1) / 2, group, false);
    y = l.batchNorm(name + ".1", y);
    return l.silu(name + ".2", y);
  }
}
