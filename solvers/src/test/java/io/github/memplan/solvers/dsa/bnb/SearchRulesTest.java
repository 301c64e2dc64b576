package io.github.memplan.solvers.dsa.bnb;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.memplan.core.dsa.Buffer;
import io.github.memplan.core.dsa.DsaFixtures;
import io.github.memplan.core.dsa.DsaInstance;
import io.github.memplan.core.solve.Budget;
import io.github.memplan.solvers.dsa.SearchModel;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Each pruning rule of {@link Search} on a small instance traced by hand. All use the preorder
 * {@code W} (longer lifetime first, then instance order), and the trace lists placements ({@code
 * place x@o}), placements undone because some buffer no longer fits ({@code capacity-fail}) or a
 * section overflows ({@code inference-fail}), candidates cut by dominance or by the cross-section
 * limit ({@code dominance-cut}, {@code inference-cut}), hatless cuts, splits and leaves. Sections
 * are the cross sections just before each end time.
 */
class SearchRulesTest {
  private static final Search.Rules ALL = Search.Rules.ALL;

  private record Run(int status, long nodes, List<String> trace) {}

  private static Run run(long cap, Search.Rules rules, Buffer... buffers) {
    SearchModel md = new SearchModel(DsaInstance.of("t", List.of(buffers)));
    Search s =
        new Search(md, cap, Budget.unlimited(), new Search.Counter(), new Preorder("W"), rules);
    List<String> trace = new ArrayList<>();
    s.traceInto(trace);
    int status = s.run(Long.MAX_VALUE);
    return new Run(status, s.nodes(), trace);
  }

  private static Search.Rules without(String rule) {
    return switch (rule) {
      case "inference" -> new Search.Rules(true, true, false, true, true);
      case "dominance" -> new Search.Rules(true, false, true, true, true);
      case "hatless" -> new Search.Rules(true, true, true, false, true);
      case "decomposition" -> new Search.Rules(true, true, true, true, false);
      default -> throw new IllegalArgumentException(rule);
    };
  }

  /**
   * Capacity 8; a[0,3) 1, b[2,4) 3, c[0,2) 2, d[1,3) 4, e[3,4) 2. Sections s0 {a,c,d} (7 bytes), s1
   * {a,b,d} (8), s2 {b,e} (5); ranks a, b, c, d, e. The root places a@0 (b, c, d rise to 1), then
   * e@0 (b rises to 2). Next c@1 raises d to 3: s1 then holds b and d, unplaced, with floor
   * min(m_b, m_d) = 2 and 7 bytes: 9 > 8. Cross-section inference undoes c@1 at once, before any
   * buffer of s1 is placed. Then d@1 (c, b rise to 5) empties the cut between s0 and s1, so {c} and
   * {b} are solved apart: c@5, b@5 (5 + 3 = 8).
   */
  private static final Buffer[] INFERENCE = {
    Buffer.of("a", 0, 3, 1),
    Buffer.of("b", 2, 4, 3),
    Buffer.of("c", 0, 2, 2),
    Buffer.of("d", 1, 3, 4),
    Buffer.of("e", 3, 4, 2)
  };

  @Test
  void crossSectionInferenceUndoesAPlacementThatOverflowsAnotherSection() {
    Run on = run(8, ALL, INFERENCE);
    assertThat(on.status()).isEqualTo(Search.FOUND);
    assertThat(on.trace())
        .containsExactly(
            "place a@0",
            "place e@0",
            "place c@1",
            "inference-fail c@1",
            "place d@1",
            "split [0,1) [1,3)",
            "place c@5",
            "leaf",
            "place b@5",
            "leaf");
    // without it, c@1 stands until b@2 and d@3 each fail to leave room for the other
    Run off = run(8, without("inference"), INFERENCE);
    assertThat(off.status()).isEqualTo(Search.FOUND);
    assertThat(off.trace())
        .startsWith(
            "place a@0",
            "place e@0",
            "place c@1",
            "place b@2",
            "capacity-fail b@2",
            "place d@3",
            "capacity-fail d@3")
        .doesNotContain("inference-fail c@1");
    assertThat(off.nodes()).isGreaterThan(on.nodes());
  }

  @Test
  void dynamicDecompositionSolvesIndependentSidesApart() {
    // the same run as above, without splitting: c and b are placed in one search
    Run off = run(8, without("decomposition"), INFERENCE);
    assertThat(off.status()).isEqualTo(Search.FOUND);
    assertThat(off.trace())
        .containsExactly(
            "place a@0",
            "place e@0",
            "place c@1",
            "inference-fail c@1",
            "place d@1",
            "place b@5",
            "place c@5",
            "leaf");
  }

  /**
   * Capacity 4; a[0,3) 1 aligned to 4, b[0,1) 1 aligned to 4, c[1,4) 1, d[3,4) 2 aligned to 2;
   * ranks a, c, b, d. a and b coexist and need multiples of 4, so one ends at 5: infeasible. At the
   * root a@0, c@0 and b@0 each push a or b to 4 (capacity-fail). d@0 raises c to 2; below it a and
   * b still have m = 0, so nothing may go at or above min(m + size) = 1: c@2 is cut by dominance (a
   * and b themselves come before d in rank at offset 0, so the canonical rule skips them).
   */
  private static final Buffer[] DOMINANCE = {
    Buffer.of("a", 0, 3, 1).withAlignment(4),
    Buffer.of("b", 0, 1, 1).withAlignment(4),
    Buffer.of("c", 1, 4, 1),
    Buffer.of("d", 3, 4, 2).withAlignment(2)
  };

