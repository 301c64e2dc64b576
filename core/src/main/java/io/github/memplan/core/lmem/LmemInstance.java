package io.github.memplan.core.lmem;

import io.github.memplan.core.chip.Chip;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * The LMEM placement problem of one layer group (seed {@code tpu-mlir-layergroup.zh.rst}, "LMEM
 * 分配"; {@code reference/tpu-mlir.md} §2.8-2.10): buffers with timestep lifetimes and per-lane
 * sizes, the timestep table saying which buffers the TIU and the GDMA touch in each row, and the
 * LMEM geometry of one lane. A solution gives each buffer a per-lane address; see {@link
 * LmemValidator} for the rules.
 *
 * @param name e.g. {@code resnet18/group3}
 * @param capacity LMEM bytes of one lane ({@code LMEM_BYTES})
 * @param banks number of banks of one lane
 * @param bankBytes bytes of one bank of one lane; {@code banks × bankBytes == capacity}
 * @param euBytes address alignment of every buffer ({@code EU_BYTES})
 * @param buffers the buffers, ids unique
 * @param timesteps the rows of the timestep table; every lifetime lies within {@code [0, T)}
 * @param inPlace pairs of buffers allowed to start at the same address ({@link InPlace}); the
 *     lifetimes of each pair must allow it ({@link InPlace#lifetimesAllow})
 */
public record LmemInstance(
    String name,
    long capacity,
    int banks,
    long bankBytes,
    int euBytes,
    List<LmemBuffer> buffers,
    List<Timestep> timesteps,
    List<InPlace> inPlace) {

  public LmemInstance {
    Objects.requireNonNull(name, "name");
    buffers = List.copyOf(buffers);
    timesteps = List.copyOf(timesteps);
    inPlace = List.copyOf(inPlace);
    if (capacity <= 0 || banks <= 0 || bankBytes <= 0 || euBytes <= 0) {
      throw new IllegalArgumentException("LMEM instance '" + name + "': non-positive geometry");
    }
    if (banks * bankBytes != capacity) {
      throw new IllegalArgumentException(
          "LMEM instance '" + name + "': banks × bank bytes != capacity");
    }
    if (timesteps.isEmpty()) {
      throw new IllegalArgumentException("LMEM instance '" + name + "': no timestep");
    }
    int t = timesteps.size();
    Set<String> ids = new HashSet<>();
    for (LmemBuffer b : buffers) {
      if (!ids.add(b.id())) {
        throw new IllegalArgumentException(
            "LMEM instance '" + name + "': duplicate buffer id '" + b.id() + "'");
      }
      if (b.start() >= t || b.end() >= t) {
        throw new IllegalArgumentException(
            "LMEM instance '"
                + name
                + "': buffer '"
                + b.id()
                + "' lives outside the "
                + t
                + " timesteps");
      }
    }
    for (int r = 0; r < t; r++) {
      Timestep row = timesteps.get(r);
      for (int i : row.gdma()) {
        checkIndex(name, r, i, buffers.size());
      }
      for (Timestep.TiuOp op : row.tiu()) {
        for (List<Integer> l : List.of(op.operands(), op.results(), op.scratch())) {
          for (int i : l) {
            checkIndex(name, r, i, buffers.size());
          }
        }
      }
    }
    for (InPlace p : inPlace) {
      checkIndex(name, -1, p.input(), buffers.size());
      checkIndex(name, -1, p.output(), buffers.size());
      LmemBuffer in = buffers.get(p.input());
      LmemBuffer out = buffers.get(p.output());
      if (p.input() == p.output() || !InPlace.lifetimesAllow(in, out)) {
        throw new IllegalArgumentException(
            "LMEM instance '"
                + name
                + "': in-place pair ('"
                + in.id()
                + "', '"
                + out.id()
                + "'): the input must end in the timestep where the output starts, the two"
                + " meeting there only, and neither may be held");
      }
    }
  }

  private static void checkIndex(String name, int row, int index, int n) {
    if (index < 0 || index >= n) {
      throw new IllegalArgumentException(
          "LMEM instance '"
              + name
              + "'"
              + (row >= 0 ? " timestep " + row : " in-place pair")
              + ": buffer index "
              + index
              + " out of range");
    }
  }

  /** An instance with {@code chip}'s LMEM geometry. */
  public static LmemInstance of(
      String name,
      Chip chip,
      List<LmemBuffer> buffers,
      List<Timestep> timesteps,
      List<InPlace> inPlace) {
    return new LmemInstance(
        name,
        chip.lmemBytesPerLane(),
        chip.banks(),
        chip.bankBytes(),
        chip.euBytes(),
        buffers,
        timesteps,
        inPlace);
  }

  /** Number of rows of the timestep table. */
  public int timestepCount() {
    return timesteps.size();
  }

  /**
   * Whether buffers {@code a} and {@code b} are an in-place pair, which may start at the same
   * address ({@link InPlace}).
   */
  public boolean mayShare(int a, int b) {
    for (InPlace p : inPlace) {
      if ((p.input() == a && p.output() == b) || (p.input() == b && p.output() == a)) {
        return true;
      }
    }
    return false;
  }
}
