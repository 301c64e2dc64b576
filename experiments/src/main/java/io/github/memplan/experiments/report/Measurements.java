package io.github.memplan.experiments.report;

import io.github.memplan.experiments.store.ResultRow;
import java.util.List;

/** The {@link Measurement}s of results rows. */
final class Measurements {
  private Measurements() {}

  /**
   * One measurement per row. The planner column holds the suite's label, unique within a problem;
   * the resolved parameters stay in results.csv instead of crowding every header.
   */
  static List<Measurement> of(List<ResultRow> rows) {
    return rows.stream()
        .map(
            r ->
                new Measurement(
                    r.problem(),
                    r.instance(),
                    r.planner(),
                    Integer.toString(r.replicate()),
                    r.status(),
                    r.metric(),
                    r.number(),
                    r.unit(),
                    r.direction()))
        .toList();
  }
}
