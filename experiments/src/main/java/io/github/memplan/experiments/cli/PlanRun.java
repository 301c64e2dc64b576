package io.github.memplan.experiments.cli;

import io.github.memplan.core.dsa.DsaInstance;
import io.github.memplan.core.dsa.DsaSolution;
import io.github.memplan.core.dsa.DsaValidator;
import io.github.memplan.core.dsa.LowerBounds;
import io.github.memplan.core.dsa.MiniMallocCsv;
import io.github.memplan.core.solve.Budget;
import io.github.memplan.core.solve.Outcome;
import io.github.memplan.core.solve.Planner;
import io.github.memplan.core.solve.PlannerConfig;
import io.github.memplan.core.solve.PlannerProvider;
import io.github.memplan.core.solve.Planners;
import io.github.memplan.core.solve.SolveContext;
import io.github.memplan.core.solve.Status;
import io.github.memplan.core.solve.Violation;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalLong;

/**
 * One planner run on a DSA instance, with the validator between the planner and anything printed: a
 * solution that breaks a rule never reaches the output.
 *
 * @param planner the planner id
 * @param config the resolved parameters, defaults included
 * @param seed the run's seed
 * @param status how the run ended
 * @param message the planner's note, possibly empty
 * @param solution the validated solution, or {@code null}
 * @param peak {@code max(offset + size)}, or -1 without a solution
 * @param lowerBound the max-load lower bound ({@link LowerBounds#maxLoad})
 * @param plannerBound the lower bound the planner claims, if any (not checked)
 * @param buffers the number of buffers
 * @param millis the planner's wall-clock time
 */
record PlanRun(
    String planner,
    Map<String, String> config,
    long seed,
    Status status,
    String message,
    DsaSolution solution,
    long peak,
    long lowerBound,
    OptionalLong plannerBound,
    int buffers,
    double millis) {

  static PlanRun run(DsaInstance instance, PlanOptions opts) {
    return run(instance, opts, opts.planner);
  }

  /** Runs planner {@code plannerId} with the options' parameters, seed and time limit. */
  static PlanRun run(DsaInstance instance, PlanOptions opts, String plannerId) {
    return run(instance, opts, Planners.get(plannerId, DsaInstance.class));
  }

  /** Runs the planner of {@code provider} with the options' parameters, seed and time limit. */
  static PlanRun run(
      DsaInstance instance, PlanOptions opts, PlannerProvider<DsaInstance, DsaSolution> provider) {
    PlannerConfig config =
        PlannerConfig.resolve(provider.id(), provider.parameters(), opts.params());
    Planner<DsaInstance, DsaSolution> planner = provider.create(config);
    long lowerBound = LowerBounds.maxLoad(instance);

    SolveContext ctx = SolveContext.of(opts.seed, Budget.of(opts.timeLimit));
    long t0 = System.nanoTime();
    Outcome<DsaSolution> outcome;
    try {
      outcome = planner.solve(instance, ctx);
    } catch (OutOfMemoryError | StackOverflowError e) {
      throw new Main.Failure(
          "planner '"
              + provider.id()
              + "' "
              + Main.outOf(e)
              + " on '"
              + instance.name()
              + "' ("
              + instance.size()
              + " buffers)");
    }
    double millis = (System.nanoTime() - t0) / 1e6;

    long peak = -1;
    if (outcome.status().hasSolution()) {
      List<Violation> violations = new DsaValidator().validate(instance, outcome.solution());
      if (!violations.isEmpty()) {
        throw new Main.Failure(
            "planner '"
                + provider.id()
                + "' returned an invalid solution for '"
                + instance.name()
                + "': "
                + violations.get(0)
                + (violations.size() > 1 ? " (and " + (violations.size() - 1) + " more)" : ""));
      }
      peak = instance.peak(outcome.solution());
    }
    return new PlanRun(
        provider.id(),
        config.values(),
        opts.seed,
        outcome.status(),
        outcome.message(),
        outcome.solution(),
        peak,
        lowerBound,
        outcome.lowerBound(),
        instance.size(),
        millis);
  }

  boolean hasSolution() {
    return solution != null;
  }

  /** peak / lower bound, or {@code null} without a solution or with a zero bound. */
  Double ratio() {
    if (!hasSolution()) {
      return null;
    }
    if (lowerBound == 0) {
      return peak == 0 ? 1.0 : null;
    }
    return (double) peak / lowerBound;
  }

  /** The planner's lines of a report, from the status on. */
  void addOutcome(Report r, String peakLabel) {
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
        hasSolution() ? bytes(peak) : "none (no solution)");
    r.add("lowerBound", "lower bound", lowerBound, bytes(lowerBound) + ", max load");
    r.json("plannerLowerBound", plannerBound.isPresent() ? plannerBound.getAsLong() : null);
    Double ratio = ratio();
    r.add(
        "ratio",
        "peak / bound",
        ratio == null ? null : Math.round(ratio * 10000) / 10000.0,
        ratio == null
            ? (hasSolution() ? "n/a (bound is 0)" : null)
            : String.format(Locale.ROOT, "%.4f", ratio));
    r.add("buffers", "buffers", buffers, Integer.toString(buffers));
    r.add(
        "millis",
        "time",
        Math.round(millis * 1000) / 1000.0,
        String.format(Locale.ROOT, "%.1f ms", millis));
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

  /** The exit code: 1 for a planner that ended in {@link Status#ERROR}, else 0. */
  int exitCode(PrintWriter err) {
    if (status == Status.ERROR) {
      err.println(
          "memplan: planner '"
              + planner
              + "' failed"
              + (message.isEmpty() ? "" : ": " + Main.oneLine(message)));
      err.flush();
      return Main.FAILED;
    }
    return Main.OK;
  }

  static String bytes(long n) {
    return n < 1024 ? n + " B" : n + " B (" + Units.humanBytes(n) + ")";
  }
}
