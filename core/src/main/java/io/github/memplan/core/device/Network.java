package io.github.memplan.core.device;

import io.github.memplan.core.chip.Chip;
import io.github.memplan.core.dsa.Buffer;
import io.github.memplan.core.dsa.DsaInstance;
import io.github.memplan.core.dsa.LowerBounds;
import io.github.memplan.core.gmem.GmemBuilder;
import io.github.memplan.core.gmem.GmemOptions;
import io.github.memplan.core.gmem.GmemProblem;
import io.github.memplan.core.ir.Graph;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * What the runtime must place for one network (seed {@code glow-esperanto-memory-management.rst},
 * "Types of Buffers In The System" and "Memory Regions Of Each Network &amp; Lifetime"): its code
 * (ELF kernels), its constants (weights, biases, scales, as one block), its placeholders (inputs,
 * outputs, in/outs, one buffer each) and its internal spill area ("we allocate all this memory
 * together").
 */
public record Network(
    String name,
    long codeBytes,
    long constantBytes,
    List<Long> inputs,
    List<Long> outputs,
    List<Long> inOuts,
    long internalBytes) {

  /** Code bytes per op assumed by {@link #fromGraph}: the seed gives no kernel sizes. */
  public static final long CODE_BYTES_PER_OP = 16 * 1024;

  /** Fixed code bytes per network (runtime stubs) assumed by {@link #fromGraph}. */
  public static final long CODE_BYTES_BASE = 256 * 1024;

  public Network {
    if (name == null || name.isBlank() || !name.matches("[A-Za-z0-9._@+-]+")) {
      throw new IllegalArgumentException(
          "network name '" + name + "' must be letters, digits and ._@+- only");
    }
    inputs = List.copyOf(inputs);
    outputs = List.copyOf(outputs);
    inOuts = List.copyOf(inOuts);
    if (codeBytes < 0 || constantBytes < 0 || internalBytes < 0) {
      throw new IllegalArgumentException("network " + name + ": negative size");
    }
    for (List<Long> l : List.of(inputs, outputs, inOuts)) {
      for (long s : l) {
        if (s <= 0) {
          throw new IllegalArgumentException("network " + name + ": placeholder size " + s);
        }
      }
    }
  }

  /** The per-inference buffers in allocation order: inputs, outputs, in/outs, internal. */
  public List<Placeholder> placeholders() {
    List<Placeholder> p = new ArrayList<>();
    int slot = 0;
    for (long s : inputs) {
      p.add(new Placeholder(slot++, BufferKind.INPUT, s));
    }
    for (long s : outputs) {
      p.add(new Placeholder(slot++, BufferKind.OUTPUT, s));
    }
    for (long s : inOuts) {
      p.add(new Placeholder(slot++, BufferKind.IN_OUT, s));
    }
    if (internalBytes > 0) {
      p.add(new Placeholder(slot, BufferKind.INTERNAL, internalBytes));
    }
    return p;
  }

  /** Bytes of one inference's placeholders and internal area. */
  public long perInferenceBytes() {
    long b = internalBytes;
    for (Placeholder p : placeholders()) {
      b += p.kind() == BufferKind.INTERNAL ? 0 : p.size();
    }
    return b;
  }

  /** One per-inference buffer of a network; {@code slot} numbers them from 0. */
  public record Placeholder(int slot, BufferKind kind, long size) {}

  /**
   * The network of a zoo graph on a chip. Constants: the GMEM weight region of {@link GmemBuilder}
   * (TPU-MLIR's layout). Inputs and outputs: the graph's, rounded to the chip's GMEM alignment.
   * Internal: the max-load lower bound of the GMEM activation problem without the graph inputs and
   * outputs, i.e. the size of an optimal plan whenever that plan meets the bound (a planner's peak
   * can be passed through {@link #withInternalBytes}). Code: the seed gives no kernel sizes, so
   * {@link #CODE_BYTES_BASE} plus {@link #CODE_BYTES_PER_OP} per op, an assumption of ours.
   */
  public static Network fromGraph(String name, Graph graph, Chip chip) {
    GmemProblem problem = GmemBuilder.build(graph, chip, GmemOptions.defaults());
    Set<String> io = new HashSet<>(graph.inputs());
    io.addAll(graph.outputs());
    List<Buffer> internal = new ArrayList<>();
    for (Buffer b : problem.activations().buffers()) {
      if (!io.contains(b.id())) {
        internal.add(b);
      }
    }
    long internalBytes =
        internal.isEmpty() ? 0 : LowerBounds.maxLoad(DsaInstance.of(name, internal));
    long align = chip.gmemAlignment();
    List<Long> in = new ArrayList<>();
    for (String t : graph.inputs()) {
      in.add(roundUp(graph.tensor(t).bytes(), align));
    }
    List<Long> out = new ArrayList<>();
    for (String t : graph.outputs()) {
      out.add(roundUp(graph.tensor(t).bytes(), align));
    }
    return new Network(
        name,
        CODE_BYTES_BASE + CODE_BYTES_PER_OP * graph.ops().size(),
        problem.weights().totalBytes(),
        in,
        out,
        List.of(),
        internalBytes);
  }

  public Network withInternalBytes(long bytes) {
    return new Network(name, codeBytes, constantBytes, inputs, outputs, inOuts, bytes);
  }

  private static long roundUp(long bytes, long align) {
    return Math.max(align, (bytes + align - 1) / align * align);
  }
}
