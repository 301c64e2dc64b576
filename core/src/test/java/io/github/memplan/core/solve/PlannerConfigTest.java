package io.github.memplan.core.solve;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.memplan.core.lmem.LmemInstance;
import java.time.Duration;
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

  private static PlannerConfig one(String key, String value) {
    return PlannerConfig.resolve(
        "p", List.of(new Parameter(key, "", "")), value == null ? Map.of() : Map.of(key, value));
  }

  enum Shape {
    PAIRWISE,
    NO_OVERLAP_2D
  }

  @Test
  void choiceTakesAnAllowedValueInAnyCase() {
    assertThat(one("rng", " Rand_R ").choice("rng", List.of("context", "rand_r")))
        .isEqualTo("rand_r");
    assertThat(one("model", "no-overlap-2d").choice("model", Shape.class))
        .isEqualTo(Shape.NO_OVERLAP_2D);
    assertThat(one("model", "PAIRWISE").choice("model", Shape.class)).isEqualTo(Shape.PAIRWISE);
    assertThat(PlannerConfig.spelling(Shape.NO_OVERLAP_2D)).isEqualTo("no-overlap-2d");
  }

  @Test
  void choiceRefusesAnyOtherValueNamingPlannerParameterValueAndAllowed() {
    assertThatThrownBy(() -> one("rng", "mersenne").choice("rng", List.of("context", "rand_r")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("planner 'p': parameter 'rng' must be context or rand_r, not 'mersenne'");
    assertThatThrownBy(() -> one("model", "no_overlap_2d").choice("model", Shape.class))
        .hasMessage(
            "planner 'p': parameter 'model' must be pairwise or no-overlap-2d, not"
                + " 'no_overlap_2d'");
    assertThatThrownBy(() -> one("m", "x\ny").choice("m", List.of("a", "b", "c")))
        .hasMessage("planner 'p': parameter 'm' must be a, b or c, not 'x\\ny'");
  }

  @Test
  void choiceParameterListsItsValuesAndDefaultsToTheFirst() {
    Parameter p = Parameter.choice("local-search", "the type", List.of("late", "tabu"));
    assertThat(p.description()).isEqualTo("the type: late, tabu");
    assertThat(p.defaultValue()).isEqualTo("late");
  }

  @Test
  void durationUsesTheCliSyntax() {
    assertThat(one("t", "500ms").duration("t")).contains(Duration.ofMillis(500));
    assertThat(one("t", "pt1m").duration("t")).contains(Duration.ofMinutes(1));
    assertThat(one("t", "0s").duration("t")).contains(Duration.ZERO);
    assertThat(one("t", "none").duration("t")).isEmpty();
    for (String bad : List.of("soon", "1 s", "10S", "-5s")) {
      assertThatThrownBy(() -> one("t", bad).duration("t"))
          .as(bad)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageStartingWith("planner 'p': parameter 't': '" + bad + "' is ")
          .hasMessageNotContaining("\n");
    }
  }

  @Test
  void boundedIntegersNameTheMinimum() {
    assertThat(one("n", "0").intValue("n", 0)).isZero();
    assertThat(one("n", "5").longValue("n", 1)).isEqualTo(5);
    assertThatThrownBy(() -> one("n", "-1").intValue("n", 0))
        .hasMessage("planner 'p': parameter 'n' must be at least 0: -1");
    assertThatThrownBy(() -> one("n", "0").longValue("n", 1))
        .hasMessage("planner 'p': parameter 'n' must be at least 1: 0");
  }

  /** {@code test-lmem-stack} is the LMEM test double registered in core's tests. */
  @Test
  void plannerReferenceResolvesThroughTheRegistry() {
    PlannerProvider<LmemInstance, Object> lmem =
        one("lmem", " test-lmem-stack ").planner("lmem", LmemInstance.class);
    assertThat(lmem.id()).isEqualTo("test-lmem-stack");
    assertThat(lmem.create(Map.of())).isNotNull();
  }

  @Test
  void plannerReferenceRefusesUnknownIdsOtherProblemsAndItself() {
    assertThatThrownBy(() -> one("lmem", "nope").planner("lmem", LmemInstance.class))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith(
            "planner 'p': parameter 'lmem': unknown planner 'nope' for LmemInstance (known: ")
        .hasMessageContaining("test-lmem-stack");
    assertThatThrownBy(
            () -> one("warm-start", "test-lmem-stack").planner("warm-start", String.class))
        .hasMessage(
            "planner 'p': parameter 'warm-start': planner 'test-lmem-stack' takes LmemInstance,"
                + " not String");
    assertThatThrownBy(() -> one("start", "p").planner("start", String.class))
        .hasMessage("planner 'p': parameter 'start' cannot name the planner itself");
  }

  @Test
  void namedPutsThePlannerInFrontOfAnOptionsError() {
    PlannerConfig c = one("k", "v");
    assertThat(c.named(() -> 3)).isEqualTo(3);
    assertThatThrownBy(
            () ->
                c.named(
                    () -> {
                      throw new IllegalArgumentException("workers must be positive: 0");
                    }))
        .hasMessage("planner 'p': workers must be positive: 0");
    assertThatThrownBy(
            () ->
                c.named(
                    () -> {
                      throw new IllegalArgumentException("planner 'p': already named");
                    }))
        .hasMessage("planner 'p': already named");
    assertThatThrownBy(
            () ->
                c.named(
                    "k",
                    () -> {
                      throw new IllegalArgumentException("unknown piece 'x'");
                    }))
        .hasMessage("planner 'p': parameter 'k': unknown piece 'x'");
  }
}
