package io.github.memplan.core.dsa;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Finds the project's shared data folder ({@code shared/datasets}, beside the repository), which is
 * read in place and never copied into the repository. Tests that need it skip when it is absent.
 */
public final class SharedDatasets {
  private SharedDatasets() {}

  /**
   * {@code shared/datasets/<relative>} in the working directory or the nearest ancestor that has
   * it, if the file exists.
   */
  public static Optional<Path> find(String relative) {
    for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
      Path candidate = dir.resolve("shared").resolve("datasets").resolve(relative);
      if (Files.isRegularFile(candidate)) {
        return Optional.of(candidate);
      }
    }
    return Optional.empty();
  }
}
