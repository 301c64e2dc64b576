package io.github.memplan.datasets.zoo;

import io.github.memplan.core.ir.Attributes;
import io.github.memplan.core.ir.DType;
import io.github.memplan.core.ir.Graph;
import io.github.memplan.core.ir.OpKind;
import io.github.memplan.core.ir.Shape;
import java.util.List;

/**
 * Layer-level helpers over a {@link Graph.Builder}: each call adds the layer's parameters and ops
 * and returns the name of its output tensor. Parameters are named after the layer as in PyTorch
 * state dicts ({@code <layer>.weight}, {@code <layer>.bias}, {@code <layer>.running_mean}, ...);
 * single-op layers name their op and output tensor after the layer.
 *
 * <p>Learned parameters are {@link Graph.Builder#weight weights}; BatchNorm running statistics are
 * {@link Graph.Builder#constant constants}, so {@link Graph#parameterCount()} counts what PyTorch's
 * {@code sum(p.numel() for p in model.parameters())} counts.
 */
public final class Layers {
  private final Graph.Builder b;
  private final DType dtype;

  /** Layers whose parameters have element type {@code dtype}. */
  public Layers(Graph.Builder builder, DType dtype) {
    this.b = builder;
    this.dtype = dtype;
  }

  public Graph.Builder builder() {
    return b;
  }

  /** The shape of a tensor defined so far. */
  public Shape shape(String tensor) {
    return b.tensor(tensor).shape();
  }

  /**
   * A square 2-D convolution with {@code [out, in/group, k, k]} weights and symmetric padding.
   *
   * @param bias whether the layer has a {@code [out]} bias
   */
  public String conv(
      String name,
      String x,
      long outChannels,
      long kernel,
      long stride,
      long pad,
      long group,
      boolean bias) {
    return conv(name, x, outChannels, kernel, kernel, stride, pad, pad, group, bias);
  }

  /**
   * A 2-D convolution with a {@code kh x kw} kernel ({@code [out, in/group, kh, kw]} weights), the
   * same stride on both axes and symmetric padding {@code padH} (top and bottom) and {@code padW}
   * (left and right), as PyTorch's {@code Conv2d(kernel_size=(kh, kw), padding=(padH, padW))}.
   *
   * @param bias whether the layer has a {@code [out]} bias
   */
  public String conv(
      String name,
      String x,
      long outChannels,
      long kh,
      long kw,
      long stride,
      long padH,
      long padW,
      long group,
      boolean bias) {
    long in = shape(x).dim(1);
    String w = name + ".weight";
    b.weight(w, dtype, outChannels, in / group, kh, kw);
    Attributes attrs =
        Attributes.builder()
            .put("kernel_shape", kh, kw)
            .put("strides", stride, stride)
            .put("pads", padH, padW, padH, padW)
            .put("dilations", 1L, 1L)
            .put("group", group)
            .build();
    if (!bias) {
      return op(name, OpKind.CONV, attrs, x, w);
    }
    String bs = name + ".bias";
    b.weight(bs, dtype, outChannels);
    return op(name, OpKind.CONV, attrs, x, w, bs);
  }

  /**
   * A 1-D convolution over {@code [N, C, L]} with {@code [out, in, k]} weights, symmetric padding
   * and a {@code [out]} bias (PyTorch's {@code nn.Conv1d}).
   */
  public String conv1d(
      String name, String x, long outChannels, long kernel, long stride, long pad) {
    long in = shape(x).dim(1);
    String w = name + ".weight";
    String bs = name + ".bias";
    b.weight(w, dtype, outChannels, in, kernel);
    b.weight(bs, dtype, outChannels);
    Attributes attrs =
        Attributes.builder()
            .put("kernel_shape", new long[] {kernel})
            .put("strides", new long[] {stride})
            .put("pads", pad, pad)
            .put("dilations", new long[] {1})
            .put("group", 1L)
            .build();
    return op(name, OpKind.CONV, attrs, x, w, bs);
  }

