package io.github.memplan.experiments.suite;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.util.List;
import java.util.regex.PatternSyntaxException;
import java.util.stream.Stream;

/** Files named in a suite: relative to the suite file's directory; a glob in the file name. */
public final class SuiteFiles {
  private SuiteFiles() {}

  /**
   * The files {@code spec} names, sorted by path: one file, or every regular file of a directory
   * whose name matches a glob ({@code *}, {@code ?}, {@code [..]}, {@code {a,b}}) in the last
   * segment. A glob that matches nothing, a malformed glob and a missing file fail, in one line.
   */
  public static List<Path> resolve(String spec, Path baseDir) {
    Path p = baseDir.resolve(spec).normalize();
    String last = p.getFileName() == null ? "" : p.getFileName().toString();
    if (!last.matches(".*[*?\\[{].*")) {
      if (!Files.isRegularFile(p)) {
        throw new UncheckedIOException(new NoSuchFileException(p.toString()));
      }
      return List.of(p);
    }
    Path dir = p.getParent();
    PathMatcher m;
    try {
      m = dir.getFileSystem().getPathMatcher("glob:" + last);
    } catch (PatternSyntaxException e) {
      // its own message spans three lines (the pattern and a caret)
      throw new IllegalArgumentException(
          "'" + spec + "': bad glob: " + e.getDescription() + " near index " + e.getIndex());
    }
    try (Stream<Path> s = Files.list(dir)) {
      List<Path> out =
          s.filter(f -> Files.isRegularFile(f) && m.matches(f.getFileName())).sorted().toList();
      if (out.isEmpty()) {
        throw new IllegalArgumentException("'" + spec + "' matches no file (in " + dir + ")");
      }
      return out;
    } catch (NoSuchFileException e) {
      throw new IllegalArgumentException("'" + spec + "': no directory " + dir);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
