package io.github.memplan.experiments.model;

import io.github.memplan.core.ir.Graph;
import io.github.memplan.core.ir.ModelProvider;
import io.github.memplan.core.ir.Models;
import io.github.memplan.datasets.darknet.DarknetImporter;
import io.github.memplan.datasets.json.GraphJson;
import io.github.memplan.datasets.onnx.NonStaticShapesException;
import io.github.memplan.datasets.onnx.OnnxImporter;
import io.github.memplan.datasets.onnx.RunTimeConditionException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * A {@code --model} argument: a zoo name, or the path of a darknet {@code .cfg}, a memplan graph
 * {@code .json}, an {@code .onnx} or a {@code .tflite} file. Files become {@link ModelProvider}s
 * named after the file (without its extension), so every command treats both alike.
 */
public final class ModelArg {
  private ModelArg() {}

  /** What {@code --model} help texts say. */
  public static final String HELP =
      "A zoo model (see 'memplan zoo list') or a model file: darknet .cfg, memplan graph .json,"
          + " .onnx or .tflite.";

  /** The model {@code arg} names; an unknown name fails with the list of known ones. */
  public static ModelProvider resolve(String arg) {
    return resolve(arg, new InputShapes(), false);
  }

  /**
   * The model {@code arg} names, with {@code --input NAME=d0,d1,...} overrides of an ONNX file's
   * input shapes (they fix its dynamic dims) or a TFLite file's (they resize its dynamic dims), and
   * {@code --input-value NAME=v0,v1,...} values bound to an ONNX file's inputs; either for any
   * other model is an error.
   */
  public static ModelProvider resolve(String arg, InputShapes inputs) {
    return resolve(arg, inputs, true);
  }

  /**
   * As {@link #resolve(String, InputShapes)}; {@code options} says whether the command takes {@code
   * --input} and {@code --input-value}, which an ONNX file's messages then name.
   */
  private static ModelProvider resolve(String arg, InputShapes inputs, boolean options) {
    String kind = fileKind(arg);
    if (!inputs.specs.isEmpty() && !"onnx".equals(kind) && !"tflite".equals(kind)) {
      throw new IllegalArgumentException(
          "--input applies to .onnx and .tflite model files only, not to '" + arg + "'");
    }
    if (!inputs.values.isEmpty() && !"onnx".equals(kind)) {
      throw new IllegalArgumentException(
          "--input-value applies to .onnx model files only, not to '" + arg + "'");
    }
    if (kind != null) {
      Path file = Path.of(arg);
      if (Files.isDirectory(file)) {
        throw new IllegalArgumentException(
            arg + ": is a directory, not a " + KIND_NAMES.get(kind) + " model file");
      }
      if (!Files.isRegularFile(file)) {
        if (Files.exists(file)) {
          throw new IllegalArgumentException(arg + ": not a regular file");
        }
        throw new UncheckedIOException(new NoSuchFileException(arg));
      }
      return new FileModel(file, kind, inputs.shapes(), inputs.values(), options);
    }
    return Models.get(arg);
  }

  private static final java.util.Map<String, String> KIND_NAMES =
      java.util.Map.of(
          "darknet",
          "darknet .cfg",
          "json",
          "memplan graph .json",
          "onnx",
          ".onnx",
          "tflite",
          ".tflite");

  /**
   * {@code darknet}, {@code json}, {@code onnx} or {@code tflite} by extension; {@code null} for a
   * zoo name.
   */
  public static String fileKind(String arg) {
    String a = arg.toLowerCase(Locale.ROOT);
    if (a.endsWith(".cfg")) {
      return "darknet";
    }
    if (a.endsWith(".json")) {
      return "json";
    }
    if (a.endsWith(".onnx")) {
      return "onnx";
    }
    if (a.endsWith(".tflite")) {
      return "tflite";
    }
    return null;
  }

  /**
   * An ONNX file at the input shapes it declares, or those given, with the given input values;
   * dynamic dims left are reported, never guessed. With {@code options}, a failure that an input
   * shape or value would fix names the command-line options that give them, for every input at
   * once.
   */
  static Graph loadOnnx(
      Path file,
      java.util.Map<String, long[]> shapes,
      java.util.Map<String, List<String>> values,
      boolean options)
      throws IOException {
    try {
      return OnnxImporter.load(file, shapes, values);
    } catch (NonStaticShapesException e) {
      if (!options || e.dynamicInputs().isEmpty()) {
        throw e;
      }
      List<NonStaticShapesException.DynamicInput> in = e.dynamicInputs();
      throw new IllegalArgumentException(
          e.source()
              + ": "
              + NonStaticShapesException.describe(in)
              + "; give "
              + (in.size() == 1 ? "its shape" : "their shapes")
              + " with "
              + in.stream()
                  .map(d -> "--input " + d.example("D"))
                  .collect(java.util.stream.Collectors.joining(" "))
              + " ("
              + e.tensors().size()
              + " tensors have no static shape)",
          e);
    } catch (RunTimeConditionException e) {
      if (!options || e.inputs().isEmpty()) {
        throw e;
      }
      throw new IllegalArgumentException(
          e.getMessage()
              + "; give "
              + (e.inputs().size() == 1 ? "its value" : "their values")
              + " with "
              + e.inputs().stream()
                  .map(n -> "--input-value " + n + "=V")
                  .collect(java.util.stream.Collectors.joining(" ")),
          e);
    }
  }

  /**
   * A model read from a file.
   *
   * @param options whether messages may name {@code --input} and {@code --input-value}
   */
  record FileModel(
      Path file,
      String source,
      java.util.Map<String, long[]> inputShapes,
      java.util.Map<String, List<String>> inputValues,
      boolean options)
      implements ModelProvider {
    @Override
    public String name() {
      String n = String.valueOf(file.getFileName());
      int dot = n.lastIndexOf('.');
      return dot > 0 ? n.substring(0, dot) : n;
    }

    @Override
    public String description() {
      return source + " file " + file;
    }

    @Override
    public String citation() {
      return file.toString();
    }

    @Override
    public Graph build() {
      try {
        return switch (source) {
          case "darknet" -> DarknetImporter.load(file).graph();
          case "json" -> GraphJson.read(file);
          case "tflite" -> io.github.memplan.datasets.tflite.TfliteImporter.load(file, inputShapes);
          default -> loadOnnx(file, inputShapes, inputValues, options);
        };
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }
}
