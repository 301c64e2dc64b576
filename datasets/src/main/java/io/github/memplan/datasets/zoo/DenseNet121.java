package io.github.memplan.datasets.zoo;

import io.github.memplan.core.ir.DType;
import io.github.memplan.core.ir.Graph;
import io.github.memplan.core.ir.ModelProvider;
import java.util.ArrayList;
import java.util.List;

/**
 * DenseNet-121 (DenseNet-BC, growth rate 32) for fp32 NCHW images: Huang, Liu, van der Maaten and
 * Weinberger, "Densely Connected Convolutional Networks", CVPR 2017, Table 1 (the DenseNet-121
 * column), in torchvision's layout ({@code torchvision.models.densenet121}): conv0 7x7/2 to 64
 * channels, BN, ReLU, max pool 3x3/2 pad 1; four dense blocks of 6, 12, 24 and 16 layers, each
 * layer BN-ReLU-conv 1x1 (4 x 32 = 128 channels)-BN-ReLU-conv 3x3 (32 channels) on the
 * concatenation of the block's input and all earlier layers' outputs; between blocks a transition
 * BN-ReLU-conv 1x1 halving the channels-average pool 2x2/2; then norm5, ReLU, global average
 * pooling and a 1000-way fully connected layer. Convs have no bias.
 *
 * <p>As torchvision's memory-hungry default ({@code memory_efficient=False}), each layer
 * concatenates its inputs anew, so a block of n layers has n - 1 Concat ops feeding layers (the
 * first layer reads the block input directly) and one producing the block output. 7,978,856
 * parameters, as torchvision reports (Table 1 lists no parameter counts).
 *
 * <p>Names follow torchvision's state dict: {@code features.denseblock2.denselayer3.conv1}, {@code
 * features.transition1.pool}; a layer's input concat is {@code <layer>.concat}, a block's output
 * {@code <block>.concat}.
 */
public final class DenseNet121 implements ModelProvider {
  private static final int[] BLOCKS = {6, 12, 24, 16};
  private static final long GROWTH = 32;
  private static final long BOTTLENECK = 4;

  private final long batch;
  private final long size;

  /** The zoo entry: batch 1, 224x224. */
  public DenseNet121() {
    this(1, 224);
  }

  public DenseNet121(long batch, long size) {
    Inputs.check("densenet121", batch, size);
    this.batch = batch;
    this.size = size;
  }

  @Override
  public String name() {
    return "densenet121";
  }

  @Override
  public String description() {
    return Inputs.describe("DenseNet-121", batch, 3, size);
  }

  @Override
  public String citation() {
    return "Huang et al., Densely Connected Convolutional Networks, CVPR 2017, Table 1"
        + " (DenseNet-121); torchvision densenet121 layout";
  }

  @Override
  public Graph build() {
    Graph.Builder b = Graph.builder(name());
    Layers l = new Layers(b, DType.F32);
    b.input("input", DType.F32, batch, 3, size, size);
    String x = l.conv("features.conv0", "input", 64, 7, 2, 3, 1, false);
    x = l.batchNorm("features.norm0", x);
    x = l.relu("features.relu0", x);
    x = l.maxPool("features.pool0", x, 3, 2, 1);
    for (int i = 0; i < BLOCKS.length; i++) {
      x = denseBlock(l, "features.denseblock" + (i + 1), x, BLOCKS[i]);
      if (i < BLOCKS.length - 1) {
        String t = "features.transition" + (i + 1);
        x = l.batchNorm(t + ".norm", x);
        x = l.relu(t + ".relu", x);
        x = l.conv(t + ".conv", x, l.shape(x).dim(1) / 2, 1, 1, 0, 1, false);
        x = l.avgPool(t + ".pool", x, 2, 2, 0, true);
      }
    }
    x = l.batchNorm("features.norm5", x);
    x = l.relu("relu5", x);
    x = l.globalAvgPool("avgpool", x);
    x = l.flatten("flatten", x);
    x = l.gemm("classifier", x, 1000);
    b.output(x);
    return b.build();
  }

  private static String denseBlock(Layers l, String name, String x, int layers) {
    List<String> features = new ArrayList<>(List.of(x));
    for (int i = 1; i <= layers; i++) {
      String layer = name + ".denselayer" + i;
      String in = features.size() == 1 ? x : l.concat(layer + ".concat", 1, features);
      String y = l.batchNorm(layer + ".norm1", in);
      y = l.relu(layer + ".relu1", y);
      y = l.conv(layer + ".conv1", y, BOTTLENECK * GROWTH, 1, 1, 0, 1, false);
      y = l.batchNorm(layer + ".norm2", y);
      y = l.relu(layer + ".relu2", y);
      y = l.conv(layer + ".conv2", y, GROWTH, 3, 1, 1, 1, false);
      features.add(y);
    }
    return l.concat(name + ".concat", 1, features);
  }
}
