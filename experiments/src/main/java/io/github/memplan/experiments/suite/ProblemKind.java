package io.github.memplan.experiments.suite;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.memplan.core.solve.SolveContext;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.TreeMap;

/**
 * One problem a suite can name ({@code gmem}, {@code dsa}, {@code device}, ...): how its instances
 * are written in a suite, which planners and metrics it has, and how one run goes. Registered in
 * {@code META-INF/services/io.github.memplan.experiments.suite.ProblemKind}; a new problem is one
 * class (usually a {@link SpiProblemKind}) and one line there.
 */
public interface ProblemKind {
  /** The name used in suites ({@code problem: NAME}) and in the results' problem column. */
  String name();

  /**
   * The instances one entry of a problem's {@code instances} list stands for, sorted by name.
   * Instances are loaded lazily by the runner.
   *
   * @param entry the entry (a string or a mapping)
   * @param ctx where the entry is (for error messages and relative paths) and the problem's chips
   * @throws IllegalArgumentException naming what is wrong (the caller prefixes the key path)
   */
  List<SuiteInstance> instances(JsonNode entry, Context ctx);

  /**
   * Checks planner {@code id} with {@code params} and returns the resolved parameters (defaults
   * included), sorted by key.
   *
   * @throws IllegalArgumentException for an unknown planner or parameter, naming it
   */
  Map<String, String> resolvePlanner(String id, Map<String, String> params);

  /** Every metric of the problem, in a fixed order (the order of the results' rows). */
  List<MetricInfo> metrics();

  /**
   * One run: plans {@code instance} with the planner, validates the solution, measures the metrics.
   * A planner that throws may throw through (the runner records {@code ERROR}); an invalid solution
   * is an {@code ERROR} outcome naming the first violation.
   */
  RunOutcome run(Object instance, String plannerId, Map<String, String> params, SolveContext ctx);

  /**
   * Where an instances entry stands in the suite.
   *
   * @param baseDir the directory relative paths resolve against (the suite file's directory)
   * @param chips the problem's chips (default {@code bm1684x})
   */
  record Context(java.nio.file.Path baseDir, List<String> chips) {}

  /** The registered kinds by name. */
  static Map<String, ProblemKind> all() {
    Map<String, ProblemKind> byName = new TreeMap<>();
    for (ProblemKind k : ServiceLoader.load(ProblemKind.class)) {
      if (byName.put(k.name(), k) != null) {
        throw new IllegalStateException("two problem kinds share the name '" + k.name() + "'");
      }
    }
    return byName;
  }
}
