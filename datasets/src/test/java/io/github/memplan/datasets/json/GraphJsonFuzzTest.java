package io.github.memplan.datasets.json;

import static io.github.memplan.core.io.InputFuzzing.parsedOrRejected;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Timeout;

/**
 * Fuzzes the JSON graph reader ({@code memplan gmem --model x.json}; scripts/fuzz.sh); the build
 * replays {@code GraphJsonFuzzTestInputs/json/}: zoo exports and every finding.
 */
class GraphJsonFuzzTest {
  private static final String SOURCE = "fuzz.json";

  @FuzzTest
  @Timeout(10)
  void json(byte[] input) {
    String text = new String(input, StandardCharsets.UTF_8);
    parsedOrRejected(() -> GraphJson.parse(SOURCE, text), SOURCE);
  }
}
