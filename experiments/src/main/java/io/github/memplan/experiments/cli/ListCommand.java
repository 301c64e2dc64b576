package io.github.memplan.experiments.cli;

import io.github.memplan.core.chip.Chip;
import io.github.memplan.core.chip.Chips;
import io.github.memplan.core.device.DeviceProblem;
import io.github.memplan.core.device.DeviceRun;
import io.github.memplan.core.ir.ModelProvider;
import io.github.memplan.core.ir.Models;
import io.github.memplan.core.solve.Parameter;
import io.github.memplan.core.solve.PlannerProvider;
import io.github.memplan.core.solve.Planners;
import io.github.memplan.experiments.suite.ProblemKind;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code memplan list planners|chips|models|allocators}; {@code list planners --format markdown}
 * prints {@code docs/planners.md} ({@link PlannersMarkdown}).
 */
@Command(
    name = "list",
    mixinStandardHelpOptions = true,
    description =
        "List the registered planners, the known chips, the zoo's models or the device"
            + " allocators.")
final class ListCommand implements Callable<Integer> {
  enum What {
    planners,
    chips,
    models,
    allocators
  }

  enum Format {
    text,
    markdown
  }

  @Spec CommandSpec spec;

  @Parameters(paramLabel = "WHAT", description = "One of: ${COMPLETION-CANDIDATES}.")
  What what;

  @Option(
      names = "--format",
      paramLabel = "FORMAT",
      defaultValue = "text",
      description =
          "text (default) or markdown; markdown is for planners only and prints docs/planners.md"
              + " ("
              + PlannersMarkdown.COMMAND
              + ").")
  Format format;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    if (format == Format.markdown) {
      if (what != What.planners) {
        throw new ParameterException(
            spec.commandLine(), "--format markdown applies to 'list planners' only");
      }
      out.print(PlannersMarkdown.render(Planners.all(), ProblemKind.all().values()));
      out.flush();
      return Main.OK;
    }
    List<String[]> rows = new ArrayList<>();
    List<List<String>> details = new ArrayList<>();
    switch (what) {
      case planners -> {
        for (PlannerProvider<?, ?> p : Planners.all()) {
          rows.add(new String[] {p.id(), p.instanceType().getSimpleName(), p.description()});
          List<String> d = new ArrayList<>();
          for (Parameter param : p.parameters()) {
            d.add(
                "--param "
                    + param.name()
                    + "="
                    + param.defaultValue()
                    + "  "
                    + param.description());
          }
          details.add(d);
        }
      }
      case chips -> {
        for (Chip c : Chips.all()) {
          rows.add(
              new String[] {
                c.name(),
                c.family(),
                c.lanes()
                    + " lanes x "
                    + Units.humanBytes(c.lmemBytesPerLane())
                    + " LMEM in "
                    + c.banks()
                    + " banks, EU "
                    + c.euBytes()
                    + " B, GMEM alignment "
                    + c.gmemAlignment()
                    + " B"
                    + (c.name().equals(Chips.DEFAULT) ? " (default)" : "")
              });
          details.add(List.of());
        }
      }
      case allocators -> {
        for (PlannerProvider<DeviceProblem, DeviceRun> a :
            Planners.<DeviceProblem, DeviceRun>forInstance(DeviceProblem.class)) {
          rows.add(new String[] {a.id(), a.description()});
          details.add(List.of());
        }
      }
      case models -> {
        for (ModelProvider m : Models.all()) {
          rows.add(new String[] {m.name(), m.description()});
          details.add(List.of());
        }
      }
    }
    if (rows.isEmpty()) {
      spec.commandLine().getErr().println("memplan: no " + what + " on the class path");
      spec.commandLine().getErr().flush();
      return Main.OK;
    }
    int[] width = new int[rows.get(0).length];
    for (String[] r : rows) {
      for (int i = 0; i < r.length - 1; i++) {
        width[i] = Math.max(width[i], r[i].length());
      }
    }
    for (int k = 0; k < rows.size(); k++) {
      String[] r = rows.get(k);
      StringBuilder sb = new StringBuilder();
      for (int i = 0; i < r.length; i++) {
        sb.append(r[i]);
        if (i < r.length - 1) {
          sb.append(" ".repeat(width[i] - r[i].length() + 2));
        }
      }
      out.println(sb);
      for (String d : details.get(k)) {
        out.println("    " + d);
      }
    }
    out.flush();
    return Main.OK;
  }
}
