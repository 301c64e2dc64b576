package io.github.memplan.core.dsa;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Proofs of infeasibility that follow from the buffers with a fixed offset alone, shared by the
 * search planners so that they refuse the same instances with the same words.
 */
public final class FixedOffsets {
  private FixedOffsets() {}

  /**
   * The first fixed buffer that breaks its alignment or ends past the capacity on its own, as a
   * sentence naming it; empty when there is none.
   */
  public static Optional<String> misfit(DsaInstance instance) {
    for (Buffer b : instance.buffers()) {
      if (b.fixedOffset().isEmpty()) {
        continue;
      }
      long f = b.fixedOffset().getAsLong();
      if (f % b.alignment() != 0) {
        return Optional.of(
            "buffer '"
                + b.id()
                + "' is fixed at "
                + f
                + ", not a multiple of its alignment "
                + b.alignment());
      }
      if (f > instance.capacity() - b.size()) {
        return Optional.of(
            "buffer '" + b.id() + "' is fixed to end past the capacity " + instance.capacity());
      }
    }
    return Optional.empty();
  }

  /** Whether two buffers with fixed offsets overlap in time and address (gaps honoured). */
  public static boolean collide(DsaInstance instance) {
    List<Buffer> fixed = new ArrayList<>();
    List<Long> at = new ArrayList<>();
    for (Buffer b : instance.buffers()) {
      if (b.fixedOffset().isPresent()) {
        fixed.add(b);
        at.add(b.fixedOffset().getAsLong());
      }
    }
    return !fixed.isEmpty()
        && !new DsaValidator()
            .isValid(
                DsaInstance.of(instance.name(), fixed),
                new DsaSolution(at.stream().mapToLong(Long::longValue).toArray()));
  }
}
