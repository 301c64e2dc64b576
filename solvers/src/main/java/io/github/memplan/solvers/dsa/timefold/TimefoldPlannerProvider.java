package io.github.memplan.solvers.dsa.timefold;

import ai.timefold.solver.core.config.localsearch.LocalSearchType;
import io.github.memplan.core.dsa.DsaInstance;
import io.github.memplan.core.dsa.DsaSolution;
import io.github.memplan.core.solve.BasePlannerProvider;
import io.github.memplan.core.solve.Parameter;
import io.github.memplan.core.solve.PlannerConfig;
import java.util.List;
import java.util.Locale;

/** Registers {@link TimefoldPlanner} as {@code timefold}. */
public final class TimefoldPlannerProvider extends BasePlannerProvider<DsaInstance, DsaSolution> {
  public static final String ID = "timefold";

  private static final List<String> LOCAL_SEARCHES =
      List.of(
          "late-acceptance",
          "diversified-late-acceptance",
          "tabu-search",
          "simulated-annealing",
          "hill-climbing",
          "great-deluge");

  /** The {@code local-search} parameter, shared by the Timefold planners. */
  public static final Parameter LOCAL_SEARCH =
      Parameter.choice("local-search", "Timefold's local search type", LOCAL_SEARCHES);

  public TimefoldPlannerProvider() {
    super(
        ID,
        DsaInstance.class,
        "Timefold Solver local search over placement orders (a planning list variable) decoded"
            + " by lowest-offset placement, starting from the best built-in greedy; anytime, seeded.",
        "Timefold Solver 1.32 (timefold.ai); order-decoding local search as in TVM USMP"
            + " src/tir/usmp/algo/hill_climb.cc; departures: Timefold's acceptors and list moves"
            + " instead of TVM's neighbour swaps, gaps/alignment/fixed offsets honoured",
        List.of(
            new Parameter(
                "unimproved-time",
                "stop after this long without a better solution (500ms, 10s, 2m, PT1M or none: run"
                    + " to the budget, the lower bound or cancellation)",
                "none"),
            new Parameter(
                "peak-count",
                "secondary soft objective: the number of buffers ending at the peak",
                String.valueOf(TimefoldPlanner.DEFAULT_PEAK_COUNT)),
            LOCAL_SEARCH),
        config ->
            config.named(
                () ->
                    new TimefoldPlanner(
                        new TimefoldPlanner.Options(
                            config.duration("unimproved-time").orElse(null),
                            config.booleanValue("peak-count"),
                            localSearch(config)))));
  }

  /** The value of {@link #LOCAL_SEARCH} in {@code config}. */
  public static LocalSearchType localSearch(PlannerConfig config) {
    String type = config.choice(LOCAL_SEARCH.name(), LOCAL_SEARCHES);
    return LocalSearchType.valueOf(type.toUpperCase(Locale.ROOT).replace('-', '_'));
  }
}
