package io.github.memplan.experiments.suite;

import io.github.memplan.core.solve.Planner;
import io.github.memplan.core.solve.PlannerConfig;
import io.github.memplan.core.solve.PlannerProvider;
import java.util.Collections;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * A planner looked up and its parameters resolved, once: at suite parse time or CLI option parsing.
 * Nothing looks the planner up again.
 *
 * @param id the planner id
 * @param config the resolved parameters, defaults included
 * @param provider the planner's provider
 * @param <I> the instance type
 * @param <S> the solution type
 */
public record ResolvedPlanner<I, S>(
    String id, PlannerConfig config, PlannerProvider<I, S> provider) {

  /** Resolves {@code params} against {@code provider}'s parameters. */
  public static <I, S> ResolvedPlanner<I, S> of(
      PlannerProvider<I, S> provider, Map<String, String> params) {
    return new ResolvedPlanner<>(
        provider.id(),
        PlannerConfig.resolve(provider.id(), provider.parameters(), params),
        provider);
  }

  /** The resolved parameters, sorted by key. */
  public SortedMap<String, String> params() {
    return Collections.unmodifiableSortedMap(new TreeMap<>(config.values()));
  }

  /** The canonical {@code k=v;k=v} form of the parameters, sorted by key. */
  public String paramsString() {
    return params().entrySet().stream()
        .map(e -> e.getKey() + "=" + e.getValue())
        .collect(Collectors.joining(";"));
  }

  /** A new planner with the resolved parameters. */
  public Planner<I, S> create() {
    return provider.create(config);
  }
}
