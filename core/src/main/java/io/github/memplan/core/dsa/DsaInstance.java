package io.github.memplan.core.dsa;

import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * An offline dynamic storage allocation instance: buffers with fixed lifetimes to place at offsets
 * so that buffers alive at the same time never overlap, minimising the peak {@code max(offset +
 * size)}.
 *
 * @param name a name for tables (a file name, a model and chip)
 * @param buffers the buffers, in a fixed order that solutions index
 * @param capacity the memory size; {@link Long#MAX_VALUE} when unbounded
 * @param program the op sequence behind the buffers when known (a model's schedule), else {@code
 *     null}; see {@link #programOrIntervals()}
 */
public record DsaInstance(String name, List<Buffer> buffers, long capacity, Program program) {

  public static final long UNBOUNDED = Long.MAX_VALUE;

  public DsaInstance {
    Objects.requireNonNull(name, "name");
    buffers = List.copyOf(buffers);
    if (capacity <= 0) {
      throw new IllegalArgumentException("instance '" + name + "': capacity " + capacity + " <= 0");
    }
    Map<String, Integer> seen = new HashMap<>();
    for (int i = 0; i < buffers.size(); i++) {
      Integer prev = seen.put(buffers.get(i).id(), i);
      if (prev != null) {
        throw new IllegalArgumentException(
            "instance '" + name + "': buffer id '" + buffers.get(i).id() + "' appears twice");
      }
    }
    if (program != null) {
      program.checkAgainst(buffers);
    }
  }

  public static DsaInstance of(String name, List<Buffer> buffers) {
    return new DsaInstance(name, buffers, UNBOUNDED, null);
  }

  public DsaInstance withCapacity(long newCapacity) {
    return new DsaInstance(name, buffers, newCapacity, program);
  }

  public DsaInstance withName(String newName) {
    return new DsaInstance(newName, buffers, capacity, program);
  }

  public int size() {
    return buffers.size();
  }

  public Buffer buffer(int index) {
    return buffers.get(index);
  }

  /** Index of each buffer id. */
  public Map<String, Integer> indexById() {
    Map<String, Integer> index = new HashMap<>();
    for (int i = 0; i < buffers.size(); i++) {
      index.put(buffers.get(i).id(), i);
    }
    return Collections.unmodifiableMap(index);
  }

  /** The first timestep after every buffer is dead. */
  public int horizon() {
    int h = 0;
    for (Buffer b : buffers) {
      h = Math.max(h, b.upper());
    }
    return h;
  }

  public boolean bounded() {
    return capacity != UNBOUNDED;
  }

  public Optional<Program> programIfKnown() {
    return Optional.ofNullable(program);
  }

  /** The program if known, else the op view of the intervals ({@link Program#fromIntervals}). */
  public Program programOrIntervals() {
    return program != null ? program : Program.fromIntervals(buffers);
  }

  /** Sum of all sizes: the peak of placing every buffer side by side. */
  public long totalBytes() {
    long sum = 0;
    for (Buffer b : buffers) {
      sum += b.size();
    }
    return sum;
  }

  /** {@code max(offset + size)} of a solution (0 for an empty instance). */
  public long peak(DsaSolution solution) {
    if (solution.size() != buffers.size()) {
      throw new IllegalArgumentException(
          "solution has "
              + solution.size()
              + " offsets for "
              + buffers.size()
              + " buffers of '"
              + name
              + "'");
    }
    long peak = 0;
    for (int i = 0; i < buffers.size(); i++) {
      peak = Math.max(peak, solution.offset(i) + buffers.get(i).size());
    }
    return peak;
  }
}
