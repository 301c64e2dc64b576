package io.github.memplan.datasets.fetched;

import java.nio.file.Path;

/**
 * The folder {@code scripts/fetch-models.sh} fetches into: the system property {@code
 * memplan.models}, else the environment variable {@code MEMPLAN_MODELS}, else {@code
 * $XDG_CACHE_HOME/memplan/models}, else {@code ~/.cache/memplan/models} (the script's own order,
 * the property aside).
 */
public final class ModelCache {
  private ModelCache() {}

  /** The cache folder (it may not exist). */
  public static Path dir() {
    String property = System.getProperty("memplan.models");
    if (property != null && !property.isBlank()) {
      return Path.of(property);
    }
    String env = System.getenv("MEMPLAN_MODELS");
    if (env != null && !env.isBlank()) {
      return Path.of(env);
    }
    String xdg = System.getenv("XDG_CACHE_HOME");
    Path base =
        xdg != null && !xdg.isBlank()
            ? Path.of(xdg)
            : Path.of(System.getProperty("user.home"), ".cache");
    return base.resolve("memplan").resolve("models");
  }
}
