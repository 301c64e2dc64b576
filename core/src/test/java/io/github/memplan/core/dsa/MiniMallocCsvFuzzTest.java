package io.github.memplan.core.dsa;

import static io.github.memplan.core.io.InputFuzzing.parsedOrRejected;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Timeout;

/**
 * Fuzzes the MiniMalloc CSV reader, as an instance and as a solved instance (scripts/fuzz.sh); the
 * build replays {@code MiniMallocCsvFuzzTestInputs/csv/}: real instances and every finding.
 */
class MiniMallocCsvFuzzTest {
  private static final String SOURCE = "fuzz.csv";

  @FuzzTest
  @Timeout(10)
  void csv(byte[] input) {
    String text = new String(input, StandardCharsets.UTF_8);
    parsedOrRejected(() -> MiniMallocCsv.parse(SOURCE, new StringReader(text)), SOURCE);
    parsedOrRejected(() -> MiniMallocCsv.parseSolved(SOURCE, new StringReader(text)), SOURCE);
  }
}
