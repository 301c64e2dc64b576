package io.github.memplan.baseline.tpumlir.gmem;

import io.github.memplan.core.dsa.Alignment;
import io.github.memplan.core.dsa.Buffer;
import io.github.memplan.core.dsa.DsaInstance;
import io.github.memplan.core.dsa.DsaOutcomes;
import io.github.memplan.core.dsa.DsaSolution;
import io.github.memplan.core.dsa.DsaValidator;
import io.github.memplan.core.dsa.Program;
import io.github.memplan.core.dsa.Step;
import io.github.memplan.core.solve.Outcome;
import io.github.memplan.core.solve.Violation;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * An instance as TPU-MLIR's {@code GmemAllocator} sees it: the {@code common_ops} list of values
 * with their live ranges and padded sizes, sorted by live start ({@code
 * GmemAllocator::sortOpByLiveStart}).
 *
 * <p><b>Order.</b> The source sorts with a hand-written quicksort that is not stable, so values
 * with the same live start come out in an order that depends on how {@code common_ops} was gathered
 * (bottom to top). Here ties keep the instance's buffer order, which is deterministic.
 *
 * <p><b>Sizes.</b> {@code getTensorGmemSize} pads every size to the alignment, and the allocators
 * never look at alignment again: addresses are sums of padded sizes. Here every size is padded to
 * the least common multiple of the instance's alignments, which keeps every offset aligned for
 * every buffer. On a GMEM instance (one alignment, sizes already padded) this changes nothing.
 *
 * <p><b>Merged Concats.</b> For a Concat that {@code BMAddressAssign} makes in place, operand 0
 * carries the whole Concat and the other operands stay in {@code common_ops} with size 0 and the
 * Concat's live range. They take no space but, in FitFirst, hold a block of size 0 in the list
 * while they live, which keeps the free blocks on either side from merging. So for every in-place
 * {@code Concat} step of the instance's program, each input after the first becomes such a
 * zero-size value, right after its buffer in the order.
 */
final class GmemValues {

  /**
   * One entry of {@code common_ops}.
   *
   * @param buffer the buffer's index in the instance, or -1 for a merged Concat's zero-size operand
   * @param start live start (inclusive)
   * @param end live end (exclusive)
   * @param size padded bytes
   */
  record Value(int buffer, int start, int end, long size) {}

  private final List<Value> values;

  private GmemValues(List<Value> values) {
    this.values = values;
  }

  int size() {
    return values.size();
  }

  Value get(int i) {
    return values.get(i);
  }

  /** The sorted values of {@code instance}; refuses fixed offsets, naming {@code plannerId}. */
  static GmemValues of(DsaInstance instance, String plannerId) {
    long unit = 1;
    for (Buffer b : instance.buffers()) {
      if (b.fixedOffset().isPresent()) {
        throw new IllegalArgumentException(
            plannerId + " does not support fixed offsets (buffer '" + b.id() + "')");
      }
      unit = Alignment.lcm(unit, b.alignment(), plannerId + ": buffer '" + b.id() + "'");
    }
    int[] zeroSizeOperands = new int[instance.size()];
    Program program = instance.program();
    if (program != null) {
      Map<String, Integer> index = instance.indexById();
      for (Step s : program.steps()) {
        if (s.inPlace() && s.kind().toLowerCase(Locale.ROOT).equals("concat")) {
          for (String in : s.inputs().subList(1, s.inputs().size())) {
            zeroSizeOperands[index.get(program.bufferOf(in))]++;
          }
        }
      }
    }
    List<Value> values = new ArrayList<>();
    for (int i = 0; i < instance.size(); i++) {
      Buffer b = instance.buffer(i);
      values.add(new Value(i, b.lower(), b.upper(), padUp(b.size(), unit, b, plannerId)));
      for (int k = 0; k < zeroSizeOperands[i]; k++) {
        values.add(new Value(-1, b.lower(), b.upper(), 0));
      }
    }
    values.sort(Comparator.comparingInt(Value::start)); // stable: ties keep instance order
    return new GmemValues(List.copyOf(values));
  }

  /** {@code max(addr + size)} over all values ({@code updateGmemUsedStatistic}). */
  long footprint(long[] addr) {
    long used = 0;
    for (int i = 0; i < values.size(); i++) {
      used = Math.max(used, addr[i] + values.get(i).size());
    }
    return used;
  }

  /** The buffers' offsets from the values' addresses. */
  long[] offsets(DsaInstance instance, long[] addr) {
    long[] offsets = new long[instance.size()];
    for (int i = 0; i < values.size(); i++) {
      int b = values.get(i).buffer();
      if (b >= 0) {
        offsets[b] = addr[i];
      }
    }
    return offsets;
  }

  /**
   * The outcome of an allocator that gave every value an address: an honest {@link
   * DsaOutcomes#fromOffsets} outcome, or {@link Outcome#error} naming the overlaps when the plan is
   * not valid (TPU-MLIR would have used it).
   */
  Outcome<DsaSolution> outcome(
      DsaInstance instance, long[] addr, String method, Map<String, ? extends Number> stats) {
    long[] offsets = offsets(instance, addr);
    List<Violation> overlaps = new ArrayList<>();
    for (Violation v : new DsaValidator().validate(instance, new DsaSolution(offsets))) {
      if (!v.rule().equals("capacity")) {
        overlaps.add(v);
      }
    }
    if (!overlaps.isEmpty()) {
      return Outcome.<DsaSolution>error(
              method
                  + " produced an invalid plan, as TPU-MLIR's code would ("
                  + overlaps.size()
                  + " violations): "
                  + overlaps.get(0).message())
          .withStats(stats);
    }
    return DsaOutcomes.fromOffsets(instance, offsets, stats);
  }

  private static long padUp(long size, long unit, Buffer b, String plannerId) {
    long r = size % unit;
    if (r == 0) {
      return size;
    }
    try {
      return Math.addExact(size, unit - r);
    } catch (ArithmeticException e) {
      throw new IllegalArgumentException(
          plannerId + ": buffer '" + b.id() + "' of " + size + " bytes overflows when padded");
    }
  }
}
