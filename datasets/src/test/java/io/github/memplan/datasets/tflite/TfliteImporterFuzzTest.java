package io.github.memplan.datasets.tflite;

import static io.github.memplan.core.io.InputFuzzing.parsedOrRejected;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.util.Map;
import org.junit.jupiter.api.Timeout;

/**
 * Fuzzes the TFLite importer on flatbuffer bytes, as {@code memplan gmem --model x.tflite} reads
 * them (scripts/fuzz.sh); the build replays {@code TfliteImporterFuzzTestInputs/model/}: small
 * models written by {@link TfliteModelBuilder} (convolutions, depthwise, fp16 and int8 weights,
 * pooling, reshapes, depth to space, an unsupported operator) and every finding.
 */
class TfliteImporterFuzzTest {
  private static final String SOURCE = "fuzz.tflite";

  @FuzzTest
  @Timeout(10)
  void model(byte[] input) {
    parsedOrRejected(() -> TfliteImporter.read(input, SOURCE, Map.of(), "fuzz"), SOURCE);
  }
}
