package io.github.memplan.datasets.zoo;

import io.github.memplan.core.ir.DType;
import io.github.memplan.core.ir.Graph;
import io.github.memplan.core.ir.ModelProvider;

/**
 * Inception-v3 for fp32 NCHW images, without the auxiliary classifier: Szegedy, Vanhoucke, Ioffe,
 * Shlens and Wojna, "Rethinking the Inception Architecture for Computer Vision", CVPR 2016, Table 1
 * for the outline (a conv stem, Figure 5 modules at 35x35, Figure 6 modules with n = 7 at 17x17,
 * Figure 7 modules at 8x8, grid reductions between them): here 3, 4 and 2 modules with two grid
 * reductions, as the reference implementations have. The paper does not give every branch's width,
 * so they, and the layout, are torchvision's ({@code
 * torchvision.models.inception_v3(aux_logits=False)}): every conv is torchvision's BasicConv2d,
 * conv without bias + BN (epsilon 0.001) + ReLU, including the factorized 1x7, 7x1, 1x3 and 3x1
 * convs; the pooling branches average 3x3/1 pad 1 windows counting the padding (PyTorch's default);
 * global average pooling and a 1000-way fully connected layer close the net. Dropout is omitted
 * (inference), and so is torchvision's {@code transform_input} rescaling of the input, which only
 * pretrained weights switch on.
 *
 * <p>23,851,784 parameters, as torchvision reports without the auxiliary head (27,161,264 with it)
 * and as Keras's {@code InceptionV3} has.
 *
 * <p>Names follow torchvision's state dict: {@code Mixed_6b.branch7x7dbl_3.conv}, {@code .bn},
 * {@code .relu}; a module's output is {@code <module>.concat}, and Mixed_7b/7c's split 3x3 branches
 * concatenate at {@code <module>.branch3x3.concat} and {@code <module>.branch3x3dbl.concat}.
 */
public final class InceptionV3 implements ModelProvider {
  private static final double BN_EPS = 0.001;

  private final long batch;
  private final long size;

  /** The zoo entry: batch 1, 299x299. */
  public InceptionV3() {
    this(1, 299);
  }

  public InceptionV3(long batch, long size) {
    Inputs.check("inception-v3", batch, size);
    this.batch = batch;
    this.size = size;
  }

  @Override
  public String name() {
    return "inception-v3";
  }

  @Override
  public String description() {
    return Inputs.describe("Inception-v3 without auxiliary head", batch, 3, size);
  }

  @Override
  public String citation() {
    return "Szegedy et al., Rethinking the Inception Architecture for Computer Vision, CVPR 2016,"
        + " Table 1; branch widths and layout of torchvision inception_v3 (aux_logits=False)";
  }

  @Override
  public Graph build() {
    Graph.Builder b = Graph.builder(name());
    Layers l = new Layers(b, DType.F32);
    b.input("input", DType.F32, batch, 3, size, size);
    String x = conv(l, "Conv2d_1a_3x3", "input", 32, 3, 3, 2, 0, 0);
    x = conv(l, "Conv2d_2a_3x3", x, 32, 3, 3, 1, 0, 0);
    x = conv(l, "Conv2d_2b_3x3", x, 64, 3, 3, 1, 1, 1);
    x = l.maxPool("maxpool1", x, 3, 2, 0);
    x = conv(l, "Conv2d_3b_1x1", x, 80, 1, 1, 1, 0, 0);
    x = conv(l, "Conv2d_4a_3x3", x, 192, 3, 3, 1, 0, 0);
    x = l.maxPool("maxpool2", x, 3, 2, 0);
    x = inceptionA(l, "Mixed_5b", x, 32);
    x = inceptionA(l, "Mixed_5c", x, 64);
    x = inceptionA(l, "Mixed_5d", x, 64);
    x = inceptionB(l, "Mixed_6a", x);
    x = inceptionC(l, "Mixed_6b", x, 128);
    x = inceptionC(l, "Mixed_6c", x, 160);
    x = inceptionC(l, "Mixed_6d", x, 160);
    x = inceptionC(l, "Mixed_6e", x, 192);
    x = inceptionD(l, "Mixed_7a", x);
    x = inceptionE(l, "Mixed_7b", x);
    x = inceptionE(l, "Mixed_7c", x);
    x = l.globalAvgPool("avgpool", x);
    x = l.flatten("flatten", x);
    x = l.gemm("fc", x, 1000);
    b.output(x);
    return b.build();
  }

  /** Figure 5 (35x35): 1x1; 1x1-5x5; 1x1-3x3-3x3; avg pool-1x1. */
  private static String inceptionA(Layers l, String name, String x, long poolFeatures) {
    String b1 = conv(l, name + ".branch1x1", x, 64, 1, 1, 1, 0, 0);
    String b5 = conv(l, name + ".branch5x5_1", x, 48, 1, 1, 1, 0, 0);
    b5 = conv(l, name + ".branch5x5_2", b5, 64, 5, 5, 1, 2, 2);
    String b3 = conv(l, name + ".branch3x3dbl_1", x, 64, 1, 1, 1, 0, 0);
    b3 = conv(l, name + ".branch3x3dbl_2", b3, 96, 3, 3, 1, 1, 1);
    b3 = conv(l, name + ".branch3x3dbl_3", b3, 96, 3, 3, 1, 1, 1);
    String bp = poolBranch(l, name, x, poolFeatures);
    return l.concat(name + ".concat", 1, b1, b5, b3, bp);
  }

