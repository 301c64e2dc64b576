package io.github.memplan.experiments.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.memplan.core.chip.Chip;
import io.github.memplan.core.chip.Chips;
import io.github.memplan.core.dsa.MiniMallocCsv;
import io.github.memplan.core.frontend.FrontEnd;
import io.github.memplan.core.frontend.Lowering;
import io.github.memplan.core.gmem.GmemBuilder;
import io.github.memplan.core.gmem.GmemOptions;
import io.github.memplan.core.ir.Graph;
import io.github.memplan.core.ir.Macs;
import io.github.memplan.core.ir.ModelProvider;
import io.github.memplan.core.ir.Models;
import io.github.memplan.core.ir.Op;
import io.github.memplan.core.ir.Role;
import io.github.memplan.core.ir.Tensor;
import io.github.memplan.datasets.json.GraphJson;
import io.github.memplan.experiments.model.InputShapes;
import io.github.memplan.experiments.model.ModelArg;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
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
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code memplan zoo list|show|export}: the model zoo and model files. */
@Command(
    name = "zoo",
    mixinStandardHelpOptions = true,
    description = "List, inspect and export the zoo's models (and model files).",
    subcommands = {ZooCommand.ListModels.class, ZooCommand.Show.class, ZooCommand.Export.class})
final class ZooCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    throw new ParameterException(spec.commandLine(), "no zoo command given (list, show or export)");
  }

  private static final ObjectMapper JSON = new ObjectMapper();

  /**
   * The figures of one model.
   *
   * @param activationBytes bytes of every op result (activations and graph outputs), unpadded;
   *     aliases such as Reshape outputs count as their own tensors
   */
  record Stats(
      ModelProvider model,
      Graph graph,
      long params,
      long storedBytes,
      long macs,
      int ops,
      long activationBytes) {
    static Stats of(ModelProvider p) {
      Graph g = p.build();
      long act = 0;
      for (Tensor t : g.tensors().values()) {
        if (t.role() == Role.ACTIVATION || t.role() == Role.OUTPUT) {
          act = Math.addExact(act, t.bytes());
        }
      }
      return new Stats(p, g, g.parameterCount(), g.storedBytes(), Macs.of(g), g.ops().size(), act);
    }

    Map<String, Object> json() {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("name", model.name());
      m.put("family", model.family());
      m.put("source", model.source());
      m.put("description", model.description());
      m.put("params", params);
      m.put("storedBytes", storedBytes);
      m.put("macs", macs);
      m.put("ops", ops);
      m.put("activationBytes", activationBytes);
      return m;
    }
  }

  /** {@code 11689512} → {@code 11.69M}; below a thousand, the number. */
  static String count(long n) {
    String[] units = {"K", "M", "G", "T", "P"};
    if (Math.abs(n) < 1000) {
      return Long.toString(n);
    }
    double v = n;
    int u = -1;
    while (Math.abs(v) >= 1000 && u < units.length - 1) {
      v /= 1000;
      u++;
    }
    return String.format(Locale.ROOT, "%.2f%s", v, units[u]);
  }

  static String json(Object value) {
    try {
      return JSON.writeValueAsString(value);
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Prints {@code rows} as left-aligned columns (numbers right-aligned) under a header. */
  static void table(PrintWriter out, String[] header, List<String[]> rows, boolean[] numeric) {
    int[] w = new int[header.length];
    List<String[]> all = new ArrayList<>();
    all.add(header);
    all.addAll(rows);
    for (String[] r : all) {
      for (int i = 0; i < r.length; i++) {
        w[i] = Math.max(w[i], r[i].length());
      }
    }
    for (String[] r : all) {
      StringBuilder sb = new StringBuilder();
      for (int i = 0; i < r.length; i++) {
        String pad = " ".repeat(w[i] - r[i].length());
        boolean last = i == r.length - 1;
        if (numeric[i]) {
          sb.append(pad).append(r[i]);
        } else {
          sb.append(r[i]).append(last ? "" : pad);
        }
        if (!last) {
          sb.append("  ");
        }
      }
      out.println(sb.toString().stripTrailing());
    }
  }

  @Command(
      name = "list",
      mixinStandardHelpOptions = true,
      description = {
        "List the zoo's models with their size: parameters, multiply-accumulates, ops, and the"
            + " bytes of all op results (activations, unpadded; aliases counted).",
        "Builder models are always there, and so are the darknet-* entries: the 45 cfg files of"
            + " pjreddie/darknet that memplan ships (the system property memplan.darknet.cfg names"
            + " a directory whose cfg files replace them)."
      })
  static final class ListModels implements Callable<Integer> {
    @Spec CommandSpec spec;

    @Option(names = "--json", description = "Print one JSON array instead of a table.")
    boolean json;

    @Option(
        names = "--source",
        paramLabel = "SOURCE",
        description = "Only models from SOURCE: builder, darknet, onnx or json.")
    String source;

    @Option(names = "--family", paramLabel = "FAMILY", description = "Only models of FAMILY.")
    String family;

    @Override
    public Integer call() {
      List<ModelProvider> models =
          Models.all().stream()
              .filter(p -> source == null || p.source().equals(source))
              .filter(p -> family == null || p.family().equals(family))
              .toList();
      // graphs build independently; the list keeps the zoo's order
      List<Object> results =
          models.parallelStream()
              .map(
                  p -> {
                    try {
                      return (Object) Stats.of(p);
                    } catch (RuntimeException e) {
                      return (Object) (p.name() + ": " + Main.oneLine(Main.describe(e)));
                    }
                  })
              .toList();
      PrintWriter out = spec.commandLine().getOut();
      List<String> failures = new ArrayList<>();
      if (json) {
        List<Map<String, Object>> rows = new ArrayList<>();
        for (int i = 0; i < models.size(); i++) {
          if (results.get(i) instanceof Stats s) {
            rows.add(s.json());
          } else {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("name", models.get(i).name());
            m.put("error", results.get(i));
            rows.add(m);
            failures.add((String) results.get(i));
          }
        }
        out.println(ZooCommand.json(rows));
      } else {
        List<String[]> rows = new ArrayList<>();
        for (int i = 0; i < models.size(); i++) {
          ModelProvider p = models.get(i);
          if (results.get(i) instanceof Stats s) {
            rows.add(
                new String[] {
                  p.name(),
                  p.family(),
                  p.source(),
                  count(s.params()),
                  count(s.macs()),
                  Integer.toString(s.ops()),
                  Units.humanBytes(s.activationBytes())
                });
          } else {
            rows.add(new String[] {p.name(), p.family(), p.source(), "-", "-", "-", "error"});
            failures.add((String) results.get(i));
          }
        }
        table(
            out,
            new String[] {"NAME", "FAMILY", "SOURCE", "PARAMS", "MACS", "OPS", "ACTIVATIONS"},
            rows,
            new boolean[] {false, false, false, true, true, true, true});
      }
      out.flush();
      if (!failures.isEmpty()) {
        PrintWriter err = spec.commandLine().getErr();
        for (String f : failures) {
          err.println("memplan: model " + f);
        }
        err.flush();
        return Main.FAILED;
      }
      return Main.OK;
    }
  }

  @Command(
      name = "show",
      mixinStandardHelpOptions = true,
      description = "A model's summary and its ops, one per line, in graph order.")
  static final class Show implements Callable<Integer> {
    @Spec CommandSpec spec;

    @Parameters(paramLabel = "MODEL", description = ModelArg.HELP)
    String model;

    @Mixin InputShapes inputs;

    @Option(names = "--json", description = "Print one JSON object instead of text.")
    boolean json;

    @Mixin FrontEndOption frontEnd;

    @Option(
        names = "--chip",
        paramLabel = "CHIP",
        defaultValue = Chips.DEFAULT,
        description =
            "The chip whose front end counts (TPU-MLIR's processor-optimize patterns depend on"
                + " it; default: ${DEFAULT-VALUE}).")
    String chip;

    @Option(
        names = "--fused",
        description =
            "List the ops after the front end (see --front-end) instead of the model as built.")
    boolean fused;

    @Override
    public Integer call() {
      ModelProvider p = ModelArg.resolve(model, inputs);
      Stats s = Stats.of(p);
      Graph built = s.graph();
      Chip c = Chips.get(chip);
      Lowering.Quantize q = frontEnd.quantize(c);
      Graph after = FrontEnd.apply(built, c, frontEnd.frontEnd, q);
      Graph g = fused ? after : built;
      CommandOutput r = new CommandOutput();
      r.add("name", "model", p.name(), p.name());
      r.add("family", "family", p.family(), p.family());
      r.add("source", "source", p.source(), p.source());
      r.add("description", "description", p.description(), p.description());
      r.add("citation", "citation", p.citation(), p.citation());
      r.add("inputs", "inputs", tensors(g, g.inputs()), describe(g, g.inputs()));
      r.add("outputs", "outputs", tensors(g, g.outputs()), describe(g, g.outputs()));
      r.add("params", "parameters", s.params(), s.params() + " (" + count(s.params()) + ")");
      r.add("storedBytes", "weights", s.storedBytes(), CommandOutput.bytes(s.storedBytes()));
      r.add("macs", "MACs", s.macs(), s.macs() + " (" + count(s.macs()) + ")");
      r.add("ops", "ops", s.ops(), Integer.toString(s.ops()));
      r.add(
          "frontEndOps",
          "after front end",
          after.ops().size(),
          after.ops().size()
              + " ops (front end "
              + frontEnd.frontEnd
              + " on "
              + c.name()
              + "; what LayerGroup sees)");
      r.json("frontEndChip", c.name());
      r.json("frontEnd", frontEnd.frontEnd.toString());
      r.json("quantize", q.name());
      r.add("tensors", "tensors", built.tensors().size(), Integer.toString(built.tensors().size()));
      r.add(
          "activationBytes",
          "activations",
          s.activationBytes(),
          CommandOutput.bytes(s.activationBytes()) + ", all op results");
      List<Map<String, Object>> ops = new ArrayList<>();
      List<String[]> rows = new ArrayList<>();
      for (int i = 0; i < g.ops().size(); i++) {
        Op op = g.ops().get(i);
        long bytes = 0;
        List<String> shapes = new ArrayList<>();
        for (String o : op.outputs()) {
          bytes += g.tensor(o).bytes();
          shapes.add(g.tensor(o).shape().toString());
        }
        List<String> reads =
            op.inputs().stream().filter(in -> !g.tensor(in).role().isStored()).toList();
        long macs = Macs.of(g, op);
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", op.name());
        m.put("kind", op.kind().onnxName());
        m.put("inputs", op.inputs());
        m.put("outputs", op.outputs());
        m.put("shapes", shapes);
        m.put("bytes", bytes);
        m.put("macs", macs);
        ops.add(m);
        rows.add(
            new String[] {
              Integer.toString(i),
              op.name(),
              op.kind().onnxName(),
              String.join(", ", shapes),
              Units.humanBytes(bytes),
              count(macs),
              String.join(", ", reads)
            });
      }
      r.json("opList", ops);
      PrintWriter out = spec.commandLine().getOut();
      r.print(out, json);
      if (!json) {
        out.println();
        table(
            out,
            new String[] {"#", "OP", "KIND", "OUTPUT", "BYTES", "MACS", "READS"},
            rows,
            new boolean[] {true, false, false, false, true, true, false});
        out.flush();
      }
      return Main.OK;
    }

    private static List<Map<String, Object>> tensors(Graph g, List<String> names) {
      List<Map<String, Object>> out = new ArrayList<>();
      for (String n : names) {
        Tensor t = g.tensor(n);
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", n);
        m.put("shape", t.shape().dims());
        m.put("dtype", t.dtype().name().toLowerCase(Locale.ROOT));
        out.add(m);
      }
      return out;
    }

    private static String describe(Graph g, List<String> names) {
      List<String> parts = new ArrayList<>();
      for (String n : names) {
        parts.add(n + " " + g.tensor(n).type());
      }
      return String.join(", ", parts);
    }
  }

  @Command(
      name = "export",
      mixinStandardHelpOptions = true,
      description = {
        "Write a model as memplan graph JSON (lossless), as its GMEM activation instance in"
            + " MiniMalloc CSV (id,lower,upper,size[,alignment]; TPU-MLIR's lifetimes on a chip),"
            + " or as a Graphviz drawing.",
      },
      footer = {
        "",
        "Examples:",
        "  memplan zoo export resnet18 --format json --out resnet18.json",
        "  memplan zoo export darknet-yolov3 --format dsa-csv --chip bm1684x --out yolov3.csv",
        "  memplan zoo export my.cfg --format dot | dot -Tsvg > my.svg"
      })
  static final class Export implements Callable<Integer> {
    enum Format {
      json,
      dsa_csv,
      dot
    }

    @Spec CommandSpec spec;

    @Parameters(paramLabel = "MODEL", description = ModelArg.HELP)
    String model;

    @Mixin InputShapes inputs;

    @Option(
        names = "--format",
        paramLabel = "FORMAT",
        required = true,
        converter = FormatConverter.class,
        description = "json, dsa-csv or dot.")
    Format format;

    @Option(
        names = "--chip",
        paramLabel = "CHIP",
        description =
            "The chip of dsa-csv (see 'memplan list chips'; default: " + Chips.DEFAULT + ").")
    String chip;

    @Option(
        names = "--inputs-die",
        description = "dsa-csv: graph inputs die after their last use (TPU-MLIR's IN_REUSE).")
    boolean inputsDie;

    @Option(names = "--out", paramLabel = "FILE", description = "Write to FILE, not stdout.")
    Path out;

    @Option(
        names = "--front-end",
        paramLabel = "PASSES",
        converter = FrontEndOption.Converter.class,
        description =
            "TPU-MLIR's front-end fusions to run first, for --chip (see 'memplan gmem --help'):"
                + " for dsa-csv 'all' unless given (the GMEM problem is planned on the fused"
                + " graph); json and dot write the model as built unless given.")
    FrontEnd.Options frontEnd;

    @Option(
        names = "--quantize",
        paramLabel = "MODE",
        description =
            "Precision the graph is lowered to after the front end, for --chip (see 'memplan gmem"
                + " --help'): F32 (default), BF16, F16 or INT8.")
    String quantize;

    @Override
    public Integer call() throws IOException {
      if (format != Format.dsa_csv && inputsDie) {
        throw new ParameterException(
            spec.commandLine(), "--inputs-die applies only to --format dsa-csv");
      }
      if (format != Format.dsa_csv && chip != null && frontEnd == null) {
        throw new ParameterException(
            spec.commandLine(), "--chip applies only to --format dsa-csv or with --front-end");
      }
      ModelProvider p = ModelArg.resolve(model, inputs);
      Chip c = Chips.get(chip == null ? Chips.DEFAULT : chip);
      FrontEnd.Options fe =
          frontEnd != null
              ? frontEnd
              : format == Format.dsa_csv ? FrontEnd.Options.ALL : FrontEnd.Options.NONE;
      Graph g = FrontEnd.apply(p.build(), c, fe, FrontEndOption.quantize(quantize, c));
      Writer w =
          out == null
              ? spec.commandLine().getOut()
              : Files.newBufferedWriter(out, StandardCharsets.UTF_8);
      try {
        switch (format) {
          case json -> GraphJson.write(g, w);
          case dsa_csv ->
              MiniMallocCsv.write(
                  GmemBuilder.build(g, c, GmemOptions.defaults().withInputsLiveForever(!inputsDie))
                      .activations(),
                  null,
                  w);
          case dot -> GraphDot.write(g, w instanceof PrintWriter pw ? pw : new PrintWriter(w));
        }
        w.flush();
      } finally {
        if (out != null) {
          w.close();
        }
      }
      return Main.OK;
    }
  }

  /** {@code dsa-csv} (the option's spelling) for {@link Export.Format#dsa_csv}. */
  static final class FormatConverter implements picocli.CommandLine.ITypeConverter<Export.Format> {
    @Override
    public Export.Format convert(String value) {
      String v = value.toLowerCase(Locale.ROOT).replace('-', '_');
      for (Export.Format f : Export.Format.values()) {
        if (f.name().equals(v)) {
          return f;
        }
      }
      throw new picocli.CommandLine.TypeConversionException(
          "'" + value + "' is not a format (json, dsa-csv or dot)");
    }
  }
}
