package io.github.memplan.core.ir;

/**
 * A named model of the zoo; registered in {@code META-INF/services} and found with {@link
 * java.util.ServiceLoader} (see {@link Models}), or listed by a {@link ModelSource}.
 */
public interface ModelProvider {
  /** Stable lower-case id, e.g. {@code resnet18}. */
  String name();

  /** One line: the architecture and its input, e.g. "ResNet-18, 1x3x224x224, fp32". */
  String description();

  /** The paper table or reference implementation followed. */
  String citation();

  /** Builds the graph (batch 1, the model's standard input, fp32). */
  Graph build();

  /**
   * The architecture family, lower-case, e.g. {@code resnet}, {@code yolo}, {@code bert}; by
   * default {@link #familyOf(String) derived from the name}.
   */
  default String family() {
    return familyOf(name());
  }

  /**
   * Where the graph comes from: {@code builder} (Java code following a paper or a reference
   * implementation), or an importer's format such as {@code darknet}, {@code onnx} or {@code json}.
   */
  default String source() {
    return "builder";
  }

  /**
   * The family of a model id: its leading letters, without a version suffix: {@code resnet18} and
   * {@code resnet-50} give {@code resnet}, {@code mobilenetv2} gives {@code mobilenet}, {@code
   * yolov3-tiny} gives {@code yolo}, {@code bert-base} gives {@code bert}.
   */
  static String familyOf(String name) {
    java.util.regex.Matcher m =
        java.util.regex.Pattern.compile("([a-z]+?)(v?\\d.*|[-_.].*)?")
            .matcher(name.toLowerCase(java.util.Locale.ROOT));
    return m.matches() ? m.group(1) : name;
  }
}
