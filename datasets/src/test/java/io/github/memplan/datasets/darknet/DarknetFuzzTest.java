package io.github.memplan.datasets.darknet;

import static io.github.memplan.core.io.InputFuzzing.textParsedOrRejected;

import com.code_intelligence.jazzer.junit.FuzzTest;
import org.junit.jupiter.api.Timeout;

/**
 * Fuzzes the darknet cfg reader and the graph built from it, as {@code memplan gmem --model x.cfg}
 * does (scripts/fuzz.sh); the build replays {@code DarknetFuzzTestInputs/cfg/}: shipped cfgs and
 * every finding.
 */
class DarknetFuzzTest {
  @FuzzTest
  @Timeout(10)
  void cfg(byte[] input) {
    textParsedOrRejected(
        input,
        "fuzz.cfg",
        (text, source) -> DarknetImporter.build(DarknetCfg.parse(source, text), "fuzz", 1));
  }
}
