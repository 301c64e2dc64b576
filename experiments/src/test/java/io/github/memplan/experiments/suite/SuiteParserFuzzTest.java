package io.github.memplan.experiments.suite;

import static io.github.memplan.core.io.InputFuzzing.parsedOrRejected;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Timeout;

/**
 * Fuzzes the suite YAML reader ({@code memplan run SUITE}; scripts/fuzz.sh); the build replays
 * {@code SuiteParserFuzzTestInputs/yaml/}: shipped suites and every finding. Paths in a suite
 * resolve against a directory that does not exist, so nothing is read but the text.
 */
class SuiteParserFuzzTest {
  private static final String SOURCE = "fuzz.yaml";
  private static final Path BASE = Path.of("/nonexistent-memplan-fuzz");

  @FuzzTest
  @Timeout(10)
  void yaml(byte[] input) {
    String text = new String(input, StandardCharsets.UTF_8);
    parsedOrRejected(() -> SuiteParser.parse(text, SOURCE, BASE, BASE.resolve(SOURCE)), SOURCE);
  }
}
