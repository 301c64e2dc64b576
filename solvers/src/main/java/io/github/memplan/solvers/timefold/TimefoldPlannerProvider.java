package io.github.memplan.solvers.timefold;

import ai.timefold.solver.core.config.localsearch.LocalSearchType;
import io.github.memplan.core.dsa.DsaInstance;
import io.github.memplan.core.dsa.DsaSolution;
import io.github.memplan.core.solve.Parameter;
import io.github.memplan.core.solve.Planner;
import io.github.memplan.core.solve.PlannerConfig;
import io.github.memplan.core.solve.PlannerProvider;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Registers {@link TimefoldPlanner} as {@code timefold}. */
public final class TimefoldPlannerProvider implements PlannerProvider<DsaInstance, DsaSolution> {
  public static final String ID = "timefold";

  @Override
  public String id() {
    return ID;
  }

  @Override
  public String description() {
    return "Timefold Solver local search over placement orders (a planning list variable) decoded"
        + " by lowest-offset placement, starting from the best built-in greedy; anytime, seeded.";
  }

  @Override
  public String citation() {
    return "Timefold Solver 1.32 (timefold.ai); order-decoding local search as in TVM USMP"
        + " src/tir/usmp/algo/hill_climb.cc; departures: Timefold's acceptors and list moves"
        + " instead of TVM's neighbour swaps, gaps/alignment/fixed offsets honoured";
  }

  @Override
  public Class<DsaInstance> instanceType() {
    return DsaInstance.class;
  }

  @Override
  public List<Parameter> parameters() {
    return List.of(
        new Parameter(
            "unimproved-time",
            "stop after this long without a better solution (500ms, 10s, 2m, PT1M or none: run"
                + " to the budget, the lower bound or cancellation)",
            "none"),
        new Parameter(
            "peak-count",
            "secondary soft objective: the number of buffers ending at the peak",
            String.valueOf(TimefoldPlanner.DEFAULT_PEAK_COUNT)),
        localSearchParameter());
  }

  /** The {@code local-search} parameter, shared by the Timefold planners. */
  public static Parameter localSearchParameter() {
    return new Parameter(
        "local-search",
        "Timefold's local search type: late-acceptance, diversified-late-acceptance, tabu-search,"
            + " simulated-annealing, hill-climbing, great-deluge",
        "late-acceptance");
  }

  @Override
  public Planner<DsaInstance, DsaSolution> create(PlannerConfig config) {
    Duration unimproved = duration(config.string("unimproved-time"));
    boolean peakCount = config.booleanValue("peak-count");
    LocalSearchType type = localSearchType(ID, config.string("local-search"));
    return new TimefoldPlanner(new TimefoldPlanner.Options(unimproved, peakCount, type));
  }

  /**
   * The local search type named {@code text} ({@code late-acceptance}, {@code tabu-search}, ...);
   * fails naming {@code owner}, the planner whose parameter it is.
   */
  public static LocalSearchType localSearchType(String owner, String text) {
    String ls = text.trim().toLowerCase(Locale.ROOT);
    return switch (ls) {
      case "late-acceptance" -> LocalSearchType.LATE_ACCEPTANCE;
      case "diversified-late-acceptance" -> LocalSearchType.DIVERSIFIED_LATE_ACCEPTANCE;
      case "tabu-search" -> LocalSearchType.TABU_SEARCH;
      case "simulated-annealing" -> LocalSearchType.SIMULATED_ANNEALING;
      case "hill-climbing" -> LocalSearchType.HILL_CLIMBING;
      case "great-deluge" -> LocalSearchType.GREAT_DELUGE;
      default ->
          throw new IllegalArgumentException(
              "planner '" + owner + "': unknown local-search '" + ls + "'");
    };
  }

  private static final Pattern SIMPLE = Pattern.compile("(\\d+)\\s*(ms|s|m|h)");

  /**
   * {@code none}, {@code 500ms}, {@code 10s}, {@code 2m}, {@code 1h} or ISO-8601 ({@code PT1M}).
   */
  static Duration duration(String text) {
    String v = text.trim().toLowerCase(Locale.ROOT);
    if (v.equals("none")) {
      return null;
    }
    Duration d;
    Matcher m = SIMPLE.matcher(v);
    try {
      if (m.matches()) {
        long k = Long.parseLong(m.group(1));
        d =
            switch (m.group(2)) {
              case "ms" -> Duration.ofMillis(k);
              case "s" -> Duration.ofSeconds(k);
              case "m" -> Duration.ofMinutes(k);
              default -> Duration.ofHours(k);
            };
      } else {
        d = Duration.parse(text.trim());
      }
    } catch (DateTimeParseException | ArithmeticException | NumberFormatException e) {
      throw new IllegalArgumentException(
          "planner 'timefold': unimproved-time is not a duration: '" + text + "'");
    }
    if (d.isNegative() || d.isZero()) {
      throw new IllegalArgumentException(
          "planner 'timefold': unimproved-time must be positive: '" + text + "'");
    }
    return d;
  }
}
