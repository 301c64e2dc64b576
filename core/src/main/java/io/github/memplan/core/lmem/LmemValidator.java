package io.github.memplan.core.lmem;

import io.github.memplan.core.solve.Validator;
import io.github.memplan.core.solve.Violation;
import java.util.ArrayList;
import java.util.List;

/**
 * The oracle of the LMEM placement problem: the hard rules of TPU-MLIR's {@code
 * LmemAllocator::assignLmemAddr} ({@code reference/tpu-mlir.md} §2.10), checked from scratch.
 *
 * <ul>
 *   <li>{@code shape}: one address per buffer;
 *   <li>{@code capacity}: {@code 0 <= address} and {@code address + bytes <= capacity};
 *   <li>{@code alignment}: every address is a multiple of {@code euBytes};
 *   <li>{@code overlap}: two buffers live in a common timestep (held buffers in all of them,
 *       wrapping lifetimes counted cyclically) never share a byte, unless they are an {@link
 *       InPlace} pair at the same address (the output written over its input; an in-place pair
 *       overlapping at different addresses is an overlap).
 * </ul>
 *
 * Bank rules are preferences in TPU-MLIR, not rules; they are counted, not reported as violations.
 */
public final class LmemValidator implements Validator<LmemInstance, LmemSolution> {

  @Override
  public List<Violation> validate(LmemInstance instance, LmemSolution solution) {
    List<Violation> out = new ArrayList<>();
    List<LmemBuffer> buffers = instance.buffers();
    if (solution.size() != buffers.size()) {
      out.add(
          new Violation(
              "shape",
              instance.name()
                  + ": "
                  + solution.size()
                  + " addresses for "
                  + buffers.size()
                  + " buffers"));
      return out;
    }
    for (int i = 0; i < buffers.size(); i++) {
      LmemBuffer b = buffers.get(i);
      long a = solution.address(i);
      if (a < 0 || a + b.bytes() > instance.capacity()) {
        out.add(
            new Violation(
                "capacity",
                instance.name()
                    + ": buffer '"
                    + b.id()
                    + "' at ["
                    + a
                    + ", "
                    + (a + b.bytes())
                    + ") outside [0, "
                    + instance.capacity()
                    + ")"));
      }
      if (Math.floorMod(a, instance.euBytes()) != 0) {
        out.add(
            new Violation(
                "alignment",
                instance.name()
                    + ": buffer '"
                    + b.id()
                    + "' at "
                    + a
                    + " is not a multiple of "
                    + instance.euBytes()));
      }
    }
    int t = instance.timestepCount();
    for (int i = 0; i < buffers.size(); i++) {
      for (int j = i + 1; j < buffers.size(); j++) {
        LmemBuffer x = buffers.get(i);
        LmemBuffer y = buffers.get(j);
        long ax = solution.address(i);
        long ay = solution.address(j);
        boolean bytesOverlap = ax < ay + y.bytes() && ay < ax + x.bytes();
        boolean inPlace = ax == ay && instance.mayShare(i, j);
        if (bytesOverlap && x.overlapsInTime(y, t) && !inPlace) {
          out.add(
              new Violation(
                  "overlap",
                  instance.name()
                      + ": buffers '"
                      + x.id()
                      + "' and '"
                      + y.id()
                      + "' are live in a common timestep and share addresses"));
        }
      }
    }
    return out;
  }
}
