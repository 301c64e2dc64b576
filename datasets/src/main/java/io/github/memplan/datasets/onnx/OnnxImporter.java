package io.github.memplan.datasets.onnx;

import ai.onnx.proto.OnnxMl.AttributeProto;
import ai.onnx.proto.OnnxMl.GraphProto;
import ai.onnx.proto.OnnxMl.ModelProto;
import ai.onnx.proto.OnnxMl.NodeProto;
import ai.onnx.proto.OnnxMl.TensorProto;
import ai.onnx.proto.OnnxMl.TensorShapeProto;
import ai.onnx.proto.OnnxMl.TypeProto;
import ai.onnx.proto.OnnxMl.ValueInfoProto;
import com.google.protobuf.CodedInputStream;
import com.google.protobuf.InvalidProtocolBufferException;
import io.github.memplan.core.io.InputText;
import io.github.memplan.core.io.MappedFiles;
import io.github.memplan.core.ir.DType;
import io.github.memplan.core.ir.Graph;
import io.github.memplan.core.ir.Role;
import io.github.memplan.core.ir.TensorType;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Imports ONNX models ({@code .onnx} protobuf files, read with the generated classes {@code
 * ai.onnx.proto.OnnxMl} of {@code org.tribuo:tribuo-util-onnx}) into memplan {@link Graph}s with
 * static shapes, following the ONNX IR and operator specifications (https://onnx.ai/onnx/).
 *
 * <p>What the importer does, and where it departs from running the file as-is:
 *
 * <ul>
 *   <li><b>Order.</b> Nodes are topologically sorted (Kahn's algorithm, ties broken by file order),
 *       since some exporters write producers after their consumers.
 *   <li><b>Dynamic dims.</b> A graph input dim is dynamic when it is a {@code dim_param}, a {@code
 *       dim_value} of 0 or -1, or missing. {@code inputShapes} (e.g. {@code x=1,3,640,640}, see
 *       {@link #parseInputShapes}, whose dims must be positive) fixes an input's shape; it must
 *       keep the declared rank and every declared positive dim. (A dim of 0, an empty tensor as
 *       ONNX's own tests feed, is accepted here but not from the command line.)
 *   <li><b>Sizes.</b> No tensor may hold more than {@link TensorType#MAX_BYTES} bytes (1 TiB): an
 *       input shape, a stored tensor or an op result beyond it fails with one line naming it.
 *   <li><b>Constant operands.</b> Operands ONNX passes as tensors but memplan keeps as attributes
 *       (Reshape's shape, Slice's starts/ends/axes/steps, Resize's scales or sizes, Pad's pads,
 *       Squeeze/Unsqueeze/Reduce axes, Split's split, Expand's shape, Tile's repeats, Clip's
 *       bounds) are evaluated at import time, folding the shape sub-graphs that compute them
 *       (Shape, Gather, Unsqueeze, Concat, Slice, Cast, Range, ConstantOfShape, Expand, Equal,
 *       Where, integer arithmetic, ...). Nodes whose outputs are only used that way disappear;
 *       every other node stays a run-time op as the file wrote it, even when its inputs are all
 *       constant (no weight is folded into another weight, so parameter counts are the file's).
 *       Shape, Size, ConstantOfShape and Range have no memplan op kind: when a live op reads their
 *       result it becomes a {@link Role#CONSTANT} tensor.
 *   <li><b>Weights.</b> Initializers and {@code Constant} nodes are stored tensors. One that a live
 *       op reads becomes {@link Role#CONSTANT} when it is a scalar or an integer (16 bits or wider)
 *       or BOOL tensor, and a learned {@link Role#WEIGHT} otherwise (floating-point tensors and
 *       8-/4-bit quantized integer tensors of rank >= 1). For the BERT exports this counts the
 *       published parameters as weights and {@code position_ids} as a constant. Stored tensors no
 *       live op reads are left out.
 *   <li><b>Optional operands.</b> An absent optional input (an empty name) is left out of the op;
 *       where one is absent before a later one (LSTM's sequence_lens before initial_h and
 *       initial_c, as PyTorch exports it) the op records which inputs it has; an op whose kind
 *       cannot record it fails, naming the input. LSTM defines the outputs among Y, Y_h and Y_c
 *       that the node names.
 *   <li><b>Control flow.</b> An {@code If} whose condition is constant is replaced by its taken
 *       branch; any other {@code If} is unsupported ({@link RunTimeConditionException} names the
 *       graph inputs its condition depends on, whose values may fold it), as are {@code Loop} and
 *       {@code Scan}.
 *   <li><b>Domains.</b> Opset imports of other domains are tolerated; a node of another domain is
 *       unsupported when it is live.
 *   <li><b>Dead code.</b> Nodes no graph output depends on are dropped before anything about them
 *       is reported.
 * </ul>
 *
 * <p>Failures are one-line {@link IllegalArgumentException}s naming the source and node, e.g.
 * {@code model.onnx: node 'Conv_12' (Conv): input channels 3 != weight channels*group 4};
 * constructs memplan does not model throw its subclass {@link UnsupportedOnnxException}; tensors
 * whose shape cannot be made static are all listed by {@link NonStaticShapesException}, never
 * guessed, with every graph input without a static shape behind them.
 */
public final class OnnxImporter {
  private OnnxImporter() {}

  /**
   * Imports {@code file}.
   *
   * @param inputShapes static shapes for graph inputs, by name (may be empty)
   * @throws IOException when the file cannot be read
   * @throws IllegalArgumentException when the model is invalid or cannot be made static
   */
  public static Graph load(Path file, Map<String, long[]> inputShapes) throws IOException {
    return read(file, inputShapes, graphName(file.getFileName().toString())).graph();
  }

  /**
   * Imports a model read from {@code in}, naming it {@code sourceName} in messages and (without its
   * directories and {@code .onnx}) as the graph's name.
   */
  public static Graph load(InputStream in, String sourceName, Map<String, long[]> inputShapes)
      throws IOException {
    return read(in, sourceName, inputShapes, graphName(sourceName)).graph();
  }

  /**
   * Imports {@code file} with graph inputs bound to values: {@code inputValues} gives an input's
   * elements as text (e.g. {@code sr} = {@code ["16000"]}, see {@link #parseInputValues}), read as
   * the input's declared element type, in row-major order of its shape. Wherever a constant is
   * needed (an {@code If} condition, a shape operand) the bound value is used; ops that read the
   * input as data still read it at run time.
   *
   * @throws IOException when the file cannot be read
   * @throws IllegalArgumentException when the model is invalid, cannot be made static, or a value
   *     does not fit its input
   */
  public static Graph load(
      Path file, Map<String, long[]> inputShapes, Map<String, List<String>> inputValues)
      throws IOException {
    return read(file, inputShapes, inputValues, graphName(file.getFileName().toString())).graph();
  }

  /** Imports {@code file} into a graph named {@code graphName}, with the file's node count. */
  public static ImportedOnnxModel read(Path file, Map<String, long[]> inputShapes, String graphName)
      throws IOException {
    return read(file, inputShapes, Map.of(), graphName);
  }

  /**
   * Imports {@code file} into a graph named {@code graphName}, with inputs bound to values as
   * {@link #load(Path, Map, Map)} does.
   */
  public static ImportedOnnxModel read(
      Path file,
      Map<String, long[]> inputShapes,
      Map<String, List<String>> inputValues,
      String graphName)
      throws IOException {
    String source = file.toString();
    CodedInputStream cis = CodedInputStream.newInstance(MappedFiles.readOnly(file, "protobuf's"));
    // stored tensors point into the mapped file instead of being copied
    cis.enableAliasing(true);
    ModelProto model = parse(cis, source);
    Map<String, long[]> shapes = new LinkedHashMap<>(inputShapes);
    Map<String, OnnxValue> values = bindValues(model, source, shapes, inputValues);
    return importModel(model, source, shapes, values, graphName);
  }

  /**
   * The values of {@code texts} as tensors of their graph inputs' declared element types. The shape
   * of a value is its input's: the one {@code shapes} gives, else the declared one when it is
   * static; an input declared with rank 0 or 1 and no static shape takes a scalar or a vector of
   * the values given, and its shape is added to {@code shapes}.
   */
  static Map<String, OnnxValue> bindValues(
      ModelProto model,
      String source,
      Map<String, long[]> shapes,
      Map<String, List<String>> texts) {
    Map<String, OnnxValue> out = new LinkedHashMap<>();
    if (texts.isEmpty()) {
      return out;
    }
    GraphProto g = model.getGraph();
    Set<String> stored = new HashSet<>();
    g.getInitializerList().forEach(t -> stored.add(t.getName()));
    Map<String, ValueInfoProto> inputs = new LinkedHashMap<>();
    for (ValueInfoProto v : g.getInputList()) {
      if (!stored.contains(v.getName())) {
        inputs.put(v.getName(), v);
      }
    }
    for (Map.Entry<String, List<String>> e : texts.entrySet()) {
      String name = e.getKey();
      ValueInfoProto in = inputs.get(name);
      if (in == null || !in.getType().hasTensorType()) {
        throw new IllegalArgumentException(
            source
                + ": a value is given for '"
                + name
                + "', which is not a tensor graph input (inputs: "
                + String.join(", ", inputs.keySet())
                + ")");
      }
      String what = source + ": input '" + name + "'";
      TypeProto.Tensor type = in.getType().getTensorType();
      DType dtype = OnnxValue.dtypeOf(type.getElemType(), what);
      List<String> values = e.getValue();
      long[] dims = shapes.get(name);
      if (dims == null) {
        dims = staticDims(type);
        if (dims == null) {
          int rank = type.hasShape() ? type.getShape().getDimCount() : -1;
          if (rank != 0 && rank != 1) {
            throw new IllegalArgumentException(
                what + " has no static shape; give its shape too, e.g. " + name + "=d0,d1,...");
          }
          dims = rank == 0 ? new long[0] : new long[] {values.size()};
          shapes.put(name, dims);
        }
      }
      long count = 1;
      for (long d : dims) {
        // saturating: only a count equal to the values given matters
        count = d != 0 && count > Long.MAX_VALUE / d ? Long.MAX_VALUE : count * d;
      }
      if (count != values.size()) {
        throw new IllegalArgumentException(
            what
                + " has shape "
                + Arrays.toString(dims)
                + ", which takes "
                + count
                + " values; "
                + values.size()
                + " given");
      }
      out.put(name, parseValue(dtype, dims, values, what));
    }
    return out;
  }

  /** The declared dims when every one is a positive {@code dim_value}; otherwise null. */
  private static long[] staticDims(TypeProto.Tensor type) {
    if (!type.hasShape()) {
      return null;
    }
    List<TensorShapeProto.Dimension> ds = type.getShape().getDimList();
    long[] dims = new long[ds.size()];
    for (int k = 0; k < dims.length; k++) {
      TensorShapeProto.Dimension d = ds.get(k);
      if (!d.hasDimValue() || d.getDimValue() <= 0) {
        return null;
      }
      dims[k] = d.getDimValue();
    }
    return dims;
  }

  /** Values written as text, read as {@code dtype}; integers must fit the type's range. */
  private static OnnxValue parseValue(DType dtype, long[] dims, List<String> texts, String what) {
    if (dtype.isFloatingPoint()) {
      double[] v = new double[texts.size()];
      for (int i = 0; i < v.length; i++) {
        try {
          v[i] = Double.parseDouble(texts.get(i));
        } catch (NumberFormatException e) {
          throw new IllegalArgumentException(
              what + ": value '" + texts.get(i) + "' is not a " + dtype + " number", e);
        }
      }
      return OnnxValue.ofDoubles(dtype, dims, v);
    }
    long[] v = new long[texts.size()];
    for (int i = 0; i < v.length; i++) {
      String t = texts.get(i);
      if (dtype == DType.BOOL && (t.equals("true") || t.equals("false"))) {
        v[i] = t.equals("true") ? 1 : 0;
        continue;
      }
      try {
        v[i] = Long.parseLong(t);
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(
            what + ": value '" + t + "' is not an integer (the input is " + dtype + ")", e);
      }
      if (OnnxValue.wrap(dtype, v[i]) != v[i]) {
        throw new IllegalArgumentException(
            what + ": value " + t + " is out of the range of " + dtype);
      }
    }
    return OnnxValue.ofLongs(dtype, dims, v);
  }

  /** Imports a model read from {@code in} into a graph named {@code graphName}. */
  public static ImportedOnnxModel read(
      InputStream in, String sourceName, Map<String, long[]> inputShapes, String graphName)
      throws IOException {
    return importModel(
        parse(CodedInputStream.newInstance(in), sourceName),
        sourceName,
        inputShapes,
        Map.of(),
        graphName);
  }

  static ModelProto parse(CodedInputStream cis, String source) throws IOException {
    // explicit: older protobuf-java runtimes default to 64 MiB (3.25 to 2 GiB), and MiniLM is
    // 90 MB, bge-small 133 MB
    cis.setSizeLimit(Integer.MAX_VALUE);
    try {
      return ModelProto.parseFrom(cis);
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalArgumentException(
          source + ": not a readable ONNX model (" + e.getMessage() + ")", e);
    }
  }

  /**
   * Imports a parsed model; {@code inputValues} binds graph inputs to known values wherever a
   * constant is needed (the inputs stay inputs for ops that read them as data).
   */
  static ImportedOnnxModel importModel(
      ModelProto model,
      String source,
      Map<String, long[]> inputShapes,
      Map<String, OnnxValue> inputValues,
      String graphName) {
    if (model.hasGraph()) {
      printableNames(model.getGraph(), source);
    }
    Graph g = new ImportPipeline(source, inputShapes, inputValues, graphName).run(model);
    return new ImportedOnnxModel(g, countNodes(model.getGraph()));
  }

  /**
   * Fails when a name in {@code g} (of a tensor, node, op, attribute or symbolic dim, recursively
   * through subgraphs) holds a line break or another control character: the messages that name it
   * would span lines, and no real model has one.
   */
  static void printableNames(GraphProto g, String source) {
    printable(g.getName(), "graph name", source);
    for (ValueInfoProto v : g.getInputList()) {
      printable(v, source);
    }
    for (ValueInfoProto v : g.getOutputList()) {
      printable(v, source);
    }
    for (ValueInfoProto v : g.getValueInfoList()) {
      printable(v, source);
    }
    for (TensorProto t : g.getInitializerList()) {
      printable(t.getName(), "initializer name", source);
    }
    for (NodeProto node : g.getNodeList()) {
      printable(node.getName(), "node name", source);
      printable(node.getOpType(), "op type", source);
      printable(node.getDomain(), "op domain", source);
      for (String in : node.getInputList()) {
        printable(in, "node input", source);
      }
      for (String out : node.getOutputList()) {
        printable(out, "node output", source);
      }
      for (AttributeProto a : node.getAttributeList()) {
        printable(a.getName(), "attribute name", source);
        if (a.hasG()) {
          printableNames(a.getG(), source);
        }
        for (GraphProto sub : a.getGraphsList()) {
          printableNames(sub, source);
        }
      }
    }
  }

  private static void printable(ValueInfoProto v, String source) {
    printable(v.getName(), "value name", source);
    if (v.getType().hasTensorType()) {
      for (TensorShapeProto.Dimension d : v.getType().getTensorType().getShape().getDimList()) {
        printable(d.getDimParam(), "symbolic dim of '" + v.getName() + "'", source);
      }
    }
  }

  private static void printable(String name, String what, String source) {
    if (InputText.hasControl(name)) {
      throw new IllegalArgumentException(
          source
              + ": "
              + what
              + " "
              + InputText.quote(name)
              + " holds a line break or control"
              + " character");
    }
  }

  /** Nodes of {@code g}, counted recursively through the graphs of node attributes. */
  static int countNodes(GraphProto g) {
    int n = 0;
    for (NodeProto node : g.getNodeList()) {
      n++;
      for (AttributeProto a : node.getAttributeList()) {
        if (a.hasG()) {
          n += countNodes(a.getG());
        }
        for (GraphProto sub : a.getGraphsList()) {
          n += countNodes(sub);
        }
      }
    }
    return n;
  }

  /**
   * Parses input shapes written as {@code name=d0,d1,...} entries separated by {@code ;} or
   * whitespace, e.g. {@code "input_ids=1,128 attention_mask=1,128"}; a scalar is {@code name=}.
   */
  public static Map<String, long[]> parseInputShapes(String spec) {
    Map<String, long[]> out = new LinkedHashMap<>();
    entries(spec, "input shape", "d0,d1,...", "x=1,3,640,640")
        .forEach(
            (name, dims) -> {
              long[] shape = new long[dims.size()];
              for (int k = 0; k < shape.length; k++) {
                try {
                  shape[k] = Long.parseLong(dims.get(k));
                } catch (NumberFormatException e) {
                  throw new IllegalArgumentException(
                      "input shape of '" + name + "' has a dim that is not an integer", e);
                }
                if (shape[k] <= 0) {
                  throw new IllegalArgumentException(
                      "input shape of '"
                          + name
                          + "' has dim "
                          + k
                          + " = "
                          + shape[k]
                          + "; dims must be positive");
                }
              }
              out.put(name, shape);
            });
    return out;
  }

  /**
   * Parses input values written as {@code name=v0,v1,...} entries separated by {@code ;} or
   * whitespace, e.g. {@code "sr=16000"}; the values stay text until the input's element type is
   * known ({@link #load(Path, Map, Map)}).
   */
  public static Map<String, List<String>> parseInputValues(String spec) {
    return entries(spec, "input value", "v0,v1,...", "sr=16000");
  }

  private static Map<String, List<String>> entries(
      String spec, String what, String form, String example) {
    Map<String, List<String>> out = new LinkedHashMap<>();
    for (String entry : spec.trim().split("[;\\s]+")) {
      if (entry.isEmpty()) {
        continue;
      }
      int eq = entry.lastIndexOf('=');
      if (eq <= 0) {
        throw new IllegalArgumentException(
            what + " '" + entry + "' should be name=" + form + " (e.g. " + example + ")");
      }
      String name = entry.substring(0, eq);
      String list = entry.substring(eq + 1);
      List<String> parts = list.isEmpty() ? List.of() : Arrays.asList(list.split(",", -1));
      if (out.put(name, List.copyOf(parts)) != null) {
        throw new IllegalArgumentException(what + " of '" + name + "' is given twice");
      }
    }
    return out;
  }

  /** {@code models/ch_PP-OCRv4_det_infer.onnx} gives {@code ch_PP-OCRv4_det_infer}. */
  static String graphName(String source) {
    String base = source.replace('\\', '/');
    base = base.substring(base.lastIndexOf('/') + 1);
    return base.endsWith(".onnx") ? base.substring(0, base.length() - 5) : base;
  }
}
