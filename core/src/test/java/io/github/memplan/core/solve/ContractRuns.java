package io.github.memplan.core.solve;

import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.discovery.DiscoverySelectors;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Event;

/**
 * Runs a contract test class through the JUnit engine test kit, for the contracts' self-tests: the
 * class's {@code @Disabled} condition is lifted (a deliberately broken contract is disabled so that
 * no build runs it directly), and the failures are collected by display name.
 */
public final class ContractRuns {
  private ContractRuns() {}

  /** Runs every test of {@code contract}, disabled or not. */
  public static EngineExecutionResults run(Class<?> contract) {
    return EngineTestKit.engine("junit-jupiter")
        .configurationParameter(
            "junit.jupiter.conditions.deactivate", "org.junit.*DisabledCondition")
        .selectors(DiscoverySelectors.selectClass(contract))
        .execute();
  }

  /** Display names of the failed tests, each with its failure message, sorted by name. */
  public static Map<String, String> failures(EngineExecutionResults results) {
    return results.testEvents().failed().stream()
        .collect(
            Collectors.toMap(
                e -> e.getTestDescriptor().getDisplayName(),
                ContractRuns::message,
                (a, b) -> a,
                TreeMap::new));
  }

  private static String message(Event e) {
    return e.getPayload(TestExecutionResult.class)
        .flatMap(TestExecutionResult::getThrowable)
        .map(t -> t + (t.getCause() == null ? "" : " caused by " + t.getCause()))
        .orElse("");
  }

  /**
   * {@code strict} as a provider that accepts any parameters (it ignores them instead of resolving
   * them), for self-tests of the contracts' unknown-parameter check.
   */
  public static <I, S> PlannerProvider<I, S> ignoringUnknownParameters(
      PlannerProvider<I, S> strict) {
    return new PlannerProvider<>() {
      @Override
      public String id() {
        return strict.id();
      }

      @Override
      public String description() {
        return strict.description();
      }

      @Override
      public String citation() {
        return strict.citation();
      }

      @Override
      public Class<I> instanceType() {
        return strict.instanceType();
      }

      @Override
      public Planner<I, S> create(PlannerConfig config) {
        return strict.create(config);
      }

      @Override
      public Planner<I, S> create(Map<String, String> config) {
        return strict.create(Map.of());
      }
    };
  }
}
