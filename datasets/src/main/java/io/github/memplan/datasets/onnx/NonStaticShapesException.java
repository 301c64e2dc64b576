package io.github.memplan.datasets.onnx;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Some tensors a model computes at run time have no static shape: a graph input has dynamic dims
 * that no input shape fixes, or a shape operand depends on data. memplan plans static shapes only
 * and never guesses; {@link #tensors()} lists every such tensor, in topological order, and {@link
 * #dynamicInputs()} every graph input among their causes, so that all of them can be given at once.
 */
public class NonStaticShapesException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  /**
   * A graph input without a static shape.
   *
   * @param name the input's name
   * @param declared its declared dims, -1 for each dynamic one; null when not even its rank is
   *     declared
   */
  public record DynamicInput(String name, long[] declared) {
    public DynamicInput {
      declared = declared == null ? null : declared.clone();
    }

    @Override
    public long[] declared() {
      return declared == null ? null : declared.clone();
    }

    /** {@code ?x3x?x?}, or {@code unknown dims}. */
    public String dims() {
      if (declared == null) {
        return "unknown dims";
      }
      List<String> d = new ArrayList<>();
      for (long v : declared) {
        d.add(v < 0 ? "?" : Long.toString(v));
      }
      return declared.length == 0 ? "scalar" : String.join("x", d);
    }

    /**
     * A shape to fill in, the declared dims kept: {@code x=d0,3,d2,d3} for {@code placeholder} "d",
     * {@code x=d0,d1,...} when the rank is unknown.
     */
    public String example(String placeholder) {
      if (declared == null) {
        return name + "=" + placeholder + "0," + placeholder + "1,...";
      }
      List<String> d = new ArrayList<>();
      for (int k = 0; k < declared.length; k++) {
        d.add(declared[k] < 0 ? placeholder + k : Long.toString(declared[k]));
      }
      return name + "=" + String.join(",", d);
    }
  }

  private final List<String> tensors;
  private final String source;
  private final List<DynamicInput> inputs;

  public NonStaticShapesException(String message, List<String> tensors) {
    this(message, tensors, "", List.of());
  }

  /**
   * @param message the one-line message
   * @param tensors the tensors without a static shape, in topological order
   * @param source the model file, as messages name it
   * @param inputs the graph inputs without a static shape that live tensors depend on
   */
  public NonStaticShapesException(
      String message, List<String> tensors, String source, List<DynamicInput> inputs) {
    super(message);
    this.tensors = List.copyOf(tensors);
    this.source = source;
    this.inputs = List.copyOf(inputs);
  }

  /** The tensors without a static shape, in topological order. */
  public List<String> tensors() {
    return tensors;
  }

  /** The model file, as messages name it. */
  public String source() {
    return source;
  }

  /** The graph inputs without a static shape, in graph order; empty when data is the cause. */
  public List<DynamicInput> dynamicInputs() {
    return inputs;
  }

  /**
   * {@code input 'x' has dynamic dims ?x3x?x?} or {@code inputs 'a' (?x3) and 'b' (?) have dynamic
   * dims}: every dynamic input, named once.
   */
  public static String describe(List<DynamicInput> inputs) {
    if (inputs.size() == 1) {
      DynamicInput i = inputs.get(0);
      return "input '"
          + i.name()
          + "' has "
          + (i.declared() == null ? "" : "dynamic dims ")
          + i.dims();
    }
    List<String> each =
        inputs.stream()
            .map(i -> "'" + i.name() + "' (" + i.dims() + ")")
            .collect(Collectors.toList());
    String last = each.remove(each.size() - 1);
    return "inputs " + String.join(", ", each) + " and " + last + " have dynamic dims";
  }
}
