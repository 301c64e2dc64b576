package io.github.memplan.solvers.dsa.bnb;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.memplan.core.dataset.Datasets;
import io.github.memplan.core.dsa.DsaInstance;
import io.github.memplan.core.dsa.DsaSolution;
import io.github.memplan.core.dsa.DsaValidator;
import io.github.memplan.core.dsa.LowerBounds;
import io.github.memplan.core.dsa.MiniMallocCsv;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The best placements {@code exact} has found for MiniMalloc's open instances D and J (offsets
 * only, {@code id,offset}, in this package's test resources; the instances are read from the
 * shipped dataset {@code minimalloc/challenging}): each is valid and has the recorded peak, below
 * the best peaks known before (1,031,168 and 1,041,408). They are the evidence for the upper bounds
 * that {@link MiniMallocChallengingIT} checks proven bounds against.
 */
class ChallengingBestPlacementsTest {

  @ParameterizedTest
  @CsvSource({"D, 1031168", "J, 1041408"})
  void bestPlacementIsValidAndBeatsTheKnownPeak(String name, long knownBefore) throws Exception {
    DsaInstance inst = MiniMallocCsv.readInstance(Datasets.resolve("minimalloc:" + name));
    Map<String, Integer> index = inst.indexById();
    long[] offsets = new long[inst.size()];
    java.util.Arrays.fill(offsets, -1);
    String resource = name + ".best-offsets.csv";
    try (InputStream in = getClass().getResourceAsStream(resource)) {
      assertThat(in).as(resource).isNotNull();
      BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
      assertThat(r.readLine()).isEqualTo("id,offset");
      for (String line = r.readLine(); line != null; line = r.readLine()) {
        String[] cells = line.split(",");
        offsets[index.get(cells[0])] = Long.parseLong(cells[1]);
      }
    }
    assertThat(offsets).doesNotContain(-1L);
    DsaSolution sol = new DsaSolution(offsets);
    assertThat(new DsaValidator().isValid(inst, sol)).isTrue();
    long peak = inst.peak(sol);
    assertThat(peak)
        .isEqualTo(MiniMallocChallengingIT.KNOWN_PEAK.get(name))
        .isLessThan(knownBefore)
        .isGreaterThanOrEqualTo(LowerBounds.maxLoad(inst));
  }
}
