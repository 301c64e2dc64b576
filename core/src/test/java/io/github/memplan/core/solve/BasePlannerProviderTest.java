package io.github.memplan.core.solve;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class BasePlannerProviderTest {
  /** Appends its parameter {@code suffix} to the instance. */
  static final class Echo extends BasePlannerProvider<String, String> {
    Echo(String id) {
      super(
          id,
          String.class,
          "appends a suffix",
          "none",
          List.of(new Parameter("suffix", "appended", "!")),
          config -> {
            String suffix = config.string("suffix");
            return (instance, ctx) -> Outcome.feasible(instance + suffix, OptionalLong.empty());
          });
    }
  }

  @Test
  void gettersReturnTheConstructorsArgumentsAndCreateResolvesTheParameters() {
    Echo echo = new Echo("echo-2");
    assertThat(echo.id()).isEqualTo("echo-2");
    assertThat(echo.instanceType()).isEqualTo(String.class);
    assertThat(echo.description()).isEqualTo("appends a suffix");
    assertThat(echo.citation()).isEqualTo("none");
    assertThat(echo.parameters()).extracting(Parameter::name).containsExactly("suffix");
    assertThat(echo.create(Map.of("suffix", "?")).solve("a", SolveContext.unlimited()).solution())
        .isEqualTo("a?");
    assertThat(echo.create(Map.of()).solve("a", SolveContext.unlimited()).solution())
        .isEqualTo("a!");
    assertThatThrownBy(() -> echo.create(Map.of("sufix", "?")))
        .hasMessage("planner 'echo-2': unknown parameter 'sufix' (known: suffix)");
  }

  @Test
  void idsAreKebabCaseAndFileSafe() {
    for (String good : List.of("a", "tvm-hill-climb", "lmem-v0", "x2-3y")) {
      assertThat(new Echo(good).id()).isEqualTo(good);
    }
    for (String bad :
        List.of("", "Exact", "tvm_hill", "-a", "a-", "a--b", "a b", "a/b", "../x", "a.csv", "é")) {
      assertThatThrownBy(() -> new Echo(bad))
          .as(bad)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage("planner id '" + bad + "' is not kebab-case ([a-z0-9]+(-[a-z0-9]+)*)");
    }
    assertThatThrownBy(() -> new Echo("a\nb"))
        .hasMessage("planner id 'a\\nb' is not kebab-case ([a-z0-9]+(-[a-z0-9]+)*)");
    assertThatThrownBy(() -> new Echo(null)).isInstanceOf(IllegalArgumentException.class);
  }
}
