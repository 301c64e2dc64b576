package io.github.memplan.experiments.cli;

import io.github.memplan.core.lmem.LmemBanks;
import io.github.memplan.core.lmem.LmemBuffer;
import io.github.memplan.core.lmem.LmemInstance;
import io.github.memplan.core.lmem.LmemJson;
import io.github.memplan.core.lmem.LmemLowerBounds;
import io.github.memplan.core.lmem.LmemSolution;
import io.github.memplan.core.solve.Budget;
import io.github.memplan.core.solve.SolveContext;
import io.github.memplan.experiments.measure.Measured;
import io.github.memplan.experiments.measure.RunStatus;
import io.github.memplan.experiments.suite.LmemKind;
import io.github.memplan.experiments.suite.ResolvedPlanner;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code memplan lmem}: place the buffers of one layer group in LMEM. */
@Command(
    name = "lmem",
    mixinStandardHelpOptions = true,
    description = {
      "Place one layer group's LMEM buffers (memplan's LMEM JSON) with an LMEM planner.",
      "The solution is checked by the validator before anything about it is printed."
    },
    footer = {
      "",
      "Examples:",
      "  memplan lmem --instance group.json --planner lmem-tpumlir --plot group.svg",
      "  memplan lmem --instance group.json --planner lmem-v0 --json --out placed.json"
    })
