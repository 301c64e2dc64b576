package io.github.memplan.datasets.zoo;

import io.github.memplan.core.ir.DType;
import io.github.memplan.core.ir.Graph;
import io.github.memplan.core.ir.ModelProvider;
import java.util.ArrayList;
import java.util.List;

/**
 * YOLOv5s (v6.0 and later, 80 classes) for fp32 NCHW images, as Ultralytics exports it to ONNX.
 * There is no paper; the architecture is Ultralytics's {@code models/yolov5s.yaml} (depth multiple
 * 0.33, width multiple 0.50, "YOLOv5 v6.0 backbone/head") built by {@code models/yolo.py} from the
 * modules of {@code models/common.py}:
 *
 * <ul>
 *   <li>Conv: conv without bias (padding {@code k / 2}, or 2 for the 6x6/2 stem) + BN (epsilon
 *       0.001) + SiLU;
 *   <li>C3 (CSP bottleneck with 3 convs): {@code cv1} and {@code cv2} 1x1 convs to half the output
 *       channels, {@code cv1} followed by n Bottlenecks (1x1 conv, 3x3 conv, plus the input in the
 *       backbone's C3s, not in the head's), the two concatenated and fused by the 1x1 conv {@code
 *       cv3};
 *   <li>SPPF: a 1x1 conv halving the channels, three chained 5x5/1 max pools (pad 2), the four maps
 *       concatenated and a 1x1 conv;
 *   <li>PANet neck: nearest 2x upsampling (ONNX Resize) and Concat as the yaml routes them;
 *   <li>Detect: per stride 8, 16, 32 a 1x1 conv with bias to 3 x 85 channels, viewed as {@code [N,
 *       3, 85, H, W]}, permuted to {@code [N, 3, H, W, 85]}, then the exported inference decoding:
 *       sigmoid, split into xy, wh and the rest (three Slices), {@code xy = (2 xy + grid) *
 *       stride}, {@code wh = (2 wh)^2 * anchor_grid}, concatenated back and reshaped to {@code [N,
 *       3HW, 85]}; the three levels are concatenated into {@code [N, 25200, 85]} at 640x640.
 * </ul>
 *
 * <p>Widths are the yaml's times 0.5 rounded up to multiples of 8 (32 to 512 channels); C3 repeats
 * are the yaml's times 0.33 rounded (1, 2, 3, 1 in the backbone, 1 in the head). The decoding's
 * {@code grid} and {@code anchor_grid} ({@code [1, 3, H, W, 2]}), the per-level strides and the
 * scalar 2 are constants. 7,235,389 parameters, as Ultralytics's model summary reports for the
 * unfused model ("7.2 M"); 8.2 G multiply-adds at 640x640, about half the "16.5 GFLOPs" of
 * Ultralytics's table.
 *
 * <p>Names follow the Ultralytics state dict: {@code model.4.m.1.cv2.conv}, {@code model.9.cv1.bn},
 * {@code model.24.m.0} (the stride-8 output conv); other ops are {@code model.4.m.1.add}, {@code
 * model.4.concat}, {@code model.9.m.0} to {@code model.9.m.2} (the three pools), {@code model.11}
 * (upsample), {@code model.12} (concat), {@code model.24.0.sigmoid} ... {@code model.24.concat}.
 */
public final class YoloV5s implements ModelProvider {
  private static final long CLASSES = 80;
  private static final long ANCHORS = 3;
  private static final long OUTPUTS = CLASSES + 5;
  private static final double BN_EPS = 0.001;

  private final long batch;
  private final long size;

  /** The zoo entry: batch 1, 640x640. */
  public YoloV5s() {
    this(1, 640);
  }

  /**
   * @throws IllegalArgumentException unless {@code size} is a multiple of 32
   */
  public YoloV5s(long batch, long size) {
    Inputs.check("yolov5s", batch, size);
    Inputs.checkMultiple("yolov5s", size, 32);
    this.batch = batch;
    this.size = size;
  }

  @Override
  public String name() {
    return "yolov5s";
  }

  @Override
  public String description() {
    return Inputs.describe("YOLOv5s v6+ (80 classes, decoded outputs)", batch, 3, size);
  }

  @Override
  public String citation() {
    return "Ultralytics YOLOv5 v6.0+ models/yolov5s.yaml (depth 0.33, width 0.50) with"
        + " models/common.py and models/yolo.py (Detect, ONNX export)";
  }

