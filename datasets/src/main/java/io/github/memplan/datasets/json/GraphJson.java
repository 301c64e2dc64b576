package io.github.memplan.datasets.json;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.memplan.core.io.InputText;
import io.github.memplan.core.ir.Attr;
import io.github.memplan.core.ir.Attributes;
import io.github.memplan.core.ir.DType;
import io.github.memplan.core.ir.Graph;
import io.github.memplan.core.ir.Op;
import io.github.memplan.core.ir.OpKind;
import io.github.memplan.core.ir.Role;
import io.github.memplan.core.ir.Shape;
import io.github.memplan.core.ir.Tensor;
import java.io.IOException;
import java.io.Reader;
import java.io.StringReader;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * memplan's own JSON graph format: a lossless image of a {@link Graph}. Reading what was written
 * gives a graph equal in every tensor (name, shape, dtype, role, order), op (name, kind, typed
 * attributes, inputs, outputs, order), input and output.
 *
 * <pre>{@code
 * {
 *   "format": "memplan-graph",
 *   "version": 1,
 *   "name": "resnet18",
 *   "inputs": ["input"],
 *   "outputs": ["fc"],
 *   "tensors": [
 *     {"name":"input","shape":[1,3,224,224],"dtype":"f32","role":"input"},
 *     {"name":"conv1.weight","shape":[64,3,7,7],"dtype":"f32","role":"weight"},
 *     {"name":"conv1","shape":[1,64,112,112],"dtype":"f32","role":"activation"},
 *     ...
 *   ],
 *   "ops": [
 *     {"name":"conv1","kind":"Conv","inputs":["input","conv1.weight"],"outputs":["conv1"],
 *      "attributes":{"group":{"int":1},"kernel_shape":{"ints":[7,7]},"epsilon":{"float":1.0E-5}}},
 *     ...
 *   ]
 * }
 * }</pre>
 *
 * <p>Tensors come in the graph's insertion order, each op's outputs right after the stored tensors
 * added before it; ops in insertion order. Attributes are tagged with their type ({@code int},
 * {@code ints}, {@code float}, {@code floats}, {@code string}) so that {@code 1} and {@code 1.0}
 * stay apart; floats are written in Java's shortest round-trip form, and non-finite ones as the
 * strings {@code "NaN"}, {@code "Infinity"}, {@code "-Infinity"}. Dtypes and roles are the
 * lower-cased enum names, op kinds the ONNX names. The writer puts one tensor or op per line.
 *
 * <p>The reader rebuilds the graph through {@link Graph#builder} (so shapes are inferred again and
 * must equal the declared ones) and is strict: unknown or missing keys, duplicate keys, wrong
 * types, unknown dtypes, roles or kinds, and inconsistent declarations are errors whose one-line
 * message names the source, line and column, and the key path ({@code ops[3].attributes.group}).
 */
public final class GraphJson {
  /** The value of the {@code format} key. */
  public static final String FORMAT = "memplan-graph";

  /** The version this class writes and reads. */
  public static final int VERSION = 1;

