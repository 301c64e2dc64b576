package io.github.memplan.core.device;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.memplan.core.io.InputText;
import io.github.memplan.core.io.StrictJson;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Device traces as CSV and JSON, read strictly: any error names the file and line, on one line.
 *
 * <p>CSV: the header {@value #HEADER}, then one event per line. A {@code load} line describes the
 * network (code and constant bytes, {@code ;}-separated input, output and in/out sizes, internal
 * bytes) and leaves {@code inference} empty; {@code unload}, {@code start} and {@code finish} lines
 * give the network name (and the inference id) only. A network loaded again must be described the
 * same way. Blank lines and lines starting with {@code #} are skipped.
 *
 * <p>JSON: {@code {"name", "networks": [{"name", "codeBytes", "constantBytes", "inputs", "outputs",
 * "inOuts", "internalBytes"}], "events": [{"op", "network", "inference"}]}}; unknown fields are
 * errors.
 */
public final class DeviceTraceFiles {
  private DeviceTraceFiles() {}

  public static final String HEADER =
      "event,network,inference,code,constants,inputs,outputs,inouts,internal";

  private static final ObjectMapper JSON = StrictJson.MAPPER;

  /** Reads a trace, JSON if the file name ends in {@code .json}, CSV otherwise. */
  public static DeviceTrace read(Path file) throws IOException {
    String text = Files.readString(file);
    String name = file.getFileName().toString().replaceFirst("\\.(csv|json)$", "");
    return file.toString().endsWith(".json")
        ? parseJson(text, file.toString())
        : parseCsv(text, name, file.toString());
  }

  /** Writes a trace, JSON if the file name ends in {@code .json}, CSV otherwise. */
  public static void write(DeviceTrace trace, Path file) throws IOException {
    Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
    Files.writeString(tmp, file.toString().endsWith(".json") ? toJson(trace) : toCsv(trace));
    Files.move(tmp, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
  }

  public static String toCsv(DeviceTrace trace) {
    StringBuilder sb = new StringBuilder(HEADER).append('\n');
    for (DeviceEvent e : trace.events()) {
      sb.append(e.op().id()).append(',').append(e.network()).append(',');
      if (e.op() == DeviceEvent.Op.LOAD) {
        Network n = trace.network(e.network());
        sb.append(',')
            .append(n.codeBytes())
            .append(',')
            .append(n.constantBytes())
            .append(',')
            .append(join(n.inputs()))
            .append(',')
            .append(join(n.outputs()))
            .append(',')
            .append(join(n.inOuts()))
            .append(',')
            .append(n.internalBytes());
      } else {
        sb.append(e.op() == DeviceEvent.Op.UNLOAD ? "" : Long.toString(e.inference()))
            .append(",,,,,,");
      }
      sb.append('\n');
    }
    return sb.toString();
  }

  public static DeviceTrace parseCsv(String text, String name, String source) {
    // CR LF, LF or a lone CR ends a line, as for BufferedReader.readLine: no field holds a break
    String[] lines = text.split("\r\n|\r|\n", -1);
    int first = 0;
    while (first < lines.length && skip(lines[first])) {
      first++;
    }
    if (first == lines.length || !lines[first].strip().equals(HEADER)) {
      throw new IllegalArgumentException(
          source + ":" + (first + 1) + ": expected the header '" + HEADER + "'");
    }
    Map<String, Network> networks = new LinkedHashMap<>();
    List<DeviceEvent> events = new ArrayList<>();
    List<Integer> eventLines = new ArrayList<>();
    for (int i = first + 1; i < lines.length; i++) {
      if (skip(lines[i])) {
        continue;
      }
      String at = source + ":" + (i + 1) + ": ";
      String[] f = lines[i].split(",", -1);
      if (f.length != 9) {
        throw new IllegalArgumentException(at + "expected 9 fields, found " + f.length);
      }
      try {
        DeviceEvent.Op op = DeviceEvent.Op.parse(f[0].strip());
        String net = f[1].strip();
        if (op == DeviceEvent.Op.LOAD) {
          if (!f[2].isBlank()) {
            throw new IllegalArgumentException("a load has no inference id");
          }
          Network n =
              new Network(
                  net,
                  number(f[3], "code"),
                  number(f[4], "constants"),
                  sizes(f[5], "inputs"),
                  sizes(f[6], "outputs"),
                  sizes(f[7], "inouts"),
                  number(f[8], "internal"));
          Network prev = networks.putIfAbsent(net, n);
          if (prev != null && !prev.equals(n)) {
            throw new IllegalArgumentException(
                "network " + net + " is described differently from its earlier load");
          }
          events.add(DeviceEvent.load(net));
        } else {
          for (int k = 3; k < 9; k++) {
            if (!f[k].isBlank()) {
              throw new IllegalArgumentException(
                  "only a load describes the network; field " + (k + 1) + " must be empty");
            }
          }
          if (op == DeviceEvent.Op.UNLOAD) {
            if (!f[2].isBlank()) {
              throw new IllegalArgumentException("an unload has no inference id");
            }
            events.add(DeviceEvent.unload(net));
          } else {
            long inf = number(f[2], "inference");
            events.add(new DeviceEvent(op, net, inf));
          }
        }
        eventLines.add(i + 1);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(at + e.getMessage(), e);
      }
    }
    return checked(name, new ArrayList<>(networks.values()), events, source, eventLines);
  }

  public static String toJson(DeviceTrace trace) {
    ObjectNode root = JSON.createObjectNode();
    root.put("name", trace.name());
    ArrayNode nets = root.putArray("networks");
    for (Network n : trace.networks()) {
      ObjectNode o = nets.addObject();
      o.put("name", n.name());
      o.put("codeBytes", n.codeBytes());
      o.put("constantBytes", n.constantBytes());
      n.inputs().forEach(o.putArray("inputs")::add);
      n.outputs().forEach(o.putArray("outputs")::add);
      n.inOuts().forEach(o.putArray("inOuts")::add);
      o.put("internalBytes", n.internalBytes());
    }
    ArrayNode evs = root.putArray("events");
    for (DeviceEvent e : trace.events()) {
      ObjectNode o = evs.addObject();
      o.put("op", e.op().id());
      o.put("network", e.network());
      if (e.op() == DeviceEvent.Op.START || e.op() == DeviceEvent.Op.FINISH) {
        o.put("inference", e.inference());
      }
    }
    try {
      return JSON.writerWithDefaultPrettyPrinter().writeValueAsString(root) + "\n";
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }

  public static DeviceTrace parseJson(String text, String source) {
    JsonNode root = StrictJson.readTree(text, source);
    if (root == null || !root.isObject()) {
      throw new IllegalArgumentException(source + ":1: expected a JSON object");
    }
    fields(root, Set.of("name", "networks", "events"), source, "the trace");
    String name = text(root, "name", source, "the trace");
    List<Network> networks = new ArrayList<>();
    for (JsonNode n : array(root, "networks", source, "the trace")) {
      String what = "network #" + networks.size();
      fields(
          n,
          Set.of(
              "name", "codeBytes", "constantBytes", "inputs", "outputs", "inOuts", "internalBytes"),
          source,
          what);
      try {
        networks.add(
            new Network(
                text(n, "name", source, what),
                integer(n, "codeBytes", source, what),
                integer(n, "constantBytes", source, what),
                longs(n, "inputs", source, what),
                longs(n, "outputs", source, what),
                longs(n, "inOuts", source, what),
                integer(n, "internalBytes", source, what)));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(source + ": " + what + ": " + e.getMessage(), e);
      }
    }
    List<DeviceEvent> events = new ArrayList<>();
    for (JsonNode e : array(root, "events", source, "the trace")) {
      String what = "event #" + events.size();
      fields(e, Set.of("op", "network", "inference"), source, what);
      DeviceEvent.Op op;
      try {
        op = DeviceEvent.Op.parse(text(e, "op", source, what));
      } catch (IllegalArgumentException ex) {
        throw new IllegalArgumentException(source + ": " + what + ": " + ex.getMessage(), ex);
      }
      boolean perInference = op == DeviceEvent.Op.START || op == DeviceEvent.Op.FINISH;
      if (perInference != e.has("inference")) {
        throw new IllegalArgumentException(
            source + ": " + what + ": 'inference' is required by start and finish only");
      }
      events.add(
          new DeviceEvent(
              op,
              text(e, "network", source, what),
              perInference ? integer(e, "inference", source, what) : -1));
    }
    return checked(name, networks, events, source, null);
  }

  private static DeviceTrace checked(
      String name,
      List<Network> networks,
      List<DeviceEvent> events,
      String source,
      List<Integer> eventLines) {
    try {
      return new DeviceTrace(name, networks, events);
    } catch (IllegalArgumentException e) {
      java.util.regex.Matcher m =
          java.util.regex.Pattern.compile("event (\\d+) ").matcher(e.getMessage());
      if (eventLines != null && m.find()) {
        int line = eventLines.get(Integer.parseInt(m.group(1)));
        throw new IllegalArgumentException(source + ":" + line + ": " + e.getMessage(), e);
      }
      throw new IllegalArgumentException(source + ": " + e.getMessage(), e);
    }
  }

  private static boolean skip(String line) {
    String s = line.strip();
    return s.isEmpty() || s.startsWith("#");
  }

  private static long number(String text, String field) {
    String s = text.strip();
    if (!s.matches("\\d{1,18}")) {
      throw new IllegalArgumentException(
          "field '" + field + "' must be a non-negative integer, found " + InputText.quote(s));
    }
    return Long.parseLong(s);
  }

  private static List<Long> sizes(String text, String field) {
    List<Long> l = new ArrayList<>();
    if (text.isBlank()) {
      return l;
    }
    for (String s : text.split(";", -1)) {
      l.add(number(s, field));
    }
    return l;
  }

  private static String join(List<Long> sizes) {
    return String.join(";", sizes.stream().map(String::valueOf).toList());
  }

  private static void fields(JsonNode node, Set<String> allowed, String source, String what) {
    if (!node.isObject()) {
      throw new IllegalArgumentException(source + ": " + what + " must be a JSON object");
    }
    for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
      String f = it.next();
      if (!allowed.contains(f)) {
        throw new IllegalArgumentException(
            source + ": " + what + ": unknown field '" + f + "' (known: " + sorted(allowed) + ")");
      }
    }
  }

  private static String sorted(Set<String> s) {
    return String.join(", ", s.stream().sorted().toList());
  }

  private static String text(JsonNode node, String field, String source, String what) {
    JsonNode v = node.get(field);
    if (v == null || !v.isTextual()) {
      throw new IllegalArgumentException(
          source + ": " + what + ": '" + field + "' must be a string");
    }
    return v.asText();
  }

  private static long integer(JsonNode node, String field, String source, String what) {
    JsonNode v = node.get(field);
    if (v == null || !v.canConvertToExactIntegral() || !v.canConvertToLong() || v.asLong() < 0) {
      throw new IllegalArgumentException(
          source + ": " + what + ": '" + field + "' must be a non-negative integer");
    }
    return v.asLong();
  }

  private static JsonNode array(JsonNode node, String field, String source, String what) {
    JsonNode v = node.get(field);
    if (v == null || !v.isArray()) {
      throw new IllegalArgumentException(
          source + ": " + what + ": '" + field + "' must be an array");
    }
    return v;
  }

  private static List<Long> longs(JsonNode node, String field, String source, String what) {
    List<Long> l = new ArrayList<>();
    for (JsonNode x : array(node, field, source, what)) {
      if (!x.canConvertToExactIntegral() || x.asLong() <= 0) {
        throw new IllegalArgumentException(
            source + ": " + what + ": '" + field + "' must hold positive integers");
      }
      l.add(x.asLong());
    }
    return l;
  }
}
