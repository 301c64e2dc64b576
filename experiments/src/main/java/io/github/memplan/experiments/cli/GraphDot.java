package io.github.memplan.experiments.cli;

import io.github.memplan.core.ir.Graph;
import io.github.memplan.core.ir.Op;
import io.github.memplan.core.ir.Tensor;
import java.io.PrintWriter;

/**
 * A graph as Graphviz DOT: one box per op ({@code name\nKind}), an ellipse per graph input and
 * output, and an edge per tensor from its producer to each consumer, labelled with its shape.
 * Weights and constants are left out: they would double the drawing and carry no dataflow.
 */
final class GraphDot {
  private GraphDot() {}

  static void write(Graph g, PrintWriter out) {
    out.println("digraph " + quote(g.name()) + " {");
    out.println("  node [shape=box, fontname=\"Helvetica\", fontsize=10];");
    out.println("  edge [fontname=\"Helvetica\", fontsize=8];");
    for (String in : g.inputs()) {
      Tensor t = g.tensor(in);
      out.println(
          "  "
              + quote("in:" + in)
              + " [shape=ellipse, label="
              + quote(in + "\n" + t.shape())
              + "];");
    }
    for (Op op : g.ops()) {
      out.println(
          "  "
              + quote("op:" + op.name())
              + " [label="
              + quote(op.name() + "\n" + op.kind())
              + "];");
    }
    for (Op op : g.ops()) {
      for (String in : op.inputs()) {
        Tensor t = g.tensor(in);
        if (t.role().isStored()) {
          continue;
        }
        String from = g.producer(in).map(p -> "op:" + p.name()).orElse("in:" + in);
        out.println(
            "  "
                + quote(from)
                + " -> "
                + quote("op:" + op.name())
                + " [label="
                + quote(t.shape().toString())
                + "];");
      }
    }
    for (String o : g.outputs()) {
      Tensor t = g.tensor(o);
      out.println(
          "  "
              + quote("out:" + o)
              + " [shape=ellipse, label="
              + quote(o + "\n" + t.shape())
              + "];");
      String from = g.producer(o).map(p -> "op:" + p.name()).orElse("in:" + o);
      out.println("  " + quote(from) + " -> " + quote("out:" + o) + ";");
    }
    out.println("}");
    out.flush();
  }

  /** A DOT string: quotes and backslashes escaped, newlines as {@code \n}. */
  static String quote(String s) {
    return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n") + "\"";
  }
}
