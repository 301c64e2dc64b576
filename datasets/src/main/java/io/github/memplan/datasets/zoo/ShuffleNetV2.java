package io.github.memplan.datasets.zoo;

import io.github.memplan.core.ir.DType;
import io.github.memplan.core.ir.Graph;
import io.github.memplan.core.ir.ModelProvider;

/**
 * ShuffleNet V2 1x for fp32 NCHW images: Ma, Zhang, Zheng and Sun, "ShuffleNet V2: Practical
 * Guidelines for Efficient CNN Architecture Design", ECCV 2018, Table 5 (the 1x column) and Figure
 * 3(c, d), in torchvision's layout ({@code torchvision.models.shufflenet_v2_x1_0}): conv1 3x3/2 to
 * 24 channels + BN + ReLU, max pool 3x3/2 pad 1, stages 2-4 of 4, 8 and 4 units with 116, 232 and
 * 464 output channels, conv5 1x1 to 1024 + BN + ReLU, global pooling and a 1000-way fully connected
 * layer. Convs have no bias.
 *
 * <p>A stride-1 unit (Figure 3c) splits the channels in two halves (two Slice ops), passes the
 * first through and sends the second through conv 1x1 + BN + ReLU, depthwise 3x3 + BN, conv 1x1 +
 * BN + ReLU; a stride-2 unit (Figure 3d) feeds the whole input to that branch (with the depthwise
 * conv at stride 2) and to a second one, depthwise 3x3/2 + BN, conv 1x1 + BN + ReLU. Both
 * concatenate the two branches and shuffle the channels with two groups: Reshape to {@code [N, 2,
 * C/2, H, W]}, Transpose of dims 1 and 2, Reshape back, as torchvision's {@code channel_shuffle}
 * exports to ONNX.
 *
 * <p>Departure: torchvision's final {@code x.mean([2, 3])} (ONNX ReduceMean) is GlobalAveragePool +
 * Flatten here, the same values and output shape. 2,278,604 parameters, as torchvision reports
 * (Table 5: 2.3 M).
 *
 * <p>Names follow torchvision's state dict ({@code stage3.0.branch1.2}, {@code
 * stage3.1.branch2.3}); a unit's other ops are {@code <unit>.split.0}, {@code <unit>.split.1},
 * {@code <unit>.concat} and {@code <unit>.shuffle.reshape}, {@code .transpose}, {@code .flatten}.
 */
public final class ShuffleNetV2 implements ModelProvider {
  private static final int[] REPEATS = {4, 8, 4};
  private static final long[] CHANNELS = {24, 116, 232, 464, 1024};

  private final long batch;
  private final long size;

  /** The zoo entry: batch 1, 224x224. */
  public ShuffleNetV2() {
    this(1, 224);
  }

  public ShuffleNetV2(long batch, long size) {
    Inputs.check("shufflenetv2", batch, size);
    this.batch = batch;
    this.size = size;
  }

  @Override
  public String name() {
    return "shufflenetv2";
  }

  @Override
  public String description() {
    return Inputs.describe("ShuffleNet V2 1x", batch, 3, size);
  }

  @Override
  public String citation() {
    return "Ma et al., ShuffleNet V2: Practical Guidelines for Efficient CNN Architecture Design,"
        + " ECCV 2018, Table 5 (1x); torchvision shufflenet_v2_x1_0 layout";
  }

  @Override
  public Graph build() {
    Graph.Builder b = Graph.builder(name());
    Layers l = new Layers(b, DType.F32);
    b.input("input", DType.F32, batch, 3, size, size);
    String x = l.conv("conv1.0", "input", CHANNELS[0], 3, 2, 1, 1, false);
    x = l.batchNorm("conv1.1", x);
    x = l.relu("conv1.2", x);
    x = l.maxPool("maxpool", x, 3, 2, 1);
    for (int s = 0; s < REPEATS.length; s++) {
      for (int i = 0; i < REPEATS[s]; i++) {
        x = unit(l, "stage" + (s + 2) + "." + i, x, CHANNELS[s + 1], i == 0 ? 2 : 1);
      }
    }
    x = l.conv("conv5.0", x, CHANNELS[4], 1, 1, 0, 1, false);
    x = l.batchNorm("conv5.1", x);
    x = l.relu("conv5.2", x);
    x = l.globalAvgPool("avgpool", x);
    x = l.flatten("flatten", x);
    x = l.gemm("fc", x, 1000);
    b.output(x);
    return b.build();
  }

  private static String unit(Layers l, String name, String x, long out, long stride) {
    long branch = out / 2;
    String left;
    String right;
    if (stride == 1) {
      long c = l.shape(x).dim(1);
      left = l.slice(name + ".split.0", x, 1, 0, c / 2);
      right = l.slice(name + ".split.1", x, 1, c / 2, c);
    } else {
      String p = name + ".branch1";
      long in = l.shape(x).dim(1);
      left = l.conv(p + ".0", x, in, 3, stride, 1, in, false);
      left = l.batchNorm(p + ".1", left);
      left = l.conv(p + ".2", left, branch, 1, 1, 0, 1, false);
      left = l.batchNorm(p + ".3", left);
      left = l.relu(p + ".4", left);
      right = x;
    }
    String p = name + ".branch2";
    right = l.conv(p + ".0", right, branch, 1, 1, 0, 1, false);
    right = l.batchNorm(p + ".1", right);
    right = l.relu(p + ".2", right);
    right = l.conv(p + ".3", right, branch, 3, stride, 1, branch, false);
    right = l.batchNorm(p + ".4", right);
    right = l.conv(p + ".5", right, branch, 1, 1, 0, 1, false);
    right = l.batchNorm(p + ".6", right);
    right = l.relu(p + ".7", right);
    String y = l.concat(name + ".concat", 1, left, right);
    return channelShuffle(l, name + ".shuffle", y);
  }

  /** Two-group channel shuffle: [N, C, H, W] -> [N, 2, C/2, H, W] -> swap 1, 2 -> [N, C, H, W]. */
  private static String channelShuffle(Layers l, String name, String x) {
    long[] d = l.shape(x).dims();
    String y = l.reshape(name + ".reshape", x, d[0], 2, d[1] / 2, d[2], d[3]);
    y = l.transpose(name + ".transpose", y, 0, 2, 1, 3, 4);
    return l.reshape(name + ".flatten", y, d[0], d[1], d[2], d[3]);
  }
}
