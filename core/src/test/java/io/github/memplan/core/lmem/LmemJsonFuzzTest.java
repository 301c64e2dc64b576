package io.github.memplan.core.lmem;

import static io.github.memplan.core.io.InputFuzzing.textParsedOrRejected;

import com.code_intelligence.jazzer.junit.FuzzTest;
import org.junit.jupiter.api.Timeout;

/**
 * Fuzzes the LMEM instance reader ({@code memplan lmem --instance}; scripts/fuzz.sh); the build
 * replays {@code LmemJsonFuzzTestInputs/json/}: generated instances and every finding.
 */
class LmemJsonFuzzTest {
  @FuzzTest
  @Timeout(10)
  void json(byte[] input) {
    textParsedOrRejected(input, "fuzz.json", (text, source) -> LmemJson.parse(text, source));
  }
}
