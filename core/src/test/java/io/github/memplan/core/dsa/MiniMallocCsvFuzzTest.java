package io.github.memplan.core.dsa;

import static io.github.memplan.core.io.InputFuzzing.textParsedOrRejected;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.StringReader;
import org.junit.jupiter.api.Timeout;

/**
 * Fuzzes the MiniMalloc CSV reader, as an instance and as a solved instance (scripts/fuzz.sh); the
 * build replays {@code MiniMallocCsvFuzzTestInputs/csv/}: real instances and every finding.
 */
class MiniMallocCsvFuzzTest {
  @FuzzTest
  @Timeout(10)
  void csv(byte[] input) {
    textParsedOrRejected(
        input, "fuzz.csv", (text, source) -> MiniMallocCsv.parse(source, new StringReader(text)));
    textParsedOrRejected(
        input,
        "fuzz.csv",
        (text, source) -> MiniMallocCsv.parseSolved(source, new StringReader(text)));
  }
}