  /**
   * A square 2-D transposed convolution without padding, weights {@code [in, out, k, k]} (ONNX's
   * and PyTorch's layout) and a {@code [out]} bias when {@code bias}: PyTorch's {@code
   * ConvTranspose2d(in, out, kernel, stride)}.
   */
  public String convTranspose(
      String name, String x, long outChannels, long kernel, long stride, boolean bias) {
    long in = shape(x).dim(1);
    String w = name + ".weight";
    b.weight(w, dtype, in, outChannels, kernel, kernel);
    Attributes attrs =
        Attributes.builder()
            .put("kernel_shape", kernel, kernel)
            .put("strides", stride, stride)
            .build();
    if (!bias) {
      return op(name, OpKind.CONV_TRANSPOSE, attrs, x, w);
    }
    String bs = name + ".bias";
    b.weight(bs, dtype, outChannels);
    return op(name, OpKind.CONV_TRANSPOSE, attrs, x, w, bs);
  }

  /**
   * Inference BatchNormalization over dim 1: learned {@code weight} and {@code bias}, constant
   * {@code running_mean} and {@code running_var}; epsilon 1e-5 (PyTorch's default). In darknet's
   * terms {@code weight} is the scale and {@code bias} the conv layer's bias.
   */
  public String batchNorm(String name, String x) {
    return batchNorm(name, x, 1e-5);
  }

  /** {@link #batchNorm(String, String)} with another epsilon. */
  public String batchNorm(String name, String x, double epsilon) {
    long c = shape(x).dim(1);
    b.weight(name + ".weight", dtype, c);
    b.weight(name + ".bias", dtype, c);
    b.constant(name + ".running_mean", dtype, c);
    b.constant(name + ".running_var", dtype, c);
    return op(
        name,
        OpKind.BATCH_NORMALIZATION,
        Attributes.builder().put("epsilon", epsilon).build(),
        x,
        name + ".weight",
        name + ".bias",
        name + ".running_mean",
        name + ".running_var");
  }

  public String relu(String name, String x) {
    return op(name, OpKind.RELU, Attributes.empty(), x);
  }

  /** ReLU6 as ONNX exports it: Clip to [0, 6]. */
  public String relu6(String name, String x) {
    return op(name, OpKind.CLIP, Attributes.builder().put("min", 0.0).put("max", 6.0).build(), x);
  }

  public String leakyRelu(String name, String x, double alpha) {
    return op(name, OpKind.LEAKY_RELU, Attributes.builder().put("alpha", alpha).build(), x);
  }

  public String sigmoid(String name, String x) {
    return op(name, OpKind.SIGMOID, Attributes.empty(), x);
  }

  /** SiLU, also called swish: {@code x * sigmoid(x)}. */
  public String silu(String name, String x) {
    return op(name, OpKind.SILU, Attributes.empty(), x);
  }

  public String add(String name, String x, String y) {
    return op(name, OpKind.ADD, Attributes.empty(), x, y);
  }

  public String sub(String name, String x, String y) {
    return op(name, OpKind.SUB, Attributes.empty(), x, y);
  }

  public String mul(String name, String x, String y) {
    return op(name, OpKind.MUL, Attributes.empty(), x, y);
  }

  public String div(String name, String x, String y) {
    return op(name, OpKind.DIV, Attributes.empty(), x, y);
  }

  public String pow(String name, String x, String y) {
    return op(name, OpKind.POW, Attributes.empty(), x, y);
  }

  /** Square max pooling with symmetric padding, floor rounding. */
  public String maxPool(String name, String x, long kernel, long stride, long pad) {
    return maxPool(name, x, kernel, stride, pad, false);
  }

  /**
   * Square max pooling with symmetric padding; {@code ceilMode} rounds the output size up, as
   * PyTorch's {@code MaxPool2d(ceil_mode=True)}.
   */
  public String maxPool(
      String name, String x, long kernel, long stride, long pad, boolean ceilMode) {
    return op(name, OpKind.MAX_POOL, pooling(kernel, stride, pad, ceilMode).build(), x);
  }

