package io.github.memplan.core.lmem;

import io.github.memplan.core.lmem.LmemBuffer.Kind;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Seeded random LMEM instances shaped like TPU-MLIR's layer groups ({@code reference/tpu-mlir.md}
 * §2.8): a chain of {@code ops} TIU ops with the nearest timestep assignment (row 0 loads the group
 * input and op 0's weight; row {@code i + 1} runs op {@code i} while the GDMA loads op {@code i +
 * 1}'s weight, sometimes one row earlier as the memory-aware rebalancing does; the last row stores
 * the group output), buffer lifetimes as in {@code gen_all_mem_buffer_ts} (§2.8(e)), conv-like ops
 * with weights, eltwise ops that read an earlier activation too (a residual, which lengthens that
 * activation's life) and may write in place, and scratch buffers living in their op's row.
 *
 * <p>{@code sliced} marks the weights held (resident over the loop iterations, §2.8(d)); {@code
 * pipelined} applies the 3-stage software pipeline (§2.8(b)): the input load moves to the last
 * compute row and the output store to the first, so both get wrapping lifetimes, and the two rows
 * left empty are deleted. Sizes are multiples of {@code euBytes} for activations and scratch, any
 * even number for weights, then all scaled up or down (rounding down) so that {@link
 * LmemLowerBounds#maxLive} is at most and close to {@code fill × capacity}. Same arguments, same
 * instance.
 */
public final class LmemGenerator {
  private LmemGenerator() {}

  /** The LMEM geometry of one lane. */
  public record Geometry(long capacity, int banks, long bankBytes, int euBytes) {}

  /** A small geometry for tests: 4 KiB in 8 banks of 512 bytes, EU 16. */
  public static final Geometry SMALL = new Geometry(4096, 8, 512, 16);

  public static LmemInstance generate(
      String name, long seed, int ops, Geometry g, boolean sliced, boolean pipelined, double fill) {
    if (ops < 1 || (pipelined && ops < 2)) {
      throw new IllegalArgumentException(
          "LMEM generator: " + ops + " ops (at least 1, 2 when pipelined)");
    }
    SplittableRandom rnd = new SplittableRandom(seed);
    int rowCount = ops + 2;
    List<Spec> specs = new ArrayList<>();
    List<List<Integer>> gdma = new ArrayList<>();
    List<List<Timestep.TiuOp>> tiu = new ArrayList<>();
    for (int r = 0; r < rowCount; r++) {
      gdma.add(new ArrayList<>());
      tiu.add(new ArrayList<>());
    }
    List<InPlace> inPlace = new ArrayList<>();
    int unit = g.euBytes();
    boolean[] eltwise = new boolean[ops];
    for (int i = 2; i < ops; i++) {
      eltwise[i] = rnd.nextInt(3) == 0;
    }
    // acts.get(i) is op i's main input; the group input is loaded in row 0
    List<Integer> acts = new ArrayList<>();
    acts.add(add(specs, "in", Kind.ACTIVATION, 0, 1, unit * (1 + rnd.nextInt(16))));
    gdma.get(0).add(0);
    List<int[]> inPlaceCandidates = new ArrayList<>();
    for (int i = 0; i < ops; i++) {
      int row = i + 1;
      int x = acts.get(i);
      List<Integer> operands = new ArrayList<>(List.of(x));
      String opName = (eltwise[i] ? "add" : "conv") + i;
      if (eltwise[i]) {
        // a residual: an earlier activation (never the group input), kept alive until here
        int other = acts.get(1 + rnd.nextInt(i - 1));
        operands.add(other);
        specs.get(other).end = Math.max(specs.get(other).end, row);
        inPlaceCandidates.add(new int[] {x, -1, row});
      } else {
        // loaded one row before its op, or one more row earlier (memory-aware prefetch)
        int load = i > 1 && rnd.nextInt(3) == 0 ? i - 1 : i;
        int w = add(specs, "w" + i, Kind.WEIGHT, load, row, 2L * (1 + rnd.nextInt(8 * unit)));
        gdma.get(load).add(w);
        operands.add(w);
      }
      long outBytes = eltwise[i] ? specs.get(x).bytes : unit * (1 + rnd.nextInt(16));
      int y = add(specs, "a" + (i + 1), Kind.ACTIVATION, row, row + 1, outBytes);
      acts.add(y);
      if (eltwise[i]) {
        inPlaceCandidates.get(inPlaceCandidates.size() - 1)[1] = y;
      }
      List<Integer> scratch = new ArrayList<>();
      if (rnd.nextInt(4) == 0) {
        scratch.add(
            add(specs, opName + ".imm", Kind.SCRATCH, row, row, unit * (1 + rnd.nextInt(4))));
      }
      tiu.get(row).add(new Timestep.TiuOp(opName, operands, List.of(y), scratch));
    }
    int out = acts.get(ops);
    gdma.get(ops + 1).add(out);
    // insert_inplace_local_mem: the input's life ends where the output's starts (one user),
    // input bytes >= output bytes
    for (int[] c : inPlaceCandidates) {
      if (specs.get(c[0]).end == c[2] && rnd.nextBoolean()) {
        inPlace.add(new InPlace(c[0], c[1]));
      }
    }
    for (Spec s : specs) {
      s.held = sliced && s.kind == Kind.WEIGHT;
    }
    if (pipelined) {
      // row 0's loads (no row-ops op reads them: ops >= 2) move to the last compute row (ops),
      // the last row's store to the first compute row (op 0 does not touch it); the two rows
      // left empty are deleted and every row index shifts down by one
      for (int b : gdma.get(0)) {
        specs.get(b).start = ops;
      }
      specs.get(out).end = 1;
      gdma.get(ops).addAll(gdma.get(0));
      gdma.get(1).addAll(gdma.get(ops + 1));
      gdma.remove(ops + 1);
      gdma.remove(0);
      tiu.remove(ops + 1);
      tiu.remove(0);
      rowCount = ops;
      for (Spec s : specs) {
        s.start -= 1;
        s.end -= 1;
      }
    }
    List<LmemBuffer> buffers = new ArrayList<>();
    for (Spec s : specs) {
      buffers.add(new LmemBuffer(s.id, s.kind, s.start, s.end, s.bytes, s.held));
    }
    List<Timestep> rows = new ArrayList<>();
    for (int r = 0; r < rowCount; r++) {
      rows.add(new Timestep(tiu.get(r), gdma.get(r)));
    }
    LmemInstance inst =
        new LmemInstance(
            name, g.capacity(), g.banks(), g.bankBytes(), g.euBytes(), buffers, rows, inPlace);
    long live = LmemLowerBounds.maxLive(inst);
    long target = (long) (fill * g.capacity());
    if (live == target) {
      return inst;
    }
    List<LmemBuffer> scaled = new ArrayList<>();
    for (LmemBuffer b : buffers) {
      long s = Math.max(1, b.bytes() * target / live);
      long q = b.kind() == Kind.WEIGHT ? 2 : unit;
      scaled.add(
          new LmemBuffer(b.id(), b.kind(), b.start(), b.end(), Math.max(q, s / q * q), b.held()));
    }
    // rounding down keeps the max-live bytes <= target; in-place pairs need input bytes >= output
    // bytes, and scaling keeps equal sizes equal
    return new LmemInstance(
        name, g.capacity(), g.banks(), g.bankBytes(), g.euBytes(), scaled, rows, inPlace);
  }

  private static final class Spec {
    final String id;
    final Kind kind;
    int start;
    int end;
    final long bytes;
    boolean held;

    Spec(String id, Kind kind, int start, int end, long bytes) {
      this.id = id;
      this.kind = kind;
      this.start = start;
      this.end = end;
      this.bytes = bytes;
    }
  }

  private static int add(List<Spec> specs, String id, Kind kind, int start, int end, long bytes) {
    specs.add(new Spec(id, kind, start, end, bytes));
    return specs.size() - 1;
  }
}
