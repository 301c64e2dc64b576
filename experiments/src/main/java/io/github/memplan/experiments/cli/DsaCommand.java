package io.github.memplan.experiments.cli;

import io.github.memplan.core.dsa.DsaInstance;
import io.github.memplan.core.dsa.DsaSolution;
import io.github.memplan.core.dsa.DsaValidator;
import io.github.memplan.core.dsa.LowerBounds;
import io.github.memplan.core.dsa.MiniMallocCsv;
import io.github.memplan.core.ir.Graph;
import io.github.memplan.core.ir.Models;
import io.github.memplan.core.solve.Violation;
import io.github.memplan.datasets.dsa.DsaTraceGenerator;
import io.github.memplan.datasets.dsa.ServingTrace;
import io.github.memplan.datasets.dsa.TrainingTrace;
import io.github.memplan.experiments.suite.ResolvedPlanner;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.Spec;

/** {@code memplan dsa}: plan a MiniMalloc CSV instance, or validate a solved one. */
@Command(
    name = "dsa",
    mixinStandardHelpOptions = true,
    description = {
      "Plan a dynamic storage allocation instance given as MiniMalloc CSV or as a shipped"
          + " dataset's entry (memplan datasets list), or check a solved one (--validate).",
      "The solution is checked by the validator before anything about it is printed."
    },
    footer = {
      "",
      "Examples:",
      "  memplan dsa --instance minimalloc:A --planner exact --time-limit 5s --json",
      "  memplan dsa --instance A.1048576.csv --planner tpumlir-doc --out A.solved.csv",
      "  memplan dsa --validate A.solved.csv",
      "  memplan dsa --generate 100000 --generate-seed 1 --planner exact --time-limit 60s",
      "  memplan dsa --generate 60000 --generate-kind training --generate-model resnet50"
          + " --export training-resnet50-60000.csv",
      "  memplan dsa --generate 50000 --generate-kind serving --planner tflm"
    })
final class DsaCommand implements Callable<Integer> {
  static final String DEFAULT_TRAINING_MODEL = "resnet50";
  static final String DEFAULT_SERVING_MODELS = "resnet50,mobilenetv2,bert-base";
  static final int DEFAULT_BATCH = 32;

  @Spec CommandSpec spec;

  @Option(
      names = "--instance",
      paramLabel = "FILE.csv|DATASET:ENTRY",
      description =
          "The instance: a MiniMalloc CSV file (an offset column holds fixed offsets) or a"
              + " shipped dataset's entry such as minimalloc:A (memplan datasets list).")
  String instance;

  @Option(
      names = "--generate",
      paramLabel = "N",
      description =
          "Plan a generated instance of N buffers instead of a file (its kind: --generate-kind).")
  Integer generate;

  @Option(
      names = "--generate-kind",
      paramLabel = "KIND",
      defaultValue = "schedule",
      description =
          "schedule: activations of a DNN-like inference schedule (DsaTraceGenerator, seeded);"
              + " training: training steps of one zoo model (forward activations saved for the"
              + " backward pass, gradients, weight gradients, Adam state; TrainingTrace,"
              + " deterministic); serving: interleaved inference requests to several zoo models"
              + " (ServingTrace, seeded). Default: ${DEFAULT-VALUE}.")
  String generateKind;

  @Option(
      names = "--generate-model",
      paramLabel = "MODEL[,MODEL...]",
      split = ",",
      description =
          "Zoo models of a training trace (one; default "
              + DEFAULT_TRAINING_MODEL
              + ") or a serving trace (default "
              + DEFAULT_SERVING_MODELS
              + ").")
  List<String> generateModels;

  @Option(
      names = "--generate-batch",
      paramLabel = "B",
      description = "Batch size of a training trace (default: " + DEFAULT_BATCH + ").")
  Integer generateBatch;

  @Option(
      names = "--export",
      paramLabel = "FILE.csv",
      description =
          "Write the instance (given or generated) as MiniMalloc CSV to this file instead of"
              + " planning.")
  Path export;

  @Option(
      names = "--generate-seed",
      paramLabel = "S",
      defaultValue = "1",
      description = "Seed of the generated instance (default: ${DEFAULT-VALUE}).")
  long generateSeed;

