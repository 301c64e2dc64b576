package io.github.memplan.experiments.cli;

import io.github.memplan.core.chip.Chip;
import io.github.memplan.core.frontend.FrontEnd;
import io.github.memplan.core.frontend.Lowering;
import io.github.memplan.core.ir.Graph;
import io.github.memplan.core.ir.ModelProvider;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Option;

/**
 * {@code --front-end PASSES}: which of TPU-MLIR's front-end fusions ({@link FrontEnd}) run on the
 * model before it is planned, and {@code --quantize MODE}: the precision it is then lowered to
 * ({@link Lowering}). Every command that plans a model builds its graph through {@link #graph}, so
 * GMEM, LMEM and grouping all see the same fused graph.
 */
final class FrontEndOption {
  /** What {@code --front-end} help texts say. */
  static final String HELP =
      "TPU-MLIR's front-end fusions run on the model before planning: 'all' (default, as"
          + " TPU-MLIR), 'none' (the graph as built or imported), a comma-separated list of"
          + " onnx-opt, bn-to-conv, matmul-bias, fuse-relu, attention, or 'all,-PASS' to leave one out.";

  @Option(
      names = "--front-end",
      paramLabel = "PASSES",
      defaultValue = "all",
      converter = Converter.class,
      description = HELP)
  FrontEnd.Options frontEnd = FrontEnd.Options.ALL;

  /** What {@code --quantize} help texts say. */
  static final String QUANTIZE_HELP =
      "Precision the model is lowered to after the front end, as TPU-MLIR's model_deploy"
          + " --quantize: F32 (default), BF16, F16 or INT8 (CV18xx: BF16 and INT8 only; without"
          + " --quantize it plans the graph as imported, in F32, as before). Sets each tensor's"
          + " dtype, hence its GMEM and LMEM bytes and the TIU rate.";

  /** The value given, null when absent (F32, the graph as imported, on every chip). */
  @Option(names = "--quantize", paramLabel = "MODE", description = QUANTIZE_HELP)
  String quantize;

  /**
   * The {@code --quantize} mode, F32 when absent; an unknown value fails with one line naming it
   * and the allowed ones (a run error, exit 1).
   */
  Lowering.Quantize quantize() {
    return quantize == null ? Lowering.Quantize.F32 : Lowering.Quantize.parse(quantize);
  }

  /**
   * The {@code --quantize} mode for {@code chip}: a given mode the chip lacks (F32 or F16 on
   * CV18xx) fails with one line (exit 1).
   */
  Lowering.Quantize quantize(Chip chip) {
    return quantize(quantize, chip);
  }

  /**
   * The mode {@code value} names, F32 when null; a given mode {@code chip} lacks fails with one
   * line.
   */
  static Lowering.Quantize quantize(String value, Chip chip) {
    if (value == null) {
      return Lowering.Quantize.F32;
    }
    Lowering.Quantize q = Lowering.Quantize.parse(value);
    q.check(chip);
    return q;
  }

  /** {@code provider}'s graph after the front end and the lowering to {@code --quantize}. */
  Graph graph(ModelProvider provider, Chip chip) {
    return FrontEnd.apply(provider.build(), chip, frontEnd, quantize(chip));
  }

  /** Parses {@code --front-end}'s value. */
  static final class Converter implements ITypeConverter<FrontEnd.Options> {
    @Override
    public FrontEnd.Options convert(String value) {
      return FrontEnd.Options.parse(value);
    }
  }
}
