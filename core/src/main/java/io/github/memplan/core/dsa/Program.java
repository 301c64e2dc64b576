package io.github.memplan.core.dsa;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The op sequence behind a GMEM instance: which op defines and reads each value, in schedule order.
 * Planners that work on ops rather than intervals (TPU-MLIR's documented {@code rec_tbl} algorithm)
 * read it. Step {@code t} is timestep {@code t} of the instance.
 *
 * <p>Every value is either a buffer of the instance (same id) or an alias of one: a view that
 * starts {@link #offsetOf its offset} bytes into the buffer {@link #bufferOf} names and needs no
 * space of its own. The outputs of an in-place step ({@link Step#inPlace()}) are aliases inside the
 * buffer of the step's first input (a Reshape at the same offset, a fused Slice further in); the
 * operands of a merged Concat are aliases defined by ordinary steps, each at its place in the
 * Concat's buffer. Planners place buffers only; the instance's builder makes each buffer's lifetime
 * cover every use of its aliases, so {@link DsaValidator}, which sees buffers only, also vouches
 * for the aliases.
 *
 * @param steps the ops in schedule order
 * @param aliasOf for each alias value, the buffer id it lives in
 * @param aliasOffset for each alias value that does not start at its buffer's start, its offset in
 *     bytes from that start (absent means 0)
 */
public record Program(
    List<Step> steps, Map<String, String> aliasOf, Map<String, Long> aliasOffset) {

  public Program {
    steps = List.copyOf(steps);
    aliasOf = Collections.unmodifiableMap(new LinkedHashMap<>(aliasOf));
    aliasOffset = Collections.unmodifiableMap(new LinkedHashMap<>(aliasOffset));
    for (Map.Entry<String, Long> e : aliasOffset.entrySet()) {
      if (!aliasOf.containsKey(e.getKey())) {
        throw new IllegalArgumentException(
            "program value '" + e.getKey() + "' has an alias offset but is no alias");
      }
      if (e.getValue() < 0) {
        throw new IllegalArgumentException(
            "alias '" + e.getKey() + "' has a negative offset " + e.getValue());
      }
    }
  }

  /** A program whose aliases all start at their buffer's start. */
  public Program(List<Step> steps, Map<String, String> aliasOf) {
    this(steps, aliasOf, Map.of());
  }

  /** The buffer id holding {@code value}: itself unless it is an alias. */
  public String bufferOf(String value) {
    return aliasOf.getOrDefault(value, value);
  }

  /** Where {@code value} starts in the buffer {@link #bufferOf} names: 0 unless an offset alias. */
  public long offsetOf(String value) {
    return aliasOffset.getOrDefault(value, 0L);
  }

  /** How many operand slots read each value, over all steps. */
  public Map<String, Integer> useCounts() {
    Map<String, Integer> uses = new HashMap<>();
    for (Step s : steps) {
      for (String in : s.inputs()) {
        uses.merge(in, 1, Integer::sum);
      }
    }
    return uses;
  }

  /**
   * The op view of a plain interval instance (a MiniMalloc CSV), so that op-based planners can run
   * on it. Each timestep {@code t} at which something happens becomes one op, named {@code t<t>},
   * whose outputs are the buffers born at {@code t} and whose inputs are the buffers that die right
   * after it ({@code upper - 1 == t}); timesteps where nothing is born or dies are left out (they
   * would be ops that do nothing, and MiniMalloc's horizons run to 2^20 timesteps).
   *
   * <p>A buffer that lives a single timestep ({@code upper == lower + 1}) would be both an output
   * and an input of the same op; an op cannot read what it has not yet defined, so it is read by
   * the op of timestep {@code lower + 1} instead. Its space is then released one step later than
   * its interval allows, which is conservative: every placement stays valid for the instance.
   */
  public static Program fromIntervals(List<Buffer> buffers) {
    java.util.TreeMap<Integer, List<String>> born = new java.util.TreeMap<>();
    java.util.TreeMap<Integer, List<String>> dying = new java.util.TreeMap<>();
    for (Buffer b : buffers) {
      born.computeIfAbsent(b.lower(), k -> new ArrayList<>()).add(b.id());
      int lastUse = Math.max(b.upper() - 1, b.lower() + 1);
      dying.computeIfAbsent(lastUse, k -> new ArrayList<>()).add(b.id());
    }
    java.util.TreeSet<Integer> times = new java.util.TreeSet<>(born.keySet());
    times.addAll(dying.keySet());
    List<Step> steps = new ArrayList<>();
    for (int t : times) {
      steps.add(
          new Step(
              "t" + t,
              "Step",
              dying.getOrDefault(t, List.of()),
              born.getOrDefault(t, List.of()),
              false));
    }
    return new Program(steps, Map.of());
  }

  /**
   * Checks that the program fits {@code buffers}: every value defined once, buffers and aliases
   * consistent (an alias names a buffer, is not one itself, and starts inside it), inputs defined
   * by an earlier step than the one that reads them.
   */
  void checkAgainst(List<Buffer> buffers) {
    Map<String, Long> sizes = new HashMap<>();
    for (Buffer b : buffers) {
      sizes.put(b.id(), b.size());
    }
    Set<String> bufferIds = sizes.keySet();
    for (Map.Entry<String, String> e : aliasOf.entrySet()) {
      String alias = e.getKey();
      if (bufferIds.contains(alias)) {
        throw new IllegalArgumentException(
            "program value '"
                + alias
                + "' is a buffer and also an alias of '"
                + e.getValue()
                + "'");
      }
      Long size = sizes.get(e.getValue());
      if (size != null && offsetOf(alias) > size) {
        throw new IllegalArgumentException(
            "alias '"
                + alias
                + "' starts at offset "
                + offsetOf(alias)
                + ", past the end of its buffer '"
                + e.getValue()
                + "' ("
                + size
                + " bytes)");
      }
    }
    Set<String> defined = new HashSet<>();
    for (Step s : steps) {
      for (String in : s.inputs()) {
        // a step cannot read what it defines: its outputs are defined only after it runs
        if (!defined.contains(in)) {
          throw new IllegalArgumentException(
              "program step '" + s.name() + "' reads '" + in + "' before it is defined");
        }
      }
      for (String out : s.outputs()) {
        if (!defined.add(out)) {
          throw new IllegalArgumentException(
              "program value '" + out + "' is defined twice (again by '" + s.name() + "')");
        }
        String buf = bufferOf(out);
        if (!bufferIds.contains(buf)) {
          throw new IllegalArgumentException(
              "program value '" + out + "' of step '" + s.name() + "' has no buffer '" + buf + "'");
        }
      }
    }
    for (String id : bufferIds) {
      if (!defined.contains(id)) {
        throw new IllegalArgumentException("buffer '" + id + "' is defined by no program step");
      }
    }
  }
}
