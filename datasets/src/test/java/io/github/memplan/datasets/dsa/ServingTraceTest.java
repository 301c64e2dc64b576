package io.github.memplan.datasets.dsa;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.memplan.core.dsa.Buffer;
import io.github.memplan.core.dsa.DsaInstance;
import io.github.memplan.core.ir.Graph;
import io.github.memplan.core.ir.Models;
import java.util.List;
import org.junit.jupiter.api.Test;

class ServingTraceTest {

  @Test
  void sameSeedSameInstanceExactCountNumericIds() {
    List<Graph> mix = List.of(Models.get("resnet18").build(), Models.get("mobilenetv2").build());
    DsaInstance a = ServingTrace.generate(mix, 4_000, 3, 64);
    assertThat(ServingTrace.generate(mix, 4_000, 3, 64)).isEqualTo(a);
    assertThat(ServingTrace.generate(mix, 4_000, 4, 64).buffers()).isNotEqualTo(a.buffers());
    assertThat(a.size()).isEqualTo(4_000);
    int concurrentMax = 0;
    for (int i = 0; i < a.size(); i++) {
      Buffer b = a.buffer(i);
      assertThat(b.id()).isEqualTo(Integer.toString(i));
      assertThat(b.lower()).isLessThan(b.upper());
      assertThat(b.size() % 64).isZero();
      if (i > 0 && b.lower() < a.buffer(i - 1).lower()) {
        concurrentMax++; // allocation order is by time: never happens
      }
    }
    assertThat(concurrentMax).isZero();
  }
}