  /**
   * Square average pooling with symmetric padding, floor rounding; {@code countIncludePad} divides
   * by the full window (PyTorch's default) rather than by the unpadded part of it.
   */
  public String avgPool(
      String name, String x, long kernel, long stride, long pad, boolean countIncludePad) {
    return op(
        name,
        OpKind.AVERAGE_POOL,
        pooling(kernel, stride, pad, false)
            .put("count_include_pad", countIncludePad ? 1L : 0L)
            .build(),
        x);
  }

  /**
   * 2-D max pooling with a rectangular window: {@code kernel}, {@code strides} as {height, width},
   * {@code pads} as ONNX's {top, left, bottom, right}; floor rounding.
   */
  public String maxPool(String name, String x, long[] kernel, long[] strides, long[] pads) {
    return op(
        name,
        OpKind.MAX_POOL,
        Attributes.builder()
            .put("kernel_shape", kernel)
            .put("strides", strides)
            .put("pads", pads)
            .build(),
        x);
  }

  private static Attributes.Builder pooling(long kernel, long stride, long pad, boolean ceilMode) {
    return Attributes.builder()
        .put("kernel_shape", kernel, kernel)
        .put("strides", stride, stride)
        .put("pads", pad, pad, pad, pad)
        .put("ceil_mode", ceilMode ? 1L : 0L);
  }

  public String globalAvgPool(String name, String x) {
    return op(name, OpKind.GLOBAL_AVERAGE_POOL, Attributes.empty(), x);
  }

  /** Flatten from dim 1: {@code [N, ...] -> [N, prod(...)]}. */
  public String flatten(String name, String x) {
    return op(name, OpKind.FLATTEN, Attributes.builder().put("axis", 1L).build(), x);
  }

  /**
   * A fully connected layer as one Gemm with transB=1: weight {@code [out, in]} (PyTorch's layout)
   * and bias {@code [out]}; {@code x} is {@code [N, in]}.
   */
  public String gemm(String name, String x, long outFeatures) {
    long in = shape(x).dim(-1);
    b.weight(name + ".weight", dtype, outFeatures, in);
    b.weight(name + ".bias", dtype, outFeatures);
    return op(
        name,
        OpKind.GEMM,
        Attributes.builder().put("transB", 1L).build(),
        x,
        name + ".weight",
        name + ".bias");
  }

  /**
   * A fully connected layer on the last dim of any rank, as MatMul then Add (how ONNX exports
   * linear layers on 3-D activations): weight {@code [in, out]}, bias {@code [out]}. The MatMul op
   * is {@code <name>.matmul}, the Add op (and the output) {@code <name>}.
   */
  public String linear(String name, String x, long outFeatures) {
    return linear(name, x, outFeatures, true);
  }

  /**
   * {@link #linear(String, String, long)}, optionally without bias: then the layer is the single
   * MatMul op {@code <name>}.
   */
  public String linear(String name, String x, long outFeatures, boolean bias) {
    long in = shape(x).dim(-1);
    b.weight(name + ".weight", dtype, in, outFeatures);
    if (!bias) {
      return matmul(name, x, name + ".weight");
    }
    b.weight(name + ".bias", dtype, outFeatures);
    String mm = matmul(name + ".matmul", x, name + ".weight");
    return add(name, mm, name + ".bias");
  }

  /** LayerNormalization over the last dim with learned {@code weight} and {@code bias}. */
  public String layerNorm(String name, String x, double epsilon) {
    long d = shape(x).dim(-1);
    b.weight(name + ".weight", dtype, d);
    b.weight(name + ".bias", dtype, d);
    return op(
        name,
        OpKind.LAYER_NORMALIZATION,
        Attributes.builder().put("axis", -1L).put("epsilon", epsilon).build(),
        x,
        name + ".weight",
        name + ".bias");
  }

  public String matmul(String name, String x, String y) {
    return op(name, OpKind.MAT_MUL, Attributes.empty(), x, y);
  }

  public String softmax(String name, String x, long axis) {
    return op(name, OpKind.SOFTMAX, Attributes.builder().put("axis", axis).build(), x);
  }

  /** Exact (erf) GELU. */
  public String gelu(String name, String x) {
    return op(name, OpKind.GELU, Attributes.empty(), x);
  }

