package io.github.memplan.experiments.cli;

import io.github.memplan.core.chip.Chips;
import io.github.memplan.experiments.model.ModelArg;
import picocli.CommandLine.Option;

/** The {@code --model} and {@code --chip} options of the commands that plan a model on a chip. */
final class ModelChipOptions {
  @Option(names = "--model", paramLabel = "NAME", required = true, description = ModelArg.HELP)
  String model;

  @Option(
      names = "--chip",
      paramLabel = "CHIP",
      defaultValue = Chips.DEFAULT,
      description = "The chip (see 'memplan list chips'; default: ${DEFAULT-VALUE}).")
  String chip;
}
