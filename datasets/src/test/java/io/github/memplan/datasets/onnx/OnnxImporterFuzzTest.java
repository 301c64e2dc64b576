package io.github.memplan.datasets.onnx;

import static io.github.memplan.core.io.InputFuzzing.parsedOrRejected;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.ByteArrayInputStream;
import java.util.Map;
import org.junit.jupiter.api.Timeout;

/**
 * Fuzzes the ONNX importer on protobuf bytes, as {@code memplan gmem --model x.onnx} reads them
 * (scripts/fuzz.sh); the build replays {@code OnnxImporterFuzzTestInputs/model/}: small models of
 * the ONNX backend node tests (Debian's libonnx-testdata, Apache-2.0) and every finding.
 */
class OnnxImporterFuzzTest {
  private static final String SOURCE = "fuzz.onnx";

  @FuzzTest
  @Timeout(10)
  void model(byte[] input) {
    parsedOrRejected(
        () -> OnnxImporter.read(new ByteArrayInputStream(input), SOURCE, Map.of(), "fuzz"), SOURCE);
  }
}
