package io.github.memplan.datasets.zoo;

import io.github.memplan.core.ir.DType;
import io.github.memplan.core.ir.Graph;
import io.github.memplan.core.ir.ModelProvider;

/**
 * SqueezeNet 1.0 for fp32 NCHW images: Iandola, Han, Moskewicz, Ashraf, Dally and Keutzer,
 * "SqueezeNet: AlexNet-level accuracy with 50x fewer parameters and &lt;0.5MB model size",
 * arXiv:1602.07360, 2016, Table 1, in torchvision's layout ({@code
 * torchvision.models.squeezenet1_0}): conv1 7x7/2 to 96 channels, ReLU, max pool 3x3/2, fire2-4,
 * max pool, fire5-8, max pool, fire9, then conv10 1x1 to 1000 channels, ReLU and global average
 * pooling. A fire module is a 1x1 squeeze conv + ReLU feeding a 1x1 and a 3x3 (pad 1) expand conv,
 * each + ReLU, concatenated on channels. Every conv has a bias; there is no BN.
 *
 * <p>As torchvision, the max pools round up ({@code ceil_mode=True}) and conv1 is unpadded, so a
 * 224x224 input gives 109x109 after conv1. Table 1 lists 111x111, the size of a 227x227 input (the
 * crop of the original Caffe release); at 227 this builder gives every size of Table 1. Dropout
 * before conv10 is omitted (inference); the output is flattened to {@code [N, 1000]}. 1,248,424
 * parameters, as torchvision reports.
 *
 * <p>Names follow torchvision's state dict: {@code features.3.squeeze}, {@code
 * features.3.expand3x3_activation}, {@code features.3.concat}, {@code classifier.1}.
 */
public final class SqueezeNet implements ModelProvider {
  private final long batch;
  private final long size;

  /** The zoo entry: batch 1, 224x224. */
  public SqueezeNet() {
    this(1, 224);
  }

  public SqueezeNet(long batch, long size) {
    Inputs.check("squeezenet1.0", batch, size);
    this.batch = batch;
    this.size = size;
  }

  @Override
  public String name() {
    return "squeezenet1.0";
  }

  @Override
  public String description() {
    return Inputs.describe("SqueezeNet 1.0", batch, 3, size);
  }

  @Override
  public String citation() {
    return "Iandola et al., SqueezeNet: AlexNet-level accuracy with 50x fewer parameters and"
        + " <0.5MB model size, arXiv:1602.07360, 2016, Table 1; torchvision squeezenet1_0 layout";
  }

  @Override
  public Graph build() {
    Graph.Builder b = Graph.builder(name());
    Layers l = new Layers(b, DType.F32);
    b.input("input", DType.F32, batch, 3, size, size);
    String x = l.conv("features.0", "input", 96, 7, 2, 0, 1, true);
    x = l.relu("features.1", x);
    x = l.maxPool("features.2", x, 3, 2, 0, true);
    x = fire(l, "features.3", x, 16, 64);
    x = fire(l, "features.4", x, 16, 64);
    x = fire(l, "features.5", x, 32, 128);
    x = l.maxPool("features.6", x, 3, 2, 0, true);
    x = fire(l, "features.7", x, 32, 128);
    x = fire(l, "features.8", x, 48, 192);
    x = fire(l, "features.9", x, 48, 192);
    x = fire(l, "features.10", x, 64, 256);
    x = l.maxPool("features.11", x, 3, 2, 0, true);
    x = fire(l, "features.12", x, 64, 256);
    x = l.conv("classifier.1", x, 1000, 1, 1, 0, 1, true);
    x = l.relu("classifier.2", x);
    x = l.globalAvgPool("classifier.3", x);
    x = l.flatten("flatten", x);
    b.output(x);
    return b.build();
  }

  /** Fire module: squeeze to {@code s1x1}, expand to {@code e} by 1x1 and {@code e} by 3x3. */
  private static String fire(Layers l, String name, String x, long s1x1, long e) {
    String s = l.conv(name + ".squeeze", x, s1x1, 1, 1, 0, 1, true);
    s = l.relu(name + ".squeeze_activation", s);
    String e1 = l.conv(name + ".expand1x1", s, e, 1, 1, 0, 1, true);
    e1 = l.relu(name + ".expand1x1_activation", e1);
    String e3 = l.conv(name + ".expand3x3", s, e, 3, 1, 1, 1, true);
    e3 = l.relu(name + ".expand3x3_activation", e3);
    return l.concat(name + ".concat", 1, e1, e3);
  }
}