  /** GELU's tanh approximation (ONNX Gelu with {@code approximate="tanh"}). */
  public String geluTanh(String name, String x) {
    return op(name, OpKind.GELU, Attributes.builder().put("approximate", "tanh").build(), x);
  }

  public String tanh(String name, String x) {
    return op(name, OpKind.TANH, Attributes.empty(), x);
  }

  public String gather(String name, String data, String indices, long axis) {
    return op(name, OpKind.GATHER, Attributes.builder().put("axis", axis).build(), data, indices);
  }

  /** An embedding table {@code <name>.weight [rows, dim]} looked up with {@code indices}. */
  public String embedding(String name, String indices, long rows, long dim) {
    b.weight(name + ".weight", dtype, rows, dim);
    return gather(name, name + ".weight", indices, 0);
  }

  public String concat(String name, long axis, String... inputs) {
    return op(name, OpKind.CONCAT, Attributes.builder().put("axis", axis).build(), inputs);
  }

  public String squeeze(String name, String x, long... axes) {
    return op(name, OpKind.SQUEEZE, Attributes.builder().put("axes", axes).build(), x);
  }

  /**
   * An ONNX LSTM over {@code x [seq, batch, input]} with zero initial state: weights {@code
   * <name>.W [dirs, 4*hidden, input]}, {@code <name>.R [dirs, 4*hidden, hidden]} and {@code
   * <name>.B [dirs, 8*hidden]} (input and recurrent biases, as PyTorch's {@code bias_ih} and {@code
   * bias_hh}); output {@code [seq, dirs, batch, hidden]}.
   *
   * @param bidirectional two directions (forward and reverse) instead of one
   */
  public String lstm(String name, String x, long hidden, boolean bidirectional) {
    long dirs = bidirectional ? 2 : 1;
    long in = shape(x).dim(-1);
    b.weight(name + ".W", dtype, dirs, 4 * hidden, in);
    b.weight(name + ".R", dtype, dirs, 4 * hidden, hidden);
    b.weight(name + ".B", dtype, dirs, 8 * hidden);
    return op(
        name,
        OpKind.LSTM,
        Attributes.builder()
            .put("hidden_size", hidden)
            .put("direction", bidirectional ? "bidirectional" : "forward")
            .build(),
        x,
        name + ".W",
        name + ".R",
        name + ".B");
  }

  public String concat(String name, long axis, List<String> inputs) {
    return concat(name, axis, inputs.toArray(String[]::new));
  }

  /** Elements {@code [start, end)} of {@code x} along {@code axis}. */
  public String slice(String name, String x, long axis, long start, long end) {
    return slice(name, x, new long[] {axis}, new long[] {start}, new long[] {end});
  }

  /** Elements {@code [starts[i], ends[i])} of {@code x} along each {@code axes[i]}. */
  public String slice(String name, String x, long[] axes, long[] starts, long[] ends) {
    return op(
        name,
        OpKind.SLICE,
        Attributes.builder().put("axes", axes).put("starts", starts).put("ends", ends).build(),
        x);
  }

  /**
   * Nearest-neighbour upsampling of the two spatial dims of an NCHW tensor by an integer {@code
   * factor}: ONNX Resize with scales {@code [1, 1, factor, factor]}, as PyTorch exports {@code
   * nn.Upsample(scale_factor=factor, mode='nearest')}.
   */
  public String upsampleNearest(String name, String x, long factor) {
    double f = factor;
    return op(
        name,
        OpKind.RESIZE,
        Attributes.builder().put("mode", "nearest").put("scales", 1.0, 1.0, f, f).build(),
        x);
  }

  public String reshape(String name, String x, long... shape) {
    return op(name, OpKind.RESHAPE, Attributes.builder().put("shape", shape).build(), x);
  }

  public String transpose(String name, String x, long... perm) {
    return op(name, OpKind.TRANSPOSE, Attributes.builder().put("perm", perm).build(), x);
  }

  /** Adds a single-output op named {@code name} and returns its output's name. */
  public String op(String name, OpKind kind, Attributes attrs, String... inputs) {
    return b.op(name, kind, attrs, inputs).name();
  }
}
