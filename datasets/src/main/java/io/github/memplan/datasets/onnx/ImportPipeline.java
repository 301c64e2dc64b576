package io.github.memplan.datasets.onnx;

import ai.onnx.proto.OnnxMl.AttributeProto;
import ai.onnx.proto.OnnxMl.GraphProto;
import ai.onnx.proto.OnnxMl.ModelProto;
import ai.onnx.proto.OnnxMl.NodeProto;
import ai.onnx.proto.OnnxMl.OperatorSetIdProto;
import ai.onnx.proto.OnnxMl.TensorProto;
import ai.onnx.proto.OnnxMl.TensorShapeProto;
import ai.onnx.proto.OnnxMl.TypeProto;
import ai.onnx.proto.OnnxMl.ValueInfoProto;
import io.github.memplan.core.ir.Attributes;
import io.github.memplan.core.ir.DType;
import io.github.memplan.core.ir.Graph;
import io.github.memplan.core.ir.Op;
import io.github.memplan.core.ir.OpKind;
import io.github.memplan.core.ir.Role;
import io.github.memplan.core.ir.Shape;
import io.github.memplan.core.ir.ShapeInference;
import io.github.memplan.core.ir.TensorType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * One import of an ONNX model into a {@link Graph}; see {@link OnnxImporter} for the rules. Three
 * passes:
 *
 * <ol>
 *   <li>Analysis, in topological order (Kahn's algorithm, ties broken by file order), inlining the
 *       taken branch of every {@code If} whose condition is constant: each node is translated to a
 *       memplan op and its output types inferred, with the constant operands it needs (shapes,
 *       axes, sizes) evaluated on demand from stored tensors and from the nodes that compute them.
 *       Failures are recorded on the node's outputs, not thrown, so dead code cannot fail an
 *       import.
 *   <li>Liveness, backwards from the graph outputs through data operands only: a node lives when a
 *       live node reads one of its outputs as data. Nodes whose outputs only feed constant operands
 *       are thereby folded away.
 *   <li>Emission of the live nodes into a {@link Graph.Builder}, after checking that no live tensor
 *       carries an error or a non-static shape.
 * </ol>
 */
final class ImportPipeline {
  private static final Set<String> FOLD_ONLY = Set.of("Shape", "Size", "ConstantOfShape", "Range");
  private static final int MAX_LISTED = 10;

  enum Source {
    INPUT,
    STORED,
    NODE
  }

  /** What the import knows about one tensor. */
  static final class Info {
    final String name;
    final Source source;
    DType dtype;

    /** Dims when the shape is static. */
    long[] dims;

    /** Why the shape is not static; null when it is. */
    String dynamic;

    /** A graph input's declared dims (-1 where dynamic); null when it declares no shape. */
    long[] declared;

    /** The graph inputs without a static shape that make this shape not static. */
    Set<String> dynamicInputs = Set.of();

    /** A deferred failure, thrown if the tensor turns out to be live. */
    RuntimeException error;

    TensorProto stored;
    FlatNode producer;
    int outputIndex;
    OnnxValue bound;

    /** Computed by a fold-only node: becomes a constant tensor when a live op reads it. */
    boolean folded;

    /** The value may be computed (all inputs are constants the folder handles). */
    boolean foldable;

    OnnxValue value;
    boolean valueDone;

    Info(String name, Source source) {
      this.name = name;
      this.source = source;
    }

    TensorType type() {
      return new TensorType(Shape.of(dims), dtype);
    }
  }

  /** One node after inlining, in topological order. */
  static final class FlatNode {
    final NodeProto proto;
    final String opName;
    final List<String> inputs;
    final List<String> outputs;

    /** The memplan op, when the node translates to one and its shapes are known. */
    Op op;

    boolean foldOnly;

    /** Input indices read as data (all present inputs of nodes that failed). */
    List<Integer> dataInputs = List.of();

    boolean live;

    FlatNode(NodeProto proto, String opName, List<String> inputs, List<String> outputs) {
      this.proto = proto;
      this.opName = opName;
      this.inputs = inputs;
      this.outputs = outputs;
    }

    String label() {
      return "node '" + opName + "' (" + proto.getOpType() + ")";
    }
  }

  /** Names defined in one graph body; inlined branches rename what collides with outer names. */
  private static final class Scope {
    final Scope parent;
    final Map<String, String> names = new HashMap<>();

    Scope(Scope parent) {
      this.parent = parent;
    }

    String resolve(String raw) {
      for (Scope s = this; s != null; s = s.parent) {
        String n = s.names.get(raw);
        if (n != null) {
          return n;
        }
      }
      return raw;
    }
  }

  private final String source;
  private final Map<String, long[]> inputShapes;
  private final Map<String, OnnxValue> inputValues;
  private final String graphName;
  private int opset;
  private final Map<String, Info> infos = new HashMap<>();
  private final List<FlatNode> nodes = new ArrayList<>();
  private final Set<String> opNames = new HashSet<>();
  private final List<String> graphInputs = new ArrayList<>();
  private final Set<String> graphOutputNames = new HashSet<>();

  /** Tensors a graph output depends on through data operands (set by the liveness pass). */
  private Set<String> liveTensors = Set.of();

  ImportPipeline(
      String source,
      Map<String, long[]> inputShapes,
      Map<String, OnnxValue> inputValues,
      String graphName) {
    this.source = source;
    this.inputShapes = new LinkedHashMap<>(inputShapes);
    this.inputValues = new LinkedHashMap<>(inputValues);
    this.graphName = graphName;
  }

  Graph run(ModelProto model) {
    if (!model.hasGraph()) {
      throw fail("the model has no graph");
    }
    opset = defaultOpset(model);
    GraphProto g = model.getGraph();
    Scope top = new Scope(null);
    for (TensorProto t : g.getInitializerList()) {
      defineStored(top, t.getName(), t);
    }
    for (String name : inputShapes.keySet()) {
      if (g.getInputList().stream().noneMatch(v -> v.getName().equals(name))
          || infos.containsKey(name)) {
        throw fail(
            "an input shape is given for '"
                + name
                + "', which is not a graph input (inputs: "
                + g.getInputList().stream()
                    .map(ValueInfoProto::getName)
                    .filter(n -> !infos.containsKey(n))
                    .collect(Collectors.joining(", "))
                + ")");
      }
    }
    for (ValueInfoProto in : g.getInputList()) {
      if (!infos.containsKey(in.getName())) {
        defineInput(top, in);
      }
    }
    for (ValueInfoProto out : g.getOutputList()) {
      graphOutputNames.add(out.getName());
    }
    schedule(g.getNodeList(), top);
    List<String> outputs = new ArrayList<>();
    for (ValueInfoProto out : g.getOutputList()) {
      String resolved = top.resolve(out.getName());
      if (!infos.containsKey(resolved)) {
        throw fail(
            "graph output '" + out.getName() + "' is produced by no node, initializer or input");
      }
      outputs.add(resolved);
    }
    markLive(outputs);
    check(outputs);
    try {
      return emit(outputs);
    } catch (IllegalArgumentException e) {
      // the IR builder's own checks (a graph without outputs, say) do not know the file
      String m = String.valueOf(e.getMessage());
      if (m.startsWith(source + ":")) {
        throw e;
      }
      throw new IllegalArgumentException(source + ": " + m, e);
    }
  }

  private int defaultOpset(ModelProto model) {
    for (OperatorSetIdProto o : model.getOpsetImportList()) {
      if (isDefaultDomain(o.getDomain())) {
        return (int) o.getVersion();
      }
    }
    // a model of other domains only (training ops, ML ops) fails when a default-domain node lives
    return -1;
  }

  private static boolean isDefaultDomain(String domain) {
    return domain.isEmpty() || domain.equals("ai.onnx");
  }

  // ---------------------------------------------------------------- definitions

  private String define(Scope scope, String raw) {
    String name = raw;
    for (int k = 2; infos.containsKey(name); k++) {
      name = raw + "~" + k;
    }
    scope.names.put(raw, name);
    return name;
  }

  private void defineStored(Scope scope, String raw, TensorProto t) {
    String name = define(scope, raw);
    Info i = new Info(name, Source.STORED);
    i.stored = t;
    infos.put(name, i);
    try {
      i.dtype = OnnxValue.dtypeOf(t.getDataType(), "tensor '" + raw + "'");
      long[] dims = t.getDimsList().stream().mapToLong(Long::longValue).toArray();
      for (long d : dims) {
        if (d < 0) {
          throw new IllegalArgumentException(
              "tensor '" + raw + "' has negative dims " + Arrays.toString(dims));
        }
      }
      TensorType.checkBytes("tensor '" + raw + "'", Shape.of(dims), i.dtype);
      i.dims = dims;
      i.foldable = Shape.of(dims).elements() <= OnnxValue.MAX_ELEMENTS;
    } catch (IllegalArgumentException e) {
      i.error = prefixed(e, "");
    }
  }

  private void defineInput(Scope scope, ValueInfoProto in) {
    String raw = in.getName();
    String name = define(scope, raw);
    Info i = new Info(name, Source.INPUT);
    infos.put(name, i);
    graphInputs.add(name);
    i.bound = inputValues.get(raw);
    i.foldable = i.bound != null;
    TypeProto type = in.getType();
    if (!type.hasTensorType()) {
      i.error = new UnsupportedOnnxException(source + ": input '" + raw + "' is not a tensor");
      return;
    }
    try {
      i.dtype = OnnxValue.dtypeOf(type.getTensorType().getElemType(), "input '" + raw + "'");
    } catch (UnsupportedOnnxException e) {
      i.error = prefixed(e, "");
      return;
    }
    long[] declared = null;
    if (type.getTensorType().hasShape()) {
      List<TensorShapeProto.Dimension> ds = type.getTensorType().getShape().getDimList();
      declared = new long[ds.size()];
      for (int k = 0; k < declared.length; k++) {
        TensorShapeProto.Dimension d = ds.get(k);
        // dynamic: dim_param, dim_value 0, dim_value -1 (PaddleOCR exports) or nothing
        declared[k] = d.hasDimValue() && d.getDimValue() > 0 ? d.getDimValue() : -1;
      }
    }
    long[] given = inputShapes.get(raw);
    if (given != null) {
      if (declared != null && declared.length != given.length) {
        throw fail(
            "input '"
                + raw
                + "' has rank "
                + declared.length
                + " but the input shape "
                + Arrays.toString(given)
                + " has rank "
                + given.length);
      }
      for (int k = 0; k < given.length; k++) {
        if (given[k] < 0) {
          throw fail("input shape " + Arrays.toString(given) + " of '" + raw + "' is negative");
        }
        if (declared != null && declared[k] >= 0 && declared[k] != given[k]) {
          throw fail(
              "input '"
                  + raw
                  + "' declares dim "
                  + k
                  + " = "
                  + declared[k]
                  + " but the input shape gives "
                  + given[k]);
        }
      }
      i.dims = given.clone();
    } else if (declared != null && Arrays.stream(declared).allMatch(d -> d >= 0)) {
      i.dims = declared;
    } else {
      NonStaticShapesException.DynamicInput d =
          new NonStaticShapesException.DynamicInput(raw, declared);
      i.declared = declared;
      i.dynamicInputs = Set.of(raw);
      i.dynamic =
          NonStaticShapesException.describe(List.of(d))
              + "; give its shape, e.g. "
              + d.example("d");
    }
    if (i.dims != null) {
      try {
        TensorType.checkBytes("input '" + raw + "'", Shape.of(i.dims), i.dtype);
      } catch (IllegalArgumentException e) {
        throw fail(e.getMessage());
      }
    }
    if (i.bound != null && i.dims != null && !Arrays.equals(i.bound.dims(), i.dims)) {
      throw fail(
          "the value bound to input '"
              + raw
              + "' has dims "
              + Arrays.toString(i.bound.dims())
              + ", not "
              + Arrays.toString(i.dims));
    }
  }

  // ---------------------------------------------------------------- topological order

  /**
   * Visits {@code list} in topological order: Kahn's algorithm over the edges inside the list
   * (names read from outer scopes are defined already), smallest file index first among the ready.
   */
  private void schedule(List<NodeProto> list, Scope scope) {
    int n = list.size();
    Map<String, Integer> producer = new HashMap<>();
    for (int i = 0; i < n; i++) {
      for (String out : list.get(i).getOutputList()) {
        if (out.isEmpty()) {
          continue;
        }
        Integer prev = producer.put(out, i);
        if (prev != null) {
          throw fail(
              "tensor '"
                  + out
                  + "' is defined by two nodes, "
                  + rawLabel(list.get(prev))
                  + " and "
                  + rawLabel(list.get(i)));
        }
      }
    }
    List<List<Integer>> successors = new ArrayList<>();
    int[] indegree = new int[n];
    for (int i = 0; i < n; i++) {
      successors.add(new ArrayList<>());
    }
    for (int i = 0; i < n; i++) {
      NodeProto node = list.get(i);
      Set<Integer> preds = new LinkedHashSet<>();
      for (String r : reads(node)) {
        Integer p = producer.get(r);
        if (p != null) {
          preds.add(p);
        } else if (!infos.containsKey(scope.resolve(r))) {
          throw fail(rawLabel(node) + " reads '" + r + "', which nothing defines before it");
        }
      }
      for (int p : preds) {
        successors.get(p).add(i);
        indegree[i]++;
      }
    }
    PriorityQueue<Integer> ready = new PriorityQueue<>();
    for (int i = 0; i < n; i++) {
      if (indegree[i] == 0) {
        ready.add(i);
      }
    }
    int done = 0;
    while (!ready.isEmpty()) {
      int i = ready.poll();
      visit(list.get(i), scope);
      done++;
      for (int s : successors.get(i)) {
        if (--indegree[s] == 0) {
          ready.add(s);
        }
      }
    }
    if (done < n) {
      for (int i = 0; i < n; i++) {
        if (indegree[i] > 0) {
          throw fail(rawLabel(list.get(i)) + " is part of a cycle");
        }
      }
    }
  }

  /** The names a node reads: its inputs, and what its subgraphs read from outside themselves. */
  private static Set<String> reads(NodeProto node) {
    Set<String> out = new LinkedHashSet<>();
    for (String in : node.getInputList()) {
      if (!in.isEmpty()) {
        out.add(in);
      }
    }
    for (AttributeProto a : node.getAttributeList()) {
      if (a.hasG()) {
        out.addAll(outerReads(a.getG()));
      }
      for (GraphProto g : a.getGraphsList()) {
        out.addAll(outerReads(g));
      }
    }
    return out;
  }

  private static Set<String> outerReads(GraphProto g) {
    Set<String> defined = new HashSet<>();
    g.getInputList().forEach(v -> defined.add(v.getName()));
    g.getInitializerList().forEach(t -> defined.add(t.getName()));
    for (NodeProto n : g.getNodeList()) {
      defined.addAll(n.getOutputList());
    }
    Set<String> out = new LinkedHashSet<>();
    for (NodeProto n : g.getNodeList()) {
      for (String r : reads(n)) {
        if (!defined.contains(r)) {
          out.add(r);
        }
      }
    }
    for (ValueInfoProto v : g.getOutputList()) {
      if (!defined.contains(v.getName())) {
        out.add(v.getName());
      }
    }
    return out;
  }

  private static String rawLabel(NodeProto n) {
    String name =
        !n.getName().isEmpty() ? n.getName() : n.getOutputCount() > 0 ? n.getOutput(0) : "";
    return "node '" + name + "' (" + n.getOpType() + ")";
  }

  // ---------------------------------------------------------------- analysis

  private void visit(NodeProto node, Scope scope) {
    List<String> inputs = new ArrayList<>();
    for (String in : node.getInputList()) {
      inputs.add(in.isEmpty() ? "" : scope.resolve(in));
    }
    boolean defaultDomain = isDefaultDomain(node.getDomain());
    if (defaultDomain && node.getOpType().equals("Constant")) {
      defineConstant(node, scope);
      return;
    }
    if (defaultDomain && node.getOpType().equals("If")) {
      inlineIf(node, inputs, scope);
      return;
    }
    List<String> outputs = new ArrayList<>();
    for (String out : node.getOutputList()) {
      outputs.add(out.isEmpty() ? "" : define(scope, out));
    }
    FlatNode f = new FlatNode(node, uniqueOpName(node), inputs, outputs);
    nodes.add(f);
    for (int k = 0; k < outputs.size(); k++) {
      if (!outputs.get(k).isEmpty()) {
        Info i = new Info(outputs.get(k), Source.NODE);
        i.producer = f;
        i.outputIndex = k;
        infos.put(i.name, i);
      }
    }
    analyze(f, defaultDomain);
  }

  private String uniqueOpName(NodeProto node) {
    String base = node.getName();
    if (base.isEmpty()) {
      base = node.getOutputCount() > 0 && !node.getOutput(0).isEmpty() ? node.getOutput(0) : "";
    }
    if (base.isEmpty()) {
      base = node.getOpType();
    }
    String name = base;
    for (int k = 2; opNames.contains(name); k++) {
      name = base + "~" + k;
    }
    opNames.add(name);
    return name;
  }

  private void defineConstant(NodeProto node, Scope scope) {
    if (node.getOutputCount() != 1 || node.getOutput(0).isEmpty()) {
      throw fail(rawLabel(node) + " must have one output");
    }
    TensorProto t = constantTensor(node);
    defineStored(scope, node.getOutput(0), t.toBuilder().setName(node.getOutput(0)).build());
  }

  /** The tensor of a Constant node: value, or value_float(s)/value_int(s). */
  private TensorProto constantTensor(NodeProto node) {
    if (node.getAttributeCount() != 1) {
      throw fail(rawLabel(node) + " must have exactly one value attribute");
    }
    AttributeProto a = node.getAttribute(0);
    TensorProto.Builder t = TensorProto.newBuilder();
    switch (a.getName()) {
      case "value" -> {
        return a.getT();
      }
      case "value_float" -> t.setDataType(DType.F32.onnxCode()).addFloatData(a.getF());
      case "value_floats" ->
          t.setDataType(DType.F32.onnxCode())
              .addDims(a.getFloatsCount())
              .addAllFloatData(a.getFloatsList());
      case "value_int" -> t.setDataType(DType.I64.onnxCode()).addInt64Data(a.getI());
      case "value_ints" ->
          t.setDataType(DType.I64.onnxCode())
              .addDims(a.getIntsCount())
              .addAllInt64Data(a.getIntsList());
      default ->
          throw new UnsupportedOnnxException(
              source + ": " + rawLabel(node) + ": attribute " + a.getName() + " is not supported");
    }
    return t.build();
  }

  private void analyze(FlatNode f, boolean defaultDomain) {
    NodeProto p = f.proto;
    String type = p.getOpType();
    RuntimeException error = null;
    if (!defaultDomain) {
      error =
          unsupported(
              f,
              "domain '" + p.getDomain() + "' is not supported (memplan models ai.onnx ops only)");
    } else if (opset < 0) {
      error =
          new IllegalArgumentException(
              source + ": " + f.label() + ": the model imports no opset of the ai.onnx domain");
    } else if (!Translator.knows(type) && !FOLD_ONLY.contains(type)) {
      error = unsupported(f, "memplan neither models nor folds " + type);
    }
    String dynamic = null;
    Set<String> dynamicInputs = new LinkedHashSet<>();
    for (String in : f.inputs) {
      if (in.isEmpty()) {
        continue;
      }
      Info i = infos.get(in);
      if (error == null && i.error != null) {
        error = i.error;
      }
      if (i.dynamic != null) {
        dynamicInputs.addAll(i.dynamicInputs);
        if (dynamic == null) {
          dynamic = i.dynamic;
        }
      }
    }
    if (error == null && dynamic == null) {
      try {
        if (FOLD_ONLY.contains(type)) {
          foldOnly(f);
        } else {
          translate(f);
        }
        return;
      } catch (Translator.MissingValueException e) {
        String in = e.input < f.inputs.size() ? f.inputs.get(e.input) : "#" + e.input;
        dynamic =
            f.label() + " reads '" + in + "' as a constant operand, but it is computed at run time";
      } catch (UnsupportedOnnxException e) {
        error = unsupported(f, e.getMessage());
      } catch (IllegalArgumentException | ArithmeticException e) {
        error = nodeFailure(f, e);
      }
    }
    f.dataInputs = presentIndices(f);
    for (String out : f.outputs) {
      if (!out.isEmpty()) {
        Info i = infos.get(out);
        i.error = error;
        i.dynamic = error == null ? dynamic : null;
        i.dynamicInputs = Set.copyOf(dynamicInputs);
      }
    }
  }

  private static List<Integer> presentIndices(FlatNode f) {
    List<Integer> out = new ArrayList<>();
    for (int k = 0; k < f.inputs.size(); k++) {
      if (!f.inputs.get(k).isEmpty()) {
        out.add(k);
      }
    }
    return out;
  }

  private void translate(FlatNode f) {
    Translator.Translation t = Translator.translate(nodeView(f));
    List<String> data = new ArrayList<>();
    List<TensorType> types = new ArrayList<>();
    for (int k : t.dataInputs()) {
      if (k >= f.inputs.size() || f.inputs.get(k).isEmpty()) {
        throw new IllegalArgumentException(
            "input #" + k + " is missing (" + f.inputs.size() + " inputs given)");
      }
      String in = f.inputs.get(k);
      data.add(in);
      types.add(infos.get(in).type());
    }
    List<String> outs = new ArrayList<>();
    for (int k : t.outputs()) {
      String out = k < f.outputs.size() ? f.outputs.get(k) : "";
      // an unnamed output still needs a name in the IR (a Split piece nobody reads)
      outs.add(out.isEmpty() ? f.opName + ":" + k : out);
    }
    Op op = new Op(f.opName, t.kind(), t.attrs(), data, outs);
    List<TensorType> outTypes = ShapeInference.infer(op, types);
    boolean foldable = Folder.supports(t.kind());
    for (String in : data) {
      foldable &= infos.get(in).foldable;
    }
    Set<Integer> kept = new HashSet<>(t.outputs());
    for (int k = 0; k < t.outputs().size(); k++) {
      int index = t.outputs().get(k);
      String name = outs.get(k);
      Info i = infos.get(name);
      if (i == null) {
        i = new Info(name, Source.NODE);
        i.producer = f;
        i.outputIndex = index;
        infos.put(name, i);
      }
      TensorType tt = outTypes.get(k);
      i.dtype = tt.dtype();
      i.dims = tt.shape().dims();
      i.foldable = foldable && tt.shape().elements() <= OnnxValue.MAX_ELEMENTS;
    }
    for (int k = 0; k < f.outputs.size(); k++) {
      if (!kept.contains(k) && !f.outputs.get(k).isEmpty()) {
        infos.get(f.outputs.get(k)).error =
            unsupported(f, "output " + k + " ('" + f.outputs.get(k) + "') is not modelled");
      }
    }
    f.op = op;
    f.dataInputs = t.dataInputs();
  }

  private Translator.Node nodeView(FlatNode f) {
    return new Translator.Node() {
      @Override
      public NodeProto proto() {
        return f.proto;
      }

      @Override
      public int opset() {
        return opset;
      }

      @Override
      public boolean present(int i) {
        return i < f.inputs.size() && !f.inputs.get(i).isEmpty();
      }

      @Override
      public DType dtype(int i) {
        return infos.get(f.inputs.get(i)).dtype;
      }

      @Override
      public OnnxValue value(int i) {
        if (!present(i)) {
          return null;
        }
        OnnxValue v = valueOf(f.inputs.get(i));
        if (v == null) {
          throw new Translator.MissingValueException(i);
        }
        return v;
      }
    };
  }

  /** Shape, Size, ConstantOfShape, Range: no op kind, so they are always computed here. */
  private void foldOnly(FlatNode f) {
    if (f.outputs.isEmpty() || f.outputs.get(0).isEmpty()) {
      throw new IllegalArgumentException(
          "output #0 is missing (the value it folds has nowhere to go)");
    }
    int needed = f.proto.getOpType().equals("Range") ? 3 : 1;
    for (int k = 0; k < needed; k++) {
      if (k >= f.inputs.size() || f.inputs.get(k).isEmpty()) {
        throw new IllegalArgumentException(
            "input #" + k + " is missing (" + f.inputs.size() + " inputs given)");
      }
    }
    Translator.Node n = nodeView(f);
    Attributes a = Translator.convertAttributes(f.proto).build();
    OnnxValue out;
    DType outType;
    long[] outDims;
    switch (f.proto.getOpType()) {
      case "Shape" -> {
        long[] d = infos.get(f.inputs.get(0)).dims;
        int r = d.length;
        long start = clampAxis(a.getInt("start", 0), r);
        long end = clampAxis(a.getInt("end", r), r);
        long[] s = Arrays.copyOfRange(d, (int) start, (int) Math.max(start, end));
        out = OnnxValue.vector(s);
        outType = DType.I64;
        outDims = out.dims();
      }
      case "Size" -> {
        out = OnnxValue.scalar(DType.I64, infos.get(f.inputs.get(0)).type().shape().elements());
        outType = DType.I64;
        outDims = new long[0];
      }
      case "ConstantOfShape" -> {
        OnnxValue shape = n.value(0);
        outDims = shape.longs();
        OnnxValue fill = OnnxValue.ofDoubles(DType.F32, new long[0], new double[] {0});
        for (AttributeProto at : f.proto.getAttributeList()) {
          if (at.getName().equals("value")) {
            fill = OnnxValue.decode(at.getT(), "ConstantOfShape value");
            if (fill == null || fill.size() != 1) {
              throw new IllegalArgumentException("value must hold one element");
            }
          }
        }
        outType = fill.dtype();
        long count = Shape.of(outDims).elements();
        out = count <= OnnxValue.MAX_ELEMENTS ? fill(fill, outDims, (int) count) : null;
      }
      case "Range" -> {
        OnnxValue start = n.value(0);
        OnnxValue limit = n.value(1);
        OnnxValue delta = n.value(2);
        outType = start.dtype();
        double s = start.getDouble(0);
        double d = delta.getDouble(0);
        if (d == 0) {
          throw new IllegalArgumentException("delta is 0");
        }
        long count = Math.max((long) Math.ceil((limit.getDouble(0) - s) / d), 0);
        outDims = new long[] {count};
        if (count > OnnxValue.MAX_ELEMENTS) {
          out = null;
        } else if (start.isFloatingPoint()) {
          double[] v = new double[(int) count];
          for (int k = 0; k < v.length; k++) {
            v[k] = s + k * d;
          }
          out = OnnxValue.ofDoubles(outType, outDims, v);
        } else {
          long[] v = new long[(int) count];
          for (int k = 0; k < v.length; k++) {
            v[k] = start.getLong(0) + k * delta.getLong(0);
          }
          out = OnnxValue.ofLongs(outType, outDims, v);
        }
      }
      default -> throw new AssertionError(f.proto.getOpType());
    }
    Info i = infos.get(f.outputs.get(0));
    i.dtype = outType;
    i.dims = outDims;
    i.folded = true;
    i.value = out;
    i.valueDone = true;
    i.foldable = out != null;
    f.foldOnly = true;
    f.dataInputs = List.of();
  }

  private static OnnxValue fill(OnnxValue fill, long[] dims, int count) {
    if (fill.isFloatingPoint()) {
      double[] v = new double[count];
      Arrays.fill(v, fill.getDouble(0));
      return OnnxValue.ofDoubles(fill.dtype(), dims, v);
    }
    long[] v = new long[count];
    Arrays.fill(v, fill.getLong(0));
    return OnnxValue.ofLongs(fill.dtype(), dims, v);
  }

  private static long clampAxis(long axis, int rank) {
    long a = axis < 0 ? axis + rank : axis;
    return Math.max(0, Math.min(rank, a));
  }

  /** The value of tensor {@code name}, computed on demand; null when it is not constant. */
  private OnnxValue valueOf(String name) {
    Info i = infos.get(name);
    if (i.valueDone) {
      return i.value;
    }
    if (!i.foldable || i.error != null || i.dynamic != null) {
      return null;
    }
    i.valueDone = true;
    switch (i.source) {
      case INPUT -> i.value = i.bound;
      case STORED -> i.value = OnnxValue.decode(i.stored, "tensor '" + name + "'");
      case NODE -> {
        FlatNode f = i.producer;
        List<OnnxValue> in = new ArrayList<>();
        for (String d : f.op.inputs()) {
          OnnxValue v = valueOf(d);
          if (v == null) {
            return null;
          }
          in.add(v);
        }
        List<TensorType> outTypes = new ArrayList<>();
        for (String o : f.op.outputs()) {
          outTypes.add(infos.get(o).type());
        }
        List<OnnxValue> out;
        try {
          out = Folder.evaluate(f.op, in, outTypes);
        } catch (IllegalArgumentException | ArithmeticException e) {
          throw new IllegalArgumentException(
              source + ": " + f.label() + ": cannot fold: " + e.getMessage(), e);
        }
        for (int k = 0; k < out.size(); k++) {
          Info o = infos.get(f.op.outputs().get(k));
          o.value = out.get(k);
          o.valueDone = true;
        }
      }
    }
    return i.value;
  }

  // ---------------------------------------------------------------- If

  private void inlineIf(NodeProto node, List<String> inputs, Scope scope) {
    String label = rawLabel(node);
    String cond = inputs.get(0);
    Info c = infos.get(cond);
    RuntimeException error = c.error;
    String dynamic = c.dynamic;
    GraphProto branch = null;
    if (error == null && dynamic == null) {
      try {
        OnnxValue v = valueOf(cond);
        if (v == null) {
          List<String> behind = unboundInputsBehind(cond);
          error =
              new RunTimeConditionException(
                  source
                      + ": "
                      + label
                      + ": condition '"
                      + cond
                      + "' is computed at run time; memplan inlines only an If whose condition"
                      + " is constant"
                      + (behind.isEmpty()
                          ? ""
                          : " (it depends on input"
                              + (behind.size() > 1 ? "s " : " ")
                              + behind.stream()
                                  .map(n -> "'" + n + "'")
                                  .collect(Collectors.joining(", "))
                              + ")"),
                  behind);
        } else if (v.size() != 1) {
          throw new IllegalArgumentException("condition " + v + " is not a single value");
        } else {
          String which = v.getLong(0) != 0 ? "then_branch" : "else_branch";
          for (AttributeProto a : node.getAttributeList()) {
            if (a.getName().equals(which)) {
              branch = a.getG();
            }
          }
          if (branch == null) {
            throw new IllegalArgumentException("attribute " + which + " is missing");
          }
        }
      } catch (IllegalArgumentException e) {
        error = e.getMessage().startsWith(source) ? e : fail(label + ": " + e.getMessage());
      }
    }
    if (branch == null) {
      // either branch may run: its outputs wait for the condition and for every dynamic input
      // behind what the branches read
      Set<String> behind = new LinkedHashSet<>(c.dynamicInputs);
      for (String r : reads(node)) {
        Info read = infos.get(scope.resolve(r));
        if (read != null && read.dynamic != null) {
          behind.addAll(read.dynamicInputs);
        }
      }
      for (String out : node.getOutputList()) {
        if (!out.isEmpty()) {
          Info i = new Info(define(scope, out), Source.NODE);
          i.error = error;
          i.dynamic = error == null ? dynamic : null;
          i.dynamicInputs = Set.copyOf(behind);
          infos.put(i.name, i);
        }
      }
      return;
    }
    if (branch.getOutputCount() != node.getOutputCount()) {
      throw fail(
          label
              + ": the taken branch has "
              + branch.getOutputCount()
              + " outputs, the node "
              + node.getOutputCount());
    }
    Scope inner = new Scope(scope);
    for (TensorProto t : branch.getInitializerList()) {
      defineStored(inner, t.getName(), t);
    }
    schedule(branch.getNodeList(), inner);
    for (int k = 0; k < node.getOutputCount(); k++) {
      String out = node.getOutput(k);
      if (out.isEmpty()) {
        continue;
      }
      String result = inner.resolve(branch.getOutput(k).getName());
      if (graphOutputNames.contains(out) && scope.parent == null) {
        // keep the graph output's name: copy the branch result into it
        NodeProto copy =
            NodeProto.newBuilder()
                .setOpType("Identity")
                .setName(node.getName() + "/" + out)
                .addInput(result)
                .addOutput(out)
                .build();
        FlatNode f =
            new FlatNode(copy, uniqueOpName(copy), List.of(result), List.of(define(scope, out)));
        nodes.add(f);
        Info i = new Info(f.outputs.get(0), Source.NODE);
        i.producer = f;
        infos.put(i.name, i);
        analyze(f, true);
      } else {
        scope.names.put(out, result);
      }
    }
  }

  /**
   * The graph inputs without a bound value that {@code tensor} is computed from, when their values
   * would let the folder compute it (every op on the way is one it evaluates, every stored tensor
   * small enough); otherwise empty.
   */
  private List<String> unboundInputsBehind(String tensor) {
    Set<String> seen = new HashSet<>();
    Set<String> out = new LinkedHashSet<>();
    java.util.ArrayDeque<String> todo = new java.util.ArrayDeque<>(List.of(tensor));
    while (!todo.isEmpty()) {
      String t = todo.pop();
      Info i = infos.get(t);
      if (i == null || !seen.add(t)) {
        continue;
      }
      if (i.source == Source.INPUT && i.bound == null) {
        out.add(t);
      } else if (i.source == Source.STORED && !i.foldable) {
        return List.of();
      } else if (i.source == Source.NODE) {
        FlatNode f = i.producer;
        if (f == null
            || f.op == null && !f.foldOnly
            || f.op != null && !Folder.supports(f.op.kind())) {
          return List.of();
        }
        List<String> ins = f.inputs;
        for (int k = ins.size() - 1; k >= 0; k--) {
          if (!ins.get(k).isEmpty()) {
            todo.push(ins.get(k));
          }
        }
      }
    }
    return List.copyOf(out);
  }

  // ---------------------------------------------------------------- liveness, checks, emission

  private void markLive(List<String> outputs) {
    Set<String> live = new HashSet<>(outputs);
    for (int n = nodes.size() - 1; n >= 0; n--) {
      FlatNode f = nodes.get(n);
      for (String out : f.outputs) {
        if (live.contains(out)) {
          f.live = true;
        }
      }
      if (f.op != null) {
        for (String out : f.op.outputs()) {
          if (live.contains(out)) {
            f.live = true;
          }
        }
      }
      if (f.live) {
        for (int k : f.dataInputs) {
          live.add(f.inputs.get(k));
        }
      }
    }
    liveTensors = live;
  }

  /** Fails on the first live error, then on live tensors without a static shape. */
  private void check(List<String> outputs) {
    LinkedHashSet<String> order = new LinkedHashSet<>(graphInputs);
    for (FlatNode f : nodes) {
      if (!f.live) {
        continue;
      }
      for (int k : f.dataInputs) {
        order.add(f.inputs.get(k));
      }
      for (String out : f.op != null ? f.op.outputs() : f.outputs) {
        order.add(out);
      }
    }
    order.addAll(outputs);
    List<String> dynamic = new ArrayList<>();
    Set<String> behind = new HashSet<>();
    String cause = null;
    for (String name : order) {
      Info i = infos.get(name);
      if (i == null || !liveTensors.contains(name)) {
        continue;
      }
      if (i.error != null) {
        throw i.error;
      }
      if (i.dynamic != null) {
        dynamic.add(name);
        if (cause == null) {
          cause = i.dynamic;
        }
        behind.addAll(i.dynamicInputs);
      }
    }
    List<NonStaticShapesException.DynamicInput> inputs = new ArrayList<>();
    for (String in : graphInputs) {
      if (behind.contains(in)) {
        inputs.add(new NonStaticShapesException.DynamicInput(in, infos.get(in).declared));
      }
    }
    if (inputs.size() > 1) {
      cause =
          NonStaticShapesException.describe(inputs)
              + "; give their shapes, e.g. "
              + inputs.stream().map(d -> d.example("d")).collect(Collectors.joining(" "));
    }
    if (!dynamic.isEmpty()) {
      String listed =
          dynamic.stream()
              .limit(MAX_LISTED)
              .map(s -> "'" + s + "'")
              .collect(Collectors.joining(", "));
      if (dynamic.size() > MAX_LISTED) {
        listed += " and " + (dynamic.size() - MAX_LISTED) + " more";
      }
      throw new NonStaticShapesException(
          source
              + ": "
              + dynamic.size()
              + " tensors have no static shape ("
              + cause
              + "): "
              + listed,
          dynamic,
          source,
          inputs);
    }
  }

  private Graph emit(List<String> outputs) {
    Graph.Builder b = Graph.builder(graphName);
    Map<String, String> constantNames = new HashMap<>();
    for (String out : outputs) {
      Info i = infos.get(out);
      if (i.source == Source.INPUT) {
        throw new UnsupportedOnnxException(
            source + ": graph output '" + out + "' is the graph input itself");
      }
      if (i.source == Source.STORED || i.folded) {
        constantNames.put(out, out + "/value");
      }
    }
    for (String in : graphInputs) {
      Info i = infos.get(in);
      if (i.dims != null && i.error == null) {
        b.input(in, i.dtype, i.dims);
      }
    }
    for (FlatNode f : nodes) {
      if (!f.live || f.foldOnly) {
        continue;
      }
      List<String> data = new ArrayList<>();
      for (String in : f.op.inputs()) {
        data.add(ensureDefined(b, in, constantNames));
      }
      b.op(f.opName, f.op.kind(), f.op.attributes(), data, f.op.outputs());
    }
    for (String out : outputs) {
      String constant = constantNames.get(out);
      if (constant != null) {
        ensureDefined(b, out, constantNames);
        String opName = out;
        for (int k = 2; opNames.contains(opName); k++) {
          opName = out + "~" + k;
        }
        opNames.add(opName);
        b.op(opName, OpKind.IDENTITY, Attributes.empty(), List.of(constant), List.of(out));
      }
      b.output(out);
    }
    return b.build();
  }

  /** Adds a stored or folded tensor the first time a live op reads it; returns its IR name. */
  private String ensureDefined(Graph.Builder b, String name, Map<String, String> constantNames) {
    String irName = constantNames.getOrDefault(name, name);
    if (b.has(irName)) {
      return irName;
    }
    Info i = infos.get(name);
    if (i.source == Source.STORED) {
      if (storedRole(i.dtype, i.dims) == Role.WEIGHT) {
        b.weight(irName, i.dtype, i.dims);
      } else {
        b.constant(irName, i.dtype, i.dims);
      }
    } else if (i.folded) {
      b.constant(irName, i.dtype, i.dims);
    }
    return irName;
  }

  /**
   * The role of a stored tensor (initializer or Constant node) that a live op reads: scalars and
   * 16-bit-or-wider integer and BOOL tensors are {@link Role#CONSTANT} (epsilons, exponents,
   * quantization scales and zero points, indices, shapes, position ids, masks); everything else,
   * floating-point tensors and 8- and 4-bit integer tensors (quantized weights) of rank >= 1, is a
   * learned {@link Role#WEIGHT}.
   */
  static Role storedRole(DType dtype, long[] dims) {
    if (dims.length == 0) {
      return Role.CONSTANT;
    }
    return switch (dtype) {
      case I64, I32, I16, BOOL -> Role.CONSTANT;
      default -> Role.WEIGHT;
    };
  }

  // ---------------------------------------------------------------- messages

  private IllegalArgumentException fail(String message) {
    return new IllegalArgumentException(source + ": " + message);
  }

  private UnsupportedOnnxException unsupported(FlatNode f, String message) {
    return new UnsupportedOnnxException(source + ": " + f.label() + ": " + message);
  }

  private IllegalArgumentException nodeFailure(FlatNode f, RuntimeException e) {
    String msg = e.getMessage() == null ? e.toString() : e.getMessage();
    if (msg.startsWith(source + ": ")) {
      return e instanceof IllegalArgumentException iae ? iae : new IllegalArgumentException(msg, e);
    }
    if (f.op != null && msg.startsWith(f.op.label() + ": ")) {
      msg = msg.substring(f.op.label().length() + 2);
    } else {
      String label = "'" + f.opName + "' (";
      if (msg.startsWith(label)) {
        msg = msg.substring(msg.indexOf("): ") + 3);
      }
    }
    return new IllegalArgumentException(source + ": " + f.label() + ": " + msg, e);
  }

  private RuntimeException prefixed(IllegalArgumentException e, String what) {
    String msg = source + ": " + what + e.getMessage();
    return e instanceof UnsupportedOnnxException
        ? new UnsupportedOnnxException(msg)
        : new IllegalArgumentException(msg, e);
  }
}
