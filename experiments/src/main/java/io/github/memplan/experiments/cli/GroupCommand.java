package io.github.memplan.experiments.cli;

import io.github.memplan.core.chip.Chip;
import io.github.memplan.core.chip.Chips;
import io.github.memplan.core.group.Group;
import io.github.memplan.core.group.GroupCost;
import io.github.memplan.core.group.GroupOptions;
import io.github.memplan.core.group.GroupProblem;
import io.github.memplan.core.group.Grouping;
import io.github.memplan.core.group.GroupingBound;
import io.github.memplan.core.group.RooflineCostModel;
import io.github.memplan.core.ir.Graph;
import io.github.memplan.core.ir.ModelProvider;
import io.github.memplan.core.ir.Op;
import io.github.memplan.core.lmem.LmemBanks;
import io.github.memplan.core.lmem.LmemInstance;
import io.github.memplan.core.solve.Budget;
import io.github.memplan.core.solve.SolveContext;
import io.github.memplan.experiments.measure.Measured;
import io.github.memplan.experiments.model.InputShapes;
import io.github.memplan.experiments.model.ModelArg;
import io.github.memplan.experiments.suite.GroupKind;
import io.github.memplan.experiments.suite.ResolvedPlanner;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code memplan group}: a model's layer grouping on a chip, with its estimated cost. */
@Command(
    name = "group",
    mixinStandardHelpOptions = true,
    description = {
      "Group a model's ops into layer groups (TPU-MLIR LayerGroup) with a grouping planner, and"
          + " print each group (op range, secs, LMEM use, bank conflicts, cycles, DDR bytes) and"
          + " totals beside the ungrouped model's.",
      "The grouping is checked by the grouping validator before anything about it is printed."
          + " Cycles and DDR bytes come from the roofline cost model (core.group.RooflineCostModel)."
    },
    footer = {
      "",
      "Example:",
      "  memplan group --model resnet18 --chip bm1684x --planner tpumlir-v0 --json",
      "  memplan group --model yolov3 --chip cv183x --planner tpumlir-dp --audit-lmem lmem-exact"
    })
