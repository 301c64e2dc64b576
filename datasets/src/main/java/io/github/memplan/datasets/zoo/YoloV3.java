package io.github.memplan.datasets.zoo;

import io.github.memplan.core.ir.DType;
import io.github.memplan.core.ir.Graph;
import io.github.memplan.core.ir.ModelProvider;
import java.util.ArrayList;
import java.util.List;

/**
 * YOLOv3 (80 classes) for fp32 NCHW images: Redmon and Farhadi, "YOLOv3: An Incremental
 * Improvement", arXiv:1804.02767, 2018, Table 1 (the Darknet-53 backbone) and Section 2.3, layer
 * for layer as darknet's {@code cfg/yolov3.cfg} (107 layers). Darknet-53 without its classifier: a
 * 3x3 conv to 32 channels, then five times a 3x3/2 conv doubling the channels followed by 1, 2, 8,
 * 8 and 4 residual units (1x1 conv halving the channels, 3x3 conv restoring them, shortcut sum).
 * Three detection heads at strides 32, 16 and 8: five alternating 1x1/3x3 convs, a 3x3 conv and a
 * linear 1x1 conv to 3 x (80 + 5) = 255 channels; the second and third heads start from the fifth
 * conv of the previous head, reduced by a 1x1 conv, upsampled 2x (nearest) and concatenated with
 * the backbone's stride-16 or stride-8 output. Every conv but the three output convs is conv
 * without bias + BN + leaky ReLU (slope 0.1); the output convs have a bias and no activation.
 * Padding is {@code size / 2} (darknet's {@code pad=1}).
 *
 * <p>Outputs: the three 255-channel maps ({@code layer81.conv}, {@code layer93.conv}, {@code
 * layer105.conv}; 13x13, 26x26, 52x52 at 416x416). Darknet's {@code [yolo]} layers (logistic
 * activation of the box centres, objectness and classes, then box decoding) are post-processing and
 * are left out. 61,949,149 parameters, the count of darknet's weights (conv weights, biases and BN
 * scales) that Ultralytics's and Keras's ports report; 32,932,037,632 multiply-adds at 416x416,
 * half of the 65,864,075,264 FLOPs that {@code darknet ops} prints for the cfg at that size.
 *
 * <p>Names carry darknet's layer index: {@code layer36.shortcut}, {@code layer61.shortcut} (the
 * routed backbone outputs), {@code layer79.conv}, {@code .bn}, {@code .leaky}, {@code
 * layer85.upsample}, {@code layer86.route} (a Concat). Single-layer routes (83, 95) are not ops:
 * the next conv reads the routed layer directly.
 */
public final class YoloV3 implements ModelProvider {
  private static final long CLASSES = 80;
  private static final long ANCHORS_PER_SCALE = 3;
  private static final double LEAKY_SLOPE = 0.1;

  private final long batch;
  private final long size;

  /** The zoo entry: batch 1, 416x416. */
  public YoloV3() {
    this(1, 416);
  }

  /**
   * @throws IllegalArgumentException unless {@code size} is a multiple of 32
   */
  public YoloV3(long batch, long size) {
    Inputs.check("yolov3", batch, size);
    Inputs.checkMultiple("yolov3", size, 32);
    this.batch = batch;
    this.size = size;
  }

  @Override
  public String name() {
    return "yolov3";
  }

  @Override
  public String description() {
    return Inputs.describe("YOLOv3 (Darknet-53, 80 classes)", batch, 3, size);
  }

  @Override
  public String citation() {
    return "Redmon and Farhadi, YOLOv3: An Incremental Improvement, arXiv:1804.02767, 2018,"
        + " Table 1; darknet cfg/yolov3.cfg";
  }

  @Override
  public Graph build() {
    Graph.Builder b = Graph.builder(name());
    b.input("input", DType.F32, batch, 3, size, size);
    Net n = new Net(new Layers(b, DType.F32));
    n.conv(32, 3, 1);
    int[] units = {1, 2, 8, 8, 4};
    for (int stage = 0; stage < units.length; stage++) {
      long width = 64L << stage;
      n.conv(width, 3, 2);
      for (int u = 0; u < units[stage]; u++) {
        n.conv(width / 2, 1, 1);
        n.conv(width, 3, 1);
        n.shortcut(-3);
      }
    }
    long head = ANCHORS_PER_SCALE * (CLASSES + 5);
    // layers 75-82: the stride-32 head
    n.convs(512, 1024);
    n.conv(1024, 3, 1);
    b.output(n.linearConv(head));
    n.skip(); // [yolo]
    // layers 83-94: the stride-16 head
    n.route1(-4);
    n.conv(256, 1, 1);
    n.upsample();
    n.route(-1, 61);
    n.convs(256, 512);
    n.conv(512, 3, 1);
    b.output(n.linearConv(head));
    n.skip(); // [yolo]
    // layers 95-106: the stride-8 head
    n.route1(-4);
    n.conv(128, 1, 1);
    n.upsample();
    n.route(-1, 36);
    n.convs(128, 256);
    n.conv(256, 3, 1);
    b.output(n.linearConv(head));
    n.skip(); // [yolo]
    return b.build();
  }

  /**
   * Darknet's layer list: each layer's output tensor by index, as routes and shortcuts name them.
   */
  private static final class Net {
    private final Layers l;
    private final List<String> outputs = new ArrayList<>();

    Net(Layers l) {
      this.l = l;
    }

    private String last() {
      return outputs.isEmpty() ? "input" : outputs.get(outputs.size() - 1);
    }

    private String name() {
      return "layer" + outputs.size();
    }

    /** A darknet index: negative counts back from the next layer. */
    private String at(int index) {
      return outputs.get(index < 0 ? outputs.size() + index : index);
    }

    /** conv without bias + BN + leaky ReLU. */
    void conv(long filters, long kernel, long stride) {
      String n = name();
      String y = l.conv(n + ".conv", last(), filters, kernel, stride, kernel / 2, 1, false);
      y = l.batchNorm(n + ".bn", y);
      outputs.add(l.leakyRelu(n + ".leaky", y, LEAKY_SLOPE));
    }

    /** Five convs alternating 1x1 to {@code narrow} and 3x3 to {@code wide} channels. */
    void convs(long narrow, long wide) {
      conv(narrow, 1, 1);
      conv(wide, 3, 1);
      conv(narrow, 1, 1);
      conv(wide, 3, 1);
      conv(narrow, 1, 1);
    }

    /** 1x1 conv with bias, linear activation. */
    String linearConv(long filters) {
      String y = l.conv(name() + ".conv", last(), filters, 1, 1, 0, 1, true);
      outputs.add(y);
      return y;
    }

    void shortcut(int from) {
      outputs.add(l.add(name() + ".shortcut", last(), at(from)));
    }

    void upsample() {
      outputs.add(l.upsampleNearest(name() + ".upsample", last(), 2));
    }

    /** A route of one layer: no op, its output is that layer's. */
    void route1(int from) {
      outputs.add(at(from));
    }

    void route(int first, int second) {
      outputs.add(l.concat(name() + ".route", 1, at(first), at(second)));
    }

    /** A layer without an op here ([yolo]); it keeps the index count aligned with darknet's. */
    void skip() {
      outputs.add(last());
    }
  }
}
