package io.github.memplan.core.device;

import java.util.List;

/**
 * The replay of a {@link DeviceTrace} against one allocator: every buffer with where and when it
 * lived, every failed request, and usage after every event.
 *
 * @param trace the trace's name
 * @param allocator the allocator's id
 * @param layout the DRAM layout
 * @param separateCode true when the allocator keeps code in the code region only; false when code
 *     and data share {@link DeviceLayout#shared()}
 * @param buffers every buffer ever allocated, in allocation order (logging first)
 * @param failures every request the allocator refused, in order
 * @param samples usage after each event (one per event)
 * @param inferencesServed inferences whose buffers were all placed (and which finished)
 * @param inferencesFailed inferences dropped because a buffer could not be placed
 * @param inferencesSkipped inferences of a network whose load had failed
 * @param loadsFailed network loads whose code or constants could not be placed
 * @param networksServed distinct networks with at least one inference served
 * @param peakLiveBytes the most bytes in live buffers at once (logging included)
 * @param peakHeldBytes the most bytes held by the allocator at once: live buffers plus idle pool
 *     entries and buddy rounding (logging included)
 */
public record DeviceRun(
    String trace,
    String allocator,
    DeviceLayout layout,
    boolean separateCode,
    List<BufferRecord> buffers,
    List<Failure> failures,
    List<Sample> samples,
    int inferencesServed,
    int inferencesFailed,
    int inferencesSkipped,
    int loadsFailed,
    int networksServed,
    long peakLiveBytes,
    long peakHeldBytes) {
  public DeviceRun {
    buffers = List.copyOf(buffers);
    failures = List.copyOf(failures);
    samples = List.copyOf(samples);
  }

  /**
   * A refused request.
   *
   * @param event the event index
   * @param network the network
   * @param inference the inference, or -1 for a load
   * @param kind what was asked for
   * @param size bytes asked for
   * @param freeBytes bytes of the request's region not held by any live buffer at that moment
   * @param largestFreeBlock the largest gap between live buffers in that region
   */
  public record Failure(
      int event,
      String network,
      long inference,
      BufferKind kind,
      long size,
      long freeBytes,
      long largestFreeBlock) {
    /** Enough free bytes existed: the failure is due to fragmentation or to the policy. */
    public boolean withFreeSpace() {
      return freeBytes >= size;
    }

    /** A single free block big enough existed: the allocator's policy, not the layout, refused. */
    public boolean withFreeBlock() {
      return largestFreeBlock >= size;
    }
  }

  /**
   * Usage just after one event.
   *
   * @param event the event index
   * @param liveBytes bytes in live buffers
   * @param heldBytes bytes the allocator holds (live plus idle pool entries and rounding)
   * @param largestFreeBlock the largest gap between live buffers outside the logging carve-out
   */
  public record Sample(int event, long liveBytes, long heldBytes, long largestFreeBlock) {}

  public long failuresWithFreeSpace() {
    return failures.stream().filter(Failure::withFreeSpace).count();
  }

  public long failuresWithFreeBlock() {
    return failures.stream().filter(Failure::withFreeBlock).count();
  }

  /** The smallest largest-free-block over the run (the worst moment of fragmentation). */
  public long minLargestFreeBlock() {
    return samples.stream().mapToLong(Sample::largestFreeBlock).min().orElse(0);
  }
}
