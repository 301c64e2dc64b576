package io.github.memplan.core.dataset;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Objects;

/**
 * One file of a dataset: its path inside the dataset ({@code challenging/A.1048576.csv}), its
 * SHA-256 as recorded in the dataset's index, and its bytes. {@link #bytes()} checks the recorded
 * sum, so a damaged or edited copy is never planned in silence.
 *
 * @param path the path inside the dataset, with {@code /} separators
 * @param sha256 the recorded SHA-256, 64 lower-case hex digits
 * @param source opens the file's bytes
 */
public record DatasetFile(String path, String sha256, Source source) {
  /** Opens a file's bytes. */
  @FunctionalInterface
  public interface Source {
    InputStream open() throws IOException;
  }

  public DatasetFile {
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(source, "source");
    if (sha256 == null || !sha256.matches("[0-9a-f]{64}")) {
      throw new IllegalArgumentException(path + ": SHA-256 must be 64 lower-case hex digits");
    }
  }

  /** The file name without directories: {@code A.1048576.csv}. */
  public String fileName() {
    return path.substring(path.lastIndexOf('/') + 1);
  }

  /**
   * The entry's name: the file name without its last extension, {@code A.1048576}; instances read
   * from the file carry this name, as when the file is read from disk.
   */
  public String name() {
    String f = fileName();
    int dot = f.lastIndexOf('.');
    return dot <= 0 ? f : f.substring(0, dot);
  }

  /**
   * The short name: the part of {@link #name()} before its first dot, {@code A} for {@code
   * A.1048576}.
   */
  public String shortName() {
    String n = name();
    int dot = n.indexOf('.');
    return dot <= 0 ? n : n.substring(0, dot);
  }

  /**
   * The file's bytes, checked against {@link #sha256()}.
   *
   * @throws IllegalStateException (one line) when the bytes do not match the recorded sum
   * @throws UncheckedIOException when the file cannot be read
   */
  public byte[] bytes() {
    byte[] b;
    try (InputStream in = source.open()) {
      b = in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(path + ": " + e.getMessage(), e);
    }
    String actual = sha256Of(b);
    if (!actual.equals(sha256)) {
      throw new IllegalStateException(
          path + ": SHA-256 is " + actual + ", but the dataset's index records " + sha256);
    }
    return b;
  }

  /** The file's text, UTF-8, checked as {@link #bytes()} is. */
  public String text() {
    return new String(bytes(), StandardCharsets.UTF_8);
  }

  /** The SHA-256 of {@code bytes}, lower-case hex. */
  public static String sha256Of(byte[] bytes) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this Java runtime", e);
    }
  }
}
