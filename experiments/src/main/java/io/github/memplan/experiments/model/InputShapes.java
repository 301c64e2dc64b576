package io.github.memplan.experiments.model;

import io.github.memplan.datasets.onnx.OnnxImporter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Option;

/**
 * {@code --input NAME=d0,d1,...} and {@code --input-value NAME=v0,v1,...}: the shapes that fix an
 * ONNX file's dynamic dims (or resize a TFLite file's) and the values that fold what depends on an
 * ONNX input (Silero VAD's {@code If} nodes on its sample rate {@code sr}).
 */
public final class InputShapes {
  @Option(
      names = "--input",
      paramLabel = "NAME=D0,D1,...",
      description =
          "Shape of an ONNX or TFLite file's input, e.g. --input x=1,3,640,640; repeat for several"
              + " inputs.")
  List<String> specs = new ArrayList<>();

  @Option(
      names = "--input-value",
      paramLabel = "NAME=V0,V1,...",
      description =
          "Value of an ONNX file's input, in its element type and row-major order, e.g."
              + " --input-value sr=16000; it folds what depends on the input (an If on it, a shape"
              + " computed from it), while ops that read the input still read it at run time;"
              + " repeat for several inputs.")
  List<String> values = new ArrayList<>();

  /** Each {@code --input} as given. */
  public List<String> shapeTexts() {
    return List.copyOf(specs);
  }

  /** Each {@code --input-value} as given. */
  public List<String> valueTexts() {
    return List.copyOf(values);
  }

  /** Whether any shape or value is given. */
  boolean any() {
    return !specs.isEmpty() || !values.isEmpty();
  }

  /** The shapes of every {@code --input}; an input named twice is an error. */
  Map<String, long[]> shapes() {
    Map<String, long[]> out = new LinkedHashMap<>();
    for (String spec : specs) {
      OnnxImporter.parseInputShapes(spec).forEach((name, dims) -> once(out, name, dims, "--input"));
    }
    return out;
  }

  /** The values of every {@code --input-value}, as text; an input named twice is an error. */
  Map<String, List<String>> values() {
    Map<String, List<String>> out = new LinkedHashMap<>();
    for (String spec : values) {
      OnnxImporter.parseInputValues(spec).forEach((name, v) -> once(out, name, v, "--input-value"));
    }
    return out;
  }

  private static <T> void once(Map<String, T> out, String name, T value, String option) {
    if (out.put(name, value) != null) {
      throw new IllegalArgumentException(option + " gives input '" + name + "' twice");
    }
  }
}
