package io.github.memplan.experiments.cli;

import io.github.memplan.core.dsa.DsaInstance;
import io.github.memplan.core.dsa.DsaSolution;
import io.github.memplan.core.dsa.LowerBounds;
import io.github.memplan.core.dsa.MiniMallocCsv;
import io.github.memplan.core.solve.Budget;
import io.github.memplan.core.solve.SolveContext;
import io.github.memplan.experiments.measure.Measured;
import io.github.memplan.experiments.measure.RunStatus;
import io.github.memplan.experiments.suite.DsaKind;
import io.github.memplan.experiments.suite.ResolvedPlanner;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.OptionalLong;

/**
 * One planner run on a DSA instance through {@link DsaKind#solveGuarded} (the suites' run path):
 * the validator stands between the planner and anything printed, so a solution that breaks a rule
 * never reaches the output, and the numbers are the suites' metric values ({@code peak-bytes},
 * {@code lower-bound-bytes}, {@code peak-over-lower-bound}).
 *
 * @param planner the planner id
 * @param config the resolved parameters, defaults included
 * @param seed the run's seed
 * @param status how the run ended
 * @param message the planner's note (why, for {@code ERROR} and {@code TIMEOUT}), possibly empty
 * @param solution the validated solution, or {@code null}
 * @param peak {@code peak-bytes}: {@code max(offset + size)}, or -1 without a solution
 * @param lowerBound {@code lower-bound-bytes}: the larger of max load and the planner's bound, or
 *     -1 when the run ended without an outcome (a timeout)
 * @param ratio {@code peak-over-lower-bound}, empty without a solution or with a zero bound
 * @param maxLoad the max-load lower bound ({@link LowerBounds#maxLoad})
 * @param plannerBound the lower bound the planner claims, if any (not checked)
 * @param buffers the number of buffers
 * @param millis the run's wall-clock time (solve, validation, measurement)
 */
record DsaPlanResult(
    String planner,
    Map<String, String> config,
    long seed,
    RunStatus status,
    String message,
    DsaSolution solution,
    long peak,
    long lowerBound,
    OptionalDouble ratio,
    long maxLoad,
    OptionalLong plannerBound,
    int buffers,
    double millis) {

  /** The DSA problem, whose validator and metrics every DSA run in the CLI goes through. */
  static final DsaKind DSA = new DsaKind();

  /** The planner of {@code --planner} with the {@code --param}s, resolved once. */
  static ResolvedPlanner<DsaInstance, DsaSolution> resolve(PlanOptions opts) {
    return DSA.planner(opts.planner, opts.params());
  }

  /**
   * Runs {@code planner} with the options' seed and time limit, guarded as a suite's run. A planner
   * that throws throws here (an {@link OutOfMemoryError} or {@link StackOverflowError} as one
   * line), and an invalid solution is a {@link Main.Failure}.
   */
  static DsaPlanResult run(
      DsaInstance instance, PlanOptions opts, ResolvedPlanner<DsaInstance, DsaSolution> planner) {
    SolveContext ctx = SolveContext.of(opts.seed, Budget.of(opts.timeLimit));
    Measured<DsaSolution> m = DSA.solveGuarded(planner, instance, ctx, opts.timeLimit);
    Failures.check(m, planner.id(), instance.name(), instance.size(), "solution");
    return new DsaPlanResult(
        planner.id(),
        planner.params(),
        opts.seed,
        m.status(),
        m.message(),
        m.solution().orElse(null),
        (long) m.value(DsaMetricIds.PEAK).orElse(-1),
        (long) m.value(DsaMetricIds.BOUND).orElse(-1),
        m.value(DsaMetricIds.RATIO),
        LowerBounds.maxLoad(instance),
        m.outcome().map(o -> o.lowerBound()).orElse(OptionalLong.empty()),
        instance.size(),
        m.millis());
  }

  /** The ids of the DSA metrics the CLI prints ({@code core.dsa.DsaMetrics}). */
  static final class DsaMetricIds {
    static final String PEAK = "peak-bytes";
    static final String BOUND = "lower-bound-bytes";
    static final String RATIO = "peak-over-lower-bound";

    private DsaMetricIds() {}
  }

  boolean hasSolution() {
    return solution != null;
  }

  /** The planner's lines of a report, from the status on. */
  void addOutcome(CommandOutput r, String peakLabel) {
    r.add(
        "status",
        "status",
        status.name(),
        status.name() + (message.isEmpty() ? "" : " (" + message + ")"));
    r.json("message", message);
    r.add(
        "peakBytes",
        peakLabel,
        hasSolution() ? peak : null,
        hasSolution() ? CommandOutput.bytes(peak) : "none (no solution)");
    r.add(
        "lowerBound",
        "lower bound",
        lowerBound < 0 ? null : lowerBound,
        lowerBound < 0 ? null : CommandOutput.bytes(lowerBound) + boundSource());
    r.add("maxLoad", "max load", maxLoad, CommandOutput.bytes(maxLoad));
    r.json("plannerLowerBound", plannerBound.isPresent() ? plannerBound.getAsLong() : null);
    r.add(
        "ratio",
        "peak / bound",
        ratio.isPresent() ? ratio.getAsDouble() : null,
        ratio.isPresent()
            ? String.format(Locale.ROOT, "%.4f", ratio.getAsDouble())
            : (hasSolution() ? "n/a (bound is 0)" : null));
    r.add("buffers", "buffers", buffers, Integer.toString(buffers));
    r.add(
        "millis",
        "time",
        Math.round(millis * 1000) / 1000.0,
        String.format(Locale.ROOT, "%.1f ms", millis));
  }

  /** Where the bound comes from: max load, or the planner's larger proven bound. */
  private String boundSource() {
    return plannerBound.isPresent() && plannerBound.getAsLong() > maxLoad
        ? ", the planner's bound"
        : ", max load";
  }

  /** The ratio as the {@code --planner all} table shows it. */
  String ratioText() {
    return ratio.isPresent() ? String.format(Locale.ROOT, "%.4f", ratio.getAsDouble()) : "-";
  }

  /** Writes the plan to {@code opts.out} if asked and there is one; says so on stderr if not. */
  void writeOut(DsaInstance instance, PlanOptions opts, PrintWriter err) throws IOException {
    if (opts.out == null) {
      return;
    }
    if (hasSolution()) {
      MiniMallocCsv.write(instance, solution, opts.out);
    } else {
      err.println("memplan: no solution (" + status + "), " + opts.out + " not written");
      err.flush();
    }
  }

  /** The exit code: 1 for a run that ended in {@code ERROR} or {@code TIMEOUT}, else 0. */
  int exitCode(PrintWriter err) {
    if (status.failed()) {
      err.println(
          "memplan: planner '"
              + planner
              + (status == RunStatus.TIMEOUT ? "' timed out" : "' failed")
              + (message.isEmpty() ? "" : ": " + Main.oneLine(message)));
      err.flush();
      return Main.FAILED;
    }
    return Main.OK;
  }
}
