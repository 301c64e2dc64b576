package io.github.memplan.core.ir;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.TreeMap;

/**
 * The models on the class path, sorted by name: each registered {@link ModelProvider}, and every
 * model that each registered {@link ModelSource} lists, both found with {@link ServiceLoader}.
 */
public final class Models {
  private Models() {}

  public static List<ModelProvider> all() {
    Map<String, ModelProvider> byName = new TreeMap<>();
    for (ModelProvider p : ServiceLoader.load(ModelProvider.class)) {
      add(byName, p, p.getClass().getName());
    }
    for (ModelSource s : ServiceLoader.load(ModelSource.class)) {
      for (ModelProvider p : s.models()) {
        add(byName, p, s.getClass().getName());
      }
    }
    return new ArrayList<>(byName.values());
  }

  private static void add(Map<String, ModelProvider> byName, ModelProvider p, String from) {
    ModelProvider prev = byName.put(p.name(), p);
    if (prev != null) {
      throw new IllegalStateException(
          "two models share the name '" + p.name() + "' (the second from " + from + ")");
    }
  }

  /** The model named {@code name}; an unknown name fails with the list of known ones. */
  public static ModelProvider get(String name) {
    List<ModelProvider> all = all();
    for (ModelProvider p : all) {
      if (p.name().equals(name)) {
        return p;
      }
    }
    throw new IllegalArgumentException(
        "unknown model '"
            + name
            + "' (known: "
            + String.join(", ", all.stream().map(ModelProvider::name).toList())
            + ")");
  }
}