final class LmemCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Option(
      names = "--instance",
      paramLabel = "FILE.json",
      required = true,
      description = "The instance, in memplan's LMEM JSON (addresses in it are ignored).")
  Path instance;

  @Option(
      names = "--plot",
      paramLabel = "FILE.svg",
      description = "Draw the placement: timesteps x addresses, banks, conflicts, straddles.")
  Path plot;

  @Mixin PlanOptions opts;

  @Override
  public Integer call() throws IOException {
    if (opts.planner == null) {
      throw new ParameterException(spec.commandLine(), "Missing required option: '--planner=ID'");
    }
    if (opts.planner.equals("all")) {
      throw new ParameterException(
          spec.commandLine(), "lmem runs one planner; 'all' is not supported");
    }
    ResolvedPlanner<LmemInstance, LmemSolution> planner = LMEM.planner(opts.planner, opts.params());
    LmemInstance in = LmemJson.read(instance).instance();
    Measured<LmemSolution> m =
        LMEM.solveGuarded(
            planner, in, SolveContext.of(opts.seed, Budget.of(opts.timeLimit)), opts.timeLimit);
    Failures.check(m, planner.id(), in.name(), in.buffers().size(), "placement");
    LmemSolution sol = m.solution().orElse(null);
    double millis = m.millis();
    PrintWriter stdout = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    CommandOutput r = new CommandOutput();
    r.add("instance", "instance", in.name(), in.name());
    r.json("file", instance.toString());
    r.add("planner", "planner", planner.id(), planner.id());
    r.json("params", planner.params());
    r.add("seed", "seed", opts.seed, Long.toString(opts.seed));
    r.add(
        "status",
        "status",
        m.status().name(),
        m.status().name() + (m.message().isEmpty() ? "" : " (" + m.message() + ")"));
    r.json("message", m.message());
    long maxLive = LmemLowerBounds.maxLive(in);
    r.add("capacity", "capacity", in.capacity(), CommandOutput.bytes(in.capacity()) + " per lane");
    r.add(
        "banks",
        "banks",
        in.banks(),
        in.banks() + " x " + CommandOutput.bytes(in.bankBytes()) + ", EU " + in.euBytes() + " B");
    Long peak = whole(m.value("lmem-peak-bytes"));
    r.add(
        "peakBytes", "peak", peak, peak == null ? "none (no solution)" : CommandOutput.bytes(peak));
    Long lb = whole(m.value("lmem-lower-bound-bytes"));
    r.add(
        "lowerBound",
        "lower bound",
        lb,
        lb == null
            ? null
            : CommandOutput.bytes(lb)
                + (lb > maxLive ? ", the planner's bound" : ", max live bytes"));
    r.json("maxLive", maxLive);
    Long conflicts = whole(m.value("bank-conflicts"));
    r.add(
        "bankConflicts",
        "bank conflicts",
        conflicts,
        conflicts == null ? null : Long.toString(conflicts));
    Long straddles = whole(m.value("bank-straddles"));
    r.add(
        "bankStraddles",
        "bank straddles",
        straddles,
        straddles == null ? null : Long.toString(straddles));
    r.add("buffersCount", "buffers", in.buffers().size(), Integer.toString(in.buffers().size()));
    r.add(
        "millis",
        "time",
        Math.round(millis * 1000) / 1000.0,
        String.format(Locale.ROOT, "%.1f ms", millis));
    r.json("buffers", rows(in, sol));
    if (!opts.json) {
      table(stdout, in, sol);
    }
    r.print(stdout, opts.json);
    if (sol != null) {
      if (plot != null) {
        LmemPlot.write(in, sol, plot);
      }
      if (opts.out != null) {
        LmemJson.write(opts.out, in, sol);
      }
    } else if (plot != null || opts.out != null) {
      err.println("memplan: no solution (" + m.status() + "), nothing drawn or written");
      err.flush();
    }
    if (m.status().failed()) {
      err.println(
          "memplan: planner '"
              + planner.id()
              + (m.status() == RunStatus.TIMEOUT ? "' timed out: " : "' failed: ")
              + Main.oneLine(m.message()));
      err.flush();
      return Main.FAILED;
    }
    return Main.OK;
  }

  /** The LMEM problem, whose validator and metrics the run goes through. */
  private static final LmemKind LMEM = new LmemKind();

  /** A metric value that is a whole number, or null when the run has none. */
  private static Long whole(java.util.OptionalDouble v) {
    return v.isPresent() ? (long) v.getAsDouble() : null;
  }

  private static String life(LmemBuffer b) {
    return b.held() ? "held" : "[" + b.start() + "," + b.end() + "]" + (b.wraps() ? " wraps" : "");
  }

  private static String banksOf(LmemInstance in, long address, long bytes) {
    int first = LmemBanks.firstBank(in, address);
    int last = LmemBanks.lastBank(in, address, bytes);
    return first == last ? Integer.toString(first) : first + "-" + last;
  }

  private static List<Map<String, Object>> rows(LmemInstance in, LmemSolution sol) {
    List<Map<String, Object>> out = new ArrayList<>();
    for (int i = 0; i < in.buffers().size(); i++) {
      LmemBuffer b = in.buffers().get(i);
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("id", b.id());
      m.put("kind", b.kind().name().toLowerCase(Locale.ROOT));
      m.put("start", b.start());
      m.put("end", b.end());
      m.put("held", b.held());
      m.put("bytes", b.bytes());
      m.put("address", sol == null ? null : sol.address(i));
      m.put("banks", sol == null ? null : banksOf(in, sol.address(i), b.bytes()));
      out.add(m);
    }
    return out;
  }

  private static void table(PrintWriter out, LmemInstance in, LmemSolution sol) {
    List<String[]> lines = new ArrayList<>();
    lines.add(new String[] {"id", "kind", "life", "bytes", "address", "banks"});
    for (Map<String, Object> m : rows(in, sol)) {
      LmemBuffer b = in.buffers().get(lines.size() - 1);
      lines.add(
          new String[] {
            b.id(),
            (String) m.get("kind"),
            life(b),
            Long.toString(b.bytes()),
            sol == null ? "-" : m.get("address").toString(),
            sol == null ? "-" : (String) m.get("banks")
          });
    }
    int[] w = new int[6];
    for (String[] l : lines) {
      for (int c = 0; c < 6; c++) {
        w[c] = Math.max(w[c], l[c].length());
      }
    }
    for (String[] l : lines) {
      StringBuilder sb = new StringBuilder();
      for (int c = 0; c < 6; c++) {
        String cell = l[c];
        boolean right = c == 3 || c == 4;
        String pad = " ".repeat(w[c] - cell.length());
        sb.append(right ? pad + cell : cell + pad).append(c < 5 ? "  " : "");
      }
      out.println(sb.toString().stripTrailing());
    }
    out.println();
  }
}
