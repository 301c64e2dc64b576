package io.github.memplan.core.lmem;

import java.util.List;
import java.util.Objects;

/**
 * One row of a layer group's timestep table ({@code reference/tpu-mlir.md} §2.1): the TIU ops that
 * run in it and the buffers the GDMA loads or stores in it, which run in parallel; rows are
 * separated by a barrier. Buffer references are indices into {@link LmemInstance#buffers()}.
 *
 * @param tiu the TIU (BDC) ops of this row, in program order
 * @param gdma buffers loaded or stored by the GDMA in this row, in order
 */
public record Timestep(List<TiuOp> tiu, List<Integer> gdma) {

  /**
   * One TIU op of a row and the LMEM buffers it touches.
   *
   * @param op the op's name in the graph
   * @param operands buffers it reads
   * @param results buffers it writes
   * @param scratch its scratch buffers
   */
  public record TiuOp(
      String op, List<Integer> operands, List<Integer> results, List<Integer> scratch) {
    public TiuOp {
      Objects.requireNonNull(op, "op");
      operands = List.copyOf(operands);
      results = List.copyOf(results);
      scratch = List.copyOf(scratch);
    }
  }

  public Timestep {
    tiu = List.copyOf(tiu);
    gdma = List.copyOf(gdma);
  }
}
