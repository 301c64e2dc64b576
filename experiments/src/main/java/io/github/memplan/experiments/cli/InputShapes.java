package io.github.memplan.experiments.cli;

import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;

/**
 * {@code --input NAME=d0,d1,...}: input shapes that fix an ONNX file's dynamic dims or resize a
 * TFLite file's.
 */
final class InputShapes {
  @Option(
      names = "--input",
      paramLabel = "NAME=D0,D1,...",
      description =
          "Shape of an ONNX or TFLite file's input, e.g. --input x=1,3,640,640; repeat for several"
              + " inputs.")
  List<String> specs = new ArrayList<>();
}
