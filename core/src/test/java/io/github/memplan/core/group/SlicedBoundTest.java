package io.github.memplan.core.group;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.memplan.core.chip.Chip;
import io.github.memplan.core.chip.Chips;
import io.github.memplan.core.ir.Graph;
import io.github.memplan.core.ir.Op;
import java.util.List;
import org.junit.jupiter.api.Test;

class SlicedBoundTest {
  private static final RooflineCostModel MODEL = new RooflineCostModel();

  /**
   * The claim {@link SlicedBound#best} rests on: slicing at {@code (n, c, h, w)} succeeds exactly
   * when it succeeds on each axis alone, and gives every tensor the ranges of those slicings, axis
   * by axis; checked on every range and secs up to 4 x 2 x 8 x 8 of the fixtures, on bm1684x (W
   * split, hulls) and cv183x (restarts refused).
   */
  @Test
  void slicingTreatsTheAxesApart() {
    int compared = 0;
    for (Graph g :
        List.of(
            GroupFixtures.convStackS2(),
            GroupFixtures.convReluChain("chain", 8, 16, 3, 1),
            GroupingBoundTest.hiddenAndExposedWeights(),
            GroupTypeTest.layerNormAddMatMul(),
            GroupTypeTest.smallCSilu())) {
      for (Chip chip : List.of(Chips.get("bm1684x"), Chips.get("cv183x"))) {
        GroupProblem p = GroupProblem.of(g, chip, GroupOptions.DEFAULT);
        SliceRules rules = p.options().rules(SliceRules.TODAY);
        for (int[] bg : p.baseGroups()) {
          for (int i = bg[0]; i <= bg[1]; i++) {
            for (int j = i + 1; j <= bg[1]; j++) {
              List<Op> ops = p.order().subList(i, j + 1);
              for (int n = 1; n <= 4; n++) {
                for (int c = 1; c <= 2; c++) {
                  for (int h = 1; h <= 8; h++) {
                    for (int w = 1; w <= 8; w++) {
                      int[] secs = {n, c, h, w};
                      SliceResult all =
                          Slicing.slice(g, ops, chip, new ShapeSecs(n, c, h, w), rules);
                      SliceResult[] alone = new SliceResult[4];
                      boolean each = true;
                      for (Axis a : Axis.values()) {
                        int[] one = {1, 1, 1, 1};
                        one[a.ordinal()] = secs[a.ordinal()];
                        alone[a.ordinal()] =
                            Slicing.slice(
                                g, ops, chip, new ShapeSecs(one[0], one[1], one[2], one[3]), rules);
                        each &= alone[a.ordinal()] instanceof SliceResult.Sliced;
                      }
                      String what =
                          g.name() + " " + chip.name() + " " + i + ".." + j + " " + n + c + h + w;
                      assertThat(all instanceof SliceResult.Sliced).as(what).isEqualTo(each);
                      if (!(all instanceof SliceResult.Sliced s)) {
                        continue;
                      }
                      compared++;
                      for (var e : s.slices().entrySet()) {
                        for (Axis a : Axis.values()) {
                          SliceInfo one =
                              ((SliceResult.Sliced) alone[a.ordinal()]).slices().get(e.getKey());
                          assertThat(e.getValue().get(a))
                              .as(what + " " + e.getKey() + " " + a)
                              .isEqualTo(one.get(a));
                        }
                      }
                    }
                  }
                }
              }
            }
          }
        }
      }
    }
    assertThat(compared).isGreaterThan(1000);
  }

  /**
   * The least bound over every secs is the bound at one of them: at the secs it picks it equals
   * {@link SlicedBound#at} there (no LMEM limit on these small groups), and it is never above
   * {@link SlicedBound#at} at any secs that slices.
   */
  @Test
  void theLeastBoundIsTheBoundAtTheBestSecs() {
    Graph g = GroupFixtures.convReluChain("chain", 8, 16, 3, 1);
    Chip chip = Chips.get("bm1684x");
    GroupProblem p = GroupProblem.of(g, chip, GroupOptions.DEFAULT);
    SliceRules rules = p.options().rules(SliceRules.TODAY);
    SlicedBound bound = new SlicedBound(MODEL, g, chip);
    List<Op> ops = p.order();
    GroupBoundary io = GroupBoundary.of(g, ops);
    GroupingBound.Part best = bound.best(ops, rules);
    long least = Long.MAX_VALUE;
    for (int h = 1; h <= 16; h++) {
      for (int w = 1; w <= 16; w++) {
        if (Slicing.slice(g, ops, chip, new ShapeSecs(1, 1, h, w), rules)
            instanceof SliceResult.Sliced s) {
          long at = bound.at(ops, io, s.slices()).cycles();
          assertThat(best.cycles()).isLessThanOrEqualTo(at);
          least = Math.min(least, at);
        }
      }
    }
    assertThat(best.cycles()).isEqualTo(least);
  }
}
