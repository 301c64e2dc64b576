package io.github.memplan.experiments.suite;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.memplan.core.solve.SolveContext;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.TreeMap;

/**
 * One problem a suite can name ({@code gmem}, {@code dsa}, {@code device}, ...), as registered in
 * {@code META-INF/services/io.github.memplan.experiments.suite.ProblemKind}. The run path sees
 * every kind as a {@link TypedProblemKind} ({@link #typed}); a new problem is one {@link
 * TypedProblemKind} (usually a {@link SpiProblemKind}) and one line there.
 *
 * <p>This root keeps the untyped shape ({@link #resolvePlanner}, {@link #run}) for {@code device},
 * whose allocators are not yet {@code PlannerProvider}s; {@link #typed} adapts such a kind.
 */
public interface ProblemKind {
  /** The name used in suites ({@code problem: NAME}) and in the results' problem column. */
  String name();

  /** Every metric of the problem, in a fixed order (the order of the results' rows). */
  List<MetricInfo> metrics();

  /**
   * The instances one entry of a problem's {@code instances} list stands for, sorted by name
   * ({@link TypedProblemKind#instances} gives their type).
   *
   * @param entry the entry (a string or a mapping)
   * @param ctx where the entry is (for error messages and relative paths) and the problem's chips
   * @throws IllegalArgumentException naming what is wrong (the caller prefixes the key path)
   */
  @SuppressWarnings("rawtypes")
  List<? extends SuiteInstance> instances(JsonNode entry, Context ctx);

  /**
   * The untyped shape of {@link TypedProblemKind#planner}: checks planner {@code id} with {@code
   * params} and returns the resolved parameters.
   *
   * @throws IllegalArgumentException for an unknown planner or parameter, naming it
   */
  default Map<String, String> resolvePlanner(String id, Map<String, String> params) {
    return typed().planner(id, params).params();
  }

  /** The untyped shape of {@link TypedProblemKind#solve}, for a kind that is not typed. */
  default RunOutcome run(
      Object instance, String plannerId, Map<String, String> params, SolveContext ctx) {
    throw new UnsupportedOperationException(name() + ": runs through TypedProblemKind.solve");
  }

  /** This kind with its instance and solution types: itself, or an adapter of the untyped shape. */
  default TypedProblemKind<?, ?> typed() {
    return new UntypedKindAdapter(this);
  }

  /**
   * Where an instances entry stands in the suite.
   *
   * @param baseDir the directory relative paths resolve against (the suite file's directory)
   * @param chips the problem's chips (default {@code bm1684x})
   */
  record Context(java.nio.file.Path baseDir, List<String> chips) {}

  /** The registered kinds by name, typed. */
  static Map<String, TypedProblemKind<?, ?>> all() {
    Map<String, TypedProblemKind<?, ?>> byName = new TreeMap<>();
    for (ProblemKind k : ServiceLoader.load(ProblemKind.class)) {
      if (byName.put(k.name(), k.typed()) != null) {
        throw new IllegalStateException("two problem kinds share the name '" + k.name() + "'");
      }
    }
    return byName;
  }
}
