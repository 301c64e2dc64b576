package io.github.memplan.core.ir;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.TreeMap;

/** The models on the class path, found with {@link ServiceLoader}, sorted by name. */
public final class Models {
  private Models() {}

  public static List<ModelProvider> all() {
    Map<String, ModelProvider> byName = new TreeMap<>();
    for (ModelProvider p : ServiceLoader.load(ModelProvider.class)) {
      ModelProvider prev = byName.put(p.name(), p);
      if (prev != null) {
        throw new IllegalStateException("two models share the name '" + p.name() + "'");
      }
    }
    return new ArrayList<>(byName.values());
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
