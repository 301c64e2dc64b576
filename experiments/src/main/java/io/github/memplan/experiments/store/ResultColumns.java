package io.github.memplan.experiments.store;

import java.util.List;

/** The column names of results.csv and anytime.csv, in file order. */
public final class ResultColumns {
  private ResultColumns() {}

  public static final String SUITE = "suite";
  public static final String PROBLEM = "problem";
  public static final String INSTANCE = "instance";
  public static final String PLANNER = "planner";
  public static final String PARAMS = "params";
  public static final String SEED = "seed";
  public static final String REPLICATE = "replicate";
  public static final String STATUS = "status";
  public static final String METRIC = "metric";
  public static final String VALUE = "value";
  public static final String UNIT = "unit";
  public static final String DIRECTION = "direction";
  public static final String RUN = "run";
  public static final String MESSAGE = "message";

  /** results.csv's header, in order. */
  public static final List<String> RESULTS =
      List.of(
          SUITE, PROBLEM, INSTANCE, PLANNER, PARAMS, SEED, REPLICATE, STATUS, METRIC, VALUE, UNIT,
          DIRECTION, RUN, MESSAGE);

  /** The metric row every run ends with: its wall-clock time in milliseconds. */
  public static final String TIME_METRIC = "time-ms";

  /** The status of a run the runner cancelled after its time limit and grace margin. */
  public static final String TIMEOUT = "TIMEOUT";

  public static final String ELAPSED_MS = "elapsed_ms";
  public static final String BEST_OBJECTIVE = "best_objective";
  public static final String BEST_BOUND = "best_bound";
  public static final String NOTE = "note";

  /**
   * anytime.csv's header: the run's key columns, then one row per improvement a planner reported
   * (best objective empty when it has none yet, best bound empty when 0).
   */
  public static final List<String> ANYTIME =
      List.of(
          SUITE,
          PROBLEM,
          INSTANCE,
          PLANNER,
          PARAMS,
          SEED,
          REPLICATE,
          RUN,
          ELAPSED_MS,
          BEST_OBJECTIVE,
          BEST_BOUND,
          NOTE);

  public static final String RESULTS_FILE = "results.csv";
  public static final String ANYTIME_FILE = "anytime.csv";
  public static final String MANIFEST_FILE = "manifest.json";
}
