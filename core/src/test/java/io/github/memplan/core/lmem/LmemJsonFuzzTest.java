package io.github.memplan.core.lmem;

import static io.github.memplan.core.io.InputFuzzing.parsedOrRejected;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Timeout;

/**
 * Fuzzes the LMEM instance reader ({@code memplan lmem --instance}; scripts/fuzz.sh); the build
 * replays {@code LmemJsonFuzzTestInputs/json/}: generated instances and every finding.
 */
class LmemJsonFuzzTest {
  private static final String SOURCE = "fuzz.json";

  @FuzzTest
  @Timeout(10)
  void json(byte[] input) {
    String text = new String(input, StandardCharsets.UTF_8);
    parsedOrRejected(() -> LmemJson.parse(text, SOURCE), SOURCE);
  }
}
