package io.github.memplan.experiments.suite;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.github.memplan.core.chip.Chips;
import io.github.memplan.core.io.InputText;
import io.github.memplan.core.io.StrictJson;
import io.github.memplan.core.solve.Durations;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads a suite file. The format (every key optional unless marked; unknown keys fail):
 *
 * <pre>
 * suite: quick                 # name (required)
 * seed: 0                      # base seed; replicate r runs with seed + r
 * replicates: 1
 * budget: {time-limit: 10s, steps: 1000000}   # per run; 'none' for no time limit
 * problems:                    # required, non-empty
 *   - problem: dsa             # a ProblemKind name (required)
 *     chips: [bm1684x]         # for gmem (one instance per chip) and device (model sizes)
 *     instances: [...]         # required; entries as the kind reads them
 *     planners:                # required; an id, or a mapping
 *       - tpumlir-doc
 *       - {planner: exact, label: exact-decide, params: {mode: decide}}
 *     metrics: [peak-bytes]    # a subset; default every metric of the problem
 *     budget: {time-limit: 5s} # overrides the suite's budget for this problem
 * </pre>
 *
 * Relative paths in instances resolve against the suite file's directory, not the working
 * directory, so a suite runs the same from anywhere. Every error is one line: {@code FILE: KEY
 * PATH: what is wrong}, e.g. {@code quick.yaml: problems[1].planners[2].params.mode: unknown
 * parameter 'mode' for planner 'naive'}.
 */
public final class SuiteParser {
  private static final List<String> TOP =
      List.of("suite", "seed", "replicates", "budget", "problems");
  private static final List<String> PROBLEM =
      List.of("problem", "chips", "instances", "planners", "metrics", "budget");
  private static final List<String> PLANNER = List.of("planner", "label", "params");
  private static final List<String> BUDGET = List.of("time-limit", "steps");

  private SuiteParser() {}

  /** Parses and checks {@code file}; throws {@link IllegalArgumentException} on one line. */
  public static Suite parse(Path file) throws IOException {
    String text = Files.readString(file, StandardCharsets.UTF_8);
    Path base = file.toAbsolutePath().normalize().getParent();
    return parse(text, file.getFileName().toString(), base, file);
  }

  /** Parses {@code text}, naming it {@code source} in errors, paths relative to {@code base}. */
  public static Suite parse(String text, String source, Path base, Path file) {
    JsonNode root;
    try {
      root = new ObjectMapper(new YAMLFactory()).readTree(text);
    } catch (JsonProcessingException e) {
      int line = e.getLocation() == null ? 0 : e.getLocation().getLineNr();
      throw new IllegalArgumentException(
          source
              + (line > 0 ? ":" + line : "")
              + ": not valid YAML: "
              + InputText.oneLine(e.getOriginalMessage()));
    }
    if (root == null || root.isMissingNode() || root.isNull()) {
      throw new IllegalArgumentException(source + ": empty suite");
    }
    // no name, id or path in a suite holds a line break: a message echoing one would span lines
    StrictJson.printable(root, source);
    Cursor c = new Cursor(source);
    return c.suite(root, base, file, text);
  }

  /** Tracks the key path for messages. */
  private static final class Cursor {
    private final String source;

    Cursor(String source) {
      this.source = source;
    }

    IllegalArgumentException fail(String path, String what) {
      return new IllegalArgumentException(
          source + ": " + (path.isEmpty() ? "" : path + ": ") + what);
    }

    <T> T at(String path, java.util.function.Supplier<T> body) {
      try {
        return body.get();
      } catch (UncheckedIOException e) {
        throw fail(path, e.getCause().getMessage() + ": no such file");
      } catch (IllegalArgumentException e) {
        throw fail(path, e.getMessage());
      }
    }

