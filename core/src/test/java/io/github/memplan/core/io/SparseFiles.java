package io.github.memplan.core.io;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Path;

/** Large files for tests of size limits, made sparse: their length is set, nothing is written. */
public final class SparseFiles {
  private SparseFiles() {}

  /** A file {@code name} in {@code dir} one byte past {@link Integer#MAX_VALUE}: 2^31 bytes. */
  public static Path pastTwoGib(Path dir, String name) throws IOException {
    Path f = dir.resolve(name);
    try (RandomAccessFile r = new RandomAccessFile(f.toFile(), "rw")) {
      r.setLength(1L << 31);
    }
    return f;
  }
}