  @Option(
      names = "--validate",
      paramLabel = "SOLVED.csv",
      description = "Check the offsets of this file against its buffers instead of planning.")
  Path validate;

  @Option(
      names = "--capacity",
      paramLabel = "BYTES",
      converter = Units.SizeConverter.class,
      description = "Memory size: bytes, or with KiB, MiB, GiB, TiB (default: unbounded).")
  Long capacity;

  @Mixin PlanOptions opts;

  @Override
  public Integer call() throws IOException {
    int given =
        (instance == null ? 0 : 1) + (validate == null ? 0 : 1) + (generate == null ? 0 : 1);
    if (given != 1) {
      throw new ParameterException(
          spec.commandLine(),
          "give exactly one of --instance FILE.csv, --generate N and --validate SOLVED.csv");
    }
    ParseResult parsed = spec.commandLine().getParseResult();
    for (String generateOnly :
        List.of("--generate-seed", "--generate-kind", "--generate-model", "--generate-batch")) {
      if (parsed.hasMatchedOption(generateOnly) && generate == null) {
        throw new ParameterException(spec.commandLine(), generateOnly + " needs --generate N");
      }
    }
    if (generate != null) {
      checkGenerateOptions(parsed);
    }
    if (export != null && validate != null) {
      throw new ParameterException(spec.commandLine(), "--export does not apply to --validate");
    }
    return validate != null ? validate() : export != null ? export() : plan();
  }

  private void checkGenerateOptions(ParseResult parsed) {
    if (!List.of("schedule", "training", "serving").contains(generateKind)) {
      throw new ParameterException(
          spec.commandLine(),
          "--generate-kind: expected schedule, training or serving, not '" + generateKind + "'");
    }
    if (generateKind.equals("training") && parsed.hasMatchedOption("--generate-seed")) {
      throw new ParameterException(
          spec.commandLine(), "--generate-seed does not apply to a training trace (deterministic)");
    }
    if (!generateKind.equals("training") && generateBatch != null) {
      throw new ParameterException(
          spec.commandLine(), "--generate-batch needs --generate-kind training");
    }
    if (generateKind.equals("schedule") && generateModels != null) {
      throw new ParameterException(
          spec.commandLine(), "--generate-model needs --generate-kind training or serving");
    }
    if (generateKind.equals("training") && generateModels != null && generateModels.size() != 1) {
      throw new ParameterException(
          spec.commandLine(), "--generate-model: a training trace takes one model");
    }
  }

  private DsaInstance instance() throws IOException {
    DsaInstance in;
    try {
      in = generate != null ? generated() : MiniMallocCsv.readInstance(instance, Path.of(""));
    } catch (IllegalArgumentException e) {
      if (generate == null) {
        throw e;
      }
      throw new ParameterException(spec.commandLine(), "--generate: " + e.getMessage());
    }
    if (capacity != null) {
      in = in.withCapacity(capacity);
    }
    return in;
  }

  private DsaInstance generated() {
    switch (generateKind) {
      case "training":
        {
          String model = generateModels == null ? DEFAULT_TRAINING_MODEL : generateModels.get(0);
          int batch = generateBatch == null ? DEFAULT_BATCH : generateBatch;
          return TrainingTrace.generate(Models.get(model).build(), generate, batch, 64);
        }
      case "serving":
        {
          List<String> names =
              generateModels == null ? List.of(DEFAULT_SERVING_MODELS.split(",")) : generateModels;
          List<Graph> graphs = names.stream().map(n -> Models.get(n).build()).toList();
          return ServingTrace.generate(graphs, generate, generateSeed, 64);
        }
      default:
        return DsaTraceGenerator.generate(generate, generateSeed);
    }
  }

  private Integer export() throws IOException {
    for (String planningOnly : List.of("--planner", "--param", "--seed", "--time-limit", "--out")) {
      if (spec.commandLine().getParseResult().hasMatchedOption(planningOnly)) {
        throw new ParameterException(
            spec.commandLine(), planningOnly + " does not apply to --export");
      }
    }
    DsaInstance in = instance();
    MiniMallocCsv.write(in, null, export);
    CommandOutput r = new CommandOutput();
    r.add("instance", "instance", in.name(), in.name());
    r.add("buffers", "buffers", in.size(), Integer.toString(in.size()));
    r.add("horizon", "horizon", in.horizon(), Integer.toString(in.horizon()));
    long maxLoad = LowerBounds.maxLoad(in);
    r.add("maxLoad", "max load", maxLoad, CommandOutput.bytes(maxLoad));
    r.add("out", "written to", export.toString(), export.toString());
    r.print(spec.commandLine().getOut(), opts.json);
    return Main.OK;
  }

