package io.github.memplan.experiments.cli;

import io.github.memplan.core.dsa.DsaInstance;
import io.github.memplan.core.dsa.DsaSolution;
import io.github.memplan.core.solve.PlannerProvider;
import io.github.memplan.core.solve.Planners;
import io.github.memplan.experiments.suite.ResolvedPlanner;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

/**
 * {@code --planner all}: every registered DSA planner on one instance, one result per planner (one
 * JSON object per line with {@code --json}, else a table). Each runs guarded by the time limit, as
 * in a suite ({@link DsaPlanResult}). A planner that fails (whatever it throws), times out, or
 * whose solution breaks a rule, gets a row saying so and the others go on; the exit code is then 1.
 */
final class AllPlanners {
  static final String ALL = "all";

  private AllPlanners() {}

  static boolean requested(PlanOptions opts) {
    return ALL.equals(opts.planner);
  }

  /**
   * Runs every planner on {@code instance}; {@code header} adds the caller's fields (model, chip,
   * instance) to each report.
   */
  static int run(
      DsaInstance instance, PlanOptions opts, CommandSpec spec, Consumer<CommandOutput> header) {
    return run(
        instance,
        opts,
        spec,
        header,
        Planners.<DsaInstance, DsaSolution>forInstance(DsaInstance.class));
  }

  /** Runs each of {@code planners} on {@code instance}, as {@link #run} runs every one. */
  static int run(
      DsaInstance instance,
      PlanOptions opts,
      CommandSpec spec,
      Consumer<CommandOutput> header,
      List<PlannerProvider<DsaInstance, DsaSolution>> planners) {
    if (!opts.params().isEmpty()) {
      throw new ParameterException(
          spec.commandLine(), "--param cannot be used with --planner all (parameters differ)");
    }
    if (opts.out != null) {
      throw new ParameterException(spec.commandLine(), "--out cannot be used with --planner all");
    }
    PrintWriter out = spec.commandLine().getOut();
    List<String[]> rows = new ArrayList<>();
    int exit = Main.OK;
    for (PlannerProvider<DsaInstance, DsaSolution> p : planners) {
      CommandOutput r = new CommandOutput();
      header.accept(r);
      String[] row;
      try {
        DsaPlanResult run = DsaPlanResult.run(instance, opts, ResolvedPlanner.of(p, Map.of()));
        r.add("planner", "planner", run.planner(), run.planner());
        r.json("params", run.config());
        r.json("seed", run.seed());
        run.addOutcome(r, "peak");
        row =
            new String[] {
              run.planner(),
              run.status().name(),
              run.hasSolution() ? Long.toString(run.peak()) : "-",
              run.lowerBound() < 0 ? "-" : Long.toString(run.lowerBound()),
              run.ratioText(),
              String.format(Locale.ROOT, "%.1f", run.millis())
            };
        if (run.status().failed()) {
          exit = Main.FAILED;
        }
      } catch (RuntimeException e) {
        // a planner that throws anything else (an overflow, say) is a fault of that planner: the
        // others still run
        String status = e instanceof Main.Failure ? "INVALID" : "ERROR";
        boolean expected = e instanceof Main.Failure || e instanceof IllegalArgumentException;
        String message = Main.oneLine(expected ? e.getMessage() : "internal error: " + e);
        r.add("planner", "planner", p.id(), p.id());
        r.add("status", "status", status, status);
        r.json("message", message);
        row = new String[] {p.id(), status + ": " + message, "-", "-", "-", "-"};
        exit = Main.FAILED;
      }
      if (opts.json) {
        r.print(out, true);
      }
      rows.add(row);
    }
    if (!opts.json) {
      printTable(out, rows);
    }
    return exit;
  }

  private static void printTable(PrintWriter out, List<String[]> rows) {
    String[] head = {"planner", "status", "peak", "lower bound", "peak/LB", "ms"};
    int[] width = new int[head.length];
    for (int i = 0; i < head.length; i++) {
      width[i] = head[i].length();
      for (String[] r : rows) {
        width[i] = Math.max(width[i], r[i].length());
      }
    }
    List<String[]> all = new ArrayList<>();
    all.add(head);
    all.addAll(rows);
    for (String[] r : all) {
      StringBuilder b = new StringBuilder();
      for (int i = 0; i < r.length; i++) {
        boolean number = i >= 2;
        String cell = r[i];
        String pad = " ".repeat(width[i] - cell.length());
        b.append(number ? pad + cell : cell + pad);
        if (i < r.length - 1) {
          b.append("  ");
        }
      }
      out.println(b.toString().stripTrailing());
    }
    out.flush();
  }

  /** Adds the fields of {@code values} to a report (JSON only). */
  static Consumer<CommandOutput> fields(Map<String, Object> values) {
    return r -> values.forEach(r::json);
  }
}
