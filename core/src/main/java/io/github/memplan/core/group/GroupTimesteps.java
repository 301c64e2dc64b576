package io.github.memplan.core.group;

import io.github.memplan.core.lmem.LmemInstance;
import java.util.List;
import java.util.Objects;

/**
 * A group's timestep table as an {@link LmemInstance}, with what the cost model and the validator
 * need besides: which graph tensor each buffer holds and the software-pipeline stage of each
 * buffer's GDMA transfer ({@code tensor_info_t.stage}, {@code reference/tpu-mlir.md} §2.1,
 * §2.8(b)).
 *
 * @param lmem the buffers and rows
 * @param tensors per buffer: the graph tensor it holds, or {@code ""} for a scratch buffer
 * @param stages per buffer: the stage of its load or store (0, 1 or 2; 1 when not pipelined, and
 *     for buffers the GDMA never touches)
 */
public record GroupTimesteps(LmemInstance lmem, List<String> tensors, List<Integer> stages) {
  public GroupTimesteps {
    Objects.requireNonNull(lmem, "lmem");
    tensors = List.copyOf(tensors);
    stages = List.copyOf(stages);
    int n = lmem.buffers().size();
    if (tensors.size() != n || stages.size() != n) {
      throw new IllegalArgumentException(
          "group timesteps '"
              + lmem.name()
              + "': tensors/stages do not match the "
              + n
              + " buffers");
    }
    for (int s : stages) {
      if (s < 0 || s > 2) {
        throw new IllegalArgumentException("group timesteps '" + lmem.name() + "': stage " + s);
      }
    }
  }
}
