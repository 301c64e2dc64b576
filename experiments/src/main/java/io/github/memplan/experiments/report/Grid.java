package io.github.memplan.experiments.report;

import io.github.memplan.experiments.stats.Friedman;
import io.github.memplan.experiments.stats.Holm;
import java.math.BigDecimal;
import java.math.MathContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A {@link ProblemReport} laid out as text cells, shared by the Markdown and LaTeX renderers:
 * header, body rows (with the best cells marked), summary rows, and notes.
 */
record Grid(
    String title,
    List<String> header,
    List<List<Text>> body,
    List<List<Text>> summary,
    String tests,
    List<String> notes) {

  /** One cell's text, bold when it holds the best value. */
  record Text(String text, boolean bold) {
    static Text plain(String s) {
      return new Text(s, false);
    }
  }

  static Grid of(ProblemReport r) {
    boolean bound = r.lowerBoundMetric() != null;
    List<String> header = new ArrayList<>();
    header.add("instance");
    if (bound) {
      header.add("lower bound");
    }
    header.addAll(r.planners());
    List<List<Text>> body = new ArrayList<>();
    boolean anyFailed = false;
    boolean anyReplicated = false;
    for (int i = 0; i < r.instances().size(); i++) {
      List<Text> row = new ArrayList<>();
      row.add(Text.plain(r.instances().get(i)));
      if (bound) {
        row.add(Text.plain(Double.isNaN(r.lowerBounds()[i]) ? "-" : number(r.lowerBounds()[i])));
      }
      for (ProblemReport.Cell c : r.cells().get(i)) {
        row.add(new Text(cell(c), c.best()));
        anyFailed |= c.hasValue() && c.failed() > 0;
        anyReplicated |= c.hasValue() && c.spread().n() > 1;
      }
      body.add(row);
    }
    String base = r.baseline();
    List<List<Text>> summary = new ArrayList<>();
    summary.add(summaryRow(r, bound, "geo-mean ratio to " + base, s -> ratio(s.ratioToBaseline())));
    if (bound) {
      summary.add(
          summaryRow(r, bound, "geo-mean ratio to lower bound", s -> ratio(s.ratioToLowerBound())));
    }
    summary.add(
        summaryRow(
            r,
            bound,
            "wins/ties/losses vs " + base,
            s -> s.versusBaseline() == null ? "-" : s.versusBaseline().toString()));
    if (r.friedman() != null) {
      summary.add(summaryRow(r, bound, "mean rank", s -> fixed(s.meanRank(), 2)));
      summary.add(summaryRow(r, bound, "Holm p vs best-ranked", s -> p(s.holmP())));
    }
    summary.add(
        summaryRow(
            r,
            bound,
            "Wilcoxon p vs " + base,
            s -> s.wilcoxon() == null ? "-" : p(s.wilcoxon().pValue())));
    List<String> notes = new ArrayList<>();
    notes.add(
        r.metric()
            + " ("
            + r.unit()
            + ", "
            + (r.direction() == io.github.memplan.core.solve.Direction.LOWER_IS_BETTER
                ? "lower"
                : "higher")
            + " is better): median over replicates"
            + (anyReplicated ? ", IQR in parentheses" : "")
            + "; best per instance in bold"
            + (bound ? "; lower bound: the strongest " + r.lowerBoundMetric() + " of any run" : "")
            + ".");
    if (anyFailed) {
      notes.add("* some replicates of this cell have no value (failed runs); median of the rest.");
    }
    Friedman f = r.friedman();
    if (f == null) {
      notes.add("Friedman test: " + r.friedmanNote() + ".");
    } else {
      String imanDavenport =
          Double.isNaN(f.imanDavenportF())
              ? "Iman-Davenport F undefined (every instance ranks the planners alike)"
              : String.format(
                  Locale.ROOT,
                  "Iman-Davenport F = %s, p = %s",
                  fixed(f.imanDavenportF(), 3),
                  p(f.imanDavenportP()));
      notes.add(
          String.format(
              Locale.ROOT,
              "Friedman chi2 = %s (df %d), p = %s; %s; %s.",
              fixed(f.chiSquare(), 3),
              f.k() - 1,
              p(f.pValue()),
              imanDavenport,
              r.friedmanNote()));
      notes.add(
          "Holm: z = (R_i - R_best) / sqrt(k(k+1)/(6N)) against the best-ranked planner, "
              + r.planners().get(Holm.best(f.meanRanks()))
              + ".");
    }
    notes.add("Wilcoxon signed-rank, two-sided, on the medians paired by instance.");
    String tests =
        f == null
            ? "Friedman: n/a"
            : String.format(
                Locale.ROOT,
                "Friedman p = %s, Iman-Davenport p = %s (N = %d)",
                p(f.pValue()),
                p(f.imanDavenportP()),
                f.n());
    return new Grid(
        r.problem() + ": " + r.metric(),
        List.copyOf(header),
        List.copyOf(body),
        List.copyOf(summary),
        tests,
        List.copyOf(notes));
  }

  private static List<Text> summaryRow(
      ProblemReport r,
      boolean bound,
      String label,
      java.util.function.Function<ProblemReport.PlannerSummary, String> f) {
    List<Text> row = new ArrayList<>();
    row.add(Text.plain(label));
    if (bound) {
      row.add(Text.plain(""));
    }
    for (ProblemReport.PlannerSummary s : r.summaries()) {
      row.add(Text.plain(f.apply(s)));
    }
    return row;
  }

  static String cell(ProblemReport.Cell c) {
    if (!c.hasValue()) {
      return c.status();
    }
    String s = number(c.spread().median());
    if (c.spread().n() > 1) {
      s += " (" + number(c.spread().iqr()) + ")";
    }
    return c.failed() > 0 ? s + " *" : s;
  }

  /** Integers as they are, other values to 4 significant digits, never in exponent form. */
  static String number(double v) {
    if (Double.isNaN(v)) {
      return "-";
    }
    if (v == Math.rint(v) && Math.abs(v) < 1e15) {
      return Long.toString((long) v);
    }
    return new BigDecimal(v).round(new MathContext(4)).stripTrailingZeros().toPlainString();
  }

  static String ratio(double v) {
    return fixed(v, 3);
  }

  static String fixed(double v, int digits) {
    return Double.isNaN(v) ? "-" : String.format(Locale.ROOT, "%." + digits + "f", v);
  }

  static String p(double v) {
    if (Double.isNaN(v)) {
      return "-";
    }
    return v < 0.001 ? "<0.001" : String.format(Locale.ROOT, "%.3f", v);
  }
}
