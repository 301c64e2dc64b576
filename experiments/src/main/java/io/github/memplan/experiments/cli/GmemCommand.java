package io.github.memplan.experiments.cli;

import io.github.memplan.core.chip.Chip;
import io.github.memplan.core.chip.Chips;
import io.github.memplan.core.dsa.DsaInstance;
import io.github.memplan.core.dsa.DsaSolution;
import io.github.memplan.core.gmem.GmemBuilder;
import io.github.memplan.core.gmem.GmemOptions;
import io.github.memplan.core.gmem.GmemProblem;
import io.github.memplan.core.ir.Graph;
import io.github.memplan.core.ir.ModelProvider;
import io.github.memplan.experiments.model.InputShapes;
import io.github.memplan.experiments.model.ModelArg;
import io.github.memplan.experiments.suite.ResolvedPlanner;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code memplan gmem}: a model's GMEM plan on a chip. */
@Command(
    name = "gmem",
    mixinStandardHelpOptions = true,
    description = {
      "Build a model's GMEM problem on a chip (TPU-MLIR's weight region and activation"
          + " lifetimes) and plan its activations with a planner.",
      "The solution is checked by the validator before anything about it is printed."
    },
    footer = {"", "Example:", "  memplan gmem --model resnet18 --planner tpumlir-doc --json"})
final class GmemCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Mixin ModelChipOptions target;

  @Mixin FrontEndOption frontEnd;

  @Option(
      names = "--inputs-die",
      description =
          "Graph inputs die after their last use (TPU-MLIR's IN_REUSE) instead of living for the"
              + " whole run.")
  boolean inputsDie;

  @Mixin PlanOptions opts;

  @Mixin InputShapes inputs;

  @Override
  public Integer call() throws IOException {
    if (opts.planner == null) {
      throw new ParameterException(spec.commandLine(), "Missing required option: '--planner=ID'");
    }
    // the planner and its parameters, resolved once (every planner for --planner all)
    ResolvedPlanner<DsaInstance, DsaSolution> planner =
        AllPlanners.requested(opts) ? null : DsaPlanResult.resolve(opts);
    ModelProvider provider = ModelArg.resolve(target.model, inputs);
    Chip c = Chips.get(target.chip);
    Graph graph = frontEnd.graph(provider, c);
    GmemProblem problem =
        GmemBuilder.build(graph, c, GmemOptions.defaults().withInputsLiveForever(!inputsDie));
    if (AllPlanners.requested(opts)) {
      java.util.Map<String, Object> head = new java.util.LinkedHashMap<>();
      head.put("model", provider.name());
      head.put("chip", c.name());
      head.put("inputsDie", inputsDie);
      head.put("frontEnd", frontEnd.frontEnd.toString());
      head.put("quantize", frontEnd.quantize().name());
      head.put("weightBytes", problem.weights().totalBytes());
      if (!opts.json) {
        spec.commandLine()
            .getOut()
            .println(
                provider.name()
                    + " on "
                    + c.name()
                    + ": "
                    + problem.activations().size()
                    + " activation buffers, weights "
                    + CommandOutput.bytes(problem.weights().totalBytes()));
      }
      return AllPlanners.run(problem.activations(), opts, spec, AllPlanners.fields(head));
    }
    DsaPlanResult run = DsaPlanResult.run(problem.activations(), opts, planner);

    CommandOutput r = new CommandOutput();
    r.add("model", "model", provider.name(), provider.name());
    r.add("chip", "chip", c.name(), c.name());
    r.add("inputsDie", "inputs", inputsDie, inputsDie ? "die after last use" : "live forever");
    r.add("frontEnd", "front end", frontEnd.frontEnd.toString(), frontEnd.frontEnd.toString());
    r.add("quantize", "precision", frontEnd.quantize().name(), frontEnd.quantize().name());
    r.add("planner", "planner", run.planner(), run.planner() + DsaCommand.params(run));
    r.json("params", run.config());
    r.add("seed", "seed", run.seed(), Long.toString(run.seed()));
    r.add(
        "weightBytes",
        "weights",
        problem.weights().totalBytes(),
        CommandOutput.bytes(problem.weights().totalBytes())
            + ", "
            + problem.weights().slots().size()
            + " tensors, "
            + problem.weights().rawBytes()
            + " B unpadded");
    r.json("weightRawBytes", problem.weights().rawBytes());
    run.addOutcome(r, "activation peak");
    PrintWriter err = spec.commandLine().getErr();
    run.writeOut(problem.activations(), opts, err);
    r.json("out", opts.out != null && run.hasSolution() ? opts.out.toString() : null);
    r.print(spec.commandLine().getOut(), opts.json);
    return run.exitCode(err);
  }
}
