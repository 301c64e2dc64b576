package io.github.memplan.datasets.tflite;

import io.github.memplan.core.ir.DType;
import io.github.memplan.core.ir.Graph;
import java.util.List;
import java.util.Map;

/**
 * The result of importing a TFLite model.
 *
 * @param graph the imported graph (NCHW, see {@link TfliteImporter})
 * @param fileOperators the operators of the file's main subgraph
 * @param quantization the quantization parameters of every quantized tensor of the graph, by
 *     memplan tensor name, in the graph's order
 * @param checks one entry per output of every op: the shape memplan computed against the shape the
 *     file stores (the shape oracle)
 */
public record TfliteImport(
    Graph graph,
    int fileOperators,
    Map<String, Quantization> quantization,
    List<ShapeCheck> checks) {
  public TfliteImport {
    quantization =
        java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(quantization));
    checks = List.copyOf(checks);
  }

  /**
   * One op output: the shape and dtype memplan inferred for it, put back in the file's axis order
   * (NHWC for rank 4), beside those the file stores.
   *
   * @param operator the operator's index in the file
   * @param op the memplan op's name
   * @param tensor the output's memplan name
   * @param computed the inferred shape, in the file's axis order
   * @param computedType the inferred element type
   * @param stored the shape the file stores
   * @param signature the file's {@code shape_signature} (-1 for a dynamic dim), or the stored shape
   *     when the file has none
   * @param storedType the file's element type, or {@code null} when memplan has no dtype for it
   */
  public record ShapeCheck(
      int operator,
      String op,
      String tensor,
      long[] computed,
      DType computedType,
      long[] stored,
      long[] signature,
      DType storedType) {
    /**
     * Whether the computed shape equals the stored one in every static dim (a dim whose signature
     * is -1 is compared only when {@code allDims}), and the types agree.
     */
    public boolean agrees(boolean allDims) {
      if (computed.length != stored.length || computedType != storedType) {
        return false;
      }
      for (int i = 0; i < computed.length; i++) {
        boolean dynamic = i < signature.length && signature[i] < 0;
        if ((allDims || !dynamic) && computed[i] != stored[i]) {
          return false;
        }
      }
      return true;
    }

    @Override
    public String toString() {
      return "operator "
          + operator
          + " "
          + op
          + " -> "
          + tensor
          + ": computed "
          + java.util.Arrays.toString(computed)
          + " "
          + computedType
          + ", stored "
          + java.util.Arrays.toString(stored)
          + " "
          + storedType;
    }
  }
}