  private Integer plan() throws IOException {
    if (opts.planner == null) {
      throw new ParameterException(spec.commandLine(), "Missing required option: '--planner=ID'");
    }
    // the planner and its parameters, resolved once (every planner for --planner all)
    ResolvedPlanner<DsaInstance, DsaSolution> planner =
        AllPlanners.requested(opts) ? null : DsaPlanResult.resolve(opts);
    DsaInstance in = instance();
    if (AllPlanners.requested(opts)) {
      java.util.Map<String, Object> head = new java.util.LinkedHashMap<>();
      head.put("instance", in.name());
      head.put("capacity", capacity);
      return AllPlanners.run(in, opts, spec, AllPlanners.fields(head));
    }
    DsaPlanResult run = DsaPlanResult.run(in, opts, planner);

    CommandOutput r = new CommandOutput();
    r.add("instance", "instance", in.name(), in.name());
    r.json("file", instance);
    r.add(
        "capacity",
        "capacity",
        in.bounded() ? in.capacity() : null,
        in.bounded() ? CommandOutput.bytes(in.capacity()) : "unbounded");
    r.add("planner", "planner", run.planner(), run.planner() + params(run));
    r.json("params", run.config());
    r.add("seed", "seed", run.seed(), Long.toString(run.seed()));
    run.addOutcome(r, "peak");
    PrintWriter err = spec.commandLine().getErr();
    run.writeOut(in, opts, err);
    r.json("out", opts.out != null && run.hasSolution() ? opts.out.toString() : null);
    r.print(spec.commandLine().getOut(), opts.json);
    return run.exitCode(err);
  }

  private Integer validate() throws IOException {
    ParseResult parsed = spec.commandLine().getParseResult();
    for (String planningOnly : List.of("--planner", "--param", "--seed", "--time-limit", "--out")) {
      if (parsed.hasMatchedOption(planningOnly)) {
        throw new ParameterException(
            spec.commandLine(), planningOnly + " does not apply to --validate");
      }
    }
    MiniMallocCsv.Solved solved = MiniMallocCsv.readSolved(validate);
    DsaInstance in = solved.instance();
    if (capacity != null) {
      in = in.withCapacity(capacity);
    }
    List<Violation> violations = new DsaValidator().validate(in, solved.solution());
    long lowerBound = LowerBounds.maxLoad(in);
    CommandOutput r = new CommandOutput();
    r.add("file", "file", validate.toString(), validate.toString());
    r.add("valid", "verdict", violations.isEmpty(), violations.isEmpty() ? "OK" : "INVALID");
    r.add("buffers", "buffers", in.size(), Integer.toString(in.size()));
    if (violations.isEmpty()) {
      long peak = in.peak(solved.solution());
      r.add("peakBytes", "peak", peak, CommandOutput.bytes(peak));
      r.add(
          "lowerBound", "lower bound", lowerBound, CommandOutput.bytes(lowerBound) + ", max load");
      // as the peak-over-lower-bound metric: no ratio over a zero bound
      Double ratio = lowerBound > 0 ? (double) peak / lowerBound : null;
      r.add(
          "ratio",
          "peak / bound",
          ratio == null ? null : Math.round(ratio * 10000) / 10000.0,
          ratio == null ? "n/a (bound is 0)" : String.format(Locale.ROOT, "%.4f", ratio));
    } else {
      r.add(
          "violations",
          "violations",
          violations.stream().map(Violation::toString).toList(),
          Integer.toString(violations.size()));
    }
    PrintWriter out = spec.commandLine().getOut();
    r.print(out, opts.json);
    if (!violations.isEmpty() && !opts.json) {
      for (Violation v : violations) {
        out.println("  " + v);
      }
      out.flush();
    }
    return violations.isEmpty() ? Main.OK : Main.FAILED;
  }

  static String params(DsaPlanResult run) {
    return run.config().isEmpty() ? "" : " " + run.config();
  }
}
