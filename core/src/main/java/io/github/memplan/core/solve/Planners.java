package io.github.memplan.core.solve;

import io.github.memplan.core.io.InputText;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.TreeMap;
import java.util.stream.Collectors;

/** The planners on the class path, found with {@link ServiceLoader}, sorted by id. */
public final class Planners {
  private Planners() {}

  /** Every registered provider, sorted by id; duplicate ids fail. */
  @SuppressWarnings("rawtypes")
  public static List<PlannerProvider<?, ?>> all() {
    Map<String, PlannerProvider<?, ?>> byId = new TreeMap<>();
    for (PlannerProvider p : ServiceLoader.load(PlannerProvider.class)) {
      PlannerProvider<?, ?> prev = byId.put(p.id(), p);
      if (prev != null) {
        throw new IllegalStateException(
            "two planners share the id '"
                + p.id()
                + "': "
                + prev.getClass().getName()
                + " and "
                + p.getClass().getName());
      }
    }
    List<PlannerProvider<?, ?>> list = new ArrayList<>(byId.values());
    list.sort(Comparator.comparing(PlannerProvider::id));
    return list;
  }

  /** The providers whose planners take instances of {@code type}, sorted by id. */
  @SuppressWarnings("unchecked")
  public static <I, S> List<PlannerProvider<I, S>> forInstance(Class<I> type) {
    List<PlannerProvider<I, S>> out = new ArrayList<>();
    for (PlannerProvider<?, ?> p : all()) {
      if (p.instanceType().equals(type)) {
        out.add((PlannerProvider<I, S>) p);
      }
    }
    return out;
  }

  /**
   * The provider with {@code id} for instances of {@code type}; an unknown id fails with the list
   * of known ones.
   */
  public static <I, S> PlannerProvider<I, S> get(String id, Class<I> type) {
    List<PlannerProvider<I, S>> candidates = forInstance(type);
    for (PlannerProvider<I, S> p : candidates) {
      if (p.id().equals(id)) {
        return p;
      }
    }
    throw new IllegalArgumentException(
        "unknown planner "
            + InputText.quote(id)
            + " for "
            + type.getSimpleName()
            + " (known: "
            + candidates.stream().map(PlannerProvider::id).collect(Collectors.joining(", "))
            + ")");
  }
}