    Suite suite(JsonNode root, Path base, Path file, String text) {
      keysOk(root, "", TOP);
      String name = at("suite", () -> SuiteNodes.text(root, "suite", null));
      if (name == null || name.isBlank()) {
        throw fail("suite", "missing: every suite has a name");
      }
      long seed = at("", () -> SuiteNodes.longValue(root, "seed", 0));
      int replicates = at("", () -> SuiteNodes.intValue(root, "replicates", 1));
      if (replicates < 1) {
        throw fail("replicates", "must be >= 1");
      }
      Suite.BudgetSpec budget = budget(root.get("budget"), "budget", Suite.BudgetSpec.DEFAULT);
      JsonNode problems = root.get("problems");
      if (problems == null || !problems.isArray() || problems.isEmpty()) {
        throw fail("problems", "missing: a non-empty list of problems");
      }
      Map<String, ProblemKind<?, ?>> kinds = ProblemKind.all();
      List<Suite.Problem<?, ?>> out = new ArrayList<>();
      for (int i = 0; i < problems.size(); i++) {
        out.add(problem(problems.get(i), "problems[" + i + "]", kinds, base, budget));
      }
      return new Suite(name, file, text, seed, replicates, List.copyOf(out));
    }

    private boolean keysOk(JsonNode n, String path, List<String> allowed) {
      try {
        SuiteNodes.keys(n, path, allowed);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(source + ": " + e.getMessage());
      }
      return true;
    }

    Suite.BudgetSpec budget(JsonNode n, String path, Suite.BudgetSpec dflt) {
      if (n == null) {
        return dflt;
      }
      keysOk(n, path, BUDGET);
      Duration limit = dflt.timeLimit();
      if (n.has("time-limit")) {
        String t = n.get("time-limit").asText();
        try {
          limit = Durations.parse(t);
        } catch (RuntimeException e) {
          throw fail(path + ".time-limit", e.getMessage());
        }
      }
      long steps = at(path, () -> SuiteNodes.longValue(n, "steps", dflt.steps()));
      if (steps < 0) {
        throw fail(path + ".steps", "must be >= 0");
      }
      return new Suite.BudgetSpec(limit, steps);
    }

    Suite.Problem<?, ?> problem(
        JsonNode n,
        String path,
        Map<String, ProblemKind<?, ?>> kinds,
        Path base,
        Suite.BudgetSpec b) {
      keysOk(n, path, PROBLEM);
      String kindName = at(path, () -> SuiteNodes.text(n, "problem", null));
      if (kindName == null) {
        throw fail(path + ".problem", "missing (known: " + String.join(", ", kinds.keySet()) + ")");
      }
      ProblemKind<?, ?> kind = kinds.get(kindName);
      if (kind == null) {
        throw fail(
            path + ".problem",
            "unknown problem '"
                + kindName
                + "' (known: "
                + String.join(", ", kinds.keySet())
                + ")");
      }
      return problem(n, path, kind, base, b);
    }

