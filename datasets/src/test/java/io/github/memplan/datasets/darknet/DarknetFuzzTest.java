package io.github.memplan.datasets.darknet;

import static io.github.memplan.core.io.InputFuzzing.parsedOrRejected;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Timeout;

/**
 * Fuzzes the darknet cfg reader and the graph built from it, as {@code memplan gmem --model x.cfg}
 * does (scripts/fuzz.sh); the build replays {@code DarknetFuzzTestInputs/cfg/}: shipped cfgs and
 * every finding.
 */
class DarknetFuzzTest {
  private static final String SOURCE = "fuzz.cfg";

  @FuzzTest
  @Timeout(10)
  void cfg(byte[] input) {
    String text = new String(input, StandardCharsets.UTF_8);
    parsedOrRejected(
        () -> {
          DarknetCfg cfg = DarknetCfg.parse(SOURCE, text);
          DarknetImporter.build(cfg, "fuzz", 1);
        },
        SOURCE);
  }
}
