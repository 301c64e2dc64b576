package io.github.memplan.datasets.zoo;

import io.github.memplan.core.ir.DType;
import io.github.memplan.core.ir.Graph;
import io.github.memplan.core.ir.ModelProvider;

/**
 * ResNet-18 for 1x3x224x224 fp32 images: He, Zhang, Ren and Sun, "Deep Residual Learning for Image
 * Recognition", CVPR 2016, Table 1 (the 18-layer column), in torchvision's layout ({@code
 * torchvision.models.resnet18}): conv1 7x7/2 without bias, BN, ReLU, max pool 3x3/2 pad 1, four
 * stages of two BasicBlocks (64, 128, 256, 512 channels; 3x3 convs without bias, each followed by
 * BN), a 1x1/2 conv + BN projection shortcut on the first block of stages 2-4 (option B of the
 * paper), global average pooling, flatten and a 1000-way fully connected layer with bias.
 *
 * <p>11,689,512 parameters, as torchvision reports. Names follow torchvision's state dict ({@code
 * layer2.0.downsample.0}); the block's two ReLU applications are {@code relu1} and {@code relu2}
 * and the residual sum is {@code add}.
 */
public final class ResNet18 implements ModelProvider {
  @Override
  public String name() {
    return "resnet18";
  }

  @Override
  public String description() {
    return "ResNet-18, 1x3x224x224, fp32";
  }

  @Override
  public String citation() {
    return "He et al., Deep Residual Learning for Image Recognition, CVPR 2016, Table 1 (18-layer);"
        + " torchvision resnet18 layout";
  }

  @Override
  public Graph build() {
    Graph.Builder b = Graph.builder(name());
    Layers l = new Layers(b, DType.F32);
    b.input("input", DType.F32, 1, 3, 224, 224);
    String x = l.conv("conv1", "input", 64, 7, 2, 3, 1, false);
    x = l.batchNorm("bn1", x);
    x = l.relu("relu", x);
    x = l.maxPool("maxpool", x, 3, 2, 1);
    long[] widths = {64, 128, 256, 512};
    for (int stage = 0; stage < widths.length; stage++) {
      for (int block = 0; block < 2; block++) {
        long stride = stage > 0 && block == 0 ? 2 : 1;
        x = basicBlock(l, "layer" + (stage + 1) + "." + block, x, widths[stage], stride);
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
    String shortcut = x;
    if (stride != 1 || l.shape(x).dim(1) != width) {
      shortcut = l.conv(name + ".downsample.0", x, width, 1, stride, 0, 1, false);
      shortcut = l.batchNorm(name + ".downsample.1", shortcut);
    }
    y = l.add(name + ".add", y, shortcut);
    return l.relu(name + ".relu2", y);
  }
}
