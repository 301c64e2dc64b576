package io.github.memplan.experiments.suite;

import io.github.memplan.core.solve.Parameter;
import io.github.memplan.core.solve.Planner;
import io.github.memplan.core.solve.PlannerConfig;
import io.github.memplan.core.solve.PlannerProvider;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * A planner looked up and its parameters resolved, once: at suite parse time or CLI option parsing.
 * Nothing looks the planner up again.
 *
 * @param id the planner id
 * @param config the resolved parameters, defaults included
 * @param provider the planner's provider; empty for a problem whose planners are not {@link
 *     PlannerProvider}s (the {@code device} allocators, {@link ProblemKind#resolvePlanner})
 * @param <I> the instance type
 * @param <S> the solution type
 */
public record ResolvedPlanner<I, S>(
    String id, PlannerConfig config, Optional<PlannerProvider<I, S>> provider) {

  /** Resolves {@code params} against {@code provider}'s parameters. */
  public static <I, S> ResolvedPlanner<I, S> of(
      PlannerProvider<I, S> provider, Map<String, String> params) {
    return new ResolvedPlanner<>(
        provider.id(),
        PlannerConfig.resolve(provider.id(), provider.parameters(), params),
        Optional.of(provider));
  }

  /** A planner of a problem without providers, with parameters its problem already checked. */
  static <I, S> ResolvedPlanner<I, S> checked(String id, Map<String, String> resolved) {
    List<Parameter> declared =
        resolved.entrySet().stream()
            .map(e -> new Parameter(e.getKey(), "as the problem resolved it", e.getValue()))
            .toList();
    return new ResolvedPlanner<>(
        id, PlannerConfig.resolve(id, declared, Map.of()), Optional.empty());
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

  /**
   * A new planner with the resolved parameters.
   *
   * @throws IllegalStateException for a planner without a provider
   */
  public Planner<I, S> create() {
    return provider
        .orElseThrow(() -> new IllegalStateException("planner '" + id + "' has no provider"))
        .create(config);
  }
}
