package io.github.memplan.core.lmem;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.memplan.core.io.StrictJson;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * memplan's lossless JSON format of an {@link LmemInstance}, optionally with an {@link
 * LmemSolution}. Buffers are referred to by id everywhere:
 *
 * <pre>{@code
 * {"name": "g", "capacity": 262144, "banks": 16, "bankBytes": 16384, "euBytes": 64,
 *  "buffers": [{"id": "x", "kind": "activation", "start": 0, "end": 2, "bytes": 4096,
 *               "held": false, "address": 0}, ...],
 *  "timesteps": [{"tiu": [{"op": "conv1", "operands": ["x", "w"], "results": ["y"],
 *                          "scratch": []}],
 *                 "gdma": ["x"]}, ...],
 *  "inPlace": [{"input": "y", "output": "z"}]}
 * }</pre>
 *
 * {@code held} (default false) and {@code address} are optional; either every buffer has an {@code
 * address} (the file carries a solution) or none has. Unknown fields, duplicate keys, unknown
 * buffer ids and bad values are errors naming the file and the buffer, timestep or key at fault, on
 * one line.
 */
public final class LmemJson {
  private LmemJson() {}

  /** An instance read from a file, with the solution it carries, if any. */
  public record Read(LmemInstance instance, Optional<LmemSolution> solution) {}

  private static final ObjectMapper JSON = StrictJson.MAPPER;

  public static Read read(Path file) throws IOException {
    return parse(Files.readString(file), file.toString());
  }

  public static void write(Path file, LmemInstance instance, LmemSolution solution)
      throws IOException {
    Files.writeString(file, toJson(instance, solution));
  }

