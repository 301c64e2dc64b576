package io.github.memplan.datasets.onnx;

import java.util.List;

/**
 * An {@code If} whose condition is computed at run time, which memplan cannot inline; {@link
 * #inputs()} names the graph inputs the condition depends on and no value is bound to (Silero VAD's
 * {@code sr}) when their values would let the importer fold it, and is empty otherwise (a condition
 * on the model's own result, say).
 */
public class RunTimeConditionException extends UnsupportedOnnxException {
  private static final long serialVersionUID = 1L;

  private final List<String> inputs;

  public RunTimeConditionException(String message, List<String> inputs) {
    super(message);
    this.inputs = List.copyOf(inputs);
  }

  /** The unbound graph inputs whose values would fold the condition, in the order met. */
  public List<String> inputs() {
    return inputs;
  }
}
