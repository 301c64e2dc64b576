package io.github.memplan.core.solve;

import io.github.memplan.core.io.InputText;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Function;

/**
 * The grammar of a set of named switches, shared by TPU-MLIR's front-end passes ({@code
 * --front-end}) and the pieces of today's LayerGroup ({@code pieces=}): {@code all}, {@code none},
 * a comma-separated list of names (only those), or {@code all} minus some ({@code all,-NAME}), read
 * left to right. Names are case-insensitive and trimmed.
 */
public final class SwitchSet {
  private SwitchSet() {}

  /**
   * The switches {@code spec} turns on, out of {@code known}.
   *
   * @param name each switch's name in {@code spec}
   * @param what what a switch is called in messages, e.g. {@code front-end pass}
   * @throws IllegalArgumentException for an empty spec or a name not in {@code known}, one line
   *     naming it and the known names
   */
  public static <E extends Enum<E>> EnumSet<E> parse(
      String spec, Set<E> known, Function<E, String> name, String what) {
    String s = spec.trim().toLowerCase(Locale.ROOT);
    if (s.isEmpty()) {
      throw new IllegalArgumentException(
          "empty " + what + " list (use 'none' for no " + what + ")");
    }
    EnumSet<E> set = EnumSet.copyOf(known);
    set.clear();
    for (String part : s.split(",")) {
      String p = part.trim();
      if (p.equals("all")) {
        set.addAll(known);
      } else if (p.equals("none")) {
        set.clear();
      } else if (p.startsWith("-")) {
        set.remove(one(p.substring(1), known, name, what));
      } else {
        set.add(one(p, known, name, what));
      }
    }
    return set;
  }

  /**
   * {@code all} when {@code on} holds every known switch, {@code none}, else the names in order.
   */
  public static <E extends Enum<E>> String format(
      Set<E> on, Set<E> known, Function<E, String> name) {
    if (on.containsAll(known)) {
      return "all";
    }
    if (on.isEmpty()) {
      return "none";
    }
    List<String> names = new ArrayList<>();
    for (E e : known) {
      if (on.contains(e)) {
        names.add(name.apply(e));
      }
    }
    return String.join(",", names);
  }

  private static <E extends Enum<E>> E one(
      String id, Set<E> known, Function<E, String> name, String what) {
    String n = id.trim();
    List<String> names = new ArrayList<>();
    for (E e : known) {
      if (name.apply(e).equals(n)) {
        return e;
      }
      names.add(name.apply(e));
    }
    throw new IllegalArgumentException(
        "unknown "
            + what
            + " "
            + InputText.quote(id)
            + " (known: "
            + String.join(", ", names)
            + ")");
  }
}