  private static final ObjectMapper COMPACT = new ObjectMapper();
  private static final JsonFactory FACTORY =
      JsonFactory.builder().enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION).build();

  private GraphJson() {}

  // ------------------------------------------------------------------ writing

  /** The JSON text of {@code graph}. */
  public static String toJson(Graph graph) {
    StringWriter w = new StringWriter();
    try {
      write(graph, w);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return w.toString();
  }

  public static void write(Graph graph, Path file) throws IOException {
    try (Writer w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
      write(graph, w);
    }
  }

  public static void write(Graph graph, Writer out) throws IOException {
    out.write("{\n");
    out.write("  \"format\": " + json(FORMAT) + ",\n");
    out.write("  \"version\": " + VERSION + ",\n");
    out.write("  \"name\": " + json(graph.name()) + ",\n");
    out.write("  \"inputs\": " + json(graph.inputs()) + ",\n");
    out.write("  \"outputs\": " + json(graph.outputs()) + ",\n");
    out.write("  \"tensors\": [");
    String sep = "\n";
    for (Tensor t : graph.tensors().values()) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("name", t.name());
      m.put("shape", t.shape().dims());
      m.put("dtype", t.dtype().name().toLowerCase(Locale.ROOT));
      m.put("role", t.role().name().toLowerCase(Locale.ROOT));
      out.write(sep + "    " + json(m));
      sep = ",\n";
    }
    out.write("\n  ],\n");
    out.write("  \"ops\": [");
    sep = "\n";
    for (Op op : graph.ops()) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("name", op.name());
      m.put("kind", op.kind().onnxName());
      m.put("inputs", op.inputs());
      m.put("outputs", op.outputs());
      Map<String, Object> attrs = new LinkedHashMap<>();
      for (Map.Entry<String, Attr> e : op.attributes().asMap().entrySet()) {
        attrs.put(e.getKey(), attr(e.getValue()));
      }
      m.put("attributes", attrs);
      out.write(sep + "    " + json(m));
      sep = ",\n";
    }
    out.write("\n  ]\n}\n");
    out.flush();
  }

  private static Map<String, Object> attr(Attr a) {
    if (a instanceof Attr.Int i) {
      return Map.of("int", i.value());
    }
    if (a instanceof Attr.Ints i) {
      return Map.of("ints", i.values());
    }
    if (a instanceof Attr.Float f) {
      return Map.of("float", real(f.value()));
    }
    if (a instanceof Attr.Floats f) {
      return Map.of("floats", f.values().stream().map(GraphJson::real).toList());
    }
    return Map.of("string", ((Attr.Str) a).value());
  }

  private static Object real(double v) {
    return Double.isFinite(v) ? (Object) v : Double.toString(v);
  }

  private static String json(Object value) {
    try {
      return COMPACT.writeValueAsString(value);
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }

  // ------------------------------------------------------------------ reading

  /** Reads {@code file}; messages name it as given. */
  public static Graph read(Path file) throws IOException {
    try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      return parse(file.toString(), r);
    }
  }

  public static Graph parse(String source, String text) {
    try {
      return parse(source, new StringReader(text));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Parses a graph; {@code source} names it in messages. */
  public static Graph parse(String source, Reader in) throws IOException {
    Node root;
    try (JsonParser p = FACTORY.createParser(in)) {
      if (p.nextToken() == null) {
        throw new IllegalArgumentException(source + ":1:1: empty input, expected a JSON object");
      }
      root = Node.read(p, "");
      JsonToken extra = p.nextToken();
      if (extra != null) {
        JsonLocation l = p.currentTokenLocation();
        throw new IllegalArgumentException(
            source + ":" + l.getLineNr() + ":" + l.getColumnNr() + ": text after the graph object");
      }
    } catch (JsonProcessingException e) {
      JsonLocation l = e.getLocation();
      String at = l == null ? "" : l.getLineNr() + ":" + l.getColumnNr() + ":";
      throw new IllegalArgumentException(
          source + ":" + at + " malformed JSON: " + InputText.oneLine(e.getOriginalMessage()), e);
    }
    return new Decoder(source).graph(root);
  }

  /** A parsed JSON value with the place it came from. */
  private record Node(Object value, JsonToken token, int line, int column, String path) {
    static Node read(JsonParser p, String path) throws IOException {
      JsonLocation loc = p.currentTokenLocation();
      int line = loc.getLineNr();
      int col = loc.getColumnNr();
      JsonToken t = p.currentToken();
      return switch (t) {
        case START_OBJECT -> {
          Map<String, Node> fields = new LinkedHashMap<>();
          while (p.nextToken() == JsonToken.FIELD_NAME) {
            String name = printable(p, p.currentName());
            p.nextToken();
            fields.put(name, read(p, path.isEmpty() ? name : path + "." + name));
          }
          yield new Node(fields, t, line, col, path);
        }
        case START_ARRAY -> {
          List<Node> items = new ArrayList<>();
          while (p.nextToken() != JsonToken.END_ARRAY) {
            items.add(read(p, path + "[" + items.size() + "]"));
          }
          yield new Node(items, t, line, col, path);
        }
        case VALUE_STRING -> new Node(printable(p, p.getText()), t, line, col, path);
        case VALUE_NUMBER_INT -> new Node(p.getNumberValue(), t, line, col, path);
        case VALUE_NUMBER_FLOAT -> new Node(p.getDoubleValue(), t, line, col, path);
        case VALUE_TRUE, VALUE_FALSE -> new Node(t == JsonToken.VALUE_TRUE, t, line, col, path);
        case VALUE_NULL -> new Node(null, t, line, col, path);
        default -> throw new IllegalStateException("unexpected token " + t);
      };
    }

    /** {@code s}, a key or string of {@code p}, unless it holds a line break or control char. */
    private static String printable(JsonParser p, String s) throws JsonParseException {
      if (InputText.hasControl(s)) {
        throw new JsonParseException(
            p, "the string " + InputText.quote(s) + " holds a line break or control character");
      }
      return s;
    }

    String what() {
      return switch (token) {
        case START_OBJECT -> "an object";
        case START_ARRAY -> "an array";
        case VALUE_STRING -> "a string";
        case VALUE_NUMBER_INT -> "an integer";
        case VALUE_NUMBER_FLOAT -> "a number";
        case VALUE_TRUE, VALUE_FALSE -> "a boolean";
        default -> "null";
      };
    }
  }

  /** Turns the located tree into a graph, failing with the place at fault. */
  private record Decoder(String source) {
    /**
     * Adds the stored tensor declared at {@code tn}; the builder's refusal (a tensor beyond {@link
     * io.github.memplan.core.ir.TensorType#MAX_BYTES}, a name taken) is named where it is declared.
     */
    void declare(Node tn, Runnable add) {
      try {
        add.run();
      } catch (IllegalArgumentException e) {
        throw fail(tn, e.getMessage());
      }
    }

    IllegalArgumentException fail(Node n, String message) {
      return new IllegalArgumentException(
          source
              + ":"
              + n.line()
              + ":"
              + n.column()
              + ": "
              + (n.path().isEmpty() ? "" : n.path() + ": ")
              + message);
    }

    @SuppressWarnings("unchecked")
    Map<String, Node> object(Node n, List<String> required, List<String> optional) {
      if (n.token() != JsonToken.START_OBJECT) {
        throw fail(n, "expected an object, got " + n.what());
      }
      Map<String, Node> fields = (Map<String, Node>) n.value();
      for (Map.Entry<String, Node> e : fields.entrySet()) {
        if (!required.contains(e.getKey()) && !optional.contains(e.getKey())) {
          List<String> known = new ArrayList<>(required);
          known.addAll(optional);
          throw fail(
              e.getValue(),
              "unknown key '" + e.getKey() + "' (expected " + String.join(", ", known) + ")");
        }
      }
      for (String k : required) {
        if (!fields.containsKey(k)) {
          throw fail(n, "missing key '" + k + "'");
        }
      }
      return fields;
    }

    @SuppressWarnings("unchecked")
    List<Node> array(Node n) {
      if (n.token() != JsonToken.START_ARRAY) {
        throw fail(n, "expected an array, got " + n.what());
      }
      return (List<Node>) n.value();
    }

    String string(Node n) {
      if (n.token() != JsonToken.VALUE_STRING) {
        throw fail(n, "expected a string, got " + n.what());
      }
      return (String) n.value();
    }

    long integer(Node n) {
      if (n.token() != JsonToken.VALUE_NUMBER_INT) {
        throw fail(n, "expected an integer, got " + n.what());
      }
      Number v = (Number) n.value();
      if (!(v instanceof Integer || v instanceof Long)) {
        throw fail(n, "integer " + v + " is out of range");
      }
      return v.longValue();
    }

    double real(Node n) {
      if (n.token() == JsonToken.VALUE_NUMBER_FLOAT || n.token() == JsonToken.VALUE_NUMBER_INT) {
        return ((Number) n.value()).doubleValue();
      }
      if (n.token() == JsonToken.VALUE_STRING) {
        switch ((String) n.value()) {
          case "NaN":
            return Double.NaN;
          case "Infinity":
            return Double.POSITIVE_INFINITY;
          case "-Infinity":
            return Double.NEGATIVE_INFINITY;
          default:
            break;
        }
      }
      throw fail(n, "expected a number (or \"NaN\", \"Infinity\", \"-Infinity\"), got " + n.what());
    }

    List<String> strings(Node n) {
      return array(n).stream().map(this::string).toList();
    }

    Graph graph(Node root) {
      Map<String, Node> doc =
          object(
              root,
              List.of("format", "version", "name", "inputs", "outputs", "tensors", "ops"),
              List.of());
      Node format = doc.get("format");
      if (!FORMAT.equals(string(format))) {
        throw fail(format, "expected \"" + FORMAT + "\", got \"" + format.value() + "\"");
      }
      Node version = doc.get("version");
      if (integer(version) != VERSION) {
        throw fail(
            version, "version " + version.value() + " is not supported (only " + VERSION + ")");
      }
      Graph.Builder b = Graph.builder(string(doc.get("name")));

      List<Node> ops = array(doc.get("ops"));
      int nextOp = 0;
      // outputs of the last op added that the tensors list has still to declare, in order
      java.util.ArrayDeque<String> pending = new java.util.ArrayDeque<>();
      Node pendingOp = null;
      Map<String, Node> declared = new LinkedHashMap<>();
      Map<String, Role> roles = new LinkedHashMap<>();
      for (Node tn : array(doc.get("tensors"))) {
        Map<String, Node> t = object(tn, List.of("name", "shape", "dtype", "role"), List.of());
        String name = string(t.get("name"));
        if (declared.containsKey(name)) {
          throw fail(t.get("name"), "tensor '" + name + "' is declared twice");
        }
        declared.put(name, tn);
        Role role = role(t.get("role"));
        roles.put(name, role);
        long[] dims = dims(t.get("shape"));
        DType dtype = dtype(t.get("dtype"));
        boolean stored = role == Role.INPUT || role == Role.WEIGHT || role == Role.CONSTANT;
        if (!pending.isEmpty() && (stored || !pending.peek().equals(name))) {
          throw fail(
              tn,
              "expected output '"
                  + pending.peek()
                  + "' of op '"
                  + string(object(pendingOp, OP_KEYS, OP_OPTIONAL).get("name"))
                  + "' here, found tensor '"
                  + name
                  + "'");
        }
        switch (role) {
          case INPUT -> declare(tn, () -> b.input(name, dtype, dims));
          case WEIGHT -> declare(tn, () -> b.weight(name, dtype, dims));
          case CONSTANT -> declare(tn, () -> b.constant(name, dtype, dims));
          case ACTIVATION, OUTPUT -> {
            if (!pending.isEmpty()) {
              pending.poll();
              break;
            }
            if (nextOp >= ops.size()) {
              throw fail(tn, "no op left to define tensor '" + name + "'");
            }
            Node opNode = ops.get(nextOp++);
            Op op = op(opNode);
            if (!op.outputs().get(0).equals(name)) {
              throw fail(
                  opNode,
                  "op '"
                      + op.name()
                      + "' is next but its first output is '"
                      + op.outputs().get(0)
                      + "', while the tensors list has '"
                      + name
                      + "' here");
            }
            try {
              b.op(op.name(), op.kind(), op.attributes(), op.inputs(), op.outputs());
            } catch (IllegalArgumentException e) {
              throw fail(opNode, e.getMessage());
            }
            pending.addAll(op.outputs().subList(1, op.outputs().size()));
            pendingOp = opNode;
          }
        }
        Tensor built = b.tensor(name);
        if (!built.shape().equals(Shape.of(dims)) || built.dtype() != dtype) {
          throw fail(
              tn,
              "tensor '"
                  + name
                  + "' is declared "
                  + dtype.name().toLowerCase(Locale.ROOT)
                  + "["
                  + Shape.of(dims)
                  + "] but its op computes "
                  + built.type());
        }
      }
      if (!pending.isEmpty()) {
        throw fail(pendingOp, "output '" + pending.peek() + "' is not in the tensors list");
      }
      if (nextOp < ops.size()) {
        throw fail(
            ops.get(nextOp), "the op's outputs are not in the tensors list (or not in op order)");
      }

      Node inputsNode = doc.get("inputs");
      List<String> inputs = strings(inputsNode);
      List<String> declaredInputs =
          roles.entrySet().stream()
              .filter(e -> e.getValue() == Role.INPUT)
              .map(Map.Entry::getKey)
              .toList();
      if (!inputs.equals(declaredInputs)) {
        throw fail(
            inputsNode,
            "inputs "
                + inputs
                + " differ from the tensors of role input, in order: "
                + declaredInputs);
      }
      Node outputsNode = doc.get("outputs");
      List<Node> outs = array(outputsNode);
      for (Node o : outs) {
        String name = string(o);
        if (roles.get(name) != Role.OUTPUT) {
          throw fail(o, "'" + name + "' is not a tensor of role output");
        }
        b.output(name);
      }
      Set<String> listed = Set.copyOf(strings(outputsNode));
      for (Map.Entry<String, Role> e : roles.entrySet()) {
        if (e.getValue() == Role.OUTPUT && !listed.contains(e.getKey())) {
          throw fail(
              declared.get(e.getKey()),
              "tensor '" + e.getKey() + "' has role output but is not in outputs");
        }
      }
      try {
        return b.build();
      } catch (IllegalArgumentException e) {
        throw fail(root, e.getMessage());
      }
    }

    private static final List<String> OP_KEYS = List.of("name", "kind", "inputs", "outputs");
    private static final List<String> OP_OPTIONAL = List.of("attributes");

    Op op(Node n) {
      Map<String, Node> o = object(n, OP_KEYS, OP_OPTIONAL);
      Node kindNode = o.get("kind");
      OpKind kind;
      try {
        kind = OpKind.parse(string(kindNode));
      } catch (IllegalArgumentException e) {
        throw fail(kindNode, e.getMessage());
      }
      Attributes.Builder attrs = Attributes.builder();
      Node an = o.get("attributes");
      if (an != null) {
        if (an.token() != JsonToken.START_OBJECT) {
          throw fail(an, "expected an object, got " + an.what());
        }
        @SuppressWarnings("unchecked")
        Map<String, Node> fields = (Map<String, Node>) an.value();
        for (Map.Entry<String, Node> e : fields.entrySet()) {
          attrs.put(e.getKey(), attr(e.getValue()));
        }
      }
      List<String> outputs = strings(o.get("outputs"));
      if (outputs.isEmpty()) {
        throw fail(o.get("outputs"), "an op defines at least one output");
      }
      return new Op(string(o.get("name")), kind, attrs.build(), strings(o.get("inputs")), outputs);
    }

    Attr attr(Node n) {
      Map<String, Node> a =
          object(n, List.of(), List.of("int", "ints", "float", "floats", "string"));
      if (a.size() != 1) {
        throw fail(n, "expected exactly one of int, ints, float, floats, string");
      }
      Map.Entry<String, Node> e = a.entrySet().iterator().next();
      Node v = e.getValue();
      return switch (e.getKey()) {
        case "int" -> Attr.of(integer(v));
        case "ints" -> new Attr.Ints(array(v).stream().map(this::integer).toList());
        case "float" -> Attr.of(real(v));
        case "floats" -> new Attr.Floats(array(v).stream().map(this::real).toList());
        default -> Attr.of(string(v));
      };
    }

    long[] dims(Node n) {
      List<Node> items = array(n);
      long[] dims = new long[items.size()];
      for (int i = 0; i < dims.length; i++) {
        dims[i] = integer(items.get(i));
        if (dims[i] < 0) {
          throw fail(items.get(i), "dimension " + dims[i] + " is negative");
        }
      }
      return dims;
    }

    DType dtype(Node n) {
      String s = string(n);
      for (DType d : DType.values()) {
        if (d.name().toLowerCase(Locale.ROOT).equals(s)) {
          return d;
        }
      }
      throw fail(n, "unknown dtype '" + s + "' (" + names(DType.values()) + ")");
    }

    Role role(Node n) {
      String s = string(n);
      for (Role r : Role.values()) {
        if (r.name().toLowerCase(Locale.ROOT).equals(s)) {
          return r;
        }
      }
      throw fail(n, "unknown role '" + s + "' (" + names(Role.values()) + ")");
    }

    private static String names(Enum<?>[] values) {
      List<String> out = new ArrayList<>();
      for (Enum<?> v : values) {
        out.add(v.name().toLowerCase(Locale.ROOT));
      }
      return String.join(", ", out);
    }
  }
}
