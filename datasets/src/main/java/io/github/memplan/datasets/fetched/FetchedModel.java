package io.github.memplan.datasets.fetched;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * One model file of the manifest.
 *
 * @param name the zoo name
 * @param format {@code tflite} or {@code onnx} (the zoo source it is listed under)
 * @param family the architecture family
 * @param pkg the npm package and version, {@code NAME@VERSION}
 * @param licence the package's (and model's) licence as the manifest states it
 * @param file the file's path under the package's cache folder
 * @param sha256 the file's pinned SHA-256
 * @param inputShapes input shapes to import it at (fixing dynamic dims), by input name
 * @param inputValues values bound to ONNX graph inputs (as {@code --input-value} binds them), by
 *     input name, each as text read as the input's element type; empty for TFLite files
 * @param zoo whether memplan imports it and the zoo lists it
 * @param description one line: the architecture and its input
 */
public record FetchedModel(
    String name,
    String format,
    String family,
    String pkg,
    String licence,
    String file,
    String sha256,
    Map<String, long[]> inputShapes,
    Map<String, List<String>> inputValues,
    boolean zoo,
    String description) {
  public FetchedModel {
    inputShapes = Map.copyOf(inputShapes);
    inputValues = Map.copyOf(inputValues);
  }

  /** {@code @mediapipe/pose@0.5.1} gives {@code mediapipe-pose-0.5.1}, npm pack's tarball name. */
  public String packageFolder() {
    String spec = pkg.startsWith("@") ? pkg.substring(1) : pkg;
    int at = spec.lastIndexOf('@');
    return spec.substring(0, at).replace('/', '-') + "-" + spec.substring(at + 1);
  }

  /** Where the file is in {@code cache}. */
  public Path path(Path cache) {
    return cache.resolve(packageFolder()).resolve(file);
  }
}
