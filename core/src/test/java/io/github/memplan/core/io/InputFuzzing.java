package io.github.memplan.core.io;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The property of every reader's fuzz test: whatever the bytes, the reader returns a value or
 * rejects the input with one of the exceptions the CLI reports as bad input ({@link
 * IllegalArgumentException}, {@link IOException}, {@link UncheckedIOException}, or one a target
 * adds, such as picocli's), with a one-line message that names the source when there is one. Any
 * other throwable, a message spanning lines or one that does not say where, fails the target.
 */
public final class InputFuzzing {
  private InputFuzzing() {}

  /** A parse of one fuzzed input. */
  @FunctionalInterface
  public interface Parse {
    void run() throws Exception;
  }

  /** A parse of fuzzed text that names its source {@code source}. */
  @FunctionalInterface
  public interface TextParse {
    void run(String text, String source) throws Exception;
  }

  /**
   * As {@link #parsedOrRejected(Parse, String)} on {@code input} read as UTF-8 text, as the readers
   * read files; {@code source} is the name the parse gives the text.
   */
  public static void textParsedOrRejected(byte[] input, String source, TextParse parse) {
    String text = new String(input, StandardCharsets.UTF_8);
    parsedOrRejected(() -> parse.run(text, source), source);
  }

  /** As {@link #parsedOrRejected(Parse, String, List)} with the CLI's input exceptions only. */
  public static void parsedOrRejected(Parse parse, String source) {
    parsedOrRejected(parse, source, List.of());
  }

  /**
   * Runs {@code parse}; passes when it returns, or when it throws an input exception (the CLI's, or
   * one of {@code alsoExpected}) whose message is one line and contains {@code source} (unless
   * {@code source} is {@code null}).
   *
   * @throws AssertionError for any other outcome, with the throwable as cause
   */
  public static void parsedOrRejected(
      Parse parse, String source, List<Class<? extends Throwable>> alsoExpected) {
    try {
      parse.run();
    } catch (Exception e) {
      if (!expected(e, alsoExpected)) {
        throw new AssertionError("not an input exception: " + e, e);
      }
      String m = e.getMessage();
      if (m == null || m.isBlank()) {
        throw new AssertionError("input exception without a message: " + e, e);
      }
      if (m.indexOf('\n') >= 0 || m.indexOf('\r') >= 0) {
        throw new AssertionError("message spans lines: " + e, e);
      }
      if (source != null && !m.contains(source)) {
        throw new AssertionError("message does not name '" + source + "': " + e, e);
      }
    }
  }

  private static boolean expected(Exception e, List<Class<? extends Throwable>> alsoExpected) {
    if (e instanceof IllegalArgumentException
        || e instanceof IOException
        || e instanceof UncheckedIOException) {
      return true;
    }
    return alsoExpected.stream().anyMatch(c -> c.isInstance(e));
  }
}
