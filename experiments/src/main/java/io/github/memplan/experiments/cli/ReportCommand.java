package io.github.memplan.experiments.cli;

import io.github.memplan.experiments.report.Reports;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code memplan report DIR}: paper tables from a results folder. */
@Command(
    name = "report",
    mixinStandardHelpOptions = true,
    description = {
      "Write report.md, report.tex (booktabs), report.csv and plots/ into DIR from DIR/results.csv:"
          + " per problem an instance x planner table of medians over replicates (IQR),"
          + " lower bounds, best in bold, geometric-mean ratios, wins/ties/losses, mean ranks,"
          + " Friedman, Holm and Wilcoxon tests."
    })
final class ReportCommand implements Callable<Integer> {
  enum Fmt {
    md,
    latex,
    csv,
    plots,
    all
  }

  @Spec CommandSpec spec;

  @Parameters(paramLabel = "DIR", description = "A results folder holding results.csv.")
  Path dir;

  @Option(
      names = "--baseline",
      paramLabel = "ID",
      description = "Planner to compare against (default: the first planner in the results).")
  String baseline;

  @Option(
      names = "--metric",
      paramLabel = "ID",
      description = "Metric to tabulate (default: each problem's primary metric, e.g. peak-bytes).")
  String metric;

  @Option(
      names = "--format",
      split = ",",
      paramLabel = "FMT",
      description =
          "md, latex, csv, plots (PNG and SVG in DIR/plots) or all (default: all); repeatable or"
              + " comma-separated.")
  List<Fmt> formats = List.of(Fmt.all);

  @Override
  public Integer call() {
    Set<Reports.Format> fs = EnumSet.noneOf(Reports.Format.class);
    for (Fmt f : formats) {
      if (f == Fmt.all) {
        fs.addAll(EnumSet.allOf(Reports.Format.class));
      } else {
        fs.add(Reports.Format.valueOf(f.name()));
      }
    }
    for (Path p : Reports.write(dir, new Reports.Options(baseline, metric, fs))) {
      spec.commandLine().getOut().println(p);
    }
    return Main.OK;
  }
}
