package io.github.memplan.datasets.json;

import static io.github.memplan.core.io.InputFuzzing.textParsedOrRejected;

import com.code_intelligence.jazzer.junit.FuzzTest;
import org.junit.jupiter.api.Timeout;

/**
 * Fuzzes the JSON graph reader ({@code memplan gmem --model x.json}; scripts/fuzz.sh); the build
 * replays {@code GraphJsonFuzzTestInputs/json/}: zoo exports and every finding.
 */
class GraphJsonFuzzTest {
  @FuzzTest
  @Timeout(10)
  void json(byte[] input) {
    textParsedOrRejected(input, "fuzz.json", (text, source) -> GraphJson.parse(source, text));
  }
}