    private <I, S> Suite.Problem<I, S> problem(
        JsonNode n, String path, ProblemKind<I, S> kind, Path base, Suite.BudgetSpec b) {
      String kindName = kind.name();
      List<String> chips = new ArrayList<>();
      JsonNode cn = n.get("chips");
      if (cn == null) {
        chips.add(Chips.DEFAULT);
      } else {
        List<JsonNode> list = list(cn, path + ".chips");
        for (int i = 0; i < list.size(); i++) {
          String chip = list.get(i).asText();
          at(path + ".chips[" + i + "]", () -> Chips.get(chip));
          chips.add(chip);
        }
      }
      ProblemKind.Context ctx = new ProblemKind.Context(base, List.copyOf(chips));
      List<SuiteInstance<I>> instances = new ArrayList<>();
      Set<String> names = new HashSet<>();
      List<JsonNode> in = required(n, "instances", path);
      for (int i = 0; i < in.size(); i++) {
        String p = path + ".instances[" + i + "]";
        JsonNode e = in.get(i);
        for (SuiteInstance<I> si : at(p, () -> kind.instances(e, ctx))) {
          if (!names.add(si.name())) {
            throw fail(p, "instance '" + si.name() + "' appears twice");
          }
          instances.add(si);
        }
      }
      List<Suite.PlannerEntry<I, S>> planners = new ArrayList<>();
      Set<String> labels = new HashSet<>();
      List<JsonNode> pl = required(n, "planners", path);
      for (int i = 0; i < pl.size(); i++) {
        String p = path + ".planners[" + i + "]";
        Suite.PlannerEntry<I, S> spec = planner(pl.get(i), p, kind);
        if (!labels.add(spec.label())) {
          throw fail(
              p,
              "planner label '" + spec.label() + "' appears twice (give the second one a 'label')");
        }
        planners.add(spec);
      }
      List<MetricInfo> all = kind.metrics();
      List<MetricInfo> metrics = all;
      if (n.has("metrics")) {
        List<JsonNode> ml = list(n.get("metrics"), path + ".metrics");
        Set<String> wanted = new HashSet<>();
        for (int i = 0; i < ml.size(); i++) {
          String id = ml.get(i).asText();
          if (all.stream().noneMatch(m -> m.id().equals(id))) {
            throw fail(
                path + ".metrics[" + i + "]",
                "unknown metric '"
                    + id
                    + "' for problem '"
                    + kindName
                    + "' (known: "
                    + String.join(", ", all.stream().map(MetricInfo::id).toList())
                    + ")");
          }
          wanted.add(id);
        }
        metrics = all.stream().filter(m -> wanted.contains(m.id())).toList();
      }
      Suite.BudgetSpec budget = budget(n.get("budget"), path + ".budget", b);
      return new Suite.Problem<>(
          kind, List.copyOf(instances), List.copyOf(planners), metrics, budget);
    }

    <I, S> Suite.PlannerEntry<I, S> planner(JsonNode n, String path, ProblemKind<I, S> kind) {
      String id;
      String label;
      Map<String, String> params = new LinkedHashMap<>();
      if (n.isTextual()) {
        id = n.asText();
        label = id;
      } else {
        keysOk(n, path, PLANNER);
        id = at(path, () -> SuiteNodes.text(n, "planner", null));
        if (id == null) {
          throw fail(path + ".planner", "missing");
        }
        label = at(path, () -> SuiteNodes.text(n, "label", id));
        if (!label.matches("[A-Za-z0-9][A-Za-z0-9._+-]*")) {
          throw fail(path + ".label", "'" + label + "' is not a file-safe name");
        }
        JsonNode pn = n.get("params");
        if (pn != null) {
          if (!pn.isObject()) {
            throw fail(path + ".params", "expected a mapping");
          }
          for (Iterator<Map.Entry<String, JsonNode>> it = pn.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            if (!e.getValue().isValueNode() || e.getValue().isNull()) {
              throw fail(path + ".params." + e.getKey(), "expected a value");
            }
            params.put(e.getKey(), e.getValue().asText());
          }
        }
      }
      ResolvedPlanner<I, S> resolved;
      try {
        resolved = kind.planner(id, params);
      } catch (IllegalArgumentException e) {
        String bad = unknownParam(e.getMessage(), params);
        throw fail(
            bad == null ? path + (n.isTextual() ? "" : ".planner") : path + ".params." + bad,
            e.getMessage());
      }
      return new Suite.PlannerEntry<>(label, resolved);
    }

    /** The parameter an error message calls unknown, if it is one of {@code params}. */
    private static String unknownParam(String message, Map<String, String> params) {
      for (String k : params.keySet()) {
        if (message != null && message.contains("parameter '" + k + "'")) {
          return k;
        }
      }
      return null;
    }

    List<JsonNode> required(JsonNode n, String key, String path) {
      JsonNode v = n.get(key);
      if (v == null) {
        throw fail(path + "." + key, "missing");
      }
      List<JsonNode> l = list(v, path + "." + key);
      if (l.isEmpty()) {
        throw fail(path + "." + key, "empty");
      }
      return l;
    }

    List<JsonNode> list(JsonNode v, String path) {
      if (!v.isArray()) {
        throw fail(path, "expected a list");
      }
      List<JsonNode> out = new ArrayList<>();
      v.forEach(out::add);
      return out;
    }
  }
}
