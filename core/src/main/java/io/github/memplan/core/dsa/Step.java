package io.github.memplan.core.dsa;

import java.util.List;
import java.util.Objects;

/**
 * One op of a {@link Program}: the values it reads and the values it defines.
 *
 * @param name op name (unique within its program)
 * @param kind op kind, e.g. {@code Conv}, {@code Reshape}, {@code Input}, {@code Return}
 * @param inputs ids of the values it reads, one entry per operand (a value read twice appears
 *     twice)
 * @param outputs ids of the values it defines
 * @param inPlace whether its outputs are aliases inside the buffer of its first input (Reshape, a
 *     fused Slice, a merged Concat and the like, see {@link Program}): they need no allocation of
 *     their own
 */
public record Step(
    String name, String kind, List<String> inputs, List<String> outputs, boolean inPlace) {
  public Step {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(kind, "kind");
    inputs = List.copyOf(inputs);
    outputs = List.copyOf(outputs);
    if (inPlace && inputs.isEmpty()) {
      throw new IllegalArgumentException("in-place step '" + name + "' has no input to alias");
    }
  }
}
