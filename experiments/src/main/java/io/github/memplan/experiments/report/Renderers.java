package io.github.memplan.experiments.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Markdown, LaTeX (booktabs) and CSV renderings of {@link ProblemReport}s. */
final class Renderers {
  private Renderers() {}

  static String markdown(List<ProblemReport> reports) {
    StringBuilder sb = new StringBuilder("# memplan report\n");
    for (ProblemReport r : reports) {
      Grid g = Grid.of(r);
      sb.append("\n## ").append(md(g.title())).append("\n\n");
      mdRow(sb, g.header().stream().map(Grid.Text::plain).toList());
      sb.append('|');
      for (int c = 0; c < g.header().size(); c++) {
        sb.append(c == 0 ? " --- |" : " ---: |");
      }
      sb.append('\n');
      g.body().forEach(row -> mdRow(sb, row));
      g.summary().forEach(row -> mdRow(sb, row));
      sb.append('\n');
      for (String n : g.notes()) {
        sb.append(md(n)).append("\n\n");
      }
    }
    return sb.toString();
  }

  /**
   * Plain text for a terminal: per problem its title, then header, body and summary rows in columns
   * (the first left-aligned, the others right-aligned), then a blank line.
   */
  static String console(List<ProblemReport> reports) {
    StringBuilder sb = new StringBuilder();
    for (ProblemReport r : reports) {
      Grid g = Grid.of(r);
      List<List<String>> table = new ArrayList<>();
      table.add(g.header());
      g.body().forEach(row -> table.add(row.stream().map(Grid.Text::text).toList()));
      g.summary().forEach(row -> table.add(row.stream().map(Grid.Text::text).toList()));
      int[] w = new int[g.header().size()];
      for (List<String> row : table) {
        for (int c = 0; c < w.length; c++) {
          w[c] = Math.max(w[c], row.get(c).length());
        }
      }
      sb.append(g.title()).append('\n');
      for (List<String> row : table) {
        StringBuilder line = new StringBuilder();
        for (int c = 0; c < w.length; c++) {
          String cell = row.get(c);
          String pad = " ".repeat(w[c] - cell.length());
          line.append(c == 0 ? cell + pad : "  " + pad + cell);
        }
        sb.append(line.toString().stripTrailing()).append('\n');
      }
      sb.append('\n');
    }
    return sb.toString();
  }

  private static void mdRow(StringBuilder sb, List<Grid.Text> row) {
    sb.append('|');
    for (Grid.Text t : row) {
      String s = md(t.text());
      sb.append(' ').append(t.bold() ? "**" + s + "**" : s).append(" |");
    }
    sb.append('\n');
  }

  private static String md(String s) {
    return s.replace("|", "\\|").replace("*", "\\*").replace("_", "\\_");
  }

  /**
   * A LaTeX fragment: one booktabs {@code tabular} per problem, compilable in a document that loads
   * {@code booktabs}.
   */
  static String latex(List<ProblemReport> reports) {
    StringBuilder sb = new StringBuilder("% memplan report: needs \\usepackage{booktabs}\n");
    for (ProblemReport r : reports) {
      Grid g = Grid.of(r);
      int n = g.header().size();
      sb.append("\n% ").append(g.title().replace('\n', ' ')).append('\n');
      sb.append("\\begin{tabular}{l").append("r".repeat(n - 1)).append("}\n\\toprule\n");
      texRow(sb, g.header().stream().map(Grid.Text::plain).toList());
      sb.append("\\midrule\n");
      g.body().forEach(row -> texRow(sb, row));
      sb.append("\\midrule\n");
      g.summary().forEach(row -> texRow(sb, row));
      sb.append("\\multicolumn{")
          .append(n)
          .append("}{l}{")
          .append(tex(g.tests()))
          .append("} \\\\\n");
      sb.append("\\bottomrule\n\\end{tabular}\n");
      for (String note : g.notes()) {
        sb.append("% ").append(note).append('\n');
      }
    }
    return sb.toString();
  }

  private static void texRow(StringBuilder sb, List<Grid.Text> row) {
    for (int c = 0; c < row.size(); c++) {
      String s = tex(row.get(c).text());
      sb.append(c == 0 ? "" : " & ").append(row.get(c).bold() ? "\\textbf{" + s + "}" : s);
    }
    sb.append(" \\\\\n");
  }

  /** Escapes LaTeX's special characters in text mode. */
  static String tex(String s) {
    StringBuilder sb = new StringBuilder();
    for (char ch : s.toCharArray()) {
      switch (ch) {
        case '\\' -> sb.append("\\textbackslash{}");
        case '&', '%', '$', '#', '_', '{', '}' -> sb.append('\\').append(ch);
        case '~' -> sb.append("\\textasciitilde{}");
        case '^' -> sb.append("\\textasciicircum{}");
        case '<' -> sb.append("\\textless{}");
        case '>' -> sb.append("\\textgreater{}");
        default -> sb.append(ch);
      }
    }
    return sb.toString();
  }