  /** Grid reduction 35 -> 17: 3x3/2; 1x1-3x3-3x3/2; max pool 3x3/2. */
  private static String inceptionB(Layers l, String name, String x) {
    String b3 = conv(l, name + ".branch3x3", x, 384, 3, 3, 2, 0, 0);
    String bd = conv(l, name + ".branch3x3dbl_1", x, 64, 1, 1, 1, 0, 0);
    bd = conv(l, name + ".branch3x3dbl_2", bd, 96, 3, 3, 1, 1, 1);
    bd = conv(l, name + ".branch3x3dbl_3", bd, 96, 3, 3, 2, 0, 0);
    String bp = l.maxPool(name + ".branch_pool", x, 3, 2, 0);
    return l.concat(name + ".concat", 1, b3, bd, bp);
  }

  /** Figure 6 (17x17, n = 7): 1x1; 1x1-1x7-7x1; 1x1-7x1-1x7-7x1-1x7; avg pool-1x1. */
  private static String inceptionC(Layers l, String name, String x, long c7) {
    String b1 = conv(l, name + ".branch1x1", x, 192, 1, 1, 1, 0, 0);
    String b7 = conv(l, name + ".branch7x7_1", x, c7, 1, 1, 1, 0, 0);
    b7 = conv(l, name + ".branch7x7_2", b7, c7, 1, 7, 1, 0, 3);
    b7 = conv(l, name + ".branch7x7_3", b7, 192, 7, 1, 1, 3, 0);
    String bd = conv(l, name + ".branch7x7dbl_1", x, c7, 1, 1, 1, 0, 0);
    bd = conv(l, name + ".branch7x7dbl_2", bd, c7, 7, 1, 1, 3, 0);
    bd = conv(l, name + ".branch7x7dbl_3", bd, c7, 1, 7, 1, 0, 3);
    bd = conv(l, name + ".branch7x7dbl_4", bd, c7, 7, 1, 1, 3, 0);
    bd = conv(l, name + ".branch7x7dbl_5", bd, 192, 1, 7, 1, 0, 3);
    String bp = poolBranch(l, name, x, 192);
    return l.concat(name + ".concat", 1, b1, b7, bd, bp);
  }

  /** Grid reduction 17 -> 8: 1x1-3x3/2; 1x1-1x7-7x1-3x3/2; max pool 3x3/2. */
  private static String inceptionD(Layers l, String name, String x) {
    String b3 = conv(l, name + ".branch3x3_1", x, 192, 1, 1, 1, 0, 0);
    b3 = conv(l, name + ".branch3x3_2", b3, 320, 3, 3, 2, 0, 0);
    String b7 = conv(l, name + ".branch7x7x3_1", x, 192, 1, 1, 1, 0, 0);
    b7 = conv(l, name + ".branch7x7x3_2", b7, 192, 1, 7, 1, 0, 3);
    b7 = conv(l, name + ".branch7x7x3_3", b7, 192, 7, 1, 1, 3, 0);
    b7 = conv(l, name + ".branch7x7x3_4", b7, 192, 3, 3, 2, 0, 0);
    String bp = l.maxPool(name + ".branch_pool", x, 3, 2, 0);
    return l.concat(name + ".concat", 1, b3, b7, bp);
  }

  /** Figure 7 (8x8): 1x1; 1x1-(1x3, 3x1); 1x1-3x3-(1x3, 3x1); avg pool-1x1. */
  private static String inceptionE(Layers l, String name, String x) {
    String b1 = conv(l, name + ".branch1x1", x, 320, 1, 1, 1, 0, 0);
    String b3 = conv(l, name + ".branch3x3_1", x, 384, 1, 1, 1, 0, 0);
    String b3a = conv(l, name + ".branch3x3_2a", b3, 384, 1, 3, 1, 0, 1);
    String b3b = conv(l, name + ".branch3x3_2b", b3, 384, 3, 1, 1, 1, 0);
    b3 = l.concat(name + ".branch3x3.concat", 1, b3a, b3b);
    String bd = conv(l, name + ".branch3x3dbl_1", x, 448, 1, 1, 1, 0, 0);
    bd = conv(l, name + ".branch3x3dbl_2", bd, 384, 3, 3, 1, 1, 1);
    String bda = conv(l, name + ".branch3x3dbl_3a", bd, 384, 1, 3, 1, 0, 1);
    String bdb = conv(l, name + ".branch3x3dbl_3b", bd, 384, 3, 1, 1, 1, 0);
    bd = l.concat(name + ".branch3x3dbl.concat", 1, bda, bdb);
    String bp = poolBranch(l, name, x, 192);
    return l.concat(name + ".concat", 1, b1, b3, bd, bp);
  }

  /** Average pool 3x3/1 pad 1 (counting the padding), then a 1x1 BasicConv2d. */
  private static String poolBranch(Layers l, String name, String x, long out) {
    String p = l.avgPool(name + ".avg_pool", x, 3, 1, 1, true);
    return conv(l, name + ".branch_pool", p, out, 1, 1, 1, 0, 0);
  }

  /** torchvision's BasicConv2d: conv without bias, BN (epsilon 0.001), ReLU. */
  private static String conv(
      Layers l, String name, String x, long out, long kh, long kw, long stride, long ph, long pw) {
    String y = l.conv(name + ".conv", x, out, kh, kw, stride, ph, pw, 1, false);
    y = l.batchNorm(name + ".bn", y, BN_EPS);
    return l.relu(name + ".relu", y);
  }
}
