package io.github.memplan.datasets.darknet;

import io.github.memplan.core.ir.Graph;
import io.github.memplan.core.ir.Shape;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * Compares an imported network with darknet's own table, layer by layer: the layer type, every size
 * darknet prints (input and output images, flat sizes) and the layers a route or shortcut reads.
 */
final class OracleCheck {
  private OracleCheck() {}

  /** What the comparison found: layers whose every printed value agreed, and the mismatches. */
  record Result(int layers, int matched, List<String> mismatches) {}

  private static final Map<String, String> SECTION =
      Map.ofEntries(
          Map.entry("conv", "convolutional"),
          Map.entry("max", "maxpool"),
          Map.entry("avg", "avgpool"),
          Map.entry("res", "shortcut"),
          Map.entry("route", "route"),
          Map.entry("upsample", "upsample"),
          Map.entry("reorg", "reorg"),
          Map.entry("connected", "connected"),
          Map.entry("dropout", "dropout"),
          Map.entry("softmax", "softmax"),
          Map.entry("cost", "cost"),
          Map.entry("yolo", "yolo"),
          Map.entry("detection", "region"),
          Map.entry("detection-v1", "detection"),
          Map.entry("crop", "crop"),
          Map.entry("local", "local"),
          Map.entry("rnn", "rnn"),
          Map.entry("gru", "gru"));

  static Result compare(DarknetNetwork net, List<DarknetTable.Row> rows) {
    List<String> bad = new ArrayList<>();
    List<DarknetNetwork.Layer> layers = net.layers();
    if (rows.size() != layers.size()) {
      bad.add("darknet printed " + rows.size() + " layers, the import has " + layers.size());
    }
    int matched = 0;
    for (int i = 0; i < Math.min(rows.size(), layers.size()); i++) {
      DarknetTable.Row r = rows.get(i);
      DarknetNetwork.Layer l = layers.get(i);
      List<String> errs = new ArrayList<>();
      if (r.index() != i) {
        errs.add("printed index " + r.index());
      }
      String type = SECTION.get(r.kind());
      if (!l.type().equals(type) && !(type.equals("convolutional") && l.type().equals("conv"))) {
        errs.add("type " + l.type() + ", darknet " + r.kind());
      }
      Graph g = net.graph();
      Shape out = g.tensor(l.output()).shape();
      if (r.out() != null) {
        check(errs, "output", whc(out), r.out());
      }
      if (r.outCount() != null && flat(out) != r.outCount()) {
        errs.add("output size " + flat(out) + ", darknet " + r.outCount());
      }
      if (r.in() != null) {
        String read = r.kind().equals("res") ? l.inputs().get(1) : l.inputs().get(0);
        check(errs, "input", whc(g.tensor(read).shape()), r.in());
      }
      if (r.inCount() != null) {
        long in = flat(g.tensor(l.inputs().get(0)).shape());
        if (in != r.inCount()) {
          errs.add("input size " + in + ", darknet " + r.inCount());
        }
      }
      if (r.refs() != null) {
        List<String> reads =
            r.kind().equals("res") ? l.inputs().subList(1, l.inputs().size()) : l.inputs();
        List<String> expected = new ArrayList<>();
        for (long ref : r.refs()) {
          expected.add(
              ref >= 0 && ref < layers.size() ? layers.get((int) ref).output() : "layer " + ref);
        }
        if (!reads.equals(expected)) {
          errs.add("reads " + reads + ", darknet layers " + Arrays.toString(r.refs()));
        }
      }
      if (errs.isEmpty()) {
        matched++;
      } else {
        bad.add(
            "layer "
                + i
                + " (line "
                + l.line()
                + "): "
                + String.join("; ", errs)
                + " | "
                + r.text().strip());
      }
    }
    return new Result(rows.size(), matched, bad);
  }

  /**
   * The graph's multiply-accumulates in the layers that {@code darknet ops} counts: all but the
   * locally connected ones.
   */
  static long darknetCountedMacs(DarknetNetwork net) {
    java.util.Set<String> local = new java.util.HashSet<>();
    for (DarknetNetwork.Layer l : net.layers()) {
      if (l.type().equals("local")) {
        local.add("l" + l.index() + ".");
      }
    }
    long macs = 0;
    for (io.github.memplan.core.ir.Op op : net.graph().ops()) {
      String p = op.name().substring(0, op.name().indexOf('.') + 1);
      if (!local.contains(p)) {
        macs += io.github.memplan.core.ir.Macs.of(net.graph(), op);
      }
    }
    return macs;
  }

  private static void check(List<String> errs, String what, long[] ours, long[] darknet) {
    for (int k = 0; k < 3; k++) {
      if (darknet[k] >= 0 && ours[k] != darknet[k]) {
        errs.add(
            what
                + " "
                + ours[0]
                + "x"
                + ours[1]
                + "x"
                + ours[2]
                + ", darknet "
                + darknet[0]
                + "x"
                + darknet[1]
                + "x"
                + darknet[2]);
        return;
      }
    }
  }

  /** darknet's {@code w x h x c} of {@code [N, C, H, W]}; a flat {@code [N, K]} is 1 x 1 x K. */
  static long[] whc(Shape s) {
    return switch (s.rank()) {
      case 4 -> new long[] {s.dim(3), s.dim(2), s.dim(1)};
      case 2 -> new long[] {1, 1, s.dim(1)};
      default -> new long[] {-1, -1, -1};
    };
  }

  /** Elements per batch item. */
  static long flat(Shape s) {
    return s.elements() / s.dim(0);
  }
}