  /**
   * Long-format CSV: one row per cell ({@code kind=cell}, with median, quartiles and replicate
   * counts), per instance bound ({@code lower-bound}), per planner summary and per test.
   */
  static String csv(List<ProblemReport> reports) {
    StringBuilder sb =
        new StringBuilder(
            "problem,metric,kind,instance,planner,status,replicates,failed,value,q1,q3,best\n");
    for (ProblemReport r : reports) {
      for (int i = 0; i < r.instances().size(); i++) {
        String inst = r.instances().get(i);
        if (r.lowerBoundMetric() != null && !Double.isNaN(r.lowerBounds()[i])) {
          csvRow(sb, r, "lower-bound", inst, "", "", "", "", r.lowerBounds()[i], "", "", "");
        }
        for (int p = 0; p < r.planners().size(); p++) {
          ProblemReport.Cell c = r.cells().get(i).get(p);
          csvRow(
              sb,
              r,
              "cell",
              inst,
              r.planners().get(p),
              c.hasValue() ? "" : c.status(),
              Integer.toString(c.replicates()),
              Integer.toString(c.failed()),
              c.hasValue() ? c.spread().median() : Double.NaN,
              c.hasValue() ? num(c.spread().q1()) : "",
              c.hasValue() ? num(c.spread().q3()) : "",
              Boolean.toString(c.best()));
        }
      }
      for (int p = 0; p < r.planners().size(); p++) {
        ProblemReport.PlannerSummary s = r.summaries().get(p);
        String pl = r.planners().get(p);
        summary(sb, r, "ratio-to-baseline", pl, s.ratioToBaseline(), s.ratioToBaselineN());
        summary(sb, r, "ratio-to-lower-bound", pl, s.ratioToLowerBound(), s.ratioToLowerBoundN());
        if (s.versusBaseline() != null) {
          summary(sb, r, "wins", pl, s.versusBaseline().wins(), -1);
          summary(sb, r, "ties", pl, s.versusBaseline().ties(), -1);
          summary(sb, r, "losses", pl, s.versusBaseline().losses(), -1);
        }
        summary(sb, r, "mean-rank", pl, s.meanRank(), -1);
        summary(sb, r, "holm-p", pl, s.holmP(), -1);
        if (s.wilcoxon() != null) {
          summary(sb, r, "wilcoxon-w-plus", pl, s.wilcoxon().statistic(), s.wilcoxon().n());
          summary(sb, r, "wilcoxon-p", pl, s.wilcoxon().pValue(), s.wilcoxon().n());
        }
      }
      if (r.friedman() != null) {
        summary(sb, r, "friedman-chi2", "", r.friedman().chiSquare(), r.friedman().n());
        summary(sb, r, "friedman-p", "", r.friedman().pValue(), r.friedman().n());
        summary(sb, r, "iman-davenport-f", "", r.friedman().imanDavenportF(), r.friedman().n());
        summary(sb, r, "iman-davenport-p", "", r.friedman().imanDavenportP(), r.friedman().n());
      }
    }
    return sb.toString();
  }

  private static void summary(
      StringBuilder sb, ProblemReport r, String kind, String planner, double v, int n) {
    if (!Double.isNaN(v)) {
      csvRow(sb, r, kind, "", planner, "", n < 0 ? "" : Integer.toString(n), "", v, "", "", "");
    }
  }

  private static void csvRow(
      StringBuilder sb,
      ProblemReport r,
      String kind,
      String instance,
      String planner,
      String status,
      String replicates,
      String failed,
      double value,
      String q1,
      String q3,
      String best) {
    String[] f = {
      r.problem(),
      r.metric(),
      kind,
      instance,
      planner,
      status,
      replicates,
      failed,
      num(value),
      q1,
      q3,
      best
    };
    for (int i = 0; i < f.length; i++) {
      sb.append(i == 0 ? "" : ",").append(quote(f[i]));
    }
    sb.append('\n');
  }

  /** Full precision, shortest round-trip form; integers without a decimal point. */
  private static String num(double v) {
    if (Double.isNaN(v)) {
      return "";
    }
    if (v == Math.rint(v) && Math.abs(v) < 1e15) {
      return Long.toString((long) v);
    }
    return Double.toString(v).toLowerCase(Locale.ROOT);
  }

  private static String quote(String s) {
    return s.contains(",") || s.contains("\"") || s.contains("\n")
        ? "\"" + s.replace("\"", "\"\"") + "\""
        : s;
  }
}
