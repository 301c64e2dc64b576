package io.github.memplan.core.ir;

/**
 * A named model of the zoo; registered in {@code META-INF/services} and found with {@link
 * java.util.ServiceLoader} (see {@link Models}).
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
}
