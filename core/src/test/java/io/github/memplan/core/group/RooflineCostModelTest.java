package io.github.memplan.core.group;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.memplan.core.chip.Chip;
import io.github.memplan.core.chip.Chips;
import io.github.memplan.core.ir.Graph;
import org.junit.jupiter.api.Test;

/**
 * Hand-computed roofline costs on bm1684x: 64 lanes x 16 f32 per cycle, TIU 1000 MHz, DDR assumed
 * 64 GB/s, so a GDMA transfer of b bytes takes ceil(b / 64) cycles.
 */
class RooflineCostModelTest {
  private final Chip chip = Chips.get("bm1684x");
  private final RooflineCostModel model = new RooflineCostModel();

  @Test
  void globalOpsAreTheRooflineOfComputeAndTheirFullTraffic() {
    Graph g = GroupFixtures.convRelu();
    assertThat(RooflineCostModel.assumptions(chip)).contains("DDR bandwidth assumed 64");
    // conv: 512 outputs x 72 MACs / 1024 = 36 cycles; 2048 + 2304 + 2048 bytes = 100 cycles
    assertThat(model.globalOp(g, g.op("conv"), chip)).isEqualTo(new GroupCost(100, 6400));
    // relu: 2048 + 2048 bytes = 64 cycles
    assertThat(model.globalOp(g, g.op("relu"), chip)).isEqualTo(new GroupCost(64, 4096));
    assertThat(model.ungrouped(g, g.ops(), chip)).isEqualTo(new GroupCost(164, 10496));
  }

  @Test
  void aGroupPaysPerRowMaxWithTheHeldWeightOnce() {
    Graph g = GroupFixtures.convRelu();
    var b =
        (GroupCandidate.Built)
            GroupCandidate.build(
                "g", g, g.ops(), chip, ShapeSecs.nh(1, 2), SliceRules.V0, new V0Timesteps());
    GroupCost c =
        model.group(g, g.ops(), chip, ShapeSecs.nh(1, 2), b.slices().slices(), b.timesteps());
    // iteration 0: load x rows 0-4 (1280 B) + w (2304 B) = 56 | conv half = 18 | relu 1 | store
    // 1024 B = 16
    // iteration 1: load x rows 3-7 (1280 B) = 20 | 18 | 1 | 16
    assertThat(c.cycles()).isEqualTo(91 + 55);
    assertThat(c.ddrBytes()).isEqualTo(1280 + 2304 + 1024 + 1280 + 1024);
  }
}
