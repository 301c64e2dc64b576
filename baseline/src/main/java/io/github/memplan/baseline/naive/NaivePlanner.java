package io.github.memplan.baseline.naive;

import io.github.memplan.core.dsa.Alignment;
import io.github.memplan.core.dsa.Buffer;
import io.github.memplan.core.dsa.DsaInstance;
import io.github.memplan.core.dsa.DsaOutcomes;
import io.github.memplan.core.dsa.DsaSolution;
import io.github.memplan.core.solve.Outcome;
import io.github.memplan.core.solve.Planner;
import io.github.memplan.core.solve.SolveContext;
import java.util.Map;

/**
 * No reuse at all: buffers are stacked one after the other in instance order, each on its alignment
 * (TPU-MLIR's {@code GmemAllocator} with {@code reuse_addr=false} degenerates to this bump
 * allocator, {@code reference/tpu-mlir.md} §1.6). Buffers with a fixed offset keep it; the others
 * start above the highest fixed buffer. The peak is the upper end of every table.
 */
public final class NaivePlanner implements Planner<DsaInstance, DsaSolution> {

  @Override
  public Outcome<DsaSolution> solve(DsaInstance instance, SolveContext ctx) {
    long[] offsets = new long[instance.size()];
    long addr = 0;
    for (Buffer b : instance.buffers()) {
      if (b.fixedOffset().isPresent()) {
        addr = Math.max(addr, b.fixedOffset().getAsLong() + b.size());
      }
    }
    for (int i = 0; i < instance.size(); i++) {
      Buffer b = instance.buffer(i);
      if (b.fixedOffset().isPresent()) {
        offsets[i] = b.fixedOffset().getAsLong();
        continue;
      }
      addr = Alignment.up(addr, b.alignment());
      offsets[i] = addr;
      addr += b.size();
    }
    return DsaOutcomes.fromOffsets(instance, offsets, Map.of());
  }
}
