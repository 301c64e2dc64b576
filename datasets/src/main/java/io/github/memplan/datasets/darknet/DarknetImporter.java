package io.github.memplan.datasets.darknet;

import io.github.memplan.core.ir.Attributes;
import io.github.memplan.core.ir.DType;
import io.github.memplan.core.ir.Graph;
import io.github.memplan.core.ir.OpKind;
import io.github.memplan.core.ir.Shape;
import io.github.memplan.datasets.darknet.DarknetCfg.Section;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Builds a {@link Graph} from a darknet {@code .cfg} file, layer for layer as darknet's own parser
 * does (pjreddie/darknet at 61c9d02e, the version Debian packages: {@code src/parser.c}, {@code
 * parse_network_cfg} and the {@code make_*_layer} functions). Output sizes follow darknet's rules,
 * which a test checks against the per-layer table that {@code darknet ops} prints for every cfg of
 * the zoo (the 45 that memplan ships, see {@link DarknetZoo}).
 *
 * <p><b>Input and batch.</b> {@code [net]} gives {@code width}, {@code height}, {@code channels}:
 * the graph input {@code input} is {@code [N, channels, height, width]} fp32, or {@code [N,
 * inputs]} when the image size is absent (recurrent cfgs). The batch {@code N} is 1 unless asked
 * for: {@code batch} and {@code subdivisions} in {@code [net]} are training settings, and darknet's
 * own inference commands reset the batch to 1 ({@code set_batch_network(net, 1)}); {@link
 * #cfgBatch} gives darknet's training batch per step for callers who want it.
 *
 * <p><b>Layers</b> (darknet's parameter shapes and names, prefixed {@code l<index>.}):
 *
 * <ul>
 *   <li>{@code [convolutional]}: Conv with weights {@code [filters, channels/groups, size, size]}
 *       ({@code pad=1} means padding {@code size/2}, else {@code padding}); with {@code
 *       batch_normalize=1} a bias-free Conv then BatchNormalization ({@code scales}, {@code biases}
 *       learned; {@code rolling_mean}, {@code rolling_variance} constants; epsilon 1e-6, darknet's
 *       {@code .000001f}), otherwise a Conv with {@code biases}; then the activation.
 *   <li>{@code [maxpool]}: MaxPool; darknet's size rule {@code out = (w + padding - size)/stride +
 *       1} with {@code padding} defaulting to {@code size-1} and the window starting at {@code
 *       -padding/2} ({@code make_maxpool_layer}, {@code forward_maxpool_layer}) is ONNX padding
 *       {@code padding/2} before and {@code padding - padding/2} after.
 *   <li>{@code [avgpool]}: GlobalAveragePool (darknet's avgpool is always global).
 *   <li>{@code [connected]}: Flatten, Gemm with weights {@code [output, inputs]} ({@code
 *       transB=1}), BatchNormalization or bias as for convolutions, activation.
 *   <li>{@code [route]}: Concat over channels; with {@code groups}/{@code group_id} (AlexeyAB's
 *       fork) each input is sliced to its group first; inputs whose spatial sizes differ are
 *       flattened and concatenated, as darknet then treats the route as flat. A route of one layer
 *       adds no op: the layer's output is the routed tensor (darknet copies it; compilers do not).
 *   <li>{@code [shortcut]}: Add of the previous output and the {@code from} layer(s), then the
 *       activation. When shapes differ, darknet ({@code shortcut_cpu}) adds the {@code from} tensor
 *       subsampled by {@code w1/w2} into the first {@code min(c1, c2)} channels: here a Slice (and
 *       a zero Pad up to the output size) before the Add. {@code alpha}/{@code beta} scale values
 *       only and are not recorded.
 *   <li>{@code [upsample]}: Resize, nearest, scales {@code [1, 1, stride, stride]}.
 *   <li>{@code [reorg]}: space-to-depth as Reshape-Transpose-Reshape (darknet's {@code reorg_cpu}
 *       orders the elements its own way; shapes and bytes are the same); with {@code extra}, the
 *       flattened input zero-padded by {@code extra} values.
 *   <li>{@code [crop]}: the inference-time centre crop, a Slice.
 *   <li>{@code [local]}: a locally connected layer as im2col (Pad, one Slice per kernel offset,
 *       Concat) and a batched MatMul with weights {@code [locations, channels*size*size, filters]},
 *       plus {@code biases [filters, out_h, out_w]}: darknet's parameter count and
 *       multiply-accumulates.
 *   <li>{@code [softmax]}: Softmax over the flattened input (over each of {@code groups} equal
 *       parts). A {@code tree} (hierarchical softmax) changes values only and is not modelled.
 *   <li>{@code [dropout]}: no op (darknet's dropout shares its input's buffer at inference).
 *   <li>{@code [rnn]}, {@code [gru]}: one time step of pjreddie's cells built from connected layers
 *       (RNN: input, self and output layers; GRU: six linear layers, logistic gates, the candidate
 *       logistic unless {@code tanh=1}); the recurrent state is a graph input {@code
 *       l<index>.state} and, for RNN, the new state a graph output.
 *   <li>{@code [batchnorm]}, {@code [activation]}: BatchNormalization, the activation.
 *   <li>{@code [yolo]}, {@code [region]}, {@code [detection]}, {@code [cost]}: detection heads and
 *       the loss are post-processing or training: they add no op, and the tensor they read becomes
 *       a graph output (the sizes darknet asserts, such as {@code filters = |mask| * (classes + 5)}
 *       before a {@code [yolo]}, are checked).
 * </ul>
 *
 * <p>Graph outputs are the inputs of the heads, in layer order, then the last layer's output.
 * Activations: {@code linear} adds no op; {@code relu}, {@code leaky} (LeakyRelu 0.1), {@code
 * logistic} (Sigmoid), {@code tanh}, {@code swish} (Silu), {@code relu6} and {@code hardtan} (Clip)
 * are one op; {@code ramp} ({@code x*(x>0) + 0.1x}) is LeakyRelu(1/11) times 1.1 and {@code mish}
 * is {@code x * tanh(log(1 + exp(x)))}, since core.ir has no single op for them. Other activations,
 * and sections darknet knows but no shipped cfg uses ({@code [lstm]}, {@code [crnn]}, {@code
 * [lrn]}, ...), fail with a one-line message naming the file, line and section; darknet itself
 * falls back to ReLU for an unknown activation name.
 */
public final class DarknetImporter {
  private static final DType F32 = DType.F32;

  private DarknetImporter() {}

  /** Reads and builds {@code cfg} at batch 1; the graph is named after the file. */
  public static DarknetNetwork load(Path cfg) throws IOException {
    return load(cfg, 1);
  }

  /** Reads and builds {@code cfg} at batch {@code batch}; the graph is named after the file. */
  public static DarknetNetwork load(Path cfg, long batch) throws IOException {
    return build(DarknetCfg.read(cfg), graphName(cfg), batch);
  }

  /** The file name without {@code .cfg}: {@code yolov3-tiny} for {@code yolov3-tiny.cfg}. */
  public static String graphName(Path cfg) {
    Path f = cfg.getFileName();
    return graphName(f == null ? cfg.toString() : f.toString());
  }

  /** The file name {@code file} without {@code .cfg}. */
  public static String graphName(String file) {
    return file.endsWith(".cfg") ? file.substring(0, file.length() - 4) : file;
  }

  /**
   * Darknet's training batch per step, {@code batch / subdivisions} of {@code [net]} ({@code
   * parse_net_options}).
   */
  public static long cfgBatch(DarknetCfg cfg) {
    Section net = netSection(cfg);
    long batch = net.integer("batch", 1);
    long subdivisions = net.integer("subdivisions", 1);
    if (batch < 1 || subdivisions < 1 || batch / subdivisions < 1) {
      throw net.fail("batch", "batch " + batch + " / subdivisions " + subdivisions + " is < 1");
    }
    return batch / subdivisions;
  }

  /** Builds the graph {@code name} of {@code cfg} at batch {@code batch}. */
  public static DarknetNetwork build(DarknetCfg cfg, String name, long batch) {
    if (batch < 1) {
      throw new IllegalArgumentException(cfg.source() + ": batch " + batch + " must be >= 1");
    }
    return new Build(cfg, name, batch).run();
  }

  /**
   * The shape of the graph input at batch {@code batch}: {@code [batch, channels, height, width]}
   * from {@code [net]}, or {@code [batch, inputs]} when the image size is absent.
   */
  public static Shape inputShape(DarknetCfg cfg, long batch) {
    Section net = netSection(cfg);
    long h = net.integer("height", 0);
    long w = net.integer("width", 0);
    long c = net.integer("channels", 0);
    long inputs = net.integer("inputs", h * w * c);
    if (h > 0 && w > 0 && c > 0) {
      return Shape.of(batch, c, h, w);
    }
    if (inputs > 0) {
      return Shape.of(batch, inputs);
    }
    throw net.fail(null, "no input size: give width, height and channels, or inputs");
  }

  private static Section netSection(DarknetCfg cfg) {
    Section net = cfg.sections().get(0);
    if (!net.type().equals("net") && !net.type().equals("network")) {
      throw net.fail(null, "the first section must be [net] or [network]");
    }
    return net;
  }

  /** The state of one build: the graph so far and each darknet layer's output. */
  private static final class Build {
    private final DarknetCfg cfg;
    private final Graph.Builder g;
    private final long n;
    private final List<DarknetNetwork.Layer> layers = new ArrayList<>();
    private final Set<String> outputs = new LinkedHashSet<>();
    private String current;
    private Section section;
    private String prefix;

    Build(DarknetCfg cfg, String name, long batch) {
      this.cfg = cfg;
      this.g = Graph.builder(name);
      this.n = batch;
    }

    DarknetNetwork run() {
      Section net = netSection(cfg);
      try {
        g.input("input", F32, inputShape(cfg, n).dims());
      } catch (IllegalArgumentException e) {
        // e.g. an input beyond TensorType.MAX_BYTES: named where the size comes from
        String m = e.getMessage() == null ? e.toString() : e.getMessage();
        throw m.startsWith(cfg.source() + ":") ? e : net.fail(null, m);
      }
      current = "input";
      List<Section> sections = cfg.sections();
      if (sections.size() < 2) {
        throw net.fail(null, "the network has no layers");
      }
      for (int i = 1; i < sections.size(); i++) {
        section = sections.get(i);
        int index = i - 1;
        prefix = "l" + index;
        try {
          layer(index);
        } catch (IllegalArgumentException | ArithmeticException e) {
          String m = e.getMessage() == null ? e.toString() : e.getMessage();
          if (m.startsWith(cfg.source() + ":")) {
            throw e;
          }
          throw new IllegalArgumentException(section.where() + " (layer " + index + "): " + m, e);
        }
      }
      outputs.add(current);
      try {
        for (String o : outputs) {
          g.output(o);
        }
        return new DarknetNetwork(g.build(), layers);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(cfg.source() + ": " + e.getMessage(), e);
      }
    }

    private void layer(int index) {
      List<String> in = List.of(current);
      String out;
      switch (section.type()) {
        case "convolutional", "conv" -> out = convolutional();
        case "maxpool", "max" -> out = maxpool();
        case "avgpool", "avg" -> out = op("avgpool", OpKind.GLOBAL_AVERAGE_POOL, none(), image());
        case "connected", "conn" -> out = connected(flat(current), "", section, "logistic");
        case "dropout" -> out = current;
        case "softmax", "soft" -> out = softmax();
        case "route" -> {
          in = routed(index);
          out = route(in);
        }
        case "shortcut" -> {
          List<String> from = new ArrayList<>(List.of(current));
          for (long f : section.integers("from")) {
            from.add(layerOutput(index, f, "from"));
          }
          in = from;
          out = shortcut(from);
        }
        case "upsample" -> out = upsample();
        case "reorg" -> out = reorg();
        case "crop" -> out = crop();
        case "local" -> out = local();
        case "batchnorm" -> out = batchNorm("bn", image());
        case "activation" -> {
          String a = section.string("activation", "linear");
          out =
              a.equals("linear")
                  ? op("identity", OpKind.IDENTITY, none(), current)
                  : activate(current, a);
        }
        case "rnn" -> out = rnn();
        case "gru" -> out = gru();
        case "yolo" -> out = yolo();
        case "region" -> out = region();
        case "detection" -> out = detection();
        case "cost" -> out = head();
        case "net", "network" -> throw section.fail(null, "a second [net] section");
        case "crnn",
            "lstm",
            "conv_lstm",
            "deconvolutional",
            "deconv",
            "lrn",
            "normalization",
            "logistic",
            "l2norm",
            "iseg",
            "scale_channels",
            "sam",
            "gaussian_yolo",
            "reorg3d",
            "local_avgpool",
            "local_avg",
            "empty",
            "silence",
            "contrastive",
            "implicit_add",
            "implicit_mul" ->
            throw section.fail(null, "darknet layer type not supported by this importer");
        default -> throw section.fail(null, "unknown section type");
      }
      layers.add(new DarknetNetwork.Layer(index, section.type(), section.line(), in, out));
      current = out;
    }

    // ------------------------------------------------------------------ layers

    private String convolutional() {
      Section s = section;
      long filters = s.integer("filters", 1);
      long size = s.integer("size", 1);
      long stride = s.integer("stride", 1);
      long strideX = s.integer("stride_x", -1);
      long strideY = s.integer("stride_y", -1);
      strideX = strideX < 1 ? stride : strideX;
      strideY = strideY < 1 ? stride : strideY;
      long dilation = size == 1 ? 1 : s.integer("dilation", 1);
      long padding = s.integer("pad", 0) != 0 ? size / 2 : s.integer("padding", 0);
      long groups = s.integer("groups", 1);
      positive("filters", filters);
      positive("size", size);
      positive("stride", Math.min(strideX, strideY));
      positive("groups", groups);
      String x = image();
      long c = shape(x).dim(1);
      if (c % groups != 0 || filters % groups != 0) {
        throw s.fail(
            "groups",
            "groups "
                + groups
                + " must divide the input channels "
                + c
                + " and the filters "
                + filters);
      }
      String w = weight("weights", filters, c / groups, size, size);
      Attributes attrs =
          Attributes.builder()
              .put("kernel_shape", size, size)
              .put("strides", strideY, strideX)
              .put("pads", padding, padding, padding, padding)
              .put("dilations", dilation, dilation)
              .put("group", groups)
              .build();
      boolean bn = s.integer("batch_normalize", 0) != 0;
      String y;
      if (bn) {
        y = op("conv", OpKind.CONV, attrs, x, w);
        y = batchNorm("bn", y);
      } else {
        y = op("conv", OpKind.CONV, attrs, x, w, weight("biases", filters));
      }
      return activate(y, s.string("activation", "logistic"));
    }

    private String maxpool() {
      Section s = section;
      long stride = s.integer("stride", 1);
      long size = s.integer("size", stride);
      long padding = s.integer("padding", size - 1);
      positive("stride", stride);
      positive("size", size);
      if (padding < 0) {
        throw s.fail("padding", "padding " + padding + " must be >= 0");
      }
      long begin = padding / 2;
      long end = padding - begin;
      return op(
          "maxpool",
          OpKind.MAX_POOL,
          Attributes.builder()
              .put("kernel_shape", size, size)
              .put("strides", stride, stride)
              .put("pads", begin, begin, end, end)
              .build(),
          image());
    }

    /**
     * A connected layer on the 2-D tensor {@code x}; {@code tag} distinguishes the sublayers of a
     * recurrent cell ({@code "uz"} names {@code l3.uz.gemm}, {@code l3.uz.weights}, ...).
     */
    private String connected(String x, String tag, Section s, String defaultActivation) {
      long outputs = s.integer("output", 1);
      positive("output", outputs);
      return connected(
          x,
          tag,
          outputs,
          s.integer("batch_normalize", 0) != 0,
          s.string("activation", defaultActivation));
    }

    private String connected(String x, String tag, long outputs, boolean bn, String activation) {
      String p = tag.isEmpty() ? "" : tag + ".";
      long inputs = shape(x).dim(1);
      String w = weight(p + "weights", outputs, inputs);
      Attributes attrs = Attributes.builder().put("transB", 1L).build();
      String y;
      if (bn) {
        y = op(p + "gemm", OpKind.GEMM, attrs, x, w);
        y = batchNorm(p + "bn", y);
      } else {
        y = op(p + "gemm", OpKind.GEMM, attrs, x, w, weight(p + "biases", outputs));
      }
      return activate(y, activation, p);
    }

    private String softmax() {
      long groups = section.integer("groups", 1);
      positive("groups", groups);
      String x = flat(current);
      long k = shape(x).dim(1);
      Attributes last = Attributes.builder().put("axis", -1L).build();
      if (groups == 1) {
        return op("softmax", OpKind.SOFTMAX, last, x);
      }
      if (k % groups != 0) {
        throw section.fail("groups", "groups " + groups + " must divide the " + k + " inputs");
      }
      String r = reshape("groups", x, n, groups, k / groups);
      String y = op("softmax", OpKind.SOFTMAX, last, r);
      return reshape("reshape", y, n, k);
    }

    private List<String> routed(int index) {
      List<String> in = new ArrayList<>();
      for (long l : section.integers("layers")) {
        in.add(layerOutput(index, l, "layers"));
      }
      return in;
    }

    private String route(List<String> in) {
      long groups = section.integer("groups", 1);
      long groupId = section.integer("group_id", 0);
      positive("groups", groups);
      if (groupId < 0 || groupId >= groups) {
        throw section.fail("group_id", "group_id " + groupId + " must be in [0, " + groups + ")");
      }
      if (in.size() == 1 && groups == 1) {
        return in.get(0);
      }
      boolean sameImage = true;
      Shape first = shape(in.get(0));
      for (String t : in) {
        Shape s = shape(t);
        sameImage &=
            s.rank() == first.rank()
                && (s.rank() == 2
                    || (s.rank() == 4 && s.dim(2) == first.dim(2) && s.dim(3) == first.dim(3)));
      }
      List<String> parts = new ArrayList<>();
      if (!sameImage) {
        if (groups != 1) {
          throw section.fail("groups", "groups need inputs of one spatial size");
        }
        for (int i = 0; i < in.size(); i++) {
          parts.add(flatten("flatten" + i, in.get(i)));
        }
      } else if (groups == 1) {
        parts.addAll(in);
      } else {
        for (int i = 0; i < in.size(); i++) {
          long c = shape(in.get(i)).dim(1);
          if (c % groups != 0) {
            throw section.fail(
                "groups",
                "groups " + groups + " must divide the " + c + " channels of " + in.get(i));
          }
          long part = c / groups;
          parts.add(
              op(
                  "slice" + i,
                  OpKind.SLICE,
                  Attributes.builder()
                      .put("axes", 1L)
                      .put("starts", part * groupId)
                      .put("ends", part * (groupId + 1))
                      .build(),
                  in.get(i)));
        }
      }
      if (parts.size() == 1) {
        return parts.get(0);
      }
      return op(
          "concat",
          OpKind.CONCAT,
          Attributes.builder().put("axis", 1L).build(),
          parts.toArray(String[]::new));
    }

    private String shortcut(List<String> in) {
      String acc = image(in.get(0), "reshape");
      Shape out = shape(acc);
      for (int k = 1; k < in.size(); k++) {
        String tag = in.size() > 2 ? Integer.toString(k) : "";
        String from = adapt(image(in.get(k), "reshape_from" + tag), out, tag);
        acc = op("add" + tag, OpKind.ADD, none(), acc, from);
      }
      return activate(acc, section.string("activation", "linear"));
    }

    /** {@code from} as shortcut_cpu adds it into a tensor of shape {@code out}. */
    private String adapt(String from, Shape out, String tag) {
      Shape f = shape(from);
      if (f.equals(out)) {
        return from;
      }
      long c1 = f.dim(1);
      long h1 = f.dim(2);
      long w1 = f.dim(3);
      long c2 = out.dim(1);
      long h2 = out.dim(2);
      long w2 = out.dim(3);
      long stride = Math.max(1, w1 / w2);
      long sample = Math.max(1, w2 / w1);
      if (stride != Math.max(1, h1 / h2) || sample != Math.max(1, h2 / h1)) {
        throw section.fail(
            "from", "from " + f + " and output " + out + " differ in width and height ratios");
      }
      if (sample != 1) {
        throw section.fail(
            "from",
            "adding the smaller "
                + f
                + " into "
                + out
                + " (darknet's sampled scatter) is not supported");
      }
      long minC = Math.min(c1, c2);
      long minH = Math.min(h1, h2);
      long minW = Math.min(w1, w2);
      String x = from;
      long endH = (minH - 1) * stride + 1;
      long endW = (minW - 1) * stride + 1;
      if (minC != c1 || endH != h1 || endW != w1 || stride != 1) {
        x =
            op(
                "slice" + tag,
                OpKind.SLICE,
                Attributes.builder()
                    .put("axes", 1L, 2L, 3L)
                    .put("starts", 0L, 0L, 0L)
                    .put("ends", minC, endH, endW)
                    .put("steps", 1L, stride, stride)
                    .build(),
                x);
      }
      if (minC != c2 || minH != h2 || minW != w2) {
        x =
            op(
                "pad" + tag,
                OpKind.PAD,
                Attributes.builder()
                    .put("pads", 0L, 0L, 0L, 0L, 0L, c2 - minC, h2 - minH, w2 - minW)
                    .build(),
                x);
      }
      return x;
    }

    private String upsample() {
      long stride = section.integer("stride", 2);
      if (stride < 1) {
        throw section.fail("stride", "downsampling (stride " + stride + ") is not supported");
      }
      return op(
          "upsample",
          OpKind.RESIZE,
          Attributes.builder()
              .put("mode", "nearest")
              .put("scales", 1.0, 1.0, (double) stride, (double) stride)
              .build(),
          image());
    }

    private String reorg() {
      Section s = section;
      long stride = s.integer("stride", 1);
      long extra = s.integer("extra", 0);
      if (extra != 0) {
        if (extra < 0) {
          throw s.fail("extra", "extra " + extra + " must be >= 0");
        }
        return op(
            "pad",
            OpKind.PAD,
            Attributes.builder().put("pads", 0L, 0L, 0L, extra).build(),
            flat(current));
      }
      if (s.integer("reverse", 0) != 0 || s.integer("flatten", 0) != 0) {
        throw s.fail(
            s.integer("reverse", 0) != 0 ? "reverse" : "flatten",
            "this reorg mode is not supported");
      }
      positive("stride", stride);
      String x = image();
      Shape in = shape(x);
      long c = in.dim(1);
      long h = in.dim(2);
      long w = in.dim(3);
      if (h % stride != 0 || w % stride != 0) {
        throw s.fail("stride", "stride " + stride + " does not divide the input's " + h + "x" + w);
      }
      String r = reshape("split", x, n, c, h / stride, stride, w / stride, stride);
      String t =
          op(
              "transpose",
              OpKind.TRANSPOSE,
              Attributes.builder().put("perm", 0L, 3L, 5L, 1L, 2L, 4L).build(),
              r);
      return reshape("reorg", t, n, c * stride * stride, h / stride, w / stride);
    }

    private String crop() {
      Section s = section;
      long ch = s.integer("crop_height", 1);
      long cw = s.integer("crop_width", 1);
      String x = image();
      Shape in = shape(x);
      if (ch < 1 || cw < 1 || ch > in.dim(2) || cw > in.dim(3)) {
        throw s.fail("crop_height", "crop " + ch + "x" + cw + " does not fit in the input " + in);
      }
      long top = (in.dim(2) - ch) / 2;
      long left = (in.dim(3) - cw) / 2;
      return op(
          "crop",
          OpKind.SLICE,
          Attributes.builder()
              .put("axes", 2L, 3L)
              .put("starts", top, left)
              .put("ends", top + ch, left + cw)
              .build(),
          x);
    }

    /**
     * The largest kernel a {@code [local]} layer may have: its im2col is one Slice op per kernel
     * offset, so the op count grows with its square (darknet's own cfgs use 3).
     */
    private static final long MAX_LOCAL_SIZE = 32;

    /** A locally connected layer: im2col by slices, then one weight matrix per location. */
    private String local() {
      Section s = section;
      long filters = s.integer("filters", 1);
      long size = s.integer("size", 1);
      long stride = s.integer("stride", 1);
      long pad = s.integer("pad", 0);
      positive("filters", filters);
      positive("size", size);
      positive("stride", stride);
      if (size > MAX_LOCAL_SIZE) {
        // size x size Slice ops: a fuzzed cfg with size 511 made 261,121 of them from 812 bytes
        throw s.fail(
            "size",
            "size "
                + size
                + " is more than memplan expands a [local] layer to ("
                + MAX_LOCAL_SIZE
                + "; one Slice op per kernel offset)");
      }
      String x = image();
      Shape in = shape(x);
      long c = in.dim(1);
      long h = in.dim(2);
      long w = in.dim(3);
      // local_out_height: (h - (pad ? 1 : size)) / stride + 1, im2col padding 'pad'
      long outH = (h - (pad != 0 ? 1 : size)) / stride + 1;
      long outW = (w - (pad != 0 ? 1 : size)) / stride + 1;
      long padding = pad != 0 ? size / 2 : 0;
      if (outH < 1 || outW < 1) {
        throw s.fail("size", "size " + size + " does not fit in the input " + in);
      }
      String xp = x;
      if (padding > 0) {
        xp =
            op(
                "pad",
                OpKind.PAD,
                Attributes.builder()
                    .put("pads", 0L, 0L, padding, padding, 0L, 0L, padding, padding)
                    .build(),
                x);
      }
      List<String> cols = new ArrayList<>();
      for (long dy = 0; dy < size; dy++) {
        for (long dx = 0; dx < size; dx++) {
          cols.add(
              op(
                  "im2col." + dy + "." + dx,
                  OpKind.SLICE,
                  Attributes.builder()
                      .put("axes", 2L, 3L)
                      .put("starts", dy, dx)
                      .put("ends", dy + (outH - 1) * stride + 1, dx + (outW - 1) * stride + 1)
                      .put("steps", stride, stride)
                      .build(),
                  xp));
        }
      }
      String col =
          cols.size() == 1
              ? cols.get(0)
              : op(
                  "im2col",
                  OpKind.CONCAT,
                  Attributes.builder().put("axis", 1L).build(),
                  cols.toArray(String[]::new));
      long k = c * size * size;
      long locations = outH * outW;
      String r = reshape("cols", col, n, k, locations);
      String t =
          op(
              "transpose",
              OpKind.TRANSPOSE,
              Attributes.builder().put("perm", 2L, 0L, 1L).build(),
              r);
      String wts = weight("weights", locations, k, filters);
      String mm = op("matmul", OpKind.MAT_MUL, none(), t, wts);
      String back =
          op(
              "transpose_out",
              OpKind.TRANSPOSE,
              Attributes.builder().put("perm", 1L, 2L, 0L).build(),
              mm);
      String img = reshape("reshape", back, n, filters, outH, outW);
      String y = op("add", OpKind.ADD, none(), img, weight("biases", filters, outH, outW));
      return activate(y, s.string("activation", "logistic"));
    }

    /** pjreddie's RNN cell (rnn_layer.c), one step: the state is a graph input and output. */
    private String rnn() {
      Section s = section;
      long size = s.integer("output", 1);
      positive("output", size);
      boolean bn = s.integer("batch_normalize", 0) != 0;
      String act = s.string("activation", "logistic");
      String x = flat(current);
      String state = g.input(prefix + ".state", F32, n, size).name();
      String in = connected(x, "input", size, bn, act);
      String self = connected(state, "self", size, bn, act);
      String next = op("state_next", OpKind.ADD, none(), in, self);
      if (s.integer("shortcut", 0) != 0) {
        next = op("state_shortcut", OpKind.ADD, none(), next, state);
      }
      outputs.add(next);
      return connected(next, "output", size, bn, act);
    }

    /** pjreddie's GRU cell (gru_layer.c), one step; the output is the new state. */
    private String gru() {
      Section s = section;
      long outputs = s.integer("output", 1);
      positive("output", outputs);
      boolean bn = s.integer("batch_normalize", 0) != 0;
      String x = flat(current);
      String state = g.input(prefix + ".state", F32, n, outputs).name();
      String wz = connected(state, "wz", outputs, bn, "linear");
      String wr = connected(state, "wr", outputs, bn, "linear");
      String uz = connected(x, "uz", outputs, bn, "linear");
      String ur = connected(x, "ur", outputs, bn, "linear");
      String uh = connected(x, "uh", outputs, bn, "linear");
      String z = op("z", OpKind.SIGMOID, none(), op("z_sum", OpKind.ADD, none(), uz, wz));
      String r = op("r", OpKind.SIGMOID, none(), op("r_sum", OpKind.ADD, none(), ur, wr));
      String forgot = op("forgot_state", OpKind.MUL, none(), state, r);
      String wh = connected(forgot, "wh", outputs, bn, "linear");
      String hSum = op("h_sum", OpKind.ADD, none(), uh, wh);
      String h =
          s.integer("tanh", 0) != 0
              ? op("h", OpKind.TANH, none(), hSum)
              : op("h", OpKind.SIGMOID, none(), hSum);
      // weighted_sum_cpu: z * state + (1 - z) * h = h + z * (state - h)
      String diff = op("state_minus_h", OpKind.SUB, none(), state, h);
      String zd = op("z_times", OpKind.MUL, none(), z, diff);
      return op("output", OpKind.ADD, none(), h, zd);
    }

    private String yolo() {
      Section s = section;
      long classes = s.integer("classes", 20);
      long num = s.integer("num", 1);
      long masks = s.has("mask") ? s.integers("mask").length : num;
      long expected = masks * (classes + 4 + 1);
      checkChannels(expected, "mask count " + masks + " x (classes " + classes + " + 5)");
      return head();
    }

    private String region() {
      Section s = section;
      long classes = s.integer("classes", 20);
      long coords = s.integer("coords", 4);
      long num = s.integer("num", 1);
      checkChannels(
          num * (classes + coords + 1),
          "num " + num + " x (classes " + classes + " + coords " + coords + " + 1)");
      return head();
    }

    private String detection() {
      Section s = section;
      long coords = s.integer("coords", 1);
      long classes = s.integer("classes", 1);
      long num = s.integer("num", 1);
      long side = s.integer("side", 7);
      long expected = side * side * ((1 + coords) * num + classes);
      long inputs = shape(current).elements() / n;
      if (inputs != expected) {
        throw s.fail(
            null,
            "the previous layer has "
                + inputs
                + " outputs but side "
                + side
                + "^2 x ((1 + coords "
                + coords
                + ") x num "
                + num
                + " + classes "
                + classes
                + ") = "
                + expected);
      }
      return head();
    }

    private void checkChannels(long expected, String rule) {
      Shape in = shape(current);
      if (in.rank() != 4 || in.dim(1) != expected) {
        throw section.fail(
            null,
            "the previous layer's output "
                + in
                + " should have "
                + rule
                + " = "
                + expected
                + " channels");
      }
    }

    /** A head: no op; the tensor it reads becomes a graph output. */
    private String head() {
      if (current.equals("input")) {
        throw section.fail(null, "a head cannot read the network input directly");
      }
      outputs.add(current);
      return current;
    }

    // ------------------------------------------------------------------ helpers

    /** The output of layer {@code ref} (negative: relative to {@code index}). */
    private String layerOutput(int index, long ref, String key) {
      long abs = ref < 0 ? index + ref : ref;
      if (abs < 0 || abs >= index) {
        throw section.fail(
            key, "layer " + ref + " (absolute " + abs + ") is not an earlier layer of " + index);
      }
      return layers.get((int) abs).output();
    }

    private String activate(String x, String name) {
      return activate(x, name, "");
    }

    private String activate(String x, String name, String p) {
      return switch (name) {
        case "linear" -> x;
        case "relu" -> op(p + "relu", OpKind.RELU, none(), x);
        case "leaky" ->
            op(p + "leaky", OpKind.LEAKY_RELU, Attributes.builder().put("alpha", 0.1).build(), x);
        case "logistic" -> op(p + "logistic", OpKind.SIGMOID, none(), x);
        case "tanh" -> op(p + "tanh", OpKind.TANH, none(), x);
        case "swish" -> op(p + "swish", OpKind.SILU, none(), x);
        case "relu6" -> op(p + "relu6", OpKind.CLIP, clip(0, 6), x);
        case "hardtan" -> op(p + "hardtan", OpKind.CLIP, clip(-1, 1), x);
        case "ramp" -> {
          String l =
              op(
                  p + "ramp",
                  OpKind.LEAKY_RELU,
                  Attributes.builder().put("alpha", 1.0 / 11).build(),
                  x);
          yield op(p + "ramp_scale", OpKind.MUL, none(), l, scalar("ramp_scale"));
        }
        case "mish" -> {
          String e = op(p + "mish_exp", OpKind.EXP, none(), x);
          String sp =
              op(
                  p + "mish_softplus",
                  OpKind.LOG,
                  none(),
                  op(p + "mish_add", OpKind.ADD, none(), e, scalar("one")));
          yield op(p + "mish", OpKind.MUL, none(), x, op(p + "mish_tanh", OpKind.TANH, none(), sp));
        }
        default ->
            throw section.fail(
                "activation",
                "activation '"
                    + name
                    + "' is not supported (linear, relu, leaky, logistic, tanh, swish, mish, relu6,"
                    + " hardtan, ramp)");
      };
    }

    private static Attributes clip(double min, double max) {
      return Attributes.builder().put("min", min).put("max", max).build();
    }

    /** A graph-wide fp32 scalar constant ({@code one}, {@code ramp_scale}). */
    private String scalar(String name) {
      if (!g.has(name)) {
        g.constant(name, F32);
      }
      return name;
    }

    private String batchNorm(String tag, String x) {
      String p = tag.equals("bn") ? "" : tag.substring(0, tag.length() - 2);
      long c = shape(x).dim(1);
      String scales = weight(p + "scales", c);
      String biases = weight(p + "biases", c);
      String mean = prefix + "." + p + "rolling_mean";
      String var = prefix + "." + p + "rolling_variance";
      g.constant(mean, F32, c);
      g.constant(var, F32, c);
      return op(
          tag,
          OpKind.BATCH_NORMALIZATION,
          Attributes.builder().put("epsilon", 1e-6).build(),
          x,
          scales,
          biases,
          mean,
          var);
    }

    /** The current tensor as an image. */
    private String image() {
      return image(current, "reshape");
    }

    /** {@code t} as {@code [N, C, H, W]}; a flat {@code [N, K]} becomes {@code [N, K, 1, 1]}. */
    private String image(String t, String tag) {
      Shape s = shape(t);
      if (s.rank() == 4) {
        return t;
      }
      if (s.rank() == 2) {
        return reshape(tag, t, s.dim(0), s.dim(1), 1, 1);
      }
      throw section.fail(null, "expects an image or a flat input, got " + s);
    }

    /** {@code t} as {@code [N, K]}. */
    private String flat(String t) {
      Shape s = shape(t);
      if (s.rank() == 2) {
        return t;
      }
      return flatten("flatten", t);
    }

    private String flatten(String tag, String t) {
      return op(tag, OpKind.FLATTEN, Attributes.builder().put("axis", 1L).build(), t);
    }

    private String reshape(String tag, String t, long... dims) {
      return op(tag, OpKind.RESHAPE, Attributes.builder().put("shape", dims).build(), t);
    }

    private String weight(String tag, long... dims) {
      String name = prefix + "." + tag;
      g.weight(name, F32, dims);
      return name;
    }

    private String op(String tag, OpKind kind, Attributes attrs, String... inputs) {
      return g.op(prefix + "." + tag, kind, attrs, inputs).name();
    }

    private Shape shape(String t) {
      return g.tensor(t).shape();
    }

    private void positive(String key, long value) {
      if (value < 1) {
        throw section.fail(key, key + " " + value + " must be >= 1");
      }
    }

    private static Attributes none() {
      return Attributes.empty();
    }
  }
}