  @Override
  public Graph build() {
    Graph.Builder b = Graph.builder(name());
    Layers l = new Layers(b, DType.F32);
    b.input("input", DType.F32, batch, 3, size, size);
    List<String> m = new ArrayList<>();
    // backbone
    m.add(conv(l, "model.0", "input", 32, 6, 2, 2));
    m.add(conv(l, "model.1", m.get(0), 64, 3, 2, 1));
    m.add(c3(l, "model.2", m.get(1), 64, 1, true));
    m.add(conv(l, "model.3", m.get(2), 128, 3, 2, 1));
    m.add(c3(l, "model.4", m.get(3), 128, 2, true));
    m.add(conv(l, "model.5", m.get(4), 256, 3, 2, 1));
    m.add(c3(l, "model.6", m.get(5), 256, 3, true));
    m.add(conv(l, "model.7", m.get(6), 512, 3, 2, 1));
    m.add(c3(l, "model.8", m.get(7), 512, 1, true));
    m.add(sppf(l, "model.9", m.get(8), 512));
    // head
    m.add(conv(l, "model.10", m.get(9), 256, 1, 1, 0));
    m.add(l.upsampleNearest("model.11", m.get(10), 2));
    m.add(l.concat("model.12", 1, m.get(11), m.get(6)));
    m.add(c3(l, "model.13", m.get(12), 256, 1, false));
    m.add(conv(l, "model.14", m.get(13), 128, 1, 1, 0));
    m.add(l.upsampleNearest("model.15", m.get(14), 2));
    m.add(l.concat("model.16", 1, m.get(15), m.get(4)));
    m.add(c3(l, "model.17", m.get(16), 128, 1, false));
    m.add(conv(l, "model.18", m.get(17), 128, 3, 2, 1));
    m.add(l.concat("model.19", 1, m.get(18), m.get(14)));
    m.add(c3(l, "model.20", m.get(19), 256, 1, false));
    m.add(conv(l, "model.21", m.get(20), 256, 3, 2, 1));
    m.add(l.concat("model.22", 1, m.get(21), m.get(10)));
    m.add(c3(l, "model.23", m.get(22), 512, 1, false));
    b.output(detect(l, "model.24", List.of(m.get(17), m.get(20), m.get(23))));
    return b.build();
  }

  /** Conv: conv without bias + BN + SiLU ({@code .conv}, {@code .bn}, {@code .act}). */
  private static String conv(
      Layers l, String name, String x, long out, long kernel, long stride, long pad) {
    String y = l.conv(name + ".conv", x, out, kernel, stride, pad, 1, false);
    y = l.batchNorm(name + ".bn", y, BN_EPS);
    return l.silu(name + ".act", y);
  }

  private static String c3(Layers l, String name, String x, long out, int n, boolean shortcut) {
    long hidden = out / 2;
    String y = conv(l, name + ".cv1", x, hidden, 1, 1, 0);
    for (int i = 0; i < n; i++) {
      String bn = name + ".m." + i;
      String z = conv(l, bn + ".cv1", y, hidden, 1, 1, 0);
      z = conv(l, bn + ".cv2", z, hidden, 3, 1, 1);
      y = shortcut ? l.add(bn + ".add", y, z) : z;
    }
    String side = conv(l, name + ".cv2", x, hidden, 1, 1, 0);
    String cat = l.concat(name + ".concat", 1, y, side);
    return conv(l, name + ".cv3", cat, out, 1, 1, 0);
  }

  private static String sppf(Layers l, String name, String x, long out) {
    long hidden = l.shape(x).dim(1) / 2;
    String y = conv(l, name + ".cv1", x, hidden, 1, 1, 0);
    String p1 = l.maxPool(name + ".m.0", y, 5, 1, 2);
    String p2 = l.maxPool(name + ".m.1", p1, 5, 1, 2);
    String p3 = l.maxPool(name + ".m.2", p2, 5, 1, 2);
    String cat = l.concat(name + ".concat", 1, y, p1, p2, p3);
    return conv(l, name + ".cv2", cat, out, 1, 1, 0);
  }

  private static String detect(Layers l, String name, List<String> inputs) {
    Graph.Builder b = l.builder();
    String two = name + ".two";
    b.constant(two, DType.F32);
    List<String> levels = new ArrayList<>();
    for (int i = 0; i < inputs.size(); i++) {
      String p = name + "." + i;
      String y = l.conv(name + ".m." + i, inputs.get(i), ANCHORS * OUTPUTS, 1, 1, 0, 1, true);
      long n = l.shape(y).dim(0);
      long h = l.shape(y).dim(2);
      long w = l.shape(y).dim(3);
      y = l.reshape(p + ".view", y, n, ANCHORS, OUTPUTS, h, w);
      y = l.transpose(p + ".permute", y, 0, 1, 3, 4, 2);
      y = l.sigmoid(p + ".sigmoid", y);
      String grid = p + ".grid";
      String anchorGrid = p + ".anchor_grid";
      String stride = p + ".stride";
      b.constant(grid, DType.F32, 1, ANCHORS, h, w, 2);
      b.constant(anchorGrid, DType.F32, 1, ANCHORS, h, w, 2);
      b.constant(stride, DType.F32);
      String xy = l.slice(p + ".xy", y, 4, 0, 2);
      String wh = l.slice(p + ".wh", y, 4, 2, 4);
      String conf = l.slice(p + ".conf", y, 4, 4, OUTPUTS);
      xy = l.mul(p + ".xy.mul", xy, two);
      xy = l.add(p + ".xy.add", xy, grid);
      xy = l.mul(p + ".xy.scale", xy, stride);
      wh = l.mul(p + ".wh.mul", wh, two);
      wh = l.pow(p + ".wh.pow", wh, two);
      wh = l.mul(p + ".wh.scale", wh, anchorGrid);
      y = l.concat(p + ".concat", 4, xy, wh, conf);
      levels.add(l.reshape(p + ".flatten", y, n, ANCHORS * h * w, OUTPUTS));
    }
    return l.concat(name + ".concat", 1, levels);
  }
}
