package io.github.memplan.datasets.zoo;

import io.github.memplan.core.ir.DType;
import io.github.memplan.core.ir.Graph;
import io.github.memplan.core.ir.ModelProvider;
import java.util.Objects;

/**
 * ResNet-18/34/50/101/152 for fp32 NCHW images: He, Zhang, Ren and Sun, "Deep Residual Learning for
 * Image Recognition", CVPR 2016, Table 1 (one column per depth), in torchvision's layout ({@code
 * torchvision.models.resnet}): conv1 7x7/2 without bias, BN, ReLU, max pool 3x3/2 pad 1, four
 * stages (64, 128, 256, 512 base widths) of BasicBlocks (18, 34 layers: two 3x3 convs) or
 * Bottlenecks (50, 101, 152 layers: 1x1, 3x3, 1x1 with 4x expansion), every conv without bias and
 * followed by BN, a 1x1 conv + BN projection shortcut where the shape changes (option B of the
 * paper), global average pooling, flatten and a 1000-way fully connected layer with bias.
 *
 * <p>By default a downsampling Bottleneck strides in its 3x3 conv, as torchvision ("ResNet v1.5");
 * {@link Downsampling#PAPER} strides in its first 1x1 conv, as the paper's Caffe models. Parameters
 * are the same; MACs rise from 3.86 G to 4.09 G for ResNet-50 (Table 1: 3.8 G) and from 7.57 G to
 * 7.80 G for ResNet-101 (Table 1: 7.6 G). Parameter counts: 11,689,512 (18), 21,797,672 (34),
 * 25,557,032 (50), 44,549,160 (101), 60,192,808 (152), as torchvision reports.
 *
 * <p>Names follow torchvision's state dict ({@code layer2.0.downsample.0}); a block's ReLUs are
 * {@code relu1}, {@code relu2} (and {@code relu3} in a Bottleneck), the last following the residual
 * sum {@code add}. The registered entries are the subclasses {@link ResNet18}, {@link ResNet34},
 * {@link ResNet50} and {@link ResNet101} (batch 1, 224x224).
 */
public class ResNet implements ModelProvider {
  /** Where a Bottleneck that halves the resolution puts its stride 2. */
  public enum Downsampling {
    /** On the first 1x1 conv: the paper and its Caffe models ("v1"). */
    PAPER,
    /** On the 3x3 conv: torchvision ("v1.5"). */
    TORCHVISION
  }

  private final int depth;
  private final Downsampling downsampling;
  private final int[] blocks;
  private final boolean bottleneck;
  private final long batch;
  private final long size;

  /**
   * torchvision's ResNet.
   *
   * @param depth 18, 34, 50, 101 or 152
   * @param batch images per batch
   * @param size height and width of the input images
   */
  public ResNet(int depth, long batch, long size) {
    this(depth, batch, size, Downsampling.TORCHVISION);
  }

  /**
   * @param downsampling where Bottlenecks stride (no effect on depths 18 and 34)
   */
  public ResNet(int depth, long batch, long size, Downsampling downsampling) {
    this.depth = depth;
    this.downsampling = Objects.requireNonNull(downsampling, "downsampling");
    this.blocks =
        switch (depth) {
          case 18 -> new int[] {2, 2, 2, 2};
          case 34, 50 -> new int[] {3, 4, 6, 3};
          case 101 -> new int[] {3, 4, 23, 3};
          case 152 -> new int[] {3, 8, 36, 3};
          default ->
              throw new IllegalArgumentException(
                  "ResNet depth " + depth + " is not one of 18, 34, 50, 101, 152 (Table 1)");
        };
    this.bottleneck = depth >= 50;
    Inputs.check("resnet" + depth, batch, size);
    this.batch = batch;
    this.size = size;
  }

  @Override
  public final String name() {
    return "resnet" + depth;
  }

  @Override
  public final String description() {
    String arch = "ResNet-" + depth;
    if (bottleneck && downsampling == Downsampling.PAPER) {
      arch += " (v1, stride on the first 1x1 conv)";
    }
    return Inputs.describe(arch, batch, 3, size);
  }

  @Override
  public final String citation() {
    return "He et al., Deep Residual Learning for Image Recognition, CVPR 2016, Table 1 ("
        + depth
        + "-layer); torchvision resnet"
        + depth
        + " layout";
  }

  @Override
  public final Graph build() {
    Graph.Builder b = Graph.builder(name());
    Layers l = new Layers(b, DType.F32);
    b.input("input", DType.F32, batch, 3, size, size);
    String x = l.conv("conv1", "input", 64, 7, 2, 3, 1, false);
    x = l.batchNorm("bn1", x);
    x = l.relu("relu", x);
    x = l.maxPool("maxpool", x, 3, 2, 1);
    long[] widths = {64, 128, 256, 512};
    for (int stage = 0; stage < widths.length; stage++) {
      for (int block = 0; block < blocks[stage]; block++) {
        long stride = stage > 0 && block == 0 ? 2 : 1;
        String name = "layer" + (stage + 1) + "." + block;
        x =
            bottleneck
                ? bottleneck(l, name, x, widths[stage], stride, downsampling)
                : basicBlock(l, name, x, widths[stage], stride);
      }
    }
    x = l.globalAvgPool("avgpool", x);
    x = l.flatten("flatten", x);
    x = l.gemm("fc", x, 1000);
    b.output(x);
    return b.build();
  }

  private static String basicBlock(Layers l, String name, String x, long width, long stride) {
    String y = l.conv(name + ".conv1", x, width, 3, stride, 1, 1, false);
    y = l.batchNorm(name + ".bn1", y);
    y = l.relu(name + ".relu1", y);
    y = l.conv(name + ".conv2", y, width, 3, 1, 1, 1, false);
    y = l.batchNorm(name + ".bn2", y);
    y = l.add(name + ".add", y, shortcut(l, name, x, width, stride));
    return l.relu(name + ".relu2", y);
  }

  private static String bottleneck(
      Layers l, String name, String x, long width, long stride, Downsampling downsampling) {
    long first = downsampling == Downsampling.PAPER ? stride : 1;
    String y = l.conv(name + ".conv1", x, width, 1, first, 0, 1, false);
    y = l.batchNorm(name + ".bn1", y);
    y = l.relu(name + ".relu1", y);
    y = l.conv(name + ".conv2", y, width, 3, stride / first, 1, 1, false);
    y = l.batchNorm(name + ".bn2", y);
    y = l.relu(name + ".relu2", y);
    y = l.conv(name + ".conv3", y, 4 * width, 1, 1, 0, 1, false);
    y = l.batchNorm(name + ".bn3", y);
    y = l.add(name + ".add", y, shortcut(l, name, x, 4 * width, stride));
    return l.relu(name + ".relu3", y);
  }

  /** The identity, or a 1x1 conv + BN projection where stride or width change. */
  private static String shortcut(Layers l, String name, String x, long out, long stride) {
    if (stride == 1 && l.shape(x).dim(1) == out) {
      return x;
    }
    String s = l.conv(name + ".downsample.0", x, out, 1, stride, 0, 1, false);
    return l.batchNorm(name + ".downsample.1", s);
  }
}
