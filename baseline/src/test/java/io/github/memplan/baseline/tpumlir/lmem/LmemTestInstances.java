package io.github.memplan.baseline.tpumlir.lmem;

import io.github.memplan.core.lmem.InPlace;
import io.github.memplan.core.lmem.LmemBuffer;
import io.github.memplan.core.lmem.LmemBuffer.Kind;
import io.github.memplan.core.lmem.LmemInstance;
import io.github.memplan.core.lmem.Timestep;
import java.util.ArrayList;
import java.util.List;

/** Terse builders for hand-worked LMEM instances. */
final class LmemTestInstances {
  private LmemTestInstances() {}

  static LmemBuffer act(String id, int start, int end, long bytes) {
    return new LmemBuffer(id, Kind.ACTIVATION, start, end, bytes, false);
  }

  static LmemBuffer held(String id, long bytes) {
    return new LmemBuffer(id, Kind.WEIGHT, 0, 0, bytes, true);
  }

  /** {@code rows} timesteps in which no engine touches anything. */
  static List<Timestep> idle(int rows) {
    List<Timestep> out = new ArrayList<>();
    for (int i = 0; i < rows; i++) {
      out.add(new Timestep(List.of(), List.of()));
    }
    return out;
  }

  static LmemInstance of(
      long capacity,
      int banks,
      int eu,
      List<LmemBuffer> buffers,
      List<Timestep> rows,
      InPlace... inPlace) {
    return new LmemInstance(
        "hand", capacity, banks, capacity / banks, eu, buffers, rows, List.of(inPlace));
  }
}
