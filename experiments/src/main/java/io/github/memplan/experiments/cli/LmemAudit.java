package io.github.memplan.experiments.cli;

import io.github.memplan.core.lmem.LmemBanks;
import io.github.memplan.core.lmem.LmemInstance;
import io.github.memplan.core.lmem.LmemSolution;
import io.github.memplan.core.solve.Budget;
import io.github.memplan.core.solve.Parameter;
import io.github.memplan.core.solve.PlannerProvider;
import io.github.memplan.core.solve.Planners;
import io.github.memplan.core.solve.SolveContext;
import io.github.memplan.experiments.measure.Measured;
import io.github.memplan.experiments.measure.RunStatus;
import io.github.memplan.experiments.suite.LmemKind;
import io.github.memplan.experiments.suite.ResolvedPlanner;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The bank-conflict audit of a grouping ({@code memplan group --audit-lmem ID}, issue 7): every
 * group whose LMEM placement has bank conflicts ({@link LmemBanks#report}) is solved again by an
 * LMEM planner with {@code conflict=hard} and {@code straddle=soft}, so that each conflict the
 * grouping's planner accepted is shown to be avoidable (a conflict-free placement found) or
 * unavoidable (proven impossible), or left undecided in the budget. A planner that declares a
 * {@code goal} parameter is asked for {@code goal=satisfy} (the question is existence); {@code
 * --audit-param} overrides any of these. Every audit runs guarded as a suite's run, and its
 * solution passes the LMEM validator; one with conflicts left counts as undecided.
 */
final class LmemAudit {
  private static final LmemKind LMEM = new LmemKind();

  /** One audited group. */
  record Row(
      int group,
      int buffers,
      int conflicts,
      RunStatus status,
      Integer auditConflicts,
      Long auditPeak,
      String message) {

    /** A conflict-free placement was found. */
    boolean found() {
      return auditConflicts != null && auditConflicts == 0;
    }

    boolean impossible() {
      return status == RunStatus.INFEASIBLE;
    }

    Map<String, Object> json() {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("group", group);
      m.put("buffers", buffers);
      m.put("conflicts", conflicts);
      m.put("auditStatus", status.toString());
      m.put("auditConflicts", auditConflicts);
      m.put("auditPeakBytes", auditPeak);
      m.put("verdict", found() ? "conflict-free" : impossible() ? "impossible" : "undecided");
      m.put("message", message);
      return m;
    }
  }

  private final String id;
  private final Map<String, String> params;
  private final ResolvedPlanner<LmemInstance, LmemSolution> planner;
  private final Duration limit;
  private final long seed;
  private final List<Row> rows = new ArrayList<>();

  LmemAudit(String id, Map<String, String> extra, Duration limit, long seed) {
    PlannerProvider<LmemInstance, LmemSolution> p = Planners.get(id, LmemInstance.class);
    // the audit's own parameters, then the user's; resolved once for every group
    Map<String, String> m = new TreeMap<>();
    m.put("conflict", "hard");
    m.put("straddle", "soft");
    if (p.parameters().stream().map(Parameter::name).anyMatch("goal"::equals)) {
      m.put("goal", "satisfy");
    }
    m.putAll(extra);
    this.id = id;
    this.params = m;
    this.planner = ResolvedPlanner.of(p, m);
    this.limit = limit;
    this.seed = seed;
  }

  /** Audits group {@code k} if its placement {@code solution} has bank conflicts. */
  void audit(int k, LmemInstance instance, LmemSolution solution) {
    int conflicts = LmemBanks.report(instance, solution).conflictCount();
    if (conflicts == 0) {
      return;
    }
    Budget budget = limit == null ? Budget.unlimited() : Budget.of(limit);
    Measured<LmemSolution> o =
        LMEM.solveGuarded(planner, instance, SolveContext.of(seed, budget), limit);
    Failures.rethrow(o, id, "group " + k);
    if (!o.violations().isEmpty()) {
      throw new IllegalStateException(
          "audit planner '"
              + id
              + "' returned an invalid placement of group "
              + k
              + ": "
              + o.violations().get(0));
    }
    Integer ac = o.solution().map(s -> LmemBanks.report(instance, s).conflictCount()).orElse(null);
    Long peak = o.solution().map(s -> s.peak(instance)).orElse(null);
    rows.add(new Row(k, instance.buffers().size(), conflicts, o.status(), ac, peak, o.message()));
  }

  List<Row> rows() {
    return rows;
  }

  String summary() {
    long found = rows.stream().filter(Row::found).count();
    long impossible = rows.stream().filter(Row::impossible).count();
    return "audit: "
        + rows.size()
        + " groups with conflicts; "
        + found
        + " conflict-free placements found; "
        + impossible
        + " proven impossible; "
        + (rows.size() - found - impossible)
        + " undecided in budget";
  }

  /** The text lines: a header, one line per audited group, the summary. */
  List<String> text() {
    List<String> out = new ArrayList<>();
    out.add(
        "audit with "
            + id
            + " "
            + params
            + ", "
            + (limit == null ? "no time limit" : duration(limit))
            + " per group:");
    out.add(
        String.format(
            "%-5s %-7s %-9s %-21s %-15s %s",
            "group", "buffers", "conflicts", "audit status", "audit conflicts", "audit peak"));
    for (Row r : rows) {
      out.add(
          String.format(
              "%-5d %-7d %-9d %-21s %-15s %s",
              r.group(),
              r.buffers(),
              r.conflicts(),
              r.status(),
              r.auditConflicts() == null ? "-" : r.auditConflicts().toString(),
              r.auditPeak() == null ? "-" : r.auditPeak().toString()));
    }
    out.add(summary());
    return out;
  }

  private static String duration(Duration d) {
    return d.toMillis() % 1000 == 0 ? d.toSeconds() + "s" : d.toMillis() + "ms";
  }

  /** The JSON object. */
  Map<String, Object> json() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("planner", id);
    m.put("params", params);
    m.put("timeLimit", limit == null ? null : duration(limit));
    m.put("groups", rows.stream().map(Row::json).toList());
    long found = rows.stream().filter(Row::found).count();
    long impossible = rows.stream().filter(Row::impossible).count();
    m.put("groupsWithConflicts", rows.size());
    m.put("conflictFree", found);
    m.put("provenImpossible", impossible);
    m.put("undecided", rows.size() - found - impossible);
    m.put("summary", summary());
    return m;
  }
}