  @Test
  void dominanceCutsAPlacementAboveAHoleAnUnplacedBufferFits() {
    Run on = run(4, ALL, DOMINANCE);
    assertThat(on.status()).isEqualTo(Search.NOT_FOUND);
    assertThat(on.trace())
        .containsExactly(
            "place a@0",
            "capacity-fail a@0",
            "place c@0",
            "capacity-fail c@0",
            "place b@0",
            "capacity-fail b@0",
            "place d@0",
            "dominance-cut c@2");
    Run off = run(4, without("dominance"), DOMINANCE);
    assertThat(off.status()).isEqualTo(Search.NOT_FOUND);
    assertThat(off.trace()).endsWith("place d@0", "place c@2", "capacity-fail c@2");
  }

  /**
   * Capacity 4, decomposition off (with it, a buffer becomes hatless only alone in its own
   * sub-partition); L[0,3) 1, h[0,1) 2, x[1,3) 1 and y[1,3) 1 both aligned to 2; ranks L, x, y, h.
   * L@0 lifts h to 1 and x, y to 2. h@1 is then hatless: L, its only neighbour, is placed. x@2
   * pushes y to 4 and y@2 pushes x to 4 (4 + 1 > 4), so h's subtree fails; x and y could only come
   * later in the canonical order than h, whose m never changes again, so the node fails without
   * trying them. The root goes on with x@0, h@0, L@2 (fails: y to 4), y@2, L@3.
   */
  private static final Buffer[] HATLESS = {
    Buffer.of("L", 0, 3, 1),
    Buffer.of("h", 0, 1, 2),
    Buffer.of("x", 1, 3, 1).withAlignment(2),
    Buffer.of("y", 1, 3, 1).withAlignment(2)
  };

  @Test
  void hatlessPruningStopsANodeAfterAHatlessBufferFails() {
    Search.Rules noSplit = without("decomposition");
    Run on = run(4, noSplit, HATLESS);
    assertThat(on.status()).isEqualTo(Search.FOUND);
    assertThat(on.trace())
        .containsExactly(
            "place L@0",
            "place h@1",
            "place x@2",
            "capacity-fail x@2",
            "place y@2",
            "capacity-fail y@2",
            "hatless-cut h",
            "place x@0",
            "place h@0",
            "place L@2",
            "capacity-fail L@2",
            "place y@2",
            "place L@3",
            "leaf");
    Run off = run(4, new Search.Rules(true, true, true, false, false), HATLESS);
    assertThat(off.status()).isEqualTo(Search.FOUND);
    assertThat(off.trace())
        .startsWith(
            "place L@0",
            "place h@1",
            "place x@2",
            "capacity-fail x@2",
            "place y@2",
            "capacity-fail y@2",
            "place x@2",
            "capacity-fail x@2",
            "place y@2",
            "capacity-fail y@2",
            "place x@0");
  }

  /**
   * Capacity 3; q[0,2) 1 and p[0,2) 2 are twins (same lifetime), ranked q, p. q@0 then p@1 would
   * put the larger twin on the smaller: cut, since p@0, q@2 fills the same addresses. Without the
   * rule the first stack is kept.
   */
  @Test
  void twinsAreStackedLargerFirst() {
    Buffer[] twins = {Buffer.of("q", 0, 2, 1), Buffer.of("p", 0, 2, 2)};
    assertThat(run(3, ALL, twins).trace())
        .containsExactly("place q@0", "twin-cut p@1", "place p@0", "place q@2", "leaf");
    assertThat(run(3, new Search.Rules(true, true, true, true, true, false), twins).trace())
        .containsExactly("place q@0", "place p@1", "leaf");
  }

  /**
   * The fragmentation fixture (max load 4, optimum 5, see {@link DsaFixtures#fragmentation}) at
   * capacity 4: every combination of rules proves it infeasible; the canonical order and the
   * cross-section inference each shrink the tree.
   */
  @Test
  void everyRuleKeepsTheProofAndCanonicalOrderAndInferenceShrinkIt() {
    Buffer[] f = DsaFixtures.fragmentation().instance().buffers().toArray(new Buffer[0]);
    Run all = run(4, ALL, f);
    assertThat(all.status()).isEqualTo(Search.NOT_FOUND);
    for (String rule : List.of("inference", "dominance", "hatless", "decomposition")) {
      assertThat(run(4, without(rule), f).status())
          .as("without %s", rule)
          .isEqualTo(Search.NOT_FOUND);
    }
    Run noCanonical = run(4, new Search.Rules(false, true, true, false, true), f);
    assertThat(noCanonical.status()).isEqualTo(Search.NOT_FOUND);
    assertThat(noCanonical.nodes()).isGreaterThan(all.nodes());
    assertThat(run(4, without("inference"), f).nodes()).isGreaterThan(all.nodes());
    assertThat(run(5, ALL, f).status()).isEqualTo(Search.FOUND);
  }
}
