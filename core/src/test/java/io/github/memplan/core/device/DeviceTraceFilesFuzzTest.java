package io.github.memplan.core.device;

import static io.github.memplan.core.io.InputFuzzing.parsedOrRejected;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Timeout;

/**
 * Fuzzes the device trace readers, CSV and JSON, each on every input ({@code memplan device
 * --trace}; scripts/fuzz.sh); the build replays {@code DeviceTraceFilesFuzzTestInputs/trace/}:
 * generated traces in both formats and every finding.
 */
class DeviceTraceFilesFuzzTest {
  @FuzzTest
  @Timeout(10)
  void trace(byte[] input) {
    String text = new String(input, StandardCharsets.UTF_8);
    parsedOrRejected(() -> DeviceTraceFiles.parseCsv(text, "fuzz", "fuzz.csv"), "fuzz.csv");
    parsedOrRejected(() -> DeviceTraceFiles.parseJson(text, "fuzz.json"), "fuzz.json");
  }
}
