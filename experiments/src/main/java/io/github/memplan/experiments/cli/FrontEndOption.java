package io.github.memplan.experiments.cli;

import io.github.memplan.core.chip.Chip;
import io.github.memplan.core.frontend.FrontEnd;
import io.github.memplan.core.ir.Graph;
import io.github.memplan.core.ir.ModelProvider;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Option;

/**
 * {@code --front-end PASSES}: which of TPU-MLIR's front-end fusions ({@link FrontEnd}) run on the
 * model before it is planned. Every command that plans a model builds its graph through {@link
 * #graph}, so GMEM, LMEM and grouping all see the same fused graph.
 */
final class FrontEndOption {
  /** What {@code --front-end} help texts say. */
  static final String HELP =
      "TPU-MLIR's front-end fusions run on the model before planning: 'all' (default, as"
          + " TPU-MLIR), 'none' (the graph as built or imported), a comma-separated list of"
          + " onnx-opt, bn-to-conv, matmul-bias, fuse-relu, or 'all,-PASS' to leave one out.";

  @Option(
      names = "--front-end",
      paramLabel = "PASSES",
      defaultValue = "all",
      converter = Converter.class,
      description = HELP)
  FrontEnd.Options frontEnd = FrontEnd.Options.ALL;

  /** {@code provider}'s graph after the front end for {@code chip}. */
  Graph graph(ModelProvider provider, Chip chip) {
    return FrontEnd.apply(provider.build(), chip, frontEnd);
  }

  /** Parses {@code --front-end}'s value. */
  static final class Converter implements ITypeConverter<FrontEnd.Options> {
    @Override
    public FrontEnd.Options convert(String value) {
      return FrontEnd.Options.parse(value);
    }
  }
}