final class GroupCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Mixin ModelChipOptions target;

  @Mixin FrontEndOption frontEnd;

  @Option(
      names = "--h2-rule",
      description =
          "Force the doc's h/2 overlap rule on for every planner (by default it follows the"
              + " planner's era: on for tpumlir-v0, as in the 2022 code, off for the others, as"
              + " today's TPU-MLIR has it).")
  boolean h2Rule;

  @Option(
      names = "--no-h2-rule",
      description = "Force the doc's h/2 overlap rule off for every planner, tpumlir-v0 included.")
  boolean noH2Rule;

  @Mixin PlanOptions opts;

  @Option(
      names = "--plot",
      paramLabel = "DIR",
      description =
          "Write one SVG per group (group-<k>.svg: timestep x address, banks shaded, conflicts"
              + " marked) into DIR.")
  java.nio.file.Path plot;

  @Option(
      names = "--audit-lmem",
      paramLabel = "ID",
      description =
          "Bank-conflict audit: solve the LMEM instance of every group whose placement has bank"
              + " conflicts again with the LMEM planner ID under conflict=hard, straddle=soft"
              + " (goal=satisfy if ID takes it), and count the conflict-free placements found,"
              + " the groups proven impossible and those undecided in the budget.")
  String auditLmem;

  @Option(
      names = "--audit-time-limit",
      paramLabel = "DURATION",
      defaultValue = "10s",
      converter = Units.DurationConverter.class,
      description = "Wall-clock budget of the audit per group (default: ${DEFAULT-VALUE}).")
  java.time.Duration auditTimeLimit;

  @Option(
      names = "--audit-param",
      paramLabel = "KEY=VALUE",
      description = "A parameter of the audit planner, overriding the audit's own; repeatable.")
  Map<String, String> auditParams;

  @Option(
      names = "--dump-lmem",
      paramLabel = "DIR",
      description =
          "Write each group's LMEM instance, with the grouping's placement, in memplan's LMEM JSON"
              + " (<model>-<chip>-group-<k>.json) into DIR.")
  java.nio.file.Path dumpLmem;

  @Mixin InputShapes inputs;

  @Override
  public Integer call() throws java.io.IOException {
    if (opts.planner == null) {
      throw new ParameterException(spec.commandLine(), "Missing required option: '--planner=ID'");
    }
    if (opts.out != null) {
      throw new ParameterException(spec.commandLine(), "--out does not apply to 'group'");
    }
    ResolvedPlanner<GroupProblem, Grouping> resolved = GROUP.planner(opts.planner, opts.params());
    String planner = resolved.id();
    Map<String, String> params = opts.params();
    LmemAudit audit =
        auditLmem == null
            ? null
            : new LmemAudit(
                auditLmem, auditParams == null ? Map.of() : auditParams, auditTimeLimit, opts.seed);
    if (auditLmem == null && auditParams != null) {
      throw new ParameterException(spec.commandLine(), "--audit-param needs --audit-lmem");
    }
    boolean json = opts.json;
    ModelProvider provider = ModelArg.resolve(target.model, inputs);
    Chip c = Chips.get(target.chip);
    Graph graph = frontEnd.graph(provider, c);
    if (h2Rule && noH2Rule) {
      throw new ParameterException(
          spec.commandLine(), "--h2-rule and --no-h2-rule exclude each other");
    }
    GroupOptions.H2Rule h2 =
        h2Rule
            ? GroupOptions.H2Rule.ON
            : noH2Rule ? GroupOptions.H2Rule.OFF : GroupOptions.H2Rule.ERA;
    GroupProblem problem =
        GroupProblem.of(graph, c, new GroupOptions(h2, GroupOptions.Objective.CYCLES));
    Measured<Grouping> m =
        GROUP.solveGuarded(
            resolved,
            problem,
            SolveContext.of(
                opts.seed, opts.timeLimit == null ? Budget.unlimited() : Budget.of(opts.timeLimit)),
            opts.timeLimit);
    Failures.rethrow(m, planner, "'" + problem.name() + "'");
    PrintWriter err = spec.commandLine().getErr();
    if (!m.violations().isEmpty()) {
      err.println(
          "memplan: "
              + planner
              + " returned an invalid grouping: "
              + m.violations().get(0)
              + " ("
              + m.violations().size()
              + " violations)");
      return Main.FAILED;
    }
    if (!m.status().hasSolution()) {
      err.println(
          "memplan: " + planner + " on " + problem.name() + ": " + m.status() + " " + m.message());
      return Main.FAILED;
    }
    Grouping g = m.solution().orElseThrow();
    if (m.message() != null && !m.message().isBlank()) {
      err.println("memplan: " + planner + ": " + m.message());
    }
    RooflineCostModel cost = new RooflineCostModel();
    List<Map<String, Object>> rows = new ArrayList<>();
    List<String> text = new ArrayList<>();
    text.add(
        String.format(
            "%-5s %-11s %-5s %-9s %-19s %-6s %-12s %s",
            "group", "ops", "#ops", "secs n/h", "LMEM used/avail", "bank", "cycles", "DDR bytes"));
    for (int k = 0; k < g.groups().size(); k++) {
      Group grp = g.groups().get(k);
      List<Op> ops = g.ops(graph, grp);
      GroupCost gc = cost.group(graph, ops, c, grp.secs(), grp.slices(), grp.timesteps());
      LmemInstance li = grp.timesteps().lmem();
      long used = grp.lmem().peak(li);
      int conflicts = LmemBanks.report(li, grp.lmem()).conflictCount();
      Map<String, Object> row = new LinkedHashMap<>();
      row.put("first", grp.first());
      row.put("last", grp.last());
      row.put("firstOp", ops.get(0).name());
      row.put("lastOp", ops.get(ops.size() - 1).name());
      row.put("ops", grp.size());
      row.put("nsecs", grp.secs().nsecs());
      row.put("csecs", grp.secs().csecs());
      row.put("hsecs", grp.secs().hsecs());
      row.put("wsecs", grp.secs().wsecs());
      row.put("groupType", g.rules().groupType(graph, ops, c).name());
      row.put("lmemUsedBytes", used);
      row.put("lmemAvailableBytes", li.capacity());
      row.put("bankConflicts", conflicts);
      row.put("movedTransfers", grp.moves().size());
      row.put("cycles", gc.cycles());
      row.put("ddrBytes", gc.ddrBytes());
      if (plot != null) {
        java.nio.file.Files.createDirectories(plot);
        java.nio.file.Path f = plot.resolve("group-" + k + ".svg");
        LmemPlot.write(li, grp.lmem(), f);
        row.put("plot", f.toString());
      }
      if (dumpLmem != null) {
        java.nio.file.Files.createDirectories(dumpLmem);
        java.nio.file.Path f =
            dumpLmem.resolve(
                (provider.name() + "-" + c.name()).replaceAll("[^A-Za-z0-9._-]", "_")
                    + "-group-"
                    + k
                    + ".json");
        io.github.memplan.core.lmem.LmemJson.write(f, li, grp.lmem());
        row.put("lmemFile", f.toString());
      }
      if (audit != null) {
        audit.audit(k, li, grp.lmem());
      }
      rows.add(row);
      text.add(
          String.format(
              "%-5d %-11s %-5d %-9s %-19s %-6d %-12d %d",
              k,
              grp.first() + ".." + grp.last(),
              grp.size(),
              grp.secs().nsecs() + "/" + grp.secs().hsecs(),
              used + "/" + li.capacity(),
              conflicts,
              gc.cycles(),
              gc.ddrBytes()));
    }
    GroupCost total = cost.model(graph, c, g);
    GroupCost ungrouped = cost.ungrouped(graph, problem.order(), c);
    GroupingBound.Totals bound =
        GroupingBound.forGroupings(cost, problem, g.timestepMethod(), g.rules()).totals();
    CommandOutput r = new CommandOutput();
    r.add("model", "model", provider.name(), provider.name());
    r.add("chip", "chip", c.name(), c.name());
    r.add("frontEnd", "front end", frontEnd.frontEnd.toString(), frontEnd.frontEnd.toString());
    r.add("quantize", "precision", frontEnd.quantize().name(), frontEnd.quantize().name());
    r.add("planner", "planner", planner, planner + (params.isEmpty() ? "" : " " + params));
    r.json("params", params);
    boolean h2On = g.rules().h2Rule();
    r.add(
        "h2Rule",
        "h/2 rule",
        h2On,
        (h2On ? "on" : "off")
            + (h2 == GroupOptions.H2Rule.ERA ? " (the planner's era)" : " (forced)"));
    r.add(
        "status",
        "status",
        m.status().toString(),
        m.status() + (m.message().isEmpty() ? "" : " (" + m.message() + ")"));
    String assumed = RooflineCostModel.assumptions(c);
    r.add(
        "costAssumptions",
        "cost model",
        assumed,
        assumed.isEmpty() ? "chip table values" : assumed);
    r.json("groups", rows);
    Map<String, Object> totals = new LinkedHashMap<>();
    totals.put("cycles", total.cycles());
    totals.put("lowerBoundCycles", bound.cycles());
    totals.put("ddrBytes", total.ddrBytes());
    totals.put("lowerBoundDdrBytes", bound.ddrBytes());
    totals.put("groups", g.groups().size());
    totals.put("globalOps", g.globalOps().size());
    totals.put("ops", g.order().size());
    r.json("totals", totals);
    Map<String, Object> base = new LinkedHashMap<>();
    base.put("cycles", ungrouped.cycles());
    base.put("ddrBytes", ungrouped.ddrBytes());
    r.json("ungrouped", base);
    if (audit != null) {
      r.json("audit", audit.json());
    }
    if (!json) {
      r.add(
          "totalsText",
          "grouped",
          null,
          total.cycles()
              + " cycles, "
              + CommandOutput.bytes(total.ddrBytes())
              + " DDR, "
              + g.groups().size()
              + " groups, "
              + g.globalOps().size()
              + " of "
              + g.order().size()
              + " ops global");
      r.add(
          "ungroupedText",
          "ungrouped",
          null,
          ungrouped.cycles() + " cycles, " + CommandOutput.bytes(ungrouped.ddrBytes()) + " DDR");
      r.add(
          "lowerBoundText",
          "lower bound",
          null,
          bound.cycles()
              + " cycles, "
              + CommandOutput.bytes(bound.ddrBytes())
              + " DDR (any grouping, roofline model"
              + (bound.cycles() > 0
                  ? String.format(
                      java.util.Locale.ROOT,
                      "; grouped / bound = %.3f",
                      (double) total.cycles() / bound.cycles())
                  : "")
              + ")");
    }
    PrintWriter out = spec.commandLine().getOut();
    if (!json) {
      text.forEach(out::println);
      out.println();
    }
    r.print(out, json);
    if (audit != null && !json) {
      out.println();
      audit.text().forEach(out::println);
      out.flush();
    }
    return Main.OK;
  }

  /** The grouping problem, whose validator and metrics the run goes through. */
  private static final GroupKind GROUP = new GroupKind();
}
