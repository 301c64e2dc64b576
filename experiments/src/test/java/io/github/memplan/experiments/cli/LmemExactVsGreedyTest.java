package io.github.memplan.experiments.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URISyntaxException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * A layer group where {@code lmem-tpumlir} accepts a bank conflict that {@code lmem-exact} avoids:
 * squeezenet1.0's ops 26-28 on cv183x as {@code tpumlir-dp} groups them (8 banks of 4 KiB, EU 16;
 * the file is {@code memplan group --dump-lmem}'s). The greedy's placement (the addresses in the
 * file) puts the two 11712-byte activations at 0 and 12288 (banks 0-2 and 3-5), and the 16-byte
 * {@code features.7.expand1x1.bias} at 11712, in bank 2 with {@code features.7.expand1x1}: the
 * result of the TIU op that reads the bias in row 1, so one conflict (same TIU op). Under {@code
 * conflict=hard} CP-SAT finds a placement without any.
 */
class LmemExactVsGreedyTest {

  private static Path group() throws URISyntaxException {
    return Path.of(
        LmemExactVsGreedyTest.class.getResource("/lmem/squeezenet1.0-cv183x-g26-28.json").toURI());
  }

  private static JsonNode place(String planner, String... params) throws Exception {
    String[] args = {
      "lmem",
      "--instance",
      group().toString(),
      "--planner",
      planner,
      "--time-limit",
      "none",
      "--json"
    };
    String[] all = java.util.Arrays.copyOf(args, args.length + params.length);
    System.arraycopy(params, 0, all, args.length, params.length);
    MainTest.Run r = MainTest.run(all);
    assertThat(r.err()).isEmpty();
    assertThat(r.code()).isZero();
    return r.json();
  }

  @Test
  void theGreedyAcceptsAConflictTheExactModelAvoids() throws Exception {
    JsonNode greedy = place("lmem-tpumlir");
    assertThat(greedy.get("bankConflicts").asInt()).isEqualTo(1);

    JsonNode exact = place("lmem-exact", "--param", "conflict=hard", "--param", "goal=satisfy");
    assertThat(exact.get("status").asText()).isIn("FEASIBLE", "OPTIMAL");
    assertThat(exact.get("bankConflicts").asInt()).isZero();
  }
}
