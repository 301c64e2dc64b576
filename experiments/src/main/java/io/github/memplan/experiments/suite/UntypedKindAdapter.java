package io.github.memplan.experiments.suite;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.memplan.core.solve.SolveContext;
import io.github.memplan.experiments.measure.Measured;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * A {@link ProblemKind} of the untyped shape ({@link ProblemKind#resolvePlanner}, {@link
 * ProblemKind#run}; today {@code device}) seen as a {@link TypedProblemKind}: its instances are
 * {@code Object}s that only its own {@code run} reads.
 */
final class UntypedKindAdapter implements TypedProblemKind<Object, Object> {
  private final ProblemKind kind;

  UntypedKindAdapter(ProblemKind kind) {
    this.kind = kind;
  }

  @Override
  public String name() {
    return kind.name();
  }

  @Override
  public List<MetricInfo> metrics() {
    return kind.metrics();
  }

  @Override
  public List<SuiteInstance<Object>> instances(JsonNode entry, Context ctx) {
    List<SuiteInstance<Object>> out = new ArrayList<>();
    for (SuiteInstance<?> si : kind.instances(entry, ctx)) {
      Supplier<?> loader = si.loader();
      out.add(new SuiteInstance<>(si.name(), loader::get));
    }
    return out;
  }

  @Override
  public ResolvedPlanner<Object, Object> planner(String id, Map<String, String> params) {
    return ResolvedPlanner.checked(id, kind.resolvePlanner(id, params));
  }

  @Override
  public Measured<Object> solve(
      ResolvedPlanner<Object, Object> planner, Object instance, SolveContext ctx) {
    return kind.run(instance, planner.id(), planner.params(), ctx).measured();
  }
}