  /** The JSON text of {@code instance}, with addresses when {@code solution} is not null. */
  public static String toJson(LmemInstance instance, LmemSolution solution) {
    List<LmemBuffer> buffers = instance.buffers();
    ObjectNode root = JSON.createObjectNode();
    root.put("name", instance.name());
    root.put("capacity", instance.capacity());
    root.put("banks", instance.banks());
    root.put("bankBytes", instance.bankBytes());
    root.put("euBytes", instance.euBytes());
    ArrayNode bs = root.putArray("buffers");
    for (int i = 0; i < buffers.size(); i++) {
      LmemBuffer b = buffers.get(i);
      ObjectNode o = bs.addObject();
      o.put("id", b.id());
      o.put("kind", b.kind().name().toLowerCase(Locale.ROOT));
      o.put("start", b.start());
      o.put("end", b.end());
      o.put("bytes", b.bytes());
      o.put("held", b.held());
      if (solution != null) {
        o.put("address", solution.address(i));
      }
    }
    ArrayNode rows = root.putArray("timesteps");
    for (Timestep t : instance.timesteps()) {
      ObjectNode row = rows.addObject();
      ArrayNode tiu = row.putArray("tiu");
      for (Timestep.TiuOp op : t.tiu()) {
        ObjectNode o = tiu.addObject();
        o.put("op", op.op());
        ids(o.putArray("operands"), op.operands(), buffers);
        ids(o.putArray("results"), op.results(), buffers);
        ids(o.putArray("scratch"), op.scratch(), buffers);
      }
      ids(row.putArray("gdma"), t.gdma(), buffers);
    }
    ArrayNode ip = root.putArray("inPlace");
    for (InPlace p : instance.inPlace()) {
      ObjectNode o = ip.addObject();
      o.put("input", buffers.get(p.input()).id());
      o.put("output", buffers.get(p.output()).id());
    }
    try {
      return JSON.writerWithDefaultPrettyPrinter().writeValueAsString(root) + "\n";
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void ids(ArrayNode out, List<Integer> indices, List<LmemBuffer> buffers) {
    indices.forEach(i -> out.add(buffers.get(i).id()));
  }

  /** Parses the JSON {@code text}; {@code source} names it in error messages. */
  public static Read parse(String text, String source) {
    JsonNode root = StrictJson.readTree(text, source);
    Node top = new Node(root, source, "the instance");
    top.only(
        "name", "capacity", "banks", "bankBytes", "euBytes", "buffers", "timesteps", "inPlace");
    List<LmemBuffer> buffers = new ArrayList<>();
    Map<String, Integer> index = new HashMap<>();
    List<Long> addresses = new ArrayList<>();
    for (JsonNode bn : top.array("buffers")) {
      Node b = new Node(bn, source, "buffer #" + buffers.size());
      b.only("id", "kind", "start", "end", "bytes", "held", "address");
      String id = b.text("id");
      b = new Node(bn, source, "buffer '" + id + "'");
      LmemBuffer.Kind kind;
      try {
        kind = LmemBuffer.Kind.valueOf(b.text("kind").toUpperCase(Locale.ROOT));
      } catch (IllegalArgumentException e) {
        throw b.error("'kind' must be activation, weight or scratch");
      }
      boolean held = bn.has("held") && b.bool("held");
      int start = (int) b.integer("start", Integer.MAX_VALUE);
      int end = (int) b.integer("end", Integer.MAX_VALUE);
      long bytes = b.integer("bytes", Long.MAX_VALUE);
      LmemBuffer buffer;
      try {
        buffer = new LmemBuffer(id, kind, start, end, bytes, held);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(source + ": " + e.getMessage(), e);
      }
      if (index.putIfAbsent(id, buffers.size()) != null) {
        throw b.error("duplicate id");
      }
      buffers.add(buffer);
      if (bn.has("address")) {
        addresses.add(b.integer("address", Long.MAX_VALUE));
      }
    }
    if (!addresses.isEmpty() && addresses.size() != buffers.size()) {
      throw new IllegalArgumentException(
          source
              + ": "
              + addresses.size()
              + " of "
              + buffers.size()
              + " buffers have an 'address': all or none must");
    }
    List<Timestep> rows = new ArrayList<>();
    for (JsonNode rn : top.array("timesteps")) {
      Node row = new Node(rn, source, "timestep " + rows.size());
      row.only("tiu", "gdma");
      List<Timestep.TiuOp> ops = new ArrayList<>();
      for (JsonNode on : row.array("tiu")) {
        Node op = new Node(on, source, "timestep " + rows.size() + " TIU op #" + ops.size());
        op.only("op", "operands", "results", "scratch");
        String name = op.text("op");
        op = new Node(on, source, "timestep " + rows.size() + " op '" + name + "'");
        ops.add(
            new Timestep.TiuOp(
                name,
                op.refs("operands", index),
                op.refs("results", index),
                op.refs("scratch", index)));
      }
      rows.add(new Timestep(ops, row.refs("gdma", index)));
    }
    List<InPlace> inPlace = new ArrayList<>();
    for (JsonNode pn : top.array("inPlace")) {
      Node p = new Node(pn, source, "in-place pair #" + inPlace.size());
      p.only("input", "output");
      inPlace.add(new InPlace(p.ref("input", index), p.ref("output", index)));
    }
    String name = top.text("name");
    long capacity = top.integer("capacity", Long.MAX_VALUE);
    int banks = (int) top.integer("banks", Integer.MAX_VALUE);
    long bankBytes = top.integer("bankBytes", Long.MAX_VALUE);
    int euBytes = (int) top.integer("euBytes", Integer.MAX_VALUE);
    LmemInstance instance;
    try {
      instance =
          new LmemInstance(name, capacity, banks, bankBytes, euBytes, buffers, rows, inPlace);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(source + ": " + e.getMessage(), e);
    }
    Optional<LmemSolution> solution =
        addresses.isEmpty()
            ? Optional.empty()
            : Optional.of(
                new LmemSolution(addresses.stream().mapToLong(Long::longValue).toArray()));
    return new Read(instance, solution);
  }

  /** One JSON object being read, with where it is for error messages. */
  private record Node(JsonNode node, String source, String what) {
    Node {
      if (node == null || !node.isObject()) {
        throw new IllegalArgumentException(source + ": " + what + " must be a JSON object");
      }
    }

    IllegalArgumentException error(String message) {
      return new IllegalArgumentException(source + ": " + what + ": " + message);
    }

    void only(String... allowed) {
      Set<String> ok = Set.of(allowed);
      for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
        String f = it.next();
        if (!ok.contains(f)) {
          throw error("unknown field '" + f + "' (known: " + String.join(", ", allowed) + ")");
        }
      }
    }

    String text(String field) {
      JsonNode v = node.get(field);
      if (v == null || !v.isTextual()) {
        throw error("'" + field + "' must be a string");
      }
      return v.asText();
    }

    boolean bool(String field) {
      JsonNode v = node.get(field);
      if (v == null || !v.isBoolean()) {
        throw error("'" + field + "' must be true or false");
      }
      return v.asBoolean();
    }

    long integer(String field, long max) {
      JsonNode v = node.get(field);
      if (v == null
          || !v.isIntegralNumber()
          || !v.canConvertToLong()
          || v.asLong() < 0
          || v.asLong() > max) {
        throw error("'" + field + "' must be an integer in [0, " + max + "]");
      }
      return v.asLong();
    }

    JsonNode array(String field) {
      JsonNode v = node.get(field);
      if (v == null || !v.isArray()) {
        throw error("'" + field + "' must be an array");
      }
      return v;
    }

    int ref(String field, Map<String, Integer> index) {
      return lookup(node.get(field), field, index);
    }

    List<Integer> refs(String field, Map<String, Integer> index) {
      List<Integer> out = new ArrayList<>();
      for (JsonNode x : array(field)) {
        out.add(lookup(x, field, index));
      }
      return out;
    }

    private int lookup(JsonNode v, String field, Map<String, Integer> index) {
      if (v == null || !v.isTextual()) {
        throw error("'" + field + "' must hold buffer ids (strings)");
      }
      Integer i = index.get(v.asText());
      if (i == null) {
        throw error("'" + field + "' names unknown buffer '" + v.asText() + "'");
      }
      return i;
    }
  }
}
