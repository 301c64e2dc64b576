package io.github.memplan.core.dsa;

import java.util.ArrayList;
import java.util.List;

/**
 * The rectangles a buffer occupies in the time × address plane, relative to its offset: its whole
 * size over its lifetime, except during gaps, where it occupies only the gap's window (or nothing).
 */
public final class Occupancy {
  private Occupancy() {}

  /**
   * One rectangle: timesteps {@code [lower, upper)}, bytes {@code [from, to)} past the offset.
   *
   * @param buffer index of the buffer in its instance
   */
  public record Piece(int buffer, int lower, int upper, long from, long to) {}

  /** The non-empty pieces of buffer {@code index}. */
  public static List<Piece> pieces(int index, Buffer b) {
    List<Piece> out = new ArrayList<>();
    if (b.size() == 0) {
      return out;
    }
    int t = b.lower();
    for (Gap g : b.gaps()) {
      if (g.lower() > t) {
        out.add(new Piece(index, t, g.lower(), 0, b.size()));
      }
      if (g.hasWindow() && g.windowUpper() > g.windowLower()) {
        out.add(new Piece(index, g.lower(), g.upper(), g.windowLower(), g.windowUpper()));
      }
      t = g.upper();
    }
    if (t < b.upper()) {
      out.add(new Piece(index, t, b.upper(), 0, b.size()));
    }
    return out;
  }

  /** The pieces of every buffer of {@code instance}, sorted by start time then buffer index. */
  public static List<Piece> pieces(DsaInstance instance) {
    List<Piece> all = new ArrayList<>();
    for (int i = 0; i < instance.size(); i++) {
      all.addAll(pieces(i, instance.buffer(i)));
    }
    all.sort(
        (a, b) ->
            a.lower() != b.lower()
                ? Integer.compare(a.lower(), b.lower())
                : Integer.compare(a.buffer(), b.buffer()));
    return all;
  }
}
