package io.github.memplan.core.solve;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PlannerConfigTest {
  private static final List<Parameter> DECLARED =
      List.of(
          new Parameter("order", "buffer order", "size"),
          new Parameter("restarts", "number of restarts", "3"),
          new Parameter("alpha", "a weight", "0.5"),
          new Parameter("verbose", "print more", "false"));

  @Test
  void defaultsFillWhatIsNotGiven() {
    PlannerConfig c = PlannerConfig.resolve("p", DECLARED, Map.of("restarts", "7"));
    assertThat(c.string("order")).isEqualTo("size");
    assertThat(c.intValue("restarts")).isEqualTo(7);
    assertThat(c.longValue("restarts")).isEqualTo(7L);
    assertThat(c.doubleValue("alpha")).isEqualTo(0.5);
    assertThat(c.booleanValue("verbose")).isFalse();
    assertThat(c.values()).containsOnlyKeys("order", "restarts", "alpha", "verbose");
    assertThat(List.copyOf(c.values().keySet())).isSorted();
    assertThat(c.toString()).isEqualTo("alpha=0.5;order=size;restarts=7;verbose=false");
  }

  @Test
  void anUnknownParameterFailsNamingThePlannerAndTheKnownKeys() {
    assertThatThrownBy(() -> PlannerConfig.resolve("greedy-x", DECLARED, Map.of("restart", "2")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("planner 'greedy-x'")
        .hasMessageContaining("unknown parameter 'restart'")
        .hasMessageContaining("order, restarts, alpha, verbose");
  }

  @Test
  void aPlannerWithoutParametersSaysSo() {
    assertThatThrownBy(() -> PlannerConfig.resolve("plain", List.of(), Map.of("x", "1")))
        .hasMessageContaining("planner 'plain'")
        .hasMessageContaining("unknown parameter 'x'")
        .hasMessageContaining("takes no parameters");
    assertThat(PlannerConfig.resolve("plain", List.of(), Map.of()).values()).isEmpty();
  }

  @Test
  void aDuplicateDeclarationFails() {
    List<Parameter> twice = List.of(new Parameter("k", "one", "1"), new Parameter("k", "two", "2"));
    assertThatThrownBy(() -> PlannerConfig.resolve("dup", twice, Map.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("planner 'dup'")
        .hasMessageContaining("'k'");
  }

  @Test
  void aNullValueFailsNamingTheKey() {
    Map<String, String> given = new HashMap<>();
    given.put("order", null);
    assertThatThrownBy(() -> PlannerConfig.resolve("p", DECLARED, given))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("planner 'p'")
        .hasMessageContaining("'order'");
  }

  @Test
  void typedAccessorsFailNamingPlannerAndKey() {
    PlannerConfig c =
        PlannerConfig.resolve(
            "p",
            DECLARED,
            Map.of("restarts", "many", "alpha", "x", "verbose", "maybe", "order", "99999999999"));
    assertThatThrownBy(() -> c.longValue("restarts"))
        .hasMessageContaining("planner 'p'")
        .hasMessageContaining("'restarts' is not an integer: 'many'");
    assertThatThrownBy(() -> c.doubleValue("alpha"))
        .hasMessageContaining("'alpha' is not a number");
    assertThatThrownBy(() -> c.booleanValue("verbose"))
        .hasMessageContaining("'verbose' is not a boolean: 'maybe'");
    assertThatThrownBy(() -> c.intValue("order")).hasMessageContaining("'order' is out of range");
    assertThatThrownBy(() -> c.string("nope"))
        .hasMessageContaining("planner 'p' has no parameter 'nope'");
  }

  @Test
  void booleansAndNumbersAcceptCommonSpellings() {
    PlannerConfig c =
        PlannerConfig.resolve(
            "p", DECLARED, Map.of("verbose", " YES ", "restarts", " 12 ", "alpha", "1e-3"));
    assertThat(c.booleanValue("verbose")).isTrue();
    assertThat(c.intValue("restarts")).isEqualTo(12);
    assertThat(c.doubleValue("alpha")).isEqualTo(0.001);
    for (String t : List.of("true", "1", "on", "yes")) {
      assertThat(PlannerConfig.resolve("p", DECLARED, Map.of("verbose", t)).booleanValue("verbose"))
          .isTrue();
    }
    for (String f : List.of("false", "0", "off", "no")) {
      assertThat(PlannerConfig.resolve("p", DECLARED, Map.of("verbose", f)).booleanValue("verbose"))
          .isFalse();
    }
  }

  @Test
  void providersResolveTheirConfigBeforeCreating() {
    PlannerProvider<String, String> provider =
        new PlannerProvider<>() {
          @Override
          public String id() {
            return "echo";
          }

          @Override
          public String description() {
            return "returns its input";
          }

          @Override
          public String citation() {
            return "none";
          }

          @Override
          public Class<String> instanceType() {
            return String.class;
          }

          @Override
          public List<Parameter> parameters() {
            return List.of(new Parameter("suffix", "appended", "!"));
          }

          @Override
          public Planner<String, String> create(PlannerConfig config) {
            String suffix = config.string("suffix");
            return (instance, ctx) ->
                Outcome.feasible(instance + suffix, java.util.OptionalLong.empty());
          }
        };
    assertThat(provider.create(Map.of()).solve("a", SolveContext.unlimited()).solution())
        .isEqualTo("a!");
    assertThat(
            provider.create(Map.of("suffix", "?")).solve("a", SolveContext.unlimited()).solution())
        .isEqualTo("a?");
    assertThatThrownBy(() -> provider.create(Map.of("sufix", "?")))
        .hasMessageContaining("planner 'echo': unknown parameter 'sufix' (known: suffix)");
  }
}
