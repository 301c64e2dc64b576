package io.github.memplan.datasets.darknet;

import io.github.memplan.core.ir.Graph;
import java.util.List;

/**
 * A darknet network as {@link DarknetImporter} builds it: the graph, and for each darknet layer
 * (each section after {@code [net]}, numbered from 0 as darknet prints them) the tensors it reads
 * and the tensor that holds its output.
 *
 * @param graph the graph
 * @param layers darknet's layers in order; {@code layers.get(i).index() == i}
 */
public record DarknetNetwork(Graph graph, List<Layer> layers) {
  public DarknetNetwork {
    layers = List.copyOf(layers);
  }

  /**
   * One darknet layer.
   *
   * @param index darknet's layer number
   * @param type the section type, e.g. {@code convolutional}
   * @param line the 1-based line of the section header
   * @param inputs the tensors the layer reads: the previous layer's output, or for {@code route}
   *     the routed layers' outputs, for {@code shortcut} the previous output then the {@code from}
   *     layers' outputs
   * @param output the tensor holding the layer's output; for layers that add no op ({@code
   *     dropout}, a single-layer {@code route}, the detection heads) it is an input's tensor
   */
  public record Layer(int index, String type, int line, List<String> inputs, String output) {
    public Layer {
      inputs = List.copyOf(inputs);
    }
  }
}
